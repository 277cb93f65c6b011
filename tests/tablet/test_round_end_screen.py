"""The board screen at the end of the round (Law 8A), through Kivy, in every language,
landscape and portrait. A player met it: with the round's two boards played, the screen
still offered "Board to play", a board keypad and a big green "Start the board"; where he
was to go was one small line among them (cut in portrait), and the way to the next round's
check-in a small grey button. Now the title says the round is over, his own pair's move
comes first, the line is big and whole, and the check-in button is the green one.
Screenshots round_end_<language>_<orientation>.png go where test_ui.py puts its own."""

from __future__ import annotations

import pytest

from tablet.app import TabletRoot
from tablet.i18n import LANGUAGES
from tablet.widgets import PALETTE
from tests.tablet.tables import Table
from tests.tablet.test_language_screens import overflowing
from tests.tablet.test_ui import LANDSCAPE, PORTRAIT, shot, show


def round_over(language: str) -> Table:
    t = Table(language=language).seated(board=1)
    t.calls("Pass", "Pass", "Pass", "Pass")
    t.ok(t["N"], t["N"].board.announce(2))
    t.calls("Pass", "Pass", "Pass", "Pass")
    for tablet in t.tablets.values():
        tablet.result.next_board()
    return t


def test_law_8a_the_round_over_says_so_and_east_west_see_their_own_move_first() -> None:
    t = round_over("en")
    west = t["W"].board
    assert west.round_over and west.next_text is not None
    assert west.next_text.startswith("Next round: pair 4 to table A2 East-West")
    assert t["N"].board.next_text.startswith("Next round: pair 1 to table A1 North-South")
    root = show(TabletRoot(t["W"]))
    screen = root.screens["board"]
    assert root.screen_name == "board"
    assert screen.title.text == "Round over: where you go next"
    assert screen.new_round.bg == list(PALETTE["green"])
    assert screen.start.bg == list(PALETTE["grey"])
    root.close()


def test_law_8a_during_the_round_the_board_is_the_green_button() -> None:
    t = Table(language="en").seated(board=1)
    t.calls("Pass", "Pass", "Pass", "Pass")
    t["N"].result.next_board()
    assert not t["N"].board.round_over
    root = show(TabletRoot(t["N"]))
    screen = root.screens["board"]
    assert screen.title.text == "Board to play"
    assert screen.start.bg == list(PALETTE["green"])
    assert screen.new_round.bg == list(PALETTE["grey"])
    root.close()


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_law_8a_where_to_go_fits_in_every_language(language: str) -> None:
    t = round_over(language)
    for size, name in ((LANDSCAPE, "landscape"), (PORTRAIT, "portrait")):
        root = show(TabletRoot(t["W"]), size)
        assert root.screen_name == "board"
        assert overflowing(root) == [], (language, name)
        shot(root, f"round_end_{language}_{name}")
        root.close()
