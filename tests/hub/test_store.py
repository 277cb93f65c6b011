"""The hub's append-only event log (hub/store.py): order, idempotency, atomic batches,
durability across kill -9, refusal of edits, clear errors for damaged files, and the hash
chain that shows any record changed, inserted or removed (and the upgrade that adds it)."""

import hashlib
import json
import math
import os
import signal
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hub import log_records, store
from hub.log_records import GENESIS, Record, StoredRecord, chain_hash
from hub.store import LOG_NAME, SCHEMA_VERSION, EventLog, SchemaVersionError, StoreError
from wire.protocol import Envelope


def event(n: int, device: str = "t1-north", seq: int | None = None, table: str = "t1") -> Record:
    """A device record with a real envelope as payload."""
    env = Envelope(f"{device}-{n:06d}", device, n if seq is None else seq, 1000.0 + n, "card",
                   {"seat": "N", "card": "SA"})
    return Record.from_envelope(env, table, hub_time=2000.0 + n)


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "data" / LOG_NAME


def fields(record: Record) -> tuple[object, ...]:
    return (record.event_id, record.source, record.type, record.payload, record.hub_time,
            record.table_id, record.device, record.seq, record.device_time)


# Appending and replaying ------------------------------------------------------------------

def test_append_returns_increasing_positions_and_replay_keeps_order(path: Path) -> None:
    with EventLog.open(path) as log:
        records = [event(n) for n in range(1, 6)]
        assert [log.append(r) for r in records] == [1, 2, 3, 4, 5]
        stored = list(log.replay())
        assert [s.position for s in stored] == [1, 2, 3, 4, 5]
        assert [fields(s) for s in stored] == [fields(r) for r in records]
        assert [s.position for s in log.replay(after=3)] == [4, 5]
        assert log.count() == 5 and log.last_position() == 5


def test_replay_crosses_chunk_boundaries_and_sees_records_appended_meanwhile() -> None:
    with EventLog.memory() as log:
        log.append_many(event(n) for n in range(2500))
        seen = []
        for stored in log.replay():
            seen.append(stored.position)
            if stored.position == 2500:
                log.append(event(9999))
        assert seen == list(range(1, 2502))


def test_device_record_payload_replays_to_the_same_envelope() -> None:
    env = Envelope("t3-north-000017", "t3-north", 17, 1763740000.125, "call",
                   {"seat": "S", "call": "1NT", "alert": False})
    with EventLog.memory() as log:
        log.append(Record.from_envelope(env, "t3", hub_time=1763740000.2))
        (stored,) = log.replay()
        assert isinstance(stored, StoredRecord)
        assert stored.envelope() == env
        assert (stored.table_id, stored.device, stored.seq, stored.device_time) == (
            "t3", "t3-north", 17, 1763740000.125)


def test_hub_and_director_facts_are_appended_the_same_way() -> None:
    with EventLog.memory() as log:
        alert = Record.fact("alert_raised", {"kind": "revoke", "board": 4}, table_id="t2",
                            hub_time=5.0)
        ruling = Record.fact("ruled", {"alert": "a1"}, source="director", hub_time=6.0)
        assert log.append(alert) == 1 and log.append(ruling) == 2
        assert alert.event_id != ruling.event_id
        assert ":" in alert.event_id   # outside the device id alphabet: no collision
        assert [(s.source, s.type, s.data()) for s in log.replay()] == [
            ("hub", "alert_raised", {"kind": "revoke", "board": 4}),
            ("director", "ruled", {"alert": "a1"})]


def test_tail_returns_the_last_records_in_order() -> None:
    with EventLog.memory() as log:
        log.append_many(event(n) for n in range(10))
        assert [s.position for s in log.tail(3)] == [8, 9, 10]
        assert [s.position for s in log.tail(50)] == list(range(1, 11))
        assert log.tail(0) == []


# Idempotency --------------------------------------------------------------------------------

def test_duplicate_event_id_is_ignored_not_an_error() -> None:
    with EventLog.memory() as log:
        assert log.append(event(1)) == 1
        assert log.append(event(1)) is None
        assert log.has(event(1).event_id) and not log.has("t1-north-999999")
        assert log.count() == 1
        assert log.append(event(2)) == 2


