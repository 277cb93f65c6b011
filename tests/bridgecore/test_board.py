"""The board aggregate: auction then play, one undo stack, outcome and score."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgecore import Call, Card, Deal, IllegalCallError, Seat, StateError, Vulnerability
from bridgecore.bigdeal import random_deal
from bridgecore.board import Board
from bridgecore.randomgame import random_board
from bridgecore.scoring import score_ns

DEAL = Deal.parse("N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85")


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 64))
def test_random_legal_board_ends_and_plays_every_card_once(seed, number):
    """Laws 22 and 44: a random legal auction ends; a random legal play uses each card once."""
    rng = random.Random(seed)
    board = random_board(rng, number, random_deal(rng))
    assert board.auction.is_over and board.phase == "over"
    outcome = board.outcome()
    assert outcome is not None
    if board.play is None:
        assert outcome.passed_out and outcome.score_ns == 0
        return
    played = [card for _, card, _ in board.play.history]
    assert len(played) == 52 == len(set(played))
    assert board.irregularities == ()
    vul = Vulnerability.of_board(number)
    assert outcome.score_ns == score_ns(board.play.contract, outcome.tricks,
                                        vul.is_vulnerable(Seat.NORTH), vul.is_vulnerable(Seat.EAST))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.data())
def test_pop_undoes_push_across_auction_and_play(seed, data):
    rng = random.Random(seed)
    deal = random_deal(rng)
    full = random_board(rng, 1, deal)
    events = [("call", e.seat, e.call) for e in full.auction.entries]
    if full.play is not None:
        events += [("card", s, c) for s, c, _ in full.play.history]
    cut = data.draw(st.integers(0, len(events)))
    board = Board(1, deal)
    snapshots = []
    for kind, seat, what in events[:cut]:
        snapshots.append((board.phase, board.turn, len(board.irregularities)))
        if kind == "call":
            board.push_call(seat, what)
        else:
            board.push_card(seat, what)
    for _, _, what in reversed(events[:cut]):
        assert board.pop() == what
        assert (board.phase, board.turn, len(board.irregularities)) == snapshots.pop()
    assert len(board.auction) == 0 and board.play is None


def test_play_starts_when_auction_ends_and_pop_reopens_it():
    board = Board(1, DEAL)  # Law 2: board 1, dealer North, none vulnerable
    for call in ("1D", "1S", "Pass", "Pass", "Pass"):
        board.make_call(board.turn, Call.parse(call))
    assert board.phase == "play" and board.play is not None
    assert board.play.contract.declarer is Seat.EAST and board.turn is Seat.SOUTH  # Law 41A
    board.pop()
    assert board.phase == "auction" and board.play is None and board.turn is Seat.NORTH


def test_law_22A1_pass_out_scores_zero_and_has_no_play():
    board = Board(3, DEAL)
    for _ in range(4):
        board.make_call(board.turn, Call.parse("Pass"))
    assert board.outcome().passed_out and board.outcome().score_ns == 0
    with pytest.raises(StateError, match="passed out"):
        board.push_card(Seat.WEST, Card.parse("SA"))


def test_card_during_the_auction_is_a_state_error():
    board = Board(1, DEAL)
    with pytest.raises(StateError, match="before the auction has ended"):
        board.push_card(Seat.EAST, Card.parse("SA"))


def test_law_27_checked_call_refuses_insufficient_bid_but_push_records_it():
    board = Board(1, DEAL)
    board.make_call(Seat.NORTH, Call.parse("1S"))
    with pytest.raises(IllegalCallError):
        board.make_call(Seat.EAST, Call.parse("1H"))
    found = board.push_call(Seat.EAST, Call.parse("1H"))
    assert [i.kind.value for i in found] == ["insufficient_bid"]


def test_law_25_undoing_a_call_that_reopened_the_auction_restarts_the_play() -> None:
    """1C P P P ends the auction; West's 1D after it, then taken back: the play of 1C is
    there again (found by the tablet's offline projection)."""
    from bridgecore.calls import Call
    from bridgecore.cards import Seat
    from bridgecore.deal import Deal
    board = Board(1, Deal.parse("N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 "
                                "2.5432.5432.5432"))
    for seat, call in zip([Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST],
                          ["1C", "Pass", "Pass", "Pass"], strict=True):
        board.push_call(seat, Call.parse(call))
    assert board.play is not None
    board.push_call(Seat.WEST, Call.parse("1D"))
    board.pop()
    assert board.auction.is_over and board.play is not None
    assert str(board.play.contract) == "1C"
