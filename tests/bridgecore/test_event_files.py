"""An event's total as files (bridgecore/event_files.py): USEBIO 1.2 with the event's total
under EVENT and each session's ranking in its SESSION, and the results site's PBN, on a
small event worked by hand (two sessions, a tie for second)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

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