def test_duplicate_inside_and_across_batches_is_ignored() -> None:
    with EventLog.memory() as log:
        log.append(event(1))
        assert log.append_many([event(1), event(2), event(2), event(3)]) == [None, 2, None, 3]
        assert [s.event_id for s in log.replay()] == [event(n).event_id for n in (1, 2, 3)]


@settings(deadline=None)          # no wall-clock limit: the machine is shared
@given(st.lists(st.integers(0, 30), max_size=60), st.integers(1, 7))
def test_log_keeps_first_occurrence_of_each_id_in_order(ids: list[int], batch: int) -> None:
    with EventLog.memory() as log:
        for start in range(0, len(ids), batch):
            log.append_many(event(n) for n in ids[start:start + batch])
        expected = list(dict.fromkeys(ids))
        assert [s.event_id for s in log.replay()] == [event(n).event_id for n in expected]
        assert [s.position for s in log.replay()] == list(range(1, len(expected) + 1))


def test_a_batch_written_at_once_chains_as_record_by_record() -> None:
    """A batch of new records goes in two statements (issue 27): the same rows, positions
    and chain hashes as writing them one by one, and the chain verifies; a batch with a
    duplicate in it is written record by record, to the same head."""
    with EventLog.memory() as one, EventLog.memory() as batched, EventLog.memory() as mixed:
        for n in range(12):
            one.append(event(n))
        assert batched.append_many(event(n) for n in range(5)) == [1, 2, 3, 4, 5]
        assert batched.append_many(event(n) for n in range(5, 12)) == list(range(6, 13))
        assert mixed.append_many([event(0), event(1), event(0)]) == [1, 2, None]
        assert mixed.append_many(event(n) for n in range(1, 12)) == [None, *range(3, 13)]
        heads = {log.verify().head for log in (one, batched, mixed)}
        assert len(heads) == 1 and next(iter(heads))[0] == 12
        assert all(log.verify().intact for log in (one, batched, mixed))
        assert [r.payload for r in batched.replay()] == [r.payload for r in one.replay()]


# Atomic batches ----------------------------------------------------------------------------

def test_failure_in_the_middle_of_a_batch_leaves_nothing_written(path: Path) -> None:
    bad = Record("bad-1", "device", "card", "{not json", 1.0, "t1", "t1-north", 50, 1.0)
    with EventLog.open(path) as log:
        log.append(event(1))
        with pytest.raises(StoreError, match="bad-1") as err:
            log.append_many([event(2), event(3), bad, event(4)])
        assert str(path) in str(err.value)
        assert log.count() == 1 and not log.has(event(2).event_id)
        with pytest.raises(TypeError):
            log.append_many([event(5), "not a record", event(6)])  # type: ignore[list-item]
        assert log.count() == 1 and not log.has(event(5).event_id)
        assert log.append_many([event(2), event(3)]) == [2, 3]   # still usable afterwards
    with EventLog.open(path) as log:
        assert [s.event_id for s in log.replay()] == [event(n).event_id for n in (1, 2, 3)]


def test_unreplayable_payload_is_refused_and_the_log_stays_usable() -> None:
    with EventLog.memory() as log:
        with pytest.raises(StoreError, match="payload"):
            log.append(Record("x", "hub", "alert", "oops", 1.0))
        assert log.count() == 0 and log.append(event(1)) == 1


def test_record_rejects_values_that_cannot_be_replayed() -> None:
    with pytest.raises(ValueError, match="source"):
        Record("x", "tablet", "card", "{}", 1.0)
    with pytest.raises(ValueError, match="hub_time"):
        Record("x", "hub", "card", "{}", math.nan)
    with pytest.raises(ValueError, match="event_id"):
        Record("", "hub", "card", "{}", 1.0)
    with pytest.raises(ValueError, match="seq"):
        Record("x", "device", "card", "{}", 1.0, seq="3")  # type: ignore[arg-type]


# last_seq ----------------------------------------------------------------------------------

