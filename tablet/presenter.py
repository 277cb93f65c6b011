"""What the tablet shows and what it sends: plain Python, no Kivy, unit-tested without a window.

:class:`TabletPresenter` is fed what the hub publishes (docs/protocol.md): the table's public
state (``on_state``), the seat's own view (``on_seat``: its hand), the replies to the events
it sent (``on_reply``) and the link's connection status (``on_connection``). From them it
works out the screen to show and everything on it; its commands (``checkin``, ``board``,
``call``, ``undo``, ``card``, ``claim``, ``claim_answer``, ``confirm_result``,
``director_call``) return the event to send as ``(type, body)``, with the body
``wire.protocol.EVENT_TYPES`` and ``hub.table`` expect, or raise :class:`PresenterError` (with
a message key of :mod:`tablet.i18n`) when the tablet does not offer that now.

Two modes: one tablet per seat (``seat="N"``...: the bidding-box replacement; it shows that
player's hand) and one tablet per table (``seat=None``: North keeps it, it acts for the
player in turn and never shows a hand other than dummy's). Two ways of taking calls and
cards, as the hub's table mode: strict (only what the Laws allow at that point can be made)
and bidding-box (everything can be made, as with a real bidding box and real cards; the hub
records it and alerts the director).

What the hub has not yet answered is shown as if it had been accepted (the optimistic
view, :mod:`tablet.offline`): the app hands the presenter the events still pending in the
outbox (:meth:`TabletPresenter.set_pending`), and :attr:`TabletPresenter.state` is the hub's
last state (:attr:`TabletPresenter.hub_state`) with them applied on top, so that the table
plays on while the network is down. What is not confirmed is marked (``AuctionCell.pending``,
:attr:`TabletPresenter.trick_pending`, ``ClaimView.pending``, ``ResultView.pending``,
:attr:`TabletPresenter.pending_count`). A reply takes its event out; a refusal shows the
hub's state again, with the events still pending on top.

What the Laws decide here, each with its test:

* the calls offered are those of :attr:`bridgecore.auction.Auction.legal_calls` for the
  player in turn, the auction rebuilt from the public record (Laws 18-21, 27-39 prevented in
  strict mode, 9A3);
* STOP (FFB Annex I): a jump bid carries the STOP flag, and the jumper's left-hand opponent
  cannot call for ``stop_seconds`` (about 10 s) after it appears;
* a self-alert is shown to the opponents and never to the caller's partner (Laws 16, 40);
* undo only before partner has called, and never once the opening lead is faced (25A, 41C);
* the auction record only until the opening lead is faced, then the contract and whether it
  is doubled; dummy's cards only once the lead is faced (41C, 41D), taken from the public
  state and never remembered from an earlier one;
* the cards offered follow suit (44C, 44D);
* claims: dummy does not claim (43A1c); the opponents of the claimer's side answer, both
  defenders for declarer's claim, declarer for a defender's (68-70);
* the result comes from the play, never typed, and the other side confirms it (79A); the
  hand record only once the board is finished at this table.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bridgecore.auction import Auction, CallStatus
from bridgecore.calls import ALL_BIDS, DOUBLE, PASS, REDOUBLE, Call
from bridgecore.cards import ALL_CARDS, Card, Seat
from bridgecore.deal import Deal
from bridgecore.errors import BridgeError
from bridgecore.vulnerability import Vulnerability
from tablet.i18n import LANGUAGES, Translator, reply_key, suit_colour
from tablet.offline import already_applied, event_of, projection

__all__ = [
    "SCREENS", "AuctionCell", "CallOption", "CardOption", "ClaimView", "Event", "Notice",
    "PresenterError", "ResultView", "TabletPresenter", "is_jump",
]

log = logging.getLogger(__name__)

Event = tuple[str, dict[str, Any]]
SCREENS = ("checkin", "board", "auction", "play", "result")
SEATS = "NESW"
_LIVE = {CallStatus.MADE.value, CallStatus.PENDING.value, CallStatus.ACCEPTED.value}
_PAD_CALLS: tuple[Call, ...] = (PASS, DOUBLE, REDOUBLE, *ALL_BIDS)


class PresenterError(ValueError):
    """A command the tablet does not offer now; ``key`` and ``fields`` make its message."""

    def __init__(self, key: str, **fields: Any):
        super().__init__(f"{key} {fields}" if fields else key)
        self.key = key
        self.fields = fields

    def text(self, tr: Translator) -> str:
        return tr(self.key, **self.fields)


@dataclass(frozen=True, slots=True)
class Notice:
    """A message for the players: ``level`` is info, warning or error."""

    text: str
    level: str = "info"


@dataclass(frozen=True, slots=True)
class CallOption:
    """One button of the bidding pad. ``proper``: legal for the player in turn now."""

    call: str          # as the hub writes it: "1NT", "Pass", "X", "XX"
    label: str         # as the player reads it: "1SA", "Passe"
    enabled: bool
    proper: bool
    jump: bool = False


@dataclass(frozen=True, slots=True)
class AuctionCell:
    """One call of the auction record, at ``row`` and ``column`` of the grid (columns start
    at the dealer). ``alert`` and ``explanation`` only when this tablet may show them."""

    seat: str
    call: str
    label: str
    row: int
    column: int
    status: str = "made"
    alert: bool = False
    explanation: str | None = None
    pending: bool = False      # entered here, not yet confirmed by the hub

    @property
    def live(self) -> bool:
        """False for a call cancelled or withdrawn (shown struck out)."""
        return self.status in _LIVE


@dataclass(frozen=True, slots=True)
class CardOption:
    """A card button: ``enabled`` when a tap plays it, ``legal`` when it follows suit."""

    card: str          # "SK"
    suit: str          # "S"
    label: str         # rank as the player reads it: "R"
    colour: tuple[float, float, float, float]
    enabled: bool
    legal: bool = True


@dataclass(frozen=True, slots=True)
class ClaimView:
    """The claim in force or last made (68, 69, 70), and who this tablet answers for."""

    claimer: str
    tricks: int
    remaining: int
    statement: str
    status: str               # open, accepted, disputed, void
    answer_for: tuple[str, ...]
    text: str
    pending: bool = False     # made or answered here, not yet confirmed by the hub


@dataclass(frozen=True, slots=True)
class ResultView:
    """The result as the hub computed it from the play (never typed on the tablet)."""

    contract: str             # "4S", "3NTX", "PASS"
    declarer: str | None
    tricks: int | None
    score_ns: int
    lines: tuple[str, ...]    # for the players, in their language
    pending: bool = False     # worked out here from entries the hub has not yet confirmed


def is_jump(call: Call, last_bid: Call | None) -> bool:
    """A bid above the cheapest sufficient level in its strain (FFB Annex I: an opening
    bid above the one level included)."""
    if not call.is_bid or call.strain is None:
        return False
    if last_bid is None or last_bid.strain is None:
        lowest = 1
    else:
        lowest = last_bid.level if call.strain > last_bid.strain else last_bid.level + 1
    return call.level > lowest


# Notices the hub attaches to an acknowledgement (wire.protocol.NOTICES, docs/protocol.md):
# a ``notice`` field, or an ack whose code is one of these.
NOTICES = ("wrong_board", "wrong_seating", "board_already_played")


def _reply_fields(reply: Any) -> tuple[str | None, str, str, Any, str | None]:
    """(status, code, reason, hub time, notice) of a reply dict or Reply object."""
    if isinstance(reply, dict):
        status, code = reply.get("type"), reply.get("code")
        reason, hub_time, notice = reply.get("reason"), reply.get("time"), reply.get("notice")
    else:
        status, code = getattr(reply, "status", None), getattr(reply, "code", None)
        reason, hub_time = getattr(reply, "reason", ""), getattr(reply, "time", None)
        notice = getattr(reply, "notice", None)
    if status not in ("ack", "reject"):
        return None, "", "", None, None
    code = str(code or "ok")
    if notice is None and status == "ack" and code in NOTICES:
        notice = code
    if notice not in NOTICES:
        notice = None
    return str(status), code, str(reason or ""), hub_time, notice


def _event_of(envelope: Any) -> tuple[Any, dict[str, Any] | None]:
    """(type, body) of an envelope object or dict, (None, None) for anything else."""
    if envelope is None:
        return None, None
    if isinstance(envelope, dict):
        kind, body = envelope.get("type"), envelope.get("body")
    else:
        kind, body = getattr(envelope, "type", None), getattr(envelope, "body", None)
    return kind, body if isinstance(body, dict) else None


def _seat(letter: Any) -> Seat | None:
    if isinstance(letter, str) and len(letter) == 1 and letter in SEATS:
        return Seat(SEATS.index(letter))
    return None


def _side(letter: str) -> str:
    return "NS" if letter in "NS" else "EW"


class TabletPresenter:
    """``TabletPresenter("A1", seat="N", language="fr")``; feed it, read it, send what its
    commands return (module docstring)."""

    def __init__(self, table: str, seat: str | None = None, language: str = "en",
                 four_colour: bool = False, strict: bool = False, *,
                 stop_seconds: float = 10.0, confirming_side: str = "EW",
                 clock: Callable[[], float] = time.monotonic,
                 wall: Callable[[], float] = time.time):
        if seat is not None and _seat(seat) is None:
            raise ValueError(f"seat {seat!r} is not N, E, S or W")
        if confirming_side not in ("NS", "EW"):
            raise ValueError(f"confirming_side {confirming_side!r} is not NS or EW")
        self.table = table
        self.seat = seat
        self.tr = Translator(language)
        self.four_colour = four_colour
        self._strict = strict
        self.stop_seconds = stop_seconds
        self.confirming_side = confirming_side
        self._clock = clock
        self._wall = wall
        self.state: dict[str, Any] = {}        # what the screens show (tablet.offline)
        self.hand_view: dict[str, Any] = {}
        self.hub_state: dict[str, Any] = {}    # the hub's last public state
        self._hub_view: dict[str, Any] = {}    # the hub's last view of this seat
        self._pending: list[Any] = []          # events not answered yet, oldest first
        self._in_hub: set[str] = set()         # ids of those the hub's state already has
        self._pending_cards: set[str] = set()
        self.pending_waiting = 0               # pending events the projection could not show
        self.pending_stopped: str | None = None
        self.connection = "connecting"
        self.message: Notice | None = None
        self.revision = 0
        self.alert_armed = False
        self.explanation = ""
        self.stop_armed = False
        self._hub_offset = 0.0
        self._auction: Auction | None = None
        self._last_jump: tuple[str, int] | None = None
        self._jumps: dict[tuple[Any, int], float] = {}   # (board, call index) -> first seen
        self._checked_in: dict[str, tuple[Any, int]] = {}  # side -> (round, pair)
        self._want_checkin = False
        self._dismissed: set[Any] = set()                # boards whose result was left
        self._answered: set[tuple[Any, ...]] = set()     # claims answered, by seat
        self._confirmed: dict[tuple[Any, str], bool] = {}  # (board, seat) -> agreed
        self._played: set[str] = set()                   # cards seen played this board
        self._played_board: Any = None

    # Settings ------------------------------------------------------------------------------
    @property
    def language(self) -> str:
        return self.tr.language

    def set_language(self, language: str) -> None:
        self.tr = Translator(language)
        self._changed()

    def next_language(self) -> str:
        """Cycle fr -> en -> it (the language button)."""
        codes = list(LANGUAGES)
        self.set_language(codes[(codes.index(self.language) + 1) % len(codes)])
        return self.language

    def set_four_colour(self, on: bool) -> None:
        self.four_colour = on
        self._changed()

    @property
    def per_table(self) -> bool:
        return self.seat is None

    @property
    def _schedule(self) -> dict[str, Any]:
        """The round as the hub publishes it: boards, clock, expected pairs, what is next."""
        schedule = self.state.get("schedule")
        return schedule if isinstance(schedule, dict) else {}

    @property
    def strict(self) -> bool:
        """The table's mode: the state's when it carries one, else the configured one."""
        value = self.state.get("strict")
        return value if isinstance(value, bool) else self._strict

    def _changed(self) -> None:
        self.revision += 1

    # Input from the hub --------------------------------------------------------------------
    def on_state(self, state: dict[str, Any]) -> None:
        """The table's public state (retained ``t/{table}/state``)."""
        if not isinstance(state, dict) or state.get("table") != self.table:
            log.warning("state for another table or not a state ignored: %r",
                        None if not isinstance(state, dict) else state.get("table"))
            return
        head = self._pending[0] if self._pending else None
        ref = event_of(head)[0]
        if ref is not None and ref not in self._in_hub and \
                already_applied(self.hub_state, state, head, self._hub_view or None):
            # The event in flight is in this state; its reply follows: not applied twice.
            self._in_hub.add(ref)
        self.hub_state = state
        for side, (round_, pair) in list(self._checked_in.items()):
            if round_ is None:  # checked in before the first state came: that round
                self._checked_in[side] = (state.get("round"), pair)
        board = state.get("board")
        if board != self._played_board:
            self._played_board = board
            self._played = set()
        trick = state.get("trick")
        if isinstance(trick, dict):
            for pair in trick.get("cards") or ():
                if isinstance(pair, list) and len(pair) == 2 and isinstance(pair[1], str):
                    self._played.add(pair[1])
        self._project()
        if self.phase in ("auction", "play"):
            self._dismissed.discard(self.board_number)
        self._changed()

    def on_seat(self, view: dict[str, Any]) -> None:
        """This seat's own view (its hand). A per-table tablet shows no hand: ignored."""
        if not isinstance(view, dict) or view.get("table") != self.table:
            log.warning("seat view for another table ignored")
            return
        if self.seat is None or view.get("seat") != self.seat:
            log.info("seat view of %s not for this tablet (%s): ignored", view.get("seat"),
                     self.seat or "per table")
            return
        self._hub_view = view
        self._project()
        self._changed()

    # Entries not yet answered by the hub (tablet.offline) ----------------------------------
    def set_pending(self, events: Iterable[Any]) -> None:
        """The events entered here that the hub has not answered yet, oldest first
        (``link.outbox.pending()``: envelopes, or ``(type, body)`` pairs): shown on top of
        the hub's state until their replies come (:meth:`on_reply` takes each out)."""
        events = list(events)
        if [event_of(e) for e in events] == [event_of(e) for e in self._pending]:
            return
        self._pending = events
        self._in_hub &= {ref for ref, _, _ in map(event_of, events) if ref is not None}
        self._project()
        self._changed()

    def add_pending(self, event: Any) -> None:
        """One more event entered here (the envelope the link's ``send`` returned)."""
        ref = event_of(event)[0]
        if ref is not None and any(event_of(e)[0] == ref for e in self._pending):
            return
        self.set_pending([*self._pending, event])

    def _answered_event(self, envelope: Any) -> None:
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
                self._changed()     # online, the count of waiting events is not shown

    def _project(self) -> None:
        """What the screens show: the hub's state with the pending events on top."""
        events = [e for e in self._pending if event_of(e)[0] not in self._in_hub]
        if not self.hub_state and not events:
            self.state, self.hand_view = {}, dict(self._hub_view)
            self.pending_waiting, self.pending_stopped = 0, None
        else:
            base = self.hub_state or {"table": self.table, "phase": "waiting",
                                      "strict": self._strict}
            shown = projection(base, self._hub_view or None, events)
            self.state, self.hand_view = shown.state, shown.seat_view or {}
            self.pending_waiting, self.pending_stopped = shown.waiting, shown.stopped
        summary = self.state.get("pending")
        cards = summary.get("cards") if isinstance(summary, dict) else None
        self._pending_cards = {c for c in cards or () if isinstance(c, str)}
        self._auction = self._rebuild(self.state.get("auction"))
        self._note_jump()

    @property
    def pending_count(self) -> int:
        """Events entered here that the hub has not answered yet."""
        return len(self._pending)

    @property
    def pending_events(self) -> list[Any]:
        return list(self._pending)

    @property
    def trick_pending(self) -> set[str]:
        """The seats whose card in the trick is not yet confirmed by the hub."""
        trick = self.state.get("trick")
        marked = trick.get("pending") if isinstance(trick, dict) else None
        if not isinstance(marked, list):
            return set()
        return {seat for seat, card in self._trick_cards() if card in marked}

    def on_reply(self, reply: Any, envelope: Any = None) -> str | None:
        """The hub's reply to an event (a reply dict as on the wire, or a
        :class:`wire.protocol.Reply`), with the envelope it answers when the link knows it:
        the message for the players, or None. A refused check-in, claim answer or result
        confirmation is forgotten, so the screen asks again."""
        status, code, reason, hub_time, notice = _reply_fields(reply)
        if status is None:
            return None
        if isinstance(hub_time, int | float) and hub_time > 0:
            self._hub_offset = float(hub_time) - self._wall()
        self._answered_event(envelope)
        text: str | None = None
        level = "error"
        if status == "ack":
            self._settle(envelope)
        if status == "reject":
            log.warning("the hub refused an event (%s): %s", code, reason)
            self._forget(envelope)
            key = reply_key(code)
            if key == "reply.not_your_turn":
                turn = self.state.get("turn")
                text = (self.tr(key, seat=self.tr.seat(turn)) if turn in tuple(SEATS)
                        else self.tr("reply.not_your_turn_plain"))
            elif key is not None:
                text = self.tr(key, code=code)
        elif notice is not None:
            text = self.tr(f"notice.{notice}")
            level = "warning"
        if text is None:
            return None
        self.message = Notice(text, level)
        self._changed()
        return text

    def _settle(self, envelope: Any) -> None:
        """An accepted check-in: the state published before the reply has its round."""
        kind, body = _event_of(envelope)
        if kind == "checkin" and body is not None:
            side = str(body.get("direction"))
            if side in self._checked_in:
                self._checked_in[side] = (self.state.get("round"), self._checked_in[side][1])

    def _forget(self, envelope: Any) -> None:
        """Undo what the tablet assumed when it sent an event the hub refused."""
        kind, body = _event_of(envelope)
        if body is None:
            return
        if kind == "checkin":
            self._checked_in.pop(str(body.get("direction")), None)
        elif kind == "claim_answer":
            self._answered = {a for a in self._answered if a[-1] != body.get("seat")}
        elif kind == "result_confirm":
            self._confirmed.pop((self.board_number, str(body.get("seat"))), None)

    def on_connection(self, status: str) -> None:
        """The link's status: online, offline or connecting (a str or the link's
        ``LinkState``)."""
        self.connection = str(getattr(status, "value", status))
        self._changed()

    def notify(self, text: str, level: str = "info") -> None:
        self.message = Notice(text, level)
        self._changed()

    def dismiss_message(self) -> None:
        self.message = None
        self._changed()

    # The auction, rebuilt from the public record --------------------------------------------
    def _rebuild(self, entries: Any) -> Auction | None:
        dealer = _seat(self.state.get("dealer"))
        if dealer is None or not isinstance(entries, list):
            return None
        auction = Auction(dealer)
        for entry in entries:
            try:
                seat = _seat(entry["seat"])
                if seat is None:
                    raise ValueError(f"seat {entry['seat']!r}")
                auction.push(seat, Call.parse(entry["call"]), alert=bool(entry.get("alert")))
            except (KeyError, TypeError, ValueError, BridgeError) as err:
                log.warning("auction entry %r not understood, skipped: %s", entry, err)
        return auction

    def _note_jump(self) -> None:
        """Remember when a jump bid was first seen (the STOP wait starts then)."""
        self._last_jump = jump = self._find_jump()
        if jump is not None:
            self._jumps.setdefault((self.state.get("board"), jump[1]), self._clock())

    @property
    def last_jump(self) -> tuple[str, int] | None:
        """(seat, call index) when the last call of the auction is a jump bid in force."""
        return self._last_jump

    def _find_jump(self) -> tuple[str, int] | None:
        auction = self._auction
        if auction is None or not len(auction):
            return None
        entries = auction.entries
        last = entries[-1]
        if last.status.value not in _LIVE or not last.call.is_bid:
            return None
        before = Auction(auction.dealer)
        for e in entries[:-1]:
            before.push(e.seat, e.call)
        if not is_jump(last.call, before.last_bid):
            return None
        return last.seat.letter, last.index

    @property
    def stop_wait(self) -> float:
        """Seconds this tablet's pad stays locked after a jump bid by the right-hand opponent
        of the player in turn (FFB Annex I: LHO waits about 10 s); 0 when free."""
        jump = self.last_jump
        turn = self.state.get("turn")
        if jump is None or self.phase != "auction" or turn is None:
            return 0.0
        jumper = _seat(jump[0])
        if jumper is None or jumper.lho.letter != turn:
            return 0.0
        if self.seat is not None and self.seat != turn:
            return 0.0
        seen = self._jumps.get((self.state.get("board"), jump[1]), self._clock())
        return max(0.0, self.stop_seconds - (self._clock() - seen))

    @property
    def stop_banner(self) -> str | None:
        """'STOP: jump bid by North' while the wait runs, for every tablet of the table."""
        jump = self.last_jump
        if jump is None or self.phase != "auction":
            return None
        seen = self._jumps.get((self.state.get("board"), jump[1]))
        if seen is None or self._clock() - seen >= self.stop_seconds:
            return None
        return self.tr("stop.shown", seat=self.tr.seat(jump[0]))

    # What the screens show ------------------------------------------------------------------
    @property
    def phase(self) -> str | None:
        phase = self.state.get("phase")
        return phase if isinstance(phase, str) else None

    @property
    def board_number(self) -> int | None:
        board = self.state.get("board")
        return board if isinstance(board, int) else None

    @property
    def turn(self) -> str | None:
        turn = self.state.get("turn")
        return turn if turn in tuple(SEATS) else None

    @property
    def declarer(self) -> str | None:
        d = self.state.get("declarer")
        return d if d in tuple(SEATS) else None

    @property
    def dummy_seat(self) -> str | None:
        d = self.declarer
        if d is None:
            return None
        return SEATS[(SEATS.index(d) + 2) % 4]

    def _sides_to_check_in(self) -> tuple[str, ...]:
        return ("NS", "EW") if self.seat is None else (_side(self.seat),)

    @property
    def screen(self) -> str:
        """checkin, board, auction, play or result."""
        if self._want_checkin:
            return "checkin"
        phase = self.phase
        if phase == "auction":
            return "auction"
        if phase == "play":
            return "play"
        if phase == "over":
            return "board" if self.board_number in self._dismissed else "result"
        if not all(self._side_checked_in(s) for s in self._sides_to_check_in()):
            return "checkin"
        return "board"

    def _side_checked_in(self, side: str) -> bool:
        """Checked in from this tablet for the table's round (or just sent)."""
        done = self._checked_in.get(side)
        return done is not None and done[0] in (None, self.state.get("round"))

    def vulnerable(self, seat: str) -> bool:
        """Law 2: the board's marking for ``seat``'s side."""
        try:
            vul = Vulnerability.parse(str(self.state.get("vulnerability")))
        except ValueError:
            return False
        s = _seat(seat)
        return s is not None and vul.is_vulnerable(s)

    @property
    def header(self) -> list[str]:
        """Table, board, dealer, vulnerability, as short lines for the top bar."""
        tr = self.tr
        out = [tr("header.table", table=self.table)]
        if self.seat is not None:
            out.append(tr("header.seat", seat=tr.seat(self.seat)))
        if self.board_number is not None:
            out.append(tr("header.board", board=self.board_number))
            dealer = self.state.get("dealer")
            if dealer in tuple(SEATS):
                out.append(tr("header.dealer", seat=tr.seat(dealer)))
            vul = self.state.get("vulnerability")
            if vul in ("None", "NS", "EW", "All"):
                out.append(tr(f"vul.{vul}"))
        return out

    @property
    def turn_text(self) -> str:
        """Whose turn it is, in big letters (what a per-table tablet shows the table)."""
        tr = self.tr
        turn = self.turn
        phase = self.phase
        if phase == "auction":
            if turn is None:
                return tr("auction.over")
            if self.seat == turn:
                return tr("auction.your_turn")
            return tr("auction.turn", seat=tr.seat(turn))
        if phase == "play":
            if turn is None:
                claim = self.claim_view
                return "" if claim is None else claim.text
            lead = not self._trick_cards()
            if turn == self.dummy_seat and self.declarer is not None:
                if self.seat is not None and self.seat == self.declarer:
                    return tr("play.dummy_turn")
                return tr("play.from_dummy", seat=tr.seat(self.declarer))
            if self.seat == turn:
                return tr("play.your_lead" if lead else "play.your_turn")
            return tr("play.lead" if lead else "play.turn", seat=tr.seat(turn))
        return ""

    @property
    def columns(self) -> list[str]:
        """The seats of the auction grid's columns, from the dealer."""
        dealer = self.state.get("dealer")
        start = SEATS.index(dealer) if dealer in tuple(SEATS) else 0
        return [SEATS[(start + i) % 4] for i in range(4)]

    @property
    def auction_cells(self) -> list[AuctionCell]:
        """The auction record while the Laws let it be seen: until the opening lead is faced
        (then the state carries no auction: 41C). Partner's self-alerts are not shown to a
        seat's tablet (16, 40); opponents see alerts and explanations."""
        entries = self.state.get("auction")
        if not isinstance(entries, list):
            return []
        columns = self.columns
        out: list[AuctionCell] = []
        row, last = 0, -1
        partner = None if self.seat is None else SEATS[(SEATS.index(self.seat) + 2) % 4]
        for entry in entries:
            if not isinstance(entry, dict) or entry.get("seat") not in columns:
                continue
            seat = entry["seat"]
            call = str(entry.get("call"))
            col = columns.index(seat)
            if col <= last:
                row += 1
            last = col
            try:
                label = self.tr.call(str(Call.parse(call)))
            except (BridgeError, ValueError):
                label = call
            visible = seat != partner
            explanation = entry.get("explanation")
            opponent = self.seat is None or _side(seat) != _side(self.seat)
            out.append(AuctionCell(
                seat, call, label, row, col, str(entry.get("status", "made")),
                alert=bool(entry.get("alert")) and visible,
                explanation=explanation if isinstance(explanation, str) and opponent
                else None, pending=entry.get("pending") is True))
        return out

    @property
    def pad_seat(self) -> str | None:
        """The seat the bidding pad calls for: this tablet's, or the player in turn's."""
        return self.seat if self.seat is not None else self.turn

    @property
    def call_options(self) -> list[CallOption]:
        """Pass, X, XX then the 35 bids. Strict: only the legal calls of the player in turn
        (18-21, 27-39 prevented); bidding-box mode: every call, as with a real box, the hub
        alerting the director of what is not proper. Nothing during a STOP wait."""
        auction = self._auction
        active = self.phase == "auction" and auction is not None and not auction.is_over
        seat = self.pad_seat
        turn = None if auction is None else auction.turn
        legal = set(auction.legal_calls) if active and auction is not None and seat is not None \
            and turn is not None and turn.letter == seat else set()
        locked = self.stop_wait > 0
        last = None if auction is None else auction.last_bid
        out = []
        for call in _PAD_CALLS:
            proper = call in legal
            enabled = active and seat is not None and not locked and (
                proper if self.strict else True)
            out.append(CallOption(str(call), self.tr.call(str(call)), enabled, proper,
                                  is_jump(call, last)))
        return out

    @property
    def undo_seat(self) -> str | None:
        """Whose last call the Undo button takes back: this seat's, or (per table) the last
        caller's; None when Law 25A no longer allows it (partner has called since) or the
        opening lead is faced (the state no longer carries the auction)."""
        entries = self.state.get("auction")
        if not isinstance(entries, list) or not entries or self.phase not in ("auction",
                                                                              "play"):
            return None
        if self.phase == "play" and self._trick_cards():
            return None
        seats = [str(e.get("seat")) for e in entries if isinstance(e, dict)]
        seat = self.seat if self.seat is not None else seats[-1]
        if seat not in seats or seat not in SEATS:
            return None
        mine = len(seats) - 1 - seats[::-1].index(seat)
        partner = SEATS[(SEATS.index(seat) + 2) % 4]
        if partner in seats[mine + 1:]:
            return None
        return seat

    @property
    def contract_text(self) -> str | None:
        contract = self.state.get("contract")
        if not isinstance(contract, str):
            return None
        if contract == "PASS":
            return self.tr("auction.passed_out")
        return self.tr("contract.by", contract=self._contract_label(contract),
                       seat=self.tr.seat(self.declarer or "N"))

    def _contract_label(self, contract: str) -> str:
        """'3NTX' -> '3SA X' in French."""
        risk = "XX" if contract.endswith("XX") else "X" if contract.endswith("X") else ""
        bid = contract[:len(contract) - len(risk)] if risk else contract
        try:
            label = self.tr.call(str(Call.parse(bid)))
        except (BridgeError, ValueError):
            label = bid
        return f"{label} {risk}".strip()

    # Play ------------------------------------------------------------------------------------
    def _trick_cards(self) -> list[tuple[str, str]]:
        trick = self.state.get("trick")
        if not isinstance(trick, dict):
            return []
        return [(p[0], p[1]) for p in trick.get("cards") or ()
                if isinstance(p, list) and len(p) == 2]

    @property
    def trick(self) -> dict[str, str]:
        """The trick in progress: seat -> card (``"SK"``)."""
        return dict(self._trick_cards())

    @property
    def last_trick(self) -> dict[str, Any] | None:
        """The trick just quitted: ``number``, ``cards`` (seat -> card), ``winner``,
        ``pending`` (seats whose card the hub has not confirmed); None before the first
        trick is complete."""
        last = self.state.get("last_trick")
        if self.phase != "play" or not isinstance(last, dict):
            return None
        cards = {p[0]: p[1] for p in last.get("cards") or ()
                 if isinstance(p, list) and len(p) == 2}
        marked = last.get("pending") if isinstance(last.get("pending"), list) else []
        return {"number": last.get("number"), "cards": cards, "winner": last.get("winner"),
                "pending": {seat for seat, card in cards.items() if card in marked}}

    @property
    def last_trick_allowed(self) -> bool:
        """Law 66A: the cards of the trick just quitted may be shown again to a player so
        long as his side has not led or played to the next trick (one tablet for the
        table: so long as one side has not)."""
        if self.last_trick is None:
            return False
        played = {seat.side for seat in map(_seat, self.trick) if seat is not None}
        own = _seat(self.seat)
        if own is None:
            return len(played) < 2
        return own.side not in played

    @property
    def trick_number(self) -> int | None:
        trick = self.state.get("trick")
        return trick.get("number") if isinstance(trick, dict) else None

    @property
    def tricks_won(self) -> tuple[int, int]:
        tricks = self.state.get("tricks") or {}
        return int(tricks.get("NS", 0)), int(tricks.get("EW", 0))

    @property
    def remaining_tricks(self) -> int:
        return 13 - sum(self.tricks_won)

    @property
    def dummy_known(self) -> bool:
        """Whether dummy's cards are known here: the hub shows them once the lead is faced;
        a lead made offline faces dummy before the tablet has seen them."""
        dummy = self.state.get("dummy")
        return isinstance(dummy, dict) and isinstance(dummy.get("cards"), list)

    @property
    def dummy_cards(self) -> list[str]:
        """Dummy's cards once the opening lead is faced (the state carries them only then)."""
        dummy = self.state.get("dummy")
        if self.phase != "play" or not isinstance(dummy, dict):
            return []
        return [c for c in dummy.get("cards") or () if isinstance(c, str)]

    @property
    def own_cards(self) -> list[str]:
        """This seat's hand for the board on the table (never a stale board's)."""
        view = self.hand_view
        if self.seat is None or not view or view.get("board") != self.board_number \
                or self.phase not in ("auction", "play"):
            return []
        return [c for c in view.get("hand") or () if isinstance(c, str)]

    def _claim_stands(self) -> bool:
        claim = self.state.get("claim")
        return isinstance(claim, dict) and claim.get("status") in ("open", "accepted")

    def _led_suit(self) -> str | None:
        cards = self._trick_cards()
        return cards[0][1][0] if cards and len(cards) < 4 else None

    def _legal(self, held: Sequence[str]) -> set[str]:
        """Law 44C-D: the suit led if the hand holds one, else any card."""
        led = self._led_suit()
        follow = [c for c in held if led is not None and c[0] == led]
        return set(follow or held)

    def _options(self, cards: Sequence[str], seat: str | None) -> list[CardOption]:
        """Buttons for ``cards`` held by ``seat`` (None: only showing them)."""
        playing = (seat is not None and self.phase == "play" and not self._claim_stands())
        legal = self._legal(cards)
        in_turn = seat is not None and seat == self.turn
        out = []
        for card in cards:
            ok = card in legal and in_turn
            enabled = playing and (ok if self.strict else True)
            out.append(CardOption(card, card[0], self.tr.rank(card[1:]),
                                  suit_colour(card[0], self.four_colour), enabled, ok))
        return out

    def _plays_for(self) -> set[str]:
        """The seats whose cards this tablet plays: its own, and dummy's for declarer."""
        if self.seat is None:
            return {self.turn} if self.turn else set()
        if self.seat == self.dummy_seat and self.phase == "play":
            return set()
        out = {self.seat}
        if self.seat == self.declarer and self.dummy_cards:
            out.add(self.dummy_seat or "")
        return out

    @property
    def hand(self) -> list[CardOption]:
        """This seat's cards as buttons (per-seat mode)."""
        plays = self._plays_for() if self.phase == "play" else set()
        return self._options(self.own_cards, self.seat if self.seat in plays else None)

    @property
    def plays_dummy(self) -> bool:
        """Whether this tablet plays dummy's cards (declarer's, or the table's)."""
        return self.phase == "play" and self.dummy_seat in self._plays_for()

    @property
    def plays_own_hand(self) -> bool:
        """Whether this seat's cards are played from this tablet now (not dummy's tablet)."""
        return self.phase == "play" and self.seat is not None and \
            self.seat in self._plays_for()

    @property
    def dummy(self) -> list[CardOption]:
        """Dummy's cards: tappable by declarer's tablet (or per table) in play."""
        seat = self.dummy_seat
        plays = self._plays_for()
        return self._options(self.dummy_cards, seat if seat in plays else None)

    @property
    def picker(self) -> list[CardOption]:
        """Per-table mode: the 52 cards for the player in turn (not dummy, unless dummy's
        cards are not known yet: a lead made offline), without those seen played this board
        (pending ones included) or in dummy. No hand is known, so follow suit is the hub's
        (strict mode refuses a revoke with a reason): ``legal`` is never claimed."""
        turn = self.turn
        if self.seat is not None or self.phase != "play":
            return []
        seen = self._played if self._played_board == self.board_number else set()
        gone = seen | self._pending_cards | set(self.dummy_cards)
        playing = turn is not None and not self._claim_stands() and (
            turn != self.dummy_seat or not self.dummy_known)
        out = []
        for c in ALL_CARDS:
            card = str(c)
            out.append(CardOption(card, card[0], self.tr.rank(card[1:]),
                                  suit_colour(card[0], self.four_colour),
                                  playing and card not in gone, legal=False))
        return out

    # Claims -----------------------------------------------------------------------------------
    @property
    def claim_seat(self) -> str | None:
        """Who may claim from this tablet now: declarer or a defender (dummy does not claim,
        43A1c); per table, declarer. None while a claim stands."""
        if self.phase != "play" or self._claim_stands() or self.declarer is None:
            return None
        seat = self.seat if self.seat is not None else self.declarer
        return None if seat == self.dummy_seat else seat

    @property
    def claim_view(self) -> ClaimView | None:
        claim = self.state.get("claim")
        if self.phase not in ("play", "over") or not isinstance(claim, dict):
            return None
        claimer = claim.get("claimer")
        declarer = self.declarer
        if claimer not in tuple(SEATS) or declarer is None:
            return None
        d = SEATS.index(declarer)
        if _side(claimer) == _side(declarer):
            answerers = [SEATS[(d + 1) % 4], SEATS[(d + 3) % 4]]   # both defenders (69A)
        else:
            answerers = [declarer]
        key = (self.board_number, claimer, claim.get("tricks"), claim.get("remaining"))
        mine = answerers if self.seat is None else [s for s in answerers if s == self.seat]
        status = str(claim.get("status"))
        answer_for = tuple(s for s in mine if (*key, s) not in self._answered) \
            if status == "open" else ()
        tricks = int(claim.get("tricks") or 0)
        remaining = int(claim.get("remaining") or 0)
        return ClaimView(claimer, tricks, remaining, str(claim.get("statement") or ""),
                         status, answer_for,
                         self.tr("claim.open", seat=self.tr.seat(claimer), tricks=tricks,
                                 remaining=remaining), pending=claim.get("pending") is True)

    # Result -----------------------------------------------------------------------------------
    @property
    def result(self) -> ResultView | None:
        """The result at the table once the board is over (the hub computes it from the
        play, an accepted claim included: never typed)."""
        data = self.state.get("result")
        if self.phase != "over" or not isinstance(data, dict):
            return None
        tr = self.tr
        contract = str(data.get("contract"))
        score = int(data.get("score_ns") or 0)
        declarer = data.get("declarer")
        tricks = data.get("tricks")
        pending = data.get("pending") is True
        if contract == "PASS" or declarer not in tuple(SEATS) or not isinstance(tricks, int):
            return ResultView("PASS", None, None, 0, (tr("result.passed_out"),
                                                      tr("result.score", ns=0, ew=0)), pending)
        level = int(contract[0]) if contract[:1].isdigit() else 0
        over = tricks - 6 - level
        outcome = (tr("result.made") if over == 0 else tr("result.over", n=over) if over > 0
                   else tr("result.down", n=-over))
        lines = (tr("result.line", contract=self._contract_label(contract),
                    seat=tr.seat(declarer), tricks=tricks), outcome,
                 tr("result.score", ns=f"{score:+d}" if score else "0",
                    ew=f"{-score:+d}" if score else "0"))
        return ResultView(contract, declarer, tricks, score, lines, pending)

    @property
    def confirmed(self) -> bool:
        return bool(self.state.get("confirmed")) and self.phase == "over"

    @property
    def confirm_seats(self) -> tuple[str, ...]:
        """Who confirms the result from this tablet (Law 79A: the other side; North keeps a
        per-table tablet, so East-West): empty once confirmed or answered here."""
        if self.phase != "over" or self.confirmed:
            return ()
        board = self.board_number
        side = self.confirming_side
        seats: tuple[str, ...]
        if self.seat is None:
            seats = (side[0],)
        else:
            seats = (self.seat,) if _side(self.seat) == side else ()
        return tuple(s for s in seats if (board, s) not in self._confirmed)

    @property
    def disagreed(self) -> bool:
        board = self.board_number
        return any(not ok for (b, _), ok in self._confirmed.items() if b == board)

    @property
    def hand_record(self) -> dict[str, list[str]]:
        """The four hands, only once the board is finished here and its result confirmed or
        answered from this tablet (the state carries the deal only once it is over)."""
        text = self.state.get("deal")
        board = self.board_number
        if self.phase != "over" or not isinstance(text, str):
            return {}
        answered = any(b == board for b, _ in self._confirmed)
        if not (self.confirmed or answered):
            return {}
        try:
            deal = Deal.parse(text)
        except (BridgeError, ValueError) as err:
            log.warning("hand record %r not understood: %s", text, err)
            return {}
        return {s.letter: [str(c) for c in deal[s]] for s in Seat}

    # Round clock, boards ----------------------------------------------------------------------
    @property
    def clock_text(self) -> str | None:
        """The round's time left once the director has started the round (the state's
        ``schedule.deadline``, hub time); the tablet's clock is corrected by the hub's time
        in its replies."""
        deadline = self._schedule.get("deadline")
        if not isinstance(deadline, int | float):
            return None
        left = deadline - (self._wall() + self._hub_offset)
        if left <= 0:
            return self.tr("clock.over")
        minutes, seconds = divmod(int(left), 60)
        return self.tr("clock.left", time=f"{minutes}:{seconds:02d}")

    @property
    def suggested_boards(self) -> list[int]:
        """The boards to offer on the board screen: the round's (the state's
        ``schedule.boards``) still to come after the one on the table, else the next one."""
        boards = self._schedule.get("boards")
        n = self.board_number
        if isinstance(boards, list) and all(isinstance(b, int) for b in boards) and boards:
            return [b for b in boards if n is None or b > n] if n in boards or n is None \
                else list(boards)
        return [] if n is None else [n + 1]

    @property
    def next_text(self) -> str | None:
        """At the end of the round (no board of it left here): where each pair and the boards
        go next, as the movement says (``schedule.next``); the director's word prevails."""
        if self.suggested_boards or self.phase not in ("over", "waiting"):
            return None
        following = self._schedule.get("next")
        if not isinstance(following, dict):
            return None
        moves = []
        for side in ("NS", "EW"):
            move = following.get(side)
            if isinstance(move, dict) and move.get("table"):
                moves.append(self.tr("board.next_pair", pair=move.get("pair"),
                                     table=move.get("table"),
                                     side=self.tr.side(str(move.get("direction")))))
        boards = following.get("boards")
        if isinstance(boards, list) and boards:
            moves.append(self.tr("board.next_boards", tables=", ".join(map(str, boards))))
        return self.tr("board.next", moves="; ".join(moves)) if moves else None

    @property
    def board_warning(self) -> str | None:
        """'This is not the board for this table and round' when the board on the table is
        not among the round's (``schedule.boards``): Law 15."""
        boards = self._schedule.get("boards")
        n = self.board_number
        if isinstance(boards, list) and boards and n is not None and n not in boards:
            return self.tr("board.wrong", board=n)
        return None

    @property
    def pairs_text(self) -> str | None:
        pairs = self.state.get("pairs")
        if not isinstance(pairs, dict):
            return None
        return self.tr("board.pairs", ns=pairs.get("NS") or "-", ew=pairs.get("EW") or "-")

    # Commands: each returns the event to send ------------------------------------------------
    def checkin(self, pair: int, direction: str | None = None,
                players: Iterable[tuple[int | None, str]] = ()) -> Event:
        """Check a pair in (Law 5): its number, direction and players (number, name)."""
        if self.seat is not None:
            direction = _side(self.seat)
        if direction not in ("NS", "EW"):
            raise PresenterError("err.not_now")
        if not isinstance(pair, int) or isinstance(pair, bool) or pair < 1:
            raise PresenterError("checkin.missing_pair")
        people = []
        for number, name in players:
            person: dict[str, Any] = {}
            if isinstance(number, int) and number > 0:
                person["number"] = number
            if name and name.strip():
                person["name"] = name.strip()
            if person:
                people.append(person)
        body: dict[str, Any] = {"direction": direction, "pair": pair}
        if people:
            body["players"] = people
        if self.seat is not None:
            body["seat"] = self.seat
        # The round is the one the hub seats the pair in (its check-in may move the table
        # on to the next round): taken from the state that follows, or from the reply.
        self._checked_in[direction] = (None, pair)
        if all(self._side_checked_in(s) for s in self._sides_to_check_in()):
            self._want_checkin = False
        warning = self.checkin_warning(direction, pair)
        if warning is not None:
            self.notify(warning, "warning")
        self._changed()
        return "checkin", body

    def expected_pair(self, direction: str) -> int | None:
        """The pair the movement seats here for ``direction`` (``schedule.expected``)."""
        expected = self._schedule.get("expected")
        want = expected.get(direction) if isinstance(expected, dict) else None
        return want if isinstance(want, int) else None

    def checkin_warning(self, direction: str, pair: int) -> str | None:
        """The warning for a pair that is not the one the movement seats here (Law 5B)."""
        want = self.expected_pair(direction)
        if want is None or want == pair:
            return None
        return self.tr("checkin.mismatch", pair=pair, side=self.tr.side(direction),
                       expected=want)

    def new_round(self) -> None:
        """The board screen's 'new round' button: back to check-in."""
        self._want_checkin = True
        self._changed()

    def board(self, number: int) -> Event:
        """Announce the board put on the table."""
        if not isinstance(number, int) or isinstance(number, bool) or number < 1:
            raise PresenterError("board.missing")
        if self.phase in ("auction", "play"):
            raise PresenterError("err.not_now")
        return "board", {"board": number, "source": "tablet"}

    def set_alert(self, on: bool, explanation: str = "") -> None:
        """Arm (or not) an alert, with a written explanation, for this seat's next call."""
        self.alert_armed = on
        self.explanation = explanation.strip() if on else ""
        self._changed()

    def set_stop(self, on: bool) -> None:
        """Show STOP before the next bid (a jump bid always carries it)."""
        self.stop_armed = on
        self._changed()

    def call(self, call: str) -> Event:
        """Make ``call`` ("1NT", "Pass", "X", "XX") for the pad's seat."""
        try:
            parsed = Call.parse(call)
        except (BridgeError, ValueError):
            raise PresenterError("err.illegal_call") from None
        text = str(parsed)
        option = next((o for o in self.call_options if o.call == text), None)
        if option is None or not option.enabled:
            if self.stop_wait > 0:
                raise PresenterError("err.stop_wait")
            turn = self.turn
            if self.phase == "auction" and turn is not None and self.pad_seat != turn:
                raise PresenterError("err.not_your_turn", seat=self.tr.seat(turn))
            raise PresenterError("err.illegal_call" if self.phase == "auction"
                                 else "err.not_now")
        seat = self.pad_seat
        assert seat is not None
        body: dict[str, Any] = {"seat": seat, "call": text, "alert": self.alert_armed}
        if self.alert_armed and self.explanation:
            body["explanation"] = self.explanation
        if parsed.is_bid and (option.jump or self.stop_armed):
            body["stop"] = True
        self.alert_armed, self.explanation, self.stop_armed = False, "", False
        self._changed()
        return "call", body

    def undo(self) -> Event:
        """Take back the last call (Law 25A: before partner has called)."""
        seat = self.undo_seat
        if seat is None:
            entries = self.state.get("auction")
            mine = isinstance(entries, list) and any(
                isinstance(e, dict) and e.get("seat") == self.seat for e in entries)
            raise PresenterError("err.undo_late" if mine and self.seat is not None
                                 else "err.undo_none")
        return "undo", {"seat": seat}

    def card(self, card: str, seat: str | None = None) -> Event:
        """Play ``card`` ("SK"): from this seat's hand, dummy's (declarer), or per table the
        player in turn's."""
        try:
            text = str(Card.parse(card))
        except (BridgeError, ValueError):
            raise PresenterError("err.no_card") from None
        if self.seat is None:
            who = seat or self.turn
            pool = self.dummy if who == self.dummy_seat and self.dummy_known else self.picker
        else:
            who = None
            pool = []
            for options, owner in ((self.hand, self.seat), (self.dummy, self.dummy_seat)):
                if any(o.card == text for o in options):
                    who, pool = owner, options
                    break
            if who is None:
                raise PresenterError("err.no_card")
        option = next((o for o in pool if o.card == text), None)
        if who is None or option is None or not option.enabled:
            turn = self.turn
            if option is None or turn is None or self.phase != "play":
                raise PresenterError("err.not_now")
            if who != turn:
                raise PresenterError("err.not_your_turn", seat=self.tr.seat(turn))
            if not option.legal and (self.seat is not None or who == self.dummy_seat):
                raise PresenterError("err.illegal_card")   # a hand known here: 44
            raise PresenterError("err.not_now")
        self._changed()
        return "card", {"seat": who, "card": text, "source": "tablet"}

    def claim(self, tricks: int, statement: str = "") -> Event:
        """Claim ``tricks`` of the remaining tricks for this side, conceding the rest (68)."""
        seat = self.claim_seat
        if seat is None:
            raise PresenterError("err.claim")
        remaining = self.remaining_tricks
        if not isinstance(tricks, int) or not 0 <= tricks <= remaining:
            raise PresenterError("err.claim_tricks", remaining=remaining)
        body: dict[str, Any] = {"seat": seat, "tricks": tricks}
        if statement.strip():
            body["statement"] = statement.strip()
        return "claim", body

    def claim_answer(self, accept: bool, seat: str | None = None) -> Event:
        """Accept or dispute the open claim (69A; a dispute calls the director, 68D)."""
        claim = self.claim_view
        if claim is None or not claim.answer_for:
            raise PresenterError("err.not_now")
        who = seat if seat is not None else claim.answer_for[0]
        if who not in claim.answer_for:
            raise PresenterError("err.not_now")
        self._answered.add((self.board_number, claim.claimer, claim.tricks, claim.remaining,
                            who))
        if not accept:
            self.notify(self.tr("claim.disputed"), "warning")
        self._changed()
        return "claim_answer", {"seat": who, "accept": bool(accept)}

    def confirm_result(self, accept: bool, seat: str | None = None) -> Event:
        """The other side agrees with the result, or not (79A; disagreeing calls the
        director)."""
        seats = self.confirm_seats
        who = seat if seat is not None else (seats[0] if seats else None)
        if who is None or who not in seats:
            raise PresenterError("err.not_now")
        self._confirmed[(self.board_number, who)] = bool(accept)
        if not accept:
            self.notify(self.tr("result.disagreed"), "warning")
        self._changed()
        return "result_confirm", {"seat": who, "accept": bool(accept)}

    def next_board(self) -> None:
        """Leave the result screen for the board screen."""
        if self.phase == "over":
            self._dismissed.add(self.board_number)
        self._changed()

    def director_call(self, note: str = "") -> Event:
        """The silent director call: nothing shows at the table but 'director called'."""
        body: dict[str, Any] = {}
        if self.seat is not None:
            body["seat"] = self.seat
        if note.strip():
            body["note"] = note.strip()
        self.notify(self.tr("director.called"), "info")
        return "director_call", body
