"""The play screen's presenter (tablet/presenters/play.py), without a window, fed by a
real hub table (tests/tablet/tables.py): the cards offered, dummy, the trick just quitted
and claims, each Law with its test."""

from __future__ import annotations

import pytest

from bridgecore.cards import Seat
from tablet.presenters import PresenterError, QuittedTrick
from tests.tablet.tables import SEATS, Table, any_card_of, enabled, in_play


def test_law_41c_the_auction_until_the_lead_is_faced_then_only_the_contract() -> None:
    t = Table().seated()
    t.calls("1S", "Pass", "4S", "X", "Pass", "Pass", "Pass")
    east, north = t["E"], t["N"]
    assert east.screen == "play" and len(east.play.auction_cells) == 7   # clarification period
    assert east.model.contract_text == "4\u2660 X by North"
    assert east.model.dummy_cards == [] and east.play.dummy == []              # not before the lead
    assert east.play.turn_text == "Your lead" and north.play.turn_text == "East to lead"
    t.ok(east, east.play.card("HJ"))
    for seat in SEATS:
        assert t[seat].play.auction_cells == []                           # 41C: cards back in box
        assert t[seat].model.contract_text == "4\u2660 X by North"
    assert t["W"].model.dummy_cards == ["S6", "S5", "S4", "S3", "H8", "H7", "H6", "D8", "D7", "D6",
                                  "C8", "C7", "C6"]
    assert north.auction.undo_seat is None                                   # no change of call now


def test_law_41d_a_table_tablet_never_shows_a_hand_but_dummys() -> None:
    t = Table([None], strict=True).seated()
    tab = t[None]
    tab.on_seat(t.room.tables["A1"].seat_view(Seat.NORTH))       # even if it were sent one
    t.calls("1S", "Pass", "4S", "Pass", "Pass", "Pass")
    assert tab.model.own_cards == [] and tab.play.hand == []
    t.cards("HJ")
    assert tab.model.turn == "S" and tab.play.plays_dummy
    assert not any(o.enabled for o in tab.play.picker)  # dummy's turn: dummy's cards
    assert enabled(tab.play.dummy) == ["H8", "H7", "H6"]              # and they follow suit (44)
    t.cards("H8")
    picker = {o.card: o for o in tab.play.picker}
    assert not picker["HJ"].enabled and not picker["H8"].enabled   # played
    assert not picker["S6"].enabled                                # in dummy
    assert picker["H5"].enabled and picker["SA"].enabled


def test_law_44_strict_mode_offers_only_cards_that_follow_suit() -> None:
    t = Table(strict=True).seated()
    t.calls("1S", "Pass", "4S", "Pass", "Pass", "Pass")
    east, west, north = t["E"], t["W"], t["N"]
    assert enabled(east.play.hand) == [c for c in east.model.own_cards]        # the lead: any card
    assert enabled(west.play.hand) == []                                # not his turn
    t.ok(east, east.play.card("H9"))
    assert north.play.turn_text == "Play from dummy"
    assert enabled(north.play.dummy) == ["H8", "H7", "H6"] and enabled(north.play.hand) == []
    t.ok(north, north.play.card("H6"))
    assert enabled(west.play.hand) == ["H5", "H4", "H3", "H2"]
    with pytest.raises(PresenterError) as err:
        west.play.card("C2")
    assert err.value.key == "err.illegal_card"
    with pytest.raises(PresenterError) as err:
        east.play.card("HT")
    assert err.value.key == "err.not_your_turn"


def test_law_44_57_bidding_box_mode_lets_a_card_be_played_and_the_hub_tells_the_director() -> None:
    t = Table().seated()
    t.calls("1S", "Pass", "4S", "Pass", "Pass", "Pass")
    west, east = t["W"], t["E"]
    assert "H5" in enabled(west.play.hand)                 # out of turn: possible, not proper
    assert not any(o.legal for o in west.play.hand)
    t.ok(west, west.play.card("H5"))                       # lead out of turn, recorded as made
    assert "lead_out_of_turn" in {a.kind for a in t.alerts}
    assert east.model.turn is not None


def test_law_43_dummy_does_not_play_declarer_plays_dummys_cards() -> None:
    t = Table().seated()
    t.calls("1S", "Pass", "4S", "Pass", "Pass", "Pass")
    t.cards("HJ")
    north, south = t["N"], t["S"]
    assert south.play.turn_text == "North plays from dummy"
    assert t["E"].play.turn_text == south.play.turn_text
    assert south.play.hand and not south.play.plays_own_hand
    assert enabled(south.play.hand) == []
    # Dummy's cards are shown once on his tablet (his hand), and no green "your turn".
    assert south.play.dummy == [] and len(north.play.dummy) == len(south.play.hand) == 13
    assert not south.play.my_turn and north.play.my_turn and not t["E"].play.my_turn
    assert south.play.claim_seat is None  # dummy: no claim (43A1c)
    with pytest.raises(PresenterError):
        south.play.card("H8")
    assert north.play.plays_dummy and "H8" in enabled(north.play.dummy)
    t.ok(north, north.play.card("H8"))
    assert t["W"].play.trick == {"E": "HJ", "S": "H8"}


