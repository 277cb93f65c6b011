"""The tablet on any screen from 800x600 up (tablet/app.py, tablet/widgets.py), its language
kept per device (tablet/settings.py), and kiosk mode (tablet/kiosk.py): under Xvfb when the
tests have a display (scripts/test), offscreen else; screenshots saved as in test_ui.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from kivy.core.text import Label as CoreLabel
from kivy.core.text.markup import MarkupLabel
from kivy.core.window import Window

from tablet.app import TabletRoot
from tablet.kiosk import Kiosk
from tablet.settings import TabletSettings, settings_path, system_language
from tablet.widgets import HandRecord, Text
from tests.tablet.tables import Table, in_play
from tests.tablet.test_ui import shot, show

SIZES = [(800, 600), (1280, 800), (800, 1280)]


def _line_width(label: Any, line: str) -> float:
    core = CoreLabel(text=line, font_size=label.font_size, font_name=label.font_name,
                     bold=label.bold)
    core.refresh()
    return float(core.texture.size[0])


def _inside(widget: Any) -> bool:
    x, y = widget.to_window(widget.x, widget.y)
    return x >= -1 and y >= -1 and x + widget.width <= Window.width + 1 and \
        y + widget.height <= Window.height + 1


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_top_bar_shows_table_seat_board_and_dealer_whole_at_every_size(
        size: tuple[int, int]) -> None:
    """800x600 cut "Table A1 Round 1 You: North / Board 1 Dealer North" to "h / Boar": the
    bar now goes to two rows when one would not hold it."""
    t = Table(["N", "E"], language="it").seated()
    t.calls("1S")
    root = show(TabletRoot(t["N"]), size)
    bar = root.bar
    lines = bar.info.text.split("\n")
    assert lines == ["Tavolo A1   Turno 1   Voi: Nord", "Smazzata 1   Mazziere Nord"]
    for line in lines:
        assert _line_width(bar.info, line) <= bar.info.width - 8, (line, bar.info.width)
    for widget in (bar.info, bar.vul, bar.clock, bar.connection, bar.language, bar.colours,
                   bar.director):
        assert widget.width > 20 and _inside(widget), widget
    assert (bar.orientation == "horizontal") == (size == (1280, 800))
    # The bidding pad and the hand below it are on screen whole.
    screen = root.screens["auction"]
    for button in [*screen.pad.buttons.values(), screen.pad.alert]:
        assert _inside(button) and button.height >= 30, button
    shot(root, f"auction_{size[0]}x{size[1]}")
    root.close()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_table_tablets_card_picker_keeps_each_rank_on_one_line(size: tuple[int, int]) -> None:
    """The table tablet's picker (13 cards a row): at 800 pixels "10" was broken over two
    lines; the font now shrinks to the card's width."""
    t = in_play(seats=["N", "E", None])
    root = show(TabletRoot(t[None]), size)
    hand = root.screens["play"].hand
    ten = hand.buttons["S10"] if "S10" in hand.buttons else hand.buttons["ST"]
    ten.texture_update()
    assert ten.texture_size[0] <= ten.width and ten.texture_size[1] < 1.8 * ten.font_size
    assert all(_inside(b) for b in hand.buttons.values())
    shot(root, f"play_table_{size[0]}x{size[1]}")
    root.close()


def test_the_language_is_the_systems_then_english_never_french_unasked() -> None:
    assert system_language({"LANG": "it_IT.UTF-8"}) == "it"
    assert system_language({"LANG": "fr_BE.UTF-8", "LC_ALL": "en_GB.UTF-8"}) == "en"
    assert system_language({"LANG": "pl_PL.UTF-8"}) == "pl"
    assert system_language({"LANG": "pt_BR.UTF-8"}) == "en"    # no Portuguese catalog yet
    assert system_language({"LANG": "de_DE.UTF-8"}) == "de"
    assert system_language({"LANG": "C.UTF-8"}) == "en"
    assert system_language({}) == "en"
    assert TabletSettings().language_for(None, {}) == "en"
    assert TabletSettings(language="it").language_for(None, {"LANG": "fr_FR"}) == "it"
    assert TabletSettings(language="it").language_for("fr", {}) == "fr"


def test_the_language_chosen_on_the_tablet_is_kept_for_its_next_start(
        tablet_config: Path) -> None:
    path = settings_path()
    assert path == tablet_config / "tablet.json"
    t = Table(["N"], language="en")
    root = TabletRoot(t["N"])
    kept: list[tuple[str, bool]] = []

    def remember(language: str, four_colour: bool) -> None:
        kept.append((language, four_colour))
        TabletSettings.load(path).with_language(language).with_four_colour(four_colour) \
            .save(path)

    root.remember = remember
    show(root)
    root.next_language()                      # en -> de (the offered languages, in turn)
    root.toggle_colours()
    assert kept == [("de", False), ("de", True)]
    again = TabletSettings.load(path)
    assert again.language == "de" and again.four_colour
    assert again.language_for(None, {"LANG": "fr_FR.UTF-8"}) == "de"
    root.close()


