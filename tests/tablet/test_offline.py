"""The optimistic view (tablet/offline.py): the hub's state with the tablet's pending events
applied on top must be the state the hub publishes once it has applied them.

The oracle is a real hub table (hub.room.Room through tests/hub/test_table.py's Driver): the
same events are applied to it, and the projection made from the state before them is
compared with the hub's state after them (without the pending marks, and without dummy's
cards when the tablet could not know them). Then one tablet for the whole table against a
real hub and broker, through wire.link, with its network cut (tests/cable.py): it goes
on with the auction and the opening lead offline, and once the network is back the hub's
state is what the tablet showed."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from msgspec import UNSET
from msgspec.structs import replace

from bridgecore.auction import Auction
from bridgecore.cards import Seat
from hub.event import EventSetup
from hub.service import Hub, HubRunner, data_log
from hub.traveller import DoubleDummyTables
from tablet.app import TabletRoot
from tablet.offline import Projection, already_applied, event_of, footprint, project, projection
from tablet.presenter import TabletPresenter
from tablet.state import CallEntry, TableState, table_state
from tablet.state import seat_view as decode_seat
from tests.cable import Cable
from tests.hub.test_table import Driver
from tests.tablet.test_ui import show, until
from tests.wire.test_link import SEED
from wire.link import DeviceLink
from wire.outbox import OUTBOX_NAME, Outbox
from wire.protocol import Envelope
from wire.views import DummyView, LastTrick, SeatView, TrickCount, TrickView

Event = tuple[str, dict[str, Any]]
# What the hub alone adds once a board is over: the hand record, the traveller so far.
# What only the hub knows: the hand record and the results; the irregularities the director
# was alerted to (hub.rectify); a claim's total and the claimer's faced cards (hub.table).
HUB_ONLY = ("deal", "traveller", "percentage", "imps", "field", "dd", "irregularities")
CLAIM_HUB_ONLY = ("total", "cards")


def driver(strict: bool = False) -> Driver:
    """A hub table (tests/hub/test_table.py) that solves no double-dummy table: only the
    hub shows the traveller, the projection never does."""
    d = Driver(strict=strict)
    d.room.double_dummy = DoubleDummyTables(enabled=False)
    return d


def public(d: Driver) -> TableState:
    """The hub's public state as the tablet reads it (JSON, then the typed view)."""
    state = table_state(json.dumps(d.state.public_state()))
    assert state is not None
    return state


def seat_view(d: Driver, seat: str | None) -> SeatView | None:
    if seat is None:
        return None
    return decode_seat(json.dumps(d.state.seat_view(Seat.parse(seat))))


def confirmed(state: TableState | None, *, dummy_cards: bool = True) -> dict[str, Any]:
    """``state`` as plain data without what only the hub knows (and without dummy's cards
    when the tablet could not know them)."""
    assert state is not None
    s = state.to_builtins()
    for key in HUB_ONLY:
        s.pop(key, None)
    if isinstance(s.get("claim"), dict):
        for key in CLAIM_HUB_ONLY:
            s["claim"].pop(key, None)
    if not dummy_cards and isinstance(s.get("dummy"), dict):
        s["dummy"]["cards"] = None
    return s


def call_marks(got: Projection) -> list[bool]:
    """For each call of the projected auction: entered here, not yet confirmed."""
    assert got.state is not None and got.state.auction is not UNSET
    return [got.pending.calls.__contains__(i) for i in range(len(got.state.auction))]


def card_marks(got: Projection, trick: TrickView | LastTrick) -> list[str]:
    """The cards of ``trick`` entered here, not yet confirmed."""
    return [card for _, card in trick.cards if card in got.pending.cards]


def apply(d: Driver, events: list[Event]) -> None:
    for kind, body in events:
        d.ok(kind, **body)


def check(d: Driver, events: list[Event], seat: str | None = None) -> Projection:
    """Project ``events`` on the hub's state, apply them to the hub, compare: every prefix
    too. Returns the projection of them all."""
    before, view = public(d), seat_view(d, seat)
    shown = projection(before, view, events)
    for n in range(len(events) + 1):
        got = projection(before, view, events[:n])
        assert got.shown == n and got.waiting == 0 and got.stopped is None
        if n:
            apply(d, events[n - 1:n])
        after = public(d)
        known = not got.pending.dummy_hidden
        assert confirmed(got.state, dummy_cards=known) == confirmed(after, dummy_cards=known), \
            events[:n]
        assert footprint(got.state) == footprint(after)
    return shown


