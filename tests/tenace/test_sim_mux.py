"""The simulator's driver with every table on one wire.mux.LinkLoop thread (``mux=True``)
against a real Mosquitto and a stand-in hub: each device its own connection and account,
each event answered before the next (a lost reply answered by the same id again:
test_sim_driver.py, both ways), a room of tables on one thread."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest

from hub.mosquitto import Mosquitto
from tenace.sim.devices import DeviceEvent
from tenace.sim.driver import run_tables
from tests.tenace.test_sim_driver import StandInHub


@pytest.fixture(scope="module")
def mosquitto(tmp_path_factory: pytest.TempPathFactory, keyring: Any) -> Iterator[Mosquitto]:
    with Mosquitto(tmp_path_factory.mktemp("mosquitto"), accounts=keyring.accounts) as broker:
        yield broker


def test_a_room_of_tables_plays_on_one_thread_every_event_once_in_order(
        mosquitto: Mosquitto) -> None:
    tables = [f"A{n}" for n in range(1, 61)]
    scripts = {t: [DeviceEvent(t, f"{t}-{d}", "call", {"seat": "N", "call": f"{k}C"},
                               100.0 + k)
                   for k, d in enumerate(["tab", "rdr", "tab", "N", "rdr", "tab"], 1)]
               for t in tables}
    hub = StandInHub(mosquitto.url, drop_once={"call:3C"})   # one reply lost, somewhere
    sent: list[tuple[str, int, str]] = []
    threads: list[int] = []
    before = threading.active_count()

    def on_sent(table: str, index: int, when: float) -> None:
        sent.append((table, index, threading.current_thread().name))
        threads.append(threading.active_count())
    try:
        # Connecting 120 devices is waited for (the ceiling a guard); a reply is waited 2 s
        # before the event goes again: the lost one, and any the machine was too busy for.
        runs = run_tables(mosquitto.url, scripts, timeout=2.0, retries=30, mux=True,
                          on_sent=on_sent, connect_timeout=120.0)
    finally:
        hub.close()
    assert all(run.codes == {"ok": 6} and not run.rejected for run in runs.values())
    assert sum(run.resent for run in runs.values()) >= 1      # the lost reply, at least
    assert sum(e.body.get("call") == "3C" for e in hub.copies) >= len(tables) + 1
    assert len({name for _, _, name in sent}) == 1   # every table on the loop's one thread
    assert max(threads) <= before + 1                 # and no other: 120 devices, one thread
    for t in tables:
        assert [i for table, i, _ in sent if table == t] == list(range(6))
        copies = [e for e in hub.copies if e.device.startswith(f"{t}-")]
        firsts = list(dict.fromkeys(e.id for e in copies))
        assert [e.body["call"] for e in {e.id: e for e in copies}.values()] == \
            [f"{k}C" for k in range(1, 7)]
        assert len(firsts) == 6 and all(hub.ids[i] >= 1 for i in firsts)
