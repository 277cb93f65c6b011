"""The tablet's presenter (tablet/presenter.py) and its table model (tablet/model.py),
without a window, fed by a real hub table (tests/tablet/tables.py): the hub's replies in
the players' language, the round clock, the director call, bad input, and the table playing
on offline (tablet/offline.py) until the hub's state takes over."""

from __future__ import annotations

import json
from typing import Any

import pytest

from hub.traveller import DoubleDummyTables
from tablet.offline import footprint, project
from tablet.presenter import TabletPresenter
from tablet.presenters import PresenterError
from tests.hub.test_table import START
from tests.tablet.tables import Table, enabled, in_play
from wire.protocol import Envelope, Reply


def test_hub_refusals_are_said_in_the_players_language() -> None:
    t = Table(strict=True, language="fr").seated()
    north = t["N"]
    reply = t.send(t["S"], ("call", {"seat": "S", "call": "Pass"}))
    assert reply.code == "not_your_turn"
    assert t["S"].model.message is not None and t["S"].model.message.text == \
        "Refusé : c'est à Nord de déclarer"     # the hub's reason (deny.turn_to_call)
    for code, language, text in (
            ("clock_skew", "en", "Refused: the tablet's clock is wrong, call the director"),
            ("illegal_play", "it", "Rifiutato: questa carta non può essere giocata "
                                   "(rispondete al colore)"),
            ("unsupported_version", "en", "Refused: the hub did not understand the tablet "
                                          "(unsupported_version), call the director")):
        north.model.set_language(language)
        assert north.on_reply({"type": "reject", "code": code, "reason": "x"}) == text
    # The hub's reason as a message, in the player's language, its values in its notation;
    # a key the tablet does not know: its own text for the code.
    north.model.set_language("it")
    said = north.on_reply({"type": "reject", "code": "illegal_call", "reason": "x", "text": {
        "key": "deny.insufficient", "values": {"call": "1NT", "last_call": "2C",
                                               "last_seat": "W"}}})
    assert said == "Rifiutato: dichiarazione insufficiente 1SA dopo 2\u2663 di Ovest"
    unknown = {"key": "deny.from_a_newer_hub", "values": {}}
    assert north.on_reply({"type": "reject", "code": "wrong_state", "reason": "x",
                           "text": unknown}) == (
        "Rifiutato: non possibile in questa fase della smazzata")
    assert north.on_reply({"type": "ack", "code": "duplicate"}) is None
    assert north.on_reply("not a reply") is None


def test_languages_card_and_call_letters() -> None:
    t = Table(language="fr").seated()
    t.calls("1NT")
    east = t["E"]
    assert east.auction.cells[0].label == "1SA"
    assert {o.call: o.label for o in east.auction.call_options}["Pass"] == "Passe"
    assert [o.label for o in east.auction.hand][:4] == ["10", "9", "8", "7"]
    assert [o.label for o in t["N"].auction.hand][:4] == ["A", "R", "D", "V"]
    t["N"].model.set_language("it")
    assert [o.label for o in t["N"].auction.hand][:4] == ["A", "R", "D", "F"]
    # the offered languages, in turn: English first, then by code
    assert [t["N"].model.next_language() for _ in range(7)] == \
        ["nl", "pl", "en", "de", "es", "fr", "it"]
    t["N"].model.set_language("nl")
    assert [o.label for o in t["N"].auction.hand][:4] == ["A", "H", "V", "B"]
    t["N"].model.set_language("fr")
    assert t["N"].auction.turn_text == "À Est de parler"


def test_law_8_round_clock_once_the_director_starts_the_round() -> None:
    t = Table()                            # the room's round 1 started at START, 15 minutes
    north = t["N"]
    assert north.model.schedule is not None
    assert north.model.schedule.deadline == START + 15 * 60
    north.on_reply({"type": "ack", "code": "ok", "time": t.clock + 30.0})  # hub 30 s ahead
    t.clock = START + 15 * 60 - 30 - 125   # the tablet's own clock, 30 s behind the hub's
    assert north.clock_text == "2:05 left"
    t.clock = START + 15 * 60
    assert north.clock_text == "Time is up"
    assert north.model.state is not None
    state = north.model.state.to_builtins()
    state["schedule"].update(started=None, deadline=None)
    north.on_state(state)                    # not started: no clock
    assert north.clock_text is None


def test_director_call_is_silent_and_reaches_the_director() -> None:
    t = Table().seated()
    north = t["N"]
    event = north.director_call(" revoke? ")
    assert event == ("director_call", {"seat": "N", "note": "revoke?"})
    t.ok(north, event)
    assert north.model.message is not None
    assert north.model.message.text == "The director has been called"
    assert "director_call" in {a.kind for a in t.alerts}
    assert t["E"].model.message is None                # nothing shows at the other seats
    assert Table([None])[None].director_call() == ("director_call", {})


