"""A board a dealing machine dealt, checked against its hand record (Laws 6D1, 87, 1).

:func:`check_dealt` compares what the machine read into each of the four pockets with the
hand record and reports every difference at once (:class:`DealtCheck`): which pocket lacks
which cards, which holds cards it should not and whose they are, a pocket holding another
seat's whole hand, cards in no pocket or read twice, cards the machine could not read. The
dealing machine's bridge (``firmware_bridge.dealer_run``) shows it to the operator as each
board comes out; the hub (``hub.dealing``) checks again against the event's hand record and
alerts the director. :meth:`DealtCheck.describe` says it in English (the operator's screen);
:meth:`DealtCheck.texts` as messages (``pocket.*`` keys, bridgecore.text: seats and cards as
values), which the director's console writes in his language, cards with its letters.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bridgecore.cards import ALL_CARDS, Card, Seat
from bridgecore.deal import Deal
from bridgecore.text import Text

__all__ = ["DealtCheck", "PocketDifference", "check_dealt"]

_POCKETS = (Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST)


@dataclass(frozen=True, slots=True)
class PocketDifference:
    """One pocket that is not the hand record's hand for its seat."""

    seat: Seat
    count: int                       # cards in the pocket, unread ones included
    missing: tuple[Card, ...] = ()   # the hand record puts them here; they are not here
    extra: tuple[Card, ...] = ()     # here, though the hand record puts them elsewhere
    unread: int = 0                  # cards the machine could not read
    holds: Seat | None = None        # the pocket holds exactly this other seat's hand

    def describe(self, record: Deal) -> str:
        if self.holds is not None:
            return f"{self.seat.letter} holds {self.holds.letter}'s hand"
        parts = []
        if self.missing:
            parts.append("lacks " + " ".join(str(c) for c in self.missing))
        if self.extra:
            parts.append("holds " + " ".join(_whose(c, record) for c in self.extra))
        if self.unread:
            parts.append(f"{self.unread} card{'s' if self.unread > 1 else ''} not read")
        if self.count != 13:
            parts.append(f"{self.count} cards")
        return f"{self.seat.letter} " + ", ".join(parts)

    def texts(self, record: Deal) -> list[Text]:
        """What :meth:`describe` says, as messages: one a thing wrong with the pocket."""
        seat = self.seat
        if self.holds is not None:
            return [Text.of("pocket.holds_hand", seat=seat, other_seat=self.holds)]
        out = []
        if self.missing:
            out.append(Text.of("pocket.lacks", seat=seat, cards=self.missing))
        owners: dict[Seat | None, list[Card]] = {}
        for card in self.extra:
            owners.setdefault(record.owner(card), []).append(card)
        for owner, cards in owners.items():
            out.append(Text.of("pocket.extra", seat=seat, cards=cards) if owner is None else
                       Text.of("pocket.extra_of", seat=seat, cards=cards, owner_seat=owner))
        if self.unread:
            out.append(Text.of("pocket.unread", seat=seat, count=self.unread))
        if self.count != 13:
            out.append(Text.of("pocket.count", seat=seat, count=self.count))
        return out

    def to_json(self) -> dict[str, Any]:
        return {"count": self.count, "missing": [str(c) for c in self.missing],
                "extra": [str(c) for c in self.extra], "unread": self.unread,
                "holds": None if self.holds is None else self.holds.letter}


def _whose(card: Card, record: Deal) -> str:
    owner = record.owner(card)
    return str(card) if owner is None else f"{card} ({owner.letter}'s)"


@dataclass(frozen=True, slots=True)
class DealtCheck:
    """A dealt board against its hand record; ``ok`` when every pocket is its hand."""

    board: int
    record: Deal
    pockets: tuple[PocketDifference, ...] = ()
    absent: tuple[Card, ...] = ()    # cards of the pack in no pocket
    twice: tuple[Card, ...] = ()     # cards read into two pockets, or twice into one

    @property
    def ok(self) -> bool:
        return not self.pockets

    @property
    def seats(self) -> tuple[Seat, ...]:
        return tuple(p.seat for p in self.pockets)

    def describe(self) -> str:
        """One line: what differs, pocket by pocket, then the pack."""
        if self.ok:
            return "every pocket holds its hand"
        parts = [p.describe(self.record) for p in self.pockets]
        if self.absent:
            parts.append("in no pocket: " + " ".join(str(c) for c in self.absent))
        if self.twice:
            parts.append("read twice: " + " ".join(str(c) for c in self.twice))
        return "; ".join(parts)

    def texts(self) -> tuple[Text, ...]:
        """What :meth:`describe` says, as messages (``pocket.*``), pocket by pocket then
        the pack; none when every pocket holds its hand."""
        out = [t for p in self.pockets for t in p.texts(self.record)]
        if self.absent:
            out.append(Text.of("pocket.absent", cards=self.absent))
        if self.twice:
            out.append(Text.of("pocket.twice", cards=self.twice))
        return tuple(out)

    def to_json(self) -> dict[str, Any]:
        return {"board": self.board, "ok": self.ok,
                "pockets": {p.seat.letter: p.to_json() for p in self.pockets},
                "absent": [str(c) for c in self.absent], "twice": [str(c) for c in self.twice]}


def check_dealt(board: int, record: Deal,
                pockets: Mapping[Seat, Sequence[Card | None]]) -> DealtCheck:
    """Compare what a machine read into each pocket (None: a card it could not read) with
    the hand record of ``board``. Everything is reported at once."""
    found: dict[Seat, list[Card]] = {seat: [] for seat in _POCKETS}
    unread = dict.fromkeys(_POCKETS, 0)
    seen: dict[Card, int] = {}
    for seat in _POCKETS:
        for card in pockets.get(seat, ()):
            if card is None:
                unread[seat] += 1
            else:
                found[seat].append(card)
                seen[card] = seen.get(card, 0) + 1
    hands = {seat: frozenset(record[seat].cards) for seat in _POCKETS}
    differences = []
    for seat in _POCKETS:
        cards = found[seat]
        count = len(cards) + unread[seat]
        held = frozenset(cards)
        if held == hands[seat] and count == 13:
            continue
        holds = next((other for other in _POCKETS if other is not seat and count == 13
                      and held == hands[other]), None)
        differences.append(PocketDifference(
            seat, count,
            missing=_ordered(hands[seat] - held) if holds is None else (),
            extra=_ordered(held - hands[seat]) if holds is None else (),
            unread=unread[seat], holds=holds))
    absent = _ordered(c for c in ALL_CARDS if c not in seen)
    twice = _ordered(c for c, n in seen.items() if n > 1)
    return DealtCheck(board, record, tuple(differences), absent, twice)


def _ordered(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=_index))


def _index(card: Card) -> int:
    return card.index
