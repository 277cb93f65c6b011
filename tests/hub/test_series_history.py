"""A club's ladder history kept across an upgrade, and its form kept with the club
(hub.series_replay, hub.series_club), through the hub and its console.

The evening is the 3-table Mitchell of tests/hub/test_series_players.py, played by the
tables' devices and the director's round starts, every record written to the log as a hub
writes it, then closed by the next session's set-up (``setup_replaced``), with no
``session_scored``: a log a hub wrote before that fact existed. Worked by hand there: pair 1
(Ann Archer and Bob Baker) scores 7 of 12, 58.33%; pair 2 (Cid Cole, Dee Dunn) 5, 41.67%;
pair 3 (Cid Cole, Eve Ewing) 6, 50%; each of the pairs' EW opponents the complement.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from hub.director import parse_command
from hub.event import EventSetup
from hub.series import SESSION_SCORED
from hub.setup_facts import SETUP_FACT, SETUP_REPLACED
from hub.store import LOG_NAME, EventLog, Record
from tenace.live import running_hub
from tenace.sim.devices import VirtualDevice, envelopes
from tests.hub.test_console import Login, make_users
from tests.hub.test_console_session import fetch
from tests.hub.test_live_scoring import board_script
from tests.hub.test_series_players import PLAYS
from tests.hub.test_table import DEALS, START

PAIRS = {1: ("Ann Archer", "Bob Baker"), 2: ("Cid Cole", "Dee Dunn"),
         3: ("Cid Cole", "Eve Ewing"), 4: ("Fay Ford", "Gil Gray"),
         5: ("Hal Hunt", "Ida Ince"), 6: ("Jo Jones", "Kit King")}


def evening_setup(date: str, session: str) -> EventSetup:
    quick = EventSetup.quick(tables=3, boards_per_round=2, deals=DEALS, name="Monday pairs",
                             session=session)
    section = dataclasses.replace(quick.sections[0], pairs=dict(PAIRS))
    return dataclasses.replace(quick, sections=(section,), date=date)


def write_old_log(path: Path) -> None:
    """The evening played and closed by the next evening's set-up, as a hub wrote its log
    before ``session_scored`` (module docstring)."""
    first = evening_setup("2026-11-02", "First evening")
    room = first.build_room()
    devices: dict[str, VirtualDevice] = {}
    now, round_ = START, 0
    with EventLog.open(path) as log:
        log.append(Record.fact(SETUP_FACT, first.to_json(), hub_time=now))
        for r, table, board, contract, tricks in PLAYS:
            if r != round_:
                now += 1
                fact, body = parse_command({"op": "round_start", "round": r}, room)
                room.fact(fact, body, now)
                log.append(Record.fact(fact, body, hub_time=now, source="director"))
                round_ = r
            now += 60
            for tid, env in envelopes(board_script(room, table, r, board, contract, tricks,
                                                   now), devices=devices):
                assert room.apply(tid, env, env.time).reply.status == "ack"
                log.append(Record.from_envelope(env, tid, hub_time=env.time))
        second = evening_setup("2026-11-09", "Second evening")
        log.append(Record.fact(SETUP_REPLACED, {"setup": second.to_json(),
                                                "keep_play": False}, hub_time=now + 60))


def test_a_log_without_session_scored_keeps_its_evenings_on_the_ladder(
        tmp_path: Path) -> None:
    """The first evening of a log written before ``session_scored`` is found by replaying
    its records: on the ladder with each player's percentage worked by hand, the log left
    exactly as it was (no record added, none rewritten)."""
    data = tmp_path / "data"
    write_old_log(data / LOG_NAME)
    with EventLog.open(data / LOG_NAME) as log:
        before = log.head()
        closed = log.of_type(SETUP_REPLACED)[0].position   # the second evening's set-up
    users = make_users(tmp_path / "users")
    with running_hub(None, str(data), None, console=("127.0.0.1", 0),
                     console_users=users) as (hub, _):
        console = hub.call(lambda: hub.console)
        status, _, body = fetch(console.url + "api/results/ladder",
                                Login.director(console))
        public_status, _, public = fetch(console.url + "api/results/ladder", None)
        setup = hub.call(lambda: hub.setup)
    ladder = json.loads(body)
    assert status == 200 and public_status == 200
    assert setup.session == "Second evening"     # the session the log runs now
    assert ladder["sessions"] == [{"name": "Monday pairs", "session": "First evening",
                                   "date": "2026-11-02", "replayed": True,
                                   "position": closed}]
    got = {e["player"]: e["percent"] for e in ladder["ranking"]}
    assert got["Ann Archer"] == pytest.approx(58.33, abs=0.01)
    assert got["Bob Baker"] == pytest.approx(58.33, abs=0.01)
    assert got["Dee Dunn"] == pytest.approx(41.67, abs=0.01)
    assert got["Eve Ewing"] == pytest.approx(50.0)
    assert json.loads(public)["ranking"] == ladder["ranking"]
    with EventLog.open(data / LOG_NAME) as log:
        assert log.of_type(SESSION_SCORED) == []
        after = log.head()
    assert after == before


def test_a_session_the_log_cannot_replay_is_left_out_and_logged(
        tmp_path: Path, caplog: Any) -> None:
    """A closed session whose set-up the hub cannot read again is left out of the
    stored sessions, named in the hub's log; the hub starts and serves the ladder."""
    data = tmp_path / "data"
    write_old_log(data / LOG_NAME)
    from hub.series import SessionBook

    def loader(obj: dict[str, Any]) -> Any:
        raise ValueError("a set-up from another program")

    with EventLog.open(data / LOG_NAME) as log:
        book = SessionBook(log, loader)
        assert book.sessions() == []
    assert "cannot be read again" in caplog.text and "a set-up from another program" \
        in caplog.text
