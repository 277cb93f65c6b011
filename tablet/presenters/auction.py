"""The auction screen: the bidding pad, the auction record, whose turn it is, and this seat's
hand shown (not played).

What the Laws decide here, each with its test (tests/tablet/test_auction.py):

* the calls offered are those of :attr:`bridgecore.auction.Auction.legal_calls` for the
  player in turn, the auction rebuilt from the public record (Laws 18-21, 27-39 prevented in
  strict mode, 9A3); in bidding-box mode every call can be made, as with a real box, and the
  hub alerts the director of what is not proper;
* STOP (FFB Annex I): a jump bid carries the STOP flag, and the jumper's left-hand opponent
  cannot call for ``stop_seconds`` (about 10 s) after it appears;
* a self-alert is shown to the opponents and never to the caller's partner (Laws 16, 40);
* undo only before partner has called, and never once the opening lead is faced (25A, 41C).
"""

from __future__ import annotations

from typing import Any

from bridgecore.auction import Auction
from bridgecore.calls import ALL_BIDS, DOUBLE, PASS, REDOUBLE, Call
from bridgecore.errors import BridgeError
from tablet.model import SEATS, TableModel, seat_of
from tablet.presenters.common import (
    LIVE,
    AuctionCell,
    CallOption,
    CardOption,
    Event,
    PresenterError,
    auction_cells,
    card_options,
    is_jump,
)
from tablet.presenters.rectify import RectifyPresenter

__all__ = ["AuctionPresenter"]

_PAD_CALLS: tuple[Call, ...] = (PASS, DOUBLE, REDOUBLE, *ALL_BIDS)


