"""The tablet's building blocks: big flat buttons, cards, hands, the auction grid, the trick,
a number pad. Thin views: they show what the presenter computed and report taps.

Sizes are in dp/sp so a 7-inch and a 13-inch screen both get finger-sized targets (at least
56 dp); colours are high-contrast. The font is DejaVu Sans (Kivy ships it): it has the suit
symbols, which Kivy's default Roboto lacks.
"""

from __future__ import annotations

import importlib
import logging
import os
import re
from collections.abc import Callable, Collection, Sequence
from typing import Any

import kivy
from kivy.core.text import Label as CoreLabel
from kivy.core.text import LabelBase
from kivy.graphics import Color, RoundedRectangle
from kivy.lang import Builder
from kivy.logger import Logger
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty
from kivy.uix.anchorlayout import AnchorLayout
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget
from kivy.utils import escape_markup

from tablet.i18n import SUIT_SYMBOLS, Translator, card_label, rank_label, suit_colour
from tablet.presenters import AuctionCell, CardOption

__all__ = [
    "FONT", "PALETTE", "TAP", "AuctionGrid", "CardButton", "HandRecord", "HandView", "Keypad",
    "NumberField", "Panel", "Screen", "Tap", "Text", "TrickView", "banner", "call_markup",
    "card_markup", "colour", "show",
]

def _clipboard_without_x_tools() -> None:
    """Kivy probes for xclip and xsel (starting each) for the clipboard and for a Linux "cut
    buffer", and logs a critical error with tracebacks when neither is installed, the first
    time a text field is touched. A tablet has neither and needs only SDL's clipboard."""
    kivy.kivy_options["clipboard"] = ("sdl2", "dummy")
    kivy.kivy_options["cutbuffer"] = ()
    level = Logger.level
    Logger.setLevel(logging.CRITICAL + 1)
    try:
        importlib.import_module("kivy.core.clipboard")   # chosen once, here
    finally:
        Logger.setLevel(level)


_clipboard_without_x_tools()

FONT = "TenaceSans"
_KIVY_FONT = os.path.join(os.path.dirname(kivy.__file__), "data", "fonts", "DejaVuSans.ttf")
_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
LabelBase.register(FONT, _KIVY_FONT, fn_bold=_BOLD if os.path.exists(_BOLD) else None)

Colour = Sequence[float]
PALETTE: dict[str, tuple[float, float, float, float]] = {
    "page": (0.96, 0.95, 0.91, 1), "ink": (0.08, 0.08, 0.10, 1), "bar": (0.10, 0.22, 0.38, 1),
    "blue": (0.12, 0.36, 0.75, 1), "green": (0.10, 0.55, 0.25, 1), "red": (0.78, 0.10, 0.12, 1),
    "orange": (0.90, 0.50, 0.05, 1), "grey": (0.55, 0.55, 0.58, 1),
    "light": (0.86, 0.86, 0.84, 1), "white": (1, 1, 1, 1), "card": (1, 1, 1, 1),
    "felt": (0.11, 0.42, 0.26, 1), "yellow": (0.98, 0.83, 0.20, 1),
    "disabled": (0.80, 0.80, 0.78, 1), "vul": (0.80, 0.08, 0.10, 1),
    "notvul": (0.93, 0.93, 0.90, 1), "pending": (0.99, 0.96, 0.80, 1),
}
# Kivy's markup tags (a card's [size=..] suit), not words to measure.
_MARKUP = re.compile(r"\[/?[a-z_]+(?:=[^\]]*)?\]")
TAP = dp(58)           # the smallest touch target's height


def colour(name: str) -> tuple[float, float, float, float]:
    return PALETTE[name]


# A button's text is drawn through its own colour instruction, so a disabled button dims its
# text without rendering it again (see SteadyLabel).
Builder.load_string("""
<-Tap>:
    canvas:
        Color:
            rgba: self.tint
        Rectangle:
            texture: self.texture
            size: self.texture_size
            pos: int(self.center_x - self.texture_size[0] / 2.), \
                int(self.center_y - self.texture_size[1] / 2.)
""")


