"""Each device sees the hub shard that holds its table go offline and come back (protocol 11.1
``shard``, 14), over a real Mosquitto on the devices' own accounts: shard 1 a ``tenace hub
--shard 1`` process killed (SIGKILL) and started again, shard 0 in this process. The tablet
of shard 1's table B1 reads its shard's presence (``hub/shard/1/status``) and sees it go and
come back, as a single hub's devices see ``hub/status``; the event it gave meanwhile is sent
again once its shard is back, after a hello, and logged once. The tablet of shard 0's table
A1 reads ``hub/status`` and never sees shard 1 go."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hub.accounts import event_accounts
from hub.event import EventSetup
from hub.mosquitto import Mosquitto
from hub.shards import Shard
from tests.hub.test_shard_views import two_sections, until
from tests.hub.test_shards import sharded_mosquitto
from wire.link import DeviceLink, LinkState
from wire.outbox import Outbox
from wire.protocol import Envelope, Reply
from wire.views import TableView


@pytest.fixture
def event(tmp_path: Path) -> Iterator[tuple[Mosquitto, EventSetup]]:
    """Mosquitto with the event's devices, the director's tools and both shards' accounts."""
    from tenace.live import TOOL_ACCOUNTS

    setup = two_sections()
    with sharded_mosquitto(tmp_path, setup, {**event_accounts(setup), **TOOL_ACCOUNTS}) as broker:
        yield broker, setup


class Tablet:
    """A table tablet's link, and what it showed of the connection."""

    def __init__(self, url: str, table: str, folder: Path):
        self.shown: list[LinkState] = []
        self.replies: list[tuple[str, str]] = []     # (event id, reply code)
        folder.mkdir()
        self.link = DeviceLink(url, table, f"{table}-tab",
                               outbox=Outbox(folder / "outbox.sqlite3", f"{table}-tab"),
                               on_connection=self.shown.append, on_reply=self._reply,
                               reply_timeout=1.0)

    def _reply(self, reply: Reply, envelope: Envelope) -> None:
        self.replies.append((envelope.id, reply.code))

    def close(self) -> None:
        self.link.close()
        self.link.outbox.close()


def test_a_device_sees_its_own_shard_go_offline_and_come_back(
        event: tuple[Mosquitto, EventSetup], tmp_path: Path) -> None:
    from hub.service import Hub, HubRunner, data_log
    from tenace.sim.chaos import HubProcess

    broker, setup = event
    one = HubProcess(broker.url, tmp_path / "data", setup, Shard(1, 2))
    one.start()
    zero = Shard(0, 2)
    (tmp_path / "zero").mkdir()
    hub = Hub(data_log(tmp_path / "zero"), url=broker.url, setup=zero.restrict(setup),
              shard=zero, client_id=zero.account, tick_seconds=0.1, double_dummy=False)
    tablets: list[Tablet] = []
    try:
        with HubRunner(hub):
            b1 = Tablet(broker.url, "B1", tmp_path / "b1")
            a1 = Tablet(broker.url, "A1", tmp_path / "a1")
            tablets += [b1, a1]
            # Each table's state names its shard; B1's tablet reads shard 1's presence.
            until(lambda: b1.link.state is not None and b1.link.hub_shard == 1
                  and b1.link.hub_online)
            assert b1.link.state is not None and b1.link.state["shard"] == 1
            assert TableView.from_builtins(b1.link.state).shard == 1   # the view's type
            until(lambda: a1.link.state is not None and a1.link.hub_online)
            assert a1.link.state is not None and a1.link.state["shard"] == 0
            assert a1.link.hub_shard is None            # shard 0's is hub/status
            b1.shown.clear()
            a1.shown.clear()

            # Shard 1 killed: B1's tablet sees its hub go, A1's sees nothing.
            killed = one.kill()
            # what the tablet shows is told on the link's thread: wait on it, not on the flag
            until(lambda: b1.link.hub_online is False and b1.shown[-1:] == [LinkState.OFFLINE])
            assert a1.link.hub_online and LinkState.OFFLINE not in a1.shown

            # An event given while its shard is away waits; it is sent again, after a
            # hello, once the shard is back on its own log, and logged once.
            expected = b1.link.state["schedule"]["expected"]
            envelope = b1.link.send("checkin", {"direction": "NS", "pair": expected["NS"]})
            one.start(started_after=killed)
            until(lambda: b1.link.hub_online and b1.shown[-1:] == [LinkState.ONLINE])
            until(lambda: any(i == envelope.id for i, _ in b1.replies))
            assert next(c for i, c in b1.replies if i == envelope.id) in ("ok", "duplicate")
            assert one.device_ids().count(envelope.id) == 1
            assert LinkState.OFFLINE not in a1.shown and a1.link.hub_online
    finally:
        for tablet in tablets:
            tablet.close()
        one.stop()
        hub.log.close()


def test_a_link_takes_its_hubs_presence_from_the_shard_its_state_names(
        tmp_path: Path) -> None:
    """Without a broker: hub/status until the state names a shard of 1 or more and a
    message of that shard's status has come; then that shard's only; shard 0: hub/status."""
    from wire.mqtt import Message
    from wire.protocol import topic_hub_status, topic_shard_status, topic_state

    box = Outbox(tmp_path / "outbox.sqlite3", "B1-tab")
    link = DeviceLink("mqtt://127.0.0.1:1", "B1", "B1-tab", outbox=box, start=False)
    try:
        def give(topic: str, body: dict[str, Any]) -> None:
            link._handle(Message(topic, json.dumps(body).encode(), 1, True))

        state = {"table": "B1", "round": 1, "pairs": {"NS": 1, "EW": 4}, "phase": "waiting",
                 "strict": False, "schedule": {}}
        give(topic_hub_status(), {"online": True})
        assert link.hub_online is True and link.hub_shard is None
        give(topic_state("B1"), dict(state, shard=1))
        assert link.hub_shard == 1
        assert topic_shard_status(1) in link.client._subscriptions
        give(topic_hub_status(), {"online": False})          # shard 1 not heard yet
        assert link.hub_online is False
        give(topic_shard_status(1), {"online": True})
        assert link.hub_online is True
        give(topic_hub_status(), {"online": False})          # shard 0's: not this table's
        give(topic_shard_status(2), {"online": False})       # another shard's
        assert link.hub_online is True
        give(topic_shard_status(1), {"online": False})
        assert link.hub_online is False
        give(topic_state("B1"), dict(state, shard=0))          # moved to shard 0
        assert link.hub_shard is None
        assert topic_shard_status(1) not in link.client._subscriptions
        give(topic_hub_status(), {"online": True})
        assert link.hub_online is True
    finally:
        link.close()
        box.close()
