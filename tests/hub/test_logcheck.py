"""The event log's damage said precisely, its online backup and its salvage (hub.logfile,
hub.logcheck, ``tenace log verify | backup | salvage``)."""

from __future__ import annotations

import shutil
import sqlite3
import threading
from pathlib import Path

import pytest

from hub.log_records import Record
from hub.logcheck import backup, diagnose, salvage
from hub.logfile import file_damage, read_head, wal_state
from hub.store import LOG_NAME, EventLog, StoreError, log_head
from tenace.cli import main


def _filled(folder: Path, n: int = 200) -> EventLog:
    """An open log of ``n`` records (left open: its -wal holds them)."""
    log = EventLog.open(folder / LOG_NAME)
    for i in range(n):
        log.append(Record.fact("tick", {"i": i, "pad": "x" * 100}, hub_time=1000.0 + i))
    return log


def _copy(source: Path, target: Path, *, wal: bool = True, cut_wal: int = 0) -> Path:
    target.mkdir()
    for name in (LOG_NAME, f"{LOG_NAME}.head"):
        shutil.copyfile(source / name, target / name)
    if wal:
        data = (source / f"{LOG_NAME}-wal").read_bytes()
        (target / f"{LOG_NAME}-wal").write_bytes(data[:len(data) - cut_wal])
    return target


def test_the_head_is_noted_beside_the_log_after_every_commit(tmp_path: Path) -> None:
    with _filled(tmp_path, 3) as log:
        assert read_head(tmp_path / LOG_NAME) == log.head() == log_head(log)
        assert log_head(log)[0] == log.count() == 3
    with EventLog.open(tmp_path / LOG_NAME) as again:
        assert again.noted_head == again.head() and again.behind() is None


def test_a_copy_without_its_wal_is_seen_behind_at_open_and_by_verify(tmp_path: Path) -> None:
    with _filled(tmp_path / "live") as log:
        copy = _copy(tmp_path / "live", tmp_path / "copy", wal=False)
        head = log.head()
    with EventLog.open(copy / LOG_NAME) as opened:
        loss = opened.behind()
    assert loss is not None and loss.missing == head[0] - loss.head[0] > 0
    assert "missing" in str(loss) and "-wal" in str(loss)
    found = diagnose(copy)
    assert not found.sound and found.readable
    assert any("no events.sqlite3-wal beside it" in p for p in found.problems)


def test_a_torn_last_wal_transaction_is_named_and_the_loss_seen(tmp_path: Path) -> None:
    with _filled(tmp_path / "live") as log:
        torn = _copy(tmp_path / "live", tmp_path / "torn", cut_wal=3)
        head = log.head()
    state = wal_state(torn / LOG_NAME)
    assert state.exists and state.torn_bytes > 0 and "torn transaction" in state.problem
    found = diagnose(torn)
    assert any("torn transaction" in p for p in found.problems)
    assert any(f"written up to record {head[0]}" in p for p in found.problems)
    assert wal_state(tmp_path / "live" / LOG_NAME).sound


def test_a_file_cut_by_three_bytes_is_refused_as_truncated(tmp_path: Path) -> None:
    with _filled(tmp_path / "live", 50):
        pass                                     # closed: checkpointed into the file
    (tmp_path / "cut").mkdir()
    data = (tmp_path / "live" / LOG_NAME).read_bytes()
    cut = tmp_path / "cut" / LOG_NAME
    cut.write_bytes(data[:-3])
    damage = file_damage(cut) or ""
    assert "truncated" in damage and "3 bytes missing" in damage
    with pytest.raises(StoreError, match=r"truncated.*3 bytes missing.*salvage"):
        EventLog.open(cut)
    assert cut.read_bytes() == data[:-3]       # left as it was
    found = diagnose(cut)
    assert not found.readable and "truncated" in found.problems[0]
    assert main(["log", "verify", "--data", str(tmp_path / "cut")]) == 2


def test_a_file_short_of_its_count_with_the_pages_in_its_wal_is_not_damage(
        tmp_path: Path) -> None:
    """A checkpoint writes the file's first page (which counts the pages) before the file has
    grown: read at that moment, or after a kill in the middle of it, the file is short of its
    count while the -wal still holds the pages. SQLite reads them from there: not truncated."""
    with _filled(tmp_path / "live", 40):
        pass                                     # closed: checkpointed, no -wal
    with _filled(tmp_path / "live", 200) as log:  # 200 more, in the -wal
        copy = _copy(tmp_path / "live", tmp_path / "mid", wal=True)
        head = log.head()
    data = bytearray((copy / LOG_NAME).read_bytes())
    pages = len(data) // int.from_bytes(data[16:18], "big")
    data[28:32] = (pages + 5).to_bytes(4, "big")   # page 1 copied, the others not yet
    (copy / LOG_NAME).write_bytes(bytes(data))
    assert wal_state(copy / LOG_NAME).committed > 0
    assert file_damage(copy / LOG_NAME) is None
    alone = tmp_path / "alone"                     # the same file without its -wal: cut
    alone.mkdir()
    shutil.copyfile(copy / LOG_NAME, alone / LOG_NAME)
    assert "header counts" in (file_damage(alone / LOG_NAME) or "")
    with EventLog.open(copy / LOG_NAME) as read:
        assert read.head() == head and read.count() == 240


