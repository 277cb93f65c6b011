"""Golden boards with known times for the tempo tests (bridgecore, hub, tenace): each is a
list of calls with the seconds each took and a legal play (the first legal card each time)
at a steady pace, as :class:`bridgecore.tempo.Action` values from a start time."""

from __future__ import annotations

from collections.abc import Sequence

from bridgecore.board import Board
from bridgecore.calls import Call
from bridgecore.cards import Seat
from bridgecore.deal import Deal
from bridgecore.tempo import Action, Source

START = 1_700_000_000.0

# (call, seconds since the previous action, STOP card shown)
# Annex I kept: East's 2S is a jump with a STOP; South waits 7 s before passing.
STOP_KEPT = [("1H", 20.0, False), ("2S", 3.0, True), ("Pass", 7.0, False), ("3S", 4.0, False),
             ("Pass", 3.0, False), ("Pass", 2.0, False), ("Pass", 2.0, False)]
# Annex I not kept: East jumps to 3S with a STOP; South passes after 1 s.
STOP_NOT_KEPT = [("1H", 20.0, False), ("3S", 3.0, True), ("Pass", 1.0, False),
                 ("Pass", 3.0, False), ("Pass", 2.0, False)]
# 16B: North hesitates 45 s before passing; South, after the hesitation, thinks 30 s and
# bids on.
HESITATION = [("1H", 20.0, False), ("1S", 3.0, False), ("2H", 4.0, False), ("2S", 3.0, False),
              ("Pass", 45.0, False), ("Pass", 2.0, False), ("3H", 30.0, False),
              ("Pass", 2.0, False), ("Pass", 3.0, False), ("Pass", 2.0, False)]
# A slow table: every call and card takes 20 s (74B4).
SLOW = [("1H", 20.0, False), ("Pass", 20.0, False), ("2H", 20.0, False), ("Pass", 20.0, False),
        ("Pass", 20.0, False), ("Pass", 20.0, False)]


def golden_actions(deal: Deal, number: int, calls: Sequence[tuple[str, float, bool]], *,
                  start: float = START, card_gap: float = 2.0, lead_gap: float = 25.0,
                  cards: int = 52, reader: bool = False) -> list[Action]:
    """The board's actions with their times (cards by the table's reader with ``reader``)."""
    board = Board(number, deal)
    t = start
    out: list[Action] = []
    for text, gap, stop in calls:
        seat = board.auction.turn
        assert seat is not None
        t += gap
        board.make_call(seat, Call.parse(text), t)
        out.append(Action("call", seat, text, t, Source.TAP, f"{seat.letter}", stop))
    play = board.play
    n = 0
    while play is not None and not play.is_complete and n < cards:
        seat = play.turn
        assert seat is not None
        card = play.legal_cards[0]
        t += lead_gap if n == 0 else card_gap
        board.play_card(seat, card, t)
        out.append(Action("card", seat, str(card), t, Source.TAG if reader else Source.TAP,
                          "rdr" if reader else seat.letter))
        n += 1
    return out


def dealer_of(number: int) -> Seat:
    return Seat.dealer_of(number)
