"""A simulated dealing machine, with faults on request: a backend in its own right.

:class:`MachineModel` is the machine: the boards it was told, the boards it deals in order,
the faults it injects. Faults are asked for per board (:class:`FaultPlan`,
``"3:misread,7:jam,9:silent"``), each happening once, on the first copy dealt:

* of the cards: ``misread`` (a card it cannot identify), ``missing`` (a card of the deal not
  in the pack: its pocket has 12), ``extra`` (a card twice in the pack: a pocket has 14),
  ``wrong_pocket`` (a card routed to the next pocket clockwise, which the machine does not
  notice);
* of the machine: ``jam`` (it stops with a FAULT; the operator clears it after
  ``clear_after`` seconds, or the host sends RESUME, and the board is dealt again);
* of the line (serial only): ``garble`` (the board's report goes out once with a byte
  changed), ``partial`` (in two pieces, a moment apart), ``cut`` (half a frame, then after
  a pause the whole frame), ``noise`` (random bytes before it), ``silent`` (from this
  board on the machine answers nothing).

:class:`DealerSimulator` speaks docs/dealer-protocol.md for the model on a port: a pyserial
port (one end of a socat pty pair), a pty made here (:func:`open_pty`) or each connection
of a TCP listener (:func:`serve_tcp`; the driver's URL is then ``socket://HOST:PORT``).
:class:`SimulatedDealer` is the same model in this process, with no line at all
(``sim://?faults=3:misread``).
"""

from __future__ import annotations

import logging
import os
import queue
import random
import select
import socket
import threading
import time
import tty
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol
from urllib.parse import parse_qs, urlsplit

from bridgecore.cards import Card, Seat
from bridgecore.deal import Deal
from firmware_bridge.dealer import (
    DealerConnectionError,
    DealerError,
    DealerRefused,
    DealingMachine,
    Report,
)
from firmware_bridge.dealer_messages import (
    PROTOCOL_VERSION,
    Ack,
    BoardDealt,
    CardError,
    Clear,
    ErrorCode,
    Fault,
    Hello,
    Info,
    LoadBoard,
    MachineState,
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
    pockets_of,
)
from firmware_bridge.serial_frames import Frame

__all__ = [
    "CARD_FAULTS", "FAULTS", "LINK_FAULTS", "DealerSimulator", "FaultPlan", "MachineModel",
    "SimulatedDealer", "open_pty", "open_serial", "serve_tcp",
]

log = logging.getLogger(__name__)

CARD_FAULTS = ("misread", "missing", "extra", "wrong_pocket")
MACHINE_FAULTS = ("jam",)
LINK_FAULTS = ("garble", "partial", "cut", "noise", "silent")
FAULTS = CARD_FAULTS + MACHINE_FAULTS + LINK_FAULTS
_POCKETS = (Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST)


@dataclass(slots=True)
class FaultPlan:
    """Board number -> the faults to inject when it is dealt (each once)."""

    faults: dict[int, set[str]] = field(default_factory=dict)

    @classmethod
    def parse(cls, text: str | Iterable[str]) -> FaultPlan:
        """``"3:misread,7:jam"`` (or a list of ``"3:misread"``); ValueError naming a bad one."""
        items = text.split(",") if isinstance(text, str) else list(text)
        plan = cls()
        for item in (i.strip() for i in items):
            if not item:
                continue
            board, sep, kind = item.partition(":")
            if not sep or not board.strip().isdigit() or kind.strip() not in FAULTS:
                raise ValueError(f"fault {item!r}: write BOARD:KIND, KIND one of "
                                 f"{', '.join(FAULTS)}")
            plan.add(int(board), kind.strip())
        return plan

    def add(self, board: int, kind: str) -> None:
        if kind not in FAULTS:
            raise ValueError(f"unknown fault {kind!r} (one of {', '.join(FAULTS)})")
        self.faults.setdefault(board, set()).add(kind)

    def planned(self, board: int, kind: str) -> bool:
        return kind in self.faults.get(board, ())

    def take(self, board: int, kinds: Iterable[str]) -> set[str]:
        """The faults of ``kinds`` planned for ``board``, now used up."""
        planned = self.faults.get(board, set())
        found = planned & set(kinds)
        planned -= found
        return found


