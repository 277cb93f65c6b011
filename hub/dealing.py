"""Dealing machines: each dealt board checked against the hand record before it goes out.

A dealing machine's bridge (``firmware_bridge``) publishes what the machine read into the four
pockets of every board it dealt (``dealt``) and the machine's faults (``dealer_fault``) on
``tenace/v1/dealer/{device}/ev``. :class:`DealingRoom`, a part of :class:`hub.room.Room`,
checks each event as :meth:`hub.room.Room.apply` checks a table's (duplicate id, sequence,
clock), compares the pockets with the event's hand record
(:func:`bridgecore.dealcheck.check_dealt`) and raises
a director alert for a board that differs: which pocket lacks which cards, which holds
cards it should not and whose they are, cards in no pocket or in two, cards the machine
could not read. A board dealt incorrectly and found before the auction is redealt (Law 6D1);
a copy that went out and was played in another form is a fouled board (87). The hub only
says so; the director decides (Laws 9, 10, 81).

Both sides use :func:`bridgecore.dealcheck.check_dealt`: the bridge to show the operator each
board's check as it comes out of the machine, the hub against its own hand records, which are
the event's truth.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from bridgecore.cards import Card, Seat
from bridgecore.deal import Deal
from bridgecore.dealcheck import DealtCheck, PocketDifference, check_dealt
from bridgecore.errors import ParseError
from bridgecore.irregularity import Rectification
from bridgecore.text import Text
from hub.alerts import OPTIONS, Alert, AlertBook, HubKind
from hub.clock import judge
from wire.protocol import DEALER_EVENT_TYPES, Envelope, ProtocolError, Reply

__all__ = ["DEALER_EVENTS", "DealingRoom", "DealtCheck", "PocketDifference", "check_dealt",
           "parse_pockets"]   # DealtCheck, PocketDifference, check_dealt: bridgecore.dealcheck

log = logging.getLogger(__name__)

DEALER_EVENTS = tuple(DEALER_EVENT_TYPES)
"""The event types of ``tenace/v1/dealer/{device}/ev``."""

_POCKETS = (Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST)
_MAX_CARDS = 60            # cards one pocket may report (a machine gone wrong, not a pack)
_MAX_ERRORS = 64


def parse_pockets(obj: Any) -> dict[Seat, tuple[Card | None, ...]]:
    """The ``pockets`` of a ``dealt`` body: ``{"N": ["SA", "?", ...], ...}``; ProtocolError
    (malformed) naming the pocket and the entry otherwise."""
    if not isinstance(obj, Mapping) or set(obj) != {"N", "E", "S", "W"}:
        raise ProtocolError("malformed", "dealt: pockets must have exactly N, E, S and W")
    out: dict[Seat, tuple[Card | None, ...]] = {}
    for seat in _POCKETS:
        texts = obj[seat.letter]
        if not isinstance(texts, list) or len(texts) > _MAX_CARDS:
            raise ProtocolError("malformed", f"dealt: pocket {seat.letter} must be a list of "
                                             f"up to {_MAX_CARDS} cards")
        cards: list[Card | None] = []
        for i, text in enumerate(texts):
            if text == "?":
                cards.append(None)
                continue
            try:
                if not isinstance(text, str):
                    raise ParseError(f"not a card: {text!r}")
                cards.append(Card.parse(text))
            except ParseError:
                raise ProtocolError("malformed", f"dealt: pocket {seat.letter}[{i}] "
                                                 f"{text!r:.20} is not a card (\"?\" for a "
                                                 "card the machine could not read)") from None
        out[seat] = tuple(cards)
    return out


def _machine_errors(obj: Any) -> list[dict[str, str]]:
    if obj is None:
        return []
    if not isinstance(obj, list) or len(obj) > _MAX_ERRORS:
        raise ProtocolError("malformed", f"dealt: errors must be a list of up to "
                                         f"{_MAX_ERRORS} objects")
    out = []
    for i, item in enumerate(obj):
        if (not isinstance(item, Mapping) or not isinstance(item.get("code"), str)
                or not all(isinstance(item.get(k, ""), str) for k in ("pocket", "card"))):
            raise ProtocolError("malformed", f"dealt: errors[{i}] must be an object with a "
                                             "code (and text pocket and card)")
        out.append({k: str(item[k])[:32] for k in ("code", "pocket", "card") if k in item})
    return out


class DealingContext(Protocol):
    """What the dealing checks need of the room."""

    alerts: AlertBook
    clock_tolerance: float | None

    def deal(self, board: int) -> Deal | None: ...


@dataclass(slots=True)
class DealerInfo:
    """What the hub knows of one dealing machine: its last seq, each board copy it dealt
    (True: it matched the hand record) and its faults."""

    last_seq: int = -1
    boards: dict[str, bool] = field(default_factory=dict)
    faults: int = 0


_MISDEAL = (
    Rectification.of("6D1", "rect.dealt_incorrectly", "found before the auction: the board was "
                     "dealt incorrectly; hold it and have it redealt (through the machine again, "
                     "or each pocket put right from the hand record and checked) before it goes "
                     "out", "director"),
    Rectification.of("87", "rect.dealt_fouled", "a copy already played in this form is a fouled "
                     "board (87A): score each form as its own group (87B)", "director"),
)
_FAULT = (
    Rectification.of("6", "rect.machine_stopped", "the machine stopped: a board it has not "
                     "reported dealt and checked must not go out until it is dealt again, or "
                     "checked by hand against the hand record", "director"),
)


class DealingRoom:
    """The dealing machines of a session (a part of :class:`hub.room.Room`)."""

    def __init__(self, context: DealingContext):
        self.context = context
        self.devices: dict[str, DealerInfo] = {}
        self._seen: set[str] = set()
        self._handlers: dict[str, Callable[[str, Envelope, float], list[Alert]]] = {
            "dealt": self._dealt, "dealer_fault": self._fault}

    def apply(self, device: str, env: Envelope, hub_time: float) -> tuple[Reply, list[Alert]]:
        """One validated event from the bridge of machine ``device``: the reply, and the
        alerts raised or changed. A refusal changes nothing."""
        if env.id in self._seen:
            return Reply(env.id, env.seq, "ack", "duplicate", "already applied", hub_time), []
        info = self.devices.get(device)
        if info is not None and env.seq <= info.last_seq:
            return self._reject(env, hub_time, "out_of_order",
                                f"seq {env.seq} after {info.last_seq}"), []
        skew = judge(env, hub_time, self.context.clock_tolerance)
        if skew is not None:
            return self._reject(env, hub_time, "clock_skew", skew), []
        env = env.corrected()   # the machine's times on the hub's clock
        handler = self._handlers.get(env.type)
        if handler is None:
            return self._reject(env, hub_time, "unknown_type",
                                f"{env.type!r} is not a dealing machine's event"), []
        try:
            alerts = handler(device, env, hub_time)
        except ProtocolError as err:
            return self._reject(env, hub_time, err.code, err.reason), []
        self._seen.add(env.id)
        info = self.devices.setdefault(device, DealerInfo())
        info.last_seq = env.seq
        return Reply(env.id, env.seq, "ack", "ok", "", hub_time), alerts

    @staticmethod
    def _reject(env: Envelope, t: float, code: str, reason: str) -> Reply:
        return Reply(env.id, env.seq, "reject", code, reason, t)

    def _dealt(self, device: str, env: Envelope, t: float) -> list[Alert]:
        body = env.body
        board = body["board"]
        copy = body.get("copy") or 1
        if board < 1 or copy < 1:
            raise ProtocolError("malformed", f"dealt: board {board} copy {copy}: both count "
                                             "from 1")
        pockets = parse_pockets(body["pockets"])
        errors = _machine_errors(body.get("errors"))
        record = self.context.deal(board)
        if record is None:
            raise ProtocolError("unknown_board", f"board {board} has no hand record in this "
                                                 "event")
        check = check_dealt(board, record, pockets)
        ok = check.ok and not errors
        self.devices.setdefault(device, DealerInfo()).boards[f"{board}/{copy}"] = ok
        key = f"dealt:{device}:{board}:{copy}"
        dealt = {seat.letter: ["?" if c is None else str(c) for c in cards]
                 for seat, cards in pockets.items()}
        evidence = {"dealt": dealt, "record": record.pbn(), "machine_errors": errors}
        alerts = self.context.alerts
        if ok:
            earlier = alerts.key_of(key)
            if earlier is None or not earlier.is_open:
                return []
            raised = alerts.raise_alert(
                key, kind=HubKind.MISDEALT_BOARD, law="6D1", table=device, round=None,
                board=board, detected=t, occurred=env.time,
                detail=Text.of("alert.redealt", board=board, copy=copy, device=device),
                facts={"device": device, "board": board, "copy": copy, "hold": False,
                       "redealt": True, **check.to_json()},
                evidence=evidence, options=_MISDEAL)
            return [] if raised is None else [raised]
        # The pockets as messages (bridgecore.dealcheck: seats and cards in the director's
        # notation); the machine's own error words stay its own (the evidence).
        what = list(check.texts()) if not check.ok else [Text.of("alert.misdealt_pockets_ok")]
        if errors:
            what.append(Text.of("alert.misdealt_machine", errors=", ".join(
                _error_text(e) for e in errors)))
        options = _MISDEAL + (OPTIONS["pack"] if check.absent or check.twice else ())
        raised = alerts.raise_alert(
            key, kind=HubKind.MISDEALT_BOARD, law="6D1", table=device, round=None, board=board,
            detected=t, occurred=env.time, seats=[s.letter for s in check.seats],
            detail=Text.of("alert.misdealt", board=board, copy=copy, device=device, what=what),
            facts={"device": device, "board": board, "copy": copy, "hold": True,
                   "machine_errors": errors, **check.to_json()},
            evidence=evidence, options=options)
        return [] if raised is None else [raised]

    def _fault(self, device: str, env: Envelope, t: float) -> list[Alert]:
        body = env.body
        code = body["code"]
        board = body.get("board")
        if not code or len(code) > 32 or (board is not None and board < 0):
            raise ProtocolError("malformed", "dealer_fault: code must be 1-32 characters and "
                                             "board 0 or more")
        self.devices.setdefault(device, DealerInfo()).faults += 1
        detail = str(body.get("detail") or "")[:400]
        where = [Text.of("alert.dealer_fault_board", board=board)] if board else []
        raised = self.context.alerts.raise_alert(
            f"fault:{device}:{env.id}", kind=HubKind.DEALER_FAULT, law="6", table=device,
            round=None, board=board or None, detected=t, occurred=env.time,
            detail=Text.of("alert.dealer_fault", device=device, code=code, where=[
                *where, *([Text.of("alert.dealer_fault_report", report=detail)]
                          if detail else [])]),
            facts={"device": device, "code": code, "board": board or None, "detail": detail},
            options=_FAULT)
        return [] if raised is None else [raised]

    def replay(self, payload: str, hub_time: float) -> None:
        """Apply a stored event again (the room rebuilt from the log)."""
        try:
            env = Envelope.from_json(payload, DEALER_EVENT_TYPES)
        except ProtocolError as err:
            log.warning("stored dealing machine event not replayed: %s", err)
            return
        self.apply(env.device, env, hub_time)

    def snapshot(self) -> dict[str, Any]:
        return {d: {"last_seq": i.last_seq, "boards": dict(i.boards), "faults": i.faults}
                for d, i in self.devices.items()}


def _error_text(error: Mapping[str, str]) -> str:
    text = error["code"]
    if error.get("card"):
        text += f" {error['card']}"
    if error.get("pocket"):
        text += f" in {error['pocket']}"
    return text
