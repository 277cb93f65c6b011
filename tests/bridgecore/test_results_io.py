"""Results files in and out (issue 6): PBN ScoreTables and per-table records, CSV, USEBIO.

Real files are read from tests/data/realdata (SOURCES.md describes each). Exports are
read back and scored again: the same results and the same ranking. The USEBIO writer is
checked against the structure of the real USEBIO files (every parent-child element pair
it writes is one a real file has) and formats.md §2.
"""

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bridgecore.adjusted import (
    Artificial,
    ArtificialScore,
    Assigned,
    BoardResult,
    Split,
    Weighted,
)
from bridgecore.calls import Contract
from bridgecore.cards import Seat
from bridgecore.errors import FormatError
from bridgecore.ranking import EventScore, Method, ScoringOptions, score_event
from bridgecore.results_io import (
    ResultsFile,
    TableResult,
    format_adjustment,
    method_of,
    parse_adjustment,
    read_pbn_results,
    read_results_csv,
    write_results_csv,
    write_results_pbn,
)
from bridgecore.usebio import read_usebio, write_usebio
from tests.conftest import REALDATA

PLUS, AVERAGE, MINUS = (ArtificialScore.AVERAGE_PLUS, ArtificialScore.AVERAGE,
                        ArtificialScore.AVERAGE_MINUS)
FILES = {"bridgewebs_welwyn_2025-04-09.pbn": (144, 24, 0),
         "jfr_pary_barometr_2012-08-02_pbntools.pbn": (216, 27, 0),
         "magiccontest_ffb_dn1_2022_seance1.pbn": (660, 30, 44),
         "realbridge_2021_online_qual_open_r2_imps.pbn": (299, 10, 0)}


def load(realdata: Path, name: str) -> ResultsFile:
    return read_pbn_results(realdata / "pbn-results" / name)


def scored(source: ResultsFile, method: Method | None = None) -> EventScore:
    how = method or method_of(source.scoring)[0] or Method.MATCHPOINTS
    return score_event(source.results, how, options=ScoringOptions(
        teams=source.teams if how is Method.IMPS else None))


def results_key(results):
    return sorted(repr((r.board, r.ns, r.ew, r.score_ns, weights(r.adjustment), r.form))
                  for r in results)


# Reading the real PBN results files -----------------------------------------------------

@pytest.mark.parametrize("name", sorted(FILES))
def test_every_real_pbn_results_file_is_read_without_problems(realdata, name):
    rows, boards, names = FILES[name]
    source = load(realdata, name)
    assert not source.problems, source.problems[:3]
    assert (len(source.rows), len(source.boards), len(source.names)) == (rows, boards, names)


def test_magic_contest_score_table_lines_with_contract_lead_and_artificial_score(realdata):
    source = load(realdata, "magiccontest_ffb_dn1_2022_seance1.pbn")
    first = source.rows[0]
    assert first.result == BoardResult(1, 3, 42, 420)
    assert (first.contract, first.tricks, first.lead) == (Contract.parse("4S", Seat.SOUTH),
                                                           10, "S9")
    adjusted = [r.result for r in source.rows if r.result.adjustment is not None]
    assert len(adjusted) == 4
    assert BoardResult(1, 29, 16, None, Artificial(PLUS, PLUS)) in adjusted
    assert method_of(source.scoring) == (Method.MATCHPOINTS, 2)


def test_bridgewebs_contracts_scored_by_law_77_passed_out_po_and_average_a(realdata):
    source = load(realdata, "bridgewebs_welwyn_2025-04-09.pbn")
    by_key = {(r.result.board, r.result.ns, r.result.ew): r for r in source.rows}
    assert by_key[(1, 1, 8)].result.score_ns == -50  # 4H by S, 9 tricks, none vulnerable
    assert by_key[(2, 14, 13)].result.score_ns == 300  # 3D* by E two down, EW not vulnerable
    assert by_key[(16, 1, 11)].passed_out and by_key[(16, 1, 11)].result.score_ns == 0
    assert by_key[(21, 3, 14)].result.adjustment == Artificial(AVERAGE, AVERAGE)