class MachineModel:
    """The machine's logic, with no line: commands in, reports out (module docstring).
    Commands raise MessageError with the NACK the machine answers."""

    def __init__(self, faults: FaultPlan | None = None, *, seed: int = 0,
                 model: str = "Tenace simulator", serial: str = "SIM-0001"):
        self.faults = faults or FaultPlan()
        self.rng = random.Random(seed)
        self.model = model
        self.serial = serial
        self.boards: dict[int, tuple[Deal, int]] = {}
        self.queue: deque[tuple[int, int]] = deque()
        self.state = MachineState.IDLE
        self.fault = 0
        self.dealt = 0
        self.lock = threading.RLock()

    def info(self) -> Info:
        return Info(PROTOCOL_VERSION, self.model, "sim-1", self.serial)

    def load(self, board: int, deal: Deal, copies: int) -> None:
        with self.lock:
            if self.state is MachineState.DEALING:
                raise MessageError(NackCode.BAD_STATE, "cannot load a board while dealing")
            self.boards[board] = (deal, copies)

    def clear(self) -> None:
        with self.lock:
            if self.state is MachineState.DEALING:
                raise MessageError(NackCode.BAD_STATE, "cannot clear while dealing")
            self.boards.clear()
            self.queue.clear()
            self.state = MachineState.IDLE

    def start(self, first: int, last: int) -> None:
        with self.lock:
            wanted = [b for b in sorted(self.boards) if first <= b <= last]
            if not wanted:
                raise MessageError(NackCode.BAD_BOARD, f"no board loaded in {first}-{last}")
            if self.state in (MachineState.DEALING, MachineState.STOPPED):
                raise MessageError(NackCode.BAD_STATE, f"cannot start: {self.state.name}")
            self.queue = deque((b, c) for b in wanted for c in range(1, self.boards[b][1] + 1))
            self.state = MachineState.DEALING

    def pause(self) -> None:
        with self.lock:
            if self.state is not MachineState.DEALING:
                raise MessageError(NackCode.BAD_STATE, f"cannot pause: {self.state.name}")
            self.state = MachineState.PAUSED

    def resume(self) -> None:
        with self.lock:
            if self.state not in (MachineState.PAUSED, MachineState.STOPPED):
                raise MessageError(NackCode.BAD_STATE, f"cannot resume: {self.state.name}")
            self.state = MachineState.DEALING if self.queue else MachineState.DONE
            self.fault = 0

    def status(self) -> Status:
        with self.lock:
            board = self.queue[0][0] if self.queue else 0
            return Status(self.state, board, self.dealt, len(self.boards), self.fault)

    @property
    def next_board(self) -> int | None:
        with self.lock:
            return self.queue[0][0] if self.queue and self.state is MachineState.DEALING \
                else None

    def deal_next(self) -> list[Report]:
        """Deal the next copy: its report, or the FAULT that stopped the machine."""
        with self.lock:
            if self.state is not MachineState.DEALING or not self.queue:
                return []
            board, copy = self.queue[0]
            if copy == 1 and self.faults.take(board, MACHINE_FAULTS):
                self.state = MachineState.STOPPED
                self.fault = ErrorCode.JAM
                return [Fault(ErrorCode.JAM, board, detail="cards jammed in the feeder")]
            self.queue.popleft()
            deal = self.boards[board][0]
            kinds = self.faults.take(board, CARD_FAULTS) if copy == 1 else set()
            report = self._dealt(board, copy, deal, kinds)
            self.dealt += 1
            if not self.queue:
                self.state = MachineState.DONE
            return [report]

    def _dealt(self, board: int, copy: int, deal: Deal, kinds: set[str]) -> BoardDealt:
        pockets: dict[Seat, list[Card | None]] = {s: list(c) for s, c in pockets_of(deal).items()}
        errors: list[CardError] = []
        rng = self.rng
        if "misread" in kinds:
            seat = rng.choice(_POCKETS)
            pockets[seat][rng.randrange(13)] = None
            errors.append(CardError(ErrorCode.MISREAD, seat))
        if "missing" in kinds:
            seat = rng.choice(_POCKETS)
            card = pockets[seat].pop(rng.randrange(len(pockets[seat])))
            errors.append(CardError(ErrorCode.MISSING_CARD, seat, card))
        if "extra" in kinds:
            seat = rng.choice(_POCKETS)
            other = seat.partner
            card = rng.choice([c for c in pockets[other] if c is not None])
            pockets[seat].append(card)
            errors.append(CardError(ErrorCode.EXTRA_CARD, seat, card))
        if "wrong_pocket" in kinds:
            seat = rng.choice(_POCKETS)
            card = pockets[seat].pop(rng.randrange(len(pockets[seat])))
            pockets[seat.lho].append(card)
        return BoardDealt(board, copy, {s: tuple(c) for s, c in pockets.items()},
                          tuple(errors))


