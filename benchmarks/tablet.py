"""Tenace tablet benchmarks (issue 4). Prints figures; asserts nothing.

    python benchmarks/tablet.py [--taps 200]

* Cold start: ``tenace tablet`` in a new process (offscreen Kivy) until its link is online
  at the broker (its birth message arrives), against a bare Python start measured the same
  way; and its resident memory once online (target 150 MB or less), against a process that
  only opens a Kivy window (offscreen, Mesa's software renderer alone takes most of it:
  LLVM's code, and the textures and draw lists it keeps for each frame). Then the same two
  with Kivy's mock GL backend, which draws nothing: what the tablet itself holds, as on a
  tablet whose GPU keeps the textures.
* Tap to acknowledgement: a seat tablet in this process, offscreen, against ``tenace hub``
  with its embedded broker in their own processes (the club's set-up): a simulated touch
  on a button of the bidding pad (a pass, then the undo Law 25A allows, again and again,
  after 20 taps to warm up) until the hub's acknowledgement reaches the tablet, p50 and p99
  (target 50 ms or less at p99); and the same exchanges through the link alone (no screen)
  as the baseline. Offscreen, Kivy draws with Mesa's software renderer on the CPU, which a
  tablet's GPU does not: the UI figure is an upper bound.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_HOME", os.path.join(tempfile.gettempdir(), "tenace-kivy-bench"))
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
if not os.environ.get("DISPLAY"):
    os.environ["SDL_VIDEODRIVER"] = "offscreen"

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hub.mosquitto import free_port
from tenace.sim.observer import wait_for_hub
from wire.mqtt import MqttClient

SEED = "0123456789abcdef0123456789abcdef01234567"


def _line(name: str, value: str, target: str = "", ok: bool | None = None) -> None:
    mark = "" if ok is None else ("  [meets target]" if ok else "  [BELOW TARGET]")
    print(f"{name:<52} {value:>20}   {target}{mark}")


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _private_mb(pid: int) -> float:
    """Memory the process does not share (its own heap; not the libraries' code)."""
    total = 0
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith(("Private_Clean:", "Private_Dirty:")):
            total += int(line.split()[1])
    return total / 1024


# Kivy's mock GL backend: the same process without Mesa's software renderer drawing (a
# tablet's GPU keeps textures and draw lists in its own memory, not in the process).
MOCK_GL = {"KIVY_GL_BACKEND": "mock"}


def _bare_window_mb(extra: dict[str, str] | None = None) -> tuple[float, float]:
    """RSS and private memory of a process that only opens a Kivy window (the baseline)."""
    code = ("from kivy.core.window import Window\n"
            "import time, sys\nprint('up', flush=True)\ntime.sleep(30)\n")
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL,
                                env=dict(os.environ, KIVY_HOME=tmp, **(extra or {})))
        try:
            assert proc.stdout is not None
            proc.stdout.readline()
            time.sleep(1.0)
            return _rss_mb(proc.pid), _private_mb(proc.pid)
        finally:
            proc.kill()
            proc.wait()
            if proc.stdout is not None:
                proc.stdout.close()


def _p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench_cold_start(url: str, runs: int) -> None:
    t0 = time.perf_counter()
    for _ in range(runs):
        subprocess.run([sys.executable, "-c", "pass"], check=True)
    bare = (time.perf_counter() - t0) / runs
    starts, memory, private = _start_tablets(url, runs)
    start = statistics.median(starts)
    _line("tablet cold start to online (s, median)", f"{start:.2f}",
          f"python alone {bare:.2f} s: {start / bare:.0f}x")
    rss = max(memory)
    bare_rss, bare_private = _bare_window_mb()
    _line("bare Kivy window: resident / private (MB)", f"{bare_rss:.0f} / {bare_private:.0f}",
          "baseline")
    _line("tablet once online: resident / private (MB, max)",
          f"{rss:.0f} / {max(private):.0f}",
          f"target 150 resident; +{rss - bare_rss:.0f} MB over the bare window", rss <= 150)
    # The same without Mesa drawing: what the tablet itself holds.
    mock_rss, _ = _bare_window_mb(MOCK_GL)
    _, mock_memory, _ = _start_tablets(url, 1, MOCK_GL)
    _line("  without Mesa's renderer: bare window / tablet (MB)",
          f"{mock_rss:.0f} / {max(mock_memory):.0f}",
          f"Kivy's mock GL; the tablet's own +{max(mock_memory) - mock_rss:.0f} MB",
          max(mock_memory) <= 150)


