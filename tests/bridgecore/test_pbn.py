"""PBN 2.1 reader and writer: golden tests on small hand-written games (formats.md §1)."""

from pathlib import Path

import pytest

from bridgecore.calls import Call, Contract, Risk
from bridgecore.cards import Card, Seat, Strain
from bridgecore.deal import Deal
from bridgecore.errors import FormatError, ParseError
from bridgecore.pbn import (
    dd_tricks_decode,
    dd_tricks_encode,
    dumps_record,
    iter_pbn,
    parse_contract,
    parse_optimum_score,
    parse_result,
    parse_score,
    read_pbn,
    save_pbn,
    write_pbn,
)
from bridgecore.record import CallRecord, CardRecord, GameRecord
from bridgecore.vulnerability import Vulnerability

DEAL_N = "N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85"
# The PBN 2.1 specification's example game (§1.2): 5HX by South, West leads SK.
SPEC_GAME = f"""[Event "International"]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "{DEAL_N}"]
[Declarer "S"]
[Contract "5HX"]
[Result "9"]
[Auction "N"]
1D      1S   3H =1= 4S
4NT =2= X    Pass   Pass
5C      X    5H     X
AP
[Note "1:non-forcing 6-9 points, 6-card"]
[Note "2:two colors: clubs and diamonds"]
[Play "W"]
SK H3 S4 S3
C5 C2 C6 CK
S2 H6 S5 S7
C8 CA CT C4
D2 DA DT D3
D4 DK H5 H7
-  -  -  H2
*
"""


def one(text: str) -> GameRecord:
    pbn = read_pbn(text)
    assert len(pbn.records) == 1, pbn.records
    return pbn.records[0]


def played(record: GameRecord) -> list[str]:
    return [f"{p.seat}{p.card}" for p in record.plays]


def test_spec_game_fields():
    r = one(SPEC_GAME)
    assert (r.board, r.dealer, r.vulnerability) == (1, Seat.NORTH, Vulnerability.NONE)
    assert r.deal == Deal.parse(DEAL_N)
    assert r.contract == Contract(5, Strain.HEARTS, Risk.DOUBLED, Seat.SOUTH)
    assert (r.declarer, r.result, r.passed_out) == (Seat.SOUTH, 9, False)
    assert r.line == 1 and r.problems == []
    assert r.tags["Auction"] == "N" and r.tags["Play"] == "W" and "Note" not in r.tags


def test_auction_ap_closes_with_three_passes_law_17e():
    """AP stands for the passes that end the auction (Law 17E): three after 5H X."""
    r = one(SPEC_GAME)
    calls = [str(c.call) for c in r.calls]
    assert calls == ["1D", "1S", "3H", "4S", "4NT", "X", "Pass", "Pass", "5C", "X", "5H", "X",
                     "Pass", "Pass", "Pass"]
    assert [c.seat for c in r.calls[:5]] == [Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST,
                                             Seat.NORTH]
    assert r.auction_complete


def test_ap_alone_is_four_passes_law_17e():
    r = one('[Dealer "S"]\n[Auction "S"]\nAP\n')
    assert [(c.seat, c.call) for c in r.calls] == [(Seat.SOUTH.offset(i), Call.parse("Pass"))
                                                   for i in range(4)]
    assert r.auction_complete


def test_note_reference_is_alert_with_explanation():
    r = one(SPEC_GAME)
    three_h = r.calls[2]
    assert three_h.alert and three_h.explanation == "non-forcing 6-9 points, 6-card"
    assert three_h.annotations == ("=1=",)
    assert r.calls[4].explanation == "two colors: clubs and diamonds"
    assert not r.calls[0].alert and r.calls[0].explanation is None
    assert r.notes == {1: "non-forcing 6-9 points, 6-card", 2: "two colors: clubs and diamonds"}


