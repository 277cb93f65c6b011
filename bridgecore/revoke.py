"""Revokes as facts, and the Law 64 trick transfer over a finished record (Laws 61-64).

:class:`bridgecore.play.Play` detects each revoke (61A: failure to follow suit while
holding the suit led) and decides whether it was established (63A) as of the moment
attention was drawn (:class:`Attention`). :func:`transfer` is then a pure function of
the revokes and the tricks: 64A1/64A2 (and the 1997 extra trick), every 64B exclusion,
and the net change to the declaring side's tricks. Nothing here is applied by itself:
the director confirms, and 64C equity stays open to him in every case.

A revoke on the twelfth trick (62D1, 64B6; the same in the 1997, 2007 and 2017 texts:
"même consommée, doit être corrigée" / "anche se consumata, deve essere corretta") must be
corrected, even after the offending side played to trick 13 or a claim (63A), as long as
the four hands have not been returned to the board: it is then reported *not* established
(63B, the trick standing as played, does not apply to it) and no trick is transferred
(64B6). Only when attention is first drawn after the hands went back to the board (the
non-offending side called on the next board, 64B4, or the round ended, 64B5) can it no
longer be corrected: then it stands established as 63A says, still without a transfer
(64B6), 64C equity open. 62D2 (a defender revoking on trick 12 before his partner played
to it) differs only in its wording: 1997 calls it a penalty, 2007 states the restriction,
2017 refers to Law 16C; nothing here depends on it.

Interpretation (laws.md 4.8 note a, 10.8): when a side has several established revokes,
64A is applied per revoke, and all together they cannot take more tricks than the
offending side actually won from each revoke trick on. Tricks credited by an accepted
claim count as won after the last trick played.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from bridgecore.cards import Card, Seat, Side, Suit
from bridgecore.claims import Claim
from bridgecore.editions import DEFAULT_EDITION, Edition
from bridgecore.irregularity import Irregularity, Kind, Rectification
from bridgecore.tricks import Trick

__all__ = ["EQUITY_NOTE", "Attention", "Revoke", "Transfer", "TransferResult", "establish",
           "transfer"]

EQUITY_NOTE = "64C equity review remains open to the director"

_EQUITY = Rectification.of("64C", "rect.revoke_equity", "award an adjusted score if the transfer "
                           "does not compensate the non-offending side for the damage (also when "
                           "no trick is transferred)", "director")
_CORRECT_12 = Rectification.of("62D1", "rect.revoke_correct_12", "correct the revoke if the hands "
                               "have not been returned to the board: the revoke card is withdrawn "
                               "and a legal card substituted", "director")
_CORRECT_BEFORE = Rectification.of("62A", "rect.revoke_correct_before", "attention drawn before "
                                   "it is established: the revoke must be corrected (62B)",
                                   "director")
_CORRECT = Rectification.of("62B", "rect.revoke_correct", "withdraw the revoke card and "
                            "substitute a legal card (a defender's unfaced card becomes a major "
                            "penalty card)", "director")


@dataclass(frozen=True, slots=True)
class Attention:
    """When attention was first drawn to the revokes of a board (Laws 62A, 64B4, 64B5).

    ``after_cards``: drawn after that many cards of the record had been played (a revoke
    not yet established then must be corrected, 62A); None is the end of play.
    ``after_next_board_call``: a member of the non-offending side had already called on
    the next board (64B4). ``after_round_end``: the round had ended (64B5). The default is
    the usual case: attention drawn at the end of play, within the round.
    """

    after_cards: int | None = None
    after_next_board_call: bool = False
    after_round_end: bool = False

    @property
    def hands_returned(self) -> bool:
        """The four hands were back in the board when attention was drawn (62D1): the next
        board was being bid, or the round was over."""
        return self.after_next_board_call or self.after_round_end

    @classmethod
    def at(cls, drawn: float, *, next_board_call: float | None = None,
           round_end: float | None = None, after_cards: int | None = None) -> Attention:
        """From clock times: attention drawn at ``drawn``, the non-offending side's first call
        on the next board and the end of the round (None when they have not happened)."""
        return cls(after_cards,
                   next_board_call is not None and drawn > next_board_call,
                   round_end is not None and drawn > round_end)


@dataclass(frozen=True, slots=True)
class Revoke:
    """A failure to follow suit (44C, 61A) and whether it was established (63A; a revoke on
    trick 12 never is while the hands are on the table, 62D1: see the module docstring).

    ``suit`` is the suit led, which the offender held; ``faced`` is True for a card of
    dummy (64B3); ``corrected`` for a revoke corrected under 62C3 (2017: both sides
    revoked in one trick and only one side had played to the next).
    """

    seat: Seat
    trick: int
    card: Card
    suit: Suit
    time: float | None = None
    faced: bool = False
    established: bool = False
    established_by: str = ""
    corrected: bool = False

    @property
    def side(self) -> Side:
        return self.seat.side

    def detected(self, holding: str) -> Irregularity:
        """The Irregularity at the moment of the revoke: ``holding`` is the suit led he held."""
        if self.trick == 12:
            then = ("a revoke on trick 12 must be corrected until the hands are returned to "
                    "the board (62D1)")
            options = (_CORRECT_12,)
        else:
            then = (f"established when {self.seat} or {self.seat.partner} plays to trick "
                    f"{self.trick + 1} (63A)")
            options = (_CORRECT_BEFORE,)
        return Irregularity(
            Kind.REVOKE, "61", seat=self.seat, trick=self.trick, time=self.time,
            detail=f"{self.seat} played {self.card} on a {_SUIT[self.suit]} lead while holding "
                   f"{holding} (44C, 61A); {then}",
            options=options, established=False,
            extra=(("card", str(self.card)), ("suit_led", self.suit.letter)))


@dataclass(frozen=True, slots=True)
class Transfer:
    """The tricks Law 64 transfers for one revoke, with the law that decides it."""

    revoke: Revoke
    tricks: int
    law: str
    detail: str
    exclusions: tuple[str, ...] = ()

    def irregularity(self) -> Irregularity:
        """The final Irregularity of this revoke (transfer and establishment known)."""
        r = self.revoke
        options = [_EQUITY]
        if r.trick == 12:
            options.insert(0, _CORRECT_12)
        elif not r.established:
            options.insert(0, _CORRECT)
        extra: list[tuple[str, object]] = [("card", str(r.card)), ("suit_led", r.suit.letter)]
        if r.established_by:
            extra.append(("established_by", r.established_by))
        if self.exclusions:
            extra.append(("exclusions", self.exclusions))
        return Irregularity(Kind.REVOKE, self.law, seat=r.seat, trick=r.trick, time=r.time,
                            detail=self.detail, options=tuple(options), transfer=self.tricks,
                            established=r.established, extra=tuple(extra))


@dataclass(frozen=True, slots=True)
class TransferResult:
    """Every revoke's transfer, and the net change to the declaring side's tricks."""

    transfers: tuple[Transfer, ...]
    declarer_change: int

    def irregularities(self) -> list[Irregularity]:
        return [t.irregularity() for t in self.transfers]


def establish(found: Sequence[tuple[Revoke, int]],
              log: Sequence[tuple[Seat, Card, float | None, int]], claims: Sequence[Claim],
              edition: Edition = DEFAULT_EDITION, attention: Attention | None = None
              ) -> list[Revoke]:
    """The revokes ``found`` (each with the index of its card in ``log``), established or not
    as of ``attention`` (63A). ``log`` holds every card as (seat, card, time, trick it went
    to); ``claims`` the claims in order. Marks 62C3 corrections when the edition has them.
    """
    attention = attention or Attention()
    limit = len(log) if attention.after_cards is None else attention.after_cards
    out: list[Revoke] = []
    by_card: list[bool] = []
    for r, index in found:
        at: int | None = None
        how = ""
        for j in range(index + 1, len(log)):
            s, _, _, target = log[j]
            if s.side is r.side and target > r.trick:  # 63A1, legally or not
                at, how = j + 1, f"63A1: {s} played to trick {target}"
                break
        by_card.append(at is not None and at <= limit)
        for claim in claims:
            if claim.cards_played <= index or (at is not None and at <= claim.cards_played):
                continue
            reason = claim.establishes_revoke_of(r.side, edition.acquiescence_establishes_revoke)
            if reason:
                at, how = claim.cards_played, reason
                break
        established = at is not None and at <= limit
        if r.trick == 12 and not attention.hands_returned:
            established = False     # 62D1: corrected, even after 63A (module docstring)
        out.append(replace(r, established=established, established_by=how if established else ""))
    if edition.no_transfer_corrected_revoke:
        # 62C3 (2017): both sides revoked in one trick and only one side played to the next.
        for i, r in enumerate(out):
            if any(o.trick == r.trick and o.side is not r.side and by_card[i] != by_card[j]
                   for j, o in enumerate(out)):
                out[i] = replace(r, corrected=True)
    return out


def transfer(revokes: Sequence[Revoke], tricks: Sequence[Trick], declarer: Seat,
             edition: Edition = DEFAULT_EDITION, attention: Attention | None = None, *,
             claimed: Mapping[Side, int] | None = None) -> TransferResult:
    """Law 64 over a finished record.

    ``tricks`` are the tricks played (only complete ones count, at most 13); ``claimed``
    the tricks an accepted claim credits to each side after them. ``revokes`` carry their
    establishment as of ``attention``, which also decides 64B4 and 64B5.
    """
    attention = attention or Attention()
    played = [t for t in tricks if t.winner is not None][:13]
    winners: list[Seat | None] = [t.winner for t in played]
    sides: list[Side] = [w.side for w in winners if w is not None]
    for side in (Side.NS, Side.EW):
        n = (claimed or {}).get(side, 0)
        sides.extend([side] * n)
        winners.extend([None] * n)
    total = len(sides)

    def won_from(side: Side, first: int) -> list[int]:
        return [p for p in range(max(first, 1), total + 1) if sides[p - 1] is side]

    counted = {i for i, r in enumerate(revokes)
               if r.established or not edition.revoke_exclusions_count_established_only}
    both_sides = (edition.no_transfer_both_sides_revoked
                  and len({revokes[i].side for i in counted}) == 2)

    # First pass, in trick order: the law that applies and how many tricks it asks.
    order = sorted(range(len(revokes)), key=lambda i: (revokes[i].trick, i))
    plans: dict[int, tuple[str, int, tuple[str, ...], str]] = {}
    for k, i in enumerate(order):
        r = revokes[i]
        where = f"{r.seat} revoked on trick {r.trick} ({r.card} on a {_SUIT[r.suit]} lead)"
        if r.trick == 12 and not r.established:
            plans[i] = ("64B6", 0, ("64B6",), f"{where}: a revoke on trick 12 is not "
                        "established, even after a play to trick 13 (63A): it must be "
                        "corrected before the hands are returned to the board (62D1); no "
                        "trick transferred (64B6)")
            continue
        if not r.established:
            plans[i] = ("62A", 0, (), f"{where}, not established (63A): it must be corrected "
                        "(62A); no trick transferred")
            continue
        excl = []
        os_won = won_from(r.side, r.trick)
        if not os_won:
            excl.append("64B1")
        if any(revokes[j].seat is r.seat and revokes[j].suit is r.suit
               and j in counted for j in order[:k]):
            excl.append("64B2")
        if r.faced:
            excl.append("64B3")
        if attention.after_next_board_call:
            excl.append("64B4")
        if attention.after_round_end:
            excl.append("64B5")
        if r.trick == 12:
            excl.append("64B6")
        if both_sides:
            excl.append("64B7")
        if r.corrected and edition.no_transfer_corrected_revoke:
            excl.append("64B8")
        if excl:
            plans[i] = (excl[0], 0, tuple(excl), f"{where}: no automatic transfer "
                        f"({_EXCLUSION[excl[0]]}, {excl[0]})")
            continue
        offender_won = r.trick <= len(played) and winners[r.trick - 1] is r.seat
        if offender_won:
            later = any(p > r.trick for p in os_won)
            plans[i] = ("64A1", 1 + int(later), (), f"{where} and won that trick: that trick"
                        + (" and one later trick of the offending side" if later else "")
                        + " transferred (64A1)")
        else:
            n, text = 1, "the offending side won that trick or a later one: one trick (64A2)"
            if edition.revoke_extra_trick and _won_later_with_suit(r, played):
                n, text = 2, ("the offending side won that trick or a later one: one trick, plus "
                              "one because the offender later won a trick with a card he could "
                              "have played to the revoke trick (64A2, 1997)")
            plans[i] = ("64A2", n, (), f"{where}; {text}")

    # Second pass, latest revoke first: each takes tricks the offending side really won.
    taken: set[int] = set()
    result: dict[int, Transfer] = {}
    for i in reversed(order):
        r = revokes[i]
        law, want, excluded, text = plans[i]
        chosen: list[int] = []
        if want:
            free = [p for p in won_from(r.side, r.trick) if p not in taken]
            if law == "64A1" and r.trick in free:
                chosen.append(r.trick)
            chosen += [p for p in free if p not in chosen][:want - len(chosen)]
            taken.update(chosen)
            if len(chosen) < want:
                text += (f"; capped at {len(chosen)}: the offending side won no other trick "
                         f"from trick {r.trick} on not already transferred")
        result[i] = Transfer(r, len(chosen), law, f"{text}. {EQUITY_NOTE}", excluded)
    transfers = tuple(result[i] for i in range(len(revokes)))
    change = sum(-t.tricks if t.revoke.side is declarer.side else t.tricks for t in transfers)
    return TransferResult(transfers, change)


def _won_later_with_suit(r: Revoke, played: Sequence[Trick]) -> bool:
    """1997 64A2: the offender later won a trick with a card of the suit he failed to follow."""
    for t in played[r.trick:]:
        if t.winner is r.seat:
            card = t.card_of(r.seat)
            if card is not None and card.suit is r.suit:
                return True
    return False


_SUIT = {Suit.CLUBS: "club", Suit.DIAMONDS: "diamond", Suit.HEARTS: "heart",
         Suit.SPADES: "spade"}
_EXCLUSION = {
    "64B1": "the offending side won neither the revoke trick nor any later trick",
    "64B2": "a second revoke in the same suit by the same player",
    "64B3": "a failure to play a card faced on the table (dummy)",
    "64B4": "attention first drawn after the non-offending side called on the next board",
    "64B5": "attention first drawn after the round ended",
    "64B6": "a revoke on trick 12 is corrected (62D)",
    "64B7": "both sides revoked on this board",
    "64B8": "corrected under 62C3",
}
