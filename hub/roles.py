"""Who may send what: a table device's role, from its id, and the seats it may act for.

The broker's access list lets an account write only its own event topic
(``t/{table}/ev/{device}``, username = device id), and MQTT 3.1.1 does not tell the hub who
published: the hub trusts the device id in the topic, and derives the device's role from it
(docs/protocol.md section 10):

* ``{table}-tab``: the table tablet, shared by the four players: any table event, for any
  seat of its table.
* ``{table}-N`` .. ``{table}-W``: a seat tablet: its own seat only (its check-in on its own
  side, its calls, cards, undo, claim and answers, confirmation, director call); declarer's
  tablet also plays dummy's cards (Law 45: declarer plays dummy's cards), and dummy's own
  tablet plays none.
* ``{table}-rdr``: the card readers of the table: ``hand`` and ``card`` events only, for any
  seat (they see every seat's zone).
* a ``.suffix`` (``A1-N.3f9c0a``) marks a spare paired for the same role.

Any other id on a table topic has no role there. :func:`role_of` parses an id,
:func:`check` says whether an event of that role may act for the seat it names; the rules
of the game that also depend on the seat (who answers a claim, who confirms a result) are
the table's (hub.table). Pure functions: nothing here holds state.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import msgspec

from bridgecore.cards import Seat
from bridgecore.text import Text

__all__ = ["EVENTS", "LAWS", "NOT_YOUR_ROLE", "NOT_YOUR_SEAT", "DeviceRole", "Refusal", "Role",
           "acted_for", "check", "role_of"]

NOT_YOUR_ROLE = "not_your_role"   # the device's role does not send this event (or has no role)
NOT_YOUR_SEAT = "not_your_seat"   # the device (or the seat named) may not act for that seat


class Role(StrEnum):
    TABLE_TABLET = "table_tablet"
    SEAT_TABLET = "seat_tablet"
    READER = "reader"


_SUFFIXES = {"tab": Role.TABLE_TABLET, "rdr": Role.READER}
_SEATS = {s.letter: s for s in Seat}
# The events each role sends; a seat tablet's are further bound to its seat by check().
EVENTS: Mapping[Role, frozenset[str]] = {
    Role.TABLE_TABLET: frozenset({"checkin", "board", "hand", "call", "card", "undo", "claim",
                                  "claim_answer", "result_confirm", "director_call",
                                  "answer", "ask", "explain", "rectify"}),
    Role.SEAT_TABLET: frozenset({"checkin", "board", "call", "card", "undo", "claim",
                                 "claim_answer", "result_confirm", "director_call", "answer",
                                 "ask", "explain", "rectify"}),
    Role.READER: frozenset({"hand", "card"}),
}


# The law a player breaks who acts for another seat, where one says who acts: only the player
# who made a call changes it (25A); a claim is answered by the other side (68-69); the
# result is confirmed by the other side than the one keeping the record (79A).
LAWS: Mapping[str, str] = {"undo": "25A", "claim": "68", "claim_answer": "69A",
                           "result_confirm": "79A"}


class DeviceRole(msgspec.Struct, frozen=True):
    """A device's role at its table; ``seat`` a seat tablet's seat."""

    device: str
    table: str
    role: Role
    seat: Seat | None = None

    def __str__(self) -> str:
        if self.role is Role.SEAT_TABLET:
            assert self.seat is not None
            return f"{self.seat.name.title()}'s tablet"
        return "the table tablet" if self.role is Role.TABLE_TABLET else "the card readers"

    @property
    def name(self) -> str:
        """The role as the alert's facts give it: ``table_tablet``, ``seat_tablet:N``..."""
        if self.seat is not None:
            return f"{self.role.value}:{self.seat.letter}"
        return self.role.value


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why an event is refused: the reply's code and reason, the seat it acted for."""

    code: str
    reason: Text
    seat: Seat | None = None
    law: str = ""    # the law the act breaks, when one does (the alert's)


def role_of(device: str, table: str) -> DeviceRole | None:
    """The role of ``device`` on ``table``'s topics; None when the id names no role there
    (another table's device, a dealing machine, an unknown name)."""
    base = device.split(".", 1)[0]
    prefix = f"{table}-"
    if not base.startswith(prefix):
        return None
    rest = base[len(prefix):]
    role = _SUFFIXES.get(rest)
    if role is not None:
        return DeviceRole(device, table, role)
    seat = _SEATS.get(rest)
    if seat is not None:
        return DeviceRole(device, table, Role.SEAT_TABLET, seat)
    return None


def acted_for(type: str, body: Mapping[str, Any]) -> Seat | None:
    """The seat an event acts for (its ``seat``), if it names one."""
    text = body.get("seat")
    return _SEATS.get(text) if isinstance(text, str) else None


def check(role: DeviceRole, type: str, body: Mapping[str, Any],
          declarer: Seat | None = None) -> Refusal | None:
    """None when ``role`` may send ``type`` with ``body``, else why not. ``declarer``: the
    declarer of the board in play, once the auction has one (his tablet plays dummy's
    cards, Law 45; dummy's own tablet does not, 43A)."""
    seat = acted_for(type, body)
    if type not in EVENTS[role.role]:
        return Refusal(NOT_YOUR_ROLE, Text.of("deny.role_event", role=str(role),
                                              device=role.device, event=type), seat)
    if role.role is Role.READER:
        return None
    if type == "card" and body.get("source") == "reader":
        return Refusal(NOT_YOUR_ROLE, Text.of("deny.not_a_reader", role=str(role),
                                              device=role.device), seat)
    if role.role is Role.TABLE_TABLET:
        return None
    mine = role.seat
    assert mine is not None
    if type == "checkin":
        direction = body.get("direction")
        if seat not in (None, mine) or direction not in (None, mine.side.value):
            return Refusal(NOT_YOUR_SEAT, Text.of("deny.own_pair", role=str(role),
                                                  side=str(mine.side), direction=direction),
                           seat or mine)
        return None
    if seat is None or seat is mine:
        if (type == "card" and seat is mine and declarer is not None
                and mine is declarer.partner):
            return Refusal(NOT_YOUR_SEAT, Text.of("deny.dummy_tablet", role=str(role)),
                           seat, "45")
        return None
    if type in ("card", "answer") and declarer is not None and mine is declarer \
            and seat is mine.partner:
        return None   # declarer plays dummy's cards (45), and says which the readers missed
    return Refusal(NOT_YOUR_SEAT, Text.of("deny.other_seat", role=str(role), device=role.device,
                                          own_seat=mine, seat=seat), seat, LAWS.get(type, ""))

