"""The play: contract and tricks, the trick on the cloth, dummy once the lead is faced, the
player's hand (a seat's tablet) or a card picker (the table's tablet), claims: declarer
states the tricks he claims, the opponents accept or dispute (68-70), and the hub's
questions about what the card readers saw (tablet/presenters/prompts.py)."""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.scrollview import ScrollView
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget

from tablet.ui_explain import CutOffBanner, IrregularityBar
from tablet.widgets import (
    FONT,
    PALETTE,
    AuctionGrid,
    HandView,
    Panel,
    Screen,
    Tap,
    Text,
    TrickView,
    banner,
    show,
)

__all__ = ["ClaimPanel", "PlayScreen", "PromptPanel"]


class ClaimPanel(Panel):
    """Declarer (or a defender) claims: the tricks in all for his side on the board (one
    tap each, from what it has won to all of them), "all the rest" and "concede" (68)."""

    def __init__(self, host: Any, **kw: Any):
        super().__init__(orientation="vertical", bg=list(PALETTE["white"]), radius=dp(12),
                         padding=dp(10), spacing=dp(8), **kw)
        self.host = host
        self.ask = Text("", size=24, bold=True, size_hint_y=None, height=dp(44))
        self.numbers = GridLayout(cols=7, spacing=dp(6))
        self.statement = TextInput(multiline=False, font_name=FONT, font_size=dp(20),
                                   size_hint_y=None, height=dp(56), padding=(dp(10), dp(12)))
        quick = BoxLayout(spacing=dp(8), size_hint_y=None, height=dp(64))
        self.all_rest = Tap("", lambda: self.send(self._remaining or 0), size=22,
                            bg=PALETTE["green"])
        self.concede = Tap("", lambda: self.send(0), size=22, bg=PALETTE["orange"])
        self.cancel = Tap("", self.close, size=22, bg=PALETTE["grey"])
        for w in (self.all_rest, self.concede, self.cancel):
            quick.add_widget(w)
        for w in (self.ask, self.numbers, self.statement, quick):
            self.add_widget(w)
        self.buttons: dict[int, Tap] = {}   # total tricks -> its button
        self._remaining: int | None = None
        self._won: int | None = None
        self.open = False

    def close(self) -> None:
        self.open = False
        self.statement.text = ""
        self.host.refresh(force=True)

    def refresh(self) -> None:
        p = self.host.presenter.play
        m = p.model
        tr = m.tr
        remaining = m.remaining_tricks
        won = p.claim_won
        self.ask.text = tr("claim.ask", won=won)
        self.statement.hint_text = tr("claim.statement")
        self.all_rest.text = tr("claim.all")
        self.concede.text = tr("claim.concede")
        self.cancel.text = tr("claim.cancel")
        if (remaining, won) != (self._remaining, self._won):
            self._remaining, self._won = remaining, won
            self.numbers.clear_widgets()
            self.buttons = {}
            for n in range(remaining + 1):
                button = Tap(str(won + n), lambda n=n: self.send(n), size=28,
                             bg=PALETTE["blue"])
                self.buttons[won + n] = button
                self.numbers.add_widget(button)

    def send(self, tricks: int) -> None:
        """Claim ``tricks`` of the remaining ones (the buttons show the totals)."""
        p = self.host.presenter.play
        if self.host.act(p.claim, tricks, self.statement.text):
            self.open = False
            self.statement.text = ""
        self.host.refresh(force=True)


