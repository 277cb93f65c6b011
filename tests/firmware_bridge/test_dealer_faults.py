"""Faults, injected into the simulator and through real lines (socat pty pair, TCP): cards
misread, missing, extra or in the wrong pocket, a jam, garbled, cut and noisy frames, a
machine that goes silent, a port that goes away; and a hand-made machine that sends bad and
repeated frames. Nothing crashes, nothing reported is lost or taken twice, and each board
that is not its hand record is caught before it goes out (Laws 6D1, 87)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bridgecore.bigdeal import secure_deals
from firmware_bridge.dealer import (
    DealerConnectionError,
    DealerRefused,
    DealerSilent,
    SerialDealer,
    open_dealer,
)
from firmware_bridge.dealer_messages import (
    Ack,
    BoardDealt,
    ErrorCode,
    Info,
    MsgType,
    Nack,
    NackCode,
    Start,
    decode,
    frame_of,
    pockets_of,
)
from firmware_bridge.dealer_run import DealingRun, RunSummary
from firmware_bridge.dealer_sim import DealerSimulator, FaultPlan, MachineModel, open_serial
from firmware_bridge.serial_frames import Frame, FrameParser
from tests.firmware_bridge.conftest import Pty
from tests.firmware_bridge.test_dealer_contract import FAST, simulated

DEALS = secure_deals(1, 6)


def run(kind: str, folder: Path, faults: str, boards: int = 6) -> tuple[RunSummary, list[str],
                                                                         object]:
    lines: list[str] = []
    with simulated(kind, folder, faults) as (url, options), \
            open_dealer(url, **options) as machine:
        summary = DealingRun(machine, {n: DEALS[n] for n in range(1, boards + 1)},
                             progress=lines.append, wait=20).run()
    return summary, lines, machine


@pytest.mark.parametrize("kind", ["pty", "socket", "sim"])
def test_law_6d1_card_faults_are_caught_before_the_boards_go_out(kind: str,
                                                                 tmp_path: Path) -> None:
    summary, lines, _ = run(kind, tmp_path, "1:misread,2:missing,3:extra,4:wrong_pocket")
    assert [o.board for o in summary.misdealt] == [1, 2, 3, 4]
    assert [o.ok for o in summary.outcomes] == [False] * 4 + [True] * 2
    misread, missing, extra, moved = summary.misdealt
    assert [e.code for e in misread.errors] == [ErrorCode.MISREAD]
    assert sum(p.unread for p in misread.check.pockets) == 1
    assert len(missing.check.absent) == 1 and missing.errors[0].card == missing.check.absent[0]
    assert [p.count for p in missing.check.pockets] == [12]
    assert extra.check.twice == (extra.errors[0].card,)
    assert moved.errors == () and sorted(p.count for p in moved.check.pockets) == [12, 14]
    assert summary.exit_code == 1 and summary.stopped is None
    assert lines[1] == "board 1 dealt (1/6), " + misread.verdict()
    assert "Law 6D1" in lines[1] and lines[-1].endswith("(6/6), checked")


@pytest.mark.parametrize("kind", ["socket", "sim"])
def test_a_jam_stops_the_machine_and_the_board_is_dealt_again(kind: str,
                                                              tmp_path: Path) -> None:
    summary, lines, _ = run(kind, tmp_path, "2:jam", boards=3)
    assert [(f.code, f.board) for f in summary.faults] == [(ErrorCode.JAM, 2)]
    assert [o.board for o in summary.outcomes] == [1, 2, 3] and not summary.misdealt
    assert any(line.startswith("machine fault: jam at board 2") for line in lines)


@pytest.mark.parametrize("kind", ["pty", "socket"])
def test_garbled_noisy_partial_and_cut_frames_are_counted_and_nothing_is_lost(
        kind: str, tmp_path: Path) -> None:
    summary, _, machine = run(kind, tmp_path, "1:garble,2:noise,3:partial,4:cut,5:noise",
                              boards=5)
    assert [o.board for o in summary.outcomes] == [1, 2, 3, 4, 5] and not summary.misdealt
    assert isinstance(machine, SerialDealer)
    stats = machine.stats
    assert stats.bad_crc + stats.truncated >= 2          # the garbled and the cut report
    assert stats.garbage_bytes >= 10 and stats.frames >= 5
    assert "bad CRC" in machine.link_summary()


@pytest.mark.parametrize("kind", ["pty", "socket", "sim"])
def test_a_machine_that_goes_silent_gives_a_clear_status(kind: str, tmp_path: Path) -> None:
    summary, lines, machine = run(kind, tmp_path, "3:silent", boards=4)   # it returns
    assert [o.board for o in summary.outcomes] == [1, 2]
    assert summary.stopped is not None and summary.exit_code == 3
    problem = getattr(machine, "problem", None)
    assert problem is not None and problem.startswith("not answering since")
    assert lines[-1].startswith("STOPPED: dealing machine")


def test_the_port_going_away_is_a_clear_error(tmp_path: Path) -> None:
    pair = Pty(tmp_path)
    line = open_serial(pair.device)
    sim = DealerSimulator(line, MachineModel()).start()
    machine = SerialDealer(pair.reader, **FAST)
    try:
        machine.hello()
        sim.stop()
        pair.stop()                               # socat gone: both ends of the line hang up
        with pytest.raises(DealerConnectionError):
            for _ in range(50):
                machine.next_report(0.1)
        assert machine.problem is not None and "port lost" in machine.problem
    finally:
        machine.close()
        line.close()


# A ceiling, never a pace: the tests below wait on the frames themselves; this only keeps a
# broken driver from hanging the suite.
GUARD = 60.0


class HandMadeMachine:
    """A TCP 'machine' written by hand, to send what no good machine would."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"socket://127.0.0.1:{self.listener.getsockname()[1]}"
        self.received: list[Frame] = []
        self.conn: socket.socket | None = None
        self._accepted = threading.Event()
        self._parser = FrameParser()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        self.conn, _ = self.listener.accept()
        self.conn.settimeout(0.05)
        self._accepted.set()

    def _connection(self) -> socket.socket:
        """The driver's connection, once it has connected (on a busy machine the accepting
        thread may run after the driver's first frame is already on its way)."""
        assert self._accepted.wait(GUARD) and self.conn is not None, "the driver never connected"
        return self.conn

    def send(self, data: bytes) -> None:
        self._connection().sendall(data)

    def frames(self, n: int) -> list[Frame]:
        """The first ``n`` frames the driver sent (all received so far, ``n`` or more)."""
        conn = self._connection()
        end = time.monotonic() + GUARD
        while len(self.received) < n:
            assert time.monotonic() < end, f"{len(self.received)} frames, not {n}"
            try:
                self.received += self._parser.data_received(conn.recv(4096))
            except TimeoutError:
                continue
        return self.received

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
        self.listener.close()


