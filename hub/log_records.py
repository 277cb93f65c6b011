"""One record of the hub's event log, and its hash in the log's chain.

A :class:`Record` is what the hub appends (an accepted device event, or a fact of the hub or
the director), checked as it is made; a :class:`StoredRecord` is one read back, with its
``position``. :func:`chain_hash` is the SHA-256 chain over the records' canonical encoding
(:func:`canonical_row`: a JSON array, ASCII, no spaces, times as floats), and
:class:`ChainReport` what a walk of the chain found.

These are values and pure functions: the record, its checks and its hash are apart from the
SQLite file that keeps them (:mod:`hub.store`, :class:`hub.store.EventLog`) so that what
reads or writes records without opening a log (the log's salvage, hub.logcheck; the
service, the tempo, the series) names them here, and the canonical encoding, which must
never change (a log's chain is verified against it for ever), sits in one small module.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
import uuid
from dataclasses import dataclass
from typing import Any

import msgspec

from wire.protocol import Envelope

__all__ = ["GENESIS", "SOURCES", "ChainReport", "Record", "StoredRecord", "canonical_row",
           "chain_hash", "new_event_id"]

SOURCES = ("device", "hub", "director")
GENESIS = "0" * 64                   # the "previous hash" of the first record


# The chain -----------------------------------------------------------------------------------

def _time(value: Any) -> Any:
    """A time as the REAL column gives it back (an integer is stored as a float)."""
    return float(value) if isinstance(value, int) and not isinstance(value, bool) else value


def _other(value: Any) -> Any:
    """What a file edited by hand may hold where text or a number belongs (a BLOB): still
    one spelling, so an old log with it can be chained and verified."""
    if isinstance(value, bytes):
        return {"blob": value.hex()}
    raise TypeError(f"cannot chain a {type(value).__name__}")


_CANONICAL = json.JSONEncoder(ensure_ascii=True, separators=(",", ":"), default=_other)
"""The chain's encoder, made once (``json.dumps`` with options makes one per call)."""
_STRICT = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def chain_hash(previous: str, position: int, fields: tuple[Any, ...]) -> str:
    """The chain hash of the record at ``position`` whose columns are ``fields`` (event id,
    source, table, device, seq, device time, hub time, type, payload), after ``previous``.

    The encoding is canonical: a JSON array in a fixed order, ASCII only (any text, even a
    lone surrogate, has one spelling), no spaces, times as floats (what SQLite returns).
    Whatever a damaged file holds has a hash: the chain never stops a log from opening."""
    event_id, source, table_id, device, seq, device_time, hub_time, kind, payload = fields
    canonical = canonical_row([position, event_id, source, table_id, device, seq,
                               _time(device_time), _time(hub_time), kind, payload])
    return hashlib.sha256((previous + canonical).encode("ascii")).hexdigest()


_FAST = msgspec.json.Encoder()


def _plain_time(value: Any) -> bool:
    """A time that both encoders write alike (no exponent: Python writes one from 1e16 and
    under 1e-4; not NaN nor an infinity, which msgspec writes as null), or none."""
    return value is None or (type(value) is float and (value == 0 or 1e-4 <= abs(value) < 1e16))


def canonical_row(row: list[Any]) -> str:
    """The canonical encoding of a record's row (:func:`chain_hash`). The usual row (text,
    integers and a device's or the hub's times) is written by msgspec, which writes the same
    characters as the canonical encoder as long as they are ASCII but DEL (which it leaves
    unescaped), at a third of its cost (issue 27); anything else (text with other
    characters, a BLOB of a file edited by hand, an odd time) by the canonical encoder
    itself. tests/hub/test_store.py checks that both write the same."""
    position, event_id, source, table_id, device, seq, device_time, hub_time, kind, payload = row
    if (type(position) is int and type(event_id) is str and type(source) is str
            and type(kind) is str and type(payload) is str
            and (table_id is None or type(table_id) is str)
            and (device is None or type(device) is str)
            and (seq is None or type(seq) is int)
            and _plain_time(device_time) and _plain_time(hub_time)):
        try:
            fast = _FAST.encode(row)
        except (UnicodeError, OverflowError, TypeError):
            pass   # a lone surrogate, say: the canonical encoder escapes it
        else:
            if fast.isascii() and b"\x7f" not in fast:
                return fast.decode("ascii")
    return str(_CANONICAL.encode(row))