def test_last_seq_is_per_device_and_rebuilt_from_the_log(path: Path) -> None:
    with EventLog.open(path) as log:
        assert log.last_seq("t1-north") is None
        log.append_many([event(1, "t1-north"), event(7, "t1-north"), event(3, "t2-east")])
        log.append(event(4, "t1-north"))    # a gap then a lower seq: the hub decides
        log.append(Record.fact("alert_raised", {"seq": 99}, table_id="t1"))
        assert log.last_seq("t1-north") == 7 and log.last_seq("t2-east") == 3
    with EventLog.open(path) as log:
        assert log.last_seq("t1-north") == 7 and log.last_seq("nobody") is None


# Reopening ---------------------------------------------------------------------------------

def test_reopen_after_close_keeps_everything(path: Path) -> None:
    with EventLog.open(path, durability="power") as log:
        log.append_many(event(n) for n in range(100))
        before = list(log.replay())
    assert path.parent.is_dir()
    with EventLog.open(path) as log:
        assert list(log.replay()) == before
        assert log.append(event(100)) == 101


def test_close_is_idempotent_and_a_closed_log_refuses_work(path: Path) -> None:
    log = EventLog.open(path)
    log.close()
    log.close()
    assert log.closed
    with pytest.raises(StoreError, match="closed"):
        log.append(event(1))
    with pytest.raises(StoreError, match="closed"):
        log.count()


def test_durability_setting_selects_wal_and_synchronous_level(path: Path) -> None:
    for durability, level in (("process", 1), ("power", 2)):
        with EventLog.open(path, durability=durability) as log:
            conn = log._conn
            assert conn is not None
            assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
            assert conn.execute("PRAGMA synchronous").fetchone()[0] == level
    with pytest.raises(ValueError, match="durability"):
        EventLog.open(path, durability="eventually")


