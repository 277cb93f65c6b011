"""The wire protocol's grammar (hub/protocol.py, docs/protocol.md): every topic builder
parses back, foreign topics and bad ids are refused, envelopes are validated field by
field with the code the reply carries."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wire.protocol import (
    EVENT_TYPES,
    MAX_PAYLOAD,
    ROOT,
    Envelope,
    ProtocolError,
    Reply,
    Topic,
    parse_topic,
    topic_alert,
    topic_device_command,
    topic_device_status,
    topic_event,
    topic_hub_command,
    topic_hub_status,
    topic_reply,
    topic_result,
    topic_seat,
    topic_state,
    topic_table_command,
)

ids = st.from_regex(r"[A-Za-z0-9_.-]{1,64}", fullmatch=True)
tables = st.from_regex(r"[A-Za-z0-9_-]{1,16}", fullmatch=True)


@given(tables, ids)
def test_every_table_topic_parses_back(table: str, device: str) -> None:
    ev = parse_topic(topic_event(table, device))
    assert (ev.kind, ev.table, ev.device) == ("ev", table, device)
    assert parse_topic(topic_device_status(table, device)).kind == "status"
    assert parse_topic(topic_reply(table, device)).device == device
    assert parse_topic(topic_state(table)).kind == "state"
    assert parse_topic(topic_seat(table, "W")).seat == "W"
    assert parse_topic(topic_table_command(table)).device is None
    assert parse_topic(topic_device_command(table, device)).device == device
    result = parse_topic(topic_result(table, 3, 17))
    assert (result.kind, result.table, result.round, result.board) == ("result", table, 3, 17)


def test_hub_and_director_topics() -> None:
    assert parse_topic(topic_hub_status()).kind == "hub_status"
    command = parse_topic(topic_hub_command("director"))
    assert (command.kind, command.account) == ("hub_cmd", "director")
    assert parse_topic(f"{ROOT}/hub/cmd") == Topic("hub_cmd")   # no account: refused
    with pytest.raises(ProtocolError, match="account"):
        topic_hub_command("a/b")
    assert parse_topic(topic_alert("A1-3-revoke-1")).alert == "A1-3-revoke-1"


@pytest.mark.parametrize("topic", [
    "other/v1/t/A1/state", "tenace/v2/t/A1/state", "tenace/v1/t/A1", "tenace/v1/t/A1/ev",
    "tenace/v1/t/A1/seat/X", "tenace/v1/t/A 1/state", "tenace/v1/t/A1/ev/a/b",
    "tenace/v1/result/A1/x/3", "tenace/v1/director/alert", "tenace/v1/t/+/state",
    "tenace/v1/t/" + "A" * 17 + "/state",
])
def test_foreign_and_malformed_topics_are_refused(topic: str) -> None:
    with pytest.raises(ProtocolError) as err:
        parse_topic(topic)
    assert err.value.code == "bad_topic" and err.value.reason


def test_builders_refuse_wildcards_and_bad_seats() -> None:
    for bad in ("+", "#", "a/b", ""):
        with pytest.raises(ProtocolError):
            topic_state(bad)
    with pytest.raises(ProtocolError):
        topic_seat("A1", "X")


def envelope(**over: object) -> bytes:
    obj: dict[str, object] = {"v": 1, "id": "t3-n-1", "device": "t3-n", "seq": 1,
                              "time": 1763740000.125, "type": "call",
                              "body": {"seat": "S", "call": "1NT"}}
    obj.update(over)
    return json.dumps(obj).encode()


def test_a_good_envelope_round_trips() -> None:
    env = Envelope.from_json(envelope())
    assert (env.id, env.device, env.seq, env.type, env.body["call"]) == (
        "t3-n-1", "t3-n", 1, "call", "1NT")
    assert Envelope.from_json(env.to_json()) == env


@pytest.mark.parametrize(("payload", "code"), [
    (b"not json", "malformed"),
    (b"[1, 2]", "malformed"),
    (envelope(v=2), "unsupported_version"),
    (envelope(v=None), "unsupported_version"),
    (envelope(id="bad id with spaces"), "malformed"),
    (envelope(seq=-1), "malformed"),
    (envelope(seq=True), "malformed"),
    (envelope(time="noon"), "malformed"),
    (envelope(time=float("nan")), "malformed"),        # JSON has no NaN: "NaN" is refused
    (envelope(time=float("inf")), "malformed"),
    (envelope(type="teleport"), "unknown_type"),
    (envelope(body=[]), "malformed"),
    (envelope(body={"seat": "S"}), "malformed"),               # no call
    (envelope(body={"seat": "Q", "call": "1NT"}), "malformed"),
    (envelope(body={"seat": "S", "call": 3}), "malformed"),
    (b"\xff\xfe", "malformed"),
    (b"{" + b" " * MAX_PAYLOAD + b"}", "too_large"),
])
def test_bad_envelopes_name_what_is_wrong(payload: bytes, code: str) -> None:
    with pytest.raises(ProtocolError) as err:
        Envelope.from_json(payload)
    assert err.value.code == code and err.value.reason


@given(st.binary(max_size=300))
def test_any_bytes_give_an_envelope_or_a_protocol_error(data: bytes) -> None:
    try:
        Envelope.from_json(data)
    except ProtocolError as err:
        assert err.code in {"malformed", "unsupported_version", "unknown_type", "too_large"}


def test_every_event_type_has_a_body_schema_with_required_fields() -> None:
    assert {"checkin", "board", "hand", "call", "card", "undo", "claim", "claim_answer",
            "result_confirm", "director_call", "answer", "ask", "explain",
            "rectify"} == set(EVENT_TYPES)


def test_reply_round_trips_and_rejects_garbage() -> None:
    reply = Reply("t3-n-1", 1, "reject", "not_your_turn", "it is West's turn", 5.0)
    assert Reply.from_json(reply.to_json()) == reply
    with pytest.raises(ProtocolError):
        Reply.from_json(b"{}")


def test_sent_is_the_clock_the_hub_checks_and_time_stays_when_it_happened() -> None:
    env = Envelope.from_json(envelope(time=100.0, sent=400.0))
    assert (env.time, env.sent, env.clock) == (100.0, 400.0, 400.0)
    assert Envelope.from_json(env.to_json()) == env
    assert Envelope.from_json(envelope(time=100.0)).clock == 100.0
    with pytest.raises(ProtocolError, match="before the event's time"):
        Envelope.from_json(envelope(time=100.0, sent=50.0))


@pytest.mark.parametrize("payload", [b'"just a string"', b"[1]", b"3", b"null", b"{bad"])
def test_a_reply_that_is_not_an_object_is_malformed(payload: bytes) -> None:
    with pytest.raises(ProtocolError):
        Reply.from_json(payload)


@given(st.text(max_size=30), st.one_of(st.none(), st.integers(0, 2**40)),
       st.sampled_from(["ack", "reject"]), st.text(max_size=30),
       st.floats(allow_nan=False, allow_infinity=False),
       st.one_of(st.none(), st.integers(-1, 2**40)))
def test_a_reply_is_the_same_json_whichever_encoder_writes_it(
        ref: str, seq: int | None, status: str, reason: str, time: float,
        last: int | None) -> None:
    """A reply without a text is written by msgspec (issue 27): the same characters as the
    strict JSON encoder's, lone surrogates included, and it still reads back."""
    reply = Reply(ref, seq, status, "ok", reason, time, None, last, None if last is None
                  else "log-1")
    obj = {"v": 1, "type": status, "ref": ref, "seq": seq, "code": "ok", "reason": reason,
           "time": time, **({} if last is None else {"last": last, "log": "log-1"})}
    assert reply.to_json() == json.dumps(obj, separators=(",", ":"), ensure_ascii=False,
                                         allow_nan=False)
    if not any(0xD800 <= ord(c) <= 0xDFFF for c in ref + reason):
        assert Reply.from_json(reply.to_json()) == reply


