"""The protocol's JSON Schema (wire/schema.py, docs/protocol.schema.json): the checked-in file
is what wire generates, it is a valid schema, the messages and views validate against it,
and every payload a live hub publishes through a board with an irregularity, a claim and a
result validates against the definition of its topic."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from hub.service import HubRunner
from tenace.sim.devices import DeviceEvent
from tenace.sim.driver import run_tables
from tests.hub.test_service import drain, hub_on, listen, revoke_script
from tests.hub.test_table import DEALS
from tests.wire.test_messages import BODIES, envelope
from tests.wire.test_views import SAMPLES
from wire.protocol import (
    ROOT,
    ProtocolError,
    parse_topic,
    topic_dealer_event,
    topic_event,
    topic_hub_command,
)
from wire.schema import TOPICS, definition, dumps, schema

REPO = Path(__file__).resolve().parents[2]
CHECKED_IN = REPO / "docs" / "protocol.schema.json"
DOC = schema()


def validator(name: str) -> jsonschema.protocols.Validator:
    return jsonschema.Draft202012Validator(definition(name, DOC))


def test_the_checked_in_schema_is_what_wire_generates() -> None:
    """Regenerate with ``python -m wire.schema > docs/protocol.schema.json``."""
    assert CHECKED_IN.read_text(encoding="utf-8") == dumps(), (
        "docs/protocol.schema.json is stale: python -m wire.schema > docs/protocol.schema.json")


def test_python_m_wire_schema_prints_it() -> None:
    done = subprocess.run([sys.executable, "-m", "wire.schema"], capture_output=True,
                          check=True, cwd=REPO)
    assert done.stdout.decode("utf-8") == dumps()


def test_it_is_a_schema_and_every_topic_has_its_definition() -> None:
    jsonschema.Draft202012Validator.check_schema(DOC)
    assert DOC["x-topics"] == TOPICS
    for name in TOPICS.values():
        assert name in DOC["$defs"]
    for kind in TOPICS:      # each is a kind parse_topic gives
        assert kind in {"ev", "status", "reply", "state", "seat", "tablet", "hub_status", "hub_cmd",
                        "alert", "result", "dealer_ev", "dealer_reply", "dealer_status",
                        "ranking", "traveller"}


@pytest.mark.parametrize("type_", sorted(BODIES))
def test_every_event_validates_and_an_out_of_bounds_one_does_not(type_: str) -> None:
    name = "DealerEvent" if type_ in ("dealt", "dealer_fault") else "DeviceEvent"
    validator(name).validate(json.loads(envelope(type_)))
    bad = json.loads(envelope(type_))
    bad["seq"] = 10 ** 60
    with pytest.raises(jsonschema.ValidationError):
        validator(name).validate(bad)


def test_the_schema_refuses_what_the_decoder_refuses() -> None:
    check = validator("DeviceEvent")
    for body in ({"board": 10 ** 60}, {"board": 0}, {"board": 3, "colour": "red"}):
        with pytest.raises(jsonschema.ValidationError):
            check.validate(json.loads(envelope("board", body)))
    with pytest.raises(jsonschema.ValidationError):
        check.validate(json.loads(envelope("call", {"seat": "X", "call": "1C"})))


@pytest.mark.parametrize(("kind", "obj"), SAMPLES)
def test_every_view_sample_validates(kind: type, obj: dict[str, Any]) -> None:
    validator(kind.__name__).validate(obj)


def validate_published(topic: str, payload: bytes) -> str:
    """The topic's kind, once its payload validated against the topic's definition."""
    kind = parse_topic(topic).kind
    if payload:          # an empty payload clears a retained topic
        errors = list(validator(TOPICS[kind]).iter_errors(json.loads(payload)))
        assert not errors, f"{topic}: {errors[0].message} at {list(errors[0].absolute_path)}"
    return kind


BAD = b'{"v": 1, "id": "x", "type": "fly"}'


def ev(type_: str, **body: Any) -> DeviceEvent:
    return DeviceEvent("A1", "A1-tab", type_, body, time.time())


def test_everything_a_live_hub_publishes_follows_the_schema(
        broker_url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Board 1 at A1: a revoke (Law 61), then South claims, both defenders accept, East
    confirms the result, North calls the director; a dealing machine deals board 2; the
    director acknowledges over hub/cmd; a bad event is refused. A privileged client sees
    every topic of the tree."""
    everything = listen(broker_url, f"{ROOT}/#")
    hub = hub_on(broker_url, tmp_path)
    with HubRunner(hub):
        script = [*revoke_script(), ev("claim", seat="S", tricks=8),
                  ev("claim_answer", seat="W", accept=True),
                  ev("claim_answer", seat="E", accept=True),
                  ev("result_confirm", seat="E", accept=True),
                  ev("director_call", seat="N", note="a question")]
        runs = run_tables(broker_url, {"A1": script})
        assert runs["A1"].codes == {"ok": len(script)}
        seen = drain(everything)
        alert = next(json.loads(m.payload) for m in seen
                     if "/director/alert/" in m.topic and b'"revoke"' in m.payload)
        tool = listen(broker_url, account="tenace-hub.observer2")
        tool.publish(topic_hub_command("director"), json.dumps({"op": "acknowledge",
                                                                "id": alert["id"]}).encode(), 1)
        pockets = {s.letter: [str(c) for c in DEALS[2][s]] for s in DEALS[2]}
        dealt = {"v": 1, "id": "dealer-1-1", "device": "dealer-1", "seq": 1,
                 "time": time.time(), "type": "dealt", "body": {"board": 2, "pockets": pockets}}
        tool.publish(topic_dealer_event("dealer-1"), json.dumps(dealt).encode(), 1)
        tool.publish(topic_event("A1", "A1-tab"), BAD, 1)
        seen += drain(everything)
        tool.close()
    seen += drain(everything)
    everything.close()
    with pytest.raises(AssertionError):     # the one the test sent to be refused
        validate_published(topic_event("A1", "A1-tab"), BAD)
    kinds = [validate_published(m.topic, m.payload) for m in seen if m.payload != BAD]
    refusal = [json.loads(m.payload) for m in seen if m.topic.endswith("/reply/A1-tab")
               and b'"ref":"x"' in m.payload]
    assert [r["code"] for r in refusal] == ["unknown_type"]
    assert {"ev", "status", "reply", "state", "seat", "tablet", "hub_status", "hub_cmd", "alert",
            "result", "dealer_ev", "dealer_reply", "ranking", "traveller"} <= set(kinds)
    assert len(kinds) == len(seen) - 1 > 50
    assert not [r for r in caplog.records if "not of its type" in r.getMessage()]
    with pytest.raises(ProtocolError):
        parse_topic(f"{ROOT}/nowhere")