class SteadyLabel(Label):
    """A label whose text is rendered again only when the text, its font or its colour
    change, not when it is enabled or disabled (Kivy renders it again then, to draw it in
    ``disabled_color``). Each rendering is written into a texture that the frame being
    drawn may still use: Mesa's software renderer (a tablet's GPU far less) makes the UI
    thread wait for that frame, holding Python's lock, so the link's thread waited too and
    the hub's acknowledgement of a tap with it. The pad enables or disables forty buttons
    at each call and ``show`` disables whatever it hides: a p99 of 70 ms from a tap to its
    acknowledgement became 19 ms. A Tap dims its text through its canvas instead."""

    def __init__(self, **kw: Any):
        super().__init__(**kw)
        self.funbind("disabled", self._trigger_texture_update, "disabled")
        self.fbind("color", self._recolour)
        self._recolour(self, self.color)

    def _recolour(self, _label: Label, value: Any) -> None:
        # Label ignores a colour set while disabled; disabled_color it takes
        self.disabled_color = value



class Text(SteadyLabel):
    """A label that wraps to its width, in the tablet's font, dark on the page."""

    def __init__(self, text: str = "", size: float = 20, bold: bool = False,
                 ink: Colour | None = None, halign: str = "center", **kw: Any):
        kw.setdefault("markup", True)
        super().__init__(text=text, font_name=FONT, font_size=sp(size), bold=bold,
                         color=list(ink or PALETTE["ink"]), halign=halign, valign="middle",
                         **kw)
        self.bind(size=self._wrap)

    def _wrap(self, *_: Any) -> None:
        self.text_size = (self.width - dp(8), None if self.size_hint_y is None else self.height)


class Panel(BoxLayout):
    """A box with a background colour (and optional rounded corners)."""

    bg = ListProperty([0, 0, 0, 0])
    radius = NumericProperty(0)

    def __init__(self, **kw: Any):
        super().__init__(**kw)
        with self.canvas.before:
            self._colour = Color(rgba=self.bg)
            self._rect = RoundedRectangle(pos=self.pos, size=self.size,
                                          radius=[self.radius])
        self.bind(pos=self._draw, size=self._draw, bg=self._draw, radius=self._draw)

    def _draw(self, *_: Any) -> None:
        self._colour.rgba = self.bg
        self._rect.pos, self._rect.size = self.pos, self.size
        self._rect.radius = [self.radius]


