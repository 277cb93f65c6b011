"""The table as the tablet shows it before the hub has answered: the optimistic view.

Everything a player enters goes to the outbox first (:mod:`wire.outbox`) and reaches the
hub later, in order (:mod:`wire.link`). While the events wait, for a moment online or
for as long as the network is down, the screen must still move on: the next player calls,
the card just played lies on the table. :func:`projection` takes the hub's last public state
(a :class:`tablet.state.TableState`), this seat's view (a :class:`wire.views.SeatView`: its
hand, or None) and the events still pending in the outbox, applies the events on top of the
state with ``bridgecore``, and returns a new state of the same type (the hub's is frozen and
left as it is: each step is a :func:`msgspec.structs.replace`), so that the presenters read
it as they read the hub's. When the hub's replies arrive the acknowledged events leave the
outbox and the hub's own state takes their place; a refused one is dropped and the
projection is worked out again without it.

How each event is applied (what the hub would do, ``hub.table``):

* ``call``: the auction is rebuilt as a :class:`bridgecore.auction.Auction` from the public
  record and the call pushed: statuses (pending, accepted, cancelled...), the turn, and the
  end of the auction (a contract: declarer, doubled, the opening leader in turn; passed out:
  the board is over) come out as the hub's would. Strict tables: a call the hub would refuse
  (not in turn, not legal) stops the projection.
* ``undo``: the seat's last call and those after it are taken back (Law 25A), not after
  partner has called.
* ``card``: only by the seat in turn (a card out of turn starts a Law 53-57 reading that only
  the hub makes). The first card faces the opening lead: the auction leaves the state (41C)
  and dummy's seat is faced, with dummy's cards when this tablet knows them (dummy's own
  tablet; else :attr:`Pending.dummy_hidden`). The trick is completed with
  :func:`bridgecore.play.trick_winner`: tricks won, the winner leads; after 13 tricks the
  board is over and the result is scored (:func:`bridgecore.scoring.score_ns`). Follow suit
  (44) is checked where the hand is known: dummy's cards, this seat's hand. A strict table's
  hub refuses a revoke, a bidding-box table's records it (and alerts the director): the
  projection does the same.
* ``claim``, ``claim_answer``: a :class:`bridgecore.claims.Claim` with its answers; an
  accepted claim ends the board with the claimed tricks (69A), a disputed one lets play go
  on while the director rules. Declarer's claim needs both defenders (69A): when one of
  them answered through the hub, whose state does not say who (unless it carries
  ``claim.accepted_by``), the other's accept waits for the hub.
* ``result_confirm``, ``board`` (a new board: dealer and vulnerability of Law 2, the auction
  empty), ``checkin`` (the pair's number), ``director_call`` (nothing to show).

What is not yet confirmed is marked beside the state, in :class:`Pending`: the auction's
calls entered here (their indexes), the cards entered here on this board (completed tricks
included: a card of the trick or of the trick just quitted is pending when it is one of
them), whether the claim and the result were worked out here, and whether dummy's faced
cards are not known yet. With nothing pending the state is the hub's, unchanged.

An event the projection cannot apply (the hub would refuse it, or only the hub knows what it
does) stops it there: that event and those after it wait for the hub (``stopped`` says
why). The Law 64 result, the revokes, the hand record and the traveller are the hub's: a
result worked out here gives the tricks as played (and the same for ``tricks_rectified``).

The hub publishes its state before its reply, so a state may already hold the event the
link has in flight while the outbox still has it: :func:`already_applied` tells (the hub's
state moved from the last one by exactly that event), and the presenter then leaves it out
of the projection until the reply takes it away.

One tablet per table: everything is entered on it, so the projection is the whole table and
the table plays on alone, dummy's cards chosen from the card picker until the hub shows
them. One tablet per seat: each tablet knows only its own pending events, so another seat's
call or card made offline reaches this tablet only through the hub: the player after an
offline seat waits for the network (and declarer plays dummy's cards only once the hub has
shown them).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, cast

from msgspec import UNSET
from msgspec.structs import replace

from bridgecore.auction import Auction
from bridgecore.calls import Call, Contract
from bridgecore.cards import Card, Seat, Side
from bridgecore.claims import Claim, ClaimStatus
from bridgecore.errors import BridgeError
from bridgecore.play import trick_winner
from bridgecore.scoring import score_ns
from bridgecore.vulnerability import Vulnerability
from tablet.state import CallEntry, ClaimState, TableState
from wire.views import (
    DummyView,
    LastTrick,
    ResultScore,
    SeatLetter,
    SeatView,
    TrickCount,
    TrickView,
)

__all__ = [
    "Pending", "Projection", "already_applied", "event_of", "footprint", "project",
    "projection",
]

log = logging.getLogger(__name__)

_SEATS = "NESW"
_STANDS = ("open", "accepted")
# What only the hub gives of a board that is over (the hand record, the traveller so far).
_HUB_ONLY = {"deal": UNSET, "traveller": UNSET, "percentage": UNSET, "imps": UNSET,
             "field": UNSET, "dd": UNSET}
# What the auction leaves behind once it moves on (the hub's state of the auction so far).
_AFTER_CALL = {"contract": UNSET, "declarer": UNSET, "doubled": UNSET, "trick": UNSET,
               "last_trick": UNSET, "tricks": UNSET, "claim": UNSET, "result": UNSET,
               "confirmed": UNSET, **_HUB_ONLY}
# What a new board leaves behind of the one before (the hub's state of a fresh board).
_NEW_BOARD = {**_AFTER_CALL, "auction": UNSET, "dummy": UNSET}


@dataclass(frozen=True, slots=True)
class Pending:
    """What the projected state shows that the hub has not confirmed: ``events`` pending,
    ``shown`` of them applied, why the rest wait (``stopped``); the indexes of the auction's
    calls entered here; the cards entered here on this board; whether the claim and the
    result were worked out here; whether dummy is faced without its cards known here."""

    events: int = 0
    shown: int = 0
    stopped: str | None = None
    calls: frozenset[int] = frozenset()
    cards: tuple[str, ...] = ()
    claim: bool = False
    result: bool = False
    dummy_hidden: bool = False


@dataclass(frozen=True, slots=True)
class Projection:
    """The projected public state and seat view, and what of them is pending."""

    state: TableState | None
    seat_view: SeatView | None
    pending: Pending = Pending()

    @property
    def shown(self) -> int:
        """Pending events applied."""
        return self.pending.shown

    @property
    def waiting(self) -> int:
        """Pending events not applied (from the one ``stopped`` names on)."""
        return self.pending.events - self.pending.shown

    @property
    def stopped(self) -> str | None:
        return self.pending.stopped


class _Stop(Exception):
    """An event the projection cannot apply: the reason."""


def event_of(event: Any) -> tuple[str | None, str | None, dict[str, Any]]:
    """(id, type, body) of an :class:`wire.protocol.Envelope`, an envelope dict or a
    presenter event ``(type, body)``."""
    if isinstance(event, tuple) and len(event) == 2:
        kind, body = event
        ref = None
    elif isinstance(event, Mapping):
        ref, kind, body = event.get("id"), event.get("type"), event.get("body")
    else:
        ref, kind = getattr(event, "id", None), getattr(event, "type", None)
        body = getattr(event, "body", None)
    return (ref if isinstance(ref, str) else None, kind if isinstance(kind, str) else None,
            dict(body) if isinstance(body, Mapping) else {})


def _seat(letter: Any) -> Seat | None:
    if isinstance(letter, str) and len(letter) == 1 and letter in _SEATS:
        return Seat(_SEATS.index(letter))
    return None


def _need_seat(letter: Any) -> Seat:
    seat = _seat(letter)
    if seat is None:
        raise _Stop(f"malformed: seat {letter!r}")
    return seat


def _letter(seat: Seat) -> SeatLetter:
    """The seat's letter, as the views type it."""
    return cast(SeatLetter, seat.letter)


