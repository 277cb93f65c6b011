"""Offline play converges through the live hub (hub.ordering, issue 16): a table whose
tablet and card reader were both offline for a whole round keeps its events in their
outboxes; when they come back one device empties its outbox, then the other (the reader's
first, or the tablet's), and the hub ends with exactly the record played, and no alert."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from bridgecore.bigdeal import random_deal
from hub.event import EventSetup
from tenace.live import running_hub
from tenace.sim.devices import apply_local
from tenace.sim.session import simulate
from wire.link import DeviceLink
from wire.outbox import Outbox


def _record(value: Any) -> Any:
    """A snapshot without the hub's times of applying (a board's ``ended``) and with each
    action's time apart (:func:`_times`): the record."""
    if isinstance(value, dict):
        return {k: _record(v) for k, v in value.items() if k != "ended"}
    if isinstance(value, list):
        return [_record(v) for v in value]
    return "time" if isinstance(value, float) else value


def _times(value: Any) -> list[float]:
    """Every time in a snapshot, in order (the hub reads a device's times on its own clock,
    corrected by the device's estimate of the offset: a fraction of a millisecond here)."""
    if isinstance(value, dict):
        return [t for k, v in value.items() if k != "ended" for t in _times(v)]
    if isinstance(value, list):
        return [t for v in value for t in _times(v)]
    return [value] if isinstance(value, float) else []


@pytest.mark.parametrize("first", ["A1-rdr", "A1-tab"])
def test_a_table_offline_for_a_round_ends_with_the_record_it_played(first: str) -> None:
    rng = random.Random(11)
    shape = EventSetup.quick(tables=3, boards_per_round=2, rounds=1, movement="mitchell",
                             seed="0" * 40)
    setup = EventSetup.quick(tables=3, boards_per_round=2, rounds=1, movement="mitchell",
                             deals={n: random_deal(rng) for n in sorted(shape.deals)})
    room = setup.build_room()
    script = simulate(room.sections, {n: room.deal(n) for n in setup.deals}, seed=4,
                      pace=0.001, start=time.time(), edition=room.edition, rounds=1)
    events = script.events_by_table["A1"]
    assert {e.device for e in events} == {"A1-tab", "A1-rdr"}
    clean = setup.build_room()
    apply_local(clean, events)
    with running_hub(None, None, setup) as (hub, url):
        # Played offline: every event waits in its device's outbox.
        outboxes = {d: Outbox(":memory:", d) for d in ("A1-tab", "A1-rdr")}
        for event in events:
            outboxes[event.device].add(event.type, dict(event.body), event.time, at=event.at)
        order = [first, *(d for d in outboxes if d != first)]
        links = []
        try:
            for device in order:   # back online: one device empties its outbox, then the other
                link = DeviceLink(url, "A1", device, outbox=outboxes[device], views=False,
                                  presence=False, kind="reader" if "rdr" in device else "tablet",
                                  reconnect_delay=(0.1, 1.0))
                links.append(link)
                assert link.wait_delivered(60), f"{device}: not delivered"
            assert all(not box.rejections() for box in outboxes.values())
        finally:
            for link in links:
                link.close(farewell=False)
        snapshot = hub.call(lambda: hub.room.tables["A1"].snapshot())
        played = _record(snapshot)
        alerts = hub.call(lambda: [a["kind"] for a in hub.room.alerts.to_json()
                                   if a["table"] == "A1"])
        stats = hub.call(lambda: (hub.stats.accepted, hub.stats.refused()))
    assert played == _record(clean.tables["A1"].snapshot())
    times, clean_times = _times(snapshot), _times(clean.tables["A1"].snapshot())
    assert len(times) == len(clean_times)
    assert all(abs(a - b) < 1.0 for a, b in zip(times, clean_times, strict=True))
    assert alerts == [] and not clean.alerts.to_json()
    assert stats == (len(events), {})   # every event accepted, none refused


def test_an_events_place_survives_the_outbox(tmp_path: Any) -> None:
    """The outbox keeps each event's ``at`` with it: sent again after a restart, it still
    says where in the record it belongs."""
    at = {"board": 3, "hands": 4, "calls": 7, "cards": 12}
    with Outbox(tmp_path / "outbox.sqlite3", "A1-rdr") as box:
        env = box.add("card", {"seat": "N", "card": "SA", "source": "reader"}, 1.0, at=at)
        plain = box.add("card", {"seat": "E", "card": "S2", "source": "reader"}, 2.0)
    assert env.at == at and plain.at is None
    with Outbox(tmp_path / "outbox.sqlite3") as box:
        assert [(e.id, e.at, e.body["card"]) for e in box.pending()] == \
            [(env.id, at, "SA"), (plain.id, None, "S2")]
