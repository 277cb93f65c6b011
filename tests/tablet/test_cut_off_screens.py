"""The red strip of a tablet cut off from the hub (tablet/ui_explain.py CutOffBanner), in
every language, landscape and portrait, with no entry waiting and with cards waiting: all
its lines show (test_language_screens.overflowing). A player met it: East's tablet lost the
Wi-Fi mid-board and, in portrait, the strip read only "partiront dans l'ordre", the start
of its sentence (that he was cut off, and to play on) cut away. Screenshots
cut_off_<language>_<orientation>.png go where test_ui.py puts its own."""

from __future__ import annotations

import pytest

from tablet.app import TabletRoot
from tablet.i18n import LANGUAGES
from tests.tablet.tables import any_card_of, in_play
from tests.tablet.test_language_screens import overflowing
from tests.tablet.test_ui import LANDSCAPE, PORTRAIT, shot, show


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_cut_off_strip_shows_whole_in_every_language(language: str) -> None:
    t = in_play()
    east = t["E"]
    east.model.set_language(language)
    east.model.on_connection("offline")
    for waiting in (False, True):
        if waiting:
            east.model.add_pending(("card", {"seat": "E", "card": any_card_of(t, "E")}))
        for size, name in ((LANDSCAPE, "landscape"), (PORTRAIT, "portrait")):
            root = show(TabletRoot(east), size)
            strip = root.screens["play"].cut_off
            assert strip.opacity == 1 and strip.text.text, (language, name)
            assert overflowing(root) == [], (language, waiting, name)
            shot(root, f"cut_off_{language}_{name}{'_waiting' if waiting else ''}")
            root.close()