class AuctionPresenter:
    """``AuctionPresenter(model, stop_seconds=10.0)``: what the auction screen shows, and the
    ``call`` and ``undo`` events its pad sends."""

    def __init__(self, model: TableModel, stop_seconds: float = 10.0):
        self.model = model
        self.stop_seconds = stop_seconds
        self.alert_armed = False
        self.explanation = ""
        self.stop_armed = False
        self._last_jump: tuple[str, int] | None = None
        self._jumps: dict[tuple[Any, int], float] = {}   # (board, call index) -> first seen
        model.watch(self._note_jump)

    # STOP (FFB Annex I) ----------------------------------------------------------------------
    def _note_jump(self) -> None:
        """Remember when a jump bid was first seen (the STOP wait starts then)."""
        self._last_jump = jump = self._find_jump()
        if jump is not None:
            self._jumps.setdefault((self.model.board_number, jump[1]), self.model.clock())

    @property
    def last_jump(self) -> tuple[str, int] | None:
        """(seat, call index) when the last call of the auction is a jump bid in force."""
        return self._last_jump

    def _find_jump(self) -> tuple[str, int] | None:
        auction = self.model.auction
        if auction is None or not len(auction):
            return None
        entries = auction.entries
        last = entries[-1]
        if last.status.value not in LIVE or not last.call.is_bid:
            return None
        before = Auction(auction.dealer)
        for e in entries[:-1]:
            before.push(e.seat, e.call)
        if not is_jump(last.call, before.last_bid):
            return None
        return last.seat.letter, last.index

    @property
    def stop_wait(self) -> float:
        """Seconds this tablet's pad stays locked after a jump bid by the right-hand opponent
        of the player in turn (FFB Annex I: LHO waits about 10 s); 0 when free."""
        model = self.model
        jump = self.last_jump
        turn = model.turn
        if jump is None or model.phase != "auction" or turn is None:
            return 0.0
        jumper = seat_of(jump[0])
        if jumper is None or jumper.lho.letter != turn:
            return 0.0
        if model.seat is not None and model.seat != turn:
            return 0.0
        seen = self._jumps.get((model.board_number, jump[1]), model.clock())
        return max(0.0, self.stop_seconds - (model.clock() - seen))

    @property
    def stop_banner(self) -> str | None:
        """'STOP: jump bid by North' while the wait runs, for every tablet of the table."""
        model = self.model
        jump = self.last_jump
        if jump is None or model.phase != "auction":
            return None
        seen = self._jumps.get((model.board_number, jump[1]))
        if seen is None or model.clock() - seen >= self.stop_seconds:
            return None
        return model.tr("stop.shown", seat=model.tr.seat(jump[0]))

    # What the screen shows -------------------------------------------------------------------
    @property
    def cells(self) -> list[AuctionCell]:
        """The auction record (:func:`tablet.presenters.common.auction_cells`)."""
        return auction_cells(self.model)

    @property
    def turn_text(self) -> str:
        """Whose turn it is to call, in big letters (what a per-table tablet shows)."""
        model = self.model
        tr = model.tr
        if model.phase != "auction":
            return ""
        turn = model.turn
        if turn is None:
            return tr("auction.over")
        wait = RectifyPresenter(model).wait_text
        if wait is not None:   # 9B2: an irregularity waits for the director
            return wait
        if model.seat == turn:
            return tr("auction.your_turn")
        return tr("auction.turn", seat=tr.seat(turn))

    @property
    def hand(self) -> list[CardOption]:
        """This seat's cards, shown while the auction goes on (not played)."""
        return card_options(self.model, self.model.own_cards, None)

    @property
    def pad_seat(self) -> str | None:
        """The seat the bidding pad calls for: this tablet's, or the player in turn's."""
        return self.model.seat if self.model.seat is not None else self.model.turn

    @property
    def call_options(self) -> list[CallOption]:
        """Pass, X, XX then the 35 bids. Strict: only the legal calls of the player in turn
        (18-21, 27-39 prevented); bidding-box mode: every call, as with a real box, the hub
        alerting the director of what is not proper. Nothing during a STOP wait."""
        model = self.model
        auction = model.auction
        active = model.phase == "auction" and auction is not None and not auction.is_over
        seat = self.pad_seat
        turn = None if auction is None else auction.turn
        legal = set(auction.legal_calls) if active and auction is not None and seat is not None \
            and turn is not None and turn.letter == seat else set()
        locked = self.stop_wait > 0
        last = None if auction is None else auction.last_bid
        out = []
        for call in _PAD_CALLS:
            proper = call in legal
            enabled = active and seat is not None and not locked and (
                proper if model.strict else True)
            out.append(CallOption(str(call), model.tr.call(str(call)), enabled, proper,
                                  is_jump(call, last)))
        return out

    @property
    def undo_seat(self) -> str | None:
        """Whose last call the Undo button takes back: this seat's, or (per table) the last
        caller's; None when Law 25A no longer allows it (partner has called since) or the
        opening lead is faced (the state no longer carries the auction)."""
        model = self.model
        entries = model.auction_entries
        if not entries or model.phase not in ("auction", "play"):
            return None
        if model.phase == "play" and model.trick_cards:
            return None
        seats = [e.seat for e in entries]
        seat = model.seat if model.seat is not None else seats[-1]
        if seat not in seats or seat not in SEATS:
            return None
        mine = len(seats) - 1 - seats[::-1].index(seat)
        partner = SEATS[(SEATS.index(seat) + 2) % 4]
        if partner in seats[mine + 1:]:
            return None
        return seat

    # Commands: each returns the event to send ------------------------------------------------
    def set_alert(self, on: bool, explanation: str = "") -> None:
        """Arm (or not) an alert, with a written explanation, for this seat's next call."""
        self.alert_armed = on
        self.explanation = explanation.strip() if on else ""
        self.model.changed()

    def set_stop(self, on: bool) -> None:
        """Show STOP before the next bid (a jump bid always carries it)."""
        self.stop_armed = on
        self.model.changed()

    def call(self, call: str) -> Event:
        """Make ``call`` ("1NT", "Pass", "X", "XX") for the pad's seat."""
        model = self.model
        try:
            parsed = Call.parse(call)
        except (BridgeError, ValueError):
            raise PresenterError("err.illegal_call") from None
        text = str(parsed)
        option = next((o for o in self.call_options if o.call == text), None)
        if option is None or not option.enabled:
            if self.stop_wait > 0:
                raise PresenterError("err.stop_wait")
            turn = model.turn
            if model.phase == "auction" and turn is not None and self.pad_seat != turn:
                raise PresenterError("err.not_your_turn", seat=model.tr.seat(turn))
            raise PresenterError("err.illegal_call" if model.phase == "auction"
                                 else "err.not_now")
        seat = self.pad_seat
        assert seat is not None
        body: dict[str, Any] = {"seat": seat, "call": text, "alert": self.alert_armed}
        if self.alert_armed and self.explanation:
            body["explanation"] = self.explanation
        if parsed.is_bid and (option.jump or self.stop_armed):
            body["stop"] = True
        self.alert_armed, self.explanation, self.stop_armed = False, "", False
        model.changed()
        return "call", body

    def undo(self) -> Event:
        """Take back the last call (Law 25A: before partner has called)."""
        seat = self.undo_seat
        if seat is None:
            mine = any(e.seat == self.model.seat for e in self.model.auction_entries)
            raise PresenterError("err.undo_late" if mine and self.model.seat is not None
                                 else "err.undo_none")
        return "undo", {"seat": seat}