class AnswerPanel(Panel):
    """The opponents of the claimer consider it with his cards faced (68C) and his
    statement, and answer: accept, or dispute (the director is called); dummy may dispute."""

    def __init__(self, host: Any, **kw: Any):
        super().__init__(orientation="vertical", bg=list(PALETTE["white"]), radius=dp(12),
                         padding=dp(10), spacing=dp(8), **kw)
        self.host = host
        self.text = Text("", size=24, bold=True, size_hint_y=None, height=dp(34))
        self.statement = Text("", size=18, size_hint_y=None, height=dp(26))
        self.cards_title = Text("", size=16, size_hint_y=None, height=dp(20))
        self.cards = HandView(size_hint_y=None, height=dp(124))
        self.rows = BoxLayout(orientation="vertical", spacing=dp(6), size_hint_y=None)
        for w in (self.text, self.statement, self.cards_title, self.cards, self.rows):
            self.add_widget(w)
        self._key: Any = None
        self.buttons: dict[tuple[str, bool], Tap] = {}   # (seat, accept) -> its button

    def refresh(self) -> None:
        p = self.host.presenter.play
        m = p.model
        tr = m.tr
        claim = p.claim_view
        if claim is None:
            return
        self.text.text = claim.text
        self.statement.text = f"\u201c{claim.statement}\u201d" if claim.statement else ""
        self.cards_title.text = tr("claim.cards", seat=tr.seat(claim.claimer)) \
            if claim.cards else ""
        self.cards.show(p.claim_cards, None, m.four_colour, card_size=16, max_width=52)
        show(self.cards, bool(claim.cards), dp(124))
        key = (claim.answer_for, claim.dispute_for, tr.language)
        if key == self._key:
            return
        self._key = key
        self.rows.clear_widgets()
        self.buttons = {}
        seats = (*claim.answer_for, *claim.dispute_for)
        self.rows.height = dp(62) * len(seats)
        for seat in seats:
            row = BoxLayout(spacing=dp(8), size_hint_y=None, height=dp(56))
            row.add_widget(Text(tr("claim.answer_for", seat=tr.seat(seat)), size=17,
                                size_hint_x=0.4))
            answers = ((True, "claim.accept", "green"), (False, "claim.dispute", "red"))
            for accept, key_, colour in answers:
                if accept and seat not in claim.answer_for:
                    continue   # dummy disputes, never accepts (68D, 69A)
                button = Tap(tr(key_), lambda s=seat, a=accept: self.host.act(
                    p.claim_answer, a, s), size=24, bg=PALETTE[colour])
                self.buttons[seat, accept] = button
                row.add_widget(button)
            self.rows.add_widget(row)


class PromptPanel(Panel):
    """The hub asks the table (its card reader missed a card, or a hand's card): the
    question, the cards to tap, and "had not played yet" when the hub offers it."""

    def __init__(self, host: Any, **kw: Any):
        super().__init__(orientation="vertical", bg=list(PALETTE["white"]), radius=dp(12),
                         padding=dp(10), spacing=dp(8), **kw)
        self.host = host
        self.text = Text("", size=24, bold=True, size_hint_y=None, height=dp(60))
        self.cards = HandView()
        self.not_yet = Tap("", self.answer_not_yet, size=22, bg=PALETTE["orange"],
                           size_hint_y=None, height=dp(64))
        for w in (self.text, self.cards, self.not_yet):
            self.add_widget(w)
        self.prompt: Any = None

    def answer_not_yet(self) -> None:
        prompt = self.prompt
        if prompt is not None:
            self.host.act(self.host.presenter.prompts.answer_card, prompt.id, None)

    def refresh(self) -> None:
        presenter = self.host.presenter.prompts
        prompts = presenter.prompts
        self.prompt = prompt = prompts[0] if prompts else None
        if prompt is None:
            return
        m = presenter.model
        self.text.text = prompt.text
        def tap(card: str) -> bool:
            if prompt.kind == "card":
                return bool(self.host.act(presenter.answer_card, prompt.id, card))
            return bool(self.host.act(presenter.answer_sweep, prompt.id, [card]))

        self.cards.show(list(prompt.choices), tap if prompt.choices else None, m.four_colour,
                        card_size=22, max_width=90)
        self.not_yet.text = prompt.not_yet
        show(self.not_yet, bool(prompt.not_yet), dp(64))


