"""Card readers: one NFC reader per seat, whatever it is built on, seen the same way.

A :class:`CardReader` gives, one at a time from :meth:`CardReader.read`, the tags its reader
saw (:class:`TagRead`: the tag's UID, the reader, the time the UID came back) and the
changes of the reader's own presence (:class:`ReaderStatus`: plugged in, unplugged, its
service gone). Backends are chosen by name and imported only when used (python-can's
``can.interfaces``), so a machine without pyscard can still run serial or simulated readers:

* ``pcsc``: PC/SC readers through pyscard (ACR122U-class USB readers); the channel is the
  PC/SC reader name or a unique part of it (:mod:`firmware_bridge.readers.pcsc`, the only
  module that imports pyscard);
* ``serial``: a microcontroller (PN532, MFRC522) sending one line per tag, opened by
  pyserial URL (:mod:`firmware_bridge.readers.serial_port`, line format in
  :mod:`firmware_bridge.readers.tagline`);
* ``sim``: the simulator, with fault injection (:mod:`firmware_bridge.readers.sim`).

A reader is named by a spec, ``backend:channel``: ``pcsc:ACR122U``,
``serial:/dev/ttyUSB0``, ``serial:socket://10.0.0.7:7001``, ``sim:A1-N``.

Repeated reads of one tag are debounced here, for every backend: a tag read again within
``debounce`` seconds of the last time the reader reported it is the same presentation (a
tag lying on a reader that reports it at every poll, or field flicker), not a new read.

Errors (:mod:`firmware_bridge.errors`, under ``FirmwareBridgeError``)::

    ReaderError                       a reader cannot be opened or used (names it)
    ├── UnknownBackendError (ValueError)   no backend of that name, or a bad spec
    └── BackendUnavailableError       the backend's library or service is missing
"""

from __future__ import annotations

import importlib
import logging
import queue
import re
import threading
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass
from types import TracebackType
from typing import Any, ClassVar

from firmware_bridge.errors import BackendUnavailableError, ReaderError, UnknownBackendError

__all__ = [
    "BACKENDS", "DEBOUNCE", "BackendUnavailableError", "CardReader", "ReaderError",
    "ReaderEvent", "ReaderStatus", "TagRead", "UnknownBackendError", "available_readers",
    "backend_class", "normalise_uid", "open_reader", "parse_spec",
]

log = logging.getLogger(__name__)

DEBOUNCE = 0.3
"""Seconds within which a tag reported again by the same reader is the same presentation
(formats.md §6.3: a removal and insertion of one UID within ~300 ms is field flicker)."""

BACKENDS: dict[str, str] = {
    "pcsc": "firmware_bridge.readers.pcsc:PcscReader",
    "serial": "firmware_bridge.readers.serial_port:SerialReader",
    "sim": "firmware_bridge.readers.sim:SimReader",
}

_UID = re.compile(r"^(?:[0-9A-F]{8}|[0-9A-F]{14}|[0-9A-F]{20})$")


def normalise_uid(text: str) -> str:
    """A tag UID as upper-case hex without separators (``04A1B2C3D4E580``): 4, 7 or 10
    bytes (ISO/IEC 14443-3 single, double and triple size). ValueError naming it otherwise."""
    uid = re.sub(r"[\s:-]", "", text).upper()
    if not _UID.match(uid):
        raise ValueError(f"not a tag UID (4, 7 or 10 bytes in hex): {text!r}")
    return uid


@dataclass(frozen=True, slots=True)
class TagRead:
    """One tag seen by a reader: its ``uid`` (normalised hex), the reader's ``reader`` spec
    and ``time``, the wall clock (seconds since the epoch) when the UID came back."""

    uid: str
    reader: str
    time: float


@dataclass(frozen=True, slots=True)
class ReaderStatus:
    """The reader is there (``present``) or not, with why in words, since ``time``."""

    reader: str
    present: bool
    detail: str
    time: float


ReaderEvent = TagRead | ReaderStatus


