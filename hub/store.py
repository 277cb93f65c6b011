"""The hub's durable event log: one append-only SQLite table, replayed on start.

Every accepted device event and every fact the hub itself produces (alert raised, director
ruling, board started...) is one :class:`Record`, appended before the hub acknowledges it.
On start the hub rebuilds every table by replaying the log in ``position`` order.

Durability (``durability=``), both in WAL mode, both atomic per transaction:

- ``"process"`` (default): ``synchronous=NORMAL``. A commit is in the operating system's
  cache when ``append`` returns, so it survives ``kill -9`` or a crash of the hub; a power
  cut or kernel crash may lose the last commits (never corrupt the log). Fast.
- ``"power"``: ``synchronous=FULL``. The WAL is flushed to the disk at every commit, so a
  commit survives a power cut too (if the disk honours flushes). One flush per transaction:
  batch with :meth:`EventLog.append_many`.

The database refuses ``UPDATE`` and ``DELETE`` on the events table (triggers created with
the schema). Exceptions::

    HubError
    └── StoreError                 the log cannot be opened, read or written (names the file)
        └── SchemaVersionError     the file holds another schema version
"""

from __future__ import annotations

import json
import logging
import math
import sqlite3
import threading
import time
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from hub.errors import HubError
from wire.durability import Durability
from wire.protocol import Envelope

__all__ = [
    "LOG_NAME", "SCHEMA_VERSION", "SOURCES", "Durability", "EventLog", "HubError", "Record",
    "SchemaVersionError", "StoreError", "StoredRecord", "new_event_id",
]

log = logging.getLogger(__name__)

SCHEMA_VERSION = 1
LOG_NAME = "events.sqlite3"          # the file the hub keeps in its --data directory
SOURCES = ("device", "hub", "director")
_APPLICATION = "tenace-hub-event-log"
_CHUNK = 1000                        # rows fetched per query while replaying

_SCHEMA = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    """CREATE TABLE events (
        position    INTEGER PRIMARY KEY,
        event_id    TEXT NOT NULL UNIQUE,
        source      TEXT NOT NULL CHECK (source IN ('device', 'hub', 'director')),
        table_id    TEXT,
        device      TEXT,
        seq         INTEGER,
        device_time REAL,
        hub_time    REAL NOT NULL,
        type        TEXT NOT NULL,
        payload     TEXT NOT NULL CHECK (json_valid(payload))
    )""",
    "CREATE INDEX events_device_seq ON events (device, seq) WHERE source = 'device'",
    """CREATE TRIGGER events_no_update BEFORE UPDATE ON events
    BEGIN SELECT RAISE(ABORT, 'the event log is append-only: UPDATE refused'); END""",
    """CREATE TRIGGER events_no_delete BEFORE DELETE ON events
    BEGIN SELECT RAISE(ABORT, 'the event log is append-only: DELETE refused'); END""",
    f"INSERT INTO meta VALUES ('schema_version', '{SCHEMA_VERSION}'), "
    f"('application', '{_APPLICATION}')",
)

_COLUMNS = ("event_id, source, table_id, device, seq, device_time, hub_time, type, payload")
_INSERT = (f"INSERT INTO events ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
           "ON CONFLICT (event_id) DO NOTHING")
_SELECT = f"SELECT position, {_COLUMNS} FROM events"


class StoreError(HubError):
    """The event log cannot be opened, read or written; ``path`` names the file."""

    def __init__(self, path: str, message: str):
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message


class SchemaVersionError(StoreError):
    """The file is a Tenace event log of a schema version this hub does not read."""


def new_event_id(prefix: str = "hub") -> str:
    """A fresh id for a hub or director fact. The ``:`` is outside the device id alphabet
    (``[A-Za-z0-9_.-]``), so it never collides with an envelope id."""
    return f"{prefix}:{uuid.uuid4().hex}"


