"""An individual's results files (bridgecore.results_io, bridgecore.usebio): PBN with each
line's players by seat (PlayerId_North...), a TotalScoreTable of players and Competition
"Individuals", read back to the same results and ranking; USEBIO with EVENT_TYPE INDIVIDUAL
(formats.md 2) and one PLAYER a participant. Each player is credited with his side's points
(Law 78A)."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

from bridgecore.adjusted import BoardResult
from bridgecore.cards import Side
from bridgecore.individual import partnership, rainbow_individual
from bridgecore.ranking import ScoringOptions, score_event
from bridgecore.results_io import (
    Player,
    ResultsFile,
    TableResult,
    read_pbn_results,
    write_results_pbn,
)
from bridgecore.usebio import write_usebio

SCORES = (420, 450, -50, 170, -100, 400, 630, -200)


def event() -> tuple[ResultsFile, list[BoardResult]]:
    """Three rounds of the 5-table rainbow, one board a round, each result drawn (seeded)."""
    rng = random.Random(3)
    schedule = rainbow_individual(5, rounds=3, boards_per_round=1)
    rows = [BoardResult(a.boards[0], partnership(5, a.round, a.table, Side.NS),
                        partnership(5, a.round, a.table, Side.EW), rng.choice(SCORES),
                        players=a.seats)   # type: ignore[arg-type]
            for a in schedule.assignments]
    source = ResultsFile(rows=[TableResult(r) for r in rows], title="Individual",
                         date="2026.11.28")
    source.players = {p: [Player(f"Player {p:02d}")] for p in range(1, 21)}
    source.names = {p: f"Player {p:02d}" for p in range(1, 21)}
    return source, rows


def test_pbn_of_an_individual_reads_back_to_the_same_ranking_per_player() -> None:
    source, rows = event()
    scored = score_event(rows, options=ScoringOptions(individual=True))
    text = write_results_pbn(source, scored)
    assert '[Competition "Individuals"]' in text and "PlayerId_North" in text
    assert "PlayerId\\4R" in text                       # the TotalScoreTable's contestants
    again = read_pbn_results(text)
    assert again.problems == []
    assert sorted((r.result.board, r.result.players) for r in again.rows) == sorted(
        (r.board, r.players) for r in rows)
    assert again.names == source.names
    rescored = score_event(again.results, options=ScoringOptions(individual=True))
    assert [(p.pair, p.total, p.rank) for p in rescored.ranking] == [
        (p.pair, p.total, p.rank) for p in scored.ranking]
    assert {p.pair for p in scored.ranking} == set(range(1, 21))


def test_usebio_of_an_individual_has_one_player_a_participant() -> None:
    source, rows = event()
    scored = score_event(rows, options=ScoringOptions(individual=True))
    root = ET.fromstring(write_usebio(source, scored))
    assert root.find("EVENT").get("EVENT_TYPE") == "INDIVIDUAL"   # type: ignore[union-attr]
    players = root.findall(".//PARTICIPANTS/PLAYER")
    assert len(players) == 20 and root.findall(".//PARTICIPANTS/PAIR") == []
    first = scored.ranking[0]
    entry = next(p for p in players if p.findtext("PLAYER_NUMBER") == str(first.pair))
    assert entry.findtext("PLAYER_NAME") == f"Player {first.pair:02d}"
    assert entry.findtext("PLACE", "").rstrip("=") == str(first.rank)
    line = root.find(".//BOARD/TRAVELLER_LINE")
    assert line is not None
    seats = tuple(int(line.findtext(f"{s}_PLAYER_NUMBER", "0"))
                  for s in ("NORTH", "EAST", "SOUTH", "WEST"))
    ns = int(line.findtext("NS_PAIR_NUMBER", "0"))
    assert seats == next(r.players for r in rows if r.ns == ns)
    # A pairs event is written as before: PAIRs, no player numbers on its lines.
    pairs = ResultsFile(rows=[TableResult(BoardResult(1, 1, 2, 420)),
                              TableResult(BoardResult(1, 3, 4, 170))])
    plain = ET.fromstring(write_usebio(pairs, score_event([r.result for r in pairs.rows])))
    assert plain.find("EVENT").get("EVENT_TYPE") == "PAIRS"   # type: ignore[union-attr]
    assert plain.find(".//NORTH_PLAYER_NUMBER") is None