def test_jfr_game_records_one_per_table_pairs_from_player_names(realdata):
    source = load(realdata, "jfr_pary_barometr_2012-08-02_pbntools.pbn")
    board_10 = [r for r in source.rows if r.result.board == 10]
    assert sum(r.passed_out for r in board_10) == 2
    assert {r.result.score_ns for r in board_10 if r.passed_out} == {0}
    assert board_10[0].result.ns == "Para-8" and board_10[0].record is not None


def test_realbridge_teams_from_home_and_visit_team_with_auction_and_play(realdata):
    source = load(realdata, "realbridge_2021_online_qual_open_r2_imps.pbn")
    assert source.teams is not None and len(set(source.teams.values())) == 30
    first = source.rows[0].result
    assert (first.ns, first.ew, source.teams[first.ns]) == ("AUSTRIA NS", "DENMARK EW",
                                                            "AUSTRIA")
    assert sum(1 for r in source.rows if r.record is not None and r.record.calls) == 279


def test_usebio_teams_reader_reproduces_every_published_board_imps(realdata):
    path = realdata / "usebio" / "ebu_sample_teams_imps_teamsscorer_v1.2.xml"
    source = read_usebio(path)
    assert not source.problems and len(source.rows) == 240
    event = scored(source)
    points = {(b, s.result.ns, s.result.ew): s.ns_points
              for b, results in event.boards.items() for s in results}
    checked = 0
    for match in ET.parse(path).getroot().iter("MATCH"):
        for board in match.iter("BOARD"):
            line = next(t for t in board.findall("TRAVELLER_LINE")
                        if t.findtext("DIRECTION") == "NS")
            key = (int(board.findtext("BOARD_NUMBER")), line.findtext("NS_PAIR_NUMBER"),
                   line.findtext("EW_PAIR_NUMBER"))
            assert points[key] == float(board.findtext("IMPS"))
            checked += 1
    assert checked == 120


def test_usebio_unreadable_contract_keeps_the_published_score_with_a_problem(realdata):
    source = read_usebio(realdata / "usebio" / "ebu_sample_cross_imp_pairs_pianola_v1.2.xml")
    assert len(source.rows) == 192
    assert [p.board for p in source.problems] == [1]
    assert "not a contract: '42'; its SCORE 480 is scored" in str(source.problems[0])


# Bad input ------------------------------------------------------------------------------

BAD = """[Event "Bad"]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[ScoreTable "PairId_NS;PairId_EW;Contract;Declarer;Result;Score_NS;Score_EW"]
1 5 4S N 10 420 -
2 6 4S N 11 450 -
3 7 4S N
4 8 4S N 10 450 -
1 9 3NT S 9 400 -
5 9 4S Q 10 420 -

[Event "Bad"]
[Board "2"]
[Dealer "E"]
[Vulnerable "NS"]
[ScoreTable "PairId_NS;PairId_EW;Contract;Declarer;Result;Score_NS;Score_EW"]
1 5 Pass - - - -
2 6 - - - 7 -
"""


def test_bad_lines_are_problems_naming_board_and_line_and_the_rest_scores():
    source = read_pbn_results(BAD, file="bad.pbn")
    assert [str(p) for p in source.problems] == [
        "bad.pbn:1: board 1: ScoreTable line 3 is malformed: 4 values for 7 columns "
        "('3 7 4S N')",
        "bad.pbn:1: board 1: ScoreTable line 4 (4 v 8): impossible score 450 for 4S by N with "
        "10 tricks (Law 77 gives 420 when vulnerability is None)",
        "bad.pbn:1: board 1: ScoreTable line 6 (5 v 9): not a seat: 'Q'"]
    event = score_event(source.results, "mp")
    assert [str(p) for p in event.problems] == [
        "board 1: 1 plays the board twice: 1 v 9 is not scored",
        "board 2: 2 v 6: impossible score 7 (no contract scores it when vulnerability is "
        "NS, Law 77)"]
    points = {(b, s.result.ns): s.ns_points for b, results in event.boards.items()
              for s in results}
    assert points == {(1, 1): 0.0, (1, 2): 1.0, (2, 1): 0.5}  # board 2: Neuberg, 1 of 2


