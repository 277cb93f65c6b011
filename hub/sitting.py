"""What a table is made of, shared by its parts (hub/table.py, hub/pockets.py): the session
it belongs to (:class:`TableContext`), one board played at it (:class:`Sitting`), the
outcome of one event (:class:`Outcome`), and card and call parsing with a small cache."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

import msgspec

from bridgecore.board import Board
from bridgecore.calls import Call
from bridgecore.cards import Card, Seat, Side
from bridgecore.claims import ClaimStatus
from bridgecore.deal import Deal, Hand
from bridgecore.editions import Edition
from bridgecore.errors import BridgeError
from bridgecore.markings import Markings
from bridgecore.movements import Assignment
from hub.alerts import Alert, AlertBook
from wire.protocol import Reply

__all__ = ["SEATS", "Outcome", "Sitting", "TableContext", "card_mask", "cards_of", "parse_call",
           "parse_card"]

T = TypeVar("T")

SEATS = {"N": Seat.NORTH, "E": Seat.EAST, "S": Seat.SOUTH, "W": Seat.WEST}
_CARDS: dict[str, Card] = {}
_CALLS: dict[str, Call] = {}


def _parsed(text: str, cache: dict[str, T], parse: Callable[[str], T]) -> T | None:
    """``parse(text)`` remembered (devices send the same few names all session); None for
    anything that is not one."""
    value = cache.get(text)
    if value is None:
        try:
            value = parse(text)
        except (BridgeError, ValueError, TypeError):
            return None
        if len(cache) < 4096:
            cache[text] = value
    return value


def parse_card(text: str) -> Card | None:
    """A card name from a device ("SA", "H10"...), or None."""
    return _parsed(text, _CARDS, Card.parse)


def parse_call(text: str) -> Call | None:
    """A call from a device ("1NT", "Pass", "X"...), or None."""
    return _parsed(text, _CALLS, Call.parse)


def card_mask(cards: Iterable[Card]) -> int:
    """The 52-bit set of ``cards`` (bit ``card.index``)."""
    if isinstance(cards, Hand):   # worked out once per hand (the deal's, checked per read)
        return cards.mask
    mask = 0
    for c in cards:
        mask |= 1 << c.index
    return mask


def cards_of(mask: int) -> list[str]:
    return [str(Card.from_index(i)) for i in range(52) if mask >> i & 1]


class TableContext(Protocol):
    """What a table needs from its session (implemented by :class:`hub.room.Room`)."""

    alerts: AlertBook
    edition: Edition
    alerting: str     # the regulation on explanations (hub.explain.REGULATIONS)

    def deal(self, board: int) -> Deal | None: ...
    def markings(self, board: int) -> Markings: ...
    def has_deals(self) -> bool: ...
    def assignment(self, table: str, round: int) -> Assignment | None: ...
    def where(self, table: str, pair: int, round: int) -> tuple[str, Side] | None: ...
    def tables_with(self, table: str, board: int, round: int) -> list[str]: ...
    def played_by(self, table: str, pair: int) -> Mapping[int, tuple[str, int]]: ...
    def mark_played(self, table: str, pair: int, board: int, round: int) -> None: ...
    def hands_matching(self, mask: int) -> list[tuple[int, Seat]]: ...
    def hands_containing(self, mask: int) -> list[tuple[int, Seat]]: ...
    def round_info(self, table: str, round: int) -> dict[str, Any]: ...


class Outcome(msgspec.Struct, frozen=True):
    """What applying one event gives: the reply, the alerts raised or updated, and whether
    the public state or a seat's view changed (republish them). Every ``ack`` that is not a
    duplicate must be logged, even without a change of view. ``fact``: a hub fact to log
    although the event was refused (hub.room: the alert of a device acting beyond its role,
    which a replay of the log must raise again); its ``alerts`` are published."""

    reply: Reply
    alerts: list[Alert] = msgspec.field(default_factory=list)
    state_changed: bool = False
    fact: tuple[str, dict[str, Any]] | None = None


@dataclass(slots=True)
class Sitting:
    """One board played at this table: the bridgecore Board and what the hub saw around it."""

    board: Board
    round: int
    has_record: bool
    # What holds a few items on some boards is a tuple, the one empty tuple when empty (issue
    # 27: a set is 216 bytes even empty, a list 56, and every board played kept three sets
    # and four lists); each change makes the new tuple (the methods below).
    reads: dict[Seat, tuple[Card, ...]] = field(default_factory=dict)
    out: tuple[Seat, ...] = ()  # pockets read out and not read back, in the order read out
    foreign: dict[Seat, tuple[str, ...]] = field(default_factory=dict)
    wrong_hand: dict[Seat, str] = field(default_factory=dict)  # seat -> alert key (17D)
    card_source: dict[Card, tuple[Seat, str]] = field(default_factory=dict)
    exposed: tuple[tuple[str, str, float], ...] = ()
    stops: tuple[int, ...] = ()
    confirmations: dict[str, tuple[bool, float]] = field(default_factory=dict)
    revokes: tuple[str, ...] = ()         # alert keys of the revokes, in the order found
    unestablished: tuple[str, ...] = ()   # ... not yet established (63A)
    transfer_mark: int = -1                                # tricks complete at the last 64
    play_keys: dict[int, str] = field(default_factory=dict)  # play irregularity -> alert key
    generation: int = 0
    ended: float | None = None
    withheld: bool = False   # not this table's this round: shown to nobody (hub.withheld)
    explained: tuple[Any, ...] = ()   # hub.explain.Explained, in order
    asked: tuple[Any, ...] = ()       # hub.explain.Asked, in order

    def pocket_out(self, seat: Seat) -> None:
        """``seat``'s hand read out of its pocket (what replay reproduces of the board)."""
        if seat not in self.out:
            self.out = (*self.out, seat)

    def pocket_back(self, seat: Seat) -> None:
        """``seat``'s hand read back into its pocket."""
        if seat in self.out:
            self.out = tuple(x for x in self.out if x is not seat)

    def found_revoke(self, key: str) -> None:
        """A revoke found on this board (Law 64: the director rules on it), by its alert's
        key: not established yet (63A)."""
        if key not in self.revokes:
            self.revokes = (*self.revokes, key)
        if key not in self.unestablished:
            self.unestablished = (*self.unestablished, key)

    def revoke_established(self, key: str) -> None:
        """The revoke of ``key`` is established (63A)."""
        if key in self.unestablished:
            self.unestablished = tuple(k for k in self.unestablished if k != key)

    def settle(self) -> None:
        """The table can no longer come back to this board (it is over and the table is in
        a later round, :meth:`hub.table.TableState.settle_finished`): drop what only the
        play in progress needs (the undo states of its calls and cards, which device
        reported each card, the alert keys of its play irregularities). The record, the
        reads, the confirmations and the result stay for the scores, the console, the late
        changes and the exports."""
        self.board.forget_undo()
        self.card_source.clear()
        self.play_keys.clear()

    @property
    def over(self) -> bool:
        """The board is over: passed out, 13 tricks played, or a claim accepted (cheaper than
        ``Board.phase``, which computes the Law 64 result)."""
        board = self.board
        play = board.play
        if play is None:
            return board.auction.is_over
        if play.is_complete:
            return True
        claims = play.claims
        return bool(claims) and claims[-1].status is ClaimStatus.ACCEPTED

    @property
    def phase(self) -> str:
        """``"auction"``, ``"play"`` or ``"over"``."""
        if self.over:
            return "over"
        return "auction" if self.board.play is None else "play"


