"""The real parts the card-reader tests run against, started here and stopped by PID:
pcscd with two vsmartcard-vpcd virtual readers (one pcscd per machine: a test at a time
has it), socat pty pairs, Mosquitto (tests/hub/conftest.py), and
two enrolled decks. Anything missing is a failure, never a skip: scripts/test installs it."""

from __future__ import annotations

import fcntl
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, BinaryIO

import pytest

from bridgecore.cards import ALL_CARDS, Card
from firmware_bridge.decks import Deck, DeckStore
from firmware_bridge.vpcd_card import Pcscd
from hub.mosquitto import Mosquitto
from hub.room import Room, Section
from hub.service import Hub, HubRunner, data_log
from tests.hub.conftest import mosquitto  # noqa: F401  (a fixture, used by name)
from tests.hub.test_table import DEALS, MOVEMENT

__all__ = ["MitchellSetup", "Pty", "make_deck", "uid", "wait_until"]


def uid(deck: int, card: Card | str) -> str:
    """The tag UID of ``card`` in test deck number ``deck`` (7 bytes, NXP-like)."""
    c = card if isinstance(card, Card) else Card.parse(card)
    return f"04{deck:02X}5AC0DE{c.index:02X}00"


def make_deck(name: str, number: int, boards: tuple[int, ...] = ()) -> Deck:
    return Deck(name, {uid(number, c): c for c in ALL_CARDS}, boards)


@pytest.fixture
def decks() -> DeckStore:
    """Deck "red" (number 1) is board 1's pack, "blue" (number 2) board 2's."""
    return DeckStore(decks=[make_deck("red", 1, (1,)), make_deck("blue", 2, (2,))])


# pcscd owns /run/pcscd: there can be one per machine. Each test that needs it starts its own
# and takes its turn through this lock, with the other xdist workers of its session and the
# test sessions of every other checkout on the machine.
PCSCD_LOCK = Path(tempfile.gettempdir()) / "tenace-pcscd.lock"
PCSCD_TURN = 900.0      # a guard: the others' card-reader tests take seconds each


@contextmanager
def machine_lock(path: Path, guard: float) -> Iterator[None]:
    """``path`` locked (flock) for this process, waiting for another holder to finish."""
    with path.open("a") as handle:
        deadline = time.monotonic() + guard
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                assert time.monotonic() < deadline, f"{path} still held after {guard} s"
                time.sleep(0.2)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@pytest.fixture
def pcscd(tmp_path: Path) -> Iterator[Pcscd]:
    """pcscd with its two virtual readers, running (a test may stop and start it again)."""
    with machine_lock(PCSCD_LOCK, PCSCD_TURN):
        daemon = Pcscd(tmp_path / "pcscd").start(timeout=60)   # a guard: ready when its ports are
        try:
            # Its readers' ports open before its own socket: ready when PC/SC lists them.
            from firmware_bridge.errors import BackendUnavailableError
            from firmware_bridge.readers import available_readers

            def listed() -> bool:
                try:   # its socket may come after its ports: "not running" until then
                    return len(available_readers("pcsc")) == len(daemon.READERS)
                except BackendUnavailableError:
                    return False
            wait_until(listed)
            yield daemon
        finally:
            daemon.stop()


class Pty:
    """A socat pty pair: the reader opens ``reader``; the test writes to ``device``, the
    microcontroller's end (kept open: closing it would end socat)."""

    def __init__(self, folder: Path):
        socat = shutil.which("socat")
        assert socat, "socat is not installed: see scripts/test"
        self.log = folder / "socat.log"
        with self.log.open("wb") as log:
            self.process = subprocess.Popen([socat, "-d", "-d", "pty,raw,echo=0",
                                             "pty,raw,echo=0"], stderr=log)
        names: list[str] = []
        deadline = time.monotonic() + 10
        while len(names) < 2 and time.monotonic() < deadline:
            names = re.findall(r"PTY is (\S+)", self.log.read_text(errors="replace"))
            time.sleep(0.01)
        assert len(names) == 2, f"socat gave no two ptys: {self.log.read_text()}"
        self.reader, self.device = names
        self._end: BinaryIO | None = None

    def write(self, data: bytes) -> None:
        if self._end is None:
            self._end = open(self.device, "wb", buffering=0)  # noqa: SIM115 (kept open)
        self._end.write(data)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(5)
        if self._end is not None:
            self._end.close()


@pytest.fixture
def pty(tmp_path: Path) -> Iterator[Pty]:
    pair = Pty(tmp_path)
    try:
        yield pair
    finally:
        pair.stop()


class MitchellSetup:
    """The hub tests' three-table Mitchell with their deals (board 1: every seat holds one
    rank band; A1 seats pairs 1 and 4 in round 1 and plays boards 1 and 2)."""

    def to_json(self) -> dict[str, Any]:
        return {"test": "readers-mitchell-3"}

    def build_room(self) -> Room:
        return Room(Section("A", MOVEMENT), DEALS)


@pytest.fixture
def hub_url(mosquitto: Mosquitto, tmp_path: Path) -> Iterator[str]:  # noqa: F811
    """A hub on Mosquitto for the Mitchell above: yields the broker's URL."""
    hub = Hub(data_log(tmp_path / "hub"), url=mosquitto.url, setup=MitchellSetup(),
              setup_loader=lambda _: MitchellSetup(), tick_seconds=0.2, offline_grace=0.5)
    with HubRunner(hub):
        yield mosquitto.url


@pytest.fixture
def tablet(hub_url: str) -> Iterator[Any]:
    """The table's tablet on that hub (tests.firmware_bridge.kit.Tablet: the kit imports
    this module, hence the import here)."""
    from tests.firmware_bridge.kit import Tablet

    made = Tablet(hub_url)
    try:
        yield made
    finally:
        made.close()


def wait_until(predicate: Callable[[], object], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"not true after {timeout} s: {predicate}"
        time.sleep(0.01)
