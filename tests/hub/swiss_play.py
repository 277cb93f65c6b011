"""Helpers of the Swiss tests (tests/hub/test_swiss*.py): an event file's set-up, a round of
a Swiss section played through the room simulator (tenace/sim) over MQTT, and the final
ranking worked out offline from the hub's results file (bridgecore only)."""

from __future__ import annotations

import dataclasses
import time
import tomllib
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from bridgecore.ranking import Method, ScoringOptions, score_event
from bridgecore.results_io import read_pbn_results
from bridgecore.swiss import Pairing
from bridgecore.swiss_standings import MatchScore, standings
from hub.event import EventSetup, read_document
from hub.room import Room
from hub.section import Section
from tenace.sim.driver import run_tables, tables_of
from tenace.sim.session import simulate

SEED = "0123456789abcdef0123456789abcdef01234567"


def swiss_setup(tmp_path: Path, kind: str, size: int, rounds: int, boards: int,
                extra: str = "") -> EventSetup:
    """A one-section Swiss event from its TOML: ``size`` teams (swiss_teams) or pairs."""
    count = "teams" if kind == "swiss_teams" else "entrants"
    text = (f'[event]\nname = "Swiss"\nclock_tolerance = false\n'
            f'[boards]\nseed = "{SEED}"\n'
            f'[[section]]\nmovement = "{kind}"\n{count} = {size}\nrounds = {rounds}\n'
            f'boards_per_round = {boards}\n{extra}')
    setup, problems = read_document(tomllib.loads(text), tmp_path)
    assert setup is not None, problems
    return setup


def spare_devices(tables: Iterable[str], rounds: int) -> dict[str, str | None]:
    """The accounts of a fresh tablet and card reader per table and round (spares)."""
    return {f"{t}-{kind}.r{r}": None for t in tables for kind in ("tab", "rdr")
            for r in range(1, rounds + 1)}


def round_section(section: Section, pairings: Sequence[Pairing]) -> Section:
    """``section`` with only the round of ``pairings`` in its movement: what the simulator
    plays of it."""
    settings = section.swiss
    assert settings is not None
    return Section(section.name, settings.movement(pairings), tables=dict(section.tables),
                   pairs=dict(section.pairs))


def play_round(url: str, section: Section, pairings: Sequence[Pairing], deals: Any,
               round_: int) -> int:
    """Round ``round_`` of ``section`` as the hub drew it (``pairings``) played over MQTT
    by the simulator, each table with a fresh tablet and reader; returns the events sent."""
    drawn = [p for p in pairings if p.round == round_]
    return play_section_round(url, round_section(section, drawn), deals, round_)


def play_section_round(url: str, played: Section, deals: Any, round_: int) -> int:
    """``played`` (a section of round ``round_``'s tables alone) played over MQTT by the
    simulator, each table with a fresh tablet and reader; returns the events sent."""
    script = simulate(played, deals, seed=round_,
                      start=1_000_000.0 + 100_000.0 * round_, claim_rate=0.3)
    events = [dataclasses.replace(e, device=f"{e.device}.r{round_}") for e in script.merged()]
    runs = run_tables(url, tables_of(events), timeout=10.0)
    rejected = [(r.table, env.type, reply.reason) for r in runs.values()
                for env, reply in r.rejected]
    assert rejected == [], rejected
    return len(events)


def wait(predicate: Callable[[], bool], timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.1)
    assert predicate(), "timed out"


def offline_standings(results_pbn: bytes, pairings: Sequence[Pairing], *, teams: bool,
                      entrants: int, boards_per_round: int, bye: float | str = 12.0
                      ) -> list[dict[str, Any]]:
    """The final ranking from the results file alone (bridgecore): each board scored again
    (teams: the two rooms, Law 78B; pairs: IMPs against the datum), each match's IMPs to
    VPs, the standings and their tie-breaks."""
    source = read_pbn_results(results_pbn.decode("utf-8"))
    results = [row.result for row in source.rows]
    team_of = {p: (p + 1) // 2 for p in range(1, 2 * entrants + 1)} if teams else None
    event = score_event(results, Method.IMPS if teams else Method.BUTLER,
                        options=ScoringOptions(teams=team_of))
    points: dict[tuple[int, int], float] = {}
    for board, scored in event.boards.items():
        for s in scored:
            ns, ew = int(s.result.ns), int(s.result.ew)
            if team_of is not None:
                ns, ew = team_of[ns], team_of[ew]
            points[ns, board] = s.ns_points
            points[ew, board] = s.ew_points
    matches = []
    for p in pairings:
        if p.away is None:
            continue
        boards = range((p.round - 1) * boards_per_round + 1, p.round * boards_per_round + 1)
        matches.append(MatchScore(p.round, p.home, p.away,
                                  tuple(points[p.home, b] for b in boards),
                                  tuple(points[p.away, b] for b in boards)))
    return [s.to_json() for s in standings(range(1, entrants + 1), pairings, matches, bye=bye)]


def hub_pairings(room: Room, section: str = "A") -> list[Pairing]:
    return list(room.swiss.pairings[section])