def test_play_order_follows_trick_winners_with_trumps_law_44():
    """Each trick is led by the winner of the one before (Law 44E): North ruffs trick 1 with
    the H3 (Law 44C), so North leads C2 to trick 2 though West's column comes first."""
    r = one(SPEC_GAME)
    assert played(r)[:8] == ["WSK", "NH3", "ES4", "SS3", "NC2", "EC6", "SCK", "WC5"]
    # South won trick 2 with the CK (Law 44D) and leads S7; the seventh trick is South's H2.
    assert played(r)[8:12] == ["SS7", "WS2", "NH6", "ES5"]
    assert played(r)[-1] == "SH2" and len(r.plays) == 25 and not r.play_complete


def test_play_order_notrump_highest_of_suit_led_law_44d():
    text = f"""[Deal "{DEAL_N}"]
[Declarer "S"]
[Contract "3NT"]
[Play "W"]
SK H3 S4 S3
C5 C2 C6 CK
"""
    r = one(text)
    # At notrump the SK wins trick 1 (H3 is a discard), so West leads again.
    assert played(r) == ["WSK", "NH3", "ES4", "SS3", "WC5", "NC2", "EC6", "SCK"]


def test_irregularity_marks_kept_in_annotations():
    text = f"""[Dealer "N"]
[Deal "{DEAL_N}"]
[Declarer "^S"]
[Contract "5HX"]
[Result "^5"]
[Auction "W"]
- ^S 1D ^I 1C
4S ^I 3NT ^S ^S
X 5H X AP
[Play "W"]
SK H3 S4 S3
C5 C2 ^R S5 ^L CK
"""
    r = one(text)
    assert r.declarer is Seat.SOUTH and r.result == 5 and r.tags["Declarer"] == "^S"
    first, second = r.calls[0], r.calls[1]
    assert (first.seat, str(first.call), first.annotations) == (Seat.EAST, "1D", ("^S",))
    assert (second.seat, str(second.call), second.annotations) == (Seat.SOUTH, "1C", ("^I",))
    x = r.calls[4]
    assert (x.seat, str(x.call), x.annotations) == (Seat.WEST, "X", ("^S", "^S"))
    by_card = {str(p.card): p for p in r.plays}
    assert by_card["S5"].annotations == ("^R",) and by_card["CK"].annotations == ("^L",)
    assert r.problems == []


def test_suffixes_become_nags_note_ref_first():
    r = one('[Dealer "N"]\n[Auction "N"]\n1C $13 ?! =1= 1D!\n[Note "1:x"]\n')
    assert r.calls[0].annotations == ("=1=", "$6", "$13")
    assert r.calls[1].annotations == ("$1",)


def test_bids_above_seven_are_kept_for_law_38():
    """A bid of eight or more is read (with a problem): the audit applies Law 38 to it."""
    r = one('[Dealer "N"]\n[Auction "N"]\n8S 10NT\n')
    assert [(c.call.level, c.seat) for c in r.calls] == [(8, Seat.NORTH), (10, Seat.EAST)]
    assert len(r.problems) == 2 and "internal" not in r.problems[0].message
    assert [(c.call.level, c.seat) for c in one(dumps_record(r)).calls] == [(8, Seat.NORTH),
                                                                           (10, Seat.EAST)]


def test_dash_placeholders_before_dealer_are_skipped():
    r = one('[Dealer "N"]\n[Auction "W"]\n- 1D 1S 3H\n')
    assert [c.seat for c in r.calls] == [Seat.NORTH, Seat.EAST, Seat.SOUTH]
    assert all(c.annotations == () for c in r.calls)
    assert not r.auction_complete


def test_hash_inheritance_copies_previous_game():
    text = """[Event "Club night"]
[Site "Hall"]
[Board "1"]

[Event "#"]
[Site "#"]
[Board "2"]
"""
    a, b = read_pbn(text).records
    assert a.tags == {"Event": "Club night", "Site": "Hall", "Board": "1"}
    assert b.tags["Event"] == "Club night" and b.tags["Site"] == "Hall" and b.board == 2
    assert list(b.tags) == ["Event", "Site", "Board"]


def test_double_hash_sticks_until_the_tag_is_given_again():
    text = """[Event "##Autumn regional"]
[Board "1"]

[Board "2"]

[Event "Other"]
[Board "3"]

[Board "4"]
"""
    events = [r.tags.get("Event") for r in read_pbn(text).records]
    assert events == ["Autumn regional", "Autumn regional", "Other", None]