def _shown(value: Any) -> Any:
    """A field's value for a message: None when the state leaves it out."""
    return None if value is UNSET else value


class _Table:
    """The state being projected, event by event (each step a new frozen state)."""

    def __init__(self, state: TableState, seat_view: SeatView | None):
        self.s = state
        self.view = seat_view
        self.strict = state.strict is True
        self._auction: Auction | None = None
        self._accepted: tuple[Seat, ...] = ()     # claim answers applied here
        self._disputed: tuple[Seat, ...] = ()
        self._answers_known = False               # all the claim's answers are known here
        self.cards: list[str] = []                # pending cards shown on this board
        self.calls: set[int] = set()              # auction entries entered here
        self.claim = False                        # the claim was made or answered here
        self.result = False                       # the result was worked out here
        self.dummy_hidden = False                 # dummy faced here, its cards not known

    def pending(self, events: int, shown: int, stopped: str | None) -> Pending:
        return Pending(events, shown, stopped, frozenset(self.calls), tuple(self.cards),
                       self.claim and self.s.claim is not UNSET,
                       self.result and isinstance(self.s.result, ResultScore),
                       self.dummy_hidden and self.s.dummy is not UNSET)

    # The auction ---------------------------------------------------------------------------
    def auction(self) -> Auction:
        """The public auction as a bridgecore Auction (the lead not yet faced)."""
        if self._auction is not None:
            return self._auction
        dealer = _seat(_shown(self.s.dealer))
        entries = self.s.auction
        if dealer is None or entries is UNSET or self.s.board is UNSET:
            raise _Stop("wrong_state: no auction in progress (none yet, or the opening lead "
                        "is faced)")
        auction = Auction(dealer)   # the edition changes the Laws cited, not the statuses
        for entry in entries:
            try:
                auction.push(Seat.parse(entry.seat), Call.parse(entry.call), alert=entry.alert)
            except (ValueError, BridgeError) as err:
                raise _Stop(f"the hub's auction entry {entry!r} is not understood: "
                            f"{err}") from None
        self._auction = auction
        return auction

    def _entries(self) -> list[CallEntry]:
        entries = self.s.auction
        return [] if entries is UNSET else list(entries)

    def _after_auction(self, entries: list[CallEntry]) -> None:
        """Statuses, turn, contract and phase as the rebuilt auction has them."""
        auction = self.auction()
        entries = [replace(entry, status=made.status.value)
                   for entry, made in zip(entries, auction.entries, strict=True)]
        self.result = self.claim = False
        s = replace(self.s, auction=entries, **_AFTER_CALL)
        if not auction.is_over:
            turn = auction.turn
            self.s = replace(s, phase="auction", turn=None if turn is None else turn.letter)
            return
        contract = auction.contract
        if contract is None or contract.declarer is None:
            self.result = True
            self.s = replace(s, phase="over", turn=None, contract="PASS", declarer=None,
                             doubled="", result=ResultScore("PASS", None, None, 0, None, 0),
                             confirmed=False)
            return
        leader = contract.declarer.lho
        self.s = replace(s, phase="play", turn=leader.letter, contract=str(contract),
                         declarer=contract.declarer.letter, doubled=contract.risk.suffix,
                         trick=TrickView(1, _letter(leader), []), tricks=TrickCount(0, 0))

    def call(self, body: dict[str, Any]) -> None:
        seat = _need_seat(body.get("seat"))
        try:
            call = Call.parse(str(body.get("call")))
        except (ValueError, BridgeError):
            raise _Stop(f"malformed: call {body.get('call')!r}") from None
        auction = self.auction()
        if self.strict:
            turn = auction.turn
            if turn is None:
                raise _Stop("illegal_call: the auction is over")
            if seat is not turn:
                raise _Stop(f"not_your_turn: it is {turn}'s turn to call")
            if not auction.is_legal(seat, call):
                raise _Stop(f"illegal_call: {call} by {seat} is not allowed now")
        alert = body.get("alert") is True
        auction.push(seat, call, alert=alert)
        entries = [*self._entries(), CallEntry(_letter(seat), str(call), alert, "made")]
        self.calls.add(len(entries) - 1)
        self._after_auction(entries)

    def undo(self, body: dict[str, Any]) -> None:
        """Law 25A: the seat's last call, and any made since, before partner calls."""
        seat = _need_seat(body.get("seat"))
        auction = self.auction()
        made = auction.entries
        mine = next((e for e in reversed(made) if e.seat is seat), None)
        if mine is None:
            raise _Stop(f"wrong_state: {seat} has no call to take back")
        after = made[mine.index:]
        if any(e.seat is seat.partner for e in after):
            raise _Stop(f"wrong_state: {seat.partner} has called since (25A2)")
        for _ in range(len(after) + 1):
            auction.pop()
        entries = self._entries()[:len(auction)]
        self.calls = {i for i in self.calls if i < len(entries)}
        self._after_auction(entries)

    # The play ------------------------------------------------------------------------------
    def _contract(self) -> Contract:
        declarer = _seat(_shown(self.s.declarer))
        try:
            return Contract.parse(str(_shown(self.s.contract)), declarer)
        except (ValueError, BridgeError):
            raise _Stop(f"wrong_state: no contract ({_shown(self.s.contract)!r})") from None

    def _trick(self) -> tuple[TrickView, Seat, list[tuple[Seat, Card]]]:
        """The trick in progress, checked to be in rotation from its leader."""
        trick = self.s.trick
        if not isinstance(trick, TrickView):
            raise _Stop("wrong_state: no trick in progress")
        leader = Seat.parse(trick.leader)
        try:
            cards = [(Seat.parse(seat), Card.parse(card)) for seat, card in trick.cards]
        except (ValueError, BridgeError):
            raise _Stop(f"the hub's trick {trick!r} is not understood") from None
        if [s for s, _ in cards] != [leader.offset(i) for i in range(len(cards))]:
            raise _Stop("the trick in progress is not in rotation: only the hub reads it")
        return trick, leader, cards

    def _tricks(self) -> TrickCount:
        tricks = self.s.tricks
        if not isinstance(tricks, TrickCount):
            raise _Stop("wrong_state: no tricks count")
        return tricks

    def _dummy_cards(self, seat: Seat) -> list[str] | None:
        dummy = self.s.dummy
        if isinstance(dummy, DummyView) and dummy.seat == seat.letter and \
                not self.dummy_hidden:
            return dummy.cards
        return None

    def _view_hand(self, seat: Seat) -> list[str] | None:
        view = self.view
        if view is not None and view.seat == seat.letter and view.board == self.s.board:
            return view.hand
        return None

    def _known_hand(self, seat: Seat) -> list[str] | None:
        """The cards ``seat`` still holds, when this tablet may know them: dummy's once
        faced, this seat's own."""
        cards = self._dummy_cards(seat)
        return cards if cards is not None else self._view_hand(seat)

    def _claim_stands(self) -> bool:
        claim = self.s.claim
        return isinstance(claim, ClaimState) and claim.status in _STANDS

    def card(self, body: dict[str, Any]) -> None:
        seat = _need_seat(body.get("seat"))
        try:
            card = Card.parse(str(body.get("card")))
        except (ValueError, BridgeError):
            raise _Stop(f"malformed: card {body.get('card')!r}") from None
        if self.s.phase != "play":
            raise _Stop("wrong_state: no play in progress")
        if self._claim_stands():
            raise _Stop("wrong_state: play has ceased after the claim (68D)")
        contract = self._contract()
        trick, leader, cards = self._trick()
        tricks = self._tricks()
        turn = leader.offset(len(cards))
        if self.s.turn != turn.letter or seat is not turn:
            raise _Stop(f"not_your_turn: it is {_shown(self.s.turn)}'s turn to play")
        text = str(card)
        if text in self.cards or any(c == card for _, c in cards):
            raise _Stop(f"illegal_play: {text} is already played")
        hand = self._known_hand(seat)
        if hand is not None:
            if text not in hand:
                raise _Stop(f"illegal_play: {seat} does not hold {text}")
            led = cards[0][1].suit if cards else None
            if self.strict and led is not None and card.suit is not led and \
                    any(c[:1] == led.letter for c in hand):
                raise _Stop(f"illegal_play: {seat} must follow suit (44C)")
        declarer = contract.declarer
        assert declarer is not None
        if self.s.dummy is UNSET:    # the opening lead is faced: 41C, 41D
            self._auction = None
            known = self._known_hand(declarer.partner)   # dummy's own tablet knows them
            self.dummy_hidden = known is None
            self.s = replace(self.s, auction=UNSET, dummy=DummyView(
                _letter(declarer.partner), [] if known is None else list(known)))
        held = self._dummy_cards(seat)
        if held is not None and text in held:
            self.s = replace(self.s, dummy=DummyView(_letter(seat),
                                                     [c for c in held if c != text]))
        held = self._view_hand(seat)
        if held is not None and text in held and self.view is not None:
            self.view = replace(self.view, hand=[c for c in held if c != text])
        played = [*trick.cards, (_letter(seat), text)]
        self.cards.append(text)
        cards.append((seat, card))
        if len(cards) < 4:
            self.s = replace(self.s, trick=replace(trick, cards=played), turn=seat.lho.letter)
            return
        winner = trick_winner(tuple(cards), None, contract.strain.suit)
        ns = winner.side is Side.NS
        won = TrickCount(tricks.NS + ns, tricks.EW + (not ns))
        last = LastTrick(trick.number, _letter(leader), played, _letter(winner))
        if won.NS + won.EW >= 13:
            self.result = True
            self.s = replace(self.s, phase="over", turn=None, trick=None, tricks=won,
                             last_trick=last, confirmed=False,
                             result=self._result(contract, won.NS if declarer.side is Side.NS
                                                 else won.EW))
            return
        self.s = replace(self.s, tricks=won, last_trick=last, turn=winner.letter,
                         trick=TrickView(trick.number + 1, _letter(winner), []))

    def _result(self, contract: Contract, tricks: int) -> ResultScore:
        """The result as played (the hub adds Law 64, which it alone can see)."""
        try:
            vul = Vulnerability.parse(str(_shown(self.s.vulnerability)))
        except (ValueError, BridgeError):
            vul = Vulnerability.NONE
        assert contract.declarer is not None
        score = score_ns(contract, tricks, vul.is_vulnerable(Side.NS), vul.is_vulnerable(Side.EW))
        return ResultScore(str(contract), _letter(contract.declarer), tricks, score, tricks,
                           score)

    # Claims --------------------------------------------------------------------------------
    def claim_made(self, body: dict[str, Any]) -> None:
        seat = _need_seat(body.get("seat"))
        tricks = body.get("tricks")
        if self.s.phase != "play" or self._claim_stands():
            raise _Stop("wrong_state: no play in progress, or a claim stands")
        contract = self._contract()
        self._trick()
        done = self._tricks()
        assert contract.declarer is not None
        if seat is contract.declarer.partner:
            raise _Stop("wrong_state: dummy does not claim (43A1c)")
        remaining = 13 - done.NS - done.EW
        if not isinstance(tricks, int) or isinstance(tricks, bool) or \
                not 0 <= tricks <= remaining:
            raise _Stop(f"malformed: {tricks!r} of the {remaining} remaining tricks")
        self._accepted, self._disputed, self._answers_known = (), (), True
        self.claim = True
        self.s = replace(self.s, turn=None, claim=ClaimState(
            _letter(seat), tricks, remaining, str(body.get("statement") or ""), "open"))

    def claim_answer(self, body: dict[str, Any]) -> None:
        seat = _need_seat(body.get("seat"))
        data = self.s.claim
        if self.s.phase not in ("play", "over") or not isinstance(data, ClaimState):
            raise _Stop("wrong_state: no claim to answer")
        contract = self._contract()
        assert contract.declarer is not None
        claimer = Seat.parse(data.claimer)
        accepted = self._accepted
        if not self._answers_known and data.accepted_by is not UNSET:
            accepted = tuple(Seat.parse(s) for s in data.accepted_by)
            self._answers_known = True
        try:
            claim = Claim(claimer, contract.declarer, data.tricks, data.remaining, 0, 0,
                          accepted_by=accepted, disputed_by=self._disputed)
        except (TypeError, ValueError):
            raise _Stop(f"the hub's claim {data!r} is not understood") from None
        if claim.status.value != data.status:
            raise _Stop("the claim's answers so far are the hub's to count")
        if body.get("accept") is True:
            if claim.status is not ClaimStatus.OPEN or seat.side is claim.side:
                raise _Stop(f"wrong_state: {seat} cannot accept now")
            if not (self._answers_known or claim.by_defender):
                # Both defenders must agree (69A): whether the other one has is the hub's.
                raise _Stop("the other defender's answer to the claim is known to the hub")
            claim = claim.accepted(seat)
        else:
            if not claim.stands or seat is claim.claimer:
                raise _Stop(f"wrong_state: {seat} cannot dispute now")
            claim = claim.disputed(seat)
        self._accepted, self._disputed = claim.accepted_by, claim.disputed_by
        self._answers_known = self._answers_known or claim.by_defender
        self.claim = True
        answered = replace(data, status=claim.status.value)
        if claim.status is ClaimStatus.ACCEPTED:
            tricks = self._tricks()
            won = (tricks.NS if contract.declarer.side is Side.NS else tricks.EW) + \
                claim.tricks_for(contract.declarer.side)
            self.result = True
            self.s = replace(self.s, claim=answered, phase="over", turn=None,
                             result=self._result(contract, won), confirmed=False)
        elif not claim.stands:
            _, leader, cards = self._trick()
            self.result = False
            self.s = replace(self.s, claim=answered, result=UNSET, confirmed=UNSET,
                             phase="play", turn=leader.offset(len(cards)).letter)
        else:
            self.s = replace(self.s, claim=answered)

    # The rest ------------------------------------------------------------------------------
    def result_confirm(self, body: dict[str, Any]) -> None:
        _need_seat(body.get("seat"))
        if self.s.phase != "over":
            raise _Stop("wrong_state: the board is not over")
        if body.get("accept") is True:
            self.s = replace(self.s, confirmed=True)

    def board(self, body: dict[str, Any]) -> None:
        number = body.get("board")
        if not isinstance(number, int) or isinstance(number, bool) or number < 1:
            raise _Stop(f"malformed: board {number!r}")
        if self.s.board == number:
            return      # already on the table
        dealer = Seat.dealer_of(number)
        self.s = replace(self.s, **{**_NEW_BOARD, "auction": []}, board=number,
                         dealer=dealer.letter, vulnerability=str(Vulnerability.of_board(number)),
                         phase="auction", turn=dealer.letter)
        self._auction = None
        self.cards, self.calls = [], set()
        self.claim = self.result = self.dummy_hidden = False

    def checkin(self, body: dict[str, Any]) -> None:
        direction, pair = body.get("direction"), body.get("pair")
        if direction not in ("NS", "EW") or not isinstance(pair, int) or pair < 1:
            raise _Stop("malformed: check-in")
        done = set(self.s.checked_in or ()) | {direction}   # as the hub lists them
        self.s = replace(self.s, pairs=replace(self.s.pairs, **{direction: pair}),
                         checked_in=[side for side in ("NS", "EW") if side in done])

    def director_call(self, body: dict[str, Any]) -> None:
        """Nothing shows at the table."""

    hand = director_call
    ask = director_call       # a question and an explanation show once the hub has them
    explain = director_call


