"""A device's outbox: every event a player enters on a tablet (or a device reports), kept
on disk until the hub answers it (in memory, ``":memory:"``, for the simulator and a dealing
machine's bridge).

A tap on the tablet becomes an :class:`wire.protocol.Envelope` the moment :meth:`Outbox.add`
returns: it is committed to an SQLite file (WAL), so it survives the network going down, the
app being killed (``kill -9``) and the tablet restarting. :class:`wire.link.DeviceLink`
sends the pending envelopes in order and settles each one with the hub's reply:
:meth:`Outbox.done` (``ack``, ``duplicate`` included) or :meth:`Outbox.rejected` (the hub
refused it: the envelope is returned so that the screen can say why). Settled envelopes stay
in the file, marked, as the tablet's own record, for the whole life of the file (a session's
few thousand events are a few hundred kilobytes): they are the device's history. On
(re)connecting the link tells the hub the last ``seq`` it acknowledged (:meth:`acked`, in a
``hello``); when the hub's log lacks some of them (a restored or damaged log) they become
pending again (:meth:`resend_after`) and go again, in order: only those the same log
acknowledged (the hub names its log in the answer, :meth:`adopt_log`), never another
session's. An acknowledgement of an
envelope the hub had refused (another copy, sent before the refusal and delayed) clears the
refusal (:meth:`cleared`): the device never shows a refusal for an event the hub logged.

Numbering, as the hub's :meth:`hub.room.Room.apply` wants it:

* ``seq`` increases per device and keeps increasing across restarts (the counter is in the
  file): the hub refuses a new id whose ``seq`` is not above the last one it accepted from
  that device (``out_of_order``). Refused envelopes do not move the hub's counter, so a
  refusal never blocks the ones behind it.
* ``id`` is ``{device}-{epoch}-{seq:06d}``, ``epoch`` a random tag drawn when the file first
  serves a device. The hub acknowledges an id it has seen as a ``duplicate`` *without applying
  it*: were the file lost and the numbering started again under the same device id, plain
  ``{device}-{seq}`` ids would be swallowed silently as duplicates; with the epoch they are
  new ids, refused visibly (``out_of_order``) instead.

One device at a time: the hub binds a device id to the table of its first accepted event
(``wrong_table`` elsewhere) and keeps its last ``seq``. A tablet moved to another table, or a
spare tablet taking over a table, therefore uses a device id of its own
(:func:`wire.link.spare_device_id`), never the one of the tablet it replaces:
``Outbox(path, new_device)`` when nothing is pending, :meth:`Outbox.reset` otherwise (the
old identity's undelivered envelopes are abandoned, kept in the file and returned).

Errors::

    OutboxError                      the file cannot be opened, read or written (names it);
    │                                envelopes of another device still pending
    └── InvalidEventError (ValueError)   an event the hub could not parse: not stored
"""

from __future__ import annotations

import json
import logging
import re
import secrets
import sqlite3
import threading
from pathlib import Path
from types import TracebackType
from typing import Any

from wire.durability import Durability
from wire.errors import InvalidEventError, OutboxError
from wire.messages import EventTypes
from wire.protocol import EVENT_TYPES, Envelope, ProtocolError, Reply

__all__ = ["OUTBOX_NAME", "SCHEMA_VERSION", "InvalidEventError", "Outbox", "OutboxError"]

log = logging.getLogger(__name__)

SCHEMA_VERSION = 1
OUTBOX_NAME = "outbox.sqlite3"      # the file name the app keeps in its data directory
_APPLICATION = "tenace-tablet-outbox"
_ID_LIMIT = 64
_DEVICE = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")   # wire.protocol's id alphabet

_SCHEMA = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    """CREATE TABLE devices (
        device   TEXT PRIMARY KEY,
        epoch    TEXT NOT NULL,
        last_seq INTEGER NOT NULL
    )""",
    """CREATE TABLE entries (
        position    INTEGER PRIMARY KEY,
        id          TEXT NOT NULL UNIQUE,
        device      TEXT NOT NULL,
        seq         INTEGER NOT NULL,
        device_time REAL NOT NULL,
        type        TEXT NOT NULL,
        body        TEXT NOT NULL,
        status      TEXT NOT NULL DEFAULT 'pending'
                    CHECK (status IN ('pending', 'done', 'rejected', 'abandoned')),
        code        TEXT,
        reason      TEXT,
        UNIQUE (device, seq)
    )""",
    "CREATE INDEX entries_pending ON entries (device, seq) WHERE status = 'pending'",
    f"INSERT INTO meta VALUES ('schema_version', '{SCHEMA_VERSION}'), "
    f"('application', '{_APPLICATION}')",
)
_COLUMNS = "id, device, seq, device_time, type, body"


