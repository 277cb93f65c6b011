"""Live scoring: each section scored as its results arrive, the director's rulings at once.

:class:`LiveScoring` belongs to the :class:`hub.room.Room` (``room.scoring``). The room tells
it of every event it accepts (:meth:`LiveScoring.note`): when the board in play at that
table has just ended, or its result changed, the table's section is marked for rescoring.
Only the result of the board in play can change, so the results are kept as they arrive
(one row per board over at a table, :func:`hub.traveller.result_row`) and a rescoring is
one :func:`bridgecore.ranking.score_event` of that section, by the method the director chose
at set-up (the section's ``scoring``, :data:`METHODS`; Law 78):

* ``matchpoints`` (78A), and "" (the default) for a pairs section: one matchpoint a score
  beaten, a half a tie, Neuberg-scaled to the number of results the movement plays (more
  only where more were validly played);
* ``imps`` (78B): IMPs against a datum, the mean North-South score of the board rounded
  to the nearest 10 (:func:`bridgecore.methods.butler_board`);
* ``butler`` (78B): the same with the datum taken without the board's top and bottom
  scores (when more than two results remain);
* ``cross-imps`` (78B): each result against every other of its direction, the IMPs summed
  and divided by the number of comparisons (:func:`bridgecore.methods.cross_imp_board`);
* a teams section is IMPs between the two rooms of each match whatever the scoring says
  (78B; victory points in a round-robin, 78D), the only teams method bridgecore has.

A board played twice by a pair (Law 15B): the first play in time stands, by the hub time the
board was over at each table (the log's order); every later play by a pair that had played
the board is cancelled for both sides, never scored (``not_scored`` says why), and counts
neither in the board's results nor in the expected number (docs/scoring.md).

The field is one-winner when the movement seats a pair both ways (a Howell, an
arrow-switched Mitchell, teams), else two-winner.

The director's rulings are director commands (hub.director: ``ruling`` and
``ruling_undo``), checked here (:meth:`LiveScoring.check`) and logged as facts of the same
names, so that replaying the log rebuilds the same scores. A ruling is one of:

* ``artificial`` (Law 12C2): ``table``, ``board``, ``ns``/``ew`` ``"A+"``, ``"A="`` or
  ``"A-"`` (60/50/40% or +3/0/-3 IMPs; ``ns_percent``/``ew_percent`` where the regulations
  set another share), with the 12C2(c) session rule of the edition; on a line cancelled
  under Law 15B, ``ns`` or ``ew`` alone, for the side it deprived of a valid score
  (hub.one_side);
* ``assigned`` (12C1(a)): ``table``, ``board``, ``score_ns``;
* ``weighted`` (12C1(c)): ``table``, ``board``, ``outcomes`` ``[[weight, score_ns], ...]``,
  the weights (adding up to 1) applied to the matchpoints or IMPs of each outcome;
* ``split`` (12C1(f), non-balancing): ``table``, ``board``, ``ns`` and ``ew`` each an
  artificial level, a score or a list of weighted outcomes;
* ``penalty`` (Law 90): ``amount`` and ``unit`` (``mp``, ``percent``, ``imp``, ``vp``), for
  ``pair`` (with ``section`` when there are several) or for the ``side`` (``NS``/``EW``)
  at ``table`` on ``board``; deducted from that contestant only;
* ``fouled`` (Law 87): ``board`` and ``groups``, the tables that played each changed form
  (the others played the correct one); each form is scored as its own group, each
  Neuberg-scaled to the same top, which reconciles them.

``round`` is only needed when the board was (or is to be) played at that table in more
than one round; ``text`` (the director's words) and ``alert`` (the alert it answers) are
optional. A new ruling on the same table, round and board (a fouled-board ruling on the
same board) replaces the one in force; ``ruling_undo`` withdraws one, and the one it had
replaced is in force again. Penalties add up. A ruling on a table, board, pair or alert
that does not exist, or a score the Laws do not allow, is refused with a
:class:`RulingError` naming it; nothing else changes. The checks are :mod:`hub.rulings`'s
(``LiveScoring.check`` and the like); the scorer applies and scores the facts.
"""

