"""Dealing machines at the hub (hub/dealing.py): each dealt board checked against the hand
record, the director alerted before the board goes out (Laws 6D1, 87), bad input refused,
the log replayed; then over a real broker."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from bridgecore.cards import Card, Seat
from bridgecore.deal import Deal
from bridgecore.dealcheck import check_dealt
from hub.alerts import Alert
from hub.log_records import Record
from hub.room import Room, Section
from hub.service import HubRunner
from hub.texts import card_text, render
from tenace.sim.observer import Observer
from tests.hub.test_service import MitchellSetup, hub_on
from tests.hub.test_table import DEALS, MOVEMENT
from wire.mqtt import MqttClient
from wire.protocol import (
    DEALER_EVENT_TYPES,
    Envelope,
    ProtocolError,
    Reply,
    parse_topic,
    topic_dealer_event,
    topic_dealer_reply,
    topic_dealer_status,
)

N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST


def pockets(deal: Deal) -> dict[str, list[str]]:
    return {seat.letter: [str(c) for c in deal[seat]] for seat in (N, E, S, W)}


class Machine:
    """A dealing machine's bridge as the hub sees it: envelopes with increasing seq."""

    def __init__(self, room: Room, device: str = "dealer-1"):
        self.room = room
        self.device = device
        self.seq = 0
        self.sent: list[tuple[Envelope, float]] = []

    def envelope(self, type: str, **body: Any) -> Envelope:
        self.seq += 1
        return Envelope(f"{self.device}-{self.seq}", self.device, self.seq, time.time(), type,
                        body)

    def send(self, env: Envelope) -> tuple[Reply, list[Alert]]:
        now = time.time()
        reply, alerts = self.room.dealing.apply(self.device, env, now)
        if reply.status == "ack" and reply.code == "ok":
            self.sent.append((env, now))
        return reply, alerts

    def dealt(self, board: int, dealt: dict[str, list[str]], **extra: Any
              ) -> tuple[Reply, list[Alert]]:
        return self.send(self.envelope("dealt", board=board, pockets=dealt, **extra))


def room() -> Room:
    return Room(Section("A", MOVEMENT), DEALS)


def moved(deal: Deal, card: Card, to: Seat) -> dict[str, list[str]]:
    out = pockets(deal)
    owner = deal.owner(card)
    assert owner is not None
    out[owner.letter].remove(str(card))
    out[to.letter].append(str(card))
    return out


def test_a_board_dealt_as_the_hand_record_raises_nothing() -> None:
    machine = Machine(room())
    reply, alerts = machine.dealt(2, pockets(DEALS[2]))
    assert (reply.status, reply.code, alerts) == ("ack", "ok", [])
    assert machine.room.dealing.snapshot()["dealer-1"]["boards"] == {"2/1": True}


def test_law_6d1_misdealt_board_alert_names_pockets_cards_and_the_redeal() -> None:
    """Law 6D1: a board dealt incorrectly, found before the auction, is redealt; the alert
    says which pocket lacks which card and which holds whose card, and proposes it (87 for a
    copy already played)."""
    deal = DEALS[3]
    card = deal[W].cards[0]
    machine = Machine(room())
    reply, alerts = machine.dealt(3, moved(deal, card, N))
    assert reply.status == "ack" and len(alerts) == 1
    alert = alerts[0]
    assert (alert.kind, alert.law, alert.table, alert.board) == ("misdealt_board", "6D1",
                                                                  "dealer-1", 3)
    assert alert.seats == ("N", "W") and alert.round is None
    assert alert.facts["hold"] is True
    assert alert.facts["pockets"]["N"]["extra"] == [str(card)]
    assert alert.facts["pockets"]["N"]["count"] == 14
    assert alert.facts["pockets"]["W"]["missing"] == [str(card)]
    assert f"North holds {card_text(str(card), 'en')} (West's)" in alert.detail
    assert "West lacks" in alert.detail and "redeal" in alert.detail
    assert [o["law"] for o in alert.options] == ["6D1", "87"]
    assert alert.evidence["record"] == deal.pbn()
    assert alert.evidence["dealt"]["N"][-1] == str(card)


