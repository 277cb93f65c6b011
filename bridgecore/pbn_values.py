"""Values of PBN tags (formats.md §1.2, §1.6): Result, Contract, Score, OptimumScore, DD tricks.

Each parser takes the tag's text and raises :class:`~bridgecore.errors.ParseError`
for text that is not such a value. An unknown value (``""``, ``"?"``) is None.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from bridgecore.calls import Contract
from bridgecore.cards import Seat, Side, Strain
from bridgecore.errors import ParseError

__all__ = [
    "DD_SEATS", "DD_STRAINS", "dd_tricks_decode", "dd_tricks_encode", "parse_contract",
    "parse_optimum_score", "parse_result", "parse_score", "parse_strain_only",
]

_UNKNOWN = frozenset({"", "?", "-"})
_RESULT_SIDES = re.compile(r"(NS|EW)\s*([+-]?\d{1,2})(?:\s+(NS|EW)\s*([+-]?\d{1,2}))?", re.I)
_CONTRACT = re.compile(r"([1-7])(NT|N|S|H|D|C)(XX|X|\*\*|\*)?", re.I)
_STRAIN_ONLY = re.compile(r"NT|N|S|H|D|C", re.I)
_SCORE_NUMBER = r"[+-]?\d{1,9}"
_SCORE_SIDES = re.compile(
    rf"(NS|EW)\s*({_SCORE_NUMBER})(?:\s+(NS|EW)\s*({_SCORE_NUMBER}))?", re.I)
_PLAIN_SCORE = re.compile(_SCORE_NUMBER)

DD_SEATS = (Seat.NORTH, Seat.SOUTH, Seat.EAST, Seat.WEST)
"""Declarer order of a DoubleDummyTricks string."""
DD_STRAINS = (Strain.NOTRUMP, Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS)
"""Strain order within each declarer's block of a DoubleDummyTricks string."""


def parse_result(text: str, declarer: Seat | None = None) -> int | None:
    """Tricks won by declarer from a Result tag: ``"9"``, ``"^9"``, ``"NS 9"``, ``"NS 9 EW 4"``.

    A result given by side (``"NS 9"``) needs ``declarer`` to be turned into
    declarer's tricks; without it the answer is None. ``""`` and ``"?"`` are None.
    """
    t = text.strip()
    if t.startswith("^"):
        t = t[1:].strip()
    if t in _UNKNOWN:
        return None
    if t.isdecimal() and len(t) <= 2:
        n = int(t)
        if n > 13:
            raise ParseError(f"a result is 0 to 13 tricks: {text!r}")
        return n
    m = _RESULT_SIDES.fullmatch(t)
    if m is None:
        raise ParseError(f"not a result: {text!r}")
    side = Side(m.group(1).upper())
    n = int(m.group(2))
    if not 0 <= n <= 13:
        raise ParseError(f"a result is 0 to 13 tricks: {text!r}")
    if m.group(3) is not None:
        other = Side(m.group(3).upper())
        if other is side or n + int(m.group(4)) != 13:
            raise ParseError(f"the two sides' tricks do not make 13: {text!r}")
    if declarer is None:
        return None
    return n if declarer.side is side else 13 - n


def parse_contract(text: str, declarer: Seat | None = None) -> tuple[Contract | None, bool]:
    """A Contract tag as ``(contract, passed_out)``: ``"4HX"``, ``"3NT"``, ``"Pass"``.

    Also the import forms ``4N`` (Magic Contest) and ``3S*`` (Bridgewebs, doubled).
    ``""`` and ``"?"`` give ``(None, False)``.
    """
    t = text.strip()
    if t in _UNKNOWN:
        return None, False
    if t.upper() == "PASS":
        return None, True
    m = _CONTRACT.fullmatch(t.replace(" ", ""))
    if m is None:
        raise ParseError(f"not a contract: {text!r}")
    return Contract.parse(t, declarer), False


def parse_strain_only(text: str) -> Strain | None:
    """The denomination of an end-position Contract tag (``"H"``, ``"NT"``), else None."""
    t = text.strip()
    if _STRAIN_ONLY.fullmatch(t) is None:
        return None
    return Strain.parse(t)


def parse_score(text: str, declarer: Seat | None = None) -> int | None:
    """North-South's score from a Score tag: ``"NS 620"``, ``"EW -100"``, ``"NS 50 EW -50"``.

    A bare number (``"620"``) is declarer's score and needs ``declarer``;
    without it the answer is None. ``""`` and ``"?"`` are None.
    """
    t = text.strip()
    if t in _UNKNOWN:
        return None
    if _PLAIN_SCORE.fullmatch(t):
        if declarer is None:
            return None
        points = int(t)
        return points if declarer.side is Side.NS else -points
    m = _SCORE_SIDES.fullmatch(t)
    if m is None:
        raise ParseError(f"not a score: {text!r}")
    points = int(m.group(2))
    return points if m.group(1).upper() == "NS" else -points


def parse_optimum_score(text: str) -> int:
    """North-South's double-dummy par score from an OptimumScore tag: ``"NS 620"`` -> 620."""
    m = _SCORE_SIDES.fullmatch(text.strip())
    if m is None or m.group(3) is not None:
        raise ParseError(f"not an optimum score (side and points): {text!r}")
    value = int(m.group(2))
    return value if m.group(1).upper() == "NS" else -value


def dd_tricks_decode(text: str) -> dict[tuple[Seat, Strain], int]:
    """Decode a DoubleDummyTricks string: 20 hex digits, declarers N,S,E,W x NT,S,H,D,C."""
    t = text.strip()
    if len(t) != 20:
        raise ParseError(f"DoubleDummyTricks needs 20 hex digits: {text!r}")
    out: dict[tuple[Seat, Strain], int] = {}
    for i, ch in enumerate(t):
        try:
            n = int(ch, 16)
        except ValueError:
            raise ParseError(f"not a hex digit {ch!r} in DoubleDummyTricks {text!r}") from None
        if n > 13:
            raise ParseError(f"more than 13 tricks ({ch!r}) in DoubleDummyTricks {text!r}")
        out[DD_SEATS[i // 5], DD_STRAINS[i % 5]] = n
    return out


def dd_tricks_encode(tricks: Mapping[tuple[Seat, Strain], int]) -> str:
    """The DoubleDummyTricks string of a table from :func:`dd_tricks_decode`."""
    digits = []
    for seat in DD_SEATS:
        for strain in DD_STRAINS:
            n = tricks[seat, strain]
            if not 0 <= n <= 13:
                raise ValueError(f"tricks out of range for {seat}{strain}: {n}")
            digits.append(format(n, "x"))
    return "".join(digits)