def test_a_damaged_settings_file_starts_the_tablet_with_the_defaults(tablet_config: Path,
                                                                    caplog: Any) -> None:
    path = settings_path()
    path.parent.mkdir(parents=True)
    path.write_text('{"language": "klingon", "four_colour": true}')
    assert TabletSettings.load(path).language is None
    assert "klingon" in caplog.text
    path.write_text("not json")
    assert TabletSettings.load(path) == TabletSettings()
    assert "unreadable" in caplog.text


def test_the_exit_pin_is_kept_hashed_and_set_from_the_command_line(tablet_config: Path) -> None:
    out = subprocess.run([sys.executable, "-m", "tenace", "tablet", "--set-exit-pin", "2468"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    stored = json.loads(settings_path().read_text())
    # the PIN nowhere as written: only its salted hash (whose hex may hold "2468" by chance)
    rest = {k: v for k, v in stored.items() if k not in ("exit_pin_salt", "exit_pin_hash")}
    assert "2468" not in json.dumps(rest) and len(stored["exit_pin_hash"]) == 64
    assert int(stored["exit_pin_hash"], 16) >= 0 and stored["exit_pin_salt"] != "2468"
    assert (settings_path().stat().st_mode & 0o777) == 0o600
    settings = TabletSettings.load(settings_path())
    assert settings.exit_pin_matches("2468") and not settings.exit_pin_matches("2469")
    bad = subprocess.run([sys.executable, "-m", "tenace", "tablet", "--set-exit-pin", "12"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "4 to 12 digits" in bad.stderr
    assert json.loads(settings_path().read_text())["exit_pin_hash"] == settings.exit_pin_hash


def test_kiosk_mode_refuses_close_and_escape_and_leaves_with_the_chord_and_pin() -> None:
    stops: list[int] = []
    settings = TabletSettings().with_exit_pin("2468")
    t = Table(["N"], language="fr")
    kiosk = Kiosk(lambda: stops.append(1), settings.exit_pin_matches, lambda: t["N"].model.tr)
    kiosk.attach(Window)
    try:
        assert Window.dispatch("on_request_close") is True            # Alt+F4, close button
        assert Window.dispatch("on_keyboard", 27, 41, None, []) is True   # Escape, back
        assert Window.dispatch("on_keyboard", 113, 20, "q", ["ctrl"]) is not True
        assert Window.dispatch("on_keyboard", 113, 20, "q", ["ctrl", "shift"]) is True
        assert kiosk.asking is not None and kiosk.note is not None
        assert kiosk.note.text == "Code de sortie"
        assert not kiosk.try_pin("1111") and kiosk.note.text == "Code faux" and stops == []
        assert kiosk.try_pin("2468") and stops == [1] and kiosk.asking is None
        assert Window.dispatch("on_request_close") is not True        # leaving now
    finally:
        Window.unbind(on_request_close=kiosk.on_request_close, on_keyboard=kiosk.on_keyboard)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_hand_record_keeps_its_seat_labels_while_a_message_strip_shows(
        size: tuple[int, int]) -> None:
    """A message strip above the result screen pushed each hand's first line, the seat's
    name, out of its box (issue 22): the lines now shrink to the box."""
    t = in_play()
    north, east, west = t["N"], t["E"], t["W"]
    t.ok(north, north.play.claim(11))
    t.ok(east, east.play.claim_answer(True))
    t.ok(west, west.play.claim_answer(True))
    t.ok(east, east.result.confirm(True))
    north.model.notify("The director has been called", "info")
    root = show(TabletRoot(north), size)
    assert root.message.opacity == 1 and north.result.hand_record
    record = next(w for w in root.walk() if isinstance(w, HandRecord))
    texts = [w for w in record.walk(restrict=True) if isinstance(w, Text)]
    assert sorted(x.text.split("\n")[0] for x in texts) == [
        "[b]East[/b]", "[b]North[/b]", "[b]South[/b]", "[b]West[/b]"]
    for text in texts:      # the five lines at the font shown fit the box
        whole = MarkupLabel(text=text.text, font_size=text.font_size,
                          font_name=text.font_name, text_size=(text.width - 8, None))
        whole.refresh()
        assert whole.texture.size[1] <= text.height + 1, (text.text, text.height)
    # Nothing of the result screen is drawn over another part: it scrolls instead.
    screen = root.screens["result"]
    assert screen.body.height >= screen.scroll.height
    assert screen.next.top <= screen.body.height + 1 and screen.record.y >= 0
    shot(root, f"result_message_{size[0]}x{size[1]}")
    root.close()


def test_the_app_asks_for_no_multisampled_framebuffer(tmp_path: Path) -> None:
    """On a software renderer the multisampled framebuffer held 32 MB of a real window's
    process (docs/android.md, "Memory in a real window"): the app turns it off before Kivy
    reads its configuration, unless the machine's environment says otherwise."""
    code = ("import tablet.app\nfrom kivy.config import Config\n"
            "print(Config.getint('graphics', 'multisamples'))")
    env = {k: v for k, v in os.environ.items() if not k.startswith("KCFG_")}
    env.update(KIVY_HOME=str(tmp_path / "kivy"), SDL_VIDEODRIVER="offscreen")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, env=env)
    assert out.returncode == 0 and out.stdout.split()[-1] == "0", out.stderr[-2000:]
    env["KCFG_GRAPHICS_MULTISAMPLES"] = "4"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, env=env)
    assert out.stdout.split()[-1] == "4"
