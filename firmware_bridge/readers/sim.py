"""The simulated card reader: a first-class backend with fault injection (python-can's
``VirtualBus``), for the tests, the contract suite and ``tenace sim``.

A :class:`SimChannel` is the table surface a simulated reader watches, found by name
(:func:`channel`): whoever plays the cards calls :meth:`SimChannel.present` with a tag's
UID, and every :class:`SimReader` opened on that channel (``sim:NAME``) reads it. Faults:
:meth:`SimChannel.unplug` / :meth:`SimChannel.plug` (the reader's USB cable), and
:meth:`SimChannel.flicker` (the same tag reported twice in a few milliseconds, as a real
field does: the debounce must keep one), and a reader that errs (:class:`ReadErrors`, set on
:attr:`SimChannel.errors`, seeded: the same seed, the same errors): a tag not read
(``missed``; in a hand swept over the reader, a card missing from the sweep), read by the
neighbouring seat's reader (``cross``: a channel of :attr:`SimChannel.neighbours`), read
late (``late``: after ``late_by`` seconds, so after the next card), read again past the
debounce (``repeat``), and tags that never read (``unreadable``). :attr:`SimChannel.made`
counts the errors made, kind by kind.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from firmware_bridge.readers import DEBOUNCE, CardReader, normalise_uid

__all__ = ["ReadErrors", "SimChannel", "SimReader", "channel", "forget"]

log = logging.getLogger(__name__)

_lock = threading.Lock()
_channels: dict[str, SimChannel] = {}


@dataclass(slots=True)
class ReadErrors:
    """How a simulated reader errs (module docstring): rates per tag presented, the tags
    that never read, how late a late read comes, and the seed of its random stream."""

    missed: float = 0.0
    cross: float = 0.0
    late: float = 0.0
    repeat: float = 0.0
    unreadable: frozenset[str] = frozenset()
    late_by: float = 0.5
    seed: int | str = 0
    rng: random.Random = field(init=False, repr=False)

    def __post_init__(self) -> None:
        for name in ("missed", "cross", "late", "repeat"):
            rate = getattr(self, name)
            if not 0.0 <= rate <= 1.0:
                raise ValueError(f"read errors: {name}={rate} is not between 0 and 1")
        if self.missed + self.cross + self.late + self.repeat > 1.0:
            raise ValueError("read errors: the rates add up to more than 1")
        self.unreadable = frozenset(normalise_uid(u) for u in self.unreadable)
        self.rng = random.Random(f"tenace-reader-errors:{self.seed}")


class SimChannel:
    """A named place where simulated tags are presented (module docstring)."""

    def __init__(self, name: str):
        self.name = name
        self.plugged = True
        self.errors: ReadErrors | None = None
        self.neighbours: list[SimChannel] = []   # where a cross-read lands
        self.clock: Callable[[], float] = time.time   # a tag's time (a test's own clock)
        self.made: dict[str, int] = {}           # errors made, by kind
        self._lock = threading.Lock()
        self._readers: list[SimReader] = []

    def _attach(self, reader: SimReader) -> None:
        with self._lock:
            self._readers.append(reader)
        reader._status(self.plugged, "simulated reader" + ("" if self.plugged else
                                                           ", unplugged"))

    def _detach(self, reader: SimReader) -> None:
        with self._lock:
            if reader in self._readers:
                self._readers.remove(reader)

    def present(self, uid: str) -> bool:
        """A tag is put on the reader: True when a plugged reader read it (debounced reads
        included), False when no reader is open or the reader is unplugged, or when the
        reader's :attr:`errors` made it miss the tag (or read it elsewhere, or late)."""
        uid = normalise_uid(uid)
        errors = self.errors
        if errors is None:
            return self._deliver(uid)
        if uid in errors.unreadable:
            return self._made("unreadable")
        u = errors.rng.random()
        if u < errors.missed:
            return self._made("missed")
        u -= errors.missed
        if u < errors.cross and self.neighbours:
            self._made("cross")
            return errors.rng.choice(self.neighbours)._deliver(uid)
        u -= errors.cross
        if u < errors.late:
            self._made("late")
            timer = threading.Timer(errors.late_by, self._deliver, args=(uid,))
            timer.daemon = True
            timer.start()
            return False
        u -= errors.late
        read = self._deliver(uid)
        if u < errors.repeat:
            self._made("repeat")
            again = threading.Timer(DEBOUNCE * 1.5, self._deliver, args=(uid,))
            again.daemon = True
            again.start()
        return read

    def _made(self, kind: str) -> bool:
        with self._lock:
            self.made[kind] = self.made.get(kind, 0) + 1
        log.debug("%s: %s read", self, kind)
        return False

    def _deliver(self, uid: str) -> bool:
        with self._lock:
            readers = list(self._readers) if self.plugged else []
        when = self.clock()
        for reader in readers:
            reader._tag(uid, when)
        return bool(readers)

    def flicker(self, uid: str, times: int = 3) -> bool:
        """The tag is reported ``times`` times within a few milliseconds (field flicker)."""
        return all([self._deliver(normalise_uid(uid)) for _ in range(times)])

    def unplug(self) -> None:
        """The reader's cable is pulled: its readers say so, and read nothing until
        :meth:`plug`."""
        with self._lock:
            self.plugged = False
            readers = list(self._readers)
        for reader in readers:
            reader._status(False, "simulated reader unplugged")

    def plug(self) -> None:
        with self._lock:
            self.plugged = True
            readers = list(self._readers)
        for reader in readers:
            reader._status(True, "simulated reader plugged in")

    @property
    def readers(self) -> int:
        """How many readers are open on the channel."""
        with self._lock:
            return len(self._readers)

    def __repr__(self) -> str:
        return f"<SimChannel {self.name!r} {'plugged' if self.plugged else 'unplugged'}>"


def channel(name: str) -> SimChannel:
    """The simulated channel ``name``, made on first use."""
    with _lock:
        found = _channels.get(name)
        if found is None:
            found = _channels[name] = SimChannel(name)
        return found


def forget(name: str) -> None:
    """Drop the channel ``name`` (its open readers keep their events but read no more)."""
    with _lock:
        _channels.pop(name, None)


class SimReader(CardReader):
    """``sim:NAME``: reads what is presented on :func:`channel` ``(NAME)``."""

    backend = "sim"

    def __init__(self, channel_name: str, *, debounce: float = DEBOUNCE):
        super().__init__(channel_name, debounce=debounce)
        self._channel = channel(channel_name)
        self._channel._attach(self)

    def _release(self) -> None:
        self._channel._detach(self)

    @classmethod
    def available(cls) -> list[str]:
        with _lock:
            return sorted(_channels)
