"""The director's score rulings checked: a ``ruling`` command made the fact that is logged.

:class:`RulingChecks` is a part of :class:`hub.scoring.LiveScoring`: :meth:`RulingChecks.check`
takes a ``ruling`` command (its fields' JSON types checked by hub.director against
:data:`RULING_FIELDS`), checks that what it names exists (the table, the board, the round it
was played in there, the pair, the section, the alert it answers) and that the Laws allow
the score (Laws 12C, 87, 90; its numbers bounded by hub.ruling_values), and gives the fact
normalised, with its id and the ruling it replaces; :meth:`RulingChecks.check_undo` and
:meth:`RulingChecks.check_correction` do the same for a withdrawal and a corrected result
(hub.corrections). A refusal is a :class:`hub.ruling_values.RulingError` naming what is
wrong; nothing changes. :func:`describe` says a ruling as the pages do.

Apart from hub.scoring because a ruling is checked once, when the director gives it, and
only read afterwards: the scorer applies the logged facts (``LiveScoring.fact``) and scores
them, and never checks them again. The kinds of ruling and their fields are listed in
hub.scoring's docstring.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from bridgecore.adjusted import BoardResult, Pair, PenaltyUnit, check_results
from bridgecore.markings import Markings
from bridgecore.text import Text
from hub.corrections import Corrections
from hub.one_side import adjustment_of, adjustment_text, check_deprived
from hub.ruling_values import (
    KIND_TEXTS,
    MAX_PENALTY,
    RulingError,
    artificial_level,
    bounded_number,
    outcomes_value,
    ruling_refused,
    score_value,
    side_award,
)
from hub.section import Section

if TYPE_CHECKING:
    from bridgecore.deal import Deal
    from bridgecore.editions import Edition
    from hub.alerts import AlertBook
    from hub.section_score import SectionScore
    from hub.table import TableState

__all__ = ["KINDS", "LAWS", "RESULT_KINDS", "RULING_FIELDS", "UNITS", "RuledRoom",
           "RulingChecks", "describe", "ruling_key"]

KINDS = ("artificial", "assigned", "weighted", "split", "penalty", "fouled")
RESULT_KINDS = frozenset(KINDS[:4])
LAWS = {"artificial": "12C2", "assigned": "12C1(a)", "weighted": "12C1(c)",
        "split": "12C1(f)", "penalty": "90", "fouled": "87"}
UNITS = {unit.value: unit for unit in PenaltyUnit}
_MAX_TEXT = 4000
_UNDO = Text.of("doing.ruling_undo")      # a withdrawal's refusal starts with it

# The fields of the director's ``ruling`` command (hub.director checks their JSON types;
# ``object`` fields take several shapes and are checked here).
RULING_FIELDS: dict[str, tuple[type, bool]] = {
    "kind": (str, True), "table": (str, False), "board": (int, False), "round": (int, False),
    "section": (str, False), "side": (str, False), "pair": (int, False),
    "ns": (object, False), "ew": (object, False), "ns_percent": (object, False),
    "ew_percent": (object, False), "score_ns": (int, False), "outcomes": (list, False),
    "amount": (object, False), "unit": (str, False), "groups": (list, False),
    "text": (str, False), "alert": (str, False),
}
# kind -> (required fields, optional fields), besides kind, text and alert.
_FIELDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "artificial": (frozenset({"table", "board"}),   # ns and ew, or one (15B: hub.one_side)
                   frozenset({"round", "ns", "ew", "ns_percent", "ew_percent"})),
    "assigned": (frozenset({"table", "board", "score_ns"}), frozenset({"round"})),
    "weighted": (frozenset({"table", "board", "outcomes"}), frozenset({"round"})),
    "split": (frozenset({"table", "board", "ns", "ew"}), frozenset({"round"})),
    "penalty": (frozenset({"amount", "unit"}),
                frozenset({"table", "board", "round", "side", "section", "pair"})),
    "fouled": (frozenset({"board", "groups"}), frozenset({"section"})),
}
_COMMON = frozenset({"kind", "text", "alert"})


def ruling_key(ruling: Mapping[str, Any]) -> tuple[Any, ...]:
    """What a ruling replaces: the same result, the same fouled board; penalties add up."""
    kind = ruling["kind"]
    if kind in RESULT_KINDS:
        return ("result", ruling["table"], ruling["round"], ruling["board"])
    if kind == "fouled":
        return ("fouled", ruling["section"], ruling["board"])
    return ("penalty", ruling["id"])


def describe(ruling: Mapping[str, Any], section: Section | None = None) -> Text:
    """A ruling as the pages say it (a text, rendered in the reader's language: hub.texts):
    ``Law 12C2 A+ A- at table A3, round 2, board 5``."""
    kind = ruling["kind"]
    law = LAWS[kind]
    if kind in RESULT_KINDS:
        return Text.of("ruling.result", law=law, adjustment=adjustment_text(ruling),
                       table=ruling["table"], round=ruling["round"], board=ruling["board"])
    if kind == "fouled":
        return Text.of("ruling.fouled", law=law, board=ruling["board"], groups=[
            Text.of("ruling.form", n=i, tables=", ".join(g))
            for i, g in enumerate(ruling["groups"], 1)])
    on = ([Text.of("ruling.on_board", board=ruling["board"])]
          if ruling.get("board") is not None else [])
    if section is not None and section.individual is not None:
        return Text.of("ruling.penalty_player", law=law, amount=f"{ruling['amount']:g}",
                       unit=ruling["unit"], player=ruling["pair"], more=on)
    return Text.of("ruling.penalty", law=law, amount=f"{ruling['amount']:g}",
                   unit=ruling["unit"], pair=ruling["pair"], more=on)


class RuledRoom(Protocol):
    """What a ruling's check reads of the session (:class:`hub.scoring.ScoredRoom` has it)."""

    @property
    def tables(self) -> Mapping[str, TableState]: ...
    @property
    def alerts(self) -> AlertBook: ...
    @property
    def edition(self) -> Edition: ...

    def deal(self, board: int) -> Deal | None: ...
    def markings(self, board: int) -> Markings: ...


class RulingChecks:
    """A ruling, a withdrawal or a correction checked (a part of
    :class:`hub.scoring.LiveScoring`, whose state it reads)."""

    if TYPE_CHECKING:
        room: RuledRoom
        id_prefix: str
        corrections: Corrections
        _sections: dict[str, Section]
        _section_of: dict[str, str]
        _rows: dict[str, dict[int, dict[tuple[str, int], dict[str, Any]]]]
        _rulings: list[dict[str, Any]]
        _by_id: dict[str, dict[str, Any]]
        _withdrawn: dict[str, float]

        def _in_force(self, section: str) -> dict[tuple[Any, ...], dict[str, Any]]: ...
        def section(self, name: str) -> SectionScore: ...
        def _teams(self, section: Section) -> dict[Pair, Pair] | None: ...
        def _units(self, name: str) -> tuple[str, ...]: ...

    # Checking a ruling ----------------------------------------------------------------------
    def check(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """The ``ruling`` fact for the command ``body`` (its fields' JSON types checked):
        normalised, with its id, section and round, and the id of the ruling it replaces.
        Raises RulingError naming what does not exist or is not allowed."""
        kind = body.get("kind")
        if kind not in _FIELDS:
            raise RulingError(Text.of("refusal.ruling_kind", kind=str(kind)[:40], kinds=KINDS))
        where = Text.of("doing.ruling_kind", kind=KIND_TEXTS[kind])
        required, optional = _FIELDS[kind]
        given = {k for k, v in body.items() if v is not None}
        extra = sorted(given - required - optional - _COMMON)
        if extra:
            raise ruling_refused(where, Text.of("refusal.not_for_kind", fields=", ".join(extra)))
        missing = sorted(required - given)
        if missing:
            raise ruling_refused(where, Text.of("refusal.missing", fields=", ".join(missing)))
        out: dict[str, Any] = {"id": f"{self.id_prefix}R{len(self._rulings) + 1}", "kind": kind}
        if kind == "fouled":
            out.update(self._check_fouled(body, where))
        elif kind == "penalty":
            out.update(self._check_penalty(body, where))
        else:
            out.update(self._check_result(body, where))
        text = (body.get("text") or "").strip()
        if len(text) > _MAX_TEXT:
            raise ruling_refused(where, Text.of("refusal.text_length", n=len(text), most=_MAX_TEXT))
        if text:
            out["text"] = text
        alert = body.get("alert")
        if alert is not None:
            if alert not in self.room.alerts:
                raise ruling_refused(where, Text.of("refusal.no_alert", id=str(alert)[:80]))
            out["alert"] = alert
        previous = self._in_force(out["section"]).get(ruling_key(out))
        if previous is not None:
            out["replaces"] = previous["id"]
        return out

    def check_correction(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """The ``result_corrected`` fact for the command ``body`` (hub.corrections);
        CorrectionError naming what is wrong."""
        def played(table: str, round_: int, board: int) -> Mapping[str, Any] | None:
            return self._rows[self._section_of[table]].get(board, {}).get((table, round_))
        return self.corrections.check(body, section_of=self._section_of, rounds=self._rounds,
                                      played=played, markings=self.room.markings)

    def check_undo(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """The ``ruling_undo`` fact for ``{"id"}``: the ruling must exist and be in force or
        replaced, not already withdrawn."""
        ruling_id = body.get("id")
        if ruling_id not in self._by_id:
            raise ruling_refused(_UNDO, Text.of("refusal.no_ruling", id=str(ruling_id)[:40]))
        if ruling_id in self._withdrawn:
            raise ruling_refused(_UNDO, Text.of("refusal.ruling_withdrawn", id=ruling_id))
        return {"id": ruling_id}

    def _board_exists(self, board: int, section: Section, where: Text) -> None:
        movement = section.movement
        if self.room.deal(board) is None and (movement is None or board not in movement.boards):
            raise ruling_refused(where, Text.of("refusal.no_board", board=board))

    def _rounds(self, table: str, board: int) -> list[int]:
        """The rounds in which ``table`` played, or is to play, ``board``."""
        state = self.room.tables[table]
        rounds = {r for r, b in state.sittings if b == board}
        section = self._sections[self._section_of[table]]
        number = section.tables[table]
        if section.movement is not None:
            rounds |= {a.round for a in section.movement.assignments if a.table == number
                       and board in a.boards and (a.plays or section.sat_out(table, a.round))}
        return sorted(rounds)

    def _target(self, body: Mapping[str, Any], where: Text) -> tuple[str, str, int, int]:
        """(section, table, round, board) of a ruling on one table's result."""
        table, board = body.get("table"), body.get("board")
        if not isinstance(table, str) or table not in self.room.tables:
            raise ruling_refused(where, Text.of("refusal.no_table", table=str(table)[:40]))
        if isinstance(board, bool) or not isinstance(board, int):
            raise ruling_refused(where, Text.of("refusal.not_board_number", board=f"{board!r:.20}"))
        section = self._section_of[table]
        self._board_exists(board, self._sections[section], where)
        rounds = self._rounds(table, board)
        asked = body.get("round")
        if asked is not None:
            if asked not in rounds:
                raise ruling_refused(where, Text.of("refusal.board_not_in_round", board=board,
                                                    table=table, round=asked))
            return section, table, asked, board
        if not rounds:
            raise ruling_refused(where, Text.of("refusal.board_not_at_table", board=board,
                                                table=table))
        if len(rounds) > 1:
            raise ruling_refused(where, Text.of("refusal.give_the_round", board=board, table=table,
                                                rounds=", ".join(map(str, rounds))))
        return section, table, rounds[0], board

    def _check_result(self, body: Mapping[str, Any], where: Text) -> dict[str, Any]:
        kind = body["kind"]
        section, table, round_, board = self._target(body, where)
        where = Text.of("doing.ruling_at", where=where, board=board, table=table)
        sat_out = self._sections[section].sat_out(table, round_)   # a late pair's (Section)
        ns, ew = self._sections[section].line_pairs(table, round_,
                                                    self.room.tables[table].pairs(round_))
        if ns is None or ew is None:
            raise ruling_refused(where, Text.of("refusal.pairs_unknown", round=round_))
        out: dict[str, Any] = {"kind": kind, "section": section, "table": table,
                               "round": round_, "board": board}
        if kind == "artificial":
            sides = [n for n in ("ns", "ew") if body.get(n) is not None] or ["ns", "ew"]
            for name in sides:
                out[name] = str(artificial_level(body.get(name), name, where))
                if body.get(f"{name}_percent") is not None:
                    out[f"{name}_percent"] = bounded_number(body[f"{name}_percent"],
                                                            f"{name}_percent", where, 0.0, 100.0)
            if len(sides) == 1 and (sat_out is None or sides != [sat_out[0].lower()]):   # 15B
                check_deprived(out, body, self.section(section).lines.get(board, ()),
                               self._teams(self._sections[section]) is not None, where)
        elif kind == "assigned":
            out["score_ns"] = score_value(body["score_ns"], "score_ns", where)
        elif kind == "weighted":
            out["outcomes"] = outcomes_value(body["outcomes"], "outcomes", where)
        else:
            out["ns"] = side_award(body["ns"], "ns", where)
            out["ew"] = side_award(body["ew"], "ew", where)
        try:
            adjustment = adjustment_of(out)
        except (ValueError, TypeError) as err:     # bridgecore's text (RuleError), or words
            raise ruling_refused(where, err) from None
        _, problems = check_results([BoardResult(board, ns, ew, None, adjustment)],
                                    self.room.edition,
                                    vulnerability={board: self.room.markings(board).vulnerability})
        if problems:
            raise ruling_refused(where, problems[0].text or Text.plain(problems[0].message))
        return out

    def _check_penalty(self, body: Mapping[str, Any], where: Text) -> dict[str, Any]:
        unit = body["unit"]
        if unit not in UNITS:
            raise ruling_refused(where, Text.of("refusal.unit", unit=unit[:20], units=[*UNITS]))
        amount = bounded_number(body["amount"], "amount", where, -1e6, MAX_PENALTY[unit])
        if amount <= 0:
            raise ruling_refused(where, Text.of("refusal.amount_positive", amount=f"{amount:g}"))
        out: dict[str, Any] = {"amount": amount, "unit": unit}
        if body.get("pair") is not None:
            if body.get("table") is not None or body.get("side") is not None:
                raise ruling_refused(where, Text.of("refusal.pair_or_table"))
            section = body.get("section")
            if section is None:
                if len(self._sections) > 1:
                    raise ruling_refused(where, Text.of("refusal.give_section", pair=body["pair"]))
                section = next(iter(self._sections))
            if section not in self._sections:
                raise ruling_refused(where, Text.of("refusal.no_section", section=section))
            movement, solo = self._sections[section].movement, self._sections[section].individual
            pair = body["pair"]   # an individual's penalty is one player's (protocol 12.2)
            if movement is not None and pair not in (movement.pairs if solo is None
                                                     else solo.players):
                raise ruling_refused(where, Text.of("refusal.no_player", pair=pair,
                                                    section=section) if solo else
                                     Text.of("refusal.no_pair", pair=pair, section=section))
            out.update(section=section, pair=pair)
            if body.get("board") is not None:
                self._board_exists(body["board"], self._sections[section], where)
                out["board"] = body["board"]
        else:
            side = body.get("side")
            if body.get("table") is None or body.get("board") is None or side is None:
                raise ruling_refused(where, Text.of("refusal.name_pair_or_table"))
            if side not in ("NS", "EW"):
                raise ruling_refused(where, Text.of("refusal.side", side=str(side)[:10]))
            section, table, round_, board = self._target(body, where)
            if self._sections[section].individual is not None:
                raise ruling_refused(where, Text.of("refusal.individual_player"))
            pairs = self.room.tables[table].pairs(round_)
            pair = pairs[0 if side == "NS" else 1]
            if pair is None:
                raise ruling_refused(where, Text.of("refusal.side_unknown", side=side, table=table,
                                                    round=round_))
            out.update(section=section, pair=pair, table=table, round=round_, board=board,
                       side=side)
        allowed = self._units(out["section"])
        if unit not in allowed:
            raise ruling_refused(where, Text.of("refusal.penalty_unit", unit=unit,
                                                section=out["section"], units=", ".join(allowed)))
        if unit == "imp" and "vp" in allowed and out.get("board") is None:
            raise ruling_refused(where, Text.of("refusal.imp_penalty_board"))
        return out

    def _check_fouled(self, body: Mapping[str, Any], where: Text) -> dict[str, Any]:
        board, groups = body["board"], body["groups"]
        where = Text.of("doing.ruling_board", where=where, board=board)
        if not groups or not all(isinstance(g, list) and g for g in groups):
            raise ruling_refused(where, Text.of("refusal.fouled_groups"))
        tables = [t for g in groups for t in g]
        for t in tables:
            if t not in self.room.tables:
                raise ruling_refused(where, Text.of("refusal.no_table", table=str(t)[:40]))
        twice = sorted({t for t in tables if tables.count(t) > 1})
        if twice:
            raise ruling_refused(where, Text.of("refusal.table_twice", table=twice[0]))
        sections = {self._section_of[t] for t in tables}
        section = body.get("section") or (sections.pop() if len(sections) == 1 else None)
        if section is None or section not in self._sections or sections - {section}:
            raise ruling_refused(where, Text.of("refusal.fouled_section"))
        self._board_exists(board, self._sections[section], where)
        for t in tables:
            if not self._rounds(t, board):
                raise ruling_refused(where, Text.of("refusal.table_not_board", table=t,
                                                    board=board))
        return {"section": section, "board": board, "groups": [list(g) for g in groups]}