@dataclass(frozen=True, slots=True)
class Record:
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
        payload = json.dumps(body, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
        return cls(event_id or new_event_id(source), source, type, payload,
                   time.time() if hub_time is None else hub_time, table_id)

    def data(self) -> Any:
        """The payload, decoded."""
        return json.loads(self.payload)

    def envelope(self) -> Envelope:
        """The device event of a ``device`` record (raises ProtocolError if it is not one)."""
        return Envelope.from_json(self.payload)


@dataclass(frozen=True, slots=True, kw_only=True)
class StoredRecord(Record):
    """A record read back from the log, with its ``position`` (1, 2, 3... in append order)."""

    position: int


def _stored(row: tuple[Any, ...]) -> StoredRecord:
    pos, event_id, source, table_id, device, seq, device_time, hub_time, kind, payload = row
    return StoredRecord(event_id, source, kind, payload, hub_time, table_id, device, seq,
                        device_time, position=pos)


def _params(record: Record) -> tuple[Any, ...]:
    if not isinstance(record, Record):
        raise TypeError(f"expected a Record, got {type(record).__name__}")
    return (record.event_id, record.source, record.table_id, record.device, record.seq,
            record.device_time, record.hub_time, record.type, record.payload)


class EventLog:
    """The append-only event log in one SQLite file (WAL mode). Thread-safe; one writer.

    Open with :meth:`open` (or :meth:`memory` for tests); ``close()`` is idempotent and the
    log is a context manager. Nothing is ever updated or deleted.
    """

    def __init__(self, path: Path | str, *, durability: Durability | str = Durability.PROCESS,
                 verify: bool = True):
        try:
            self.durability = Durability(durability)
        except ValueError:
            raise ValueError(f"durability must be 'process' or 'power', "
                             f"got {durability!r}") from None
        self._memory = str(path) == ":memory:"
        self.path = str(path)
        self._lock = threading.RLock()
        self._conn: sqlite3.Connection | None = None
        if not self._memory:
            file = Path(path)
            if file.is_dir():
                raise StoreError(self.path, f"is a directory, not an event log (the hub keeps "
                                            f"its log in {file / LOG_NAME})")
            try:
                file.parent.mkdir(parents=True, exist_ok=True)
            except OSError as err:
                raise StoreError(self.path, f"cannot create the directory: {err}") from err
        try:
            self._conn = sqlite3.connect(self.path, isolation_level=None,
                                         check_same_thread=False)
        except sqlite3.Error as err:
            raise StoreError(self.path, f"cannot open the event log: {err}") from err
        try:
            self._prepare(verify)
        except BaseException:
            self._conn.close()
            self._conn = None
            raise

    @classmethod
    def open(cls, path: Path | str, *, durability: Durability | str = Durability.PROCESS,
             verify: bool = True) -> EventLog:
        """Open the log at ``path``, creating it (and its directory) when it does not exist.

        An existing file that is not a readable Tenace event log raises StoreError and is left
        untouched; ``verify`` also runs SQLite's ``quick_check`` over the whole file.
        """
        return cls(path, durability=durability, verify=verify)

    @classmethod
    def memory(cls) -> EventLog:
        """A log in memory, gone when closed: for tests of the hub's logic."""
        return cls(":memory:")

    # Opening ---------------------------------------------------------------------------

    def _prepare(self, verify: bool) -> None:
        conn = self._db()
        try:
            conn.execute("PRAGMA busy_timeout = 5000")
            # Read before writing anything: a foreign or damaged file stays as it was.
            tables = {name for (name,) in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
            if tables and "meta" not in tables:
                raise StoreError(self.path, "not a Tenace event log (an SQLite database "
                                            f"with other tables: {', '.join(sorted(tables))})")
            if verify and tables:
                rows = [str(row[0]) for row in conn.execute("PRAGMA quick_check(3)")]
                if rows != ["ok"]:
                    lines = [line for row in rows for line in row.splitlines()
                             if line and not line.startswith("***")]
                    raise StoreError(self.path, "the event log is damaged (SQLite quick_check: "
                                                + "; ".join(lines[:3]) + ")")
            if not self._memory:
                mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
                if str(mode).lower() != "wal":
                    raise StoreError(self.path, f"cannot use WAL journaling (got {mode!r})")
            sync = "FULL" if self.durability is Durability.POWER else "NORMAL"
            conn.execute(f"PRAGMA synchronous = {sync}")
            if not tables:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    if conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0:
                        for statement in _SCHEMA:
                            conn.execute(statement)
                    conn.execute("COMMIT")
                except BaseException:
                    if conn.in_transaction:
                        conn.execute("ROLLBACK")
                    raise
            self._check_version(conn)
        except sqlite3.Error as err:
            raise StoreError(self.path, f"cannot read the event log: {err}") from err

    def _check_version(self, conn: sqlite3.Connection) -> None:
        rows = dict(conn.execute("SELECT key, value FROM meta"))
        if rows.get("application") != _APPLICATION or "events" not in {
                name for (name,) in conn.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'table'")}:
            raise StoreError(self.path, "not a Tenace event log (no Tenace meta data)")
        found = rows.get("schema_version")
        if found != str(SCHEMA_VERSION):
            newer = found is not None and found.isdigit() and int(found) > SCHEMA_VERSION
            hint = " (written by a newer Tenace: upgrade the hub)" if newer else ""
            raise SchemaVersionError(self.path, f"event log schema version {found!r}, this hub "
                                                f"reads version {SCHEMA_VERSION}{hint}")

    # Life cycle ------------------------------------------------------------------------

    def _db(self) -> sqlite3.Connection:
        if self._conn is None:
            raise StoreError(self.path, "the event log is closed")
        return self._conn

    def close(self) -> None:
        """Close the file (idempotent). Every returned append is already durable."""
        with self._lock:
            if self._conn is not None:
                conn, self._conn = self._conn, None
                try:
                    conn.close()
                except sqlite3.Error as err:
                    log.warning("closing the event log %s: %s", self.path, err)

    @property
    def closed(self) -> bool:
        return self._conn is None

    def __enter__(self) -> EventLog:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self.closed else self.durability.value
        return f"<EventLog {self.path!r} {state}>"

    # Writing ---------------------------------------------------------------------------

    def append(self, record: Record) -> int | None:
        """Append one record, committed (durable) before returning. Returns its position,
        or None when its ``event_id`` is already in the log (the duplicate is ignored)."""
        params = _params(record)
        with self._lock:
            conn = self._db()
            try:
                cur = conn.execute(_INSERT, params)
            except sqlite3.Error as err:
                raise StoreError(self.path, f"cannot append event {record.event_id!r}: "
                                            f"{err}") from err
            return cur.lastrowid if cur.rowcount == 1 else None

    def append_many(self, records: Iterable[Record]) -> list[int | None]:
        """Append records in ONE transaction: all are written or none (the batch is rolled
        back and the error raised). One position per record, None for each duplicate
        (including a repeat inside the batch)."""
        batch = list(records)
        with self._lock:
            conn = self._db()
            positions: list[int | None] = []
            current = "?"
            try:
                conn.execute("BEGIN IMMEDIATE")
                for record in batch:
                    current = getattr(record, "event_id", "?")
                    cur = conn.execute(_INSERT, _params(record))
                    positions.append(cur.lastrowid if cur.rowcount == 1 else None)
                conn.execute("COMMIT")
            except BaseException as err:
                if conn.in_transaction:
                    try:
                        conn.execute("ROLLBACK")
                    except sqlite3.Error as rollback:
                        log.error("rolling back a batch in %s: %s", self.path, rollback)
                if isinstance(err, sqlite3.Error):
                    raise StoreError(self.path, f"batch of {len(batch)} events not written "
                                                f"(at event {current!r}): {err}") from err
                raise
            return positions

    # Reading ---------------------------------------------------------------------------

    def _query(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        with self._lock:
            conn = self._db()
            try:
                return conn.execute(sql, params).fetchall()
            except sqlite3.Error as err:
                raise StoreError(self.path, f"cannot read the event log: {err}") from err

    def has(self, event_id: str) -> bool:
        """Whether an event with this id is in the log."""
        return bool(self._query("SELECT 1 FROM events WHERE event_id = ?", (event_id,)))

    def get(self, event_id: str) -> StoredRecord | None:
        """The stored record with this id, or None."""
        rows = self._query(f"{_SELECT} WHERE event_id = ?", (event_id,))
        return _stored(rows[0]) if rows else None

    def last_seq(self, device: str) -> int | None:
        """The highest ``seq`` among the device events stored for ``device``, or None."""
        rows = self._query("SELECT max(seq) FROM events WHERE source = 'device' "
                           "AND device = ?", (device,))
        value = rows[0][0]
        return int(value) if value is not None else None

    def count(self) -> int:
        """The number of records in the log."""
        return int(self._query("SELECT count(*) FROM events")[0][0])

    def last_position(self) -> int:
        """The position of the last record, 0 when the log is empty."""
        return int(self._query("SELECT coalesce(max(position), 0) FROM events")[0][0])

    def replay(self, after: int = 0) -> Iterator[StoredRecord]:
        """Every record with a position above ``after``, in position order. Read in chunks,
        so appending while replaying is safe (the new records are yielded too)."""
        last = after
        while True:
            rows = self._query(f"{_SELECT} WHERE position > ? ORDER BY position LIMIT ?",
                               (last, _CHUNK))
            if not rows:
                return
            for row in rows:
                yield _stored(row)
            last = rows[-1][0]

    def tail(self, n: int) -> list[StoredRecord]:
        """The last ``n`` records, in position order."""
        if n <= 0:
            return []
        rows = self._query(f"{_SELECT} ORDER BY position DESC LIMIT ?", (n,))
        return [_stored(row) for row in reversed(rows)]
