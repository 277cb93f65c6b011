"""Claims and concessions as values (Laws 68-71).

A claim is made by one player for his side: ``tricks`` is the number of the remaining
tricks (the trick in progress included) his side will win; the rest are conceded
(68B1), so a concession is a claim of fewer than all of them. Because only tricks not
yet complete can be claimed or conceded, 71(1) (conceding a trick already won) cannot
occur in these values; 71(2) and 69B (a trick no normal play could lose) need a
solver and the director's judgement, so they are not decided here.

The opponents accept or dispute. A claim by the declaring side is accepted when both
defenders have agreed; a defender's claim when declarer has. Any player may dispute
(68D, dummy included): that is a :class:`~bridgecore.irregularity.Kind.DISPUTED_CLAIM`
for the director (70), except a defender's concession to which his partner objects,
which is no concession at all (68B2). A dispute after agreeing is a withdrawal of
acquiescence (69B). Only the "opponent still holds a trump" fact (70C) is recorded as
an aid; whether the claimer overlooked it is the director's judgement.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from bridgecore.cards import Seat, Side
from bridgecore.irregularity import Irregularity, Kind, Rectification

__all__ = ["Claim", "ClaimStatus", "dispute_irregularity"]


class ClaimStatus(StrEnum):
    OPEN = "open"            # made, not yet agreed by the opponents: play has ceased (68D)
    ACCEPTED = "accepted"    # agreed (69A): scored as if the tricks had been played
    DISPUTED = "disputed"    # the director rules (70)
    VOID = "void"            # a defender's concession his partner objected to (68B2)


@dataclass(frozen=True, slots=True)
class Claim:
    """A claim or concession (68A, 68B) and the answers to it.

    ``remaining`` is the number of tricks not complete when it was made, ``trick`` the
    number of the trick in progress, ``cards_played`` the number of cards pushed before
    it (so that revoke establishment can be ordered, 63A3). ``answers`` lists the
    acceptances and disputes in order, with their times.
    """

    claimer: Seat
    declarer: Seat
    tricks: int
    remaining: int
    trick: int
    cards_played: int
    time: float | None = None
    statement: str = ""
    opponent_holds_trump: bool = False
    accepted_by: tuple[Seat, ...] = ()
    disputed_by: tuple[Seat, ...] = ()
    answers: tuple[tuple[str, Seat, float | None], ...] = ()  # ("accept"|"dispute", seat, time)

    def __post_init__(self) -> None:
        if not 0 <= self.tricks <= self.remaining:
            raise ValueError(f"{self.claimer} cannot claim {self.tricks} of the "
                             f"{self.remaining} remaining tricks")

    @property
    def side(self) -> Side:
        return self.claimer.side

    @property
    def conceded(self) -> int:
        """Tricks conceded to the opponents: the rest of the remaining ones (68B1)."""
        return self.remaining - self.tricks

    @property
    def is_concession(self) -> bool:
        return self.conceded > 0

    @property
    def by_defender(self) -> bool:
        return self.claimer.side is not self.declarer.side

    @property
    def status(self) -> ClaimStatus:
        if self.by_defender and self.is_concession and self.claimer.partner in self.disputed_by:
            return ClaimStatus.VOID
        if self.disputed_by:
            return ClaimStatus.DISPUTED
        if self.by_defender:
            agreed = self.declarer in self.accepted_by
        else:
            agreed = self.declarer.lho in self.accepted_by and self.declarer.rho in self.accepted_by
        return ClaimStatus.ACCEPTED if agreed else ClaimStatus.OPEN

    @property
    def stands(self) -> bool:
        """True while the claim stops play: open or accepted (68D)."""
        return self.status in (ClaimStatus.OPEN, ClaimStatus.ACCEPTED)

    def tricks_for(self, side: Side) -> int:
        """Tricks this claim gives ``side`` of the remaining ones."""
        return self.tricks if side is self.side else self.conceded

    def establishes_revoke_of(self, side: Side, acquiescence: bool) -> str:
        """Why this claim establishes a revoke of ``side`` (63A3; 63A4 with ``acquiescence``,
        2017: an opponent's claim not disputed), or "" when it does not (68B2: void)."""
        status = self.status
        if status is ClaimStatus.VOID:
            return ""
        if self.side is side:
            return f"63A3: claim by {self.claimer}"
        agreed = next((s for s in self.accepted_by if s.side is side), None)
        if agreed is not None:
            return f"63A3: {agreed} agreed to {self.claimer}'s claim"
        if acquiescence and status is not ClaimStatus.DISPUTED:
            return f"63A4: acquiescence in {self.claimer}'s claim"
        return ""

    def accepted(self, seat: Seat) -> Claim:
        if seat in self.accepted_by:
            return self
        return replace(self, accepted_by=(*self.accepted_by, seat))

    def disputed(self, seat: Seat) -> Claim:
        if seat in self.disputed_by:
            return self
        return replace(self, disputed_by=(*self.disputed_by, seat))

    def __str__(self) -> str:
        what = "concedes" if self.tricks == 0 else "claims"
        n = self.conceded if self.tricks == 0 else self.tricks
        return f"{self.claimer} {what} {n} of {self.remaining} tricks at trick {self.trick}"


_OPTIONS_70 = (
    Rectification.of("70A", "rect.claim_equity", "rule as equitably as possible; any doubtful "
                     "point goes against the claimer", "director"),
    Rectification.of("70B", "rect.claim_repeat", "have the claimer repeat his original statement, "
                     "hear the objections, and have the remaining cards faced if needed",
                     "director"),
    Rectification.of("70C", "rect.claim_trump", "if an opponent holds a trump the claimer did not "
                     "mention, give the opponents a trick when the claimer may have been unaware "
                     "of it and a trick could be lost to it by normal play", "director"),
    Rectification.of("70D", "rect.claim_no_line", "accept no successful line absent from the "
                     "statement if a less successful normal line exists; play after the claim is "
                     "evidence (70D3)", "director"),
    Rectification.of("70E", "rect.claim_finesse", "accept no unstated line that depends on "
                     "finding a card with one opponent, unless that opponent showed out or "
                     "failing to do so would be irrational", "director"),
)
_OPTIONS_68B2 = (
    Rectification.of("68B2", "rect.no_concession", "no concession: play continues; cards exposed "
                     "by it are not penalty cards, and the information is unauthorised for the "
                     "partner (16D)", "director"),
)
_OPTIONS_69B = (
    Rectification.of("69B", "rect.trick_given_back", "within the correction period (79C), give "
                     "back a trick the side had actually won or would likely have won had play "
                     "continued", "director"),
)


def dispute_irregularity(claim: Claim, seat: Seat, time: float | None,
                         trick: int) -> Irregularity:
    """The Irregularity a dispute of ``claim`` by ``seat`` gives the director."""
    extra: tuple[tuple[str, object], ...] = (
        ("disputed_by", seat.letter), ("claimed", claim.tricks),
        ("remaining", claim.remaining), ("opponent_holds_trump", claim.opponent_holds_trump))
    if claim.statement:
        extra += (("statement", claim.statement),)
    if claim.by_defender and claim.is_concession and seat is claim.claimer.partner:
        return Irregularity(
            Kind.DISPUTED_CLAIM, "68B2", seat=claim.claimer, trick=trick, time=time,
            detail=f"{seat} objects to his partner's concession ({claim}): no concession, "
                   "play continues (68B2)",
            options=_OPTIONS_68B2, extra=extra)
    if seat in claim.accepted_by:
        return Irregularity(
            Kind.DISPUTED_CLAIM, "69B", seat=claim.claimer, trick=trick, time=time,
            detail=f"{seat} withdraws his agreement to {claim} (69B)",
            options=_OPTIONS_69B, extra=extra)
    trump = ("; an opponent still holds a trump (70C)" if claim.opponent_holds_trump else "")
    return Irregularity(
        Kind.DISPUTED_CLAIM, "70", seat=claim.claimer, trick=trick, time=time,
        detail=f"{seat} disputes: {claim}{trump}", options=_OPTIONS_70, extra=extra)
