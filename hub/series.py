"""Sessions that add up, in the hub: an event of several sessions and the club's ladder,
from the sessions the hub's own log holds.

A hub's data directory keeps every session it ran in its one append-only log: a new set-up
(the console's ``POST /api/setup?next=1``, or ``tenace hub --event FILE --next-session``)
starts a new session in the same log. Before the fact ``setup_replaced`` of the new
session, the hub logs the fact ``session_scored`` (:func:`session_fact`): the session's
set-up fields that name its event (``name``, ``session``, ``date``, ``part``, ``carry``)
and each section's final ranking as the live scorer had it (every pair's players,
direction, percentage, boards, place) and its boards (each board's traveller lines that
count: :func:`section_boards`), for the event's USEBIO file. A closed session can no
longer change (its room is gone), so this fact is its result for good; the hub finds its
earlier sessions with one query of the log by type (``EventLog.of_type``), never by
replaying them, at start and after each new session (:class:`SessionBook`).

**An event of several sessions** (:func:`event_total`): a set-up's ``part`` (1, 2, ...)
places its session in the event ``name`` names. The session being played is added to the
last stored session of each earlier part of that name:

* ``carry`` absent, sessions that add up (a two-session pairs): each pair's percentages
  averaged weighted by the boards it played (bridgecore.sessions.add_up);
* ``carry`` c, a final: the earlier parts added up the same way give the pair's
  qualifying percentage q, and its final percentage gets ``c · (q − 50)`` added; with
  ``carry_form = "place"``, the finalists ranked by q, the first gets c points, the last
  none, linear by place (bridgecore.sessions.carry_by_place).

The pairs are matched across sessions by their players (hub.roster.name_key of each name,
the two sorted): a pair's number changes from one session to the next, its players do not.
A pair whose set-up names no players cannot be matched and is ranked on its own session.

**The club's ladder**: hub.series_ladder, over the sessions :class:`SessionBook` finds
(those stored, and those of a log written before ``session_scored``, found by replaying
them: hub.series_replay).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bridgecore.cards import Side
from bridgecore.conventions import conventions
from bridgecore.sessions import EventTotal, Form, SessionLine, add_up, carry_by_place, imp_form
from hub.roster import Roster, name_key
from hub.series_players import club_roster, member_of, section_players
from hub.series_replay import SetupLoader, replayed_sessions
from hub.substitutes import old_substitute

if TYPE_CHECKING:
    from hub.log_records import StoredRecord
    from hub.room import Room
    from hub.store import EventLog

__all__ = ["SESSION_SCORED", "SessionBook", "StoredSession", "event_total", "identity",
           "live_sections", "section_boards", "session_fact"]

log = logging.getLogger(__name__)

SESSION_SCORED = "session_scored"
FACT_VERSION = 1


def identity(names: Iterable[str]) -> str | None:
    """A pair's identity across sessions: its players' names as matched (accents, case,
    spacing and the order of first and last names aside), sorted; None without names. A
    substitute an older hub wrote among the names ("X (for Y, rounds 3-4)") is not one of
    them (a newer hub gives substitutes apart: hub.substitutes)."""
    keys = sorted(k for k in (name_key(n) for n in names if old_substitute(n) is None) if k)
    return " & ".join(keys) if keys else None


def _number(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, int | float)


def _check_section(section: Any) -> None:
    """A stored section's ranking as :func:`event_total` and the ladder read it."""
    if not isinstance(section, Mapping) or not isinstance(section.get("ranking"), list):
        raise ValueError("a section without its ranking list")
    for entry in section["ranking"]:
        if not isinstance(entry, Mapping):
            raise ValueError(f"a ranking entry that is not an object: {entry!r:.40}")
        names = entry.get("names") or []
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise ValueError(f"names {names!r:.60} are not a list of names")
        if entry.get("percent") is not None and not _number(entry["percent"]):
            raise ValueError(f"percent {entry['percent']!r:.20} is not a number")
        if entry.get("total") is not None and not _number(entry["total"]):
            raise ValueError(f"total {entry['total']!r:.20} is not a number")
        if not _number(entry.get("boards") or 0) or not _number(entry.get("rank") or 0):
            raise ValueError("boards or rank is not a number")
        if entry.get("direction") not in (None, "NS", "EW"):
            raise ValueError(f"direction {entry.get('direction')!r:.10} is not NS, EW or null")
        for player in entry.get("players") or ():
            if not isinstance(player, Mapping) or not isinstance(player.get("name"), str) \
                    or not (player.get("member") is None or _number(player["member"])) \
                    or not (player.get("percent") is None or _number(player["percent"])) \
                    or not (player.get("imps") is None or _number(player["imps"])):
                raise ValueError(f"a player that is not a name with a member number and a "
                                 f"percentage: {player!r:.60}")
    boards = section.get("boards", [])
    if not isinstance(boards, list):
        raise ValueError("boards is not a list")
    for board in boards:
        if not isinstance(board, Mapping) or not isinstance(board.get("board"), int) or \
                not isinstance(board.get("results"), list) or \
                not all(isinstance(r, Mapping) for r in board["results"]):
            raise ValueError(f"a board that is not a number with its results: {board!r:.60}")


