"""Seats, sides, suits, strains, ranks and cards (Law 1, Law 3, Law 18E).

Order is defined, not incidental: :class:`Strain` compares in bidding order
C < D < H < S < NT (Law 18E), :class:`Rank` from two to ace. Text input accepts
suit symbols and the French, Italian and German honour letters (R/D/V for K/Q/J in
French, R/D/F in Italian, K/D/B in German, X or 10 for the ten); output is ASCII.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum, IntEnum

from bridgecore.errors import ParseError

__all__ = ["ALL_CARDS", "Card", "Rank", "Seat", "Side", "Strain", "Suit"]


class Side(Enum):
    """The two sides at a table (Law 4)."""

    NS = "NS"
    EW = "EW"

    @property
    def opponents(self) -> Side:
        return Side.EW if self is Side.NS else Side.NS

    @property
    def seats(self) -> tuple[Seat, Seat]:
        return (Seat.NORTH, Seat.SOUTH) if self is Side.NS else (Seat.EAST, Seat.WEST)

    def __str__(self) -> str:
        return self.value


class Seat(IntEnum):
    """Compass positions in clockwise rotation (definition of "Rotation")."""

    NORTH = 0
    EAST = 1
    SOUTH = 2
    WEST = 3

    def __bool__(self) -> bool:
        """Always true: North and clubs are 0, and must not read as 'no seat'."""
        return True

    @property
    def letter(self) -> str:
        return "NESW"[self]

    @property
    def lho(self) -> Seat:
        """Left-hand opponent: the next player in rotation."""
        return _SEATS[(self + 1) % 4]

    @property
    def partner(self) -> Seat:
        return _SEATS[(self + 2) % 4]

    @property
    def rho(self) -> Seat:
        """Right-hand opponent: the previous player in rotation."""
        return _SEATS[(self + 3) % 4]

    @property
    def side(self) -> Side:
        return Side.NS if self % 2 == 0 else Side.EW

    def offset(self, steps: int) -> Seat:
        """The seat ``steps`` places clockwise from this one."""
        return _SEATS[(self + steps) % 4]

    def distance_to(self, other: Seat) -> int:
        """Clockwise steps from this seat to ``other`` (0-3)."""
        return (other - self) % 4

    @classmethod
    def parse(cls, text: str) -> Seat:
        key = text.strip().upper()
        seat = _SEAT_NAMES.get(key)
        if seat is None:
            raise ParseError(f"not a seat: {text!r}")
        return seat

    @classmethod
    def dealer_of(cls, board: int) -> Seat:
        """Dealer of a board number (Law 2): N, E, S, W in turn, repeating every 4."""
        if board < 1:
            raise ValueError(f"board numbers start at 1, got {board}")
        return _SEATS[(board - 1) % 4]

    def __str__(self) -> str:
        return self.letter

    def __repr__(self) -> str:
        return f"Seat.{self.name}"


_SEATS = (Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST)
_SEAT_NAMES = {
    "N": Seat.NORTH, "NORTH": Seat.NORTH, "NORD": Seat.NORTH,
    "E": Seat.EAST, "EAST": Seat.EAST, "EST": Seat.EAST,
    "S": Seat.SOUTH, "SOUTH": Seat.SOUTH, "SUD": Seat.SOUTH,
    "W": Seat.WEST, "WEST": Seat.WEST, "O": Seat.WEST, "OUEST": Seat.WEST, "OVEST": Seat.WEST,
}


class Suit(IntEnum):
    """Suits in rank order C < D < H < S (Law 1)."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    def __bool__(self) -> bool:
        """Always true: North and clubs are 0, and must not read as 'no seat'."""
        return True

    @property
    def letter(self) -> str:
        return "CDHS"[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        suit = _SUIT_NAMES.get(text.strip().upper())
        if suit is None:
            raise ParseError(f"not a suit: {text!r}")
        return suit

    def __str__(self) -> str:
        return self.letter

    def __repr__(self) -> str:
        return f"Suit.{self.name}"


_SUITS = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
_SUIT_NAMES = {
    "C": Suit.CLUBS, "♣": Suit.CLUBS, "♧": Suit.CLUBS, "T": Suit.CLUBS,  # trèfle / trefoli
    "D": Suit.DIAMONDS, "♦": Suit.DIAMONDS, "♢": Suit.DIAMONDS, "K": Suit.DIAMONDS,  # carreau
    "Q": Suit.DIAMONDS,  # quadri (Italian)
    "H": Suit.HEARTS, "♥": Suit.HEARTS, "♡": Suit.HEARTS,
    "S": Suit.SPADES, "♠": Suit.SPADES, "♤": Suit.SPADES, "P": Suit.SPADES,  # pique / picche
}
# Only the unambiguous letters are accepted in card and call text: C D H S and symbols.
_CARD_SUIT_LETTERS = {
    "C": Suit.CLUBS, "♣": Suit.CLUBS, "♧": Suit.CLUBS,
    "D": Suit.DIAMONDS, "♦": Suit.DIAMONDS, "♢": Suit.DIAMONDS,
    "H": Suit.HEARTS, "♥": Suit.HEARTS, "♡": Suit.HEARTS,
    "S": Suit.SPADES, "♠": Suit.SPADES, "♤": Suit.SPADES,
}


class Strain(IntEnum):
    """Denominations in bidding order C < D < H < S < NT (Law 18E)."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3
    NOTRUMP = 4

    def __bool__(self) -> bool:
        return True

    @property
    def suit(self) -> Suit | None:
        return None if self is Strain.NOTRUMP else _SUITS[self]

    @property
    def is_major(self) -> bool:
        return self in (Strain.HEARTS, Strain.SPADES)

    @property
    def is_minor(self) -> bool:
        return self in (Strain.CLUBS, Strain.DIAMONDS)

    @property
    def symbol(self) -> str:
        return ("C", "D", "H", "S", "NT")[self]

    @classmethod
    def of(cls, suit: Suit) -> Strain:
        return _STRAINS[suit]

    @classmethod
    def parse(cls, text: str) -> Strain:
        strain = _STRAIN_NAMES.get(text.strip().upper())
        if strain is None:
            raise ParseError(f"not a strain: {text!r}")
        return strain

    def __str__(self) -> str:
        return self.symbol

    def __repr__(self) -> str:
        return f"Strain.{self.name}"


_STRAINS = (Strain.CLUBS, Strain.DIAMONDS, Strain.HEARTS, Strain.SPADES, Strain.NOTRUMP)
_STRAIN_NAMES: dict[str, Strain] = {
    **{k: _STRAINS[v] for k, v in _CARD_SUIT_LETTERS.items()},
    "NT": Strain.NOTRUMP, "N": Strain.NOTRUMP, "SA": Strain.NOTRUMP,  # sans-atout
    "SANS ATOUT": Strain.NOTRUMP, "NOTRUMP": Strain.NOTRUMP, "NOTRUMPS": Strain.NOTRUMP,
}


class Rank(IntEnum):
    """Card ranks from two to ace (Law 1)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def letter(self) -> str:
        return "23456789TJQKA"[self - 2]

    @property
    def is_honour(self) -> bool:
        """A, K, Q, J and 10 are honours (definitions; Laws 24 and 50B)."""
        return self >= Rank.TEN

    @classmethod
    def parse(cls, text: str) -> Rank:
        rank = _RANK_NAMES.get(text.strip().upper())
        if rank is None:
            raise ParseError(f"not a rank: {text!r}")
        return rank

    def __str__(self) -> str:
        return self.letter

    def __repr__(self) -> str:
        return f"Rank.{self.name}"


_RANKS = tuple(Rank)
_RANK_NAMES: dict[str, Rank] = {r.letter: r for r in Rank}
_RANK_NAMES.update({"10": Rank.TEN, "X": Rank.TEN, "R": Rank.KING, "V": Rank.JACK,
                    "F": Rank.JACK, "B": Rank.JACK})
# "D" is the French and German queen (Dame); "K" stays the English and German king; "B" is
# the German jack (Bube).


@dataclass(frozen=True, slots=True)
class Card:
    """One of the 52 cards. ``Card.parse("SA")``, ``str(card) == "SA"``."""

    suit: Suit
    rank: Rank
    _hash: int = field(init=False, repr=False, compare=False)
    _text: str = field(init=False, repr=False, compare=False)   # str(card), made once
    index: int = field(init=False, repr=False, compare=False)
    """0-51 in the order ♠A ♠K ... ♠2 ♥A ... ♣2 used by deal files (formats.md §4); made
    once (the hub reads it many times an event: issue 27)."""

    def __post_init__(self) -> None:
        if not isinstance(self.suit, Suit) or not isinstance(self.rank, Rank):
            raise TypeError(f"Card needs a Suit and a Rank, got {self.suit!r}, {self.rank!r}")
        object.__setattr__(self, "_hash", int(self.suit) * 16 + int(self.rank))
        object.__setattr__(self, "_text", self.suit.letter + self.rank.letter)
        object.__setattr__(self, "index", (3 - int(self.suit)) * 13 + (14 - int(self.rank)))

    def __hash__(self) -> int:
        return self._hash

    @classmethod
    def from_index(cls, index: int) -> Card:
        if not 0 <= index < 52:
            raise ValueError(f"card index out of range: {index}")
        return _BY_INDEX[index]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``SA``, ``S10``, ``♠A``, ``AS``, ``10♥``, ``CR`` (French king), ``HD``."""
        cached = _PARSE_CACHE.get(text)
        if cached is not None:
            return cached
        t = text.strip().upper()
        if len(t) >= 2:
            suit = _CARD_SUIT_LETTERS.get(t[0])
            if suit is not None:
                rank = _card_rank(t[1:])
                if rank is not None:
                    return _BY_SUIT_RANK[suit, rank]
            suit = _CARD_SUIT_LETTERS.get(t[-1])
            if suit is not None:
                rank = _card_rank(t[:-1])
                if rank is not None:
                    return _BY_SUIT_RANK[suit, rank]
        raise ParseError(f"not a card: {text!r}")

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


def _card_rank(text: str) -> Rank | None:
    # In card text "D" after a suit letter is the French Dame (queen).
    if text == "D":
        return Rank.QUEEN
    return _RANK_NAMES.get(text)


_BY_SUIT_RANK: dict[tuple[Suit, Rank], Card] = {
    (s, r): Card(s, r) for s in _SUITS for r in _RANKS
}
_BY_INDEX: tuple[Card, ...] = tuple(
    sorted(_BY_SUIT_RANK.values(), key=lambda c: (3 - c.suit) * 13 + (14 - c.rank))
)
ALL_CARDS: tuple[Card, ...] = _BY_INDEX
"""The 52 cards in deal-file order: ♠A ♠K ... ♣2."""

_PARSE_CACHE: dict[str, Card] = {str(c): c for c in ALL_CARDS}
_PARSE_CACHE.update({str(c).lower(): c for c in ALL_CARDS})
