"""The club's ladder in the hub: its players ranked across the sessions the hub's log holds
(hub.series.SessionBook), its form kept with the club, and its players of one name told
apart by the director.

**The players.** Every stored session (and the one being played, once it has a result)
between two dates, each player credited with his pair's percentage over the boards he
played (hub.series_players: a substitute named for some rounds is credited with that
evening for the boards he played; bridgecore.ladder: the best N, a minimum attendance); a
player in two pairs of one session (a substitute who played for both) is credited with the
better. Players are matched by member number where the roster (or the substitution) gives
one, a name the same member had elsewhere counting as his, else by name as the roster
matches them (hub.roster.name_key); shown as last written.

**Two members of one name.** A player credited by name alone (no member number) whose name
two members have (the club's roster, or the member numbers the stored sessions gave that
name), or whose name two pairs of one session were set up with (two players, whoever they
are), cannot be told apart: he is never merged silently with either. His line is marked
``ambiguous`` and listed in ``ambiguous`` with where he played (each session, section and
pair), so that the director says who it was: the fact ``ladder_player`` (the console's
``POST /api/results/ladder/player``) gives that player of that pair of that stored session
his member number; the ladder then counts him as that member. Logged, so it stays.

**The form** (:class:`LadderForm`: the best N, the minimum attendance, the period) is the
club's: the director keeps it with the fact ``ladder_form`` (the console's ``POST
/api/results/ladder/form``, the last one kept counts), and the page and the API use it
unless a request names another (``best``, ``min``, ``from``, ``to``; an empty value: no
best N, no minimum, no bound).

**Sessions not of matchpoints.** The ladder averages percentages. The Butler and cross-IMP
pairs evenings are a ladder of their own (``imp_ranking``, in the same form): each player
credited with his pair's IMPs per board over the boards he played, the form of the Butler
rankings (docs/sessions.md), never mixed with percentages. A section scored in VPs (teams,
a Swiss event) or in total points has no score per player: it is listed in ``left_out``
with its scores' kind (docs/sessions.md says why).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bridgecore.ladder import LadderEntry, ladder
from hub.roster import Roster, name_key
from hub.series import kind
from hub.substitutes import old_substitute

if TYPE_CHECKING:
    from hub.series import SessionBook, StoredSession

__all__ = ["LADDER_FORM", "LADDER_PLAYER", "LadderForm", "homonyms", "kept_form",
           "ladder_json", "player_choices"]

log = logging.getLogger(__name__)

LADDER_FORM = "ladder_form"
LADDER_PLAYER = "ladder_player"
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")

_WARNED: set[str] = set()        # the names of players not told apart, logged already
Choices = Mapping[tuple[int, str, int, str], int]   # (session, section, pair, name) -> member


@dataclass(frozen=True, slots=True)
class LadderForm:
    """How the ladder ranks (module docstring): the ``best`` N sessions (None: every one),
    the ``minimum`` sessions played, the period ``since`` to ``until`` (ISO dates, "")."""

    best: int | None = None
    minimum: int = 1
    since: str = ""
    until: str = ""

    def __post_init__(self) -> None:
        if self.best is not None and not 1 <= self.best <= 1000:
            raise ValueError(f"best: a whole number from 1 to 1000, not {self.best!r:.20}")
        if not 1 <= self.minimum <= 1000:
            raise ValueError(f"min: a whole number from 1 to 1000, not {self.minimum!r:.20}")
        for key, value in (("from", self.since), ("to", self.until)):
            if value and not _DATE.match(value):
                raise ValueError(f"{key}: a date YYYY-MM-DD, not {value!r:.20}")

    @classmethod
    def of_json(cls, body: Any) -> LadderForm:
        """The form of ``{"best", "min", "from", "to"}`` (a ``ladder_form`` fact, the
        console's POST); ValueError naming the field that is wrong."""
        if not isinstance(body, Mapping):
            raise ValueError("the ladder's form is not an object")
        best, minimum = body.get("best"), body.get("min", 1)
        for key, value in (("best", best), ("min", minimum)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise ValueError(f"{key}: a whole number is expected, not {value!r:.20}")
        since, until = body.get("from", "") or "", body.get("to", "") or ""
        if not isinstance(since, str) or not isinstance(until, str):
            raise ValueError("from and to: dates YYYY-MM-DD are expected")
        return cls(best, 1 if minimum is None else minimum, since, until)

    def to_json(self) -> dict[str, Any]:
        return {"best": self.best, "min": self.minimum, "from": self.since, "to": self.until}


def kept_form(book: SessionBook) -> LadderForm:
    """The club's form: the last ``ladder_form`` fact the log holds that can be read (one
    that cannot is logged and passed over); the plain average of every session without."""
    for record in reversed(book.facts(LADDER_FORM)):
        try:
            return LadderForm.of_json(record.data())
        except ValueError as err:
            log.error("event log %s: record %d (ladder_form) passed over: %s",
                      book.log.path, record.position, err)
    return LadderForm()


def player_choices(book: SessionBook) -> dict[tuple[int, str, int, str], int]:
    """The director's ``ladder_player`` facts: (stored session's position, section, pair,
    name as matched) -> the member number he gave; the last one for a player counts."""
    out: dict[tuple[int, str, int, str], int] = {}
    for record in book.facts(LADDER_PLAYER):
        body = record.data()
        try:
            key = (int(body["session"]), str(body["section"]), int(body["pair"]),
                   name_key(str(body["name"])))
            member = int(body["member"])
        except (TypeError, ValueError, KeyError) as err:
            log.error("event log %s: record %d (ladder_player) passed over: %s",
                      book.log.path, record.position, err)
            continue
        out[key] = member
    return out


def homonyms(roster: Roster | None) -> dict[str, set[int]]:
    """The names two or more members of the roster share (as matched) -> their numbers."""
    by_name: dict[str, set[int]] = {}
    for member in roster.members if roster is not None else ():
        by_name.setdefault(name_key(member.name), set()).add(member.number)
    return {k: v for k, v in by_name.items() if len(v) > 1}


def _in_period(date: str, form: LadderForm) -> bool:
    return (not form.since or not date or date >= form.since) and \
        (not form.until or not date or date <= form.until)


def _pair_score(entry: Mapping[str, Any], scores: str) -> float | None:
    """A pair's score as its players' without their own (a fact stored before players):
    its percentage, or its IMPs per board."""
    if scores == "mp":
        return entry.get("percent")
    total, boards = entry.get("total"), entry.get("boards") or 0
    return None if total is None or not boards else float(total) / boards


def _line(e: LadderEntry, shown: Mapping[str, str], field: str = "percent"
          ) -> dict[str, Any]:
    """A ladder's line: ``field`` its score (``percent``; ``imps``, the IMPs per board)."""
    return {"player": shown[e.player], field: round(e.percent, 2), "rank": e.rank,
            "played": e.played,
            "sessions": [None if p is None else round(p, 2) for p in e.sessions],
            "counted": len(e.counted), "ambiguous": e.player.startswith("?"),
            "member": int(e.player[1:]) if e.player.startswith("#") else None}


def ladder_json(stored: Sequence[StoredSession], form: LadderForm = LadderForm(), *,
                current: tuple[Any, Sequence[Mapping[str, Any]]] | None = None,
                shared: Mapping[str, set[int]] | None = None,
                choices: Choices | None = None) -> dict[str, Any]:
    """The club's ladder (module docstring) in ``form``, the session being played included
    when it has a result (``current``: its set-up and each section's ranking,
    hub.results_pages.session_rankings). ``shared``: the names members share
    (:func:`homonyms`); ``choices``: the director's (:func:`player_choices`)."""
    chosen: list[tuple[dict[str, Any], Sequence[Mapping[str, Any]]]] = [
        ({"name": s.name, "session": s.session, "date": s.date, "position": s.position,
          "replayed": s.replayed}, s.sections) for s in stored if _in_period(s.date, form)]
    if current is not None:
        setup, sections = current
        live = [s for s in sections if s["ranking"]]
        date = getattr(setup, "date", "")
        if live and _in_period(date, form):
            chosen.append(({"name": getattr(setup, "name", ""),
                            "session": getattr(setup, "session", ""), "date": date,
                            "position": None, "replayed": False, "live": True}, tuple(live)))
    choices = choices or {}
    members: dict[str, set[int]] = {k: set(v) for k, v in (shared or {}).items()}
    doubled: set[str] = set()         # names two pairs' own players had in one session
    for about, sections in chosen:    # a name as matched -> the member numbers it had
        pairs_of: dict[str, set[tuple[str, int]]] = {}
        for section in sections:
            for entry in section.get("ranking", ()):
                at = (str(section.get("name")), int(entry.get("pair") or 0))
                for index, player in enumerate(entry.get("players") or ()):
                    key = name_key(player["name"])
                    if player.get("member") and key:
                        members.setdefault(key, set()).add(int(player["member"]))
                    elif key and index < 2 and (about["position"], *at, key) not in choices:
                        pairs_of.setdefault(key, set()).add(at)
        doubled |= {key for key, at in pairs_of.items() if len(at) > 1}

    def key_of(name: str, member: Any) -> str:
        """A player's key: his member number, or the one member number his name had
        elsewhere, else his name (two members of one name: ``?`` and the name)."""
        if member:
            return f"#{int(member)}"
        key = name_key(name)
        known = members.get(key, set())
        if len(known) > 1 or key in doubled:
            return f"?{key}"
        return f"#{next(iter(known))}" if known else key

    shown: dict[str, str] = {}
    where: dict[str, list[dict[str, Any]]] = {}
    per_session: dict[str, list[dict[str, float]]] = {"mp": [], "imp": []}
    left_out: list[dict[str, Any]] = []
    for about, sections in chosen:
        each: dict[str, dict[str, float]] = {"mp": {}, "imp": {}}
        for section in sections:
            scores = kind(section)
            if scores not in each or (scores == "imp" and section.get("method") not in
                                      ("butler", "crossimp")):
                left_out.append({"name": about["name"], "session": about["session"],
                                 "date": about["date"], "section": section.get("name"),
                                 "scores": scores})
                continue
            players = each[scores]
            field = "percent" if scores == "mp" else "imps"
            for entry in section.get("ranking", ()):
                credits = [(p["name"], p.get("member"), p.get(field))
                           for p in entry.get("players") or ()]
                if not credits:        # a session stored without its players: by name
                    credits = [(n, None, _pair_score(entry, scores))
                               for n in entry.get("names") or ()
                               if old_substitute(n) is None]   # an older hub's substitute
                for name, member, percent in credits:
                    if not member and about["position"] is not None:
                        member = choices.get((about["position"], str(section.get("name")),
                                              int(entry.get("pair") or 0), name_key(name)))
                    key = key_of(name, member)
                    if percent is None or not key:
                        continue
                    shown[key] = name
                    players[key] = max(players.get(key, float(percent)), float(percent))
                    if key.startswith("?"):
                        where.setdefault(key, []).append({
                            "position": about["position"], "date": about["date"],
                            "session": about["session"], "section": section.get("name"),
                            "pair": entry.get("pair"), "name": name})
        for scores, players in each.items():
            per_session[scores].append(players)
    entries = ladder(per_session["mp"], best=form.best, minimum=form.minimum)
    imp_entries = ladder(per_session["imp"], best=form.best, minimum=form.minimum)
    by_player = {e.player: e for e in entries}
    for e in imp_entries:
        by_player.setdefault(e.player, e)
    new = sorted(shown[k] for k in where if k not in _WARNED)
    if new:     # once a process (the page asks again every few seconds)
        _WARNED.update(where)
        log.warning("ladder: players of one name not told apart (the director says who "
                    "played on the ladder page): %s", ", ".join(new))
    return {"v": 1, "best": form.best, "minimum": form.minimum, "since": form.since,
            "until": form.until,
            "sessions": [{k: v for k, v in about.items() if k != "position" or v is not None}
                         for about, _ in chosen],
            "ranking": [_line(e, shown) for e in entries],
            "imp_ranking": [_line(e, shown, "imps") for e in imp_entries
                            if any(per_session["imp"])],
            "ambiguous": [{"player": shown[k], "members": sorted(members.get(k[1:], ())),
                           "played": by_player[k].played,
                           "where": sorted(places, key=lambda w: (
                               w["position"] is None, w["position"] or 0,
                               str(w["section"]), w["pair"] or 0))}
                          for k, places in where.items() if k in by_player],
            "left_out": left_out}
