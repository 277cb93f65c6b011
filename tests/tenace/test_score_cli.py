"""``tenace score``: golden cases worked out by hand for the conventions of issue 6, the
published results of tests/data/realdata/pbn-results reproduced through ``--json``, bad
input, and exports read back by the command itself."""

import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from bridgecore.pbn import read_pbn
from tenace.cli import main

COLUMNS = "PairId_NS;PairId_EW;Contract;Declarer;Result;Score_NS;Score_EW"


def results_file(tmp_path, boards, name="event.pbn"):
    """A PBN file with a ScoreTable per board; lines are (ns, ew, contract, declarer,
    tricks) or (ns, ew, score_ns). Boards 1 and 2: nobody and North-South vulnerable."""
    games = []
    for board, lines in boards.items():
        rows = []
        for line in lines:
            if len(line) == 3:
                ns, ew, score = line
                rows.append(f"{ns} {ew} - - - {score if score >= 0 else '-'} "
                            f"{-score if score < 0 else '-'}")
            else:
                rows.append(" ".join(map(str, line)) + " - -")
        games.append(f'[Event "Golden"]\n[Board "{board}"]\n[ScoreTable "{COLUMNS}"]\n'
                     + "\n".join(rows) + "\n")
    path = tmp_path / name
    path.write_text("\n".join(games))
    return path


def score(capsys, *args):
    code = main(["score", *map(str, args), "--json"])
    out = capsys.readouterr()
    return code, json.loads(out.out), out.err


def ranking(data):
    return [(p["pair"], p["direction"], p["total"], p["percent"], p["rank"])
            for p in data["ranking"]]


def points(data):
    return {(b["board"], r["ns"], r["ew"]): (r["ns_points"], r["ew_points"])
            for b in data["boards"] for r in b["results"]}


# Golden cases, worked out by hand ------------------------------------------------------------

THREE_TABLES = {1: [(1, 4, "4S", "N", 10), (2, 5, "4S", "N", 11), (3, 6, "4S", "N", 9)],
                2: [(1, 5, "3NT", "N", 9), (2, 6, "3NT", "N", 9), (3, 4, "4H", "S", 10)]}


def test_law_78a_three_tables_by_hand_top_n_minus_1_two_winner(tmp_path, capsys):
    """Board 1 (none vulnerable): 420, 450, -50; board 2 (NS): 600, 600, 620.
    NS 450 beats both (2), 420 one (1), -50 none (0); the two 600s tie (1/2 + 0 = 0.5).
    Percent: total over 2 boards x top 2; no pair sits both ways: two winners."""
    code, data, err = score(capsys, results_file(tmp_path, THREE_TABLES))
    assert code == 0 and err == "" and data["problems"] == []
    assert data["boards"][0] == {"board": 1, "results": [
        {"ns": 1, "ew": 4, "score_ns": 420, "ns_points": 1.0, "ew_points": 1.0},
        {"ns": 2, "ew": 5, "score_ns": 450, "ns_points": 2.0, "ew_points": 0.0},
        {"ns": 3, "ew": 6, "score_ns": -50, "ns_points": 0.0, "ew_points": 2.0}]}
    assert points(data)[(2, 1, 5)] == (0.5, 1.5) and points(data)[(2, 3, 4)] == (2.0, 0.0)
    assert ranking(data) == [(2, "NS", 2.5, 62.5, 1), (3, "NS", 2.0, 50.0, 2),
                             (1, "NS", 1.5, 37.5, 3), (6, "EW", 3.5, 87.5, 1),
                             (5, "EW", 1.5, 37.5, 2), (4, "EW", 1.0, 25.0, 3)]


def test_law_78a_the_same_tables_as_one_game_record_each(tmp_path, capsys):
    games = [f'[Board "{b}"]\n[PairNS "{ns}"]\n[PairEW "{ew}"]\n[Declarer "{d}"]\n'
             f'[Contract "{c}"]\n[Result "{t}"]\n'
             for b, lines in THREE_TABLES.items() for ns, ew, c, d, t in lines]
    records = tmp_path / "tables.pbn"
    records.write_text("\n".join(games))
    _, by_records, _ = score(capsys, records)
    _, by_table, _ = score(capsys, results_file(tmp_path, THREE_TABLES))
    assert by_records == by_table


