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

Exceptions::

    hub.errors.HubError
    └── CorrectionError (ValueError)   a correction that names nothing played, or no result
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bridgecore.calls import Contract
from bridgecore.cards import Card, Seat
from bridgecore.errors import BridgeError
from bridgecore.markings import Markings
from bridgecore.scoring import score_ns
from hub.errors import HubError

__all__ = ["FIELDS", "CorrectionError", "Corrections"]

_MAX_TEXT = 4000

# The command's fields: name -> (type, required) (hub.director checks their JSON types).
FIELDS: dict[str, tuple[type, bool]] = {
    "table": (str, True), "board": (int, True), "round": (int, False),
    "contract": (str, True), "declarer": (str, False), "tricks": (int, False),
    "lead": (str, False), "text": (str, False),
}


class CorrectionError(HubError, ValueError):
    """A correction that cannot be made, with the reason."""


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
        where = f"result_correct at table {table!r:.40}, board {board}"
        if table not in section_of:
            raise CorrectionError(f"{where}: no such table")
        round_ = body.get("round")
        found = [r for r in rounds(table, board) if played(table, r, board) is not None]
        if round_ is None:
            if len(found) > 1:
                raise CorrectionError(f"{where}: played in rounds "
                                      f"{', '.join(map(str, found))}: name the round")
            round_ = found[0] if found else None
        if round_ is None or played(table, round_, board) is None:
            raise CorrectionError(f"{where}: no result played there to correct (a board not "
                                  "played is given an adjusted score: a ruling)")
        out: dict[str, Any] = {"id": f"{self.id_prefix}C{len(self._given) + 1}",
                               "section": section_of[table], "table": table,
                               "round": round_, "board": board}
        out.update(_result(body, markings(board), where))
        lead = body.get("lead")
        if lead is not None:
            try:
                out["lead"] = str(Card.parse(lead))
            except (BridgeError, ValueError):
                raise CorrectionError(f"{where}: lead {lead!r:.10} is not a card") from None
            if out["contract"] == "PASS":
                raise CorrectionError(f"{where}: a board passed out has no lead")
        text = (body.get("text") or "").strip()
        if len(text) > _MAX_TEXT:
            raise CorrectionError(f"{where}: text of {len(text)} characters, limit {_MAX_TEXT}")
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


def _result(body: Mapping[str, Any], marks: Markings, where: str) -> dict[str, Any]:
    """contract, declarer, tricks and the North-South score (Law 77) of the command."""
    text = body["contract"].strip()
    if text.upper() in ("PASS", "P", "PASSED OUT"):
        if body.get("tricks") is not None or body.get("declarer") is not None:
            raise CorrectionError(f"{where}: a board passed out has no declarer nor tricks")
        return {"contract": "PASS", "declarer": None, "tricks": None, "score_ns": 0}
    letter = body.get("declarer")
    tricks = body.get("tricks")
    if letter is None or tricks is None:
        raise CorrectionError(f"{where}: a contract needs its declarer (N, E, S, W) and the "
                              "tricks declarer took")
    try:
        declarer = Seat.parse(letter)
    except (BridgeError, ValueError):
        raise CorrectionError(f"{where}: declarer {letter!r:.10} is not N, E, S or W") from None
    try:
        contract = Contract.parse(text, declarer)
    except (BridgeError, ValueError) as err:
        raise CorrectionError(f"{where}: contract {text!r:.20} is not a contract: "
                              f"{err}") from None
    if not 0 <= tricks <= 13:
        raise CorrectionError(f"{where}: {tricks} tricks (0 to 13)")
    vul = marks.vulnerability      # Law 2: the board's markings govern
    score = score_ns(contract, tricks, vul.is_vulnerable(Seat.NORTH),
                     vul.is_vulnerable(Seat.EAST))
    return {"contract": str(contract), "declarer": declarer.letter, "tricks": tricks,
            "score_ns": score}
