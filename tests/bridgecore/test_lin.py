"""BBO LIN reader and writer (formats.md §4.6) on real files, with the Laws it applies.

Contract and declarer come from the calls (Laws 19, 22, definition of declarer), tricks from
the play (Law 44E-G, opening lead Law 41A).
"""

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgecore.calls import ALL_BIDS, DOUBLE, PASS, REDOUBLE, Call, Risk
from bridgecore.cards import ALL_CARDS, Card, Seat
from bridgecore.dealnumbers import D, pavlicek_deal
from bridgecore.errors import FormatError
from bridgecore.lin import auction_end, read_lin, write_lin
from bridgecore.record import CallRecord, CardRecord, GameRecord
from bridgecore.vulnerability import Vulnerability

MD = "md|3SAQJ53H65DA7654C9,ST962HAQJTD98C753,SHK9842DJTCAKJT62,|"  # BigDeal board 1


def lin_file(realdata: Path, name: str) -> Path:
    return realdata / "lin" / name


def calls(text: str) -> list[Call]:
    return [Call.parse(t) for t in text.split()]


# Real files ------------------------------------------------------------------------------------

@pytest.mark.parametrize("name,boards,complete,claims,explained,alerted", [
    ("bbo_vugraph_41284_2015wbtc_bb_swe-pol.lin", 32, 5, 27, 9, 0),
    ("bbo_teammatch_17360_2022.lin", 36, 5, 31, 12, 3),
    ("bbo_robot_session_alerts_claims.lin", 8, 6, 2, 30, 3),
    ("bbo_myhands_kemistry_2026-01-14.lin", 12, 7, 5, 12, 1),
    ("bbo_handviewer_28190062_no_auction.lin", 1, 0, 0, 0, 0),
])
def test_real_files_read_without_problems(realdata, name, boards, complete, claims, explained,
                                          alerted):
    result = read_lin(lin_file(realdata, name).read_bytes(), file=name)
    assert result.problems == []
    records = result.records
    assert len(records) == boards
    assert all(r.deal is not None and r.deal.problems() == [] for r in records)
    assert sum(r.play_complete for r in records) == complete
    assert sum(r.claim is not None for r in records) == claims
    assert sum(c.explanation is not None for r in records for c in r.calls) == explained
    assert sum(c.alert for r in records for c in r.calls) == alerted
    assert all(r.result is not None for r in records if r.play_complete or r.claim is not None)


@pytest.mark.parametrize("name", ["bbo_vugraph_41284_2015wbtc_bb_swe-pol.lin",
                                  "bbo_teammatch_17360_2022.lin"])
def test_law_22_19_44_contracts_and_tricks_match_the_files_own_results(realdata, name):
    """The rs| list (contract, declarer, doubled, over/undertricks) of every table.

    Law 22A2 (the last bid is the contract), Law 19 (doubles), the definition of declarer,
    and for the complete plays Law 44E-G (trick winners) and 41A (declarer's LHO leads).
    """
    path = lin_file(realdata, name)
    expected = re.search(r"rs\|([^|]*)\|", path.read_text("utf-8")).group(1).split(",")
    got = []
    for r in read_lin(path.read_bytes()).records:
        c = r.contract
        diff = r.result - c.tricks_needed
        strain = "N" if c.strain.symbol == "NT" else c.strain.symbol
        got.append(f"{c.level}{strain}{c.declarer}{'x' * c.risk}"
                   f"{'=' if diff == 0 else f'{diff:+d}'}")
    assert got == expected


def test_vugraph_rooms_names_event_commentary_and_mixed_line_endings(realdata):
    path = lin_file(realdata, "bbo_vugraph_41284_2015wbtc_bb_swe-pol.lin")
    records = read_lin(path, file="vg.lin").records
    first, second = records[0], records[1]
    assert (first.board, first.tags["Room"], second.board, second.tags["Room"]) == (
        1, "Open", 1, "Closed")
    assert first.tags["Scoring"] == "IMP" and first.tags["HomeTeam"] == "SWEDEN"
    assert first.tags["South"] and first.tags["West"] and first.tags["North"]
    assert any("Nord" in text for text in first.commentary)  # a diagram over many lines
    lines = [r.line for r in records]
    assert lines == sorted(lines) and lines[-1] > 800  # CR and CRLF both end lines
    assert first.file == "vg.lin"


