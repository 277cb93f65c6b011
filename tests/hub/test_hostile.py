"""Hostile messages through the live hub (issue 12), on both brokers: random and adversarial
payloads (lone surrogates in every string field, numbers like 10**60, deep nesting, huge
arrays, wrong types, unknown fields, binary garbage, empty payloads, valid envelopes with
hostile bodies) published on the event, dealing-machine, command and presence topics of a
running hub.

After each batch: the hub is still up and still takes a good event; every bad message that
can be answered (events, dealer events) got a reject with a code and a reason, and each one
the hub cannot answer (commands, presence) was counted; nothing bad reached the log (every
record reads back, strictly, and the hash chain holds); the room's state is still readable
as the console reads it; and the hub RESTARTS from its data directory with the same tables.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hub.console_views import RoomView, alert_summary
from hub.service import Hub, HubRunner, data_log
from tenace.sim.driver import run_tables
from tests.hub.test_service import hub_on, listen, loader, revoke_script
from wire.mqtt import MqttClient
from wire.protocol import (
    DEALER_EVENT_TYPES,
    EVENT_TYPES,
    Envelope,
    Reply,
    topic_dealer_event,
    topic_device_status,
    topic_event,
    topic_hub_command,
)

EXAMPLES = 30                    # per topic and broker: a few dozen, bounded in time
HOSTILE = settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                          HealthCheck.function_scoped_fixture])

# Building blocks ---------------------------------------------------------------------------

SURROGATES = ("\ud800", "\udfff", "a\ud800b", "\udc00\ud800")


def long(n: int) -> st.SearchStrategy[str]:
    """A string of ``n`` characters (made when drawn: a strategy's repr stays short)."""
    return st.just(n).map(lambda k: "x" * k)


strings = st.sampled_from([*SURROGATES, "", "\x00", "\u202e", "#", "+/#", "' OR 1=1 --",
                           "../../etc/passwd"]) | long(5000) | st.text(max_size=12)
numbers = st.sampled_from([10 ** 60, -10 ** 60, 2 ** 63, 2 ** 64, -1, 0, 1e308, -1e308,
                           float("nan"), float("inf"), 1.5, True, None]) | st.integers()
scalars = strings | numbers
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(strings, inner, max_size=4), max_leaves=12)


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def encode(obj: Any, raw: bool) -> bytes:
    """JSON of ``obj``: surrogates as ``\\ud800`` escapes, or (``raw``) as the bytes a
    careless encoder writes (not UTF-8)."""
    if raw:
        return json.dumps(obj, ensure_ascii=False).encode("utf-8", "surrogatepass")
    return json.dumps(obj).encode()


# What every topic gets besides its own hostile shapes.
garbage = st.one_of(
    st.binary(max_size=300),
    st.just(b""),
    st.sampled_from(["null", "[]", "{}", '"\\ud800"', "1e999", "NaN", '{"v": 1}']
                    ).map(str.encode),
    st.sampled_from([9, 200, 100_000]).map(lambda n: nested(n).encode()),
    st.sampled_from([5000, 40_000]).map(lambda n: json.dumps([0] * n).encode()),
    st.sampled_from(["[", '{"a":']).map(lambda s: (s * 50_000).encode()),
    st.tuples(values, st.booleans()).map(lambda vr: encode(vr[0], vr[1])),
)


def hostile_envelope(types: list[str], device: str) -> st.SearchStrategy[bytes]:
    """A valid-looking envelope made bad in at least one place: a lone surrogate in a string
    field, a number out of range, a wrong type, an unknown field, a hostile body."""
    counter = iter(range(10 ** 6, 10 ** 7))

    def build(kind: str, where: str, bad: Any, body: Any, raw: bool) -> bytes:
        obj: dict[str, Any] = {"v": 1, "id": f"h-{next(counter)}", "device": device,
                               "seq": next(counter), "time": time.time(), "type": kind,
                               "body": {}}
        if where == "body":
            obj["body"] = body
        elif where == "body_field":
            obj["body"] = {"board": bad, "seat": bad, "call": bad, "card": bad}
        elif where == "unknown":
            obj["zz\ud800" if raw else "zz"] = bad
        else:
            obj[where] = bad
        return encode(obj, raw)

    where = st.sampled_from(["v", "id", "device", "seq", "time", "type", "body", "sent",
                             "body_field", "unknown"])
    bad = st.sampled_from([*SURROGATES, 10 ** 60, -10 ** 60, 2 ** 64, [], {}, [[[[[]]]]],
                           float("nan"), None, True]) | long(70_000)
    return st.builds(build, st.sampled_from(types), where, bad,
                     values.filter(lambda v: v != {}), st.booleans())


# The live hub ------------------------------------------------------------------------------

