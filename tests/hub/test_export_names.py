"""Every name through every results file (hub/session_export.py, bridgecore.latin1): a
French club's roster, a CSV file with a byte order mark, gives the pairs their players
(Müller, Gaëlle, Zoë O'Brien, Łukasz Wiśniewski, 山田 太郎...); the session is played and
each file is read back, by bridgecore's readers and by an independent one (endplay's PBN
reader; a plain XML parse of USEBIO, its shape checked against the EBU's published example,
tests/data/ebu_sample_mp_pairs_pairsscorer_v1.2.xml):

* ``usebio.xml`` (and ``ecats.xml``): UTF-8, one ``PLAYER`` a player with its name as
  written and its ``NATIONAL_ID_NUMBER`` from the roster, the event's name and the session's
  date (26/11/2026, not the day of the download);
* ``results.pbn``: UTF-8 said by its ``%Content-type`` line, ``[Event]`` and ``[Date]``
  filled, the names in the TotalScoreTable as written;
* ``bridgewebs.pbn``: ISO-8859-1, the names transliterated ("Lukasz Wisniewski", "Antonin
  Dvorak" keeps the í Latin-1 has: "Antonín Dvorák"), never a "?"; 山田 太郎, whom no table
  can romanise, is written by his member number.
"""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from pathlib import Path

from endplay.parsers import pbn as endplay_pbn

from bridgecore.bigdeal import random_deal
from bridgecore.latin1 import UNWRITABLE, to_latin1
from bridgecore.movements import mitchell
from bridgecore.results_io import read_pbn_results
from bridgecore.usebio import read_usebio
from hub.room import Room, Section
from hub.roster import Roster, parse_csv
from hub.session_export import EXPORTS, export
from tests.hub.test_live_scoring import Session

DATA = Path(__file__).resolve().parents[1] / "data"
EBU_SAMPLE = DATA / "ebu_sample_mp_pairs_pairsscorer_v1.2.xml"

# A French club's export: semicolons, a byte order mark, "Nom;Prénom;Licence".
ROSTER_CSV = "\ufeffNom;Prénom;Licence\r\n" + "".join(f"{last};{first};{number}\r\n" for (
    first, last, number) in [
    ("Hans", "Müller", 1001), ("Gaëlle", "Durand", 1002), ("Zoë", "O'Brien", 1003),
    ("Łukasz", "Wiśniewski", 1004), ("太郎", "山田", 1005), ("Antonín", "Dvořák", 1006),
    ("Jean", "Dupont", 1007), ("Jean", "Dupont", 1008), ("Anne", "Roux", 1009),
])
# The roster joins first and last name: "Hans Müller". Jean Dupont is two members: his
# number is not guessed.
PAIRS = {1: ("Hans Müller", "Gaëlle Durand"), 2: ("Zoë O'Brien", "Łukasz Wiśniewski"),
         4: ("太郎 山田", "Antonín Dvořák"), 5: ("Jean Dupont", "Anne Roux")}
NUMBERS = {"Hans Müller": "1001", "Gaëlle Durand": "1002", "Zoë O'Brien": "1003",
           "Łukasz Wiśniewski": "1004", "太郎 山田": "1005", "Antonín Dvořák": "1006",
           "Jean Dupont": "", "Anne Roux": "1009"}
PLAYED = [(1, "A1", 1, "4S", 10), (1, "A1", 2, "3NT", 9), (2, "A3", 1, "4S", 11),
          (2, "A3", 2, "3NT", 8), (3, "A2", 1, "4S", 9), (3, "A2", 2, "3NT", 10)]
TITLE = "Tournoi du jeudi – Île-de-France"


def played_session() -> tuple[Session, Roster]:
    roster = Roster(parse_csv(ROSTER_CSV.encode("utf-8")))
    assert [m.name for m in roster.members][:2] == ["Hans Müller", "Gaëlle Durand"]
    deals = {n: random_deal(random.Random(500 + n)) for n in range(1, 7)}
    session = Session(Room(Section("A", mitchell(3, boards_per_round=2), pairs=PAIRS), deals))
    session.play(PLAYED)
    return session, roster


def exported(name: str) -> bytes:
    session, roster = played_session()
    body, _ = export(session.room, name, "A", title=TITLE, date="2026-11-26", roster=roster)
    return body


def test_transliteration_keeps_latin1_and_never_writes_a_question_mark() -> None:
    assert to_latin1("Müller") == "Müller" and to_latin1("Zoë O'Brien") == "Zoë O'Brien"
    assert to_latin1("Łukasz Wiśniewski") == "Lukasz Wisniewski"
    assert to_latin1("Antonín Dvořák") == "Antonín Dvorák"
    assert to_latin1("Đorđe Œuvray") == "Dorde OEuvray"
    assert to_latin1("山田 太郎") == UNWRITABLE
    assert to_latin1("山田 太郎", fallback="#1005") == "#1005"
    assert to_latin1("Ivan Петров") == "Ivan"