def calls(d: Driver, *texts: str, start: str | None = None) -> list[Event]:
    """Calls in rotation from ``start`` (default: the hub's player in turn)."""
    seat = Seat.parse(start) if start else d.state.sitting.board.auction.turn
    return [("call", {"seat": seat.offset(i).letter, "call": c}) for i, c in enumerate(texts)]


def card(seat: str, text: str) -> Event:
    return ("card", {"seat": seat, "card": text, "source": "tablet"})


# Board 1 (tests/hub/test_table.py): N AKQJ.AKQ.AKQ.AKQ  E T987.JT9.JT9.JT9
#                                     S 6543.876.876.876  W 2.5432.5432.5432; North deals.
AUCTION = ("1S", "Pass", "4S", "Pass", "Pass", "Pass")     # 4S by North, East leads
TRICK_1 = [card("E", "ST"), card("S", "S3"), card("W", "S2"), card("N", "SA")]


def seated(strict: bool = False) -> Driver:
    d = driver(strict)
    d.seat_pairs()
    return d


# The auction --------------------------------------------------------------------------------

def test_law_41_an_auction_entered_offline_ends_in_the_contract_the_hub_finds() -> None:
    """Each pending call moves the turn on; the last pass makes the contract (Law 22),
    declarer North, the opening leader East in turn (41A); every call is marked pending."""
    d = seated()
    got = check(d, calls(d, *AUCTION))
    shown = got.state
    assert shown is not None
    assert shown.phase == "play" and shown.contract == "4S" and shown.turn == "E"
    assert shown.declarer == "N" and shown.doubled == ""
    assert call_marks(got) == [True] * 6
    pending = got.pending
    assert (pending.events, pending.shown, pending.cards, pending.stopped) == (6, 6, (), None)


def test_law_22_a_board_passed_out_offline_is_over_with_a_zero_score() -> None:
    d = seated()
    got = check(d, calls(d, "Pass", "Pass", "Pass", "Pass"))
    shown = got.state
    assert shown is not None and shown.phase == "over" and shown.contract == "PASS"
    assert shown.result and shown.result.score_ns == 0 and got.pending.result is True


def test_law_19_doubled_and_redoubled_contracts_and_calls_on_top_of_confirmed_ones() -> None:
    d = seated()
    apply(d, calls(d, "1NT"))                       # confirmed by the hub
    got = check(d, calls(d, "X", "XX", "Pass", "Pass", "Pass"))
    shown = got.state
    assert shown is not None and shown.contract == "1NTXX" and shown.doubled == "XX"
    assert call_marks(got) == [False] + [True] * 5


def test_law_25a_an_undo_entered_offline_takes_the_call_back() -> None:
    d = seated()
    shown = check(d, [*calls(d, "1C", "Pass"), ("undo", {"seat": "E"}),
                      ("call", {"seat": "E", "call": "1H"})]).state
    assert shown is not None and shown.auction
    assert [(e.seat, e.call) for e in shown.auction] == [("N", "1C"), ("E", "1H")]
    # Too late once partner has called (25A2): the projection stops, as the hub refuses.
    late = projection(public(d), None, [*calls(d, "1S", "Pass"), ("undo", {"seat": "E"}),
                                        *calls(d, "2C", start="N")])
    assert late.shown == 2 and late.waiting == 2 and late.stopped is not None
    assert "25A" in late.stopped


def test_laws_28_29_a_call_out_of_rotation_gets_the_status_the_hub_gives_it() -> None:
    """Bidding-box mode: the hub records a call out of rotation and the calls after it; the
    projection reads them with the same bridgecore Auction."""
    d = seated()
    shown = check(d, [("call", {"seat": "S", "call": "1H"}),
                      ("call", {"seat": "W", "call": "Pass"})]).state
    assert shown is not None and shown.auction
    assert [e.status for e in shown.auction] == ["accepted", "made"]


def test_strict_table_a_call_the_hub_would_refuse_stops_the_projection() -> None:
    """Laws 9A3, 31: a strict hub refuses a call out of turn; it and what follows wait."""
    d = seated(strict=True)
    before = public(d)
    got = projection(before, None, [*calls(d, "1S"), ("call", {"seat": "W", "call": "2C"}),
                                    ("call", {"seat": "S", "call": "2S"})])
    assert (got.shown, got.waiting) == (1, 2) and got.stopped is not None
    assert got.stopped.startswith("call: not_your_turn")
    assert got.state is not None and got.state.auction
    assert got.state.turn == "E" and len(got.state.auction) == 1
    insufficient = projection(before, None, calls(d, "1S", "1H"))
    assert insufficient.shown == 1 and "illegal_call" in str(insufficient.stopped)


