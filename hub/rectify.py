"""The Laws' flow at the table (docs/protocol.md 7.15, 11.1 ``irregularities``).

An irregularity the players see happen (an insufficient bid, a call out of rotation, a lead or
play out of turn, a card exposed) is shown to the whole table while its alert is open: what
happened, that the director is called, the choice the Laws give a player (LHO may accept an
insufficient bid, 27A1; or a call out of rotation, 29A; declarer or the defenders may accept
a lead out of turn, 53A, 55A), and once the director has ruled, the rectification he chose
(``rule`` with ``option``, hub.director: its law, the director's words and the option as a
message the tablet renders in the players' language). What only the hub knows (a revoke, a
card that is not in the hand) stays the director's: telling the table would be information
the players did not have (Laws 16, 64).

The hub applies nothing of its own: a player's acceptance is recorded (and shown to the
director in a new version of the alert); the record then goes on from what the players do
(an accepted insufficient bid stands when LHO calls over it; the offender's next call
replaces it, 27B; an accepted lead stays the lead). The director rectifies (Laws 9, 10, 81).
"""

from __future__ import annotations

from typing import Any

from bridgecore.cards import Seat
from bridgecore.text import Text
from hub.alerts import Alert, AlertBook
from hub.console_i18n import option_text
from hub.roles import NOT_YOUR_SEAT
from hub.sitting import SEATS, Sitting

__all__ = ["SEEN_AT_THE_TABLE", "accept", "irregularities"]

# Alert kinds the players see happen at the table (bridgecore.irregularity.Kind values).
SEEN_AT_THE_TABLE = frozenset({
    "insufficient_bid", "call_out_of_rotation", "call_after_final_pass",
    "lead_out_of_turn", "play_out_of_turn", "card_exposed"})
# The options a player may take (the others are the director's to choose).
_ACCEPTS = frozenset({"27A1", "29A", "53A", "55A"})


def _chooser(chooser: str | None, offender: Seat | None,
             declarer: Seat | None) -> list[Seat]:
    if chooser == "lho" and offender is not None:
        return [offender.lho]
    if chooser == "declarer" and declarer is not None:
        return [declarer]
    if chooser == "defenders" and declarer is not None:
        return [declarer.lho, declarer.rho]
    return []


def _mine(alert: Alert, s: Sitting, table: str) -> bool:
    return (alert.table == table and alert.is_open and alert.kind in SEEN_AT_THE_TABLE
            and alert.round == s.round and alert.board == s.board.number)


def irregularities(book: AlertBook, table: str, s: Sitting | None) -> list[dict[str, Any]]:
    """The state's ``irregularities`` (11.1): the open ones the table saw, oldest first."""
    if s is None:
        return []
    play = s.board.play
    declarer = None if play is None else play.declarer
    out = []
    for alert in book.of_table(table):
        if not _mine(alert, s, table):
            continue
        offender = SEATS.get(alert.seats[0]) if alert.seats else None
        took = alert.facts.get("accepted")
        accepted = None if took is None else {"seat": took["seat"], "time": took["time"]}
        ruling = alert.ruling
        chosen = None
        if ruling is not None and "option" in ruling:
            option = alert.options[int(ruling["option"])]
            chosen = {"law": option.get("law", ""), "text": str(ruling.get("text", "")),
                      "option": int(ruling["option"])}
            said = option_text(option)      # the option in the players' language (rect.*)
            if said is not None:
                chosen["say"] = said
        options = []
        if accepted is None and ruling is None:
            for option in alert.options:
                law = str(option.get("law", ""))
                if law in _ACCEPTS or str(option.get("text", "")).lower().startswith("accept"):
                    for seat in _chooser(option.get("chooser"), offender, declarer):
                        options.append({"choice": "accept", "seat": seat.letter, "law": law})
        out.append({"id": alert.id, "kind": alert.kind, "law": alert.law,
                    "seat": None if offender is None else offender.letter,
                    "call": alert.call, "trick": alert.trick,
                    "director": "called" if ruling is None else "ruled",
                    "options": options, "accepted": accepted, "ruling": chosen})
    return out


def accept(book: AlertBook, table: str, s: Sitting | None, body: dict[str, Any],
           t: float, device_time: float) -> tuple[Alert | None, tuple[str, Text] | None]:
    """A player's ``rectify`` (7.15): (the alert's new version, None), or (None, (code,
    reason)) when refused."""
    found = next((i for i in irregularities(book, table, s) if i["id"] == body["irregularity"]),
                 None)
    if found is None:
        return None, ("wrong_state", Text.of("deny.no_irregularity",
                                             id=str(body["irregularity"])[:64]))
    seat = body["seat"]
    if not found["options"]:
        return None, ("wrong_state", Text.of("deny.irregularity_settled"))
    choice = next((o for o in found["options"] if o["seat"] == seat), None)
    if choice is None:
        return None, (NOT_YOUR_SEAT, Text.of(
            "deny.not_your_choice", seats=[o["seat"] for o in found["options"]], seat=seat,
            law=found["options"][0]["law"]))
    old = book[found["id"]]
    facts = dict(old.facts, accepted={"seat": seat, "time": t, "device_time": device_time,
                                      "law": choice["law"]})
    detail = Text.of("alert.accepted", finding=old.text, seat=seat, law=choice["law"])
    return book.revise(old.id, t, facts, detail), None