def test_omitted_fourth_hand_claims_and_gib_explanations(realdata):
    path = lin_file(realdata, "bbo_robot_session_alerts_claims.lin")
    records = read_lin(path.read_text("utf-8")).records
    assert [r.line for r in records] == list(range(1, 9))  # one board per line
    first = records[0]
    assert first.dealer is Seat.NORTH and first.vulnerability is Vulnerability.NONE
    assert first.deal.pbn() == ("N:74.T8.K842.AQ743 JT832.J62.73.JT2 K.AKQ9754.96.K85 "
                                "AQ965.3.AQJT5.96")
    assert first.calls[2].explanation.startswith("Major suit opening -- 5+ !H")
    assert first.calls[3].alert and first.calls[3].explanation.startswith("Michaels")
    claimed = [r for r in records if r.claim is not None]
    assert sorted(r.claim for r in claimed) == [9, 11]
    assert all(r.result == r.claim and not r.play_complete for r in claimed)


def test_double_encoded_utf8_is_repaired(realdata):
    path = lin_file(realdata, "bbo_teammatch_17360_2022.lin")
    texts = [c.explanation for r in read_lin(path).records for c in r.calls if c.explanation]
    assert "intéréssé" in texts and "fitté" in texts
    assert not any("Ã" in t for t in texts)


def test_board_that_was_not_played(realdata):
    [record] = read_lin(lin_file(realdata, "bbo_handviewer_28190062_no_auction.lin")).records
    assert (record.board, record.dealer, record.vulnerability) == (18, Seat.EAST, Vulnerability.NS)
    assert record.calls == [] and record.plays == []
    assert not record.auction_complete and record.contract is None and record.result is None
    assert record.deal.problems() == []  # the fourth hand was completed


def test_qx_gives_the_board_when_there_is_no_ah():
    [record] = read_lin(f"qx|c12|{MD}sv|b|").records
    assert record.board == 12 and record.tags["Room"] == "Closed"
    assert record.dealer is Seat.NORTH and record.vulnerability is Vulnerability.BOTH


# Auction and play ------------------------------------------------------------------------------

def test_law_22a1_four_passes_is_a_pass_out():
    end = auction_end(calls("P P P P"), Seat.NORTH)
    assert end.end == 4 and end.passed_out and end.contract is None


def test_law_22a2_three_passes_after_a_bid_end_the_auction():
    end = auction_end(calls("P P P 1C P P P"), Seat.EAST)
    assert end.end == 7 and not end.passed_out
    assert str(end.contract) == "1C" and end.contract.declarer is Seat.NORTH


def test_declarer_is_first_of_the_side_to_name_the_strain():
    """Definition of declarer: North bid spades first, South bid the final 4S."""
    end = auction_end(calls("1S 2H 3S P 4S P P P"), Seat.NORTH)
    assert end.contract.declarer is Seat.NORTH and end.contract.level == 4


def test_law_19_double_and_redouble_go_with_the_last_bid():
    assert auction_end(calls("1N X XX P P P"), Seat.SOUTH).contract.risk is Risk.REDOUBLED
    assert auction_end(calls("1N X 2C P P P"), Seat.SOUTH).contract.risk is Risk.UNDOUBLED
    assert str(auction_end(calls("1H P P X P P P"), Seat.WEST).contract) == "1HX"


def test_unfinished_auction_has_no_contract():
    end = auction_end(calls("1C P P"), Seat.NORTH)
    assert end.end is None and end.contract is None and not end.passed_out


def test_law_44_trick_winners_lead_to_the_next_trick():
    """44E a trump wins; 44F otherwise the highest of the suit led; 44G the winner leads."""
    text = (f"{MD}sv|0|mb|p|mb|p|mb|1S|mb|p|mb|p|mb|p|"   # North deals, South declares
            "pc|HA|pc|S2|pc|H3|pc|H4|"                      # West leads (41A); North ruffs
            "pc|C2|pc|C3|pc|DA|pc|C4|"                      # South's C4 beats the off-suit DA
            "pc|S5|")
    [record] = read_lin(text).records
    assert [p.seat for p in record.plays] == [
        Seat.WEST, Seat.NORTH, Seat.EAST, Seat.SOUTH,
        Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST,
        Seat.WEST]
    assert record.result is None and not record.play_complete


# Lenient reading -------------------------------------------------------------------------------

def test_problems_are_reported_with_line_and_board_and_reading_goes_on():
    text = ("mb|1C|\n"
            f"qx|o3|{MD}sv|q|mb|9Z|mb|1C|an|x|mb|p|pc|ZZ|mc|15|\n"
            "junk\n"
            f"qx|o4|{MD}an|early|mb|p|\n")
    result = read_lin(text, file="t.lin")
    assert [r.board for r in result.records] == [3, 4]
    found = {(p.line, p.board, p.message.split(":")[0]) for p in result.problems}
    assert found == {
        (1, None, "mb|1C| before any deal (md|) ignored"),
        (2, 3, "not a LIN vulnerability"),
        (2, 3, "not a call"),
        (2, 3, "not a card"),
        (2, 3, "claim is not 0-13 tricks"),
        (3, None, "text outside tag|value| pairs ignored"),
        (4, 4, "explanation an|early| before any call"),
    }
    assert [str(c.call) for c in result.records[0].calls] == ["1C", "Pass"]
    assert result.records[0].calls[0].explanation == "x"
    assert result.records[1].problems and all(p.file == "t.lin" for p in result.problems)


