"""What each tablet tells its player while an irregularity waits for the director (Law 9B2:
nobody acts until the director has explained the rectification), fed what a real hub room
publishes (tests/tablet/tables.py). A player met it: after West called out of turn at his
partner's turn, East's tablet said "Your turn to call" in green, and East, as he would
with bidding boxes, called; after South led out of turn, declarer's tablet said "Your
turn to play" before he had chosen (Law 54)."""

from __future__ import annotations

from tests.tablet.tables import Table


def test_law_9b2_a_call_out_of_turn_waits_for_the_director_on_every_tablet() -> None:
    t = Table(language="en").seated()
    t.calls("1C")
    t.ok(t["W"], t["W"].auction.call("1H"))      # at East's turn (Law 31): partner's turn
    for seat in "NESW":
        assert t[seat].rectify.notices, seat
    # Nobody is told it is his turn: East, in turn, waits (9B2) ...
    assert t["E"].auction.turn_text == "Wait for the director (Law 9B2)"
    assert t["S"].auction.turn_text == t["E"].auction.turn_text
    assert t["E"].rectify.waiting
    # ... and North, who may accept (29A), is told he has the choice.
    assert t["N"].auction.turn_text == "Accept below, or wait for the director"
    # Once North accepts, the auction goes on and the tablets say whose turn it is.
    irr = t["N"].rectify.choices[0].irregularity
    t.ok(t["N"], t["N"].rectify.accept(irr))
    assert not t["E"].rectify.waiting
    assert not t["N"].auction.turn_text.startswith("Wait")


def test_law_9b2_in_french_and_italian() -> None:
    t = Table(language="fr").seated()
    t.calls("1C")
    t.ok(t["W"], t["W"].auction.call("1H"))
    assert t["E"].auction.turn_text == "Attendez l'arbitre (Loi 9B2)"
    t = Table(language="it").seated()
    t.calls("1C")
    t.ok(t["W"], t["W"].auction.call("1H"))
    assert t["E"].auction.turn_text == "Attendete l'arbitro (Legge 9B2)"


def test_law_9b2_the_directors_ruling_lets_the_table_go_on() -> None:
    t = Table(language="en").seated()
    t.calls("1NT")
    t.ok(t["E"], t["E"].auction.call("1S"))       # insufficient (Law 27)
    assert t["E"].rectify.waiting and t["N"].rectify.waiting
    # South, East's LHO, may accept it (27A1): his tablet says so.
    assert t["S"].auction.turn_text == "Accept below, or wait for the director"
    alert = next(a for a in t.alerts if a.kind == "insufficient_bid")
    option = next(i for i, o in enumerate(alert.options) if o["law"] == "27B1(a)")
    t.room.alerts.rule(alert.id, t.clock, "replace by 2S", option=option)
    t.publish()
    assert not t["E"].rectify.waiting
    assert not t["E"].auction.turn_text.startswith("Wait")


def test_law_9b2_a_ruling_in_the_directors_own_words_ends_the_wait_too() -> None:
    """He ruled with his words only (no option of the alert's chosen)."""
    t = Table(language="en").seated()
    t.calls("1NT")
    t.ok(t["E"], t["E"].auction.call("1S"))
    alert = next(a for a in t.alerts if a.kind == "insufficient_bid")
    t.room.alerts.rule(alert.id, t.clock, "East replaces his bid by 2S")
    t.publish()
    assert not t["E"].rectify.waiting
    assert t["S"].auction.turn_text == "Your turn to call"


def test_law_9b2_a_call_made_since_ends_the_wait() -> None:
    """The director came and the table went on (28B: East called in turn): the tablets no
    longer ask to wait though the director has not closed the alert on his console."""
    t = Table(language="en").seated()
    t.calls("1C")
    t.ok(t["S"], t["S"].auction.call("1H"))      # South at East's turn: RHO's turn (31A)
    assert t["E"].rectify.waiting
    t.ok(t["E"], t["E"].auction.call("Pass"))    # East, in turn, calls first (28B)
    assert t["N"].rectify.notices                # still open for the director
    assert not t["E"].rectify.waiting
    assert not t["S"].auction.turn_text.startswith("Wait")


def test_law_54_a_lead_out_of_turn_waits_for_declarers_choice_or_the_director() -> None:
    t = Table(language="en").seated()
    t.calls("1S", "Pass", "4S", "Pass", "Pass", "Pass")    # North declares: East leads
    west_card = next(o.card for o in t["W"].play.hand)
    t.ok(t["W"], t["W"].play.card(west_card))              # East is on lead, not West
    assert t["W"].rectify.notices
    assert t["E"].play.turn_text == "Wait for the director (Law 9B2)"
    # Declarer, next to play, has the choice (53A/54B): his tablet says so, not green.
    assert not t["N"].play.my_turn
    assert t["N"].play.turn_text == "Accept below, or wait for the director"
    # Dummy is not spread while declarer may still spread his own hand (54A) ...
    assert all(not t[seat].play.dummy for seat in "NESW")
    # ... and is once he accepts the lead (54B1): he plays second, from his hand.
    t.ok(t["N"], t["N"].rectify.accept(t["N"].rectify.choices[0].irregularity))
    assert len(t["E"].play.dummy) == 13 and t["N"].play.my_turn


def test_law_29a_after_north_accepts_the_call_out_of_turn_it_is_his_turn() -> None:
    """A player met it: North accepted West's 1H by the button, and every tablet still said
    "East to call" (the hub moves the auction on only at North's call, 29A): nobody knew
    who was to call. The accepter, the offender's LHO, calls next."""
    t = Table(language="en").seated()
    t.calls("1C")
    t.ok(t["W"], t["W"].auction.call("1H"))      # at East's turn
    irr = t["N"].rectify.choices[0].irregularity
    t.ok(t["N"], t["N"].rectify.accept(irr))
    assert t["N"].auction.turn_text == "Your turn to call"
    assert t["E"].auction.turn_text == "North to call"
    assert t["E"].model.turn == "N"
    assert t["N"].model.turn == "N"
    t.ok(t["N"], t["N"].auction.call("Pass"))
    entries = [(e.seat, e.call, e.status) for e in t["E"].model.auction_entries]
    assert entries == [("N", "1C", "made"), ("W", "1H", "accepted"), ("N", "Pass", "made")]
    assert t["E"].auction.turn_text == "Your turn to call"


def test_law_27b_once_the_director_rules_the_offender_is_to_substitute() -> None:
    """A player met it: the director ruled 27B1(a) from his console and every tablet said
    "South to call", though East was to replace his insufficient 1S."""
    t = Table(language="en").seated()
    t.calls("1NT")
    t.ok(t["E"], t["E"].auction.call("1S"))
    alert = next(a for a in t.alerts if a.kind == "insufficient_bid")
    option = next(i for i, o in enumerate(alert.options) if o["law"] == "27B1(a)")
    t.room.alerts.rule(alert.id, t.clock, "replace by 2S", option=option)
    t.publish()
    assert t["E"].auction.turn_text == "Your turn to call"
    assert t["S"].auction.turn_text == "East to call"
    t.ok(t["E"], t["E"].auction.call("2S"))
    assert t["S"].auction.turn_text == "Your turn to call"
    entries = [(e.seat, e.call, e.status) for e in t["N"].model.auction_entries]
    assert entries == [("N", "1NT", "made"), ("E", "1S", "withdrawn"), ("E", "2S", "made")]