def test_a_ruling_on_a_board_that_does_not_exist_is_a_problem_and_the_rest_scores():
    source = read_pbn_results(BAD)
    rulings = read_results_csv("board,ns,ew,score_ns\n9,1,5,420\n1,2,6,-50\n")
    event = score_event(source.results, "mp", rulings=rulings.results)
    assert "ruling for 1 v 5 on board 9: the event has no such board" in \
        [str(p) for p in event.problems]
    assert {s.result.ns: s.ns_points for s in event.boards[1]} == {1: 1.0, 2: 0.0}


def test_csv_bad_lines_named_by_line_number():
    source = read_results_csv("board,ns,ew,contract,declarer,tricks,score_ns\n"
                              "1,1,5,4S,N,10,420\n"
                              "x,2,6,4S,N,10,420\n"
                              "1,3,7,4S,N,10,450\n"
                              "1,4,8,4S,N,10\n"
                              "1,4,8,4S,N,10,420,oops\n", file="r.csv")
    assert [(p.line, p.board) for p in source.problems] == [(3, None), (4, 1), (6, None)]
    assert "impossible score 450" in str(source.problems[1])
    assert [r.result for r in source.rows] == [BoardResult(1, 1, 5, 420),
                                               BoardResult(1, 4, 8, 420)]
    assert read_results_csv("a,b\n1,2\n").problems[0].message.startswith(
        "the CSV file has no column board, ns, ew")


def test_a_game_record_without_pairs_or_board_is_named():
    source = read_pbn_results('[Board "3"]\n[Dealer "S"]\n[Vulnerable "All"]\n[Declarer "N"]\n'
                              '[Contract "3NT"]\n[Result "9"]\n\n[Contract "3NT"]\n'
                              '[Declarer "N"]\n[Result "9"]\n')
    assert [p.board for p in source.problems] == [None, 3]
    assert "without a [Board]" in source.problems[0].message
    assert "no pairs" in source.problems[1].message


# Adjusted scores as text ------------------------------------------------------------------

side_awards = st.one_of(st.sampled_from(list(ArtificialScore)),
                        st.builds(Assigned, st.sampled_from([420, -50, 0, 1430])))
adjustments = st.one_of(
    st.builds(Artificial, st.sampled_from(list(ArtificialScore)),
              st.sampled_from(list(ArtificialScore))),
    st.builds(Assigned, st.sampled_from([420, -50, 170, 7990])),
    st.builds(lambda w: Weighted(((w, 420), (1 - w, -50))), st.floats(0.01, 0.99)),
    st.builds(Split, side_awards, side_awards),
    st.builds(lambda w, s: Split(Weighted(((w, 420), (1 - w, -50))), s),
              st.floats(0.01, 0.99), side_awards))


def weights(adjustment):
    """The adjustment with weights to 12 places: a weight written in percent and read back
    can differ from it in the last bit of the float."""
    if isinstance(adjustment, Weighted):
        return tuple((round(w, 12), s) for w, s in adjustment.outcomes)
    if isinstance(adjustment, Split):
        return (weights(adjustment.ns), weights(adjustment.ew))
    return adjustment


@given(adjustments)
def test_adjustments_written_as_text_read_back(adjustment):
    assert weights(parse_adjustment(format_adjustment(adjustment))) == weights(adjustment)