def test_ties_share_a_rank_and_the_next_is_skipped(tmp_path, capsys):
    """420 beats three (3); the two 170s beat one and tie (1.5); -50 none: 1, 2, 2, 4."""
    path = results_file(tmp_path, {1: [(1, 5, 420), (2, 6, 170), (3, 7, 170), (4, 8, -50)]})
    _, data, _ = score(capsys, path)
    assert [(p[0], p[2], p[4]) for p in ranking(data) if p[1] == "NS"] == [
        (1, 3.0, 1), (2, 1.5, 2), (3, 1.5, 2), (4, 0.0, 4)]
    assert [(p[0], p[4]) for p in ranking(data) if p[1] == "EW"] == [(8, 1), (6, 2), (7, 2),
                                                                     (5, 4)]


def test_neuberg_for_a_board_with_fewer_results_and_percent_over_boards_played(tmp_path,
                                                                                 capsys):
    """Board 2 has 2 results where board 1 has 3: (M + 1/2) x 3/2 - 1/2, so 1 -> 1.75 and
    0 -> 0.25. Pair 3 and pair 6 did not play it: their percent is over one top of 2."""
    path = results_file(tmp_path, {1: [(1, 4, 420), (2, 5, 450), (3, 6, -50)],
                                   2: [(1, 5, 620), (2, 4, 650)]})
    _, data, _ = score(capsys, path)
    assert points(data)[(2, 1, 5)] == (0.25, 1.75) and points(data)[(2, 2, 4)] == (1.75, 0.25)
    assert ranking(data) == [(2, "NS", 3.75, 93.75, 1), (1, "NS", 1.25, 31.25, 2),
                             (3, "NS", 0.0, 0.0, 3), (6, "EW", 2.0, 100.0, 1),
                             (5, "EW", 1.75, 43.75, 2), (4, "EW", 1.25, 31.25, 3)]


def test_conventions_ebu_two_units_and_neuberg_to_a_tenth_acbl_to_a_hundredth(tmp_path,
                                                                              capsys):
    """``--conventions``: board 2 has 2 results of 3. EBU (two units a score beaten, top
    4): (M + 1)·3/2 - 1 = 3.5 and 0.5, a tenth already. ACBL (one unit, top 2): (M + 1/2)
    ·3/2 - 1/2 = 1.75 and 0.25. ``--units`` still decides the scale when given."""
    path = results_file(tmp_path, {1: [(1, 4, 420), (2, 5, 450), (3, 6, -50)],
                                   2: [(1, 5, 620), (2, 4, 650)]})
    _, data, _ = score(capsys, path, "--conventions", "ebu")
    assert points(data)[(2, 2, 4)] == (3.5, 0.5) and points(data)[(1, 2, 5)] == (4.0, 0.0)
    _, data, _ = score(capsys, path, "--conventions", "acbl")
    assert points(data)[(2, 2, 4)] == (1.75, 0.25)
    _, data, _ = score(capsys, path, "--conventions", "ebu", "--units", "1")
    assert points(data)[(1, 2, 5)] == (2.0, 0.0)


FOUR = {1: [(1, 5, 420), (2, 6, 450), (3, 7, -50), (4, 8, 170)]}


