"""Decks: which tag is which card. Every card of a pack carries an NFC tag whose UID says
nothing of the card, so each pack is enrolled once: its 52 tags read in a known order
(formats.md §6.1, "deck calibration"). A club has one pack per board; an event may use many.

:class:`DeckStore` keeps the enrolled decks in one JSON file (written atomically), maps a
UID to its deck and card, and knows the boards each deck is the pack of (optional: with it,
a card of another pack is recognised as foreign from the first card read).
:class:`Enrolment` is the guided reading of one deck: it says which card comes next
(``12/52: next the 4 of spades``), takes each tag, and refuses with a reason a tag read
twice or already enrolled in another deck. :func:`enrol` runs it on a card reader.

Errors::

    DeckError (ValueError)      a deck file that cannot be read or written, a bad deck
"""

from __future__ import annotations

import json
import logging
import os
import re
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bridgecore.cards import ALL_CARDS, Card, Rank, Suit
from firmware_bridge.errors import DeckError
from firmware_bridge.readers import CardReader, ReaderStatus, normalise_uid

__all__ = ["ENROL_ORDER", "Deck", "DeckError", "DeckStore", "Enrolment", "card_words",
           "enrol"]

log = logging.getLogger(__name__)

FORMAT = "tenace-decks"
VERSION = 1
ENROL_ORDER: tuple[Card, ...] = ALL_CARDS
"""The order of enrolment: spades ace to two, then hearts, diamonds, clubs (a new pack's
order, and the deal files' card order)."""

_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,32}$")
_RANK_WORDS = {Rank.ACE: "ace", Rank.KING: "king", Rank.QUEEN: "queen", Rank.JACK: "jack",
               Rank.TEN: "10"}
_SUIT_WORDS = {Suit.SPADES: "spades", Suit.HEARTS: "hearts", Suit.DIAMONDS: "diamonds",
               Suit.CLUBS: "clubs"}


def card_words(card: Card) -> str:
    """``the 4 of spades``, ``the ace of hearts``: what the enrolment asks for."""
    rank = _RANK_WORDS.get(card.rank, str(int(card.rank)))
    return f"the {rank} of {_SUIT_WORDS[card.suit]}"


def check_name(name: str) -> str:
    if not isinstance(name, str) or not _NAME.match(name):
        raise DeckError(f"deck name {name!r}: letters, digits, '_', '.' or '-', 1-32 "
                        "characters")
    return name


@dataclass(frozen=True, slots=True)
class Deck:
    """One enrolled pack: its ``name``, tag UID -> card (52 of each), and the ``boards``
    it is the pack of (empty: not said)."""

    name: str
    cards: Mapping[str, Card]
    boards: tuple[int, ...] = ()
    enrolled: float = 0.0

    def __post_init__(self) -> None:
        check_name(self.name)
        problems = []
        if len(self.cards) != 52:
            problems.append(f"{len(self.cards)} tags, not 52")
        seen = set(self.cards.values())
        missing = [str(c) for c in ALL_CARDS if c not in seen]
        if missing:
            problems.append(f"no tag for {', '.join(missing)}")
        if any(b < 1 for b in self.boards):
            problems.append(f"board numbers start at 1: {list(self.boards)}")
        if problems:
            raise DeckError(f"deck {self.name}: " + "; ".join(problems))

    def to_json(self) -> dict[str, Any]:
        return {"boards": list(self.boards), "enrolled": self.enrolled,
                "cards": {uid: str(card) for uid, card in self.cards.items()}}

    @classmethod
    def from_json(cls, name: str, obj: Any) -> Deck:
        if not isinstance(obj, dict) or not isinstance(obj.get("cards"), dict):
            raise DeckError(f"deck {name}: not an object with its cards")
        try:
            cards = {normalise_uid(uid): Card.parse(text)
                     for uid, text in obj["cards"].items()}
            boards = tuple(int(b) for b in obj.get("boards") or ())
            enrolled = float(obj.get("enrolled") or 0.0)
        except (ValueError, TypeError) as err:
            raise DeckError(f"deck {name}: {err}") from err
        return cls(name, cards, boards, enrolled)


