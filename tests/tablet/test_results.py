"""The traveller, the score so far and the double-dummy table on the result screen
(tablet/results.py, tablet/ui_result.py), from the public state a real room gives once the
board is over at the table (Law 16), in French, English and Italian; the screen rendered
offscreen and saved (docs/screenshots/result_traveller.png when TENACE_SCREENSHOTS says so).

Kivy is configured before it is imported (as tests/tablet/test_ui.py does)."""

from __future__ import annotations

import json
import os
import tempfile
from typing import Any

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_HOME", os.path.join(tempfile.gettempdir(), "tenace-kivy-tests"))
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
if not os.environ.get("DISPLAY"):
    os.environ["SDL_VIDEODRIVER"] = "offscreen"

import pytest
from msgspec.structs import replace

from bridgecore.movements import teams
from hub.room import Room, Section
from tablet.i18n import Translator
from tablet.presenter import TabletPresenter
from tablet.results import (
    dd_grid,
    format_percent,
    has_traveller,
    par_text,
    score_lines,
    traveller_header,
    traveller_lines,
)
from tablet.state import TableState, table_state
from tests.hub.test_table import DEALS, START, Driver, make_room

NNBSP = "\u202f"


def claim(d: Driver, calls: tuple[str, ...], lead: tuple[str, str], claimer: str,
          tricks: int, defenders: str) -> None:
    d.calls(*calls)
    d.card(*lead)
    d.ok("claim", seat=claimer, tricks=tricks)
    for seat in defenders:
        d.ok("claim_answer", seat=seat, accept=True)


def wire(state: dict[str, Any]) -> TableState:
    """As the broker carries it (JSON), as the tablet reads it (a typed view)."""
    view = table_state(json.dumps(state))
    assert view is not None
    return view


@pytest.fixture(scope="module")
def mitchell_states() -> dict[str, Any]:
    """Board 1 (North holds every top card) at the three tables of a Mitchell: A1, round 1,
    1NT+6 (NS 270); A3, round 2, 1S by East with no trick (NS 350); A2, round 3, 3NT+4
    (NS 520). Returns the public states of A2 before and after the board is over, and A2's
    confirmed state."""
    room = make_room()
    a1, a2, a3 = Driver(room, "A1"), Driver(room, "A2"), Driver(room, "A3")
    a1.seat_pairs(1, 4, board=1)
    claim(a1, ("1NT", "Pass", "Pass", "Pass"), ("E", "HJ"), "N", 13, "EW")
    room.start_round(2, START + 900)
    a3.seat_pairs(3, 5, board=1)
    claim(a3, ("Pass", "1S", "Pass", "Pass", "Pass"), ("S", "S3"), "E", 0, "NS")
    room.start_round(3, START + 1800)
    a2.seat_pairs(2, 6, board=1)
    a2.calls("3NT", "Pass", "Pass", "Pass")
    a2.card("E", "HJ")
    playing = wire(a2.state.public_state())
    a2.ok("claim", seat="N", tricks=13)
    a2.ok("claim_answer", seat="E", accept=True)
    a2.ok("claim_answer", seat="W", accept=True)
    over = wire(a2.state.public_state())
    a2.ok("result_confirm", seat="E", accept=True)
    return {"playing": playing, "over": over, "confirmed": wire(a2.state.public_state())}


def test_law_16_nothing_to_show_before_the_board_is_over(mitchell_states: dict[str, Any]
                                                         ) -> None:
    """Law 16: in play at A2, the results of A1 and A3 on the same board are not there."""
    playing = mitchell_states["playing"]
    tr = Translator("en")
    assert not has_traveller(playing)
    assert traveller_lines(playing, tr) == [] and score_lines(playing, tr) == ("", "")
    assert dd_grid(playing, tr) is None
    # A state whose traveller is not this board's (a projection moved on) shows nothing.
    moved = replace(mitchell_states["over"], board=2)
    assert traveller_lines(moved, tr) == [] and dd_grid(moved, tr) is None


