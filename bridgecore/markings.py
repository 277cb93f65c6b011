"""A board's markings: the dealer and the vulnerability printed on the physical board (Law 2).

Law 2 fixes them by the board number (:meth:`Markings.of_board`: North deals board 1, the
cycle of 16 repeats). A hand record may say otherwise (PBN ``Dealer`` and ``Vulnerable``
tags): boards not so marked should not be used, but when such a board is used its markings
govern for the session ([F07] Law 2, the same in the 1997 text; 2017: a correctly marked
board is to be substituted as soon as possible). So the table plays, and is scored with,
the markings; :meth:`Markings.law_2_differences` says what to tell the director. Files
that carry no markings (the dealing machines' DLM, DUP, BRI and DGE formats) are Law 2 by
number.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bridgecore.cards import Seat
from bridgecore.errors import ParseError
from bridgecore.vulnerability import Vulnerability

__all__ = ["Markings"]


@dataclass(frozen=True, slots=True)
class Markings:
    """The dealer and the vulnerability a board is marked with."""

    dealer: Seat
    vulnerability: Vulnerability

    @classmethod
    def of_board(cls, number: int) -> Markings:
        """The Law 2 markings of board ``number``."""
        return cls(Seat.dealer_of(number), Vulnerability.of_board(number))

    @classmethod
    def given(cls, number: int, dealer: Seat | None,
              vulnerability: Vulnerability | None) -> Markings:
        """The markings a hand record gives for board ``number``, Law 2 for what it omits."""
        law_2 = cls.of_board(number)
        return cls(dealer if dealer is not None else law_2.dealer,
                   vulnerability if vulnerability is not None else law_2.vulnerability)

    def law_2_differences(self, number: int) -> tuple[str, ...]:
        """How these markings differ from Law 2 for board ``number`` (empty: they agree),
        e.g. ``("dealer W (Law 2: N)", "vulnerability All (Law 2: None)")``."""
        law_2 = Markings.of_board(number)
        out = []
        if self.dealer is not law_2.dealer:
            out.append(f"dealer {self.dealer.letter} (Law 2: {law_2.dealer.letter})")
        if self.vulnerability is not law_2.vulnerability:
            out.append(f"vulnerability {self.vulnerability} (Law 2: {law_2.vulnerability})")
        return tuple(out)

    def to_json(self) -> dict[str, str]:
        return {"dealer": self.dealer.letter, "vulnerability": str(self.vulnerability)}

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Markings:
        """The inverse of :meth:`to_json`; ParseError for anything else."""
        if not isinstance(obj, Mapping) or set(obj) != {"dealer", "vulnerability"}:
            raise ParseError(f"markings are {{'dealer', 'vulnerability'}}, not {obj!r:.80}")
        dealer, vulnerability = obj["dealer"], obj["vulnerability"]
        if not isinstance(dealer, str) or not isinstance(vulnerability, str):
            raise ParseError(f"markings are two texts, not {dict(obj)!r:.80}")
        return cls(Seat.parse(dealer), Vulnerability.parse(vulnerability))

    def __str__(self) -> str:
        return f"dealer {self.dealer.letter}, vulnerability {self.vulnerability}"