_AT = "@at"   # the envelope's ``at``, kept in the stored body (no body has such a field)


def _envelope(row: tuple[Any, ...]) -> Envelope:
    msg_id, device, seq, device_time, kind, body = row
    data = json.loads(body)
    at = data.pop(_AT, None)
    return Envelope(msg_id, device, int(seq), float(device_time), kind, data, at=at)


def _stored_body(env: Envelope) -> str:
    """The ``body`` column: the event's body, with its ``at`` (where in the table's record it
    belongs, docs/protocol.md section 6) under :data:`_AT` when it has one."""
    data = env.body if env.at is None else {**env.body, _AT: env.at}
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


class Outbox:
    """``Outbox(path, device)``: the persistent FIFO of one device's envelopes. Thread-safe.

    ``device`` may be omitted to go on with the device the file serves. Opening it for
    another device switches to that device when nothing is pending; with envelopes of the
    previous device still pending it raises :class:`OutboxError`, unless
    ``abandon_pending`` (see :meth:`reset`). ``durability`` as :class:`hub.store.EventLog`:
    ``"process"`` survives a crash or ``kill -9`` of the app, ``"power"`` a power cut too
    (one flush to the disk per event). ``types``: the event types the device sends (default
    :data:`wire.protocol.EVENT_TYPES`, a table device's; a dealing machine's bridge gives
    :data:`wire.protocol.DEALER_EVENT_TYPES`). ``first_seq``: the numbering of a device new to
    the file starts above it, and a device's it knows goes on above it (a bridge whose
    outbox is in memory, ``":memory:"``, starts above its last run's numbers with the clock
    in milliseconds; a paired spare above its account's last number: wire.pairing).
    """

    def __init__(self, path: Path | str, device: str | None = None, *,
                 abandon_pending: bool = False,
                 durability: Durability | str = Durability.PROCESS,
                 types: EventTypes | None = None,
                 first_seq: int = 0):
        try:
            self.durability = Durability(durability)
        except ValueError:
            raise ValueError(f"durability must be 'process' or 'power', "
                             f"got {durability!r}") from None
        if first_seq < 0:
            raise ValueError(f"first_seq must be 0 or more, got {first_seq}")
        self.path = str(path)
        self.types = EVENT_TYPES if types is None else types
        self.first_seq = first_seq
        self._lock = threading.RLock()
        self._conn: sqlite3.Connection | None = None
        memory = self.path == ":memory:"
        if not memory:
            file = Path(path)
            if file.is_dir():
                raise OutboxError(self.path, f"is a directory, not an outbox (the app keeps "
                                             f"its outbox in {file / OUTBOX_NAME})")
            try:
                file.parent.mkdir(parents=True, exist_ok=True)
            except OSError as err:
                raise OutboxError(self.path, f"cannot create the directory: {err}") from err
        try:
            self._conn = sqlite3.connect(self.path, isolation_level=None,
                                         check_same_thread=False)
        except sqlite3.Error as err:
            raise OutboxError(self.path, f"cannot open the outbox: {err}") from err
        try:
            self._prepare(memory)
            stored = self._meta("device")
            if device is None:
                if stored is None:
                    raise OutboxError(self.path, "a new outbox needs its device id")
                device = stored
            self.device = stored or device
            self.epoch = ""
            if stored != device:
                self.reset(device, abandon_pending=abandon_pending)
            else:
                self.epoch = self._bind(device)
        except BaseException:
            self.close()
            raise

    # Opening -------------------------------------------------------------------------------
    def _prepare(self, memory: bool) -> None:
        conn = self._db()
        try:
            conn.execute("PRAGMA busy_timeout = 5000")
            tables = {name for (name,) in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
            if tables and not {"meta", "devices", "entries"} <= tables:
                raise OutboxError(self.path, "not a Tenace outbox (an SQLite database with "
                                             f"other tables: {', '.join(sorted(tables))})")
            if not memory:
                mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
                if str(mode).lower() != "wal":
                    raise OutboxError(self.path, f"cannot use WAL journaling (got {mode!r})")
            sync = "FULL" if self.durability is Durability.POWER else "NORMAL"
            conn.execute(f"PRAGMA synchronous = {sync}")
            if not tables:
                with self._transaction() as db:
                    if db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0:
                        for statement in _SCHEMA:
                            db.execute(statement)
            rows = dict(conn.execute("SELECT key, value FROM meta"))
            if rows.get("application") != _APPLICATION:
                raise OutboxError(self.path, "not a Tenace outbox (no Tenace meta data)")
            if rows.get("schema_version") != str(SCHEMA_VERSION):
                raise OutboxError(self.path, f"outbox schema version "
                                             f"{rows.get('schema_version')!r}, this app reads "
                                             f"version {SCHEMA_VERSION}")
        except sqlite3.Error as err:
            raise OutboxError(self.path, f"cannot read the outbox: {err}") from err

    def _meta(self, key: str) -> str | None:
        rows = self._query("SELECT value FROM meta WHERE key = ?", (key,))
        return str(rows[0][0]) if rows else None

    def _bind(self, device: str) -> str:
        """Make ``device`` the file's device (its counter created once); returns its epoch."""
        if not isinstance(device, str) or not _DEVICE.match(device):
            raise ValueError(f"device id {device!r} is not [A-Za-z0-9_.-], 1-64 characters")
        with self._transaction() as db:
            db.execute("INSERT INTO meta VALUES ('device', ?) "
                       "ON CONFLICT (key) DO UPDATE SET value = excluded.value", (device,))
            # A device the file knows keeps its counter, raised to first_seq if below (a
            # tablet paired again for an account a spare used meanwhile: wire.pairing).
            db.execute("INSERT INTO devices VALUES (?, ?, ?) ON CONFLICT (device) DO UPDATE "
                       "SET last_seq = max(last_seq, excluded.last_seq)",
                       (device, secrets.token_hex(4), self.first_seq))
            epoch = db.execute("SELECT epoch FROM devices WHERE device = ?",
                               (device,)).fetchone()[0]
        return str(epoch)

    # Life cycle ----------------------------------------------------------------------------
    def _db(self) -> sqlite3.Connection:
        if self._conn is None:
            raise OutboxError(self.path, "the outbox is closed")
        return self._conn

    def close(self) -> None:
        """Close the file (idempotent). Every envelope ``add`` returned is already stored."""
        with self._lock:
            conn, self._conn = self._conn, None
            if conn is not None:
                try:
                    conn.close()
                except sqlite3.Error as err:
                    log.warning("closing the outbox %s: %s", self.path, err)

    @property
    def closed(self) -> bool:
        return self._conn is None

    def __enter__(self) -> Outbox:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self.closed else f"{len(self)} pending"
        return f"<Outbox {self.path!r} device={self.device!r} {state}>"

    # SQLite --------------------------------------------------------------------------------
    def _transaction(self) -> _Transaction:
        return _Transaction(self)

    def _query(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        with self._lock:
            try:
                return self._db().execute(sql, params).fetchall()
            except sqlite3.Error as err:
                raise OutboxError(self.path, f"cannot read the outbox: {err}") from err

    # The queue -----------------------------------------------------------------------------
    def add(self, type: str, body: dict[str, Any], device_time: float, *,
            at: dict[str, int] | None = None) -> Envelope:
        """Number a new event and store it (committed when this returns): its envelope.
        ``at``: where in the table's record it belongs (:class:`wire.messages.Position`).

        The envelope is checked as the hub will check it; :class:`InvalidEventError`
        (nothing stored) for one the hub would refuse as malformed."""
        try:
            body = json.loads(json.dumps(dict(body), allow_nan=False))
        except (TypeError, ValueError) as err:
            raise InvalidEventError(self.path, f"{type} event: the body is not JSON: "
                                               f"{err}") from err
        with self._lock:
            seq = int(self._query("SELECT last_seq FROM devices WHERE device = ?",
                                  (self.device,))[0][0]) + 1
            tail = f"-{self.epoch}-{seq:06d}"
            env = Envelope(f"{self.device[:_ID_LIMIT - len(tail)]}{tail}", self.device, seq,
                           device_time, type, body, at=None if at is None else dict(at))
            try:
                Envelope.from_json(env.to_json(), self.types)
            except ProtocolError as err:
                raise InvalidEventError(self.path, f"{type} event {body} refused: "
                                                   f"{err.reason}") from err
            with self._transaction() as db:
                db.execute(f"INSERT INTO entries ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
                           (env.id, env.device, env.seq, env.time, env.type,
                            _stored_body(env)))
                db.execute("UPDATE devices SET last_seq = ? WHERE device = ?",
                           (seq, self.device))
        log.debug("outbox: %s %s %s stored", env.id, env.type, env.body)
        return env

    def pending(self) -> list[Envelope]:
        """This device's envelopes not settled yet, oldest first (in ``seq`` order)."""
        rows = self._query(f"SELECT {_COLUMNS} FROM entries WHERE device = ? AND "
                           "status = 'pending' ORDER BY seq", (self.device,))
        return [_envelope(row) for row in rows]

    def head(self) -> Envelope | None:
        """The oldest pending envelope: the next one to deliver."""
        rows = self._query(f"SELECT {_COLUMNS} FROM entries WHERE device = ? AND "
                           "status = 'pending' ORDER BY seq LIMIT 1", (self.device,))
        return _envelope(rows[0]) if rows else None

    def find(self, ref: str) -> Envelope | None:
        """The pending envelope of this device with id ``ref``, or None."""
        rows = self._query(f"SELECT {_COLUMNS} FROM entries WHERE id = ? AND device = ? AND "
                           "status = 'pending'", (ref, self.device))
        return _envelope(rows[0]) if rows else None

    def __len__(self) -> int:
        return self.count()

    def count(self) -> int:
        """How many envelopes of this device wait for the hub's answer."""
        return int(self._query("SELECT count(*) FROM entries WHERE device = ? AND "
                               "status = 'pending'", (self.device,))[0][0])

    @property
    def last_seq(self) -> int:
        """The ``seq`` of the last envelope numbered for this device (0 before the first)."""
        return int(self._query("SELECT last_seq FROM devices WHERE device = ?",
                               (self.device,))[0][0])

    def done(self, ref: str, reply: Reply | None = None) -> Envelope | None:
        """The hub acknowledged ``ref`` (``ok`` or ``duplicate``): it leaves the queue.
        Returns its envelope; None when it was not pending (a second reply to it)."""
        return self._settle(ref, "done", reply)

    def rejected(self, ref: str, reply: Reply) -> Envelope | None:
        """The hub refused ``ref``: it leaves the queue, with the reply's code and reason kept.
        Returns its envelope for the screen to say why; None when it was not pending."""
        return self._settle(ref, "rejected", reply)

    def _settle(self, ref: str, status: str, reply: Reply | None) -> Envelope | None:
        with self._lock:
            env = self.find(ref)
            if env is None:
                return None
            with self._transaction() as db:
                db.execute("UPDATE entries SET status = ?, code = ?, reason = ? WHERE id = ?",
                           (status, None if reply is None else reply.code,
                            None if reply is None else reply.reason, ref))
        return env

    def cleared(self, ref: str, reply: Reply) -> Envelope | None:
        """The hub acknowledged ``ref`` after refusing it (a late copy that waited through an
        outage was accepted after a refusal of another copy): the refusal is cleared, the
        envelope is done. Returns it; None when ``ref`` was not refused."""
        with self._lock:
            rows = self._query(f"SELECT {_COLUMNS} FROM entries WHERE id = ? AND device = ? "
                               "AND status = 'rejected'", (ref, self.device))
            if not rows:
                return None
            with self._transaction() as db:
                db.execute("UPDATE entries SET status = 'done', code = ?, reason = ? "
                           "WHERE id = ?", (reply.code, reply.reason, ref))
        log.info("outbox: %s acknowledged after a refusal: the refusal is cleared", ref)
        return _envelope(rows[0])

    def acked(self) -> int | None:
        """The highest ``seq`` of this device the hub acknowledged (None: none yet): what a
        ``hello`` tells the hub on (re)connecting."""
        rows = self._query("SELECT max(seq) FROM entries WHERE device = ? AND status = 'done'",
                           (self.device,))
        return None if rows[0][0] is None else int(rows[0][0])

    @property
    def hub_log(self) -> str | None:
        """The id of the hub's event log that acknowledges this device's envelopes now (as
        the hub's last answer to a ``hello`` named it), None before any."""
        return self._meta(f"hub_log:{self.device}")

    def adopt_log(self, log_id: str) -> bool:
        """The hub answers from the event log ``log_id``: when it is another one than
        :attr:`hub_log` (a new session or event, a hub of another data directory), the
        envelopes acknowledged so far are another log's history, never sent to this one
        again (:meth:`resend_after`). True when the log changed."""
        with self._lock:
            if self.hub_log == log_id:
                return False
            floor = self.acked()
            with self._transaction() as db:
                for key, value in ((f"hub_log:{self.device}", log_id),
                                   (f"hub_log_floor:{self.device}",
                                    str(-1 if floor is None else floor))):
                    db.execute("INSERT INTO meta VALUES (?, ?) ON CONFLICT (key) DO UPDATE "
                               "SET value = excluded.value", (key, value))
        log.info("outbox %s: %s answered by the hub's event log %s", self.path, self.device,
                 log_id)
        return True

    def resend_after(self, last: int | None) -> list[Envelope]:
        """The hub's log lacks this device's acknowledged envelopes after ``last`` (None:
        all of them; a restored or damaged log): they are pending again, to be sent again in
        order, ahead of the envelopes entered since. Only those the current log
        acknowledged (:meth:`adopt_log`) go. Returns them, oldest first."""
        stored_floor = self._meta(f"hub_log_floor:{self.device}")
        floor = max(-1 if last is None else last,
                    -1 if stored_floor is None else int(stored_floor))
        with self._lock:
            rows = self._query(f"SELECT {_COLUMNS} FROM entries WHERE device = ? AND "
                               "status = 'done' AND seq > ? ORDER BY seq", (self.device, floor))
            if rows:
                with self._transaction() as db:
                    db.execute("UPDATE entries SET status = 'pending', code = NULL, "
                               "reason = NULL WHERE device = ? AND status = 'done' AND seq > ?",
                               (self.device, floor))
        found = [_envelope(row) for row in rows]
        if found:
            log.warning("outbox %s: the hub lacks %d acknowledged event(s) of %s after seq %s: "
                        "sent again", self.path, len(found), self.device, last)
        return found

    def rejections(self) -> list[tuple[Envelope, str, str]]:
        """Every envelope of this device the hub refused: (envelope, code, reason)."""
        rows = self._query(f"SELECT {_COLUMNS}, code, reason FROM entries WHERE device = ? "
                           "AND status = 'rejected' ORDER BY seq", (self.device,))
        return [(_envelope(row[:6]), str(row[6] or ""), str(row[7] or "")) for row in rows]

    def reset(self, device: str, *, abandon_pending: bool = True) -> list[Envelope]:
        """Serve ``device`` from now on (a spare tablet's own id, a tablet moved to another
        table). Its numbering goes on from what this file knows of it (1 for a new id).

        The previous device's pending envelopes can no longer be delivered under the new id:
        with ``abandon_pending`` they are marked abandoned (kept in the file, logged) and
        returned; without it, any pending envelope raises :class:`OutboxError`."""
        with self._lock:
            left = self.pending() if self.device != device else []
            if left and not abandon_pending:
                raise OutboxError(self.path, f"{len(left)} event(s) of device {self.device} "
                                             f"not delivered yet: deliver them as "
                                             f"{self.device}, or abandon them to serve {device}")
            if left:
                with self._transaction() as db:
                    db.execute("UPDATE entries SET status = 'abandoned' WHERE device = ? AND "
                               "status = 'pending'", (self.device,))
                log.warning("outbox %s: %d event(s) of %s abandoned for device %s: %s",
                            self.path, len(left), self.device, device,
                            ", ".join(e.id for e in left))
            self.epoch = self._bind(device)
            if self.device != device:
                log.info("outbox %s now serves device %s (was %s)", self.path, device,
                         self.device)
            self.device = device
        return left


class _Transaction:
    """``with outbox._transaction() as db:`` BEGIN IMMEDIATE ... COMMIT, rolled back on any
    error; sqlite3 errors become :class:`OutboxError`."""

    def __init__(self, outbox: Outbox):
        self.outbox = outbox

    def __enter__(self) -> sqlite3.Connection:
        self.outbox._lock.acquire()
        try:
            conn = self.outbox._db()
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as err:
            self.outbox._lock.release()
            raise OutboxError(self.outbox.path, f"cannot write the outbox: {err}") from err
        except BaseException:
            self.outbox._lock.release()
            raise
        return conn

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        try:
            conn = self.outbox._db()
            if exc is None:
                try:
                    conn.execute("COMMIT")
                    return
                except sqlite3.Error as err:
                    exc = err
            if conn.in_transaction:
                try:
                    conn.execute("ROLLBACK")
                except sqlite3.Error as rollback:
                    log.error("rolling back in the outbox %s: %s", self.outbox.path, rollback)
            if isinstance(exc, sqlite3.Error):
                raise OutboxError(self.outbox.path, f"cannot write the outbox: {exc}") from exc
        finally:
            self.outbox._lock.release()
