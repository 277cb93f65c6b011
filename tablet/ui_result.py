"""End of the board: the result the hub computed from the play, the other side's confirmation
(Law 79A), then the hand record (only now that the board is finished at this table) and the
way to the next board."""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout

from tablet.widgets import PALETTE, HandRecord, Panel, Screen, Tap, Text, banner, show

__all__ = ["ResultScreen"]


class ResultScreen(Screen):
    def __init__(self, host: Any, **kw: Any):
        super().__init__(host, **kw)
        self.title, self.title_text = banner(size=28, height=64)
        self.add_widget(self.title)
        self.body = BoxLayout(spacing=dp(12))
        left = BoxLayout(orientation="vertical", spacing=dp(10))
        self.left = left
        card = Panel(orientation="vertical", bg=list(PALETTE["white"]), radius=dp(12),
                     padding=dp(12), spacing=dp(6), size_hint_y=None, height=dp(200))
        self.lines = [Text("", size=s, bold=b) for s, b in ((28, True), (34, True), (24, False))]
        for line in self.lines:
            card.add_widget(line)
        left.add_widget(card)
        self.ask = Text("", size=24, bold=True, size_hint_y=None, height=dp(70))
        self.buttons = BoxLayout(spacing=dp(10), size_hint_y=None, height=dp(90))
        self.agree = Tap("", lambda: self._confirm(True), size=28, bg=PALETTE["green"])
        self.disagree = Tap("", lambda: self._confirm(False), size=28, bg=PALETTE["red"])
        self.buttons.add_widget(self.agree)
        self.buttons.add_widget(self.disagree)
        self.status = Text("", size=22, size_hint_y=None, height=dp(50))
        self.next = Tap("", lambda: host.act(host.presenter.next_board), size=26,
                        bg=PALETTE["blue"], size_hint_y=None, height=dp(80))
        for w in (self.ask, self.buttons, self.status, self.next):
            left.add_widget(w)
        left.add_widget(BoxLayout())
        self.side_pane = BoxLayout(orientation="vertical", spacing=dp(6))
        self.record_title = Text("", size=22, bold=True, size_hint_y=None, height=dp(36))
        self.record = HandRecord()
        self.side_pane.add_widget(self.record_title)
        self.side_pane.add_widget(self.record)
        self.body.add_widget(left)
        self.body.add_widget(self.side_pane)
        self.add_widget(self.body)
        self._record_key: Any = None

    def arrange(self, landscape: bool) -> None:
        self.body.orientation = "horizontal" if landscape else "vertical"
        self.left.size_hint = (0.45, 1) if landscape else (1, 0.5)
        self.side_pane.size_hint = (0.55, 1) if landscape else (1, 0.5)

    def _confirm(self, accept: bool) -> None:
        p = self.host.presenter
        seats = p.confirm_seats
        if seats:
            self.host.act(p.confirm_result, accept, seats[0])

    def refresh(self) -> None:
        p = self.host.presenter
        tr = p.tr
        self.title_text.text = tr("result.title") + (
            f"  -  {tr('header.board', board=p.board_number)}" if p.board_number else "")
        result = p.result
        lines = result.lines if result is not None else ("", "", "")
        for label, text in zip(self.lines, (*lines, "", "")[:3], strict=True):
            label.text = text
        if result is not None and result.tricks is not None:
            made = result.tricks >= 6 + int(result.contract[0])
            self.lines[1].color = list(PALETTE["green"] if made else PALETTE["red"])
        seats = p.confirm_seats
        side = p.confirming_side
        self.ask.text = tr("result.confirm_ask", side=tr.side(side)) if seats else ""
        show(self.buttons, bool(seats), dp(90))
        self.agree.text = tr("result.agree")
        self.disagree.text = tr("result.disagree")
        if p.confirmed:
            status = tr("result.confirmed")
        elif p.disagreed:
            status = tr("result.disagreed")
        elif not seats:
            status = tr("result.waiting", side=tr.side(side))
        else:
            status = ""
        self.status.text = status
        done = p.confirmed or p.disagreed
        self.next.text = tr("result.next")
        show(self.next, done or not seats, dp(80))
        hands = p.hand_record
        self.record_title.text = tr("result.hand_record") if hands else ""
        key = (tuple((k, tuple(v)) for k, v in sorted(hands.items())), tr.language,
               p.four_colour)
        if key != self._record_key:
            self._record_key = key
            self.record.show(hands, tr, p.four_colour, p.vulnerable)
