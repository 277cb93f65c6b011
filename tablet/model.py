"""What a tablet knows of its table: plain Python, no Kivy, shared by the screens' presenters.

:class:`TableModel` holds the hub's last public state of the table (``hub_state``), this
seat's own view (its hand), the events entered here that the hub has not answered yet (the
outbox's entries, oldest first) and the tablet's settings (table, seat, language, four
colours, strict mode). The hub's payloads are decoded at this edge into typed, frozen views
(:mod:`tablet.state`: a malformed one is logged and dropped, the last good one stays). From
them it works out :attr:`TableModel.state`, what the screens show: the hub's state with the
waiting events applied on top (:mod:`tablet.offline`; what of it is not confirmed yet is in
:attr:`TableModel.marks`), so that the table plays on while the network is down. Its
properties read the state's fields (None when the hub left one out). It also keeps what
every screen shares: the connection status, the message for the players, the hub's clock
offset and a ``revision`` that moves on each change (the window redraws then).

The screens' presenters (:mod:`tablet.presenters`) read the model and keep what is their
own (the check-in sent, the STOP wait, the claims answered, the result confirmed); the
tablet's presenter (:class:`tablet.presenter.TabletPresenter`) feeds it what the hub
publishes.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from msgspec import UNSET, UnsetType

from bridgecore.auction import Auction
from bridgecore.calls import Call
from bridgecore.cards import Seat
from bridgecore.errors import BridgeError
from bridgecore.vulnerability import Vulnerability
from tablet.i18n import LANGUAGES, Translator
from tablet.offline import Pending, already_applied, event_of, projection
from tablet.state import (
    CallEntry,
    ClaimState,
    TableState,
    seat_view,
    table_state,
    tablet_view,
)
from wire.views import (
    DummyView,
    Explanation,
    LastTrick,
    Pairs,
    Question,
    ResultScore,
    Schedule,
    SeatView,
    TabletView,
    TrickCount,
    TrickView,
)

__all__ = ["SEATS", "Notice", "TableModel", "known", "seat_of", "side_of"]

log = logging.getLogger(__name__)

SEATS = "NESW"


def seat_of(letter: Any) -> Seat | None:
    """The seat of a letter N, E, S, W; None for anything else."""
    if isinstance(letter, str) and len(letter) == 1 and letter in SEATS:
        return Seat(SEATS.index(letter))
    return None


T = TypeVar("T")


def known(value: T | UnsetType) -> T | None:
    """A view's field, None when the hub left it out."""
    return None if value is UNSET else value


def side_of(letter: str) -> str:
    """``"NS"`` or ``"EW"``: the side of a seat letter."""
    return "NS" if letter in "NS" else "EW"


@dataclass(frozen=True, slots=True)
class Notice:
    """A message for the players: ``level`` is info, warning or error."""

    text: str
    level: str = "info"


