"""``tenace tablet`` as a user starts it: a real process (offscreen Kivy, and a real X window
under Xvfb) that connects to the hub's broker, announces itself (birth on its status topic),
and leaves with its will."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from hub.broker import EmbeddedBroker
from wire.mqtt import MqttClient


def test_tenace_tablet_help_lists_its_options() -> None:
    out = subprocess.run([sys.executable, "-m", "tenace", "tablet", "--help"],
                         capture_output=True, text=True, timeout=60,
                         env=dict(os.environ, KIVY_NO_ARGS="1", SDL_VIDEODRIVER="offscreen"))
    assert out.returncode == 0
    assert "--hub" in out.stdout and "--table" in out.stdout and "--seat" in out.stdout


def test_tenace_tablet_refuses_a_bad_table_without_a_traceback() -> None:
    out = subprocess.run([sys.executable, "-m", "tenace", "tablet", "--hub", "127.0.0.1:1",
                          "--table", "not a table!"], capture_output=True, text=True,
                         timeout=60, env=dict(os.environ, KIVY_NO_ARGS="1",
                                              SDL_VIDEODRIVER="offscreen"))
    assert out.returncode == 2 and "Traceback" not in out.stderr and "table" in out.stderr


def test_a_tablet_process_connects_and_announces_itself(embedded_broker: EmbeddedBroker,
                                                        tmp_path: Path, keyring: Any,
                                                        tablet_config: Path) -> None:
    host, port = embedded_broker.url.removeprefix("mqtt://").rsplit(":", 1)
    credentials = keyring.issue("A1-S")  # as `tenace accounts issue A1-S` prints them
    (tmp_path / "a1-s.json").write_text(json.dumps(
        {"username": credentials.username, "password": credentials.password}))
    watcher = MqttClient(embedded_broker.url, "director", clean_session=True, start=False)
    watcher.subscribe("tenace/v1/t/A1/dev/A1-S/status", 1, wait=False)
    watcher.start().wait_connected()
    proc = subprocess.Popen(
        [sys.executable, "-m", "tenace", "tablet", "--hub", f"{host}:{port}", "--table", "A1",
         "--seat", "S", "--language", "it", "--outbox", str(tmp_path / "outbox.sqlite3"),
         "--credentials", str(tmp_path / "a1-s.json")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env=dict({k: v for k, v in os.environ.items() if k != "TENACE_MQTT_KEYRING"},
                 KIVY_NO_ARGS="1", SDL_VIDEODRIVER="offscreen",
                 KIVY_HOME=str(tmp_path / "kivy")))
    try:
        status = json.loads(watcher.messages.get(timeout=60).payload)
        assert status["online"] is True and status["seat"] == "S"
        assert (tmp_path / "outbox.sqlite3").exists()
        # --language it is kept for the device's next starts (tablet.settings)
        assert json.loads((tablet_config / "tablet.json").read_text())["language"] == "it"
    finally:
        proc.terminate()
        proc.wait(20)
        deadline = time.monotonic() + 60        # a guard: the loop ends on the farewell
        last = status
        while time.monotonic() < deadline and last.get("online"):
            try:
                last = json.loads(watcher.messages.get(timeout=1).payload)
            except Exception:
                continue
        watcher.close()
    assert last["online"] is False   # its farewell (or the broker's will)


def test_tenace_help_lists_the_tablet_without_importing_kivy() -> None:
    out = subprocess.run([sys.executable, "-c", "import sys; from tenace.cli import main; "
                          "sys.argv=['tenace', '--help']\ntry: main()\nexcept SystemExit: "
                          "pass\nprint('kivy' in sys.modules)"],
                         capture_output=True, text=True, timeout=60)
    assert "tablet" in out.stdout and out.stdout.strip().endswith("False")


def test_under_xvfb_the_tablet_opens_a_real_x_window_and_goes_online(
        embedded_broker: EmbeddedBroker, tmp_path: Path) -> None:
    """Not offscreen: an X server (Xvfb) and the window a tablet's screen would show, titled
    Tenace, while the tablet is online at the broker."""
    read, write = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x800x24",
                             "-nolisten", "tcp"], pass_fds=(write,),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as displayfd:
        display = f":{displayfd.readline().strip()}"
    host, port = embedded_broker.url.removeprefix("mqtt://").rsplit(":", 1)
    watcher = MqttClient(embedded_broker.url, "director", clean_session=True, start=False)
    watcher.subscribe("tenace/v1/t/A1/dev/A1-E/status", 1, wait=False)
    watcher.start().wait_connected()
    env = {k: v for k, v in os.environ.items() if k != "SDL_VIDEODRIVER"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "tenace", "tablet", "--hub", f"{host}:{port}", "--table", "A1",
         "--seat", "E", "--outbox", str(tmp_path / "outbox.sqlite3")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env=dict(env, DISPLAY=display, KIVY_NO_ARGS="1", KIVY_HOME=str(tmp_path / "kivy")))
    try:
        status = json.loads(watcher.messages.get(timeout=60).payload)
        assert status["online"] is True and status["seat"] == "E"
        windows = ""
        deadline = time.monotonic() + 30
        while '"Tenace"' not in windows and time.monotonic() < deadline:
            windows = subprocess.run(["xwininfo", "-root", "-tree", "-display", display],
                                     capture_output=True, text=True, timeout=10).stdout
            time.sleep(0.2)
        assert '"Tenace"' in windows, windows
        assert proc.poll() is None
    finally:
        proc.terminate()
        proc.wait(20)
        watcher.close()
        xvfb.terminate()
        xvfb.wait(10)
