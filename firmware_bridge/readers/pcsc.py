"""``pcsc``: PC/SC card readers through pyscard (ACR122U-class USB NFC readers), the only
module of Tenace that imports ``smartcard``; nothing of its API leaves this file.

The channel is the PC/SC reader name (``ACS ACR122U PICC Interface 00 00``) or a part of
it found in exactly one reader's name (names differ between systems: formats.md §6.2).

How tags are read: one process-wide :class:`_Service` owns pyscard's ``CardMonitor`` (a
singleton with one thread) and one ``CardObserver``. On each card insertion the observer,
on the monitor's thread, connects to the card and sends ``FF CA 00 00 00`` (get the UID):
the response's data is the UID when the status words are ``90 00``. The UID goes to the
:class:`PcscReader` opened on that reader, stamped with the time the answer came back.

Supervision (platform.md): when pcscd stops or restarts, the monitor's thread dies without
a word to its observers, and a new ``CardMonitor()`` gives the dead one back. The service's
own thread lists the readers every ``period`` seconds: a reader that appears or goes is a
:class:`ReaderStatus`; pcscd gone makes every reader gone; and once pcscd answers again
after an outage, or whenever the monitor's thread is dead, the monitor is made anew (and
the dead one's PC/SC context released, so that its finaliser has nothing left to fail on).
A tag already read and still on the reader across a restart is not read twice: the new
monitor reports it as inserted, and it is dropped as the tag the reader last read, no
removal having been seen since (the same tag taken off during the outage and put back
later is dropped too: the seat has read it already).
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from typing import Any

from smartcard import scard
from smartcard.CardMonitoring import CardMonitor, CardMonitoringThread, CardObserver
from smartcard.Exceptions import SmartcardException

from firmware_bridge.readers import (
    DEBOUNCE,
    BackendUnavailableError,
    CardReader,
    ReaderError,
    normalise_uid,
)

__all__ = ["GET_UID", "PcscReader"]

log = logging.getLogger(__name__)

GET_UID = [0xFF, 0xCA, 0x00, 0x00, 0x00]
"""PC/SC 2.01 part 3 pseudo-APDU: the UID of the contactless card on the reader."""


def _reader_names() -> list[str] | None:
    """The PC/SC readers connected now; None when pcscd does not answer."""
    hresult, context = scard.SCardEstablishContext(scard.SCARD_SCOPE_USER)
    if hresult != scard.SCARD_S_SUCCESS:
        return None
    try:
        hresult, names = scard.SCardListReaders(context, [])
        if hresult == scard.SCARD_E_NO_READERS_AVAILABLE:
            return []
        if hresult != scard.SCARD_S_SUCCESS:
            return None
        return list(names)
    finally:
        scard.SCardReleaseContext(context)


class _ReadFailed(ReaderError):
    """The UID could not be read (the card went, pcscd went): the PC/SC error in words."""


_TRANSIENT = (scard.SCARD_W_UNPOWERED_CARD, scard.SCARD_W_RESET_CARD,
              scard.SCARD_E_SHARING_VIOLATION)


def _read_uid(name: str, tries: int = 3) -> list[int]:
    """The response to :data:`GET_UID` from the card on reader ``name`` (data and status
    words). PC/SC calls made here and released here: pyscard's connection objects release
    in their finalisers, which raise once pcscd has restarted."""
    hresult, context = scard.SCardEstablishContext(scard.SCARD_SCOPE_USER)
    if hresult != scard.SCARD_S_SUCCESS:
        raise _ReadFailed(scard.SCardGetErrorMessage(hresult))
    try:
        for attempt in range(tries):
            hresult, card, protocol = scard.SCardConnect(
                context, name, scard.SCARD_SHARE_SHARED,
                scard.SCARD_PROTOCOL_T0 | scard.SCARD_PROTOCOL_T1)
            if hresult in _TRANSIENT and attempt + 1 < tries:
                time.sleep(0.05)    # the reader is still powering the card
                continue
            if hresult != scard.SCARD_S_SUCCESS:
                raise _ReadFailed(scard.SCardGetErrorMessage(hresult))
            break
        try:
            hresult, response = scard.SCardTransmit(card, protocol, GET_UID)
            if hresult == scard.SCARD_E_NOT_TRANSACTED:
                # A tag swapped for another faster than pcscd polls: the new one is not
                # powered yet. A reset powers it.
                hresult, protocol = scard.SCardReconnect(
                    card, scard.SCARD_SHARE_SHARED,
                    scard.SCARD_PROTOCOL_T0 | scard.SCARD_PROTOCOL_T1, scard.SCARD_RESET_CARD)
                if hresult == scard.SCARD_S_SUCCESS:
                    hresult, response = scard.SCardTransmit(card, protocol, GET_UID)
        finally:
            scard.SCardDisconnect(card, scard.SCARD_LEAVE_CARD)
        if hresult != scard.SCARD_S_SUCCESS:
            raise _ReadFailed(scard.SCardGetErrorMessage(hresult))
        if len(response) < 2:
            raise _ReadFailed(f"a response of {len(response)} bytes")
        return list(response)
    finally:
        scard.SCardReleaseContext(context)


def _match(channel: str, names: list[str]) -> str | None:
    """The reader name ``channel`` designates: itself, or the one name containing it."""
    if channel in names:
        return channel
    found = [n for n in names if channel in n]
    if len(found) > 1:
        log.error("pcsc:%s matches several readers (%s): give more of the name", channel,
                  ", ".join(found))
        return None
    return found[0] if found else None


class _Observer(CardObserver):
    """Hands each insertion and removal to the service (runs on the monitor's thread)."""

    def __init__(self, service: _Service):
        super().__init__()
        self.service = service

    def update(self, observable: Any, handlers: Any) -> None:
        added, removed = handlers
        for card in removed:
            self.service.removed(str(card.reader))
        for card in added:
            self.service.inserted(card)


class _Service:
    """The process-wide PC/SC side: the monitor, its supervision, the open readers."""

    def __init__(self, period: float):
        self.period = period
        self.lock = threading.Lock()
        self.readers: list[PcscReader] = []
        self.names: list[str] | None = None       # the readers at the last look
        self.monitor: Any = None
        self.observer = _Observer(self)
        self.restarts = 0                          # monitors made anew after the first
        self.outage = False                        # pcscd was seen down since the last monitor
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._checked = threading.Event()          # one look done since the last reader opened

    # Readers -----------------------------------------------------------------------------
    def attach(self, reader: PcscReader) -> None:
        with self.lock:
            self.readers.append(reader)
            self._checked.clear()
            if self._thread is None:
                self._thread = threading.Thread(target=self._supervise,
                                                name="tenace-pcsc-supervisor", daemon=True)
                self._thread.start()
        self._wake.set()
        self._checked.wait(5.0)   # the reader's first status is known when open returns

    def detach(self, reader: PcscReader) -> None:
        with self.lock:
            if reader in self.readers:
                self.readers.remove(reader)
            thread = None if self.readers else self._thread
        if thread is not None:
            self._wake.set()
            if thread is not threading.current_thread():
                thread.join(5.0)

    def _owner(self, name: str) -> list[PcscReader]:
        with self.lock:
            return [r for r in self.readers if r.name == name]

    # The monitor's thread ----------------------------------------------------------------
    def inserted(self, card: Any) -> None:
        name = str(card.reader)
        owners = self._owner(name)
        if not owners:
            return
        try:
            response = _read_uid(name)
        except _ReadFailed as err:
            log.warning("pcsc:%s: card removed before its UID was read (%s): present it "
                        "again", name, err)
            return
        when = time.time()
        data, status = response[:-2], response[-2:]
        if status != [0x90, 0x00]:
            log.error("pcsc:%s: the reader answered %s to the UID command: not a "
                      "contactless tag?", name, bytes(status).hex(" ").upper())
            return
        try:
            uid = normalise_uid(bytes(data).hex())
        except ValueError as err:
            log.error("pcsc:%s: %s", name, err)
            return
        for reader in owners:
            reader._inserted(uid, when)

    def removed(self, name: str) -> None:
        for reader in self._owner(name):
            reader._removed()

    # Supervision (its own thread) --------------------------------------------------------
    def _supervise(self) -> None:
        while True:
            with self.lock:
                if not self.readers:   # the last reader closed: stop, under the lock, so
                    self._drop_monitor()   # that a reader opened meanwhile starts anew
                    self._thread = None
                    return
            try:
                self._look()
            except Exception:  # the supervisor must outlive anything pyscard does
                log.exception("pcsc: supervision step failed")
            self._checked.set()
            self._wake.wait(self.period)
            self._wake.clear()

    def _look(self) -> None:
        names = _reader_names()
        if names is None:
            if self.names is not None:
                log.warning("pcsc: pcscd does not answer: every PC/SC reader is gone until "
                            "it is back")
            self.outage = self.outage or self.monitor is not None
            self.names = None
            for reader in self._all():
                reader._status(False, "pcscd is not running")
            return
        self.names = names
        for reader in self._all():   # names first: the monitor reports by reader name
            name = _match(reader.channel, names)
            reader.name = name
            if name is None:
                reader._status(False, f"no PC/SC reader named like {reader.channel!r}")
            else:
                reader._status(True, f"PC/SC reader {name!r}")
        thread = CardMonitoringThread.instance
        if self.monitor is None or self.outage or thread is None or not thread.is_alive():
            self._new_monitor()

    def _all(self) -> list[PcscReader]:
        with self.lock:
            return list(self.readers)

    def _new_monitor(self) -> None:
        if self.monitor is not None:
            self.restarts += 1
            log.warning("pcsc: the card monitor is dead (pcscd restarted?): making a new one")
        self._drop_monitor()
        CardMonitor.instance = None          # pyscard's singletons, else the dead one again
        CardMonitoringThread.instance = None
        self.monitor = CardMonitor()
        self.monitor.addObserver(self.observer)
        self.outage = False

    def _drop_monitor(self) -> None:
        monitor, self.monitor = self.monitor, None
        if monitor is None:
            return
        with contextlib.suppress(ValueError):   # not one of its observers
            monitor.deleteObserver(self.observer)
        thread = CardMonitoringThread.instance
        if thread is None:
            return
        thread.stop()
        deadline = time.monotonic() + 2.0
        while thread.is_alive() and time.monotonic() < deadline:
            # Wake its wait for a card event (again: it may not have been waiting yet).
            request = getattr(getattr(thread, "cardrequest", None), "pcsccardrequest", None)
            if request is not None and request.hcontext is not None:
                scard.SCardCancel(request.hcontext)
            thread.join(0.05)
        request = getattr(getattr(thread, "cardrequest", None), "pcsccardrequest", None)
        if request is not None and not thread.is_alive():
            try:
                request.release()
            except SmartcardException:   # pcscd restarted: the context is already gone
                request.hcontext = None


_service: _Service | None = None
_service_lock = threading.Lock()


def _the_service(period: float) -> _Service:
    global _service
    with _service_lock:
        if _service is None:
            _service = _Service(period)
        return _service


class PcscReader(CardReader):
    """``pcsc:NAME`` (module docstring). ``period``: seconds between looks at the readers
    and at pcscd (the process's first reader sets it)."""

    backend = "pcsc"

    def __init__(self, channel: str, *, debounce: float = DEBOUNCE, period: float = 0.5):
        super().__init__(channel, debounce=debounce)
        self.name: str | None = None          # the PC/SC name matched at the last look
        self.on_reader: str | None = None     # the UID of the tag on the reader, if known
        self._service = _the_service(period)
        self._service.attach(self)

    def _inserted(self, uid: str, when: float) -> None:
        if uid == self.on_reader:
            log.info("%s: %s is still on the reader (pcscd restarted): not read again",
                     self.spec, uid)
            return
        self.on_reader = uid
        self._tag(uid, when)

    def _removed(self) -> None:
        self.on_reader = None

    def _release(self) -> None:
        self._service.detach(self)

    @property
    def restarts(self) -> int:
        """How many times the card monitor was made anew (pcscd restarts seen)."""
        return self._service.restarts

    @classmethod
    def available(cls) -> list[str]:
        names = _reader_names()
        if names is None:
            raise BackendUnavailableError("pcsc: pcscd is not running (start it: "
                                          "systemctl start pcscd)")
        return names

