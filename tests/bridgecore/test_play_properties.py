"""Properties of Play over random deals and random plays, legal and not (hypothesis)."""

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bridgecore import ALL_CARDS, Card, Contract, Deal, Seat, Side, Strain, edition
from bridgecore.errors import StateError
from bridgecore.play import Play

deals = st.permutations(ALL_CARDS).map(
    lambda cards: Deal({seat: cards[13 * seat:13 * seat + 13] for seat in Seat}))
contracts = st.builds(lambda strain, seat: Contract(3, strain, declarer=seat),
                      st.sampled_from(list(Strain)), st.sampled_from(list(Seat)))
editions = st.sampled_from(["1997", "2007", "2017"]).map(edition)


def oracle_winner(cards: tuple[tuple[Seat, Card], ...], trump: Strain) -> Seat:
    """Laws 44E-F written the long way round."""
    trumps = [(card.rank, seat) for seat, card in cards if trump.suit is card.suit]
    if trumps:
        return max(trumps)[1]
    led = cards[0][1].suit
    return max((card.rank, seat) for seat, card in cards if card.suit is led)[1]


@settings(max_examples=150, deadline=None)
@given(deals, contracts, st.data())
def test_random_legal_play_uses_every_card_once_in_13_tricks(deal: Deal, contract: Contract,
                                                             data: st.DataObject) -> None:
    play = Play(deal, contract)
    while play.turn is not None:
        seat = play.turn
        play.play_card(seat, data.draw(st.sampled_from(play.legal_cards)))
    assert play.is_complete and play.irregularities == ()
    played = [card for _, card, _ in play.history]
    assert len(played) == 52 and set(played) == set(ALL_CARDS)
    assert all(deal.owner(card) is seat for seat, card, _ in play.history)
    assert all(len(play.remaining(seat)) == 0 for seat in Seat)
    leader = contract.declarer.lho if contract.declarer is not None else None
    for trick in play.completed_tricks:
        assert trick.leader is leader and len({s for s, _ in trick.cards}) == 4
        assert trick.winner is oracle_winner(trick.cards, contract.strain)
        leader = trick.winner
    assert play.tricks_won(Side.NS) + play.tricks_won(Side.EW) == 13
    result = play.result()
    assert result.complete and result.tricks_as_played == result.tricks_rectified


def observe(play: Play) -> tuple[Any, ...]:
    return (play.tricks, play.irregularities, tuple(play.remaining(s) for s in Seat), play.turn,
            play.legal_cards, play.revokes(), play.result(), play.history,
            play.revoke_irregularities())


@settings(max_examples=100, deadline=None)
@given(deals, contracts, editions, st.data())
def test_pop_undoes_push_over_legal_and_illegal_cards(deal: Deal, contract: Contract,
                                                      ed: Any, data: st.DataObject) -> None:
    play = Play(deal, contract, ed)
    seen = [observe(play)]
    steps = data.draw(st.integers(0, 70))
    for _ in range(steps):
        if play.turn is not None and data.draw(st.integers(0, 3)) > 0:
            seat = play.turn
            card = data.draw(st.sampled_from(play.remaining(seat).cards or ALL_CARDS))
        else:
            seat = data.draw(st.sampled_from(list(Seat)))
            card = data.draw(st.sampled_from(ALL_CARDS))
        found = play.push(seat, card)   # never raises, whatever the card
        assert set(found) <= set(play.irregularities)
        seen.append(observe(play))
    while seen:
        assert observe(play) == seen.pop()
        if seen:
            play.pop()


def oracle_turn(play: Play) -> Seat | None:
    """The seat on turn written the long way round: the first seat after the trick's first
    card, in rotation, with no card in it (the leader's when the trick is empty)."""
    if play.is_complete or play.claim_in_force is not None:
        return None
    trick = play.current_trick
    assert trick is not None
    if not trick.cards:
        return trick.leader
    first = trick.cards[0][0]
    return next((first.offset(k) for k in (1, 2, 3)
                 if all(s is not first.offset(k) for s, _ in trick.cards)), first)