# The play -----------------------------------------------------------------------------------

def test_law_41c_the_opening_lead_offline_puts_the_auction_away_and_faces_dummy() -> None:
    """The table's tablet does not know dummy's cards (the hub shows them): dummy's seat
    only; dummy's own tablet knows them (its hand)."""
    d = seated()
    apply(d, calls(d, *AUCTION))
    before = public(d)
    lead = projection(before, None, TRICK_1[:1])
    table = lead.state
    assert table is not None and table.auction is UNSET
    assert table.dummy == DummyView("S", []) and lead.pending.dummy_hidden
    assert isinstance(table.trick, TrickView)
    assert table.trick.cards == [("E", "ST")] and card_marks(lead, table.trick) == ["ST"]
    assert table.turn == "S"
    dummy = projection(before, seat_view(d, "S"), TRICK_1[:2])
    assert dummy.seat_view is not None and "S3" not in dummy.seat_view.hand
    shown = check(d, TRICK_1[:2], seat="S").state
    assert shown is not None and shown.dummy and len(shown.dummy.cards) == 12


def test_law_44_a_trick_completed_offline_goes_to_its_winner_who_leads_next() -> None:
    d = seated()
    apply(d, calls(d, *AUCTION))
    got = check(d, [*TRICK_1, card("N", "SK"), card("E", "S9")])
    shown = got.state
    assert shown is not None and shown.tricks == TrickCount(1, 0)
    assert shown.trick == TrickView(2, "N", [("N", "SK"), ("E", "S9")])
    assert card_marks(got, shown.trick) == ["SK", "S9"]
    assert got.pending.cards == ("ST", "S3", "S2", "SA", "SK", "S9")
    # Law 66A: the quitted trick stays known, its winner with it, marked as pending
    assert shown.last_trick == LastTrick(1, "E", [("E", "ST"), ("S", "S3"), ("W", "S2"),
                                                  ("N", "SA")], "N")
    assert card_marks(got, shown.last_trick) == ["ST", "S3", "S2", "SA"]


def test_law_44_trumps_win_the_trick_offline() -> None:
    d = seated()
    apply(d, calls(d, "1S", "Pass", "4S", "Pass", "Pass", "Pass"))
    shown = check(d, [card("E", "HJ"), card("S", "H8"), card("W", "H5"), card("N", "HA"),
                      card("N", "CA"), card("E", "CJ"), card("S", "S3"), card("W", "C5")]).state
    assert shown is not None and isinstance(shown.trick, TrickView)
    assert shown.tricks == TrickCount(2, 0) and shown.trick.leader == "S"


def test_law_44c_follow_suit_where_the_hand_is_known() -> None:
    """West's own tablet knows West's hand: in strict mode a revoke would be refused, so the
    projection stops; in bidding-box mode the hub records it and the trick goes on."""
    lead = [card("E", "ST"), card("S", "S3")]
    strict = seated(strict=True)
    apply(strict, calls(strict, *AUCTION) + lead)
    got = projection(public(strict), seat_view(strict, "W"), [card("W", "H2")])
    assert got.shown == 0 and "44C" in str(got.stopped)
    free = seated()
    apply(free, calls(free, *AUCTION) + lead)
    check(free, [card("W", "H2"), card("N", "SA")], seat="W")
    stranger = projection(public(free), seat_view(free, "N"), [card("N", "D2")])
    assert stranger.shown == 0 and "does not hold" in str(stranger.stopped)


def test_a_card_out_of_turn_waits_for_the_hub() -> None:
    """Laws 53-57 are read by the hub only: a card not in turn stops the projection."""
    d = seated()
    apply(d, calls(d, *AUCTION))
    got = projection(public(d), None, [card("W", "S2"), card("E", "ST")])
    assert (got.shown, got.waiting) == (0, 2) and str(got.stopped).startswith("card: not_")