def test_law_6d1_the_pocket_report_is_in_the_directors_language_with_its_card_letters(
        ) -> None:
    """The pockets' report is a message (bridgecore.dealcheck ``texts``): the Italian
    director reads which pocket lacks which cards with the Italian Laws' letters (R D F for
    K Q J) and seats (Nord, Ovest), the French one with R D V; no English word is left."""
    deal = DEALS[3]
    honours = [c for c in deal[W].cards if str(c)[1] in "KQJ"]
    assert honours, "the West hand of board 3 has an honour"
    card = honours[0]
    machine = Machine(room())
    _, alerts = machine.dealt(3, moved(deal, card, N))
    alert = alerts[0]
    italian = render(alert.text, "it")
    letter = {"K": "R", "Q": "D", "J": "F"}[str(card)[1]]
    suit = card_text(str(card), "en")[0]
    assert f"la tasca Nord contiene {suit}{letter} (di Ovest)" in italian, italian
    assert f"nella tasca Ovest mancano {suit}{letter}" in italian, italian
    assert "carte nella tasca Nord: 14" in italian and "Legge 6D1" in italian, italian
    assert not any(w in italian for w in ("holds", "lacks", "North", "West", "pocket")), italian
    french = render(alert.text, "fr")
    valet = {"K": "R", "Q": "D", "J": "V"}[str(card)[1]]
    assert f"la case Nord contient {suit}{valet} (de Ouest)" in french, french
    assert "il manque" in french and "Loi 6D1" in french, french


def test_law_6d1_the_board_dealt_again_correctly_updates_the_same_alert() -> None:
    deal = DEALS[3]
    machine = Machine(room())
    _, first = machine.dealt(3, moved(deal, deal[E].cards[4], S))
    _, again = machine.dealt(3, pockets(deal))
    assert len(again) == 1 and again[0].id == first[0].id and again[0].version == 2
    assert again[0].facts["hold"] is False and again[0].facts["redealt"] is True
    assert machine.room.dealing.snapshot()["dealer-1"]["boards"] == {"3/1": True}
    # A second copy that differs is its own alert.
    _, copy2 = machine.dealt(3, moved(deal, deal[E].cards[0], W), copy=2)
    assert len(copy2) == 1 and copy2[0].id != first[0].id
    assert "copy 2" in copy2[0].detail


def test_law_1_pack_problems_card_missing_read_twice_and_unread() -> None:
    """A card in no pocket and another read twice: the pack is not 52 distinct cards (Law 1)
    as well as a misdeal; a card the machine could not read is counted in its pocket."""
    deal = DEALS[4]
    dealt = pockets(deal)
    gone = dealt["E"].pop()
    dealt["S"].append(dealt["N"][0])
    dealt["W"][5] = "?"
    machine = Machine(room())
    _, alerts = machine.dealt(4, dealt, errors=[{"code": "misread", "pocket": "W"},
                                                {"code": "missing_card", "pocket": "E",
                                                 "card": gone}])
    alert = alerts[0]
    assert alert.facts["absent"] == sorted([gone, str(deal[W].cards[5])],
                                           key=lambda t: Card.parse(t).index)
    assert alert.facts["twice"] == [dealt["N"][0]]
    assert alert.facts["pockets"]["W"]["unread"] == 1
    assert alert.facts["machine_errors"][1] == {"code": "missing_card", "pocket": "E",
                                               "card": gone}
    assert "1" in [o["law"] for o in alert.options]
    assert "the machine reported misread in W, missing_card" in alert.detail


def test_law_87_hands_in_the_wrong_pockets_are_named() -> None:
    deal = DEALS[5]
    turned = pockets(deal.rotated(1))
    check = check_dealt(5, deal, {Seat.parse(s): [Card.parse(c) for c in cs]
                                  for s, cs in turned.items()})
    assert not check.ok and [p.holds for p in check.pockets] == [W, N, E, S]
    assert check.describe().startswith("N holds W's hand; E holds N's hand")
    _, alerts = Machine(room()).dealt(5, turned)
    assert alerts[0].seats == ("N", "E", "S", "W")


def test_law_6_machine_fault_is_alerted() -> None:
    machine = Machine(room())
    reply, alerts = machine.send(machine.envelope("dealer_fault", code="silent",
                                                  detail="no answer to STATUS_QUERY"))
    assert reply.status == "ack"
    assert (alerts[0].kind, alerts[0].law, alerts[0].board) == ("dealer_fault", "6", None)
    assert "silent" in alerts[0].detail and alerts[0].options[0]["law"] == "6"


@pytest.mark.parametrize(("body", "code", "words"), [
    ({"board": 2, "pockets": {"N": [], "E": []}}, "malformed", "exactly N, E, S and W"),
    ({"board": 2, "pockets": {**pockets(DEALS[2]), "N": ["SA", "ZZ"]}}, "malformed",
     "N[1] 'ZZ' is not a card"),
    ({"board": 2, "pockets": {**pockets(DEALS[2]), "E": "SA"}}, "malformed", "pocket E"),
    ({"board": 0, "pockets": pockets(DEALS[2])}, "malformed", "count from 1"),
    ({"board": 99, "pockets": pockets(DEALS[2])}, "unknown_board", "no hand record"),
    ({"board": 2, "pockets": pockets(DEALS[2]), "errors": [{"pocket": "N"}]}, "malformed",
     "errors[0]"),
])
def test_bad_dealt_events_are_refused_with_a_reason(body: dict[str, Any], code: str,
                                                    words: str) -> None:
    machine = Machine(room())
    reply, alerts = machine.send(machine.envelope("dealt", **body))
    assert (reply.status, reply.code, alerts) == ("reject", code, [])
    assert words in reply.reason
    assert machine.room.dealing.snapshot() == {}