def test_adjustment_text_forms_law_12c():
    assert parse_adjustment("A") == Artificial(AVERAGE, AVERAGE)
    assert parse_adjustment("A6040") == Artificial(PLUS, MINUS)
    assert parse_adjustment("A+65 A-35") == Artificial(PLUS, MINUS, 65.0, 35.0)
    assert parse_adjustment("60% 420 + 40% -50") == Weighted(((0.6, 420), (0.4, -50)))
    assert parse_adjustment("NS A+ / EW -50") == Split(PLUS, Assigned(-50))
    for bad in ("B+", "60% 420 + 30% -50", "NS Q / EW 1"):
        with pytest.raises(ValueError):
            parse_adjustment(bad)


def test_weights_printed_to_a_few_figures_are_read_as_the_fractions_they_stand_for_law_12c1c():
    # A third each, as Weighted's own text writes it (6 significant figures: 99.9999 %).
    thirds = Weighted(((1 / 3, 420), (1 / 3, 450), (1 / 3, -50)))
    read = parse_adjustment(str(thirds))
    assert isinstance(read, Weighted)
    assert [s for _, s in read.outcomes] == [420, 450, -50]
    assert all(w == pytest.approx(1 / 3, abs=1e-12) for w, _ in read.outcomes)
    assert sum(w for w, _ in read.outcomes) == pytest.approx(1, abs=1e-12)
    # Weights a percent apart are still a mistake, not a rounding.
    with pytest.raises(ValueError):
        parse_adjustment("33% 420 + 33% 450 + 33% -50")


# Exports read back --------------------------------------------------------------------------

def same_event(a: EventScore, b: EventScore) -> None:
    assert a.ranking == b.ranking
    assert {k: sorted(map(repr, v)) for k, v in a.boards.items()} == \
        {k: sorted(map(repr, v)) for k, v in b.boards.items()}


def write_and_read(kind: str, source: ResultsFile, event: EventScore) -> ResultsFile:
    if kind == "pbn":
        return read_pbn_results(write_results_pbn(source, event))
    if kind == "usebio":
        return read_usebio(write_usebio(source, event))
    return read_results_csv(write_results_csv(source, event))


@pytest.mark.parametrize("kind", ["pbn", "usebio", "csv"])
@pytest.mark.parametrize("name", sorted(FILES))
def test_export_then_import_gives_the_same_results_and_ranking(realdata, name, kind):
    source = load(realdata, name)
    event = scored(source)
    again = write_and_read(kind, source, event)
    assert not again.problems
    assert results_key(again.results) == results_key(source.results)
    assert again.teams == source.teams
    same_event(scored(again, event.method), event)
    if kind != "csv":
        assert method_of(again.scoring)[0] is event.method


def test_pbn_export_keeps_deals_auctions_plays_and_names(realdata):
    source = load(realdata, "realbridge_2021_online_qual_open_r2_imps.pbn")
    again = read_pbn_results(write_results_pbn(source, scored(source)))
    assert {b: r.deal for b, r in again.boards.items()} == \
        {b: r.deal for b, r in source.boards.items()}
    played = {(r.result.board, r.result.ns): r.record for r in source.rows if r.record
              and r.record.calls}
    back = {(r.result.board, r.result.ns): r.record for r in again.rows if r.record}
    assert set(back) == set(played)
    assert all(back[k].calls == played[k].calls and back[k].plays == played[k].plays
               for k in played)
    magic = load(realdata, "magiccontest_ffb_dn1_2022_seance1.pbn")
    assert read_pbn_results(write_results_pbn(magic, scored(magic))).names == magic.names