@dataclass(frozen=True, slots=True)
class StoredSession:
    """A session the hub closed (the fact ``session_scored``): where it is in the log,
    its event fields and each section's ranking (``SectionScore.ranking`` entries)."""

    position: int
    name: str
    session: str
    date: str
    part: int
    carry: float | None
    sections: tuple[Mapping[str, Any], ...]
    replayed: bool = False     # found by replaying its records (hub.series_replay)

    @classmethod
    def of(cls, record: StoredRecord) -> StoredSession:
        """The stored session of a ``session_scored`` record; ValueError naming what is
        wrong with one this hub did not write (a damaged log is read, never trusted)."""
        return cls.of_body(record.position, record.data())

    @classmethod
    def of_body(cls, position: int, body: Any, *, replayed: bool = False) -> StoredSession:
        """The stored session of a ``session_scored`` body (:meth:`of`)."""
        if not isinstance(body, Mapping) or body.get("v") != FACT_VERSION:
            raise ValueError(f"not a version {FACT_VERSION} session_scored body")
        carry = body.get("carry")
        if carry is not None and (isinstance(carry, bool) or not isinstance(carry, int | float)):
            raise ValueError(f"carry {carry!r:.40} is not a number")
        sections = body.get("sections")
        if not isinstance(sections, list):
            raise ValueError("sections is not a list")
        for section in sections:
            _check_section(section)
        return cls(position, str(body.get("name", "")), str(body.get("session", "")),
                   str(body.get("date", "")), int(body.get("part", 0)), carry,
                   tuple(sections), replayed)

    def to_json(self) -> dict[str, Any]:
        return {"position": self.position, "name": self.name, "session": self.session,
                "date": self.date, "part": self.part, "replayed": self.replayed}


LINE_KEYS = ("table", "round", "NS", "EW", "contract", "declarer", "tricks", "score_ns",
             "adjustment", "ns_points", "ew_points")


def section_boards(scored: Any) -> list[dict[str, Any]]:
    """A scored section's boards as a stored session keeps them (``boards`` of
    ``session_scored``): each board's traveller lines that count (:data:`LINE_KEYS`), and a
    cancelled line's award to the side it deprived (Law 15B: that side's points alone, no
    score as played)."""
    return [{"board": board, "results": [_kept(row) for row in rows if not row.get(
        "not_scored") or row.get("ns_points") is not None or row.get("ew_points") is not None]}
            for board, rows in sorted(scored.lines.items())]


def _kept(row: Mapping[str, Any]) -> dict[str, Any]:
    kept = {k: row.get(k) for k in LINE_KEYS}
    if row.get("not_scored"):      # Law 15B: the play was cancelled, the award stands
        kept.update(contract=None, declarer=None, tricks=None, score_ns=None)
    return kept


def live_sections(room: Room, roster: Roster | None = None) -> list[dict[str, Any]]:
    """Each section of the session being played as ``session_scored`` stores it: its
    ranking (each pair with its ``players``: hub.series_players), its boards and the
    matchpoint units of its points (1, or 2: MP1)."""
    units = conventions(room.conventions).units
    out = []
    for s in room.scoring.sections():
        players = section_players(room, s, roster)
        ranking = s.ranking()
        for entry in ranking:
            if entry.get("pair") in players:
                entry["players"] = players[entry["pair"]]
        out.append({"name": s.name, "method": s.method.value, "units": s.units,
                    "mp_units": units, "ranking": ranking, "boards": section_boards(s)})
    return out


def session_fact(setup: Any, room: Room, roster: Roster | None = None
                 ) -> dict[str, Any] | None:
    """The body of ``session_scored`` for the session ``setup`` ran in ``room``; None when
    nothing was scored (a session set up and replaced before play). ``roster``: the club's
    members, whose numbers the players get (hub.series_players)."""
    sections = [s for s in live_sections(room, roster) if s["ranking"]]
    if not sections:
        return None
    return {"v": FACT_VERSION, "name": getattr(setup, "name", ""),
            "session": getattr(setup, "session", ""), "date": getattr(setup, "date", ""),
            "part": getattr(setup, "part", 0), "carry": getattr(setup, "carry", None),
            "carry_form": getattr(setup, "carry_form", "margin"), "sections": sections}