def test_law_78b_butler_datum_mean_to_the_nearest_10_trimming_optional(tmp_path, capsys):
    """Mean 990/4 = 247.5 -> datum 250: 170 -> 5, 200 -> 5, -300 -> -7, -80 -> -2 IMPs.
    Trimming the top and bottom: (420 + 170)/2 = 295 -> 300: 3, 4, -8, -4."""
    path = results_file(tmp_path, FOUR)
    _, data, _ = score(capsys, path, "--method", "butler")
    assert [points(data)[(1, ns, ew)] for ns, ew, _ in FOUR[1]] == [
        (5.0, -5.0), (5.0, -5.0), (-7.0, 7.0), (-2.0, 2.0)]
    assert ranking(data)[:4] == [(1, "NS", 5.0, None, 1), (2, "NS", 5.0, None, 1),
                                 (4, "NS", -2.0, None, 3), (3, "NS", -7.0, None, 4)]
    _, trimmed, _ = score(capsys, path, "--method", "butler", "--butler-trim", "1")
    assert [points(trimmed)[(1, ns, ew)][0] for ns, ew, _ in FOUR[1]] == [3.0, 4.0, -8.0,
                                                                           -4.0]


def test_law_78b_cross_imps_against_every_other_result_divided_by_n_minus_1(tmp_path, capsys):
    """420: -1 + 10 + 6 = 15 -> 5; 450: 1 + 11 + 7 = 19 -> 6.33; -50: -10 - 11 - 6 -> -9;
    170: -6 - 7 + 6 = -7 -> -2.33."""
    path = results_file(tmp_path, FOUR)
    _, data, _ = score(capsys, path, "--method", "crossimp")
    assert [points(data)[(1, ns, ew)][0] for ns, ew, _ in FOUR[1]] == [5.0, 6.33, -9.0, -2.33]
    _, total, _ = score(capsys, path, "--method", "crossimp", "--cross-imps", "total")
    assert [points(total)[(1, ns, ew)][0] for ns, ew, _ in FOUR[1]] == [15.0, 19.0, -27.0,
                                                                         -7.0]


def test_one_winner_when_a_pair_sits_both_ways(tmp_path, capsys):
    """Pairs 1 and 2 swap directions on board 2: one field, direction null.
    1: 0 + 1, 2: 1 + 1, 3: 1 + 0, 4: 0 + 0, so 2 first, 1 and 3 share second, 4 fourth."""
    path = results_file(tmp_path, {1: [(1, 2, 420), (3, 4, 450)],
                                   2: [(4, 1, 620), (2, 3, 650)]})
    _, data, _ = score(capsys, path)
    assert ranking(data) == [(2, None, 2.0, 100.0, 1), (1, None, 1.0, 50.0, 2),
                             (3, None, 1.0, 50.0, 2), (4, None, 0.0, 0.0, 4)]