def test_concurrent_appends_from_threads_lose_nothing(path: Path) -> None:
    with EventLog.open(path) as log:
        def work(device: str) -> None:
            for n in range(200):
                log.append(event(n, device))
        threads = [threading.Thread(target=work, args=(f"d{i}",)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert log.count() == 800
        assert all(log.last_seq(f"d{i}") == 199 for i in range(4))


# kill -9 -----------------------------------------------------------------------------------

WRITER = r"""
import sys
from hub.log_records import Record
from hub.store import EventLog
path, durability, batch = sys.argv[1], sys.argv[2], int(sys.argv[3])
with EventLog.open(path, durability=durability) as log:
    n = 0
    while True:
        records = [Record(f"e{i}", "device", "card", '{"n": %d}' % i, 1.0, "t1", "dev", i, 1.0)
                   for i in range(n, n + batch)]
        if batch == 1:
            assert log.append(records[0]) == n + 1
        else:
            log.append_many(records)
        sys.stdout.write("".join(f"ack {r.event_id}\n" for r in records))
        sys.stdout.flush()
        n += batch
"""


@pytest.mark.parametrize(("durability", "batch"),
                         [("process", 1), ("process", 50), ("power", 1), ("power", 50)])
def test_kill_9_mid_stream_loses_no_acknowledged_event(path: Path, durability: str,
                                                       batch: int) -> None:
    """Every event acknowledged before a SIGKILL is in the log after a restart, the log is
    consistent, and no batch is half-written."""
    path.parent.mkdir(parents=True)
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(path), durability, str(batch)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    acked: list[str] = []
    while len(acked) < 400:
        line = proc.stdout.readline()
        assert line, f"writer stopped early: {proc.stderr.read() if proc.stderr else ''}"
        acked.append(line.split()[1])
    os.kill(proc.pid, signal.SIGKILL)
    # Read through the same reader: what it holds already is the rest's beginning
    # (``communicate`` with a timeout reads the pipe itself and would skip it).
    rest = proc.stdout.read()
    proc.wait(timeout=30)
    if proc.stderr is not None:
        proc.stderr.close()
    proc.stdout.close()
    assert proc.returncode == -signal.SIGKILL      # killed mid-stream, not finished
    # What follows the last newline was cut by the kill: never a whole acknowledgement.
    *complete, _cut = rest.split("\n")
    assert all(line.startswith("ack ") for line in complete), complete
    acked += [line.split()[1] for line in complete]

    with EventLog.open(path) as log:
        stored = list(log.replay())
        ids = {s.event_id for s in stored}
        assert set(acked) <= ids
        # Consistent: positions 1..n in order, event i at position i + 1, whole batches only.
        assert [s.position for s in stored] == list(range(1, len(stored) + 1))
        assert [s.seq for s in stored] == list(range(len(stored)))
        assert len(stored) % batch == 0
        assert log.last_seq("dev") == len(stored) - 1
        assert log.append(Record("after", "hub", "restart", "{}", 2.0)) == len(stored) + 1
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    raw.close()


# Append-only -------------------------------------------------------------------------------

def test_database_itself_refuses_update_and_delete(path: Path) -> None:
    with EventLog.open(path) as log:
        log.append_many(event(n) for n in range(3))
    raw = sqlite3.connect(path)
    try:
        with pytest.raises(sqlite3.IntegrityError, match="append-only: UPDATE"):
            raw.execute("UPDATE events SET type = 'call' WHERE position = 1")
        with pytest.raises(sqlite3.IntegrityError, match="append-only: DELETE"):
            raw.execute("DELETE FROM events")
        raw.rollback()
    finally:
        raw.close()
    with EventLog.open(path) as log:
        assert [s.type for s in log.replay()] == ["card"] * 3


def test_event_log_issues_no_update_or_delete(path: Path) -> None:
    statements: list[str] = []
    with EventLog.open(path) as log:
        assert log._conn is not None
        log._conn.set_trace_callback(statements.append)
        log.append(event(1))
        log.append(event(1))
        log.append_many([event(2), event(3)])
        with pytest.raises(StoreError):
            log.append_many([event(4), Record("b", "hub", "x", "bad", 1.0)])
        list(log.replay())
        log.tail(2)
        log.has("x")
        log.last_seq("t1-north")
    verbs = {s.split()[0].upper() for s in statements}
    assert "INSERT" in verbs
    assert not verbs & {"UPDATE", "DELETE", "REPLACE", "DROP", "ALTER"}


# Bad files ---------------------------------------------------------------------------------

def test_garbage_file_is_a_store_error_naming_it_and_left_untouched(path: Path) -> None:
    path.parent.mkdir(parents=True)
    garbage = bytes(range(256)) * 40
    path.write_bytes(garbage)
    with pytest.raises(StoreError, match="not a database") as err:
        EventLog.open(path)
    assert str(path) in str(err.value) and err.value.path == str(path)
    assert path.read_bytes() == garbage


def test_damaged_pages_are_detected_on_open(path: Path) -> None:
    with EventLog.open(path) as log:
        log.append_many(event(n) for n in range(3000))
    data = bytearray(path.read_bytes())
    for page in (3, 10, 20):
        data[page * 4096 + 64: page * 4096 + 1064] = bytes(range(250)) * 4
    path.write_bytes(bytes(data))
    with pytest.raises(StoreError, match="damaged") as err:
        EventLog.open(path)
    assert str(path) in str(err.value)
    assert path.read_bytes() == bytes(data)


def test_truncated_file_is_a_store_error(path: Path) -> None:
    with EventLog.open(path) as log:
        log.append_many(event(n) for n in range(3000))
    path.write_bytes(path.read_bytes()[:6000])
    with pytest.raises(StoreError, match=str(path)):
        EventLog.open(path)


def test_foreign_sqlite_database_is_not_taken_over(path: Path) -> None:
    path.parent.mkdir(parents=True)
    with sqlite3.connect(path) as raw:
        raw.execute("CREATE TABLE scores (pair INTEGER, score REAL)")
    raw.close()
    with pytest.raises(StoreError, match="not a Tenace event log"):
        EventLog.open(path)
    with sqlite3.connect(path) as raw:
        names = [r[0] for r in raw.execute("SELECT name FROM sqlite_master")]
    raw.close()
    assert names == ["scores"]


def test_directory_instead_of_file_is_a_store_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="directory"):
        EventLog.open(tmp_path)


@pytest.mark.parametrize(("version", "hint"), [("99", "newer"), ("0", "reads version")])
def test_unknown_schema_version_is_a_clear_error(path: Path, version: str, hint: str) -> None:
    with EventLog.open(path) as log:
        log.append(event(1))
    with sqlite3.connect(path) as raw:
        raw.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (version,))
    raw.close()
    with pytest.raises(SchemaVersionError, match=hint) as err:
        EventLog.open(path)
    message = str(err.value)
    assert str(path) in message and repr(version) in message and str(SCHEMA_VERSION) in message
    assert isinstance(err.value, StoreError)


