"""The wire protocol between table devices, the hub and the director (docs/protocol.md).

The topic grammar lives here and only here: builders for every topic and one
parser. Payloads are typed, versioned JSON envelopes with ``to_json`` /
``from_json``, decoded and bounded by :mod:`wire.messages` (msgspec); anything
malformed is a :class:`ProtocolError` with a code and a reason naming the field,
that the hub sends back on the device's reply topic.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from typing import Any

import msgspec

from bridgecore.text import Text
from wire.errors import ProtocolError
from wire.messages import (
    DEALER_EVENT_TYPES,
    EVENT_TYPES,
    HELLO_TYPES,
    MAX_DEPTH,
    MAX_PAYLOAD,
    SCHEMA_VERSION,
    EventEnvelope,
    EventTypes,
    Position,
    ReplyMessage,
    check_payload,
    decode_event,
    validation_reason,
)

__all__ = [
    "DEALER_EVENT_TYPES", "EVENT_TYPES", "HELLO_TYPES", "MAX_PAYLOAD", "NOTICES", "ROOT",
    "SCHEMA_VERSION",
    "Envelope", "ProtocolError", "Reply", "Topic",
    "parse_topic", "salvage", "topic_alert", "topic_dealer_event", "topic_dealer_reply",
    "topic_dealer_status", "topic_device_command", "topic_device_status", "topic_event",
    "topic_field_ranking", "topic_hub_command", "topic_hub_status", "topic_ranking",
    "topic_reply", "topic_result", "topic_seat", "topic_shard_answer", "topic_shard_status",
    "topic_shard_tables",
    "topic_state",
    "topic_table_command", "topic_tablet", "topic_traveller",
]

_STRICT = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False)
# A reply's usual fields (text, integers, a time that Python writes without an exponent)
# encoded by msgspec: the same JSON as _STRICT's, about five times faster (one per event,
# issue 27). Anything else goes to _STRICT.
_FAST = msgspec.json.Encoder()
"""Strict JSON (no NaN, no Infinity), compact: made once (``json.dumps`` with options makes
an encoder per call; issue 27)."""

ROOT = "tenace/v1"

_ID = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")
_TABLE = re.compile(r"^[A-Za-z0-9_-]{1,16}$")
_SEATS = ("N", "E", "S", "W")


# Topics ---------------------------------------------------------------------------------

# The ids that matched each pattern (a room's tables and devices: every topic the hub builds
# and parses checks them again; issue 27), started afresh past a bound whatever comes.
_MATCHED: tuple[set[str], set[str]] = (set(), set())   # _TABLE's, _ID's
_MATCHED_MAX = 16384


def _check(kind: str, value: str, pattern: re.Pattern[str]) -> str:
    matched = _MATCHED[pattern is _ID]
    if value in matched:
        return value
    if not pattern.match(value):
        shape = ("[A-Za-z0-9_-], 1-16 characters" if pattern is _TABLE
                 else "[A-Za-z0-9_.-], 1-64 characters")
        raise ProtocolError("bad_topic", f"{kind} id {value!r} is not {shape}")
    if len(matched) >= _MATCHED_MAX:
        matched.clear()
    matched.add(value)
    return value


def topic_event(table: str, device: str) -> str:
    """Device -> hub: every event a table device publishes (QoS 1, not retained)."""
    return f"{ROOT}/t/{_check('table', table, _TABLE)}/ev/{_check('device', device, _ID)}"


def topic_device_status(table: str, device: str) -> str:
    """Device presence: birth ``online: true`` and last will ``online: false`` (retained)."""
    return f"{ROOT}/t/{_check('table', table, _TABLE)}/dev/{_check('device', device, _ID)}/status"


def topic_reply(table: str, device: str) -> str:
    """Hub -> device: acknowledgement or rejection of each event (QoS 1)."""
    return f"{ROOT}/t/{_check('table', table, _TABLE)}/reply/{_check('device', device, _ID)}"


def topic_state(table: str) -> str:
    """Hub -> table: the public state of the table (retained). Never a hidden hand."""
    return f"{ROOT}/t/{_check('table', table, _TABLE)}/state"


def topic_seat(table: str, seat: str) -> str:
    """Hub -> one seat: what only that player may see, his own hand (retained, ACL)."""
    if seat not in _SEATS:
        raise ProtocolError("bad_topic", f"seat {seat!r} is not N, E, S or W")
    return f"{ROOT}/t/{_check('table', table, _TABLE)}/seat/{seat}"


def topic_tablet(table: str) -> str:
    """Hub -> the table tablet: the explanations it shows each side (retained, ACL: never a
    seat tablet's)."""
    return f"{ROOT}/t/{_check('table', table, _TABLE)}/tablet"


def topic_table_command(table: str) -> str:
    """Hub -> every device of a table: commands (QoS 1)."""
    return f"{ROOT}/t/{_check('table', table, _TABLE)}/cmd"


def topic_device_command(table: str, device: str) -> str:
    """Hub -> one device: commands (QoS 1)."""
    return f"{ROOT}/t/{_check('table', table, _TABLE)}/cmd/{_check('device', device, _ID)}"


def topic_hub_status() -> str:
    """The hub's own presence (retained, with a last will)."""
    return f"{ROOT}/hub/status"


def topic_shard_status(index: int) -> str:
    """One hub shard's own presence (retained, with its last will; docs/deploying.md): shard
    ``index`` of an event whose sections several hub processes share (``hub/status`` stays
    the event's, shard 0's, which the devices read)."""
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < 1000:
        raise ProtocolError("bad_topic", f"shard {index!r} must be a number from 0 to 999")
    return f"{ROOT}/hub/shard/{index}/status"


def topic_shard_tables(index: int) -> str:
    """Hub shard ``index`` -> the console of another shard, director's tools: its tables'
    summaries as the director's console shows them (retained; hub.sharding)."""
    return topic_shard_status(index).rsplit("/", 1)[0] + "/tables"


def topic_shard_answer(index: int) -> str:
    """Hub shard ``index`` -> the shard whose console sent it a command (``to`` in the
    payload): whether it applied it (not retained; docs/protocol.md section 17)."""
    return topic_shard_status(index).rsplit("/", 1)[0] + "/answer"


def topic_hub_command(account: str) -> str:
    """Director's and scoring tools -> hub, on their own account's topic (ACL: the
    ``director`` and ``scorer`` accounts, each its own), so every ruling names who made it."""
    return f"{ROOT}/hub/cmd/{_check('account', account, _ID)}"


def topic_alert(alert_id: str) -> str:
    """Hub -> director: one alert (retained while open; ACL: director only)."""
    return f"{ROOT}/director/alert/{_check('alert', alert_id, _ID)}"


def topic_result(table: str, round: int, board: int) -> str:
    """Hub -> director and scoring: a board's result at a table (retained; ACL: not for
    table devices, a result is not seen by players who have still to play the board)."""
    if round < 0 or board < 0:
        raise ProtocolError("bad_topic", f"round {round} and board {board} must be 0 or more")
    return f"{ROOT}/result/{_check('table', table, _TABLE)}/{round}/{board}"


def topic_ranking(section: str) -> str:
    """Hub -> director, scoring, results pages: a section's ranking so far, rescored as
    results and rulings arrive (retained; ACL: not for table devices, Law 16)."""
    return f"{ROOT}/results/ranking/{_check('section', section, _TABLE)}"


def topic_traveller(section: str, board: int) -> str:
    """Hub -> director, scoring, results pages: a board's traveller in a section, every
    result with its points (retained; ACL: not for table devices, Law 16)."""
    if board < 1:
        raise ProtocolError("bad_topic", f"board {board} must be 1 or more")
    return f"{ROOT}/results/traveller/{_check('section', section, _TABLE)}/{board}"


def topic_field_ranking() -> str:
    """Hub (shard 0) -> director, scoring, results pages: the ranking across every pairs
    section of an event scored as one field (retained; ACL: not for table devices, Law 16)."""
    return f"{ROOT}/results/field"


def topic_dealer_event(device: str) -> str:
    """Dealing machine's bridge -> hub: each board dealt, each fault (QoS 1, not retained)."""
    return f"{ROOT}/dealer/{_check('device', device, _ID)}/ev"


def topic_dealer_reply(device: str) -> str:
    """Hub -> dealing machine's bridge: acknowledgement or rejection of each event (QoS 1)."""
    return f"{ROOT}/dealer/{_check('device', device, _ID)}/reply"


def topic_dealer_status(device: str) -> str:
    """Dealing machine's bridge presence: birth and last will (retained)."""
    return f"{ROOT}/dealer/{_check('device', device, _ID)}/status"


@dataclass(frozen=True, slots=True)
class Topic:
    """A parsed topic: ``kind`` is one of ev, status, reply, state, seat, cmd, hub_status,
    hub_cmd, alert, result, dealer_ev, dealer_reply, dealer_status, ranking, traveller,
    shard_status, shard_tables and shard_answer (``shard``: its number), field.
    ``account``: the account a ``hub_cmd`` was published for (None on the bare ``hub/cmd``
    topic of earlier versions, which the hub refuses)."""

    kind: str
    table: str | None = None
    device: str | None = None
    seat: str | None = None
    alert: str | None = None
    round: int | None = None
    board: int | None = None
    section: str | None = None
    account: str | None = None
    shard: int | None = None


_PARSED: dict[str, Topic] = {}
_PARSED_MAX = 16384   # topics kept parsed: a room's devices each publish on a few


def parse_topic(topic: str) -> Topic:
    """Parse any topic of the tree; raises ProtocolError(bad_topic) for anything else.

    A topic parsed once is kept (a :class:`Topic` is immutable): a device publishes every
    event on the same topic (issue 27). At most :data:`_PARSED_MAX` are kept; then the
    cache starts again, so its memory stays bounded whatever comes."""
    found = _PARSED.get(topic)
    if found is None:
        found = _parse_topic(topic)
        if len(_PARSED) >= _PARSED_MAX:
            _PARSED.clear()
        _PARSED[topic] = found
    return found


def _parse_topic(topic: str) -> Topic:
    parts = topic.split("/")
    if len(parts) < 3 or "/".join(parts[:2]) != ROOT:
        raise ProtocolError("bad_topic", f"not a {ROOT} topic: {topic!r}")
    rest = parts[2:]
    try:
        if rest[0] == "t" and len(rest) >= 3:
            table = _check("table", rest[1], _TABLE)
            kind = rest[2]
            if kind == "ev" and len(rest) == 4:
                return Topic("ev", table, _check("device", rest[3], _ID))
            if kind == "dev" and len(rest) == 5 and rest[4] == "status":
                return Topic("status", table, _check("device", rest[3], _ID))
            if kind == "reply" and len(rest) == 4:
                return Topic("reply", table, _check("device", rest[3], _ID))
            if kind == "state" and len(rest) == 3:
                return Topic("state", table)
            if kind == "tablet" and len(rest) == 3:
                return Topic("tablet", table)
            if kind == "seat" and len(rest) == 4 and rest[3] in _SEATS:
                return Topic("seat", table, seat=rest[3])
            if kind == "cmd" and len(rest) in (3, 4):
                device = _check("device", rest[3], _ID) if len(rest) == 4 else None
                return Topic("cmd", table, device)
        elif rest == ["hub", "status"]:
            return Topic("hub_status")
        elif (rest[:2] == ["hub", "shard"] and len(rest) == 4
              and rest[3] in ("status", "tables", "answer") and rest[2].isdecimal()
              and len(rest[2]) <= 3):
            return Topic(f"shard_{rest[3]}", shard=int(rest[2]))
        elif rest == ["results", "field"]:
            return Topic("field")
        elif rest[:2] == ["hub", "cmd"] and len(rest) in (2, 3):
            return Topic("hub_cmd", account=_check("account", rest[2], _ID)
                         if len(rest) == 3 else None)
        elif (rest[0] == "result" and len(rest) == 4 and rest[2].isdecimal()
              and rest[3].isdecimal()):
            return Topic("result", _check("table", rest[1], _TABLE), round=int(rest[2]),
                         board=int(rest[3]))
        elif (rest[0] == "dealer" and len(rest) == 3
              and rest[2] in ("ev", "reply", "status")):
            return Topic(f"dealer_{rest[2]}", device=_check("device", rest[1], _ID))
        elif rest[0] == "results" and rest[1:2] == ["ranking"] and len(rest) == 3:
            return Topic("ranking", section=_check("section", rest[2], _TABLE))
        elif (rest[0] == "results" and rest[1:2] == ["traveller"] and len(rest) == 4
              and rest[3].isdecimal() and int(rest[3]) >= 1):
            return Topic("traveller", board=int(rest[3]),
                         section=_check("section", rest[2], _TABLE))
        elif rest[0] == "director" and len(rest) == 3 and rest[1] == "alert":
            return Topic("alert", alert=_check("alert", rest[2], _ID))
    except ProtocolError:
        raise
    raise ProtocolError("bad_topic", f"unknown topic {topic!r}")


# Envelopes ------------------------------------------------------------------------------

class Envelope(msgspec.Struct, frozen=True):
    """One event from a device. ``id`` is the idempotency key; ``seq`` increases per device;
    ``time`` is the device's clock when the player acted (seconds since the epoch); ``sent``,
    when given, its clock when this copy was published (an event kept in a tablet's outbox
    through a network outage is sent late: the hub checks the clock on ``sent`` and keeps
    ``time`` as when it happened); ``offset``, when given, the device's estimate of the hub's
    clock minus its own when it published this copy (learnt from the hub's replies,
    :mod:`wire.link`): the hub judges ``sent + offset`` and the player acted at
    :attr:`acted` on the hub's clock. ``body`` is the event's body as plain JSON values, as
    received (:meth:`event` gives it typed, :mod:`wire.messages`). ``at``, when given,
    where in the table's game record the event belongs as the device saw it (``board``,
    ``calls``, ``cards``: :class:`wire.messages.Position`); the hub applies a table's events
    in that order (docs/protocol.md section 6)."""

    id: str
    device: str
    seq: int
    time: float
    type: str
    body: dict[str, Any] = msgspec.field(default_factory=dict)
    v: int = SCHEMA_VERSION
    sent: float | None = None
    offset: float | None = None
    at: dict[str, int] | None = None

    @property
    def clock(self) -> float:
        """The device's clock as the hub compares it with its own (uncorrected)."""
        return self.time if self.sent is None else self.sent

    @property
    def acted(self) -> float:
        """When the player acted, on the hub's clock as far as the device knows it: ``time``
        corrected by ``offset`` (``time`` itself without one)."""
        return self.time if self.offset is None else self.time + self.offset

    def corrected(self) -> Envelope:
        """This envelope read on the hub's clock: ``time`` and ``sent`` moved by ``offset``,
        which is then None (itself when it has no ``offset``). The hub hands this to its
        tables, so that the times of every device of a table are on one clock."""
        if self.offset is None:
            return self
        return msgspec.structs.replace(self, time=self.time + self.offset,
                       sent=None if self.sent is None else self.sent + self.offset,
                       offset=None)

    def event(self) -> EventEnvelope:
        """This envelope as its typed message (ProtocolError if it is not one)."""
        return decode_event(self.to_json(), {**EVENT_TYPES, **DEALER_EVENT_TYPES, **HELLO_TYPES})

    def to_json(self) -> str:
        obj = {"v": self.v, "id": self.id, "device": self.device, "seq": self.seq,
               "time": self.time, "type": self.type, "body": self.body}
        if self.sent is not None:
            obj["sent"] = self.sent
        if self.offset is not None:
            obj["offset"] = self.offset
        if self.at is not None:
            obj["at"] = self.at
        try:   # strict JSON: NaN and Infinity are not JSON, and no hub takes them
            return _STRICT.encode(obj)
        except ValueError as err:
            raise ProtocolError("malformed", f"{self.type} event {self.id!r:.80}: {err}") \
                from None

    @classmethod
    def from_json(cls, payload: bytes | str,
                  types: EventTypes | None = None) -> Envelope:
        """Parse and validate (:func:`wire.messages.decode_event`); raises ProtocolError
        with the code the reply carries. ``types``: the event types the topic takes
        (default :data:`EVENT_TYPES`)."""
        event = decode_event(payload, types)
        body: dict[str, Any] = msgspec.to_builtins(event.body)  # type: ignore[attr-defined]
        sent, offset, at = event.sent, event.offset, event.at
        # a room has a few devices and each sends thousands of events: one copy of each
        # name, not one per event kept (a card's source, the ordering's record; issue 27)
        return cls(event.id, sys.intern(event.device), event.seq, event.time,
                   str(event.__struct_config__.tag),
                   body, sent=sent if isinstance(sent, float) else None,
                   offset=offset if isinstance(offset, float) else None,
                   at=msgspec.to_builtins(at) if isinstance(at, Position) else None)


def salvage(payload: bytes | str) -> tuple[str, int | None]:
    """The ``id`` and ``seq`` of a rejected payload, when they can be read (``"?"`` and
    None otherwise), for the reply's ``ref``. Never raises."""
    try:
        ref = _REF.decode(check_payload(payload, depth=MAX_DEPTH * 4))
    except (ProtocolError, msgspec.MsgspecError, RecursionError):
        return "?", None
    return (ref.id if isinstance(ref.id, str) else "?",
            ref.seq if type(ref.seq) is int else None)


class _Ref(msgspec.Struct, frozen=True):
    id: Any = None
    seq: Any = None


_REF = msgspec.json.Decoder(_Ref)


# What an acknowledgement tells the table itself: the pairs or the board are not the ones the
# movement puts there (Laws 5B, 15, 15B). The table must put it right before play; the
# director is alerted too. Irregularities of play are never told to the table (9, 10, 81).
NOTICES = ("wrong_seating", "wrong_board", "board_already_played")


class Reply(msgspec.Struct, frozen=True):
    """Hub -> device: ``ack`` (``duplicate`` when the id was already taken) or ``reject``.
    ``time``: the hub's clock when it handled the message (devices learn the hub's clock
    from it); ``last`` and ``log``: in the reply to a ``hello``, the last ``seq`` of the
    device the hub's log holds (None: none) and the id of that log (docs/protocol.md, 6)."""

    ref: str
    seq: int | None
    status: str            # "ack" | "reject"
    code: str = "ok"
    reason: str = ""
    time: float = 0.0      # hub clock
    notice: str | None = None   # what the table itself must hear (see NOTICES)
    last: int | None = None
    log: str | None = None
    text: Text | None = None    # the reason as a message (docs/protocol.md 1, "Texts")

    @property
    def timed(self) -> bool:
        """The reply carries the hub's clock (a hub before the protocol said so sent 0)."""
        return self.time > 0
    def to_json(self) -> str:
        obj: dict[str, Any] = {"v": SCHEMA_VERSION, "type": self.status, "ref": self.ref,
                               "seq": self.seq, "code": self.code, "reason": self.reason,
                               "time": self.time}
        if self.notice is not None:
            obj["notice"] = self.notice
        if self.last is not None:
            obj["last"] = self.last
        if self.log is not None:
            obj["log"] = self.log
        if self.text is not None:
            obj["text"] = self.text.to_json()
        elif self.time == 0 or 1e-4 <= abs(self.time) < 1e16:   # written alike (no exponent)
            try:
                return _FAST.encode(obj).decode()
            except (TypeError, UnicodeError, OverflowError):
                pass   # not text a device can read (a lone surrogate): _STRICT says it
        return _STRICT.encode(obj)

    @classmethod
    def from_json(cls, payload: bytes | str) -> Reply:
        try:
            msg = _REPLY.decode(check_payload(payload))
        except msgspec.ValidationError as err:
            raise ProtocolError("malformed", f"not a reply: {validation_reason(err, 'reply')}"
                                ) from None
        except (msgspec.DecodeError, RecursionError) as err:
            raise ProtocolError("malformed", f"not a reply: {err}") from None
        except ProtocolError as err:
            raise ProtocolError(err.code, f"not a reply: {err.reason}") from None
        return cls(msg.ref, msg.seq, msg.type, msg.code, msg.reason, msg.time,
                   msg.notice if isinstance(msg.notice, str) else None,
                   msg.last if type(msg.last) is int else None,
                   msg.log if isinstance(msg.log, str) else None, _text(msg.text))


_REPLY = msgspec.json.Decoder(ReplyMessage)


def _text(obj: Any) -> Text | None:
    """A reply's ``text``, or None when it has none or it is not a message (the reply is
    still read: its ``code`` and ``reason`` say enough)."""
    if not isinstance(obj, dict):
        return None
    try:
        return Text.from_json(obj)
    except (ValueError, TypeError):
        return None