@dataclass(frozen=True, slots=True)
class ChainReport:
    """What :meth:`EventLog.verify` found: ``intact``, or ``broken_at`` (the first position
    where the chain does not hold) with the ``problem``; ``head`` is the last record's
    ``(position, hash)`` (``(0, GENESIS)`` for an empty log)."""

    records: int
    head: tuple[int, str]
    broken_at: int | None = None
    problem: str = ""

    @property
    def intact(self) -> bool:
        return self.broken_at is None

    def __str__(self) -> str:
        position, digest = self.head
        if self.intact:
            return (f"hash chain intact: {self.records} records, head {position}:{digest}")
        return (f"hash chain BROKEN at position {self.broken_at}: {self.problem} "
                f"({self.records} records, head {position}:{digest})")



# The record ----------------------------------------------------------------------------------

def new_event_id(prefix: str = "hub") -> str:
    """A fresh id for a hub or director fact. The ``:`` is outside the device id alphabet
    (``[A-Za-z0-9_.-]``), so it never collides with an envelope id."""
    return f"{prefix}:{uuid.uuid4().hex}"


class Record(msgspec.Struct, frozen=True):
    """One entry of the log. ``payload`` is JSON text holding all that replay needs: the
    envelope for a device event, the fact's body for a hub or director fact."""

    event_id: str
    source: str                      # "device" | "hub" | "director"
    type: str
    payload: str
    hub_time: float
    table_id: str | None = None
    device: str | None = None
    seq: int | None = None
    device_time: float | None = None

    def __post_init__(self) -> None:
        if (type(self.event_id) is str and self.event_id and type(self.type) is str
                and self.type and type(self.payload) is str and self.source in SOURCES
                and type(self.hub_time) is float and math.isfinite(self.hub_time)
                and (self.device_time is None or (type(self.device_time) is float
                     and math.isfinite(self.device_time)))
                and (self.seq is None or type(self.seq) is int)):
            return   # the usual record, every field as it must be: checked at once (issue 27)
        if not isinstance(self.event_id, str) or not self.event_id:
            raise ValueError(f"event_id must be a non-empty string, got {self.event_id!r}")
        if self.source not in SOURCES:
            raise ValueError(f"event {self.event_id!r}: source {self.source!r} is not one of "
                             f"{', '.join(SOURCES)}")
        if not isinstance(self.type, str) or not self.type:
            raise ValueError(f"event {self.event_id!r}: type must be a non-empty string")
        if not isinstance(self.payload, str):
            raise ValueError(f"event {self.event_id!r}: payload must be JSON text")
        times = {"hub_time": self.hub_time, "device_time": self.device_time}
        if self.device_time is None:
            del times["device_time"]
        for name, value in times.items():
            if (not isinstance(value, int | float) or isinstance(value, bool)
                    or not math.isfinite(value)):
                raise ValueError(f"event {self.event_id!r}: {name} must be a finite number, "
                                 f"got {value!r}")
        if self.seq is not None and (not isinstance(self.seq, int) or isinstance(self.seq, bool)):
            raise ValueError(f"event {self.event_id!r}: seq must be an integer, got {self.seq!r}")

    @classmethod
    def from_envelope(cls, envelope: Envelope, table_id: str | None,
                      hub_time: float | None = None,
                      raw: bytes | str | None = None) -> Record:
        """The record of an accepted device event; its payload is the envelope's JSON (the
        bytes as received when given: ``Envelope.from_json`` accepted them)."""
        payload = envelope.to_json() if raw is None else (
            raw if isinstance(raw, str) else raw.decode("utf-8"))
        return cls(envelope.id, "device", envelope.type, payload,
                   time.time() if hub_time is None else hub_time, table_id, envelope.device,
                   envelope.seq, envelope.time)

    @classmethod
    def fact(cls, type: str, body: dict[str, Any], *, table_id: str | None = None,
             source: str = "hub", event_id: str | None = None,
             hub_time: float | None = None) -> Record:
        """A fact produced by the hub or the director (alert raised, ruling, board started)."""
        payload = _STRICT.encode(body)
        return cls(event_id or new_event_id(source), source, type, payload,
                   time.time() if hub_time is None else hub_time, table_id)

    def data(self) -> Any:
        """The payload, decoded."""
        return json.loads(self.payload)

    def envelope(self) -> Envelope:
        """The device event of a ``device`` record (raises ProtocolError if it is not one)."""
        return Envelope.from_json(self.payload)


class StoredRecord(Record, frozen=True, kw_only=True):
    """A record read back from the log, with its ``position`` (1, 2, 3... in append order)."""

    position: int
