"""The auction: whose turn it is, the record (from the dealer, vulnerable seats in red), the
player's hand, and the bidding pad (1-7 by strain, Pass, X, XX, Alert, STOP, Undo).

The pad offers what the presenter allows: in strict mode only the legal calls of the player
in turn; during a STOP wait nothing, with the seconds left shown.
"""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.scrollview import ScrollView
from kivy.uix.textinput import TextInput

from bridgecore.calls import ALL_BIDS
from tablet.ui_explain import CutOffBanner, ExplainStrip, IrregularityBar
from tablet.widgets import (
    FONT,
    PALETTE,
    AuctionGrid,
    HandView,
    Screen,
    Tap,
    Text,
    banner,
    call_markup,
    show,
)

__all__ = ["AuctionScreen", "BidPad"]

_SPECIAL = {"Pass": "green", "X": "red", "XX": "blue"}


class BidPad(BoxLayout):
    """The bidding box: a button per call, built once; ``refresh`` enables and labels.
    Landscape: the 35 bids with Pass, X, XX, Alert, STOP and Undo in a column beside them
    (the bids keep finger-sized rows on a 7-inch screen); portrait: those in two rows
    under the bids."""

    def __init__(self, host: Any, **kw: Any):
        super().__init__(orientation="vertical", spacing=dp(6), **kw)
        self.host = host
        self.buttons: dict[str, Tap] = {}
        self.grid = GridLayout(cols=5, spacing=dp(5))
        for bid in ALL_BIDS:
            text = str(bid)
            button = Tap(text, lambda c=text: self.tap(c), size=24, bg=PALETTE["white"],
                         fg=PALETTE["ink"], size_hint_min_y=dp(40))
            button.edge = list(PALETTE["light"])
            self.buttons[text] = button
            self.grid.add_widget(button)
        for call, name in _SPECIAL.items():
            self.buttons[call] = Tap(call, lambda c=call: self.tap(c), size=26,
                                     bg=PALETTE[name])
        self.alert = Tap("", self.toggle_alert, size=22, bg=PALETTE["yellow"],
                         fg=PALETTE["ink"])
        self.stop = Tap("", self.toggle_stop, size=22, bg=PALETTE["red"])
        self.undo = Tap("", lambda: host.act(host.presenter.auction.undo), size=22,
                        bg=PALETTE["grey"])
        self.explanation = TextInput(multiline=False, font_name=FONT, font_size=dp(20),
                                     size_hint_y=None, height=0, opacity=0,
                                     padding=(dp(10), dp(12)))
        self._landscape: bool | None = None
        self.arrange(False)

    def arrange(self, landscape: bool) -> None:
        if landscape == self._landscape:
            return
        self._landscape = landscape
        specials = [self.buttons[c] for c in _SPECIAL]
        tools = [self.alert, self.stop, self.undo]
        for w in (self.grid, self.explanation, *specials, *tools):
            if w.parent is not None:
                w.parent.remove_widget(w)
        self.clear_widgets()
        if landscape:
            self.orientation = "horizontal"
            left = BoxLayout(orientation="vertical", spacing=dp(6), size_hint_x=0.76)
            left.add_widget(self.grid)
            left.add_widget(self.explanation)
            column = BoxLayout(orientation="vertical", spacing=dp(6), size_hint_x=0.24)
            for w in (*specials, *tools):
                column.add_widget(w)
            self.add_widget(left)
            self.add_widget(column)
            return
        self.orientation = "vertical"
        self.add_widget(self.grid)
        for row_widgets, height in ((specials, 64), (tools, 60)):
            row = BoxLayout(spacing=dp(6), size_hint_y=None, height=dp(height))
            for w in row_widgets:
                row.add_widget(w)
            self.add_widget(row)
        self.add_widget(self.explanation)

    def tap(self, call: str) -> None:
        p = self.host.presenter.auction
        if p.alert_armed:
            p.set_alert(True, self.explanation.text)
        self.host.act(p.call, call)
        if not p.alert_armed:
            self.explanation.text = ""

    def toggle_alert(self) -> None:
        p = self.host.presenter.auction
        p.set_alert(not p.alert_armed, self.explanation.text)
        self.host.refresh()

    def toggle_stop(self) -> None:
        p = self.host.presenter.auction
        p.set_stop(not p.stop_armed)
        self.host.refresh()

    def refresh(self) -> None:
        p = self.host.presenter.auction
        m = p.model
        tr = m.tr
        for option in p.call_options:
            button = self.buttons[option.call]
            button.disabled = not option.enabled
            if option.call in _SPECIAL:
                button.text = option.label
            else:
                button.text = call_markup(option.call, tr, m.four_colour)
            # bidding-box mode: a call that is not proper stays possible, drawn pale
            button.opacity = 1.0 if option.proper or not option.enabled else 0.55
        active = m.phase == "auction" and p.pad_seat is not None
        # Armed: dark with a yellow edge and text, and says so (a yellow edge on the yellow
        # button did not show).
        armed = p.alert_armed
        self.alert.text = tr("pad.alert_armed") if armed else tr("pad.alert")
        self.alert.selected = armed
        self.alert.bg = list(PALETTE["ink" if armed else "yellow"])
        self.alert.fg = list(PALETTE["yellow" if armed else "ink"])
        self.alert.disabled = not active
        self.stop.text = tr("pad.stop")
        self.stop.selected = p.stop_armed
        self.stop.disabled = not active
        self.undo.text = tr("pad.undo")
        self.undo.disabled = p.undo_seat is None
        self.explanation.hint_text = tr("pad.explanation")
        show(self.explanation, p.alert_armed, dp(56))


