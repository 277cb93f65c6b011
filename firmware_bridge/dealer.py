"""Dealing machines: one abstract base, backends chosen by name, the serial line driver.

A :class:`DealingMachine` is told the deals (``load``), asked to deal a range of boards
(``start``) and gives, one at a time from :meth:`DealingMachine.next_report`, what it did:
a :class:`~firmware_bridge.dealer_messages.BoardDealt` for each copy of each board (the
cards it read into each pocket, what it noticed) or a
:class:`~firmware_bridge.dealer_messages.Fault`. Backends are imported only when used
(python-can's ``can.interfaces``): :func:`open_dealer` takes

* a pyserial URL: ``/dev/ttyUSB0``, ``socket://10.0.0.7:7001``, ``rfc2217://...``: a machine
  speaking docs/dealer-protocol.md, driven by :class:`SerialDealer`;
* ``sim://`` (options in the query: ``sim://?faults=3:misread,7:jam``): the simulator in
  this process (:class:`firmware_bridge.dealer_sim.SimulatedDealer`).

A machine that stops answering is never waited on for ever: a command not acknowledged
after its retries, or a machine quiet for ``silence`` seconds while dealing and then deaf to
a STATUS query, raises :class:`DealerSilent`, and :attr:`DealingMachine.problem` says what
happened and since when.

Errors (:mod:`firmware_bridge.errors`, under ``FirmwareBridgeError``)::

    DealerError                  a dealing machine cannot be used (names it)
    ├── DealerConnectionError    the port cannot be opened, or is gone
    ├── DealerSilent             the machine does not answer
    ├── DealerRefused            the machine refused a command (NACK): ``code``, ``reason``
    └── DealerFileError          a board file cannot be read or written (names it)
"""

from __future__ import annotations

import importlib
import logging
import queue
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from types import TracebackType
from typing import Any

from bridgecore.deal import Deal
from firmware_bridge.dealer_messages import (
    PROTOCOL_VERSION,
    Ack,
    BoardDealt,
    Clear,
    Fault,
    Hello,
    Info,
    LoadBoard,
    Message,
    MessageError,
    MsgType,
    Nack,
    NackCode,
    Pause,
    Resume,
    Start,
    Status,
    StatusQuery,
    decode,
    frame_of,
    frame_parser,
)
from firmware_bridge.errors import (
    DealerConnectionError,
    DealerError,
    DealerFileError,
    DealerRefused,
    DealerSilent,
)
from firmware_bridge.serial_frames import Frame, LinkStats

__all__ = [
    "BACKENDS", "DealerConnectionError", "DealerError", "DealerFileError", "DealerRefused",
    "DealerSilent",
    "DealingMachine", "LinkCounters", "Report", "SerialDealer", "open_dealer",
]

log = logging.getLogger(__name__)

BACKENDS: dict[str, str] = {
    "serial": "firmware_bridge.dealer:SerialDealer",
    "sim": "firmware_bridge.dealer_sim:SimulatedDealer",
}

Report = BoardDealt | Fault
"""What a machine tells of its dealing."""


@dataclass(slots=True)
class LinkCounters:
    """What the host side of a link did: frames resent, refused, received twice."""

    sent: int = 0
    resent: int = 0
    nacks_received: int = 0
    nacks_sent: int = 0
    duplicates: int = 0


class DealingMachine(ABC):
    """One dealing machine (module docstring). ``close()`` is idempotent; a context manager."""

    def __init__(self, url: str):
        self.url = url
        self.problem: str | None = None    # why it cannot be used now, with the time
        self.info: Info | None = None

    @abstractmethod
    def hello(self) -> Info:
        """Open the conversation: the machine's protocol version, model, firmware, serial."""

    @abstractmethod
    def status(self) -> Status:
        """The machine's state now (also tells whether it still answers)."""

    @abstractmethod
    def load(self, board: int, deal: Deal, copies: int = 1) -> None:
        """Tell the machine the deal of ``board`` (complete) and how many copies to deal."""

    @abstractmethod
    def start(self, first: int, last: int) -> None:
        """Deal the loaded boards ``first`` to ``last``."""

    @abstractmethod
    def pause(self) -> None: ...

    @abstractmethod
    def resume(self) -> None: ...

    @abstractmethod
    def clear(self) -> None:
        """Forget every loaded board."""

    @abstractmethod
    def next_report(self, timeout: float) -> Report | None:
        """The next board dealt or fault, None if nothing came within ``timeout`` seconds;
        DealerSilent when the machine stopped answering."""

    @abstractmethod
    def close(self) -> None: ...

    def link_summary(self) -> str:
        """What the line saw (frames, bad ones, resends); empty without a line."""
        return ""

    def load_all(self, boards: Mapping[int, Deal], copies: int = 1) -> None:
        for number, deal in sorted(boards.items()):
            self.load(number, deal, copies)

    def _silent(self, what: str) -> DealerSilent:
        self.problem = f"not answering since {time.strftime('%H:%M:%S')}: {what}"
        log.error("dealing machine %s %s", self.url, self.problem)
        return DealerSilent(f"dealing machine {self.url}: {what}")

    def __enter__(self) -> DealingMachine:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.url!r})"


