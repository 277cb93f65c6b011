"""Issue 27: the eager read of Tenace's ``TempoTable`` in one pass. A table read from whole
lines keeps its text until its rows are asked for, a timed call or card is made once (and
is the frozen record ``dataclasses.replace`` makes), and a table read by position gives the
times and problems a table read by key gives."""

from __future__ import annotations

import dataclasses
import hashlib

import pytest

from bridgecore.calls import Call
from bridgecore.cards import Card, Seat
from bridgecore.pbn import read_pbn
from bridgecore.pbn_writer import write_pbn
from bridgecore.record import CallRecord, CardRecord, Table, timed_call, timed_card
from bridgecore.tempo import TEMPO_TABLE
from tests.bridgecore.test_tempo import golden_record


def test_a_table_of_whole_lines_is_split_when_its_rows_are_first_read() -> None:
    columns = ["Action", "Time"]
    text = "  0 1.5\r\n C1  2.0 \n"
    table = Table.of_lines(columns, text, 7)
    assert table.text == text and table.first_line == 7
    same = Table.of_lines(list(columns), text, 30)      # elsewhere in a file: equal
    assert table == same and table.text == text        # compared without splitting
    assert table == Table(columns, [["0", "1.5"], ["C1", "2.0"]])
    assert table.rows == [["0", "1.5"], ["C1", "2.0"]] and table.text is None
    assert table.lines == [7, 8]
    assert table != Table(columns, [["0", "1.5"]])
    assert table != Table.of_lines(columns, "  0 1.5\n", 7)
    assert repr(table) == "Table(columns=['Action', 'Time'], rows=[['0', '1.5'], ['C1', '2.0']])"
    other = Table.of_lines(columns, text, 1)
    other.rows = [["0", "9"]]               # a table given new rows drops its text
    assert other.text is None and other.rows == [["0", "9"]] and other.lines == []
    assert table.column("Time") == ["1.5", "2.0"]
    with pytest.raises(TypeError):
        hash(table)


def test_a_timed_call_or_card_is_the_frozen_record_replace_makes() -> None:
    call = CallRecord(Seat.SOUTH, Call.parse("3NT"), None, True, "to play", ("$1",))
    card = CardRecord(Seat.EAST, Card.parse("H2"), None, ("^R",))
    for made, wanted in ((timed_call(call, 12.5), dataclasses.replace(call, time=12.5)),
                         (timed_card(card, 0.25), dataclasses.replace(card, time=0.25))):
        assert type(made) is type(wanted) and made == wanted and hash(made) == hash(wanted)
        assert repr(made) == repr(wanted)
        assert dataclasses.astuple(made) == dataclasses.astuple(wanted)
        with pytest.raises(dataclasses.FrozenInstanceError):
            made.time = 1.0     # type: ignore[misc]
    assert call.time is None and card.time is None      # the originals stay as they were


def _broken_text() -> str:
    """A board whose table is in the writer's order with a call and a card not the
    record's and times that are no time."""
    record = golden_record()
    rows = record.tables[TEMPO_TABLE].rows
    first_card = next(i for i, r in enumerate(rows) if r[0] == "P1")
    rows[3][2] = "7NT" if rows[3][2] != "7NT" else "7S"     # C3 not the record's
    rows[first_card + 5][2] = "C2" if rows[first_card + 5][2] != "C2" else "D2"  # P6
    rows[4][3] = "?"
    rows[first_card + 1][3] = "-inf"
    return write_pbn([record])


def test_by_position_or_by_key_a_table_gives_the_same_times_and_problems() -> None:
    """The writer's order is read by position; the same rows in another order (the start
    row last) go by key: every time and every problem's message is the same, and each
    problem names its row's line."""
    text = _broken_text()
    (by_position,) = read_pbn(text).records
    lines = text.split("\n")
    start = next(i for i, ln in enumerate(lines) if ln.startswith("[TempoTable"))
    end = next(i for i in range(start + 1, len(lines)) if not lines[i].strip()
               or lines[i].startswith("["))
    rows = lines[start + 1:end]
    reordered = "\n".join(lines[:start + 1] + rows[1:] + rows[:1] + lines[end:])
    (by_key,) = read_pbn(reordered).records
    assert by_position.calls == by_key.calls and by_position.plays == by_key.plays
    assert [p.message for p in by_position.problems] == [p.message for p in by_key.problems]
    messages = [p.message.split(":")[0] for p in by_position.problems]
    assert messages == [f"{TEMPO_TABLE} C3", f"{TEMPO_TABLE} P6"]
    for problem in by_position.problems:
        key = problem.message.split(":")[0].split()[1]
        assert problem.line is not None and lines[problem.line - 1].split()[0] == key
    assert by_position.calls[3].time is None and by_position.plays[1].time is None
    assert sum(c.time is not None for c in by_position.calls) == len(by_position.calls) - 2
    assert sum(p.time is not None for p in by_position.plays) == len(by_position.plays) - 2


def test_a_table_read_from_whole_lines_writes_back_the_same_bytes() -> None:
    text = _broken_text()
    first = read_pbn(text)
    again = write_pbn(first.records)
    digest = hashlib.sha256(again.encode()).hexdigest()
    assert hashlib.sha256(write_pbn(read_pbn(again).records).encode()).hexdigest() == digest
    (record,) = first.records
    assert record.tables[TEMPO_TABLE].text is None      # read to time the board's actions
    (back,) = read_pbn(again).records
    assert back.tables == record.tables and back.plays == record.plays


def test_crlf_lone_cr_and_mixed_line_ends_read_the_same_board() -> None:
    """The text's line ends are made ``\\n`` in one pass, a second only for a lone CR."""
    text = write_pbn([golden_record()])        # the writer's CRLF
    unix = text.replace("\r\n", "\n")
    old_mac = unix.replace("\n", "\r")
    lines = unix.split("\n")
    mixed = "\r\n".join(lines[:10]) + "\r" + "\n".join(lines[10:])
    wanted = read_pbn(unix)
    for variant in (text, old_mac, mixed):
        got = read_pbn(variant)
        assert got.records == wanted.records and got.problems == wanted.problems
        assert [r.line for r in got.records] == [r.line for r in wanted.records]
    assert all(p.time is not None for p in wanted.records[0].plays)