def adjusted_event() -> ResultsFile:
    """Every kind of result: played, passed out, artificial (with a regulation percentage),
    assigned over a table result, weighted, split, and a line that cannot be scored."""
    north = Seat.NORTH
    rows = [TableResult(BoardResult(1, 1, 5, 420), Contract.parse("4S", north), False, 10, "HK"),
            TableResult(BoardResult(1, 2, 6, 0), None, True),
            TableResult(BoardResult(1, 3, 7, None, Artificial(PLUS, MINUS, 65.0))),
            TableResult(BoardResult(1, 4, 8, -50, Assigned(170)),
                        Contract.parse("4S", north), False, 9),
            TableResult(BoardResult(2, 1, 6, None, Weighted(((1 / 3, 620), (2 / 3, -100))))),
            TableResult(BoardResult(2, 2, 7, None, Split(PLUS, Assigned(-100)))),
            TableResult(BoardResult(2, 3, 8, 10)),
            TableResult(BoardResult(2, 4, 5, 790), Contract.parse("4SX", north), False, 10)]
    return ResultsFile(rows=rows, names={1: "Ann - Bob"}, title="Club pairs", date="2024.05.06")


@pytest.mark.parametrize("kind", ["pbn", "usebio", "csv"])
@pytest.mark.parametrize("method", [Method.MATCHPOINTS, Method.BUTLER, Method.CROSS_IMPS])
def test_every_kind_of_ruling_survives_export(kind, method):
    source = adjusted_event()
    event = scored(source, method)
    assert [p.board for p in event.problems] == [2]  # 10 is not a score
    again = write_and_read(kind, source, event)
    assert results_key(again.results) == results_key(source.results)
    def how(rows):
        return {(r.result.board, r.result.ns): (r.contract, r.passed_out, r.tricks, r.lead)
                for r in rows}
    assert how(again.rows) == how(source.rows)
    back = scored(again, method)
    assert [p.pair for p in back.ranking] == [p.pair for p in event.ranking]
    assert [p.total for p in back.ranking] == pytest.approx([p.total for p in event.ranking])


# USEBIO structure ---------------------------------------------------------------------------

def edges(root: ET.Element) -> set[tuple[str, str]]:
    return {(parent.tag, child.tag) for parent in root.iter() for child in parent}


def test_usebio_export_has_only_the_structure_real_usebio_files_have(realdata):
    real = set()
    for path in (realdata / "usebio").glob("*.xml"):
        real |= edges(ET.parse(path).getroot())
    for name, method in [("magiccontest_ffb_dn1_2022_seance1.pbn", Method.MATCHPOINTS),
                         ("jfr_pary_barometr_2012-08-02_pbntools.pbn", Method.CROSS_IMPS),
                         ("realbridge_2021_online_qual_open_r2_imps.pbn", Method.IMPS)]:
        source = load(realdata, name)
        data = write_usebio(source, scored(source, method))
        # UTF-8, as ScoreBridge's and RealBridge's real files are: every name as written
        assert data.startswith(b'<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE USEBIO')
        root = ET.fromstring(data)
        assert root.tag == "USEBIO" and root.get("Version") == "1.2"
        assert edges(root) <= real, edges(root) - real


def test_usebio_pairs_export_follows_formats_md_section_2(realdata):
    source = load(realdata, "bridgewebs_welwyn_2025-04-09.pbn")
    event = score_event(source.results, "mp", options=ScoringOptions(units=2, neuberg=False))
    root = ET.fromstring(write_usebio(source, event, units=2))
    node = root.find("EVENT")
    assert node.get("EVENT_TYPE") == "PAIRS"
    assert node.findtext("BOARD_SCORING_METHOD") == "MATCH_POINTS"
    assert node.findtext("WINNER_TYPE") == "1" and node.findtext("DATE") == "09/04/2025"
    section = node.find("SESSION/SECTION")
    places = {p.findtext("PAIR_NUMBER"): p.findtext("PLACE")
              for p in section.iter("PAIR")}
    assert places["9"] == places["13"] == "9=" and places["1"] == "1"  # the published places
    board = section.find("BOARD")
    assert board.findtext("BOARD_NUMBER") == "1"
    line = board.find("TRAVELLER_LINE")
    assert [e.tag for e in line] == ["NS_PAIR_NUMBER", "EW_PAIR_NUMBER", "CONTRACT",
                                     "PLAYED_BY", "TRICKS", "SCORE", "NS_MATCH_POINTS",
                                     "EW_MATCH_POINTS"]
    assert [e.text for e in line] == ["1", "8", "4H", "S", "9", "-50", "3", "7"]
    average = section.findall("BOARD")[20].findall("TRAVELLER_LINE")[1]
    assert average.findtext("SCORE") == "A5050"


