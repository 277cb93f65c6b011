"""Who played which boards of a session, for the club's ladder (hub.series_ladder).

A stored session (``session_scored``) lists, with each pair of a pairs section, its
``players``: ``[{"name", "member", "boards", "percent", "imps"?}]``, the pair's set-up (or
check-in) players and each substitute named for some rounds (hub.substitutes), each with:

* ``member``: his member number, the substitute's as the director gave it, else the
  roster's where exactly one member has his name (hub.roster.name_key), else None;
* ``boards``: the boards he played: the pair's boards of the rounds he sat in (a player
  replaced for rounds 3-4 played the pair's boards of the other rounds, the substitute
  those of rounds 3-4);
* ``percent``: the pair's percentage over those boards, the average of the pair's
  percentage of each board he played (each board's matchpoints over its top, Law 78A:
  with the same top on every board the pair's percentage is this average over all its
  boards); None without a scored board, and in a Butler or cross-IMP section;
* ``imps`` (a Butler or cross-IMP section only): the pair's IMPs per board over those
  boards (the IMPs it scored on them divided by their number, the form of the Butler
  rankings: docs/sessions.md); None without a scored board.

So a substitute is credited with the evening for the boards he played, and the player he
replaced for the others. In an individual the "pair" is a player (his number): his
boards are those of the lines that seat him, his substitute (``player`` 1) takes his
rounds. A teams section lists no players (its pairs' boards are the
team's).
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bridgecore.ranking import Method
from hub.roster import Roster, name_key

if TYPE_CHECKING:
    from hub.room import Room
    from hub.section_score import SectionScore

__all__ = ["club_roster", "member_of", "section_players"]

log = logging.getLogger(__name__)


def club_roster(log_path: str | Path | None) -> Roster | None:
    """The roster kept beside the event log ``log_path`` (its data directory); None for a
    log in memory or a roster that cannot be read (logged: the session is stored all the
    same, its players matched by name)."""
    if not log_path or str(log_path) == ":memory:":
        return None
    try:
        return Roster.in_directory(Path(log_path).parent)
    except (OSError, ValueError) as err:
        log.error("the roster beside %s cannot be read (the players are matched by name): "
                  "%s", log_path, err)
        return None


def member_of(roster: Roster | None, name: str) -> int | None:
    """The member number of ``name``: the one member whose name is it, else None."""
    if roster is None:
        return None
    key = name_key(name)
    exact = {m.number for m in roster.members if name_key(m.name) == key}
    return exact.pop() if len(exact) == 1 else None


def _by_round(scored: SectionScore, keys: tuple[str, str] = ("ns_percent", "ew_percent")
              ) -> dict[int, dict[int, list[float]]]:
    """Each pair's scored boards' percentages (or ``keys``' values: the IMPs), by round; in
    an individual each player's (his side's: the line's ``players`` North, East, South,
    West)."""
    out: dict[int, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    for rows in scored.lines.values():
        for r in rows:
            if r.get("not_scored") or not r.get("scored") or r.get("round") is None:
                continue
            seats = r.get("players") if scored.individual else None
            for side, key in (("NS", keys[0]), ("EW", keys[1])):
                if r.get(key) is None:
                    continue
                # N and S hold the North-South line's points, E and W the other's
                who = seats[0 if side == "NS" else 1::2] if seats else [r.get(side)]
                for pair in who:
                    if isinstance(pair, int):
                        out[pair][int(r["round"])].append(float(r[key]))
    return out


def _credit(rounds: Mapping[int, list[float]], played: set[int] | None,
            missed: set[int]) -> tuple[int, float | None]:
    """The boards and the percentage over the rounds ``played`` (None: all but
    ``missed``)."""
    boards = [p for r, ps in rounds.items()
              if (r in played if played is not None else r not in missed) for p in ps]
    return len(boards), (sum(boards) / len(boards) if boards else None)


def section_players(room: Room, scored: SectionScore, roster: Roster | None
                    ) -> dict[int, list[dict[str, Any]]]:
    """The players of each pair of ``scored`` (module docstring); {} for a teams section."""
    section = next((s for s in room.sections if s.name == scored.name), None)
    if section is None or scored.method is Method.IMPS:
        return {}
    imps = scored.method in (Method.BUTLER, Method.CROSS_IMPS)
    per_pair = _by_round(scored, ("ns_points", "ew_points") if imps else
                         ("ns_percent", "ew_percent"))
    substitutes = room.scoring.substitutes
    out: dict[int, list[dict[str, Any]]] = {}

    def player(name: str, member: int | None, rounds: Mapping[int, list[float]],
               played: set[int] | None, missed: set[int]) -> dict[str, Any]:
        boards, score = _credit(rounds, played, missed)
        return {"name": name, "member": member, "boards": boards,
                "percent": None if imps else score, **({"imps": score} if imps else {})}

    for pair, names in section.pairs.items():
        rounds = per_pair.get(pair, {})
        subs: Sequence[dict[str, Any]] = substitutes.of_pair(section.name, pair)
        players = []
        for index, name in enumerate(names, 1):
            missed = {r for sub in subs if sub["player"] == index for r in sub["rounds"]}
            players.append(player(name, member_of(roster, name), rounds, None, missed))
        for sub in subs:
            member = sub.get("member") or member_of(roster, sub["name"])
            players.append(player(sub["name"], member, rounds, set(sub["rounds"]), set()))
        out[pair] = players
    return out