class TableModel:
    """``TableModel("A1", seat="N", language="fr")``: the table as this tablet knows it."""

    def __init__(self, table: str, seat: str | None = None, language: str = "en",
                 four_colour: bool = False, strict: bool = False, *,
                 clock: Callable[[], float] = time.monotonic,
                 wall: Callable[[], float] = time.time):
        if seat is not None and seat_of(seat) is None:
            raise ValueError(f"seat {seat!r} is not N, E, S or W")
        self.table = table
        self.seat = seat
        self.tr = Translator(language)
        self.four_colour = four_colour
        self._strict = strict
        self.clock = clock                     # monotonic: waits at the table (STOP)
        self.wall = wall                       # the tablet's time of day
        self.state: TableState | None = None      # what the screens show (tablet.offline)
        self.hand_view: SeatView | None = None
        self.marks = Pending()                    # what of them the hub has not confirmed
        self.hub_state: TableState | None = None  # the hub's last public state
        self.play_left: int | None = None   # the board whose play was left to the readers
        self.hub_view: SeatView | None = None     # the hub's last view of this seat
        self.tablet_view: TabletView | None = None   # a table tablet's own view (11.3)
        self._pending: list[Any] = []          # events not answered yet, oldest first
        self._in_hub: set[str] = set()         # ids of those the hub's state already has
        self.connection = "connecting"
        self.message: Notice | None = None
        self.revision = 0
        self.hub_offset = 0.0                  # the hub's clock minus the tablet's
        self.auction: Auction | None = None    # the shown auction, rebuilt with bridgecore
        self._watchers: list[Callable[[], None]] = []

    # Settings ------------------------------------------------------------------------------
    @property
    def language(self) -> str:
        return self.tr.language

    def set_language(self, language: str) -> None:
        self.tr = Translator(language)
        self.changed()

    def next_language(self) -> str:
        """The next offered language, in turn: en -> fr -> it -> en (the language button);
        from the pseudo-locale, the first."""
        codes = list(LANGUAGES)
        now = codes.index(self.language) if self.language in codes else -1
        self.set_language(codes[(now + 1) % len(codes)])
        return self.language

    def set_four_colour(self, on: bool) -> None:
        self.four_colour = on
        self.changed()

    @property
    def per_table(self) -> bool:
        return self.seat is None

    @property
    def strict(self) -> bool:
        """The table's mode: the state's when it carries one, else the configured one."""
        return self._strict if self.state is None else self.state.strict

    def changed(self) -> None:
        self.revision += 1

    def watch(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` each time the shown state is worked out again."""
        self._watchers.append(callback)

    # Input from the hub --------------------------------------------------------------------
    def take_state(self, payload: Any) -> bool:
        """The table's public state (retained ``t/{table}/state``, decoded by
        :func:`tablet.state.table_state`); False (and logged) when it is not a state of this
        table."""
        state = table_state(payload)
        if state is None or state.table != self.table:
            log.warning("state for another table or not a state ignored: %r",
                        None if state is None else state.table)
            return False
        head = self._pending[0] if self._pending else None
        ref = event_of(head)[0]
        if ref is not None and ref not in self._in_hub and \
                already_applied(self.hub_state, state, head, self.hub_view):
            # The event in flight is in this state; its reply follows: not applied twice.
            self._in_hub.add(ref)
        self.hub_state = state
        self._project()
        return True

    def take_tablet(self, payload: Any) -> bool:
        """The table tablet's own view (``t/{table}/tablet``: the explanations it shows each
        side); a seat tablet has none: ignored."""
        own = tablet_view(payload)
        if self.seat is not None or own is None or own.table != self.table:
            log.info("table tablet's view ignored (this tablet: %s)", self.seat or "table")
            return False
        self.tablet_view = own
        return True

    def take_seat(self, payload: Any) -> bool:
        """This seat's own view (its hand, the explanations it may see). A per-table tablet
        shows no hand: ignored."""
        view = seat_view(payload)
        if view is None or view.table != self.table:
            log.warning("seat view for another table ignored")
            return False
        if self.seat is None or view.seat != self.seat:
            log.info("seat view of %s not for this tablet (%s): ignored", view.seat,
                     self.seat or "per table")
            return False
        self.hub_view = view
        self._project()
        return True

    def take_hub_time(self, hub_time: Any) -> None:
        """The hub's clock in a reply: the round clock is read in hub time."""
        if isinstance(hub_time, int | float) and not isinstance(hub_time, bool) \
                and hub_time > 0:
            self.hub_offset = float(hub_time) - self.wall()

    def on_connection(self, status: str) -> None:
        """The link's status: online, offline or connecting (a str or the link's
        ``LinkState``)."""
        self.connection = str(getattr(status, "value", status))
        self.changed()

    def notify(self, text: str, level: str = "info") -> None:
        self.message = Notice(text, level)
        self.changed()

    def dismiss_message(self) -> None:
        self.message = None
        self.changed()

    # Entries not yet answered by the hub (tablet.offline) ----------------------------------
    def set_pending(self, events: Iterable[Any]) -> None:
        """The events entered here that the hub has not answered yet, oldest first
        (``link.outbox.pending()``: envelopes, or ``(type, body)`` pairs): shown on top of
        the hub's state until their replies come (:meth:`answered` takes each out)."""
        events = list(events)
        if [event_of(e) for e in events] == [event_of(e) for e in self._pending]:
            return
        self._pending = events
        self._in_hub &= {ref for ref, _, _ in map(event_of, events) if ref is not None}
        self._project()
        self.changed()

    def add_pending(self, event: Any) -> None:
        """One more event entered here (the envelope the link's ``send`` returned)."""
        ref = event_of(event)[0]
        if ref is not None and any(event_of(e)[0] == ref for e in self._pending):
            return
        self.set_pending([*self._pending, event])

    def answered(self, envelope: Any) -> None:
        """The hub answered ``envelope``: it is no longer pending."""
        ref = event_of(envelope)[0]
        if ref is None:
            return
        self._in_hub.discard(ref)
        left = [e for e in self._pending if event_of(e)[0] != ref]
        if len(left) != len(self._pending):
            shown = self.state
            self._pending = left
            self._project()
            if self.state != shown or self.connection != "online":
                self.changed()     # online, the count of waiting events is not shown

    def _blank(self) -> TableState:
        """The table before the hub has said anything of it."""
        return TableState(table=self.table, round=0, pairs=Pairs(None, None),
                          phase="waiting", strict=self._strict,
                          schedule=Schedule([], None, None))

    def _project(self) -> None:
        """What the screens show: the hub's state with the pending events on top."""
        events = [e for e in self._pending if event_of(e)[0] not in self._in_hub]
        if self.hub_state is None and not events:
            self.state, self.hand_view, self.marks = None, self.hub_view, Pending()
        else:
            shown = projection(self.hub_state or self._blank(), self.hub_view, events)
            self.state, self.hand_view, self.marks = shown.state, shown.seat_view, \
                shown.pending
        self.auction = self._rebuild()
        for watcher in self._watchers:
            watcher()

    # Explanations (Laws 16, 20F; hub.explain) ---------------------------------------------
    def _board_view(self) -> SeatView | TabletView | None:
        view = self.tablet_view if self.seat is None else self.hub_view
        if view is None or view.board != self.board_number:
            return None    # another board's (a view late after the next board)
        return view

    @property
    def explanations(self) -> dict[int, Explanation]:
        """The explanations this tablet may show, by call number (1: the first call): a
        seat's only what the hub sends him (never partner's, Law 16)."""
        view = self._board_view()
        found = [] if view is None else known(view.explanations) or []
        return {e.call: e for e in found}

    @property
    def questions(self) -> list[Question]:
        """The questions this tablet is to answer (a seat's, or any on the table tablet)."""
        view = self._board_view()
        return [] if view is None else list(known(view.questions) or [])

    @property
    def pending_count(self) -> int:
        """Events entered here that the hub has not answered yet."""
        return len(self._pending)

    @property
    def pending_events(self) -> list[Any]:
        return list(self._pending)

    @property
    def pending_waiting(self) -> int:
        """Pending events the projection could not show (they wait for the hub)."""
        return self.marks.events - self.marks.shown

    @property
    def pending_stopped(self) -> str | None:
        """Why they wait."""
        return self.marks.stopped

    @property
    def left_to_readers(self) -> bool:
        """The players went on from this board's play while cut off, the card readers
        recording it (:meth:`tablet.presenters.play.PlayPresenter.leave`)."""
        return self.play_left is not None and self.play_left == self.board_number

    def place(self, kind: str, seat: str | None = None) -> dict[str, int] | None:
        """Where an event of ``kind`` entered now belongs in the table's record: the
        envelope's ``at`` (docs/protocol.md section 6, *Ordering by the record*), worked out
        from what the screen shows (the hub's state with the events still waiting on top),
        before the event joins them. It gives what this tablet knows: the board; the calls
        of its auction while the auction is shown (until the opening lead is faced); while
        the link is online, the cards played, except for a card (a tap races the reader's
        read of the card before it: the hub places a card after the auction). Cut off, the
        cards the readers see do not reach the tablet: ``cards`` is left out, and the hub
        takes a ``board`` or a ``result_confirm`` once the play of the board has ended.
        None before the table has a board."""
        state = self.state
        board = None if state is None else known(state.board)
        if state is None or board is None:
            return None
        at = {"board": board}
        auction = known(state.auction)
        if auction is not None:
            at["calls"] = len(auction)
        if kind != "card" and self.connection == "online":
            at["cards"] = _cards_played(state)
        if kind == "card" and seat is not None:
            trick = self._trick_of(seat)
            if trick is not None:   # one card of each seat to each trick (44)
                at["trick"] = trick
                shown = known(state.trick)
                if self.connection == "online" and shown is not None \
                        and shown.number == trick and len(shown.cards) < 4:
                    at["position"] = len(shown.cards) + 1
        return at

    def _trick_of(self, seat: str) -> int | None:
        """The trick ``seat``'s next card goes to: the cards of his the hub has, and those
        entered here it has not answered yet, plus one (a seat tablet knows it cut off: its
        own cards, and dummy's on declarer's); None when this tablet does not know them."""
        if self.hub_state is None:
            return None
        if seat == self.seat and self.hub_view is not None:
            held = len(self.hub_view.hand)
        elif seat == self.dummy_seat and self.seat is not None \
                and self.seat == self.declarer:
            dummy = known(self.hub_state.dummy)
            held = 13 if not isinstance(dummy, DummyView) else len(dummy.cards)
        else:
            return None
        waiting = sum(1 for e in self._pending if event_of(e)[1] == "card"
                      and event_of(e)[0] not in self._in_hub
                      and (event_of(e)[2] or {}).get("seat") == seat)
        trick = 13 - held + waiting + 1
        return trick if 1 <= trick <= 13 else None

    @property
    def pending_cards(self) -> set[str]:
        """Cards shown played on this board that the hub has not confirmed."""
        return set(self.marks.cards)

    def _rebuild(self) -> Auction | None:
        dealer = seat_of(self.dealer)
        if dealer is None or not self.has_auction:
            return None
        auction = Auction(dealer)
        for entry in self.auction_entries:
            try:
                auction.push(Seat.parse(entry.seat), Call.parse(entry.call), alert=entry.alert)
            except (ValueError, BridgeError) as err:
                log.warning("auction entry %r not understood, skipped: %s", entry, err)
        return auction

    # The table as shown ----------------------------------------------------------------------
    @property
    def schedule(self) -> Schedule | None:
        """The round as the hub publishes it: boards, clock, expected pairs, what is next."""
        return None if self.state is None else self.state.schedule

    @property
    def phase(self) -> str | None:
        return None if self.state is None else self.state.phase

    @property
    def round(self) -> int | None:
        return None if self.state is None or self.hub_state is None else self.state.round

    @property
    def pairs(self) -> Pairs | None:
        return None if self.state is None else self.state.pairs

    @property
    def board_number(self) -> int | None:
        return None if self.state is None else known(self.state.board)

    @property
    def dealer(self) -> str | None:
        return None if self.state is None else known(self.state.dealer)

    @property
    def vulnerability(self) -> str | None:
        """The board's marking (Law 2): None, NS, EW or All; None when unknown."""
        vul = None if self.state is None else known(self.state.vulnerability)
        return vul if vul in ("None", "NS", "EW", "All") else None

    @property
    def turn(self) -> str | None:
        """Whose turn it is: the state's, but while the irregular call is still the last one,
        a call out of rotation accepted by the button (29A) hands it to the accepter, the
        offender's LHO, and the director's 27B ruling on an insufficient bid to the offender,
        who substitutes his call (the hub moves the auction on only at their call)."""
        if self.state is None:
            return None
        if self.phase == "auction":
            for irr in known(self.state.irregularities) or []:
                if irr.call != len(self.auction_entries):
                    continue
                if irr.kind == "call_out_of_rotation" and irr.accepted is not None \
                        and irr.director == "called":
                    return str(irr.accepted.seat)
                if irr.kind == "insufficient_bid" and irr.accepted is None \
                        and irr.ruling is not None \
                        and irr.ruling.law.startswith("27B") and irr.seat is not None:
                    return str(irr.seat)   # 27B: the offender substitutes his call
        return known(self.state.turn)

    @property
    def declarer(self) -> str | None:
        return None if self.state is None else known(self.state.declarer)

    @property
    def dummy_seat(self) -> str | None:
        d = self.declarer
        if d is None:
            return None
        return SEATS[(SEATS.index(d) + 2) % 4]

    def vulnerable(self, seat: str) -> bool:
        """Law 2: the board's marking for ``seat``'s side."""
        try:
            vul = Vulnerability.parse(str(self.vulnerability))
        except ValueError:
            return False
        s = seat_of(seat)
        return s is not None and vul.is_vulnerable(s)

    @property
    def columns(self) -> list[str]:
        """The seats of the auction grid's columns, from the dealer."""
        dealer = self.dealer
        start = SEATS.index(dealer) if dealer is not None else 0
        return [SEATS[(start + i) % 4] for i in range(4)]

    @property
    def has_auction(self) -> bool:
        """Whether the state carries the auction (not once the opening lead is faced, 41C)."""
        return self.state is not None and self.state.auction is not UNSET

    @property
    def auction_entries(self) -> list[CallEntry]:
        """The public auction record as shown (none once the opening lead is faced, 41C)."""
        entries = None if self.state is None else known(self.state.auction)
        return entries or []

    def call_pending(self, index: int) -> bool:
        """Whether the auction's call at ``index`` was entered here and is not confirmed."""
        return index in self.marks.calls

    @property
    def waiting_cards(self) -> list[str]:
        """The cards entered here that the hub has not answered yet, oldest first (shown
        or not: cut off, a card may wait for the others' before it)."""
        out = []
        for e in self._pending:
            ref, kind, body = event_of(e)
            if kind == "card" and ref not in self._in_hub and isinstance(body.get("card"), str):
                out.append(body["card"])
        return out

    def card_pending(self, card: str) -> bool:
        """Whether ``card`` was played here on this board and is not confirmed."""
        return card in self.marks.cards

    @property
    def contract(self) -> str | None:
        return None if self.state is None else known(self.state.contract)

    def contract_label(self, contract: str) -> str:
        """'3NTX' -> '3SA X' in French."""
        risk = "XX" if contract.endswith("XX") else "X" if contract.endswith("X") else ""
        bid = contract[:len(contract) - len(risk)] if risk else contract
        try:
            label = self.tr.call(str(Call.parse(bid)))
        except (BridgeError, ValueError):
            label = bid
        return f"{label} {risk}".strip()

    @property
    def contract_text(self) -> str | None:
        contract = self.contract
        if contract is None:
            return None
        if contract == "PASS":
            return self.tr("auction.passed_out")
        return self.tr("contract.by", contract=self.contract_label(contract),
                       seat=self.tr.seat(self.declarer or "N"))

    @property
    def trick(self) -> TrickView | None:
        return None if self.state is None else known(self.state.trick)

    @property
    def trick_cards(self) -> list[tuple[str, str]]:
        """The trick in progress as (seat, card) pairs, in the order played."""
        trick = self.trick
        return [] if trick is None else [(seat, card) for seat, card in trick.cards]

    @property
    def last_trick(self) -> LastTrick | None:
        return None if self.state is None else known(self.state.last_trick)

    @property
    def claim(self) -> ClaimState | None:
        return None if self.state is None else known(self.state.claim)

    @property
    def claim_stands(self) -> bool:
        claim = self.claim
        return claim is not None and claim.status in ("open", "accepted")

    @property
    def tricks_won(self) -> tuple[int, int]:
        tricks = None if self.state is None else known(self.state.tricks)
        return (0, 0) if not isinstance(tricks, TrickCount) else (tricks.NS, tricks.EW)

    @property
    def remaining_tricks(self) -> int:
        return 13 - sum(self.tricks_won)

    @property
    def dummy_known(self) -> bool:
        """Whether dummy's cards are known here: the hub shows them once the lead is faced;
        a lead made offline faces dummy before the tablet has seen them."""
        dummy = None if self.state is None else known(self.state.dummy)
        return isinstance(dummy, DummyView) and not self.marks.dummy_hidden

    @property
    def dummy_cards(self) -> list[str]:
        """Dummy's cards once the opening lead is faced (the state carries them only then)."""
        dummy = None if self.state is None else known(self.state.dummy)
        if self.phase != "play" or not isinstance(dummy, DummyView) or \
                self.marks.dummy_hidden:
            return []
        return list(dummy.cards)

    @property
    def own_cards(self) -> list[str]:
        """This seat's hand for the board on the table (never a stale board's)."""
        view = self.hand_view
        if self.seat is None or view is None or view.board != self.board_number \
                or self.phase not in ("auction", "play"):
            return []
        return list(view.hand)

    @property
    def result(self) -> ResultScore | None:
        return None if self.state is None else known(self.state.result)

    @property
    def confirmed(self) -> bool:
        """The board is over and its result confirmed (79A)."""
        return self.state is not None and self.state.confirmed is True and \
            self.phase == "over"

    @property
    def deal(self) -> str | None:
        """The hand record: the state carries it only once the board is over here."""
        return None if self.state is None else known(self.state.deal)


def _cards_played(state: TableState) -> int:
    """The cards played on the board as ``state`` shows them: the tricks before the one in
    progress, and its cards (13 tricks complete: no trick in progress)."""
    trick = known(state.trick)
    if trick is not None:
        return 4 * (trick.number - 1) + len(trick.cards)
    return 52 if known(state.tricks) is not None and state.trick is None else 0