class CardReader(ABC):
    """One card reader (module docstring). Subclasses call :meth:`_tag` for each UID their
    reader returns and :meth:`_status` when the reader comes or goes, from any thread;
    :meth:`read` hands them out in order. ``close()`` is idempotent."""

    backend: ClassVar[str]

    def __init__(self, channel: str, *, debounce: float = DEBOUNCE):
        if debounce < 0:
            raise ValueError(f"debounce must be 0 or more seconds, got {debounce}")
        self.channel = channel
        self.spec = f"{self.backend}:{channel}"
        self.debounce = debounce
        self.debounced = 0            # reads dropped as repeats of the same presentation
        self.queued = 0               # events queued for read() so far
        self.present: bool | None = None
        self._events: queue.Queue[ReaderEvent] = queue.Queue()
        self._lock = threading.Lock()
        self._last_uid: str | None = None
        self._last_seen = 0.0
        self._closed = False

    # What a backend reports (any thread) ---------------------------------------------------
    def _tag(self, uid: str, when: float | None = None) -> TagRead | None:
        """The reader returned ``uid`` at ``when`` (now by default): queued unless it repeats
        the last tag within the debounce time. Returns the read queued, or None."""
        when = time.time() if when is None else when
        with self._lock:
            if self._closed:
                return None
            if uid == self._last_uid and when - self._last_seen < self.debounce:
                log.debug("%s: %s again after %.3f s: the same presentation", self.spec, uid,
                          when - self._last_seen)
                self._last_seen = when
                self.debounced += 1
                return None
            self._last_uid = uid
            self._last_seen = when
            read = TagRead(uid, self.spec, when)
            self._events.put(read)
            self.queued += 1
        return read

    def _status(self, present: bool, detail: str) -> None:
        """The reader came (``present``) or went; reported once per change."""
        with self._lock:
            if self._closed or present == self.present:
                return
            self.present = present
            self._events.put(ReaderStatus(self.spec, present, detail, time.time()))
            self.queued += 1
        if present:
            log.info("%s: reader present (%s)", self.spec, detail)
        else:
            log.warning("%s: reader gone (%s)", self.spec, detail)

    # What a user calls -------------------------------------------------------------------
    def read(self, timeout: float | None = None) -> ReaderEvent | None:
        """The next tag read or status change; None when ``timeout`` passes first (or once
        the reader is closed and nothing is left)."""
        try:
            return self._events.get(timeout=timeout)
        except queue.Empty:
            return None

    @property
    def backlog(self) -> int:
        """Events queued and not read yet."""
        return self._events.qsize()

    def close(self) -> None:
        """Stop reading and release the reader (idempotent)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self._release()

    @abstractmethod
    def _release(self) -> None:
        """Release what the backend holds (called once)."""

    @property
    def closed(self) -> bool:
        return self._closed

    def __enter__(self) -> CardReader:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._closed else {True: "present", False: "absent",
                                               None: "opening"}[self.present]
        return f"<{type(self).__name__} {self.spec!r} {state}>"

    @classmethod
    @abstractmethod
    def available(cls) -> list[str]:
        """The channels of this backend's readers connected now."""


def parse_spec(spec: str) -> tuple[str, str]:
    """``"pcsc:ACR122U"`` -> ("pcsc", "ACR122U"); UnknownBackendError naming the spec."""
    backend, sep, channel = spec.partition(":")
    if not sep or not channel:
        raise UnknownBackendError(f"reader {spec!r}: expected backend:channel, e.g. "
                                  "pcsc:ACR122U, serial:/dev/ttyUSB0 or sim:A1-N")
    if backend not in BACKENDS:
        raise UnknownBackendError(f"reader {spec!r}: no backend {backend!r} (known: "
                                  f"{', '.join(BACKENDS)})")
    return backend, channel


def backend_class(backend: str) -> type[CardReader]:
    """The reader class of ``backend``, imported now (BackendUnavailableError when its
    library is missing)."""
    target = BACKENDS.get(backend)
    if target is None:
        raise UnknownBackendError(f"no reader backend {backend!r} (known: "
                                  f"{', '.join(BACKENDS)})")
    module_name, _, name = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as err:
        raise BackendUnavailableError(f"reader backend {backend!r} needs {err.name}: install "
                                      "the devices extra (pip install 'tenace[devices]')"
                                      ) from err
    cls: type[CardReader] = getattr(module, name)
    return cls


def open_reader(spec: str, **options: Any) -> CardReader:
    """Open the reader ``backend:channel`` (module docstring); ``options`` go to the
    backend (``debounce`` for all)."""
    backend, channel = parse_spec(spec)
    return backend_class(backend)(channel, **options)


def available_readers(backend: str) -> list[str]:
    """The specs of ``backend``'s readers connected now."""
    return [f"{backend}:{channel}" for channel in backend_class(backend).available()]