class SessionBook:
    """The sessions a hub's log holds (read once, then kept up to date as it logs more).

    ``loader`` (a set-up's JSON -> the set-up): the sessions the log closed without
    storing them (a log written before ``session_scored``) are found by replaying their
    records (hub.series_replay), once, when first needed; without it they are not.
    ``keep_found``: what the replay found is kept beside the log (False: only read)."""

    def __init__(self, event_log: EventLog, loader: SetupLoader | None = None, *,
                 keep_found: bool = True):
        self.log = event_log
        self.loader = loader
        self.keep_found = keep_found
        self._sessions: list[StoredSession] | None = None
        self._replayed: list[StoredSession] | None = None
        self._facts: dict[str, list[StoredRecord]] = {}

    def sessions(self) -> list[StoredSession]:
        if self._sessions is None:
            found = []
            records = self.log.of_type(SESSION_SCORED)
            for record in records:
                try:
                    found.append(StoredSession.of(record))
                except (TypeError, ValueError, AttributeError) as err:
                    log.error("event log %s: record %d (session_scored) left out of the "
                              "stored sessions: %s", self.log.path, record.position, err)
            if self._replayed is None:
                self._replayed = self._replay({r.position for r in records})
            self._sessions = sorted([*found, *self._replayed], key=lambda s: s.position)
        return self._sessions

    def _replay(self, stored: set[int]) -> list[StoredSession]:
        if self.loader is None:
            return []
        out = []
        roster = club_roster(self.log.path)
        for position, body in replayed_sessions(self.log, self.loader, stored, session_fact,
                                                keep=self.keep_found):
            for section in body.get("sections") or ():       # the roster's member numbers
                for entry in section.get("ranking") or ():
                    for player in entry.get("players") or ():
                        if not player.get("member"):
                            player["member"] = member_of(roster, str(player.get("name")))
            try:
                out.append(StoredSession.of_body(position, body, replayed=True))
            except (TypeError, ValueError, AttributeError) as err:
                log.error("event log %s: the session closed at record %d left out of the "
                          "stored sessions: %s", self.log.path, position, err)
        return out

    def facts(self, type: str) -> list[StoredRecord]:
        """The log's facts of ``type`` (the ladder's form and players: hub.series_ladder),
        read once until :meth:`forget`."""
        if type not in self._facts:
            self._facts[type] = self.log.of_type(type)
        return self._facts[type]

    def forget(self) -> None:
        """A session or a ladder's fact was stored: read them again when next needed
        (those found by replaying are kept: the log's closed sessions do not change)."""
        self._sessions = None
        self._facts.clear()


# An event of several sessions -----------------------------------------------------------

def kind(section: Mapping[str, Any]) -> str:
    """What a section's scores are, as sessions add them up: "mp" (percentages), "imp"
    (IMP totals: Butler, cross-IMPs, teams without VPs) or "vp" (teams' VP totals). A
    section stored without its units (before they were stored) is read by its method."""
    method = section.get("method", "mp")
    if method == "mp":
        return "mp"
    if method == "total":
        return "total"
    return "vp" if section.get("units") == "VP" else "imp"


def _kind_of(sections: Sequence[Mapping[str, Any]]) -> str | None:
    kinds = {kind(s) for s in sections if s.get("ranking")}
    return kinds.pop() if len(kinds) == 1 else None if not kinds else "mixed"


def _lines(sections: Sequence[Mapping[str, Any]], index: int, names: dict[str, list[str]],
           where: dict[str, tuple[str, Any]] | None = None) -> list[SessionLine]:
    """One session's lines keyed by pair identity (a pair without names keyed to this
    session alone), each with its percentage (matchpoints) or its total (IMPs, VPs);
    ``names`` collects each identity's players as written, ``where`` each one's section
    and pair number."""
    out: list[SessionLine] = []
    for section in sections:
        field = "percent" if kind(section) == "mp" else "total"
        for entry in section.get("ranking", ()):
            if entry.get(field) is None:
                continue
            key = identity(entry.get("names") or ())
            if key is None:
                key = f"session {index + 1}, section {section.get('name')}, pair " \
                      f"{entry.get('pair')}"
            names[key] = list(entry.get("names") or ())
            if where is not None:
                where[key] = (str(section.get("name")), entry.get("pair"))
            direction = entry.get("direction")
            out.append((key, float(entry[field]), int(entry.get("boards") or 0),
                        None if direction is None else Side(direction)))
    return out