class Tap(ButtonBehavior, SteadyLabel):
    """A flat rounded button with big text. ``action`` runs on release."""

    bg = ListProperty(list(PALETTE["blue"]))
    fg = ListProperty(list(PALETTE["white"]))
    edge = ListProperty([0, 0, 0, 0])
    radius = NumericProperty(dp(10))
    selected = BooleanProperty(False)
    action = ObjectProperty(None, allownone=True)
    tint = ListProperty([1, 1, 1, 1])   # multiplies the text's colours: greyer when disabled
    fits = True                         # a word wider than the button shrinks the text

    def __init__(self, text: str = "", action: Callable[[], Any] | None = None,
                 size: float = 22, bg: Colour | None = None, fg: Colour | None = None,
                 **kw: Any):
        kw.setdefault("markup", True)
        kw.setdefault("size_hint_min_y", TAP)
        super().__init__(text=text, font_name=FONT, font_size=sp(size), bold=True,
                         halign="center", valign="middle", **kw)
        if bg is not None:
            self.bg = list(bg)
        if fg is not None:
            self.fg = list(fg)
        self.action = action
        # The edge is a rounded rectangle under the fill, not a Line: a Line wider than one
        # pixel cost Mesa's software renderer half a megabyte per button.
        with self.canvas.before:
            self._edge_colour = Color(rgba=self.edge)
            self._outline = RoundedRectangle(pos=self.pos, size=self.size,
                                             radius=[self.radius])
            self._fill = Color(rgba=self.bg)
            self._shape = RoundedRectangle(pos=self.pos, size=self.size, radius=[self.radius])
        self.bind(pos=self._draw, size=self._draw, bg=self._draw, state=self._draw,
                  disabled=self._draw, selected=self._draw, edge=self._draw, fg=self._draw)
        self._font = self.font_size
        self.bind(width=self._fit, text=self._fit)
        self._draw()

    def _fit(self, *_: Any) -> None:
        """A word wider than the button (German "Turnierleiter" on the header's narrow
        button) makes the text smaller, down to 60 %, rather than break in the middle;
        measured only when the width or the text changes, never on a tap."""
        room = self.width - dp(6)
        words = _MARKUP.sub("", self.text).split()
        if not self.fits or room <= dp(10) or not words:
            return
        measure = CoreLabel(font_name=self.font_name, font_size=self._font, bold=self.bold)
        widest = max(measure.get_extents(word)[0] for word in words)
        self.font_size = self._font if widest <= room else \
            max(self._font * 0.6, self._font * room / widest)

    def _draw(self, *_: Any) -> None:
        bg = list(self.bg)
        if self.disabled:
            bg = list(PALETTE["disabled"]) if bg != list(PALETTE["card"]) else \
                [0.90, 0.90, 0.88, 1]
        elif self.state == "down":
            bg = [c * 0.75 for c in bg[:3]] + [bg[3]]
        self._fill.rgba = bg
        self.color = list(self.fg)
        if not self.disabled:
            self.tint = [1, 1, 1, 1]
        elif sum(self.fg[:3]) > 1.8:    # light text on a colour: grey on the disabled grey
            self.tint = [0.55, 0.55, 0.55, 1]
        else:                           # dark text: paler
            self.tint = [1, 1, 1, 0.5]
        edge = PALETTE["yellow"] if self.selected else self.edge
        self._edge_colour.rgba = list(edge)
        w = max(self.width, 1)
        h = max(self.height, 1)
        radius = min(self.radius, w / 2, h / 2)
        self._outline.pos, self._outline.size = self.pos, self.size
        self._outline.radius = [radius]
        inset = dp(6) if self.selected else dp(3) if edge[3] > 0 else 0
        inset = min(inset, w / 4, h / 4)
        self._shape.pos = (self.x + inset, self.y + inset)
        self._shape.size = (w - 2 * inset, h - 2 * inset)
        self._shape.radius = [max(0, radius - inset / 2)]
        self.text_size = (w - dp(6), None)

    def on_release(self) -> None:
        if self.action is not None:
            self.action()


class CardButton(Tap):
    """A card: the rank big (and the suit symbol under it), in the suit's colour. A card
    that cannot be played now stays readable, paler; ``passive`` cards are only shown."""

    fits = False                        # the hand's layout sizes a card's rank itself

    def __init__(self, option: CardOption, action: Callable[[], Any] | None = None,
                 size: float = 26, show_suit: bool = True, passive: bool = False, **kw: Any):
        symbol = SUIT_SYMBOLS[option.suit]
        text = (f"{option.label}\n[size={int(sp(size * 0.8))}]{symbol}[/size]" if show_suit
                else option.label)
        kw.setdefault("size_hint_min_y", dp(40))
        super().__init__(text, action, size=size, bg=PALETTE["card"], fg=option.colour, **kw)
        self.card = option.card
        self.look = (option.card, option.label, show_suit, size)
        self.passive = passive
        self.update(option, action, passive)

    def update(self, option: CardOption, action: Callable[[], Any] | None,
               passive: bool) -> None:
        """The same card, now playable or not, in the colours chosen: no new text."""
        self.action = action
        self.passive = passive
        self.fg = list(option.colour)
        self.edge = list(option.colour) if option.enabled and option.legal and not passive \
            else list(PALETTE["light"])
        self.disabled = not option.enabled and not passive

    def _draw(self, *_: Any) -> None:
        super()._draw()
        if self.disabled:
            self._fill.rgba = [0.93, 0.93, 0.91, 1]
            self.tint = [1, 1, 1, 0.35]

    def on_touch_down(self, touch: Any) -> bool:
        if self.passive:
            return False
        return bool(super().on_touch_down(touch))


