"""The tablet's screens in German, Dutch, Spanish and Polish (docs/translating.md): check-in,
board, auction, play and result drawn by Kivy (under Xvfb when the tests have a display,
offscreen else), landscape and portrait; each text must fit its widget (a longer word than
English's must not run past a button's edge, nor a sentence wrap to more lines than a fixed
height shows), and the screen shows the language's own card
letters and calls (Dutch H V B, Spanish Paso, Polish BA). Screenshots lang_<language>_<screen>
.png go where test_ui.py puts its own (TENACE_SCREENSHOTS=dir to keep them)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from kivy.core.text import Label as CoreLabel
from kivy.uix.label import Label

from tablet.app import TabletRoot
from tests.tablet.tables import Table
from tests.tablet.test_ui import LANDSCAPE, PORTRAIT, shot, show

LANGUAGES = ("de", "nl", "es", "pl")
_MARKUP = re.compile(r"\[/?[a-z_]+(?:=[^\]]*)?\]")


def at(screen: str, language: str) -> Table:
    t = Table(["N", "E", "S", "W"], language=language)
    if screen == "checkin":
        return t
    t.seated()
    if screen == "auction":
        t.calls("1S", "Pass", "1NT")
    elif screen in ("play", "result"):
        t.calls("1S", "Pass", "4S", "Pass", "Pass", "Pass")
        t.cards("HJ", "H8", "H2", "HA")
        if screen == "result":
            north, east, west = t["N"], t["E"], t["W"]
            t.ok(north, north.play.claim(11))
            t.ok(east, east.play.claim_answer(True))
            t.ok(west, west.play.claim_answer(True))
    return t


def _shown(widget: Any) -> bool:
    while widget is not None:
        if getattr(widget, "opacity", 1) == 0 or widget.width <= 1:
            return False
        if widget.parent is widget:
            break
        widget = widget.parent
    return True


def overflowing(root: TabletRoot) -> list[str]:
    """Each text wider or taller than its widget (Kivy draws it past the edges), or with a
    word wider than the width it wraps to (Kivy breaks it in the middle: "Turnierleit/er")."""
    found = []
    for widget in root.walk(restrict=True):
        if not isinstance(widget, Label) or not widget.text.strip() or not _shown(widget):
            continue
        widget.texture_update()
        width, height = widget.texture_size
        if width > widget.width + 1 or height > widget.height + 1:
            found.append(f"{widget.text!r}: {width:.0f}x{height:.0f} in "
                         f"{widget.width:.0f}x{widget.height:.0f}")
        wrap = widget.text_size[0]
        if wrap:
            text = _MARKUP.sub("", widget.text) if widget.markup else widget.text
            measure = CoreLabel(font_name=widget.font_name, font_size=widget.font_size,
                                bold=widget.bold)
            broken = [w for w in text.split() if measure.get_extents(w)[0] > wrap + 1]
            if broken:
                found.append(f"{widget.text!r}: {broken} wider than {wrap:.0f}")
            if widget.text_size[1] is not None:
                # a fixed height: Kivy draws the lines that fit and drops the others
                lines = CoreLabel(text=text, font_name=widget.font_name,
                                  font_size=widget.font_size, bold=widget.bold,
                                  text_size=(wrap, None), halign=widget.halign)
                lines.refresh()
                one = measure.get_extents(text)[1]   # a line's height: one line is drawn
                if lines.content_height > max(widget.height + 1, 1.5 * one):
                    found.append(f"{widget.text!r}: {lines.content_height:.0f} high in "
                                 f"{widget.height:.0f}, lines cut off")
    return found


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("screen", ["checkin", "board", "auction", "play", "result"])
def test_each_screen_fits_in_each_new_language(screen: str, language: str) -> None:
    t = at(screen, language)
    for size, name in ((LANDSCAPE, "landscape"), (PORTRAIT, "portrait")):
        root = show(TabletRoot(t["N"]), size)
        assert root.presenter.model.language == language
        assert overflowing(root) == [], (language, screen, name)
        shot(root, f"lang_{language}_{screen}_{name}")
        root.close()


@pytest.mark.parametrize(("language", "words"), [
    ("de", ("Passe", "SA")),
    ("nl", ("Pas", "SA")),
    ("es", ("Paso", "ST")),
    ("pl", ("Pas", "BA")),
])
def test_the_bidding_pad_shows_the_languages_calls(language: str, words: tuple[str, ...]
                                                   ) -> None:
    root = show(TabletRoot(at("auction", language)["E"]))
    texts = {w.text for w in root.walk(restrict=True) if isinstance(w, Label)}
    for word in words:
        assert any(word in text for text in texts), (language, word, sorted(texts)[:40])
    assert "Pass" not in texts and not any(text.endswith("NT") for text in texts)
    root.close()