@pytest.mark.parametrize(("language", "header", "lines", "score", "count"), [
    ("en", ("NS", "EW", "Contract", "By", "Tricks", "+ NS", "+ EW", "% NS"),
     [("1", "4", "1NT", "N", "13", "270", "", "0"),
      ("2", "6", "3NT", "N", "13", "520", "", "100"),
      ("3", "5", "1\u2660", "E", "0", "350", "", "50")],
     "Score so far: NS 100%  -  EW 0%", "3 of 3 results"),
    ("fr", ("NS", "EO", "Contrat", "Décl.", "Levées", "+ NS", "+ EO", "% NS"),
     [("1", "4", "1SA", "N", "13", "270", "", "0"),
      ("2", "6", "3SA", "N", "13", "520", "", "100"),
      ("3", "5", "1\u2660", "E", "0", "350", "", "50")],
     f"Résultat provisoire : NS 100{NNBSP}%  -  EO 0{NNBSP}%", "3 résultats sur 3"),
    ("it", ("NS", "EO", "Contratto", "Dich.", "Prese", "+ NS", "+ EO", "% NS"),
     [("1", "4", "1SA", "N", "13", "270", "", "0"),
      ("2", "6", "3SA", "N", "13", "520", "", "100"),
      ("3", "5", "1\u2660", "E", "0", "350", "", "50")],
     "Risultato provvisorio: NS 100%  -  EO 0%", "3 risultati su 3"),
])
def test_traveller_in_three_languages(mitchell_states: dict[str, Any], language: str,
                                      header: tuple[str, ...], lines: list[tuple[str, ...]],
                                      score: str, count: str) -> None:
    over = mitchell_states["over"]
    tr = Translator(language)
    assert traveller_header(over, tr) == header
    shown = traveller_lines(over, tr)
    assert [line.cells for line in shown] == lines
    assert [line.own for line in shown] == [False, True, False]
    assert [line.call for line in shown] == ["1NT", "3NT", "1S"]
    assert score_lines(over, tr) == (score, count)


def test_double_dummy_grid_and_par_in_three_languages(mitchell_states: dict[str, Any]
                                                      ) -> None:
    over = mitchell_states["over"]
    grids = {lang: dd_grid(over, Translator(lang)) for lang in ("en", "fr", "it")}
    en, fr, it = grids["en"], grids["fr"], grids["it"]
    assert en is not None and fr is not None and it is not None
    assert en.columns == ("NT", "\u2660", "\u2665", "\u2666", "\u2663")
    assert fr.columns[0] == it.columns[0] == "SA"
    assert [seat for seat, _ in en.rows] == ["N", "S", "E", "W"]
    assert [seat for seat, _ in fr.rows] == [seat for seat, _ in it.rows] == ["N", "S", "E", "O"]
    tricks = over.dd.tricks
    assert [row for _, row in en.rows] == [
        tuple(tricks[seat][strain] for strain in ("NT", "S", "H", "D", "C"))
        for seat in "NSEW"]
    # North holds every top card: 13 tricks for North-South in no trump, none for EW.
    assert [row[0] for _, row in en.rows] == [13, 13, 0, 0]
    assert en.par == "Par: NS 7NT (NS +1520)"
    assert fr.par == "Par : NS 7SA (NS +1520)"
    assert it.par == "Par: NS 7SA (NS +1520)"


def test_par_and_numbers_as_each_country_writes_them() -> None:
    en, fr = Translator("en"), Translator("fr")
    assert par_text("EW 4SX-1; EW 4HX-1", 100, fr) == \
        "Par : EO 4\u2660X -1, EO 4\u2665X -1 (NS +100)"
    assert par_text("NS 3NT", 400, en) == "Par: NS 3NT (NS +400)"
    assert par_text("", 0, en) == "Par: 0"
    assert par_text(None, None, en) == ""
    assert format_percent(72.2222, "fr") == f"72,22{NNBSP}%"
    assert format_percent(50, "en") == "50%" and format_percent(12.5, "it") == "12,5%"


def test_law_78b_teams_show_imps_not_percentages() -> None:
    """Law 78B: in a teams match the line shows the IMPs against the other room."""
    room = Room(Section("A", teams(2, boards_per_round=2)), DEALS)
    room.start_round(1, START)
    open_room, closed_room = Driver(room, "A1"), Driver(room, "A2")
    open_room.seat_pairs(1, 4, board=1)
    claim(open_room, ("1NT", "Pass", "Pass", "Pass"), ("E", "HJ"), "N", 13, "EW")
    closed_room.seat_pairs(3, 2, board=1)
    closed_room.calls("Pass", "Pass", "Pass", "Pass")
    state = wire(closed_room.state.public_state())
    fr = Translator("fr")
    assert traveller_header(state, fr)[-1] == "IMP NS"
    assert [line.points for line in traveller_lines(state, fr)] == ["+7", "-7"]
    assert [line.contract for line in traveller_lines(state, fr)] == ["1SA", "Passe"]
    assert score_lines(state, fr) == ("IMP provisoires : NS -7  -  EO +7", "2 résultats sur 2")
    assert score_lines(state, Translator("en"))[0] == "IMPs so far: NS -7  -  EW +7"


