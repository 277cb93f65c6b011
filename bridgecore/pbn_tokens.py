"""Lexical layer of PBN 2.1 (formats.md §1): tokens, strings, cards, calls, annotations.

One precompiled regular expression cuts a whole file into tokens: escape lines,
newlines, tag pairs, runs of section text (auction, play, table rows), quoted
strings, ``{...}`` and ``;`` comments. Every alternative starts with a distinct
character class and nothing in it can backtrack more than linearly. Section
text is split on whitespace afterwards, and a word with glued annotations
(``2NT?=1=``) is cut into pieces by :func:`split_word`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from bridgecore.calls import ALL_BIDS, DOUBLE, PASS, REDOUBLE, Call
from bridgecore.cards import ALL_CARDS, Card, Seat, Strain, Suit
from bridgecore.deal import Deal, Hand
from bridgecore.play import trick_winner as play_trick_winner

__all__ = [
    "CALLS", "CARDS", "SUFFIX_NAGS", "TOKEN", "fast_deal", "quote", "split_word", "trick_winner",
    "unescape",
]

TOKEN = re.compile(r"""
 (?P<esc>^%[^\n]*)
|[^\S\n]*+(?:
   (?P<nl>\n)
  |(?P<tag>\[\s*(?P<name>[A-Za-z0-9_]+)\s*"(?P<value>(?:[^"\\\n]|\\.)*)"\s*\][^\S\n]*+\n?)
  |(?P<words>[^\s\[\]{};"][^\[\]{};"\n]*\n?)
  |(?P<string>"(?:[^"\\\n]|\\.)*"?)
  |(?P<brace>\{[^}]*\}?)
  |(?P<semi>;[^\n]*)
  |(?P<badtag>\[[^\]\n]*\]?)
  |(?P<other>\S)
  |(?P<end>\Z)
)""", re.M | re.X)
"""The token grammar. ``lastgroup`` names the kind of each match. A tag or a run of words
takes the line end after it, if any, so that most lines are one match."""

_ESCAPE = re.compile(r"\\(.)")
_PIECE = re.compile(r"=[^=]*=?|\$[^!?=$^]*|[!?]+|\^.?|[^!?=$^]+")


def unescape(value: str) -> str:
    r"""A PBN string's text: ``\"`` is a quote, ``\\`` a backslash; other backslashes stay."""
    if "\\" not in value:
        return value
    done = _UNESCAPED.get(value)
    if done is None:
        done = _ESCAPE.sub(lambda m: m.group(1) if m.group(1) in '"\\' else m.group(0), value)
        if len(_UNESCAPED) < 1024:      # a table's columns, the same on every board
            _UNESCAPED[value] = done
    return done


_UNESCAPED: dict[str, str] = {}


_NEEDS_ESCAPE = re.compile(r'\\(?=[\\"]|\Z)')


def quote(text: str) -> str:
    """``text`` as a PBN string, in quotes; a newline, which PBN cannot hold, becomes a space.

    A backslash is doubled only where it would otherwise be read as an escape (before
    a quote, a backslash or the end), so ``Rank\\2R`` stays as table headers are written.
    """
    t = _NEEDS_ESCAPE.sub(r"\\\\", text).replace('"', '\\"')
    if "\n" in t or "\r" in t:
        t = t.replace("\r", " ").replace("\n", " ")
    return f'"{t}"'


def split_word(word: str) -> list[str]:
    """Cut a section word into a token and its glued annotations: ``"2NT?=1="`` -> 2NT ? =1=."""
    return _PIECE.findall(word)


SUFFIX_NAGS: Mapping[str, str] = {"!": "$1", "?": "$2", "!!": "$3", "??": "$4", "!?": "$5",
                                  "?!": "$6"}
"""Call and card suffixes and the NAG each one stands for (PBN 2.1 §3.9.1 / §3.10.1)."""


def _calls() -> dict[str, Call]:
    table: dict[str, Call] = {}
    for call in (*ALL_BIDS, PASS, DOUBLE, REDOUBLE):
        text = str(call)
        for form in (text, text.upper(), text.lower()):
            table[form] = call
    return table


CALLS: Mapping[str, Call] = _calls()
"""Call tokens PBN allows (any case): Pass, X, XX, 1C ... 7NT."""


def _cards() -> dict[str, Card]:
    table: dict[str, Card] = {}
    for card in ALL_CARDS:
        text = str(card)
        for form in (text, text.lower(), text[0] + text[1].lower(), text[0].lower() + text[1]):
            table[form] = card
    return table


CARDS: Mapping[str, Card] = _cards()
"""Card tokens PBN allows (suit then rank, any case): SA ... C2."""

_SEAT_LETTERS = {s.letter: s for s in Seat} | {s.letter.lower(): s for s in Seat}
_SUITS_DOWN = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
_HAND_CARDS = tuple({str(c)[1]: c for c in ALL_CARDS if c.suit is s} for s in _SUITS_DOWN)


_HOLDING = "(A?K?Q?J?T?9?8?7?6?5?4?3?2?)"
_HAND = r"\.".join([_HOLDING] * 4)
_EXPORT_DEAL = re.compile(rf"\s*([NESW]):\s*{_HAND}\s+{_HAND}\s+{_HAND}\s+{_HAND}\s*").fullmatch
_SUIT_CARDS = _HAND_CARDS * 4
_PLAIN_HAND = tuple(Hand.__dataclass_fields__) == ("cards",)


def _hand(cards: tuple[Card, ...]) -> Hand:
    """A Hand of ``cards``, which are in deal order already: the sort is skipped."""
    if not _PLAIN_HAND:
        return Hand(cards)
    hand = Hand.__new__(Hand)
    object.__setattr__(hand, "cards", cards)
    return hand


def fast_deal(text: str) -> Deal | None:
    """Parse a deal written in export form (hands of upper-case ranks in descending order)
    quickly; None when it needs :meth:`Deal.parse`."""
    m = _EXPORT_DEAL(text)
    if m is None:
        return None
    holdings = m.groups()
    first = _SEAT_LETTERS[holdings[0]]
    hands: dict[Seat, Hand] = {}
    for i in range(4):
        cards: list[Card] = []
        for j in range(4 * i + 1, 4 * i + 5):
            lookup = _SUIT_CARDS[j - 1]
            cards += [lookup[ch] for ch in holdings[j]]
        hands[first.offset(i)] = _hand(tuple(cards))
    return Deal(hands)


def trick_winner(cards: Iterable[tuple[Seat, Card]], strain: Strain) -> Seat | None:
    """Who wins a trick whose known cards are ``cards`` in the order played (Law 44).

    The highest trump wins, else the highest card of the suit of the first card
    (:func:`bridgecore.play.trick_winner`). None when no card is known.
    """
    known = tuple(cards)
    if not known:
        return None
    return play_trick_winner(known, None, strain.suit)
