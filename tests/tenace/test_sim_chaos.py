"""``tenace sim --hub URL`` against a hub running in a process of its own, ``tenace sim
--chaos`` (the hub killed, Mosquitto restarted, a table cut off, messages duplicated and
delayed: nothing lost, nothing twice, the results of a clean run), and the TCP proxy that
breaks the network for it."""

from __future__ import annotations

import itertools
import json
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hub.mosquitto import Mosquitto
from hub.store import LOG_NAME, EventLog
from tenace.cli import main
from tenace.sim.observer import wait_for_hub
from tenace.sim.proxy import Proxies, split_packets
from tests.conftest import Keyring
from wire.mqtt import KEYRING_ENV

SEED = "0123456789abcdef0123456789abcdef01234567"


# The proxy ----------------------------------------------------------------------------------

def test_mqtt_packets_are_split_where_they_end() -> None:
    publish = bytes([0x32, 3]) + b"abc"
    long = bytes([0x30, 0x80, 0x01]) + b"x" * 128     # remaining length in two bytes
    buffer = bytearray(publish + long + bytes([0xC0]))   # a PINGREQ's first byte only
    assert split_packets(buffer) == [publish, long]
    assert buffer == bytearray([0xC0])
    buffer += bytes([0])
    assert split_packets(buffer) == [bytes([0xC0, 0])] and not buffer


