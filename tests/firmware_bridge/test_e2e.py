"""End to end: four card readers and a real hub (Mosquitto). North and South read through
PC/SC for real (pcscd, vsmartcard-vpcd, virtual tags), East and West through the
simulator; a board in which East revokes: the director's alert names the trick and the
revoke once established (Laws 61, 63A, 64). Then a board whose pockets are turned: the
rotated board is flagged before the first call (Law 7)."""

from __future__ import annotations

import time
from pathlib import Path

from bridgecore.cards import Seat
from firmware_bridge.decks import DeckStore
from firmware_bridge.readers import open_reader
from firmware_bridge.readers.pcsc import PcscReader
from firmware_bridge.vpcd_card import Pcscd, VirtualCard
from tenace.sim.observer import Observer
from tests.firmware_bridge.conftest import wait_until
from tests.firmware_bridge.kit import Presenter, ReaderTable, Tablet
from tests.hub.test_table import BOARD_1

N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST


def virtual_tag_presenter(reader: PcscReader, port: int) -> Presenter:
    """Puts a virtual tag on the vpcd reader at ``port`` until it is read, then lifts it
    and waits for pcscd to see it gone (the next card of that seat comes after)."""
    def present(uid: str) -> None:
        card = VirtualCard(port, uid).insert()
        wait_until(lambda: card.asked > 0, 5.0)
        card.remove()
        wait_until(lambda: reader.on_reader is None, 5.0)
    return present


def test_law_61_a_revoke_read_from_the_cards_reaches_the_director_established(
        hub_url: str, pcscd: Pcscd, tmp_path: Path, decks: DeckStore, tablet: Tablet) -> None:
    north = open_reader(f"pcsc:{pcscd.READERS[0]}")
    south = open_reader(f"pcsc:{pcscd.READERS[1]}")
    assert isinstance(north, PcscReader) and isinstance(south, PcscReader)
    table = ReaderTable(hub_url, tmp_path, decks, readers={
        N: (north, virtual_tag_presenter(north, pcscd.ports[0])),
        S: (south, virtual_tag_presenter(south, pcscd.ports[1]))})
    try:
        with Observer(hub_url) as director:
            tablet.seat()
            tablet.calls("Pass", "Pass", "1H", "Pass", "Pass", "Pass")   # South plays 1H
            table.wait_phase("play")
            # Trick 1 to North's ace; trick 2: East ruffs North's king holding spades (61);
            # East wins it and leads to trick 3: the revoke is established (63A1).
            for seat, card in ((W, "S2"), (N, "SA"), (E, "ST"), (S, "S3"),
                               (N, "SK"), (E, "H9"), (S, "S4"), (W, "H2"), (E, "DJ")):
                table.play(seat, card)
            assert table.daemon.wait_delivered()
            assert table.daemon.rejections() == []
            director.settle()
            revokes = [a for a in director.alert_list() if a["kind"] == "revoke"]
    finally:
        table.close()
    assert len(revokes) == 1
    revoke = revokes[0]
    # First raised as the revoke (61), the same alert now carries its establishment and the
    # Law 64 transfer the director may apply.
    assert revoke["seats"] == ["E"] and revoke["trick"] == 2 and revoke["law"] == "64A1"
    assert revoke["facts"]["established"] is True and revoke["facts"]["card"] == "H9"
    assert revoke["version"] > 1 and "transfer" in revoke["facts"]
    played = revoke["evidence"]["play"]
    assert [(seat, card) for seat, card, _ in played][:6] == [
        ("W", "S2"), ("N", "SA"), ("E", "ST"), ("S", "S3"), ("N", "SK"), ("E", "H9")]
    # Each card carries the time its tag was read: the play is in reading order.
    times = [t for _, _, t in played]
    assert times == sorted(times)


def test_law_7_a_rotated_board_is_flagged_before_the_first_call(
        hub_url: str, tmp_path: Path, decks: DeckStore, tablet: Tablet) -> None:
    table = ReaderTable(hub_url, tmp_path, decks)
    try:
        with Observer(hub_url) as director:
            tablet.seat()
            table.wait_phase("auction")
            for seat in Seat:   # the board turned: North's pocket holds East's cards...
                table.read_hand(seat, [str(c) for c in BOARD_1[seat.lho]])
            assert table.daemon.wait_delivered()
            started = time.time()
            director.settle()
            rotated = [a for a in director.alert_list() if a["kind"] == "rotated_board"]
            tablet.calls("Pass")
    finally:
        table.close()
    assert rotated, "no rotated board alert"
    alert = rotated[-1]
    assert alert["law"] == "7" and alert["board"] == 1 and alert["detected"] <= started
    assert alert["facts"]["calls_made"] == 0 and "before the first call" in alert["detail"]
    assert alert["facts"]["holds"]["N"] == "E" and alert["facts"]["complete"] is True
