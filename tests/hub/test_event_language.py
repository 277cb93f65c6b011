"""The event's language (the set-up's ``language``, docs/translating.md): the words the hub
writes into the results files and the travellers are that language's; each reader of a
message (a not-scored line's reason, a scoring problem) still reads it in his own.

* every results file of a session set up in French (then Italian), with no title given,
  read back: its title is the language's (``export.title``), no English sentence of the
  hub's is in it, and what the formats define (tags, elements, ``Scoring``) is unchanged;
* a line never scored (Law 15B: a pair playing a board a second time) carries its reason in
  the event's language in the traveller (``not_scored``) and as a message
  (``not_scored_text``) that the results pages render in the visitor's language;
* the field's problems (hub.field) and bridgecore's scoring problems are messages too.
"""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from bridgecore.adjusted import BoardResult
from bridgecore.bigdeal import random_deal
from bridgecore.movements import howell, mitchell
from bridgecore.ranking import Method, score_event
from bridgecore.results_io import read_pbn_results
from bridgecore.text import Text
from bridgecore.usebio import read_usebio
from hub.console_i18n import CATALOGS, say
from hub.event import EventSetup
from hub.field import FieldRanking
from hub.results_pages import board_page
from hub.room import Room, Section
from hub.session_export import EXPORTS, export
from hub.texts import render
from tests.hub.test_export_names import PAIRS, PLAYED
from tests.hub.test_live_scoring import Session
from tests.hub.test_scoring_conventions import DEALS, MISPLAYED, play_board

ENCODING = {"usebio.xml": "utf-8", "ecats.xml": "utf-8", "results.pbn": "utf-8",
            "bridgewebs.pbn": "latin-1", "ffb.pbn": "latin-1"}


def played(language: str) -> Session:
    deals = {n: random_deal(random.Random(500 + n)) for n in range(1, 7)}
    session = Session(Room(Section("A", mitchell(3, boards_per_round=2), pairs=PAIRS), deals,
                           language=language))
    session.play(PLAYED)
    return session


def english_sentences() -> set[str]:
    """Every sentence the hub may write into a file, in English: the catalog's texts of the
    keys the exports use, their fields left out."""
    english = CATALOGS.source
    return {part.strip() for key in ("export.title",)
            for part in english[key].replace("{section}", "\0").split("\0") if part.strip()}


@pytest.mark.parametrize(("language", "title"), [("fr", "Séance Tenace, section A"),
                                                 ("it", "Sessione Tenace, sezione A")])
def test_every_results_file_of_an_event_in_its_language_has_its_words(
        language: str, title: str) -> None:
    session = played(language)
    assert say(language, "export.title", section="A") == title
    english = english_sentences()
    assert english == {"Tenace session, section"}
    for name in EXPORTS:
        body, _ = export(session.room, name, "A", date="2026-11-26")
        text = body.decode(ENCODING[name])
        assert title in text, (name, text[:400])
        for sentence in english:
            assert sentence not in text, (name, sentence)
    # Read back: the title, and the formats' own values as they were.
    pbn = read_pbn_results(export(session.room, "results.pbn", "A")[0])
    assert pbn.title == title and pbn.scoring == "MatchPoints;MP2" and not pbn.problems
    usebio = export(session.room, "usebio.xml", "A")[0]
    assert read_usebio(usebio).title == title
    root = ET.fromstring(usebio)
    assert root.findtext("EVENT/BOARD_SCORING_METHOD") == "MATCH_POINTS"
    assert root.find("EVENT").get("EVENT_TYPE") == "PAIRS"   # type: ignore[union-attr]
    ffb = export(session.room, "ffb.pbn", "A")[0].decode("latin-1")
    assert f'content="{title}"' in ffb and '[Competition "Pairs"]' in ffb


def test_an_english_event_keeps_its_english_title_and_a_given_title_wins() -> None:
    session = played("en")
    body, _ = export(session.room, "results.pbn", "A")
    assert read_pbn_results(body).title == "Tenace session, section A"
    french = played("fr")
    body, _ = export(french.room, "results.pbn", "A", title="Tournoi du jeudi")
    assert read_pbn_results(body).title == "Tournoi du jeudi"   # the director's words