@dataclass
class Live:
    url: str
    folder: Path
    hub: Hub
    runner: HubRunner
    attacker: MqttClient
    probes: int = 0
    records: int = 0             # records in the log before the batch, probes left out

    def call(self, fn: Callable[[], Any]) -> Any:
        return self.hub.call(fn)

    def reply(self, timeout: float = 10.0) -> Reply:
        message = self.attacker.messages.get(timeout=timeout)
        return Reply.from_json(message.payload)

    def logged(self) -> int:
        """The records in the log, the probes' left out."""
        return self.call(lambda: sum(not r.event_id.startswith("probe-")
                                     for r in self.hub.log.replay()))

    def probe(self) -> None:
        """A good event from the table tablet: the hub still takes it. Every message sent
        before it has been handled once its reply is back (one client, QoS 1, in order)."""
        self.probes += 1
        env = Envelope(f"probe-{self.probes}", "A1-tab", 10 ** 6 + self.probes, time.time(),
                       "director_call", {"seat": "N", "note": "probe"})
        self.attacker.publish(topic_event("A1", "A1-tab"), env.to_json(), 1)
        reply = self.reply()
        assert (reply.ref, reply.status, reply.code) == (env.id, "ack", "ok"), reply


@pytest.fixture
def live(broker_url: str, tmp_path: Path) -> Iterator[Live]:
    hub = hub_on(broker_url, tmp_path)
    runner = HubRunner(hub)
    runner.__enter__()
    state = Live(broker_url, tmp_path, hub, runner, None)   # type: ignore[arg-type]
    try:
        run_tables(broker_url, {"A1": revoke_script()[:3]})   # two pairs seated, board 1
        state.attacker = listen(broker_url, "tenace/v1/t/+/reply/#",
                                "tenace/v1/dealer/+/reply")
        state.records = state.logged()
        yield state
    finally:
        if state.attacker is not None:
            state.attacker.close()
        state.runner.__exit__(None, None, None)    # the restarted hub's, after a batch


def after_the_batch(live: Live, *, logged: int | None = None) -> None:
    """The checks every batch ends with (module docstring). ``logged``: how many records
    the batch may have added (None: any, each checked)."""
    hub = live.hub
    live.probe()
    assert live.runner._thread is not None and live.runner._thread.is_alive()
    refused = live.call(hub.stats.refused)
    assert "internal" not in refused, "a message raised in the hub (see the log)"
    # The state as the console reads it (GET /api/room): every table, alert and view.
    def read_room() -> str:
        view = RoomView(hub.room, hub.hub_time())
        room = {"tables": [view.table(t) for t in hub.room.tables], "clock": view.clock(),
                "alerts": [alert_summary(a) for a in hub.room.alerts.open()],
                "snapshot": hub.room.snapshot(), "status": hub.status().to_json()}
        text = json.dumps(room, ensure_ascii=False, allow_nan=False)
        text.encode("utf-8")                         # valid text: no lone surrogate
        return text

    assert live.call(read_room)
    # Nothing bad in the log: each record reads back strictly, the chain holds.
    records = live.call(lambda: list(hub.log.replay()))
    for record in records:
        record.payload.encode("utf-8")
        json.loads(record.payload)
        if record.source == "device":
            types = EVENT_TYPES if record.table_id is not None else DEALER_EVENT_TYPES
            Envelope.from_json(record.payload, types)
    assert live.call(hub.log.verify).intact
    if logged is not None:
        probes = sum(r.event_id.startswith("probe-") for r in records)
        assert len(records) - probes == live.records + logged, [
            r for r in records[live.records:] if not r.event_id.startswith("probe-")]
    # And the hub restarts from its data directory, with the same tables.
    before = live.call(hub.room.snapshot)
    live.runner.__exit__(None, None, None)
    again = Hub(data_log(live.folder), url=live.url, setup_loader=loader)
    assert again.room.snapshot() == before
    assert again.chain is not None and again.chain.intact
    live.hub, live.runner = again, HubRunner(again)
    live.runner.__enter__()
    live.probe()


# The tests, one per topic ------------------------------------------------------------------

def test_hostile_events_are_each_rejected_with_a_reason(live: Live) -> None:
    topics = st.sampled_from([("A1", "A1-tab"), ("A1", "A1-N"), ("A1", "A1-rdr"),
                              ("ZZ9", "ZZ9-tab"), ("A1", "x" * 64)])
    types = sorted(EVENT_TYPES)

    @HOSTILE
    @given(st.data())
    def one(data: st.DataObject) -> None:
        table, device = data.draw(topics)
        payload = data.draw(hostile_envelope(types, device) | garbage)
        live.attacker.publish(topic_event(table, device), payload, 1)
        reply = live.reply()
        assert reply.status == "reject" and reply.code and reply.reason, (payload[:200], reply)

    one()
    after_the_batch(live, logged=0)


