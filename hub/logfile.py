"""The event log's files seen from outside SQLite: what is wrong with them, in words.

The log is ``events.sqlite3`` in WAL mode (hub.store): committed transactions go first to
``events.sqlite3-wal`` and reach the main file only at a checkpoint, so while the hub runs
(or after it was killed) the newest records may be in the ``-wal`` alone. A copy of
``events.sqlite3`` without its ``-wal`` misses them; a ``-wal`` whose last transaction was
being written when the power went is cut short, and SQLite then silently ignores that
transaction. This module reads the bytes (SQLite's documented file formats: the 100-byte
database header, the WAL header and frames with their checksums) and says which of these
it sees, before SQLite opens anything:

* :func:`file_damage`: a file too short for its own header, or cut inside a page, or shorter
  than the pages its header counts: *truncated*, with the sizes;
* :func:`wal_state`: the ``-wal`` beside it: how many frames and transactions it holds, and
  whether its end is a torn transaction (frames after the last commit, or a frame whose
  checksum fails);
* the head file, ``events.sqlite3.head``: the hub writes the head of its hash chain there
  (position and hash, JSON, overwritten in place) after every commit (:class:`HeadFile`),
  so that at the next
  start it can tell whether the log is *behind* what it had acknowledged (:func:`read_head`):
  the end of the ``-wal`` lost, a ``-wal`` left out of a copy, an older backup put back.

Standard library only; reads, never writes, except the head file (:class:`HeadFile`,
:func:`write_head`).
"""

from __future__ import annotations

import json
import os
import struct
from dataclasses import dataclass
from pathlib import Path

__all__ = ["HEAD_SUFFIX", "HeadFile", "WalState", "file_damage", "head_path", "read_head",
           "wal_state", "write_head"]

HEAD_SUFFIX = ".head"
_MAGIC = b"SQLite format 3\x00"
_HEADER = 100
_WAL_HEADER = 32
_FRAME_HEADER = 24
_WAL_MAGICS = (0x377F0682, 0x377F0683)   # checksums little-endian, big-endian


def head_path(log_path: Path | str) -> Path:
    """Where the head of the log at ``log_path`` is noted: ``events.sqlite3.head``."""
    return Path(f"{log_path}{HEAD_SUFFIX}")


class HeadFile:
    """The head noted beside a log, kept open: each :meth:`write` overwrites one 128-byte
    slot in place (one ``pwrite``, a few microseconds; a rename per commit would cost
    milliseconds). A write torn by a crash leaves text that does not parse: :func:`read_head`
    then gives None and the check is skipped, never a false loss."""

    SIZE = 128

    def __init__(self, log_path: Path | str):
        self.path = head_path(log_path)
        self._fd: int | None = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)

    def write(self, head: tuple[int, str], *, durable: bool = False) -> None:
        """Note ``head`` (``durable``: flushed to the disk, as the log is with durability
        "power")."""
        if self._fd is None:
            raise ValueError(f"{self.path}: closed")
        data = json.dumps({"position": head[0], "hash": head[1]}, allow_nan=False).encode("ascii")
        os.pwrite(self._fd, data.ljust(self.SIZE), 0)
        if durable:
            os.fdatasync(self._fd)

    def close(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)


def write_head(log_path: Path | str, head: tuple[int, str], *, durable: bool = False) -> None:
    """Note the chain's head beside the log once (:class:`HeadFile` for every commit)."""
    one = HeadFile(log_path)
    try:
        one.write(head, durable=durable)
    finally:
        one.close()


