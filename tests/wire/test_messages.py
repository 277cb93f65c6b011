"""The typed messages (wire/messages.py): every event type decodes and round-trips, bounds
on sizes, ranges, nesting and text hold, each refusal names the field by its path, and
hostile JSON only ever gives an Envelope or a ProtocolError (fuzzed)."""

from __future__ import annotations

import json
from typing import Any, get_args

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wire.messages import (
    DEALER_EVENT_TYPES,
    EVENT_TYPES,
    MAX_DEPTH,
    MAX_PAYLOAD,
    CallBody,
    CallEvent,
    DirectorCommand,
    ReplyMessage,
    Ruling,
    check_payload,
    decode_event,
)
from wire.protocol import Envelope, ProtocolError, Reply, salvage

CODES = {"malformed", "unsupported_version", "unknown_type", "too_large"}

# One good body of every event type (tablet, card reader, dealing machine).
BODIES: dict[str, dict[str, Any]] = {
    "checkin": {"direction": "NS", "pair": 3, "players": [{"number": 1234, "name": "Ann"}],
                "seat": "N"},
    "board": {"board": 17, "source": "tablet"},
    "hand": {"seat": "E", "cards": ["SA", "?04A1B2C3D4E580", "club-7:HK"], "when": "back",
             "board": 3},
    "call": {"seat": "S", "call": "1NT", "alert": True, "explanation": "15-17",
             "stop": False},
    "card": {"seat": "W", "card": "DT", "source": "reader"},
    "undo": {"seat": "N"},
    "claim": {"seat": "S", "tricks": 9, "statement": "drawing trumps"},
    "claim_answer": {"seat": "W", "accept": False},
    "result_confirm": {"seat": "E", "accept": True},
    "ask": {"seat": "E", "call": 1},
    "explain": {"seat": "S", "call": 1, "text": "precision: 16+", "announce": False},
    "rectify": {"seat": "S", "irregularity": "A1-1-insufficient_bid-1", "choice": "accept"},
    "director_call": {"note": "revoke?"},
    "dealt": {"board": 4, "copy": 2, "pockets": {"N": ["SA"], "E": ["?"], "S": [], "W": []},
              "errors": [{"code": "misread", "pocket": "E"}]},
    "dealer_fault": {"code": "jam", "board": 4, "detail": "card stuck"},
}


def envelope(type_: str = "call", body: Any = None, **over: Any) -> bytes:
    obj: dict[str, Any] = {"v": 1, "id": "A1-tab-1", "device": "A1-tab", "seq": 1,
                           "time": 1763740000.125, "type": type_,
                           "body": BODIES[type_] if body is None else body}
    obj.update(over)
    return json.dumps(obj).encode()


def refused(payload: bytes | str, types: Any = None) -> ProtocolError:
    with pytest.raises(ProtocolError) as err:
        Envelope.from_json(payload, types)
    return err.value


@pytest.mark.parametrize("type_", sorted(BODIES))
def test_every_event_type_decodes_typed_and_round_trips(type_: str) -> None:
    types = {**EVENT_TYPES, **DEALER_EVENT_TYPES}
    env = Envelope.from_json(envelope(type_), types)
    assert (env.type, env.body) == (type_, BODIES[type_])   # the body as received
    assert Envelope.from_json(env.to_json(), types) == env
    typed = env.event()
    assert isinstance(typed, types[type_])
    assert msgspec.to_builtins(typed.body) == BODIES[type_]


def test_optional_fields_left_out_stay_out_and_null_is_kept() -> None:
    env = Envelope.from_json(envelope("call", {"seat": "S", "call": "Pass", "alert": None}))
    assert env.body == {"seat": "S", "call": "Pass", "alert": None}
    assert Envelope.from_json(envelope("director_call", {})).body == {}
    event = decode_event(envelope("call", {"seat": "S", "call": "Pass"}))
    assert isinstance(event, CallEvent) and event.body == CallBody("S", "Pass")


def test_a_director_call_may_leave_its_body_out() -> None:
    obj = json.loads(envelope("director_call"))
    del obj["body"]
    assert Envelope.from_json(json.dumps(obj)).body == {}


