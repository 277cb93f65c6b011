"""The tablet's presenter: what the hub says goes in, the screen to show comes out. Plain
Python, no Kivy, unit-tested without a window.

:class:`TabletPresenter` is fed what the hub publishes (docs/protocol.md): the table's public
state (``on_state``), the seat's own view (``on_seat``: its hand), the replies to the events
it sent (``on_reply``) and the link's connection status (``on_connection``). It keeps them in
its :class:`tablet.model.TableModel` (``presenter.model``), picks the screen to show
(:attr:`TabletPresenter.screen`) and holds one presenter per screen (:mod:`tablet.presenters`):
``checkin``, ``board``, ``auction``, ``play`` and ``result``, whose commands return the events
to send. What the top bar shows (table, board, dealer, vulnerability, round clock) and the
silent director call, always there, are its own.

Two modes: one tablet per seat (``seat="N"``...: the bidding-box replacement; it shows that
player's hand) and one tablet per table (``seat=None``: North keeps it, it acts for the
player in turn and never shows a hand other than dummy's). Two ways of taking calls and
cards, as the hub's table mode: strict (only what the Laws allow at that point can be made)
and bidding-box (everything can be made, as with a real bidding box and real cards; the hub
records it and alerts the director).

What the hub has not yet answered is shown as if it had been accepted (the optimistic
view, :mod:`tablet.offline`): the app hands the presenter the events still pending in the
outbox (:meth:`TabletPresenter.set_pending`), and the model's ``state`` is the hub's last
state (``hub_state``) with them applied on top, so that the table plays on while the
network is down. What is not confirmed is marked (``AuctionCell.pending``,
``PlayPresenter.trick_pending``, ``ClaimView.pending``, ``ResultView.pending``,
``TableModel.pending_count``). A reply takes its event out; a refusal shows the hub's state
again, with the events still pending on top, and what the tablet assumed when it sent the
event (a check-in, a claim answered, a result confirmed) is forgotten so that the screen
asks again.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from typing import Any

from tablet.i18n import reply_key
from tablet.model import TableModel
from tablet.presenters import (
    AuctionPresenter,
    BoardPresenter,
    CheckinPresenter,
    Event,
    ExplainPresenter,
    PlayPresenter,
    PromptPresenter,
    RectifyPresenter,
    ResultPresenter,
)

__all__ = ["NOTICES", "SCREENS", "TabletPresenter"]

log = logging.getLogger(__name__)

SCREENS = ("checkin", "board", "auction", "play", "result")

# Notices the hub attaches to an acknowledgement (wire.protocol.NOTICES, docs/protocol.md):
# a ``notice`` field, or an ack whose code is one of these.
NOTICES = ("wrong_board", "wrong_seating", "board_already_played")


def _reply_text(reply: Any) -> Any:
    """The reply's ``text`` (a message), if it carries one."""
    return reply.get("text") if isinstance(reply, dict) else getattr(reply, "text", None)


def _reply_fields(reply: Any) -> tuple[str | None, str, str, Any, str | None]:
    """(status, code, reason, hub time, notice) of a reply dict or Reply object."""
    if isinstance(reply, dict):
        status, code = reply.get("type"), reply.get("code")
        reason, hub_time, notice = reply.get("reason"), reply.get("time"), reply.get("notice")
    else:
        status, code = getattr(reply, "status", None), getattr(reply, "code", None)
        reason, hub_time = getattr(reply, "reason", ""), getattr(reply, "time", None)
        notice = getattr(reply, "notice", None)
    if status not in ("ack", "reject"):
        return None, "", "", None, None
    code = str(code or "ok")
    if notice is None and status == "ack" and code in NOTICES:
        notice = code
    if notice not in NOTICES:
        notice = None
    return str(status), code, str(reason or ""), hub_time, notice


def _event_of(envelope: Any) -> tuple[Any, dict[str, Any] | None]:
    """(type, body) of an envelope object or dict, (None, None) for anything else."""
    if envelope is None:
        return None, None
    if isinstance(envelope, dict):
        kind, body = envelope.get("type"), envelope.get("body")
    else:
        kind, body = getattr(envelope, "type", None), getattr(envelope, "body", None)
    return kind, body if isinstance(body, dict) else None