def test_usebio_has_one_player_a_player_with_the_rosters_member_number() -> None:
    data = exported("usebio.xml")
    assert data.startswith(b'<?xml version="1.0" encoding="UTF-8"?>')
    root = ET.fromstring(data)                     # an independent parse: the XML itself
    event = root.find("EVENT")
    assert event is not None
    assert event.findtext("EVENT_DESCRIPTION") == TITLE
    assert event.findtext("DATE") == "26/11/2026"  # the session's, USEBIO 1.2's dd/mm/yyyy
    players = {}
    for pair in root.iter("PAIR"):
        found = pair.findall("PLAYER")
        number = int(pair.findtext("PAIR_NUMBER") or 0)
        if number in PAIRS:
            assert len(found) == 2, f"pair {number}: one PLAYER a player"
        for player in found:
            players[player.findtext("PLAYER_NAME")] = player.findtext("NATIONAL_ID_NUMBER") or ""
    assert players == NUMBERS
    # bridgecore's reader gives the same players, numbers and all
    back = read_usebio(data)
    assert [(p.name, p.number) for p in back.players[2]] == [
        ("Zoë O'Brien", "1003"), ("Łukasz Wiśniewski", "1004")]
    assert back.names[4] == "太郎 山田 - Antonín Dvořák"
    assert back.title == TITLE and back.date == "2026.11.26"


def test_usebio_players_have_the_shape_of_the_ebus_published_example() -> None:
    """Each element of a PAIR's PLAYER in the export is one the EBU's own example has there,
    in the same places (PAIR > PLAYER > PLAYER_NAME, NATIONAL_ID_NUMBER)."""
    sample = ET.parse(EBU_SAMPLE).getroot()
    allowed = {(parent.tag, child.tag) for parent in sample.iter() for child in parent}
    ours = ET.fromstring(exported("usebio.xml"))
    edges = {(parent.tag, child.tag) for parent in ours.iter() for child in parent}
    player_edges = {e for e in edges if "PLAYER" in e[0] or "PLAYER" in e[1]}
    assert player_edges == {("PAIR", "PLAYER"), ("PLAYER", "PLAYER_NAME"),
                            ("PLAYER", "NATIONAL_ID_NUMBER")}
    assert player_edges <= allowed


def test_ecats_is_the_same_lossless_usebio() -> None:
    assert exported("ecats.xml") == exported("usebio.xml")


def test_results_pbn_is_utf8_with_event_date_and_every_name_as_written() -> None:
    data = exported("results.pbn")
    text = data.decode("utf-8")
    assert text.startswith("% PBN 2.1\r\n% EXPORT\r\n%Content-type: text/x-pbn; charset=UTF-8")
    assert f'[Event "{TITLE}"]' in text and '[Date "2026.11.26"]' in text
    assert '[Event "?"]' not in text and '[Date "?"]' not in text
    back = read_pbn_results(data)
    assert not back.problems, back.problems
    assert back.names[2] == "Zoë O'Brien - Łukasz Wiśniewski"
    assert back.names[4] == "太郎 山田 - Antonín Dvořák"
    assert back.title == TITLE and back.date == "2026.11.26"
    # endplay's PBN reader, independent of bridgecore: the same event, date and names
    boards = endplay_pbn.loads(text)
    assert boards[0].info["Event"] == TITLE and boards[0].info["Date"] == "2026.11.26"
    table = boards[0].info["TotalScoreTable"]
    # endplay gives a column with a width as a dict, one without ("Names") as its name
    names_at = [h["name"] if isinstance(h, dict) else h for h in table["headers"]].index(
        "Names")
    # endplay splits a table's row at every space, quotes or not: the names are the rest
    names = {" ".join(row[names_at:]).strip('"') for row in table["rows"]}
    assert "Hans Müller - Gaëlle Durand" in names
    assert "太郎 山田 - Antonín Dvořák" in names


def test_the_results_site_file_is_latin1_transliterated_with_the_names() -> None:
    data = exported("bridgewebs.pbn")
    text = data.decode("latin-1")
    assert "%Content-type: text/pbn; charset=ISO-8859-1" in text
    assert "?ukasz" not in text and "Wi?niewski" not in text
    back = read_pbn_results(data)
    assert not back.problems, back.problems
    assert back.names == {1: "Hans Müller - Gaëlle Durand",
                          2: "Zoë O'Brien - Lukasz Wisniewski",
                          4: "#1005 - Antonín Dvorák",        # no romanisation: his number
                          5: "Jean Dupont - Anne Roux"}
    assert back.title == to_latin1(TITLE) == "Tournoi du jeudi - Île-de-France"
    boards = endplay_pbn.loads(text)
    assert boards[0].info["Date"] == "2026.11.26"


def test_every_export_is_dated_by_the_session_not_the_download() -> None:
    """Without a date in the set-up, the day the session's first board was over (the
    Session's clock: 1,000,000 s after 1970, 12 January 1970), not the download's."""
    session, roster = played_session()
    later = session.now + 400 * 86400
    for name in EXPORTS:
        body, _ = export(session.room, name, "A", title=TITLE, roster=roster, now=later)
        if name.endswith(".xml"):
            assert ET.fromstring(body).findtext("EVENT/DATE") == "12/01/1970", name
        else:
            assert b'[Date "1970.01.12"]' in body, name
