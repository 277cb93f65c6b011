"""Results the director corrects (hub/corrections.py): the result as it really was, not an
adjusted score, with its history and who gave each correction; the matchpoints follow, the
log rebuilds them, and what cannot be a correction is refused with its reason.

The session is the 3-table Mitchell of tests/hub/test_live_scoring.py: board 1 is 420 at
A1 (1 v 4), 450 at A3 (3 v 5) and -50 at A2 (2 v 6), each 4S by North.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from hub.console_i18n import reader
from hub.corrections import CorrectionError, as_typed
from hub.director import parse_command
from tests.hub.test_console import Login
from tests.hub.test_console_session import served  # noqa: F401 - the fixture
from tests.hub.test_live_scoring import ROUND_ROBIN, Session
from tests.hub.test_results_pages import get, post


def correct(s: Session, by: str = "dora", **fields: Any) -> dict[str, Any]:
    """The director ``by`` corrects a result, as the console does (checked, logged, applied)."""
    fact, body = parse_command({"op": "result_correct", **fields}, s.room, by)
    s.now += 1
    s.room.fact(fact, body, s.now)
    s.facts.append((fact, body, s.now))
    return body


def line(s: Session, board: int, table: str) -> dict[str, Any]:
    rows = s.room.scoring.section("A").traveller_json(board)["results"]
    return next(r for r in rows if r["table"] == table)


def test_a_corrected_result_is_scored_as_it_really_was_and_kept_in_the_history() -> None:
    """A2 really made 4S (10 tricks, +420), recorded as 9 tricks (-50). Corrected: 420 ties
    A1's 420, both below A3's 450: North-South 3 gets 2, pairs 1 and 2 half a point each
    (Law 78A), East-West the other way round. Corrected again to 11 tricks (+450): ties A3
    at the top, 1.5 each, pair 1 nothing."""
    s = Session()
    s.play(ROUND_ROBIN)
    first = correct(s, table="A2", board=1, contract="4S", declarer="N", tricks=10,
                    lead="HK", text="EW agreed ten tricks")
    assert first["id"] == "C1" and first["by"] == "dora" and first["score_ns"] == 420
    assert first["was"] == {"contract": "4S", "declarer": "N", "tricks": 9, "lead": None,
                            "score_ns": -50}
    assert s.points(1) == {(1, 4): (0.5, 1.5), (2, 6): (0.5, 1.5), (3, 5): (2.0, 0.0)}
    corrected = line(s, 1, "A2")
    assert (corrected["contract"], corrected["tricks"], corrected["score_ns"]) == ("4S", 10, 420)
    assert corrected["corrected"] == "C1"
    assert corrected["adjustment"] is None and corrected["ruling"] is None  # not a ruling
    second = correct(s, by="sam", table="A2", board=1, contract="4S", declarer="N", tricks=11)
    assert second["replaces"] == "C1" and second["was"]["tricks"] == 10
    assert s.points(1) == {(1, 4): (0.0, 2.0), (2, 6): (1.5, 0.5), (3, 5): (1.5, 0.5)}
    history = s.room.scoring.corrections.history()
    assert [(c["id"], c["by"], c["status"], c["tricks"]) for c in history] == [
        ("C1", "dora", "replaced", 10), ("C2", "sam", "in force", 11)]
    assert history[0]["lead"] == "HK" and history[0]["text"] == "EW agreed ten tricks"


def test_an_adjusted_score_on_a_corrected_result_still_replaces_its_score() -> None:
    """A correction and a ruling are two things: A2 corrected to 4S doubled by North, one
    down (-100 not vulnerable), then an assigned score of 420 (Law 12C1(a)) on the same
    line: the traveller shows the corrected contract and the adjustment; the board is
    scored on 420."""
    s = Session()
    s.play(ROUND_ROBIN)
    correct(s, table="A2", board=1, contract="4SX", declarer="N", tricks=9)
    assert line(s, 1, "A2")["score_ns"] == -100
    s.rule(kind="assigned", table="A2", board=1, score_ns=420)
    shown = line(s, 1, "A2")
    assert (shown["contract"], shown["score_ns"], shown["adjustment"]) == ("4SX", -100, "420")
    assert s.points(1)[2, 6] == (0.5, 1.5)


def test_a_board_passed_out_and_the_log_rebuilding_the_corrections() -> None:
    """A3's 450 was a board passed out (0): pair 3 beats pair 2's -50 only (1 point), pair 1's
    420 is now top (2). A room given the same log has the same scores and history."""
    s = Session()
    s.play(ROUND_ROBIN)
    correct(s, table="A3", board=1, contract="PASS")
    assert line(s, 1, "A3")["contract"] == "PASS" and line(s, 1, "A3")["score_ns"] == 0
    assert s.points(1) == {(1, 4): (2.0, 0.0), (2, 6): (0.0, 2.0), (3, 5): (1.0, 1.0)}
    again = Session()
    again.play(ROUND_ROBIN)
    for fact, body, at in s.facts[3:]:
        again.room.fact(fact, json.loads(json.dumps(body)), at)
    assert again.points(1) == s.points(1)
    assert again.room.scoring.corrections.history() == s.room.scoring.corrections.history()


@pytest.mark.parametrize("fields,reason", [
    ({"table": "Z9", "board": 1, "contract": "4S", "declarer": "N", "tricks": 10},
     "no such table"),
    ({"table": "A2", "board": 5, "contract": "4S", "declarer": "N", "tricks": 10},
     "no result played there"),
    ({"table": "A2", "board": 1, "contract": "4S", "tricks": 10}, "needs its declarer"),
    ({"table": "A2", "board": 1, "contract": "4S", "declarer": "N", "tricks": 14},
     "0 to 13"),
    ({"table": "A2", "board": 1, "contract": "8S", "declarer": "N", "tricks": 10},
     "is not a contract"),
    ({"table": "A2", "board": 1, "contract": "4S", "declarer": "N", "tricks": 10,
      "lead": "Z1"}, "is not a card"),
    ({"table": "A2", "board": 1, "contract": "PASS", "tricks": 3}, "passed out"),
])
def test_what_is_no_correction_is_refused_and_changes_nothing(fields: dict[str, Any],
                                                             reason: str) -> None:
    s = Session()
    s.play(ROUND_ROBIN)
    before = s.points(1)
    with pytest.raises(CorrectionError, match=reason):
        parse_command({"op": "result_correct", **fields}, s.room, "dora")
    assert s.points(1) == before and s.room.scoring.corrections.history() == []


def test_the_console_corrects_a_result_and_shows_who_did(served: Any) -> None:  # noqa: F811
    """POST /api/director ``result_correct`` as the logged-in director; GET
    /api/evening/corrections gives the history with her name as ``by``."""
    _, _, console = served
    status, answer = post(console.url + "api/director", {
        "op": "result_correct", "table": "A1", "board": 1, "contract": "4S",
        "declarer": "N", "tricks": 11})
    assert status == 200 and answer["ok"], answer
    status, _, body = get(console.url + "api/evening/corrections")
    assert status == 200
    [only] = body["corrections"]
    assert (only["id"], only["by"], only["table"], only["tricks"]) == ("C1", "dora", "A1", 11)
    assert only["status"] == "in force"
    viewer = Login(console)
    assert viewer.login("vic")[0] == 200
    request = console.url + "api/evening/corrections"
    with pytest.raises(Exception, match="403"):
        viewer.open(request)


@pytest.mark.parametrize(("language", "typed", "read"), [
    # Dutch: 3 sans atout, West (W), lead the queen of hearts (V = vrouw)
    ("nl", {"contract": "3SA", "declarer": "W", "lead": "♥V"},
     {"contract": "3NT", "declarer": "W", "lead": "HQ"}),
    # French: the same V is the jack; O is West (ouest)
    ("fr", {"contract": "3SAX", "declarer": "O", "lead": "♥V"},
     {"contract": "3NTX", "declarer": "W", "lead": "HJ"}),
    # German: O is East (Ost); B the jack (Bube); OT ohne Trumpf
    ("de", {"contract": "2OT", "declarer": "O", "lead": "♣B"},
     {"contract": "2NT", "declarer": "E", "lead": "CJ"}),
    # Spanish: ST sin triunfo, O is West; Polish: BA bez atu, W the jack (walet)
    ("es", {"contract": "4♠XX", "declarer": "O", "lead": "DR"},
     {"contract": "4SXX", "declarer": "W", "lead": "DK"}),
    ("pl", {"contract": "6BA", "declarer": "S", "lead": "♣W"},
     {"contract": "6NT", "declarer": "S", "lead": "CJ"}),
    ("es", {"contract": "Paso"}, {"contract": "PASS"}),
    ("nl", {"contract": "pas"}, {"contract": "PASS"}),
])
def test_the_form_is_read_in_the_directors_language(language: str, typed: dict[str, Any],
                                                    read: dict[str, Any]) -> None:
    command = {"op": "result_correct", "table": "A1", "board": 1, **typed}
    done = as_typed(command, reader(language))
    assert {k: done[k] for k in read} == read
    assert done["table"] == "A1" and done["board"] == 1


def test_a_letter_of_another_language_is_refused_not_guessed() -> None:
    """Dutch has no D for a rank (D is diamonds): ``♥D`` from a Dutch director is refused,
    though the card files' reader (Card.parse) would take it for the French queen. The
    refusal names the language by its name, never its code (issue 25's walk-through read
    "not a contract in en")."""
    command = {"op": "result_correct", "table": "A1", "board": 1, "contract": "4S",
               "declarer": "N", "lead": "♥D"}
    with pytest.raises(CorrectionError, match="not a card in Nederlands"):
        as_typed(command, reader("nl"))
    with pytest.raises(CorrectionError, match="not a seat in Deutsch"):
        as_typed({**command, "lead": "HK", "declarer": "Z"}, reader("de"))
    with pytest.raises(CorrectionError, match="not a contract in español"):
        as_typed({**command, "contract": "3SA"}, reader("es"))


def test_the_console_reads_a_dutch_directors_correction(served: Any) -> None:  # noqa: F811
    """The director chose Dutch (POST /api/i18n): her ``4H`` by ``O`` with lead ``♠V`` is
    4 hearts by East, the queen of spades led; a French ``O`` would have been West."""
    _, _, console = served
    assert post(console.url + "api/i18n", {"language": "nl"})[0] == 200
    status, answer = post(console.url + "api/director", {
        "op": "result_correct", "table": "A1", "board": 1, "contract": "4H",
        "declarer": "O", "tricks": 10, "lead": "♠V"})
    assert status == 200 and answer["ok"], answer
    [only] = get(console.url + "api/evening/corrections")[2]["corrections"]
    assert (only["contract"], only["declarer"], only["lead"]) == ("4H", "E", "SQ")
    status, answer = post(console.url + "api/director", {
        "op": "result_correct", "table": "A1", "board": 1, "contract": "4H",
        "declarer": "E", "tricks": 10, "lead": "♠D"})
    # refused in her language (hub.errors: the refusal is a text), the text beside it
    assert status == 400 and answer["error"] == (
        "Verbeteren van een uitslag: uitkomst '♠D' is geen kaart in het Nederlands")
    assert answer["error_text"]["values"]["reason"] == {
        "key": "refusal.typed_card",
        "values": {"language": "nl", "name": "Nederlands", "typed": "♠D"}}
    assert post(console.url + "api/i18n", {"language": "en"})[0] == 200