def test_law_77_thirteen_tricks_offline_end_the_board_with_the_hubs_score() -> None:
    d = seated()
    apply(d, calls(d, *AUCTION))
    before, events = public(d), []
    while d.state.sitting.board.play.turn is not None:   # play it on the hub, note it
        play = d.state.sitting.board.play
        event = card(play.turn.letter, str(play.legal_cards[0]))
        events.append(event)
        apply(d, [event])
    after = public(d)
    shown = project(before, None, events)
    assert shown is not None and shown.result and after.result
    assert shown.phase == "over" and shown.trick is None and shown.turn is None
    assert confirmed(shown, dummy_cards=False) == confirmed(after, dummy_cards=False)
    assert shown.result.score_ns == after.result.score_ns == 510   # 4S+3


def test_laws_68_69_a_claim_and_its_answers_offline() -> None:
    """Declarer claims after trick 1: play stops (68D); one defender's accept leaves it
    open, both end the board with the claimed tricks (69A)."""
    d = seated()
    apply(d, calls(d, *AUCTION) + TRICK_1)
    claim = ("claim", {"seat": "N", "tricks": 12, "statement": "all top"})
    got = check(d, [claim, ("claim_answer", {"seat": "E", "accept": True}),
                    ("claim_answer", {"seat": "W", "accept": True})])
    shown = got.state
    assert shown is not None and shown.claim and shown.result
    assert shown.claim.status == "accepted" and got.pending.claim is True
    assert shown.phase == "over" and shown.result.tricks == 13


def test_law_69a_the_other_defenders_answer_through_the_hub_is_the_hubs_to_count() -> None:
    """East accepted through the hub; the state does not say who has accepted, so West's
    accept waits for the hub (unless the state names who accepted)."""
    d = seated()
    apply(d, calls(d, *AUCTION) + TRICK_1)
    apply(d, [("claim", {"seat": "N", "tricks": 12}),
              ("claim_answer", {"seat": "E", "accept": True})])
    state = public(d)
    west = ("claim_answer", {"seat": "W", "accept": True})
    got = projection(state, None, [west])
    assert got.shown == 0 and "other defender" in str(got.stopped)
    assert state.claim
    state = replace(state, claim=replace(state.claim, accepted_by=["E"]))
    shown = project(state, None, [west])
    assert shown is not None and shown.phase == "over"


def test_law_70_a_disputed_claim_offline_lets_play_go_on() -> None:
    d = seated()
    apply(d, calls(d, *AUCTION) + TRICK_1)
    shown = check(d, [("claim", {"seat": "N", "tricks": 12}),
                      ("claim_answer", {"seat": "W", "accept": False}), card("N", "SK")]).state
    assert shown is not None and shown.claim
    assert shown.claim.status == "disputed" and shown.turn == "E"
    dummy = projection(public(d), None, [("claim", {"seat": "S", "tricks": 1})])
    assert dummy.shown == 0 and "43A1c" in str(dummy.stopped)


def test_law_79a_confirming_offline_then_the_next_board() -> None:
    """The result confirmed (79A), then board 2 (dealer East, North-South vulnerable,
    Law 2) with its auction begun: all offline."""
    d = seated()
    apply(d, calls(d, "Pass", "Pass", "Pass", "Pass"))
    shown = check(d, [("result_confirm", {"seat": "E", "accept": True}),
                      ("board", {"board": 2, "source": "tablet"}),
                      ("call", {"seat": "E", "call": "1D"})]).state
    assert shown is not None
    assert shown.board == 2 and shown.dealer == "E" and shown.vulnerability == "NS"
    assert shown.turn == "S" and shown.result is UNSET


def test_checkin_and_director_call_offline() -> None:
    d = driver()
    check(d, [("checkin", {"direction": "NS", "pair": 1}),
              ("checkin", {"direction": "EW", "pair": 4}), ("director_call", {"note": "?"}),
              ("board", {"board": 1, "source": "tablet"}), *calls(d, "1C", start="N")])


