"""Asking what the opponents' calls mean, and answering (tablet/presenters/explain.py); the
irregularities the table saw, the director called (tablet/presenters/rectify.py).

A strip under the auction record: the question this tablet is to answer, with a field for the
explanation and its button, and a button per call of the other side to ask about (the newest
four). The explanations themselves show in the auction record, under their calls.
"""

from __future__ import annotations

from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.textinput import TextInput

from tablet.presenters.common import cut_off_banner
from tablet.widgets import FONT, PALETTE, Tap, Text, banner, show

__all__ = ["CutOffBanner", "ExplainStrip", "IrregularityBar"]

_ASKS = 4   # buttons shown to ask about calls, the newest first


class ExplainStrip(BoxLayout):
    """``ExplainStrip(host)``; ``refresh()`` shows what ``host.presenter.explain`` says."""

    def __init__(self, host: Any, **kw: Any):
        super().__init__(orientation="vertical", spacing=dp(4), size_hint_y=None, **kw)
        self.host = host
        self.question = Text("", size=18, bold=True, size_hint_y=None, height=dp(30),
                             ink=PALETTE["red"])
        row = BoxLayout(spacing=dp(6), size_hint_y=None, height=dp(52))
        self.answer = TextInput(multiline=False, font_name=FONT, font_size=dp(18),
                                padding=(dp(8), dp(12)))
        self.send = Tap("", self._send, size=20, bg=PALETTE["blue"], size_hint_x=0.3)
        row.add_widget(self.answer)
        row.add_widget(self.send)
        self.answer_row = row
        self.ask_title = Text("", size=16, size_hint_y=None, height=dp(24), halign="left")
        self.asks = BoxLayout(spacing=dp(6), size_hint_y=None, height=dp(48))
        self.ask_buttons = [Tap("", lambda i=i: self._ask(i), size=18, bg=PALETTE["white"],
                                fg=PALETTE["ink"]) for i in range(_ASKS)]
        for button in self.ask_buttons:
            button.edge = list(PALETTE["light"])
            self.asks.add_widget(button)
        for w in (self.question, self.answer_row, self.ask_title, self.asks):
            self.add_widget(w)
        self._calls: list[int] = []

    def _ask(self, i: int) -> None:
        if i < len(self._calls):
            p = self.host.presenter.explain
            self.host.act(p.ask, self._calls[i])

    def _send(self) -> None:
        p = self.host.presenter.explain
        questions = p.questions
        if questions and self.host.act(p.explain, questions[0].call, self.answer.text):
            self.answer.text = ""

    def refresh(self) -> None:
        p = self.host.presenter.explain
        tr = p.model.tr
        questions = p.questions
        asked = questions[0].text if questions else ""
        self.question.text = asked
        show(self.question, bool(questions), dp(30))
        show(self.answer_row, bool(questions), dp(52))
        self.answer.hint_text = tr("explain.hint")
        self.send.text = tr("explain.send")
        askable = p.askable[:_ASKS]
        self._calls = [a.call for a in askable]
        self.ask_title.text = tr("explain.ask_title")
        show(self.ask_title, bool(askable), dp(24))
        show(self.asks, bool(askable), dp(48))
        for i, button in enumerate(self.ask_buttons):
            here = i < len(askable)
            button.text = askable[i].label if here else ""
            button.opacity = 1 if here else 0
            button.disabled = not here
        self.height = sum(w.height for w in self.children) + dp(4) * len(self.children)


class IrregularityBar(BoxLayout):
    """What happened at the table and that the director is called, full width (every
    tablet), with the choice the Laws give this tablet's player (tablet.presenters.rectify).
    ``refresh()`` shows what ``host.presenter.rectify`` says."""

    def __init__(self, host: Any, **kw: Any):
        super().__init__(orientation="vertical", spacing=dp(4), size_hint_y=None, **kw)
        self.host = host
        self.panel, self.text = banner(bg=PALETTE["orange"], size=20, height=60)
        self.choices = BoxLayout(spacing=dp(6), size_hint_y=None, height=dp(52))
        self.buttons = [Tap("", lambda i=i: self._choose(i), size=20, bg=PALETTE["blue"])
                        for i in range(2)]
        for button in self.buttons:
            self.choices.add_widget(button)
        self.add_widget(self.panel)
        self.add_widget(self.choices)
        self._ids: list[str] = []

    def _choose(self, i: int) -> None:
        if i < len(self._ids):
            p = self.host.presenter.rectify
            self.host.act(p.accept, self._ids[i])

    def refresh(self) -> None:
        p = self.host.presenter.rectify
        notices = p.notices
        choices = p.choices[:len(self.buttons)]
        self._ids = [c.irregularity for c in choices]
        self.text.text = "\n".join(notices)
        show(self.panel, bool(notices), dp(30 + 30 * len(notices)))
        show(self.choices, bool(choices), dp(52))
        for i, button in enumerate(self.buttons):
            here = i < len(choices)
            button.text = choices[i].label if here else ""
            button.opacity = 1 if here else 0
            button.disabled = not here
        self.height = self.panel.height + self.choices.height
        self.opacity = 1 if notices else 0


class CutOffBanner(BoxLayout):
    """Full width, red, while the tablet is cut off from the hub; the cards still waiting
    for the hub listed (tablet.presenters.common.cut_off_banner)."""

    def __init__(self, host: Any, **kw: Any):
        super().__init__(size_hint_y=None, height=0, **kw)
        self.host = host
        self.panel, self.text = banner(bg=PALETTE["red"], size=20, height=64)
        self.add_widget(self.panel)
        self.bind(width=lambda *_: self.refresh())   # a narrower screen wraps more lines

    def _height(self, text: str) -> float:
        """The strip's height for ``text`` as it wraps at the strip's width (a portrait
        screen wraps a line that a landscape one holds)."""
        label = self.text
        width = max(self.width - dp(24), dp(100))
        lines = CoreLabel(text=text, font_name=label.font_name, font_size=label.font_size,
                          bold=label.bold, text_size=(width, None), halign="center")
        lines.refresh()
        return max(lines.content_height, dp(34) * (text.count("\n") + 1)) + dp(10)

    def refresh(self) -> None:
        text = cut_off_banner(self.host.presenter.model)
        self.text.text = text or ""
        height = 0 if text is None else self._height(text)
        show(self.panel, text is not None, height)
        show(self, text is not None, height)
