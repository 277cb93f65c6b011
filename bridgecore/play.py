"""The play of a board (Laws 41-71): tricks, legal cards and what a record shows.

:class:`Play` is a mutable aggregate in the style of python-chess: :meth:`Play.push`
records any card by any seat (a game record or a card-reader stream is replayed this
way) and returns the irregularities it reveals; :meth:`Play.play_card` is the checked
form, which raises :class:`~bridgecore.errors.IllegalPlayError`; :meth:`Play.pop`
undoes the last push exactly. Dummy's cards are recorded under dummy's seat.

How an irregular stream is read (a reading of the record; the director rules):

* Lead out of turn (53-56): the card is led and the next card settles it. From the hand
  next in rotation after the offender it accepts the lead (53A); from the player whose
  lead it was, the card led out of turn goes back to its hand (53C, 2017 53B; 55A, 56
  when partner was to lead); from anyone else the lead stands as played. An attempted
  opening lead by declarer's side cannot be accepted (54E). In 2017 a lead out of turn
  at trick 13 is withdrawn (53A): the trick counts as led by the correct leader.
* A card out of rotation inside a trick (57) is recorded where it was played.
* A second card from a seat that has already played to the trick in progress is taken
  as led to the next trick (premature lead, 57A, or fifth card, 45E): it is held and
  placed when the trick is complete, so a late card read after the next lead still
  lands in its trick.
* A card not in the seat's hand (15, 17D, 87) or played twice (67) is still played.
* Play ceases after a claim (68D): cards pushed while it stands are recorded as played,
  evidence for the director (70D3), and do not change the claimed result.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from bridgecore.calls import Contract
from bridgecore.cards import ALL_CARDS, Card, Seat, Side, Suit
from bridgecore.claims import Claim, ClaimStatus, dispute_irregularity
from bridgecore.deal import Deal, Hand
from bridgecore.editions import DEFAULT_EDITION, Edition
from bridgecore.errors import IllegalPlayError, StateError
from bridgecore.irregularity import Irregularity, Kind, Rectification
from bridgecore.revoke import Attention, Revoke, TransferResult, establish, transfer
from bridgecore.text import Text
from bridgecore.tricks import Played, Trick, trick_winner

__all__ = ["Play", "PlayResult", "Trick", "trick_winner"]

_BIT: dict[Card, int] = {c: 1 << c.index for c in ALL_CARDS}
_SEATS = tuple(Seat)     # iterating the enum builds a list each time


# The cards of each byte of a bit mask, byte by byte (7 x 256 tuples, made once).
_BYTES: tuple[tuple[tuple[Card, ...], ...], ...] = tuple(
    tuple(tuple(ALL_CARDS[base + i] for i in range(8) if bits >> i & 1 and base + i < 52)
          for bits in range(256))
    for base in range(0, 56, 8))
_B0, _B1, _B2, _B3, _B4, _B5, _B6 = _BYTES


def _cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of a bit mask in :data:`ALL_CARDS` order (a card's bit is its index): the
    cards of each of its seven bytes looked up and joined (issue 27: a walk of its bits took
    one step per card, and the views list a hand after every card)."""
    return (_B0[mask & 255] + _B1[mask >> 8 & 255] + _B2[mask >> 16 & 255]
            + _B3[mask >> 24 & 255] + _B4[mask >> 32 & 255] + _B5[mask >> 40 & 255]
            + _B6[mask >> 48 & 255])


_SUIT_BITS: dict[Suit, int] = {s: sum(_BIT[c] for c in ALL_CARDS if c.suit is s) for s in Suit}
# One (seat, card) pair per seat and card, shared by every trick that holds it: a finished
# board's tricks cost no new pair per card.
_PAIR: dict[tuple[Seat, Card], tuple[Seat, Card]] = {(s, c): (s, c) for s in Seat
                                                     for c in ALL_CARDS}
# The seat after ``first`` in rotation whose bit is not in ``mask`` (the seats with a card in
# the trick), ``first`` itself when the three others have played.
_NEXT: tuple[tuple[Seat, ...], ...] = tuple(
    tuple(next((first.offset(k) for k in (1, 2, 3) if not mask >> first.offset(k) & 1), first)
          for mask in range(16))
    for first in Seat)
_SUIT_NAME = {Suit.CLUBS: "club", Suit.DIAMONDS: "diamond", Suit.HEARTS: "heart",
              Suit.SPADES: "spade"}