def test_nothing_pending_is_the_hubs_state_and_bad_input_stops_without_raising() -> None:
    d = seated()
    state = public(d)
    shown = project(state, None, [])
    assert shown == state
    with pytest.raises(AttributeError):    # frozen: nothing shown can change the hub's
        shown.phase = "over"  # type: ignore[misc]
    odd: list[Any] = [("call", {"seat": "X", "call": "1C"}), ("call", {"seat": "N"}),
                      ("card", {"seat": "N", "card": "S1"}), ("teleport", {}),
                      ("board", {"board": 0}), ("claim", {"seat": "N", "tricks": 3}),
                      ("claim_answer", {"seat": "E", "accept": True}),
                      ("result_confirm", {"seat": "E", "accept": True}),
                      ("undo", {"seat": "E"}), ("checkin", {"direction": "NE", "pair": 1}),
                      None, 42, {"type": "call"}]
    for event in odd:
        got = projection(state, None, [event])
        assert got.shown == 0 and got.waiting == 1 and got.stopped, event
        assert got.state == state
    # Malformed views never reach the projection: they are dropped at the tablet's edge.
    for malformed in ({}, {"phase": "play", "trick": "x", "contract": "9Z"},
                      {"board": 1, "dealer": "N", "auction": [{"seat": "N", "call": "??"}]}):
        assert table_state(malformed) is None
    assert decode_seat({"hand": 3}) is None
    for broken in (None, replace(state, phase="play", board=UNSET, dealer=UNSET, auction=UNSET,
                                 trick=None, contract="9Z"),
                   replace(state, board=1, dealer="N",
                           auction=[CallEntry("N", "??", False, "made")])):
        got = projection(broken, None, [*calls(d, "1C"), card("E", "S2")])
        assert got.shown == 0 and got.stopped


def test_event_of_reads_envelopes_dicts_and_presenter_events() -> None:
    env = Envelope("A1-tab-1", "A1-tab", 1, 1.0, "call", {"seat": "N", "call": "1C"})
    assert event_of(env) == ("A1-tab-1", "call", {"seat": "N", "call": "1C"})
    assert event_of(json.loads(env.to_json()))[1:] == ("call", {"seat": "N", "call": "1C"})
    assert event_of(("undo", {"seat": "N"})) == (None, "undo", {"seat": "N"})


def test_the_event_in_flight_found_in_the_hubs_state_is_not_applied_twice() -> None:
    """The hub publishes the state before its reply: the state may already hold the event
    the tablet still has pending."""
    d = seated()
    before = public(d)
    first, second = calls(d, "1C", "1H")
    apply(d, [first])
    after = public(d)
    assert already_applied(before, after, first)
    assert not already_applied(before, after, second)
    assert not already_applied(after, after, first)           # nothing moved
    apply(d, [second])
    assert not already_applied(before, public(d), first)     # someone else's call too
    assert not already_applied(None, after, first)


# Property: any legal stream, cut anywhere ------------------------------------------------------

ALL_CALLS = ["Pass", "X", "XX", *(f"{n}{s}" for n in range(1, 8) for s in "CDHS")]


def random_stream(rng: random.Random, d: Driver, strict: bool) -> list[Event]:
    """Events drawn from the hub's own objects as they are applied: calls (and in
    bidding-box mode calls out of rotation, insufficient bids, inadmissible doubles...),
    undos (25A), cards in turn, claims by either side and their answers."""
    events: list[Event] = []
    board = d.state.sitting.board
    ended = False   # no undo once the auction has ended (see the note below)
    while d.state.public_state()["phase"] != "over" and len(events) < 60:
        play = board.play
        auction: Auction = board.auction
        ended = ended or auction.is_over
        event: Event
        if play is None or not play.history:
            # Note: bridgecore's Board.pop() does not start the play again when taking back
            # a call ends the auction once more (a change of the final pass undone): the hub
            # then shows the board passed out. Left out here until that is fixed.
            if not ended and len(auction) and rng.random() < 0.08:
                event = ("undo", {"seat": auction.entries[-1].seat.letter})
            elif not strict and rng.random() < 0.15:
                event = ("call", {"seat": rng.choice("NESW"), "call": rng.choice(ALL_CALLS)})
            elif play is not None:
                event = card(play.turn.letter, str(rng.choice(play.legal_cards)))
            else:
                options = auction.legal_calls
                call = rng.choice([c for c in options if str(c) == "Pass"] * 3
                                  + list(options)) if len(auction) > 3 else rng.choice(options)
                turn = auction.turn
                assert turn is not None
                event = ("call", {"seat": turn.letter, "call": str(call)})
        elif play.turn is None:
            claim = play.claims[-1]
            if claim.by_defender:
                answer = claim.declarer
            else:
                answer = claim.declarer.lho if claim.declarer.lho not in claim.accepted_by \
                    else claim.declarer.rho
            event = ("claim_answer", {"seat": answer.letter, "accept": rng.random() < 0.9})
        elif rng.random() < 0.04:
            claimer = rng.choice([play.declarer, play.declarer.lho, play.declarer.rho])
            event = ("claim", {"seat": claimer.letter,
                               "tricks": rng.randint(0, 13 - len(play.completed_tricks))})
        else:
            event = card(play.turn.letter, str(rng.choice(play.legal_cards)))
        if d.send(event[0], **event[1]).reply.status == "ack":
            events.append(event)
    return events


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), strict=st.booleans(), cut=st.floats(0, 1),
       seat=st.sampled_from([None, "N", "E", "S", "W"]))