def test_payload_of_a_fact_is_compact_json() -> None:
    record = Record.fact("board_started", {"board": 3, "deal": "N:..."}, hub_time=1.0)
    assert json.loads(record.payload) == {"board": 3, "deal": "N:..."}
    assert record.data() == {"board": 3, "deal": "N:..."} and record.table_id is None


# The hash chain ---------------------------------------------------------------------------

def _tamper(path: Path, *statements: str) -> None:
    """What someone with the file does: drop the append-only triggers, then edit."""
    raw = sqlite3.connect(path)
    try:
        for name in ("events_no_update", "events_no_delete", "chain_no_update",
                     "chain_no_delete"):
            raw.execute(f"DROP TRIGGER IF EXISTS {name}")
        for statement in statements:
            raw.execute(statement)
        raw.commit()
    finally:
        raw.close()


def _filled(path: Path, n: int = 6) -> tuple[int, str]:
    with EventLog.open(path) as log:
        log.append_many(event(k) for k in range(1, n + 1))
        log.append(Record.fact("alert_rule", {"id": "A1-1", "text": "no", "by": "director"},
                               source="director", hub_time=3000))   # an integer time
        report = log.verify()
        assert report.intact and report.records == n + 1, report
        assert report.head == log.head() and report.head[0] == n + 1
        return log.head()


def test_chain_of_a_fresh_log_is_intact_and_its_head_moves_with_each_append(path: Path) -> None:
    with EventLog.open(path) as log:
        assert log.head() == (0, GENESIS) and log.verify().intact
        assert log.append(event(1)) == 1
        first = log.head()
        assert log.append(event(1)) is None          # a duplicate moves nothing
        assert log.head() == first
        log.append(event(2))
        assert log.head()[0] == 2 and log.head()[1] != first[1]
        assert "intact: 2 records" in str(log.verify())
    with EventLog.open(path) as log:                 # chained across restarts
        log.append(event(3))
        assert log.verify().intact and log.verify(head=first).intact


@pytest.mark.parametrize(("statement", "position", "words"), [
    ("UPDATE events SET payload = replace(payload, 'SA', 'SK') WHERE position = 3", 3,
     "does not match its hash"),
    ("UPDATE events SET hub_time = hub_time + 1 WHERE position = 5", 5, "does not match"),
    ("UPDATE events SET source = 'hub' WHERE position = 7", 7, "does not match"),
    ("DELETE FROM events WHERE position = 2", 2, "removed"),
    ("DELETE FROM chain WHERE position = 4", 4, "no hash"),
])
def test_a_record_changed_or_removed_breaks_the_chain_at_its_position(
        path: Path, statement: str, position: int, words: str) -> None:
    _filled(path)
    _tamper(path, statement)
    with EventLog.open(path) as log:
        report = log.verify()
    assert not report.intact and report.broken_at == position, report
    assert words in report.problem and f"BROKEN at position {position}" in str(report)


def test_a_record_removed_with_its_hash_or_inserted_breaks_the_chain(path: Path) -> None:
    _filled(path)
    _tamper(path, "DELETE FROM events WHERE position = 3", "DELETE FROM chain WHERE position = 3")
    with EventLog.open(path) as log:
        assert log.verify().broken_at == 3
    other = path.with_name("other.sqlite3")
    _filled(other)
    # Inserted in the middle: every later record renumbered, hashes kept.
    _tamper(other, "UPDATE events SET position = position + 100 WHERE position >= 4",
            "UPDATE events SET position = position - 99 WHERE position >= 100",
            "INSERT INTO events (position, event_id, source, hub_time, type, payload) "
            "VALUES (4, 'hub:forged', 'hub', 1.0, 'tick', '{}')")
    with EventLog.open(other) as log:
        report = log.verify()
    assert report.broken_at == 4 and "forged" in report.problem