def test_usebio_matchpoints_in_two_units_a_score_beaten_whatever_the_event_units():
    """USEBIO NS/EW_MATCH_POINTS are on the MP1 scale (formats.md §2): top 2(n-1)."""
    rows = [TableResult(BoardResult(1, 1, 4, 420)), TableResult(BoardResult(1, 2, 5, 450)),
            TableResult(BoardResult(1, 3, 6, -50))]
    source = ResultsFile(rows=rows)
    for units in (1, 2):
        event = score_event(source.results, "mp", options=ScoringOptions(units=units))
        root = ET.fromstring(write_usebio(source, event, units=units))
        assert [t.findtext("NS_MATCH_POINTS") for t in root.iter("TRAVELLER_LINE")] == \
            ["2", "4", "0"]


def test_not_usebio_is_a_format_error(tmp_path):
    with pytest.raises(ValueError, match="not XML"):
        read_usebio(b"<USEBIO")
    with pytest.raises(ValueError, match="not a USEBIO file"):
        read_usebio(b"<html/>")


# Fuzzing --------------------------------------------------------------------------------------

FUZZ = settings(max_examples=120, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
SAMPLES = {
    "pbn": (REALDATA / "pbn-results" / "bridgewebs_welwyn_2025-04-09.pbn").read_bytes()[:2500],
    "csv": b"board,ns,ew,contract,declarer,tricks,lead,score_ns,adjustment,team_ns,team_ew\n"
           b"1,1,5,4S,N,10,HK,420,,A,B\n2,2,6,,,,,,NS A+ / EW 60% 420 + 40% -50,A,B\n",
    "usebio": (REALDATA / "usebio" / "ebu_sample_teams_imps_teamsscorer_v1.2.xml").read_bytes()
    [:30000].rsplit(b"</MATCH>", 1)[0] + b"</MATCH></SESSION></EVENT></USEBIO>",
}


def read(kind: str, data: bytes) -> ResultsFile | None:
    """Every reader returns what it could read, or refuses a file that is not its format."""
    if kind == "pbn":
        try:
            return read_pbn_results(data)
        except FormatError:
            return None
    if kind == "csv":
        return read_results_csv(data.decode("latin-1"))
    try:
        return read_usebio(data)
    except FormatError:
        return None


@FUZZ
@given(st.sampled_from(sorted(SAMPLES)), st.data())
def test_mutated_results_files_never_crash_and_what_is_read_scores(kind, data):
    sample = SAMPLES[kind]
    start = data.draw(st.integers(0, len(sample) - 1))
    end = data.draw(st.integers(start, min(len(sample), start + 40)))
    junk = data.draw(st.binary(max_size=12) | st.sampled_from(
        [b"", b"-", b"?", b"A", b"A+", b"PO", b"Pass", b"X", b"9999999", b'"', b"\n", b";"]))
    source = read(kind, sample[:start] + junk + sample[end:])
    if source is not None:
        assert all(p.message for p in source.problems)
        event = score_event(source.results, "imp" if source.teams else "mp",
                            options=ScoringOptions(teams=source.teams))
        write_results_pbn(source, event)
        write_usebio(source, event)
        write_results_csv(source, event)


def test_the_unmutated_fuzz_samples_read_without_problems():
    for kind, sample in SAMPLES.items():
        source = read(kind, sample)
        assert source is not None and source.rows and not source.problems, kind
