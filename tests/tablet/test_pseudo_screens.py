"""The tablet's screens in the pseudo-locale (wire.catalogs.PSEUDO, docs/translating.md):
check-in, board, auction, play and result drawn by Kivy (under Xvfb when the tests have a
display, offscreen else), every text on them read back from the widgets: each must come from
the catalog (bracketed and accented) or be data (numbers, card symbols, table names).
Screenshots pseudo_<screen>.png go where test_ui.py puts its own."""

from __future__ import annotations

import re
from typing import Any

import pytest
from kivy.uix.label import Label

from tablet.app import TabletRoot
from tests.tablet.test_language_screens import at
from tests.tablet.test_ui import shot, show

# Kivy's markup tags, not words.
_MARKUP = re.compile(r"\[/?(?:b|i|u|s|sub|sup|color|size|font|font_family|ref|anchor)"
                     r"(?:=[^\]]*)?\]")
# Data, not words: numbers, times, table names, card and suit symbols, seat letters.
_DATA = re.compile(r"^[\d\s.,:;%+\-–—/()#·×=<>♠♥♦♣|…•*!?✓⌫]*$")
# ... and single tokens: a table (A1), a rank, a call, a side, a seat letter, the language
# button's code, the keypad's C (clear).
_TOKEN = re.compile(r"^(?:A\d+|[AKQJT2-9]|10|NT|XX?|NS|EW|[NESW]|[1-7]|EN_XA|C)$")


def untranslated(root: TabletRoot) -> list[str]:
    """Each text shown on the screen that is neither from the catalog nor data."""
    found = []
    for widget in root.walk(restrict=True):
        if not isinstance(widget, Label) or not widget.text or widget.opacity == 0:
            continue
        if any(getattr(p, "opacity", 1) == 0 for p in _parents(widget)):
            continue
        text = _MARKUP.sub("", widget.text) if widget.markup else widget.text
        words, before = text, ""
        while words != before:                    # the catalog's texts (nested), taken out
            before, words = words, re.sub(r"\[[^\[\]]*\]", "", words)
        rest = [w for w in words.split() if not _DATA.match(w) and not _TOKEN.match(w)]
        if rest:
            found.append(text)
    return found


def _parents(widget: Any) -> list[Any]:
    out = []
    while widget.parent is not None and widget.parent is not widget:
        widget = widget.parent
        out.append(widget)
    return out




@pytest.mark.parametrize("screen", ["checkin", "board", "auction", "play", "result"])
def test_every_text_of_each_tablet_screen_is_from_the_catalog(screen: str) -> None:
    t = at(screen, "en_XA")
    root = show(TabletRoot(t["N"]))
    assert root.presenter.model.language == "en_XA"
    assert untranslated(root) == []
    shot(root, f"pseudo_{screen}")
    root.close()
