"""PBN reader and writer on the real files of tests/data/realdata (SOURCES.md describes them).

Every file loads with all its boards, the verifier's correct files and the
real-world files without a problem, the verifier's error files with problems;
writing and reading again gives every board back.
"""

from pathlib import Path

import pytest

from bridgecore.calls import Risk
from bridgecore.cards import Seat, Strain
from bridgecore.pbn import PbnFile, dd_tricks_decode, read_pbn, write_pbn
from bridgecore.pbn_tokens import trick_winner
from bridgecore.pbn_writer import MANDATORY_TAGS
from bridgecore.record import GameRecord

BOARDS = {
    "pbn-conformance/pbn_verifier_correct_10.pbn": 31,
    "pbn-conformance/pbn_verifier_correct_20.pbn": 46,
    "pbn-conformance/pbn_verifier_correct_21.pbn": 2,
    "pbn-conformance/pbn_verifier_errors_10.pbn": 74,
    "pbn-conformance/pbn_verifier_errors_20.pbn": 22,
    "pbn-conformance/pbn_verifier_errors_21.pbn": 2,
    "pbn-handrecords/bigdeal11_deepfinesse_ability_minimax.pbn": 14,
    "pbn-handrecords/bigdeal12_psbridge_dd_comments.pbn": 32,
    "pbn-handrecords/bigdeal2_wbg2024_FIN1.pbn": 16,
    "pbn-handrecords/bridgecomposer557_bkp_club_dd.pbn": 15,
    "pbn-handrecords/bridgecomposer597_commongame_2026-01-19.pbn": 36,
    "pbn-handrecords/dealer4_482_sunset_dd.pbn": 28,
    "pbn-play/bbo_aba_17901_2021_gib_alerts_pbntools.pbn": 56,
    "pbn-play/bbo_tourney_1538_2013_pbntools_claims.pbn": 57,
    "pbn-play/bbo_vugraph_2015wbtc_bb_swe-pol_lintopbn.pbn": 32,
    "pbn-play/bbohelper_ben_friends_daylong_2024-06-03.pbn": 8,
    "pbn-play/eyc1998_vienna_partial_play.pbn": 2,
    "pbn-results/bridgewebs_welwyn_2025-04-09.pbn": 24,
    "pbn-results/jfr_pary_barometr_2012-08-02_pbntools.pbn": 216,
    "pbn-results/magiccontest_ffb_dn1_2022_seance1.pbn": 30,
    "pbn-results/realbridge_2021_online_qual_open_r2_imps.pbn": 299,
    "dealfiles/dealconvert_16boards.pbn": 16,
}
ERROR_FILES = {name for name in BOARDS if "_errors_" in name}
FIELDS = ("board", "dealer", "vulnerability", "deal", "calls", "auction_complete", "plays",
          "play_complete", "claim", "declarer", "contract", "passed_out", "result", "notes",
          "play_notes", "commentary")
_cache: dict[str, PbnFile] = {}


def load(realdata: Path, name: str) -> PbnFile:
    if name not in _cache:
        _cache[name] = read_pbn(realdata / name)
    return _cache[name]


def same_board(a: GameRecord, b: GameRecord, *, tags: bool) -> None:
    for name in FIELDS:
        assert getattr(a, name) == getattr(b, name), (a.line, name)
    assert {k: (t.columns, t.rows) for k, t in a.tables.items()} == \
        {k: (t.columns, t.rows) for k, t in b.tables.items()}, a.line
    if tags:
        assert a.tags == b.tags, a.line
    else:  # export writes the mandatory tags in their canonical form
        def others(r: GameRecord) -> dict[str, str]:
            return {k: v for k, v in r.tags.items()
                    if k not in MANDATORY_TAGS and k not in ("Auction", "Play")}
        assert others(a) == others(b), a.line


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_every_board_is_read(realdata: Path, name: str):
    pbn = load(realdata, name)
    assert len(pbn.records) == BOARDS[name]
    if name in ERROR_FILES:
        assert pbn.problems, "the verifier's error files have problems to report"
        assert all(p.file == str(realdata / name) and p.line for p in pbn.problems)
    else:
        assert pbn.problems == [], pbn.problems[:3]