def test_property_projecting_any_stream_from_any_point_gives_the_hubs_state(
        seed: int, strict: bool, cut: float, seat: str | None) -> None:
    """Random events on board 2 (a random deal), cut anywhere: the projection of the
    events after the cut on the hub's state there equals the hub's state after them."""
    rng = random.Random(seed)
    d = driver(strict)
    d.seat_pairs(board=2)
    events = random_stream(rng, d, strict)
    split = int(cut * len(events))
    replay = driver(strict)
    replay.seat_pairs(board=2)
    apply(replay, events[:split])
    before, view = public(replay), seat_view(replay, seat)
    got = projection(before, view, events[split:])
    # It shows them all, but for a defender's accept when the other's answer came through
    # the hub (the state does not say who has accepted, 69A): that one waits for the hub.
    assert got.stopped is None or got.stopped.startswith("claim_answer: the other"), got
    apply(replay, events[split:split + got.shown])
    after = public(replay)
    known = not got.pending.dummy_hidden
    assert confirmed(got.state, dummy_cards=known) == confirmed(after, dummy_cards=known)


# End to end: a table tablet without network ----------------------------------------------------

@pytest.fixture
def hub(broker_url: str, tmp_path: Path) -> Iterator[Hub]:
    setup = EventSetup.quick(tables=3, boards_per_round=2, seed=SEED)
    running = Hub(data_log(tmp_path / "hub"), url=broker_url, setup=setup, tick_seconds=0.2,
                  double_dummy=False)     # no board ends here: no result screen to prepare
    try:
        with HubRunner(running):
            yield running
    finally:
        running.log.close()


def hub_state(hub: Hub) -> TableState | None:
    return table_state(hub.call(lambda: json.dumps(hub.room.tables["A1"].public_state())))


def test_offline_the_table_bids_and_leads_without_network_and_the_hub_agrees(
        hub: Hub, tmp_path: Path) -> None:
    """The table's tablet (Kivy root, wire.link, its outbox on disk) loses its network
    after the board is announced: four calls and the opening lead are entered, the screen
    moves on with each (auction, then play: Laws 22, 41), nothing reaches the hub. The
    network comes back: the hub applies them in order and its state is what the tablet
    showed; the marks of what was pending are gone and dummy is faced (41D)."""
    cable = Cable(hub.url)
    presenter = TabletPresenter("A1", language="en")
    root = TabletRoot(presenter)
    box = Outbox(tmp_path / OUTBOX_NAME, "A1-tab")
    link = DeviceLink(cable.url, "A1", box.device, outbox=box, on_state=root.post_state,
                      on_reply=root.post_reply, on_connection=root.post_connection,
                      reconnect_delay=(0.1, 0.5))
    root.send, root.pending = link.send, box.pending
    seen: list[tuple[Any, ...]] = []          # every view of the table the screen was given
    project_now = presenter.model._project

    def spy() -> None:
        project_now()
        seen.append(footprint(presenter.model.state))

    presenter.model._project = spy  # type: ignore[method-assign]
    try:
        show(root)
        until(lambda: presenter.model.connection == "online" and presenter.model.state, "the hub")
        for command, args in ((presenter.checkin.check_in, (1, "NS")),
                              (presenter.checkin.check_in, (4, "EW")),
                              (presenter.board.announce, (1,))):
            assert root.act(command, *args)
        until(lambda: presenter.model.hub_state is not None
              and presenter.model.hub_state.phase == "auction"
              and presenter.model.pending_count == 0, "board 1 on the hub")
        cable.cut()                                   # the tablet's Wi-Fi drops
        until(lambda: presenter.model.connection == "offline", "the link to notice")
        seen.clear()
        accepted = hub.call(lambda: hub.stats.accepted)
        for call, seat in (("1C", "N"), ("Pass", "E"), ("Pass", "S"), ("Pass", "W")):
            assert presenter.model.turn == seat and root.screen_name == "auction"
            assert root.act(presenter.auction.call, call)
        assert root.screen_name == "play" and presenter.model.turn == "E"
        assert presenter.model.contract_text == "1♣ by North"
        lead = hub.call(lambda: hub.room.tables["A1"].seat_view(Seat.EAST)["hand"][0])
        assert root.act(presenter.play.card, lead)
        assert presenter.play.trick == {"E": lead} and presenter.play.trick_pending == {"E"}
        assert presenter.model.turn == "S" and presenter.play.auction_cells == []      # 41C
        assert "(5)" in root.bar.connection.text and box.count() == 5
        shown, entered = footprint(presenter.model.state), len(seen)
        assert hub.call(lambda: hub.stats.accepted) == accepted             # nothing got out
        assert footprint(hub_state(hub)) != shown
        cable.plug()                                  # the network is back
        assert link.wait_delivered(15)
        until(lambda: presenter.model.connection == "online" and presenter.model.pending_count == 0
              and presenter.model.dummy_known, "the hub's state")
        assert hub.call(lambda: hub.stats.accepted) == accepted + 5
        final = hub_state(hub)
        assert footprint(final) == shown
        assert presenter.model.state == presenter.model.hub_state == final
        assert len(presenter.model.dummy_cards) == 13 and presenter.play.trick_pending == set()
        # Offline, each entry moved the screen on; while the hub caught up (its states and
        # replies crossing), the table shown did not move: no step back, nothing twice.
        progress = [(4 if f[3] is None else len(f[3])) + (len(f[7][2]) if f[7] else 0)
                    for f in seen[:entered]]
        assert progress == sorted(progress) and progress[-1] == 5, progress
        assert len(seen) > entered and all(f == shown for f in seen[entered:]), seen
        assert root.bar.connection.text == "Connected"
    finally:
        link.close()
        cable.close()
        box.close()
        root.close()


