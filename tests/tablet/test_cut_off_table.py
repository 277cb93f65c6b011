"""A whole table cut off from the hub plays on (issue 16): the real tablet (Kivy root,
presenter, wire.link, outbox) takes the auctions, the real readers' daemon (simulated
readers, its outbox on disk) takes the cards, neither hears from the hub nor from the other,
and each empties its outbox when its network comes back, one after the other. The hub ends
with exactly the record the table played, with no alert but the devices offline: Law 41
(the opening lead after the auction: the readers' cards wait for the tablet's calls), Law 7
(the hands out and back on their own board: the tablet's next board waits for the readers
to have passed its board).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bridgecore.cards import Seat
from firmware_bridge.decks import DeckStore
from hub.mosquitto import Mosquitto
from hub.service import Hub, HubRunner, data_log
from tablet.app import TabletRoot
from tablet.presenter import TabletPresenter
from tests.cable import Cable
from tests.firmware_bridge.conftest import MitchellSetup, make_deck
from tests.firmware_bridge.kit import ReaderTable, SteppedClock, played_out
from tests.hub.conftest import mosquitto  # noqa: F401  (a fixture, used by name)
from tests.hub.test_table import BOARD_1, DEALS
from tests.tablet.test_ui import shot, show, tap, until
from wire.outbox import OUTBOX_NAME, Outbox

N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST
# The readers' hand gap: a card played is a tag alone at its seat for that long. On the
# readers' stepped clock (SteppedClock): the test says when it has passed, never a sleep.
GAP = 0.2


@pytest.fixture
def broker_url(mosquitto: Mosquitto) -> str:  # noqa: F811  (Mosquitto alone: the slow test)
    return mosquitto.url


@pytest.fixture
def hub(broker_url: str, tmp_path: Path) -> Iterator[Hub]:
    """The readers' Mitchell (tests/firmware_bridge/conftest.py): A1 seats pairs 1 and 4
    and plays boards 1 and 2 in round 1."""
    running = Hub(data_log(tmp_path / "hub"), url=broker_url, setup=MitchellSetup(),
                  setup_loader=lambda _: MitchellSetup(), tick_seconds=0.2,
                  offline_grace=0.5, double_dummy=False)
    try:
        with HubRunner(running):
            yield running
    finally:
        running.log.close()


def hand(board: int, seat: Seat) -> list[str]:
    return [str(c) for c in DEALS[board][seat]]


def table_record(hub: Hub) -> dict[str, Any]:
    def read() -> dict[str, Any]:
        return hub.room.tables["A1"].snapshot()
    record: dict[str, Any] = hub.call(read)
    return record


@pytest.mark.parametrize("first", ["readers", "tablet"])
def test_a_table_cut_off_plays_two_boards_and_the_hub_gets_exactly_that_record(
        hub: Hub, broker_url: str, tmp_path: Path, first: str) -> None:
    decks = DeckStore(decks=[make_deck("red", 1, (1,)), make_deck("blue", 2, (2,))])
    tablet_cable, readers_cable = Cable(broker_url), Cable(broker_url)
    presenter = TabletPresenter("A1", language="en")
    root = TabletRoot(presenter)
    box = Outbox(tmp_path / OUTBOX_NAME, "A1-tab")
    from wire.link import DeviceLink

    link = DeviceLink(tablet_cable.url, "A1", box.device, outbox=box, on_state=root.post_state,
                      on_reply=root.post_reply, on_connection=root.post_connection,
                      reconnect_delay=(0.1, 0.5))
    root.send, root.pending = presenter.send_through(link.send), box.pending
    readers = ReaderTable(readers_cable.url, tmp_path, decks, hand_gap=GAP, clock=SteppedClock())
    played = played_out(BOARD_1, "1H", S)   # lowest legal cards
    try:
        show(root)
        until(lambda: presenter.model.connection == "online" and presenter.model.state,
              "the hub")
        # Online: the pairs check in, board 1 comes to the table, its hands go out (Law 7).
        for command, args in ((presenter.checkin.check_in, (1, "NS")),
                              (presenter.checkin.check_in, (4, "EW")),
                              (presenter.board.announce, (1,))):
            assert root.act(command, *args)
        readers.wait_phase("auction")
        for seat in Seat:
            readers.read_hand(seat, hand(1, seat))
        readers.pass_gap()
        until(lambda: len(table_record(hub)["boards"][0]["reads"]) == 4
              and readers.daemon.pending == 0, "the four hands on the hub")
        before = hub.call(lambda: hub.stats.accepted)
        reported, entered = readers.daemon.reported, box.count()

        tablet_cable.cut()                           # the table's Wi-Fi drops
        readers_cable.cut()
        until(lambda: presenter.model.connection == "offline"
              and readers.daemon.reads.offline, "both devices to notice")

        # Board 1: the auction on the tablet, the play at the readers.
        for call in ("Pass", "Pass", "1H", "Pass", "Pass", "Pass"):
            assert root.act(presenter.auction.call, call)
        assert root.screen_name == "play" and presenter.play.can_leave
        for i, (seat, card) in enumerate(played):
            readers.play(seat, card)
            if i % 4 == 3:
                readers.pass_gap()                   # the trick quitted, the next lead
        # The tablet never saw the cards: the players go on, the readers keep the play.
        shot(root, "tablet-cut-off-readers-keep-the-play")
        tap(root.screens["play"].leave_button)   # type: ignore[attr-defined]
        until(lambda: root.screen_name == "board", "the board screen")
        assert root.act(presenter.board.announce, 2)
        # Board 2 (dealer East): the hands out of board 2's pack, passed out, back in.
        for seat in Seat:
            readers.deck = 2
            readers.read_hand(seat, hand(2, seat))
        readers.pass_gap()
        for call in ("Pass", "Pass", "Pass", "Pass"):
            assert root.act(presenter.auction.call, call)
        for seat in Seat:
            readers.read_hand(seat, hand(2, seat))
            readers.pass_gap()
        until(lambda: readers.daemon.reads.deadline is None, "the readers to settle")
        assert hub.call(lambda: hub.stats.accepted) == before     # nothing got out
        sent = readers.daemon.reported - reported + box.count() - entered
        assert readers.daemon.reported - reported == 52 + 4 + 4   # cards, hands out, back

        # Back online, one device after the other.
        cables = {"tablet": tablet_cable, "readers": readers_cable}
        for name in (first, *(n for n in cables if n != first)):
            cables[name].plug()
            if name == "tablet":
                assert link.wait_delivered(120)
            else:
                assert readers.daemon.wait_delivered(120)
        until(lambda: presenter.model.pending_count == 0
              and presenter.model.hub_state is not None
              and presenter.model.hub_state.board == 2
              and presenter.model.hub_state.phase == "over", "the hub's state", 120)
        assert box.rejections() == [] and readers.daemon.rejections() == []
        record = table_record(hub)
        alerts = hub.call(lambda: [a["kind"] for a in hub.room.alerts.to_json()
                                   if a["table"] == "A1"])
        held = hub.call(lambda: len(hub.room.order["A1"].held))
        accepted = hub.call(lambda: hub.stats.accepted)
    finally:
        link.close()
        box.close()
        readers.close()
        tablet_cable.close()
        readers_cable.close()
        root.close()
    one, two = record["boards"]
    assert [c for _, c, *_ in one["auction"]] == ["Pass", "Pass", "1H", "Pass", "Pass", "Pass"]
    assert [(x, c) for x, c, _ in one["play"]] == [(s.letter, c) for s, c in played]
    assert one["result"]["contract"] == "1H" and one["result"]["declarer"] == "S"
    assert two["board"] == 2 and [c for _, c, *_ in two["auction"]] == ["Pass"] * 4
    # The hands went out (checked against board 2's record: no alert) and back (7B: a
    # hand put back before play is read again when it comes out).
    assert two["reads"] == {} and two["out"] == []
    assert two["play"] == [] and two["result"]["contract"] == "PASS" and record["current"] == 2
    # The director was told the table went offline, and of nothing else.
    assert set(alerts) == {"device_offline"} and held == 0
    assert accepted == before + sent   # every event, once
