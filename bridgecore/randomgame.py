"""Random legal boards: auctions and plays drawn from the legal choices at each point.

Used by the property tests, the benchmarks and the room simulator. The auction
favours passes so that auctions end at sensible levels; every call and card is
one that :attr:`Auction.legal_calls` / :attr:`Play.legal_cards` offers.
"""

from __future__ import annotations

import random

from bridgecore.board import Board
from bridgecore.calls import PASS, Call
from bridgecore.deal import Deal
from bridgecore.editions import DEFAULT_EDITION, Edition
from bridgecore.record import CallRecord, CardRecord, GameRecord

__all__ = ["random_board", "random_call", "random_record"]


def random_call(rng: random.Random, legal: list[Call], pass_weight: float = 0.55) -> Call:
    """A legal call: a pass with probability ``pass_weight``, else a low bid or a double."""
    if rng.random() < pass_weight or len(legal) == 1:
        return PASS
    others = [c for c in legal if not c.is_pass]
    # Prefer the cheaper bids so that auctions stay realistic (and end).
    weights = [1.0 / (1 + i) for i in range(len(others))]
    return rng.choices(others, weights)[0]


def random_board(rng: random.Random, number: int, deal: Deal,
                 edition: Edition = DEFAULT_EDITION, *, start: float = 0.0,
                 step: float = 2.0) -> Board:
    """Play a whole board at random with legal calls and cards; times advance by ``step``."""
    board = Board(number, deal, edition=edition)
    t = start
    while not board.auction.is_over:
        seat = board.auction.turn
        assert seat is not None
        board.make_call(seat, random_call(rng, board.auction.legal_calls), t)
        t += step
    play = board.play
    while play is not None and not play.is_complete:
        seat = play.turn
        assert seat is not None
        board.play_card(seat, rng.choice(play.legal_cards), t)
        t += step
    return board


def random_record(rng: random.Random, number: int, deal: Deal,
                  edition: Edition = DEFAULT_EDITION) -> GameRecord:
    """A fully played random board as a :class:`GameRecord` (for files and benchmarks)."""
    board = random_board(rng, number, deal, edition)
    calls = [CallRecord(e.seat, e.call, e.time) for e in board.auction.entries]
    plays = [] if board.play is None else [CardRecord(s, c, t) for s, c, t in board.play.history]
    outcome = board.outcome()
    contract = board.auction.contract
    return GameRecord(
        board=number, dealer=board.dealer, vulnerability=board.vulnerability, deal=deal,
        calls=calls, auction_complete=True, plays=plays, play_complete=bool(plays),
        declarer=None if contract is None else contract.declarer, contract=contract,
        passed_out=contract is None,
        result=None if outcome is None or contract is None else outcome.tricks,
    )
