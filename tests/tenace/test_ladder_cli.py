"""``tenace ladder --data DIR`` (tenace/ladder_cli.py): the club's ladder printed from a
hub's data directory, in the club's form as kept, read only.

The log is tests/hub/test_series_history.py's: one 3-table evening a hub played before it
stored its sessions (found by replaying it), worked by hand there: Ann Archer and Bob Baker
58.33%, the pair of Jo Jones and Kit King 75%; two members named Cid Cole (21 and 22)
played it without a number, in pairs 2 and 3, and the director said pair 2's was 22.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hub.log_records import Record
from hub.series_ladder import LADDER_FORM, LADDER_PLAYER
from hub.series_replay import CACHE_NAME
from hub.setup_facts import SETUP_REPLACED
from hub.store import LOG_NAME, EventLog
from tenace.cli import main
from tests.hub.test_series_history import ROSTER_CSV, write_old_log


def test_the_ladder_from_the_command_line_in_the_club_s_form(
        tmp_path: Path, capsys: Any) -> None:
    data = tmp_path / "data"
    write_old_log(data / LOG_NAME)
    (data / "roster.csv").write_text(ROSTER_CSV, encoding="utf-8")
    with EventLog.open(data / LOG_NAME) as log:
        closed = log.of_type(SETUP_REPLACED)[0].position
        log.append_many([
            Record.fact(LADDER_FORM, {"v": 1, "best": 3, "min": 2, "from": "2026-09-01",
                                      "to": "", "account": "dora"}, source="director"),
            Record.fact(LADDER_PLAYER, {"v": 1, "session": closed, "section": "A",
                                        "pair": 2, "name": "Cid Cole", "member": 22,
                                        "account": "dora"}, source="director")])
        before = log.head()
    assert main(["ladder", "--data", str(data)]) == 0
    kept = capsys.readouterr().out.splitlines()
    assert main(["ladder", "--data", str(data), "--min", "1", "--best", "0", "--json"]) == 0
    chosen = json.loads(capsys.readouterr().out)
    assert main(["ladder", "--data", str(tmp_path / "none")]) == 2
    refused = capsys.readouterr().err
    assert main(["ladder", "--data", str(data), "--from", "1/9/2026"]) == 2
    bad_date = capsys.readouterr().err
    with EventLog.open(data / LOG_NAME) as log:
        assert log.head() == before          # read only
    assert not (data / CACHE_NAME).exists()   # what it replayed is not kept: no hub's cache
    assert kept[0] == ("Club ladder: best 3 sessions, ranked from 2 played, from 2026-09-01;"
                       " sessions: 1 (1 found by replaying the log)")
    # one session, a minimum of 2: nobody ranked yet, every player listed apart, by name
    assert kept[1].split() == ["-", "Ann", "Archer", "(11)", "1", "played", "1", "counted",
                               "58.33%"]
    assert any(line.split()[:4] == ["-", "Cid", "Cole", "(22)"] and "41.67%" in line
               for line in kept)
    assert any(line.split()[:4] == ["-", "Cid", "Cole", "(?)"] and "50.00%" in line
               for line in kept)
    assert kept[-1] == ("(?) Cid Cole: not told apart (members 21, 22): 2026-11-02 section A "
                        "pair 3")
    assert (chosen["best"], chosen["minimum"], chosen["since"]) == (None, 1, "2026-09-01")
    assert chosen["kept"] == {"best": 3, "min": 2, "from": "2026-09-01", "to": ""}
    assert [(e["player"], e["rank"], e["percent"]) for e in chosen["ranking"]][:2] == [
        ("Jo Jones", 1, 75.0), ("Kit King", 1, 75.0)]
    assert "no event log" in refused and "from: a date YYYY-MM-DD" in bad_date


def test_earlier_data_directories_imported_once_never_written(
        tmp_path: Path, capsys: Any) -> None:
    """A club that used a data directory an evening: ``--import`` stores each old log's
    sessions in the hub's log (one closed by a next set-up, one the last of its log), the
    old logs left as they were; importing again stores nothing; the hub's own directory is
    refused. Ann Archer then has two evenings of 58.33% (the evening worked by hand)."""
    from hub.event import setup_from_json
    from hub.series import SESSION_SCORED, SessionBook
    from hub.setup_facts import SETUP_FACT
    from tests.hub.test_series_history import evening_setup

    old_1, old_2, data = tmp_path / "sept", tmp_path / "oct", tmp_path / "data"
    write_old_log(old_1 / LOG_NAME, "2026-09-07")                  # closed by a next set-up
    write_old_log(old_2 / LOG_NAME, "2026-10-05", close=False)     # its log's last session
    with EventLog.open(data / LOG_NAME) as log:                    # the hub's new directory
        log.append(Record.fact(SETUP_FACT, evening_setup("2026-11-02", "Now").to_json()))
    heads = []
    for folder in (old_1, old_2):
        with EventLog.open(folder / LOG_NAME) as log:
            heads.append(log.head())
    args = ["ladder", "--data", str(data), "--import", str(old_1), "--import", str(old_2),
            "--json"]
    assert main(args) == 0
    first = capsys.readouterr()
    assert main(args) == 0
    again = capsys.readouterr()
    assert main(["ladder", "--data", str(data), "--import", str(data)]) == 2
    own = capsys.readouterr().err
    for folder, head in zip((old_1, old_2), heads, strict=True):
        with EventLog.open(folder / LOG_NAME) as log:
            assert log.head() == head and log.of_type(SESSION_SCORED) == []
    with EventLog.open(data / LOG_NAME) as log:
        stored = SessionBook(log, setup_from_json).sessions()
        facts = log.of_type(SESSION_SCORED)
    assert first.err.splitlines() == [f"{old_1}: 2026-09-07 Monday pairs First evening: "
                                      "imported",
                                      f"{old_2}: 2026-10-05 Monday pairs First evening: "
                                      "imported"]
    assert again.err.count("imported before") == 2 and len(facts) == 2
    assert [(s.date, s.replayed) for s in stored] == [("2026-09-07", False),
                                                      ("2026-10-05", False)]
    assert facts[0].data()["imported"]["from"] == str(old_1)
    ladder = json.loads(first.out)
    got = {e["player"]: (e["percent"], e["played"]) for e in ladder["ranking"]}
    assert got["Ann Archer"] == (58.33, 2) and got["Jo Jones"] == (75.0, 2)
    assert "this is the hub's own log" in own
