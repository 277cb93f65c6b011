"""Calls and contracts (Laws 18, 19, 22).

``Call.parse("1NT")``, ``str(call) == "1NT"``. A call's identity excludes its
metadata: an alert or an explanation sits beside the call in the auction
record, never inside the call.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from bridgecore.cards import Seat, Strain
from bridgecore.errors import ParseError

__all__ = ["ALL_BIDS", "DOUBLE", "PASS", "REDOUBLE", "Call", "CallKind", "Contract", "Risk"]


class CallKind(IntEnum):
    PASS = 0
    BID = 1
    DOUBLE = 2
    REDOUBLE = 3


@dataclass(frozen=True, slots=True)
class Call:
    """Pass, double, redouble or a bid of a level and a strain.

    Bids above seven can be represented, because a stream of calls can contain
    one and Law 38 must then be applied; ``is_legal_level`` tells.
    """

    kind: CallKind
    level: int = 0
    strain: Strain | None = None

    def __post_init__(self) -> None:
        if self.kind is CallKind.BID:
            if self.level < 1 or self.strain is None:
                raise ValueError(f"a bid needs a level from 1 and a strain: {self!r}")
        elif self.level != 0 or self.strain is not None:
            raise ValueError(f"only bids have a level and a strain: {self.kind.name}")

    @classmethod
    def bid(cls, level: int, strain: Strain) -> Call:
        return cls(CallKind.BID, level, strain)

    @property
    def is_bid(self) -> bool:
        return self.kind is CallKind.BID

    @property
    def is_pass(self) -> bool:
        return self.kind is CallKind.PASS

    @property
    def is_legal_level(self) -> bool:
        return self.kind is not CallKind.BID or self.level <= 7

    @property
    def rank(self) -> int:
        """Bidding rank: 1C is 0, 1D is 1, ... 7NT is 34 (Law 18B-E). Bids only."""
        if self.strain is None:
            raise ValueError(f"{self} is not a bid")
        return (self.level - 1) * 5 + int(self.strain)

    def supersedes(self, other: Call) -> bool:
        """True when this bid supersedes ``other`` (Law 18B): more tricks, or higher strain."""
        return self.rank > other.rank

    @classmethod
    def parse(cls, text: str) -> Call:
        """Parse ``Pass``/``P``, ``X``, ``XX``/``R`` and bids ``1NT``, ``3♠``, ``2SA``."""
        cached = _PARSE_CACHE.get(text)
        if cached is not None:
            return cached
        t = text.strip().upper().replace(" ", "")
        simple = _NAMED.get(t)
        if simple is not None:
            return simple
        if t and t[0] in "0123456789":
            digits = ""
            i = 0
            while i < len(t) and t[i] in "0123456789":
                digits += t[i]
                i += 1
            strain_text = t[i:]
            try:
                strain = Strain.parse(strain_text)
            except ParseError:
                raise ParseError(f"not a call: {text!r}") from None
            level = int(digits)
            if level < 1:
                raise ParseError(f"not a call (level 0): {text!r}")
            return cls.bid(level, strain)
        raise ParseError(f"not a call: {text!r}")

    def __str__(self) -> str:
        if self.kind is CallKind.BID:
            assert self.strain is not None
            return f"{self.level}{self.strain.symbol}"
        return _NAMES[self.kind]

    def __repr__(self) -> str:
        return f"Call.parse({str(self)!r})"


_NAMES = {CallKind.PASS: "Pass", CallKind.DOUBLE: "X", CallKind.REDOUBLE: "XX"}
PASS = Call(CallKind.PASS)
DOUBLE = Call(CallKind.DOUBLE)
REDOUBLE = Call(CallKind.REDOUBLE)
_NAMED = {
    "PASS": PASS, "P": PASS, "PASSE": PASS, "PASSO": PASS, "-": PASS,
    "X": DOUBLE, "D": DOUBLE, "DBL": DOUBLE, "DOUBLE": DOUBLE, "CONTRE": DOUBLE,
    "CONTRO": DOUBLE,
    "XX": REDOUBLE, "R": REDOUBLE, "RDBL": REDOUBLE, "REDOUBLE": REDOUBLE,
    "SURCONTRE": REDOUBLE, "SURCONTRO": REDOUBLE,
}
ALL_BIDS: tuple[Call, ...] = tuple(Call.bid(level, s) for level in range(1, 8) for s in Strain)
_PARSE_CACHE: dict[str, Call] = {str(c): c for c in (*ALL_BIDS, PASS, DOUBLE, REDOUBLE)}
_PARSE_CACHE.update({"1N": ALL_BIDS[4]} | {f"{lv}N": Call.bid(lv, Strain.NOTRUMP)
                                            for lv in range(1, 8)})


class Risk(IntEnum):
    """Undoubled, doubled or redoubled (Law 19D)."""

    UNDOUBLED = 0
    DOUBLED = 1
    REDOUBLED = 2

    @property
    def suffix(self) -> str:
        return ("", "X", "XX")[self]


@dataclass(frozen=True, slots=True)
class Contract:
    """A contract: level, strain, risk and, when known, the declarer."""

    level: int
    strain: Strain
    risk: Risk = Risk.UNDOUBLED
    declarer: Seat | None = None

    def __post_init__(self) -> None:
        if not 1 <= self.level <= 7:
            raise ValueError(f"a contract is from one to seven (Law 38A): level {self.level}")

    @property
    def tricks_needed(self) -> int:
        return self.level + 6

    @classmethod
    def parse(cls, text: str, declarer: Seat | None = None) -> Contract:
        """Parse ``4S``, ``3NTX``, ``1CXX``, ``4N`` (Magic Contest), ``3S*`` (Bridgewebs double)."""
        t = text.strip().upper().replace(" ", "")
        risk = Risk.UNDOUBLED
        if t.endswith("XX") or t.endswith("**"):
            risk, t = Risk.REDOUBLED, t[:-2]
        elif t.endswith("X") or t.endswith("*"):
            risk, t = Risk.DOUBLED, t[:-1]
        if len(t) >= 2 and t[0] in "1234567":
            try:
                strain = Strain.parse(t[1:])
            except ParseError:
                raise ParseError(f"not a contract: {text!r}") from None
            return cls(int(t[0]), strain, risk, declarer)
        raise ParseError(f"not a contract: {text!r}")

    def __str__(self) -> str:
        return f"{self.level}{self.strain.symbol}{self.risk.suffix}"

    def __repr__(self) -> str:
        if self.declarer is None:
            return f"Contract.parse({str(self)!r})"
        return f"Contract.parse({str(self)!r}, {self.declarer!r})"