def test_verify_names_the_broken_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                        ) -> None:
    with _filled(tmp_path, 10):
        pass
    raw = sqlite3.connect(tmp_path / LOG_NAME)
    raw.execute("DROP TRIGGER events_no_update")
    raw.execute("""UPDATE events SET payload = '{"i":99}' WHERE position = 4""")
    raw.commit()
    raw.close()
    assert main(["log", "verify", "--data", str(tmp_path)]) == 1
    assert "hash chain broken at record 4" in capsys.readouterr().out


def test_backup_while_the_log_is_written_is_whole_and_verified(tmp_path: Path) -> None:
    log = _filled(tmp_path / "live", 100)
    stop = threading.Event()

    def write() -> None:
        n = 0
        while not stop.is_set():
            log.append(Record.fact("tick", {"more": n}))
            n += 1
            stop.wait(0.001)

    writer = threading.Thread(target=write)
    writer.start()
    try:
        done = backup(tmp_path / "live", tmp_path / "backup.sqlite3")
    finally:
        stop.set()
        writer.join()
    assert done.records >= 100 and done.chain.intact
    assert not Path(f"{done.path}-wal").exists()          # one self-contained file
    with EventLog.open(done.path) as copy:
        assert copy.verify().intact and copy.count() == done.records
        assert [r.event_id for r in copy.replay()] == [
            r.event_id for r in log.replay()][:done.records]
    log.close()
    with pytest.raises(StoreError, match="exists already"):
        backup(tmp_path / "live", tmp_path / "backup.sqlite3")


def test_salvage_keeps_every_sound_record_and_lists_the_lost(tmp_path: Path) -> None:
    with _filled(tmp_path / "live", 30):
        pass
    raw = sqlite3.connect(tmp_path / "live" / LOG_NAME)
    raw.execute("DROP TRIGGER events_no_update")
    raw.execute("""UPDATE events SET payload = '{"i":99}' WHERE position = 7""")
    raw.commit()
    raw.close()
    done = salvage(tmp_path / "live", tmp_path / "saved.sqlite3")
    assert done.kept == 29 and done.highest == 30
    assert [p for p, _ in done.lost] == [7] and "does not match its hash" in done.lost[0][1]
    with EventLog.open(tmp_path / "saved.sqlite3") as saved:
        assert saved.verify().intact
        assert [r.data()["i"] for r in saved.replay()] == [i for i in range(30) if i != 6]


