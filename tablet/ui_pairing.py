"""The pairing screen of a tablet without a command line (Android: deploy/android/main.py):
the code the console's Devices page shows (``K7QX-M2PD``), or the text of its QR code (a
``tenace-pair:`` URI, which holds the console's address too), and the console's address.
The redemption (wire.pairing) runs off the UI thread; once the credentials are kept, the
window closes and the tablet starts with them.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.metrics import dp
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget

from tablet.i18n import Translator
from tablet.kiosk import go_fullscreen
from tablet.settings import TabletSettings, settings_path
from tablet.widgets import PALETTE, Panel, Tap, Text

__all__ = ["PairingApp", "run_pairing"]

log = logging.getLogger(__name__)

_TEXTS = {
    "title": {"en": "Pair this tablet", "fr": "Appairer cette tablette",
              "it": "Associa questo tablet"},
    "code": {"en": "Code (K7QX-M2PD) or the QR code's text",
             "fr": "Code (K7QX-M2PD) ou le texte du QR code",
             "it": "Codice (K7QX-M2PD) o il testo del QR code"},
    "hub": {"en": "Console address, e.g. http://192.168.1.10:8080",
            "fr": "Adresse de la console, p. ex. http://192.168.1.10:8080",
            "it": "Indirizzo della console, es. http://192.168.1.10:8080"},
    "pair": {"en": "Pair", "fr": "Appairer", "it": "Associa"},
    "busy": {"en": "Pairing...", "fr": "Appairage...", "it": "Associazione..."},
}


class PairingApp(App):
    """``PairingApp(config).run()``; :attr:`paired` once the credentials are kept."""

    title = "Tenace"

    def __init__(self, config: Path, language: str, **kw: Any):
        super().__init__(**kw)
        self.config = config
        self.language = language
        self.paired = False
        self.status: Text | None = None
        self.code: TextInput | None = None
        self.hub: TextInput | None = None

    def say(self, key: str) -> str:
        return _TEXTS[key].get(self.language) or _TEXTS[key]["en"]

    def build(self) -> Widget:
        Window.clearcolor = PALETTE["page"]
        go_fullscreen(Window)
        box = Panel(orientation="vertical", bg=list(PALETTE["page"]), padding=dp(24),
                    spacing=dp(12))
        box.add_widget(Text(self.say("title"), size=30, bold=True, size_hint_y=None,
                            height=dp(60)))
        self.code = TextInput(hint_text=self.say("code"), multiline=False, font_size=dp(24),
                              size_hint_y=None, height=dp(56))
        self.hub = TextInput(hint_text=self.say("hub"), multiline=False, font_size=dp(24),
                             size_hint_y=None, height=dp(56))
        self.status = Text("", size=20, size_hint_y=None, height=dp(80))
        for w in (self.code, self.hub,
                  Tap(self.say("pair"), self.pair, size=26, bg=PALETTE["green"],
                      size_hint_y=None, height=dp(72)),
                  self.status, Widget()):
            box.add_widget(w)
        return box

    def pair(self) -> None:
        assert self.code is not None and self.hub is not None and self.status is not None
        code, hub = self.code.text.strip(), self.hub.text.strip() or None
        self.status.text = self.say("busy")
        threading.Thread(target=self._redeem, args=(code, hub), daemon=True).start()

    def _redeem(self, code: str, hub: str | None) -> None:
        from wire.errors import WireError
        from wire.pairing import pair_or_load
        try:
            pair_or_load(code, hub, self.config, ("table", "seat"), say=log.info)
        except (ValueError, WireError) as err:
            text = str(err)
            Clock.schedule_once(lambda _dt: self._failed(text), 0)
            return
        Clock.schedule_once(lambda _dt: self._done(), 0)

    def _failed(self, text: str) -> None:
        if self.status is not None:
            self.status.text = text
            self.status.color = list(PALETTE["red"])

    def _done(self) -> None:
        self.paired = True
        self.stop()


def run_pairing(config: Path) -> bool:
    """The pairing screen until the tablet is paired (True) or the window is closed."""
    language = TabletSettings.load(settings_path(config)).language_for(None)
    Translator(language)   # a language the tablet speaks
    app = PairingApp(config, language)
    app.run()
    return app.paired
