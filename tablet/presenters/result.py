"""The result screen: the result the hub computed from the play (never typed on the tablet),
the other side's confirmation (Law 79A; disagreeing calls the director, 79B), then the hand
record, only once the board is finished at this table and its result answered here. The
traveller and the double-dummy table beside it are :mod:`tablet.results`'."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from bridgecore.cards import Seat
from bridgecore.deal import Deal
from bridgecore.errors import BridgeError
from tablet.model import TableModel, side_of
from tablet.presenters.common import Event, PresenterError

__all__ = ["ResultPresenter", "ResultView"]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class ResultView:
    """The result as the hub computed it from the play (never typed on the tablet)."""

    contract: str             # "4S", "3NTX", "PASS"
    declarer: str | None
    tricks: int | None
    score_ns: int
    lines: tuple[str, ...]    # for the players, in their language
    pending: bool = False     # worked out here from entries the hub has not yet confirmed


class ResultPresenter:
    """``ResultPresenter(model, confirming_side="EW")``: what the result screen shows, and
    the ``result_confirm`` event its buttons send. North keeps a table's tablet, so East-West
    confirm by default."""

    def __init__(self, model: TableModel, confirming_side: str = "EW"):
        if confirming_side not in ("NS", "EW"):
            raise ValueError(f"confirming_side {confirming_side!r} is not NS or EW")
        self.model = model
        self.confirming_side = confirming_side
        self._dismissed: set[Any] = set()                  # boards whose result was left
        self._confirmed: dict[tuple[Any, str], bool] = {}  # (board, seat) -> agreed

    def hub_state_changed(self) -> None:
        """A board back in play is shown again when it ends."""
        if self.model.phase in ("auction", "play"):
            self._dismissed.discard(self.model.board_number)

    def refused(self, kind: Any, body: dict[str, Any]) -> None:
        """A refused confirmation is forgotten: the screen asks again."""
        if kind == "result_confirm":
            self._confirmed.pop((self.model.board_number, str(body.get("seat"))), None)

    @property
    def dismissed(self) -> bool:
        """The players left this board's result for the board screen."""
        return self.model.board_number in self._dismissed

    @property
    def view(self) -> ResultView | None:
        """The result at the table once the board is over (the hub computes it from the
        play, an accepted claim included: never typed)."""
        model = self.model
        data = model.result
        if model.phase != "over" or data is None:
            return None
        tr = model.tr
        contract, score = data.contract, data.score_ns
        declarer, tricks = data.declarer, data.tricks
        pending = model.marks.result
        if contract == "PASS" or declarer is None or tricks is None:
            return ResultView("PASS", None, None, 0, (tr("result.passed_out"),
                                                      tr("result.score", ns=0, ew=0)), pending)
        level = int(contract[0]) if contract[:1].isdigit() else 0
        over = tricks - 6 - level
        outcome = (tr("result.made") if over == 0 else tr("result.over", n=over) if over > 0
                   else tr("result.down", n=-over))
        lines = (tr("result.line", contract=model.contract_label(contract),
                    seat=tr.seat(declarer), tricks=tricks), outcome,
                 tr("result.score", ns=f"{score:+d}" if score else "0",
                    ew=f"{-score:+d}" if score else "0"))
        return ResultView(contract, declarer, tricks, score, lines, pending)

    @property
    def confirmed(self) -> bool:
        return self.model.confirmed

    @property
    def confirm_seats(self) -> tuple[str, ...]:
        """Who confirms the result from this tablet (Law 79A: the other side; North keeps a
        per-table tablet, so East-West): empty once confirmed or answered here."""
        model = self.model
        if model.phase != "over" or self.confirmed:
            return ()
        board = model.board_number
        side = self.confirming_side
        seats: tuple[str, ...]
        if model.seat is None:
            seats = (side[0],)
        else:
            seats = (model.seat,) if side_of(model.seat) == side else ()
        return tuple(s for s in seats if (board, s) not in self._confirmed)

    @property
    def disagreed(self) -> bool:
        board = self.model.board_number
        return any(not ok for (b, _), ok in self._confirmed.items() if b == board)

    @property
    def hand_record(self) -> dict[str, list[str]]:
        """The four hands, only once the board is finished here and its result confirmed or
        answered from this tablet (the state carries the deal only once it is over)."""
        model = self.model
        text = model.deal
        board = model.board_number
        if model.phase != "over" or text is None:
            return {}
        answered = any(b == board for b, _ in self._confirmed)
        if not (self.confirmed or answered):
            return {}
        try:
            deal = Deal.parse(text)
        except (BridgeError, ValueError) as err:
            log.warning("hand record %r not understood: %s", text, err)
            return {}
        return {s.letter: [str(c) for c in deal[s]] for s in Seat}

    # Commands ------------------------------------------------------------------------------
    def confirm(self, accept: bool, seat: str | None = None) -> Event:
        """The other side agrees with the result, or not (79A; disagreeing calls the
        director)."""
        model = self.model
        seats = self.confirm_seats
        who = seat if seat is not None else (seats[0] if seats else None)
        if who is None or who not in seats:
            raise PresenterError("err.not_now")
        self._confirmed[(model.board_number, who)] = bool(accept)
        if not accept:
            model.notify(model.tr("result.disagreed"), "warning")
        model.changed()
        return "result_confirm", {"seat": who, "accept": bool(accept)}

    def next_board(self) -> None:
        """Leave the result screen for the board screen."""
        if self.model.phase == "over":
            self._dismissed.add(self.model.board_number)
        self.model.changed()