def test_salvage_of_a_truncated_log_reads_what_is_left(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with _filled(tmp_path / "live", 300):
        pass
    (tmp_path / "cut").mkdir()
    (tmp_path / "cut" / LOG_NAME).write_bytes((tmp_path / "live" / LOG_NAME).read_bytes()[:-3])
    code = main(["log", "salvage", "--data", str(tmp_path / "cut"),
                 str(tmp_path / "saved.sqlite3")])
    out = capsys.readouterr().out
    assert code == 1 and "truncated" in out and "lost record" in out
    with EventLog.open(tmp_path / "saved.sqlite3") as saved:
        assert 250 < saved.count() < 300 and saved.verify().intact


def test_backup_command_prints_the_verified_head(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    with _filled(tmp_path, 5) as log:
        head = log.head()
        assert main(["log", "backup", "--data", str(tmp_path),
                     str(tmp_path / "b" / "copy.sqlite3")]) == 0
    out = capsys.readouterr().out
    assert f"5 records, head 5:{head[1]}" in out and "integrity ok" in out


def _closed(folder: Path, n: int) -> bytes:
    """A log of ``n`` records closed (checkpointed into the file): its bytes."""
    with _filled(folder, n):
        pass
    return (folder / LOG_NAME).read_bytes()


def test_salvage_of_a_log_that_lost_its_last_page_reads_every_readable_record(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The last page gone: SQLite cannot read either table's highest position (an interior
    page is missing), yet the leaf pages before the cut hold most records. Salvage reads
    them from the pages, checks each against the chain, names every record lost, exits 1."""
    data = _closed(tmp_path / "live", 500)
    page = int.from_bytes(data[16:18], "big")
    (tmp_path / "cut").mkdir()
    (tmp_path / "cut" / LOG_NAME).write_bytes(data[:-page])
    code = main(["log", "salvage", "--data", str(tmp_path / "cut"),
                 str(tmp_path / "saved.sqlite3")])
    out = capsys.readouterr().out
    assert code == 1 and "nothing lost" not in out and "truncated" in out
    with EventLog.open(tmp_path / "saved.sqlite3") as saved:
        kept = [r.data()["i"] for r in saved.replay()]
        assert saved.verify().intact
    lost = [int(line.split()[2].rstrip(":")) for line in out.splitlines()
            if line.strip().startswith("lost record")]
    assert len(kept) > 450 and len(kept) + len(lost) == 500
    assert kept == [i - 1 for i in range(1, 501) if i not in lost]   # in order, none twice
    assert f"salvaged {len(kept)} of 500 records" in out


@pytest.mark.parametrize("holding", ["events", "chain"])
def test_salvage_of_a_garbled_page_keeps_the_rest_and_prints_no_raw_bytes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], holding: str) -> None:
    """Noise over one leaf page: of the events table, the records on it are lost (named,
    exit 1); of the chain table, every record is kept (each hash gone is vouched for by
    the next one stored, computed across the records between)."""
    data = bytearray(_closed(tmp_path / "live", 500))
    size = int.from_bytes(data[16:18], "big")
    pages = [data[n * size:(n + 1) * size] for n in range(len(data) // size)]
    events = [n for n, page in enumerate(pages) if n > 2 and page[0] == 13   # table leaves
              and b'"pad"' in page]
    chain = [n for n, page in enumerate(pages) if n > 2 and page[0] == 13
             and b'"pad"' not in page and b"tick" not in page]
    number = (events if holding == "events" else chain)[1]
    for k in range(number * size + 30, (number + 1) * size):
        data[k] = (k * 7919 + 27) % 256
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / LOG_NAME).write_bytes(bytes(data))
    code = main(["log", "salvage", "--data", str(tmp_path / "bad"),
                 str(tmp_path / "saved.sqlite3")])
    out = capsys.readouterr().out
    assert out.isascii() and "\x1b" not in out
    with EventLog.open(tmp_path / "saved.sqlite3") as saved:
        count = saved.count()
        assert saved.verify().intact
    if holding == "events":
        assert code == 1 and 450 < count < 500 and "lost record" in out
    else:
        assert code == 0 and count == 500 and "nothing lost" in out


def test_a_changed_record_is_named_escaped_never_as_raw_text(tmp_path: Path) -> None:
    with _filled(tmp_path / "live", 10):
        pass
    raw = sqlite3.connect(tmp_path / "live" / LOG_NAME)
    raw.execute("DROP TRIGGER events_no_update")
    raw.execute("UPDATE events SET event_id = 'x\x1b[2J\x07é' WHERE position = 4")
    raw.commit()
    raw.close()
    done = salvage(tmp_path / "live", tmp_path / "saved.sqlite3")
    text = "\n".join(done.lines())
    assert [p for p, _ in done.lost] == [4] and text.isascii()
    assert "\\x1b[2J\\x07\\xe9" in text and not done.complete


def test_verify_notices_a_wal_mode_log_without_its_wal_and_head(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _closed(tmp_path / "live", 20)
    (tmp_path / "alone").mkdir()
    shutil.copyfile(tmp_path / "live" / LOG_NAME, tmp_path / "alone" / LOG_NAME)
    assert main(["log", "verify", "--data", str(tmp_path / "alone")]) == 1
    out = capsys.readouterr().out
    assert "neither events.sqlite3-wal nor events.sqlite3.head" in out
    assert main(["log", "verify", "--data", str(tmp_path / "live")]) == 0   # head beside it
    done = backup(tmp_path / "live", tmp_path / "copy" / LOG_NAME)   # one file, no WAL mode
    assert done.records == 20
    assert main(["log", "verify", "--data", str(tmp_path / "copy")]) == 0


def test_a_backup_or_salvage_into_a_folder_of_other_things_leaves_them_as_they_were(
        tmp_path: Path) -> None:
    # A club's volunteer backed up into a folder of other files (a home, a deploy directory
    # with its public ca.crt): the backup is made private (it holds the deals), but the
    # folder and its other files keep their modes; only a hub's data directory is the hub's.
    import stat
    with _filled(tmp_path / "live", 20):
        shelf = tmp_path / "shelf"
        (shelf / "sub").mkdir(parents=True)
        (shelf / "ca.crt").write_text("public")
        (shelf / "sub" / "notes.txt").write_text("mine")
        for path, mode in ((shelf, 0o755), (shelf / "sub", 0o755), (shelf / "ca.crt", 0o644),
                           (shelf / "sub" / "notes.txt", 0o644)):
            path.chmod(mode)
        backup(tmp_path / "live", shelf / "monday.sqlite3")
        salvage(tmp_path / "live", shelf / "salvaged.sqlite3")
    assert diagnose(shelf / "monday.sqlite3").sound
    for path, mode in ((shelf, 0o755), (shelf / "sub", 0o755), (shelf / "ca.crt", 0o644),
                       (shelf / "sub" / "notes.txt", 0o644)):
        assert stat.S_IMODE(path.stat().st_mode) == mode, path
    for copy in ("monday.sqlite3", "salvaged.sqlite3"):
        assert stat.S_IMODE((shelf / copy).stat().st_mode) == 0o600, copy
