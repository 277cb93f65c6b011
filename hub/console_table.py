"""A table as the director follows it live on the console (hub.console): the board on the
table, the whole auction with its alerts and explanations, every trick so far with its
leader and winner, whose turn it is, the claim and the result.

``GET /api/table/{id}`` (a director's; hub.console adds the route) answers
:func:`live_table`; the console's page fetches it again whenever the live feed says the
table changed (its ``table`` event), so the panel follows the play. Unlike what the players'
tablets get (hub.table ``public_state``: the auction only until the opening lead, Annex I),
the director sees the auction and the tricks throughout; never the hands still held (those
are the evidence of an alert, hub.alerts).
"""

from __future__ import annotations

from typing import Any

from bridgecore.cards import Side
from hub.room import Room

__all__ = ["live_table"]


def live_table(room: Room, table_id: str) -> dict[str, Any]:
    """The board at ``table_id`` as the director follows it (module docstring); KeyError
    for a table the room does not have."""
    table = room.tables[table_id]
    ns, ew = table.pairs()
    out: dict[str, Any] = {"table": table_id, "round": table.round,
                           "pairs": {"NS": ns, "EW": ew}, "board": None}
    s = table.sitting
    if s is None:
        return out
    board = s.board
    play = board.play
    turn = board.turn
    out.update(
        board=board.number, round=s.round, dealer=board.dealer.letter,
        vulnerability=str(board.vulnerability), phase=s.phase,
        turn=None if turn is None or s.over else turn.letter, over=s.over,
        auction=[{"seat": e.seat.letter, "call": str(e.call), "alert": e.alert,
                  "explanation": e.explanation, "status": e.status.value}
                 for e in board.auction.entries],
        contract=None, declarer=None, tricks=[], won=None, claim=None,
        result=table.result(s) if s.over else None)
    if board.auction.is_over and play is None:
        out["contract"] = "PASS"
    if play is not None:
        out.update(contract=str(play.contract), declarer=play.declarer.letter,
                   dummy=play.dummy.letter,
                   won={"NS": play.tricks_won(Side.NS), "EW": play.tricks_won(Side.EW)})
        out["tricks"] = [{"number": t.number, "leader": t.leader.letter,
                          "cards": [[x.letter, str(c)] for x, c in t.cards],
                          "winner": None if t.winner is None else t.winner.letter}
                         for t in play.tricks]
        if play.claims:
            claim = play.claims[-1]
            out["claim"] = {"claimer": claim.claimer.letter, "tricks": claim.tricks,
                            "statement": claim.statement, "status": claim.status.value}
    return out