def test_the_tail_removed_is_seen_against_a_noted_head(path: Path) -> None:
    noted = _filled(path)
    _tamper(path, f"DELETE FROM events WHERE position = {noted[0]}",
            f"DELETE FROM chain WHERE position = {noted[0]}")
    with EventLog.open(path) as log:
        assert log.verify().intact                 # a shorter chain is a chain...
        report = log.verify(head=noted)            # ...but not the one noted
        assert report.broken_at == noted[0] and "removed" in report.problem
        assert log.verify(head=(noted[0] - 1, "0" * 64)).broken_at == noted[0] - 1


def test_a_broken_chain_keeps_taking_records_and_stays_reported(path: Path) -> None:
    _filled(path)
    _tamper(path, "UPDATE events SET type = 'call' WHERE position = 2")
    with EventLog.open(path) as log:
        assert log.append(event(99)) == 8
        assert log.verify().broken_at == 2
        assert [r.position for r in log.replay()] == list(range(1, 9))


def _version_1(path: Path, rows: int) -> None:
    """A log as the hub wrote it before the chain (schema version 1)."""
    raw = sqlite3.connect(path)
    for statement in store._SCHEMA:
        raw.execute(statement)
    raw.execute("INSERT INTO meta VALUES ('schema_version', '1'), "
                "('application', 'tenace-hub-event-log')")
    for k in range(1, rows + 1):
        record = event(k)
        raw.execute("INSERT INTO events (event_id, source, table_id, device, seq, device_time, "
                    "hub_time, type, payload) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (record.event_id, record.source, record.table_id, record.device,
                     record.seq, record.device_time, int(record.hub_time), record.type,
                     record.payload))
    raw.commit()
    raw.close()


def test_a_version_1_log_is_upgraded_once_in_place_keeping_every_row(
        path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path.parent.mkdir(parents=True)
    _version_1(path, 2500)                          # more than a chunk
    raw = sqlite3.connect(path)
    before = raw.execute("SELECT * FROM events ORDER BY position").fetchall()
    raw.close()
    with pytest.raises(SchemaVersionError, match="no hash chain"):
        EventLog.open(path, upgrade=False)         # left as it is
    with caplog.at_level("WARNING", logger="hub.store"), EventLog.open(path) as log:
        assert "upgraded from schema version 1" in caplog.text
        assert "2500 records" in caplog.text
        report = log.verify()
        assert report.intact and report.records == 2500
        assert log.append(event(3000)) == 2501 and log.verify().intact
    caplog.clear()
    with caplog.at_level("WARNING", logger="hub.store"), EventLog.open(path) as log:
        assert "upgraded" not in caplog.text        # once
        assert log.verify().intact
    raw = sqlite3.connect(path)
    try:
        assert raw.execute("SELECT * FROM events WHERE position <= 2500 ORDER BY position"
                           ).fetchall() == before
        assert raw.execute("SELECT value FROM meta WHERE key = 'schema_version'"
                           ).fetchone() == (str(SCHEMA_VERSION),)
    finally:
        raw.close()


def test_an_odd_old_log_is_chained_all_the_same(path: Path) -> None:
    """A version 1 file edited by hand (a BLOB for a table, an infinite time) is chained
    and verified like any other: the chain never stops a hub from opening its log."""
    path.parent.mkdir(parents=True)
    _version_1(path, 3)
    raw = sqlite3.connect(path)
    raw.execute("DROP TRIGGER events_no_update")
    raw.execute("UPDATE events SET device_time = 9e999, table_id = x'00ff' WHERE position = 2")
    raw.commit()
    raw.close()
    with EventLog.open(path, verify=False) as log:
        assert log.verify().intact and log.count() == 3


def test_a_failed_upgrade_leaves_the_version_1_log_as_it_was(path: Path) -> None:
    path.parent.mkdir(parents=True)
    _version_1(path, 3)
    raw = sqlite3.connect(path)
    raw.execute("CREATE TABLE chain (x)")           # in the way: the upgrade cannot proceed
    raw.commit()
    raw.close()
    with pytest.raises(StoreError, match="chain"):
        EventLog.open(path)
    raw = sqlite3.connect(path)
    try:
        assert raw.execute("SELECT value FROM meta WHERE key = 'schema_version'"
                           ).fetchone() == ("1",)
        assert raw.execute("SELECT count(*) FROM events").fetchone() == (3,)
    finally:
        raw.close()


@settings(deadline=None)
@given(st.lists(st.tuples(st.text(max_size=20), st.integers(0, 2 ** 63 - 1),
                          st.floats(0, 1e11) | st.integers(0, 10 ** 9)), max_size=8))
def test_the_chain_holds_for_any_text_and_number_the_log_takes(
        rows: list[tuple[str, int, float]]) -> None:
    with EventLog.memory() as log:
        for k, (text, seq, when) in enumerate(rows):
            body = json.dumps({"text": text.encode("utf-8", "replace").decode()})
            log.append(Record(f"e{k}", "device", "note", body, when, "t1", "d", seq, when))
        assert log.verify().intact


_ROW_TEXT = st.one_of(st.none(), st.text(max_size=12),
                      st.text(alphabet=st.characters(max_codepoint=0x7F), max_size=12),
                      st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E),
                              max_size=40))
