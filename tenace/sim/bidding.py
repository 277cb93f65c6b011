"""The simulator's bidding: sensible, legal calls from the four hands it sees.

:class:`Bidder` aims each side at the contract its combined points and fit justify, with a
little noise, so that most boards are played in a reasonable contract.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from bridgecore.auction import CallStatus
from bridgecore.board import Board
from bridgecore.calls import DOUBLE, PASS, Call
from bridgecore.cards import Card, Rank, Seat, Side, Strain, Suit
from bridgecore.deal import Deal

__all__ = ["Bidder", "cheapest"]

_HCP = {Rank.ACE: 4, Rank.KING: 3, Rank.QUEEN: 2, Rank.JACK: 1}


def _hcp(cards: Iterable[Card]) -> int:
    return sum(_HCP.get(c.rank, 0) for c in cards)


def _lengths(cards: Iterable[Card]) -> dict[Suit, int]:
    out = dict.fromkeys(Suit, 0)
    for c in cards:
        out[c.suit] += 1
    return out


class Bidder:
    """Sensible calls: each side aims at the contract its combined points and fit justify
    (the simulator sees all four hands), with a little noise; opening needs 12 points, an
    overcall 9 and a five-card suit."""

    def __init__(self, deal: Deal, rng: random.Random):
        self.rng = rng
        self.hcp = {s: _hcp(deal[s]) for s in Seat}
        self.lengths = {s: _lengths(deal[s]) for s in Seat}
        self.target: dict[Side, tuple[int, Strain]] = {}
        for side in Side:
            a, b = side.seats
            points = self.hcp[a] + self.hcp[b]
            fit = {suit: self.lengths[a][suit] + self.lengths[b][suit] for suit in Suit}
            majors = [s for s in (Suit.SPADES, Suit.HEARTS) if fit[s] >= 8]
            best = max(Suit, key=lambda s: (fit[s], s))
            if majors:
                strain = Strain.of(max(majors, key=lambda s: (fit[s], s)))
            elif points >= 23 or fit[best] < 8:
                strain = Strain.NOTRUMP
            else:
                strain = Strain.of(best)
            if points < 19:
                level = 2 if fit[best] >= 8 and points >= 15 else 1
            elif points < 22:
                level = 2
            elif points < 25:
                level = 2 if strain is Strain.NOTRUMP else 3
            elif points < 33:
                level = 3 if strain is Strain.NOTRUMP else 4 if strain.is_major else 5
            elif points < 37:
                level = 6
            else:
                level = 7
            if rng.random() < 0.15:
                level += rng.choice((-1, 1))
            self.target[side] = (min(7, max(1, level)), strain)

    def call(self, board: Board, seat: Seat, *, force_open: bool = False) -> Call:
        auction = board.auction
        legal = auction.legal_calls
        live = [e for e in auction.entries
                if e.status in (CallStatus.MADE, CallStatus.ACCEPTED)]
        bids = [e for e in live if e.call.is_bid]
        side = seat.side
        ours = [e for e in bids if e.seat.side is side]
        level, strain = self.target[side]
        last = bids[-1] if bids else None
        if not ours:
            need = 12 if not bids else 9
            lengths = self.lengths[seat]
            longest = max(Suit, key=lambda s: (lengths[s], s))
            passed_out = not bids and len(live) == 3
            weak = self.hcp[seat] < need or (bids and lengths[longest] < 5)
            if weak and not (force_open and passed_out):
                return self._double_or_pass(seat, last, legal)
            balanced = sorted(lengths.values()) in ([3, 3, 3, 4], [2, 3, 4, 4], [2, 3, 3, 5])
            own = (Strain.NOTRUMP if not bids and balanced and 15 <= self.hcp[seat] <= 17
                   else Strain.of(longest))
            bid = cheapest(legal, own)
            limit = max(level, 1 if not bids else 2)
            if bid is None or (bid.level > limit and not (force_open and passed_out)):
                return self._double_or_pass(seat, last, legal)
            return bid
        if last is not None and last.seat.side is side and last.call.strain is strain \
                and last.call.level >= level:
            return PASS
        bid = cheapest(legal, strain)
        if bid is not None and bid.level <= level and self.rng.random() < 0.92:
            return bid
        return self._double_or_pass(seat, last, legal)

    def _double_or_pass(self, seat: Seat, last: Any, legal: list[Call]) -> Call:
        if last is None or last.seat.side is seat.side or DOUBLE not in legal:
            return PASS
        their_level, _ = self.target[last.seat.side]
        a, b = seat.side.seats
        if (last.call.level > their_level + 1 and self.hcp[a] + self.hcp[b] >= 16
                and self.rng.random() < 0.5):
            return DOUBLE
        return PASS


def cheapest(legal: Sequence[Call], strain: Strain) -> Call | None:
    return next((c for c in legal if c.is_bid and c.strain is strain), None)