@pytest.fixture
def echo() -> Iterator[int]:
    """A TCP server on loopback that sends back whatever it receives."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.2)
    stop = threading.Event()

    def serve(conn: socket.socket) -> None:
        with conn:
            while data := conn.recv(4096):
                conn.sendall(data)

    def accept() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            threading.Thread(target=serve, args=(conn,), daemon=True).start()

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield server.getsockname()[1]
    stop.set()
    thread.join()
    server.close()


def _exchange(port: int, data: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(data)
        got = b""
        sock.settimeout(0.5)
        try:
            while chunk := sock.recv(4096):
                got += chunk
        except (TimeoutError, ConnectionResetError):   # the proxy drops with a reset
            pass
        return got


def _dropped(sock: socket.socket) -> bool:
    try:
        return sock.recv(16) == b""
    except ConnectionResetError:
        return True


def test_the_proxy_duplicates_publishes_cuts_and_restores(echo: int) -> None:
    publish = bytes([0x32, 4, 0, 1, ord("t"), ord("x")])   # QoS 1
    ping = bytes([0xC0, 0])
    with Proxies(("127.0.0.1", echo)) as proxies:
        proxy = proxies.add("A1", rng=random.Random(1), duplicate=1.0, delay=(0.0, 0.01))
        assert proxy.url("mqtt://a:b@127.0.0.1:1883?x=1") == \
            f"mqtt://a:b@127.0.0.1:{proxy.port}?x=1"
        # The copy carries the DUP flag, as a client's resend would; a PINGREQ goes once.
        assert _exchange(proxy.port, publish + ping) == \
            publish + bytes([0x3A]) + publish[1:] + ping
        assert (proxy.stats.published, proxy.stats.duplicated) == (1, 1)
        with socket.create_connection(("127.0.0.1", proxy.port), timeout=5) as held:
            held.sendall(ping)
            assert held.recv(16) == ping
            proxy.cut()
            assert _dropped(held)                    # dropped at once
        assert _exchange(proxy.port, ping) == b""   # refused while cut
        proxy.restore()
        assert _exchange(proxy.port, ping) == ping
        proxy.cut(0.3)                           # a cut for a while
        assert _exchange(proxy.port, ping) == b""
        time.sleep(0.5)
        assert _exchange(proxy.port, ping) == ping
        assert proxy.stats.cuts == 2 and proxy.stats.refused == 2 and proxy.stats.dropped >= 1


def test_a_stalled_proxy_keeps_the_connection_and_drops_every_byte_until_cut(
        echo: int) -> None:
    """A Wi-Fi that stops carrying traffic without a word: nothing comes back, the socket
    stays open; a cut ends it and a new connection goes through."""
    ping = bytes([0xC0, 0])
    with Proxies(("127.0.0.1", echo)) as proxies:
        proxy = proxies.add("A1")
        with socket.create_connection(("127.0.0.1", proxy.port), timeout=5) as held:
            held.sendall(ping)
            assert held.recv(16) == ping
            proxy.stall()
            held.sendall(ping + ping)
            held.settimeout(0.5)
            with pytest.raises(TimeoutError):        # silent, not closed
                held.recv(16)
            assert proxy.stats.dropped_bytes == 4
            proxy.cut()
            held.settimeout(5)
            assert _dropped(held)
        proxy.restore()
        assert _exchange(proxy.port, ping) == ping   # the cut ended the silence


# A hub running elsewhere -------------------------------------------------------------------------

@pytest.fixture
def mosquitto(tmp_path: Path, keyring: Keyring) -> Iterator[Mosquitto]:
    with Mosquitto(tmp_path / "mosquitto", accounts=keyring.accounts) as broker:
        yield broker


def test_a_room_plays_against_a_hub_running_elsewhere(
        tmp_path: Path, mosquitto: Mosquitto, keyring: Keyring,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    data.mkdir()
    with (data / "hub.out").open("wb") as out:
        hub = subprocess.Popen([sys.executable, "-m", "tenace", "hub", "--broker", mosquitto.url,
                                "--data", str(data), "--tables", "3", "--boards-per-round",
                                "2", "--seed", SEED, "--console", "off",
                                "--no-double-dummy"], stdout=out, stderr=subprocess.STDOUT)
    try:
        assert wait_for_hub(mosquitto.url, process=hub, timeout=60), \
            (data / "hub.out").read_text()
        # The devices' passwords from a credentials file, as deploy init writes it.
        credentials = tmp_path / "device-credentials.json"
        credentials.write_text(json.dumps(keyring.passwords))
        monkeypatch.delenv(KEYRING_ENV)   # only the file given
        assert main(["sim", "--json", "--hub", mosquitto.url, "--deals-seed", SEED,
                     "--tables", "3", "--boards", "2", "--rounds", "2", "--seed", "3",
                     "--inject", "revoke=0.3,insufficient_bid=0.3",
                     "--credentials", str(credentials)]) == 0
        report: dict[str, Any] = json.loads(capsys.readouterr().out)
        assert report["missed"] == [] and report["false_alarms"] == []
        assert "rejected" not in report and sum(report["injected"].values()) > 0
        assert report["detected"] == report["injected"]
    finally:
        hub.send_signal(signal.SIGTERM)
        try:
            hub.wait(15)
        except subprocess.TimeoutExpired:
            hub.kill()
            hub.wait()
    # Played there: every event of the room is in that hub's log.
    with EventLog.open(data / LOG_NAME) as event_log:
        assert sum(1 for r in event_log.replay() if r.source == "device") == report["events"]


def test_bad_options_are_refused_with_a_reason(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--hub", "mqtt://127.0.0.1:1"]) == 2
    assert "--event FILE" in capsys.readouterr().err
    assert main(["sim", "--chaos", "--broker", "mqtt://127.0.0.1:1"]) == 2
    assert "--broker" in capsys.readouterr().err
    assert main(["sim", "--chaos", "--hub-kills", "-1"]) == 2
    assert "negative" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["sim", "--chaos", "--cut-seconds", "5:1"])
    assert "LOW <= HIGH" in capsys.readouterr().err


def test_credentials_without_every_devices_password_are_refused_naming_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # A volunteer gave deploy init's device-credentials.json, which held only the devices
    # paired so far: the sim says which accounts lack a password, before any connection.
    partial = tmp_path / "device-credentials.json"
    partial.write_text(json.dumps({"A1-tab": "x", "director": "y"}))
    assert main(["sim", "--hub", "mqtt://127.0.0.1:1", "--deals-seed", "0" * 40,
                 "--tables", "2", "--boards", "2", "--credentials", str(partial)]) == 2
    err = capsys.readouterr().err
    assert "no password for A1-rdr, A2-rdr, A2-tab" in err and "tenace accounts issue" in err
    assert main(["sim", "--hub", "mqtt://127.0.0.1:1", "--deals-seed", "0" * 40,
                 "--tables", "2", "--credentials", str(tmp_path / "none.json")]) == 2
    assert "--credentials" in capsys.readouterr().err


# Chaos -----------------------------------------------------------------------------------------

def test_a_short_chaos_run_loses_nothing_and_scores_like_a_clean_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """One SIGKILL of the hub, one graceful restart of Mosquitto and a table cut off for two
    seconds, device messages duplicated and delayed, each table waiting for the hub's
    answers (tables that play on: the next test)."""
    assert main(["sim", "--json", "--chaos", "7", "--tables", "3", "--boards", "2",
                 "--rounds", "2", "--hub-kills", "1", "--broker-restarts", "1",
                 "--broker-kills", "0", "--cuts", "1", "--cut-seconds", "2:3",
                 "--duplicate", "0.05", "--delay-ms", "0:10", "--wait-offline",
                 "--keep", str(tmp_path / "chaos")]) == 0
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert report["restarts"] == {"hub": 1, "broker": 1}
    assert [f["kind"] for f in report["faults"]].count("cut") == 1
    assert report["copies"] > 0
    assert report["lost"] == 0 and report["lost_at_kill"] == []
    assert report["duplicated"] == 0
    assert "refused" not in report
    assert report["results_equal"] is True, report.get("differences")
    assert report["missed"] == [] and report["false_alarms"] == []


def test_tables_that_play_on_while_cut_off_lose_nothing_and_score_like_a_clean_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The same faults, the tables playing on while offline (the hub killed, the broker
    restarting, a table cut off): each device empties its outbox on its own when it is back,
    and the hub applies each table's events in the order of its record (hub.ordering)."""
    assert main(["sim", "--json", "--chaos", "7", "--tables", "3", "--boards", "2",
                 "--rounds", "2", "--hub-kills", "1", "--broker-restarts", "1",
                 "--broker-kills", "0", "--cuts", "1", "--cut-seconds", "2:3",
                 "--duplicate", "0.05", "--delay-ms", "0:10",
                 "--keep", str(tmp_path / "chaos")]) == 0
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert report["play_on"] is True
    assert report["restarts"] == {"hub": 1, "broker": 1}
    assert [f["kind"] for f in report["faults"]].count("cut") == 1
    assert report["lost"] == 0 and report["lost_at_kill"] == []
    assert report["duplicated"] == 0
    assert "refused" not in report
    assert report["results_equal"] is True, report.get("differences")
    assert report["missed"] == [] and report["false_alarms"] == []