from __future__ import annotations

import logging
import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

from bridgecore.adjusted import Adjustment, BoardResult, Pair, Penalty
from bridgecore.cards import Side
from bridgecore.conventions import conventions
from bridgecore.ranking import Method, ScoringOptions, score_event
from bridgecore.text import Text
from hub.corrections import Corrections
from hub.one_side import (
    adjustment_of,
    adjustment_text,
    deprived_reason,
    deprived_side,
    only_side,
)
from hub.ruling_values import RulingError, out_of_bounds
from hub.rulings import LAWS, RESULT_KINDS, UNITS, RuledRoom, RulingChecks, describe, ruling_key
from hub.section import PAIRS_METHODS, Section
from hub.section_score import SectionScore, not_scored, whole_matches
from hub.substitutes import Substitutes
from hub.texts import render
from hub.traveller import result_row, row_order
from wire.protocol import ProtocolError, topic_ranking, topic_traveller
from wire.views import RankingView, TravellerView

__all__ = ["METHODS", "LiveScoring", "RulingError", "ScoredRoom", "SectionScore"]

log = logging.getLogger(__name__)

METHODS = PAIRS_METHODS
"""A pairs section's scoring (hub.event.SCORINGS) -> its method and the scores left out at
each end of a Butler datum (module docstring)."""


# The live scorer --------------------------------------------------------------------------


class ScoredRoom(RuledRoom, Protocol):
    """What the scorer reads of the session (:class:`hub.room.Room` has it; the room owns
    the scorer, so the scorer names only what it needs): what a ruling's check reads
    (hub.rulings), and the sections, the federation's conventions and the event's language."""

    @property
    def sections(self) -> Sequence[Section]: ...
    @property
    def conventions(self) -> str: ...
    @property
    def language(self) -> str: ...