def test_hash_with_no_previous_game_is_a_problem_with_line():
    pbn = read_pbn('\n[Event "#"]\n', file="x.pbn")
    assert pbn.records[0].tags["Event"] == ""
    (p,) = pbn.problems
    assert (p.file, p.line) == ("x.pbn", 2) and "previous game" in p.message


def test_n_first_deal_is_read_for_every_seat():
    r = one(f'[Dealer "E"]\n[Deal "{DEAL_N}"]\n')
    assert str(r.deal[Seat.NORTH]) == ".63.AKQ987.A9732"
    assert str(r.deal[Seat.EAST]) == "A8654.KQ5.T.QJT6"
    rotated = one('[Deal "E:A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85 '
                  '.63.AKQ987.A9732"]\n')
    assert rotated.deal == r.deal


def test_deal_in_lower_case_any_order_and_unknown_hand():
    r = one('[Deal "n:.36.akq789.a2379 a8654.kq5.t.qjt6 j973.j98742.3.k4 -"]\n')
    assert r.deal == Deal.parse(DEAL_N) and r.problems == []


def test_deal_with_wrong_card_count_is_kept_as_is():
    r = one('[Deal "W:KQT2.AT.J6542.852 - - -"]\n')
    assert r.deal is not None and len(r.deal[Seat.WEST]) == 14 and r.problems == []


def test_bad_deal_call_and_card_are_problems_with_line_and_board():
    text = """[Board "7"]
[Deal "W:ZKQT2.AT.J6542.85 - - -"]
[Dealer "N"]
[Contract "3NT"]
[Declarer "S"]
[Auction "N"]
1Q Pass
[Play "W"]
SK QQ S4 S3
"""
    r = one(text)
    messages = {p.line: p.message for p in r.problems}
    assert set(messages) == {2, 7, 9}
    assert all(p.board == 7 for p in r.problems)
    assert "deal" in messages[2] and "1Q" in messages[7] and "QQ" in messages[9]
    assert [str(c.call) for c in r.calls] == ["Pass"] and r.calls[0].seat is Seat.EAST
    assert played(r) == ["WSK", "ES4", "SS3"]


def test_tag_syntax_variants_and_comments():
    text = """{ game comment } ; rest of line
[Event"No space"] [Date "1998.03.21"]
 [
   Site
      "new lines"
 ]
[West "Podgor"] { West comment }
"""
    r = one(text)
    assert r.tags == {"Event": "No space", "Date": "1998.03.21", "Site": "new lines",
                      "West": "Podgor"}
    assert r.commentary == [" game comment ", " rest of line", " West comment "]


def test_escaped_strings_and_unknown_tags_kept():
    r = one('[Wrong "Unknown \\"tag\\" \\\\ here"]\n')
    assert r.tags == {"Wrong": 'Unknown "tag" \\ here'}


def test_malformed_tag_still_gives_a_board():
    pbn = read_pbn('[Event]\n\n[Event No_quotes]\n[Board "3"]\n')
    assert len(pbn.records) == 2
    assert pbn.records[1].board == 3
    assert [p.line for p in pbn.problems] == [1, 3]


def test_duplicate_tag_keeps_the_first():
    r = one('[Site "A"]\n[Site "B"]\n')
    assert r.tags["Site"] == "A" and "twice" in r.problems[0].message


def test_result_forms():
    assert parse_result("9") == 9 and parse_result("^9") == 9
    assert parse_result("NS 9", Seat.SOUTH) == 9 and parse_result("NS 9", Seat.EAST) == 4
    assert parse_result("EW 4 NS 9", Seat.NORTH) == 9 and parse_result("NS 9") is None
    assert parse_result("") is None and parse_result("?") is None
    for bad in ("C-2", "14", "NS 9 EW 2"):
        with pytest.raises(ParseError):
            parse_result(bad)