class PlayScreen(Screen):
    """Landscape: the cards on the left (dummy above, the hand below), the trick and the
    claim button on the right. Portrait: dummy, trick, hand, claim, top to bottom."""

    def __init__(self, host: Any, **kw: Any):
        super().__init__(host, **kw)
        self.turn, self.turn_text = banner(size=28, height=64)
        self.add_widget(self.turn)
        status = BoxLayout(size_hint_y=None, height=dp(44), spacing=dp(8))
        self.contract = Text("", size=24, bold=True, halign="left")
        self.tricks = Text("", size=22, halign="right")
        status.add_widget(self.contract)
        status.add_widget(self.tricks)
        self.add_widget(status)
        self.notice, self.notice_text = banner(bg=PALETTE["orange"], size=22, height=60)
        self.add_widget(self.notice)
        self.irregularity = IrregularityBar(host)   # the director called (7.15)
        self.add_widget(self.irregularity)
        self.cut_off = CutOffBanner(host)   # cut off from the hub: the entries wait
        self.add_widget(self.cut_off)
        self.body = BoxLayout(spacing=dp(10))
        self.add_widget(self.body)
        self.side = BoxLayout(orientation="vertical", spacing=dp(4))
        self.dummy_title = Text("", size=18, size_hint_y=None, height=dp(28))
        self.dummy = HandView()
        self.grid = AuctionGrid()
        self.grid_scroll = ScrollView(do_scroll_x=False)
        self.grid_scroll.add_widget(self.grid)
        self.side.add_widget(self.dummy_title)
        self.side.add_widget(self.dummy)
        self.side.add_widget(self.grid_scroll)
        self.trick = TrickView()
        self.bottom = BoxLayout(orientation="vertical", spacing=dp(6))
        self.hand_title = Text("", size=18, size_hint_y=None, height=dp(28))
        self.hand = HandView()
        self.hand_area = BoxLayout(orientation="vertical", spacing=dp(4))
        self.hand_area.add_widget(self.hand_title)
        self.hand_area.add_widget(self.hand)
        self.claim_button = Tap("", self.open_claim, size=22, bg=PALETTE["blue"])
        # Law 66A: the trick just quitted shown again, while the player's side has not
        # played to the next one (held down, or tapped on and off).
        self.peeking = False
        self.last_button = Tap("", self.toggle_last_trick, size=20, bg=PALETTE["grey"])
        self.actions = BoxLayout(size_hint_y=None, height=dp(64), spacing=dp(8))
        # Cut off, the card readers record the play: the players may go on (PlayPresenter).
        self.leave_button = Tap("", lambda: self.host.act(self._leave), size=20,
                                bg=PALETTE["orange"])
        self.actions.add_widget(self.last_button)
        self.actions.add_widget(self.claim_button)
        self.actions.add_widget(self.leave_button)
        self.claim_panel = ClaimPanel(host)
        self.answer_panel = AnswerPanel(host)
        self.prompt_panel = PromptPanel(host)
        self.bottom.add_widget(self.hand_area)
        self.cards_column = BoxLayout(orientation="vertical", spacing=dp(8))
        self.table_column = BoxLayout(orientation="vertical", spacing=dp(8))
        self._showing: Widget = self.hand_area
        self._landscape: bool | None = None

    def arrange(self, landscape: bool) -> None:
        if landscape == self._landscape:
            return
        self._landscape = landscape
        for box in (self.body, self.cards_column, self.table_column):
            box.clear_widgets()
        if landscape:
            self.body.orientation = "horizontal"
            self.cards_column.add_widget(self.side)
            self.cards_column.add_widget(self.bottom)
            self.table_column.add_widget(self.trick)
            self.table_column.add_widget(self.actions)
            self.cards_column.size_hint_x = 0.6
            self.table_column.size_hint_x = 0.4
            self.side.size_hint_y = 0.45
            self.bottom.size_hint_y = 0.55
            self.body.add_widget(self.cards_column)
            self.body.add_widget(self.table_column)
        else:
            self.body.orientation = "vertical"
            self.side.size_hint_y = 0.28
            self.trick.size_hint_y = 0.28
            self.bottom.size_hint_y = 0.44
            for w in (self.side, self.trick, self.bottom, self.actions):
                self.body.add_widget(w)

    def toggle_last_trick(self) -> None:
        self.peeking = not self.peeking
        self.host.refresh(force=True)

    def _leave(self) -> None:
        self.host.presenter.play.leave()   # no event: the board screen announces the next

    def open_claim(self) -> None:
        self.claim_panel.open = True
        self.host.refresh(force=True)

    def _bottom(self, widget: Widget) -> None:
        if self._showing is not widget:
            self.bottom.clear_widgets()
            self.bottom.add_widget(widget)
            self._showing = widget

    def refresh(self) -> None:
        self.irregularity.refresh()
        self.cut_off.refresh()
        p = self.host.presenter.play
        m = p.model
        tr = m.tr
        waiting = self.host.presenter.rectify.waiting   # 9B2: the director is awaited
        self.turn.bg = list(PALETTE["orange"] if waiting else
                            PALETTE["green"] if p.my_turn else PALETTE["bar"])
        self.turn_text.text = p.turn_text
        self.contract.text = m.contract_text or ""
        ns, ew = m.tricks_won
        self.tricks.text = tr("play.tricks", ns=ns, ew=ew)
        claim = p.claim_view
        notice = None
        if claim is not None and claim.status == "open" and not claim.answer_for \
                and not claim.dispute_for:
            notice = f"{claim.text}. {tr('claim.waiting')}"
        elif claim is not None and claim.status in ("disputed", "void"):
            notice = tr("claim.disputed")
        elif p.can_leave:   # cut off, the readers record the play (PlayPresenter.can_leave)
            notice = tr("play.readers_keep")
        else:
            notice = self.host.presenter.board.warning
        self.notice_text.text = notice or ""
        show(self.notice, notice is not None, dp(60))
        dummy = p.dummy
        seat = m.dummy_seat
        self.dummy_title.text = tr("play.dummy", seat=tr.seat(seat)) if dummy and seat else ""
        show(self.dummy, bool(dummy))
        self.dummy.show(dummy, (lambda c: self.host.act(p.card, c)) if p.plays_dummy else None,
                        m.four_colour, card_size=24, max_width=80)
        cells = p.auction_cells
        show(self.grid_scroll, bool(cells) and not dummy)
        self.grid_scroll.size_hint_y = 1 if cells and not dummy else None
        if not (cells and not dummy):
            self.grid_scroll.height = 0
        self.dummy.size_hint_y = 1 if dummy else None
        if not dummy:
            self.dummy.height = 0
        self.grid.show(m.columns, m.vulnerable, cells, tr, m.turn, m.four_colour)
        self._show_trick()
        self.claim_button.text = tr("claim.button")
        claim_shown = p.claim_seat is not None and not self.claim_panel.open
        self.peeking = self.peeking and p.last_trick_allowed
        last_shown = p.last_trick_allowed and bool(p.trick)
        self.last_button.text = tr("play.back_to_trick") if self.peeking else \
            tr("play.last_trick")
        self.last_button.selected = self.peeking
        self.leave_button.text = tr("play.leave")
        leave_shown = p.can_leave
        for button, shown in ((self.claim_button, claim_shown),
                              (self.last_button, last_shown),
                              (self.leave_button, leave_shown)):
            show(button, shown)
            button.size_hint_x = 1 if shown else None
            if not shown:
                button.width = 0
        show(self.actions, claim_shown or last_shown or leave_shown, dp(64))
        if self.host.presenter.prompts.prompts:   # the hub asks first: its reads
            self._bottom(self.prompt_panel)
            self.prompt_panel.refresh()
        elif claim is not None and (claim.answer_for or claim.dispute_for):
            self._bottom(self.answer_panel)
            self.answer_panel.refresh()
        elif self.claim_panel.open and p.claim_seat is not None:
            self._bottom(self.claim_panel)
            self.claim_panel.refresh()
        else:
            self.claim_panel.open = False
            self._bottom(self.hand_area)
            self._refresh_hand()

    def _show_trick(self) -> None:
        """The trick in progress; before the next lead, and while the player asks for it
        (66A), the trick just quitted with its winner marked."""
        p = self.host.presenter.play
        m = p.model
        tr = m.tr
        me = m.seat if m.seat is not None else None
        last = p.last_trick
        if last is not None and (self.peeking or not p.trick):
            self.trick.show(last.cards, last.winner, tr, m.four_colour,
                            centre=tr("play.trick_won", number=last.number,
                                      seat=tr.seat(last.winner)),
                            me=me, pending=last.pending)
            return
        self.trick.show(p.trick, m.turn, tr, m.four_colour,
                        centre=tr("play.trick", number=p.trick_number or ""),
                        me=me, pending=p.trick_pending)

    def _refresh_hand(self) -> None:
        p = self.host.presenter.play
        m = p.model
        tr = m.tr
        if m.per_table:
            options = p.picker
            turn = m.turn
            self.hand_title.text = (tr("play.picker", seat=tr.seat(turn))
                                    if turn and turn != m.dummy_seat else "")
            self.hand.show(options, lambda c: self.host.act(p.card, c), m.four_colour,
                           card_size=22, max_width=90)
        else:
            options = p.hand
            dummy_me = m.seat == m.dummy_seat
            self.hand_title.text = tr("play.you_are_dummy") if dummy_me else \
                tr("play.your_hand")
            self.hand.show(options, (lambda c: self.host.act(p.card, c))
                           if p.plays_own_hand else None, m.four_colour, card_size=26)
