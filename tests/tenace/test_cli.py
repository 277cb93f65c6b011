"""The tenace command: check, deal, convert and analyse, run as a user runs them."""

import json
import subprocess
import sys

import pytest

from tenace.cli import main


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tenace", *args], capture_output=True,
                          text=True, timeout=120)


def test_check_json_lines_one_object_per_board_in_file_order(realdata):
    path = realdata / "pbn-play" / "bbo_tourney_1538_2013_pbntools_claims.pbn"
    done = run("check", str(path), "--json")
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(lines) == 57
    first = lines[0]
    assert set(first) >= {"board", "contract", "declarer", "tricks", "tricks_rectified",
                          "score_ns", "irregularities"}
    assert first["board"] == 1 and first["contract"] == "5CX" and first["declarer"] == "E"
    assert first["tricks"] == 10 and first["tricks_rectified"] == 10
    assert first["score_ns"] == 100  # 5CX one down, not vulnerable (Law 77)
    assert first["irregularities"] == []


def test_check_human_output_and_edition_flag(realdata, capsys):
    path = realdata / "pbn-play" / "eyc1998_vienna_partial_play.pbn"
    assert main(["check", str(path), "--edition", "1997"]) == 0
    out = capsys.readouterr().out
    assert "Board 1" in out and "2 boards read" in out


TRICK_12_REVOKE = """[Event "?"]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:AKQJT98765432... .AKQJT9876543.2. ..AKQJT9876543.2 .2..AKQJT9876543"]
[Declarer "S"]
[Contract "3NT"]
[Result "0"]
[Auction "N"]
Pass Pass 3NT Pass
Pass Pass
[Play "W"]
CA SA HA C2
CK SK HK DA
CQ SQ HQ DK
CJ SJ HJ DQ
CT ST HT DJ
C9 S9 H9 DT
C8 S8 H8 D9
C7 S7 H7 D8
C6 S6 H6 D7
C5 S5 H5 D6
C4 S4 H4 D5
H2 S3 D2 D4
C3 S2 H3 D3
*
"""


@pytest.mark.parametrize("edition", ["1997", "2007", "2017"])
def test_check_law_62d1_a_trick_12_revoke_is_corrected_not_established(tmp_path, capsys,
                                                                      edition):
    """Laws 62D1, 64B6 (alike in 1997, 2007 and 2017): E revokes on trick 12 and plays to
    trick 13; ``tenace check`` reports it not established, to be corrected, no transfer."""
    path = tmp_path / "t12.pbn"
    path.write_text(TRICK_12_REVOKE, encoding="utf-8")
    assert main(["check", str(path), "--json", "--edition", edition]) == 0
    (line,) = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    (revoke,) = line["irregularities"]
    assert (revoke["kind"], revoke["law"], revoke["trick"]) == ("revoke", "64B6", 12)
    assert revoke["established"] is False and revoke["transfer"] == 0
    assert revoke["options"][0]["law"] == "62D1" and "62D1" in revoke["detail"]
    assert line["tricks_rectified"] == line["tricks"] == 0


def test_check_unreadable_file_exits_2_with_one_line(tmp_path):
    missing = tmp_path / "nope.pbn"
    done = run("check", str(missing))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "nope.pbn" in done.stderr


def test_deal_with_seed_reproduces_bigdeal(tmp_path):
    out = tmp_path / "b.dlm"
    done = run("deal", "--boards", "1-4", "--seed", "0123456789ABCDEF0123456789ABCDEF01234567",
               "--owner", "Test Owner", "--format", "dlm", "-o", str(out))
    assert done.returncode == 0, done.stderr
    text = out.read_text("latin-1")
    for line in ("Board 01=jkpfogpdpagiejedokjebajmnm023",
                 "Board 02=mdmgoogkmofbfjndleaapfgdik019",
                 "Board 03=cjlohdbighggoanemlbmcgdmjh005",
                 "Board 04=poeldadbfdkgnjlooenegjeaoi022"):
        assert line in text


def test_deal_secure_pbn_has_law_2_dealer_and_vulnerability(tmp_path):
    out = tmp_path / "s.pbn"
    assert main(["deal", "--boards", "17-20", "-o", str(out)]) == 0
    text = out.read_text("latin-1")
    assert text.count('[Board "') == 4
    assert '[Board "18"]' in text and '[Dealer "E"]' in text and '[Vulnerable "NS"]' in text


@pytest.mark.parametrize("bad", ["0-3", "x", "5-2"])
def test_deal_rejects_bad_board_range(bad, capsys):
    assert main(["deal", "--boards", bad]) == 2
    assert "--boards" in capsys.readouterr().err