class Port(Protocol):
    """What the simulator needs of a line: ``read`` returns b"" when nothing came."""

    def read(self, size: int = 1) -> bytes: ...
    def write(self, data: bytes) -> int | None: ...
    def close(self) -> None: ...


class _SocketPort:
    """One accepted TCP connection as a port."""

    def __init__(self, sock: socket.socket, timeout: float):
        sock.settimeout(timeout)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock = sock

    def read(self, size: int = 1) -> bytes:
        try:
            data = self.sock.recv(max(size, 4096))
        except TimeoutError:
            return b""
        if not data:
            raise ConnectionError("the host closed the connection")
        return data

    def write(self, data: bytes) -> int:
        self.sock.sendall(data)
        return len(data)

    def close(self) -> None:
        self.sock.close()


class _SerialPort:
    """A pyserial port: whatever has come, without waiting for a full buffer."""

    def __init__(self, port: Any):
        self.port = port

    def read(self, size: int = 1) -> bytes:
        data: bytes = self.port.read(self.port.in_waiting or 1)
        return data

    def write(self, data: bytes) -> int | None:
        written: int | None = self.port.write(data)
        return written

    def close(self) -> None:
        self.port.close()


def open_serial(url: str, timeout: float = 0.02) -> _SerialPort:
    """A pyserial URL as the simulator's line: one end of a socat pty pair, or a real
    serial port wired to the bridge's computer."""
    import serial

    return _SerialPort(serial.serial_for_url(url, timeout=timeout))


class _FdPort:
    """The master side of a pty made here."""

    def __init__(self, fd: int, timeout: float):
        self.fd = fd
        self.timeout = timeout

    def read(self, size: int = 1) -> bytes:
        ready, _, _ = select.select([self.fd], [], [], self.timeout)
        if not ready:
            return b""
        return os.read(self.fd, max(size, 4096))

    def write(self, data: bytes) -> int:
        return os.write(self.fd, data)

    def close(self) -> None:
        os.close(self.fd)


