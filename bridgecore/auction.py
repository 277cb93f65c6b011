"""The auction: a mutable aggregate fed a stream of calls (Laws 17-39).

``push(seat, call, time)`` records any call by any seat (a hub log or a game record being
replayed) and returns the irregularities it reveals; ``make_call`` raises
:class:`~bridgecore.errors.IllegalCallError` unless the call is legal, then pushes;
``pop()`` undoes the last push. Irregularities carry the rectifications the Laws give
(:mod:`bridgecore.auction_rules`); none is applied: the director rules (Laws 10, 81).

How the record is read until the director rules (deterministic):

* A call by the player in turn takes effect. An insufficient bid becomes the last bid: the
  LHO's next call accepts it (27A1); the offender's own next call, before anyone else's,
  replaces it (27C), as if it had been made instead.
* A call by a player obliged to pass takes effect; it stands if LHO calls next (37A), and
  the offender's own next call replaces it (37B).
* A double or redouble not permitted by Law 19 and a bid above seven are cancelled whatever
  the ruling (36, 38): they take their turn (the closing passes must follow them) but change
  neither the last bid nor the risk. The offender's own next call is their substitute.
* A call out of rotation waits, without effect ("pending"). If the offender's LHO calls
  next it is accepted (29A; also when LHO was the player in turn) and the auction continues
  from it: the players in between lose their turn. If the player in turn calls first it is
  cancelled and his call stands (28B; also when he is the offender's partner). A call by
  anyone else is itself out of rotation. When the player in turn is obliged to pass, his
  LHO's call is in rotation (28A): he is deemed to have passed.
* Three passes (before any bid: the last three of four) that include an accepted pass out
  of rotation do not end the auction: it reverts to the player who missed his turn and the
  passes from the one out of rotation on are cancelled (1997 Law 34, 2007 17E2, 2017 17D3).
* A second call by the same player before anyone else's is a change of call (25): the new
  call replaces the first, as if made instead (it stands under 25A, and under 25B once LHO
  calls), and waits for LHO's call. Changing the final pass reopens the auction.
* Any other call after the auction has ended is cancelled (39A) and changes nothing.

Pass obligations exist only when the director imposes them
(:meth:`Auction.impose_pass_obligation`). ``pop()`` restores the state as it was before
the last push, obligations imposed since included.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from bridgecore import auction_rules as rules
from bridgecore.calls import ALL_BIDS, DOUBLE, PASS, REDOUBLE, Call, CallKind, Contract, Risk
from bridgecore.cards import Seat
from bridgecore.editions import DEFAULT_EDITION, Edition
from bridgecore.errors import IllegalCallError, StateError
from bridgecore.irregularity import Irregularity, Kind, Rectification
from bridgecore.text import Text

__all__ = ["Auction", "CallEntry", "CallStatus", "PassObligation"]


class CallStatus(StrEnum):
    """What became of a recorded call (see the module docstring)."""

    MADE = "made"            # in rotation, stands
    PENDING = "pending"      # waits for LHO's call or for the director
    ACCEPTED = "accepted"    # stands because LHO called over it (25B1, 27A1, 29A, 37A)
    CANCELLED = "cancelled"  # cancelled by the Laws (28B, 34/17E2, 36, 38, 39A)
    WITHDRAWN = "withdrawn"  # replaced by the same player (25, 27C)


@dataclass(frozen=True, slots=True)
class CallEntry:
    """A call as recorded, with its metadata beside it and its 1-based index."""

    seat: Seat
    call: Call
    time: float | None
    alert: bool
    explanation: str | None
    index: int
    status: CallStatus

    def __str__(self) -> str:
        return f"{self.index}. {self.seat} {self.call}{'!' if self.alert else ''} ({self.status})"


@dataclass(frozen=True, slots=True)
class PassObligation:
    """An obligation imposed by the director: pass at the next turn or throughout.

    With ``no_double`` the seat may bid or pass but not double or redouble (30B2(b)).
    """

    throughout: bool
    law: str
    no_double: bool = False


_LIVE = frozenset({CallStatus.MADE, CallStatus.PENDING, CallStatus.ACCEPTED})
# What a call does in the current state.
_E_PASS, _E_BID, _E_INSUFFICIENT, _E_DOUBLE, _E_REDOUBLE, _E_ABOVE_SEVEN, _E_INADMISSIBLE = range(7)
_VOID = (_E_ABOVE_SEVEN, _E_INADMISSIBLE)
# The last call that took its turn and was not a pass.
_A_NONE, _A_BID, _A_DOUBLE, _A_REDOUBLE, _A_VOID = range(5)
_ACTION_OF = {_E_BID: _A_BID, _E_INSUFFICIENT: _A_BID, _E_DOUBLE: _A_DOUBLE,
              _E_REDOUBLE: _A_REDOUBLE, _E_ABOVE_SEVEN: _A_VOID, _E_INADMISSIBLE: _A_VOID}
_BIDS_ABOVE: tuple[tuple[Call, ...], ...] = tuple(ALL_BIDS[i + 1:] for i in range(-1, 35))
_NO_NAMERS: tuple[Seat | None, ...] = (None,) * 10
_NO_OBLIGATIONS: tuple[tuple[PassObligation, ...], ...] = ((), (), (), ())
# Undo record of one push: [state before, irregularities before, status changes, base],
# base = index of the push whose state-before this push's processing started from.
_STATE, _N_IRREGULARITIES, _CHANGES, _BASE = range(4)


class Auction:
    """The auction of one board, replayed call by call (see the module docstring)."""

    def __init__(self, dealer: Seat, edition: Edition = DEFAULT_EDITION) -> None:
        if not isinstance(dealer, Seat):
            raise TypeError(f"dealer must be a Seat, not {type(dealer).__name__}")
        if not isinstance(edition, Edition):
            raise TypeError(f"edition must be an Edition, not {type(edition).__name__}")
        self.dealer = dealer
        self.edition = edition
        self._raw: list[tuple[Seat, Call, float | None, bool, str | None]] = []
        self._status: list[CallStatus] = []
        self._irregularities: list[Irregularity] = []
        self._undo: list[list[Any]] = []
        self._entries: tuple[CallEntry, ...] | None = ()
        self._cur = 0
        self._cur_time: float | None = None
        # The state (saved before every push, see _save).
        self._turn: Seat | None = dealer
        self._last_bid: Call | None = None
        self._last_bid_seat: Seat | None = None
        self._risk = 0
        self._risk_seat: Seat | None = None
        self._last_action = _A_NONE
        self._passes = 0
        self._skip_from = 0  # index of an accepted pass out of rotation among the last passes
        self._pending: tuple[tuple[int, Seat, Call, Seat], ...] = ()
        self._awaiting: tuple[int, Seat] | None = None  # irregular call LHO may accept
        self._replaceable = 0  # index of a call its maker may replace at once (27C, 36B, 37B)
        self._obligations = _NO_OBLIGATIONS
        self._namers = _NO_NAMERS  # first seat of each side to name each strain

    # -- construction -------------------------------------------------------------------

    @classmethod
    def from_calls(cls, dealer: Seat, calls: Iterable[Call | str],
                   edition: Edition = DEFAULT_EDITION) -> Auction:
        """Push ``calls`` in rotation from ``dealer`` (``"1NT"``, ``"Pass"``, ... or Calls)."""
        auction = cls(dealer, edition)
        for i, call in enumerate(calls):
            auction.push(dealer.offset(i), Call.parse(call) if isinstance(call, str) else call)
        return auction

    def __len__(self) -> int:
        return len(self._raw)

    def __repr__(self) -> str:
        calls = " ".join(f"{s}:{c}" for s, c, *_ in self._raw)
        return f"<Auction dealer={self.dealer} {calls}>" if calls else \
            f"<Auction dealer={self.dealer}>"

    # -- state views ---------------------------------------------------------------------

    @property
    def turn(self) -> Seat | None:
        """The player in turn in the auction as it stands, None once it is over."""
        return self._turn

    @property
    def is_over(self) -> bool:
        return self._turn is None

    @property
    def is_passed_out(self) -> bool:
        """All four passed (22A1): no contract, no redeal."""
        return self._turn is None and self._last_bid is None

    @property
    def last_bid(self) -> Call | None:
        return self._last_bid

    @property
    def contract(self) -> Contract | None:
        """The final contract with its risk and declarer (22A2), once the auction is over."""
        bid = self._last_bid
        if self._turn is not None or bid is None or bid.strain is None:
            return None
        return Contract(bid.level, bid.strain, Risk(self._risk), self._current_declarer())

    @property
    def declarer(self) -> Seat | None:
        """First player of the contracting side to name the strain of the contract."""
        return self._current_declarer() if self._turn is None else None

    @property
    def dummy(self) -> Seat | None:
        declarer = self.declarer
        return None if declarer is None else declarer.partner

    @property
    def opening_leader(self) -> Seat | None:
        """LHO of the declarer (41A)."""
        declarer = self.declarer
        return None if declarer is None else declarer.lho

    @property
    def entries(self) -> tuple[CallEntry, ...]:
        if self._entries is None:
            self._entries = tuple(self._entry(i) for i in range(1, len(self._raw) + 1))
        return self._entries

    @property
    def irregularities(self) -> tuple[Irregularity, ...]:
        return tuple(self._irregularities)

    @property
    def pass_obligations(self) -> dict[Seat, tuple[PassObligation, ...]]:
        """The obligations in force, by seat."""
        return {seat: obl for seat, obl in zip(Seat, self._obligations, strict=True) if obl}

    @property
    def legal_calls(self) -> list[Call]:
        """The calls the player in turn may make (empty once the auction is over)."""
        seat = self._turn
        if seat is None:
            return []
        obligations = self._obligations[seat]
        if any(not o.no_double for o in obligations):
            return [PASS]
        calls = [PASS]
        if not obligations:
            if self._effect(seat, DOUBLE) == _E_DOUBLE:
                calls.append(DOUBLE)
            elif self._effect(seat, REDOUBLE) == _E_REDOUBLE:
                calls.append(REDOUBLE)
        bid = self._last_bid
        calls.extend(_BIDS_ABOVE[0 if bid is None else bid.rank + 1])
        return calls

    def is_legal(self, seat: Seat, call: Call) -> bool:
        """True when ``seat`` may make ``call`` now under the correct procedure (17-22)."""
        return self._illegal_reason(seat, call) is None

    # -- the director --------------------------------------------------------------------

    def impose_pass_obligation(self, seat: Seat, throughout: bool, law: str, *,
                               no_double: bool = False) -> None:
        """Register an obligation the director imposed (pass once or throughout; with
        ``no_double`` only doubles and redoubles are barred, 30B2(b)). An obligation for the
        next turn only ends with the seat's next call."""
        if not isinstance(seat, Seat):
            raise TypeError(f"seat must be a Seat, not {type(seat).__name__}")
        if not isinstance(law, str) or not law:
            raise TypeError("law must be a non-empty string such as '30B1'")
        if self._turn is None:
            raise StateError(f"the auction is over: no pass obligation for {seat} ({law})")
        obligation = PassObligation(bool(throughout), law, bool(no_double))
        obligations = list(self._obligations)
        obligations[seat] = (*obligations[seat], obligation)
        self._obligations = tuple(obligations)

    # -- checked and trusted calls ---------------------------------------------------------

    def make_call(self, seat: Seat, call: Call, time: float | None = None) -> None:
        """Make ``call`` for ``seat``; IllegalCallError unless it is legal now."""
        reason = self._illegal_reason(seat, call)
        if reason is not None:
            raise IllegalCallError(reason, self._illegal_text(seat, call))
        self.push(seat, call, time)

    def push(self, seat: Seat, call: Call, time: float | None = None, *, alert: bool = False,
             explanation: str | None = None) -> tuple[Irregularity, ...]:
        """Record any call by any seat; returns the irregularities it reveals."""
        if not isinstance(seat, Seat):
            raise TypeError(f"seat must be a Seat, not {type(seat).__name__}")
        if not isinstance(call, Call):
            raise TypeError(f"call must be a Call, not {type(call).__name__}")
        if time is not None and (isinstance(time, bool) or not isinstance(time, int | float)):
            raise TypeError(f"time must be a number or None, not {type(time).__name__}")
        if not isinstance(alert, bool):
            raise TypeError(f"alert must be a bool, not {type(alert).__name__}")
        if explanation is not None and not isinstance(explanation, str):
            raise TypeError(f"explanation must be a string, not {type(explanation).__name__}")
        n = len(self._irregularities)
        index = len(self._raw) + 1
        self._undo.append([self._save(), n, None, index - 1])
        self._raw.append((seat, call, time, alert, explanation))
        self._status.append(CallStatus.MADE)
        self._entries = None
        self._cur, self._cur_time = index, time
        self._route(seat, call, index)
        return tuple(self._irregularities[n:]) if len(self._irregularities) > n else ()

    def pop(self) -> CallEntry:
        """Undo the last push exactly; returns the call as it was recorded."""
        if not self._raw:
            raise StateError("pop() from an empty auction")
        entry = self._entry(len(self._raw))
        state, n, changes, _ = self._undo.pop()
        if changes:
            for i, old in reversed(changes):
                self._status[i - 1] = old
        self._raw.pop()
        self._status.pop()
        del self._irregularities[n:]
        self._restore(state)
        self._entries = None
        return entry

    def forget_undo(self) -> None:
        """Drop what :meth:`pop` and the rectifications of a later call need (the state
        before each call): the auction stays as recorded and takes no more calls or pops.
        For a finished board kept only for its record."""
        self._undo.clear()

    # -- state save/restore ------------------------------------------------------------------

    def _save(self) -> tuple[Any, ...]:
        return (self._turn, self._last_bid, self._last_bid_seat, self._risk, self._risk_seat,
                self._last_action, self._passes, self._skip_from, self._pending, self._awaiting,
                self._replaceable, self._obligations, self._namers)

    def _restore(self, state: tuple[Any, ...]) -> None:
        (self._turn, self._last_bid, self._last_bid_seat, self._risk, self._risk_seat,
         self._last_action, self._passes, self._skip_from, self._pending, self._awaiting,
         self._replaceable, self._obligations, self._namers) = state

    def _state_before(self, index: int) -> tuple[Any, ...]:
        """The state the processing of call ``index`` started from."""
        state: tuple[Any, ...] = self._undo[self._undo[index - 1][_BASE]][_STATE]
        return state

    def _set_status(self, index: int, status: CallStatus) -> None:
        old = self._status[index - 1]
        if old is status:
            return
        step = self._undo[-1]
        if step[_CHANGES] is None:
            step[_CHANGES] = []
        step[_CHANGES].append((index, old))
        self._status[index - 1] = status
        self._entries = None

    def _entry(self, index: int) -> CallEntry:
        seat, call, time, alert, explanation = self._raw[index - 1]
        return CallEntry(seat, call, time, alert, explanation, index, self._status[index - 1])

    def _current_declarer(self) -> Seat | None:
        bid, seat = self._last_bid, self._last_bid_seat
        if bid is None or seat is None or bid.strain is None:
            return None
        return self._namers[(seat & 1) * 5 + bid.strain]

    # -- classification ----------------------------------------------------------------------

    def _effect(self, seat: Seat, call: Call) -> int:
        """What ``call`` by ``seat`` does in the current state (Laws 18, 19, 38)."""
        kind = call.kind
        if kind is CallKind.PASS:
            return _E_PASS
        if kind is CallKind.BID:
            if call.level > 7:
                return _E_ABOVE_SEVEN
            bid = self._last_bid
            return _E_INSUFFICIENT if bid is not None and call.rank <= bid.rank else _E_BID
        if kind is CallKind.DOUBLE:
            other = self._last_bid_seat
            ok = self._last_action == _A_BID and other is not None and (seat ^ other) & 1
            return _E_DOUBLE if ok else _E_INADMISSIBLE
        other = self._risk_seat
        ok = self._last_action == _A_DOUBLE and other is not None and (seat ^ other) & 1
        return _E_REDOUBLE if ok else _E_INADMISSIBLE

    def _inadmissible_reason(self, seat: Seat, call: Call) -> str:
        return rules.inadmissible_reason(call.kind, seat, self._last_bid, self._last_bid_seat,
                                         self._risk, self._risk_seat)

    def _illegal_text(self, seat: Seat, call: Call) -> Text:
        """Why ``call`` is refused, as a message (the same cases as :meth:`_illegal_reason`)."""
        turn = self._turn
        if turn is None:
            return Text.of("deny.after_final_pass", call=call, seat=seat)
        if seat is not turn:
            return Text.of("deny.turn_to_call", seat=turn)
        effect = self._effect(seat, call)
        for o in self._obligations[seat]:
            if call.kind is not CallKind.PASS and not o.no_double:
                return Text.of("deny.must_pass", seat=seat, law=o.law, call=call)
            if o.no_double and effect in (_E_DOUBLE, _E_REDOUBLE):
                return Text.of("deny.no_double", seat=seat, law=o.law)
        if effect == _E_ABOVE_SEVEN:
            return Text.of("deny.above_seven", call=call)
        if effect == _E_INSUFFICIENT:
            return Text.of("deny.insufficient", call=call, last_call=self._last_bid,
                           last_seat=self._last_bid_seat)
        return Text.of("deny.inadmissible", call=call, seat=seat)

    def _illegal_reason(self, seat: Seat, call: Call) -> str | None:
        if not isinstance(seat, Seat) or not isinstance(call, Call):
            raise TypeError("is_legal/make_call take a Seat and a Call")
        turn = self._turn
        if turn is None:
            return f"the auction is over: {call} by {seat} would be a call after the final pass"
        if seat is not turn:
            return f"{call} by {seat} would be out of rotation: it is {turn}'s turn to call"
        effect = self._effect(seat, call)
        for o in self._obligations[seat]:
            if call.kind is not CallKind.PASS and not o.no_double:
                return f"{seat} must pass (Law {o.law}): {call} is not allowed"
            if o.no_double and effect in (_E_DOUBLE, _E_REDOUBLE):
                return f"{seat} may not double or redouble at this turn (Law {o.law})"
        if effect == _E_ABOVE_SEVEN:
            return f"bid above seven: {call} (Law 38)"
        if effect == _E_INSUFFICIENT:
            return f"insufficient bid {call} after {self._last_bid} by {self._last_bid_seat}"
        if effect == _E_INADMISSIBLE:
            return self._inadmissible_reason(seat, call)
        return None

    # -- routing a pushed call ------------------------------------------------------------------

    def _route(self, seat: Seat, call: Call, index: int) -> None:
        replaceable, self._replaceable = self._replaceable, 0
        if index > 1 and self._raw[index - 2][0] is seat and self._turn is not seat:
            prev = index - 1
            if replaceable == prev:
                self._replace(seat, call, index, prev, change=False)
                return
            if self._status[prev - 1] in _LIVE:
                self._replace(seat, call, index, prev, change=True)
                return
        self._settle_awaiting(seat)
        self._dispatch(seat, call, index)

    def _settle_awaiting(self, seat: Seat) -> None:
        awaiting = self._awaiting
        if awaiting is not None:
            self._awaiting = None
            if seat is awaiting[1].lho:
                self._set_status(awaiting[0], CallStatus.ACCEPTED)

    def _dispatch(self, seat: Seat, call: Call, index: int) -> None:
        turn = self._turn
        if turn is None:
            self._after_final_pass(seat, call, index)
            return
        pending = self._pending
        if pending:
            if seat is pending[-1][1].lho:  # 29A: the offender's LHO calls
                self._accept_pending()
                self._dispatch(seat, call, index)
                return
            if seat is turn:  # 28B: the player in turn calls first
                for p in pending:
                    self._set_status(p[0], CallStatus.CANCELLED)
                self._pending = ()
                self._in_rotation(seat, call, index)
                return
        elif seat is turn:
            self._in_rotation(seat, call, index)
            return
        elif seat is turn.lho and any(not o.no_double for o in self._obligations[turn]):
            self._clear_once(turn)  # 28A: RHO obliged to pass is deemed to have passed
            self._apply_pass(turn, 0, False)
            self._dispatch(seat, call, index)
            return
        self._out_of_rotation(seat, call, index)

    def _replace(self, seat: Seat, call: Call, index: int, prev: int, change: bool) -> None:
        """25 (change of call) or 27C/36B/37B/38C (replacement of an irregular call)."""
        original, t0 = self._raw[prev - 1][1], self._raw[prev - 1][2]
        after_final_pass = self._turn is None
        base = self._undo[prev - 1][_BASE]
        self._undo[-1][_BASE] = base
        if self._status[prev - 1] in _LIVE:
            self._set_status(prev, CallStatus.WITHDRAWN)
        self._restore(self._undo[base][_STATE])
        if change:
            time = self._cur_time
            extra: tuple[tuple[str, Any], ...] = (("original", str(original)),)
            detail = f"{seat} called {original}, then {call} before anyone else called"
            if t0 is not None and time is not None:
                elapsed = round(time - t0, 3)
                extra += (("elapsed", elapsed),)
                detail += f" ({elapsed:g} s later)"
            self._report(Kind.CHANGE_OF_CALL, "25", seat, index, detail,
                         rules.change_of_call_options(self.edition, seat, original,
                                                      after_final_pass), extra)
        self._settle_awaiting(seat)
        self._dispatch(seat, call, index)
        if change and self._status[index - 1] is CallStatus.MADE and self._turn is not None:
            self._set_status(index, CallStatus.PENDING)  # 25B1: until LHO calls
            self._awaiting = (index, seat)

    def _accept_pending(self) -> None:
        """29A: the last call out of rotation is accepted; earlier pending ones lapse."""
        *earlier, (index, seat, call, _) = self._pending
        for p in earlier:
            self._set_status(p[0], CallStatus.CANCELLED)
        self._pending = ()
        effect = self._effect(seat, call)
        if effect not in _VOID:
            self._set_status(index, CallStatus.ACCEPTED)
        self._clear_once(seat)
        self._turn = seat
        if effect == _E_PASS:
            self._apply_pass(seat, index, True)
        else:
            self._apply(seat, call, effect)

    def _in_rotation(self, seat: Seat, call: Call, index: int) -> None:
        effect = self._effect(seat, call)
        status = CallStatus.MADE
        if effect == _E_INSUFFICIENT:
            self._report_insufficient(seat, call, index)
            status = CallStatus.PENDING
        elif effect in _VOID:
            self._report_void(seat, call, index, effect, None)
            status = CallStatus.CANCELLED
        obligations = self._obligations[seat]
        if obligations:
            if (call.kind is not CallKind.PASS
                    and self._report_breach(seat, call, index, obligations)
                    and status is CallStatus.MADE):
                status = CallStatus.PENDING
            self._clear_once(seat)
        if status is not CallStatus.MADE:
            self._set_status(index, status)
            self._replaceable = index  # its maker's next call replaces it (27C, 36B, 37B, 38C)
            if status is CallStatus.PENDING:
                self._awaiting = (index, seat)  # LHO's next call accepts it (27A1, 37A)
        if effect == _E_PASS:
            self._apply_pass(seat, index, False)
        else:
            self._apply(seat, call, effect)

    def _out_of_rotation(self, seat: Seat, call: Call, index: int) -> None:
        turn = self._turn
        assert turn is not None
        relation = rules.relation(seat, turn)
        effect = self._effect(seat, call)
        if effect in _VOID:
            self._report_void(seat, call, index, effect, turn)
            self._set_status(index, CallStatus.CANCELLED)
            self._replaceable = index
        else:
            any_bid = self._last_bid is not None
            called_before = any(s is seat and self._status[i] in _LIVE
                                for i, (s, *_) in enumerate(self._raw[:index - 1]))
            detail = rules.out_of_rotation_detail(
                seat, call, turn, any_bid, self._last_bid if effect == _E_INSUFFICIENT else None)
            self._report(Kind.CALL_OUT_OF_ROTATION, ("30", "31", "32", "32")[call.kind], seat,
                         index, detail,
                         rules.out_of_rotation_options(self.edition, call.kind, seat, turn,
                                                       any_bid, called_before),
                         (("at_turn_of", relation),))
            self._set_status(index, CallStatus.PENDING)
        obligations = self._obligations[seat]
        if obligations and call.kind is not CallKind.PASS:
            self._report_breach(seat, call, index, obligations)
        self._pending += ((index, seat, call, turn),)

    def _after_final_pass(self, seat: Seat, call: Call, index: int) -> None:
        self._set_status(index, CallStatus.CANCELLED)
        declarer = self._current_declarer()
        ended = ("the auction was passed out" if declarer is None
                 else f"the auction ended in {self.contract} by {declarer}")
        self._report(Kind.CALL_AFTER_FINAL_PASS, "39", seat, index,
                     f"{seat} {rules.verb(call)} after the final pass ({ended})",
                     rules.after_final_pass_options(self.edition, call.kind, seat, declarer))

    # -- effects -----------------------------------------------------------------------------------

    def _apply(self, seat: Seat, call: Call, effect: int) -> None:
        """A call other than a pass takes its turn (bids, doubles, and void calls)."""
        if effect in (_E_BID, _E_INSUFFICIENT):
            strain = call.strain
            assert strain is not None
            self._last_bid, self._last_bid_seat = call, seat
            self._risk, self._risk_seat = 0, None
            slot = (seat & 1) * 5 + strain
            namers = self._namers
            if namers[slot] is None:
                self._namers = (*namers[:slot], seat, *namers[slot + 1:])
        elif effect == _E_DOUBLE:
            self._risk, self._risk_seat = 1, seat
        elif effect == _E_REDOUBLE:
            self._risk, self._risk_seat = 2, seat
        self._last_action = _ACTION_OF[effect]
        self._passes = 0
        self._skip_from = 0
        self._turn = seat.lho

    def _apply_pass(self, seat: Seat, index: int, out_of_rotation: bool) -> None:
        """A pass takes its turn; ends the auction (22A) unless Law 34/17E2 keeps it open."""
        passes = self._passes + 1
        self._passes = passes
        opened = self._last_action != _A_NONE
        if out_of_rotation and not self._skip_from and (opened or passes >= 2):
            self._skip_from = index
        self._turn = seat.lho
        if passes == 4 or (passes == 3 and opened):
            if self._skip_from:
                self._retain(index)
            else:
                self._turn = None

    def _retain(self, completing: int) -> None:
        """Three passes, one out of rotation: revert to the player who missed his turn."""
        first = self._skip_from
        offender = self._raw[first - 1][0]
        last = completing if completing == self._cur else self._cur - 1
        for i in range(first, last + 1):
            if self._status[i - 1] in _LIVE:
                self._set_status(i, CallStatus.CANCELLED)
        self._restore(self._state_before(first))
        skipped = self._turn
        assert skipped is not None
        self._report(Kind.CALL_OUT_OF_ROTATION, self.edition.three_passes_one_out_of_rotation_law,
                     offender, first,
                     f"three passes followed, but {offender}'s pass at call {first} was out of "
                     f"rotation ({skipped}'s turn): the auction has not ended and reverts to "
                     f"{skipped}",
                     rules.retention_options(self.edition, skipped, first, last),
                     (("reverts_to", skipped.letter),))

    def _clear_once(self, seat: Seat) -> None:
        obligations = self._obligations[seat]
        if obligations and not all(o.throughout for o in obligations):
            updated = list(self._obligations)
            updated[seat] = tuple(o for o in obligations if o.throughout)
            self._obligations = tuple(updated)

    # -- reports ---------------------------------------------------------------------------------

    def _report(self, kind: Kind, law: str, seat: Seat, index: int, detail: str,
                options: tuple[Rectification, ...],
                extra: tuple[tuple[str, Any], ...] = ()) -> None:
        # The time of the call that reveals it (for Law 34/17E2: the completing pass).
        self._irregularities.append(Irregularity(kind, law, seat=seat, call=index,
                                                 time=self._cur_time,
                                                 detail=detail, options=options, extra=extra))

    def _report_insufficient(self, seat: Seat, call: Call, index: int) -> None:
        bid, bidder = self._last_bid, self._last_bid_seat
        assert bid is not None and bidder is not None
        lowest = rules.lowest_sufficient(bid, call)
        self._report(Kind.INSUFFICIENT_BID, "27", seat, index,
                     rules.insufficient_detail(call, bid, bidder, lowest),
                     rules.insufficient_bid_options(self.edition, seat, lowest),
                     (("lowest_sufficient", None if lowest is None else str(lowest)),))

    def _report_void(self, seat: Seat, call: Call, index: int, effect: int,
                     in_turn: Seat | None) -> None:
        extra: tuple[tuple[str, Any], ...] = ()
        where = ""
        if in_turn is not None:
            relation = rules.relation(seat, in_turn)
            extra = (("at_turn_of", relation),)
            where = f", out of rotation at {rules.at_turn_of(seat, in_turn)}"
        if effect == _E_ABOVE_SEVEN:
            self._report(Kind.BID_ABOVE_SEVEN, "38", seat, index,
                         f"{seat} bid {call}, above seven{where}: it can never become the "
                         "contract (38A)", rules.above_seven_options(self.edition, seat), extra)
            return
        kind = (Kind.INADMISSIBLE_DOUBLE if call.kind is CallKind.DOUBLE
                else Kind.INADMISSIBLE_REDOUBLE)
        self._report(kind, "36", seat, index,
                     f"{seat} {rules.verb(call)}{where}: "
                     f"{self._inadmissible_reason(seat, call)}",
                     rules.inadmissible_options(self.edition, call.kind, seat, in_turn), extra)

    def _report_breach(self, seat: Seat, call: Call, index: int,
                       obligations: tuple[PassObligation, ...]) -> bool:
        for o in obligations:
            if not o.no_double or call.kind in (CallKind.DOUBLE, CallKind.REDOUBLE):
                self._report(Kind.CALL_IN_BREACH_OF_PASS_OBLIGATION, "37", seat, index,
                             rules.breach_detail(seat, call, o.law, o.throughout, o.no_double),
                             rules.breach_options(self.edition, seat))
                return True
        return False