# Where each event belongs in the table's record (issue 16: the envelope's ``at``) -----------

def test_each_event_says_where_in_the_record_it_belongs_as_far_as_the_tablet_knows() -> None:
    """Online: the board, the calls while the auction is shown, the cards played (none for a
    card: a tap races the reader's read of the card before it). Cut off: no cards, which the
    readers may be recording unseen here. The hub's tally agrees with what it is told."""
    from tests.tablet.tables import Table as HubTable

    t = HubTable([None]).seated()
    tab = t[None]
    sent: list[tuple[str, dict[str, Any], dict[str, int] | None]] = []
    send = tab.send_through(lambda kind, body, at: sent.append((kind, body, at)))
    tab.on_connection("online")
    t.calls("1S", "Pass")
    send(*tab.auction.call("2S"))
    assert sent[-1][2] == {"board": 1, "calls": 2, "cards": 0}
    t.calls("2S", "Pass", "4S", "Pass", "Pass", "Pass")
    t.cards("HJ", "H8", "H2", "HA", "S2")
    send("claim", {"seat": "N", "tricks": 10})
    send("card", {"seat": "N", "card": "S3"})
    assert [at for _, _, at in sent[-2:]] == [{"board": 1, "cards": 5}, {"board": 1}]
    tally = t.room.order["A1"].tallies[1]
    assert tally.calls == 8 and tally.cards == 5   # what the hub counted
    tab.on_connection("offline")
    send("result_confirm", {"seat": "E", "accept": True})
    assert sent[-1][2] == {"board": 1}


def test_only_a_tables_tablet_cut_off_in_play_lets_the_players_go_on() -> None:
    """The readers record the play; a table's tablet cut off does not see it. It offers the
    next board (the hub places it after the play); online, or a seat's tablet, never."""
    from tablet.presenters import PresenterError
    from tests.tablet.tables import in_play as played

    t = played(seats=[None, "N"])
    tab, north = t[None], t["N"]
    tab.on_connection("online")
    north.on_connection("offline")
    assert not tab.play.can_leave and not north.play.can_leave
    with pytest.raises(PresenterError):
        tab.board.announce(2)
    tab.on_connection("offline")
    assert tab.play.can_leave and tab.screen == "play"
    tab.play.leave()
    assert tab.screen == "board" and tab.board.announce(2) == ("board", {"board": 2,
                                                                         "source": "tablet"})
    tab.on_connection("online")
    assert tab.screen == "board"   # what the players chose stays, until the board changes