def test_a_table_behind_its_schedule_plays_offline_at_its_players_pace(
        tmp_path: Path, keyring: Keyring) -> None:
    """Issue 24: a table the busy hub had slowed far behind its schedule went offline (the
    hub killed) and entered the rest of its session, 2500 events, in 26 s; its outbox then
    took minutes to empty and the run failed with "no reply in 240 s". Offline, the players
    go on at their own pace: never sooner after their last event than the script has them,
    however late the table is (the pacer here says every event is long overdue)."""
    from tenace.sim.chaos import _Room
    from tenace.sim.devices import DeviceEvent

    broker = Mosquitto(tmp_path / "mosquitto", accounts=keyring.accounts)
    gap = 0.3
    events = [DeviceEvent("A1", "A1-tab", "call", {"seat": "N", "call": "Pass"}, i * gap)
              for i in range(6)]
    try:
        with Proxies(("127.0.0.1", broker.port)) as proxies:
            proxy = proxies.add("A1", rng=random.Random(1))
            room = _Room(lambda t: proxy.url(broker.url), {"A1": events}, reply_timeout=1.0,
                         connect_timeout=30.0)
            try:
                link = room.links["A1"]["A1-tab"]
                proxy.cut()   # no hub, no broker: the table plays on, offline
                deadline = time.monotonic() + 30
                while room._offline(link) is False and time.monotonic() < deadline:
                    time.sleep(0.05)
                assert room._offline(link)
                room.play("A1", events, lambda t: -1000.0, True, 60.0, threading.Event())
                assert room.runs["A1"].error is None
                times = [env.time for env in link.outbox.pending()]
            finally:
                room.close()
    finally:
        broker.stop()
    assert len(times) == len(events)
    # Each event entered at least the script's gap after the one before (the wait's own
    # floor; a generous margin for the clocks' resolution).
    assert all(b - a >= gap * 0.9 for a, b in itertools.pairwise(times)), times