@pytest.mark.parametrize(("payload", "path"), [
    (envelope("board", {"board": 10 ** 60}), "$.body.board"),
    (envelope("board", {"board": 1000}), "$.body.board"),
    (envelope("board", {"board": 0}), "$.body.board"),
    (envelope("board", {"board": 1.5}), "$.body.board"),
    (envelope("board", {"board": True}), "$.body.board"),
    (envelope("checkin", {"direction": "NE", "pair": 1}), "$.body.direction"),
    (envelope("checkin", {"direction": "NS", "pair": 0}), "$.body.pair"),
    (envelope("checkin", {"direction": "NS", "pair": 1, "players": [{}] * 5}),
     "$.body.players"),
    (envelope("claim", {"seat": "S", "tricks": 14}), "$.body.tricks"),
    (envelope("hand", {"seat": "N", "cards": ["SA"] * 65}), "$.body.cards"),
    (envelope("hand", {"seat": "N", "cards": [""]}), "$.body.cards[0]"),
    (envelope("hand", {"seat": "N", "cards": [], "when": "sideways"}), "$.body.when"),
    (envelope("call", {"seat": "S", "call": "1NT" * 3}), "$.body.call"),
    (envelope("call", {"seat": "S", "call": "1NT", "explanation": "x" * 4001}),
     "$.body.explanation"),
    (envelope("call", {"seat": "S", "call": "1NT", "alert": 1}), "$.body.alert"),
    (envelope("call", {"seat": "S", "call": "1NT", "colour": "red"}), "$.body"),
    (envelope(extra=1), "$"),
    (envelope(seq=10 ** 60), "$.seq"),
    (envelope(seq=-1), "$.seq"),
    (envelope(time=-5.0), "$.time"),
    (envelope(time=1e300), "$.time"),
    (envelope(device="A1 tab"), "$.device"),
    (envelope(id="x" * 65), "$.id"),
    (envelope(body=[]), "$.body"),
])
def test_out_of_bounds_is_malformed_and_the_reason_names_the_field(payload: bytes,
                                                                   path: str) -> None:
    err = refused(payload)
    assert err.code == "malformed" and f"at {path})" in err.reason, err.reason


def test_the_old_reasons_are_kept() -> None:
    assert "missing field 'call'" in refused(envelope("call", {"seat": "N"})).reason
    assert "seat 'X' is not N, E, S or W" in refused(
        envelope("call", {"seat": "X", "call": "1C"})).reason
    assert "must be str" in refused(envelope("card", {"seat": "N", "card": 7})).reason
    assert "unknown event type 'fly'" in refused(envelope("call", type="fly")).reason
    assert "before the event's time" in refused(envelope(time=100.0, sent=50.0)).reason


@pytest.mark.parametrize("text", [
    b'"\\ud800"', b'"\\udfff"', b'"a\\ud800b"', b'"\\ud800\\u0041"', b'"\\udc00\\ud800"',
])
def test_a_lone_utf16_surrogate_is_not_text(text: bytes) -> None:
    """msgspec refuses a lone surrogate escape itself (SQLite and every UTF-8 writer
    would choke on it later): checked here so that it stays so."""
    payload = envelope("call", {"seat": "S", "call": "1NT", "explanation": "@"}).replace(
        b'"@"', text)
    err = refused(payload)
    assert err.code == "malformed"
    with pytest.raises(ProtocolError):
        Envelope.from_json(payload.decode("ascii").replace(text.decode(), '"\ud800"'))


def test_a_surrogate_pair_is_text() -> None:
    payload = envelope("call", {"seat": "S", "call": "1NT", "explanation": "@"}).replace(
        b'"@"', b'"\\ud83c\\udccf"')
    assert Envelope.from_json(payload).body["explanation"] == "\U0001F0CF"


@pytest.mark.parametrize("number", [b"NaN", b"Infinity", b"-Infinity", b"1e400", b"-1e999"])
def test_numbers_json_does_not_have_are_refused(number: bytes) -> None:
    payload = envelope(time=12345.0).replace(b"12345.0", number)
    assert refused(payload).code == "malformed"