class AuctionScreen(Screen):
    def __init__(self, host: Any, **kw: Any):
        super().__init__(host, **kw)
        self.turn, self.turn_text = banner(size=28, height=64)
        self.warning, self.warning_text = banner(bg=PALETTE["orange"], size=20, height=70)
        self.add_widget(self.turn)
        self.add_widget(self.warning)
        self.irregularity = IrregularityBar(host)   # the director called (7.15)
        self.add_widget(self.irregularity)
        self.cut_off = CutOffBanner(host)   # cut off from the hub: the entries wait
        self.add_widget(self.cut_off)
        self.body = BoxLayout(spacing=dp(12))
        self.left = BoxLayout(orientation="vertical", spacing=dp(8))
        self.grid = AuctionGrid()
        scroll = ScrollView(do_scroll_x=False, size_hint_y=0.45)
        scroll.add_widget(self.grid)
        self.left.add_widget(scroll)
        self.explain = ExplainStrip(host)   # questions on calls and answers (20F)
        self.left.add_widget(self.explain)
        self.hand_title = Text("", size=18, size_hint_y=None, height=dp(28))
        self.hand = HandView(size_hint_y=0.55)
        self.left.add_widget(self.hand_title)
        self.left.add_widget(self.hand)
        self.pad = BidPad(host)
        self.body.add_widget(self.left)
        self.body.add_widget(self.pad)
        self.add_widget(self.body)

    def arrange(self, landscape: bool) -> None:
        self.body.orientation = "horizontal" if landscape else "vertical"
        self.left.size_hint = (0.42, 1) if landscape else (1, 0.42)
        self.pad.size_hint = (0.58, 1) if landscape else (1, 0.58)
        self.pad.arrange(landscape)

    def refresh(self) -> None:
        p = self.host.presenter.auction
        m = p.model
        tr = m.tr
        mine = m.seat is not None and m.turn == m.seat
        wait = p.stop_wait
        if wait > 0:  # FFB Annex I: the jumper's LHO waits; the pad is locked meanwhile
            self.turn.bg = list(PALETTE["red"])
            self.turn_text.text = tr("stop.wait", seconds=int(wait + 0.999))
        elif p.stop_banner is not None:
            self.turn.bg = list(PALETTE["red"])
            self.turn_text.text = f"{p.turn_text}   -   {p.stop_banner}"
        elif self.host.presenter.rectify.waiting:   # 9B2: the director is awaited
            self.turn.bg = list(PALETTE["orange"])
            self.turn_text.text = p.turn_text
        else:
            self.turn.bg = list(PALETTE["green"] if mine else PALETTE["bar"])
            self.turn_text.text = p.turn_text
        warning = self.host.presenter.board.warning
        asked = self.host.presenter.prompts.prompts   # a hand to sweep over the reader again
        if asked:
            warning = asked[0].text
        self.warning_text.text = warning or ""
        show(self.warning, warning is not None, dp(70))
        self.grid.show(m.columns, m.vulnerable, p.cells, tr, m.turn, m.four_colour)
        self.explain.refresh()
        self.irregularity.refresh()
        self.cut_off.refresh()
        cards = p.hand
        self.hand_title.text = tr("play.your_hand") if cards else ""
        self.hand.show(cards, None, m.four_colour, card_size=24, max_width=80)
        show(self.hand, bool(cards))
        self.pad.refresh()
