"""The table as the tablet shows it before the hub has answered: the optimistic view.

Everything a player enters goes to the outbox first (:mod:`wire.outbox`) and reaches the
hub later, in order (:mod:`wire.link`). While the events wait, for a moment online or
for as long as the network is down, the screen must still move on: the next player calls,
the card just played lies on the table. :func:`project` takes the hub's last public state
(``TableState.public_state()``), this seat's view (``seat_view``: its hand, or None) and the
events still pending in the outbox, applies the events on top of the state with
``bridgecore``, and returns a dict of the same shape as the hub's state, so that the
presenter reads it as it reads the hub's. When the hub's replies arrive the acknowledged
events leave the outbox and the hub's own state takes their place; a refused one is dropped
and the projection is worked out again without it.

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
  and dummy's cards appear, when this tablet knows them (dummy's own tablet). The trick is
  completed with :func:`bridgecore.play.trick_winner`: tricks won, the winner leads; after
  13 tricks the board is over and the result is scored (:func:`bridgecore.scoring.score_ns`).
  Follow suit (44) is checked where the hand is known: dummy's cards, this seat's hand. A
  strict table's hub refuses a revoke, a bidding-box table's records it (and alerts the
  director): the projection does the same.
* ``claim``, ``claim_answer``: a :class:`bridgecore.claims.Claim` with its answers; an
  accepted claim ends the board with the claimed tricks (69A), a disputed one lets play go
  on while the director rules. Declarer's claim needs both defenders (69A): when one of
  them answered through the hub, whose state does not say who (unless it carries
  ``claim.accepted_by``), the other's accept waits for the hub.
* ``result_confirm``, ``board`` (a new board: dealer and vulnerability of Law 2, the auction
  empty), ``checkin`` (the pair's number), ``director_call`` (nothing to show).

What is not yet confirmed is marked: each pending call of the auction has
``"pending": true``; the trick has ``"pending": [cards]``; a claim or result worked out here
has ``"pending": true``; and the state carries ``"pending": {"events", "shown", "cards",
"stopped"}`` (``cards``: the pending cards shown on this board, completed tricks included).
With nothing pending the state is returned unchanged (a copy).

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

import copy
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from bridgecore.auction import Auction
from bridgecore.calls import Call, Contract
from bridgecore.cards import Card, Seat, Side
from bridgecore.claims import Claim, ClaimStatus
from bridgecore.errors import BridgeError
from bridgecore.play import trick_winner
from bridgecore.scoring import score_ns
from bridgecore.vulnerability import Vulnerability

__all__ = ["Projection", "already_applied", "event_of", "footprint", "project", "projection"]

log = logging.getLogger(__name__)

_SEATS = "NESW"
_STANDS = ("open", "accepted")
# What only the hub gives of a board that is over (the hand record, the traveller so far).
_HUB_ONLY = ("deal", "traveller", "percentage", "imps", "field", "dd")
# What a new board leaves behind of the one before (the hub's state of a fresh board).
_BOARD_KEYS = ("auction", "contract", "declarer", "doubled", "trick", "last_trick", "tricks",
               "dummy", "claim", "result", "confirmed", *_HUB_ONLY)


@dataclass(frozen=True, slots=True)
class Projection:
    """The projected public state and seat view; ``shown`` pending events applied,
    ``waiting`` not applied (from the one ``stopped`` names on)."""

    state: dict[str, Any]
    seat_view: dict[str, Any] | None
    shown: int = 0
    waiting: int = 0
    stopped: str | None = None


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


class _Table:
    """The state being projected (a deep copy), event by event."""

    def __init__(self, state: Mapping[str, Any], seat_view: Mapping[str, Any] | None):
        self.s: dict[str, Any] = copy.deepcopy(dict(state))
        self.view = copy.deepcopy(dict(seat_view)) if isinstance(seat_view, Mapping) else None
        self.strict = self.s.get("strict") is True
        self._auction: Auction | None = None
        self._accepted: tuple[Seat, ...] = ()     # claim answers applied here
        self._disputed: tuple[Seat, ...] = ()
        self._answers_known = False               # all the claim's answers are known here
        self.cards: list[str] = []                # pending cards shown on this board

    # The auction ---------------------------------------------------------------------------
    def auction(self) -> Auction:
        """The public auction as a bridgecore Auction (the lead not yet faced)."""
        if self._auction is not None:
            return self._auction
        dealer = _seat(self.s.get("dealer"))
        entries = self.s.get("auction")
        if dealer is None or not isinstance(entries, list) or self.s.get("board") is None:
            raise _Stop("wrong_state: no auction in progress (none yet, or the opening lead "
                        "is faced)")
        auction = Auction(dealer)   # the edition changes the Laws cited, not the statuses
        for entry in entries:
            try:
                seat = _seat(entry.get("seat"))
                if seat is None:
                    raise ValueError(f"seat {entry.get('seat')!r}")
                auction.push(seat, Call.parse(str(entry.get("call"))),
                             alert=bool(entry.get("alert")))
            except (AttributeError, ValueError, BridgeError) as err:
                raise _Stop(f"the hub's auction entry {entry!r} is not understood: "
                            f"{err}") from None
        self._auction = auction
        return auction

    def _after_auction(self) -> None:
        """Statuses, turn, contract and phase as the rebuilt auction has them."""
        auction = self.auction()
        entries = self.s["auction"]
        for entry, made in zip(entries, auction.entries, strict=True):
            entry["status"] = made.status.value
        for key in _BOARD_KEYS[1:]:
            if key != "dummy":
                self.s.pop(key, None)
        if not auction.is_over:
            turn = auction.turn
            self.s.update(phase="auction", turn=None if turn is None else turn.letter)
            return
        contract = auction.contract
        if contract is None or contract.declarer is None:
            self.s.update(phase="over", turn=None, contract="PASS", declarer=None, doubled="",
                          result={"contract": "PASS", "declarer": None, "tricks": None,
                                  "score_ns": 0, "tricks_rectified": None,
                                  "score_ns_rectified": 0, "pending": True},
                          confirmed=False)
            return
        leader = contract.declarer.lho
        self.s.update(phase="play", turn=leader.letter, contract=str(contract),
                      declarer=contract.declarer.letter, doubled=contract.risk.suffix,
                      trick={"number": 1, "leader": leader.letter, "cards": []},
                      tricks={"NS": 0, "EW": 0})

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
        self.s["auction"].append({"seat": seat.letter, "call": str(call), "alert": alert,
                                  "status": "made", "pending": True})
        self._after_auction()

    def undo(self, body: dict[str, Any]) -> None:
        """Law 25A: the seat's last call, and any made since, before partner calls."""
        seat = _need_seat(body.get("seat"))
        auction = self.auction()
        entries = auction.entries
        mine = next((e for e in reversed(entries) if e.seat is seat), None)
        if mine is None:
            raise _Stop(f"wrong_state: {seat} has no call to take back")
        after = entries[mine.index:]
        if any(e.seat is seat.partner for e in after):
            raise _Stop(f"wrong_state: {seat.partner} has called since (25A2)")
        for _ in range(len(after) + 1):
            auction.pop()
            self.s["auction"].pop()
        self._after_auction()

    # The play ------------------------------------------------------------------------------
    def _contract(self) -> Contract:
        declarer = _seat(self.s.get("declarer"))
        try:
            return Contract.parse(str(self.s.get("contract")), declarer)
        except (ValueError, BridgeError):
            raise _Stop(f"wrong_state: no contract ({self.s.get('contract')!r})") from None

    def _trick(self) -> tuple[int, Seat, list[tuple[Seat, Card]]]:
        """The trick in progress, checked to be in rotation from its leader."""
        trick = self.s.get("trick")
        if not isinstance(trick, dict):
            raise _Stop("wrong_state: no trick in progress")
        leader = _seat(trick.get("leader"))
        number = trick.get("number")
        cards: list[tuple[Seat, Card]] = []
        try:
            for seat, card in trick.get("cards") or ():
                cards.append((_need_seat(seat), Card.parse(card)))
        except (TypeError, ValueError, BridgeError, _Stop):
            raise _Stop(f"the hub's trick {trick!r} is not understood") from None
        if leader is None or not isinstance(number, int) or \
                [s for s, _ in cards] != [leader.offset(i) for i in range(len(cards))]:
            raise _Stop("the trick in progress is not in rotation: only the hub reads it")
        return number, leader, cards

    def _tricks(self) -> dict[str, int]:
        tricks = self.s.get("tricks")
        if not isinstance(tricks, dict) or not all(
                isinstance(tricks.get(k), int) for k in ("NS", "EW")):
            raise _Stop("wrong_state: no tricks count")
        return tricks

    def _dummy(self) -> dict[str, Any] | None:
        dummy = self.s.get("dummy")
        return dummy if isinstance(dummy, dict) else None

    def _dummy_cards(self, seat: Seat) -> list[str] | None:
        dummy = self._dummy()
        if dummy is not None and dummy.get("seat") == seat.letter and \
                isinstance(dummy.get("cards"), list):
            cards: list[str] = dummy["cards"]
            return cards
        return None

    def _view_hand(self, seat: Seat) -> list[str] | None:
        view = self.view
        if view is not None and view.get("seat") == seat.letter and \
                view.get("board") == self.s.get("board") and isinstance(view.get("hand"), list):
            hand: list[str] = view["hand"]
            return hand
        return None

    def _known_hand(self, seat: Seat) -> list[str] | None:
        """The cards ``seat`` still holds, when this tablet may know them: dummy's once
        faced, this seat's own."""
        cards = self._dummy_cards(seat)
        return cards if cards is not None else self._view_hand(seat)

    def _claim_stands(self) -> bool:
        claim = self.s.get("claim")
        return isinstance(claim, dict) and claim.get("status") in _STANDS

    def card(self, body: dict[str, Any]) -> None:
        seat = _need_seat(body.get("seat"))
        try:
            card = Card.parse(str(body.get("card")))
        except (ValueError, BridgeError):
            raise _Stop(f"malformed: card {body.get('card')!r}") from None
        if self.s.get("phase") != "play":
            raise _Stop("wrong_state: no play in progress")
        if self._claim_stands():
            raise _Stop("wrong_state: play has ceased after the claim (68D)")
        contract = self._contract()
        number, leader, cards = self._trick()
        tricks = self._tricks()
        turn = leader.offset(len(cards))
        if self.s.get("turn") != turn.letter or seat is not turn:
            raise _Stop(f"not_your_turn: it is {self.s.get('turn')}'s turn to play")
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
        if self._dummy() is None:    # the opening lead is faced: 41C, 41D
            self.s.pop("auction", None)
            self._auction = None
            known = self._known_hand(declarer.partner)   # dummy's own tablet knows them
            self.s["dummy"] = {"seat": declarer.partner.letter,
                               "cards": None if known is None else list(known)}
        for held in (self._dummy_cards(seat), self._view_hand(seat)):
            if held is not None and text in held:
                held.remove(text)
        trick = self.s["trick"]
        trick["cards"].append([seat.letter, text])
        trick.setdefault("pending", []).append(text)
        self.cards.append(text)
        cards.append((seat, card))
        if len(cards) < 4:
            self.s["turn"] = seat.lho.letter
            return
        winner = trick_winner(tuple(cards), None, contract.strain.suit)
        tricks[winner.side.value] += 1
        self.s["last_trick"] = {"number": number, "leader": leader.letter,
                                "cards": [list(c) for c in trick["cards"]],
                                "winner": winner.letter, "pending": list(trick["pending"])}
        if tricks["NS"] + tricks["EW"] >= 13:
            won = tricks[declarer.side.value]
            self.s.update(phase="over", turn=None, trick=None,
                          result=self._result(contract, won), confirmed=False)
            return
        self.s["trick"] = {"number": number + 1, "leader": winner.letter, "cards": []}
        self.s["turn"] = winner.letter

    def _result(self, contract: Contract, tricks: int) -> dict[str, Any]:
        """The result as played (the hub adds Law 64, which it alone can see)."""
        try:
            vul = Vulnerability.parse(str(self.s.get("vulnerability")))
        except (ValueError, BridgeError):
            vul = Vulnerability.NONE
        assert contract.declarer is not None
        score = score_ns(contract, tricks, vul.is_vulnerable(Side.NS), vul.is_vulnerable(Side.EW))
        return {"contract": str(contract), "declarer": contract.declarer.letter,
                "tricks": tricks, "score_ns": score, "tricks_rectified": tricks,
                "score_ns_rectified": score, "pending": True}

    # Claims --------------------------------------------------------------------------------
    def claim(self, body: dict[str, Any]) -> None:
        seat = _need_seat(body.get("seat"))
        tricks = body.get("tricks")
        if self.s.get("phase") != "play" or self._claim_stands():
            raise _Stop("wrong_state: no play in progress, or a claim stands")
        contract = self._contract()
        self._trick()
        done = self._tricks()
        assert contract.declarer is not None
        if seat is contract.declarer.partner:
            raise _Stop("wrong_state: dummy does not claim (43A1c)")
        remaining = 13 - done["NS"] - done["EW"]
        if not isinstance(tricks, int) or isinstance(tricks, bool) or \
                not 0 <= tricks <= remaining:
            raise _Stop(f"malformed: {tricks!r} of the {remaining} remaining tricks")
        self._accepted, self._disputed, self._answers_known = (), (), True
        self.s["claim"] = {"claimer": seat.letter, "tricks": tricks, "remaining": remaining,
                           "statement": str(body.get("statement") or ""), "status": "open",
                           "pending": True}
        self.s["turn"] = None

    def claim_answer(self, body: dict[str, Any]) -> None:
        seat = _need_seat(body.get("seat"))
        data = self.s.get("claim")
        if self.s.get("phase") not in ("play", "over") or not isinstance(data, dict):
            raise _Stop("wrong_state: no claim to answer")
        contract = self._contract()
        assert contract.declarer is not None
        claimer = _seat(data.get("claimer"))
        accepted = self._accepted
        if not self._answers_known and isinstance(data.get("accepted_by"), list):
            accepted = tuple(s for s in map(_seat, data["accepted_by"]) if s is not None)
            self._answers_known = True
        try:
            claim = Claim(claimer or seat, contract.declarer, int(data.get("tricks") or 0),
                          int(data.get("remaining") or 0), 0, 0,
                          accepted_by=accepted, disputed_by=self._disputed)
        except (TypeError, ValueError):
            raise _Stop(f"the hub's claim {data!r} is not understood") from None
        if claimer is None or claim.status.value != data.get("status"):
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
        data.update(status=claim.status.value, pending=True)
        if claim.status is ClaimStatus.ACCEPTED:
            won = self._tricks()[contract.declarer.side.value] + \
                claim.tricks_for(contract.declarer.side)
            self.s.update(phase="over", turn=None, result=self._result(contract, won),
                          confirmed=False)
        elif not claim.stands:
            _, leader, cards = self._trick()
            self.s.pop("result", None)
            self.s.pop("confirmed", None)
            self.s.update(phase="play", turn=leader.offset(len(cards)).letter)

    # The rest ------------------------------------------------------------------------------
    def result_confirm(self, body: dict[str, Any]) -> None:
        _need_seat(body.get("seat"))
        if self.s.get("phase") != "over":
            raise _Stop("wrong_state: the board is not over")
        if body.get("accept") is True:
            self.s["confirmed"] = True

    def board(self, body: dict[str, Any]) -> None:
        number = body.get("board")
        if not isinstance(number, int) or isinstance(number, bool) or number < 1:
            raise _Stop(f"malformed: board {number!r}")
        if self.s.get("board") == number:
            return      # already on the table
        for key in _BOARD_KEYS:
            self.s.pop(key, None)
        dealer = Seat.dealer_of(number)
        self.s.update(board=number, dealer=dealer.letter,
                      vulnerability=str(Vulnerability.of_board(number)), phase="auction",
                      turn=dealer.letter, auction=[])
        self._auction = None
        self.cards = []

    def checkin(self, body: dict[str, Any]) -> None:
        direction, pair = body.get("direction"), body.get("pair")
        if direction not in ("NS", "EW") or not isinstance(pair, int) or pair < 1:
            raise _Stop("malformed: check-in")
        pairs = self.s.get("pairs")
        self.s["pairs"] = {**(pairs if isinstance(pairs, dict) else {}), direction: pair}

    def director_call(self, body: dict[str, Any]) -> None:
        """Nothing shows at the table."""

    hand = director_call