def test_bad_input_never_crashes_and_keeps_what_was_good() -> None:
    t = Table().seated()
    north = t["N"]
    good = north.model.state
    assert good is not None
    north.on_state("nonsense")
    north.on_state("[" * 100_000 + "]" * 100_000)      # deeper than any view: dropped
    deep: list[Any] = []
    for _ in range(100_000):
        deep = [deep]
    north.on_state({**good.to_builtins(), "pairs": deep})
    north.on_state({"table": "A2", "phase": "play"})
    # A malformed view from the network is dropped whole (logged): what was good stays.
    north.on_state({**good.to_builtins(), "auction": [
        {"seat": "N", "call": "9Z", "alert": False, "status": "made"}, "junk",
        {"seat": "Q", "call": "1S", "alert": False, "status": "made"}]})
    assert north.model.state is good
    # A call the tablet does not understand in a well-formed view is shown, and skipped.
    north.on_state({**good.to_builtins(), "auction": [
        {"seat": "N", "call": "9Z", "alert": False, "status": "made"},
        {"seat": "N", "call": "1S", "alert": False, "status": "made"}]})
    assert [c.call for c in north.auction.cells] == ["9Z", "1S"]
    assert north.auction.turn_text
    north.on_seat({"table": "A1", "seat": "E", "board": 1, "hand": ["SA"]})
    assert "SA" in north.model.own_cards                   # East's view ignored, North's kept
    north.on_state({**good.to_builtins(), "vulnerability": "?", "deal": "junk",
                    "phase": "over"})
    assert not north.model.vulnerable("N") and north.result.hand_record == {}
    with pytest.raises(PresenterError):
        north.auction.call("nonsense")
    with pytest.raises(PresenterError):
        north.play.card("Z9")
    with pytest.raises(ValueError):
        TabletPresenter("A1", seat="X")


def test_connection_status_from_the_link() -> None:
    tab = TabletPresenter("A1")
    assert tab.model.connection == "connecting"

    class LinkState(str):
        value = "online"

    tab.on_connection(LinkState("online"))
    assert tab.model.connection == "online"