def test_the_set_ups_language_reaches_the_room_and_its_files(tmp_path: Path) -> None:
    setup = EventSetup.from_json(dict(EventSetup.from_json(
        _setup_json()).to_json(), event=dict(_setup_json()["event"], language="it")))
    assert setup.language == "it" and setup.build_room().language == "it"
    assert setup.to_json()["event"]["language"] == "it"
    assert EventSetup.from_json(setup.to_json()) == setup
    assert "Results written in Italian" in setup.summary("en")
    assert "Résultats rédigés en italien" in setup.summary("fr")
    english = EventSetup.from_json(_setup_json())
    assert english.language == "" and english.build_room().language == "en"
    assert "language" not in english.to_json()["event"]     # an older log's set-up, the same


def _setup_json() -> dict[str, object]:
    deals = {str(n): random_deal(random.Random(n)).pbn() for n in range(1, 7)}
    return {"v": 1, "event": {"name": "", "session": "", "edition": "2017",
                              "minutes_per_round": 15, "strict": False,
                              "clock_tolerance": 120},
            "section": [{"name": "A", "movement": "mitchell", "tables": 3,
                         "boards_per_round": 2}],
            "boards": {"source": "", "deals": deals}}


def misplayed(language: str) -> Session:
    s = Session(Room(Section("A", howell(4, boards_per_round=2)), DEALS, language=language))
    for play in MISPLAYED:
        play_board(s, *play)
    return s


def test_law_15b_a_not_scored_line_says_why_in_the_events_language_and_as_a_message() -> None:
    """Law 15B: pairs 1 and 2 both had board 1 before table A4 played it in round 5: the
    traveller says why in the event's language (French), and carries the message, which a
    visitor reads in his own (Italian, English); the results page's board has them both."""
    s = misplayed("fr")
    traveller = s.room.scoring.section("A").traveller_json(1)
    line = next(r for r in traveller["results"] if r["NS"] == 1)
    assert line["scored"] is False
    assert line["not_scored"] == ("la paire 1 a déjà joué la donne, à la table A1 au tour 1 ; "
                                  "la seconde marque est annulée (Loi 15B)")
    message = Text.from_json(line["not_scored_text"])
    assert message == Text.of("problem.played_before", pair=1, table="A1", round=1)
    assert render(message, "it").startswith("la coppia 1 ha già giocato il board")
    assert render(message, "en").startswith("pair 1 played the board before")
    scored = next(r for r in traveller["results"] if r["NS"] == 8)
    assert scored["not_scored"] is None and scored["not_scored_text"] is None
    page = board_page(s.room, 1)
    shown = next(r for r in page["sections"][0]["results"] if r["NS"] == 1)
    assert shown["not_scored_text"] == line["not_scored_text"]
    card = s.room.scoring.section("A").card(1)
    assert any(c["not_scored_text"] == line["not_scored_text"] for c in card)
    # The section's problems: messages, the reason inside (results pages: problem_texts).
    problems = [render(p, "it") for p in s.room.scoring.section("A").problems]
    assert any(p.startswith("board 1, tavolo A4, turno 5 non segnato: la coppia 1")
               for p in problems)
    english = misplayed("en").room.scoring.section("A").traveller_json(1)["results"]
    assert next(r for r in english if r["NS"] == 1)["not_scored"].startswith(
        "pair 1 played the board before")


def test_the_fields_problems_are_messages_in_the_events_language() -> None:
    """hub.field: a line not scored in its section, an adjusted score and a section scored
    by IMPs are left out of the field, each said as a message, written in the event's
    language in ``problems`` (French here), rendered in any other."""
    s = misplayed("fr")
    field = FieldRanking("2017", "", language="fr")
    field.traveller("A", 1, s.room.scoring.section("A").traveller_json(1))
    other = dict(s.room.scoring.section("A").traveller_json(5), method="butler")
    field.traveller("B", 5, other)
    problems = field.ranking_json()["problems"]
    assert "section B : classée en butler, hors du classement général" in problems
    assert any(p.startswith("donne 1, section A, table A4 non marquée : la paire 1 a déjà "
                            "joué la donne")
               for p in problems), problems
    texts = [Text.from_json(t) for t in field.problem_texts()]
    assert {t.key for t in texts} >= {"problem.field_method", "problem.field_not_scored"}
    assert any(render(t, "pl").startswith("rozdanie 1, sektor A, stół A4 nie policzone: ")
               for t in texts)


