"""Tenace dealing machine benchmarks (issue 5). Prints figures; asserts nothing.

    python benchmarks/dealer.py [--frames 50000] [--boards 20000] [--line 300]

* Frames per second through the serial parser (``FrameParser.data_received``): board
  reports (the size a machine sends, about 70 bytes) fed in 64-byte pieces as a serial
  read returns them, clean and with 1% of the frames garbled and noise between frames;
  against the baseline of the same bytes only scanned for the start byte (``bytes.find``
  over each piece, no CRC, no frame), measured in the same run.
* The check of a dealt board against its hand record (``hub.dealing.check_dealt``), per
  board, boards as dealt and boards with a card displaced, against comparing two deals for
  equality (``Deal.__eq__``) as the baseline.
* A real line: boards dealt by the simulator behind a socat pty pair with no pacing, each
  reported, acknowledged, received and checked by the driver: boards per second and the
  time from the machine writing a report to the driver handing it over, p50 and p99 (the
  pty's cost included; a real machine takes about 6 s a board).
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bridgecore.bigdeal import random_deal
from bridgecore.cards import Card, Seat
from bridgecore.deal import Deal
from firmware_bridge.dealer_messages import BoardDealt, frame_of, frame_parser, pockets_of
from firmware_bridge.serial_frames import SOF
from hub.dealing import check_dealt


def _line(name: str, value: str, baseline: str = "") -> None:
    print(f"{name:<52} {value:>22}   {baseline}")


def _stream(frames: int, rng: random.Random, damaged: float) -> tuple[bytes, int]:
    deals = [random_deal(rng) for _ in range(64)]
    out = bytearray()
    good = 0
    for i in range(frames):
        data = bytearray(frame_of(BoardDealt(i % 900 + 1, 1, pockets_of(deals[i % 64])),
                                  i % 256).encode())
        if rng.random() < damaged:
            data[rng.randrange(6, len(data))] ^= 0x41
            out += bytes(rng.randrange(256) for _ in range(rng.randrange(1, 16)))
        else:
            good += 1
        out += data
    return bytes(out), good


def _feed(stream: bytes, piece: int) -> tuple[float, int]:
    parser = frame_parser()
    t0 = time.perf_counter()
    n = 0
    for i in range(0, len(stream), piece):
        n += len(parser.data_received(stream[i:i + piece]))
    return time.perf_counter() - t0, n


def _scan(stream: bytes, piece: int) -> float:
    t0 = time.perf_counter()
    for i in range(0, len(stream), piece):
        chunk = stream[i:i + piece]
        at = chunk.find(SOF)
        while at >= 0:
            at = chunk.find(SOF, at + 1)
    return time.perf_counter() - t0


def bench_parser(frames: int) -> None:
    rng = random.Random(2026)
    for label, damaged in (("clean", 0.0), ("1% garbled, noise between", 0.01)):
        stream, good = _stream(frames, rng, damaged)
        base = min(_scan(stream, 64) for _ in range(3))
        spent, n = min(_feed(stream, 64) for _ in range(3))
        _line(f"parser, {label}: frames/s", f"{n / spent:,.0f}",
              f"{len(stream) / spent / 1e6:.1f} MB/s; {n} of {good} good frames found; "
              f"{spent / base:.1f}x the start-byte scan ({len(stream) / base / 1e6:.0f} MB/s)")
    print(f"    a 115200-baud line carries about {115200 / 10 / 70:,.0f} such frames a second")


def bench_check(boards: int) -> None:
    rng = random.Random(7)
    records = [random_deal(rng) for _ in range(boards)]
    dealt = [pockets_of(d) for d in records]
    moved: list[dict[Seat, list[Card | None]]] = []
    for deal in records:
        pockets = {s: list(c) for s, c in pockets_of(deal).items()}
        pockets[Seat.EAST].append(pockets[Seat.NORTH].pop())
        moved.append(pockets)
    copies = [Deal({s: deal[s] for s in Seat}) for deal in records]
    t0 = time.perf_counter()
    same = sum(a == b for a, b in zip(records, copies, strict=True))
    base = (time.perf_counter() - t0) / boards
    for label, reads in (("as dealt", dealt), ("a card displaced", moved)):
        t0 = time.perf_counter()
        ok = sum(check_dealt(n, records[n], reads[n]).ok for n in range(boards))
        per = (time.perf_counter() - t0) / boards
        _line(f"check of a board {label}: per board", f"{per * 1e6:.1f} µs",
              f"{ok} of {boards} ok; {per / base:.0f}x Deal equality ({base * 1e6:.2f} µs, "
              f"{same} equal)")


def bench_line(boards: int) -> None:
    socat = shutil.which("socat")
    if socat is None:
        print("line: socat is not installed; skipped (apt install socat)")
        return
    from firmware_bridge.dealer import SerialDealer
    from firmware_bridge.dealer_sim import DealerSimulator, MachineModel, open_serial

    rng = random.Random(3)
    deals = {n: random_deal(rng) for n in range(1, boards + 1)}
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "socat.log"
        with log.open("wb") as err:
            process = subprocess.Popen([socat, "-d", "-d", "pty,raw,echo=0", "pty,raw,echo=0"],
                                       stderr=err)
        try:
            names: list[str] = []
            while len(names) < 2:
                time.sleep(0.01)
                names = re.findall(r"PTY is (\S+)", log.read_text())
            line = open_serial(names[1])
            written: dict[int, float] = {}
            sim = DealerSimulator(_Stamped(line, written), MachineModel()).start()
            machine = SerialDealer(names[0])
            try:
                machine.hello()
                machine.load_all(deals)
                t0 = time.perf_counter()
                machine.start(1, boards)
                delays = []
                for _ in range(boards):
                    report = machine.next_report(10)
                    got = time.perf_counter()
                    assert isinstance(report, BoardDealt)
                    check_dealt(report.board, deals[report.board], report.pockets)
                    delays.append(got - written[report.board])
                spent = time.perf_counter() - t0
            finally:
                machine.close()
                sim.stop()
                line.close()
        finally:
            process.terminate()
            process.wait(5)
    q = statistics.quantiles(delays, n=100)
    _line("socat pty, simulator to driver: boards/s", f"{boards / spent:,.0f}",
          f"report written -> handed over: p50 {q[49] * 1e3:.2f} ms, p99 {q[98] * 1e3:.2f} ms")
    print(f"    {machine.link_summary()}")


class _Stamped:
    """The simulator's line, noting when each board report is written."""

    def __init__(self, line: object, written: dict[int, float]):
        self.line = line
        self.written = written

    def read(self, size: int = 1) -> bytes:
        return self.line.read(size)  # type: ignore[attr-defined,no-any-return]

    def write(self, data: bytes) -> int | None:
        if len(data) > 8 and data[2] == 0x83:
            self.written.setdefault(int.from_bytes(data[6:8], "big"), time.perf_counter())
        return self.line.write(data)  # type: ignore[attr-defined,no-any-return]

    def close(self) -> None:
        self.line.close()  # type: ignore[attr-defined]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=50000)
    parser.add_argument("--boards", type=int, default=20000)
    parser.add_argument("--line", type=int, default=300, help="boards over the socat pty")
    args = parser.parse_args()
    bench_parser(args.frames)
    bench_check(args.boards)
    bench_line(args.line)


if __name__ == "__main__":
    main()
