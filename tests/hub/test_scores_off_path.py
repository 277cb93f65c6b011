"""Live scoring off the path that answers devices (issue 16): a batch's replies go out
before the rankings and travellers it changes, which are published coalesced, at most once
every ``score_interval``, always eventually and at once on ``republish``."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest

import hub.service as service
from hub.errors import ConfigError
from hub.room import Room, Section
from hub.service import Hub, HubRunner, data_log
from tenace.sim.devices import VirtualDevice, envelopes
from tests.hub.test_live_scoring import ROUND_ROBIN, Session, board_script
from tests.hub.test_service import MitchellSetup, listen, loader
from tests.hub.test_table import DEALS, MOVEMENT
from wire.mqtt import Message, MqttClient
from wire.protocol import topic_ranking


def _burst(hub: Hub, round_: int, devices: dict[str, VirtualDevice]) -> list[Message]:
    """Every event of the boards of ``round_`` (ROUND_ROBIN), as the broker hands them on."""
    events = [e for r, table, board, contract, tricks in ROUND_ROBIN if r == round_
              for e in board_script(hub.room, table, r, board, contract, tricks, time.time())]
    return [Message(f"tenace/v1/t/{table}/ev/{env.device}", env.to_json().encode(), 1)
            for table, env in envelopes(events, run=f"burst{round_}", devices=devices)]


def _collect(client: MqttClient, until: Any, limit: float = 60.0) -> list[Message]:
    out: list[Message] = []
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        try:
            out.append(client.messages.get(timeout=0.2))
        except Exception:
            continue
        if until(out):
            return out
    raise AssertionError(f"not seen in {limit} s: {[m.topic for m in out][-10:]}")


def test_a_burst_of_results_is_answered_before_the_ranking_is_published(
        embedded_broker: Any, tmp_path: Path) -> None:
    """Law 78A's ranking, live, never ahead of a device's answer: each burst of finished
    boards (a batch of the hub's) has every reply out before the first ranking publication
    of that batch; two bursts within the interval are one publication; the ranking in the
    end is the one the results give."""
    url = embedded_broker.url
    hub = Hub(data_log(tmp_path), url=url, setup=MitchellSetup(), setup_loader=loader,
              tick_seconds=0.2, score_interval=0.5)
    ranking = topic_ranking("A")
    devices: dict[str, VirtualDevice] = {}
    with HubRunner(hub) as running:
        watch = listen(url, "tenace/v1/t/+/reply/+", "tenace/v1/results/#")
        try:
            _collect(watch, lambda seen: any(m.topic == ranking for m in seen))  # at start
            for round_ in (1, 2, 3):
                assert running.call(lambda r=round_: hub.director(
                    {"op": "round_start", "round": r}))["ok"]
                burst = _burst(hub, round_, devices)
                # Two batches back to back on the loop, as _flush takes them.
                half = len(burst) // 2
                running.call(lambda b=burst[:half]: hub.handle(b))
                running.call(lambda b=burst[half:]: hub.handle(b))
                seen = _collect(watch, lambda s: any(m.topic == ranking for m in s))
                replies = [m for m in seen if "/reply/" in m.topic]
                first = next(i for i, m in enumerate(seen) if m.topic == ranking)
                assert len(replies) == len(burst)
                assert all(json.loads(m.payload)["type"] == "ack" for m in replies)
                assert all("/reply/" in m.topic for m in seen[:len(burst)])
                assert first >= len(burst), "a ranking went out before a reply"
                # Coalesced: one publication for both batches, within the interval.
                time.sleep(0.8)
                later = []
                while not watch.messages.empty():
                    later.append(watch.messages.get())
                assert [m for m in seen[first + 1:] + later if m.topic == ranking] == []
            final = json.loads(seen[first].payload)
        finally:
            watch.close()
        live = running.call(lambda: hub.room.scoring.section("A").ranking_json())
    assert final == live
    truth = Session()
    truth.play(ROUND_ROBIN)
    assert {e["pair"]: e["percent"] for e in final["ranking"]} == {
        p: v[1] for p, v in truth.ranking().items()}
    assert {e["pair"]: e["percent"] for e in final["ranking"]} == {
        3: 100.0, 1: 50.0, 2: 0.0, 6: 100.0, 4: 50.0, 5: 0.0}


def test_scores_at_once_without_a_loop_and_a_bad_interval_is_refused(
        tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="score_interval"):
        Hub(data_log(tmp_path / "a"), url="mqtt://unused:1", setup=MitchellSetup(),
            score_interval=-1)
    hub = Hub(data_log(tmp_path / "b"), url="mqtt://unused:1", setup=MitchellSetup(),
              score_interval=60.0)
    # Without a running loop (a hub driven through handle()), the scores go at once.
    hub.director({"op": "round_start", "round": 1})
    hub.handle(_burst(hub, 1, {}))
    assert hub.room.scoring.section("A").ranking_json()["boards"]
    assert hub._scores_timer is None


# A room of many sections: one section a turn of the loop, live scoring at most a share ------

class _Client:
    """What the hub publishes, in order (the broker's side is not under test here)."""

    closed = False

    def __init__(self) -> None:
        self.sent: list[str] = []

    def send(self, topic: str, payload: Any, qos: int = 1, retain: bool = False) -> None:
        self.sent.append(topic)


def test_a_round_of_live_scores_gives_the_loop_back_between_sections_and_keeps_its_share(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two sections changed: one is rescored and published, then the loop runs what came
    meanwhile (a device's reply) before the other. The round took 0.4 s of the hub's thread
    (a clock of the test's): the next one waits three times that (SCORE_SHARE, a quarter),
    not the 0.25 s of a cheap round."""
    class TwoSections(MitchellSetup):
        def build_room(self) -> Room:
            return Room([Section("A", MOVEMENT), Section("B", MOVEMENT)], DEALS)

    hub = Hub(data_log(tmp_path / "hub"), url="mqtt://127.0.0.1:1", setup=TwoSections(),
              setup_loader=lambda _: TwoSections())
    client = _Client()
    hub._client = client    # type: ignore[assignment]
    hub.room.scoring.publications(force=True)   # both sections published once
    for name in ("A", "B"):
        hub.room.scoring._changed(name)
    now = [100.0]

    def slow(force: bool = False, only: Any = None) -> list[tuple[str, str]]:
        now[0] += 0.2                            # each section costs 0.2 s of the thread
        if now[0] < 100.3:                       # a device's event came meanwhile
            asyncio.get_running_loop().call_soon(client.send, "reply", "")
        names = hub.room.scoring.unpublished() if only is None else list(only)
        hub.room.scoring._unpublished.difference_update(names)
        return [(f"results/ranking/{n}", n) for n in names]

    monkeypatch.setattr(hub.room.scoring, "publications", slow)
    monkeypatch.setattr(service.time, "perf_counter", lambda: now[0])

    async def run() -> list[str]:
        hub._loop = asyncio.get_running_loop()
        hub._scores_due()
        for _ in range(5):
            await asyncio.sleep(0)
        return client.sent

    order = asyncio.run(run())
    assert [t.rsplit("/", 1)[-1] for t in order] == ["A", "reply", "B"]
    assert hub._scores_wait == pytest.approx(0.4 * 3)   # 0.4 s spent: 1.2 s before the next