def test_duplicates_replays_and_clock_skew() -> None:
    machine = Machine(room())
    env = machine.envelope("dealt", board=2, pockets=pockets(DEALS[2]))
    assert machine.send(env)[0].code == "ok"
    assert machine.send(env)[0].code == "duplicate"
    older = Envelope("other-id", "dealer-1", env.seq, time.time(), "dealt", env.body)
    assert machine.send(older)[0].code == "out_of_order"
    skewed = Envelope("late", "dealer-1", 99, time.time() - 3600, "dealt", env.body)
    assert machine.send(skewed)[0].code == "clock_skew"


def test_dealer_envelopes_and_topics() -> None:
    assert parse_topic(topic_dealer_event("dealer-1")).kind == "dealer_ev"
    assert parse_topic(topic_dealer_reply("dealer-1")).device == "dealer-1"
    assert parse_topic(topic_dealer_status("d.2")).kind == "dealer_status"
    with pytest.raises(ProtocolError):
        parse_topic("tenace/v1/dealer/x/y")
    call = Envelope("i", "dealer-1", 1, 1.0, "call", {"seat": "N", "call": "Pass"}).to_json()
    with pytest.raises(ProtocolError) as err:
        Envelope.from_json(call, DEALER_EVENT_TYPES)
    assert err.value.code == "unknown_type"
    dealt = Envelope("i", "d", 1, 1.0, "dealt", {"board": 1, "pockets": {}}).to_json()
    with pytest.raises(ProtocolError) as err:
        Envelope.from_json(dealt)     # not a table's event
    assert err.value.code == "unknown_type"


def test_the_room_rebuilt_from_the_log_has_the_same_dealing_alerts() -> None:
    machine = Machine(room())
    deal = DEALS[6]
    machine.dealt(6, moved(deal, deal[N].cards[0], E))
    machine.dealt(2, pockets(DEALS[2]))
    machine.send(machine.envelope("dealer_fault", code="jam", board=1))
    records = [Record.from_envelope(env, None, t) for env, t in machine.sent]
    rebuilt = room().rebuild(records)
    assert rebuilt.snapshot() == machine.room.snapshot()
    assert [a.kind for a in rebuilt.alerts] == ["misdealt_board", "dealer_fault"]


# Over a real broker --------------------------------------------------------------------

def test_law_6d1_dealer_event_over_mqtt_alerts_the_director(mosquitto: Any,
                                                             tmp_path: Path) -> None:
    """A dealing machine's bridge publishes a misdealt board: the hub acknowledges it, logs
    it, and the director's alert is published; a refused event gets its reason."""
    url = mosquitto.url
    hub = hub_on(url, tmp_path)
    with HubRunner(hub) as running, Observer(url) as director:
        bridge = MqttClient(url, "dealer-1", clean_session=True, start=False)
        bridge.subscribe(topic_dealer_reply("dealer-1"), 1, wait=False)
        bridge.start().wait_connected()
        deal = DEALS[1]
        good = Envelope("d-1", "dealer-1", 1, time.time(), "dealt",
                        {"board": 1, "pockets": moved(deal, deal[S].cards[2], E)})
        bad = Envelope("d-2", "dealer-1", 2, time.time(), "dealt",
                       {"board": 42, "pockets": pockets(deal)})
        for env in (good, bad):
            bridge.publish(topic_dealer_event("dealer-1"), env.to_json(), 1)
        replies = [Reply.from_json(bridge.messages.get(timeout=10).payload) for _ in range(2)]
        assert [(r.ref, r.status, r.code) for r in replies] == [
            ("d-1", "ack", "ok"), ("d-2", "reject", "unknown_board")]
        director.settle()
        alerts = [a for a in director.alert_list() if a["kind"] == "misdealt_board"]
        assert len(alerts) == 1 and alerts[0]["board"] == 1 and alerts[0]["law"] == "6D1"
        assert alerts[0]["facts"]["pockets"]["E"]["extra"] == [str(deal[S].cards[2])]
        bridge.close()
        snapshot = running.call(hub.room.snapshot)
    assert json.loads(json.dumps(snapshot))["dealing"]["dealer-1"]["boards"] == {"1/1": False}
    # The log holds it: a hub started again on it has the alert.
    again = hub_on(url, tmp_path)
    try:
        assert [a.kind for a in again.room.alerts] == ["misdealt_board"]
        assert isinstance(again.setup, MitchellSetup)
    finally:
        again.log.close()
