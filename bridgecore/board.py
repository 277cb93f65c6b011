"""A board being played: the deal, the auction, then the play, as one aggregate.

:class:`Board` is what a table's state machine holds: ``push_call`` and
``push_card`` record anything (a log is replayed this way) and return the
irregularities; ``make_call`` and ``play_card`` are the checked forms; ``pop``
undoes the last call or card, whichever came last. The play starts when the
auction ends with a contract. :meth:`Board.outcome` gives the result and the
Law 77 score once the board is over.
"""

from __future__ import annotations

from dataclasses import dataclass

from bridgecore.auction import Auction
from bridgecore.calls import Call, Contract
from bridgecore.cards import Card, Seat
from bridgecore.deal import Deal
from bridgecore.editions import DEFAULT_EDITION, Edition
from bridgecore.errors import StateError
from bridgecore.irregularity import Irregularity
from bridgecore.play import Play
from bridgecore.revoke import Attention
from bridgecore.scoring import score_ns
from bridgecore.vulnerability import Vulnerability

__all__ = ["Board", "Outcome"]


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a board: contract (None when passed out), tricks and North-South's score."""

    contract: Contract | None
    passed_out: bool
    tricks: int | None
    tricks_rectified: int | None
    score_ns: int


class Board:
    """One board at one table: ``Board(number, deal)``; dealer and vulnerability per Law 2
    unless the board's markings say otherwise (markings govern, Law 2)."""

    __slots__ = ("_history", "auction", "deal", "dealer", "edition", "number", "play",
                 "vulnerability")

    def __init__(self, number: int, deal: Deal, *, dealer: Seat | None = None,
                 vulnerability: Vulnerability | None = None,
                 edition: Edition = DEFAULT_EDITION):
        self.number = number
        self.deal = deal
        self.dealer = dealer if dealer is not None else Seat.dealer_of(number)
        self.vulnerability = (vulnerability if vulnerability is not None
                              else Vulnerability.of_board(number))
        self.edition = edition
        self.auction = Auction(self.dealer, edition)
        self.play: Play | None = None
        self._history: list[str] = []

    # Phase ------------------------------------------------------------------------------
    @property
    def phase(self) -> str:
        """``"auction"``, ``"play"`` or ``"over"``."""
        if not self.auction.is_over:
            return "auction"
        if self.play is None:
            return "over"  # passed out
        if self.play.is_complete or self.play.result().claimed:
            return "over"
        return "play"

    @property
    def turn(self) -> Seat | None:
        if not self.auction.is_over:
            return self.auction.turn
        return None if self.play is None else self.play.turn

    # Recording ----------------------------------------------------------------------------
    def push_call(self, seat: Seat, call: Call, time: float | None = None, *,
                  alert: bool = False, explanation: str | None = None
                  ) -> tuple[Irregularity, ...]:
        if self.play is not None and self.play.history:
            raise StateError(f"board {self.number}: a call after the play has started")
        found = self.auction.push(seat, call, time, alert=alert, explanation=explanation)
        self._history.append("call")
        self._start_play()
        return found

    def make_call(self, seat: Seat, call: Call, time: float | None = None) -> None:
        self.auction.make_call(seat, call, time)
        self._history.append("call")
        self._start_play()

    def push_card(self, seat: Seat, card: Card, time: float | None = None
                  ) -> tuple[Irregularity, ...]:
        play = self._require_play()
        found = play.push(seat, card, time)
        self._history.append("card")
        return found

    def play_card(self, seat: Seat, card: Card, time: float | None = None) -> None:
        play = self._require_play()
        play.play_card(seat, card, time)
        self._history.append("card")

    def pop(self) -> Call | Card:
        """Undo the last call or card."""
        if not self._history:
            raise StateError(f"board {self.number}: nothing to undo")
        kind = self._history.pop()
        if kind == "card":
            assert self.play is not None
            return self.play.pop()[1]
        entry = self.auction.pop()
        # No card can follow the call undone (the history is a stack): the play, if any,
        # is the one the auction now gives (it may end again: a call after it taken back).
        self.play = None
        self._start_play()
        return entry.call

    def forget_undo(self) -> None:
        """Drop what :meth:`pop` needs: the board stays as recorded and can no longer be
        undone (``pop`` raises StateError). For a finished board kept only for its record."""
        self._history.clear()
        self.auction.forget_undo()
        if self.play is not None:
            self.play.forget_undo()

    def _start_play(self) -> None:
        contract = self.auction.contract
        if self.play is None and self.auction.is_over and contract is not None:
            self.play = Play(self.deal, contract, self.edition)
        elif self.play is not None and not self.auction.is_over:
            self.play = None

    def _require_play(self) -> Play:
        if self.play is None:
            if self.auction.is_over:
                raise StateError(f"board {self.number} was passed out: no play")
            raise StateError(f"board {self.number}: a card before the auction has ended")
        return self.play

    # Results --------------------------------------------------------------------------
    @property
    def irregularities(self) -> tuple[Irregularity, ...]:
        play = () if self.play is None else self.play.irregularities
        return self.auction.irregularities + play

    def outcome(self, attention: Attention | None = None) -> Outcome | None:
        """The result once the board is over (all tricks played, or a claim accepted)."""
        if not self.auction.is_over:
            return None
        if self.play is None:
            return Outcome(None, True, None, None, 0)
        result = self.play.result(attention)
        if not (result.complete or result.claimed):
            return None
        contract = self.play.contract
        vul = self.vulnerability
        score = score_ns(contract, result.tricks_rectified, vul.is_vulnerable(Seat.NORTH),
                         vul.is_vulnerable(Seat.EAST))
        return Outcome(contract, False, result.tricks_as_played, result.tricks_rectified, score)