class SteppedDealer(SerialDealer):
    """The real driver, but a try of a command ends when the test says its frame was lost
    (:meth:`lose`), not after ``ack_timeout`` seconds: how many times a command goes out
    then depends on what the machine did, never on how busy the computer is."""

    def __init__(self, url: str) -> None:
        self._lost = threading.Semaphore(0)
        super().__init__(url, **FAST)

    def lose(self, tries: int = 1) -> None:
        """End ``tries`` tries unanswered (now, or as soon as they are sent)."""
        for _ in range(tries):
            self._lost.release()

    def _acknowledged(self, done: threading.Event) -> bool:
        end = time.monotonic() + GUARD
        while time.monotonic() < end:
            if done.wait(0.01):
                return True
            if self._lost.acquire(blocking=False):
                return done.is_set()
        return done.is_set()


class Beside:
    """``target`` run in a thread beside the test; :meth:`join` raises what it raised."""

    def __init__(self, target: Callable[[], None]) -> None:
        self.error: BaseException | None = None
        self._target = target
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self._target()
        except BaseException as err:      # handed to the test by join()
            self.error = err

    def join(self) -> None:
        self._thread.join(GUARD)
        assert not self._thread.is_alive(), f"{self._target.__name__} still running"
        if self.error is not None:
            raise self.error


