"""End to end: a simulated dealing machine behind a real socat pty pair, the bridge, a real
Mosquitto and a real hub. A misdealt board reaches the director as an alert before any
table has the board (Laws 6D1, 87); a machine that stops answering is alerted too."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from firmware_bridge.dealer import open_dealer
from firmware_bridge.dealer_hub import HubLink
from firmware_bridge.dealer_run import DealingRun
from hub.service import HubRunner
from tenace.sim.observer import Observer
from tests.firmware_bridge.test_dealer_contract import PATIENT, simulated
from tests.hub.test_service import hub_on
from tests.hub.test_table import DEALS


def test_law_6d1_a_misdealt_board_is_alerted_to_the_director_before_play(
        mosquitto: Any, tmp_path: Path) -> None:
    url = mosquitto.url
    hub = hub_on(url, tmp_path / "hub")
    lines: list[str] = []
    with HubRunner(hub) as running, Observer(url) as director, \
            simulated("pty", tmp_path, "3:wrong_pocket,4:jam") as (machine_url, options), \
            open_dealer(machine_url, **{**options, **PATIENT}) as machine, \
            HubLink(url, "dealer-1") as link:
        summary = DealingRun(machine, DEALS, hub=link, progress=lines.append).run()
        director.settle()
        in_play = running.call(lambda: [t.sitting for t in hub.room.tables.values()])
        dealing = running.call(hub.room.dealing.snapshot)
    assert [o.board for o in summary.misdealt] == [3] and summary.unanswered == 0
    assert any(line.startswith("board 3 dealt (3/6), MISDEALT")
               and line.endswith("(director alerted)") for line in lines)
    assert in_play == [None, None, None]          # no table has started a board yet
    alerts = {a["kind"]: a for a in director.alert_list()}
    assert set(alerts) == {"misdealt_board", "dealer_fault"}
    misdeal = alerts["misdealt_board"]
    assert (misdeal["board"], misdeal["law"], misdeal["table"]) == (3, "6D1", "dealer-1")
    assert misdeal["facts"]["hold"] is True and len(misdeal["seats"]) == 2
    counts = sorted(p["count"] for p in misdeal["facts"]["pockets"].values())
    assert counts == [12, 14]
    assert [o["law"] for o in misdeal["options"]] == ["6D1", "87"]
    assert "jam at board 4" in alerts["dealer_fault"]["detail"]
    assert dealing["dealer-1"]["boards"] == {f"{b}/1": b != 3 for b in range(1, 7)}


def test_law_6_a_machine_that_stops_answering_is_alerted(mosquitto: Any, tmp_path: Path) -> None:
    url = mosquitto.url
    hub = hub_on(url, tmp_path)
    started = time.time()
    with HubRunner(hub), Observer(url) as director, \
            open_dealer("sim://?faults=2:silent", answer_timeout=0.3) as machine, \
            HubLink(url, "dealer-2") as link:
        summary = DealingRun(machine, DEALS, hub=link, progress=lambda line: None).run()
        director.settle()
    assert summary.exit_code == 3 and [o.board for o in summary.outcomes] == [1]
    fault = [a for a in director.alert_list() if a["kind"] == "dealer_fault"]
    assert len(fault) == 1 and fault[0]["table"] == "dealer-2"
    assert fault[0]["facts"]["code"] == "silent" and fault[0]["detected"] >= started


def test_boards_sent_while_the_hub_is_away_reach_it_when_it_comes_back(
        mosquitto: Any, tmp_path: Path) -> None:
    """Nothing is lost: the bridge keeps resending (same id) until the hub answers; a board
    the hub has no hand record for is refused with the reason, shown to the operator."""
    url = mosquitto.url
    boards = dict(DEALS) | {7: DEALS[1]}
    lines: list[str] = []
    with HubLink(url, "dealer-3", timeout=0.5) as link, \
            open_dealer("sim://?faults=2:missing") as machine:
        summary = DealingRun(machine, boards, hub=link, progress=lines.append,
                             hub_wait=0.2).run()
        assert summary.unanswered == 7 and link.unanswered == 7
        assert "(the hub has not answered yet: sent again until it does)" in lines[2]
        hub = hub_on(url, tmp_path)
        with HubRunner(hub) as running, Observer(url) as director:
            assert link.settle(120) == 0                # a guard: it returns when drained
            director.settle()
            snapshot = running.call(hub.room.dealing.snapshot)
    assert snapshot["dealer-3"]["boards"] == {f"{b}/1": b != 2 for b in range(1, 7)}
    assert [a["board"] for a in director.alert_list()] == [2]
    assert [(env.body["board"], reply.code) for env, reply in link.refused] == [
        (7, "unknown_board")]