def test_contract_forms():
    assert parse_contract("Pass") == (None, True)
    assert parse_contract("3S*") == (Contract(3, Strain.SPADES, Risk.DOUBLED), False)
    assert parse_contract("4N", Seat.WEST) == (Contract(4, Strain.NOTRUMP, declarer=Seat.WEST),
                                               False)
    assert parse_contract("1CXX")[0] == Contract(1, Strain.CLUBS, Risk.REDOUBLED)
    assert parse_contract("?") == (None, False)
    for bad in ("5Hearts", "5NoTrump", "8S"):
        with pytest.raises(ParseError):
            parse_contract(bad)


def test_end_position_contract_is_only_a_strain():
    r = one('[Deal "N:.6.AKQ987.A9732 A865.KQ5.T.QJT6 J97.J98742.3.K4 QT2.AT.J6542.85"]\n'
            '[Contract "H"]\n[Play "W"]\nC5 C2 C6 CK\nS2 H6 S5 S7\n')
    assert r.contract is None and r.problems == []
    assert played(r)[4] == "SS7"  # South won trick 1 with the CK


def test_score_and_optimum_score():
    assert parse_score("NS 620") == 620 and parse_score("EW -100") == 100
    assert parse_score("620", Seat.EAST) == -620 and parse_score("620") is None
    assert parse_optimum_score("NS 620") == 620 and parse_optimum_score("EW 420") == -420
    assert parse_optimum_score("NS +90") == 90
    for bad in ("100", "EW"):
        with pytest.raises(ParseError):
            parse_optimum_score(bad)


def test_double_dummy_tricks_order_n_s_e_w_by_nt_s_h_d_c():
    table = dd_tricks_decode("43367433678a9668a966")
    assert table[Seat.NORTH, Strain.NOTRUMP] == 4 and table[Seat.NORTH, Strain.CLUBS] == 7
    assert table[Seat.EAST, Strain.SPADES] == 10 and table[Seat.WEST, Strain.HEARTS] == 9
    assert dd_tricks_encode(table) == "43367433678a9668a966"
    with pytest.raises(ParseError):
        dd_tricks_decode("43367433678a9668a96")
    with pytest.raises(ParseError):
        dd_tricks_decode("e3367433678a9668a966")


def test_tables_rows_by_line_quotes_removed():
    text = """[ScoreTable "Table\\2R;Contract\\4L;Declarer\\1R;Result\\2R;Score_NS\\6R"]
19 2HX  S  8 "670"
16 -   -  - "A+"
[TotalScoreTable "Rank\\2R;Names\\20L"]
 1 "Anne JONES ; Ernie MORRIS"
"""
    r = one(text)
    score = r.tables["ScoreTable"]
    assert score.names == ["Table", "Contract", "Declarer", "Result", "Score_NS"]
    assert score.rows == [["19", "2HX", "S", "8", "670"], ["16", "-", "-", "-", "A+"]]
    assert score.column("Score_NS") == ["670", "A+"]
    assert r.tables["TotalScoreTable"].rows == [["1", "Anne JONES ; Ernie MORRIS"]]
    text = dumps_record(r)
    assert '[ScoreTable "Table\\2R;Contract\\4L;' in text  # one backslash, as PBN writes it
    assert "\r\n16 -    -  -     A+\r\n" in text  # export pads to the declared widths
    again = one(text)
    assert again.tables["ScoreTable"].rows == score.rows
    assert again.tables["TotalScoreTable"].rows == r.tables["TotalScoreTable"].rows


def test_a_tables_rows_taken_in_one_piece_keep_their_lines_and_what_breaks_them():
    """Issue 27: the lines of words after a table's tag are read in one piece; a string, a
    comment or an escape line ends the piece and is read as before, each row its line."""
    text = """[Event "rows"]
[ScoreTable "Table;Contract;Score_NS"]
1 3S 140
 2 4H\t420\r
3 "3NT" 400
{a comment between rows}
4 2C 90
%an escape line
5 1NT 120
[Board "x"]
6 1S 80
"""
    r = one(text)
    assert r.tables["ScoreTable"].rows == [["1", "3S", "140"], ["2", "4H", "420"],
                                           ["3", "3NT", "400"], ["4", "2C", "90"],
                                           ["5", "1NT", "120"]]
    assert r.commentary == ["a comment between rows"]
    # the lines counted through the piece: the bad board number and the text after it
    assert [(p.line, p.message.split(":")[0]) for p in r.problems] == [
        (10, "not a board number"), (10, "unexpected text after [Board]")]