@settings(max_examples=100, deadline=None)
@given(deals, contracts, editions, st.data())
def test_turn_and_holder_follow_irregular_streams_and_pops(deal: Deal, contract: Contract,
                                                          ed: Any, data: st.DataObject) -> None:
    """The seats of the trick in progress are kept as bits (issue 27): ``turn`` and
    ``holder`` agree with the cards themselves after any push, legal or not, and any pop."""
    play = Play(deal, contract, ed)
    for _ in range(data.draw(st.integers(0, 70))):
        if data.draw(st.integers(0, 5)) == 0 and play.history:
            play.pop()
        elif play.turn is not None and data.draw(st.integers(0, 3)) > 0:
            seat = play.turn
            play.push(seat, data.draw(st.sampled_from(play.remaining(seat).cards or ALL_CARDS)))
        else:
            play.push(data.draw(st.sampled_from(list(Seat))), data.draw(st.sampled_from(ALL_CARDS)))
        assert play.turn is oracle_turn(play)
        assert all(play.remaining_cards(x) == play.remaining(x).cards for x in Seat)
        for card in ALL_CARDS:
            holders = [x for x in Seat if card in play.remaining(x)]
            assert play.holder(card) is (holders[0] if holders else None)


@settings(max_examples=150, deadline=None)
@given(deals, contracts, editions, st.data())
def test_law_64_transfers_stay_within_tricks_won(deal: Deal, contract: Contract, ed: Any,
                                                 data: st.DataObject) -> None:
    """Random plays with revokes: no transfer above 2, none above what the side won."""
    play = Play(deal, contract, ed)
    while play.turn is not None:
        seat = play.turn
        hand = play.remaining(seat).cards
        revoke = data.draw(st.integers(0, 9)) == 0
        play.push(seat, data.draw(st.sampled_from(hand if revoke else play.legal_cards)))
    moved = play.transfers()
    for t in moved.transfers:
        assert 0 <= t.tricks <= 2
        won = sum(1 for tr in play.completed_tricks[t.revoke.trick - 1:]
                  if tr.winner is not None and tr.winner.side is t.revoke.side)
        assert t.tricks <= won
    for side in Side:
        mine = [t for t in moved.transfers if t.revoke.side is side]
        if mine:
            first = min(t.revoke.trick for t in mine)
            won = sum(1 for tr in play.completed_tricks[first - 1:]
                      if tr.winner is not None and tr.winner.side is side)
            assert sum(t.tricks for t in mine) <= won
    result = play.result()
    assert result.tricks_rectified == result.tricks_as_played + moved.declarer_change
    assert {i.law[:3] for i in play.revoke_irregularities()} <= {"64A", "64B", "62A"}


@settings(max_examples=100, deadline=None)
@given(deals, contracts, editions, st.data())
def test_the_result_kept_is_the_result_worked_out_afresh(deal: Deal, contract: Contract,
                                                         ed: Any, data: st.DataObject) -> None:
    """``result()`` is kept per change of the record (issue 27): after any push (revokes
    included), pop, claim, acceptance or dispute, it is what a fresh play of the same cards
    and claims gives (Law 64 with attention at the end of play, an accepted claim's tricks)."""
    play = Play(deal, contract, ed)
    for _ in range(data.draw(st.integers(0, 70))):
        step = data.draw(st.integers(0, 9))
        claim = play.claims[-1] if play.claims else None
        try:
            if step == 0 and play.history:
                play.pop()
            elif step == 1 and not play.is_complete:
                seat = data.draw(st.sampled_from(list(Seat)))
                play.claim(seat, data.draw(st.integers(0, 13 - len(play.completed_tricks))))
            elif step == 2 and claim is not None:
                seat = data.draw(st.sampled_from(list(Seat)))
                if data.draw(st.booleans()):
                    play.accept(seat)
                else:
                    play.dispute(seat)
            elif play.turn is not None:
                seat = play.turn
                revoke = data.draw(st.integers(0, 5)) == 0
                play.push(seat, data.draw(st.sampled_from(
                    (play.remaining(seat).cards or ALL_CARDS) if revoke else
                    (play.legal_cards or ALL_CARDS))))
        except (ValueError, StateError):
            pass   # a claim or answer the Laws do not allow now: refused, nothing changed
        kept = play.result()
        assert play.result() is kept
        assert kept == play._work_out_result(None)
