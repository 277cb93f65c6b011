"""``tenace log verify | backup | salvage``: the event log checked, copied, rescued.

* :func:`diagnose` (``verify``): everything that can be wrong, each said precisely, reading
  only: the file cut short (hub.logfile), the ``-wal`` ending with a torn transaction, the
  log behind the head the hub noted beside it (records lost at the end: the ``-wal`` missing
  or cut), the hash chain broken at record N (hub.store), SQLite's own check failing.
* :func:`backup` (``backup``): an online copy through SQLite's backup API, safe while the
  hub runs and writes (the copy is a consistent snapshot of the log *with* what is still in
  its ``-wal``), written as one self-contained file (rollback journal, no ``-wal``), then
  opened and verified: SQLite's integrity check, the hash chain, the head it holds.
* :func:`salvage` (``salvage``): every record that can be read and whose hash holds, copied
  in order into a new log (chained anew), and a report of every position lost and why.

What a backup must contain: ``events.sqlite3`` *and* ``events.sqlite3-wal`` taken at the
same instant, or a copy made through SQLite (this module). Copying ``events.sqlite3`` alone
while the hub runs, or after it was killed, misses every transaction not yet checkpointed
into it (they are in the ``-wal``): the copy opens without complaint and has silently lost
them. The ``.head`` file beside the log lets the hub notice that loss at its next start.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hub.log_records import GENESIS, ChainReport, Record, chain_hash
from hub.logfile import WalState, file_damage, read_head, wal_state
from hub.logpages import read_pages
from hub.store import _COLUMNS, LOG_NAME, EventLog, StoreError

__all__ = ["Diagnosis", "Salvage", "backup", "diagnose", "log_file", "salvage"]


def log_file(data: Path | str) -> Path:
    """The log of a data directory (or the file itself when given one)."""
    folder = Path(data)
    return folder / LOG_NAME if folder.is_dir() else folder


@dataclass(slots=True)
class Diagnosis:
    """What :func:`diagnose` found: ``problems`` (each one line, most serious first),
    ``notes`` (facts that are not damage), the ``chain`` report when the log could be
    opened. ``readable``: SQLite could open it."""

    path: str
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    chain: ChainReport | None = None
    readable: bool = True
    wal: WalState | None = None

    @property
    def sound(self) -> bool:
        return not self.problems

    def lines(self) -> list[str]:
        out = [f"{self.path}:"]
        if self.chain is not None:
            out.append(f"  {self.chain}")
        out += [f"  PROBLEM: {p}" for p in self.problems]
        out += [f"  note: {n}" for n in self.notes]
        if self.sound:
            out.append("  no damage found")
        return out


def diagnose(data: Path | str, head: tuple[int, str] | None = None) -> Diagnosis:
    """Every problem of the log at ``data`` (a data directory or the file), changing
    nothing: the ``-wal`` is read before SQLite opens the file (opening it would take the
    torn part out of sight). ``head``: a head noted elsewhere (``hub/status``) the chain must
    hold. StoreError only when there is no log at all."""
    file = log_file(data)
    if not file.is_file():
        raise StoreError(str(file), f"no event log here (the hub keeps it in DIR/{LOG_NAME})")
    found = Diagnosis(str(file))
    damage = file_damage(file)
    if damage is not None:
        found.problems.append(f"{file.name} {damage}")
        found.readable = False
    wal = found.wal = wal_state(file)
    if wal.problem:
        found.problems.append(wal.problem)
    elif wal.exists and wal.frames:
        found.notes.append(f"{file.name}-wal holds {wal.transactions} committed transactions "
                           "not yet checkpointed: a copy of the log must include it")
    noted = read_head(file)
    if damage is not None:
        return found
    try:
        with _snapshot(file) as copy, EventLog.open(copy, upgrade=False, note_head=False,
                                                    data_folder=False) as opened:
            found.chain = opened.verify(head)
            opened.noted_head = noted
            loss = opened.behind()
    except StoreError as err:
        found.problems.append(err.message)
        found.readable = False
        return found
    if loss is not None:
        where = "" if wal.exists else f"; there is no {file.name}-wal beside it"
        found.problems.append(f"{loss}{where}")
    if not found.chain.intact:
        found.problems.append(f"hash chain broken at record {found.chain.broken_at}: "
                              f"{found.chain.problem}")
    if noted is None and head is None and not wal.exists and _wal_mode(file):
        found.problems.append(
            f"neither {file.name}-wal nor {file.name}.head beside it: the hub's log "
            "(WAL mode) keeps its newest records in the -wal, and the head says how far it "
            "went; a copy that left both behind may have lost records at its end unseen. "
            "Find them, or verify against the head the hub last published (--head)")
    elif noted is None:
        found.notes.append(f"no {file.name}.head beside it: a loss at the end cannot be "
                           "seen here (only against a head noted elsewhere, --head)")
    return found


def _wal_mode(file: Path) -> bool:
    """The file's header says it is in WAL mode (a backup of this module's is not: one
    self-contained file)."""
    with file.open("rb") as f:
        header = f.read(20)
    return len(header) >= 20 and header[18] == 2


@contextlib.contextmanager
def _snapshot(file: Path) -> Iterator[Path]:
    """A copy of the log and its ``-wal`` in a temporary directory, removed after: SQLite
    opening the original would recover and checkpoint its ``-wal`` (changing the files)."""
    with tempfile.TemporaryDirectory(prefix="tenace-log-") as folder:
        copy = Path(folder) / LOG_NAME
        shutil.copyfile(file, copy)
        wal = Path(f"{file}-wal")
        if wal.is_file():
            shutil.copyfile(wal, Path(f"{copy}-wal"))
        yield copy


# backup ----------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Backup:
    """A verified backup: where, how many records, its head, and the check's report."""

    path: str
    records: int
    head: tuple[int, str]
    chain: ChainReport

    def __str__(self) -> str:
        position, digest = self.head
        return (f"backup {self.path}: {self.records} records, head {position}:{digest}; "
                f"integrity ok; {self.chain}")