class HandView(BoxLayout):
    """A hand as four rows, one per suit (spades first), each card a button of the same
    width. Laid out again only when the cards or their states change, each card keeping its
    button (and its rendered text) from trick to trick. Without ``on_tap`` the cards
    are only shown."""

    def __init__(self, **kw: Any):
        kw.setdefault("orientation", "vertical")
        kw.setdefault("spacing", dp(4))
        super().__init__(**kw)
        self._key: Any = None
        self._longest = 1
        self.buttons: dict[str, CardButton] = {}
        self._rows: list[tuple[BoxLayout, Text, Widget]] = []
        self.bind(size=self._layout)

    def show(self, options: Sequence[CardOption], on_tap: Callable[[str], Any] | None,
             four_colour: bool = False, card_size: float = 26,
             rows: Sequence[str] = "SHDC", max_width: float = 96) -> None:
        key = (tuple(options), on_tap is None, four_colour, card_size, max_width, tuple(rows))
        if key == self._key:
            return
        self._key = key
        self._max = dp(max_width)
        self._card_size = card_size
        counts = [sum(1 for o in options if o.suit == suit) for suit in rows]
        self._longest = max([4, *counts])
        # A card keeps its button from trick to trick (its text is rendered once); a row is
        # only laid out again.
        old, self.buttons = self.buttons, {}
        for option in options:
            action = None if on_tap is None else (lambda c=option.card: on_tap(c))
            button = old.get(option.card)
            look = (option.card, option.label, False, card_size)
            if button is not None and button.look == look:
                button.update(option, action, on_tap is None)
            else:
                button = CardButton(option, action, size=card_size, show_suit=False,
                                    passive=on_tap is None, size_hint_x=None)
            self.buttons[option.card] = button
        while len(self._rows) < len(rows):
            self._rows.append((BoxLayout(spacing=dp(4)),
                               Text("", bold=True, size_hint_x=None, width=dp(34)),
                               Widget()))
        self.clear_widgets()
        for (row, head, spacer), suit in zip(self._rows, rows, strict=False):   # rows kept
            head.text = SUIT_SYMBOLS[suit]
            head.font_size = sp(card_size)
            head.color = list(suit_colour(suit, four_colour))
            row.clear_widgets()
            row.add_widget(head)
            for option in options:
                if option.suit == suit:
                    row.add_widget(self.buttons[option.card])
            row.add_widget(spacer)
            self.add_widget(row)
        self._layout()

    def _layout(self, *_: Any) -> None:
        room = self.width - dp(34) - dp(4) * (self._longest + 1)
        width = max(dp(30), min(getattr(self, "_max", dp(96)), room / self._longest))
        # A narrow window (800 pixels, 13 cards a row): the font shrinks so that "10" keeps
        # to one line.
        font = min(sp(getattr(self, "_card_size", 26)), (width - dp(6)) / 1.5)
        for button in self.buttons.values():
            button.width = width
            if button.font_size != font:
                button.font_size = font