class DeckStore:
    """The decks of an event (module docstring). ``DeckStore.load(path)`` reads the file
    (none yet: an empty store); :meth:`save` writes it. ``DeckStore()`` keeps them in
    memory only."""

    def __init__(self, path: Path | None = None, decks: Iterable[Deck] = ()):
        self.path = path
        self.decks: dict[str, Deck] = {}
        self._by_uid: dict[str, tuple[str, Card]] = {}
        for deck in decks:
            self.add(deck)

    @classmethod
    def load(cls, path: Path | str) -> DeckStore:
        path = Path(path)
        store = cls(path)
        if not path.exists():
            return store
        try:
            obj = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
            raise DeckError(f"deck file {path}: cannot read it: {err}") from err
        if not isinstance(obj, dict) or obj.get("format") != FORMAT:
            raise DeckError(f"deck file {path}: not a Tenace deck file")
        if obj.get("version") != VERSION:
            raise DeckError(f"deck file {path}: version {obj.get('version')!r}, this "
                            f"program reads version {VERSION}")
        decks = obj.get("decks")
        if not isinstance(decks, dict):
            raise DeckError(f"deck file {path}: no decks")
        problems = []
        for name, body in decks.items():
            try:
                store.add(Deck.from_json(name, body))
            except DeckError as err:
                problems.append(str(err))
        if problems:
            raise DeckError(f"deck file {path}: " + "; ".join(problems))
        return store

    def save(self) -> None:
        """Write the file (a temporary file renamed over it: never half written)."""
        if self.path is None:
            raise DeckError("this deck store has no file")
        obj = {"format": FORMAT, "version": VERSION,
               "decks": {name: deck.to_json() for name, deck in sorted(self.decks.items())}}
        tmp = self.path.with_name(self.path.name + ".tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_text(json.dumps(obj, indent=1) + "\n", encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError as err:
            raise DeckError(f"deck file {self.path}: cannot write it: {err}") from err

    def add(self, deck: Deck, *, replace: bool = False) -> None:
        """Add ``deck``; DeckError when its name is taken (unless ``replace``) or one of its
        tags is another deck's."""
        if deck.name in self.decks and not replace:
            raise DeckError(f"deck {deck.name} is enrolled already")
        clashes = [f"{uid} ({other} {card})" for uid in deck.cards
                   if (found := self._by_uid.get(uid)) is not None
                   for other, card in [found] if other != deck.name]
        if clashes:
            raise DeckError(f"deck {deck.name}: tags already in other decks: "
                            + ", ".join(clashes))
        self.remove(deck.name)
        self.decks[deck.name] = deck
        for uid, card in deck.cards.items():
            self._by_uid[uid] = (deck.name, card)

    def remove(self, name: str) -> None:
        old = self.decks.pop(name, None)
        if old is not None:
            for uid in old.cards:
                self._by_uid.pop(uid, None)

    def lookup(self, uid: str) -> tuple[str, Card] | None:
        """(deck name, card) of a tag, or None for a tag of no enrolled deck."""
        return self._by_uid.get(uid)

    def decks_for_board(self, board: int) -> list[str]:
        """The decks enrolled as the pack of ``board`` (sections may share board numbers)."""
        return sorted(name for name, deck in self.decks.items() if board in deck.boards)

    def __len__(self) -> int:
        return len(self.decks)


class Enrolment:
    """Reading one deck's 52 tags in :data:`ENROL_ORDER` (module docstring)."""

    def __init__(self, name: str, store: DeckStore, boards: Iterable[int] = ()):
        self.name = check_name(name)
        self.store = store
        self.boards = tuple(boards)
        self.cards: dict[str, Card] = {}

    @property
    def next_card(self) -> Card | None:
        n = len(self.cards)
        return ENROL_ORDER[n] if n < 52 else None

    @property
    def done(self) -> bool:
        return len(self.cards) == 52

    @property
    def progress(self) -> str:
        """``12/52: next the 4 of spades`` (the count of tags read so far)."""
        card = self.next_card
        n = len(self.cards)
        if card is None:
            return f"52/52: deck {self.name} complete"
        return f"{n}/52: next {card_words(card)}"

    def offer(self, uid: str) -> tuple[bool, str]:
        """Take the tag read for the next card: (taken, what to tell the person enrolling)."""
        card = self.next_card
        if card is None:
            return False, f"deck {self.name} is complete: {uid} not taken"
        was = self.cards.get(uid)
        if was is not None:
            return False, (f"{uid} was read already as {card_words(was)}: present "
                           f"{card_words(card)}")
        found = self.store.lookup(uid)
        if found is not None and found[0] != self.name:
            return False, (f"{uid} is {card_words(found[1])} of deck {found[0]}: not of "
                           f"this pack? present {card_words(card)} of deck {self.name}")
        self.cards[uid] = card
        return True, f"{card_words(card)}: {uid}"

    def deck(self) -> Deck:
        """The deck read (DeckError before all 52 tags are)."""
        if not self.done:
            raise DeckError(f"deck {self.name}: {len(self.cards)}/52 tags read")
        return Deck(self.name, dict(self.cards), self.boards, time.time())


def enrol(reader: CardReader, store: DeckStore, name: str, *, boards: Iterable[int] = (),
          say: Callable[[str], None] = print, replace: bool = False,
          timeout: float | None = None) -> Deck:
    """Enrol the deck ``name`` from ``reader``: says what to present next, takes each tag,
    adds the deck to ``store`` and saves it (when the store has a file). DeckError when
    ``timeout`` seconds pass without a tag, or the name is taken (unless ``replace``)."""
    if name in store.decks and not replace:
        raise DeckError(f"deck {name} is enrolled already (replace it explicitly)")
    enrolment = Enrolment(name, store, boards)
    say(f"enrolling deck {name} on {reader.spec}: present each card in turn")
    say(enrolment.progress)
    while not enrolment.done:
        event = reader.read(timeout)
        if event is None:
            raise DeckError(f"deck {name}: no tag read for {timeout} s at "
                            f"{enrolment.progress}; nothing saved")
        if isinstance(event, ReaderStatus):
            say(f"reader {event.reader}: {event.detail}")
            continue
        taken, message = enrolment.offer(event.uid)
        say(message if taken else f"refused: {message}")
        if taken:
            say(enrolment.progress)
    deck = enrolment.deck()
    store.add(deck, replace=replace)
    if store.path is not None:
        store.save()
    say(f"deck {name} saved" + (f" to {store.path}" if store.path else ""))
    return deck