def test_convert_pbn_to_dlm_and_back(tmp_path, realdata):
    src = realdata / "dealfiles" / "dealconvert_16boards.pbn"
    dlm = tmp_path / "x.dlm"
    back = tmp_path / "x.pbn"
    assert main(["convert", str(src), str(dlm)]) == 0
    assert main(["convert", str(dlm), str(back)]) == 0
    from bridgecore.pbn import read_pbn
    original = {r.board: r.deal for r in read_pbn(src.read_bytes()).records}
    again = {r.board: r.deal for r in read_pbn(back.read_bytes()).records}
    assert again == original and len(again) == 16


def test_analyse_adds_double_dummy_matching_bridgecomposer(tmp_path, realdata):
    """The DD tables written by BridgeComposer were checked against DDS (SOURCES.md)."""
    src = realdata / "pbn-handrecords" / "bridgecomposer557_bkp_club_dd.pbn"
    out = tmp_path / "dd.pbn"
    assert main(["analyse", str(src), "-o", str(out)]) == 0
    from bridgecore.pbn import read_pbn
    theirs = read_pbn(src.read_bytes()).records
    ours = read_pbn(out.read_bytes()).records
    assert len(ours) == len(theirs) == 15
    for a, b in zip(theirs, ours, strict=True):
        assert b.tags["DoubleDummyTricks"].lower() == a.tags["DoubleDummyTricks"].lower()
        assert _ns_score(b.tags["OptimumScore"]) == _ns_score(a.tags["OptimumScore"])


def _ns_score(text: str) -> int:
    side, value = text.split()
    return int(value) if side == "NS" else -int(value)


def test_devices_dealer_export_through_the_tenace_command(tmp_path, realdata, capsys):
    """`tenace devices` is wired: the dealing machine's file is the hand record's deals."""
    src = realdata / "dealfiles" / "dealconvert_16boards.pbn"
    dlm = tmp_path / "session.dlm"
    back = tmp_path / "back.pbn"
    assert main(["devices", "dealer", "export", "--boards", str(src), "-o", str(dlm)]) == 0
    assert "16 boards" in capsys.readouterr().out
    assert main(["convert", str(dlm), str(back)]) == 0
    from bridgecore.pbn import read_pbn
    original = {r.board: r.deal for r in read_pbn(src.read_bytes()).records}
    assert {r.board: r.deal for r in read_pbn(back.read_bytes()).records} == original


def test_devices_without_a_job_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["devices"])
    assert exit_.value.code == 2 and "JOB" in capsys.readouterr().err


def test_log_verify_exits_0_intact_1_broken_2_unreadable(tmp_path, capsys):
    import sqlite3

    from hub.log_records import Record
    from hub.store import LOG_NAME, EventLog
    data = tmp_path / "data"
    with EventLog.open(data / LOG_NAME) as log:
        for n in range(5):
            log.append(Record.fact("tick", {"n": n}, hub_time=1000.0 + n))
        _, digest = log.head()
    assert main(["log", "verify", "--data", str(data)]) == 0
    assert f"intact: 5 records, head 5:{digest}" in capsys.readouterr().out
    assert main(["log", "verify", "--data", str(data), "--head", f"5:{digest}"]) == 0
    assert main(["log", "verify", "--data", str(data), "--head", f"6:{digest}"]) == 1
    assert "BROKEN at position 6" in capsys.readouterr().out
    raw = sqlite3.connect(data / LOG_NAME)
    raw.execute("DROP TRIGGER events_no_update")
    raw.execute("""UPDATE events SET payload = '{"n":9}' WHERE position = 3""")
    raw.commit()
    raw.close()
    done = run("log", "verify", "--data", str(data))
    assert done.returncode == 1, done.stderr
    assert "BROKEN at position 3" in done.stdout and "does not match its hash" in done.stdout
    assert main(["log", "verify", "--data", str(tmp_path / "none")]) == 2
    assert "no event log" in capsys.readouterr().err
    assert not (tmp_path / "none").exists()          # verifying creates nothing
    assert main(["log", "verify", "--data", str(data), "--head", "5:xyz"]) == 2


def test_tenace_hub_quick_set_up_takes_the_events_language():
    """``tenace hub --tables 3 --language it``: the quick section's results files are in
    Italian (docs/translating.md); an unknown language is a clear error naming the choices."""
    from tenace.cli import _parser
    from tenace.commands import CommandError
    from tenace.live import setup_from_args

    parser = _parser()
    setup = setup_from_args(parser.parse_args(["hub", "--tables", "3", "--language", "it"]))
    assert setup.language == "it" and setup.build_room().language == "it"
    assert setup_from_args(parser.parse_args(["hub", "--tables", "3"])).language == ""
    with pytest.raises(CommandError, match=r"event\.language.*fr"):
        setup_from_args(parser.parse_args(["hub", "--tables", "3", "--language", "xx"]))