@pytest.mark.parametrize("name", sorted(BOARDS))
@pytest.mark.parametrize("export", [False, True])
def test_write_then_read_is_identity(realdata: Path, name: str, export: bool):
    pbn = load(realdata, name)
    text = write_pbn(pbn.records, export=export)
    again = read_pbn(text)
    assert len(again.records) == len(pbn.records)
    for a, b in zip(pbn.records, again.records, strict=True):
        same_board(a, b, tags=not export and bool(a.tags))
    assert write_pbn(again.records, export=export) == text


def test_errors_files_report_what_is_wrong(realdata: Path):
    errors_21 = load(realdata, "pbn-conformance/pbn_verifier_errors_21.pbn")
    assert [p.line for p in errors_21.problems] == [7, 11]
    assert all("optimum score" in p.message for p in errors_21.problems)
    errors_10 = load(realdata, "pbn-conformance/pbn_verifier_errors_10.pbn")
    messages = " | ".join(p.message for p in errors_10.problems)
    for expected in ("malformed tag '[Event]'", "not a seat in [Dealer]: 'Black'",
                     "not a contract: '5Hearts'", "not a call: '1'", "not a card: 'HHT'",
                     "do not make 13", "note number 33"):
        assert expected in messages


def test_realbridge_auctions_plays_and_alerts(realdata: Path):
    records = load(realdata, "pbn-results/realbridge_2021_online_qual_open_r2_imps.pbn").records
    assert sum(1 for r in records if r.calls) == 279
    assert sum(1 for r in records if r.plays) == 278
    assert sum(len(r.notes) + len(r.play_notes) for r in records) == 432
    alerted = [c for r in records for c in r.calls if c.alert]
    assert alerted and all(c.explanation for c in alerted)
    assert all(r.auction_complete for r in records if r.calls)
    assert {r.board for r in records} == set(range(11, 21))


def test_claims_padded_with_dashes(realdata: Path):
    records = load(realdata, "pbn-play/bbo_tourney_1538_2013_pbntools_claims.pbn").records
    assert sum(r.play_complete for r in records) == 35
    assert sum(1 for r in records if r.plays and not r.play_complete) == 21
    assert sum(1 for r in records if not r.plays) == 1


@pytest.mark.parametrize(("name", "complete", "notes"), [
    ("pbn-play/bbo_aba_17901_2021_gib_alerts_pbntools.pbn", 52, 195),
    ("pbn-play/bbo_vugraph_2015wbtc_bb_swe-pol_lintopbn.pbn", 5, 9),
    ("pbn-play/bbohelper_ben_friends_daylong_2024-06-03.pbn", 8, 45),
])
def test_complete_plays_and_notes(realdata: Path, name: str, complete: int, notes: int):
    records = load(realdata, name).records
    assert sum(r.play_complete for r in records) == complete
    assert sum(len(r.notes) + len(r.play_notes) for r in records) == notes


@pytest.mark.parametrize("name", [n for n in BOARDS if n.startswith("pbn-play/bbo")])
def test_reconstructed_play_follows_suit_and_gives_the_result_law_44(realdata: Path,
                                                                      name: str):
    """Played in the reconstructed order, every complete real play follows suit whenever it
    can (Law 44C) and gives declarer the number of tricks of the Result tag (Law 44E)."""
    checked = 0
    for r in load(realdata, name).records:
        if not r.play_complete or r.contract is None or r.deal is None or r.declarer is None:
            continue
        hands = {seat: set(r.deal[seat]) for seat in Seat}
        won = 0
        for t in range(13):
            trick = r.plays[4 * t:4 * t + 4]
            led = trick[0].card.suit
            for p in trick:
                assert p.card in hands[p.seat]
                if p.card.suit is not led:
                    assert all(c.suit is not led for c in hands[p.seat]), (r.line, t, p)
                hands[p.seat].remove(p.card)
            winner = trick_winner([(p.seat, p.card) for p in trick], r.contract.strain)
            assert winner is not None
            if t < 12:
                assert r.plays[4 * t + 4].seat is winner
            won += winner.side is r.declarer.side
        assert won == r.result, r.line
        checked += 1
    assert checked


