"""The laws audit of a game record: what ``tenace check`` reports for each board.

From a :class:`~bridgecore.record.GameRecord` it replays the deal, the auction
and the play through bridgecore's engines with every detector on, and gives the
contract, declarer, tricks as played, tricks after the Law 64 transfers
(attention drawn at the end of play, within the round), the North-South score
(Law 77) and every irregularity the record shows.

An incomplete play with a Result (a claim, as PBN and LIN records end a board)
is taken as a claim by declarer of the remaining tricks, accepted by the
defenders (Laws 68, 69A); that establishes any revoke of the declaring side
(63A3).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bridgecore.auction import Auction
from bridgecore.calls import Contract
from bridgecore.cards import Seat
from bridgecore.deal import Deal
from bridgecore.editions import DEFAULT_EDITION, Edition
from bridgecore.irregularity import Irregularity, Kind
from bridgecore.play import Play
from bridgecore.record import GameRecord, RecordProblem
from bridgecore.scoring import score_ns
from bridgecore.vulnerability import Vulnerability

__all__ = ["BoardAudit", "Setting", "audit_record", "deal_irregularities", "read_setting"]

_DEAL_KINDS = {
    "wrong_card_count": Kind.WRONG_CARD_COUNT,
    "duplicate_card": Kind.DUPLICATE_CARD,
    "missing_card": Kind.MISSING_CARD,
}


@dataclass(slots=True)
class BoardAudit:
    """What the audit found on one board."""

    board: int | None
    contract: Contract | None
    passed_out: bool
    declarer: Seat | None
    tricks: int | None
    tricks_rectified: int | None
    score_ns: int | None
    irregularities: list[Irregularity] = field(default_factory=list)
    problems: list[RecordProblem] = field(default_factory=list)

    @property
    def contract_text(self) -> str | None:
        if self.passed_out:
            return "PASS"
        return None if self.contract is None else str(self.contract)

    def to_json(self) -> dict[str, Any]:
        """One line of ``tenace check --json``."""
        out: dict[str, Any] = {
            "board": self.board,
            "contract": self.contract_text,
            "declarer": None if self.declarer is None else self.declarer.letter,
            "tricks": self.tricks,
            "tricks_rectified": self.tricks_rectified,
            "score_ns": self.score_ns,
            "irregularities": [i.to_json() for i in self.irregularities],
        }
        if self.problems:
            out["problems"] = [str(p) for p in self.problems]
        return out


@dataclass(frozen=True, slots=True)
class Setting:
    """What a record says of its board before the play: dealer and vulnerability (the
    record's, else Law 2's from the board number), the contract reached (its auction's,
    else its Contract tag's) and the auction's irregularities."""

    dealer: Seat | None
    vulnerability: Vulnerability | None
    contract: Contract | None
    passed_out: bool
    auction_irregularities: tuple[Irregularity, ...] = ()


def read_setting(record: GameRecord, edition: Edition = DEFAULT_EDITION) -> Setting:
    """The :class:`Setting` of ``record``'s board, as the audit reads it."""
    board = record.board
    dealer = record.dealer
    if dealer is None and board is not None and board >= 1:
        dealer = Seat.dealer_of(board)
    vul = record.vulnerability
    if vul is None and board is not None and board >= 1:
        vul = Vulnerability.of_board(board)
    contract: Contract | None = None
    passed_out = False
    found: tuple[Irregularity, ...] = ()
    if record.calls and dealer is not None:
        auction = Auction(dealer, edition)
        for c in record.calls:
            auction.push(c.seat, c.call, c.time, alert=c.alert, explanation=c.explanation)
        found = tuple(auction.irregularities)
        if auction.is_over:  # an auction still in progress (PBN "+", "*") has no contract
            passed_out = auction.is_passed_out
            contract = auction.contract
    elif not record.calls:
        contract = record.contract
        passed_out = record.passed_out
        if contract is not None and contract.declarer is None and record.declarer is not None:
            contract = Contract(contract.level, contract.strain, contract.risk, record.declarer)
    return Setting(dealer, vul, contract, passed_out, found)


def deal_irregularities(deal: Deal) -> list[Irregularity]:
    """Every problem of a deal in play (Laws 1, 7B, 13, 14) as an irregularity: wrong
    counts, duplicate and missing cards, all at once."""
    return [Irregularity(_DEAL_KINDS[p.kind], p.law,
                         seat=p.seats[0] if len(p.seats) == 1 else None, detail=str(p),
                         extra=(("card", str(p.card)),) if p.card is not None else ())
            for p in deal.problems()]


def audit_record(record: GameRecord, edition: Edition = DEFAULT_EDITION) -> BoardAudit:
    """Audit one board of a record against the Laws of ``edition``."""
    found: list[Irregularity] = []
    problems = list(record.problems)
    deal = record.deal
    # A record may give only some hands (PBN "-") or an end position (a diagram): those
    # are not deals in play, so their card counts are not irregularities.
    partial = deal is not None and (bool(deal.unknown) or deal.is_end_position)
    deal_problems = [] if deal is None or partial else deal_irregularities(deal)
    deal_ok = deal is not None and not partial and not deal_problems
    found.extend(deal_problems)

    setting = read_setting(record, edition)
    vul = setting.vulnerability
    contract, passed_out = setting.contract, setting.passed_out
    found.extend(setting.auction_irregularities)

    tricks: int | None = None
    rectified: int | None = None
    if contract is not None and contract.declarer is not None:
        tricks, rectified = _audit_play(record, contract, deal_ok, edition, found, problems)

    score: int | None = None
    if passed_out:
        score = 0
    elif contract is not None and contract.declarer is not None and rectified is not None \
            and vul is not None:
        score = score_ns(contract, rectified, vul.is_vulnerable(Seat.NORTH),
                         vul.is_vulnerable(Seat.EAST))
    return BoardAudit(record.board, contract, passed_out,
                      None if contract is None else contract.declarer,
                      tricks, rectified, score, found, problems)


def _audit_play(record: GameRecord, contract: Contract, deal_ok: bool, edition: Edition,
                found: list[Irregularity], problems: list[RecordProblem]
                ) -> tuple[int | None, int | None]:
    """Replay the play; returns (tricks as played, tricks after Law 64)."""
    declared = record.claim if record.claim is not None else record.result
    if declared is not None and not 0 <= declared <= 13:
        problems.append(RecordProblem(f"the result {declared} does not fit: tricks are 0-13",
                                      record.file, record.line, record.board))
        declared = None
    if not record.plays or record.deal is None or not deal_ok:
        return declared, declared
    play = Play(record.deal, contract, edition)
    for c in record.plays:
        play.push(c.seat, c.card, c.time)
    if not play.is_complete and declared is not None:
        declarer = contract.declarer
        assert declarer is not None
        remaining = 13 - len(play.completed_tricks)
        already = play.tricks_won(declarer.side)
        claimed = declared - already
        if 0 <= claimed <= remaining:
            when = record.plays[-1].time
            play.claim(declarer, claimed, when)
            for defender in (declarer.lho, declarer.rho):
                play.accept(defender, when)
        else:
            problems.append(RecordProblem(
                f"the result {declared} does not fit the play so far "
                f"({already} tricks won by declarer, {remaining} to play)",
                record.file, record.line, record.board))
    result = play.result()
    found.extend(i for i in play.irregularities if i.kind is not Kind.REVOKE)
    found.extend(play.revoke_irregularities())
    if result.complete or result.claimed:
        return result.tricks_as_played, result.tricks_rectified
    return declared, declared
