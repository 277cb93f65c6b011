"""``kill -9`` of the hub in mid-session, against a real Mosquitto: restarted on the same data
directory it rebuilds the same state and no acknowledged event is lost; the devices' resends
(same event ids) fill in what was in flight, and nothing is applied twice."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from hub.event import EventSetup
from hub.store import LOG_NAME, EventLog
from tenace.sim.devices import DeviceEvent, apply_local
from tenace.sim.driver import run_tables
from tenace.sim.observer import wait_for_hub
from tests.conftest import Keyring
from tests.hub.conftest import Mosquitto
from wire.mqtt import MqttClient
from wire.protocol import topic_state

SEED = "0123456789abcdef0123456789abcdef01234567"
ARGS = ["--tables", "3", "--boards-per-round", "2", "--seed", SEED, "--console", "off"]


def start_hub(url: str, data: Path) -> subprocess.Popen[bytes]:
    data.mkdir(parents=True, exist_ok=True)
    with (data / "hub.out").open("ab") as out:
        return subprocess.Popen([sys.executable, "-m", "tenace", "hub", "--broker", url,
                                 "--data", str(data), *ARGS],
                                stdout=out, stderr=subprocess.STDOUT)


def wait_online(url: str, started_after: float) -> None:
    """Until the hub's retained status says online with a start time after ``started_after``."""
    assert wait_for_hub(url, started_after=started_after, timeout=30.0), \
        "the hub did not come online"


def session(setup: EventSetup) -> list[DeviceEvent]:
    """Table A1 plays its first board: seating, the board, the hands, an auction, 20 cards."""
    import random

    from bridgecore.randomgame import random_board

    room = setup.build_room()
    a = room.assignment("A1", 1)
    assert a is not None
    number = a.boards[0]
    deal = room.deal(number)
    assert deal is not None
    board = random_board(random.Random(3), number, deal)
    now = time.time()
    out = [DeviceEvent("A1", "A1-tab", "checkin", {"direction": "NS", "pair": a.ns}, now),
           DeviceEvent("A1", "A1-tab", "checkin", {"direction": "EW", "pair": a.ew}, now),
           DeviceEvent("A1", "A1-tab", "board", {"board": number}, now)]
    out += [DeviceEvent("A1", "A1-tab", "call", {"seat": e.seat.letter, "call": str(e.call)},
                        now) for e in board.auction.entries]
    if board.play is not None:
        out += [DeviceEvent("A1", "A1-rdr", "card", {"seat": s.letter, "card": str(c),
                                                     "source": "reader"}, now)
                for s, c, _ in board.play.history[:20]]
    return out


def test_kill_9_in_mid_session_loses_nothing(tmp_path: Path, keyring: Keyring) -> None:
    broker = Mosquitto(tmp_path / "mosquitto", accounts=keyring.accounts)
    data = tmp_path / "data"
    setup = EventSetup.quick(tables=3, boards_per_round=2, seed=SEED)
    script = session(setup)
    hub = start_hub(broker.url, data)
    try:
        wait_online(broker.url, 0)
        done: dict[str, object] = {}

        def play() -> None:
            try:
                done["runs"] = run_tables(broker.url, {"A1": script}, timeout=1.0,
                                          retries=30, realtime=lambda t: 0.02)
            except Exception as err:
                done["error"] = err

        player = threading.Thread(target=play)
        player.start()
        # Let part of the session through, then kill the hub without warning.
        deadline = time.monotonic() + 120                     # a guard, not a pace
        while time.monotonic() < deadline:
            with EventLog.open(data / LOG_NAME, verify=False) as log:
                if sum(1 for r in log.replay() if r.source == "device") >= len(script) // 2:
                    break
            time.sleep(0.05)
        killed_at = time.time()
        os.kill(hub.pid, signal.SIGKILL)
        hub.wait()
        with EventLog.open(data / LOG_NAME) as log:
            at_kill = sum(1 for r in log.replay() if r.source == "device")
        assert len(script) // 2 <= at_kill < len(script), "killed in mid-session"
        hub = start_hub(broker.url, data)
        wait_online(broker.url, killed_at)
        player.join(60)
        assert "error" not in done, done.get("error")
        runs = done["runs"]
        assert set(runs["A1"].codes) <= {"ok", "duplicate"}   # type: ignore[index]
        # Every event is in the log exactly once, in the order the table sent them.
        with EventLog.open(data / LOG_NAME) as log:
            device = [r for r in log.replay() if r.source == "device"]
        assert [(r.type, r.data()["body"]) for r in device] == [
            (e.type, e.body) for e in script]
        # The restarted hub's state is the state of a room that saw the session once.
        expected = setup.build_room()
        apply_local(expected, script, hub_time=time.time())
        viewer = MqttClient(broker.url, "director", clean_session=True, start=False)
        viewer.subscribe(topic_state("A1"), 1, wait=False)
        viewer.start().wait_connected()
        state = json.loads(viewer.messages.get(timeout=10).payload)
        viewer.close()
        clean = expected.tables["A1"].public_state()
        # The round clock started with the table's first board, at that event's time as
        # each hub received it (the clock follows the tables): set in both, not compared.
        for view in (state, clean):
            assert view["schedule"].pop("started") is not None
            assert view["schedule"].pop("deadline") is not None
        assert state == clean
    finally:
        hub.send_signal(signal.SIGTERM)
        try:
            hub.wait(10)
        except subprocess.TimeoutExpired:
            hub.kill()
            hub.wait()      # reaped: a live Popen left to the garbage collector warns
        broker.stop()
