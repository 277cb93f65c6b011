"""A board announced at a table that the movement does not give it this round is *withheld*
(protocol section 8, security.md): the hub plays it (the Laws' Law 15 options are the
director's), but nothing of it reaches the table's devices until the director allows it:
no hand in any seat's view, no dummy, no hand record, no traveller, no other table's result
(it may be in play elsewhere: a player announcing board 5 at A2 must not read A3's deal or
score of it). The table is told :func:`message` in the reply and in its state's
``withheld``; the director gets the ``wrong_board`` alert and allows the board with the
command ``allow_board`` (logged ``board_allowed`` with ``by``), after which the board shows
as any other.

The decision is taken once, when the table first takes the board out (the sitting is made):
a board of the previous round played late (``TableState._round_of``) is that round's and not
withheld; without a movement nothing is withheld (no schedule to be outside of).
"""

from __future__ import annotations

from typing import Any

__all__ = ["HIDDEN_STATE", "hide_state", "message"]

# What a withheld board's public state leaves out (hub.table.TableState.public_state).
HIDDEN_STATE = ("deal", "dummy", "traveller", "percentage", "imps", "field", "dd")


def message(board: int) -> str:
    """What the table is told (the reply's reason and the state's ``withheld``)."""
    return f"board {board} is not yours this round: the director is called"


def hide_state(state: dict[str, Any], board: int) -> dict[str, Any]:
    """``state`` (a table's public state) without anything of the withheld ``board`` beyond
    the auction and play the table made itself, with ``withheld`` saying why."""
    for key in HIDDEN_STATE:
        state.pop(key, None)
    state["withheld"] = message(board)
    return state