class DealerSimulator:
    """The model behind the wire protocol on ``port`` (module docstring), on its own thread
    until :meth:`stop`. Its reports wait for the host's ACK and go again after
    ``ack_timeout``; ``board_seconds`` paces the dealing (a real machine takes about 6 s a
    board; ptys and sockets ignore baud rates)."""

    def __init__(self, port: Port, model: MachineModel | None = None, *,
                 board_seconds: float = 0.0, ack_timeout: float = 0.3,
                 clear_after: float = 0.3, seed: int = 0):
        self.port = port
        self.model = model or MachineModel()
        self.board_seconds = board_seconds
        self.ack_timeout = ack_timeout
        self.clear_after = clear_after
        self.rng = random.Random(seed)
        self.parser = frame_parser()
        self.silent = False
        # A machine says who it is when it starts (docs/dealer-protocol.md).
        self.outbox: deque[tuple[Message, set[str]]] = deque([(self.model.info(), set())])
        self._seq = 0
        self._last_rx: int | None = None
        self._sending: tuple[bytes, int, float, int] | None = None  # frame, seq, sent at, tries
        self._next_deal = 0.0
        self._stopped_at: float | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> DealerSimulator:
        self._thread = threading.Thread(target=self.run, name="dealer-sim", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(2.0)

    def __enter__(self) -> DealerSimulator:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def run(self) -> None:
        """Serve until stop() or the line is gone."""
        try:
            while not self._stop.is_set():
                data = self.port.read(4096)
                if self.silent:
                    continue
                for frame in self.parser.data_received(data) if data else ():
                    self._on_frame(frame)
                self._work(time.monotonic())
        except (OSError, ConnectionError) as err:
            log.info("dealer simulator: line closed: %s", err)

    # Receiving -----------------------------------------------------------------------------
    def _on_frame(self, frame: Frame) -> None:
        try:
            message = decode(frame)
        except MessageError as err:
            if frame.type not in (MsgType.ACK, MsgType.NACK):
                self._raw(frame_of(Nack(err.code, err.reason), frame.seq).encode())
            return
        if isinstance(message, Ack | Nack):
            if self._sending is not None and frame.seq == self._sending[1]:
                self._sending = None
            return
        if frame.type >= 0x80:
            self._raw(frame_of(Nack(NackCode.UNKNOWN_TYPE, "a machine's message"),
                               frame.seq).encode())
            return
        if isinstance(message, Hello):
            self._last_rx = None        # a new conversation
        elif frame.seq == self._last_rx:
            self._raw(frame_of(Ack(), frame.seq).encode())   # our ACK was lost
            return
        try:
            self._command(message)
        except MessageError as err:
            self._raw(frame_of(Nack(err.code, err.reason), frame.seq).encode())
        else:
            self._raw(frame_of(Ack(), frame.seq).encode())
            if isinstance(message, Hello):
                self.outbox.append((self.model.info(), set()))
            elif isinstance(message, StatusQuery):
                self.outbox.append((self.model.status(), set()))
        self._last_rx = frame.seq

    def _command(self, message: Message) -> None:
        model = self.model
        if isinstance(message, Hello):
            if message.version < PROTOCOL_VERSION:
                raise MessageError(NackCode.UNSUPPORTED_VERSION,
                                   f"host speaks up to {message.version}, machine "
                                   f"{PROTOCOL_VERSION}")
        elif isinstance(message, LoadBoard):
            model.load(message.board, message.deal, message.copies)
        elif isinstance(message, Start):
            model.start(message.first, message.last)
            self._next_deal = time.monotonic() + self.board_seconds
        elif isinstance(message, Pause):
            model.pause()
        elif isinstance(message, Resume):
            model.resume()
            self._stopped_at = None
        elif isinstance(message, Clear):
            model.clear()

    # Dealing and sending -----------------------------------------------------------------
    def _work(self, now: float) -> None:
        model = self.model
        board = model.next_board
        if board is not None and now >= self._next_deal and len(self.outbox) < 4:
            if model.faults.planned(board, "silent"):
                if not self.outbox and self._sending is None:   # the boards before: told
                    model.faults.take(board, ("silent",))
                    log.info("dealer simulator: silent from board %d", board)
                    self.silent = True
                    return
                self._send(now)
                return
            link = model.faults.take(board, LINK_FAULTS)
            for report in model.deal_next():
                self.outbox.append((report, link))
            self._next_deal = now + self.board_seconds
            if model.state is MachineState.STOPPED:
                self._stopped_at = now
        if (model.state is MachineState.STOPPED and self._stopped_at is not None
                and now - self._stopped_at >= self.clear_after):
            log.info("dealer simulator: the operator cleared the fault")
            model.resume()
            self._stopped_at = None
        self._send(now)

    def _send(self, now: float) -> None:
        if self._sending is not None:
            data, seq, sent_at, tries = self._sending
            if now - sent_at >= self.ack_timeout:
                self._raw(data)
                self._sending = (data, seq, now, tries + 1)
            return
        if not self.outbox:
            return
        message, link = self.outbox.popleft()
        seq = self._seq
        self._seq = (self._seq + 1) % 256
        data = frame_of(message, seq).encode()
        self._sending = (data, seq, now, 1)
        if "noise" in link:
            self._raw(bytes(self.rng.randrange(256) for _ in range(self.rng.randrange(5, 40))))
        if "garble" in link:
            damaged = bytearray(data)
            damaged[self.rng.randrange(6, len(damaged))] ^= 0x5A
            self._raw(bytes(damaged))        # the ACK never comes: sent again whole
        elif "partial" in link:
            self._raw(data[:len(data) // 2])
            time.sleep(0.03)
            self._raw(data[len(data) // 2:])
        elif "cut" in link:
            self._raw(data[:len(data) // 2])
            self._sending = (data, seq, now, 1)   # the whole frame after ack_timeout
        else:
            self._raw(data)

    def _raw(self, data: bytes) -> None:
        self.port.write(data)


def serve_tcp(host: str, port: int, model: MachineModel | None = None, **options: Any
              ) -> tuple[socket.socket, threading.Thread]:
    """Listen on ``host:port`` (0: a free port) and serve each connection, one at a time,
    with the same machine; returns the listening socket (close it to stop) and the thread."""
    machine = model or MachineModel()
    listener = socket.create_server((host, port))
    listener.settimeout(0.2)

    def accept_loop() -> None:
        while True:
            try:
                conn, peer = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return      # the listener was closed
            log.info("dealer simulator: host %s connected", peer)
            sim = DealerSimulator(_SocketPort(conn, 0.02), machine, **options)
            sim.run()
            conn.close()

    thread = threading.Thread(target=accept_loop, name="dealer-sim-tcp", daemon=True)
    thread.start()
    return listener, thread


def open_pty() -> tuple[_FdPort, str, int]:
    """A pty pair made here: the simulator's end, the path the driver opens, and the other
    end's descriptor (kept open, raw, so nothing written is lost or changed)."""
    master, slave = os.openpty()
    tty.setraw(slave)
    return _FdPort(master, 0.02), os.ttyname(slave), slave


class SimulatedDealer(DealingMachine):
    """The model in this process, no line: ``sim://?faults=3:misread,7:jam&board_seconds=0``.
    Line faults do not apply (``silent`` does: the machine stops answering)."""

    def __init__(self, url: str = "sim://", *, faults: FaultPlan | str | None = None,
                 board_seconds: float | None = None, answer_timeout: float = 1.0,
                 clear_after: float = 0.3, seed: int = 0):
        super().__init__(url)
        query = parse_qs(urlsplit(url).query)
        try:
            if faults is None:
                faults = FaultPlan.parse(",".join(query.get("faults", [])))
            elif isinstance(faults, str):
                faults = FaultPlan.parse(faults)
            if board_seconds is None:
                board_seconds = float(query.get("board_seconds", ["0"])[0])
        except ValueError as err:
            raise DealerError(f"{url}: {err}") from None
        lined = sorted(f"{b}:{k}" for b, kinds in faults.faults.items() for k in kinds
                       if k in LINK_FAULTS and k != "silent")
        if lined:
            raise DealerError(f"{url}: {', '.join(lined)}: faults of the line need a line "
                              "(the simulator on a pty or a socket)")
        self.model = MachineModel(faults, seed=seed)
        self.board_seconds = board_seconds
        self.answer_timeout = answer_timeout
        self.clear_after = clear_after
        self.silent = False
        self._reports: queue.Queue[Report] = queue.Queue()
        self._wake = threading.Event()
        self._closed = threading.Event()
        self._thread = threading.Thread(target=self._deal_loop, name="dealer-sim-local",
                                        daemon=True)
        self._thread.start()

    def _deal_loop(self) -> None:
        model = self.model
        while not self._closed.is_set():
            board = model.next_board
            if board is None or self.silent:
                if model.state is MachineState.STOPPED and not self.silent:
                    self._closed.wait(self.clear_after)
                    if model.state is MachineState.STOPPED:
                        model.resume()
                    continue
                self._wake.wait(0.05)
                self._wake.clear()
                continue
            if model.faults.take(board, ("silent",)):
                self.silent = True
                continue
            for report in model.deal_next():
                self._reports.put(report)
            self._closed.wait(self.board_seconds)

    def _answer(self, what: str) -> None:
        if self._closed.is_set():
            raise DealerConnectionError(f"dealing machine {self.url}: closed")
        if self.silent:
            time.sleep(self.answer_timeout)
            raise self._silent(f"no answer to {what} in {self.answer_timeout:.1f} s")

    def _do(self, what: str, action: Callable[[], None]) -> None:
        self._answer(what)
        try:
            action()
        except MessageError as err:
            raise DealerRefused(f"dealing machine {self.url} refused {what}: "
                                f"{NackCode(err.code).name.lower()}: {err.reason}",
                                err.code, err.reason) from None
        self._wake.set()

    def hello(self) -> Info:
        self._answer("HELLO")
        self.info = self.model.info()
        return self.info

    def status(self) -> Status:
        self._answer("STATUS_QUERY")
        return self.model.status()

    def load(self, board: int, deal: Deal, copies: int = 1) -> None:
        message = LoadBoard(board, deal, copies)
        self._do("LOAD_BOARD", lambda: self.model.load(message.board, message.deal,
                                                       message.copies))

    def start(self, first: int, last: int) -> None:
        self._do("START", lambda: self.model.start(first, last))

    def pause(self) -> None:
        self._do("PAUSE", self.model.pause)

    def resume(self) -> None:
        self._do("RESUME", self.model.resume)

    def clear(self) -> None:
        self._do("CLEAR", self.model.clear)

    def next_report(self, timeout: float) -> Report | None:
        try:
            return self._reports.get(timeout=timeout)
        except queue.Empty:
            if self.silent:
                raise self._silent("no board reported and no answer") from None
            return None

    def close(self) -> None:
        self._closed.set()
        if self._thread is not threading.current_thread():
            self._thread.join(2.0)