class AuctionGrid(GridLayout):
    """The auction record: four columns from the dealer, vulnerable seats in red (Law 2),
    alerted calls marked, cancelled or withdrawn calls struck out. The cells are kept and
    only their texts change: a call renders one text, not the whole record."""

    def __init__(self, **kw: Any):
        kw.setdefault("cols", 4)
        kw.setdefault("spacing", dp(2))
        kw.setdefault("size_hint_y", None)
        super().__init__(**kw)
        self.bind(minimum_height=self.setter("height"))
        self._key: Any = None
        self._cells: list[tuple[Panel, Text]] = []

    def _cell(self, i: int) -> tuple[Panel, Text]:
        while len(self._cells) <= i:
            box = Panel(radius=dp(6), size_hint_y=None, height=dp(40))
            text = Text("", size=22, bold=True)
            box.add_widget(text)
            self._cells.append((box, text))
        return self._cells[i]

    def show(self, columns: Sequence[str], vulnerable: Callable[[str], bool],
             cells: Sequence[AuctionCell], tr: Translator, turn: str | None,
             four_colour: bool = False, rows_min: int = 2) -> None:
        key = (tuple(columns), tuple(vulnerable(s) for s in columns), tuple(cells),
               tr.language, turn, four_colour)
        if key == self._key:
            return
        self._key = key
        used = 0
        for seat in columns:
            vul = vulnerable(seat)
            box, text = self._cell(used)
            used += 1
            box.bg = list(PALETTE["vul"] if vul else PALETTE["notvul"])
            box.height = dp(40)
            text.text = tr.seat(seat)
            text.font_size = sp(19)
            text.color = list(PALETTE["white"] if vul else PALETTE["ink"])
        rows = max([c.row for c in cells], default=-1) + 1
        grid: dict[tuple[int, int], AuctionCell] = {(c.row, c.column): c for c in cells}
        for r in range(max(rows, rows_min)):
            for col in range(4):
                box, text = self._cell(used)
                used += 1
                self._fill(box, text, grid.get((r, col)), tr, four_colour)
        shown = self._cells[:used]
        if [w for w in reversed(self.children)] != [box for box, _ in shown]:
            self.clear_widgets()
            for box, _ in shown:
                self.add_widget(box)

    @staticmethod
    def _fill(box: Panel, label: Text, cell: AuctionCell | None, tr: Translator,
              four_colour: bool) -> None:
        label.font_size = sp(22)
        label.color = list(PALETTE["ink"])
        if cell is None:
            box.bg = [0, 0, 0, 0]
            box.height = dp(40)
            label.text = ""
            return
        text = _call_markup(cell.call, tr, four_colour)
        if not cell.live:
            text = f"[s]{text}[/s]"
        if cell.alert:
            text += " [color=1a5cbf][b]![/b][/color]"
        if cell.explanation:
            text += f"\n[size={int(sp(14))}]{escape_markup(cell.explanation)}[/size]"
        if cell.pending:   # entered here, not yet confirmed by the hub
            text += " [color=888888]\u2026[/color]"
        box.bg = list(PALETTE["pending"] if cell.pending else
                      PALETTE["white"] if cell.live else PALETTE["light"])
        # A line of the call, and the explanation's lines under it (about 16 characters a
        # line in a quarter of the record): the call stays in view above its explanation.
        lines = 0 if not cell.explanation else 1 + len(cell.explanation) // 16
        box.height = dp(40 + 18 * lines)
        label.text = text


def _hex(rgba: Sequence[float]) -> str:
    return "".join(f"{int(max(0.0, min(1.0, c)) * 255):02x}" for c in rgba[:3])


def _call_markup(call: str, tr: Translator, four_colour: bool) -> str:
    """'1H' -> '1' and a red heart; 'Pass' -> 'Passe'."""
    if call[:1].isdigit() and len(call) >= 2:
        strain = call[1:]
        if strain in SUIT_SYMBOLS:
            return (f"{call[0]}[color={_hex(suit_colour(strain, four_colour))}]"
                    f"{SUIT_SYMBOLS[strain]}[/color]")
        return call[0] + tr.strain(strain)
    if call == "X":
        return f"[color={_hex(PALETTE['red'])}]X[/color]"
    if call == "XX":
        return f"[color={_hex(PALETTE['blue'])}]XX[/color]"
    return f"[color={_hex(PALETTE['green'])}]{tr.call(call)}[/color]"


def call_markup(call: str, tr: Translator, four_colour: bool = False) -> str:
    return _call_markup(call, tr, four_colour)


def card_markup(card: str, language: str, four_colour: bool = False) -> str:
    """'SK' -> a black '♠R' in French."""
    return f"[color={_hex(suit_colour(card[0], four_colour))}]{card_label(card, language)}" \
           "[/color]"


# Each place of the cloth's 3x3 grid that holds a seat: that seat, counted clockwise from the
# tablet's own (across, left, right, own).
_TRICK_PLACES = {(0, 1): 2, (1, 0): 1, (1, 2): 3, (2, 1): 0}