def test_law_68_69_declarers_claim_is_answered_by_both_defenders() -> None:
    t = in_play()
    north, east, west, south = t["N"], t["E"], t["W"], t["S"]
    assert north.play.claim_seat == "N" and north.model.remaining_tricks == 12
    with pytest.raises(PresenterError) as err:
        north.play.claim(13)
    assert err.value.key == "err.claim_tricks"
    event = north.play.claim(12, " all top tricks ")
    assert event == ("claim", {"seat": "N", "tricks": 12, "statement": "all top tricks"})
    t.ok(north, event)
    assert north.play.claim_seat is None and not enabled(north.play.hand)  # play has ceased (68D)
    assert east.play.claim_view is not None and east.play.claim_view.answer_for == ("E",)
    # Tricks as a total for the board (North won trick 1): "declarer claims 13".
    assert east.play.claim_view.text == "North claims 13 tricks"
    # Law 68C: the claimer's remaining cards are faced for the defenders to consider.
    north_hand = t.room.tables["A1"].seat_view(Seat.NORTH)["hand"]
    assert sorted(o.card for o in east.play.claim_cards) == sorted(north_hand)
    assert len(north_hand) == 12 and "HA" not in north_hand
    assert south.play.claim_view is not None and south.play.claim_view.answer_for == ()
    # Dummy (South) may dispute (68D), never accept (69A).
    assert south.play.claim_view.dispute_for == ("S",)
    with pytest.raises(PresenterError):
        south.play.claim_answer(True)
    t.ok(east, east.play.claim_answer(True))
    assert east.play.claim_view is not None and east.play.claim_view.answer_for == ()
    assert west.play.claim_view is not None and west.play.claim_view.answer_for == ("W",)
    assert north.screen == "play"
    t.ok(west, west.play.claim_answer(True))
    assert north.screen == "result" and north.result.view is not None
    assert north.result.view.tricks == 13


def test_law_68_a_defenders_concession_is_answered_by_declarer() -> None:
    t = in_play()
    east, north, west = t["E"], t["N"], t["W"]
    t.ok(east, east.play.claim(0))
    assert north.play.claim_view is not None and north.play.claim_view.answer_for == ("N",)
    assert west.play.claim_view is not None and west.play.claim_view.answer_for == ()


def test_law_68d_70_a_disputed_claim_calls_the_director() -> None:
    t = in_play()
    north, east = t["N"], t["E"]
    t.ok(north, north.play.claim(12))
    t.ok(east, east.play.claim_answer(False))
    assert east.model.message is not None and "director" in east.model.message.text
    assert "disputed_claim" in {a.kind for a in t.alerts}
    view = north.play.claim_view
    assert view is not None and view.status == "disputed"
    assert north.play.claim_seat == "N" and north.screen == "play"       # the director rules


def test_law_68_table_tablet_collects_both_defenders_answers() -> None:
    t = in_play(seats=[None])
    tab = t[None]
    assert tab.play.claim_seat == "N"
    t.ok(tab, tab.play.claim(12))
    view = tab.play.claim_view
    assert view is not None and view.answer_for == ("E", "W")
    t.ok(tab, tab.play.claim_answer(True, "W"))
    view = tab.play.claim_view
    assert view is not None and view.answer_for == ("E",)
    with pytest.raises(PresenterError):
        tab.play.claim_answer(True, "S")
    t.ok(tab, tab.play.claim_answer(True))
    assert tab.model.phase == "over"


def test_law_68d_no_card_once_a_claim_stands_and_no_card_played_twice() -> None:
    t = in_play(seats=[None])
    tab = t[None]
    assert tab.model.turn == "N"
    with pytest.raises(PresenterError) as err:
        tab.play.card("HJ")                            # the picker knows it was played
    assert err.value.key == "err.not_now"
    t.ok(tab, tab.play.claim(12))
    assert not any(o.enabled for o in tab.play.picker)  # play has ceased (68D)
    with pytest.raises(PresenterError) as err:
        tab.play.card("S2")
    assert err.value.key == "err.not_now"


