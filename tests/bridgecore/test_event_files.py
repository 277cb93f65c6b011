"""An event's total as files (bridgecore/event_files.py): USEBIO 1.2 with the event's total
under EVENT and each session's ranking in its SESSION, and the results site's PBN, on a
small event worked by hand (two sessions, a tie for second)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import replace

from bridgecore.event_files import (
    EventEntry,
    SessionEntry,
    SessionPart,
    write_event_pbn,
    write_usebio_event,
)

TOTAL = [EventEntry(("Ada North", "Zoë Łukasz"), 56.25, 1, 48, (60.0, 52.5)),
         EventEntry(("Cleo Park", "Dan Quill"), 50.0, 2, 48, (45.0, 55.0)),
         EventEntry(("Eve Rowan", "Finn Stone"), 50.0, 2, 48, (55.0, 45.0))]
SESSIONS = [
    SessionPart(1, "First evening", "2026-11-02", (("A", (
        SessionEntry(3, ("Ada North", "Zoë Łukasz"), 60.0, 1, 24),
        SessionEntry(1, ("Eve Rowan", "Finn Stone"), 55.0, 2, 24),
        SessionEntry(2, ("Cleo Park", "Dan Quill"), 45.0, 3, 24))),)),
    SessionPart(2, "Second evening", "2026-11-09", (("A", (
        SessionEntry(1, ("Cleo Park", "Dan Quill"), 55.0, 1, 24),
        SessionEntry(2, ("Ada North", "Zoë Łukasz"), 52.5, 2, 24),
        SessionEntry(3, ("Eve Rowan", "Finn Stone"), 45.0, 3, 24))),))]


def test_usebio_has_the_total_under_event_and_each_session_apart() -> None:
    data = write_usebio_event("Autumn pairs", "2026-11-09", TOTAL, SESSIONS)
    assert data.startswith(b'<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE USEBIO')
    event = ET.fromstring(data.split(b"\n", 2)[2]).find("EVENT")
    assert event is not None
    assert (event.findtext("SESSION_COUNT"), event.findtext("DATE"),
            event.findtext("WINNER_TYPE")) == ("2", "09/11/2026", "1")
    participants = event.find("PARTICIPANTS")
    assert participants is not None
    rows = [(p.findtext("PLACE"), p.findtext("PERCENTAGE"), p.findtext("BOARDS_PLAYED"),
             [n.text for n in p.iter("PLAYER_NAME")]) for p in participants.findall("PAIR")]
    assert rows == [("1", "56.25", "48", ["Ada North", "Zoë Łukasz"]),   # every name as written
                    ("2=", "50.00", "48", ["Cleo Park", "Dan Quill"]),
                    ("2=", "50.00", "48", ["Eve Rowan", "Finn Stone"])]
    sessions = event.findall("SESSION")
    assert [(s.get("SESSION_ID"), s.findtext("DATE")) for s in sessions] == [
        ("1", "02/11/2026"), ("2", "09/11/2026")]
    first = [(p.findtext("PAIR_NUMBER"), p.findtext("PLACE"), p.findtext("PERCENTAGE"))
             for p in sessions[0].iter("PAIR")]
    assert first == [("3", "1", "60.00"), ("1", "2", "55.00"), ("2", "3", "45.00")]


def test_the_results_site_file_has_the_total_score_table() -> None:
    data = write_event_pbn("Autumn pairs", "2026-11-09", TOTAL, 2)
    text = data.decode("iso-8859-1")
    assert "\r\n" in text and '[Event "Autumn pairs"]' in text and '[Date "2026.11.09"]' in text
    assert ('[TotalScoreTable "Rank\\3R;TotalPercentage\\6R;Percentage_1\\6R;'
            'Percentage_2\\6R;NrBoards\\3R;Names\\40L"]') in text
    lines = text.split("\r\n")
    first = lines.index(next(x for x in lines if x.startswith("[TotalScoreTable"))) + 1
    assert lines[first:first + 3] == [
        '  1  56.25  60.00  52.50  48 "Ada North - Zoë Lukasz"',  # Latin-1: Ł transliterated
        ' 2=  50.00  45.00  55.00  48 "Cleo Park - Dan Quill"',
        ' 2=  50.00  55.00  45.00  48 "Eve Rowan - Finn Stone"']
    carried = write_event_pbn("Final", "", [EventEntry(("A B",), 55.0, 1, 24, (None, 50.0),
                                                       5.0, "NS")], 2, carry=True)
    assert b"Direction\\2L" in carried and b"Carry\\6R" in carried
    assert b'  1 NS  55.00      -  50.00  +5.00  24 "A B"' in carried


def test_an_event_of_imps_has_total_scores() -> None:
    """Butler sessions added up: the event's and each session's totals are TOTAL_SCOREs
    (no percentage), the method BUTLER_IMPS; the PBN's columns TotalIMP and IMP_1...;
    teams of VPs: a TEAMS event, MATCH_SCORING_METHOD VPS, the PBN's TotalScore."""
    total = [EventEntry(("Ada North", "Ben Oakes"), 8.0, 1, 50, (12.0, -4.0)),
             EventEntry(("Cleo Park", "Dan Quill"), -8.0, 2, 50, (-12.0, 4.0))]
    parts = [SessionPart(1, "", "", (("A", (
        SessionEntry(1, ("Ada North", "Ben Oakes"), None, 1, 24, None, 12.0),
        SessionEntry(2, ("Cleo Park", "Dan Quill"), None, 2, 24, None, -12.0))),))]
    event = ET.fromstring(write_usebio_event("Butler", "", total, parts, scores="imps",
                                             method="butler").split(b"\n", 2)[2]).find("EVENT")
    assert event is not None and event.findtext("BOARD_SCORING_METHOD") == "BUTLER_IMPS"
    top = event.find("PARTICIPANTS")
    assert top is not None
    assert [(p.findtext("TOTAL_SCORE"), p.findtext("PERCENTAGE")) for p in top] == [
        ("8.00", None), ("-8.00", None)]
    assert [p.findtext("TOTAL_SCORE") for p in event.iter("PAIR")][2:] == ["12.00", "-12.00"]
    pbn = write_event_pbn("Butler", "", total, 1, scores="imps").decode("iso-8859-1")
    assert '[Scoring "IMP"]' in pbn and "TotalIMP\\6R;IMP_1\\6R" in pbn
    assert '  1   8.00  12.00  -4.00  50 "Ada North - Ben Oakes"' in pbn
    teams = ET.fromstring(write_usebio_event("Teams", "", total, parts, scores="vp",
                                             method="imp").split(b"\n", 2)[2]).find("EVENT")
    assert teams is not None and teams.get("EVENT_TYPE") == "TEAMS"
    assert teams.findtext("MATCH_SCORING_METHOD") == "VPS"
    assert b"TotalScore\\6R;Score_1\\6R" in write_event_pbn("Teams", "", total, 1, scores="vp")


