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
the schema).

Hash chain (schema version 2): every record has a SHA-256 ``hash`` in the ``chain`` table
(same ``position``), the hash of the previous record's hash (64 hex digits; 64 zeros before
the first record) followed by the canonical encoding of this record's fields (position,
event id, source, table, device, seq, device time, hub time, type, payload: a JSON array,
ASCII, no spaces). A record changed, inserted or removed anywhere but at the end breaks the
chain at that position: :meth:`EventLog.verify` walks it and names the first broken one.
Removing the last records and recomputing the hashes (anyone who can write the file can)
is seen only against a head noted elsewhere: the hub publishes its head (position and hash)
in ``hub/status`` and ``tenace log verify --head POSITION:HASH`` checks a noted one. A log
of schema version 1 (no chain) is upgraded in place when opened: its chain is computed
over the existing rows in one transaction, and the upgrade logged; no row is changed.

Loss at the end (hub.logfile): after every commit the log notes its head beside the file,
in ``events.sqlite3.head``; :attr:`EventLog.noted_head` is what that file said when the log
was opened and :meth:`EventLog.behind` compares it with the log, so the hub can tell at start
that acknowledged records are gone (a torn or missing ``-wal``, an old copy put back). A file
cut short is refused with a message that says so (and by how much) before SQLite reads it.

The record, its checks and its chain hash are values apart, in :mod:`hub.log_records`.

Exceptions::

    HubError
    └── StoreError                 the log cannot be opened, read or written (names the file)
        └── SchemaVersionError     the file holds another schema version
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from hub.errors import HubError
from hub.log_records import GENESIS, ChainReport, Record, StoredRecord, chain_hash
from hub.logfile import HeadFile, file_damage, read_head
from hub.private import make_private
from wire.durability import Durability

__all__ = ["LOG_NAME", "SCHEMA_VERSION", "Durability", "EventLog", "HubError", "LogLoss",
           "SchemaVersionError", "StoreError", "log_head", "parse_head", "verify_data"]

log = logging.getLogger(__name__)

SCHEMA_VERSION = 2                   # 2: the hash chain; 1 (no chain) is upgraded on open
LOG_NAME = "events.sqlite3"          # the file the hub keeps in its --data directory
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
)
# Version 2: the hash chain, a table beside the events (an upgrade adds it, changing no row).
_CHAIN_SCHEMA = (
    """CREATE TABLE chain (
        position    INTEGER PRIMARY KEY,
        hash        TEXT NOT NULL CHECK (length(hash) = 64)
    )""",
    """CREATE TRIGGER chain_no_update BEFORE UPDATE ON chain
    BEGIN SELECT RAISE(ABORT, 'the event log is append-only: UPDATE refused'); END""",
    """CREATE TRIGGER chain_no_delete BEFORE DELETE ON chain
    BEGIN SELECT RAISE(ABORT, 'the event log is append-only: DELETE refused'); END""",
)
_META = (f"INSERT INTO meta VALUES ('schema_version', '{SCHEMA_VERSION}'), "
         f"('application', '{_APPLICATION}')")

_COLUMNS = ("event_id, source, table_id, device, seq, device_time, hub_time, type, payload")
_INSERT = (f"INSERT INTO events (position, {_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
           "ON CONFLICT (event_id) DO NOTHING")
_INSERT_HASH = "INSERT INTO chain (position, hash) VALUES (?, ?)"
_SELECT = f"SELECT position, {_COLUMNS} FROM events"
_HEAD = ("SELECT (SELECT coalesce(max(position), 0) FROM events), "
         "(SELECT hash FROM chain ORDER BY position DESC LIMIT 1)")


class StoreError(HubError):
    """The event log cannot be opened, read or written; ``path`` names the file."""

    def __init__(self, path: str, message: str):
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message


class SchemaVersionError(StoreError):
    """The file is a Tenace event log of a schema version this hub does not read (or, opened
    with ``upgrade=False``, one it would have to upgrade first)."""