class TrickView(GridLayout):
    """The trick in progress on a green cloth: each card at its seat's place, the player in
    turn's place marked. Built once; a card played changes one place."""


    def __init__(self, **kw: Any):
        super().__init__(cols=3, rows=3, spacing=dp(4), padding=dp(6), **kw)
        with self.canvas.before:
            Color(rgba=PALETTE["felt"])
            self._felt = RoundedRectangle(pos=self.pos, size=self.size, radius=[dp(14)])
        self.bind(pos=self._draw, size=self._draw)
        self._key: Any = None
        self.centre = Text("", size=18, bold=True, ink=PALETTE["white"])
        # Each place: the seat's name over a card face (hidden while no card is there).
        self._places: list[tuple[Text, Panel, Text]] = []
        for r in range(3):
            for c in range(3):
                if (r, c) not in _TRICK_PLACES:
                    self.add_widget(self.centre if (r, c) == (1, 1) else Widget())
                    continue
                box = BoxLayout(orientation="vertical", spacing=dp(2))
                name = Text("", size=16, size_hint_y=0.25)
                holder = AnchorLayout(size_hint_y=0.75)
                face = Panel(bg=PALETTE["card"], radius=dp(8), size_hint=(None, 1),
                             width=dp(92))
                label = Text("", size=30, bold=True)
                # as big as the place allows (a 7-inch portrait screen has a small cloth)
                face.bind(height=lambda w, h, lb=label: setattr(
                    lb, "font_size", max(sp(16), min(sp(30), h * 0.7))))
                face.add_widget(label)
                holder.add_widget(face)
                box.add_widget(name)
                box.add_widget(holder)
                self.add_widget(box)
                self._places.append((name, face, label))
        self._order = [_TRICK_PLACES[(r, c)] for r in range(3) for c in range(3)
                       if (r, c) in _TRICK_PLACES]

    def _draw(self, *_: Any) -> None:
        self._felt.pos, self._felt.size = self.pos, self.size

    def show(self, cards: dict[str, str], turn: str | None, tr: Translator,
             four_colour: bool, centre: str = "", me: str | None = None,
             pending: Collection[str] = ()) -> None:
        """``turn``: the seat marked (the player in turn, or the winner of a quitted
        trick); ``pending``: seats whose card the hub has not confirmed yet (greyed)."""
        key = (tuple(sorted(cards.items())), turn, tr.language, four_colour, centre, me,
               tuple(sorted(pending)))
        if key == self._key:
            return
        self._key = key
        self.centre.text = centre
        # Compass: North at the top; a seat's tablet puts its own seat at the bottom, its
        # left-hand opponent on the left.
        bottom = "NESW".index(me or "S")
        for (name, face, label), offset in zip(self._places, self._order, strict=True):
            seat = "NESW"[(bottom + offset) % 4]
            name.text = tr.seat(seat)
            name.bold = seat == turn
            name.color = list(PALETTE["yellow"] if seat == turn else PALETTE["white"])
            card = cards.get(seat)
            face.opacity = 0 if card is None else 1
            face.bg = list(PALETTE["pending"] if seat in pending else PALETTE["card"])
            if card is not None:
                label.text = f"{rank_label(card[1:], tr.language)}{SUIT_SYMBOLS[card[0]]}"
                label.color = list(suit_colour(card[0], four_colour))


class HandRecord(GridLayout):
    """The four hands around a compass (hand record, shown once the board is finished)."""

    def show(self, hands: dict[str, list[str]], tr: Translator, four_colour: bool,
             vulnerable: Callable[[str], bool]) -> None:
        self.clear_widgets()
        self.cols, self.rows, self.spacing = 3, 3, dp(4)
        places = {(0, 1): "N", (1, 0): "W", (1, 2): "E", (2, 1): "S"}
        for r in range(3):
            for c in range(3):
                seat = places.get((r, c))
                if seat is None or seat not in hands:
                    self.add_widget(Widget())
                    continue
                lines = [f"[b]{tr.seat(seat)}[/b]"]
                for suit in "SHDC":
                    ranks = " ".join(rank_label(card[1:], tr.language)
                                     for card in hands[seat] if card[0] == suit) or "-"
                    lines.append(f"[color={_hex(suit_colour(suit, four_colour))}]"
                                 f"{SUIT_SYMBOLS[suit]}[/color] {ranks}")
                box = Panel(bg=PALETTE["vul"] if vulnerable(seat) else PALETTE["light"],
                            radius=dp(8), padding=dp(3))
                inner = Panel(bg=PALETTE["white"], radius=dp(6), padding=(dp(10), dp(4)))
                text = Text("\n".join(lines), size=20, halign="left")
                text.bind(size=_fit_lines)
                inner.add_widget(text)
                box.add_widget(inner)
                self.add_widget(box)