def test_a_reply_that_is_not_json_is_refused_as_before() -> None:
    with pytest.raises(ValueError):
        Reply("r-1", 1, "ack", time=float("nan")).to_json()


def test_a_topic_parsed_again_is_the_same_and_a_bad_one_is_refused_every_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Parsed topics are kept (issue 27), within a bound: what a topic parses to never
    depends on whether it was parsed before, nor on how many others were."""
    import wire.protocol as protocol

    monkeypatch.setattr(protocol, "_PARSED_MAX", 3)
    monkeypatch.setattr(protocol, "_PARSED", {})
    names = [topic_event(f"A{n}", f"A{n}-tab") for n in range(1, 8)]
    first = [parse_topic(name) for name in names]
    assert len(protocol._PARSED) <= 3
    for _ in range(2):
        assert [parse_topic(name) for name in names] == first
        assert first[4] == Topic("ev", "A5", "A5-tab")
        for bad in ("tenace/v1/t/A1/ev", "tenace/v1/t/A 1/ev/x", "other/v1/hub/status"):
            with pytest.raises(ProtocolError):
                parse_topic(bad)
            assert bad not in protocol._PARSED
    # The ids checked once are remembered, within a bound; a bad one is refused every time.
    monkeypatch.setattr(protocol, "_MATCHED_MAX", 2)
    monkeypatch.setattr(protocol, "_MATCHED", (set(), set()))
    for _ in range(2):
        assert [topic_reply(f"A{n}", f"A{n}-tab") for n in range(1, 5)] == [
            f"tenace/v1/t/A{n}/reply/A{n}-tab" for n in range(1, 5)]
        assert all(len(ids) <= 2 for ids in protocol._MATCHED)
        for table, device in (("A 1", "A1-tab"), ("A1", "A1/tab"), ("A1" * 9, "x")):
            with pytest.raises(ProtocolError, match="is not"):
                topic_reply(table, device)


def test_a_notice_travels_with_the_reply() -> None:
    reply = Reply("r-1", 3, "ack", "ok", "pair 6 is scheduled EW here", 1.0, "wrong_seating")
    assert Reply.from_json(reply.to_json()) == reply
    assert "notice" not in Reply("r-2", 4, "ack").to_json()