_HANDLERS = {"call": _Table.call, "undo": _Table.undo, "card": _Table.card,
             "claim": _Table.claim_made, "claim_answer": _Table.claim_answer,
             "result_confirm": _Table.result_confirm, "board": _Table.board,
             "checkin": _Table.checkin, "director_call": _Table.director_call,
             "hand": _Table.hand, "ask": _Table.ask, "explain": _Table.explain}


def projection(state: TableState | None, seat_view: SeatView | None,
               pending_events: Iterable[Any]) -> Projection:
    """The hub's ``state`` with ``pending_events`` (oldest first) applied on top; see the
    module docstring. Never raises on a bad state or event: the projection stops there
    (with no state at all, at the first event)."""
    events = list(pending_events)
    if state is None:
        stopped = "no state from the hub yet" if events else None
        return Projection(None, seat_view, Pending(len(events), 0, stopped))
    table = _Table(state, seat_view)
    shown, stopped = 0, None
    for event in events:
        _, kind, body = event_of(event)
        handler = _HANDLERS.get(kind or "")
        if handler is None:
            stopped = f"{kind}: unknown event type"
            break
        try:
            handler(table, body)
        except _Stop as why:
            stopped = f"{kind}: {why}"
            break
        except (ValueError, TypeError, KeyError, AttributeError, BridgeError) as err:
            log.warning("pending %s %r not projected: %s", kind, body, err)
            stopped = f"{kind}: {err}"
            break
        shown += 1
    if stopped is not None:
        log.info("%d pending event(s) wait for the hub: %s", len(events) - shown, stopped)
    return Projection(table.s, table.view, table.pending(len(events), shown, stopped))


