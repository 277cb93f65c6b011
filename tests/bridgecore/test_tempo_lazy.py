"""Issue 27: a PBN read with ``tempo="lazy"`` keeps each TempoTable as text until something
reads its times; resolved, the file and its records are what an eager read makes (tables,
times, problems with their lines and their place among the file's)."""

from __future__ import annotations

import gc
import random
from pathlib import Path

import pytest

from bridgecore.bigdeal import random_deal
from bridgecore.pbn import iter_pbn, read_pbn
from bridgecore.pbn_writer import write_pbn
from bridgecore.randomgame import random_record
from bridgecore.record import GameRecord
from bridgecore.tempo import TEMPO_TABLE, board_actions, resolve_tempo, tempo_table

REALDATA = Path(__file__).resolve().parents[1] / "data" / "realdata"


def _timed_board(n: int) -> GameRecord:
    rng = random.Random(n)
    record = random_record(rng, n, random_deal(rng))
    table = tempo_table(record, started_at=1000.0 * n)
    assert table is not None
    record.tables[TEMPO_TABLE] = table
    return record


def _rows(record: GameRecord) -> list[list[str]]:
    return record.tables[TEMPO_TABLE].rows


def _tempo_file() -> str:
    """Boards whose tables are whole, broken in every way the reader knows, or odd text."""
    boards = [_timed_board(n) for n in range(1, 10)]
    _rows(boards[1])[3][2] = "7NT"                   # a call that is not the record's
    _rows(boards[1])[-1][3] = "nan"                  # a time that is no number
    rows = _rows(boards[2])
    rows.append(list(rows[2]))                       # a row given twice
    rows[5][2] = "ZZ"
    rows = _rows(boards[3])
    rows[1], rows[2] = rows[2], rows[1]              # out of order
    rows[-1][2] = "C2"                               # a card that is not the record's
    del _rows(boards[4])[7][3:]                      # a short row
    _rows(boards[4])[-2][2] = "S3"
    boards[5].tables[TEMPO_TABLE].columns = ["Action", "Seat", "Item"]   # no Time column
    text = write_pbn(boards)
    # A string, a comment and an escape line inside board 7's table; board 8's table empty.
    lines = text.split("\r\n")
    tempo_tags = [i for i, line in enumerate(lines) if line.startswith("[TempoTable")]
    at = tempo_tags[6]
    lines[at + 3] += ' "quoted item"'
    lines.insert(at + 5, "{a comment in the table}")
    lines.insert(at + 8, "% an escape line")
    lines[at + 10] = lines[at + 10].replace(lines[at + 10].split()[2], "HX", 1)
    at = [i for i, line in enumerate(lines) if line.startswith("[TempoTable")][7]
    end = at + 1
    while lines[end] and not lines[end].startswith("["):
        end += 1
    del lines[at + 1:end]
    return "\r\n".join(lines) + '\r\n[Board "10"]\r\n[TempoTable "Action;Time"]\r\nC1 x\r\n'


def _same(eager: GameRecord, lazy: GameRecord) -> None:
    assert lazy.raw_tempo is None
    assert lazy == eager
    assert lazy.problems == eager.problems
    assert list(lazy.tables) == list(eager.tables)
    assert [(c.time, c.call) for c in lazy.calls] == [(c.time, c.call) for c in eager.calls]


def test_lazy_reading_resolved_is_the_eager_read_with_its_problems_in_place() -> None:
    text = _tempo_file()
    eager = read_pbn(text, file="t.pbn")
    lazy = read_pbn(text, file="t.pbn", tempo="lazy")
    assert len(eager.records) == len(lazy.records) == 10
    # Every tempo board's problems are there eagerly, each at its row's line (after the
    # comment and the escape line of board 7's table too) ...
    tempo_problems = [p for p in eager.problems if p.message.startswith(TEMPO_TABLE)]
    assert {p.board for p in tempo_problems} == {2, 3, 4, 5, 7}
    lines = text.split("\r\n")
    for p in tempo_problems:
        assert p.line is not None
        key, item = p.message.split(":")[0].split()[1], p.message.split()[2]
        assert lines[p.line - 1].split()[:3:2] == [key, item], p
    # ... and not yet lazily: the tables are text, the actions untimed.
    assert not any(p.message.startswith(TEMPO_TABLE) for p in lazy.problems)
    assert all(r.raw_tempo is not None for r in lazy.records)
    assert all(TEMPO_TABLE not in r.tables for r in lazy.records)
    assert all(c.time is None for r in lazy.records for c in r.calls)
    assert lazy.records[0] != eager.records[0]
    found = lazy.resolve_tempo()
    assert found == [p for r in eager.records for p in r.problems
                     if p.message.startswith(TEMPO_TABLE)]
    assert found
    assert lazy.problems == eager.problems
    for e, lz in zip(eager.records, lazy.records, strict=True):
        _same(e, lz)
    assert lazy.resolve_tempo() == [] and lazy.problems == eager.problems


def test_a_record_resolved_alone_and_the_writer_give_the_eager_record() -> None:
    text = _tempo_file()
    eager = read_pbn(text).records
    lazy = list(iter_pbn(text, tempo="lazy"))
    first = resolve_tempo(lazy[1])
    assert first and first == lazy[1].problems[:len(first)]
    _same(eager[1], lazy[1])
    assert resolve_tempo(lazy[1]) == []
    # The writer reads a lazy record's table before writing its times.
    assert write_pbn(lazy[2:4]) == write_pbn(eager[2:4])
    _same(eager[2], lazy[2])
    assert board_actions(lazy[3]) == board_actions(eager[3])


@pytest.mark.parametrize("path", sorted((REALDATA / "pbn-play").glob("*.pbn")),
                         ids=lambda p: p.name)
def test_files_without_tempo_read_the_same_lazily(path: Path) -> None:
    eager = read_pbn(path)
    lazy = read_pbn(path, tempo="lazy")
    assert lazy.pending == []
    assert lazy.records == eager.records and lazy.problems == eager.problems


def test_tempo_is_eager_or_lazy() -> None:
    with pytest.raises(ValueError, match="'eager' or 'lazy'"):
        read_pbn('[Board "1"]\n', tempo="later")


def test_reading_and_resolving_leave_the_collector_as_they_found_it() -> None:
    text = _tempo_file()
    assert gc.isenabled()
    read_pbn(text, tempo="lazy").resolve_tempo()
    assert gc.isenabled()
    gc.disable()
    try:
        read_pbn(text, tempo="lazy").resolve_tempo()
        assert not gc.isenabled()
    finally:
        gc.enable()
