"""Results the director corrects: a table's result entered or recorded wrong, put right.

A correction is not an adjusted score (Law 12): the board was played and its result stands,
only as it really was (the contract, declarer, opening lead or tricks the table agreed,
Law 79, and the device recorded otherwise: a wrong contract tapped, a claim's tricks
mistyped). The director's command ``result_correct`` names the table, the board (the round
when the table played that board in more than one) and the result as it was::

    {"op": "result_correct", "table": "A2", "board": 5, "contract": "4SX", "declarer": "N",
     "tricks": 9, "lead"?: "HK", "round"?: 3, "text"?: "EW agreed 4S doubled"}
    {"op": "result_correct", "table": "A2", "board": 5, "contract": "PASS"}

It is checked (:meth:`Corrections.check`: a result played there, a contract, a declarer, 0
to 13 tricks, a lead that is a card) and logged as the fact ``result_corrected`` with its id
(``C1``, ``C2``...), the section, the round, the score worked out by Law 77 with the board's
vulnerability, the result it replaces (``was``) and ``by``, the account that gave it; the
log replays it. The latest correction of a result is in force; every one is kept, in
order, for the history (:meth:`Corrections.history`, ``GET /api/evening/corrections``). The
traveller line shows the corrected result with ``corrected`` (the id in force); an
adjusted score (a ``ruling``) on the same line still replaces its score, as before.

The console's form is typed in the director's language: :func:`as_typed` reads its
contract, declarer and lead with that language's notation (bridgecore.notation: ``3SA``
and ``♠V``, the Dutch queen, from a Dutch director; ``O``, West, from a Spanish one, East
from a German one) and writes them as the command has them (``3NT``, ``SQ``, ``W``), before
the command is checked and logged; a text that is not one in that language is refused,
naming it, never guessed in another language.

Exceptions::

    hub.errors.HubError
    └── CorrectionError (ValueError)   a correction that names nothing played, or no result
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bridgecore.calls import PASS, Contract
from bridgecore.cards import Card, Seat
from bridgecore.errors import BridgeError
from bridgecore.markings import Markings
from bridgecore.notation import Notation
from bridgecore.scoring import score_ns
from bridgecore.text import Text
from hub.console_i18n import language_name
from hub.errors import HubError
from hub.late_changes import refused

__all__ = ["FIELDS", "CorrectionError", "Corrections", "as_typed"]

_MAX_TEXT = 4000

# The command's fields: name -> (type, required) (hub.director checks their JSON types).
FIELDS: dict[str, tuple[type, bool]] = {
    "table": (str, True), "board": (int, True), "round": (int, False),
    "contract": (str, True), "declarer": (str, False), "tricks": (int, False),
    "lead": (str, False), "text": (str, False),
}


class CorrectionError(HubError, ValueError):
    """A correction that cannot be made, with the reason."""


def _language(notation: Notation) -> dict[str, str]:
    """The notation's language in a refusal: its code (for a program) and its own name, which
    the message says ("not a contract in English", "en français")."""
    return {"language": notation.language,
            "name": language_name(notation.language, notation.language)}


def as_typed(command: Mapping[str, Any], notation: Notation) -> dict[str, Any]:
    """The ``result_correct`` command with its contract, declarer and lead read in the
    notation of the language the director typed them in, written as the command has them;
    CorrectionError naming a text that is not one in that language. A passed-out board's
    word (the language's pass: ``Pas``, ``Paso``) becomes ``PASS``."""
    out = dict(command)
    contract = command.get("contract")
    if isinstance(contract, str) and contract.strip():
        if contract.strip().upper() == "PASSED OUT" or _is_pass(contract, notation):
            out["contract"] = "PASS"
        else:
            try:
                out["contract"] = str(notation.read_contract(contract))
            except BridgeError:
                raise CorrectionError(refused("result_correct", Text.of(
                    "refusal.typed_contract", typed=contract[:20],
                    **_language(notation)))) from None
    declarer = command.get("declarer")
    if isinstance(declarer, str):
        try:
            out["declarer"] = notation.read_seat(declarer).letter
        except BridgeError:
            raise CorrectionError(refused("result_correct", Text.of(
                "refusal.typed_seat", typed=declarer[:10], **_language(notation),
                letters=", ".join(sorted(k for k in notation.seats if len(k) == 1))))) from None
    lead = command.get("lead")
    if isinstance(lead, str):
        try:
            out["lead"] = str(notation.read_card(lead))
        except BridgeError:
            raise CorrectionError(refused("result_correct", Text.of(
                "refusal.typed_card", typed=lead[:10], **_language(notation)))) from None
    return out


def _is_pass(text: str, notation: Notation) -> bool:
    try:
        return notation.read_call(text) == PASS
    except BridgeError:
        return False


# (table, round, board) -> the traveller row of the result as played, or None
Played = Callable[[str, int, int], Mapping[str, Any] | None]


class Corrections:
    """The corrections given (module docstring), in order; the latest of a result is in
    force."""

    def __init__(self) -> None:
        self._given: list[dict[str, Any]] = []
        self.id_prefix = ""    # a hub shard's ("1-": 1-C1), so that ids are the event's
        self._in_force: dict[tuple[str, int, int], dict[str, Any]] = {}

    def check(self, body: Mapping[str, Any], *, section_of: Mapping[str, str],
              rounds: Callable[[str, int], list[int]], played: Played,
              markings: Callable[[int], Markings]) -> dict[str, Any]:
        """The ``result_corrected`` fact for the command ``body`` (its JSON types checked);
        CorrectionError naming what is wrong."""
        table, board = body["table"], body["board"]
        where = Text.of("doing.correcting", table=table[:40], board=board)
        if table not in section_of:
            raise CorrectionError(_refused(where, Text.of("refusal.no_such_table")))
        round_ = body.get("round")
        found = [r for r in rounds(table, board) if played(table, r, board) is not None]
        if round_ is None:
            if len(found) > 1:
                raise CorrectionError(_refused(where, Text.of(
                    "refusal.name_the_round", rounds=", ".join(map(str, found)))))
            round_ = found[0] if found else None
        if round_ is None or played(table, round_, board) is None:
            raise CorrectionError(_refused(where, Text.of("refusal.nothing_to_correct")))
        out: dict[str, Any] = {"id": f"{self.id_prefix}C{len(self._given) + 1}",
                               "section": section_of[table], "table": table,
                               "round": round_, "board": board}
        out.update(_result(body, markings(board), where))
        lead = body.get("lead")
        if lead is not None:
            try:
                out["lead"] = str(Card.parse(lead))
            except (BridgeError, ValueError):
                raise CorrectionError(_refused(where, Text.of(
                    "refusal.lead_not_card", lead=lead[:10]))) from None
            if out["contract"] == "PASS":
                raise CorrectionError(_refused(where, Text.of("refusal.passed_out_lead")))
        text = (body.get("text") or "").strip()
        if len(text) > _MAX_TEXT:
            raise CorrectionError(_refused(where, Text.of(
                "refusal.text_length", n=len(text), most=_MAX_TEXT)))
        if text:
            out["text"] = text
        before = self._in_force.get((table, round_, board))
        was = before if before is not None else played(table, round_, board) or {}
        out["was"] = {k: was.get(k) for k in ("contract", "declarer", "tricks", "lead",
                                              "score_ns")}
        if before is not None:
            out["replaces"] = before["id"]
        return out

    def fact(self, body: Mapping[str, Any], hub_time: float) -> str:
        """Apply a logged ``result_corrected`` fact; returns its section."""
        correction = dict(body, at=hub_time)
        self._given.append(correction)
        self._in_force[correction["table"], correction["round"], correction["board"]] = \
            correction
        return str(correction["section"])

    def in_force(self, table: str, round_: int, board: int) -> dict[str, Any] | None:
        return self._in_force.get((table, round_, board))

    def history(self) -> list[dict[str, Any]]:
        """Every correction given, in order, each with ``status`` "in force" or
        "replaced" (by a later correction of the same result)."""
        live = {c["id"] for c in self._in_force.values()}
        return [dict(c, status="in force" if c["id"] in live else "replaced")
                for c in self._given]

    def snapshot(self) -> list[dict[str, Any]]:
        return [dict(c) for c in self._given]


def _refused(where: Text, reason: Text) -> Text:
    """``where`` the correction is, then why it is refused."""
    return Text.of("refusal.command", doing=where, reason=reason)


def _result(body: Mapping[str, Any], marks: Markings, where: Text) -> dict[str, Any]:
    """contract, declarer, tricks and the North-South score (Law 77) of the command."""
    text = body["contract"].strip()
    if text.upper() in ("PASS", "P", "PASSED OUT"):
        if body.get("tricks") is not None or body.get("declarer") is not None:
            raise CorrectionError(_refused(where, Text.of("refusal.passed_out_result")))
        return {"contract": "PASS", "declarer": None, "tricks": None, "score_ns": 0}
    letter = body.get("declarer")
    tricks = body.get("tricks")
    if letter is None or tricks is None:
        raise CorrectionError(_refused(where, Text.of("refusal.contract_needs")))
    try:
        declarer = Seat.parse(letter)
    except (BridgeError, ValueError):
        raise CorrectionError(_refused(where, Text.of(
            "refusal.declarer_not_seat", declarer=letter[:10]))) from None
    try:
        contract = Contract.parse(text, declarer)
    except (BridgeError, ValueError):
        raise CorrectionError(_refused(where, Text.of(
            "refusal.not_contract", contract=text[:20]))) from None
    if not 0 <= tricks <= 13:
        raise CorrectionError(_refused(where, Text.of("refusal.tricks", tricks=tricks)))
    vul = marks.vulnerability      # Law 2: the board's markings govern
    score = score_ns(contract, tricks, vul.is_vulnerable(Seat.NORTH),
                     vul.is_vulnerable(Seat.EAST))
    return {"contract": str(contract), "declarer": declarer.letter, "tricks": tricks,
            "score_ns": score}