@dataclass(frozen=True, slots=True)
class PlayResult:
    """Tricks of the declaring side as played (with an accepted claim) and after Law 64."""

    tricks_declarer_as_played: int
    tricks_declarer_rectified: int
    complete: bool
    claimed: bool
    transfer: TransferResult
    claim: Claim | None = None

    @property
    def tricks_as_played(self) -> int:
        return self.tricks_declarer_as_played

    @property
    def tricks_rectified(self) -> int:
        return self.tricks_declarer_rectified


class Play:
    """The play of one board: ``Play(deal, contract, edition)``; the contract names declarer."""

    __slots__ = ("_cards", "_changes", "_claims", "_completed", "_held", "_in_trick",
                 "_irregularities", "_lead_state", "_leader", "_led", "_log", "_pending",
                 "_played", "_proper", "_queue", "_result", "_revokes", "_trump", "_undo",
                 "_withdrawn", "contract", "deal", "declarer", "dummy", "edition")

    def __init__(self, deal: Deal, contract: Contract, edition: Edition = DEFAULT_EDITION):
        if contract.declarer is None:
            raise ValueError(f"the contract {contract} has no declarer")
        self.deal = deal
        self.contract = contract
        self.edition = edition
        self.declarer: Seat = contract.declarer
        self.dummy: Seat = self.declarer.partner
        self._trump = contract.strain.suit
        masks = [0, 0, 0, 0]
        for seat in Seat:
            for card in deal[seat]:
                masks[seat] |= _BIT[card]
        self._held: tuple[int, ...] = tuple(masks)
        self._played = 0
        self._completed: tuple[Trick, ...] = ()
        self._cards: Played = ()                      # the trick in progress
        self._in_trick = 0                            # its seats, a bit per seat
        self._leader: Seat | None = None              # whose card is its lead
        self._led: Suit | None = None
        self._proper: Seat = self.declarer.lho        # who should lead it (41A, 44G)
        self._withdrawn: Played = ()
        self._pending: int | None = None              # index of an unsettled lead out of turn
        self._lead_state = (True, False)              # (lead came from hand, was played before)
        self._queue: tuple[tuple[Seat, Card, float | None, int, bool, bool], ...] = ()
        self._irregularities: tuple[Irregularity, ...] = ()
        self._revokes: tuple[tuple[Revoke, int], ...] = ()
        self._claims: tuple[Claim, ...] = ()
        self._log: list[tuple[Seat, Card, float | None, int]] = []  # seat, card, time, trick
        self._undo: list[tuple[bool, tuple[Any, ...]]] = []
        # Every change of the record counts one (push, pop, a claim and its answers): the
        # result worked out at the end of play is kept for the count it was worked out at.
        self._changes = 0
        self._result: tuple[int, PlayResult] | None = None

    # State for pop() ------------------------------------------------------------------
    def _state(self) -> tuple[Any, ...]:
        return (self._held, self._played, self._completed, self._cards, self._in_trick,
                self._leader, self._led, self._proper, self._withdrawn, self._pending,
                self._lead_state, self._queue, self._irregularities, self._revokes, self._claims)

    def _restore(self, s: tuple[Any, ...]) -> None:
        (self._held, self._played, self._completed, self._cards, self._in_trick, self._leader,
         self._led, self._proper, self._withdrawn, self._pending, self._lead_state, self._queue,
         self._irregularities, self._revokes, self._claims) = s

    # Recording --------------------------------------------------------------------------
    def push(self, seat: Seat, card: Card, time: float | None = None
             ) -> tuple[Irregularity, ...]:
        """Record ``card`` played by ``seat`` whatever it is; return what it reveals."""
        bit = _BIT.get(card)
        if bit is None or not isinstance(seat, Seat):
            raise TypeError(f"push needs a Seat and a Card, got {seat!r}, {card!r}")
        self._changes += 1
        self._undo.append((True, self._state()))
        before = len(self._irregularities)
        index = len(self._log)
        trick = len(self._completed) + 1
        held = self._held
        from_hand = bool(held[seat] & bit)
        was_played = bool(self._played & bit)
        if from_hand:
            self._held = (*held[:seat], held[seat] & ~bit, *held[seat + 1:])
        if was_played:
            self._add(self._played_twice(seat, card, time, trick))
        elif not from_hand:
            self._add(self._not_in_hand(seat, card, time, trick))
        self._played |= bit
        if self._in_trick >> seat & 1:
            ahead = sum(1 for q in self._queue if q[0] is seat)
            self._log.append((seat, card, time, trick + 1 + ahead))
            self._add(self._second_card(seat, card, time, trick))
            self._queue += ((seat, card, time, index, from_hand, was_played),)
        else:
            self._log.append((seat, card, time, trick))
            self._place(seat, card, time, index, from_hand, was_played)
        while self._queue and self._drain_one():
            pass
        return self._irregularities[before:]

    def play_card(self, seat: Seat, card: Card, time: float | None = None
                  ) -> tuple[Irregularity, ...]:
        """Play ``card`` for ``seat`` if the Laws allow it now, else raise IllegalPlayError."""
        trick = len(self._completed) + 1
        claim = self.claim_in_force
        if claim is not None:
            raise IllegalPlayError(f"{seat} cannot play {card}: play has ceased after the "
                                   f"claim ({claim}) (Law 68D)", Text.of("deny.play_ceased"))
        turn = self.turn
        if turn is None:
            raise IllegalPlayError(f"{seat} cannot play {card}: all 13 tricks are played",
                                   Text.of("deny.all_played"))
        if seat is not turn:
            act = "lead" if not self._cards else "play"
            raise IllegalPlayError(f"{seat} cannot play {card}: it is {turn}'s turn to {act}, "
                                   f"trick {trick}", Text.of("deny.turn_to_play", seat=turn))
        if not self._held[seat] & _BIT[card]:
            raise IllegalPlayError(f"{seat} does not hold {card}, trick {trick}",
                                   Text.of("deny.not_held", seat=seat, card=card))
        led = self._led
        if self._cards and led is not None and card.suit is not led:
            suited = self._held[seat] & _SUIT_BITS[led]
            if suited:
                raise IllegalPlayError(f"{seat} must follow suit: holds {_ascending(suited)} "
                                       f"on a {_SUIT_NAME[led]} lead, trick {trick}",
                                       Text.of("deny.follow_suit", seat=seat,
                                               cards=_ascending(suited).split()))
        return self.push(seat, card, time)

    def pop(self) -> tuple[Seat, Card]:
        """Undo the last push exactly; returns its seat and card."""
        if not self._undo:
            raise StateError("no card to pop: nothing has been played")
        is_card, state = self._undo[-1]
        if not is_card:
            raise StateError("cannot pop the last card: a claim was made or answered after it")
        self._changes += 1
        self._undo.pop()
        self._restore(state)
        seat, card, _, _ = self._log.pop()
        return seat, card

    def forget_undo(self) -> None:
        """Drop what :meth:`pop` needs (a state per card and per claim answer): the play
        stays as recorded and can no longer be undone. For a finished board kept only for
        its record."""
        self._undo.clear()

    # Placing a card in a trick -----------------------------------------------------------
    def _add(self, irregularity: Irregularity) -> None:
        self._irregularities += (irregularity,)

    def _drain_one(self) -> bool:
        """Place the first held card whose seat is free in the trick in progress."""
        for k, (seat, card, time, index, from_hand, was_played) in enumerate(self._queue):
            if not self._in_trick >> seat & 1:
                self._queue = self._queue[:k] + self._queue[k + 1:]
                self._place(seat, card, time, index, from_hand, was_played)
                return True
        return False

    def _place(self, seat: Seat, card: Card, time: float | None, index: int,
               from_hand: bool, was_played: bool) -> None:
        trick = len(self._completed) + 1
        if not self._cards:
            self._cards, self._in_trick = (_PAIR[seat, card],), 1 << seat
            self._leader, self._led = seat, card.suit
            self._lead_state = (from_hand, was_played)
            if seat is not self._proper:
                self._pending = len(self._irregularities)
                self._add(self._lead_out_of_turn(seat, card, time, trick))
            return
        check_rotation = True
        if self._pending is not None:
            settled = self._settle(seat, card, trick)
            if settled == "lead":
                return
            check_rotation = settled != "13"
        first = self._cards[0][0]
        if check_rotation:
            turn = self._next_in_rotation(first)
            if seat is not turn:
                self._add(self._out_of_rotation(seat, card, time, trick, turn))
        led = self._led
        if led is None:
            if seat is self._leader:
                self._led = card.suit
        elif card.suit is not led:
            hold = self._held[seat]
            for q in self._queue:
                if q[0] is seat:
                    hold |= _BIT[q[1]]
            if hold & _SUIT_BITS[led]:
                found = Revoke(seat, trick, card, led, time, faced=seat is self.dummy)
                self._revokes += ((found, index),)
                self._add(found.detected(_ascending(hold & _SUIT_BITS[led])))
        self._cards += (_PAIR[seat, card],)
        self._in_trick |= 1 << seat
        if len(self._cards) == 4:
            led = self._led
            winner = trick_winner(self._cards, led, self._trump)
            leader = self._leader if self._leader is not None else first
            self._completed += (Trick(trick, leader, self._cards, winner, self._withdrawn),)
            self._cards, self._leader, self._led, self._withdrawn = (), None, None, ()
            self._in_trick = 0
            self._proper, self._pending = winner, None

    def _next_in_rotation(self, first: Seat) -> Seat:
        """The first seat after ``first`` in rotation with no card in the trick (a table
        lookup on the trick's seats: on every card and every ``turn``, issue 27)."""
        return _NEXT[first][self._in_trick]

    def _settle(self, seat: Seat, card: Card, trick: int) -> str:
        """The card after a lead out of turn: withdrawn ("lead"), trick 13 ("13"), or ""."""
        offender, led_card = self._cards[0]
        index, self._pending = self._pending, None
        assert index is not None
        proper = self._proper
        thirteen = trick == 13 and self.edition.lead_out_of_turn_trick13_withdrawn
        no_accept = thirteen or (trick == 1 and offender.side is self.declarer.side)
        if seat is proper and (seat is not offender.lho or no_accept):
            from_hand, was_played = self._lead_state
            bit = _BIT[led_card]
            if from_hand:
                held = self._held
                self._held = (*held[:offender], held[offender] | bit, *held[offender + 1:])
            if not was_played:
                self._played &= ~bit
            self._withdrawn += ((offender, led_card),)
            self._cards, self._in_trick = (_PAIR[seat, card],), 1 << seat
            self._leader, self._led = seat, card.suit
            if offender.side is not proper.side:
                law = self.edition.correct_lead_after_lead_out_of_turn_law
            elif offender.side is self.declarer.side:
                law = "55A"
            else:
                law = "54D" if trick == 1 else "56"
            self._resolve(index, f"withdrawn: {seat}, whose lead it was, led {card}; "
                                 f"{led_card} went back to {offender}'s hand ({law})")
            return "lead"
        if thirteen:
            self._leader, self._led = proper, None
            self._resolve(index, f"withdrawn (53A): trick 13 counts as led by {proper}")
            return "13"
        if seat is offender.lho and not no_accept:
            self._resolve(index, f"accepted: {seat}, next in rotation, played to it (53A)")
        elif no_accept:
            self._resolve(index, "stands as played, although an attempted lead by declarer's "
                                 "side cannot be accepted (54E)")
        else:
            self._resolve(index, f"stands as played: the next card came from {seat}, neither "
                                 "the next hand in rotation nor the correct leader")
        return ""

    def _resolve(self, index: int, text: str) -> None:
        found = self._irregularities
        irr = found[index]
        irr = replace(irr, extra=(*irr.extra, ("resolution", text)))
        self._irregularities = (*found[:index], irr, *found[index + 1:])

    # Irregularities ------------------------------------------------------------------------
    def _lead_out_of_turn(self, seat: Seat, card: Card, time: float | None,
                          trick: int) -> Irregularity:
        proper, declarer = self._proper, self.declarer
        if trick == 1:
            why = f"the opening lead is {proper}'s, on declarer {declarer}'s left (41A)"
        else:
            why = f"{proper} won trick {trick - 1} and leads (44G)"
        detail = f"{seat} led {card} out of turn to trick {trick}: {why}"
        options: tuple[Rectification, ...]
        if trick == 1 and seat.side is declarer.side:
            law, options = "54E", _DECLARER_SIDE_OPENING
            detail += "; an attempted lead by declarer's side, Law 24 applies to the card"
        elif trick == 1:
            law, options = "54", _OPENING_LEAD
        elif seat.side is declarer.side:
            law, options = "55", _DECLARER_LEAD
        else:
            law, options = "56", _DEFENDER_LEAD
        if trick == 13 and self.edition.lead_out_of_turn_trick13_withdrawn:
            options = _TRICK_13
            detail += "; at trick 13 it must be withdrawn (53A)"
        detail += ". No rectification if an opponent told him it was his lead (47E1)"
        return Irregularity(Kind.LEAD_OUT_OF_TURN, law, seat=seat, trick=trick, time=time,
                            detail=detail, options=options,
                            extra=(("card", str(card)), ("correct_leader", proper.letter)))

    def _premature(self, seat: Seat, card: Card, time: float | None, trick: int,
                   what: str) -> Irregularity:
        """A defender's card before his partner's (57A), or after dummy's (57C1)."""
        if any(s is self.dummy for s, _ in self._cards):
            return Irregularity(Kind.PLAY_OUT_OF_TURN, "57C1", seat=seat, trick=trick, time=time,
                                detail=f"{what}; not subject to rectification: dummy had "
                                       "already played to the trick (57C1)",
                                extra=(("card", str(card)),))
        partner = seat.partner
        return Irregularity(
            Kind.PLAY_OUT_OF_TURN, "57", seat=seat, trick=trick, time=time,
            detail=f"{what} before his partner {partner} played: the card becomes a major "
                   f"penalty card and declarer chooses what {partner} plays (57A)",
            options=_PREMATURE[:self.edition.premature_play_options],
            extra=(("card", str(card)),))

    def _out_of_rotation(self, seat: Seat, card: Card, time: float | None, trick: int,
                         turn: Seat) -> Irregularity:
        what = f"{seat} played {card} to trick {trick} out of rotation, before {turn}"
        if seat.side is self.declarer.side:
            return Irregularity(Kind.PLAY_OUT_OF_TURN, "57C2", seat=seat, trick=trick, time=time,
                                detail=f"{what}: a premature play by declarer from either hand "
                                       "is played and cannot be withdrawn (57C2)",
                                extra=(("card", str(card)),))
        if not any(s is seat.partner for s, _ in self._cards):
            return self._premature(seat, card, time, trick, what)
        return Irregularity(Kind.PLAY_OUT_OF_TURN, "44B", seat=seat, trick=trick, time=time,
                            detail=f"{what}, after his partner: Law 57A does not apply",
                            extra=(("card", str(card)),))

    def _second_card(self, seat: Seat, card: Card, time: float | None,
                     trick: int) -> Irregularity:
        what = (f"{seat} played {card} while his card to trick {trick} is on the table "
                f"(recorded as led to trick {trick + 1})")
        if seat.side is self.declarer.side:
            return Irregularity(Kind.PLAY_OUT_OF_TURN, "45E", seat=seat, trick=trick, time=time,
                                detail=f"{what}: a fifth card of declarer's goes back to the "
                                       "hand unless the director judges it a lead (45E2, 55)",
                                options=(_FIFTH_DECLARER,), extra=(("card", str(card)),))
        if not any(s is seat.partner for s, _ in self._cards):
            return self._premature(seat, card, time, trick, f"{what}: a lead to the next trick")
        return Irregularity(Kind.PLAY_OUT_OF_TURN, "45E", seat=seat, trick=trick, time=time,
                            detail=f"{what}: a defender's fifth card is a penalty card unless "
                                   "the director judges it a lead (45E1, 53, 56)",
                            options=(_FIFTH_DEFENDER,), extra=(("card", str(card)),))

    def _played_twice(self, seat: Seat, card: Card, time: float | None,
                      trick: int) -> Irregularity:
        law = self.edition.card_played_twice_law
        before = ""
        for s, c, _, t in reversed(self._log):
            if c == card:
                before = f", already played by {s} to trick {t}"
                break
        return Irregularity(
            Kind.CARD_PLAYED_TWICE, law, seat=seat, trick=trick, time=time,
            detail=f"{seat} played {card}{before} (Law {law})",
            options=(Rectification.of(law, "rect.card_played_twice", "put the card back among the "
                                      "cards played first and rectify the defective tricks; "
                                      "adjusted score if it is too late to correct", "director"),),
            extra=(("card", str(card)),))

    def _not_in_hand(self, seat: Seat, card: Card, time: float | None,
                     trick: int) -> Irregularity:
        bit = _BIT[card]
        holder = next((s for s in Seat if s is not seat and self._held[s] & bit), None)
        where = (f"{holder} holds it" if holder is not None
                 else "no hand of this deal holds it")
        return Irregularity(
            Kind.CARD_NOT_IN_HAND, "87" if holder is not None else "15", seat=seat,
            trick=trick, time=time,
            detail=f"{seat} played {card}, which is not in his hand: {where} (Laws 15, 17D, "
                   "87: cards from another board, or hands mixed)",
            options=(_ORIGIN,),
            extra=(("card", str(card)), ("held_by", None if holder is None else holder.letter)))

    # Claims -----------------------------------------------------------------------------------
    def claim(self, seat: Seat, tricks: int, time: float | None = None,
              statement: str = "") -> Claim:
        """``seat`` claims ``tricks`` of the remaining tricks for his side, conceding the rest."""
        if self.is_complete:
            raise StateError(f"{seat} cannot claim: all 13 tricks are played")
        if self._claims and self._claims[-1].stands:
            raise StateError(f"{seat} cannot claim: {self._claims[-1]} stands")
        remaining = 13 - len(self._completed)
        if not 0 <= tricks <= remaining:
            raise ValueError(f"{seat} cannot claim {tricks} of the {remaining} remaining tricks")
        trump = self._trump
        holds = trump is not None and any(self._held[s] & _SUIT_BITS[trump]
                                          for s in (seat.lho, seat.rho))
        made = Claim(seat, self.declarer, tricks, remaining, len(self._completed) + 1,
                     len(self._log), time, statement, holds)
        self._changes += 1
        self._undo.append((False, self._state()))
        self._claims += (made,)
        return made

    def accept(self, seat: Seat, time: float | None = None) -> Claim:
        """``seat`` agrees to the open claim (69A)."""
        claim = self._claims[-1] if self._claims else None
        if claim is None or claim.status is not ClaimStatus.OPEN:
            raise StateError(f"{seat} cannot accept: no open claim")
        if seat.side is claim.side:
            raise StateError(f"{seat} cannot accept his own side's claim ({claim})")
        self._changes += 1
        self._undo.append((False, self._state()))
        updated = replace(claim.accepted(seat), answers=(*claim.answers, ("accept", seat, time)))
        self._claims = (*self._claims[:-1], updated)
        return updated

    def dispute(self, seat: Seat, time: float | None = None) -> Irregularity:
        """``seat`` disputes the claim (68D, 70; 68B2 for partner's concession; 69B)."""
        claim = self._claims[-1] if self._claims else None
        if claim is None or not claim.stands:
            raise StateError(f"{seat} cannot dispute: no claim stands")
        if seat is claim.claimer:
            raise StateError(f"{seat} cannot dispute his own claim ({claim})")
        self._changes += 1
        self._undo.append((False, self._state()))
        found = dispute_irregularity(claim, seat, time, claim.trick)
        updated = replace(claim.disputed(seat), answers=(*claim.answers, ("dispute", seat, time)))
        self._claims = (*self._claims[:-1], updated)
        self._add(found)
        return found

    @property
    def claims(self) -> tuple[Claim, ...]:
        return self._claims

    @property
    def claim_in_force(self) -> Claim | None:
        """The claim that stops play (open or accepted), if any (68D)."""
        if self._claims and self._claims[-1].stands:
            return self._claims[-1]
        return None

    # Queries ----------------------------------------------------------------------------------
    @property
    def opening_leader(self) -> Seat:
        return self.declarer.lho

    @property
    def is_complete(self) -> bool:
        return len(self._completed) >= 13

    @property
    def turn(self) -> Seat | None:
        """The seat to lead or play next (dummy's seat for dummy's cards); None when play
        is over or a claim stands."""
        if self.is_complete or self.claim_in_force is not None:
            return None
        if not self._cards:
            return self._proper
        return self._next_in_rotation(self._cards[0][0])

    @property
    def legal_cards(self) -> tuple[Card, ...]:
        """The cards the seat in turn may play: the suit led if he holds it, else any (44C-D)."""
        turn = self.turn
        if turn is None:
            return ()
        mask = self._held[turn]
        if self._cards and self._led is not None and mask & _SUIT_BITS[self._led]:
            mask &= _SUIT_BITS[self._led]
        return _cards_of(mask)

    def held_mask(self, seat: Seat) -> int:
        """The cards ``seat`` still holds, as a bit mask (one bit per card): cheap to compare."""
        return self._held[seat]

    def holder(self, card: Card) -> Seat | None:
        """The seat that still holds ``card`` (by the deal, less the cards played), if any."""
        bit = _BIT[card]
        held = self._held
        for seat in _SEATS:
            if held[seat] & bit:
                return seat
        return None

    def remaining(self, seat: Seat) -> Hand:
        """The cards ``seat`` still holds."""
        mask = self._held[seat]
        return Hand(_cards_of(mask))

    def remaining_cards(self, seat: Seat) -> tuple[Card, ...]:
        """The cards ``seat`` still holds, in ♠A ... ♣2 order, without making a
        :class:`Hand` (the views list them after every card: issue 27)."""
        return _cards_of(self._held[seat])

    @property
    def completed_tricks(self) -> tuple[Trick, ...]:
        return self._completed

    @property
    def current_trick(self) -> Trick | None:
        """The trick in progress (possibly empty); None when 13 tricks are complete."""
        if self.is_complete and not self._cards:
            return None
        leader = self._leader if self._leader is not None else self._proper
        return Trick(len(self._completed) + 1, leader, self._cards, None, self._withdrawn)

    @property
    def current_trick_is_empty(self) -> bool:
        return not self._cards

    @property
    def cards_in_trick(self) -> int:
        """How many cards the trick in progress holds (without building it)."""
        return len(self._cards)

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """Every trick: the complete ones, then the one in progress if a card is in it."""
        if self._cards:
            current = self.current_trick
            assert current is not None
            return (*self._completed, current)
        return self._completed

    def tricks_won(self, who: Side | Seat) -> int:
        """Tricks won in play by a side, or by one seat (dummy's are not declarer's)."""
        if isinstance(who, Seat):
            return sum(1 for t in self._completed[:13] if t.winner is who)
        return sum(1 for t in self._completed[:13] if t.winner is not None
                   and t.winner.side is who)

    @property
    def declarer_tricks(self) -> int:
        return self.tricks_won(self.declarer.side)

    @property
    def irregularities(self) -> tuple[Irregularity, ...]:
        """Everything found so far; a revoke as detected (see :meth:`revoke_irregularities`)."""
        return self._irregularities

    @property
    def cards_played(self) -> int:
        """How many cards were pushed (the length of :attr:`history`, without building it)."""
        return len(self._log)

    @property
    def history(self) -> tuple[tuple[Seat, Card, float | None], ...]:
        """Every card pushed, in order, with its time."""
        return tuple((s, c, t) for s, c, t, _ in self._log)

    # Revokes and the result --------------------------------------------------------------------
    def revokes(self, attention: Attention | None = None) -> list[Revoke]:
        """Every revoke, established or not as of ``attention`` (63A; default: end of play)."""
        return establish(self._revokes, self._log, self._claims, self.edition, attention)

    def _accepted_claim(self) -> Claim | None:
        if self._claims and self._claims[-1].status is ClaimStatus.ACCEPTED:
            return self._claims[-1]
        return None

    def transfers(self, attention: Attention | None = None) -> TransferResult:
        """Law 64 over the record (after an accepted claim, the claimed tricks count)."""
        claim = self._accepted_claim()
        revokes = self.revokes(attention)
        if claim is None:
            return transfer(revokes, self._completed[:13], self.declarer, self.edition, attention)
        credited = {side: claim.tricks_for(side) for side in (Side.NS, Side.EW)}
        return transfer(revokes, self._completed[:claim.trick - 1], self.declarer,
                        self.edition, attention, claimed=credited)

    def revoke_irregularities(self, attention: Attention | None = None) -> list[Irregularity]:
        """The final Irregularity of each revoke: established or not, tricks transferred."""
        return self.transfers(attention).irregularities()

    def result(self, attention: Attention | None = None) -> PlayResult:
        """Declarer's tricks as played (an accepted claim included) and after Law 64. With
        attention drawn at the end of play, worked out once per change of the record (the
        hub asks it for each view and traveller row of a board over: issue 27)."""
        if attention is not None:
            return self._work_out_result(attention)
        kept = self._result
        if kept is not None and kept[0] == self._changes:
            return kept[1]
        found = self._work_out_result(None)
        self._result = (self._changes, found)
        return found

    def _work_out_result(self, attention: Attention | None) -> PlayResult:
        claim = self._accepted_claim()
        side = self.declarer.side
        if claim is not None:
            won = sum(1 for t in self._completed[:claim.trick - 1]
                      if t.winner is not None and t.winner.side is side)
            as_played = won + claim.tricks_for(side)
        else:
            as_played = self.declarer_tricks
        moved = self.transfers(attention)
        rectified = min(13, max(0, as_played + moved.declarer_change))
        return PlayResult(as_played, rectified, self.is_complete, claim is not None, moved, claim)

    def __repr__(self) -> str:
        return (f"<Play {self.contract} by {self.declarer}: {len(self._completed)} tricks, "
                f"{len(self._log)} cards, {len(self._irregularities)} irregularities>")


