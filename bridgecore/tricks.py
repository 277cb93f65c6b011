"""A trick and who wins it (Laws 44E, 44F): the values :mod:`bridgecore.play` builds and
:mod:`bridgecore.revoke` reads (so neither imports the other for them)."""

from __future__ import annotations

from dataclasses import dataclass

from bridgecore.cards import Card, Seat, Suit

__all__ = ["Played", "Trick", "trick_winner"]

Played = tuple[tuple[Seat, Card], ...]


def trick_winner(cards: Played, led: Suit | None, trump: Suit | None) -> Seat:
    """The highest trump, else the highest card of the suit led (44E, 44F)."""
    if led is None:
        led = cards[0][1].suit

    def strength(entry: tuple[Seat, Card]) -> tuple[int, int]:
        card = entry[1]
        return (2 if card.suit is trump else 1 if card.suit is led else 0, card.rank)

    return max(cards, key=strength)[0]


@dataclass(frozen=True, slots=True)
class Trick:
    """A trick: the cards as played, in order; ``leader`` is the seat whose card was led
    (after an accepted lead out of turn, the offender); ``winner`` once complete;
    ``withdrawn`` the cards led out of turn and taken back (53C)."""

    number: int
    leader: Seat
    cards: Played = ()
    winner: Seat | None = None
    withdrawn: Played = ()

    @property
    def led_suit(self) -> Suit | None:
        card = self.card_of(self.leader)
        return None if card is None else card.suit

    @property
    def is_complete(self) -> bool:
        return self.winner is not None

    def card_of(self, seat: Seat) -> Card | None:
        for s, c in self.cards:
            if s is seat:
                return c
        return None

    def __str__(self) -> str:
        played = " ".join(f"{s}:{c}" for s, c in self.cards)
        won = f", won by {self.winner}" if self.winner is not None else ""
        return f"trick {self.number} led by {self.leader}: {played}{won}"