def test_invalid_utf8_and_non_objects_are_malformed() -> None:
    for payload in (b"\xff\xfe", b"\xed\xa0\x80", b"[1]", b'"x"', b"null", b"", b"{"):
        assert refused(payload).code == "malformed"


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 100, 5000, 30000])
def test_deep_nesting_is_refused_before_any_parser_recurses(depth: int) -> None:
    for opener, closer in ((b"[", b"]"), (b'{"a":', b"}")):
        inner = opener * depth + b"1" + closer * depth
        payload = b'{"v":1,"type":"call","body":' + inner + b"}"
        if len(payload) > MAX_PAYLOAD:
            assert refused(payload).code == "too_large"
        else:
            err = refused(payload)
            assert err.code == "malformed" and "nested" in err.reason
        assert salvage(payload) == ("?", None)


def test_brackets_inside_strings_are_not_nesting() -> None:
    payload = envelope("call", {"seat": "S", "call": "1NT",
                                "explanation": "[[[[{{{{\\\"[[[[" * 10})
    assert Envelope.from_json(payload).body["call"] == "1NT"
    assert check_payload('{"a":"[[[[[[[[[[[["}', depth=2)


def test_size_is_checked_on_the_bytes_before_parsing() -> None:
    assert refused(b" " * (MAX_PAYLOAD + 1)).code == "too_large"
    big = envelope("call", {"seat": "S", "call": "1NT", "explanation": "é" * 2000})
    assert len(big) < MAX_PAYLOAD and Envelope.from_json(big)


def test_a_dealing_machines_events_are_not_a_tables_and_back() -> None:
    assert refused(envelope("dealt")).code == "unknown_type"
    assert refused(envelope("call"), DEALER_EVENT_TYPES).code == "unknown_type"
    err = refused(envelope("dealt", {"board": 4, "pockets": {"X": []}}), DEALER_EVENT_TYPES)
    assert err.code == "malformed" and "$.body.pockets" in err.reason


def test_version_and_type_come_first() -> None:
    assert refused(envelope(v=True)).code == "unsupported_version"
    assert refused(envelope(v=1.0)).code == "unsupported_version"
    assert refused(envelope(v=2, seq="x")).code == "unsupported_version"
    assert refused(envelope(type=3)).code == "malformed"
    assert refused(envelope(type="fly", seq="x")).code == "unknown_type"


def test_salvage_reads_the_reference_of_what_it_can() -> None:
    assert salvage(envelope(body=[])) == ("A1-tab-1", 1)
    assert salvage(b'{"id": 3, "seq": true}') == ("?", None)
    assert salvage(b"\xff") == ("?", None)
    assert salvage(b"[") == ("?", None)


def test_the_reply_is_typed_too() -> None:
    reply = Reply("r-1", 3, "ack", "ok", "", 1.0, "wrong_seating")
    msg = msgspec.json.decode(reply.to_json(), type=ReplyMessage)
    assert (msg.type, msg.ref, msg.notice) == ("ack", "r-1", "wrong_seating")
    for bad in (b'{"type": "maybe", "ref": "x"}', b'{"type": "ack"}', b"[" * 100):
        with pytest.raises(ProtocolError) as err:
            Reply.from_json(bad)
        assert err.value.code == "malformed"


@pytest.mark.parametrize("command", [
    {"op": "acknowledge", "id": "A1-1-revoke-1"},
    {"op": "rule", "id": "A1-1", "text": "score stands", "score": {"ns": 420}},
    {"op": "resolve", "id": "A1-1", "v": 1},
    {"op": "round_start", "round": 2},
    {"op": "table_mode", "table": "A1", "strict": True},
    {"op": "ruling", "kind": "weighted", "table": "A1", "board": 3,
     "outcomes": [[0.5, 420], [0.5, -50]]},
    {"op": "ruling", "kind": "split", "table": "A1", "board": 3, "ns": "A+", "ew": 420},
    {"op": "ruling", "kind": "penalty", "pair": 3, "amount": 0.5, "unit": "mp"},
    {"op": "ruling", "kind": "fouled", "board": 3, "groups": [["A3", "A4"]]},
    {"op": "ruling_undo", "id": "R1"},
])
def test_director_commands_have_a_shape(command: dict[str, Any]) -> None:
    decoded = msgspec.convert(command, DirectorCommand)
    assert msgspec.json.decode(msgspec.json.encode(decoded)) == command
    if command["op"] == "ruling":
        assert isinstance(decoded, Ruling)