def test_hostile_dealer_events_are_each_rejected_with_a_reason(live: Live) -> None:
    types = sorted(DEALER_EVENT_TYPES)

    @HOSTILE
    @given(st.data())
    def one(data: st.DataObject) -> None:
        device = data.draw(st.sampled_from(["dealer-1", "dealer-2", "d" * 64]))
        payload = data.draw(hostile_envelope(types, device) | garbage)
        live.attacker.publish(topic_dealer_event(device), payload, 1)
        reply = live.reply()
        assert reply.status == "reject" and reply.code and reply.reason, (payload[:200], reply)

    one()
    after_the_batch(live, logged=0)


FIELDS = ["id", "text", "score", "round", "table", "strict", "kind", "board", "ns", "ew",
          "outcomes", "groups", "amount", "unit", "by", "v"]


def hostile_command(alert: str) -> st.SearchStrategy[bytes]:
    """A command that would be taken (on the open ``alert``, table A1, board 1) but for one
    field made bad: a lone surrogate, a number out of range, a wrong type, nesting too deep,
    too long, or ``by`` (the hub's to say)."""
    base: dict[str, dict[str, Any]] = {
        "acknowledge": {"id": alert}, "rule": {"id": alert, "text": "ruled"},
        "resolve": {"id": alert, "text": "done"}, "round_start": {"round": 1},
        "table_mode": {"table": "A1", "strict": False}, "ruling_undo": {"id": "R1"},
        "ruling": {"kind": "artificial", "table": "A1", "board": 1, "ns": "A+", "ew": "A-"},
    }
    bad = st.sampled_from([*SURROGATES, 10 ** 60, -10 ** 60, 2 ** 64, [], [[[[[[[[[]]]]]]]]],
                           float("nan"), "yes", {"a": "\ud800"}]) | long(70_000)

    def build(op: str, name: str, value: Any, raw: bool) -> bytes:
        return encode({"op": op, **base[op], name: value}, raw)

    return st.builds(build, st.sampled_from(sorted(base)), st.sampled_from(FIELDS), bad,
                     st.booleans())


def test_hostile_commands_are_each_refused_and_counted(live: Live) -> None:
    live.probe()                                  # a director call: an alert to rule on
    (alert,) = live.call(lambda: [a.id for a in live.hub.room.alerts.open()])
    live.records = live.logged()
    refused_before = sum(live.call(live.hub.stats.refused).values())
    sent = [0]

    @HOSTILE
    @given(st.data())
    def one(data: st.DataObject) -> None:
        account = data.draw(st.sampled_from(["director", "scorer", "director", "A1-tab"]))
        payload = data.draw(hostile_command(alert) | garbage)
        live.attacker.publish(topic_hub_command(account), payload, 1)
        sent[0] += 1

    one()
    live.attacker.publish("tenace/v1/hub/cmd", encode({"op": "acknowledge", "id": alert},
                                                      False), 1)
    live.probe()                                  # every command before it is handled
    refused = sum(live.call(live.hub.stats.refused).values())
    assert refused - refused_before == sent[0] + 1
    assert live.call(lambda: live.hub.room.alerts[alert].status.value) == "open"
    after_the_batch(live, logged=0)


def test_hostile_presence_never_reaches_the_log_as_it_came(live: Live) -> None:
    """A presence says only online or not (and, leaving, a device's farewell): one the hub
    cannot read is counted; one it can logs only the device and table of its topic (both
    checked by the topic grammar) and ``leaving: true``, nothing else it came with."""
    presence = st.one_of(
        garbage,
        st.tuples(values, st.booleans()).map(lambda vr: encode({"online": vr[0]}, vr[1])),
        st.tuples(strings, st.booleans(), st.booleans()).map(
            lambda sbr: encode({"online": sbr[1], "device": sbr[0], "table": sbr[0],
                                "zz": sbr[0]}, sbr[2])))

    @HOSTILE
    @given(st.data())
    def one(data: st.DataObject) -> None:
        table, device = data.draw(st.sampled_from([("A1", "A1-tab"), ("A1", "A1-S"),
                                                   ("ZZ9", "ZZ9-tab"), ("A2", "y" * 64)]))
        live.attacker.publish(topic_device_status(table, device), data.draw(presence), 1)

    one()
    live.probe()
    records = live.call(lambda: list(live.hub.log.replay()))
    for record in records:
        if record.type in ("device_online", "device_offline"):
            data = record.data()   # a farewell (leaving: true, a protocol word) adds that only
            assert set(data) - {"leaving"} == {"device", "table"}
            assert "leaving" not in data or (data["leaving"] is True
                                             and record.type == "device_offline")
            assert record.data()["table"] in ("A1", "A2")
    after_the_batch(live)