@pytest.fixture
def hand_made() -> Iterator[HandMadeMachine]:
    machine = HandMadeMachine()
    try:
        yield machine
    finally:
        machine.close()


def test_the_driver_refuses_bad_frames_and_takes_a_repeated_report_once(
        hand_made: HandMadeMachine) -> None:
    machine = SerialDealer(hand_made.url, **FAST)
    try:
        report = BoardDealt(1, 1, pockets_of(DEALS[1]))
        good = frame_of(report, 9).encode()
        bad_payload = Frame(MsgType.BOARD_DEALT, 8, b"\x00\x01").encode()
        hand_made.send(b"\xa5\x00junk" + bad_payload + good + good)
        first = machine.next_report(GUARD)
        assert first == report and machine.next_report(0.3) is None
        back = hand_made.frames(3)
        assert [(f.type, f.seq) for f in back] == [(MsgType.NACK, 8), (MsgType.ACK, 9),
                                                   (MsgType.ACK, 9)]
        nack = decode(back[0])
        assert isinstance(nack, Nack) and nack.code == NackCode.BAD_PAYLOAD
        assert machine.counters.duplicates == 1 and machine.counters.nacks_sent == 1
        assert machine.stats.garbage_bytes >= 6 and machine.stats.bad_header == 1
        hand_made.send(frame_of(Start(1, 2), 7).encode())    # the host's message
        refused = hand_made.frames(4)[3]
        assert (refused.type, refused.seq) == (MsgType.NACK, 7)
        assert "host's message" in decode(refused).reason  # type: ignore[union-attr]
    finally:
        machine.close()


def test_a_command_is_sent_again_until_acknowledged_and_a_nack_is_an_error(
        hand_made: HandMadeMachine) -> None:
    machine = SteppedDealer(hand_made.url)
    try:
        def answer_the_second_hello() -> None:
            hand_made.frames(1)
            machine.lose()                                        # the first one is "lost"
            hello = hand_made.frames(2)[1]
            hand_made.send(frame_of(Ack(), hello.seq).encode()
                           + frame_of(Info(1, "Hand", "0", "1"), 0).encode())

        answer = Beside(answer_the_second_hello)
        assert machine.hello().model == "Hand"
        answer.join()
        assert machine.counters.resent == 1 and machine.counters.sent == 2
        assert [(f.type, f.seq) for f in hand_made.frames(3)] == [
            (MsgType.HELLO, 0), (MsgType.HELLO, 0), (MsgType.ACK, 0)]   # the same HELLO twice

        def refuse() -> None:
            frame = hand_made.frames(4)[3]                        # after our ACK of INFO
            assert frame.type == MsgType.PAUSE
            hand_made.send(frame_of(Nack(NackCode.BAD_STATE, "dealing"), frame.seq).encode())

        refusal = Beside(refuse)
        with pytest.raises(DealerRefused) as err:
            machine.pause()
        refusal.join()
        assert err.value.code == NackCode.BAD_STATE and "bad_state: dealing" in str(err.value)
        assert machine.counters.sent == 3                         # refused at once, not resent
        machine.lose(FAST["retries"] + 1)                         # nobody answers at all
        with pytest.raises(DealerSilent, match="no acknowledgement of RESUME after 3 tries"):
            machine.resume()
        assert machine.problem is not None and "RESUME" in machine.problem
        assert machine.counters.sent == 6 and machine.counters.resent == 3
        assert [f.type for f in hand_made.frames(7)[4:]] == [MsgType.RESUME] * 3
    finally:
        machine.close()


def test_fault_plans_name_a_bad_fault() -> None:
    assert FaultPlan.parse("3:misread, 3:jam").faults == {3: {"misread", "jam"}}
    with pytest.raises(ValueError, match="BOARD:KIND"):
        FaultPlan.parse("3:explode")