def test_result_screen_shows_the_traveller_and_the_double_dummy_table(
        mitchell_states: dict[str, Any]) -> None:
    """Offscreen: the result screen of A2 after East confirmed (Law 79A): the hand record,
    the traveller with this table's row marked, the score so far, the double-dummy grid."""
    from tablet.app import TabletRoot
    from tests.tablet.test_ui import LANDSCAPE, PORTRAIT, shot, show

    presenter = TabletPresenter("A2", seat="N", language="fr")
    presenter.on_state(mitchell_states["over"])
    root = show(TabletRoot(presenter, send=lambda kind, body: None), LANDSCAPE)
    screen = root.screens["result"]
    assert root.screen_name == "result"
    # Over but not confirmed yet: the result and the buttons, no traveller.
    assert screen.traveller.texts == [[]] and screen.score_text.text == ""
    assert screen.dd_box.parent is None and screen.par_text.text == ""
    show(root, PORTRAIT)
    assert screen.card.size_hint_x == 1 and screen.dd_box.parent is None  # nothing beside
    presenter.on_state(mitchell_states["confirmed"])
    root = show(root, LANDSCAPE)
    texts = screen.traveller.texts
    assert texts[0] == ["NS", "EO", "Contrat", "Décl.", "Levées", "+ NS", "+ EO", "% NS"]
    assert [row[0] for row in texts[1:]] == ["1", "2", "3"] and texts[2][-1] == "100"
    assert texts[2][2] == "3SA" and texts[3][2].startswith("1[color=") and "\u2660" in texts[3][2]
    assert screen.score_text.text == f"Résultat provisoire : NS 100{NNBSP}%  -  EO 0{NNBSP}%"
    assert "3 résultats sur 3" in screen.traveller_title.text
    assert screen.dd_title.text == "Double mort" and screen.par_text.text.startswith("Par :")
    assert len(screen.dd.texts) == 5 and screen.dd_box.parent is screen.side_pane
    assert screen.record_title.text                 # the hand record is still there
    shot(root, "result_traveller")
    show(root, PORTRAIT)
    assert screen.dd_box.parent is screen.head_row and screen.card.size_hint_x < 1
    shot(root, "result_traveller_portrait")
    presenter.model.set_language("en")
    root.refresh(force=True)
    assert screen.traveller.texts[0][1] == "EW" and screen.dd_title.text == "Double dummy"
    root.close()


@pytest.mark.parametrize("language", ["en", "fr", "it"])
def test_the_whole_result_screen_fits_a_1280x800_tablet_without_scrolling(
        mitchell_states: dict[str, Any], language: str) -> None:
    """A player met it: on the club's 10-inch tablet (1280x800) the result screen scrolled,
    the double-dummy table's East and West rows and the par line below the screen's edge,
    with nothing to say there was more. Everything is on screen, nothing over another."""
    from kivy.core.window import Window

    from tablet.app import TabletRoot
    from tests.tablet.test_ui import LANDSCAPE, show

    presenter = TabletPresenter("A2", seat="N", language=language)
    presenter.on_state(mitchell_states["confirmed"])
    root = show(TabletRoot(presenter, send=lambda kind, body: None), LANDSCAPE)
    screen = root.screens["result"]
    assert screen.dd_box.parent is screen.side_pane and len(screen.dd.texts) == 5
    assert screen.body.height <= screen.scroll.height + 1      # nothing to scroll to
    for widget in (*screen.dd.children, screen.par_text, screen.dd_title, screen.next,
                   *screen.traveller.children):
        y = widget.to_window(widget.x, widget.y)[1]
        assert y >= -1 and y + widget.height <= Window.height + 1, widget
    assert screen.record.y >= screen.dd_box.top - 1             # the grid under the record
    root.close()
