"""One board at one simulated table: the acts of its devices, checked against a bridgecore
board played alongside.

:class:`BoardPlay` reads the four hands out of the pockets (the card reader), bids with
:class:`tenace.sim.bidding.Bidder`, plays random legal cards, sometimes claims, and confirms
the result (the tablet), injecting at most one irregularity (its ``kind``, one of
:data:`tenace.sim.script.BOARD_KINDS`) so that each act reveals exactly the irregularity
intended and nothing else (:class:`tenace.sim.script.SimError` otherwise: a bug). The acts
are :class:`Act` values the table turns into device events with their delays.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from bridgecore.board import Board
from bridgecore.calls import PASS, Call
from bridgecore.cards import Card, Seat, Strain, Suit
from bridgecore.irregularity import Kind
from tenace.sim.bidding import Bidder
from tenace.sim.script import SimError

__all__ = ["Act", "BoardPlay", "Habits"]

_NEEDS_PLAY = frozenset({"revoke", "lead_out_of_turn", "play_out_of_turn",
                         "card_not_in_hand", "disputed_claim"})
_NOTES = ("hesitation before a pass", "question about an explanation", "card seen",
          "misinformation?", "slow play at the next table")
_SOURCE = {"tab": "tablet", "rdr": "reader"}



@dataclass(slots=True)
class Act:
    device: str   # "tab" or "rdr"
    type: str
    body: dict[str, Any]
    delay: str


@dataclass(frozen=True, slots=True)
class Habits:
    """How the simulated players go about it: ``claim_rate`` (boards where declarer claims),
    ``reader_rate`` (cards reported by the card reader rather than the tablet),
    ``double_report`` (cards reported by both)."""

    claim_rate: float = 0.2
    reader_rate: float = 0.3
    double_report: float = 0.05


class BoardPlay:
    """The acts of one board at one table, checked against a bridgecore Board."""

    def __init__(self, habits: Habits, rng: random.Random, board: Board, kind: str | None):
        self.habits = habits
        self.rng = rng
        self.board = board
        self.kind = kind
        self.injected = False
        self.detail = ""
        self.out: list[Act] = []
        self.bidder = Bidder(board.deal, self.rng)

    # Acts ---------------------------------------------------------------------------------
    def acts(self) -> list[Act]:
        self._reads()
        self._auction()
        play = self.board.play
        if play is not None:
            self._play()
        self._confirm()
        if self.kind == "director_call":
            seat = self.rng.choice(list(Seat))
            note = self.rng.choice(_NOTES)
            at = self.rng.randint(0, len(self.out) - 1)
            self.out.insert(at, Act("tab", "director_call",
                                     {"seat": seat.letter, "note": note}, "director_call"))
            self._mark(f"{seat} calls the director: {note}")
        return self.out

    def _mark(self, detail: str) -> None:
        self.injected = True
        self.detail = detail

    def _reads(self) -> None:
        deal = self.board.deal
        turn = 0
        if self.kind == "rotated_board":
            turn = self.rng.choice((1, 2, 3))
            self._mark(f"pockets read turned {90 * turn}°")
        order = list(Seat)
        self.rng.shuffle(order)
        for seat in order:
            cards = [str(c) for c in deal[seat.offset(-turn)]]
            self.out.append(Act("rdr", "hand", {"seat": seat.letter, "cards": cards,
                                                 "board": self.board.number}, "hand"))

    # The auction ----------------------------------------------------------------------------
    def _call(self, seat: Seat, call: Call, expect: Kind | None = None) -> bool:
        """Push ``call`` on the board; keep it only if it reveals exactly ``expect``."""
        found = self.board.push_call(seat, call)
        if [i.kind for i in found] != ([] if expect is None else [expect]):
            self.board.pop()
            if expect is None:
                raise SimError(f"board {self.board.number}: {seat} {call} would reveal "
                               f"{[str(i) for i in found]}")
            return False
        self.out.append(Act("tab", "call", {"seat": seat.letter, "call": str(call)}, "call"))
        return True

    def _auction(self) -> None:
        board, rng, kind = self.board, self.rng, self.kind
        auction = board.auction
        force = kind in _NEEDS_PLAY or kind in ("insufficient_bid", "call_out_of_rotation")
        oor_at = rng.randint(0, 3) if kind == "call_out_of_rotation" else -1
        insufficient_from = rng.randint(1, 4) if kind == "insufficient_bid" else -1
        while not auction.is_over:
            seat = auction.turn
            assert seat is not None
            n = len(auction)
            if not self.injected and ((kind == "call_out_of_rotation" and n >= oor_at
                                       and self._out_of_rotation(seat))
                                      or (kind == "insufficient_bid" and n >= insufficient_from
                                          and self._insufficient(seat))):
                continue
            call = self.bidder.call(board, seat, force_open=force)
            if (not self.injected and kind == "insufficient_bid" and call.is_pass
                    and self._would_end(call, seat) and self._insufficient(seat)):
                continue
            self._call(seat, call)

    def _would_end(self, call: Call, seat: Seat) -> bool:
        self.board.push_call(seat, call)
        over = self.board.auction.is_over
        self.board.pop()
        return over

    def _out_of_rotation(self, turn: Seat) -> bool:
        entries = self.board.auction.entries
        last = entries[-1].seat if entries else None
        offenders = [s for s in (turn.partner, turn.lho) if s is not last]
        self.rng.shuffle(offenders)
        for seat in offenders:
            bids = [e for e in entries if e.call.is_bid]
            call = PASS
            if not bids and self.rng.random() < 0.4:  # an opening bid before the dealer's
                lengths = self.bidder.lengths[seat]
                longest = max(Suit, key=lambda s: (lengths[s], s))
                call = Call.bid(1, Strain.of(longest))
            if self._call(seat, call, Kind.CALL_OUT_OF_ROTATION):
                self._mark(f"{seat} called {call} out of rotation, at {turn}'s turn")
                return True
        return False

    def _insufficient(self, seat: Seat) -> bool:
        last = self.board.auction.last_bid
        if last is None or last.rank < 1:
            return False
        low = max(0, last.rank - 5)
        ranks = list(range(low, last.rank))
        self.rng.shuffle(ranks)
        for rank in ranks:
            call = Call.bid(rank // 5 + 1, Strain(rank % 5))
            if self._call(seat, call, Kind.INSUFFICIENT_BID):
                self._mark(f"{seat} bid {call} after {last}")
                return True
        return False

    # The play --------------------------------------------------------------------------------
    def _card(self, seat: Seat, card: Card, expect: Kind | None = None, *,
              emit: bool = True) -> bool:
        found = self.board.push_card(seat, card)
        if [i.kind for i in found] != ([] if expect is None else [expect]):
            self.board.pop()
            if expect is None:
                raise SimError(f"board {self.board.number}: {seat} {card} would reveal "
                               f"{[str(i) for i in found]}")
            return False
        if emit:  # the 52nd card is not reported twice: the hub refuses it once play is over
            play = self.board.play
            last = play is not None and play.is_complete
            self._emit_card(seat, card, double=expect is None and not last)
        return True

    def _emit_card(self, seat: Seat, card: Card, double: bool = True) -> None:
        rng = self.rng
        reader = rng.random() < self.habits.reader_rate
        body = {"seat": seat.letter, "card": str(card)}
        first, second = ("rdr", "tab") if reader else ("tab", "rdr")
        self.out.append(Act(first, "card", {**body, "source": _SOURCE[first]}, "card"))
        if double and rng.random() < self.habits.double_report:
            self.out.append(Act(second, "card", {**body, "source": _SOURCE[second]}, "again"))

    def _play(self) -> None:
        play = self.board.play
        assert play is not None
        rng, kind = self.rng, self.kind
        claim_at: int | None = None
        if kind == "disputed_claim":
            claim_at = rng.randint(4, 12)
        elif rng.random() < self.habits.claim_rate:
            claim_at = rng.randint(7, 12)
        inject_at = {"revoke": rng.randint(1, 10), "play_out_of_turn": rng.randint(2, 11),
                     "card_not_in_hand": rng.randint(1, 11)}.get(kind or "", 0)
        revoked_at: int | None = None
        while not play.is_complete:
            trick = len(play.completed_tricks) + 1
            empty = play.current_trick_is_empty
            waits = kind in _NEEDS_PLAY and kind != "disputed_claim" and not self.injected
            if (empty and claim_at == trick and not waits
                    and (revoked_at is None or trick > revoked_at + 1)):
                self._claim(disputed=kind == "disputed_claim")
                return  # accepted, or disputed and played out
            seat = play.turn
            assert seat is not None
            if not self.injected and kind is not None and trick >= inject_at:
                if kind == "lead_out_of_turn" and trick == 1 and not play.history:
                    if self._lead_out_of_turn():
                        continue
                elif kind == "revoke" and not empty:
                    if self._revoke(seat, trick):
                        revoked_at = trick
                        continue
                elif kind == "play_out_of_turn" and not empty and trick <= 12:
                    if self._play_out_of_turn(seat, trick):
                        continue
                elif (kind == "card_not_in_hand" and empty and trick <= 11
                      and self._not_in_hand(seat, trick)):
                    return
            self._card(seat, rng.choice(list(play.legal_cards)))

    def _lead_out_of_turn(self) -> bool:
        play = self.board.play
        assert play is not None
        offender = play.opening_leader.partner
        cards = list(play.remaining(offender))
        card = self.rng.choice(cards)
        if self._card(offender, card, Kind.LEAD_OUT_OF_TURN):
            self._mark(f"{offender} led {card}; the opening lead was {play.opening_leader}'s")
            return True
        return False

    def _revoke(self, seat: Seat, trick: int) -> bool:
        play = self.board.play
        assert play is not None
        current = play.current_trick
        led = None if current is None else current.led_suit
        if led is None:
            return False
        held = list(play.remaining(seat))
        if not any(c.suit is led for c in held):
            return False
        others = [c for c in held if c.suit is not led]
        if not others:
            return False
        card = self.rng.choice(others)
        if self._card(seat, card, Kind.REVOKE):
            self._mark(f"{seat} played {card} on a {led.name.lower()} lead holding the suit, "
                       f"trick {trick}")
            return True
        return False

    def _play_out_of_turn(self, turn: Seat, trick: int) -> bool:
        play = self.board.play
        assert play is not None
        current = play.current_trick
        assert current is not None
        played = {s for s, _ in current.cards}
        offenders = [s for s in Seat if s not in played and s is not turn]
        self.rng.shuffle(offenders)
        led = current.led_suit
        for seat in offenders:
            held = list(play.remaining(seat))
            suited = [c for c in held if c.suit is led]
            card = self.rng.choice(suited or held)
            if self._card(seat, card, Kind.PLAY_OUT_OF_TURN):
                self._mark(f"{seat} played {card} to trick {trick} before {turn}")
                return True
        return False

    def _not_in_hand(self, leader: Seat, trick: int) -> bool:
        """The leader leads a card another player holds; the trick is finished with legal
        cards (the holder follows with another card of the suit) and declarer claims."""
        play = self.board.play
        assert play is not None
        choices = []
        for holder in Seat:
            if holder is leader:
                continue
            held = list(play.remaining(holder))
            for card in held:
                if sum(1 for c in held if c.suit is card.suit) >= 2:
                    choices.append((holder, card))
        if not choices:
            return False
        holder, card = self.rng.choice(choices)
        if not self._card(leader, card, Kind.CARD_NOT_IN_HAND):
            return False
        while not play.current_trick_is_empty:
            seat = play.turn
            assert seat is not None
            legal = [c for c in play.legal_cards if not (seat is holder and c == card)]
            self._card(seat, self.rng.choice(legal))
        self._claim(disputed=False, random_tricks=True)
        self._mark(f"{leader} led {card}, which {holder} holds, to trick {trick}")
        return True

    def _claim(self, disputed: bool, random_tricks: bool = False) -> None:
        """Declarer claims the tricks his side would win playing on (or, after a card not in
        hand, what he believes); both defenders agree, or one disputes and it is played
        out."""
        board = self.board
        play = board.play
        assert play is not None
        declarer = play.declarer
        done = len(play.completed_tricks)
        remaining = 13 - done
        rest: list[tuple[Seat, Card]] = []
        if random_tricks:
            tricks = self.rng.randint(0, remaining)
        else:
            while not play.is_complete:
                seat = play.turn
                assert seat is not None
                card = self.rng.choice(list(play.legal_cards))
                self._card(seat, card, emit=False)
                rest.append((seat, card))
            tricks = sum(1 for t in play.completed_tricks[done:]
                         if t.winner is not None and t.winner.side is declarer.side)
            for _ in rest:
                board.pop()
        statement = "the rest are mine" if tricks == remaining else f"{tricks} more"
        play.claim(declarer, tricks, None, statement)
        self.out.append(Act("tab", "claim", {"seat": declarer.letter, "tricks": tricks,
                                              "statement": statement}, "claim"))
        first, second = declarer.lho, declarer.rho
        if disputed:
            who = self.rng.choice((first, second))
            found = play.dispute(who, None)
            if found.kind is not Kind.DISPUTED_CLAIM:  # pragma: no cover - bridgecore says so
                raise SimError(f"dispute gave {found}")
            self.out.append(Act("tab", "claim_answer", {"seat": who.letter, "accept": False},
                                 "claim_answer"))
            self._mark(f"{who} disputes {declarer}'s claim of {tricks} of {remaining} tricks; "
                       "played out")
            for seat, card in rest:
                self._card(seat, card)
            return
        for seat in (first, second):
            play.accept(seat, None)
            self.out.append(Act("tab", "claim_answer", {"seat": seat.letter, "accept": True},
                                 "claim_answer"))

    def _confirm(self) -> None:
        play = self.board.play
        seat = Seat.EAST if play is None else play.declarer.lho
        if seat in (Seat.NORTH, Seat.SOUTH):   # North keeps the record: East-West confirm (79A)
            seat = seat.lho
        if self.kind == "result_disagrees":
            self.out.append(Act("tab", "result_confirm", {"seat": seat.letter,
                                                           "accept": False}, "result_confirm"))
            self._mark(f"{seat} does not agree with the result")
            seat = seat.partner
        self.out.append(Act("tab", "result_confirm", {"seat": seat.letter, "accept": True},
                             "result_confirm"))