class TabletPresenter:
    """``TabletPresenter("A1", seat="N", language="fr")``; feed it, read its screen
    presenters, send what their commands return (module docstring)."""

    def __init__(self, table: str, seat: str | None = None, language: str = "en",
                 four_colour: bool = False, strict: bool = False, *,
                 stop_seconds: float = 10.0, confirming_side: str = "EW",
                 clock: Callable[[], float] = time.monotonic,
                 wall: Callable[[], float] = time.time):
        self.model = TableModel(table, seat, language, four_colour, strict, clock=clock,
                                wall=wall)
        self.checkin = CheckinPresenter(self.model)
        self.board = BoardPresenter(self.model)
        self.auction = AuctionPresenter(self.model, stop_seconds)
        self.play = PlayPresenter(self.model)
        self.prompts = PromptPresenter(self.model)   # the hub's questions on its reads
        self.explain = ExplainPresenter(self.model)  # questions on calls (20F)
        self.rectify = RectifyPresenter(self.model)  # irregularities seen at the table
        self.result = ResultPresenter(self.model, confirming_side)
        self._refused: Any = None   # the id of the event whose refusal the screen shows

    # Input from the hub --------------------------------------------------------------------
    def on_state(self, state: dict[str, Any]) -> None:
        """The table's public state (retained ``t/{table}/state``)."""
        if not self.model.take_state(state):
            return
        self.checkin.hub_state_changed()
        self.play.hub_state_changed()
        self.result.hub_state_changed()
        self.model.changed()

    def on_seat(self, view: dict[str, Any]) -> None:
        """This seat's own view (its hand). A per-table tablet shows no hand: ignored."""
        if self.model.take_seat(view):
            self.model.changed()

    def on_tablet(self, view: dict[str, Any]) -> None:
        """The table tablet's own view (``t/{table}/tablet``: the explanations it shows)."""
        if self.model.take_tablet(view):
            self.model.changed()

    def set_pending(self, events: Iterable[Any]) -> None:
        """The events entered here that the hub has not answered yet, oldest first
        (:meth:`tablet.model.TableModel.set_pending`)."""
        self.model.set_pending(events)

    def add_pending(self, event: Any) -> None:
        """One more event entered here (the envelope the link's ``send`` returned)."""
        self.model.add_pending(event)

    def send_through(self, send: Callable[..., Any]) -> Callable[[str, dict[str, Any]], Any]:
        """``send(type, body, at=...)`` (:meth:`wire.link.DeviceLink.send`) as the window's
        ``send(type, body)``: each event goes with its place in the table's record (its
        envelope's ``at``, :meth:`tablet.model.TableModel.place`), worked out when the player
        acts, before the event joins the pending ones."""
        def send_placed(kind: str, body: dict[str, Any]) -> Any:
            return send(kind, body, at=self.model.place(kind, body.get("seat")))
        return send_placed

    def on_reply(self, reply: Any, envelope: Any = None) -> str | None:
        """The hub's reply to an event (a reply dict as on the wire, or a
        :class:`wire.protocol.Reply`), with the envelope it answers when the link knows it:
        the message for the players, or None. A refused check-in, claim answer or result
        confirmation is forgotten, so the screen asks again."""
        model = self.model
        status, code, reason, hub_time, notice = _reply_fields(reply)
        if status is None:
            return None
        model.take_hub_time(hub_time)
        model.answered(envelope)
        kind, body = _event_of(envelope)
        ref = (envelope.get("id") if isinstance(envelope, dict)
               else getattr(envelope, "id", None))
        text: str | None = None
        level = "error"
        if status == "ack" and body is not None:
            self.checkin.accepted(kind, body)
        if status == "ack" and ref is not None and ref == self._refused:
            self._refused = None   # accepted after all (a delayed copy): no refusal shown
            model.dismiss_message()
        if status == "reject":
            self._refused = ref
            log.warning("the hub refused an event (%s): %s", code, reason)
            if body is not None:
                for screen in (self.checkin, self.play, self.result):
                    screen.refused(kind, body)
            reason_text = model.tr.text(_reply_text(reply))   # the hub's, when a message
            text = None if reason_text is None else model.tr("reply.refused", reason=reason_text)
            key = reply_key(code)
            if text is None and key == "reply.not_your_turn":
                turn = model.turn
                text = (model.tr(key, seat=model.tr.seat(turn)) if turn is not None
                        else model.tr("reply.not_your_turn_plain"))
            elif text is None and key is not None:
                text = model.tr(key, code=code)
        elif notice is not None:
            text = model.tr(f"notice.{notice}")
            level = "warning"
        if text is None:
            return None
        model.notify(text, level)
        return text

    def on_connection(self, status: str) -> None:
        """The link's status: online, offline or connecting."""
        self.model.on_connection(status)

    # What the window shows -------------------------------------------------------------------
    @property
    def screen(self) -> str:
        """checkin, board, auction, play or result."""
        if self.checkin.wanted:
            return "checkin"
        phase = self.model.phase
        if phase == "auction":
            return "auction"
        if phase == "play":
            return "board" if self.model.left_to_readers else "play"
        if phase == "over":
            return "board" if self.result.dismissed else "result"
        if not self.checkin.done:
            return "checkin"
        return "board"

    @property
    def header(self) -> list[str]:
        """Table, board, dealer, vulnerability, as short lines for the top bar."""
        model = self.model
        tr = model.tr
        out = [tr("header.table", table=model.table)]
        if model.seat is not None:
            out.append(tr("header.seat", seat=tr.seat(model.seat)))
        if model.board_number is not None:
            out.append(tr("header.board", board=model.board_number))
            if model.dealer is not None:
                out.append(tr("header.dealer", seat=tr.seat(model.dealer)))
            if model.vulnerability is not None:
                out.append(tr(f"vul.{model.vulnerability}"))
        return out

    @property
    def clock_text(self) -> str | None:
        """The round's time left once the director has started the round (the state's
        ``schedule.deadline``, hub time); the tablet's clock is corrected by the hub's time
        in its replies."""
        model = self.model
        schedule = model.schedule
        deadline = None if schedule is None else schedule.deadline
        if deadline is None:
            return None
        left = deadline - (model.wall() + model.hub_offset)
        if left <= 0:
            return model.tr("clock.over")
        minutes, seconds = divmod(int(left), 60)
        return model.tr("clock.left", time=f"{minutes}:{seconds:02d}")

    def director_call(self, note: str = "") -> Event:
        """The silent director call: nothing shows at the table but 'director called'."""
        model = self.model
        body: dict[str, Any] = {}
        if model.seat is not None:
            body["seat"] = model.seat
        if note.strip():
            body["note"] = note.strip()
        model.notify(model.tr("director.called"), "info")
        return "director_call", body