class LiveScoring(RulingChecks):
    """The room's scores and rulings (module docstring). Everything runs on the hub's loop."""

    def __init__(self, room: ScoredRoom):
        self.room: ScoredRoom = room
        self._sections: dict[str, Section] = {s.name: s for s in room.sections}
        self._section_of = {tid: s.name for s in room.sections for tid in s.tables}
        self._keys: dict[str, str] = {}
        for i, s in enumerate(room.sections, 1):
            try:
                topic_ranking(s.name)
                self._keys[s.name] = s.name
            except ProtocolError:      # a section name that cannot be a topic level
                self._keys[s.name] = f"S{i}"
        # section -> board -> (table, round) -> traveller row of a result as played
        self._rows: dict[str, dict[int, dict[tuple[str, int], dict[str, Any]]]] = {
            name: defaultdict(dict) for name in self._sections}
        self._rulings: list[dict[str, Any]] = []      # as checked, with the hub time "at"
        self._by_id: dict[str, dict[str, Any]] = {}
        self._withdrawn: dict[str, float] = {}
        self._scored: dict[str, SectionScore] = {}
        self.ranked_by: Callable[[SectionScore], list[dict[str, Any]] | None] | None = None
        self._dirty: set[str] = set(self._sections)
        self._unpublished: set[str] = set(self._sections)
        # section -> board -> (lines, top, expected) of the traveller last published
        self._published: dict[str, dict[int, tuple[Any, ...]]] = defaultdict(dict)
        self._schedules: dict[str, dict[int, int]] = {}   # section -> board -> results
        # section -> (board, table, round) -> when the board was over there (hub time): the
        # order in time of a board's plays, for Law 15B (the first play stands)
        self._when: dict[str, dict[tuple[int, str, int], float]] = defaultdict(dict)
        self.corrections = Corrections()     # results corrected by the director (hub.corrections)
        self.substitutes = Substitutes()     # who played for whom, which rounds (hub.substitutes)
        self.id_prefix = ""    # a hub shard's ("1-": 1-R1, hub.sharding): the event's ids

    # What the room tells --------------------------------------------------------------------
    def note(self, table_id: str) -> None:
        """An event was accepted at ``table_id``: keep the result of its board in play if it
        is over (or drop it if it no longer is) and mark the section when that changed."""
        state = self.room.tables.get(table_id)
        sitting = None if state is None else state.sitting
        if state is None or sitting is None:
            return
        section = self._section_of[table_id]
        rows = self._rows[section][sitting.board.number]
        key = (table_id, sitting.round)
        row = result_row(state, sitting.round, sitting)
        if rows.get(key) == row:
            return
        when = self._when[section]
        if row is None:
            del rows[key]
            when.pop((sitting.board.number, *key), None)
        else:
            rows[key] = row
            when[sitting.board.number, *key] = (sitting.ended if sitting.ended is not None
                                                else math.inf)
        self._changed(section)

    def first_result(self) -> float | None:
        """The hub time the session's first board was over (the session's day, for the
        results files), or None before any."""
        times = [t for when in self._when.values() for t in when.values() if t != math.inf]
        return min(times, default=None)

    def movement_changed(self, section: str) -> None:
        """``section``'s movement has a new round (hub.swiss): its schedule is read again."""
        self._schedules.pop(section, None)
        self._changed(section)

    def names_changed(self, section: str) -> None:
        """The players' names of ``section`` changed (hub.late_changes): rescored, published."""
        self._changed(section)

    def _changed(self, section: str) -> None:
        self._dirty.add(section)
        self._unpublished.add(section)

    def fact(self, type: str, body: Mapping[str, Any], hub_time: float) -> None:
        """Apply a logged ``ruling``, ``ruling_undo``, ``result_corrected`` (hub.corrections)
        or ``substitute`` (hub.substitutes) fact, checked when it was given."""
        if type == "result_corrected":
            self._changed(self.corrections.fact(body, hub_time))
            return
        if type == "substitute":
            self._changed(self.substitutes.fact(body))
            return
        if type == "ruling":
            ruling = dict(body, at=hub_time)
            self._rulings.append(ruling)
            self._by_id[ruling["id"]] = ruling
            problem = out_of_bounds(ruling)
            if problem:   # logged by an earlier hub that did not bound it: never applied
                log.error("ruling %s in the log is not applied: %s (give it again)",
                          ruling["id"], problem)
                self._withdrawn[ruling["id"]] = hub_time
        elif type == "ruling_undo":
            ruling = self._by_id[body["id"]]
            self._withdrawn[ruling["id"]] = hub_time
        else:
            raise ValueError(f"not a ruling fact: {type!r}")
        self._changed(ruling["section"])

    # Scoring --------------------------------------------------------------------------------
    def _teams(self, section: Section) -> dict[Pair, Pair] | None:
        """Pair -> team in a teams movement (team k is pairs 2k-1 and 2k), else None."""
        movement = section.movement
        if movement is None or not movement.name.startswith("Teams"):
            return None
        return {p: (p + 1) // 2 for p in movement.pairs}

    @staticmethod
    def _method(section: Section, teams: Mapping[Pair, Pair] | None) -> tuple[Method, int]:
        """The section's method and Butler trim: IMPs for teams, else its scoring's."""
        if teams is not None:
            return Method.IMPS, 0
        return section.pairs_method

    def _units(self, name: str) -> tuple[str, ...]:
        section = self._sections[name]
        teams = self._teams(section)
        if teams is None:
            method, _ = self._method(section, None)
            return ("mp", "percent") if method is Method.MATCHPOINTS else ("imp",)
        return ("vp", "imp") if len(set(teams.values())) > 2 else ("imp",)

    def _in_force(self, section: str) -> dict[tuple[Any, ...], dict[str, Any]]:
        """The rulings in force in ``section``: the last one not withdrawn for each target."""
        out: dict[tuple[Any, ...], dict[str, Any]] = {}
        for ruling in self._rulings:
            if ruling["section"] == section and ruling["id"] not in self._withdrawn:
                out[ruling_key(ruling)] = ruling
        return out

    def section(self, name: str) -> SectionScore:
        """``name`` scored as it stands (rescored only when something changed)."""
        if name not in self._sections:
            raise KeyError(f"no section {name!r}")
        if name in self._dirty or name not in self._scored:
            self._scored[name] = self._score(name)
            self._scored[name].ranked_by = self.ranked_by   # a Swiss section's (hub.swiss)
            self._dirty.discard(name)
        return self._scored[name]

    def sections(self) -> list[SectionScore]:
        return [self.section(name) for name in self._sections]

    def _lines(self, name: str, in_force: Mapping[tuple[Any, ...], dict[str, Any]]
               ) -> tuple[dict[int, list[dict[str, Any]]], dict[str, Adjustment]]:
        """Each board's traveller lines, in North-South pair order: the results as played,
        a line for each result ruling on a board not played there, the form of a fouled
        board; and the adjusted score of each result ruling in force."""
        forms = {(r["board"], t): form for r in in_force.values() if r["kind"] == "fouled"
                 for form, group in enumerate(r["groups"], 1) for t in group}
        found: dict[int, dict[tuple[str, int], dict[str, Any]]] = defaultdict(dict)
        for board, played in self._rows[name].items():
            for key, row in played.items():
                kept = found[board][key] = dict(row, ruling=None, corrected=None)
                correction = self.corrections.in_force(key[0], key[1], board)
                if correction is not None:       # the result as it really was
                    kept.update({k: correction[k] for k in ("contract", "declarer", "tricks",
                                                            "score_ns")},
                                corrected=correction["id"])
        adjustments: dict[str, Adjustment] = {}
        for ruling in in_force.values():
            if ruling["kind"] not in RESULT_KINDS:
                continue
            board, table, round_ = ruling["board"], ruling["table"], ruling["round"]
            line = found[board].get((table, round_))
            if line is None:             # a board not played there: the ruling stands alone
                ns, ew = self._sections[name].line_pairs(table, round_,
                                                         self.room.tables[table].pairs(round_))
                line = found[board][table, round_] = {
                    "table": table, "round": round_, "NS": ns, "EW": ew, "contract": None,
                    "declarer": None, "tricks": None, "score_ns": None, "corrected": None}
            adjustments[ruling["id"]] = adjustment_of(ruling)
            line["ruling"] = ruling["id"]
        ordered: dict[int, list[dict[str, Any]]] = {}
        for board in sorted(b for b, rows in found.items() if rows):
            ordered[board] = sorted(found[board].values(), key=row_order)
            for line in ordered[board]:
                adjustment = adjustments.get(line["ruling"]) if line["ruling"] else None
                line.update(form=forms.get((board, line["table"]), 0), deprived=None,
                            adjustment=None if adjustment is None else
                            adjustment_text(self._by_id[line["ruling"]]),
                            ns_points=None, ew_points=None, ns_percent=None,
                            ew_percent=None, scored=False, not_scored=None,
                            not_scored_text=None)
        return ordered, adjustments

    def _score(self, name: str) -> SectionScore:
        section = self._sections[name]
        movement = section.movement
        teams = self._teams(section)
        in_force = self._in_force(name)
        ordered, adjustments = self._lines(name, in_force)
        problems: list[Text] = []
        results: list[BoardResult] = []
        index: dict[tuple[int, int, int], dict[str, Any]] = {}
        valid: dict[int, int] = {}
        played = self._when[name]
        for board, lines in ordered.items():
            first: dict[int, dict[str, Any]] = {}     # pair -> where it first played the board
            for line in self._in_time(name, board, lines):
                reason = not_scored(line, first)
                if (board, line["table"], line["round"]) in played:    # not a ruling alone
                    for pair in (line["NS"], line["EW"]):
                        if pair is not None:
                            first.setdefault(pair, line)
                ns, ew = line["NS"], line["EW"]
                adjustment = adjustments.get(line["ruling"]) if line["ruling"] else None
                only = only_side(self._by_id[line["ruling"]]) if line["ruling"] else None
                if reason is not None:
                    side = line["deprived"] = deprived_side(line, first)   # Law 15B
                    reason = reason if side is None else deprived_reason(reason, line[side])
                    # the traveller's (12.3): the words in the event's language, the
                    # message for each reader's
                    line.update(not_scored=render(reason, self.room.language),
                                not_scored_text=reason.to_json())
                    problems.append(Text.of("problem.not_scored", board=board,
                                            table=line["table"], round=line["round"],
                                            reason=reason))
                if only is not None and (reason is None or only.value != line["deprived"]) \
                        and section.sat_out(line["table"], line["round"]) is None:
                    problems.append(Text.of("problem.deprived_ruling", id=line["ruling"],
                                            board=board, table=line["table"]))
                    adjustment, only = None, None   # not the deprived side's: never applied
                    line["adjustment"] = None
                if reason is not None and (only is None or adjustment is None):
                    continue
                if (seats := section.players(line["table"], line["round"])) is not None:
                    line["players"] = list(seats)     # an individual's N, E, S, W
                results.append(BoardResult(board, ns, ew, line["score_ns"], adjustment,
                                           line["form"], seats, only))
                index[board, ns, ew] = line
                valid[board] = valid.get(board, 0) + (only is None)
        if teams is not None:
            results = whole_matches(results, teams)
        expected = self._expected(name, valid)
        penalties = [r for r in in_force.values() if r["kind"] == "penalty"]
        method, trim = self._method(section, teams)
        victory = teams is not None and len(set(teams.values())) > 2
        before = self._scored.get(name)
        event = score_event(
            results, method, edition=self.room.edition,
            previous=None if before is None else before.event,   # its unchanged boards kept
            penalties=[Penalty(p["pair"] if teams is None else teams[p["pair"]], p["amount"],
                               UNITS[p["unit"]], p.get("board"), reason=p.get("text", ""))
                       for p in penalties],
            options=ScoringOptions.of(
                self.room.conventions, expected=expected, teams=teams, victory_points=victory,
                butler_trim=trim, individual=section.individual is not None,
                vulnerability={b: self.room.markings(b).vulnerability for b in ordered}))
        for board, scored in event.boards.items():
            top = event.tops.get(board)
            for s in scored:
                line = index[board, int(s.result.ns), int(s.result.ew)]
                ns_side, ew_side = (side in s.result.sides for side in Side)   # 15B: one
                line.update(ns_points=s.ns_points if ns_side else None, scored=ns_side == ew_side,
                            ew_points=s.ew_points if ew_side else None)
                if top:
                    line.update(ns_percent=100 * s.ns_points / top if ns_side else None,
                                ew_percent=100 * s.ew_points / top if ew_side else None)
        problems += [p.as_text() for p in event.problems]   # bridgecore's score.* keys
        return SectionScore(
            name, self._keys[name], method, self._one_winner(section, teams), expected,
            "MP" if method is Method.MATCHPOINTS else "VP" if victory else "IMPs", event, ordered,
            self.substitutes.names(section) if teams is None else self._names(section, teams),
            [{"id": p["id"], "pair": p["pair"], "amount": p["amount"], "unit": p["unit"],
              "board": p.get("board"), "text": p.get("text", "")} for p in penalties],
            problems, {b: self.room.markings(b)
                       for b in {*ordered, *(movement.boards if movement else ())}},
            conventions(self.room.conventions), individual=section.individual is not None,
            language=self.room.language,
            substitutes=self.substitutes.of_section(section) if teams is None else {})

    def _in_time(self, name: str, board: int, lines: list[dict[str, Any]]
                 ) -> list[dict[str, Any]]:
        """``board``'s lines in the order they were played (Law 15B: the first play in time
        stands): by when the board was over at the table, as the log has it (a pair plays
        at one table at a time, so this is the order its plays began), then by round; a
        line of a ruling on a board not played there comes after those played."""
        when = self._when[name]
        return sorted(lines, key=lambda line: (
            when.get((board, line["table"], line["round"]), math.inf), line["round"],
            line["table"]))

    def _expected(self, name: str, valid: Mapping[int, int]) -> int:
        """The number of results a board is matchpointed against (Neuberg's E): the most
        results any board of the movement is scheduled to have, or more when more were
        validly played. A line never to be scored (a second play, Law 15B) counts for
        nothing: it neither raises the top nor scales the other results."""
        scheduled = self._scheduled(name) if self._sections[name].movement else {}
        return max((max(scheduled.get(b, 0), n) for b, n in valid.items()),
                   default=max(scheduled.values(), default=1))

    def _scheduled(self, name: str) -> dict[int, int]:
        """How many results of each board the section's movement plays (worked out once,
        again when a Swiss round is drawn: :meth:`movement_changed`)."""
        counts = self._schedules.get(name)
        if counts is None:
            movement = self._sections[name].movement
            counts = {}
            for a in (movement.assignments if movement else ()):
                if a.plays:
                    for b in a.boards:
                        counts[b] = counts.get(b, 0) + 1
            self._schedules[name] = counts
        return counts

    @staticmethod
    def _one_winner(section: Section, teams: Mapping[Pair, Pair] | None) -> bool:
        movement = section.movement
        if teams is not None:
            return True
        if movement is None:
            return False
        ns = {a.ns for a in movement.assignments if a.plays}
        ew = {a.ew for a in movement.assignments if a.plays}
        return bool(ns & ew)

    @staticmethod
    def _names(section: Section, teams: Mapping[Pair, Pair] | None) -> dict[Any, list[str]]:
        if teams is None:
            return {p: list(names) for p, names in section.pairs.items()}
        out: dict[Any, list[str]] = defaultdict(list)
        for pair, team in sorted(teams.items()):
            out[team] += section.pairs.get(int(pair), ())
        return dict(out)

    # Publishing -----------------------------------------------------------------------------
    def unpublished(self) -> list[str]:
        """The sections whose results or rulings changed since they were last published."""
        return [n for n in self._sections if n in self._unpublished]

    def publications(self, force: bool = False, only: Iterable[str] | None = None
                     ) -> list[tuple[str, str]]:
        """(topic, payload) of the ranking and the travellers that changed of each section
        that changed since the last call (every section, every traveller with ``force``;
        ``only`` these sections): a board whose last result went away gets an empty
        traveller once."""
        names = [n for n in self._sections if (force or n in self._unpublished)
                 and (only is None or n in only)]
        self._unpublished.difference_update(names)
        out = []
        for name in names:
            scored = self.section(name)
            out.append((topic_ranking(scored.key),
                        RankingView.from_builtins(scored.ranking_json()).to_json()))
            sent = self._published[name]
            for board in sorted(set(scored.lines) | set(sent)):
                # A traveller is made again only when its lines or its top changed.
                now = (scored.lines.get(board), scored.event.tops.get(board), scored.expected)
                if not force and sent.get(board) == now:
                    continue
                out.append((topic_traveller(scored.key, board),
                            TravellerView.from_builtins(scored.traveller_json(board)).to_json()))
                if board in scored.lines:
                    sent[board] = now
                else:
                    sent.pop(board, None)
        return out

    # Views ----------------------------------------------------------------------------------
    def rulings_json(self) -> list[dict[str, Any]]:
        """Every ruling given, in order: ``status`` in force, replaced or withdrawn."""
        in_force = {r["id"] for name in self._sections for r in self._in_force(name).values()}
        out = []
        for ruling in self._rulings:
            status = ("in force" if ruling["id"] in in_force else
                      "withdrawn" if ruling["id"] in self._withdrawn else "replaced")
            words = describe(ruling, self._sections.get(ruling["section"]))
            out.append(dict(ruling, law=LAWS[ruling["kind"]], status=status,
                            summary=render(words, "en"), summary_text=words.to_json(),
                            withdrawn_at=self._withdrawn.get(ruling["id"])))
        return out

    def snapshot(self) -> dict[str, Any]:
        """The rulings as the log gives them (Room.snapshot)."""
        return {"rulings": [dict(r) for r in self._rulings], "withdrawn": dict(self._withdrawn),
                "corrections": self.corrections.snapshot(),
                "substitutes": self.substitutes.snapshot()}