def test_bridgecores_scoring_problems_render_in_every_language() -> None:
    """A result impossible on its board (Law 77) and a pair playing a board twice: the
    problems bridgecore finds are messages with their English words (``tenace score``) the
    same as the English catalog renders them, and in French and Dutch the catalogs'."""
    rows = [BoardResult(1, 1, 2, 420), BoardResult(1, 3, 4, 421), BoardResult(1, 1, 5, 400)]
    event = score_event(rows, Method.MATCHPOINTS)
    assert [p.text.key for p in event.problems if p.text] == ["score.impossible",
                                                              "score.twice"]
    for problem in event.problems:
        assert render(problem.as_text(), "en") == str(problem)
    french = [render(p.as_text(), "fr") for p in event.problems]
    assert french[0].startswith("donne 1 : 3 contre 4 : marque impossible 421")
    assert "Loi 77" in french[0]
    assert french[1] == "donne 1 : 1 joue la donne deux fois : 1 contre 5 n'est pas marqué"
    dutch = render(event.problems[1].as_text(), "nl")
    assert dutch == "spel 1: 1 speelt het spel twee keer: 1 tegen 5 wordt niet berekend"


def test_a_movement_files_schedule_problems_are_in_the_directors_language(
        tmp_path: Path) -> None:
    """A club's .ASC file whose pairs meet twice: the set-up's summary (the console's
    Check) says so, in the language of the director who reads it; bridgecore's English
    (``Movement.validate``) is the catalog's."""
    (tmp_path / "club.asc").write_text("4 2 2 2 0\n1-2 A 3-4 B\n1-2 B 3-4 A\n")
    (tmp_path / "event.toml").write_text('[[section]]\nname = "H"\nmovement_file = '
                                         '"club.asc"\nboards_per_round = 2\n')
    setup = EventSetup.load(tmp_path / "event.toml")
    movement = setup.sections[0].movement
    assert movement.validate() == ["pairs 1 and 2 meet 2 times (rounds 1, 2)",
                                   "pairs 3 and 4 meet 2 times (rounds 1, 2)"]
    french = setup.summary("fr")
    assert "Le fichier de mouvement prévoit : les paires 1 et 2 se rencontrent 2 fois " \
           "(tours 1, 2)" in french, french
    italian = setup.summary("it")
    assert "Il file di movimento prevede: le coppie 3 e 4 si incontrano 2 volte " \
           "(turni 1, 2)" in italian, italian
    english = setup.summary("en")
    assert "The movement file's schedule: pairs 1 and 2 meet 2 times (rounds 1, 2)" in english
    assert not any("schedule" in line for line in EventSetup.from_json(
        _setup_json()).summary("en"))                        # a built-in movement: none


def test_the_rankings_problems_are_in_the_events_language() -> None:
    """``results/ranking/{section}``'s ``problems`` (protocol 12.2): written once for every
    reader, in the event's language; the results pages' ``problem_texts`` are the same as
    messages."""
    french = misplayed("fr").room.scoring.section("A")
    problems = french.ranking_json()["problems"]
    assert problems and problems[0].startswith("donne 1, table A4, tour 5 non marquée : la "
                                               "paire 1 a déjà joué la donne"), problems
    assert not any("))" in p for p in problems), problems   # issue 25: no nested brackets
    assert [render(Text.from_json(t), "fr") for t in french.problem_texts()] == problems
    english = misplayed("en").room.scoring.section("A").ranking_json()["problems"]
    assert english[0].startswith("board 1, table A4, round 5 not scored: pair 1 played the "
                                 "board before")
