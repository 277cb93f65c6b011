"""End of the board: the result the hub computed from the play, the other side's confirmation
(Law 79A), then the hand record (only now that the board is finished at this table) and the
way to the next board. With the hand record come the board's traveller so far with the score of
this table's result, and the double-dummy table with the par (tablet/results.py; the hub sends
them only once the board is over here, Law 16)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from tablet.i18n import suit_colour
from tablet.results import (
    DD_STRAINS,
    dd_grid,
    say,
    score_lines,
    traveller_header,
    traveller_lines,
)
from tablet.widgets import (
    PALETTE,
    HandRecord,
    Panel,
    Screen,
    Tap,
    Text,
    banner,
    call_markup,
    show,
)

__all__ = ["CellGrid", "ResultScreen"]


def _hex(rgba: Sequence[float]) -> str:
    return "".join(f"{int(max(0.0, min(1.0, c)) * 255):02x}" for c in rgba[:3])


class CellGrid(GridLayout):
    """A compact table of text cells: a header row, then rows; highlighted rows on yellow.
    ``weights`` share the width between the columns (equal by default)."""

    def __init__(self, row_height: float = 30, **kw: Any):
        kw.setdefault("spacing", dp(2))
        kw.setdefault("size_hint_y", None)
        super().__init__(**kw)
        self.row_height = row_height
        self.bind(minimum_height=self.setter("height"))
        self.texts: list[list[str]] = []     # what is shown, row by row (header first)

    def show(self, header: Sequence[str], rows: Sequence[tuple[Sequence[str], bool]],
             size: float = 16, weights: Sequence[float] = ()) -> None:
        self.clear_widgets()
        self.cols = max(1, len(header))
        self.texts = [list(header)] + [list(cells) for cells, _ in rows]
        if not rows:
            return
        shares = list(weights) + [1.0] * (len(header) - len(weights))
        for text, share in zip(header, shares, strict=False):
            self.add_widget(self._cell(text, PALETTE["bar"], size - 2, True,
                                       PALETTE["white"], share))
        for cells, highlight in rows:
            for text, share in zip(cells, shares, strict=False):
                self.add_widget(self._cell(text, PALETTE["yellow"] if highlight
                                           else PALETTE["white"], size, highlight, None, share))

    def _cell(self, text: str, bg: Sequence[float], size: float, bold: bool,
              ink: Sequence[float] | None, share: float) -> Panel:
        box = Panel(bg=list(bg), radius=dp(3), size_hint=(share, None),
                    height=dp(self.row_height))
        box.add_widget(Text(text, size=size, bold=bold, ink=ink))
        return box


# dp the result screen's body needs (landscape, portrait): the result card, the answer,
# the next board button and the traveller's first lines beside (or above) the hand record and
# the double-dummy table; a landscape screen that leaves at least RESULT_FITS (a 1280x800
# tablet leaves 636 below its bar and title) shows it whole, without scrolling.
RESULT_MIN_HEIGHT = (700, 1080)
RESULT_FITS = 620
# The traveller's columns: pairs narrow, the contract wide.
_WEIGHTS = (0.7, 0.7, 1.25, 0.85, 1.0, 1.0, 1.0, 1.0)


class ResultScreen(Screen):
    def __init__(self, host: Any, **kw: Any):
        super().__init__(host, **kw)
        self.title, self.title_text = banner(size=28, height=64)
        self.add_widget(self.title)
        self.body = BoxLayout(spacing=dp(12))
        left = BoxLayout(orientation="vertical", spacing=dp(10))
        self.left = left
        self.card = card = Panel(orientation="vertical", bg=list(PALETTE["white"]),
                                 radius=dp(12), padding=dp(12), spacing=dp(6))
        self.lines = [Text("", size=s, bold=b) for s, b in ((28, True), (34, True), (24, False))]
        for line in self.lines:
            card.add_widget(line)
        # The result card; in portrait the double-dummy table sits beside it.
        self.head_row = BoxLayout(spacing=dp(10), size_hint_y=None, height=dp(200))
        self.head_row.add_widget(card)
        left.add_widget(self.head_row)
        self.ask = Text("", size=24, bold=True, size_hint_y=None, height=dp(70))
        self.buttons = BoxLayout(spacing=dp(10), size_hint_y=None, height=dp(90))
        self.agree = Tap("", lambda: self._confirm(True), size=28, bg=PALETTE["green"])
        self.disagree = Tap("", lambda: self._confirm(False), size=28, bg=PALETTE["red"])
        self.buttons.add_widget(self.agree)
        self.buttons.add_widget(self.disagree)
        self.status = Text("", size=22, size_hint_y=None, height=dp(50))
        self.next = Tap("", lambda: host.act(host.presenter.result.next_board), size=26,
                        bg=PALETTE["blue"], size_hint_y=None, height=dp(80))
        for w in (self.ask, self.buttons, self.status, self.next):
            left.add_widget(w)
        # The traveller so far (it fills what the left pane leaves, empty until shown).
        self.traveller_box = BoxLayout(orientation="vertical", spacing=dp(4))
        self.traveller_title = Text("", size=20, bold=True, size_hint_y=None, height=dp(30))
        self.score_text = Text("", size=20, bold=True, size_hint_y=None, height=dp(30))
        self.traveller = CellGrid()
        scroller = ScrollView(do_scroll_x=False, bar_width=dp(6))
        scroller.add_widget(self.traveller)
        for w in (self.traveller_title, self.score_text, scroller):
            self.traveller_box.add_widget(w)
        left.add_widget(self.traveller_box)
        self.side_pane = BoxLayout(orientation="vertical", spacing=dp(6))
        self.record_title = Text("", size=22, bold=True, size_hint_y=None, height=dp(36))
        self.record = HandRecord()
        self.side_pane.add_widget(self.record_title)
        self.side_pane.add_widget(self.record)
        # The double-dummy table, strains across and declarers down: under the hand record
        # in landscape, beside the result card in portrait.
        self.dd_box = BoxLayout(spacing=dp(2), size_hint_y=None, height=0)
        self.dd_title = Text("", size=18, bold=True, size_hint_y=None, height=dp(26))
        self.dd = CellGrid(row_height=26, size_hint_x=None, width=dp(320),
                           pos_hint={"center_x": 0.5})
        self.par_text = Text("", size=17, size_hint_y=None, height=dp(26))
        self.dd_notes = BoxLayout(orientation="vertical", spacing=dp(2))  # title and par
        self._dd_shown = False
        self.body.add_widget(left)
        self.body.add_widget(self.side_pane)
        # A window shorter than the screen needs (800x600, a message strip shown) scrolls
        # rather than drawing the panes over each other.
        self.body.size_hint_y = None
        self.scroll = ScrollView(do_scroll_x=False, bar_width=dp(8))
        self.scroll.add_widget(self.body)
        self.scroll.bind(height=self._fit_body)
        self.add_widget(self.scroll)
        self.landscape = True
        self._record_key: Any = None
        self._traveller_key: Any = None

    def arrange(self, landscape: bool) -> None:
        self.landscape = landscape
        self.body.orientation = "horizontal" if landscape else "vertical"
        self._proportions()
        self._place_dd()
        self._fit_body()

    def _fit_body(self, *_: Any) -> None:
        """The body fills the screen, or scrolls when the screen is shorter than its
        panes need (``RESULT_MIN_HEIGHT``)."""
        need = dp(RESULT_MIN_HEIGHT[0] if self.landscape else RESULT_MIN_HEIGHT[1])
        if self.landscape and self.scroll.height >= dp(RESULT_FITS):
            need = self.scroll.height
        self.body.height = max(self.scroll.height, need)

    def _proportions(self) -> None:
        """Landscape side by side; portrait stacked, the left pane taller when it holds
        the traveller."""
        if self.landscape:
            self.left.size_hint, self.side_pane.size_hint = (0.45, 1), (0.55, 1)
        else:
            share = 0.55 if self.traveller.texts[1:] else 0.5
            self.left.size_hint, self.side_pane.size_hint = (1, share), (1, 1 - share)

    def _place_dd(self) -> None:
        """The double-dummy table under the hand record with its title and par beside it
        (landscape), or beside the result card with its title above and par below
        (portrait); out of the layout while there is none."""
        home = (None if not self._dd_shown else
                self.side_pane if self.landscape else self.head_row)
        if self.dd_box.parent is not home:
            if self.dd_box.parent is not None:
                self.dd_box.parent.remove_widget(self.dd_box)
            if home is not None:
                home.add_widget(self.dd_box)
        for box in (self.dd_box, self.dd_notes):
            box.clear_widgets()
        grid = dp(self.dd.row_height) * 5 + dp(2) * 4
        if self.landscape:
            self.dd_box.orientation = "horizontal"
            self.par_text.size_hint_y, self.par_text.height = None, dp(52)  # two lines
            for w in (Widget(), self.dd_title, self.par_text, Widget()):
                self.dd_notes.add_widget(w)
            self.dd_box.add_widget(self.dd)
            self.dd_box.add_widget(self.dd_notes)
            height = grid
        else:
            self.dd_box.orientation = "vertical"
            self.par_text.size_hint_y, self.par_text.height = None, dp(26)
            for w in (self.dd_title, self.dd, self.par_text):
                self.dd_box.add_widget(w)
            height = grid + dp(26) * 2 + dp(2) * 2
        show(self.dd_box, self._dd_shown, height)
        beside = home is self.head_row
        self.dd_box.size_hint_x = 0.45 if beside else 1
        self.card.size_hint_x = 0.55 if beside else 1

    def _confirm(self, accept: bool) -> None:
        p = self.host.presenter.result
        seats = p.confirm_seats
        if seats:
            self.host.act(p.confirm, accept, seats[0])

    def refresh(self) -> None:
        p = self.host.presenter.result
        m = p.model
        tr = m.tr
        self.title_text.text = tr("result.title") + (
            f"  -  {tr('header.board', board=m.board_number)}" if m.board_number else "")
        result = p.view
        lines = result.lines if result is not None else ("", "", "")
        for label, text in zip(self.lines, (*lines, "", "")[:3], strict=True):
            label.text = text
        if result is not None and result.tricks is not None:
            made = result.tricks >= 6 + int(result.contract[0])
            self.lines[1].color = list(PALETTE["green"] if made else PALETTE["red"])
        seats = p.confirm_seats
        side = p.confirming_side
        self.ask.text = tr("result.confirm_ask", side=tr.side(side)) if seats else ""
        show(self.ask, bool(seats), dp(70))
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
               m.four_colour)
        if key != self._record_key:
            self._record_key = key
            self.record.show(hands, tr, m.four_colour, m.vulnerable)
        self._show_traveller(bool(hands))

    def _show_traveller(self, shown: bool) -> None:
        """The traveller, the score so far and the double-dummy table: with the hand
        record (the board over here, the result answered), never before."""
        p = self.host.presenter.result
        m = p.model
        tr = m.tr
        state = m.state if shown else None
        key = (shown, tr.language, m.four_colour, None if state is None else (
            state.board, state.phase, state.traveller, state.percentage, state.imps,
            state.field, state.dd))
        if key == self._traveller_key:
            return
        self._traveller_key = key
        lines = traveller_lines(state, tr)
        headline, count = score_lines(state, tr)
        self.traveller_title.text = (f"{say(tr, 'traveller.title')}  ({count})" if count
                                     else say(tr, "traveller.title")) if lines else ""
        self.score_text.text = headline
        rows = []
        for line in lines:
            contract = line.contract
            if line.call is not None:
                contract = call_markup(line.call, tr, m.four_colour) + line.risk
            cells = list(line.cells)
            cells[2] = contract
            rows.append((cells, line.own))
        self.traveller.show(traveller_header(state, tr) if lines else (), rows, size=16,
                            weights=_WEIGHTS)
        self._proportions()
        grid = dd_grid(state, tr)
        if grid is None:
            self.dd.show((), [])
            self.dd_title.text = self.par_text.text = ""
            self._dd_shown = False
            self._place_dd()
            return
        header = [""] + [
            f"[color={_hex(suit_colour(s, m.four_colour))}]{label}[/color]"
            if s != "NT" else label for s, label in zip(DD_STRAINS, grid.columns, strict=True)]
        dd_rows = [([f"[b]{seat}[/b]"] + ["-" if n is None else
                                          (f"[b]{n}[/b]" if n >= 7 else
                                           f"[color=8c8c94]{n}[/color]") for n in tricks],
                    False) for seat, tricks in grid.rows]
        self.dd.show(header, dd_rows, size=16)
        self.dd_title.text = say(tr, "dd.title")
        self.par_text.text = grid.par
        self._dd_shown = True
        self._place_dd()