def test_each_session_carries_its_boards_and_reads_back() -> None:
    """Every session's boards under its SECTION, as a session's own file has them: board 1
    of the first evening 3NT by South making 9 (400) with 2 and 0 matchpoints (MP1), 4♠
    doubled by West one down (NS +100) the other way; the second evening's board 1 passed
    out, and an adjusted score (A+ A-: no score, its ruling in NOTES). Read back by an XML
    parse and by bridgecore's USEBIO reader: every line, the scores as played."""
    from bridgecore.event_files import SessionBoard, TravellerLine
    from bridgecore.usebio import read_usebio
    first = replace(SESSIONS[0], boards={"A": [SessionBoard(1, (
        TravellerLine(1, 2, "3NT", "S", 9, 400, None, 2.0, 0.0),
        TravellerLine(3, 4, "4SX", "W", 9, 100, None, 0.0, 2.0)))]})
    second = replace(SESSIONS[1], boards={"A": [SessionBoard(1, (
        TravellerLine(1, 3, "PASS", None, None, 0, None, 1.0, 1.0),
        TravellerLine(2, 4, None, None, None, None, "A+ A-", 1.2, 0.8)))]})
    data = write_usebio_event("Autumn pairs", "2026-11-09", TOTAL, [first, second])
    event = ET.fromstring(data.split(b"\n", 2)[2]).find("EVENT")
    assert event is not None
    boards = [[[(line.findtext("NS_PAIR_NUMBER"), line.findtext("CONTRACT"),
                 line.findtext("PLAYED_BY"), line.findtext("TRICKS"), line.findtext("SCORE"),
                 line.findtext("NOTES"), line.findtext("NS_MATCH_POINTS"))
                for line in board.iter("TRAVELLER_LINE")]
               for board in session.iter("BOARD")] for session in event.findall("SESSION")]
    assert boards == [
        [[("1", "3NT", "S", "9", "400", None, "2.00"), ("3", "4SX", "W", "9", "100", None,
                                                        "0.00")]],
        [[("1", "PASS", None, None, "0", None, "1.00"),
          ("2", None, None, None, "", "Ruling: A+ A-", "1.20")]]]
    read = read_usebio(data)
    assert [str(p) for p in read.problems] == []
    assert sorted((r.result.board, r.result.ns, r.result.ew, r.result.score_ns,
                   r.passed_out, r.tricks) for r in read.rows) == [
        (1, 1, 2, 400, False, 9), (1, 1, 3, 0, True, None), (1, 2, 4, None, False, None),
        (1, 3, 4, 100, False, 9)]
    adjusted = next(r for r in read.rows if r.result.ns == 2)
    assert adjusted.result.adjustment is not None
    assert read.names[1] == "Eve Rowan - Finn Stone"     # the players, by pair number
