"""Issue 27: a PBN read with ``tempo="lazy"`` keeps each TempoTable as text until something
reads its times; resolved, the file and its records are what an eager read makes (tables,
times, problems with their lines and their place among the file's)."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from bridgecore.pbn import iter_pbn, read_pbn
from bridgecore.pbn_writer import write_pbn
from bridgecore.record import GameRecord
from bridgecore.tempo import TEMPO_TABLE, board_actions, resolve_tempo
from tests.bridgecore.tempo_boards import broken_tempo_file

REALDATA = Path(__file__).resolve().parents[1] / "data" / "realdata"


def _same(eager: GameRecord, lazy: GameRecord) -> None:
    assert lazy.raw_tempo is None
    assert lazy == eager
    assert lazy.problems == eager.problems
    assert list(lazy.tables) == list(eager.tables)
    assert [(c.time, c.call) for c in lazy.calls] == [(c.time, c.call) for c in eager.calls]


def test_lazy_reading_resolved_is_the_eager_read_with_its_problems_in_place() -> None:
    text = broken_tempo_file()
    eager = read_pbn(text, file="t.pbn", tempo="eager")
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
    text = broken_tempo_file()
    eager = read_pbn(text, tempo="eager").records
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
    eager = read_pbn(path, tempo="eager")
    lazy = read_pbn(path, tempo="lazy")
    assert lazy.pending == []
    assert lazy.records == eager.records and lazy.problems == eager.problems


def test_tempo_is_eager_or_lazy() -> None:
    with pytest.raises(ValueError, match="'eager' or 'lazy'"):
        read_pbn('[Board "1"]\n', tempo="later")


def test_reading_and_resolving_leave_the_collector_as_they_found_it() -> None:
    text = broken_tempo_file()
    assert gc.isenabled()
    read_pbn(text, tempo="lazy").resolve_tempo()
    assert gc.isenabled()
    gc.disable()
    try:
        read_pbn(text, tempo="lazy").resolve_tempo()
        assert not gc.isenabled()
    finally:
        gc.enable()
