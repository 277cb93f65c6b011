"""A table's reader daemon (firmware_bridge/daemon.py) against a real hub on Mosquitto:
hands and cards reach the hub in the order read; a reader unplugged mid-trick is reported
to the director and loses nothing; the broker away, events wait in the outbox and arrive
in order, even across a restart of the daemon; foreign cards are alerts (Law 1)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from bridgecore.cards import Seat
from firmware_bridge.decks import DeckStore
from hub.mosquitto import Mosquitto
from tenace.sim.observer import Observer
from tests.firmware_bridge.conftest import wait_until
from tests.firmware_bridge.kit import ReaderTable, Tablet
from tests.hub.test_table import BOARD_1
from wire.mqtt import MqttClient
from wire.protocol import topic_state

N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST
PASSES_1H = ("Pass", "Pass", "1H", "Pass", "Pass", "Pass")   # South declares, West leads


def hand(seat: Seat) -> list[str]:
    return [str(c) for c in BOARD_1[seat]]


@pytest.fixture
def table(hub_url: str, tmp_path: Path, decks: DeckStore) -> Iterator[ReaderTable]:
    made = ReaderTable(hub_url, tmp_path, decks)
    try:
        yield made
    finally:
        made.close()


def hub_state(url: str) -> dict[str, object]:
    with MqttClient(url, "director.watch", clean_session=True, start=False) as viewer:
        viewer.subscribe(topic_state("A1"), 1, wait=False)
        viewer.start().wait_connected()
        state: dict[str, object] = json.loads(viewer.messages.get(timeout=5).payload)
        return state


def test_hands_and_cards_reach_the_hub_in_the_order_read(
        hub_url: str, table: ReaderTable, tablet: Tablet) -> None:
    tablet.seat()
    table.wait_phase("auction")
    for seat in Seat:
        table.read_hand(seat, hand(seat))
    assert table.daemon.wait_delivered()
    tablet.calls(*PASSES_1H)
    table.wait_phase("play")
    for seat, card in ((W, "S2"), (N, "SA"), (E, "ST"), (S, "S3"), (N, "SK")):
        table.play(seat, card)
    assert table.daemon.wait_delivered()
    assert table.daemon.rejections() == []
    state = hub_state(hub_url)
    assert state["trick"] == {"number": 2, "leader": "N", "cards": [["N", "SK"]]}
    assert state["tricks"] == {"NS": 1, "EW": 0}


def test_a_reader_unplugged_mid_trick_is_reported_and_nothing_is_lost(
        hub_url: str, table: ReaderTable, tablet: Tablet) -> None:
    with Observer(hub_url) as director:
        tablet.seat()
        tablet.calls(*PASSES_1H)
        table.wait_phase("play")
        table.play(W, "S2")
        table.play(N, "SA")
        east = table.channels[E]
        east.unplug()
        assert not east.present("04" + "5AC0DE" * 2)          # nothing read meanwhile
        wait_until(lambda: any(a["kind"] == "device_offline" for a in director.alert_list()))
        east.plug()
        table.play(E, "ST")
        table.play(S, "S3")
        assert table.daemon.wait_delivered()
        director.settle()
        [offline] = [a for a in director.alert_list() if a["kind"] == "device_offline"]
    assert offline["facts"]["device"] == "A1-rdr-E" and offline["table"] == "A1"
    state = hub_state(hub_url)
    assert state["tricks"] == {"NS": 1, "EW": 0}
    assert table.daemon.rejections() == []


def test_the_broker_away_events_wait_and_arrive_in_order_across_a_daemon_restart(
        hub_url: str, mosquitto: Mosquitto, table: ReaderTable, tablet: Tablet) -> None:
    tablet.seat()
    tablet.calls(*PASSES_1H)
    table.wait_phase("play")
    table.play(W, "S2")
    assert table.daemon.wait_delivered()
    mosquitto.stop()
    wait_until(lambda: not table.daemon.link.client.connected.is_set())
    for seat, card in ((N, "SA"), (E, "ST"), (S, "S3")):
        table.play(seat, card)      # read while the broker is away: in the outbox
    assert table.daemon.pending == 3
    table.daemon.close(farewell=False)         # and the daemon stops too
    restarted = Mosquitto(mosquitto.config.parent, port=mosquitto.port,
                          accounts=mosquitto.accounts)
    try:
        table.daemon = table.start(hub_url)
        assert table.daemon.wait_delivered(15)
        assert table.daemon.rejections() == []
        state = hub_state(hub_url)
    finally:
        table.close()
        restarted.stop()
    assert state["tricks"] == {"NS": 1, "EW": 0}
    assert state["trick"] == {"number": 2, "leader": "N", "cards": []}
    assert table.outbox.closed


def test_law_1_foreign_cards_in_a_hand_and_played_alert_the_director(
        hub_url: str, table: ReaderTable, tablet: Tablet) -> None:
    with Observer(hub_url) as director:
        tablet.seat()
        table.wait_phase("auction")
        table.read_hand(N, hand(N)[:12])
        table.present[N]("04FFFFFFFFFF01")                     # a tag of no deck
        assert table.daemon.wait_delivered()
        tablet.calls(*PASSES_1H)
        table.wait_phase("play")
        table.deck = 2                                         # blue: board 2's pack
        table.play(W, "S2")
        assert table.daemon.wait_delivered()
        director.settle()
        foreign = [a for a in director.alert_list() if a["kind"] == "foreign_card"]
    assert {a["law"] for a in foreign} == {"1"}
    by_seat = {a["seats"][0]: a for a in foreign}
    assert by_seat["N"]["facts"]["foreign"] == ["?04FFFFFFFFFF01"]
    assert by_seat["W"]["facts"]["foreign"] == ["blue:S2"] and by_seat["W"]["facts"]["played"]
    assert "not of this pack" in by_seat["W"]["detail"]