def test_law_38_bid_above_seven_is_read_and_left_to_the_audit():
    from bridgecore.audit import audit_record
    [record] = read_lin(f"{MD}mb|8C|mb|p|mb|p|mb|p|").records  # 38C: as if passed out
    assert record.auction_complete and record.contract is None and not record.problems
    found = [(i.kind.value, i.law) for i in audit_record(record).irregularities]
    assert found == [("bid_above_seven", "38")]


@pytest.mark.parametrize("source", ["", "   \n", "pn|a,b,c,d|sv|o|", b"\xff\xfe",
                                    Path("/nonexistent.lin")])
def test_nothing_readable_is_a_format_error(source):
    with pytest.raises(FormatError):
        read_lin(source, file="bad.lin")


@given(st.text(alphabet="|mdbpcsvnqxah0123456789SHDCAKQJT,!\n ", max_size=200))
def test_fuzz_never_crashes(text):
    try:
        result = read_lin(text)
    except FormatError:
        return
    assert all(r.deal is None or len(r.deal) == 4 for r in result.records)


# Writing ---------------------------------------------------------------------------------------

def test_writer_lays_a_deal_out_as_bigdeal_does():
    [record] = read_lin(f"qx|o1|{MD}rh||ah|Board 1|sv|0|pg||").records
    assert write_lin([record]) == (
        "qx|o1|md|3SAQJ53H65DA7654C9,ST962HAQJTD98C753,SHK9842DJTCAKJT62|rh||"
        "ah|Board 1|sv|0|pg||\n")


@pytest.mark.parametrize("name", ["bbo_vugraph_41284_2015wbtc_bb_swe-pol.lin",
                                  "bbo_robot_session_alerts_claims.lin",
                                  "bbo_teammatch_17360_2022.lin"])
def test_real_files_survive_write_then_read(realdata, name):
    before = read_lin(lin_file(realdata, name)).records
    after = read_lin(write_lin(before)).records
    assert len(after) == len(before)
    for a, b in zip(before, after, strict=True):
        assert (a.board, a.dealer, a.vulnerability, a.deal, a.calls, a.plays, a.claim) == (
            b.board, b.dealer, b.vulnerability, b.deal, b.calls, b.plays, b.claim)
        assert (a.contract, a.result, a.tags.get("South")) == (b.contract, b.result,
                                                                b.tags.get("South"))


text_values = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126,
                                             blacklist_characters="|") | st.sampled_from("éü♠♥"),
                      max_size=20)
call_values = st.sampled_from([*ALL_BIDS, PASS, PASS, PASS, DOUBLE, REDOUBLE])


@st.composite
def records(draw):
    dealer = draw(st.sampled_from(list(Seat)))
    made = draw(st.lists(st.tuples(call_values, st.booleans(), st.none() | text_values),
                         max_size=14))
    cards = draw(st.permutations(ALL_CARDS))[:draw(st.integers(0, 52))]
    record = GameRecord(
        board=draw(st.integers(1, 200)), dealer=dealer,
        vulnerability=draw(st.none() | st.sampled_from(list(Vulnerability))),
        deal=pavlicek_deal(draw(st.integers(0, D - 1))),
        calls=[CallRecord(dealer.offset(i), call, alert=alert, explanation=text)
               for i, (call, alert, text) in enumerate(made)],
        plays=[CardRecord(Seat.NORTH, card) for card in cards],
        claim=draw(st.none() | st.integers(0, 13)))
    if draw(st.booleans()):
        record.tags.update(South="s 1", West="w", North="n", East="é")
    return record


@settings(max_examples=60)
@given(st.lists(records(), min_size=1, max_size=3))
def test_write_then_read_is_the_identity(written):
    read = read_lin(write_lin(written)).records
    assert len(read) == len(written)
    for a, b in zip(written, read, strict=True):
        assert (b.board, b.dealer, b.vulnerability, b.deal, b.claim) == (
            a.board, a.dealer, a.vulnerability, a.deal, a.claim)
        assert b.calls == a.calls  # calls, alerts and explanations
        assert [p.card for p in b.plays] == [p.card for p in a.plays]
        assert all(b.tags.get(k) == a.tags.get(k) for k in ("South", "West", "North", "East"))
    again = read_lin(write_lin(read)).records
    assert [r.plays for r in again] == [r.plays for r in read]  # seats follow the play


def test_card_parse_in_lin_is_suit_then_rank():
    [record] = read_lin(f"{MD}mb|1N|mb|p|mb|p|mb|p|pc|s10|").records
    assert record.plays == [CardRecord(Seat.EAST, Card.parse("ST"))]
