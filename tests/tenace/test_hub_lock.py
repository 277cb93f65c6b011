"""One hub per data directory: a second ``tenace hub`` on a directory a hub is running on
is refused at once, naming the other hub, before it touches anything (its broker, its
accounts, its log); a hub killed (a power cut, ``kill -9``) leaves no lock behind."""

from __future__ import annotations

import hashlib
import subprocess
import sys
import time
from pathlib import Path


def _start(data: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tenace", "hub", "--data", str(data), "--tables", "3",
         "--listen", "127.0.0.1:0", "--console", "off", "--no-double-dummy"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def _ready(hub: subprocess.Popen[str]) -> None:
    assert hub.stdout is not None
    deadline = time.monotonic() + 120   # a guard: the hub says when it is ready
    seen = []
    for line in hub.stdout:
        seen.append(line)
        if "hub ready" in line:
            return
        assert time.monotonic() < deadline, "".join(seen)
    raise AssertionError("the hub stopped before it was ready:\n" + "".join(seen))


def _digest(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.iterdir()) if p.is_file() and "sqlite3" not in p.name}


def test_a_second_hub_on_the_same_data_directory_is_refused_and_changes_nothing(
        tmp_path: Path) -> None:
    data = tmp_path / "club"
    first = _start(data)
    try:
        _ready(first)
        before = _digest(data)
        second = subprocess.run(
            [sys.executable, "-m", "tenace", "hub", "--data", str(data), "--listen",
             "127.0.0.1:0", "--console", "off"], capture_output=True, text=True, timeout=120)
        assert second.returncode == 2, second.stderr
        assert "Traceback" not in second.stderr
        assert "another hub" in second.stderr and str(first.pid) in second.stderr
        assert str(data) in second.stderr
        assert _digest(data) == before      # the running hub's accounts untouched
        assert first.poll() is None         # and it runs on
    finally:
        first.kill()                        # as a power cut would: no clean stop
        first.communicate(timeout=60)
    again = _start(data)                    # the lock went with the process
    try:
        _ready(again)
    finally:
        again.terminate()
        again.communicate(timeout=60)


def test_a_data_directory_that_is_a_file_is_named_as_such(tmp_path: Path) -> None:
    afile = tmp_path / "notes.txt"
    afile.write_text("mine")
    out = subprocess.run([sys.executable, "-m", "tenace", "hub", "--data", str(afile),
                          "--tables", "3", "--console", "off"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert f"--data {afile}: not a directory" in out.stderr
    assert afile.read_text() == "mine"


def test_a_console_on_every_address_says_which_address_to_open(tmp_path: Path) -> None:
    # "director console: http://0.0.0.0:8080/" is no address a browser (or the certificate)
    # knows: the hub says which name to open it by
    hub = subprocess.Popen(
        [sys.executable, "-m", "tenace", "hub", "--data", str(tmp_path / "d"), "--tables",
         "3", "--listen", "127.0.0.1:0", "--console", "0.0.0.0:0", "--no-double-dummy",
         "--console-allowed-host", "hub.club.test"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert hub.stdout is not None
        lines = []
        for line in hub.stdout:
            lines.append(line)
            if "hub ready" in line:
                break
        shown = "".join(lines)
        assert "director console: http://0.0.0.0:" in shown
        assert "open it as http://hub.club.test:" in shown, shown
    finally:
        hub.terminate()
        hub.communicate(timeout=60)