def test_misspelt_table_tag_is_still_a_table():
    r = one('[Scoretable "PairId_NS;Contract;Result"]\n1 3S* 9\n[Result "9"]\n')
    assert r.tables["Scoretable"].rows == [["1", "3S*", "9"]] and r.result == 9


def test_latin1_bytes_and_utf8_bytes():
    latin = '[Event "2. párový turnaj"]\r\n'.encode("iso-8859-1")
    assert one_bytes(latin).tags["Event"] == "2. párový turnaj"
    utf8 = "\ufeff[Event \"Séance\"]\n".encode()
    assert one_bytes(utf8).tags["Event"] == "Séance"


def one_bytes(data: bytes) -> GameRecord:
    (record,) = read_pbn(data).records
    return record


def test_not_text_is_a_format_error_with_line():
    with pytest.raises(FormatError) as err:
        read_pbn(b'[Event "x"]\n\x00\x01\x02', file="bin.pbn")
    assert err.value.file == "bin.pbn" and err.value.line == 2


def test_missing_file_is_a_format_error(tmp_path: Path):
    with pytest.raises(FormatError):
        read_pbn(tmp_path / "none.pbn")


def test_path_file_object_and_iter(tmp_path: Path):
    path = tmp_path / "g.pbn"
    path.write_bytes(SPEC_GAME.replace("\n", "\r\n").encode("iso-8859-1"))
    by_path = read_pbn(path)
    assert by_path.file == str(path) and by_path.records[0].file == str(path)
    with path.open("rb") as handle:
        assert read_pbn(handle).records[0].plays == by_path.records[0].plays
    assert read_pbn(str(path)).records[0].calls == by_path.records[0].calls
    assert [r.board for r in iter_pbn(path)] == [1]


def test_header_and_escape_lines():
    pbn = read_pbn('% PBN 2.1\n% EXPORT\n[Board "1"]\n%%!R 7597\n\n[Board "2"]\n')
    assert pbn.header == ["% PBN 2.1", "% EXPORT"]
    assert pbn.escapes == [(4, "%%!R 7597")]


def test_export_format_layout():
    r = one(SPEC_GAME)
    r.tags["Room"] = "Open"
    text = write_pbn([r, r])
    lines = text.split("\r\n")
    assert "\n" not in text.replace("\r\n", "")
    assert lines[:3] == ["% PBN 2.1", "% EXPORT", '[Event "International"]']
    names = [line[1:line.index(" ")] for line in lines if line.startswith("[")][:15]
    assert names == ["Event", "Site", "Date", "Board", "West", "North", "East", "South",
                     "Dealer", "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result"]
    assert '[Site "?"]' in lines
    auction = lines.index('[Auction "N"]')
    assert lines[auction + 1:auction + 5] == ["1D 1S 3H =1= 4S", "4NT =2= X Pass Pass",
                                              "5C X 5H X", "Pass Pass Pass"]
    assert lines[auction + 5] == '[Note "1:non-forcing 6-9 points, 6-card"]'
    play = lines.index('[Play "W"]')
    assert lines[play + 1] == "SK H3 S4 S3" and lines[play + 7] == "-  -  -  H2"
    assert lines[play + 8] == "*" and lines[play + 9] == '[Room "Open"]'
    assert lines.count("") == 2  # the empty line between the games, and the end


def test_export_deal_written_from_dealer():
    r = one(f'[Dealer "E"]\n[Deal "{DEAL_N}"]\n')
    assert '[Deal "E:A8654.KQ5.T.QJT6 ' in dumps_record(r)
    assert f'[Deal "{DEAL_N}"]' in dumps_record(r, export=False)


