"""Reading what a user types, in the notation of the user's language.

The letters of the honours, of no trump, of the calls and of the seats differ between the
federations, and some letters mean different things in two languages:

====== ============ ========== ============ ===========================================
letter English      French     German       Dutch / Spanish / Polish / Italian
====== ============ ========== ============ ===========================================
``V``  (none)       jack       (none)       Dutch queen (vrouw); Spanish jack (valet)
``H``  hearts       (none)     (none)       Dutch king (heer)
``D``  diamonds     queen      queen        Spanish, Polish, Italian queen (dama, donna)
``R``  (redouble)   king       (none)       Spanish, Italian king (rey, re)
``B``  (none)       (none)     jack (Bube)  Dutch jack (boer)
``W``  West         (none)     West         Polish jack (walet); Dutch West
``O``  (none)       West       East (Ost)   Dutch East (oost); Spanish, Italian West
====== ============ ========== ============ ===========================================

So a text is read with the table of ONE language, the user's: :func:`notation` gives it.
Each table is the English one (A K Q J, T or 10, NT, Pass X XX, N E S W, the suit letters
S H D C and the symbols) overlaid with the language's own letters and words, the
language's meaning winning where the two clash (Dutch ``V`` is a queen, never a French
jack). Suits are written with the symbols or the English letters S H D C in every language:
the native initials clash within a language (Polish kier and karo are both K) or with the
English letters (Spanish C is corazones, hearts; English C is clubs), so they are not read.

A language this module does not list (a federation that added only a catalog) gets the
English table overlaid with the labels its catalog gives (``labels``: rank, no-trump,
pass and seat letters, as the screens show them), so what a screen shows is read back.

Card files and devices keep using :meth:`Card.parse` and friends (their format's notation,
not a user's language).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bridgecore.calls import DOUBLE, PASS, REDOUBLE, Call, Contract, Risk
from bridgecore.cards import Card, Rank, Seat, Strain, Suit
from bridgecore.errors import ParseError

__all__ = ["LANGUAGES", "Notation", "notation"]

_SUITS = {"S": Suit.SPADES, "♠": Suit.SPADES, "♤": Suit.SPADES,
          "H": Suit.HEARTS, "♥": Suit.HEARTS, "♡": Suit.HEARTS,
          "D": Suit.DIAMONDS, "♦": Suit.DIAMONDS, "♢": Suit.DIAMONDS,
          "C": Suit.CLUBS, "♣": Suit.CLUBS, "♧": Suit.CLUBS}
_SUIT_STRAINS = {k: Strain.of(v) for k, v in _SUITS.items()}

_ENGLISH_RANKS = {**{str(n): Rank(n) for n in range(2, 10)}, "10": Rank.TEN, "T": Rank.TEN,
                  "A": Rank.ACE, "K": Rank.KING, "Q": Rank.QUEEN, "J": Rank.JACK}
_ENGLISH_CALLS = {"PASS": PASS, "P": PASS, "-": PASS, "X": DOUBLE, "DBL": DOUBLE,
                  "DOUBLE": DOUBLE, "XX": REDOUBLE, "RDBL": REDOUBLE, "REDOUBLE": REDOUBLE}
_ENGLISH_SEATS = {"N": Seat.NORTH, "NORTH": Seat.NORTH, "E": Seat.EAST, "EAST": Seat.EAST,
                  "S": Seat.SOUTH, "SOUTH": Seat.SOUTH, "W": Seat.WEST, "WEST": Seat.WEST}

K, Q, J = Rank.KING, Rank.QUEEN, Rank.JACK
N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST

# Each language's own letters and words (docs/translating.md gives the sources): ranks,
# no-trump names, calls, seats. Upper case; a word with spaces is also read without them.
_OWN: dict[str, tuple[dict[str, Rank], tuple[str, ...], dict[str, Call], dict[str, Seat]]] = {
    "en": ({}, ("NT", "N", "NOTRUMP", "NOTRUMPS", "NO TRUMP"), {}, {}),
    "fr": ({"R": K, "D": Q, "V": J}, ("SA", "SANS ATOUT"),
           {"PASSE": PASS, "CONTRE": DOUBLE, "SURCONTRE": REDOUBLE},
           {"O": W, "NORD": N, "EST": E, "SUD": S, "OUEST": W}),
    "it": ({"R": K, "D": Q, "F": J}, ("SA", "SENZA ATOUT"),
           {"PASSO": PASS, "CONTRO": DOUBLE, "SURCONTRO": REDOUBLE},
           {"O": W, "NORD": N, "EST": E, "SUD": S, "OVEST": W}),
    "de": ({"D": Q, "B": J}, ("SA", "OT", "SANS ATOUT", "OHNE TRUMPF"),
           {"PASSE": PASS, "KONTRA": DOUBLE, "REKONTRA": REDOUBLE},
           {"O": E, "NORD": N, "OST": E, "SÜD": S, "SUED": S}),
    "nl": ({"H": K, "V": Q, "B": J}, ("SA", "ZT", "SANS ATOUT", "ZONDER TROEF"),
           {"PAS": PASS, "DOUBLET": DOUBLE, "REDOUBLET": REDOUBLE},
           {"O": E, "Z": S, "NOORD": N, "OOST": E, "ZUID": S}),
    "es": ({"R": K, "D": Q, "V": J}, ("ST", "SIN TRIUNFO", "SINTRIUNFO"),
           {"PASO": PASS, "DOBLO": DOUBLE, "REDOBLO": REDOUBLE},
           {"O": W, "NORTE": N, "ESTE": E, "SUR": S, "OESTE": W}),
    "pl": ({"D": Q, "W": J}, ("BA", "BEZ ATU"),
           {"PAS": PASS, "KONTRA": DOUBLE, "REKONTRA": REDOUBLE},
           {"PÓŁNOC": N, "WSCHÓD": E, "POŁUDNIE": S, "ZACHÓD": W}),
}
LANGUAGES: tuple[str, ...] = tuple(_OWN)
"""The languages with a table of their own; any other gets English and its labels."""


@dataclass(frozen=True)
class Notation:
    """The letters and words of one language; ``read_*`` raise ParseError naming the text."""

    language: str
    ranks: Mapping[str, Rank]
    notrump: frozenset[str]
    calls: Mapping[str, Call]
    seats: Mapping[str, Seat]

    def read_rank(self, text: str) -> Rank:
        rank = self.ranks.get(_key(text))
        if rank is None:
            raise ParseError(f"not a rank in {self.language}: {text!r}")
        return rank

    def read_strain(self, text: str) -> Strain:
        key = _key(text)
        if key in self.notrump or key.replace(" ", "") in self.notrump:
            return Strain.NOTRUMP
        strain = _SUIT_STRAINS.get(key)
        if strain is None:
            raise ParseError(f"not a strain in {self.language}: {text!r}")
        return strain

    def read_card(self, text: str) -> Card:
        """``♠V`` is the queen of spades in Dutch, the jack in French; ``HH`` the Dutch king
        of hearts; the suit first or last (``SK``, ``KS``, ``10♥``)."""
        key = _key(text).replace(" ", "")
        if len(key) >= 2:
            for suit, rank in ((key[0], key[1:]), (key[-1], key[:-1])):
                if suit in _SUITS and rank in self.ranks:
                    return Card(_SUITS[suit], self.ranks[rank])
        raise ParseError(f"not a card in {self.language}: {text!r}")

    def read_call(self, text: str) -> Call:
        """``Pas`` (Dutch, Polish), ``Paso``, ``Kontra``, ``3SA``, ``1♥``, ``X``."""
        key = _key(text)
        named = self.calls.get(key)
        if named is not None:
            return named
        if key[:1] in "1234567" and len(key) > 1:
            return Call.bid(int(key[0]), self.read_strain(key[1:]))
        raise ParseError(f"not a call in {self.language}: {text!r}")

    def read_contract(self, text: str, declarer: Seat | None = None) -> Contract:
        """``4♠X``, ``3SAXX`` (French, Dutch, German), ``3ST`` (Spanish), ``3BA`` (Polish)."""
        key = _key(text).replace(" ", "")
        risk = Risk.UNDOUBLED
        if key.endswith("XX"):
            risk, key = Risk.REDOUBLED, key[:-2]
        elif key.endswith("X"):
            risk, key = Risk.DOUBLED, key[:-1]
        if len(key) >= 2 and key[0] in "1234567":
            try:
                return Contract(int(key[0]), self.read_strain(key[1:]), risk, declarer)
            except ParseError:
                pass
        raise ParseError(f"not a contract in {self.language}: {text!r}")

    def read_seat(self, text: str) -> Seat:
        """``O`` is East in German and Dutch, West in French, Italian and Spanish."""
        seat = self.seats.get(_key(text))
        if seat is None:
            raise ParseError(f"not a seat in {self.language}: {text!r} "
                             f"(one of {', '.join(sorted(k for k in self.seats if len(k) == 1))})")
        return seat


def notation(language: str, labels: Mapping[str, str] | None = None) -> Notation:
    """The table of ``language`` (``"nl"``, ``"pt_BR"``: its base language when it has
    none of its own). ``labels`` (optional): what the language's catalog shows, by the
    catalog's keys ``rank.K``, ``rank.Q``, ``rank.J``, ``rank.T``, ``strain.NT``,
    ``call.Pass``, ``letter.N`` ...; they are read too, over the English table, for a
    language with no table here (a built-in table already holds its catalog's letters)."""
    base = language.split("_")[0].split("-")[0].lower()
    ranks, notrump, calls, seats = _OWN.get(base, ({}, (), {}, {}))
    ranks, calls, seats = dict(ranks), dict(calls), dict(seats)
    nt = set(notrump) | {"NT"}
    if base not in _OWN and labels:
        for letter in "AKQJT":
            label = labels.get(f"rank.{letter}")
            if label:
                ranks[_key(label)] = Rank.parse(letter)
        if labels.get("strain.NT"):
            nt.add(_key(labels["strain.NT"]))
        if labels.get("call.Pass"):
            calls[_key(labels["call.Pass"])] = PASS
        for letter in "NESW":
            label = labels.get(f"letter.{letter}")
            if label:
                seats[_key(label)] = Seat.parse(letter)
    return Notation(language, {**_ENGLISH_RANKS, **ranks}, frozenset(nt),
                    {**_ENGLISH_CALLS, **calls}, {**_ENGLISH_SEATS, **seats})


def _key(text: str) -> str:
    return " ".join(str(text).upper().split())
