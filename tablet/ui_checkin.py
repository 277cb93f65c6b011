"""Check-in (Law 5): the pair number, the players' numbers and names, for one side (a seat's
tablet) or both (the table's tablet), entered with a big number pad."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.textinput import TextInput

from tablet.widgets import FONT, PALETTE, Keypad, NumberField, Panel, Screen, Tap, Text

__all__ = ["CheckinScreen"]

_SEATS = {"NS": ("N", "S"), "EW": ("E", "W")}


class _Side(Panel):
    """One side's fields: pair number, then number and name of each of its two players."""

    def __init__(self, side: str, keypad: Keypad, **kw: Any):
        super().__init__(orientation="vertical", bg=list(PALETTE["white"]), radius=dp(12),
                         padding=dp(10), spacing=dp(6), **kw)
        self.side = side
        self.title = Text("", size=24, bold=True, size_hint_y=None, height=dp(40))
        self.add_widget(self.title)
        row = BoxLayout(spacing=dp(8), size_hint_y=None, height=dp(64))
        self.pair_label = Text("", size=22, size_hint_x=0.45)
        self.pair = NumberField("-", action=lambda: keypad.select(self.pair))
        row.add_widget(self.pair_label)
        row.add_widget(self.pair)
        self.add_widget(row)
        self.expected = Text("", size=17, size_hint_y=None, height=dp(28))
        self.add_widget(self.expected)
        self.players_label = Text("", size=18, size_hint_y=None, height=dp(30))
        self.add_widget(self.players_label)
        self.numbers: list[NumberField] = []
        self.names: list[TextInput] = []
        self.seat_labels: list[Text] = []
        for _ in _SEATS[side]:
            line = BoxLayout(spacing=dp(8), size_hint_y=None, height=dp(60))
            label = Text("", size=20, size_hint_x=0.25)
            number = NumberField("#")
            number.action = lambda f=number: keypad.select(f)
            number.size_hint_x = 0.25
            name = TextInput(multiline=False, font_name=FONT, font_size=dp(22),
                             size_hint_x=0.5, padding=(dp(10), dp(14)))
            line.add_widget(label)
            line.add_widget(number)
            line.add_widget(name)
            self.add_widget(line)
            self.seat_labels.append(label)
            self.numbers.append(number)
            self.names.append(name)
        self.add_widget(BoxLayout())  # the fields at the top, the space below

    def refresh(self, tr: Any, expected: int | None,
                players: Sequence[tuple[str, int, str | None]] = ()) -> None:
        """``players``: an individual's, seat by seat (the movement's): shown, and put in
        the fields still empty, with the side's partnership number."""
        self.title.text = tr.side(self.side)
        self.expected.text = "" if expected is None else tr(
            "checkin.expected", pair=expected, side=tr.side(self.side))
        if players:
            self.expected.text = "; ".join(tr("checkin.seat_player", seat=tr.seat(seat),
                                              player=number) for seat, number, _ in players)
            if expected is not None and not self.pair.value:
                self.pair.set(str(expected))
        self.pair_label.text = tr("checkin.pair")
        self.players_label.text = tr("checkin.players")
        given = {seat: (number, name) for seat, number, name in players}
        for label, seat, number, name in zip(self.seat_labels, _SEATS[self.side], self.numbers,
                                             self.names, strict=True):
            label.text = tr.seat(seat)
            name.hint_text = tr("checkin.name")
            if seat in given:
                if not number.value:
                    number.set(str(given[seat][0]))
                if given[seat][1] and not name.text:
                    name.text = given[seat][1]

    def players(self) -> list[tuple[int | None, str]]:
        return [(n.number, t.text) for n, t in zip(self.numbers, self.names, strict=True)]


class CheckinScreen(Screen):
    """Pairs check in; the hub compares them with the movement (its warning goes to the
    director: 5B)."""

    def __init__(self, host: Any, **kw: Any):
        super().__init__(host, **kw)
        sides = host.presenter.checkin.sides
        self.title = Text("", size=30, bold=True, size_hint_y=None, height=dp(50))
        self.add_widget(self.title)
        self.body = BoxLayout(spacing=dp(12))
        self.forms = BoxLayout(orientation="vertical", spacing=dp(10))
        self.keypad = Keypad()
        self.sides = [_Side(side, self.keypad) for side in sides]
        for side in self.sides:
            self.forms.add_widget(side)
        self.body.add_widget(self.forms)
        self.side_pane = BoxLayout(orientation="vertical", spacing=dp(10))
        self.side_pane.add_widget(self.keypad)
        self.send = Tap("", self.submit, size=28, bg=PALETTE["green"], size_hint_y=None,
                        height=dp(80))
        self.side_pane.add_widget(self.send)
        self.body.add_widget(self.side_pane)
        self.add_widget(self.body)
        self.keypad.select(self.sides[0].pair)

    def arrange(self, landscape: bool) -> None:
        self.body.orientation = "horizontal" if landscape else "vertical"
        self.side_pane.size_hint = (0.42, 1) if landscape else (1, 0.55)
        self.forms.size_hint = (0.58, 1) if landscape else (1, 0.45 * len(self.sides))

    def refresh(self) -> None:
        p = self.host.presenter.checkin
        tr = p.model.tr
        self.title.text = tr("checkin.title")
        self.send.text = tr("checkin.send")
        for side in self.sides:
            side.refresh(tr, p.expected_pair(side.side), p.expected_players(side.side))

    def submit(self) -> None:
        p = self.host.presenter.checkin
        for side in self.sides:
            pair = side.pair.number
            self.host.act(p.check_in, pair if pair is not None else 0, side.side,
                          side.players())