def read_head(log_path: Path | str) -> tuple[int, str] | None:
    """The head noted beside the log, or None when there is none (a new log, a log copied
    without it) or it cannot be read (said nowhere: it is only a check)."""
    try:
        obj = json.loads(head_path(log_path).read_bytes())
        position, digest = obj["position"], obj["hash"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not isinstance(position, int) or isinstance(position, bool) or position < 0 or \
            not isinstance(digest, str) or len(digest) != 64:
        return None
    return position, digest


def file_damage(path: Path | str) -> str | None:
    """What is wrong with the database file's length, or None: too short for SQLite's
    header, a partial last page, fewer pages than its header counts (the end cut off). A
    file that is not SQLite's at all gives None too (SQLite says so when it opens it), and so
    does a file short of its count while the ``-wal`` beside it holds committed frames (a
    checkpoint in progress, or cut short by a crash: SQLite reads those pages from the
    ``-wal``)."""
    file = Path(path)
    try:
        size = file.stat().st_size
        with file.open("rb") as f:
            header = f.read(_HEADER)
    except OSError as err:
        return f"cannot be read: {err.strerror or err}"
    if size == 0:
        return None   # a new, empty log
    if not _MAGIC.startswith(header[:16]):
        return None   # not SQLite's at all: SQLite says so itself
    if size < _HEADER:
        return (f"is truncated: {size} bytes, shorter than SQLite's {_HEADER}-byte header "
                "(the file was cut)")
    page_size = struct.unpack(">H", header[16:18])[0]
    page_size = 65536 if page_size == 1 else page_size
    if page_size < 512 or page_size & (page_size - 1):
        return f"is damaged: its header gives an impossible page size ({page_size})"
    pages, rest = divmod(size, page_size)
    counted = struct.unpack(">I", header[28:32])[0]
    change, valid_for = (struct.unpack(">I", header[24:28])[0],
                         struct.unpack(">I", header[92:96])[0])
    short = bool(rest) or bool(counted and change == valid_for and pages < counted)
    if short and wal_state(file).committed:
        # A checkpoint copies the -wal's pages into the file, its first page (which counts
        # them) before the file has grown: a hub writing at this moment, or killed in the
        # middle of it, leaves the file short of its count with the pages still in the -wal,
        # from which SQLite reads them. Not damage.
        return None
    if rest:
        return (f"is truncated: {size} bytes is not a whole number of {page_size}-byte pages "
                f"(the last page is cut after {rest} bytes; {page_size - rest} bytes missing)")
    if short:
        return (f"is truncated: {pages} pages of {page_size} bytes, its header counts "
                f"{counted} ({(counted - pages) * page_size} bytes missing at the end)")
    return None


@dataclass(frozen=True, slots=True)
class WalState:
    """What the ``-wal`` beside a log holds: ``exists``; ``frames`` valid frames (the current
    generation, checksums holding), of which ``committed`` end a transaction or come before
    one that does; ``transactions`` complete ones; ``torn`` the frames after the last commit
    (a transaction cut short) and ``torn_bytes`` the bytes after the last valid frame (a
    frame cut, or one whose checksum fails). ``problem`` says it in words, "" when sound."""

    exists: bool
    size: int = 0
    frames: int = 0
    committed: int = 0
    transactions: int = 0
    torn: int = 0
    torn_bytes: int = 0
    problem: str = ""

    @property
    def sound(self) -> bool:
        return not self.problem


def _checksum(data: bytes, big: bool, s0: int, s1: int) -> tuple[int, int]:
    """SQLite's WAL checksum over ``data`` (a multiple of 8 bytes), from (s0, s1)."""
    words = struct.unpack(f"{'>' if big else '<'}{len(data) // 4}I", data)
    mask = 0xFFFFFFFF
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & mask
        s1 = (s1 + words[i + 1] + s0) & mask
    return s0, s1


def wal_state(log_path: Path | str) -> WalState:
    """Walk the ``-wal`` of the log at ``log_path`` frame by frame (module docstring)."""
    wal = Path(f"{log_path}-wal")
    try:
        data = wal.read_bytes()
    except FileNotFoundError:
        return WalState(False)
    except OSError as err:
        return WalState(True, problem=f"{wal.name} cannot be read: {err.strerror or err}")
    size = len(data)
    if size == 0:
        return WalState(True, 0)
    if size < _WAL_HEADER:
        return WalState(True, size, torn_bytes=size,
                        problem=f"{wal.name} is cut inside its header ({size} bytes)")
    magic, _version, page_size, _checkpoint, salt1, salt2, c1, c2 = struct.unpack(
        ">8I", data[:_WAL_HEADER])
    if magic not in _WAL_MAGICS:
        return WalState(True, size, problem=f"{wal.name} is not an SQLite WAL file")
    big = bool(magic & 1)
    s0, s1 = _checksum(data[:24], big, 0, 0)
    if (s0, s1) != (c1, c2):
        return WalState(True, size, torn_bytes=size - _WAL_HEADER,
                        problem=f"{wal.name}: its header's checksum fails (SQLite ignores the "
                                "whole file)")
    frame = _FRAME_HEADER + page_size
    at, frames, committed, transactions = _WAL_HEADER, 0, 0, 0
    bad = ""
    while at + _FRAME_HEADER <= size:
        page, commit, f1, f2, k1, k2 = struct.unpack(">6I", data[at:at + _FRAME_HEADER])
        if (f1, f2) != (salt1, salt2):
            break   # an older generation's frame: the WAL was reset, not torn
        if at + frame > size:
            bad = "a frame cut short"
            break
        s0, s1 = _checksum(data[at:at + 8], big, s0, s1)
        s0, s1 = _checksum(data[at + _FRAME_HEADER:at + frame], big, s0, s1)
        if (s0, s1) != (k1, k2) or page == 0:
            bad = "a frame whose checksum fails"
            break
        frames += 1
        if commit:
            committed, transactions = frames, transactions + 1
        at += frame
    rest = size - at
    if bad == "" and rest and rest < _FRAME_HEADER:
        bad = "a frame header cut short"
    if bad == "" and rest >= _FRAME_HEADER and transactions and frames == committed:
        rest = 0   # older frames left after a reset: normal
    torn = frames - committed
    torn_bytes = rest if bad else 0
    problem = ""
    if torn or torn_bytes:
        what = [f"{torn} frame{'s' if torn != 1 else ''} after its last commit"] if torn else []
        if torn_bytes:
            what.append(f"{bad} ({torn_bytes} bytes)")
        problem = (f"{wal.name} ends with a torn transaction: {' and '.join(what)}; SQLite "
                   f"ignores it (its {transactions} complete transactions are read)")
    return WalState(True, size, frames, committed, transactions, torn, torn_bytes, problem)
