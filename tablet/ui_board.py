"""Board start: which board is put on the table (the round's boards offered when the hub says
which), the pairs seated, and the way back to check-in for a new round."""

from __future__ import annotations

from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout

from tablet.widgets import PALETTE, Keypad, NumberField, Screen, Tap, Text

__all__ = ["BoardScreen"]


class BoardScreen(Screen):
    def __init__(self, host: Any, **kw: Any):
        super().__init__(host, **kw)
        self.title = Text("", size=30, bold=True, size_hint_y=None, height=dp(50))
        self.pairs = Text("", size=22, size_hint_y=None, height=dp(40))
        self.add_widget(self.title)
        self.add_widget(self.pairs)
        self.body = BoxLayout(spacing=dp(12))
        left = BoxLayout(orientation="vertical", spacing=dp(10))
        self.left = left
        self.number_label = Text("", size=22, size_hint_y=None, height=dp(40))
        self.number = NumberField("-", size_hint_y=None, height=dp(80))
        self.suggest_label = Text("", size=18, size_hint_y=None, height=dp(30))
        self.suggestions = BoxLayout(spacing=dp(8), size_hint_y=None, height=dp(70))
        self.start = Tap("", self.submit, size=28, bg=PALETTE["green"], size_hint_y=None,
                         height=dp(80))
        self.new_round = Tap("", lambda: host.act(host.presenter.checkin.new_round), size=20,
                             bg=PALETTE["grey"], size_hint_y=None, height=dp(64))
        for w in (self.number_label, self.number, self.suggest_label, self.suggestions,
                  self.start, self.new_round):
            left.add_widget(w)
        left.add_widget(BoxLayout())
        self.keypad = Keypad()
        self.number.action = lambda: self.keypad.select(self.number)
        self.keypad.select(self.number)
        self.body.add_widget(left)
        self.body.add_widget(self.keypad)
        self.add_widget(self.body)
        self._suggested: list[int] | None = None

    def arrange(self, landscape: bool) -> None:
        self.body.orientation = "horizontal" if landscape else "vertical"

    def refresh(self) -> None:
        p = self.host.presenter.board
        tr = p.model.tr
        over = p.round_over     # 8A: where to go is what the screen is for now
        self.title.text = tr("board.round_over") if over else tr("board.title")
        following = p.next_text
        self.pairs.text = following or p.pairs_text or ""
        self.pairs.font_size = sp(26 if over else 22)
        self.pairs.bold = over
        self.pairs.height = self._lines_height(self.pairs)
        self.start.bg = list(PALETTE["grey" if over else "green"])
        self.new_round.bg = list(PALETTE["green" if over else "grey"])
        self.number_label.text = tr("board.number")
        self.suggest_label.text = tr("board.scheduled") if p.suggested_boards else ""
        self.start.text = tr("board.start")
        self.new_round.text = tr("board.new_round")
        boards = p.suggested_boards
        if boards != self._suggested:
            self._suggested = boards
            self.suggestions.clear_widgets()
            for n in boards:
                self.suggestions.add_widget(Tap(str(n), lambda n=n: self.number.set(str(n)),
                                                size=26, bg=PALETTE["blue"]))

    def _lines_height(self, label: Text) -> float:
        """The height ``label``'s text needs as it wraps at the screen's width."""
        lines = CoreLabel(text=label.text or " ", font_name=label.font_name,
                          font_size=label.font_size, bold=label.bold,
                          text_size=(max(self.width - dp(32), dp(100)), None))
        lines.refresh()
        return max(dp(40), lines.content_height + dp(8))

    def submit(self) -> None:
        number = self.number.number
        self.host.act(self.host.presenter.board.announce, number if number is not None else 0)
        self.number.set("")