@dataclass(frozen=True, slots=True)
class LogLoss:
    """The log is behind the head noted beside it (:meth:`EventLog.behind`): ``noted`` was
    the head after the last commit the hub made, ``head`` is the log's now; ``missing``
    records are gone from its end (0 when the record at the noted position differs)."""

    noted: tuple[int, str]
    head: tuple[int, str]
    missing: int

    def __str__(self) -> str:
        if self.missing:
            return (f"the log ends at record {self.head[0]} but the hub had written up to "
                    f"record {self.noted[0]} (noted in {LOG_NAME}.head): the last "
                    f"{self.missing} acknowledged record{'s are' if self.missing != 1 else ' is'}"
                    " missing (the end of the -wal lost, or a copy without its -wal)")
        return (f"the record at position {self.noted[0]} is not the one the hub wrote there "
                f"(noted in {LOG_NAME}.head): the log's end was lost and written again, "
                "or another log was put in its place")


def _stored(row: tuple[Any, ...]) -> StoredRecord:
    pos, event_id, source, table_id, device, seq, device_time, hub_time, kind, payload = row
    return StoredRecord(event_id, source, kind, payload, hub_time, table_id, device, seq,
                        device_time, position=pos)


def _fields(record: Record) -> tuple[Any, ...]:
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
                 verify: bool = True, upgrade: bool = True, note_head: bool = True,
                 data_folder: bool = True):
        try:
            self.durability = Durability(durability)
        except ValueError:
            raise ValueError(f"durability must be 'process' or 'power', "
                             f"got {durability!r}") from None
        self._memory = str(path) == ":memory:"
        self.path = str(path)
        self._lock = threading.RLock()
        self._conn: sqlite3.Connection | None = None
        self._note_head = note_head and not self._memory
        self._head_file: HeadFile | None = None   # opened at the first commit
        self.noted_head: tuple[int, str] | None = None   # events.sqlite3.head when opened
        if not self._memory:
            file = Path(path)
            if file.is_dir():
                raise StoreError(self.path, f"is a directory, not an event log (the hub keeps "
                                            f"its log in {file / LOG_NAME})")
            damage = file_damage(file) if file.is_file() else None
            if damage is not None:
                raise StoreError(self.path, f"the event log {damage}. Nothing was changed: "
                                            "`tenace log salvage` copies what can be read "
                                            "to a new file")
            self.noted_head = read_head(file)
            try:   # 0700, its files 0600, fixed with a warning when not (hub.private)
                if data_folder:
                    make_private(file.parent, file.name)
                else:      # a copy among other things (a backup): only the file is the hub's
                    file.parent.mkdir(parents=True, exist_ok=True)
                    os.close(os.open(file, os.O_WRONLY | os.O_CREAT, 0o600))
            except OSError as err:
                raise StoreError(self.path, f"cannot create the directory: {err}") from err
        try:
            self._conn = sqlite3.connect(self.path, isolation_level=None,
                                         check_same_thread=False)
        except sqlite3.Error as err:
            raise StoreError(self.path, f"cannot open the event log: {err}") from err
        try:
            self._prepare(verify, upgrade)
        except BaseException:
            self._conn.close()
            self._conn = None
            raise

    @classmethod
    def open(cls, path: Path | str, *, durability: Durability | str = Durability.PROCESS,
             verify: bool = True, upgrade: bool = True, note_head: bool = True,
             data_folder: bool = True) -> EventLog:
        """Open the log at ``path``, creating it (and its directory) when it does not exist.

        An existing file that is not a readable Tenace event log raises StoreError and is left
        untouched; ``verify`` also runs SQLite's ``quick_check`` over the whole file. A log of
        schema version 1 is upgraded (its hash chain computed, module docstring), or, with
        ``upgrade=False``, refused with SchemaVersionError and left as it is. ``note_head``:
        write the head beside the file after each commit (module docstring). ``data_folder``
        (the default): the file's folder is a hub's data directory, made private with what
        it holds (hub.private); False for a copy put among other things (a backup, a
        salvage): the file alone is created 0600 and its folder left as it is.
        """
        return cls(path, durability=durability, verify=verify, upgrade=upgrade,
                   note_head=note_head, data_folder=data_folder)

    @classmethod
    def memory(cls) -> EventLog:
        """A log in memory, gone when closed: for tests of the hub's logic."""
        return cls(":memory:")

    # Opening ---------------------------------------------------------------------------

    def _prepare(self, verify: bool, upgrade: bool) -> None:
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
                        for statement in (*_SCHEMA, *_CHAIN_SCHEMA, _META):
                            conn.execute(statement)
                    conn.execute("COMMIT")
                except BaseException:
                    if conn.in_transaction:
                        conn.execute("ROLLBACK")
                    raise
            self._check_version(conn, upgrade)
        except sqlite3.Error as err:
            raise StoreError(self.path, f"cannot read the event log: {err}") from err

    def _check_version(self, conn: sqlite3.Connection, upgrade: bool) -> None:
        rows = dict(conn.execute("SELECT key, value FROM meta"))
        if rows.get("application") != _APPLICATION or "events" not in {
                name for (name,) in conn.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'table'")}:
            raise StoreError(self.path, "not a Tenace event log (no Tenace meta data)")
        found = rows.get("schema_version")
        if found == "1":
            if not upgrade:
                raise SchemaVersionError(self.path, "event log schema version 1 (no hash "
                                                    "chain yet): the hub adds the chain when it "
                                                    "next opens the log")
            self._upgrade(conn)
            return
        if found != str(SCHEMA_VERSION):
            newer = found is not None and found.isdecimal() and int(found) > SCHEMA_VERSION
            hint = " (written by a newer Tenace: upgrade the hub)" if newer else ""
            raise SchemaVersionError(self.path, f"event log schema version {found!r}, this hub "
                                                f"reads version {SCHEMA_VERSION}{hint}")

    def _upgrade(self, conn: sqlite3.Connection) -> None:
        """Schema 1 -> 2 in one transaction: the chain table, a hash for every existing row
        (in position order), the new version. No event row is changed; on any error nothing
        is (the file stays a version 1 log)."""
        started = time.perf_counter()
        conn.execute("BEGIN IMMEDIATE")
        try:
            if conn.execute("SELECT value FROM meta WHERE key = 'schema_version'"
                            ).fetchone() == ("1",):   # not upgraded meanwhile by another
                for statement in _CHAIN_SCHEMA:
                    conn.execute(statement)
                previous, last, n = GENESIS, 0, 0
                while True:
                    rows = conn.execute(f"{_SELECT} WHERE position > ? ORDER BY position "
                                        "LIMIT ?", (last, _CHUNK)).fetchall()
                    if not rows:
                        break
                    for row in rows:
                        previous = chain_hash(previous, row[0], tuple(row[1:]))
                        conn.execute(_INSERT_HASH, (row[0], previous))
                    last, n = rows[-1][0], n + len(rows)
                conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'",
                             (str(SCHEMA_VERSION),))
                conn.execute("COMMIT")
                log.warning("event log %s upgraded from schema version 1 to %d: hash chain "
                            "computed over its %d records in %.2f s (no record changed)",
                            self.path, SCHEMA_VERSION, n, time.perf_counter() - started)
            else:
                conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    # Life cycle ------------------------------------------------------------------------

    def _db(self) -> sqlite3.Connection:
        if self._conn is None:
            raise StoreError(self.path, "the event log is closed")
        return self._conn

    def close(self) -> None:
        """Close the file (idempotent). Every returned append is already durable."""
        with self._lock:
            if self._head_file is not None:
                self._head_file.close()
                self._head_file = None
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
        return self.append_many([record])[0]

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
                # The head: after the last event, chained to the last hash stored. (A log
                # damaged by hand keeps taking records: verify() names where it broke.)
                last, previous = conn.execute(_HEAD).fetchone()
                previous = previous if isinstance(previous, str) else GENESIS
                fast = self._append_all(conn, batch, last, previous)
                if fast is not None:
                    positions = list(range(last + 1, fast[0] + 1))
                    last, previous = fast
                    batch = []   # every record written
                for record in batch:
                    current = getattr(record, "event_id", "?")
                    fields = _fields(record)
                    digest = chain_hash(previous, last + 1, fields)
                    cur = conn.execute(_INSERT, (last + 1, *fields))
                    if cur.rowcount == 1:
                        conn.execute(_INSERT_HASH, (last + 1, digest))
                        last, previous = last + 1, digest
                        positions.append(last)
                    else:
                        positions.append(None)
                conn.execute("COMMIT")
                if self._note_head and any(p is not None for p in positions):
                    self._write_head((last, previous))
            except BaseException as err:
                if conn.in_transaction:
                    try:
                        conn.execute("ROLLBACK")
                    except sqlite3.Error as rollback:
                        log.error("rolling back a batch in %s: %s", self.path, rollback)
                if isinstance(err, sqlite3.Error | OverflowError | UnicodeError):
                    what = (f"event {current!r}" if len(batch) == 1 else
                            f"batch of {len(batch)} events (at event {current!r})")
                    raise StoreError(self.path, f"cannot append {what}: {err}") from err
                raise
            return positions

    @staticmethod
    def _append_all(conn: sqlite3.Connection, batch: list[Record], last: int,
                    previous: str) -> tuple[int, str] | None:
        """The usual batch, every record new, written in two statements (issue 27): the
        rows and their chain hashes, each record at the next position, as the record by
        record way writes them. Inside a savepoint: when a record was not written (its id
        already in the log) or the write failed, nothing of it stays and None says to write
        the batch record by record (which names the record at fault). The new head, else."""
        rows, hashes = [], []
        position = last
        for record in batch:
            fields = _fields(record)
            position += 1
            previous = chain_hash(previous, position, fields)
            rows.append((position, *fields))
            hashes.append((position, previous))
        before = conn.total_changes
        conn.execute("SAVEPOINT batch")
        try:
            conn.executemany(_INSERT, rows)
            if conn.total_changes - before == len(rows):
                conn.executemany(_INSERT_HASH, hashes)
                conn.execute("RELEASE batch")
                return position, previous
        except sqlite3.Error:
            pass   # said again, record by record, with the record at fault
        conn.execute("ROLLBACK TO batch")
        conn.execute("RELEASE batch")
        return None

    def _write_head(self, head: tuple[int, str]) -> None:
        """Note the head beside the file (after the commit: a failure here loses nothing,
        it only weakens the check at the next start, and is logged)."""
        try:
            if self._head_file is None:
                self._head_file = HeadFile(self.path)
            self._head_file.write(head, durable=self.durability is Durability.POWER)
        except OSError as err:
            log.error("%s: the log's head not noted beside it: %s", self.path, err)

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

    def of_type(self, type: str) -> list[StoredRecord]:
        """Every record of ``type``, in position order (a few facts read without replaying
        the whole log: the sessions a hub stored, hub.series)."""
        return [_stored(row) for row in self._query(
            f"{_SELECT} WHERE type = ? ORDER BY position", (type,))]

    def head(self) -> tuple[int, str]:
        """The chain's head: the last record's ``(position, hash)``, ``(0, GENESIS)`` when
        the log is empty. Noted elsewhere, it shows later whether records were removed."""
        rows = self._query("SELECT position, hash FROM chain ORDER BY position DESC LIMIT 1")
        return (int(rows[0][0]), str(rows[0][1])) if rows else (0, GENESIS)

    def behind(self) -> LogLoss | None:
        """Whether the log lacks records the hub had written (module docstring): compares
        :attr:`noted_head` with the log; None when it holds them (or nothing was noted)."""
        noted = self.noted_head
        if noted is None or noted[0] == 0:
            return None
        head = self.head()
        if head[0] < noted[0]:
            return LogLoss(noted, head, noted[0] - head[0])
        rows = self._query("SELECT hash FROM chain WHERE position = ?", (noted[0],))
        if not rows or rows[0][0] != noted[1]:
            return LogLoss(noted, head, 0)
        return None

    def verify(self, head: tuple[int, str] | None = None) -> ChainReport:
        """Walk the hash chain from the first record; the report names the first position
        where it breaks: a record whose hash does not match its fields and its predecessor
        (changed, or a record before it inserted or removed), a record without a hash, a
        gap in the positions, a hash left by a removed record. ``head``: a ``(position,
        hash)`` noted earlier (``hub/status``), which the chain must still hold. Reads only;
        never raises for damage (StoreError only when the file cannot be read)."""
        broken: list[tuple[int, str]] = []
        previous, last, n = GENESIS, 0, 0
        noted: str | None = None
        while not broken:
            rows = self._query(
                f"SELECT e.position, {', '.join('e.' + c.strip() for c in _COLUMNS.split(','))}"
                ", c.hash FROM events e LEFT JOIN chain c ON c.position = e.position "
                "WHERE e.position > ? ORDER BY e.position LIMIT ?", (last, _CHUNK))
            if not rows:
                break
            for row in rows:
                position, fields, stored = row[0], tuple(row[1:-1]), row[-1]
                n += 1
                if position != last + 1:
                    broken.append((last + 1, f"records {last + 1} to {position - 1} are "
                                             "missing (removed)"))
                    break
                if stored is None:
                    broken.append((position, f"record {fields[0]!r} has no hash (written "
                                             "outside the hub)"))
                    break
                try:
                    expected = chain_hash(previous, position, fields)
                except (TypeError, ValueError) as err:
                    expected = f"unreadable: {err}"
                if stored != expected:
                    broken.append((position, f"record {fields[0]!r} does not match its hash "
                                             "(it was changed, or a record before it was "
                                             "inserted or removed)"))
                    break
                if head is not None and position == head[0]:
                    noted = stored
                previous, last = stored, position
        orphan = self._query("SELECT min(position) FROM chain WHERE position NOT IN "
                             "(SELECT position FROM events)")[0][0]
        if orphan is not None:
            broken.append((int(orphan), "a hash without its record (the record was "
                                        "removed)"))
        if head is not None and not broken:
            position, digest = head
            if noted is None:
                broken.append((position, f"the noted head {position} is beyond the last "
                                         f"record ({last}): records were removed"))
            elif noted != digest:
                broken.append((position, f"the record at the noted head {position} has "
                                         f"another hash than the one noted ({digest:.16}...)"))
        records = self.count()
        if broken:
            at, problem = min(broken)
            return ChainReport(records, self.head(), at, problem)
        return ChainReport(records, self.head())

    def tail(self, n: int) -> list[StoredRecord]:
        """The last ``n`` records, in position order."""
        if n <= 0:
            return []
        rows = self._query(f"{_SELECT} ORDER BY position DESC LIMIT ?", (n,))
        return [_stored(row) for row in reversed(rows)]


