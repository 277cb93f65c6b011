"""A table's views: what all four players may see (:meth:`TableViews.public_state`), what
one seat may see (:meth:`TableViews.seat_view`, with :meth:`TableViews.seat_key` telling
cheaply when it may have changed), and the snapshot a rebuild from the log must reproduce.
Alerts never go there.

:class:`TableViews` is a part of :class:`hub.table.TableState` (as :mod:`hub.pockets` and
:mod:`hub.reads` are).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bridgecore.cards import Seat, Side
from hub import explain, rectify
from hub.sitting import Sitting, TableContext
from hub.traveller import traveller_fields
from hub.withheld import hide_state
from hub.withheld import message as withheld_message

__all__ = ["TableViews"]


class TableViews:
    """The views of a table (a part of :class:`hub.table.TableState`)."""

    if TYPE_CHECKING:
        id: str
        round: int
        strict: bool
        tapping_only: bool
        context: TableContext
        sitting: Sitting | None
        sittings: dict[tuple[int, int], Sitting]
        seated: dict[Side, tuple[int, list[Any], float, int]]
        reader_errors: dict[str, dict[str, int]]

        def _pairs_json(self) -> dict[str, int | None]: ...
        def pairs(self, round: int | None = None) -> tuple[int | None, int | None]: ...
        def prompts(self) -> list[dict[str, Any]]: ...
        def result(self, s: Sitting | None = None) -> dict[str, Any] | None: ...

    def public_state(self) -> dict[str, Any]:
        """What all four players may see. Never a hidden hand: dummy's cards only once the
        opening lead is faced (41C, 41D); the auction only until then (Annex I), then the
        contract and whether it is doubled; the hand record only once the board is over,
        with the board's traveller so far and its double-dummy table (hub.traveller, Law 16).
        ``schedule``: this round's boards, the round clock, and where the pairs and the
        boards go next (what a player asks at the end of the round)."""
        out: dict[str, Any] = {"table": self.id, "round": self.round,
                               "pairs": self._pairs_json(), "phase": "waiting",
                               "strict": self.strict,
                               "schedule": self.context.round_info(self.id, self.round)}
        checked_in = [side.value for side in (Side.NS, Side.EW)
                      if (seated := self.seated.get(side)) is not None
                      and seated[3] == self.round]
        if checked_in:          # Law 5: a partner's tablet does not ask again
            out["checked_in"] = checked_in
        if self.tapping_only:   # the director's: reader cards not played (hub.reads)
            out["tapping_only"] = True
        s = self.sitting
        if s is None:
            return out
        board = s.board
        play = board.play
        turn = board.turn
        out.update(board=board.number, dealer=board.dealer.letter,
                   vulnerability=str(board.vulnerability), phase=s.phase,
                   turn=None if turn is None else turn.letter)
        faced = play is not None and bool(play.cards_played)
        if not faced:
            out["auction"] = [{"seat": e.seat.letter, "call": str(e.call), "alert": e.alert,
                               "status": e.status.value} for e in board.auction.entries]
        if board.auction.is_over:
            contract = None if play is None else play.contract
            out["contract"] = "PASS" if contract is None else str(contract)
            out["declarer"] = None if play is None else play.declarer.letter
            out["doubled"] = "" if contract is None else contract.risk.suffix
        if play is not None:
            trick = play.current_trick
            out["trick"] = None if trick is None else {
                "number": trick.number, "leader": trick.leader.letter,
                "cards": [[x.letter, str(c)] for x, c in trick.cards]}
            # The complete tricks (each has its winner), counted in one pass.
            done = play.completed_tricks
            ns = sum(1 for t in done[:13] if t.winner is not None and t.winner.side is Side.NS)
            out["tricks"] = {"NS": ns, "EW": min(len(done), 13) - ns}
            # The trick just quitted, all four cards faced: Law 66A lets a player have them
            # shown until his side has led or played to the next trick.
            winner = done[-1].winner if done else None
            if winner is not None:
                last = done[-1]
                out["last_trick"] = {"number": last.number, "leader": last.leader.letter,
                                     "cards": [[x.letter, str(c)] for x, c in last.cards],
                                     "winner": winner.letter}
            if faced and not _lead_awaits_choice(
                    rectify.irregularities(self.context.alerts, self.id, s), play.cards_played):
                out["dummy"] = {"seat": play.dummy.letter,
                                "cards": [str(c) for c in play.remaining_cards(play.dummy)]}
            if play.claims:
                claim = play.claims[-1]
                out["claim"] = {"claimer": claim.claimer.letter, "tricks": claim.tricks,
                                "remaining": claim.remaining, "statement": claim.statement,
                                "status": claim.status.value, "total": claim.tricks + sum(
                                    1 for x in play.tricks[:13 - claim.remaining]
                                    if x.winner is not None
                                    and x.winner.side is claim.claimer.side)}
                if claim.status.value == "open":   # 68C: he faces his hand
                    out["claim"]["cards"] = [
                        str(c) for c in play.remaining_cards(claim.claimer)]
        seen = rectify.irregularities(self.context.alerts, self.id, s)
        if seen:   # what happened at the table, the director called (7.15)
            out["irregularities"] = seen
        prompts = self.prompts()
        if prompts:   # the table is asked to confirm what its readers saw (hub.reads)
            out["prompts"] = prompts
        if s.over:
            out["result"] = self.result(s)
            out["confirmed"] = any(ok for ok, _ in s.confirmations.values())
            if s.has_record:
                out["deal"] = board.deal.pbn()
                # The traveller so far, the percentage, the double-dummy table (Law 16).
                out.update(traveller_fields(self, s))
        if s.withheld:   # not this table's board this round: nothing of it (hub.withheld)
            hide_state(out, board.number)
        return out

    def seat_key(self, seat: Seat) -> tuple[Any, ...]:
        """A value that changes whenever :meth:`seat_view` may (cheap: no view built)."""
        s = self.sitting
        if s is None:
            return ()
        play = s.board.play
        # The explanations and questions shown follow the auction (an undo takes a call's
        # away); with none given or asked, there is nothing of the auction in the view.
        said = ((len(s.explained), len(s.asked), sum(q.answered is None for q in s.asked),
                 len(s.board.auction)) if s.explained or s.asked else ())
        if play is not None:
            return (s.round, s.board.number, s.generation, s.withheld, play.held_mask(seat), said)
        return (s.round, s.board.number, s.generation, s.withheld,
                s.has_record or s.reads.get(seat), said)

    def seat_view(self, seat: Seat) -> dict[str, Any]:
        """What only ``seat`` may see: his own remaining cards. It changes only when his hand
        does (a new board, a card he played), so it is republished rarely; what he may call
        or play follows from it and the public state (the tablet works it out)."""
        out: dict[str, Any] = {"table": self.id, "seat": seat.letter, "board": None, "hand": []}
        s = self.sitting
        if s is None:
            return out
        board = s.board
        play = board.play
        out["board"] = board.number
        if s.withheld:   # not this table's board this round: no hand (hub.withheld)
            out["withheld"] = withheld_message(board.number)
        elif play is not None:
            out["hand"] = [str(c) for c in play.remaining_cards(seat)]
        else:
            out["hand"] = [str(c) for c in board.deal[seat]]
        for key, found in (("explanations", explain.explanations_for(s, seat)),
                           ("questions", explain.questions_for(s, seat))):
            if found:   # never partner's explanation (Law 16: hub.explain)
                out[key] = found
        return out

    def _replayable_state(self) -> dict[str, Any]:
        """The public state but its double-dummy table, which a worker solves when it can:
        what a rebuild from the log must reproduce exactly."""
        out = self.public_state()
        out.pop("dd", None)
        return out

    def snapshot(self) -> dict[str, Any]:
        """Everything replay must reproduce, as JSON (for comparing two rebuilds)."""
        boards = []
        for (r, number), s in self.sittings.items():
            play = s.board.play
            boards.append({
                "round": r, "board": number,
                "auction": [[e.seat.letter, str(e.call), e.time, e.alert, e.explanation,
                             e.status.value] for e in s.board.auction.entries],
                "play": [] if play is None else [[x.letter, str(c), tm]
                                                 for x, c, tm in play.history],
                "claims": [] if play is None else [
                    [c.claimer.letter, c.tricks, c.status.value] for c in play.claims],
                "reads": {x.letter: [str(c) for c in cards] for x, cards in s.reads.items()},
                "out": sorted(x.letter for x in s.out),
                "exposed": [list(e) for e in s.exposed], "stops": list(s.stops),
                "confirmations": {k: list(v) for k, v in s.confirmations.items()},
                "result": self.result(s), "ended": s.ended})
        return {"round": self.round, "strict": self.strict, "tapping_only": self.tapping_only,
                "reader_errors": self.reader_errors,
                "seated": {str(k): [v[0], v[1], v[2], v[3]] for k, v in self.seated.items()},
                "current": None if self.sitting is None else self.sitting.board.number,
                "boards": boards, "public": self._replayable_state(),
                "seats": {x.letter: self.seat_view(x) for x in Seat}}


def _lead_awaits_choice(seen: list[dict[str, Any]], played: int) -> bool:
    """Law 54: an opening lead out of turn is faced, and declarer has neither accepted it nor
    the director ruled, with no card played since: dummy is not spread yet (declarer may
    still spread his own hand and become dummy, 54A)."""
    return played == 1 and any(
        i["kind"] == "lead_out_of_turn" and i["trick"] == 1 and i["accepted"] is None
        and i["director"] == "called" for i in seen)
