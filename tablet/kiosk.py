"""Full screen and kiosk mode (``tenace tablet --fullscreen --kiosk``).

Full screen: the window takes the whole screen, without decorations. Kiosk: full screen,
and the players cannot leave the app: the window manager's close (Alt+F4, the close button)
and Escape (Android's back button) are refused. The one way out is the documented chord
**Ctrl+Shift+Q**, which asks for the exit PIN the club set on the device
(``tenace tablet --set-exit-pin``, kept hashed in ``tablet.json``, :mod:`tablet.settings`);
on a device without a PIN the chord leaves at once (a volunteer's set-up, not a club
evening). See ``docs/android.md`` for the Android side (screen pinning).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView
from kivy.uix.textinput import TextInput

from tablet.i18n import Translator
from tablet.widgets import PALETTE, Panel, Tap, Text

__all__ = ["EXIT_CHORD", "Kiosk", "go_fullscreen"]

log = logging.getLogger(__name__)

EXIT_CHORD = ("ctrl", "shift", "q")
_ESCAPE = 27


def go_fullscreen(window: Any) -> None:
    """The whole screen, no decorations (SDL2's desktop full screen: the screen's own size)."""
    window.borderless = True
    window.fullscreen = "auto"


class Kiosk:
    """``Kiosk(stop, pin_check, tr).attach(Window)``: ``stop()`` ends the app; ``pin_check``
    tells a PIN typed right (None: the device has no PIN, the chord leaves at once)."""

    def __init__(self, stop: Callable[[], Any], pin_check: Callable[[str], bool] | None,
                 tr: Callable[[], Translator]):
        self.stop = stop
        self.pin_check = pin_check
        self.tr = tr
        self.leaving = False
        self.asking: ModalView | None = None
        self.pin: TextInput | None = None
        self.note: Text | None = None

    def attach(self, window: Any) -> Kiosk:
        window.bind(on_request_close=self.on_request_close, on_keyboard=self.on_keyboard)
        return self

    def on_request_close(self, *_: Any, **__: Any) -> bool:
        """True refuses the close (Kivy's convention)."""
        if not self.leaving:
            log.info("kiosk: a request to close the window refused")
        return not self.leaving

    def on_keyboard(self, _window: Any, key: int, _scancode: int, codepoint: str | None,
                    modifiers: Sequence[str]) -> bool:
        """True: the key is taken here (Escape never leaves; the chord asks the PIN)."""
        if key == _ESCAPE:
            return True
        if (codepoint or "").lower() == EXIT_CHORD[-1] and set(EXIT_CHORD[:-1]) <= set(modifiers):
            self.ask()
            return True
        return False

    def ask(self) -> None:
        if self.pin_check is None:
            self.leave()
            return
        if self.asking is not None:
            return
        tr = self.tr()
        view = ModalView(size_hint=(None, None), size=(dp(420), dp(260)), auto_dismiss=False)
        box = Panel(bg=list(PALETTE["white"]), orientation="vertical", padding=dp(12),
                    spacing=dp(8), radius=dp(10))
        self.note = Text(tr("kiosk.pin"), size=20, bold=True)
        self.pin = TextInput(password=True, multiline=False, input_filter="int",
                             font_size=dp(28), size_hint_y=None, height=dp(56))
        self.pin.bind(on_text_validate=lambda *_: self.try_pin(self.pin.text if self.pin else ""))
        buttons = BoxLayout(spacing=dp(8), size_hint_y=None, height=dp(56))
        buttons.add_widget(Tap(tr("kiosk.cancel"), self.close, size=20, bg=PALETTE["grey"]))
        buttons.add_widget(Tap(tr("kiosk.leave"),
                               lambda: self.try_pin(self.pin.text if self.pin else ""),
                               size=20, bg=PALETTE["red"]))
        for w in (self.note, self.pin, buttons):
            box.add_widget(w)
        view.add_widget(box)
        self.asking = view
        view.open()
        self.pin.focus = True

    def try_pin(self, pin: str) -> bool:
        """Leave when the PIN is right; else say it was wrong and ask again."""
        if self.pin_check is not None and self.pin_check(pin):
            self.close()
            self.leave()
            return True
        log.warning("kiosk: a wrong exit PIN")
        if self.note is not None:
            self.note.text = self.tr()("kiosk.wrong")
        if self.pin is not None:
            self.pin.text = ""
        return False

    def close(self) -> None:
        if self.asking is not None:
            self.asking.dismiss()
        self.asking = self.pin = self.note = None

    def leave(self) -> None:
        log.info("kiosk: left with the exit chord")
        self.leaving = True
        self.stop()
