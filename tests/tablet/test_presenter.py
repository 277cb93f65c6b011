"""The tablet's presenter (tablet/presenter.py), without a window: fed by a real hub table
(hub.room.Room) exactly as the hub publishes, every event it produces checked against the
protocol's schema and accepted by the table. Each Law the tablet applies has its test."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bridgecore.auction import Auction
from bridgecore.calls import Call
from bridgecore.cards import Seat
from hub.traveller import DoubleDummyTables
from tablet.offline import footprint, project
from tablet.presenter import PresenterError, TabletPresenter, is_jump
from tests.hub.test_table import START, make_room
from wire.protocol import Envelope, Reply

SEATS = "NESW"


class Table:
    """Table A1 of a real room (Mitchell, 3 tables; board 1: North holds every top card) and
    tablets fed what the hub would publish to them after each event."""

    def __init__(self, seats: Iterable[str | None] = SEATS, *, strict: bool = False,
                 language: str = "en"):
        self.room = make_room(strict=strict)
        self.now = 0.0           # the tablets' monotonic clock (the STOP wait)
        self.clock = START       # device and hub time
        self.seq: dict[str, int] = {}
        self.tablets = {seat: TabletPresenter("A1", seat=seat, language=language,
                                              strict=strict, clock=lambda: self.now,
                                              wall=lambda: self.clock)
                        for seat in seats}
        self.publish()

    def __getitem__(self, seat: str | None) -> TabletPresenter:
        return self.tablets[seat]

    @property
    def alerts(self) -> list[Any]:
        return list(self.room.alerts.open())

    def publish(self) -> None:
        table = self.room.tables["A1"]
        state = json.loads(json.dumps(table.public_state()))
        for seat, tablet in self.tablets.items():
            tablet.on_state(state)
            if seat is not None:
                tablet.on_seat(json.loads(json.dumps(table.seat_view(Seat(SEATS.index(seat))))))

    def send(self, tablet: TabletPresenter, event: tuple[str, dict[str, Any]]) -> Reply:
        kind, body = event
        device = f"A1-{tablet.seat or 'tab'}"
        self.seq[device] = n = self.seq.get(device, 0) + 1
        self.clock += 1.0
        wire = Envelope(f"{device}-{n:06d}", device, n, self.clock, kind, body).to_json()
        env = Envelope.from_json(wire)   # the body is what the protocol's schema allows
        out = self.room.apply("A1", env, self.clock)
        self.publish()
        tablet.on_reply(json.loads(out.reply.to_json()), env)
        return out.reply

    def ok(self, tablet: TabletPresenter, event: tuple[str, dict[str, Any]]) -> None:
        reply = self.send(tablet, event)
        assert reply.status == "ack", reply

    def seated(self, board: int = 1) -> Table:
        ns = self.tablets.get("N") or self.tablets[None]
        ew = self.tablets.get("E") or self.tablets[None]
        self.ok(ns, ns.checkin(1, "NS"))
        self.ok(ew, ew.checkin(4, "EW"))
        self.ok(ns, ns.board(board))
        assert not self.alerts, self.alerts
        return self

    def first(self) -> TabletPresenter:
        return next(iter(self.tablets.values()))

    def calls(self, *calls: str) -> None:
        """Calls in rotation, each from the tablet of the player in turn (or the table's)."""
        for call in calls:
            tablet = self.tablets.get(self.first().turn) or self.tablets[None]
            self.now += 20.0  # past any STOP wait
            self.ok(tablet, tablet.call(call))

    def cards(self, *cards: str) -> None:
        """Cards in turn, each from the tablet that plays for the seat in turn."""
        for card in cards:
            turn = self.first().turn
            tablet = next((t for t in self.tablets.values()
                           if t.seat is None or turn in t._plays_for()), None)
            assert tablet is not None, turn
            self.ok(tablet, tablet.card(card))


def enabled(options: Iterable[Any]) -> list[str]:
    return [o.call if hasattr(o, "call") else o.card for o in options if o.enabled]


# Check-in and board start --------------------------------------------------------------------

def test_law_5_checkin_body_is_what_the_hub_takes_and_moves_to_the_board_screen() -> None:
    t = Table()
    north, east = t["N"], t["E"]
    assert north.screen == "checkin"
    event = north.checkin(1, players=[(11, " Anna "), (None, ""), (12, "")])
    assert event == ("checkin", {"direction": "NS", "pair": 1, "seat": "N",
                                 "players": [{"number": 11, "name": "Anna"}, {"number": 12}]})
    t.ok(north, event)
    assert north.screen == "board" and east.screen == "checkin"
    t.ok(east, east.checkin(4))
    assert east.screen == "board"
    assert north.pairs_text == "NS pair 1  -  EW pair 4"
    with pytest.raises(PresenterError) as err:
        north.checkin(0)
    assert err.value.key == "checkin.missing_pair"


def test_law_5_a_table_tablet_checks_both_pairs_in() -> None:
    t = Table([None])
    tab = t[None]
    t.ok(tab, tab.checkin(1, "NS"))
    assert tab.screen == "checkin"          # East-West still to come
    t.ok(tab, tab.checkin(4, "EW"))
    assert tab.screen == "board"
    tab.new_round()
    assert tab.screen == "checkin"
    with pytest.raises(PresenterError):
        tab.checkin(4, "NE")


def test_law_5b_refused_checkin_is_asked_again_and_the_movement_warning_when_known() -> None:
    t = Table([None])
    tab = t[None]
    reply = Reply("x", 1, "reject", "malformed", "pair numbers start at 1", START)
    tab.checkin(1, "NS")
    tab.on_reply(reply, Envelope("x", "A1-tab", 1, START, "checkin",
                                 {"direction": "NS", "pair": 1}))
    assert tab.screen == "checkin" and tab.message is not None
    # The movement's pairs, as the hub publishes them (schedule.expected): Law 5B.
    assert tab.state["schedule"]["expected"] == {"NS": 1, "EW": 4}
    assert tab.checkin_warning("NS", 1) is None
    tab.checkin(5, "EW")
    assert tab.message is not None and "Pair 5" in tab.message.text
    assert "pair 4" in tab.message.text and tab.message.level == "warning"


def test_law_2_board_start_shows_number_dealer_and_vulnerability() -> None:
    t = Table().seated(board=2)   # board 2: dealer East, North-South vulnerable
    north = t["N"]
    assert north.screen == "auction"
    assert north.header == ["Table A1", "You: North", "Board 2", "Dealer East",
                            "North-South vulnerable"]
    assert north.vulnerable("N") and north.vulnerable("S")
    assert not north.vulnerable("E") and not north.vulnerable("W")
    assert north.columns == ["E", "S", "W", "N"]   # the grid starts at the dealer
    assert t["E"].turn_text == "Your turn to call" and north.turn_text == "East to call"
    with pytest.raises(PresenterError):
        north.board(3)   # a board is in play: the next one only once it is over


def test_law_15_wrong_board_warning_from_the_state_and_a_notice_in_a_reply() -> None:
    t = Table().seated(board=1)
    north = t["N"]
    assert north.board_warning is None     # board 1 is among this round's, 1 and 2
    assert north.suggested_boards == [2]      # the round's next board
    t = Table()
    north, east = t["N"], t["E"]
    t.ok(north, north.checkin(1, "NS"))
    t.ok(east, east.checkin(4, "EW"))
    reply = t.send(north, north.board(3))  # board 3 is A2's this round
    assert reply.notice == "wrong_board"   # the hub tells the table, and the director
    assert north.board_warning is not None and "Board 3" in north.board_warning
    assert north.message is not None and "Law 15" in north.message.text
    message = north.on_reply({"type": "ack", "code": "ok", "notice": "wrong_board"})
    assert message is not None and "Law 15" in message
    assert north.on_reply({"type": "ack", "code": "ok"}) is None
    assert north.on_reply({"type": "ack", "code": "wrong_seating"}) is not None


# The auction ---------------------------------------------------------------------------------

def test_law_18_19_strict_pad_offers_only_the_legal_calls_of_the_player_in_turn() -> None:
    t = Table(strict=True).seated()
    t.calls("1S")
    east, south = t["E"], t["S"]
    offered = enabled(east.call_options)
    legal = [str(c) for c in Auction.from_calls(Seat.NORTH, ["1S"]).legal_calls]
    assert offered == legal and "X" in offered and "1H" not in offered and "XX" not in offered
    assert enabled(south.call_options) == []         # not his turn: nothing (Laws 28-32)
    with pytest.raises(PresenterError) as err:
        south.call("2S")
    assert err.value.key == "err.not_your_turn"
    with pytest.raises(PresenterError) as err:
        east.call("1H")                               # insufficient (27): not offered
    assert err.value.key == "err.illegal_call"
    for call in offered:                              # whatever is offered, the hub takes
        event = east.call(call)
        assert event == ("call", {"seat": "E", "call": call, "alert": False}) or \
            event[1].get("stop") is True


def test_law_19_36_strict_pad_never_offers_an_inadmissible_double() -> None:
    t = Table(strict=True).seated()
    t.calls("1S", "Pass")
    south = t["S"]
    offered = enabled(south.call_options)
    assert "X" not in offered and "XX" not in offered   # no double of partner's bid
    t.calls("2S")
    assert "X" in enabled(t["W"].call_options)
    t.calls("X", "Pass", "Pass")
    assert "XX" in enabled(t["S"].call_options) and "XX" not in enabled(t["E"].call_options)


def test_law_27_29_bidding_box_mode_offers_every_call_and_the_hub_alerts_the_director() -> None:
    t = Table().seated()
    t.calls("1S")
    east, west = t["E"], t["W"]
    options = {o.call: o for o in east.call_options}
    assert options["1C"].enabled and not options["1C"].proper    # insufficient, still possible
    assert options["2C"].enabled and options["2C"].proper
    assert all(o.enabled for o in west.call_options)              # out of turn, as with a box
    t.ok(east, east.call("1C"))
    assert [a.kind for a in t.alerts] == ["insufficient_bid"] and t.alerts[0].law.startswith("27")
    t.ok(west, west.call("Pass"))
    kinds = {a.kind for a in t.alerts}
    assert "call_out_of_rotation" in kinds or "insufficient_bid" in kinds


def test_annex_i_jump_bid_carries_stop_and_locks_the_next_players_pad() -> None:
    t = Table().seated()
    north, east, south = t["N"], t["E"], t["S"]
    event = north.call("2S")                                 # a jump opening
    assert event == ("call", {"seat": "N", "call": "2S", "alert": False, "stop": True})
    t.ok(north, event)
    assert east.stop_wait == pytest.approx(10.0)
    assert enabled(east.call_options) == []
    with pytest.raises(PresenterError) as err:
        east.call("Pass")
    assert err.value.key == "err.stop_wait"
    assert south.stop_wait == 0 and east.stop_banner == "STOP: jump bid by North"
    t.now += 4.0
    assert east.stop_wait == pytest.approx(6.0)
    t.now += 6.0
    assert east.stop_wait == 0 and "Pass" in enabled(east.call_options)
    assert east.stop_banner is None
    t.ok(east, east.call("Pass"))
    event = south.call("3S")                                 # not a jump: no STOP
    assert "stop" not in event[1]
    south.set_stop(True)                                     # STOP shown by hand
    assert south.call("3S")[1]["stop"] is True
    assert south.stop_armed is False


def test_annex_i_what_is_a_jump_bid() -> None:
    def jump(call: str, last: str | None) -> bool:
        return is_jump(Call.parse(call), None if last is None else Call.parse(last))
    assert not jump("1C", None) and jump("2C", None) and jump("3NT", None)
    assert not jump("2H", "1S") and jump("3H", "1S") and not jump("2S", "1S")
    assert jump("3S", "1S") and not jump("1NT", "1S") and jump("2NT", "1S")
    assert not jump("Pass", "1S") and not jump("X", "1S")


def test_law_16_40_a_self_alert_reaches_the_opponents_not_partner() -> None:
    t = Table().seated()
    north = t["N"]
    north.set_alert(True, "  5+ spades, 11-15  ")
    event = north.call("1S")
    assert event == ("call", {"seat": "N", "call": "1S", "alert": True,
                              "explanation": "5+ spades, 11-15"})
    assert north.alert_armed is False
    t.ok(north, event)
    stored = t.room.tables["A1"].snapshot()["boards"][0]["auction"][0]
    assert stored[3] is True and stored[4] == "5+ spades, 11-15"
    assert t["E"].auction_cells[0].alert and t["W"].auction_cells[0].alert
    assert north.auction_cells[0].alert
    assert not t["S"].auction_cells[0].alert                      # partner: no UI (16B)
    # Explanations, when the hub publishes them (proposed): opponents only.
    state = {**north.state, "auction": [{**north.state["auction"][0],
                                         "explanation": "5+ spades"}]}
    for seat in SEATS:
        t[seat].on_state(state)
    assert t["E"].auction_cells[0].explanation == "5+ spades"
    assert t["S"].auction_cells[0].explanation is None
    assert north.auction_cells[0].explanation is None


def test_law_25a_undo_only_before_partner_has_called() -> None:
    t = Table().seated()
    north, south = t["N"], t["S"]
    t.calls("1H")
    assert north.undo_seat == "N"
    t.ok(north, north.undo())
    assert north.state["auction"] == [] and north.turn == "N"
    t.calls("1S", "Pass")
    assert north.undo_seat == "N"                 # LHO has called, partner not yet
    t.calls("2S")
    assert north.undo_seat is None                # partner has called: too late (25A)
    with pytest.raises(PresenterError) as err:
        north.undo()
    assert err.value.key == "err.undo_late"
    assert south.undo_seat == "S"
    with pytest.raises(PresenterError) as err:
        t["W"].undo()
    assert err.value.key == "err.undo_none"


def test_law_25a_table_tablet_takes_back_the_last_call() -> None:
    t = Table([None]).seated()
    tab = t[None]
    t.calls("1S", "Pass")
    assert tab.undo_seat == "E"
    t.ok(tab, tab.undo())
    assert [e["call"] for e in tab.state["auction"]] == ["1S"] and tab.turn == "E"


def test_law_41c_the_auction_until_the_lead_is_faced_then_only_the_contract() -> None:
    t = Table().seated()
    t.calls("1S", "Pass", "4S", "X", "Pass", "Pass", "Pass")
    east, north = t["E"], t["N"]
    assert east.screen == "play" and len(east.auction_cells) == 7   # clarification period
    assert east.contract_text == "4\u2660 X by North"
    assert east.dummy_cards == [] and east.dummy == []              # not before the lead
    assert east.turn_text == "Your lead" and north.turn_text == "East to lead"
    t.ok(east, east.card("HJ"))
    for seat in SEATS:
        assert t[seat].auction_cells == []                           # 41C: cards back in box
        assert t[seat].contract_text == "4\u2660 X by North"
    assert t["W"].dummy_cards == ["S6", "S5", "S4", "S3", "H8", "H7", "H6", "D8", "D7", "D6",
                                  "C8", "C7", "C6"]
    assert north.undo_seat is None                                   # no change of call now


def test_law_41d_a_table_tablet_never_shows_a_hand_but_dummys() -> None:
    t = Table([None], strict=True).seated()
    tab = t[None]
    tab.on_seat(t.room.tables["A1"].seat_view(Seat.NORTH))       # even if it were sent one
    t.calls("1S", "Pass", "4S", "Pass", "Pass", "Pass")
    assert tab.own_cards == [] and tab.hand == []
    t.cards("HJ")
    assert tab.turn == "S" and tab.plays_dummy
    assert not any(o.enabled for o in tab.picker)                  # dummy's turn: dummy's cards
    assert enabled(tab.dummy) == ["H8", "H7", "H6"]              # and they follow suit (44)
    t.cards("H8")
    picker = {o.card: o for o in tab.picker}
    assert not picker["HJ"].enabled and not picker["H8"].enabled   # played
    assert not picker["S6"].enabled                                # in dummy
    assert picker["H5"].enabled and picker["SA"].enabled


def test_law_44_strict_mode_offers_only_cards_that_follow_suit() -> None:
    t = Table(strict=True).seated()
    t.calls("1S", "Pass", "4S", "Pass", "Pass", "Pass")
    east, west, north = t["E"], t["W"], t["N"]
    assert enabled(east.hand) == [c for c in east.own_cards]        # the lead: any card
    assert enabled(west.hand) == []                                # not his turn
    t.ok(east, east.card("H9"))
    assert north.turn_text == "Play from dummy"
    assert enabled(north.dummy) == ["H8", "H7", "H6"] and enabled(north.hand) == []
    t.ok(north, north.card("H6"))
    assert enabled(west.hand) == ["H5", "H4", "H3", "H2"]
    with pytest.raises(PresenterError) as err:
        west.card("C2")
    assert err.value.key == "err.illegal_card"
    with pytest.raises(PresenterError) as err:
        east.card("HT")
    assert err.value.key == "err.not_your_turn"


def test_law_44_57_bidding_box_mode_lets_a_card_be_played_and_the_hub_tells_the_director() -> None:
    t = Table().seated()
    t.calls("1S", "Pass", "4S", "Pass", "Pass", "Pass")
    west, east = t["W"], t["E"]
    assert "H5" in enabled(west.hand)                 # out of turn: possible, not proper
    assert not any(o.legal for o in west.hand)
    t.ok(west, west.card("H5"))                       # lead out of turn, recorded as made
    assert "lead_out_of_turn" in {a.kind for a in t.alerts}
    assert east.turn is not None


def test_law_43_dummy_does_not_play_declarer_plays_dummys_cards() -> None:
    t = Table().seated()
    t.calls("1S", "Pass", "4S", "Pass", "Pass", "Pass")
    t.cards("HJ")
    north, south = t["N"], t["S"]
    assert south.turn_text == "North plays from dummy" and t["E"].turn_text == south.turn_text
    assert south.hand and not south.plays_own_hand
    assert enabled(south.hand) == [] and south.claim_seat is None   # dummy: no claim (43A1c)
    with pytest.raises(PresenterError):
        south.card("H8")
    assert north.plays_dummy and "H8" in enabled(north.dummy)
    t.ok(north, north.card("H8"))
    assert t["W"].trick == {"E": "HJ", "S": "H8"}


# Claims --------------------------------------------------------------------------------------

def _in_play(strict: bool = False, seats: Iterable[str | None] = SEATS) -> Table:
    t = Table(seats, strict=strict).seated()
    t.calls("1S", "Pass", "4S", "Pass", "Pass", "Pass")
    t.cards("HJ", "H8", "H2", "HA")
    return t


def test_law_68_69_declarers_claim_is_answered_by_both_defenders() -> None:
    t = _in_play()
    north, east, west, south = t["N"], t["E"], t["W"], t["S"]
    assert north.claim_seat == "N" and north.remaining_tricks == 12
    with pytest.raises(PresenterError) as err:
        north.claim(13)
    assert err.value.key == "err.claim_tricks"
    event = north.claim(12, " all top tricks ")
    assert event == ("claim", {"seat": "N", "tricks": 12, "statement": "all top tricks"})
    t.ok(north, event)
    assert north.claim_seat is None and not enabled(north.hand)     # play has ceased (68D)
    assert east.claim_view is not None and east.claim_view.answer_for == ("E",)
    assert east.claim_view.text == "North claims 12 of the 12 remaining tricks"
    assert south.claim_view is not None and south.claim_view.answer_for == ()
    t.ok(east, east.claim_answer(True))
    assert east.claim_view is not None and east.claim_view.answer_for == ()
    assert west.claim_view is not None and west.claim_view.answer_for == ("W",)
    assert north.screen == "play"
    t.ok(west, west.claim_answer(True))
    assert north.screen == "result" and north.result is not None
    assert north.result.tricks == 13


def test_law_68_a_defenders_concession_is_answered_by_declarer() -> None:
    t = _in_play()
    east, north, west = t["E"], t["N"], t["W"]
    t.ok(east, east.claim(0))
    assert north.claim_view is not None and north.claim_view.answer_for == ("N",)
    assert west.claim_view is not None and west.claim_view.answer_for == ()


def test_law_68d_70_a_disputed_claim_calls_the_director() -> None:
    t = _in_play()
    north, east = t["N"], t["E"]
    t.ok(north, north.claim(12))
    t.ok(east, east.claim_answer(False))
    assert east.message is not None and "director" in east.message.text
    assert "disputed_claim" in {a.kind for a in t.alerts}
    view = north.claim_view
    assert view is not None and view.status == "disputed"
    assert north.claim_seat == "N" and north.screen == "play"       # the director rules


def test_law_68_table_tablet_collects_both_defenders_answers() -> None:
    t = _in_play(seats=[None])
    tab = t[None]
    assert tab.claim_seat == "N"
    t.ok(tab, tab.claim(12))
    view = tab.claim_view
    assert view is not None and view.answer_for == ("E", "W")
    t.ok(tab, tab.claim_answer(True, "W"))
    view = tab.claim_view
    assert view is not None and view.answer_for == ("E",)
    with pytest.raises(PresenterError):
        tab.claim_answer(True, "S")
    t.ok(tab, tab.claim_answer(True))
    assert tab.phase == "over"


# End of the board ----------------------------------------------------------------------------

def test_law_79a_result_from_the_play_confirmed_by_the_other_side_then_the_hand_record() -> None:
    t = _in_play()
    north, east, west = t["N"], t["E"], t["W"]
    assert north.hand_record == {}                                  # not before the end
    t.ok(north, north.claim(11))
    t.ok(east, east.claim_answer(True))
    t.ok(west, west.claim_answer(True))
    result = north.result
    assert result is not None and result.contract == "4S" and result.tricks == 12
    assert result.lines == ("4\u2660 by North: 12 tricks", "Made +2", "NS +480   EW -480")
    assert north.confirm_seats == () and east.confirm_seats == ("E",)
    with pytest.raises(PresenterError):
        north.confirm_result(True)
    assert east.hand_record == {} and north.hand_record == {}       # confirmation first
    t.ok(east, east.confirm_result(True))
    assert north.confirmed and west.confirm_seats == ()
    record = north.hand_record
    assert record["N"][:4] == ["SA", "SK", "SQ", "SJ"] and len(record["W"]) == 13
    north.next_board()
    assert north.screen == "board" and north.suggested_boards == [2]


def test_law_79b_disagreement_calls_the_director() -> None:
    t = _in_play(seats=[None])
    tab = t[None]
    t.ok(tab, tab.claim(12))
    t.ok(tab, tab.claim_answer(True, "E"))
    t.ok(tab, tab.claim_answer(True, "W"))
    assert tab.confirm_seats == ("E",)
    t.ok(tab, tab.confirm_result(False))
    assert tab.disagreed and tab.message is not None and "79B" in tab.message.text
    assert "result_disagrees" in {a.kind for a in t.alerts}
    assert tab.hand_record                       # answered here: the board is finished


def test_law_22_passed_out_board() -> None:
    t = Table().seated()
    t.calls("Pass", "Pass", "Pass", "Pass")
    north = t["N"]
    assert north.screen == "result"
    result = north.result
    assert result is not None and result.contract == "PASS"
    assert result.lines[0] == "Passed out"


# Replies, languages, the clock, bad input ----------------------------------------------------

def test_hub_refusals_are_said_in_the_players_language() -> None:
    t = Table(strict=True, language="fr").seated()
    north = t["N"]
    reply = t.send(t["S"], ("call", {"seat": "S", "call": "Pass"}))
    assert reply.code == "not_your_turn"
    assert t["S"].message is not None and t["S"].message.text == \
        "Refusé : c'est au tour de Nord"
    for code, language, text in (
            ("clock_skew", "en", "Refused: the tablet's clock is wrong, call the director"),
            ("illegal_play", "it", "Rifiutato: questa carta non può essere giocata "
                                   "(rispondete al colore)"),
            ("unsupported_version", "en", "Refused: the hub did not understand the tablet "
                                          "(unsupported_version), call the director")):
        north.set_language(language)
        assert north.on_reply({"type": "reject", "code": code, "reason": "x"}) == text
    assert north.on_reply({"type": "ack", "code": "duplicate"}) is None
    assert north.on_reply("not a reply") is None


def test_languages_card_and_call_letters() -> None:
    t = Table(language="fr").seated()
    t.calls("1NT")
    east = t["E"]
    assert east.auction_cells[0].label == "1SA"
    assert {o.call: o.label for o in east.call_options}["Pass"] == "Passe"
    assert [o.label for o in east.hand][:4] == ["10", "9", "8", "7"]
    assert [o.label for o in t["N"].hand][:4] == ["A", "R", "D", "V"]
    t["N"].set_language("it")
    assert [o.label for o in t["N"].hand][:4] == ["A", "R", "D", "F"]
    assert t["N"].next_language() == "fr"
    assert t["N"].turn_text == "À Est de parler"


def test_law_8_round_clock_once_the_director_starts_the_round() -> None:
    t = Table()                            # the room's round 1 started at START, 15 minutes
    north = t["N"]
    assert north.state["schedule"]["deadline"] == START + 15 * 60
    north.on_reply({"type": "ack", "code": "ok", "time": t.clock + 30.0})  # hub 30 s ahead
    t.clock = START + 15 * 60 - 30 - 125   # the tablet's own clock, 30 s behind the hub's
    assert north.clock_text == "2:05 left"
    t.clock = START + 15 * 60
    assert north.clock_text == "Time is up"
    schedule = {**north.state["schedule"], "started": None, "deadline": None}
    north.on_state({**north.state, "schedule": schedule})   # not started: no clock
    assert north.clock_text is None


def test_director_call_is_silent_and_reaches_the_director() -> None:
    t = Table().seated()
    north = t["N"]
    event = north.director_call(" revoke? ")
    assert event == ("director_call", {"seat": "N", "note": "revoke?"})
    t.ok(north, event)
    assert north.message is not None and north.message.text == "The director has been called"
    assert "director_call" in {a.kind for a in t.alerts}
    assert t["E"].message is None                # nothing shows at the other seats
    assert Table([None])[None].director_call() == ("director_call", {})


def test_bad_input_never_crashes_and_keeps_what_was_good() -> None:
    t = Table().seated()
    north = t["N"]
    good = north.state
    north.on_state("nonsense")  # type: ignore[arg-type]
    north.on_state({"table": "A2", "phase": "play"})
    assert north.state is good
    north.on_state({**good, "auction": [{"seat": "N", "call": "9Z"}, "junk",
                                        {"seat": "Q", "call": "1S"}, {"seat": "N",
                                                                       "call": "1S"}]})
    assert [c.call for c in north.auction_cells] == ["9Z", "1S"]
    assert north.turn_text
    north.on_seat({"table": "A1", "seat": "E", "board": 1, "hand": ["SA"]})
    assert "SA" in north.own_cards                   # East's view ignored, North's kept
    north.on_state({**good, "vulnerability": "?", "deal": "junk", "phase": "over"})
    assert not north.vulnerable("N") and north.hand_record == {}
    with pytest.raises(PresenterError):
        north.call("nonsense")
    with pytest.raises(PresenterError):
        north.card("Z9")
    with pytest.raises(ValueError):
        TabletPresenter("A1", seat="X")


def test_connection_status_from_the_link() -> None:
    tab = TabletPresenter("A1")
    assert tab.connection == "connecting"

    class LinkState(str):
        value = "online"

    tab.on_connection(LinkState("online"))
    assert tab.connection == "online"


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_law_17_to_22_whatever_the_strict_pad_offers_the_strict_hub_accepts(
        data: st.DataObject) -> None:
    """Property: calls picked among those offered, from the tablet in turn, are all accepted
    by a strict-mode hub, and the auction ends (Law 22)."""
    t = Table(strict=True).seated()
    for _ in range(60):
        turn = t["N"].turn
        if t["N"].phase != "auction" or turn is None:
            break
        tablet = t[turn]
        t.now += 20.0
        offered = enabled(tablet.call_options)
        assert offered and all(enabled(t[s].call_options) == [] for s in SEATS if s != turn)
        weights = ["Pass"] * 6 + offered
        call = data.draw(st.sampled_from(weights))
        t.ok(tablet, tablet.call(call))
    assert t["N"].phase in ("play", "over")


def test_law_68d_no_card_once_a_claim_stands_and_no_card_played_twice() -> None:
    t = _in_play(seats=[None])
    tab = t[None]
    assert tab.turn == "N"
    with pytest.raises(PresenterError) as err:
        tab.card("HJ")                            # the picker knows it was played
    assert err.value.key == "err.not_now"
    t.ok(tab, tab.claim(12))
    assert not any(o.enabled for o in tab.picker)  # play has ceased (68D)
    with pytest.raises(PresenterError) as err:
        tab.card("S2")
    assert err.value.key == "err.not_now"


def test_law_5_a_new_round_checkin_moves_on_with_the_table() -> None:
    """The pair of the next round checks in when the board is over; the hub then moves the
    table to that round: the tablet goes on to the board screen, not back to check-in."""
    north = TabletPresenter("A1", seat="N")
    over = {"table": "A1", "round": 1, "phase": "over", "board": 2, "dealer": "E",
            "vulnerability": "NS", "pairs": {"NS": 1, "EW": 4}}
    north.on_state(over)
    north.next_board()
    north.new_round()
    assert north.screen == "checkin"
    event = north.checkin(1)
    assert north.screen == "board"
    north.on_state({**over, "round": 2, "pairs": {"NS": 1, "EW": 6}})   # the hub moved on
    assert north.screen == "board"
    north.on_reply({"type": "ack", "code": "ok"}, {"type": event[0], "body": event[1]})
    north.on_state({"table": "A1", "round": 2, "phase": "waiting"})
    assert north.screen == "board"
    north.on_state({"table": "A1", "round": 3, "phase": "waiting"})    # the director's round
    assert north.screen == "checkin"


def test_law_8a_end_of_round_says_where_pairs_and_boards_go_next() -> None:
    """Law 8A: at the end of the round the players are told where to go, as the movement
    says (Mitchell: North-South stay, East-West up a table, boards down a table)."""
    t = Table().seated(board=1)
    north = t["N"]
    assert north.next_text is None              # the round has only started
    t.calls("Pass", "Pass", "Pass", "Pass")
    t.ok(north, north.board(2))
    t.calls("Pass", "Pass", "Pass", "Pass")
    assert north.phase == "over" and north.suggested_boards == []
    text = north.next_text
    assert text is not None
    assert "pair 1 to table A1 North-South" in text and "pair 4 to table A2 East-West" in text
    assert "boards to table A3" in text


# Offline: the table plays on, the hub's state takes over (tablet/offline.py) -----------------

class Outbox:
    """What the link keeps for one tablet: events entered while the hub is out of reach,
    then delivered in order as the link does it (the hub publishes its state, then its
    reply; the acknowledged event leaves the outbox)."""

    def __init__(self, table: Table, tablet: TabletPresenter):
        self.table, self.tablet = table, tablet
        self.device = f"A1-{tablet.seat or 'tab'}"
        self.box: list[Envelope] = []

    def enter(self, event: tuple[str, dict[str, Any]]) -> Envelope:
        t = self.table
        t.seq[self.device] = n = t.seq.get(self.device, 0) + 1
        t.clock += 1.0
        env = Envelope(f"{self.device}-{n:06d}", self.device, n, t.clock, *event)
        self.box.append(env)
        self.tablet.set_pending(self.box)
        return env

    def deliver(self) -> list[Reply]:
        t, tablet, replies = self.table, self.tablet, []
        while self.box:
            env = self.box[0]
            t.clock += 1.0
            reply = t.room.apply("A1", env, t.clock).reply
            t.publish()          # the state first: the event is in it, still pending here
            hub = tablet.hub_state
            assert footprint(tablet.state) == footprint(
                project(hub, tablet._hub_view or None, self.box[1:] if reply.status == "ack"
                        else self.box)), "applied twice"
            tablet.on_reply(json.loads(reply.to_json()), env)
            self.box.pop(0)
            tablet.set_pending(self.box)
            replies.append(reply)
        return replies


def test_offline_a_table_tablet_plays_on_then_the_hubs_state_replaces_its_own() -> None:
    """Laws 41A, 41C, 44: offline, each call moves the turn on and shows as pending, the
    last pass makes the contract, the opening lead faces dummy's seat and puts the auction
    away; dummy's cards, not known yet, come from the card picker. Back online, the hub's
    state is what the tablet showed, confirmed."""
    t = Table([None]).seated()
    tab = t[None]
    box = Outbox(t, tab)
    box.enter(tab.call("1S"))
    assert tab.turn == "E" and tab.turn_text == "East to call" and tab.pending_count == 1
    assert [(c.call, c.pending) for c in tab.auction_cells] == [("1S", True)]
    assert tab.hub_state["turn"] == "N" and tab.hub_state["auction"] == []
    for call in ("Pass", "4S", "Pass", "Pass", "Pass"):
        t.now += 20.0
        box.enter(tab.call(call))
    assert tab.screen == "play" and tab.contract_text == "4♠ by North" and tab.turn == "E"
    box.enter(tab.card("HJ"))                                   # the opening lead
    assert tab.trick == {"E": "HJ"} and tab.trick_pending == {"E"} and tab.turn == "S"
    assert tab.auction_cells == [] and tab.undo_seat is None    # 41C
    assert not tab.dummy_known and tab.dummy == []
    offered = enabled(tab.picker)                               # dummy's card, by the picker
    assert "HJ" not in offered and len(offered) == 51
    box.enter(tab.card("H8"))
    assert tab.trick == {"E": "HJ", "S": "H8"} and tab.turn == "W" and tab.pending_count == 8
    shown = footprint(tab.state)
    replies = box.deliver()
    assert [r.code for r in replies] == ["ok"] * 8
    assert tab.pending_count == 0 and tab.state == tab.hub_state
    assert footprint(tab.state) == shown and tab.trick_pending == set()
    assert tab.dummy_known and "H8" not in tab.dummy_cards and len(tab.dummy_cards) == 12
    assert enabled(tab.picker) and tab.turn == "W"


def test_offline_claim_and_result_are_marked_pending_until_the_hub_confirms() -> None:
    """68-69, 79A: a claim and both defenders' accepts entered offline end the board with
    a result worked out here, marked pending; the hub's is the same."""
    t = _in_play(seats=[None])
    t.room.double_dummy = DoubleDummyTables(enabled=False)   # no traveller needed here
    tab = t[None]
    box = Outbox(t, tab)
    box.enter(tab.claim(12))
    claim = tab.claim_view
    assert claim is not None and claim.pending and claim.answer_for == ("E", "W")
    box.enter(tab.claim_answer(True, "E"))
    box.enter(tab.claim_answer(True, "W"))
    result = tab.result
    assert tab.screen == "result" and result is not None and result.pending
    assert result.tricks == 13 and result.contract == "4S"
    box.deliver()
    confirmed = tab.result
    assert confirmed is not None and not confirmed.pending
    assert (confirmed.tricks, confirmed.score_ns) == (result.tricks, result.score_ns)


def test_offline_seat_tablets_know_only_their_own_pending_events() -> None:
    """One tablet per seat: North's call made offline is North's tablet's only; East's
    tablet sees it, and may call, once the hub has it (strict table)."""
    t = Table(strict=True).seated()
    north, east = t["N"], t["E"]
    box = Outbox(t, north)
    box.enter(north.call("1S"))
    assert north.turn == "E" and east.turn == "N"
    assert enabled(east.call_options) == [] and enabled(north.call_options) == []
    box.deliver()
    assert east.turn == "E" and enabled(east.call_options)


def test_offline_a_seat_tablet_plays_its_own_card_and_follows_suit_law_44() -> None:
    """East's card played offline leaves East's hand and lies in the trick, pending; the
    other tablets see it once the hub has it. Dummy's tablet knows dummy's cards."""
    t = _in_play(strict=True)
    north, east = t["N"], t["E"]
    t.ok(north, north.card("SA"))                # North leads trick 2
    box = Outbox(t, east)
    assert "H9" not in enabled(east.hand)        # East holds spades: 44C
    box.enter(east.card("ST"))
    assert "ST" not in east.own_cards and east.trick == {"N": "SA", "E": "ST"}
    assert east.trick_pending == {"E"} and north.trick == {"N": "SA"}
    assert enabled(east.hand) == [] and east.turn == "S"
    box.deliver()
    assert north.trick == east.trick == {"N": "SA", "E": "ST"} and east.trick_pending == set()


def test_offline_a_refused_event_is_dropped_and_the_screen_resynchronises() -> None:
    """Another device called for North first: the tablet's pending 1S by North is refused
    (strict, not_your_turn) and dropped, its message shown; East's pass behind it goes on."""
    t = Table([None], strict=True).seated()
    tab = t[None]
    box = Outbox(t, tab)
    box.enter(tab.call("1S"))
    box.enter(tab.call("Pass"))
    t.clock += 1.0                                              # North's own tablet
    other = Envelope("A1-N-000001", "A1-N", 1, t.clock, "call", {"seat": "N", "call": "1C"})
    assert t.room.apply("A1", other, t.clock).reply.status == "ack"
    t.publish()
    assert [c.call for c in tab.auction_cells] == ["1C"]        # 1S cannot be shown now
    assert tab.pending_count == 2 and tab.pending_waiting == 2
    assert str(tab.pending_stopped).startswith("call: not_your_turn")
    replies = box.deliver()
    assert [(r.status, r.code) for r in replies] == [("reject", "not_your_turn"),
                                                     ("ack", "ok")]
    assert tab.message is not None and tab.message.level == "error"
    assert [(c.seat, c.call, c.pending) for c in tab.auction_cells] == [
        ("N", "1C", False), ("E", "Pass", False)]
    assert tab.state == tab.hub_state and tab.pending_count == 0


# Law 66A: the trick just quitted ---------------------------------------------------------

def test_law_66a_quitted_trick_shown_until_the_players_side_plays_to_the_next() -> None:
    t = _in_play()                                  # trick 1: E HJ, S H8, W H2, N HA
    for tablet in t.tablets.values():
        assert tablet.last_trick == {"number": 1, "winner": "N", "pending": set(),
                                     "cards": {"E": "HJ", "S": "H8", "W": "H2", "N": "HA"}}
        assert tablet.last_trick_allowed            # nobody has led to trick 2 yet
    t.cards("SA")                                   # North (NS) leads to trick 2
    assert not t["N"].last_trick_allowed and not t["S"].last_trick_allowed
    assert t["E"].last_trick_allowed and t["W"].last_trick_allowed
    t.cards(t["E"].own_cards[0])                    # East: now both sides have played
    assert not any(tablet.last_trick_allowed for tablet in t.tablets.values())
    assert t["W"].last_trick is not None            # still known; only no longer shown


def test_law_66a_table_tablet_may_show_it_until_both_sides_have_played() -> None:
    t = _in_play(seats=[None])
    tablet = t[None]
    assert tablet.last_trick is not None and tablet.last_trick_allowed
    t.cards("SA")
    assert tablet.last_trick_allowed                # East-West have not played yet
    t.cards(_any_card_of(t, "E"))
    assert not tablet.last_trick_allowed


def _any_card_of(t: Table, seat: str) -> str:
    """A card East still holds (from the hub's deal: a table tablet holds no hand)."""
    table = t.room.tables["A1"]
    play = table.sitting.board.play
    return str(next(iter(play.remaining(Seat(SEATS.index(seat))))))
