"""The hub's data directory is private to the hub's user on every path (security.md): the
event log holds every deal, `users.json`, `accounts.json` and `pairing.json` the hashes of
passwords and codes. ``tenace deploy init`` made its directories 0700; the plain ``tenace
hub --data DIR`` left the log 0644 in a 0755 directory (issue 23).

:func:`make_private` is called whenever an event log is opened (hub.store), before SQLite
touches the file: the directory is created 0700 (or, when it exists and group or others may
enter it, told in the log and made 0700); in a directory that is a hub's (it holds the event
log), every file and directory below it that group or others may read or write is told in
the log and fixed (the owner's bits kept, the others' removed); a log file that does not
exist yet is created 0600, so that SQLite gives its ``-wal`` and ``-shm`` files the same
mode. Symbolic links are left alone (their targets are not the hub's to change). A
directory that is not a hub's (no event log in it yet) has only itself fixed: pointing
``--data`` at a folder of other things never changes those things.

:func:`one_hub` holds ``hub.lock`` in the data directory while a hub runs (an exclusive
``flock``, its pid written in it): a second hub on the same directory is refused before it
touches anything there; the kernel drops the lock with the process, so a hub killed (a power
cut, ``kill -9``) leaves none behind.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import stat
from collections.abc import Iterator
from pathlib import Path

__all__ = ["LOCK_NAME", "OPEN_BITS", "DataDirectoryBusy", "make_private", "one_hub"]

log = logging.getLogger(__name__)

OPEN_BITS = 0o077          # group and others: none of them, on anything of the hub's
LOCK_NAME = "hub.lock"     # held by the hub running on the data directory


class DataDirectoryBusy(OSError):
    """Another hub runs on this data directory (or the lock cannot be taken): its words."""


@contextlib.contextmanager
def one_hub(folder: Path) -> Iterator[None]:
    """Hold ``folder``'s lock (created 0700 when missing) for the block: DataDirectoryBusy,
    naming the other hub's pid, when another process holds it."""
    if folder.exists() and not folder.is_dir():
        raise DataDirectoryBusy(f"--data {folder}: not a directory (the hub's data directory "
                                "holds its event log; give a folder, new or the hub's)")
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(folder / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError as err:
        raise DataDirectoryBusy(f"{folder}: cannot take the data directory's lock: "
                                f"{err.strerror or err}") from err
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            other = os.read(fd, 32).decode("ascii", "replace").strip() or "?"
            raise DataDirectoryBusy(
                f"{folder}: another hub is running on this data directory (pid {other}): "
                "stop it first (Ctrl-C where it runs, or systemctl stop tenace-hub), or give "
                "this one a --data of its own") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield
    finally:
        os.close(fd)            # the lock goes with it


def _fix(path: Path, mode: int, what: str, fixed: list[Path]) -> None:
    new = (mode & 0o700) | (0o700 if what == "directory" else 0o600)
    try:
        os.chmod(path, new, follow_symlinks=False)
    except OSError as err:   # not ours (a copy read by another user): said, never fatal
        log.warning("data %s %s is readable or writable by others (mode %04o) and cannot "
                    "be made private: %s", what, path, mode & 0o777, err)
        return
    log.warning("data %s %s was readable or writable by others (mode %04o): made %04o",
                what, path, mode & 0o777, new)
    fixed.append(path)


def make_private(folder: Path, log_name: str) -> list[Path]:
    """Make ``folder`` (a data directory, created when missing) and what the hub keeps in
    it private to this user; create ``folder / log_name`` 0600 when it does not exist. Returns
    the paths whose mode was fixed (each also warned in the log). OSError when the directory
    cannot be created or fixed."""
    fixed: list[Path] = []
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    mode = folder.stat().st_mode
    if mode & OPEN_BITS:
        _fix(folder, mode, "directory", fixed)
    event_log = folder / log_name
    if event_log.exists():
        for root, dirs, files in os.walk(folder):
            for name in [*dirs, *files]:
                path = Path(root) / name
                try:
                    info = path.lstat()
                except OSError:   # gone meanwhile (SQLite's -shm and -wal come and go)
                    continue
                if stat.S_ISLNK(info.st_mode) or not info.st_mode & OPEN_BITS:
                    continue
                _fix(path, info.st_mode, "directory" if stat.S_ISDIR(info.st_mode)
                     else "file", fixed)
    else:
        os.close(os.open(event_log, os.O_WRONLY | os.O_CREAT, 0o600))
    return fixed