def backup(data: Path | str, target: Path | str, *, pages: int = -1) -> Backup:
    """Copy the log of ``data`` to ``target`` (a new file) through SQLite's online backup
    API, in one step by default (one read transaction: in WAL mode the hub goes on
    writing meanwhile, and the copy is the log as it was when the step began; with
    ``pages`` > 0, a write by the hub between steps makes SQLite start over), then check
    the copy: SQLite's integrity
    check, the hash chain, and that it holds the source's head as it was when the copy
    started (or a later one). StoreError names what failed; a failed copy is removed."""
    source_file = log_file(data)
    out = Path(target)
    if not source_file.is_file():
        raise StoreError(str(source_file), f"no event log here (DIR/{LOG_NAME})")
    if out.exists() or Path(f"{out}-wal").exists():
        raise StoreError(str(out), "exists already: a backup goes to a new file")
    damage = file_damage(source_file)
    if damage is not None:
        raise StoreError(str(source_file), f"the event log {damage}: salvage it instead")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        # 0600 before SQLite writes a deal into it (its -wal takes the same mode); its folder
        # is the user's, left as it is (EventLog's data_folder=False below)
        os.close(os.open(out, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except OSError as err:
        raise StoreError(str(out), f"cannot write the backup there: {err.strerror or err}") \
            from err
    try:
        source = sqlite3.connect(f"file:{source_file}?mode=ro", uri=True)
        try:
            source.execute("PRAGMA busy_timeout = 5000")
            before = source.execute("SELECT position, hash FROM chain ORDER BY position DESC "
                                    "LIMIT 1").fetchone()
            copy = sqlite3.connect(out)
            try:
                source.backup(copy, pages=pages)
                copy.execute("PRAGMA journal_mode = DELETE")   # one self-contained file
            finally:
                copy.close()
        finally:
            source.close()
    except sqlite3.Error as err:
        _remove(out)
        raise StoreError(str(source_file), f"backup to {out} failed: {err}") from err
    try:
        check = sqlite3.connect(f"file:{out}?mode=ro", uri=True)
        try:
            rows = [str(r[0]) for r in check.execute("PRAGMA integrity_check(5)")]
        finally:
            check.close()
        if rows != ["ok"]:
            raise StoreError(str(out), "the backup fails SQLite's integrity check: "
                                       + "; ".join(rows[:3]))
        with EventLog.open(out, upgrade=False, note_head=False, data_folder=False) as opened:
            start = None if before is None else (int(before[0]), str(before[1]))
            report = opened.verify(start)
            if not report.intact:
                raise StoreError(str(out), f"the backup does not verify: {report}")
            done = Backup(str(out), opened.count(), opened.head(), report)
        again = sqlite3.connect(out)   # opening it as a log made it WAL again: one file
        try:
            again.execute("PRAGMA journal_mode = DELETE")
        finally:
            again.close()
    except BaseException:
        _remove(out)
        raise
    return done


def _remove(file: Path) -> None:
    for one in (file, Path(f"{file}-wal"), Path(f"{file}-shm"), Path(f"{file}-journal")):
        with contextlib.suppress(FileNotFoundError):
            one.unlink()


# salvage ---------------------------------------------------------------------------------

@dataclass(slots=True)
class Salvage:
    """What :func:`salvage` did: ``kept`` records copied, ``lost`` (position, why) for every
    position not copied, ``highest`` the highest position seen (in a record, a hash, or the
    head noted beside the log), ``unknown`` a loss that cannot be counted (pages missing at
    the end of the file past the highest position seen), ``from_pages`` records read from the
    leaf pages where SQLite could not reach them (hub.logpages)."""

    source: str
    target: str
    kept: int = 0
    lost: list[tuple[int, str]] = field(default_factory=list)
    highest: int = 0
    problems: list[str] = field(default_factory=list)
    unknown: str = ""
    from_pages: int = 0

    @property
    def complete(self) -> bool:
        """Nothing lost, counted or not."""
        return not self.lost and not self.unknown

    def lines(self) -> list[str]:
        out = [f"salvaged {self.kept} of {self.highest} records from {self.source} "
               f"into {self.target}"]
        out += [f"  {p}" for p in self.problems]
        if self.from_pages:
            out.append(f"  {self.from_pages} records read from the file's pages where SQLite "
                       "could not reach them (each checked against the hash chain)")
        out += [f"  lost record {position}: {why}" for position, why in self.lost]
        if self.unknown:
            out.append(f"  LOST, NOT COUNTED: {self.unknown}")
        if self.complete:
            out.append("  nothing lost")
        else:
            out.append(f"  {len(self.lost)} record(s) lost" + (" and more not counted"
                                                               if self.unknown else ""))
        return out


def _named(value: Any) -> str:
    """A value read from a damaged file, safe to print: escaped, never raw bytes."""
    text = ascii(value)
    return text if len(text) <= 60 else f"{text[:57]}..."


_ROW = f"SELECT position, {_COLUMNS} FROM events"


def _read_rows(conn: sqlite3.Connection, found: Salvage,
               unreadable: dict[int, str]) -> dict[int, tuple[Any, ...]]:
    """Every events row SQLite can still read: in chunks, and where a chunk fails, row by
    row (a damaged page costs the rows on it, not the file). When neither table's highest
    position can be read (an interior page gone), nothing is probed here: the leaf pages
    are read directly (:func:`_page_rows`)."""
    rows: dict[int, tuple[Any, ...]] = {}
    try:
        top = conn.execute("SELECT max(position) FROM events").fetchone()[0] or 0
    except sqlite3.DatabaseError as err:
        found.problems.append(f"the events table cannot be read through SQLite ({err}): "
                              "its pages are read directly")
        top = 0
    with contextlib.suppress(sqlite3.DatabaseError):
        top = max(top, conn.execute("SELECT max(position) FROM chain").fetchone()[0] or 0)
    found.highest = top
    at = 0
    while at < top:
        end = min(top, at + 500)
        try:
            for row in conn.execute(f"{_ROW} WHERE position > ? AND position <= ?",
                                    (at, end)):
                rows[int(row[0])] = tuple(row)
        except sqlite3.DatabaseError:
            for position in range(at + 1, end + 1):
                try:
                    one = conn.execute(f"{_ROW} WHERE position = ?", (position,)).fetchone()
                except sqlite3.DatabaseError as err:
                    unreadable[position] = f"unreadable ({err})"
                    continue
                if one is not None:
                    rows[position] = tuple(one)
        at = end
    return rows


_SOURCES = ("device", "hub", "director")


def _page_rows(copy: Path, rows: dict[int, tuple[Any, ...]], hashes: dict[int, str],
               found: Salvage) -> None:
    """The rows SQLite could not reach, read from the leaf pages (hub.logpages): an events
    row is ten values, the first null (the position is the rowid), the third a source; a
    chain row two, the first null, the second a 64-character hash."""
    pages = read_pages(copy)
    for rowid, values in pages.rows:
        if (len(values) == 10 and values[0] is None and values[2] in _SOURCES
                and rowid not in rows):
            row = [rowid, *values[1:]]
            for real in (6, 7):   # REAL columns: SQLite stores a whole value as an integer
                if type(row[real]) is int:
                    row[real] = float(row[real])
            rows[rowid] = tuple(row)
            found.from_pages += 1
        elif (len(values) == 2 and values[0] is None and isinstance(values[1], str)
              and len(values[1]) == 64):
            hashes.setdefault(rowid, values[1])
    if pages.bad_pages or pages.bad_cells:
        found.problems.append(f"{pages.bad_pages} page(s) and {pages.bad_cells} cell(s) of "
                              "the file could not be read at all")


def _read_hashes(conn: sqlite3.Connection, top: int) -> dict[int, str]:
    hashes: dict[int, str] = {}
    for at in range(0, top, 500):
        try:
            for position, digest in conn.execute(
                    "SELECT position, hash FROM chain WHERE position > ? AND position <= ?",
                    (at, at + 500)):
                hashes[int(position)] = str(digest)
        except sqlite3.DatabaseError:
            for position in range(at + 1, min(top, at + 500) + 1):
                try:
                    one = conn.execute("SELECT hash FROM chain WHERE position = ?",
                                       (position,)).fetchone()
                except sqlite3.DatabaseError:
                    continue
                if one is not None:
                    hashes[position] = str(one[0])
    return hashes


def salvage(data: Path | str, target: Path | str) -> Salvage:
    """Copy every readable record whose hash holds from the log of ``data`` into a new log
    at ``target``, in position order (new positions, chained anew). A record is kept when
    its stored hash is the hash of its fields after the stored hash of the record before it
    (so one changed record costs only itself); a record without a hash, or with a hash
    that does not match, or that cannot be read, is lost, with the reason. The original is
    only read (from a copy). StoreError when there is nothing to read from, or ``target``
    exists."""
    source_file = log_file(data)
    out = Path(target)
    if not source_file.is_file():
        raise StoreError(str(source_file), f"no event log here (DIR/{LOG_NAME})")
    if out.exists():
        raise StoreError(str(out), "exists already: salvage writes a new file")
    found = Salvage(str(source_file), str(out))
    damage = file_damage(source_file)
    if damage is not None:
        found.problems.append(f"{source_file.name} {damage}")
    wal = wal_state(source_file)
    if wal.problem:
        found.problems.append(wal.problem)
    unreadable: dict[int, str] = {}
    with _snapshot(source_file) as copy:
        missing_pages = _pad(copy) if damage is not None else 0
        try:
            conn = sqlite3.connect(copy)
        except sqlite3.Error as err:
            raise StoreError(str(source_file), f"SQLite cannot open it at all: {err}") from err
        try:
            rows = _read_rows(conn, found, unreadable)
            hashes = _read_hashes(conn, found.highest)
        finally:
            conn.close()
        _page_rows(copy, rows, hashes, found)
    noted = read_head(source_file)
    seen = max([found.highest, *rows, *hashes])
    found.highest = max(seen, 0 if noted is None else noted[0])
    if missing_pages and (noted is None or noted[0] <= seen):
        found.unknown = (f"{missing_pages} page(s) missing at the end of the file: records "
                         f"after position {seen} may have been on them (no head noted beside "
                         "the log says how many)")
    kept = _checked(rows, hashes, unreadable, found)
    found.lost.sort()
    with EventLog.open(out, data_folder=False) as target_log:
        for at in range(0, len(kept), 1000):
            target_log.append_many(kept[at:at + 1000])
        found.kept = target_log.count()
    return found


def _checked(rows: dict[int, tuple[Any, ...]], hashes: dict[int, str],
             unreadable: dict[int, str], found: Salvage) -> list[Record]:
    """The records whose hash holds, in order. A record is checked against its stored hash,
    computed after the hash before it (stored, or computed for a record checked); a record
    whose own hash is gone (a lost page of the chain table) is checked by the next stored
    hash, which holds only if every record between holds. Every other position is lost,
    with the reason (what was read from the file named escaped, never as raw text)."""
    kept: list[Record] = []
    waiting: list[tuple[int, Record]] = []   # read, hash gone: checked by the next one
    previous: str | None = GENESIS
    for position in range(1, found.highest + 1):
        row = rows.get(position)
        stored = hashes.get(position)
        if row is None:
            found.lost.append((position, unreadable.get(
                position, "missing (on a page that is gone or unreadable)")))
            _unchecked(waiting, found, f"record {position} after it is gone")
            previous = stored
            continue
        name = _named(row[1])
        if previous is None:
            found.lost.append((position, f"record {name}: the hash before it is gone, "
                                         "so it cannot be checked"))
            previous = stored
            continue
        try:
            computed = chain_hash(previous, position, row[1:])
            record = Record(row[1], row[2], row[8], row[9], row[7], row[3], row[4], row[5],
                            row[6])
        except (TypeError, ValueError) as err:
            found.lost.append((position, f"record {name} cannot be read back "
                                         f"({type(err).__name__})"))
            _unchecked(waiting, found, f"record {position} after it cannot be read")
            previous = stored
            continue
        if stored is None:
            waiting.append((position, record))
            previous = computed
        elif computed == stored:
            kept += [r for _, r in waiting] + [record]
            waiting = []
            previous = stored
        else:
            if waiting:
                _unchecked(waiting, found, f"record {position}'s hash does not hold")
                found.lost.append((position, f"record {name} does not match its hash, or "
                                             "a record before it whose hash is gone changed"))
            else:
                found.lost.append((position, f"record {name} does not match its hash "
                                             "(changed)"))
            previous = stored
    _unchecked(waiting, found, "no hash after it is left")
    return kept


def _unchecked(waiting: list[tuple[int, Record]], found: Salvage, why: str) -> None:
    for position, record in waiting:
        found.lost.append((position, f"record {_named(record.event_id)} has no hash and "
                                     f"cannot be checked: {why}"))
    waiting.clear()


def _pad(copy: Path) -> int:
    """A file cut short: zeros to the page count its header gives (or to the end of a page
    cut), so SQLite reads the pages before the cut (the copy only). How many whole pages
    were missing."""
    size = copy.stat().st_size
    with copy.open("rb") as f:
        header = f.read(100)
    if len(header) < 100:
        return 0
    page = int.from_bytes(header[16:18], "big")
    page = 65536 if page == 1 else page
    if page < 512:
        return 0
    counted = int.from_bytes(header[28:32], "big")
    whole = -(-size // page)
    target = max(whole, counted) * page
    if target > size:
        with copy.open("ab") as f:
            f.write(b"\0" * (target - size))
    return max(0, counted - whole)