class Outbox:
    """What the link keeps for one tablet: events entered while the hub is out of reach,
    then delivered in order as the link does it (the hub publishes its state, then its
    reply; the acknowledged event leaves the outbox)."""

    def __init__(self, table: Table, tablet: TabletPresenter):
        self.table, self.tablet = table, tablet
        self.device = f"A1-{tablet.model.seat or 'tab'}"
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
            hub = tablet.model.hub_state
            assert footprint(tablet.model.state) == footprint(
                project(hub, tablet.model.hub_view, self.box[1:] if reply.status == "ack"
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
    box.enter(tab.auction.call("1S"))
    assert tab.model.turn == "E" and tab.auction.turn_text == "East to call"
    assert tab.model.pending_count == 1
    assert [(c.call, c.pending) for c in tab.auction.cells] == [("1S", True)]
    assert tab.model.hub_state is not None
    assert tab.model.hub_state.turn == "N" and tab.model.hub_state.auction == []
    for call in ("Pass", "4S", "Pass", "Pass", "Pass"):
        t.now += 20.0
        box.enter(tab.auction.call(call))
    assert tab.screen == "play" and tab.model.contract_text == "4♠ by North"
    assert tab.model.turn == "E"
    box.enter(tab.play.card("HJ"))                                   # the opening lead
    assert tab.play.trick == {"E": "HJ"} and tab.play.trick_pending == {"E"}
    assert tab.model.turn == "S"
    assert tab.play.auction_cells == [] and tab.auction.undo_seat is None    # 41C
    assert not tab.model.dummy_known and tab.play.dummy == []
    offered = enabled(tab.play.picker)                               # dummy's card, by the picker
    assert "HJ" not in offered and len(offered) == 51
    box.enter(tab.play.card("H8"))
    assert tab.play.trick == {"E": "HJ", "S": "H8"} and tab.model.turn == "W"
    assert tab.model.pending_count == 8
    shown = footprint(tab.model.state)
    replies = box.deliver()
    assert [r.code for r in replies] == ["ok"] * 8
    assert tab.model.pending_count == 0 and tab.model.state == tab.model.hub_state
    assert footprint(tab.model.state) == shown and tab.play.trick_pending == set()
    assert tab.model.dummy_known and "H8" not in tab.model.dummy_cards
    assert len(tab.model.dummy_cards) == 12
    assert enabled(tab.play.picker) and tab.model.turn == "W"


def test_offline_claim_and_result_are_marked_pending_until_the_hub_confirms() -> None:
    """68-69, 79A: a claim and both defenders' accepts entered offline end the board with
    a result worked out here, marked pending; the hub's is the same."""
    t = in_play(seats=[None])
    t.room.double_dummy = DoubleDummyTables(enabled=False)   # no traveller needed here
    tab = t[None]
    box = Outbox(t, tab)
    box.enter(tab.play.claim(12))
    claim = tab.play.claim_view
    assert claim is not None and claim.pending and claim.answer_for == ("E", "W")
    box.enter(tab.play.claim_answer(True, "E"))
    box.enter(tab.play.claim_answer(True, "W"))
    result = tab.result.view
    assert tab.screen == "result" and result is not None and result.pending
    assert result.tricks == 13 and result.contract == "4S"
    box.deliver()
    confirmed = tab.result.view
    assert confirmed is not None and not confirmed.pending
    assert (confirmed.tricks, confirmed.score_ns) == (result.tricks, result.score_ns)


def test_offline_seat_tablets_know_only_their_own_pending_events() -> None:
    """One tablet per seat: North's call made offline is North's tablet's only; East's
    tablet sees it, and may call, once the hub has it (strict table)."""
    t = Table(strict=True).seated()
    north, east = t["N"], t["E"]
    box = Outbox(t, north)
    box.enter(north.auction.call("1S"))
    assert north.model.turn == "E" and east.model.turn == "N"
    assert enabled(east.auction.call_options) == [] and enabled(north.auction.call_options) == []
    box.deliver()
    assert east.model.turn == "E" and enabled(east.auction.call_options)


def test_offline_a_seat_tablet_plays_its_own_card_and_follows_suit_law_44() -> None:
    """East's card played offline leaves East's hand and lies in the trick, pending; the
    other tablets see it once the hub has it. Dummy's tablet knows dummy's cards."""
    t = in_play(strict=True)
    north, east = t["N"], t["E"]
    t.ok(north, north.play.card("SA"))                # North leads trick 2
    box = Outbox(t, east)
    assert "H9" not in enabled(east.play.hand)        # East holds spades: 44C
    box.enter(east.play.card("ST"))
    assert "ST" not in east.model.own_cards and east.play.trick == {"N": "SA", "E": "ST"}
    assert east.play.trick_pending == {"E"} and north.play.trick == {"N": "SA"}
    assert enabled(east.play.hand) == [] and east.model.turn == "S"
    box.deliver()
    assert north.play.trick == east.play.trick == {"N": "SA", "E": "ST"}
    assert east.play.trick_pending == set()


def test_offline_a_refused_event_is_dropped_and_the_screen_resynchronises() -> None:
    """Another device called for North first: the tablet's pending 1S by North is refused
    (strict, not_your_turn) and dropped, its message shown; East's pass behind it goes on."""
    t = Table([None], strict=True).seated()
    tab = t[None]
    box = Outbox(t, tab)
    box.enter(tab.auction.call("1S"))
    box.enter(tab.auction.call("Pass"))
    t.clock += 1.0                                              # North's own tablet
    other = Envelope("A1-N-000001", "A1-N", 1, t.clock, "call", {"seat": "N", "call": "1C"})
    assert t.room.apply("A1", other, t.clock).reply.status == "ack"
    t.publish()
    assert [c.call for c in tab.auction.cells] == ["1C"]        # 1S cannot be shown now
    assert tab.model.pending_count == 2 and tab.model.pending_waiting == 2
    assert str(tab.model.pending_stopped).startswith("call: not_your_turn")
    replies = box.deliver()
    assert [(r.status, r.code) for r in replies] == [("reject", "not_your_turn"),
                                                     ("ack", "ok")]
    assert tab.model.message is not None and tab.model.message.level == "error"
    assert [(c.seat, c.call, c.pending) for c in tab.auction.cells] == [
        ("N", "1C", False), ("E", "Pass", False)]
    assert tab.model.state == tab.model.hub_state and tab.model.pending_count == 0


def test_a_refusal_then_an_ack_of_the_same_event_clears_the_refusal_shown() -> None:
    """A delayed copy refused, another accepted (the link reports the ack after the refusal:
    wire.link): the screen never keeps showing a refusal for an event the hub logged."""
    presenter = TabletPresenter("A1")
    env = Envelope("A1-tab-x-000004", "A1-tab", 4, 100.0, "call", {"seat": "N", "call": "1C"})
    other = Envelope("A1-tab-x-000005", "A1-tab", 5, 101.0, "call", {"seat": "E", "call": "X"})
    assert presenter.on_reply(Reply(env.id, 4, "reject", "clock_skew", "late", 200.0), env)
    assert presenter.model.message is not None
    assert presenter.on_reply(Reply(other.id, 5, "ack", "ok", "", 201.0), other) is None
    assert presenter.model.message is not None        # another event's ack: still shown
    assert presenter.on_reply(Reply(env.id, 4, "ack", "duplicate", "", 202.0), env) is None
    assert presenter.model.message is None
