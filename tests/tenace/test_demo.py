"""``tenace demo``, the README's main job: a hub with its embedded broker, the director's
console and a simulated room, run for a few seconds as a user would."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path


def test_the_demo_runs_a_room_and_serves_the_console() -> None:
    out = subprocess.run(
        # One round played to its end (not a few seconds of it: a busy machine plays fewer
        # events in them); --minutes and the timeout are guards.
        [sys.executable, "-m", "tenace", "demo", "--tables", "4", "--rounds", "1",
         "--minutes", "8", "--no-browser", "--console", "127.0.0.1:0", "--seed", "1"],
        capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert re.search(r"director console: http://127\.0\.0\.1:\d+/", out.stdout)
    taken = re.search(r"(\d+) events taken", out.stdout)
    assert taken and int(taken.group(1)) > 100
    assert "Traceback" not in out.stderr


def test_a_console_port_already_taken_is_a_clear_error_not_a_traceback(tmp_path: Path) -> None:
    import socket
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        for command in (["demo", "--minutes", "0.05", "--no-browser"],
                        ["hub", "--tables", "3", "--listen", "127.0.0.1:0", "--data",
                         str(tmp_path / "data")]):
            out = subprocess.run([sys.executable, "-m", "tenace", *command, "--console",
                                  f"127.0.0.1:{port}"], capture_output=True, text=True,
                                 timeout=60)
            assert out.returncode == 2, out.stderr
            assert "Traceback" not in out.stderr and "address already in use" in out.stderr


def test_one_ctrl_c_stops_the_demo_in_mid_session() -> None:
    # Ctrl-C while the room plays: the demo stops (one press, as it says), and does not
    # claim the session is over nor wait for a second Ctrl-C.
    import signal
    demo = subprocess.Popen(
        # faulthandler: should it hang, SIGABRT below shows where
        [sys.executable, "-X", "faulthandler", "-m", "tenace", "demo", "--tables", "4",
         "--no-browser", "--console", "127.0.0.1:0", "--seed", "1"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert demo.stdout is not None
    seen = []
    for line in demo.stdout:   # the demo says when the room is up
        seen.append(line)
        if line.startswith("log in as"):
            break
    demo.send_signal(signal.SIGINT)
    try:
        rest, _ = demo.communicate(timeout=120)   # a guard: it stops well before
    except subprocess.TimeoutExpired as hung:
        demo.send_signal(signal.SIGABRT)
        rest, _ = demo.communicate()
        raise AssertionError("one Ctrl-C did not stop the demo:\n" + "".join(seen) + rest) \
            from hung
    assert demo.returncode == 0, "".join(seen) + rest
    assert "events taken" in rest and "Traceback" not in rest
    assert "the session is over" not in rest


def test_a_broker_port_already_taken_is_a_clear_error_not_a_traceback(tmp_path: Path) -> None:
    import socket
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        out = subprocess.run([sys.executable, "-m", "tenace", "hub", "--tables", "3",
                              "--listen", f"127.0.0.1:{port}", "--console", "off", "--data",
                              str(tmp_path / "data")], capture_output=True, text=True,
                             timeout=120)
    assert out.returncode == 2, out.stderr
    assert "Traceback" not in out.stderr, out.stderr
    assert f"127.0.0.1:{port}" in out.stderr and "address already in use" in out.stderr
    assert "--listen" in out.stderr