_HANDLERS = ("call", "undo", "card", "claim", "claim_answer", "result_confirm", "board",
             "checkin", "director_call", "hand")


def projection(state: Mapping[str, Any] | None, seat_view: Mapping[str, Any] | None,
               pending_events: Iterable[Any]) -> Projection:
    """The hub's ``state`` with ``pending_events`` (oldest first) applied on top; see the
    module docstring. Never raises on a bad state or event: the projection stops there."""
    events = list(pending_events)
    table = _Table(state or {}, seat_view)
    shown, stopped = 0, None
    for event in events:
        _, kind, body = event_of(event)
        if kind not in _HANDLERS:
            stopped = f"{kind}: unknown event type"
            break
        try:
            getattr(table, kind)(body)
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
    out = table.s
    if events:
        out["pending"] = {"events": len(events), "shown": shown, "cards": table.cards,
                          "stopped": stopped}
    return Projection(out, table.view, shown, len(events) - shown, stopped)


def project(state: Mapping[str, Any] | None, seat_view: Mapping[str, Any] | None,
            pending_events: Iterable[Any]) -> dict[str, Any]:
    """The projected public state (same shape as the hub's): :func:`projection`'s state."""
    return projection(state, seat_view, pending_events).state


def footprint(state: Mapping[str, Any] | None) -> tuple[Any, ...]:
    """What the players see of the play in ``state``, without the pending marks and what
    only the hub can know (dummy's cards, Law 64, the hand record): two states with the same
    footprint show the same table."""
    s = state or {}
    auction = s.get("auction")
    trick = s.get("trick")
    dummy = s.get("dummy")
    claim = s.get("claim")
    result = s.get("result")
    tricks = s.get("tricks")
    pairs = s.get("pairs")
    return (
        s.get("board"), s.get("phase"), s.get("turn"),
        None if not isinstance(auction, list) else tuple(
            (e.get("seat"), e.get("call"), e.get("status")) for e in auction
            if isinstance(e, dict)),
        s.get("contract"), s.get("declarer"), s.get("doubled"),
        None if not isinstance(trick, dict) else (
            trick.get("number"), trick.get("leader"),
            tuple(tuple(c) for c in trick.get("cards") or () if isinstance(c, list))),
        None if not isinstance(tricks, dict) else (tricks.get("NS"), tricks.get("EW")),
        None if not isinstance(dummy, dict) else dummy.get("seat"),
        None if not isinstance(claim, dict) else (
            claim.get("claimer"), claim.get("tricks"), claim.get("remaining"),
            claim.get("status")),
        None if not isinstance(result, dict) else (
            result.get("contract"), result.get("declarer"), result.get("tricks"),
            result.get("score_ns")),
        s.get("confirmed"),
        None if not isinstance(pairs, dict) else (pairs.get("NS"), pairs.get("EW")),
    )


def already_applied(before: Mapping[str, Any] | None, after: Mapping[str, Any] | None,
                    event: Any, seat_view: Mapping[str, Any] | None = None) -> bool:
    """Whether the hub's state moved from ``before`` to ``after`` by exactly ``event``: the
    event the link has in flight is then in the hub's state although its reply has not come
    yet (the hub publishes the state first), and must not be applied twice."""
    if not before or not after:
        return False
    moved = projection(before, seat_view, [event])
    return moved.shown == 1 and footprint(before) != footprint(after) and \
        footprint(moved.state) == footprint(after)