def _ascending(mask: int) -> str:
    return " ".join(str(c) for c in reversed(ALL_CARDS) if mask & _BIT[c])


_OPENING_LEAD = (
    Rectification.of("54B", "rect.opening_lead_accept", "accept the lead: dummy is spread and "
                     "declarer plays the second card from his own hand (54C: he must accept if he "
                     "could have seen dummy's cards)", "declarer"),
    Rectification.of("54A", "rect.opening_lead_spread", "spread his hand: declarer becomes dummy "
                     "and dummy declarer", "declarer"),
    Rectification.of("54D", "rect.opening_lead_require_suit", "refuse the lead and require the "
                     "correct leader to lead the card's suit (50D2a: the card is picked up)",
                     "declarer"),
    Rectification.of("54D", "rect.opening_lead_forbid_suit", "refuse the lead and forbid the "
                     "card's suit to the correct leader while he retains the lead (50D2a: the "
                     "card is picked up)", "declarer"),
    Rectification.of("54D", "rect.opening_lead_free", "refuse the lead and leave the lead free: "
                     "the card stays a major penalty card (50D2b)", "declarer"),
)
_DECLARER_SIDE_OPENING = (
    Rectification.of("54E", "rect.declarer_side_lead", "not a lead: the card goes back and Law 24 "
                     "applies to it", "director"),
)
_DECLARER_LEAD = (
    Rectification.of("55A", "rect.declarer_lead_accept", "accept the lead (53A)", "defenders"),
    Rectification.of("55A", "rect.declarer_lead_retract", "require declarer to retract it and "
                     "lead from the correct hand, without further rectification", "defenders"),
    Rectification.of("55B", "rect.declarer_lead_adjust", "adjust if declarer then takes a line "
                     "that could have been based on information from the infraction", "director"),
)
_DEFENDER_LEAD = (
    Rectification.of("53A", "rect.defender_lead_accept", "accept the lead", "declarer"),
    Rectification.of("56", "rect.defender_lead_refuse", "require the lead from the correct hand: "
                     "the card becomes a major penalty card (50D; when the correct leader is the "
                     "offender's partner, declarer may require or forbid its suit, 50D2)",
                     "declarer"),
)
_TRICK_13 = (
    Rectification.of("53A", "rect.lead_trick_13", "withdraw the card: at trick 13 a lead out of "
                     "turn must be withdrawn and the correct leader leads", "director"),
)
_PREMATURE = (
    Rectification.of("57A", "rect.premature_highest", "the offender's partner plays the highest "
                     "card he holds of the suit led", "declarer"),
    Rectification.of("57A", "rect.premature_lowest", "the offender's partner plays the lowest "
                     "card he holds of the suit led", "declarer"),
    Rectification.of("57A", "rect.premature_forbid_suit", "the offender's partner may not play a "
                     "card of another suit declarer names", "declarer"),
    Rectification.of("57A", "rect.premature_require_suit", "the offender's partner must play a "
                     "card of another suit declarer names", "declarer"),
)
_FIFTH_DECLARER = Rectification.of("45E2", "rect.fifth_card_declarer", "the card goes back to the "
                                   "hand without rectification, unless the director judges it a "
                                   "lead out of turn (55)", "director")
_FIFTH_DEFENDER = Rectification.of("45E1", "rect.fifth_card_defender", "the card becomes a "
                                   "penalty card (50), unless the director judges it a lead out "
                                   "of turn (53, 56)", "director")
_ORIGIN = Rectification.of("87", "rect.card_origin", "establish where the card comes from: hands "
                           "mixed (87, fouled board) or cards of another board (15, 17D)",
                           "director")