def test_law_66a_quitted_trick_shown_until_the_players_side_plays_to_the_next() -> None:
    t = in_play()                                  # trick 1: E HJ, S H8, W H2, N HA
    for tablet in t.tablets.values():
        assert tablet.play.last_trick == QuittedTrick(
            1, {"E": "HJ", "S": "H8", "W": "H2", "N": "HA"}, "N", set())
        assert tablet.play.last_trick_allowed            # nobody has led to trick 2 yet
    t.cards("SA")                                   # North (NS) leads to trick 2
    assert not t["N"].play.last_trick_allowed and not t["S"].play.last_trick_allowed
    assert t["E"].play.last_trick_allowed and t["W"].play.last_trick_allowed
    t.cards(t["E"].model.own_cards[0])                    # East: now both sides have played
    assert not any(tablet.play.last_trick_allowed for tablet in t.tablets.values())
    assert t["W"].play.last_trick is not None            # still known; only no longer shown


def test_law_66a_table_tablet_may_show_it_until_both_sides_have_played() -> None:
    t = in_play(seats=[None])
    tablet = t[None]
    assert tablet.play.last_trick is not None and tablet.play.last_trick_allowed
    t.cards("SA")
    assert tablet.play.last_trick_allowed                # East-West have not played yet
    t.cards(any_card_of(t, "E"))
    assert not tablet.play.last_trick_allowed


def test_law_68d_dummy_may_dispute_declarers_claim_never_accept_it() -> None:
    """Dummy had no Dispute (issue 22): a claim disputed by any player, dummy included, calls
    the director (68D)."""
    t = in_play()
    north, south = t["N"], t["S"]
    t.ok(north, north.play.claim(12))
    view = south.play.claim_view
    assert view is not None and view.answer_for == () and view.dispute_for == ("S",)
    with pytest.raises(PresenterError):
        south.play.claim_answer(True)
    t.ok(south, south.play.claim_answer(False))
    assert "disputed_claim" in {a.kind for a in t.alerts}
    assert north.play.claim_view is not None and north.play.claim_view.status == "disputed"


def test_law_68_claims_as_a_total_all_the_rest_and_concede() -> None:
    """The claim screen counts tricks for the board: North has won one trick, "12" more is
    a claim of 13 in all; "concede" is 0 of the remaining (68B)."""
    t = in_play()
    north, east = t["N"], t["E"]
    assert north.play.claim_won == 1
    assert north.play.claim_total(13) == ("claim", {"seat": "N", "tricks": 12})
    assert north.play.claim_total(10, "ruff a club") == ("claim", {
        "seat": "N", "tricks": 9, "statement": "ruff a club"})
    t.ok(east, east.play.claim(0))     # East concedes the rest
    assert north.play.claim_view is not None
    assert north.play.claim_view.text == "East concedes the remaining tricks"


def test_a_tablet_cut_off_says_so_full_width_and_lists_the_cards_waiting() -> None:
    """Cut off, the players play on (their entries wait, in order): every screen says so
    and names the cards the hub has not had yet; each card carries its trick (Law 44)."""
    from tablet.presenters.common import cut_off_banner

    t = in_play()
    east = t["E"]
    assert cut_off_banner(east.model) is None
    east.model.on_connection("offline")
    # In the player's words: no "hub", no "0 entries wait" (a player met both).
    assert cut_off_banner(east.model) == ("NO CONNECTION: play on, what you enter is kept "
                                          "and sent when it is back")
    east.model.set_language("fr")
    assert cut_off_banner(east.model) == ("PAS DE CONNEXION : continuez à jouer, vos saisies "
                                          "sont gardées et envoyées à son retour")
    east.model.set_language("en")
    card = any_card_of(t, "E")
    assert east.model.place("card", "E") == {"board": 1, "trick": 2}   # cut off: no position
    east.model.add_pending(("card", {"seat": "E", "card": card}))
    text = cut_off_banner(east.model)
    assert text is not None and text.startswith("NO CONNECTION: play on")
    assert text.endswith(f"Waiting for the hub: {east.model.tr.card(card)}")
    assert east.model.place("card", "E") == {"board": 1, "trick": 3}   # its next card
    # The card waiting for the hub is not offered again.
    assert not next(o for o in east.play.hand if o.card == card).enabled


def test_law_68b2_a_defenders_partner_may_object_to_his_concession() -> None:
    """A player met it: East conceded the rest by mistake and West's tablet only said
    "East concedes the remaining tricks. Waiting for the opponents' answer", with no way to
    object; the Laws let him (68B2: neither claim nor concession has occurred). His
    tablet offers Dispute, never Accept (his own side's concession, 69A)."""
    t = in_play()
    east, west = t["E"], t["W"]
    t.ok(east, east.play.claim(0))
    view = west.play.claim_view
    assert view is not None and view.answer_for == () and view.dispute_for == ("W",)
    assert east.play.claim_view is not None and east.play.claim_view.dispute_for == ()
    t.ok(west, west.play.claim_answer(False))
    assert west.model.claim is not None and west.model.claim.status == "void"
    with pytest.raises(PresenterError):
        west.play.claim_answer(True)
