"""A table's claims and results: a claim and its answers (Laws 68-70), the result at the
table and its confirmation by the side not keeping the record (79A), and, at a round's end,
the boards not finished and the results not confirmed (8, 79A).

:class:`TableResults` is a part of :class:`hub.table.TableState` (as :mod:`hub.pockets` and
:mod:`hub.reads` are); :func:`result_words` says a result as a director reads it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bridgecore.cards import Seat, Side
from bridgecore.errors import StateError
from bridgecore.irregularity import Irregularity
from bridgecore.scoring import score_ns
from bridgecore.text import Text
from hub.alerts import OPTIONS, Alert, HubKind
from hub.roles import NOT_YOUR_SEAT
from hub.sitting import SEATS, Outcome, Sitting, TableContext
from wire.protocol import Envelope

__all__ = ["RECORDING_SIDE", "TableResults", "result_words"]

# Law 79A: the side keeping the table's record (North keeps the table tablet, docs/protocol.md
# 7.9); the other side confirms the result.
RECORDING_SIDE = Side.NS


class TableResults:
    """Claims, results and their confirmation (a part of :class:`hub.table.TableState`)."""

    if TYPE_CHECKING:
        id: str
        context: TableContext
        sitting: Sitting | None
        sittings: dict[tuple[int, int], Sitting]

        def _base(self) -> str: ...
        def _ack(self, env: Envelope, t: float, changed: bool,
                 alerts: Any = (), reason: str = "") -> Outcome: ...
        def _reject(self, env: Envelope, t: float, code: str, reason: Any) -> Outcome: ...
        def _alert(self, key: str, t: float, kind: str, law: str, *, seats: Any = (),
                   call: int | None = None, trick: int | None = None,
                   occurred: float | None = None, detail: Any = "", facts: Any = None,
                   options: Any = (), source: str = "") -> Alert | None: ...
        def _irregularity_alert(self, key: str, irr: Irregularity, t: float,
                                facts: Any = None, detail: Any = None,
                                source: str = "") -> Alert | None: ...
        def _after(self, s: Sitting, t: float) -> list[Alert | None]: ...
        def finished(self, board: int) -> bool: ...
        def evidence(self) -> dict[str, Any]: ...

    # Claims and results -------------------------------------------------------------------
    def _claim(self, env: Envelope, t: float) -> Outcome:
        s = self.sitting
        play = None if s is None else s.board.play
        if s is None or play is None:
            return self._reject(env, t, "wrong_state", Text.of("deny.no_play"))
        seat = SEATS[env.body["seat"]]
        if seat is play.dummy:
            return self._reject(env, t, "wrong_state", Text.of("deny.dummy_no_claim"))
        try:
            play.claim(seat, env.body["tricks"], env.time, env.body.get("statement") or "")
        except StateError as err:
            return self._reject(env, t, "wrong_state", str(err))
        except ValueError as err:
            return self._reject(env, t, "malformed", str(err))
        return self._ack(env, t, True, self._after(s, t))  # a claim establishes (63A3)

    def _claim_answer(self, env: Envelope, t: float) -> Outcome:
        s = self.sitting
        play = None if s is None else s.board.play
        if s is None or play is None:
            return self._reject(env, t, "wrong_state", Text.of("deny.no_play"))
        seat = SEATS[env.body["seat"]]
        claim = play.claims[-1] if play.claims else None
        if (env.body["accept"] and claim is not None and seat is play.dummy
                and claim.claimer.side is not play.declarer.side):
            # A defender's claim is accepted by declarer (69A): dummy's agreement is not
            # asked, and may not stand in for declarer's. (His own side's acceptance is
            # refused by bridgecore: wrong_state.)
            return self._reject(env, t, NOT_YOUR_SEAT, Text.of("deny.dummy_accepts", seat=seat))
        alerts: list[Alert | None] = []
        try:
            if env.body["accept"]:
                play.accept(seat, env.time)
            else:
                irr = play.dispute(seat, env.time)
                alerts.append(self._irregularity_alert(
                    f"{self._base()}:claim:{len(play.claims)}:{seat}", irr, t))
        except StateError as err:
            return self._reject(env, t, "wrong_state", str(err))
        alerts += self._after(s, t)
        return self._ack(env, t, True, alerts)

    def result(self, s: Sitting | None = None) -> dict[str, Any] | None:
        """The result at the table once the board is over: tricks as played (an accepted
        claim included) and the score on them; the Law 64 transfer with attention drawn at
        the end of play is only proposed (``tricks_rectified``): it is the director's."""
        s = s or self.sitting
        if s is None or not s.over:
            return None
        board = s.board
        play = board.play
        if play is None:
            return {"contract": "PASS", "declarer": None, "tricks": None, "score_ns": 0,
                    "tricks_rectified": None, "score_ns_rectified": 0}
        outcome = play.result()
        vul = board.vulnerability
        ns, ew = vul.is_vulnerable(Seat.NORTH), vul.is_vulnerable(Seat.EAST)
        return {"contract": str(play.contract), "declarer": play.declarer.letter,
                "tricks": outcome.tricks_as_played,
                "score_ns": score_ns(play.contract, outcome.tricks_as_played, ns, ew),
                # What Law 64 would give with attention drawn now: the director's to apply.
                "tricks_rectified": outcome.tricks_rectified,
                "score_ns_rectified": score_ns(play.contract, outcome.tricks_rectified, ns, ew)}

    def _result_confirm(self, env: Envelope, t: float) -> Outcome:
        s = self.sitting
        if s is None or not s.over:
            return self._reject(env, t, "wrong_state", Text.of("deny.board_not_over"))
        seat = SEATS[env.body["seat"]]
        accept = bool(env.body["accept"])
        if accept and s.board.play is not None and seat.side is RECORDING_SIDE:
            # 79A: the other side than the one keeping the record agrees to it. North keeps
            # the table's record (section 7.9), so East-West confirm; a passed-out board has
            # no tricks to agree. Anyone may disagree (79B: the director rules).
            return self._reject(env, t, NOT_YOUR_SEAT, Text.of(
                "deny.recording_side", seat=seat, side=str(RECORDING_SIDE)))
        s.confirmations[seat.letter] = (accept, env.time)
        alerts: list[Alert | None] = []
        if not accept:
            result = self.result(s)
            play = s.board.play
            alerts.append(self._alert(
                f"{self._base()}:result:{seat.letter}", t, HubKind.RESULT_DISAGREES.value,
                "79A", seats=(seat,), occurred=env.time,
                detail=Text.of("alert.result_disagrees", seat=seat,
                               result=result_words(result)),
                facts={"result": result, "by": seat.letter, "winners": [] if play is None
                       else [x.winner.letter if x.winner else None
                             for x in play.completed_tricks]},
                options=OPTIONS["result"]))
        return self._ack(env, t, True, alerts)

    # The clock ----------------------------------------------------------------------------
    def check_round_end(self, round: int, deadline: float, t: float) -> list[Alert]:
        """At or after the end of ``round`` (``deadline``): boards not finished (late table,
        Law 8, 90B2) and results of boards over by then not confirmed (8C, 79A)."""
        a = self.context.assignment(self.id, round)
        if a is None or not a.plays:
            return []
        out: list[Alert | None] = []
        unfinished = [b for b in a.boards if not self.finished(b)]
        if unfinished:
            out.append(self.context.alerts.raise_alert(
                f"{self.id}:r{round}:late", kind=HubKind.LATE_TABLE.value, law="8",
                table=self.id, round=round, board=None, detected=t,
                detail=Text.of("alert.late_table", table=self.id, round=round,
                               boards=", ".join(map(str, unfinished))),
                facts={"deadline": deadline, "unfinished": unfinished},
                evidence=self.evidence))
        for (r, number), s in self.sittings.items():
            if (r == round and s.ended is not None and s.ended <= deadline
                    and not any(ok for ok, _ in s.confirmations.values())):
                out.append(self.context.alerts.raise_alert(
                    f"{self.id}:r{r}:b{number}:unconfirmed", kind=HubKind.RESULT_UNCONFIRMED.value,
                    law="79A", table=self.id, round=r, board=number, detected=t,
                    detail=Text.of("alert.result_unconfirmed", board=number,
                                   result=result_words(self.result(s))),
                    facts={"result": self.result(s), "deadline": deadline},
                    evidence=self.evidence))
        return [x for x in out if x is not None]


def result_words(result: dict[str, Any] | None) -> Text:
    """A table's result (:meth:`TableState.result`) as a director reads it: "3NT by North,
    8 tricks (NS -50)", "passed out" (a text: hub.texts renders it)."""
    if result is None:
        return Text.of("result.none")
    if result["contract"] == "PASS" or result["declarer"] is None:
        return Text.of("result.passed_out")
    return Text.of("result.made", contract_call=result["contract"],
                   seat=Seat.parse(result["declarer"]), tricks=result["tricks"],
                   score=f"{result['score_ns']:+d}")