def test_readable_table_rankings_then_boards(tmp_path, capsys):
    assert main(["score", str(results_file(tmp_path, THREE_TABLES))]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Ranking: matchpoints, top n-1\nNorth-South\n")
    assert "East-West" in out and "\nBoard 2\n" in out
    assert re.search(r"\n\s+1\s+2\s+2\.50\s+62\.50\s+2\n", out)


# Bad input ---------------------------------------------------------------------------------

BAD = {1: [(1, 5, "4S", "N", 10), (2, 6, "4S", "N", 11), (3, 7, "4S", "N", 10, "450 -"),
           (1, 8, "4S", "N", 9)],
       2: [(1, 5, "3NT", "N", 9), (2, 6, "2Q", "N", 9)]}


def bad_file(tmp_path):
    games = []
    for board, lines in BAD.items():
        rows = [" ".join(map(str, line)) + ("" if len(line) == 6 else " - -") for line in lines]
        games.append(f'[Board "{board}"]\n[ScoreTable "{COLUMNS}"]\n' + "\n".join(rows) + "\n")
    games.append('[Board "2"]\n[ScoreTable "PairId_NS;PairId_EW;Score_NS"]\n3 7 600 x\n')
    path = tmp_path / "bad.pbn"
    path.write_text("\n".join(games))
    return path


def test_bad_input_named_by_board_and_the_rest_of_the_event_scores(tmp_path, capsys):
    """An impossible score for the contract, a pair playing a board twice, a line that is
    not a contract, a malformed line and a ruling on a board that does not exist."""
    rulings = tmp_path / "rulings.csv"
    rulings.write_text("board,ns,ew,score_ns,adjustment\n9,1,5,420,\n2,1,5,,A+ A-\n")
    code, data, err = score(capsys, bad_file(tmp_path), "--rulings", rulings)
    assert code == 0
    problems = data["problems"]
    assert [p.split(": ", 1)[1] for p in problems] == [
        "board 1: ScoreTable line 3 (3 v 7): impossible score 450 for 4S by N with 10 tricks "
        "(Law 77 gives 420 when vulnerability is None)",
        "board 2: ScoreTable line 2 (2 v 6): not a contract: '2Q'",
        "board 2: ScoreTable line 1 is malformed: 4 values for 3 columns ('3 7 600 x')",
        "ruling for 1 v 5 on board 9: the event has no such board",
        "board 1: 1 plays the board twice: 1 v 8 is not scored"]
    assert all(p.startswith(str(tmp_path)) for p in problems)
    assert err.splitlines() == [f"problem: {p}" for p in problems]
    # board 2 keeps the ruling alone: Law 12C2 60% / 40% of a top of 1 (E = 2)
    assert points(data) == {(1, 1, 5): (0.0, 1.0), (1, 2, 6): (1.0, 0.0),
                            (2, 1, 5): (0.6, 0.4)}


def test_nothing_scorable_exits_1_and_an_unreadable_file_2(tmp_path, capsys):
    path = results_file(tmp_path, {1: [(1, 5, "4S", "N", "x")]})
    assert main(["score", str(path)]) == 1
    assert "not a result: 'x'" in capsys.readouterr().err
    done = subprocess.run([sys.executable, "-m", "tenace", "score", str(tmp_path / "no.pbn")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "no.pbn" in done.stderr


# The published results in tests/data/realdata/pbn-results -----------------------------------

def test_magic_contest_published_matchpoints_totals_percentages_and_places(realdata, capsys):
    """MP1 units (--units 2) rounded to 0.1 as published (--digits 1): every MP_NS/MP_EW
    of the 30 ScoreTables, Neuberg and A+/A- included, and all 44 totals, percentages and
    places of the TotalScoreTable (one tie the source breaks)."""
    path = realdata / "pbn-results" / "magiccontest_ffb_dn1_2022_seance1.pbn"
    code, data, _ = score(capsys, path, "--units", "2", "--digits", "1")
    assert code == 0 and data["problems"] == []
    published, totals = {}, {}
    for record in read_pbn(path).records:
        table = record.tables["ScoreTable"]
        for ns, ew, mp_ns, mp_ew in zip(table.column("PairId_NS"), table.column("PairId_EW"),
                                        table.column("MP_NS"), table.column("MP_EW"),
                                        strict=True):
            published[(record.board, int(ns), int(ew))] = (float(mp_ns), float(mp_ew))
        if "TotalScoreTable" in record.tables:
            t = record.tables["TotalScoreTable"]
            totals = {int(p): (int(r), float(s), float(pc)) for p, r, s, pc in zip(
                t.column("PairId"), t.column("Rank"), t.column("TotalScoreMP"),
                t.column("TotalPercentage"), strict=True)}
    assert points(data) == published and len(published) == 660
    assert len(data["ranking"]) == 44
    for p in data["ranking"]:
        place, total, percent = totals[p["pair"]]
        assert (round(p["total"], 1), p["percent"]) == (total, percent)
        assert p["rank"] == place or (p["rank"], place) == (31, 32)
        assert p["direction"] is None


def test_bridgewebs_contracts_scored_as_brian_published_them(realdata, capsys):
    """The Bridgewebs file has contracts only; BriAn's USEBIO file of the same session has
    the figures: top 2(n-1) of each board's own results (--units 2 --no-neuberg), the
    adjusted A = 50%. All 144 board scores, 13 percentages and places (9= shared)."""
    code, data, _ = score(capsys, realdata / "pbn-results" / "bridgewebs_welwyn_2025-04-09.pbn",
                          "--units", "2", "--no-neuberg")
    assert code == 0
    root = ET.parse(realdata / "usebio" / "club_brian_welwyn_2025-04-09.xml").getroot()
    published = {(int(b.findtext("BOARD_NUMBER")), int(t.findtext("NS_PAIR_NUMBER")),
                  int(t.findtext("EW_PAIR_NUMBER"))): (float(t.findtext("NS_MATCH_POINTS")),
                                                       float(t.findtext("EW_MATCH_POINTS")))
                 for b in root.iter("BOARD") for t in b.findall("TRAVELLER_LINE")}
    assert points(data) == published
    places = {int(p.findtext("PAIR_NUMBER")): (p.findtext("PLACE"), float(p.findtext(
        "PERCENTAGE"))) for p in root.iter("PAIR")}
    assert len(data["ranking"]) == len(places) == 13
    for p in data["ranking"]:
        place, percent = places[p["pair"]]
        assert str(p["rank"]) == place.rstrip("=") and p["percent"] == round(percent, 2)


def test_realbridge_teams_every_published_score_imp(realdata, capsys):
    """Law 78B: IMPs from the file's Scoring; each table against the other table of its
    match (HomeTeam sits North-South) gives the record's ScoreIMP, 298 of 299; the match
    with one table is named."""
    path = realdata / "pbn-results" / "realbridge_2021_online_qual_open_r2_imps.pbn"
    code, data, _ = score(capsys, path)
    assert code == 0 and data["method"] == "imp"
    published = {}
    for record in read_pbn(path).records:
        m = re.fullmatch(r"NS (-?\d+) EW (-?\d+)", record.tags["ScoreIMP"])
        assert m is not None
        published[(record.board, f"{record.tags['HomeTeam']} NS",
                   f"{record.tags['VisitTeam']} EW")] = (float(m.group(1)), float(m.group(2)))
    ours = points(data)
    assert len(ours) == 298 and all(published[k] == v for k, v in ours.items())
    assert data["problems"] == [f"{path}: board 20: TURKEY NS v SWITZERLAND EW: no result at "
                                "the other table of TURKEY v SWITZERLAND"]
    assert len(data["ranking"]) == 30 and {p["direction"] for p in data["ranking"]} == {None}
    assert sum(p["total"] for p in data["ranking"]) == 0


def test_jfr_scores_from_contracts_by_hand(realdata, capsys):
    """No published scores: board 1 (none vulnerable) -50 x3, -100 x2, -140, -150 x2 on a
    top of 7: -50 beats 5 and ties 2 (6), -100 3.5, -140 2, -150 0.5. Board 10 (all
    vulnerable): 1NT by E down one is +100, 2NT by E down three +300, passed out 0."""
    path = realdata / "pbn-results" / "jfr_pary_barometr_2012-08-02_pbntools.pbn"
    code, data, _ = score(capsys, path)
    assert code == 0 and data["problems"] == []
    assert sum(len(b["results"]) for b in data["boards"]) == 216
    board_1 = {r["ns"]: (r["score_ns"], r["ns_points"]) for r in data["boards"][0]["results"]}
    assert board_1 == {"Para-1": (-50, 6.0), "Para-3": (-100, 3.5), "Para-5": (-100, 3.5),
                       "Para-7": (-140, 2.0), "Para-9": (-50, 6.0), "Para-11": (-150, 0.5),
                       "Para-13": (-150, 0.5), "Para-15": (-50, 6.0)}
    board_10 = sorted((r["score_ns"], r["ns_points"]) for r in data["boards"][9]["results"])
    assert board_10 == [(-130, 0.0), (0, 1.5), (0, 1.5), (100, 4.5), (100, 4.5), (100, 4.5),
                        (100, 4.5), (300, 7.0)]
    assert {p["direction"] for p in data["ranking"]} == {None}  # a barometer: both ways


# Exports ---------------------------------------------------------------------------------------

@pytest.mark.parametrize(("kind", "suffix"), [("pbn", ".pbn"), ("usebio", ".xml"),
                                              ("csv", ".csv")])
def test_export_then_score_the_export_gives_the_same_event(tmp_path, capsys, kind, suffix):
    source = results_file(tmp_path, THREE_TABLES)
    out = tmp_path / f"out{suffix}"
    assert main(["score", str(source), "--export", kind, "-o", str(out)]) == 0
    assert capsys.readouterr().out == f"{out}: {kind}, 6 results on 2 boards, 6 ranked\n"
    _, before, _ = score(capsys, source)
    _, after, _ = score(capsys, out)
    assert after == before


def test_export_to_standard_output(tmp_path, capsys):
    assert main(["score", str(results_file(tmp_path, THREE_TABLES)), "--export", "csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("board,ns,ew,contract,declarer,tricks,lead,score_ns")
    assert lines[1] == "1,1,4,4S,N,10,,420,,1,1,,"


def test_law_78b_a_csv_with_teams_is_a_team_match(tmp_path, capsys):
    """Team A (pairs 1, 4) v team B (2, 3): 420 and 170 on board 1 is 250, 6 IMPs to A."""
    path = tmp_path / "match.csv"
    path.write_text("board,ns,ew,score_ns,team_ns,team_ew\n1,1,2,420,A,B\n1,3,4,170,B,A\n")
    _, data, _ = score(capsys, path)
    assert data["method"] == "imp"
    assert ranking(data) == [("A", None, 6.0, None, 1), ("B", None, -6.0, None, 2)]


def _session_csv(path, scores):
    """A results CSV of North-South pairs 1-3 against East-West 4-6 (1 v 4, 2 v 5, 3 v 6)."""
    lines = ["board,ns,ew,score_ns"]
    for board, row in scores.items():
        lines += [f"{board},{ns},{ns + 3},{score}" for ns, score in enumerate(row, 1)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_score_adds_sessions_up_and_carries_a_qualifying_over(tmp_path, capsys):
    """The figures of tests/bridgecore/test_sessions.py by the command line: session 1
    37.5/62.5/50%, session 2 62.5/43.75/43.75%; added up by boards, pair 1 54.17%; as a
    final with half of session 1 carried over, pair 1 62.5 - 6.25 = 56.25%."""
    one = _session_csv(tmp_path / "one.csv", {1: [420, 450, -50], 2: [100, 100, 200]})
    two = _session_csv(tmp_path / "two.csv", {3: [600, 100, 100], 4: [100] * 3,
                                              5: [100] * 3, 6: [100] * 3})
    code, data, _ = score(capsys, one, "--add", two)
    assert code == 0
    event = {e["pair"]: e for e in data["event"]}
    assert (event[1]["percent"], event[1]["sessions"], event[1]["rank"]) == (
        54.17, [37.5, 62.5], 1)
    assert event[2]["percent"] == 50.0 and event[3]["percent"] == 45.83
    code, data, _ = score(capsys, two, "--carry-from", one, "--carry", "0.5")
    final = {e["pair"]: e for e in data["event"]}
    assert (final[1]["percent"], final[1]["carry"]) == (56.25, -6.25)
    assert final[2]["percent"] == 50.0
    main(["score", str(one), "--add", str(two)])
    table = capsys.readouterr().out
    assert "Event of 2 session(s)" in table and " 54.17%" in table
    # by place, 3 points to the first: the six finalists ranked by their qualifying
    # percentage in one list, 2 and 4 (62.5) first, 3 and 6 (50) third, 1 and 5 (37.5)
    # fifth: 3·(6 − place)/5 = 3, 1.8 and 0.6 points
    code, data, _ = score(capsys, two, "--carry-from", one, "--carry", "3",
                          "--carry-form", "place")
    placed = {e["pair"]: (e["carry"], e["percent"]) for e in data["event"]}
    assert code == 0 and placed[1] == (0.6, 63.1) and placed[2] == (3.0, 46.75)
    assert placed[3] == (1.8, 45.55) and placed[5] == (0.6, 56.85)