def _start_tablets(url: str, runs: int, extra: dict[str, str] | None = None
                   ) -> tuple[list[float], list[float], list[float]]:
    """Start ``tenace tablet`` ``runs`` times: seconds to online, resident and private MB
    once settled."""
    host, port = url.removeprefix("mqtt://").rsplit(":", 1)
    starts: list[float] = []
    memory: list[float] = []
    private: list[float] = []
    for i in range(runs):
        device = f"A2-{'NESW'[i % 4]}"
        watcher = MqttClient(url, "director", clean_session=True, start=False)
        watcher.subscribe(f"tenace/v1/t/A2/dev/{device}/status", 1, wait=False)
        watcher.start().wait_connected()
        while not watcher.messages.empty():
            watcher.messages.get()
        with tempfile.TemporaryDirectory() as tmp:
            started = time.perf_counter()
            proc = subprocess.Popen(
                [sys.executable, "-m", "tenace", "tablet", "--hub", f"{host}:{port}",
                 "--table", "A2", "--seat", device[-1], "--outbox", f"{tmp}/outbox.sqlite3"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                env=dict(os.environ, KIVY_HOME=tmp, **(extra or {})))
            try:
                while True:
                    message = watcher.messages.get(timeout=60)
                    if b'"online":true' in message.payload.replace(b" ", b""):
                        break
                starts.append(time.perf_counter() - started)
                time.sleep(2.0)   # settled: first frames drawn, state received
                memory.append(_rss_mb(proc.pid))
                private.append(_private_mb(proc.pid))
            finally:
                proc.terminate()
                proc.wait(10)
                watcher.close()
    return starts, memory, private


def bench_taps(url: str, taps: int) -> None:
    from kivy.base import EventLoop
    from kivy.core.window import Window
    from kivy.tests.common import UnitTestTouch

    from tablet.app import TabletRoot
    from tablet.presenter import TabletPresenter
    from wire.link import DeviceLink
    from wire.outbox import Outbox

    EventLoop.ensure_window()
    Window.size = (1280, 800)
    replies: dict[str, float] = {}
    sent: dict[str, float] = {}
    tapped = [0.0]

    def idle_until(done: Any, timeout: float = 10.0) -> None:
        end = time.monotonic() + timeout
        while not done():
            if time.monotonic() > end:
                raise RuntimeError("the tablet did not get there in time")
            EventLoop.idle()

    with tempfile.TemporaryDirectory() as tmp:
        presenter = TabletPresenter("A1", seat="N")
        root = TabletRoot(presenter)
        outbox = Outbox(Path(tmp) / "outbox.sqlite3", "A1-N")

        def on_reply(reply: Any, envelope: Any = None) -> None:
            if envelope is not None:
                replies[envelope.id] = time.perf_counter()
            root.post_reply(reply, envelope)

        link = DeviceLink(url, "A1", "A1-N", seat="N", outbox=outbox,
                          on_state=root.post_state, on_seat=root.post_seat,
                          on_reply=on_reply, on_connection=root.post_connection)

        entered: dict[str, float] = {}

        def send(kind: str, body: dict[str, Any]) -> Any:
            at = time.perf_counter()
            envelope = link.send(kind, body)
            sent[envelope.id] = tapped[0]
            entered[envelope.id] = at
            return envelope

        root.send = send
        Window.add_widget(root)
        root.size = Window.size
        try:
            idle_until(lambda: presenter.model.connection == "online" and presenter.model.state)
            # North's tablet checks in its own pair only (docs/protocol.md section 10).
            for kind, body in (("checkin", {"direction": "NS", "pair": 1}),
                               ("board", {"board": 1})):
                link.send(kind, body)
            idle_until(lambda: presenter.screen == "auction" and presenter.model.own_cards)
            pad = root.screens["auction"]
            latencies: list[float] = []

            def tap(widget: Any) -> None:
                idle_until(lambda: not widget.disabled and widget.get_root_window() is not None)
                before = len(sent)
                x, y = widget.to_window(*widget.center)
                finger = UnitTestTouch(x, y)
                tapped[0] = time.perf_counter()
                finger.touch_down()
                finger.touch_up()
                idle_until(lambda: len(sent) > before)
                env_id = list(sent)[-1]
                idle_until(lambda: env_id in replies)
                latencies.append((replies[env_id] - sent[env_id]) * 1000)

            for _ in range(10):                     # warm up: fonts and textures drawn once
                tap(pad.pad.buttons["Pass"])
                tap(pad.pad.undo)
            latencies.clear()
            for _ in range(taps // 2):
                tap(pad.pad.buttons["Pass"])       # North passes (dealer)
                tap(pad.pad.undo)                   # and takes it back: 25A, partner silent
            if os.environ.get("TENACE_BENCH_DEBUG"):
                worst = sorted(sent, key=lambda k: replies[k] - sent[k])[-8:]
                for k in worst:
                    print(f"    {k}: tap->send {1000 * (entered[k] - sent[k]):.1f} ms, "
                          f"send->reply {1000 * (replies[k] - entered[k]):.1f} ms")
            p50, p99 = _p(latencies, 0.5), _p(latencies, 0.99)
            # The baseline: the same exchanges through the link alone, no screen, no touch.
            bare: list[float] = []
            for _ in range(taps // 2):
                for kind, body in (("call", {"seat": "N", "call": "Pass"}),
                                   ("undo", {"seat": "N"})):
                    started = time.perf_counter()
                    envelope = link.send(kind, body)
                    while envelope.id not in replies:
                        time.sleep(0.0005)
                    bare.append((replies[envelope.id] - started) * 1000)
            _line("link alone: send to acknowledgement p50 / p99 (ms)",
                  f"{_p(bare, 0.5):.1f} / {_p(bare, 0.99):.1f}", "baseline")
            _line("tap to the hub's acknowledgement p50 / p99 (ms)",
                  f"{p50:.1f} / {p99:.1f}", f"target 50 at p99; {p99 / _p(bare, 0.99):.0f}x",
                  p99 <= 50)
            print(f"    {len(latencies)} taps (a pass and its undo, in turn), embedded broker")
        finally:
            link.close()
            outbox.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--taps", type=int, default=200)
    parser.add_argument("--starts", type=int, default=3)
    args = parser.parse_args()
    # The hub and its embedded broker in their own processes, as on the club's machine.
    port = free_port()
    url = f"mqtt://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        # The event's accounts in the hub's data directory, the passwords in a keyring for
        # the tablets and the watchers (hub/accounts.py; the hub gives itself its own).
        from hub.accounts import Accounts, event_accounts, write_keyring
        from hub.event import EventSetup
        from wire.mqtt import KEYRING_ENV
        issued = Accounts(f"{tmp}/hub").issue_all({
            **event_accounts(EventSetup.quick(tables=3, boards_per_round=2, seed=SEED)),
            "director.watch": "director"})
        os.environ[KEYRING_ENV] = str(write_keyring(Path(tmp) / "keyring.json", issued))
        with (Path(tmp) / "hub.out").open("wb") as out:
            hub = subprocess.Popen(
                [sys.executable, "-m", "tenace", "hub", "--listen", f"127.0.0.1:{port}",
                 "--data", f"{tmp}/hub", "--tables", "3", "--boards-per-round", "2",
                 "--seed", SEED, "--console", "off"], stdout=out, stderr=subprocess.STDOUT)
        try:
            if not wait_for_hub(url, process=hub):
                raise SystemExit(f"the hub did not start: {(Path(tmp) / 'hub.out').read_text()}")
            bench_cold_start(url, args.starts)
            bench_taps(url, args.taps)
        finally:
            hub.terminate()
            hub.wait(30)


if __name__ == "__main__":
    main()
