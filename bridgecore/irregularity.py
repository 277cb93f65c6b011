"""Irregularities as values: what happened, which law, who, when, and the director's options.

The system detects and records; the director rectifies (Laws 9, 10, 81). Each
:class:`Irregularity` therefore carries the rectifications the Laws give as
:class:`Rectification` values for the director to choose from, and nothing in
bridgecore ever applies one by itself. A rectification is said twice: ``text``, its English
words (kept for old clients and logs), and ``say``, the same as a
:class:`~bridgecore.text.Text` (a catalog key and its values: seats, calls, law numbers) that
each reader's application renders in his language (docs/translating.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from bridgecore.cards import Seat
from bridgecore.text import Text

__all__ = ["Irregularity", "Kind", "Rectification"]


class Kind(StrEnum):
    """Kinds of irregularity; the values are the names used in JSON output."""

    # The deal (Laws 1, 7, 13, 14, 15, 87)
    WRONG_CARD_COUNT = "wrong_card_count"
    DUPLICATE_CARD = "duplicate_card"
    MISSING_CARD = "missing_card"
    # The auction (Laws 25-39)
    CALL_OUT_OF_ROTATION = "call_out_of_rotation"
    INSUFFICIENT_BID = "insufficient_bid"
    INADMISSIBLE_DOUBLE = "inadmissible_double"
    INADMISSIBLE_REDOUBLE = "inadmissible_redouble"
    BID_ABOVE_SEVEN = "bid_above_seven"
    CALL_IN_BREACH_OF_PASS_OBLIGATION = "call_in_breach_of_pass_obligation"
    CALL_AFTER_FINAL_PASS = "call_after_final_pass"
    CHANGE_OF_CALL = "change_of_call"
    # The play (Laws 44, 53-67)
    LEAD_OUT_OF_TURN = "lead_out_of_turn"
    PLAY_OUT_OF_TURN = "play_out_of_turn"
    CARD_NOT_IN_HAND = "card_not_in_hand"
    CARD_PLAYED_TWICE = "card_played_twice"
    REVOKE = "revoke"
    # Claims (Laws 68-71)
    DISPUTED_CLAIM = "disputed_claim"



@dataclass(frozen=True, slots=True)
class Rectification:
    """One option the Laws give the director, as data (never applied by the system).

    ``text`` is the option in English; ``say`` the same as a text to render in the reader's
    language (``rect.*`` keys of the console catalog). Make one with :meth:`of`, which writes
    both from one English template."""

    law: str
    text: str
    chooser: str | None = None  # "lho", "declarer", "director", "defenders", ...
    say: Text | None = None

    @classmethod
    def of(cls, law: str, key: str, english: str, chooser: str | None = None, /,
           **values: Any) -> Rectification:
        """``Rectification.of("27A1", "rect.accept_insufficient", "{lho_seat} may accept the
        insufficient bid...", "lho", lho_seat=Seat.NORTH)``: the English template is the
        English catalog's text of ``key`` (a test holds them equal); each value is written
        in its protocol form in ``text`` (``N``, ``2H``) and named by what it is in ``say``
        (bridgecore.text: a field ``..._seat`` is a seat, ``..._call`` a call)."""
        say = Text.of(key, **values)
        return cls(law, english.format(**say.fields), chooser, say)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"law": self.law, "text": self.text}
        if self.chooser is not None:
            out["chooser"] = self.chooser
        if self.say is not None:
            out["say"] = self.say.to_json()
        return out


@dataclass(frozen=True, slots=True)
class Irregularity:
    """A fact found in the record of a board.

    ``call`` is the 1-based index of the call in the auction record, ``trick`` the
    1-based trick number. ``time`` is the time the record gives for the act (the
    device clock), or None when the record has no times. ``transfer`` and
    ``established`` apply to revokes (Laws 63, 64).
    """

    kind: Kind
    law: str
    seat: Seat | None = None
    call: int | None = None
    trick: int | None = None
    time: float | None = None
    detail: str = ""
    options: tuple[Rectification, ...] = ()
    transfer: int | None = None
    established: bool | None = None
    extra: tuple[tuple[str, Any], ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        """The JSON object of ``tenace check --json`` (keys only where they apply)."""
        out: dict[str, Any] = {"kind": self.kind.value, "law": self.law}
        if self.seat is not None:
            out["seat"] = self.seat.letter
        if self.trick is not None:
            out["trick"] = self.trick
        if self.call is not None:
            out["call"] = self.call
        if self.transfer is not None:
            out["transfer"] = self.transfer
        if self.established is not None:
            out["established"] = self.established
        if self.time is not None:
            out["time"] = self.time
        if self.detail:
            out["detail"] = self.detail
        for key, value in self.extra:
            out[key] = value
        if self.options:
            out["options"] = [o.to_json() for o in self.options]
        return out

    def __str__(self) -> str:
        where = []
        if self.seat is not None:
            where.append(f"seat {self.seat}")
        if self.call is not None:
            where.append(f"call {self.call}")
        if self.trick is not None:
            where.append(f"trick {self.trick}")
        place = f" ({', '.join(where)})" if where else ""
        text = f"{self.kind.value.replace('_', ' ')}{place}, Law {self.law}"
        if self.detail:
            text += f": {self.detail}"
        return text