def log_head(log_: EventLog) -> tuple[int, str]:
    """``(count, head hash)``: how many records the log holds and the hash of the last one
    (positions run 1, 2, 3... without gaps, so the count is the head's position). What a
    device's last acknowledged record can be checked against."""
    return log_.head()


def parse_head(text: str) -> tuple[int, str]:
    """``POSITION:HASH`` (as ``hub/status`` and :class:`ChainReport` print a head) as a pair;
    ValueError names what is wrong."""
    position, _, digest = text.strip().partition(":")
    if not position.isdecimal() or len(digest) != 64 or any(
            c not in "0123456789abcdef" for c in digest):
        raise ValueError(f"a chain head is POSITION:HASH (64 lowercase hex digits), "
                         f"not {text!r:.100}")
    return int(position), digest


def verify_data(data: Path | str, head: tuple[int, str] | None = None) -> ChainReport:
    """Walk the hash chain of the event log of a hub's data directory, changing no record
    (``tenace log verify`` says more, and reads a copy: hub.logcheck.diagnose): a missing
    log, one that is not a Tenace log, or a version 1 log (not chained yet) raises
    StoreError."""
    folder = Path(data)
    file = folder / LOG_NAME if folder.is_dir() else folder
    if not file.is_file():
        raise StoreError(str(file), "no event log here (the hub keeps it in DIR/"
                                    f"{LOG_NAME})")
    with EventLog.open(file, upgrade=False) as opened:
        return opened.verify(head)