def _fit_lines(text: Text, size: Sequence[float]) -> None:
    """A hand's five lines (the seat, then a suit a line) shrink to the box's height: a
    message strip above must not push the seat's name out of sight."""
    lines = text.text.count("\n") + 1
    font = max(sp(9), min(sp(20), (size[1] - dp(4)) / (lines * 1.2)))
    if text.font_size != font:
        text.font_size = font


class NumberField(Tap):
    """A number being entered: tap it to make it the keypad's target."""

    def __init__(self, hint: str, **kw: Any):
        super().__init__("", size=24, bg=PALETTE["white"], fg=PALETTE["ink"], **kw)
        self.hint = hint
        self.value = ""
        self.edge = list(PALETTE["grey"])
        self.refresh()

    def refresh(self) -> None:
        self.text = self.value if self.value else f"[color=888888]{self.hint}[/color]"

    def set(self, value: str) -> None:
        self.value = value[:3]
        self.refresh()

    @property
    def number(self) -> int | None:
        return int(self.value) if self.value.isdigit() else None


class Keypad(GridLayout):
    """Digits 1-9, 0 and delete for the selected :class:`NumberField`."""

    def __init__(self, **kw: Any):
        super().__init__(cols=3, spacing=dp(6), **kw)
        self.target: NumberField | None = None
        self.keys: dict[str, Tap] = {}
        for key in ("1", "2", "3", "4", "5", "6", "7", "8", "9", "\u232b", "0", "C"):
            button = Tap(key, lambda k=key: self.press(k), size=28, bg=PALETTE["white"],
                         fg=PALETTE["ink"])
            button.edge = list(PALETTE["grey"])
            self.keys[key] = button
            self.add_widget(button)

    def select(self, field: NumberField | None) -> None:
        if self.target is not None:
            self.target.selected = False
        self.target = field
        if field is not None:
            field.selected = True

    def press(self, key: str) -> None:
        field = self.target
        if field is None:
            return
        if key == "\u232b":
            field.set(field.value[:-1])
        elif key == "C":
            field.set("")
        else:
            field.set(field.value + key)


class Screen(BoxLayout):
    """One screen of the tablet: built once, ``refresh()`` shows the presenter's view.
    ``host`` is the root (it has ``presenter``, ``act(command, *args)`` and
    ``landscape``)."""

    def __init__(self, host: Any, **kw: Any):
        kw.setdefault("orientation", "vertical")
        kw.setdefault("padding", dp(10))
        kw.setdefault("spacing", dp(8))
        super().__init__(**kw)
        self.host = host

    def refresh(self) -> None:  # pragma: no cover - every screen has its own
        raise NotImplementedError

    def arrange(self, landscape: bool) -> None:
        """Lay out for the screen's orientation (portrait: stacked; landscape: side by
        side)."""


def banner(text: str = "", bg: Colour | None = None, size: float = 26, height: float = 64,
           **kw: Any) -> tuple[Panel, Text]:
    """A coloured strip with a big line of text (whose turn it is, a STOP, a warning)."""
    panel = Panel(bg=list(bg or PALETTE["bar"]), radius=dp(10), size_hint_y=None,
                  height=dp(height), padding=(dp(8), 0), **kw)
    label = Text(text, size=size, bold=True, ink=PALETTE["white"])
    panel.add_widget(label)
    return panel, label


def show(widget: Widget, visible: bool, height: float | None = None) -> None:
    """Hide a widget without removing it (height 0, transparent, untouchable)."""
    widget.opacity = 1 if visible else 0
    widget.disabled = not visible
    if height is not None:
        widget.size_hint_y = None
        widget.height = height if visible else 0
