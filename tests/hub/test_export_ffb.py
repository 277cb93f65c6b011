"""``ffb.pbn``: the session in the PBN Magic Contest writes for the FFB (bridgecore.ffb),
its columns those of a real Magic Contest file (an FFB national final, tests/data/realdata/
pbn-results, SOURCES.md there), read back by bridgecore's reader and by endplay's."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from endplay.parsers import pbn as endplay_pbn

from bridgecore.bigdeal import random_deal
from bridgecore.movements import mitchell
from bridgecore.results_io import read_pbn_results
from hub.room import Room, Section
from hub.session_export import ExportError, export
from tests.hub.test_export_names import PLAYED, TITLE, played_session
from tests.hub.test_live_scoring import Session

REAL = (Path(__file__).resolve().parents[1] / "data" / "realdata" / "pbn-results"
        / "magiccontest_ffb_dn1_2022_seance1.pbn")


def columns(table: dict[str, Any]) -> list[str]:
    return [h["name"] if isinstance(h, dict) else h for h in table["headers"]]


def ffb_file(conventions: str = "") -> tuple[bytes, Session]:
    session, roster = played_session()
    if conventions:
        again = Session(Room(Section("A", mitchell(3, boards_per_round=2),
                                     pairs=session.room.sections[0].pairs),
                             {n: random_deal(random.Random(500 + n)) for n in range(1, 7)},
                             conventions=conventions))
        again.play(PLAYED)
        session = again
    body, kind = export(session.room, "ffb.pbn", "A", title=TITLE, date="2026-11-26",
                        roster=roster)
    assert kind == "application/x-pbn; charset=iso-8859-1"
    return body, session


def test_the_ffb_file_has_magic_contests_columns() -> None:
    """The ScoreTable's columns are the real file's; the TotalScoreTable's are the real
    file's but its Tiebreak (rule not published) and the players' sexes (not known)."""
    real = endplay_pbn.loads(REAL.read_bytes().decode("latin-1"))
    body, _ = ffb_file()
    ours = endplay_pbn.loads(body.decode("latin-1"))
    assert columns(ours[0].info["ScoreTable"]) == columns(real[0].info["ScoreTable"])
    theirs = [c for c in columns(real[0].info["TotalScoreTable"])
              if c not in ("Tiebreak", "Sex1", "Sex2")]
    assert columns(ours[0].info["TotalScoreTable"]) == theirs
    assert ours[0].info["Scoring"] == real[0].info["Scoring"] == "MatchPoints;MP1"


def test_the_ffb_file_reads_back_with_two_units_a_score_beaten_and_latin1_names() -> None:
    """FFB's scale (MP1: two a score beaten): a hub scoring one a score beaten has its
    points doubled, the percentages the same; names transliterated, never "?"; bridgecore's
    reader gives back every result and name."""
    body, session = ffb_file()
    text = body.decode("latin-1")
    assert "?ukasz" not in text and "Lukasz Wisniewski" in text
    assert text.startswith("% PBN 2.1\r\n% EXPORT\r\n%Content-type: text/pbn; charset=ISO-8859-1")
    back = read_pbn_results(body)
    assert not back.problems, back.problems
    scored = session.room.scoring.section("A")
    assert sorted((r.result.board, r.result.ns, r.result.ew, r.result.score_ns)
                  for r in back.rows) == sorted(
        (b, s.result.ns, s.result.ew, s.result.score_ns)
        for b, rows in scored.event.boards.items() for s in rows)
    assert back.names[2] == "Zoë O'Brien - Lukasz Wisniewski"
    assert back.title == "Tournoi du jeudi - Île-de-France" and back.date == "2026.11.26"
    games = endplay_pbn.loads(text)
    table = games[0].info["ScoreTable"]
    at = {c: i for i, c in enumerate(columns(table))}
    for row in table["rows"]:
        ns, ew = int(row[at["PairId_NS"]]), int(row[at["PairId_EW"]])
        s = next(x for x in scored.event.boards[1] if (x.result.ns, x.result.ew) == (ns, ew))
        assert float(row[at["MP_NS"]]) == pytest.approx(2 * s.ns_points, abs=0.05)
        assert int(row[at["Percentage_NS"]]) == round(100 * s.ns_points / scored.event.tops[1])
        assert row[at["Table"]] in ("1", "2", "3") and row[at["Round"]] in ("1", "2", "3")
    totals = games[0].info["TotalScoreTable"]
    at = {c: i for i, c in enumerate(columns(totals))}
    first = totals["rows"][0]
    assert first[at["Direction"]].strip('"') in ("N-S", "E-W")
    best = scored.event.ranking[0]
    assert float(first[at["TotalPercentage"]]) == pytest.approx(best.percent, abs=0.005)


def test_the_ffb_file_of_an_ffb_event_is_not_doubled_again() -> None:
    """Under the FFB's conventions the hub already scores two a score beaten: a board of
    three results has a top of 4, and the file's two sides add up to 4, not 8."""
    body, session = ffb_file("ffb")
    table = endplay_pbn.loads(body.decode("latin-1"))[0].info["ScoreTable"]
    at = {c: i for i, c in enumerate(columns(table))}
    top = session.room.scoring.section("A").event.tops[1]
    assert top == 4.0
    points = sorted(float(r[at["MP_NS"]]) + float(r[at["MP_EW"]]) for r in table["rows"])
    assert set(points) == {top}


def test_an_imp_section_has_no_ffb_file() -> None:
    session = Session(Room(Section("A", mitchell(3, boards_per_round=2), scoring="butler"),
                           {n: random_deal(random.Random(500 + n)) for n in range(1, 7)}))
    session.play(PLAYED)
    with pytest.raises(ExportError, match="matchpoints"):
        export(session.room, "ffb.pbn", "A")
