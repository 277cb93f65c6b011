"""The PC/SC backend (firmware_bridge/readers/pcsc.py) for real: pcscd, the vsmartcard-vpcd
virtual readers and virtual tags. Reader names, a card pulled away mid-read, and pcscd
restarting mid-session (pyscard's monitor dies silently: it is supervised and made anew,
and no card is lost or read twice)."""

from __future__ import annotations

import logging
import time

import pytest

from firmware_bridge.readers import (
    CardReader,
    ReaderStatus,
    TagRead,
    available_readers,
    open_reader,
)
from firmware_bridge.readers.pcsc import PcscReader
from firmware_bridge.vpcd_card import Pcscd, VirtualCard

A, B, C = "04A1B2C3D4E580", "04A1B2C3D4E581", "04A1B2C3D4E582"


def events(reader: CardReader, timeout: float, until: type | None = None) -> list[object]:
    """What the reader reports within ``timeout`` (stopping at the first ``until``)."""
    out: list[object] = []
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        event = reader.read(left)
        if event is None:
            break
        out.append(event)
        if until is not None and isinstance(event, until):
            break
    return out


def lift(card: VirtualCard, reader: PcscReader) -> None:
    """Take the card off and wait until pcscd has seen it go (its next poll): a card put on
    the same reader sooner would be taken for the same one."""
    card.remove()
    deadline = time.monotonic() + 3
    while reader.on_reader is not None and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.5)   # the service's own look, for a card that was never read


def test_readers_are_listed_and_found_by_a_part_of_their_name(
        pcscd: Pcscd, caplog: pytest.LogCaptureFixture) -> None:
    assert [f"pcsc:{name}" for name in pcscd.READERS] == available_readers("pcsc")
    with open_reader("pcsc:PCD 00 01") as second, open_reader("pcsc:ACR122U") as missing, \
            open_reader("pcsc:Virtual PCD") as ambiguous:
        assert second.present and isinstance(second, PcscReader)
        assert second.name == "Virtual PCD 00 01"
        status = missing.read(1)
        assert isinstance(status, ReaderStatus) and not status.present
        assert "ACR122U" in status.detail
        assert ambiguous.present is False
    assert any("matches several readers" in r.getMessage() for r in caplog.records)


def test_a_card_pulled_away_mid_read_is_logged_and_the_next_card_read(
        pcscd: Pcscd, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, "firmware_bridge.readers.pcsc")
    with open_reader(f"pcsc:{pcscd.READERS[0]}") as reader:
        events(reader, 0.1)
        snatched = VirtualCard(pcscd.ports[0], A, vanish=True).insert()
        time.sleep(1.0)
        snatched.remove()
        assert [e for e in events(reader, 0.6) if isinstance(e, TagRead)] == []
        assert any("removed before its UID was read" in r.getMessage() for r in caplog.records)
        card = VirtualCard(pcscd.ports[0], B).insert()
        got = events(reader, 3, until=TagRead)
        assert isinstance(reader, PcscReader)
        lift(card, reader)
        assert [e.uid for e in got if isinstance(e, TagRead)] == [B]


def test_pcscd_restarted_mid_session_monitor_recreated_reads_resume_none_lost(
        pcscd: Pcscd) -> None:
    """A tag lying on a reader across the restart is read once; a tag put on a reader while
    pcscd is down is read when it is back; the readers say they were gone and came back."""
    first = open_reader(f"pcsc:{pcscd.READERS[0]}")
    second = open_reader(f"pcsc:{pcscd.READERS[1]}")
    lying = VirtualCard(pcscd.ports[0], A)
    during = VirtualCard(pcscd.ports[1], B)
    try:
        assert isinstance(first, PcscReader) and first.present and second.present
        restarts = first.restarts
        events(first, 0.1)
        events(second, 0.1)
        lying.insert()
        assert [e.uid for e in events(first, 3, until=TagRead) if isinstance(e, TagRead)] == [A]
        pcscd.stop()
        for reader in (first, second):
            gone = events(reader, 3, until=ReaderStatus)
            assert isinstance(gone[-1], ReaderStatus) and not gone[-1].present
            assert "pcscd" in gone[-1].detail
        during.insert(timeout=0.1)      # put down while pcscd is away: waits for vpcd
        pcscd.start()
        back = events(second, 5, until=TagRead)
        assert [type(e) for e in back] == [ReaderStatus, TagRead], back
        assert isinstance(back[-1], TagRead) and back[-1].uid == B
        again = events(first, 1.5)
        assert [type(e) for e in again] == [ReaderStatus], again   # back, and A not re-read
        assert first.restarts == restarts + 1
        lift(lying, first)
        during.remove()
        card = VirtualCard(pcscd.ports[0], C).insert()
        later = events(first, 3, until=TagRead)
        lift(card, first)
        assert [e.uid for e in later if isinstance(e, TagRead)] == [C]
    finally:
        lying.remove()
        during.remove()
        first.close()
        second.close()
