"""The authoritative state of one table, and the detection of irregularities as they happen.

:class:`TableState` is fed the validated events of its devices (docs/protocol.md) in the
order the hub accepted them, with the hub's time: ``apply(envelope, hub_time)`` returns an
:class:`Outcome` (the reply for the device, the alerts raised or updated, whether the views
changed). Nothing reads the wall clock, so replaying the same events gives the same state.

Two ways of taking calls and cards (per table):

* bidding-box mode (default): a call or card is recorded as made (``Board.push_call`` and
  ``push_card``: Annex I, a call is made when the card is released) and every irregularity
  goes to the director as an alert. Only the director rectifies (Laws 9, 10, 81).
* strict mode: an illegal call or card is refused (``illegal_call``, ``illegal_play``,
  ``not_your_turn``); the laws let a player try to prevent an irregularity (9A3).

A refused event changes nothing: only accepted events are logged, and the state must be a
function of the log. The only alert a refusal raises is the room's ``device_overreach``
(hub.room, hub.roles: a device acting beyond its role, or for a seat the Laws do not let
answer, ``not_your_seat``), raised through :meth:`TableState.overreach` from a logged fact.
The views: :meth:`TableState.public_state` is what all four may see,
:meth:`TableState.seat_view` what one seat may see (:mod:`hub.table_views`). Alerts never go
there. Check-in, the table's round and the board taken out are in :mod:`hub.table_seating`;
claims, results and their confirmation in :mod:`hub.table_results`; the pockets read by the
card readers are checked in :mod:`hub.pockets`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from msgspec.structs import replace

from bridgecore.cards import Card, Seat, Side
from bridgecore.errors import IllegalCallError, IllegalPlayError
from bridgecore.irregularity import Irregularity, Kind, Rectification
from bridgecore.text import Text
from hub import explain, rectify
from hub.alerts import OPTIONS, Alert, HubKind, finding, first_finding
from hub.pockets import PocketReads
from hub.reads import CardReads, ReadState
from hub.sitting import (
    SEATS,
    Outcome,
    Sitting,
    TableContext,
    card_mask,
    parse_call,
    parse_card,
)
from hub.table_results import RECORDING_SIDE, TableResults, result_words
from hub.table_seating import TableSeating
from hub.table_views import TableViews
from hub.texts import reply
from wire.protocol import Envelope

__all__ = ["OVERREACH_VERSIONS", "RECORDING_SIDE", "Outcome", "Sitting", "TableContext",
           "TableState", "card_mask", "result_words"]

_TRIED_KEPT = 20   # attempts listed in a device_overreach alert's facts (all are counted)
# Attempts a device_overreach alert counts (a version, and a fact in the log, each): a device
# repeating them cannot grow the log without end; the hub's statistics count every refusal.
OVERREACH_VERSIONS = 50
# Findings the table itself is told of in the reply (wire.protocol.NOTICES), by alert kind.
_NOTICE = {HubKind.WRONG_TABLE.value: "wrong_seating",
           HubKind.WRONG_DIRECTION.value: "wrong_seating",
           HubKind.WRONG_PAIR.value: "wrong_seating",
           HubKind.WRONG_BOARD.value: "wrong_board",
           HubKind.BOARD_ALREADY_PLAYED.value: "board_already_played"}


# Events by which a table goes on to something else: a question of hub.reads still open is
# settled first.
_MOVING_ON = frozenset({"board", "claim", "claim_answer", "result_confirm"})


class TableState(TableSeating, PocketReads, CardReads, TableResults, TableViews):
    """One table of the room: seated pairs, the board in play, every board played here."""

    def __init__(self, table_id: str, context: TableContext, *, round: int = 1,
                 strict: bool = False):
        self.id = table_id
        self.context = context
        self.round = round
        self.strict = strict
        self.tapping_only = False     # the director's: reader cards logged, not played
        self.reader_errors: dict[str, dict[str, int]] = {}   # seat -> kind -> count
        self._how_sure: str | None = None    # said in the alerts of reads settled late
        self._read_states: dict[tuple[int, int], ReadState] = {}
        # side -> (pair, players, device time, round of the check-in)
        self.seated: dict[Side, tuple[int, list[Any], float, int]] = {}
        self.sitting: Sitting | None = None
        self.sittings: dict[tuple[int, int], Sitting] = {}
        self._unsettled: list[tuple[int, int]] = []   # sittings not yet settled (settle_finished)
        self.allowed: set[tuple[int, int]] = set()      # (round, board) the director allowed
        self._handlers: dict[str, Callable[[Envelope, float], Outcome]] = {
            "checkin": self._checkin, "board": self._board, "hand": self._hand,
            "call": self._call, "card": self._card, "undo": self._undo, "claim": self._claim,
            "claim_answer": self._claim_answer, "result_confirm": self._result_confirm,
            "director_call": self._director_call, "answer": self.answer,
            "ask": self._explaining, "explain": self._explaining, "rectify": self._rectify,
        }

    # Entry point --------------------------------------------------------------------------
    def apply(self, envelope: Envelope, hub_time: float) -> Outcome:
        handler = self._handlers.get(envelope.type)
        if handler is None:
            return self._reject(envelope, hub_time, "unknown_type",
                                f"unknown event type {envelope.type!r}")
        early: list[Alert | None] = []
        if envelope.type in _MOVING_ON:
            early = self.moved_on(hub_time)   # cards held by hub.reads, settled first
        out = handler(envelope, hub_time)
        if early:
            out = replace(out, alerts=[a for a in early if a is not None] + out.alerts,
                          state_changed=True)
        if not out.alerts:
            return out
        notice = next((_NOTICE[a.kind] for a in out.alerts if a.kind in _NOTICE), None)
        if notice is not None and out.reply.status == "ack":
            told = next(a for a in out.alerts if a.kind in _NOTICE)
            out = replace(out, reply=replace(out.reply, notice=notice,
                                             reason=out.reply.reason or told.detail,
                                             text=out.reply.text or told.text))
        return out

    @staticmethod
    def _ack(env: Envelope, t: float, changed: bool, alerts: Iterable[Alert | None] = (),
             reason: Text | str = "") -> Outcome:
        return Outcome(reply(env, t, "ack", "ok", reason),
                       [a for a in alerts if a is not None], changed)

    @staticmethod
    def _reject(env: Envelope, t: float, code: str, reason: Text | str) -> Outcome:
        return Outcome(reply(env, t, "reject", code, reason))

    # Alerts -------------------------------------------------------------------------------
    def _base(self) -> str:
        s = self.sitting
        if s is None:
            return f"{self.id}:r{self.round}"
        return f"{self.id}:r{s.round}:b{s.board.number}"

    def _alert(self, key: str, t: float, kind: str, law: str, *, seats: Iterable[Seat] = (),
               call: int | None = None, trick: int | None = None, occurred: float | None = None,
               detail: Text | str = "", facts: Mapping[str, Any] | None = None,
               options: Iterable[Rectification] = (), source: str = "") -> Alert | None:
        s = self.sitting
        sure = self._how_sure   # a read settled late, or a pocket in doubt (hub.reads)
        evidence: Callable[[], dict[str, Any]] = self.evidence
        if sure is not None:
            def evidence() -> dict[str, Any]:
                return {**self.evidence(), "sure": sure}
        return self.context.alerts.raise_alert(
            key, kind=kind, law=law, table=self.id, round=self.round if s is None else s.round,
            board=None if s is None else s.board.number, detected=t,
            seats=[x.letter for x in seats], call=call, trick=trick, occurred=occurred,
            detail=detail, facts=facts, evidence=evidence, options=options,
            source=source)

    def _irregularity_alert(self, key: str, irr: Irregularity, t: float,
                            facts: Mapping[str, Any] | None = None,
                            detail: Text | None = None, source: str = "") -> Alert | None:
        data = irr.to_json()
        data.pop("options", None)
        data.update(facts or {})
        return self._alert(key, t, irr.kind.value, irr.law,
                           seats=() if irr.seat is None else (irr.seat,), call=irr.call,
                           trick=irr.trick, occurred=irr.time,
                           detail=finding(irr) if detail is None else detail, facts=data,
                           options=irr.options, source=source)

    def evidence(self) -> dict[str, Any]:
        """The record so far, for the director: pairs, deal, hands read, auction, play, and
        the readers' side (cards held, questions open, each reader's errors: hub.reads)."""
        out: dict[str, Any] = {"table": self.id, "round": self.round, "pairs": self._pairs_json()}
        s = self.sitting
        if s is None:
            return out
        board = s.board
        play = board.play
        out.update(
            board=board.number, dealer=board.dealer.letter,
            vulnerability=str(board.vulnerability), phase=s.phase,
            deal=board.deal.pbn() if s.has_record else None,
            hands_read={seat.letter: [str(c) for c in cards] + list(s.foreign.get(seat, ()))
                        for seat, cards in s.reads.items()},
            auction=[[e.seat.letter, str(e.call), e.time, e.alert, e.status.value]
                     for e in board.auction.entries],
            play=[] if play is None else [[x.letter, str(c), tm] for x, c, tm in play.history],
            contract=None if play is None else str(play.contract),
            claims=[] if play is None else [str(c) for c in play.claims],
            exposed=[list(e) for e in s.exposed], stops=list(s.stops),
            **explain.record(s))
        rs = self.read_state(s)
        if rs.held or self.reader_errors:   # the readers' side (hub.reads)
            out["reads"] = {"held": [[h.seat.letter, str(h.card)] for h in rs.held],
                            "asked": [p["kind"] for p in rs.prompts.values()],
                            "reader_errors": {k: dict(v) for k, v in
                                              sorted(self.reader_errors.items())}}
        return out


    # Calls --------------------------------------------------------------------------------
    def _call(self, env: Envelope, t: float) -> Outcome:
        s = self.sitting
        if s is None:
            return self._reject(env, t, "wrong_state", Text.of("deny.no_board"))
        board = s.board
        if board.play is not None and board.play.cards_played:
            return self._reject(env, t, "wrong_state", Text.of("deny.lead_faced"))
        body = env.body
        call = parse_call(body["call"])
        if call is None:
            return self._reject(env, t, "malformed", f"not a call: {body['call']!r}")
        seat = SEATS[body["seat"]]
        time = env.time
        if self.strict:
            turn = board.turn
            if turn is None:
                return self._reject(env, t, "illegal_call", Text.of("deny.auction_over"))
            if seat is not turn:
                return self._reject(env, t, "not_your_turn",
                                    Text.of("deny.turn_to_call", seat=turn))
            if not board.auction.is_legal(seat, call):
                why = Text.of("deny.call_not_allowed", call=call, seat=seat)
                try:
                    board.auction.make_call(seat, call, time)  # raises with the reason
                except IllegalCallError as err:
                    why = err.text or why
                else:  # pragma: no cover - is_legal and make_call agree
                    board.auction.pop()
                return self._reject(env, t, "illegal_call", why)
        first = len(board.auction) == 0
        found = board.push_call(seat, call, time, alert=bool(body.get("alert")),
                                explanation=body.get("explanation"))
        index = len(board.auction)
        explain.from_call(s, self.regulation, seat, index, body.get("explanation"), t, time)
        if body.get("stop"):
            s.stops = (*s.stops, index)
        if first:
            for pair in self.pairs(s.round):
                if pair is not None:
                    self.context.mark_played(self.id, pair, board.number, s.round)
        alerts: list[Alert | None] = []
        base = f"{self._base()}:g{s.generation}"
        for irr in found:  # one call may break two laws (30 and 17D3): one alert each
            alerts.append(self._irregularity_alert(
                f"{base}:{irr.kind.value}:{irr.call}:{irr.seat}:{irr.law}", irr, t))
        if s.wrong_hand and seat in s.wrong_hand:
            alerts.append(self._called_with_wrong_hand(s, seat, index, t))
        alerts += self._after(s, t)
        return self._ack(env, t, True, alerts)

    @property
    def regulation(self) -> explain.Regulation:
        """Who explains alerted calls at this event (hub.explain)."""
        return explain.REGULATIONS[self.context.alerting]

    def _explaining(self, env: Envelope, t: float) -> Outcome:
        """``ask`` and ``explain`` (7.13, 7.14: hub.explain)."""
        record = explain.ask if env.type == "ask" else explain.explain
        refused = record(self.sitting, self.regulation, env.body, t, env.acted)
        if refused is not None:
            return self._reject(env, t, *refused)
        return self._ack(env, t, True)

    def _rectify(self, env: Envelope, t: float) -> Outcome:
        """A player takes the option the Laws give him (7.15: hub.rectify)."""
        alert, refused = rectify.accept(self.context.alerts, self.id, self.sitting, env.body,
                                        t, env.acted)
        if refused is not None:
            return self._reject(env, t, *refused)
        return self._ack(env, t, True, [alert])

    def tablet_view(self) -> dict[str, Any]:
        """``t/{table}/tablet``: what the table tablet shows each side (11.3)."""
        return explain.tablet_view(self.id, self.sitting)

    def _called_with_wrong_hand(self, s: Sitting, seat: Seat, index: int,
                                t: float) -> Alert | None:
        old = self.context.alerts.key_of(s.wrong_hand[seat])
        if old is None:
            return None
        facts = dict(old.facts)
        facts["calls_with_it"] = [*facts.get("calls_with_it", []), index]
        return self._alert(s.wrong_hand[seat], t, old.kind, old.law, seats=(seat,),
                           call=index, occurred=old.occurred,
                           detail=Text.of("alert.called_with_it", finding=first_finding(old.text),
                                          calls=", ".join(map(str, facts["calls_with_it"]))),
                           facts=facts, options=OPTIONS["hand_not_dealt"])

    def _undo(self, env: Envelope, t: float) -> Outcome:
        """Law 25A: the player takes back his last call, before his partner has called."""
        s = self.sitting
        seat = SEATS[env.body["seat"]]
        if s is None:
            return self._reject(env, t, "wrong_state", Text.of("deny.no_board"))
        board = s.board
        if board.play is not None and board.play.cards_played:
            return self._reject(env, t, "wrong_state", Text.of("deny.lead_faced_no_change"))
        entries = board.auction.entries
        mine = next((e for e in reversed(entries) if e.seat is seat), None)
        if mine is None:
            return self._reject(env, t, "wrong_state", Text.of("deny.no_call_to_take_back",
                                                               seat=seat))
        after = entries[mine.index:]
        if any(e.seat is seat.partner for e in after):
            return self._reject(env, t, "wrong_state", Text.of("deny.partner_called",
                                                               seat=seat.partner))
        for _ in range(len(after) + 1):
            board.pop()
        s.generation += 1
        s.stops = tuple(i for i in s.stops if i < mine.index)
        alerts: list[Alert | None] = []
        pause = None if mine.time is None else env.time - mine.time
        slow = (self.context.edition.unintended_call_pause_test and pause is not None
                and pause > 10.0)
        if after or slow:
            withdrawn = [[e.seat.letter, str(e.call)] for e in after]
            alerts.append(self._alert(
                f"{self._base()}:undo:{mine.index}:{s.generation}", t,
                Kind.CHANGE_OF_CALL.value, "25A", seats=(seat,), call=mine.index,
                occurred=env.time,
                detail=Text.of(
                    "alert.call_taken_back", seat=seat, call=mine.call, index=mine.index,
                    more=[*([Text.of("alert.call_taken_back_after", calls=", ".join(
                        f"{x} {c}" for x, c in withdrawn))] if withdrawn else []),
                          *([Text.of("alert.call_taken_back_pause", seconds=f"{pause:.0f}")]
                            if slow and pause is not None else [])]),
                facts={"call": str(mine.call), "withdrawn": withdrawn, "seconds": pause},
                options=OPTIONS["change_of_call"]))
        return self._ack(env, t, True, alerts)

    # Cards --------------------------------------------------------------------------------
    def _card(self, env: Envelope, t: float) -> Outcome:
        s = self.sitting
        if s is None:
            return self._reject(env, t, "wrong_state", Text.of("deny.no_board"))
        body = env.body
        card = parse_card(body["card"])
        if card is None and body.get("source") == "reader" and body["card"]:
            # A tag of no card of this pack faced at the table: recorded, not refused (1).
            seat = SEATS[body["seat"]]
            return self._ack(env, t, False, [self._alert(
                f"{self._base()}:foreign_played:{seat.letter}:{body['card']}", t,
                HubKind.FOREIGN_CARD.value, "1", seats=(seat,), occurred=env.time,
                detail=Text.of("alert.foreign_played", seat=seat, tag=body["card"]),
                facts={"seat": seat.letter, "foreign": [body["card"]], "played": True},
                options=OPTIONS["pack"])],
                reason=Text.of("deny.foreign_card"))
        if card is None:
            return self._reject(env, t, "malformed", f"not a card: {body['card']!r}")
        seat = SEATS[body["seat"]]
        board = s.board
        play = board.play
        if play is None:
            if board.auction.is_over:
                return self._reject(env, t, "wrong_state", Text.of("deny.passed_out"))
            if body.get("source") != "reader":  # a tablet tap shows nothing to the table
                return self._reject(env, t, "wrong_state", Text.of("deny.auction_not_over"))
            s.exposed = (*s.exposed, (seat.letter, str(card), env.time))
            return self._ack(env, t, False, [self._alert(
                f"{self._base()}:exposed:{seat.letter}:{card}", t, HubKind.CARD_EXPOSED.value,
                "24", seats=(seat,), occurred=env.time,
                detail=Text.of("alert.card_exposed", seat=seat, card=card),
                facts={"card": str(card), "calls_made": len(board.auction)},
                options=OPTIONS["card_exposed"])], reason=Text.of("deny.card_exposed"))
        if not self.strict:   # what the read or tap means: hub.reads
            if not play.cards_played and self.read_state(s).sweeps:
                early = self.sweeps_unanswered(s, t)
                out = self.read_card(env, t, seat, card)
                return replace(out, alerts=[a for a in early if a is not None] + out.alerts)
            return self.read_card(env, t, seat, card)
        source = s.card_source.get(card)
        if source is not None and source[0] is seat and source[1] != env.device:
            # the reader and the tablet both report the card: played once (the last too)
            return self._ack(env, t, False, reason=Text.of("deny.card_recorded", card=card,
                                                           seat=seat))
        if play.is_complete:
            return self._reject(env, t, "wrong_state", Text.of("deny.all_played"))
        turn = play.turn
        if turn is None:
            return self._reject(env, t, "wrong_state", Text.of("deny.play_ceased"))
        if seat is not turn:
            return self._reject(env, t, "not_your_turn", Text.of("deny.turn_to_play", seat=turn))
        try:
            board.play_card(seat, card, env.time)
        except IllegalPlayError as err:
            return self._reject(env, t, "illegal_play", err.text or Text.of(
                "deny.card_not_allowed", card=card, seat=seat))
        board.pop()   # a legal card reveals nothing: recorded below like any other
        return self._ack(env, t, True, self._push_card(seat, card, env.time, env.device, t))

    def _push_card(self, seat: Seat, card: Card, time: float, device: str,
                   t: float) -> list[Alert | None]:
        """Record ``card`` played by ``seat`` (hub.reads decided what the report means) and
        the alerts of what it reveals."""
        s = self.sitting
        assert s is not None
        board = s.board
        play = board.play
        assert play is not None
        before = play.irregularities
        found = board.push_card(seat, card, time)
        s.card_source[card] = (seat, device)
        alerts: list[Alert | None] = []
        now = play.irregularities
        if now is not before:
            # A later card may settle an earlier one (53A: a lead out of turn accepted by
            # playing to it): the director sees the alert again with its resolution.
            for i, old in enumerate(before):
                key = s.play_keys.get(i)
                if key is not None and i < len(now) and now[i] is not old:
                    alerts.append(self._irregularity_alert(key, now[i], t))
        first = len(now) - len(found)
        base = self._base() if found else ""
        for j, irr in enumerate(found):
            if irr.kind is Kind.REVOKE:
                key = f"{base}:revoke:{irr.seat}:{irr.trick}"
                s.found_revoke(key)
                alerts.append(self._irregularity_alert(key, irr, t))
            elif irr.kind is Kind.CARD_NOT_IN_HAND:
                alerts.append(self._not_in_hand(s, irr, seat, t))
            else:
                key = f"{base}:{irr.kind.value}:{play.cards_played}"
                s.play_keys[first + j] = key
                alerts.append(self._irregularity_alert(key, irr, t))
        doubt = self.read_state(s).sweeps.get(seat, 0)
        if doubt >> card.index & 1:   # the card a sweep may have missed: it was there
            alerts += self.sweep_completed(s, seat, 1 << card.index, t)
        alerts += self._after(s, t)
        return alerts

    def _not_in_hand(self, s: Sitting, irr: Irregularity, seat: Seat, t: float) -> Alert | None:
        play = s.board.play
        assert play is not None
        if not s.has_record:
            return None  # no hand record: nothing to compare with
        mine = card_mask(c for x, c, _ in play.history if x is seat)
        number = s.board.number
        fits = [(b, x) for b, x in self.context.hands_containing(mine)
                if (b, x) != (number, seat)]
        data = irr.to_json()
        held_by = data.get("held_by")
        if held_by:
            where = [Text.of("alert.not_in_hand_held_by", held_by_seat=held_by)]
        elif any(b != number for b, _ in fits):
            where = [Text.of("alert.not_in_hand_not_in_board")]
        else:
            where = [Text.of("alert.not_in_hand_no_hand")]
        others = [f"{b} {x}" for b, x in fits if b != number][:6]
        if others:
            where.append(Text.of("alert.not_in_hand_fits", seat=seat, boards=", ".join(others)))
        elif not held_by:
            where.append(Text.of("alert.not_in_hand_fits_none"))
        facts = {"held_by": held_by, "fits": [[b, x.letter] for b, x in fits][:12],
                 "card": data.get("card")}
        return self._irregularity_alert(
            f"{self._base()}:not_in_hand:{play.cards_played}", irr, t, facts,
            detail=Text.of("alert.not_in_hand", seat=seat, card=data.get("card"), where=where))

    def _after(self, s: Sitting, t: float) -> list[Alert | None]:
        """After a call, card or claim: revoke establishment (63A) and the Law 64 transfer,
        recomputed only when it can change (a revoke established, a trick complete, the end
        of the board); the end of the board."""
        out: list[Alert | None] = []
        play = s.board.play
        over = s.over
        if s.revokes and play is not None:
            base = self._base()
            newly = False
            if s.unestablished:
                for r in play.revokes():
                    key = f"{base}:revoke:{r.seat}:{r.trick}"
                    if r.established and key in s.unestablished:
                        s.revoke_established(key)
                        newly = True
            done = len(play.completed_tricks)
            ending = over and s.ended is None
            # 62D1: a revoke on trick 12 is never established while the hands are on the
            # table; its final finding (corrected, no transfer: 64B6) comes at the end.
            twelfth = ending and any(k.endswith(":12") for k in s.revokes)
            if (len(s.unestablished) < len(s.revokes) and (
                    newly or done != s.transfer_mark or ending)) or twelfth:
                s.transfer_mark = done
                for tr in play.transfers().transfers:
                    r = tr.revoke
                    key = f"{base}:revoke:{r.seat}:{r.trick}"
                    if key in s.revokes and (r.established or (ending and r.trick == 12)):
                        out.append(self._irregularity_alert(
                            key, tr.irregularity(), t, {"final": over}))
        if s.ended is None and over:
            s.ended = t
        return out

    def _director_call(self, env: Envelope, t: float) -> Outcome:
        seat_text = env.body.get("seat")
        seat = None if seat_text is None else SEATS[seat_text]
        s = self.sitting
        play = None if s is None else s.board.play
        dummy = (seat is not None and play is not None and seat is play.dummy
                 and bool(play.cards_played) and not play.is_complete)
        note = env.body.get("note") or ""
        detail = Text.of("alert.director_called", table=self.id, more=[
            *([Text.of("alert.director_called_by", seat=seat)] if seat else []),
            *([Text.of("alert.director_called_note", note=note)] if note else []),
            *([Text.of("alert.director_called_dummy")] if dummy else [])])
        return self._ack(env, t, False, [self._alert(
            f"{self.id}:call:{env.id}", t, HubKind.DIRECTOR_CALL.value, "9B1",
            seats=() if seat is None else (seat,), occurred=env.time, detail=detail,
            facts={"note": note, "dummy_during_play": dummy})])

    def overreach(self, device: str, role: str, type: str, seat: Seat | None, code: str,
                  reason: Text, law: str, t: float, occurred: float | None) -> Alert | None:
        """A device tried to act beyond its role (hub.roles) or for a seat the Laws do not
        let answer: the event was refused. One alert per device per board (per round before
        a board), a new version at each attempt: ``facts`` count them and list the last. A
        spare (``.suffix``) shares its role's alert, and every id with no role here (``role``
        ``"none"``) shares one, so that made-up ids cannot flood the director."""
        who = "*" if role == "none" else device.split(".", 1)[0]
        key = f"{self._base()}:overreach:{who}"
        old = self.context.alerts.key_of(key)
        attempts = 1 if old is None else int(old.facts.get("attempts", 0)) + 1
        if attempts > OVERREACH_VERSIONS:
            return None   # enough said: the hub's statistics count the rest
        tried = [] if old is None else list(old.facts.get("tried", ()))
        tried = [*tried, [device, type, None if seat is None else seat.letter,
                          code]][-_TRIED_KEPT:]
        seats = tuple(old.seats) if old is not None else ()
        if seat is not None and seat.letter not in seats:
            seats = (*seats, seat.letter)
        return self._alert(
            key, t, HubKind.DEVICE_OVERREACH.value, law,
            seats=[SEATS[x] for x in seats], occurred=occurred,
            detail=Text.of("alert.overreach", device=device, role=role, table=self.id,
                           event=type, reason=reason, more=[
                               *([Text.of("alert.overreach_for", seat=seat)] if seat else []),
                               *([Text.of("alert.overreach_attempts", n=attempts)]
                                 if attempts > 1 else [])]),
            facts={"device": device, "role": role, "event": type,
                   "seat": None if seat is None else seat.letter, "code": code,
                   "reason": reason.to_json(), "attempts": attempts, "tried": tried},
            options=OPTIONS["overreach"])

    def declarer(self) -> Seat | None:
        """The declarer of the board in play, once its auction has one."""
        s = self.sitting
        play = None if s is None else s.board.play
        return None if play is None else play.declarer

    def device_offline(self, device: str, n: int, last_seen: float | None,
                       t: float) -> Alert | None:
        """A device of this table lost its connection (its last will, or a timeout)."""
        return self._alert(f"{self.id}:offline:{device}:{n}", t, HubKind.DEVICE_OFFLINE.value,
                           "", detail=Text.of("alert.device_offline", device=device,
                                                         table=self.id),
                           facts={"device": device, "last_seen": last_seen})
