"""A table of readers for the tests against a real hub: the daemon with its readers, the
hands that put tags on them, and the tablet's events (check-in, board, calls)."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from pathlib import Path

from bridgecore.calls import Contract
from bridgecore.cards import Seat
from bridgecore.deal import Deal
from bridgecore.play import Play
from firmware_bridge.daemon import TableDaemon
from firmware_bridge.decks import DeckStore
from firmware_bridge.readers import CardReader, open_reader
from firmware_bridge.readers import sim as simulated
from tests.firmware_bridge.conftest import uid, wait_until
from wire.link import DeviceLink
from wire.outbox import Outbox

__all__ = ["ReaderTable", "SteppedClock", "Tablet", "played_out"]

Presenter = Callable[[str], object]


def played_out(deal: Deal, contract: str, declarer: Seat) -> list[tuple[Seat, str]]:
    """``deal`` played out in ``contract`` by ``declarer``, each seat playing its lowest
    legal card (bridgecore's Play): (seat, card) in the order played."""
    play = Play(deal, Contract.parse(contract, declarer))
    out: list[tuple[Seat, str]] = []
    while (seat := play.turn) is not None:
        card = min(play.legal_cards, key=lambda c: c.index)
        play.play_card(seat, card)
        out.append((seat, str(card)))
    return out


class Tablet:
    """Table A1's tablet (wire.link, in memory): check-ins, the board, the calls."""

    def __init__(self, url: str):
        self.link = DeviceLink(url, "A1", "A1-tab", outbox=Outbox(":memory:", "A1-tab"),
                               reply_timeout=1.0, reconnect_delay=(0.05, 0.5))

    def seat(self, board: int = 1) -> None:
        """Pairs 1 and 4 check in and ``board`` comes to the table."""
        self.link.send("checkin", {"direction": "NS", "pair": 1})
        self.link.send("checkin", {"direction": "EW", "pair": 4})
        self.link.send("board", {"board": board})
        self.settle()

    def calls(self, *calls: str, first: Seat = Seat.NORTH) -> None:
        for i, call in enumerate(calls):
            self.link.send("call", {"seat": first.offset(i).letter, "call": call})
        self.settle()

    def settle(self) -> None:
        assert self.link.wait_delivered(10)
        assert self.link.outbox.rejections() == []

    def close(self) -> None:
        self.link.close()
        self.link.outbox.close()


class SteppedClock:
    """The readers' clock when a test says when a gap has passed: it stands still between
    :meth:`advance` calls, so the tags of one hand are one presentation however slowly the
    machine runs them, and a hand or a card is complete when the test steps past its gap.
    It never falls behind the wall clock (the hub judges the tags' times against its own)."""

    def __init__(self) -> None:
        self._now = time.time()

    def __call__(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        self._now = max(self._now + seconds, time.time())


class ReaderTable:
    """Table A1's readers: simulated ones unless ``readers`` gives a seat its own (with
    the function that presents a tag on it). With a ``clock`` (:class:`SteppedClock`) the
    simulated readers and the daemon run on it: :meth:`play` and :meth:`pass_gap` step it."""

    def __init__(self, url: str, folder: Path, decks: DeckStore, *,
                 readers: Mapping[Seat, tuple[CardReader, Presenter]] | None = None,
                 hand_gap: float = 0.2, deck: int = 1, clock: SteppedClock | None = None):
        self.clock = clock
        self.deck = deck
        self.decks = decks
        self.hand_gap = hand_gap
        self.readers: dict[Seat, CardReader] = {}
        self.present: dict[Seat, Presenter] = {}
        self.channels: dict[Seat, simulated.SimChannel] = {}
        for seat in Seat:
            given = (readers or {}).get(seat)
            if given is not None:
                self.readers[seat], self.present[seat] = given
                continue
            name = f"A1-{seat.letter}-{time.monotonic_ns()}"
            self.channels[seat] = simulated.channel(name)
            if clock is not None:
                self.channels[seat].clock = clock
            self.readers[seat] = open_reader(f"sim:{name}")
            self.present[seat] = self.channels[seat].present
        self.outbox_path = folder / "readers-A1.sqlite3"
        self.outbox = Outbox(self.outbox_path, "A1-rdr")
        self.daemon = self.start(url)

    def start(self, url: str) -> TableDaemon:
        return TableDaemon(url, "A1", self.readers, self.decks, self.outbox,
                           hand_gap=self.hand_gap, reply_timeout=1.0,
                           reconnect_delay=(0.05, 0.5), clock=self.clock or time.time)

    def wait_phase(self, phase: str, board: int = 1) -> None:
        def there() -> bool:
            state = self.daemon.state or {}
            return state.get("phase") == phase and state.get("board") == board

        wait_until(there)

    def read_hand(self, seat: Seat, cards: list[str]) -> None:
        for card in cards:
            self.present[seat](uid(self.deck, card))

    def play(self, seat: Seat, card: str, *, tag: str | None = None) -> None:
        """The card faced at ``seat``; returns once its event is in the outbox."""
        before = self.daemon.reported
        self.present[seat](tag or uid(self.deck, card))
        if self.clock is not None:
            self.pass_gap()
        wait_until(lambda: self.daemon.reported > before)

    def pass_gap(self) -> None:
        """On the stepped clock: the readers see nothing for twice the hand gap (longer
        than the debounce too), and the daemon has looked at its reads since."""
        assert self.clock is not None, "pass_gap needs the table's stepped clock"
        assert self.daemon.caught_up(), "the daemon never caught up with its readers"
        self.clock.advance(self.hand_gap * 2)
        assert self.daemon.caught_up(), "the daemon never looked at the clock again"

    def close(self) -> None:
        self.daemon.close()
        for reader in self.readers.values():
            reader.close()
        self.outbox.close()
