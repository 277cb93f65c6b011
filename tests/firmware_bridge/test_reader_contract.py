"""One contract for every card-reader backend (firmware_bridge/readers): the simulator, a
serial reader behind a socat pty, and PC/SC through pcscd with a vsmartcard-vpcd virtual
reader and a virtual tag. Real hardware joins the same tests when a club sets
``TENACE_TEST_READER`` (``pcsc:ACR122U`` or ``serial:/dev/ttyUSB0``): the tests then ask,
on the terminal, for tags to be put on the reader. That parameter exists only when the
variable is set; it is never skipped."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, nullcontext
from typing import Any

import pytest

from firmware_bridge.readers import CardReader, ReaderStatus, TagRead, open_reader
from firmware_bridge.readers import sim as simulated
from firmware_bridge.readers.pcsc import PcscReader
from firmware_bridge.readers.tagline import format_line
from firmware_bridge.vpcd_card import Pcscd, VirtualCard
from tests.firmware_bridge.conftest import Pty

HARDWARE = os.environ.get("TENACE_TEST_READER")
BACKENDS = ["sim", "serial", "pcsc"] + (["hardware"] if HARDWARE else [])
A, B = "04A1B2C3D4E580", "04A1B2C3D4E581"


class Bench:
    """A reader under test and the hands that put tags on it."""

    knows_uids = True

    def __init__(self, reader: CardReader):
        self.reader = reader

    def present(self, uid: str) -> None:
        """A tag put on the reader and taken off, as a player does."""
        raise NotImplementedError

    def hold(self, uid: str, seconds: float) -> None:
        """A tag left lying on the reader for ``seconds``."""
        raise NotImplementedError


class SimBench(Bench):
    def __init__(self, reader: CardReader, channel: simulated.SimChannel):
        super().__init__(reader)
        self.channel = channel

    def present(self, uid: str) -> None:
        self.channel.present(uid)

    def hold(self, uid: str, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:   # a polling reader reports a lying tag again and again
            self.channel.present(uid)
            time.sleep(0.05)


class SerialBench(Bench):
    def __init__(self, reader: CardReader, pty: Pty):
        super().__init__(reader)
        self.pty = pty

    def present(self, uid: str) -> None:
        self.pty.write(format_line("TAG", uid))

    def hold(self, uid: str, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.pty.write(format_line("TAG", uid))
            time.sleep(0.05)


class PcscBench(Bench):
    def __init__(self, reader: PcscReader, pcscd: Pcscd):
        super().__init__(reader)
        self.pcsc = reader
        self.port = pcscd.ports[0]

    def present(self, uid: str) -> None:
        card = VirtualCard(self.port, uid).insert()
        deadline = time.monotonic() + 3
        while card.asked == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        card.remove()
        self._until_taken_off()

    def hold(self, uid: str, seconds: float) -> None:
        with VirtualCard(self.port, uid):
            time.sleep(seconds)
        self._until_taken_off()

    def _until_taken_off(self) -> None:
        """pcscd sees a removal at its next poll (~400 ms): wait for it, or the next tag put
        on at once would be taken for the same presentation."""
        deadline = time.monotonic() + 3
        while self.pcsc.on_reader is not None and time.monotonic() < deadline:
            time.sleep(0.01)


class HardwareBench(Bench):
    """A real reader: a person presents real tags, asked on the terminal."""

    knows_uids = False

    def __init__(self, reader: CardReader, terminal: Any):
        super().__init__(reader)
        self.terminal = terminal
        self.tags: dict[str, str] = {}

    def _ask(self, text: str) -> None:
        with self.terminal():
            print(f"\n[{self.reader.spec}] {text}", flush=True)

    def present(self, uid: str) -> None:
        which = self.tags.setdefault(uid, f"tag {'ABCDEFGH'[len(self.tags)]}")
        self._ask(f"put {which} on the reader, then lift it")

    def hold(self, uid: str, seconds: float) -> None:
        which = self.tags.setdefault(uid, f"tag {'ABCDEFGH'[len(self.tags)]}")
        self._ask(f"put {which} on the reader and leave it there for {seconds + 2:.0f} s")
        time.sleep(seconds + 2)


@pytest.fixture(params=BACKENDS)
def bench(request: pytest.FixtureRequest) -> Iterator[Bench]:
    kind = request.param
    made: Bench
    if kind == "sim":
        name = f"contract-{time.monotonic_ns()}"
        made = SimBench(open_reader(f"sim:{name}"), simulated.channel(name))
    elif kind == "serial":
        pty: Pty = request.getfixturevalue("pty")
        made = SerialBench(open_reader(f"serial:{pty.reader}"), pty)
    elif kind == "pcsc":
        pcscd: Pcscd = request.getfixturevalue("pcscd")
        reader = open_reader(f"pcsc:{pcscd.READERS[0]}")
        assert isinstance(reader, PcscReader)
        made = PcscBench(reader, pcscd)
    else:
        assert HARDWARE is not None
        capture = request.config.pluginmanager.getplugin("capturemanager")

        def terminal() -> AbstractContextManager[Any]:
            if capture is None:
                return nullcontext()
            return capture.global_and_fixture_disabled()   # type: ignore[no-any-return]

        made = HardwareBench(open_reader(HARDWARE), terminal)
    try:
        yield made
    finally:
        made.reader.close()


def reads(reader: CardReader, timeout: float, count: int | None = None) -> list[TagRead]:
    """The tags read within ``timeout`` (or until ``count`` of them)."""
    out: list[TagRead] = []
    deadline = time.monotonic() + timeout
    while count is None or len(out) < count:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        event = reader.read(left)
        if isinstance(event, TagRead):
            out.append(event)
    return out


def settle(bench: Bench) -> float:
    """How long a read may take: a person is slower than a virtual card."""
    return 60.0 if isinstance(bench, HardwareBench) else 3.0


def test_an_open_reader_says_it_is_there(bench: Bench) -> None:
    status = bench.reader.read(5.0)
    assert isinstance(status, ReaderStatus) and status.present, status
    assert status.reader == bench.reader.spec and bench.reader.present is True


def test_a_tag_presented_is_read_once_with_its_reader_and_time(bench: Bench) -> None:
    before = time.time()
    bench.present(A)
    got = reads(bench.reader, settle(bench), count=1)
    after = time.time()
    assert len(got) == 1
    read = got[0]
    assert read.reader == bench.reader.spec and before <= read.time <= after
    assert len(read.uid) in (8, 14, 20) and read.uid == read.uid.upper()
    if bench.knows_uids:
        assert read.uid == A
    assert reads(bench.reader, 0.5) == []   # nothing more from one presentation


def test_a_tag_left_lying_on_the_reader_is_one_read(bench: Bench) -> None:
    """Repeated reads of one tag are debounced (formats.md §6.3)."""
    bench.hold(A, 0.7)
    got = reads(bench.reader, 0.5 if bench.knows_uids else 5.0)
    assert len(got) == 1, got


def test_tags_are_read_in_the_order_presented_and_a_tag_again_is_a_new_read(
        bench: Bench) -> None:
    got: list[TagRead] = []
    for uid in (A, B, A):
        bench.present(uid)
        got += reads(bench.reader, settle(bench), count=1)
    assert len(got) == 3, got
    assert got[0].time <= got[1].time <= got[2].time
    if bench.knows_uids:
        assert [r.uid for r in got] == [A, B, A]
    else:
        assert got[0].uid == got[2].uid != got[1].uid


def test_close_is_idempotent_and_a_closed_reader_reads_nothing(bench: Bench) -> None:
    bench.reader.close()
    bench.reader.close()
    assert bench.reader.closed
    if isinstance(bench, SimBench | SerialBench):   # the others take a second to tell
        bench.present(A)
        assert reads(bench.reader, 0.3) == []