_ROW_TIME = st.one_of(st.none(), st.floats(), st.integers(-2 ** 70, 2 ** 70).map(float),
                      st.floats(1e9, 3e9))


@settings(deadline=None, max_examples=300)
@given(st.tuples(st.integers(-2 ** 70, 2 ** 70), _ROW_TEXT, _ROW_TEXT, _ROW_TEXT, _ROW_TEXT,
                 st.one_of(st.none(), st.integers(-2 ** 70, 2 ** 70), st.booleans()),
                 _ROW_TIME, _ROW_TIME, _ROW_TEXT, _ROW_TEXT))
def test_a_row_is_chained_the_same_whichever_encoder_writes_it(row: tuple[object, ...]) -> None:
    """The usual row is written by msgspec (issue 27): the very characters of the canonical
    encoder (text with any other character, huge numbers, NaN and exponents go to it), so
    every log chained before verifies and every hash is the same."""
    assert log_records.canonical_row(list(row)) == log_records._CANONICAL.encode(list(row))


def test_a_device_event_row_takes_the_fast_encoding_and_chains_as_before() -> None:
    """The row of a device's event as the hub writes it (printable ASCII, times of the
    epoch) is the fast path's, and its hash is the canonical encoding's."""
    payload = ('{"v":1,"id":"t-A1-rdr-000031","device":"A1-rdr","seq":31,"time":1795927150.87,'
               '"type":"card","body":{"seat":"S","card":"HQ","source":"reader"}}')
    fields = ("t-A1-rdr-000031", "device", "A1", "A1-rdr", 31, 1795927150.87, 1795927151.5,
              "card", payload)
    row = [7, *fields]
    canonical = log_records._CANONICAL.encode(row)
    assert log_records.canonical_row(row) == canonical == log_records._FAST.encode(row).decode()
    assert chain_hash(GENESIS, 7, fields) == hashlib.sha256(
        (GENESIS + canonical).encode("ascii")).hexdigest()
    # What msgspec writes otherwise (DEL unescaped, an exponent) goes to the canonical encoder.
    for odd in ("del \x7f", "tab\t", "é", "\ud800"):
        assert log_records.canonical_row([7, odd, *fields[1:]]) == log_records._CANONICAL.encode(
            [7, odd, *fields[1:]])
    for when in (1e16, 1e-5, -2.5e17, float("nan"), float("inf")):
        assert log_records.canonical_row([7, *fields[:5], when, *fields[6:]]) == \
            log_records._CANONICAL.encode([7, *fields[:5], when, *fields[6:]])
