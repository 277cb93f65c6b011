"""Auction invariants (hypothesis): legal auctions end, pop() undoes push(), push never raises."""

from hypothesis import given, settings
from hypothesis import strategies as st

from bridgecore import DOUBLE, PASS, REDOUBLE, Call, CallKind, Risk, Seat, edition
from bridgecore.auction import Auction, CallStatus
from bridgecore.calls import ALL_BIDS

EDITIONS = st.sampled_from([edition("1997"), edition("2007"), edition("2017")])
ANY_CALL = st.one_of(
    st.sampled_from([PASS, PASS, PASS, DOUBLE, REDOUBLE]),
    st.sampled_from(ALL_BIDS),
    st.builds(Call.bid, st.just(8), st.sampled_from(list(ALL_BIDS[0:5])).map(lambda c: c.strain)),
)


def reference(dealer, calls):
    """Contract, risk and declarer computed naively (Laws 19D, 22A, definition of declarer)."""
    last, risk = None, Risk.UNDOUBLED
    for i, call in enumerate(calls):
        seat = dealer.offset(i)
        if call.kind is CallKind.BID:
            last, risk = (seat, call), Risk.UNDOUBLED
        elif call.kind is CallKind.DOUBLE:
            risk = Risk.DOUBLED
        elif call.kind is CallKind.REDOUBLE:
            risk = Risk.REDOUBLED
    if last is None:
        return None
    side, strain = last[0].side, last[1].strain
    declarer = next(dealer.offset(i) for i, c in enumerate(calls)
                    if c.kind is CallKind.BID and c.strain is strain
                    and dealer.offset(i).side is side)
    return f"{last[1]}{risk.suffix}", declarer


@settings(max_examples=300)
@given(st.sampled_from(list(Seat)), EDITIONS, st.data())
def test_random_legal_auctions_end_without_irregularities(dealer, ed, data):
    a = Auction(dealer, ed)
    calls = []
    for _ in range(320):  # the longest legal auction has 319 calls
        if a.is_over:
            break
        legal = a.legal_calls
        for seat in Seat:
            for call in (PASS, DOUBLE, REDOUBLE, ALL_BIDS[0], ALL_BIDS[-1]):
                assert a.is_legal(seat, call) == (seat is a.turn and call in legal)
        call = data.draw(st.sampled_from(legal))
        a.make_call(a.turn, call)
        calls.append(call)
    assert a.is_over and a.legal_calls == []
    assert not a.irregularities and all(e.status is CallStatus.MADE for e in a.entries)
    expected = reference(dealer, calls)
    if expected is None:
        assert a.is_passed_out and a.contract is None
    else:
        assert (str(a.contract), a.declarer) == expected
        assert a.dummy is a.declarer.partner and a.opening_leader is a.declarer.lho


def snapshot(a):
    return (a.turn, a.is_over, a.is_passed_out, a.contract, a.last_bid, tuple(a.legal_calls),
            a.entries, a.irregularities, a.pass_obligations, a._save())


STEP = st.tuples(
    st.one_of(st.none(), st.sampled_from(list(Seat))),  # None: the player in turn
    ANY_CALL,
    st.one_of(st.none(), st.floats(0, 1e6, allow_nan=False)),
    st.one_of(st.none(), st.tuples(st.sampled_from(list(Seat)), st.booleans(), st.booleans())),
)


@settings(max_examples=400)
@given(st.sampled_from(list(Seat)), EDITIONS, st.lists(STEP, max_size=40))
def test_pop_undoes_push_on_any_stream(dealer, ed, steps):
    a = Auction(dealer, ed)
    before = []
    for seat, call, time, impose in steps:
        if impose is not None and not a.is_over:
            a.impose_pass_obligation(impose[0], impose[1], "30B1", no_double=impose[2])
        seat = seat if seat is not None else (a.turn or Seat.NORTH)
        before.append(snapshot(a))
        found = a.push(seat, call, time)  # never raises for an irregular call
        assert a.irregularities[len(a.irregularities) - len(found):] == found
        assert all(i.call is not None and 1 <= i.call <= len(a) for i in found)
    while before:
        a.pop()
        assert snapshot(a) == before.pop()
    assert len(a) == 0


@settings(max_examples=200)
@given(st.sampled_from(list(Seat)), EDITIONS, st.lists(STEP, max_size=40))
def test_state_invariants_on_any_stream(dealer, ed, steps):
    a = Auction(dealer, ed)
    for seat, call, time, _ in steps:
        a.push(seat if seat is not None else (a.turn or Seat.EAST), call, time)
        contract = a.contract
        assert a.is_over == (a.turn is None)
        if contract is not None:
            assert 1 <= contract.level <= 7 and contract.declarer is not None  # Law 38A
            assert any(e.seat is contract.declarer and e.call.is_bid
                       and e.call.strain is contract.strain for e in a.entries)
        assert all(c.is_legal_level for c in a.legal_calls)