def project(state: TableState | None, seat_view: SeatView | None,
            pending_events: Iterable[Any]) -> TableState | None:
    """The projected public state: :func:`projection`'s state."""
    return projection(state, seat_view, pending_events).state


def footprint(state: TableState | None) -> tuple[Any, ...]:
    """What the players see of the play in ``state``, without what only the hub can know
    (dummy's cards, Law 64, the hand record): two states with the same footprint show the
    same table."""
    if state is None:
        return (None,) * 14
    s = state
    auction = s.auction
    trick = s.trick
    dummy = s.dummy
    claim = s.claim
    result = s.result
    tricks = s.tricks
    return (
        _shown(s.board), s.phase, _shown(s.turn),
        None if auction is UNSET else tuple((e.seat, e.call, e.status) for e in auction),
        _shown(s.contract), _shown(s.declarer), _shown(s.doubled),
        None if not isinstance(trick, TrickView) else (
            trick.number, trick.leader, tuple(tuple(c) for c in trick.cards)),
        None if not isinstance(tricks, TrickCount) else (tricks.NS, tricks.EW),
        None if not isinstance(dummy, DummyView) else dummy.seat,
        None if not isinstance(claim, ClaimState) else (
            claim.claimer, claim.tricks, claim.remaining, claim.status),
        None if not isinstance(result, ResultScore) else (
            result.contract, result.declarer, result.tricks, result.score_ns),
        _shown(s.confirmed),
        (s.pairs.NS, s.pairs.EW),
    )


def already_applied(before: TableState | None, after: TableState | None,
                    event: Any, seat_view: SeatView | None = None) -> bool:
    """Whether the hub's state moved from ``before`` to ``after`` by exactly ``event``: the
    event the link has in flight is then in the hub's state although its reply has not come
    yet (the hub publishes the state first), and must not be applied twice."""
    if before is None or after is None:
        return False
    moved = projection(before, seat_view, [event])
    return moved.shown == 1 and footprint(before) != footprint(after) and \
        footprint(moved.state) == footprint(after)
