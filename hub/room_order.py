"""A table's events applied in the order of its record (the room's side of hub.ordering).

:class:`RecordOrder` is a part of :class:`hub.room.Room`: an event whose place in the
table's record has come is applied (:meth:`RecordOrder._place`; a card conflicting with the
one recorded at its place is one ``record_conflict`` alert, acknowledged :data:`CONFLICT`);
the events held ahead of the record (acknowledged :data:`HELD`) are applied once what
precedes them has been (:meth:`RecordOrder._release`), and those held too long are the
director's (``events_held``) and applied as they came (:meth:`RecordOrder._overdue`, from
the room's tick). :func:`board_of`, :func:`phase_of` and :func:`trick_of` say where a table
is in its record, as :class:`hub.ordering.TableOrder` reads it.

Apart from hub.room because it is the one path from the room to a table's ``apply`` and
its only state is the tables' :class:`hub.ordering.TableOrder`: the room's checks of an
event (duplicate, binding, sequence, clock, role) come before it, and the facts and the
clock beside it.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from bridgecore.text import Text
from hub.alerts import Alert, AlertBook, HubKind
from hub.ordering import Conflict, TableOrder, TrickPlace
from hub.table import Outcome, TableState
from wire.protocol import Envelope, Reply

if TYPE_CHECKING:
    from hub.room_context import RoundClock
    from hub.scoring import LiveScoring

__all__ = ["CONFLICT", "HELD", "RecordOrder", "board_of", "phase_of", "trick_of"]

log = logging.getLogger(__name__)

HELD = "held"           # an ack's code: applied once what precedes it arrives (hub.ordering)
CONFLICT = "conflict"   # an ack's code: another card is recorded at its place (hub.ordering)


class RecordOrder:
    """Events applied in the order of each table's record (a part of :class:`hub.room.Room`)."""

    if TYPE_CHECKING:
        tables: dict[str, TableState]
        order: dict[str, TableOrder]
        alerts: AlertBook
        clock: RoundClock
        scoring: LiveScoring
        hold_seconds: float

        def _round_reached(self, round: int, started: float) -> None: ...

    def _place(self, table: TableState, env: Envelope, hub_time: float) -> Outcome:
        """Apply an event whose place in the record has come: a card conflicting with the
        one recorded there is the director's (one alert, both versions), not the table's."""
        order = self.order[table.id]
        conflict = order.conflict(env, board_of(table))
        if conflict is not None:
            alert = self._conflict_alert(table, conflict, hub_time)
            return Outcome(Reply(env.id, env.seq, "ack", CONFLICT, f"another card, "
                                 f"{conflict.recorded[0]}, is recorded at this place: the "
                                 "director decides", hub_time),
                           [] if alert is None else [alert])
        out = table.apply(env, hub_time)
        if out.reply.status == "ack":
            s = table.sitting
            order.note(env, board_of(table), s)
            if s is not None and s.round > self.clock.round:
                self._round_reached(s.round, min(env.time, hub_time))
        return out

    def _conflict_alert(self, table: TableState, conflict: Conflict,
                        hub_time: float) -> Alert | None:
        card, seat, device = conflict.reported
        first, first_seat, first_device = conflict.recorded
        return self.alerts.raise_alert(
            f"{table.id}:b{conflict.board}:conflict:{conflict.place + 1}",
            kind=HubKind.RECORD_CONFLICT.value, law="", table=table.id, round=table.round,
            board=conflict.board, detected=hub_time,
            seats=sorted({s for s in (seat, first_seat) if s}),
            detail=Text.of("alert.record_conflict", place=conflict.place + 1,
                           board=conflict.board, first_card=first, first_seat=first_seat,
                           first_device=first_device, card=card, seat=seat, device=device),
            facts=conflict.facts())

    def _release(self, table: TableState, hub_time: float) -> tuple[list[Alert], bool]:
        """Apply the held events whose place has come, in order (hub.ordering)."""
        order = self.order[table.id]
        alerts: list[Alert] = []
        changed = False
        if not order.held:   # nothing held (most events): the table's place is not needed
            return alerts, changed
        while (waiting := order.ready(board_of(table), phase_of(table),
                                      trick_of(table))) is not None:
            changed |= self._apply_held(table, waiting.env, hub_time, alerts)
        return alerts, changed

    def _apply_held(self, table: TableState, env: Envelope, hub_time: float,
                    alerts: list[Alert]) -> bool:
        out = self._place(table, env, hub_time)
        if out.reply.status != "ack":
            log.warning("held event %s of %s at table %s refused when applied: %s %s",
                        env.id, env.device, table.id, out.reply.code, out.reply.reason)
        alerts.extend(out.alerts)
        self.scoring.note(table.id)
        return out.state_changed or bool(out.alerts)

    def _overdue(self, hub_time: float) -> list[Alert]:
        """Events held too long (or too many): the director is told, and they are applied
        as they came (hub.ordering)."""
        out: list[Alert] = []
        for table in self.tables.values():
            order = self.order[table.id]
            if not order.overdue(hub_time, self.hold_seconds):
                continue
            held = order.take_all()
            alert = self.alerts.raise_alert(
                f"{table.id}:held:{held[0].env.id}", kind=HubKind.EVENTS_HELD.value, law="",
                table=table.id, round=table.round, board=board_of(table), detected=hub_time,
                detail=Text.of("alert.events_held", n=len(held),
                               seconds=f"{hub_time - held[0].since:.0f}"),
                facts={"events": [[w.env.device, w.env.type, w.env.seq] for w in held],
                       "since": held[0].since})
            if alert is not None:
                out.append(alert)
            for waiting in held:
                self._apply_held(table, waiting.env, hub_time, out)
            out += self._release(table, hub_time)[0]
        return out


def board_of(table: TableState) -> int | None:
    """The board the table is at."""
    return None if table.sitting is None else table.sitting.board.number


def trick_of(table: TableState) -> TrickPlace | None:
    """Where the table's play is (hub.ordering): tricks complete, the cards of the trick in
    progress, the seat on turn; None without a play."""
    sitting = table.sitting
    play = None if sitting is None else sitting.board.play
    if play is None or sitting is None:
        return None
    # Every trick complete has its winner: the tricks done are the first 13 complete, and
    # the trick in progress follows them (counted, not built: twice an event, issue 27).
    complete = len(play.completed_tricks)
    done = min(complete, 13)
    cards = play.cards_in_trick if complete <= 13 else 0
    turn = sitting.board.turn
    return done, cards, None if turn is None else turn.letter


def phase_of(table: TableState) -> str | None:
    """The table's phase on its board: ``auction``, ``play`` or ``over`` (None: no board)."""
    return None if table.sitting is None else table.sitting.phase