def test_passed_out_records(realdata: Path):
    records = load(realdata, "pbn-results/jfr_pary_barometr_2012-08-02_pbntools.pbn").records
    passed = [r for r in records if r.passed_out]
    assert [r.board for r in passed] == [10, 10]
    assert all(r.contract is None and r.declarer is None and r.result is None for r in passed)


def test_bridgewebs_doubled_star_and_adjusted_row(realdata: Path):
    records = load(realdata, "pbn-results/bridgewebs_welwyn_2025-04-09.pbn").records
    assert all(r.contract is None and r.result is None for r in records)  # "?" at board level
    board2 = records[1].tables["ScoreTable"]
    assert "3D*" in board2.column("Contract")
    board21 = next(r for r in records if r.board == 21).tables["ScoreTable"]
    assert ["A", "A", "A"] in [row[2:] for row in board21.rows]


def test_magic_contest_tables_and_latin1(realdata: Path):
    pbn = load(realdata, "pbn-results/magiccontest_ffb_dn1_2022_seance1.pbn")
    assert pbn.records[0].tags["Event"].endswith("Séance 1")
    assert any("Fédération" in line for line in pbn.header)
    total = pbn.records[0].tables["TotalScoreTable"]
    assert len(total.rows) == 44 and total.column("NrBoards") == ["30"] * 44
    adjusted = [r.board for r in pbn.records
                for row in r.tables["ScoreTable"].rows if row[8] in ("A+", "A-")]
    assert len(adjusted) == 4
    assert all(len(r.tables["OptimumResultTable"].rows) == 20 for r in pbn.records)


def test_dealer4_hash_inheritance(realdata: Path):
    records = load(realdata, "pbn-handrecords/dealer4_482_sunset_dd.pbn").records
    assert {r.tags["Event"] for r in records} == {"Sunset Bridge Club"}
    assert {r.tags["Date"] for r in records} == {"220207"}


def test_bigdeal_north_first_deals_export_from_dealer(realdata: Path):
    records = load(realdata, "pbn-handrecords/bigdeal2_wbg2024_FIN1.pbn").records
    board2 = records[1]
    assert board2.dealer is Seat.EAST and board2.tags["Deal"].startswith("N:")
    text = write_pbn([board2])
    assert f'[Deal "{board2.deal.pbn(Seat.EAST)}"]' in text  # type: ignore[union-attr]
    assert read_pbn(text).records[0].deal == board2.deal


def test_psbridge_dd_escape_lines(realdata: Path):
    pbn = load(realdata, "pbn-handrecords/bigdeal12_psbridge_dd_comments.pbn")
    assert pbn.header == ["% PBN 1.0"]
    assert sum(1 for _, text in pbn.escapes if text.startswith("%%!R ")) == 32


def test_double_dummy_tricks_match_optimum_result_table(realdata: Path):
    records = load(realdata, "pbn-handrecords/bridgecomposer597_commongame_2026-01-19.pbn").records
    for r in records:
        dd = dd_tricks_decode(r.tags["DoubleDummyTricks"])
        rows = r.tables["OptimumResultTable"].rows
        assert len(rows) == 20
        for seat, strain, tricks in rows:
            assert dd[Seat.parse(seat), Strain.parse(strain)] == int(tricks)


def test_eyc_partial_play_and_contracts(realdata: Path):
    first, second = load(realdata, "pbn-play/eyc1998_vienna_partial_play.pbn").records
    assert [len(first.plays), len(second.plays)] == [12, 16]
    assert first.contract is not None and first.contract.risk is Risk.UNDOUBLED
    assert (first.result, second.result) == (10, 10)
    assert first.plays[0].seat is Seat.WEST and second.plays[0].seat is Seat.EAST