def open_dealer(url: str, **options: Any) -> DealingMachine:
    """The machine at ``url`` (module docstring); ``options`` go to the backend."""
    backend = "sim" if url.startswith("sim:") else "serial"
    module_name, _, class_name = BACKENDS[backend].partition(":")
    cls = getattr(importlib.import_module(module_name), class_name)
    machine: DealingMachine = cls(url, **options)
    return machine


class _Pending:
    """A command waiting for its ACK or NACK."""

    def __init__(self, seq: int):
        self.seq = seq
        self.done = threading.Event()
        self.nack: Nack | None = None


class SerialDealer(DealingMachine):
    """A machine speaking docs/dealer-protocol.md on a pyserial URL.

    A reader thread feeds the :class:`FrameParser`, acknowledges every frame of the machine
    (a frame it sees again, the ACK having been lost, is acknowledged and not taken twice)
    and hands board reports to :meth:`next_report`. Commands wait for their ACK,
    ``ack_timeout`` seconds at a time, ``retries`` times more.
    """

    def __init__(self, url: str, *, baudrate: int = 115200, ack_timeout: float = 0.5,
                 retries: int = 3, silence: float = 15.0, gap: float = 0.2):
        super().__init__(url)
        try:
            import serial
        except ImportError as err:
            raise DealerConnectionError("pyserial is not installed: install the 'devices' "
                                        "extra") from err
        self.ack_timeout = ack_timeout
        self.retries = retries
        self.silence = silence
        self.gap = gap
        self.parser = frame_parser()
        self.counters = LinkCounters()
        self._serial_error: type[Exception] = serial.SerialException
        try:
            self._port = serial.serial_for_url(url, baudrate=baudrate, timeout=0.02)
        except (serial.SerialException, ValueError, OSError) as err:
            raise DealerConnectionError(f"dealing machine {url}: cannot open: {err}") from err
        self._write_lock = threading.Lock()
        self._command_lock = threading.Lock()
        self._pending: _Pending | None = None
        self._replies: queue.Queue[Info | Status] = queue.Queue()
        self._reports: queue.Queue[Report] = queue.Queue()
        self._seq = 0
        self._last_rx: int | None = None
        self._last_heard = time.monotonic()
        self._closed = threading.Event()
        self._port_closed = False
        self._reader = threading.Thread(target=self._read_loop, name=f"dealer-{url}",
                                        daemon=True)
        self._reader.start()

    @property
    def stats(self) -> LinkStats:
        return self.parser.stats

    def link_summary(self) -> str:
        c = self.counters
        return (f"{self.stats.summary()}; {c.sent} commands sent, {c.resent} resent, "
                f"{c.nacks_received} refused, {c.duplicates} reports received twice")

    # The reader thread ---------------------------------------------------------------------
    def _read_loop(self) -> None:
        last_byte = time.monotonic()
        while not self._closed.is_set():
            try:
                data = self._port.read(self._port.in_waiting or 1)
            except (self._serial_error, OSError, TypeError) as err:
                # pyserial raises TypeError from a port closed under its reader.
                if not self._closed.is_set():
                    self.problem = f"port lost at {time.strftime('%H:%M:%S')}: {err}"
                    log.error("dealing machine %s: %s", self.url, self.problem)
                    self._closed.set()
                    pending = self._pending
                    if pending is not None:
                        pending.done.set()
                return
            now = time.monotonic()
            if data:
                log.log(5, "dealer %s <- %s", self.url, data.hex())
                last_byte = now
                frames = self.parser.data_received(data)
            elif self.parser.pending and now - last_byte > self.gap:
                frames = self.parser.line_idle()
            else:
                continue
            for frame in frames:
                try:
                    self._on_frame(frame)
                except Exception:  # one bad frame must not stop the reader
                    log.exception("dealing machine %s: frame %r not handled", self.url, frame)

    def _on_frame(self, frame: Frame) -> None:
        self._last_heard = time.monotonic()
        try:
            message = decode(frame)
        except MessageError as err:
            log.warning("dealing machine %s: frame type 0x%02X seq %d refused: %s", self.url,
                        frame.type, frame.seq, err.reason)
            if frame.type not in (MsgType.ACK, MsgType.NACK):
                self._send_nack(frame.seq, err.code, err.reason)
            return
        if isinstance(message, Ack | Nack):
            pending = self._pending
            if pending is None or frame.seq != pending.seq:
                log.debug("dealing machine %s: stray %s for seq %d", self.url,
                          type(message).__name__, frame.seq)
                return
            if isinstance(message, Nack):
                pending.nack = message
            pending.done.set()
            return
        if frame.type < 0x80:
            self._send_nack(frame.seq, NackCode.UNKNOWN_TYPE,
                            f"{MsgType(frame.type).name} is the host's message, not a machine's")
            return
        self._write(frame_of(Ack(), frame.seq))
        if isinstance(message, Info):
            self._last_rx = None            # a machine (re)starting counts from scratch
        elif frame.seq == self._last_rx:
            self.counters.duplicates += 1   # our ACK was lost; the machine sent it again
            return
        self._last_rx = frame.seq
        if isinstance(message, Info | Status):
            self._replies.put(message)
        elif isinstance(message, BoardDealt | Fault):
            self._reports.put(message)

    def _send_nack(self, seq: int, code: int, reason: str) -> None:
        self.counters.nacks_sent += 1
        self._write(frame_of(Nack(code, reason), seq))

    def _write(self, frame: Frame) -> None:
        data = frame.encode()
        log.log(5, "dealer %s -> %s", self.url, data.hex())
        with self._write_lock:
            try:
                self._port.write(data)
            except (self._serial_error, OSError) as err:
                raise DealerConnectionError(f"dealing machine {self.url}: cannot write: "
                                            f"{err}") from err

    # Commands ------------------------------------------------------------------------------
    def _command(self, message: Message, answer: type[Info] | type[Status] | None = None
                 ) -> Info | Status | None:
        name = message.TYPE.name
        with self._command_lock:
            if self._closed.is_set():
                raise DealerConnectionError(f"dealing machine {self.url}: "
                                            f"{self.problem or 'closed'}")
            seq = self._seq
            self._seq = (self._seq + 1) % 256
            if answer is not None:
                _drain(self._replies)
            pending = self._pending = _Pending(seq)
            frame = frame_of(message, seq)
            started = time.monotonic()
            try:
                for attempt in range(self.retries + 1):
                    self._write(frame)
                    self.counters.sent += 1
                    if attempt:
                        self.counters.resent += 1
                    if self._acknowledged(pending.done):
                        break
                else:
                    raise self._silent(f"no acknowledgement of {name} after "
                                       f"{self.retries + 1} tries in "
                                       f"{time.monotonic() - started:.1f} s")
            finally:
                self._pending = None
            if self._closed.is_set() and pending.nack is None:
                raise DealerConnectionError(f"dealing machine {self.url}: {self.problem}")
            if pending.nack is not None:
                self.counters.nacks_received += 1
                nack = pending.nack
                raise DealerRefused(f"dealing machine {self.url} refused {name}: "
                                    f"{nack.code_name}: {nack.reason}", nack.code, nack.reason)
            self.problem = None
            if answer is None:
                return None
            end = time.monotonic() + self.ack_timeout * (self.retries + 1)
            while True:
                try:
                    reply = self._replies.get(timeout=max(0.0, end - time.monotonic()))
                except queue.Empty:
                    raise self._silent(f"{name} acknowledged, but no "
                                       f"{answer.__name__.upper()} came") from None
                if isinstance(reply, answer):
                    return reply
                # An INFO sent unprompted (the machine started), or a late answer.
                log.debug("dealing machine %s: %r set aside", self.url, reply)

    def _acknowledged(self, done: threading.Event) -> bool:
        """Whether the try in flight is answered (``done`` set) within ``ack_timeout``
        seconds; False sends it again. What ends a try is this one method, so that a test can
        end it on an event of its own (the frame it chose to lose) rather than on a clock."""
        return done.wait(self.ack_timeout)

    def hello(self) -> Info:
        info = self._command(Hello(PROTOCOL_VERSION), Info)
        assert isinstance(info, Info)
        if info.version != PROTOCOL_VERSION:
            raise DealerError(f"dealing machine {self.url} speaks protocol version "
                              f"{info.version}, this bridge {PROTOCOL_VERSION}")
        self.info = info
        return info

    def status(self) -> Status:
        status = self._command(StatusQuery(), Status)
        assert isinstance(status, Status)
        return status

    def load(self, board: int, deal: Deal, copies: int = 1) -> None:
        self._command(LoadBoard(board, deal, copies))

    def start(self, first: int, last: int) -> None:
        self._last_heard = time.monotonic()
        self._command(Start(first, last))

    def pause(self) -> None:
        self._command(Pause())

    def resume(self) -> None:
        self._command(Resume())

    def clear(self) -> None:
        self._command(Clear())

    def next_report(self, timeout: float) -> Report | None:
        end = time.monotonic() + timeout
        while True:
            try:
                return self._reports.get(timeout=max(0.0, min(end - time.monotonic(), 0.1)))
            except queue.Empty:
                pass
            if self._closed.is_set():
                raise DealerConnectionError(f"dealing machine {self.url}: "
                                            f"{self.problem or 'closed'}")
            if time.monotonic() - self._last_heard > self.silence:
                self.status()   # raises DealerSilent when it does not answer
                self._last_heard = time.monotonic()
            if time.monotonic() >= end:
                return None

    def close(self) -> None:
        with self._command_lock:
            if self._port_closed:
                return
            self._port_closed = True
        self._closed.set()
        self._reader.join(2.0)
        with self._write_lock:
            self._port.close()


def _drain(q: queue.Queue[Any]) -> None:
    while True:
        try:
            q.get_nowait()
        except queue.Empty:
            return
