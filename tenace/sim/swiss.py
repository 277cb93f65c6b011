"""A whole Swiss event played by the simulator against a live hub (``tenace sim`` on an
event file whose sections are Swiss, docs/swiss.md).

The hub draws each round of a Swiss section when the one before is scored (hub.swiss), so
the simulator cannot script the event ahead: it plays round 1 as the set-up draws it, then
learns each next round as the tablets do, from the tables' public views
(``t/{table}/state``): a table's ``schedule.next`` says where its two pairs go next round,
and the hub publishes it again when it draws the round. The round is complete once every
match's table has both its pairs (a pair that had the bye is the one missing at a table);
it is checked against the section's movement built from it (bridgecore.swiss), then
played, and so on to the last round. Each device keeps its outbox (a file each) from one
round to the next, as a tablet does: its ``seq`` goes on rising.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Mapping
from typing import Any

from bridgecore.swiss import Pairing
from hub.section import Section
from tenace.sim.script import SimError, SimScript
from tenace.sim.session import simulate

__all__ = ["is_swiss", "next_pairings", "play_swiss"]


def is_swiss(room: Any) -> bool:
    """Whether ``room``'s sections are Swiss (all of them: a mixed event is refused)."""
    swiss = [s.swiss is not None for s in room.sections]
    if any(swiss) and not all(swiss):
        raise SimError("the simulator plays an event whose sections are all Swiss or none "
                       "(sections " + ", ".join(s.name for s in room.sections
                                                if s.swiss is not None) + " are Swiss)")
    return bool(swiss) and all(swiss)


def next_pairings(section: Section, played: list[Pairing],
                  states: Mapping[str, Mapping[str, Any]], round_: int) -> list[Pairing] | None:
    """Round ``round_ + 1`` of the Swiss ``section`` as the tables' views of round
    ``round_`` say it (module docstring), ``played`` the rounds known so far; None while
    the hub has not drawn it (or its views have not all come)."""
    settings = section.swiss
    assert settings is not None
    seats: dict[int, dict[str, int]] = {n: {} for n in section.ids}
    for tid in section.tables:
        state = states.get(tid)
        if state is None or state.get("round") != round_:
            return None
        following = (state.get("schedule") or {}).get("next") or {}
        for side in ("NS", "EW"):
            go = following.get(side)
            if go is None or go.get("table") not in section.tables:
                continue
            seats[section.tables[go["table"]]][str(go["direction"])] = int(go["pair"])
    matches = settings.entrants // 2
    tables = range(1, (2 * matches if settings.teams else matches) + 1)
    bye = [p.home for p in played if p.round == round_ and p.away is None]
    waiting = {"NS": [], "EW": []} if not bye else (
        {"NS": [2 * bye[0] - 1], "EW": [2 * bye[0]]} if settings.teams else
        {"NS": [bye[0]], "EW": [bye[0]]})
    empty = [(t, side) for t in tables for side in ("NS", "EW") if side not in seats[t]]
    if len(empty) != (2 if settings.teams else 1) * len(bye):
        return None
    for t, side in empty:      # the pair of the bye: the one the views of round_ lack
        seats[t][side] = waiting[side].pop()
    number = round_ + 1
    drawn = [Pairing(number, settings.contestant(seats[t]["NS"]),
                     settings.contestant(seats[t]["EW"]))
             for t in tables if not settings.teams or t % 2 == 1]
    sitting = {c for p in drawn for c in (p.home, p.away)}
    drawn += [Pairing(number, c, None) for c in range(1, settings.entrants + 1)
              if c not in sitting]
    try:
        cells = {(a.table, a.ns, a.ew) for a in
                 settings.movement([*played, *drawn]).assignments if a.round == number}
    except ValueError:
        return None
    if cells != {(t, seats[t]["NS"], seats[t]["EW"]) for t in tables}:
        return None
    return drawn


def play_swiss(url: str, room: Any, deals: Mapping[int, Any], *, seed: int,
               inject: Mapping[str, float], pace: float,
               run_tables: Callable[..., dict[str, Any]],
               states: Callable[[], Mapping[str, Mapping[str, Any]]],
               noise: Any = None, draw_timeout: float = 300.0,
               ) -> tuple[list[tuple[SimScript, dict[str, Any]]], dict[str, list[Pairing]]]:
    """Every round of ``room``'s Swiss sections played through the hub at ``url``
    (module docstring): round ``r``'s script simulated (seed ``seed + r - 1``) and run
    (``run_tables``, tenace.sim.driver's), then round ``r + 1`` read from ``states()``
    (the tables' latest public views, tenace.sim.observer). Returns each round's script
    with its runs, and every section's pairings."""
    sections: list[Section] = list(room.sections)
    pairings = {s.name: list(s.swiss.first()) for s in sections if s.swiss is not None}
    rounds = max(s.swiss.rounds for s in sections if s.swiss is not None)
    played: list[tuple[SimScript, dict[str, Any]]] = []
    with tempfile.TemporaryDirectory(prefix="tenace-sim-outboxes-") as outboxes:
        for r in range(1, rounds + 1):
            playing = [Section(s.name, s.swiss.movement([p for p in pairings[s.name]
                                                         if p.round == r]),
                               tables=dict(s.tables), pairs=dict(s.pairs), scoring=s.scoring)
                       for s in sections if s.swiss is not None and r <= s.swiss.rounds]
            script = simulate(playing, deals, seed=seed + r - 1, inject=inject, pace=pace,
                              edition=room.edition, start=time.time(), reader_noise=noise)
            played.append((script, run_tables(url, script.events_by_table,
                                              realtime=script.pacer(), mux=True,
                                              outboxes=outboxes)))
            waiting = [s for s in sections if s.swiss is not None and r < s.swiss.rounds]
            deadline = time.monotonic() + draw_timeout
            while waiting:
                seen = states()
                for s in list(waiting):
                    drawn = next_pairings(s, pairings[s.name], seen, r)
                    if drawn is not None:
                        pairings[s.name] += drawn
                        waiting.remove(s)
                if waiting and time.monotonic() > deadline:
                    raise SimError(f"round {r + 1} of section(s) "
                                   f"{', '.join(s.name for s in waiting)} not drawn by the "
                                   f"hub {draw_timeout:g} s after round {r} was played (is "
                                   "every board of the round scored?)")
                if waiting:
                    time.sleep(0.1)
    return played, pairings