def test_writer_numbers_notes_for_explanations():
    r = GameRecord(board=1, dealer=Seat.WEST, calls=[
        CallRecord(Seat.WEST, Call.parse("1NT"), alert=True, explanation="15-17"),
        CallRecord(Seat.NORTH, Call.parse("2C"), alert=True, explanation="majors"),
        CallRecord(Seat.EAST, Call.parse("X"), alert=True)])
    text = dumps_record(r)
    assert "1NT =1= 2C =2= X =3=" in text and '[Note "2:majors"]' in text
    again = one(text)
    assert [(c.alert, c.explanation) for c in again.calls] == [(True, "15-17"),
                                                               (True, "majors"), (True, None)]
    assert "*" in text.split("\r\n")  # the auction is not over


def test_writer_skipped_seat_and_out_of_rotation_first_call():
    r = GameRecord(dealer=Seat.NORTH, calls=[CallRecord(Seat.WEST, Call.parse("1D")),
                                             CallRecord(Seat.EAST, Call.parse("1S"))])
    again = one(dumps_record(r))
    assert [(c.seat, str(c.call)) for c in again.calls] == [(Seat.WEST, "1D"), (Seat.EAST, "1S")]
    assert again.calls[1].annotations == ("^S",)


def test_writer_play_with_claim_padding_round_trips():
    r = one(SPEC_GAME)
    r.plays = r.plays[:10]
    again = one(dumps_record(r))
    assert again.plays == r.plays and not again.play_complete


def test_card_annotations_and_play_notes_round_trip():
    r = one(SPEC_GAME.replace("SK H3", "SK =1= $14 H3") + '[Note "1:highest of series"]\n')
    assert r.plays[0] == CardRecord(Seat.WEST, Card.parse("SK"), None, ("=1=", "$14"))
    assert r.play_notes == {1: "highest of series"} and r.notes[1].startswith("non-forcing")
    again = one(dumps_record(r))
    assert again.plays == r.plays and again.play_notes == r.play_notes
    assert again.notes == r.notes


def test_save_pbn_keeps_what_latin1_cannot_hold_in_utf8(tmp_path: Path):
    """"Séance ♠": ♠ is not Latin-1, so the file is UTF-8 with its content-type line, not
    "Séance ?" (a name lost); "Séance" alone stays PBN's ISO-8859-1."""
    r = GameRecord(board=1, tags={"Event": "Séance ♠"})
    path = tmp_path / "out.pbn"
    save_pbn(path, [r])
    data = path.read_bytes()
    assert "Séance ♠".encode() in data and b"\r\n" in data
    assert b"charset=UTF-8" in data
    assert read_pbn(path).records[0].tags["Event"] == "Séance ♠"
    save_pbn(path, [GameRecord(board=1, tags={"Event": "Séance"})])
    assert "Séance".encode("iso-8859-1") in path.read_bytes()


def test_a_pbn_file_is_latin1_unless_a_name_needs_utf8(tmp_path):
    """PBN's own charset when everything fits (Müller, Zoë); UTF-8 with the content-type
    line when a name does not (Łukasz Wiśniewski, 山田 太郎): never a "?"; bridgecore reads
    both back with every name."""
    from bridgecore.pbn_writer import pbn_bytes
    from bridgecore.record import GameRecord

    def record(north: str) -> GameRecord:
        game = GameRecord(board=1)
        game.tags["North"] = north
        return game

    data, charset = pbn_bytes([record("Zoë Müller")])
    assert charset == "ISO-8859-1" and "Zoë Müller".encode("latin-1") in data
    data, charset = pbn_bytes([record("Łukasz Wiśniewski"), record("山田 太郎")])
    assert charset == "UTF-8" and b"?" not in data.replace(b'"?"', b"")
    assert data.decode("utf-8").startswith(
        "% PBN 2.1\r\n% EXPORT\r\n%Content-type: text/x-pbn; charset=UTF-8\r\n")
    path = tmp_path / "names.pbn"
    save_pbn(path, [record("Łukasz Wiśniewski"), record("山田 太郎")])
    assert [r.tags["North"] for r in read_pbn(path).records] == ["Łukasz Wiśniewski",
                                                                  "山田 太郎"]