def _parts(setup: Any, stored: Sequence[StoredSession]) -> list[StoredSession]:
    """The last stored session of each earlier part of ``setup``'s event, by part."""
    found: dict[int, StoredSession] = {}
    for s in stored:
        if s.name == setup.name and 1 <= s.part < setup.part:
            found[s.part] = s          # the last one stored for a part counts
    return [found[p] for p in sorted(found)]


def event_total(setup: Any, live: Sequence[Mapping[str, Any]],
                stored: Sequence[StoredSession]) -> dict[str, Any]:
    """The event's ranking on its total so far (module docstring), as the console and the
    results pages show it: ``event`` False for a session on its own. ``live``: the session
    being played, each section's ranking (hub.results_pages.session_rankings).

    The sessions add up in the form of their scores (bridgecore.sessions.Form: ``form``
    in the JSON): percentages, IMPs (or IMPs per board), VPs. An earlier session scored
    otherwise than the session being played is left out, named in ``problems``."""
    part = getattr(setup, "part", 0)
    if not part or not getattr(setup, "name", ""):
        return {"v": 1, "event": False}
    problems: list[str] = []
    parts = _parts(setup, stored)
    now_kind = _kind_of(live) or next(
        (k for k in (_kind_of(s.sections) for s in reversed(parts)) if k), "mp")
    if now_kind in ("mixed", "total"):
        problems.append(f"session {part} is scored by {now_kind} methods: not added up")
        now_kind = "mp"
        live = [s for s in live if kind(s) == "mp"]
    kept = []
    for s in parts:
        if _kind_of(s.sections) in (None, now_kind):
            kept.append(s)
        else:
            problems.append(f"session {s.part} ({s.session or s.date}) is scored by "
                            f"{_kind_of(s.sections)}, this one by {now_kind}: left out")
    parts = kept
    names: dict[str, list[str]] = {}
    earlier = [_lines(s.sections, i, names) for i, s in enumerate(parts)]
    current_pairs: dict[str, tuple[str, Any]] = {}
    now = _lines(live, len(parts), names, current_pairs)
    form = {"mp": Form.PERCENT, "vp": Form.VP}.get(now_kind) or imp_form([*earlier, now])
    carry = setup.carry
    totals: tuple[EventTotal, ...] = ()
    qualifying: dict[Any, float] = {}
    if carry is None:
        if any(earlier) or now:
            totals = add_up([*earlier, now], form=form)
    elif now:
        if any(earlier):
            qualifying = {t.pair: t.percent for t in add_up(earlier, form=form)}
        place = getattr(setup, "carry_form", "margin") == "place"
        if not place and form.neutral is None:
            problems.append("a share of the margin cannot be carried over in VPs (no "
                            "average score): no carry-over")
            qualifying = {}
        if place:
            finalists = {line[0] for line in now}
            totals = add_up([now], form=form, carries=carry_by_place(
                {k: q for k, q in qualifying.items() if k in finalists}, carry))
        else:
            totals = add_up([now], carry_from=qualifying, carry_fraction=carry, form=form)
    if problems:
        log.warning("event %s: %s", setup.name, "; ".join(problems))
    sessions = [{"part": s.part, "session": s.session, "date": s.date} for s in parts]
    sessions.append({"part": part, "session": setup.session, "date": setup.date,
                     "live": True})
    every = {t.pair: t.sessions for t in add_up([*earlier, now], form=form)}  # each part's
    ranking = []
    for t in totals:
        each = every.get(t.pair, t.sessions)
        q = qualifying.get(t.pair)
        at = current_pairs.get(str(t.pair))
        ranking.append({
            "names": names.get(str(t.pair), []),
            "section": None if at is None else at[0], "pair": None if at is None else at[1],
            "direction": None if t.direction is None else t.direction.value,
            "percent": round(t.percent, 2) if form is Form.PERCENT else None,
            "score": round(t.percent, 2), "rank": t.rank, "boards": t.boards,
            "sessions": [None if p is None else round(p, 2) for p in each],
            "carry": round(t.carry, 2), "qualifying": None if q is None else round(q, 2)})
    return {"v": 1, "event": True, "name": setup.name, "part": part, "carry": carry,
            "form": "add" if carry is None else "carry", "scores": form.value,
            "carry_form": getattr(setup, "carry_form", "margin"), "sessions": sessions,
            "ranking": ranking, "problems": problems}
