"""Hands and deals, and what is wrong with a deal (Laws 1, 6, 7B, 13, 14).

A :class:`Deal` may hold any cards at all, because the cards a reader saw in a
pocket are whatever was there: a 14-card hand, a card twice, a card missing.
:meth:`Deal.problems` reports all of it at once.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from operator import attrgetter

from bridgecore.cards import ALL_CARDS, Card, Rank, Seat, Suit
from bridgecore.errors import ParseError

__all__ = ["Deal", "DealProblem", "Hand"]

_SUITS_DOWN = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)


_order = attrgetter("index")   # a card's place in ♠A ... ♣2 order


@dataclass(frozen=True, slots=True)
class Hand:
    """The cards of one seat, kept in ♠A ... ♣2 order. Duplicates are kept (they are evidence)."""

    cards: tuple[Card, ...]
    _mask: int = field(default=-1, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        ordered = tuple(sorted(self.cards, key=_order))
        if ordered != self.cards:
            object.__setattr__(self, "cards", ordered)

    @property
    def mask(self) -> int:
        """The hand's cards as a 52-bit set (bit ``card.index``; a card held twice is one
        bit), worked out when first asked."""
        mask = self._mask
        if mask < 0:
            mask = 0
            for card in self.cards:
                mask |= 1 << card.index
            object.__setattr__(self, "_mask", mask)
        return mask

    @classmethod
    def of(cls, cards: Iterable[Card]) -> Hand:
        return cls(tuple(cards))

    @classmethod
    def parse(cls, text: str) -> Hand:
        """Parse PBN hand notation ``"AKQ.T9..J32"`` (spades.hearts.diamonds.clubs)."""
        parts = text.strip().split(".")
        if len(parts) != 4:
            raise ParseError(f"a hand needs four suits separated by dots: {text!r}")
        cards: list[Card] = []
        for suit, holding in zip(_SUITS_DOWN, parts, strict=True):
            h = holding.strip().upper()
            i = 0
            while i < len(h):
                if h.startswith("10", i):
                    token, i = "10", i + 2
                else:
                    token, i = h[i], i + 1
                try:
                    rank = Rank.parse(token)
                except ParseError:
                    raise ParseError(f"not a rank {token!r} in hand {text!r}") from None
                cards.append(Card(suit, rank))
        return cls.of(cards)

    def suit(self, suit: Suit) -> tuple[Card, ...]:
        return tuple(c for c in self.cards if c.suit is suit)

    def has_suit(self, suit: Suit) -> bool:
        return any(c.suit is suit for c in self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __contains__(self, card: object) -> bool:
        return card in self.cards

    def __str__(self) -> str:
        return ".".join("".join(c.rank.letter for c in self.suit(s)) for s in _SUITS_DOWN)

    def __repr__(self) -> str:
        return f"Hand.parse({str(self)!r})"


@dataclass(frozen=True, slots=True)
class DealProblem:
    """One thing wrong with a deal: a card missing or held twice, or a hand not of 13."""

    kind: str  # "missing_card" | "duplicate_card" | "wrong_card_count"
    law: str
    card: Card | None = None
    seats: tuple[Seat, ...] = ()
    count: int | None = None

    def __str__(self) -> str:
        if self.kind == "wrong_card_count":
            return f"{self.seats[0]} holds {self.count} cards, not 13 (Law {self.law})"
        if self.kind == "duplicate_card":
            where = ", ".join(str(s) for s in self.seats)
            return f"{self.card} is held {len(self.seats)} times ({where}) (Law {self.law})"
        return f"{self.card} is missing from the deal (Law {self.law})"


class Deal(Mapping[Seat, Hand]):
    """Four hands, one per seat. Immutable; ``deal[Seat.NORTH]`` is North's hand."""

    __slots__ = ("_hands", "_owner", "_problems", "unknown")

    def __init__(self, hands: Mapping[Seat, Hand | Iterable[Card]],
                 unknown: Iterable[Seat] = ()):
        built: list[Hand] = []
        for seat in Seat:
            h = hands.get(seat, Hand(()))
            built.append(h if isinstance(h, Hand) else Hand.of(h))
        self._hands: tuple[Hand, Hand, Hand, Hand] = (built[0], built[1], built[2], built[3])
        self._owner: dict[Card, Seat] | None = None
        self._problems: tuple[DealProblem, ...] | None = None
        self.unknown: frozenset[Seat] = frozenset(unknown)
        """Seats whose hand the source does not give (PBN ``-``): not counted as wrong."""

    # Mapping protocol -------------------------------------------------------------
    def __getitem__(self, seat: Seat) -> Hand:
        return self._hands[seat]

    def __iter__(self) -> Iterator[Seat]:
        return iter(Seat)

    def __len__(self) -> int:
        return 4

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Deal) and self._hands == other._hands
                and self.unknown == other.unknown)

    def __hash__(self) -> int:
        return hash(self._hands)

    # Construction ---------------------------------------------------------------------
    @classmethod
    def parse(cls, text: str, *, complete: bool = True) -> Deal:
        """Parse a PBN deal ``"N:hand hand hand hand"``; hands go clockwise from the first seat.

        A hand written ``-`` is unknown; with ``complete`` a single unknown hand is filled
        with the cards nobody else holds (as LIN and some hand records leave it out).
        """
        t = text.strip()
        if len(t) < 2 or t[1] != ":":
            raise ParseError(f"a deal starts with a seat and a colon: {text!r}")
        first = Seat.parse(t[0])
        parts = t[2:].split()
        if len(parts) != 4:
            raise ParseError(f"a deal needs four hands, found {len(parts)}: {text!r}")
        hands: dict[Seat, Hand] = {}
        unknown: list[Seat] = []
        for i, part in enumerate(parts):
            seat = first.offset(i)
            if part == "-":
                unknown.append(seat)
                hands[seat] = Hand(())
            else:
                hands[seat] = Hand.parse(part)
        if complete and len(unknown) == 1:
            held = {c for h in hands.values() for c in h}
            hands[unknown[0]] = Hand.of(c for c in ALL_CARDS if c not in held)
            unknown = []
        return cls(hands, unknown)

    @classmethod
    def from_owners(cls, owners: Iterable[Seat]) -> Deal:
        """Build a deal from the owner of each card in ♠A ... ♣2 order (deal files)."""
        lists: dict[Seat, list[Card]] = {s: [] for s in Seat}
        n = 0
        for card, seat in zip(ALL_CARDS, owners, strict=False):
            lists[seat].append(card)
            n += 1
        if n != 52:
            raise ParseError(f"a deal needs an owner for each of the 52 cards, got {n}")
        return cls({s: Hand(tuple(v)) for s, v in lists.items()})

    # Queries ----------------------------------------------------------------------------
    def owner(self, card: Card) -> Seat | None:
        """The seat whose hand holds ``card`` (the first one if it is held twice)."""
        if self._owner is None:
            owner: dict[Card, Seat] = {}
            for seat in reversed(Seat):
                for c in self._hands[seat]:
                    owner[c] = seat
            self._owner = owner
        return self._owner.get(card)

    def owners(self) -> tuple[Seat, ...]:
        """Owner of each card in ♠A ... ♣2 order; only for a complete, valid deal."""
        result = []
        for card in ALL_CARDS:
            seat = self.owner(card)
            if seat is None:
                raise ValueError(f"{card} is in no hand")
            result.append(seat)
        return tuple(result)

    @property
    def is_complete(self) -> bool:
        """All four hands known, 13 cards each, the 52 cards once each."""
        return not self.unknown and not self.problems()

    def problems(self) -> list[DealProblem]:
        """Every missing or duplicate card and every hand that is not 13 cards, all at once.

        Laws 1 (the pack), 7B (13 cards), 13 (incorrect number of cards) and 14 (missing
        card). The law cited on a wrong count follows Law 13 vs 14: a hand over 13 is
        Law 13, a hand under 13 while no hand is over 13 is Law 14.
        """
        if self._problems is None:
            self._problems = tuple(self._find_problems())
        return list(self._problems)

    def _find_problems(self) -> list[DealProblem]:
        hands = self._hands
        if not self.unknown and all(len(h) == 13 for h in hands) and len(
                set(hands[0].cards).union(hands[1].cards, hands[2].cards, hands[3].cards)) == 52:
            return []
        found: list[DealProblem] = []
        seen: dict[Card, list[Seat]] = {}
        for seat in Seat:
            for c in self._hands[seat]:
                seen.setdefault(c, []).append(seat)
        any_over = any(len(h) > 13 for h in self._hands)
        for seat in Seat:
            if seat in self.unknown:
                continue
            n = len(self._hands[seat])
            if n != 13:
                law = "13" if (n > 13 or any_over) else "14"
                found.append(DealProblem("wrong_card_count", law, seats=(seat,), count=n))
        for card in ALL_CARDS:
            holders = seen.get(card)
            if holders is None:
                if not self.unknown:
                    found.append(DealProblem("missing_card", "14", card=card))
            elif len(holders) > 1:
                found.append(DealProblem("duplicate_card", "13F", card=card,
                                         seats=tuple(holders)))
        return found

    @property
    def is_end_position(self) -> bool:
        """Every known hand holds the same number of cards, under 13, and no card twice:
        an end position as PBN records one (a diagram), not a deal for play."""
        known = [self._hands[s] for s in Seat if s not in self.unknown]
        sizes = {len(h) for h in known}
        if len(sizes) != 1 or not 0 < next(iter(sizes)) < 13:
            return False
        cards = [c for h in known for c in h]
        return len(cards) == len(set(cards))

    def rotated(self, steps: int) -> Deal:
        """The deal with every hand moved ``steps`` seats clockwise (North's hand to East...)."""
        return Deal({seat.offset(steps): self._hands[seat] for seat in Seat},
                    {seat.offset(steps) for seat in self.unknown})

    def pbn(self, first: Seat = Seat.NORTH) -> str:
        """PBN deal string starting at ``first``; an empty hand is written ``-``."""
        hands = []
        for i in range(4):
            h = self._hands[first.offset(i)]
            hands.append(str(h) if len(h) else "-")
        return f"{first.letter}:" + " ".join(hands)

    def __str__(self) -> str:
        return self.pbn()

    def __repr__(self) -> str:
        return f"Deal.parse({self.pbn()!r})"
