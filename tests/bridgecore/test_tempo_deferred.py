"""Issue 27: the PBN reader's default, ``tempo="deferred"``. Each board's TempoTable is kept
as text and read the first time its record's calls, cards, tables or problems are (or the
record is compared, printed, copied, pickled or written), and every one the first time the
file's problems are: whichever is read first and in whatever order, the file and its records
are the ones an eager read makes, broken tables and their problems (lines, place) included."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from collections.abc import Callable
from pathlib import Path

import pytest

from bridgecore.pbn import PbnFile, iter_pbn, read_pbn
from bridgecore.pbn_writer import write_pbn
from bridgecore.record import GameRecord
from bridgecore.tempo import TEMPO_TABLE, board_actions, resolve_tempo
from bridgecore.tempo_reading import BATCH, DeferredRecord
from tests.bridgecore.tempo_boards import broken_tempo_file, timed_board

REALDATA = Path(__file__).resolve().parents[1] / "data" / "realdata"
TEXT = broken_tempo_file()
BROKEN = (1, 2, 3, 4, 6)      # the records (from 0) whose tables have problems


def _eager() -> PbnFile:
    return read_pbn(TEXT, file="t.pbn", tempo="eager")


def _deferred() -> PbnFile:
    return read_pbn(TEXT, file="t.pbn")


def _same(eager: GameRecord, got: GameRecord) -> None:
    """``got`` is, field by field, the record an eager read made (each field read directly:
    the record compared as a whole is another test)."""
    assert type(got) is GameRecord and got.raw_tempo is None
    for f in dataclasses.fields(GameRecord):
        if f.compare:
            assert getattr(got, f.name) == getattr(eager, f.name), f.name
    assert list(got.tables) == list(eager.tables)
    assert [(c.time, c.call) for c in got.calls] == [(c.time, c.call) for c in eager.calls]
    assert [(p.time, p.card) for p in got.plays] == [(p.time, p.card) for p in eager.plays]
    assert [p.line for p in got.problems] == [p.line for p in eager.problems]


def test_nothing_is_read_until_a_record_is_and_the_deal_costs_nothing() -> None:
    got = _deferred()
    eager = _eager()
    assert type(got) is not PbnFile and all(type(r) is DeferredRecord for r in got.records)
    # What a deal-only caller reads leaves every table unread.
    assert [(r.board, r.deal, r.dealer, r.tags, r.line, r.contract) for r in got.records] == \
        [(r.board, r.deal, r.dealer, r.tags, r.line, r.contract) for r in eager.records]
    assert all(r.raw_tempo is not None for r in got.records)
    assert all(type(r) is DeferredRecord for r in got.records)
    assert type(got) is not PbnFile and got.records and got.header == eager.header


def test_the_files_problems_read_every_table_in_place() -> None:
    got, eager = _deferred(), _eager()
    tempo_problems = [p for p in eager.problems if p.message.startswith(TEMPO_TABLE)]
    assert {p.board for p in tempo_problems} == {2, 3, 4, 5, 7}
    assert got.problems == eager.problems
    assert [p.line for p in got.problems] == [p.line for p in eager.problems]
    assert type(got) is PbnFile and got.pending == []
    for e, r in zip(eager.records, got.records, strict=True):
        _same(e, r)
    assert got == eager and got.resolve_tempo() == [] and got.problems == eager.problems


def test_records_read_first_in_any_order_leave_the_files_problems_whole() -> None:
    got, eager = _deferred(), _eager()
    # Broken boards read on their own first, last to first, each by another field.
    reads: list[Callable[[GameRecord], object]] = [
        lambda r: r.calls, lambda r: r.plays, lambda r: r.tables, lambda r: r.problems,
        lambda r: r.calls[0].time]
    for n, read in zip(reversed(BROKEN), reads, strict=True):
        read(got.records[n])
        _same(eager.records[n], got.records[n])
    assert type(got.records[0]) is DeferredRecord        # the others still unread
    assert got.problems == eager.problems
    for e, r in zip(eager.records, got.records, strict=True):
        _same(e, r)


def test_resolve_tempo_on_a_deferred_record_tells_the_file_too() -> None:
    got, eager = _deferred(), _eager()
    found = resolve_tempo(got.records[1])
    assert found and found == eager.records[1].problems[:len(found)]
    assert found == [p for p in eager.records[1].problems if p.message.startswith(TEMPO_TABLE)]
    _same(eager.records[1], got.records[1])
    assert resolve_tempo(got.records[1]) == []
    assert got.resolve_tempo() == [p for r in eager.records for p in r.problems
                                   if p.message.startswith(TEMPO_TABLE)]
    assert got.problems == eager.problems


_FIRST_READS: dict[str, Callable[[GameRecord, GameRecord], object]] = {
    "equal": lambda r, e: r == e,
    "equal, reflected": lambda r, e: e == r,
    "not equal": lambda r, e: r != e,
    "repr": lambda r, e: repr(r),
    "str": lambda r, e: str(r),
    "copy": lambda r, e: copy.copy(r),
    "deepcopy": lambda r, e: copy.deepcopy(r),
    "pickle": lambda r, e: pickle.loads(pickle.dumps(r)),
    "replace": lambda r, e: dataclasses.replace(r, board=r.board),
    "asdict": lambda r, e: dataclasses.asdict(r),
    "written": lambda r, e: write_pbn([r]),
    "board_actions": lambda r, e: board_actions(r),
    "problem added": lambda r, e: r.problem("added"),
    "calls set": lambda r, e: setattr(r, "calls", list(r.calls)),
}


@pytest.mark.parametrize("read", list(_FIRST_READS), ids=list(_FIRST_READS))
@pytest.mark.parametrize("n", [0, *BROKEN, 7, 9])
def test_whatever_reads_a_record_first_sees_the_eager_record(read: str, n: int) -> None:
    got, eager = _deferred().records[n], _eager().records[n]
    made = _FIRST_READS[read](got, eager)
    if read == "problem added":
        eager.problem("added")
    _same(eager, got)
    assert got == eager and eager == got and (got != eager) is False
    assert repr(got) == repr(eager)
    if read in ("equal", "equal, reflected"):
        assert made is True
    elif read == "not equal":
        assert made is False
    elif read in ("copy", "deepcopy", "pickle", "replace"):
        assert type(made) is GameRecord and made == eager
        assert isinstance(made, GameRecord)
        assert [c.time for c in made.calls] == [c.time for c in eager.calls]
    elif read == "asdict":
        assert made == dataclasses.asdict(eager)
    elif read == "written":
        assert made == write_pbn([eager])
    elif read == "board_actions":
        assert made == board_actions(eager)


def test_two_deferred_records_compare_as_their_eager_ones() -> None:
    one, two = _deferred().records, _deferred().records
    assert one[3] == two[3] and one[3] != two[4]
    assert type(two[4]) is GameRecord       # compared: read
    assert one[3] == _eager().records[3]


@pytest.mark.parametrize("read", ["pickle", "deepcopy", "repr", "equal"])
def test_a_deferred_file_copied_printed_or_compared_is_the_eager_file(read: str) -> None:
    got, eager = _deferred(), _eager()
    if read == "pickle":
        made: object = pickle.loads(pickle.dumps(got))
    elif read == "deepcopy":
        made = copy.deepcopy(got)
    elif read == "repr":
        made = got
        assert repr(got) == repr(eager)
    else:
        assert got == eager
        made = got
    assert type(made) is PbnFile and made == eager
    assert isinstance(made, PbnFile) and made.problems == eager.problems


def test_a_record_first_read_reads_the_next_ones_with_it() -> None:
    text = write_pbn([timed_board(n) for n in range(1, BATCH + 11)])
    eager = read_pbn(text, tempo="eager")
    got = read_pbn(text)
    assert got.records[5].calls == eager.records[5].calls
    assert [type(r) is GameRecord for r in got.records] == \
        [False] * 5 + [True] * BATCH + [False] * 5
    assert got.records[-1] == eager.records[-1]          # the last: no next one
    assert [type(r) is GameRecord for r in got.records[-5:]] == [False] * 4 + [True]
    assert type(got.records[0]) is DeferredRecord
    assert got.problems == eager.problems and got == eager


def test_iter_pbn_reads_each_record_when_first_read() -> None:
    eager = _eager().records
    records = list(iter_pbn(TEXT, file="t.pbn"))
    assert [type(r) for r in records] == [DeferredRecord] * 10
    assert all(r.raw_tempo is not None and r.raw_tempo.batch is None for r in records)
    assert records[0].calls == eager[0].calls       # read alone: no file to read on
    assert [type(r) for r in records[:2]] == [GameRecord, DeferredRecord]
    for e, r in zip(eager, records, strict=True):
        assert r.problems == e.problems     # read here first
        _same(e, r)


@pytest.mark.parametrize("path", sorted((REALDATA / "pbn-play").glob("*.pbn")),
                         ids=lambda p: p.name)
def test_files_without_tempo_are_plain_records(path: Path) -> None:
    got = read_pbn(path)
    assert type(got) is PbnFile and got.pending == []
    assert all(type(r) is GameRecord for r in got.records)
    eager = read_pbn(path, tempo="eager")
    assert got == eager and got.problems == eager.problems


def test_a_deferred_record_is_made_only_of_a_record_read() -> None:
    with pytest.raises(TypeError, match=r"DeferredRecord\.of\(record\)"):
        DeferredRecord(board=1)


def test_tempo_is_deferred_eager_or_lazy() -> None:
    with pytest.raises(ValueError, match="'deferred', 'eager' or 'lazy'"):
        read_pbn('[Board "1"]\n', tempo="later")
    with pytest.raises(ValueError, match="'deferred', 'eager' or 'lazy'"):
        list(iter_pbn('[Board "1"]\n', tempo="at once"))
