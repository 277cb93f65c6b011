"""The screens of a table waiting for the director (Law 9B2), in every language of the
tablet, landscape and portrait: the banner that takes the place of "your turn", the notice
of what happened and the choice button must fit (test_language_screens.overflowing). A
player met it: in portrait the banner showed only the end of its sentence ("the button
below"), its start cut off. Screenshots rectify_<screen>_<language>_<seat>_<orientation>
.png go where test_ui.py puts its own."""

from __future__ import annotations

import pytest

from tablet.app import TabletRoot
from tablet.i18n import LANGUAGES
from tests.tablet.tables import Table
from tests.tablet.test_language_screens import overflowing
from tests.tablet.test_ui import LANDSCAPE, PORTRAIT, shot, show


def waiting(screen: str, language: str) -> Table:
    t = Table(language=language).seated()
    if screen == "auction":
        t.calls("1C")
        t.ok(t["W"], t["W"].auction.call("1H"))    # out of turn, at partner's turn (31)
    else:
        t.calls("1S", "Pass", "4S", "Pass", "Pass", "Pass")
        card = next(o.card for o in t["W"].play.hand)
        t.ok(t["W"], t["W"].play.card(card))       # opening lead out of turn (54)
    return t


@pytest.mark.parametrize("language", list(LANGUAGES))
@pytest.mark.parametrize("screen", ["auction", "play"])
def test_law_9b2_the_wait_fits_every_language_and_orientation(screen: str,
                                                              language: str) -> None:
    t = waiting(screen, language)
    for seat in "NE":      # North may accept (29A, 53A); East waits
        assert t[seat].rectify.waiting, (screen, language, seat)
        for size, name in ((LANDSCAPE, "landscape"), (PORTRAIT, "portrait")):
            root = show(TabletRoot(t[seat]), size)
            banner = root.screens[screen].turn_text.text
            assert banner == t[seat].rectify.wait_text
            assert overflowing(root) == [], (screen, language, seat, name)
            shot(root, f"rectify_{screen}_{language}_{seat}_{name}")
            root.close()