@pytest.mark.parametrize("command", [
    {"op": "round_start", "round": "2"}, {"op": "table_mode", "table": "A1", "strict": 1},
    {"op": "acknowledge"}, {"op": "launch"}, {"op": "ruling", "kind": "fine"},
    {"op": "resolve", "id": "A1", "v": 2},
])
def test_bad_director_commands_do_not_fit(command: dict[str, Any]) -> None:
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert(command, DirectorCommand)


def test_every_director_command_of_the_hub_has_its_struct() -> None:
    """hub.director checks the commands against the room; their shapes are these (and
    ``by`` and ``ref``, which only a hub shard's forwarded command carries: hub.sharding)."""
    from hub.director import COMMANDS
    from hub.rulings import RULING_FIELDS
    tags = {kind.__struct_config__.tag for kind in get_args(DirectorCommand)}
    assert tags == set(COMMANDS)
    for kind in get_args(DirectorCommand):
        fields = set(kind.__struct_fields__) - {"v", "by", "ref"}
        expected = RULING_FIELDS if kind is Ruling else COMMANDS[kind.__struct_config__.tag][1]
        assert fields == set(expected), kind


# Fuzzing -----------------------------------------------------------------------------------

scalars = (st.none() | st.booleans() | st.integers() | st.integers(-10 ** 80, 10 ** 80)
           | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                      max_leaves=30)
keys = st.sampled_from(["v", "id", "device", "seq", "time", "sent", "type", "body"])
types = st.sampled_from([*BODIES, "fly", ""])
body_keys = st.sampled_from(["seat", "call", "card", "board", "tricks", "accept", "cards",
                             "when", "pair", "direction", "players", "note", "pockets"])


@st.composite
def hostile(draw: st.DrawFn) -> bytes:
    """A good envelope, then some of its fields replaced, removed or added, its body too;
    sometimes wrapped deep, or with a hostile fragment spliced into its text."""
    kind = draw(types)
    obj = json.loads(envelope(kind if kind in BODIES else "call", type=kind))
    for _ in range(draw(st.integers(0, 3))):
        action = draw(st.sampled_from(["set", "drop", "body"]))
        if action == "set":
            obj[draw(keys | st.text(max_size=5))] = draw(values)
        elif action == "drop":
            obj.pop(draw(keys), None)
        elif isinstance(obj.get("body"), dict):
            obj["body"][draw(body_keys)] = draw(values)
    text = json.dumps(obj, ensure_ascii=draw(st.booleans()))
    splice = draw(st.sampled_from(["", '"\\ud800"', "[" * 200, "NaN", "1e999", "-0",
                                   "\\u0000", '"\\udfff\\ud800"', "{" * 3000, "\xff"]))
    if splice:
        at = draw(st.integers(0, len(text)))
        text = text[:at] + splice + text[at:]
    depth = draw(st.integers(0, 3)) * 40
    text = '{"v":1,"body":' * depth + text + "}" * depth
    return text.encode("utf-8", "surrogateescape")


@settings(max_examples=400, deadline=None)
@given(hostile(), st.booleans())
def test_hostile_json_gives_an_envelope_or_a_protocol_error(payload: bytes,
                                                           as_text: bool) -> None:
    data: bytes | str = payload.decode("utf-8", "replace") if as_text else payload
    for table in (None, DEALER_EVENT_TYPES):
        try:
            env = Envelope.from_json(data, table)
        except ProtocolError as err:
            assert err.code in CODES and err.reason
        else:
            assert isinstance(env, Envelope) and env.v == 1
            assert Envelope.from_json(env.to_json(), table) == env
    ref, seq = salvage(data)
    assert isinstance(ref, str) and (seq is None or isinstance(seq, int))


@settings(max_examples=200, deadline=None)
@given(values)
def test_any_json_value_gives_an_envelope_or_a_protocol_error(value: Any) -> None:
    for payload in (json.dumps(value), json.dumps({"v": 1, "type": "call", "body": value})):
        try:
            Envelope.from_json(payload)
        except ProtocolError as err:
            assert err.code in CODES
