"""The simulated card reader: a first-class backend with fault injection (python-can's
``VirtualBus``), for the tests, the contract suite and ``tenace sim``.

A :class:`SimChannel` is the table surface a simulated reader watches, found by name
(:func:`channel`): whoever plays the cards calls :meth:`SimChannel.present` with a tag's
UID, and every :class:`SimReader` opened on that channel (``sim:NAME``) reads it. Faults:
:meth:`SimChannel.unplug` / :meth:`SimChannel.plug` (the reader's USB cable), and
:meth:`SimChannel.flicker` (the same tag reported twice in a few milliseconds, as a real
field does: the debounce must keep one).
"""

from __future__ import annotations

import logging
import threading
import time

from firmware_bridge.readers import DEBOUNCE, CardReader, normalise_uid

__all__ = ["SimChannel", "SimReader", "channel", "forget"]

log = logging.getLogger(__name__)

_lock = threading.Lock()
_channels: dict[str, SimChannel] = {}


class SimChannel:
    """A named place where simulated tags are presented (module docstring)."""

    def __init__(self, name: str):
        self.name = name
        self.plugged = True
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
        included), False when no reader is open or the reader is unplugged."""
        uid = normalise_uid(uid)
        with self._lock:
            readers = list(self._readers) if self.plugged else []
        when = time.time()
        for reader in readers:
            reader._tag(uid, when)
        return bool(readers)

    def flicker(self, uid: str, times: int = 3) -> bool:
        """The tag is reported ``times`` times within a few milliseconds (field flicker)."""
        return all([self.present(uid) for _ in range(times)])

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
