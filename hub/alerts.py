"""Director alerts: what the hub found, with the evidence and timestamps a ruling needs.

An :class:`Alert` is private to the tournament director: it never goes to a table
(Laws 9, 10, 81; the system detects, the director rectifies). :class:`AlertBook` keeps
every alert of a session.

One fact, one alert. :meth:`AlertBook.raise_alert` takes a deduplication ``key`` that names
the *fact* (North's pocket of this board holds a wrong number of cards; the SA of this board
is read twice; E revoked on trick 5), whichever check finds it: a pocket read, the four
pockets read together, the dealing machine, the play. Raising a key again with the same
finding from a check that already reported it changes nothing. A different finding (a
revoke that becomes established, with its Law 64 transfer; a card count judged again once
the four pockets are read) or the same finding from another check (``source``) gives a new
*version* of the same alert id: ``version`` increments, ``facts`` and ``detail`` are the
latest finding, ``detected`` stays the first detection, and the evidence grows: it is taken
again (the record so far) and ``evidence["found_by"]`` lists every check that reported
the fact, in order.

The director's steps are ``open -> acknowledged -> ruled -> resolved``; the time of the
acknowledgement is when the director's attention was drawn (Laws 62A, 64B4, 64B5, 69A key
off it). A new version keeps the director's status, with his times, with one exception:
once he has ruled or resolved the alert, a version under *another law* (the fact is now
judged differently: a revoke established after his ruling, with its Law 64 transfer) goes
back to ``acknowledged``: open again, on his list, for him to confirm or change his
decision (his attention time stays; his ruling and ``ruled_at`` stay as the record of what
he decided on the earlier version; ``resolved_at`` is cleared). A version under the same
law (more evidence, a late table with fewer boards to play) does not reopen what he
closed. Every change returns the new :class:`Alert` so that the caller can publish and
persist it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from bridgecore.irregularity import Irregularity, Kind, Rectification
from bridgecore.text import Text
from hub.errors import AlertError
from hub.texts import render

__all__ = ["OPTIONS", "Alert", "AlertBook", "AlertStatus", "HubKind", "finding",
           "first_finding"]


class AlertStatus(StrEnum):
    OPEN = "open"
    ACKNOWLEDGED = "acknowledged"   # the director has seen it: attention drawn
    RULED = "ruled"                 # the director has given a ruling
    RESOLVED = "resolved"           # closed (ruled and applied, or nothing to rule)


# A status in the reader's words (a refusal: "alert A1-3-revoke-1 is already resolved")
STATUS_TEXTS = {AlertStatus.OPEN: Text.of("alert.open"),
                AlertStatus.ACKNOWLEDGED: Text.of("alert.acknowledged"),
                AlertStatus.RULED: Text.of("alert.ruled"),
                AlertStatus.RESOLVED: Text.of("alert.resolved")}


class HubKind(StrEnum):
    """Kinds the hub adds to :class:`bridgecore.irregularity.Kind` (the JSON names)."""

    WRONG_BOARD = "wrong_board"                    # 15: board not scheduled here
    WRONG_TABLE = "wrong_table"                    # 5B: pair scheduled at another table
    WRONG_DIRECTION = "wrong_direction"            # 5B: pair sits the wrong way round
    WRONG_PAIR = "wrong_pair"                      # 5B: pair not scheduled to play now
    BOARD_ALREADY_PLAYED = "board_already_played"  # 15B
    HAND_NOT_DEALT = "hand_not_dealt"              # 17D (2017: 15A): another board's hand
    ROTATED_BOARD = "rotated_board"                # 7, [G17]: hands at the wrong seats
    HANDS_EXCHANGED = "hands_exchanged"            # 7, 87: some hands swapped, not a rotation
    HAND_DIFFERS = "hand_differs"                  # 87: cards displaced in the board
    FOREIGN_CARD = "foreign_card"                  # 1: a card that is not of this pack
    CARDS_RETURNED_WRONG = "cards_returned_wrong"  # 7C: pocket read back differs
    CARD_EXPOSED = "card_exposed"                  # 24 (2017: 16D): a card faced in the auction
    RESULT_DISAGREES = "result_disagrees"          # 79A, 79B
    RESULT_UNCONFIRMED = "result_unconfirmed"      # 8C, 79A
    LATE_TABLE = "late_table"                      # 8, 90B2: round time exceeded
    DEVICE_OFFLINE = "device_offline"
    DIRECTOR_CALL = "director_call"                # 9B1
    MISDEALT_BOARD = "misdealt_board"              # 6D1, 87: a dealt board is not the record
    DEALER_FAULT = "dealer_fault"                  # 6: the dealing machine stopped
    BOARD_MARKINGS = "board_markings"              # 2: hand record's dealer/vul not Law 2's
    DEVICE_OVERREACH = "device_overreach"          # a device acted beyond its role (hub.roles)
    PAIRING_FAILURES = "pairing_failures"          # wrong pairing codes (hub.pairing)
    LOG_DAMAGE = "log_damage"                      # the event log: a record set aside, a loss
    READS_UNRESOLVED = "reads_unresolved"          # a card not read, the table not answering
    CLOCK_JUMP = "clock_jump"                      # a device's clock jumped (hub.clock)
    HISTORY_MISSING = "history_missing"            # the log lacks acknowledged events (hub.clock)
    RECORD_CONFLICT = "record_conflict"            # two cards reported at one place (hub.ordering)
    EVENTS_HELD = "events_held"                    # events waited too long for their place


# The rectifications the Laws give the director for the hub's own findings.
OPTIONS: dict[str, tuple[Rectification, ...]] = {
    "seating": (
        Rectification.of("5B", "rect.seating_before", "seat the pairs as the movement says before "
                         "the cards are taken out; no rectification", "director"),
        Rectification.of("15C", "rect.seating_auction", "found during the auction: cancel it, "
                         "seat the right pairs, and start again; if a repeated call differs the "
                         "board is cancelled", "director"),
        Rectification.of("15A", "rect.seating_after_play", "found after play: the score stands if "
                         "none of the four had played the board; the proper pairs may be required "
                         "to play it later", "director"),
    ),
    "wrong_board": (
        Rectification.of("15A", "rect.wrong_board_not_played", "none of the four has played it: "
                         "the score normally stands; the proper pairs may be required to play it "
                         "later (2017 15B: they get average-plus)", "director"),
        Rectification.of("15C", "rect.wrong_board_auction", "found during the auction: cancel it "
                         "and have the right board played; repeated calls must not differ",
                         "director"),
    ),
    "board_already_played": (
        Rectification.of("15B", "rect.board_twice", "the second score is cancelled for both "
                         "sides; artificial adjusted score to a contestant deprived of a valid "
                         "score", "director"),
    ),
    "rotated_board": (
        Rectification.of("7B", "rect.rotated_before_call", "before any call: put each hand back "
                         "in its own pocket and play the board normally, no rectification",
                         "director"),
        Rectification.of("87", "rect.rotated_played", "already played rotated 180°: the score "
                         "stands; rotated 90°: the score stands and is compared within its own "
                         "group (87B)", "director"),
        Rectification.of("86", "rect.rotated_teams", "teams, board already played correctly at "
                         "the other table: adjusted score (86)", "director"),
    ),
    "hand_not_dealt": (
        Rectification.of("17D1", "rect.hand_not_dealt_call", "a call made with these cards is "
                         "cancelled; the player takes his correct hand and calls again (2017: "
                         "15A, a comparable call)", "director"),
        Rectification.of("17D2", "rect.hand_not_dealt_adjusted", "artificial adjusted score if "
                         "LHO had called over the cancelled call and the new call differs, or "
                         "partner had called since", "director"),
        Rectification.of("17D3", "rect.hand_not_dealt_later", "when the wrong board is later "
                         "played and the call repeated, it may be played normally", "director"),
    ),
    "fouled": (
        Rectification.of("87", "rect.fouled_restore", "find the displaced cards and restore the "
                         "board before play; if already played, score each form as its own group "
                         "(87B)", "director"),
    ),
    "card_count": (
        Rectification.of("13", "rect.surplus_card", "surplus card: restore it to its hand; Law 13 "
                         "(13A-D by whether the player has called, 13F surplus card removed)",
                         "director"),
        Rectification.of("14", "rect.missing_card", "missing card: search for it and restore it "
                         "(14A before the lead is faced; 14B after: deemed to have been in the "
                         "hand, possible revoke)", "director"),
    ),
    "pack": (
        Rectification.of("1", "rect.imperfect_pack", "the pack is not 52 distinct cards: replace "
                         "the foreign or duplicate card (13F) before play; 2017: no result stands "
                         "with an imperfect pack", "director"),
    ),
    "card_exposed": (
        Rectification.of("24", "rect.card_exposed_auction", "a card exposed during the auction: "
                         "the player's partner must pass at the next turn when it is an honour or "
                         "not a single low card (24B/C); the card stays a penalty card if he "
                         "becomes a defender (2017: 16D before the first call)", "director"),
    ),
    "result": (
        Rectification.of("79A", "rect.tricks_agreed", "establish the number of tricks won with "
                         "both sides before the hands go back; 79B: a later disagreement is ruled "
                         "by the director", "director"),
        Rectification.of("79C", "rect.scoring_error", "a scoring error may be corrected until the "
                         "correction period ends", "director"),
    ),
    "change_of_call": (
        Rectification.of("25A", "rect.unintended_call", "allowed when the call was unintended and "
                         "partner has not called (2007: without pause for thought); otherwise 25B",
                         "director"),
        Rectification.of("25A4", "rect.withdraw_over_unintended", "LHO may withdraw a call made "
                         "over the unintended one; that information is authorised for his side "
                         "only", "director"),
    ),
    "markings": (
        Rectification.of("2", "rect.markings_govern", "the board's markings govern for the "
                         "session: it is played and scored with the dealer and vulnerability "
                         "marked on it; check that the physical board is marked as the hand "
                         "record says, and substitute a correctly marked board as soon as possible",
                         "director"),
        Rectification.of("2", "rect.markings_misled", "a player misled by the unusual marking "
                         "(calling as Law 2's dealer) is treated leniently: his side may be "
                         "deemed non-offending", "director"),
    ),
    "overreach": (
        Rectification.of("9B1", "rect.device_used", "find who used the device: a player who made "
                         "calls, played cards, claimed or confirmed for another seat; the events "
                         "were refused and changed nothing", "director"),
        Rectification.of("90", "rect.device_penalty", "a procedural penalty for a player who "
                         "acted for another seat; a lost or stolen device is revoked from the "
                         "console and a spare paired", "director"),
    ),
    "cards_returned_wrong": (
        Rectification.of("7C", "rect.cards_returned", "each player restores his original 13 cards "
                         "to the pocket; a procedural penalty may apply (90B)", "director"),
    ),
}

KINDS: frozenset[str] = frozenset({k.value for k in Kind} | {k.value for k in HubKind})
_STEPS = {
    AlertStatus.OPEN: (AlertStatus.ACKNOWLEDGED, AlertStatus.RULED, AlertStatus.RESOLVED),
    AlertStatus.ACKNOWLEDGED: (AlertStatus.RULED, AlertStatus.RESOLVED),
    AlertStatus.RULED: (AlertStatus.RULED, AlertStatus.RESOLVED),
    AlertStatus.RESOLVED: (),
}


@dataclass(frozen=True, slots=True)
class Alert:
    """One alert, one version. ``id`` is stable across versions (``table-board-kind-n``).

    ``occurred`` is the device time of the act, ``detected`` the hub time of the first
    version, ``updated`` the hub time of this version. ``facts`` is what was found (the
    irregularity's own data: lowest sufficient bid, transfer, seats read...), ``evidence``
    the record so far (auction, play, hands read), ``options`` the rectifications the
    Laws give (Rectification JSON), never applied by the hub.
    """

    id: str
    kind: str
    law: str
    table: str
    round: int | None
    board: int | None
    detected: float
    seats: tuple[str, ...] = ()
    call: int | None = None
    trick: int | None = None
    occurred: float | None = None
    text: Text = field(default_factory=lambda: Text.plain(""))
    facts: Mapping[str, Any] = field(default_factory=dict, hash=False)
    evidence: Mapping[str, Any] = field(default_factory=dict, hash=False)
    options: tuple[Mapping[str, Any], ...] = field(default=(), hash=False)
    version: int = 1
    updated: float | None = None
    status: AlertStatus = AlertStatus.OPEN
    acknowledged_at: float | None = None
    ruling: Mapping[str, Any] | None = field(default=None, hash=False)
    ruled_at: float | None = None
    resolved_at: float | None = None

    @property
    def detail(self) -> str:
        """The finding in English (old clients, operators' logs): :attr:`text` rendered."""
        return render(self.text, "en")

    @property
    def is_open(self) -> bool:
        """Not yet resolved (the alert topic stays retained)."""
        return self.status is not AlertStatus.RESOLVED

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id, "version": self.version, "kind": self.kind, "law": self.law,
            "table": self.table, "round": self.round, "board": self.board,
            "seats": list(self.seats), "call": self.call, "trick": self.trick,
            "occurred": self.occurred, "detected": self.detected, "updated": self.updated,
            "detail": self.detail, "facts": dict(self.facts),
            "evidence": dict(self.evidence),
            "options": [dict(o) for o in self.options], "status": self.status.value,
            "acknowledged_at": self.acknowledged_at,
            "ruling": None if self.ruling is None else dict(self.ruling),
            "ruled_at": self.ruled_at, "resolved_at": self.resolved_at,
            # last, as in wire.views.AlertView: the hub publishes this dict as it is
            "text": self.text.to_json(),
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Alert:
        """The inverse of :meth:`to_json` (for the director's console)."""
        try:
            return cls(
                obj["id"], obj["kind"], obj["law"], obj["table"], obj.get("round"),
                obj.get("board"), float(obj["detected"]), tuple(obj.get("seats") or ()),
                obj.get("call"), obj.get("trick"), obj.get("occurred"),
                Text.from_json(obj["text"]) if "text" in obj else Text.plain(obj.get("detail", "")),
                dict(obj.get("facts") or {}), dict(obj.get("evidence") or {}),
                tuple(dict(o) for o in obj.get("options") or ()), int(obj.get("version", 1)),
                obj.get("updated"), AlertStatus(obj.get("status", "open")),
                obj.get("acknowledged_at"), obj.get("ruling"), obj.get("ruled_at"),
                obj.get("resolved_at"))
        except (KeyError, TypeError, ValueError) as err:
            raise AlertError(Text.of("refusal.not_an_alert", error=f"{err!r:.80}",
                                     alert=f"{dict(obj)!r:.200}")) from None


def finding(irr: Irregularity) -> Text:
    """An irregularity of bridgecore as the director reads it: ``irr.<kind>`` with the seat,
    call index, trick and card (bridgecore's own English ``detail`` stays in the facts, as
    ``tenace check --json`` reports it); a revoke says whether it is established and the
    tricks Law 64 transfers."""
    extra = dict(irr.extra)
    more = []
    if irr.established:
        more.append(Text.of("irr.established"))
    if irr.transfer is not None:
        more.append(Text.of("irr.transfer", n=irr.transfer, law=irr.law))
    return Text.of(f"irr.{irr.kind.value}", seat=irr.seat, index=irr.call, trick=irr.trick,
                   card=extra.get("card"), more=more)


def first_finding(text: Text) -> Text:
    """The finding of a hand-not-dealt alert before the calls made with it were added."""
    found = text.fields.get("finding") if text.key == "alert.called_with_it" else None
    return found if isinstance(found, Text) else text


def _text(detail: Text | str) -> Text:
    return detail if isinstance(detail, Text) else Text.plain(detail)


def _options(options: Iterable[Rectification | Mapping[str, Any]]) -> tuple[dict[str, Any], ...]:
    return tuple(o.to_json() if isinstance(o, Rectification) else dict(o) for o in options)


def _evidence(evidence: Mapping[str, Any] | Callable[[], Mapping[str, Any]] | None,
              found_by: list[str], source: str) -> dict[str, Any]:
    """The evidence of a new version: taken again, with the checks that found the fact."""
    out = {} if evidence is None else dict(evidence() if callable(evidence) else evidence)
    if source and source not in found_by:
        found_by = [*found_by, source]
    if found_by:
        out["found_by"] = found_by
    return out


class AlertBook:
    """Every alert of a session, in the order raised; deduplicated by key."""

    __slots__ = ("_alerts", "_by_key", "_by_table", "_counts")

    def __init__(self) -> None:
        self._alerts: dict[str, Alert] = {}
        self._by_key: dict[str, str] = {}
        self._counts: dict[str, int] = {}
        # each table's alert ids in the order raised: every public view of a table asks for
        # its alerts (hub.rectify), which was a walk of the whole room's (issue 27)
        self._by_table: dict[str, list[str]] = {}

    # Raising -----------------------------------------------------------------------------
    def raise_alert(self, key: str, *, kind: str, law: str, table: str, round: int | None,
                    board: int | None, detected: float, seats: Iterable[str] = (),
                    call: int | None = None, trick: int | None = None,
                    occurred: float | None = None, detail: Text | str = "",
                    facts: Mapping[str, Any] | None = None,
                    evidence: Mapping[str, Any] | Callable[[], Mapping[str, Any]] | None = None,
                    options: Iterable[Rectification | Mapping[str, Any]] = (),
                    source: str = "") -> Alert | None:
        """Raise the fact ``key`` names; None when it was raised already with the same
        finding (and by ``source``, the check that found it, if given), else the new alert
        or the new version of the existing one (the director's status as the module
        docstring says; ``detected`` stays the first detection). ``evidence`` may be a
        function: it is called only when a version is made."""
        if kind not in KINDS:
            raise AlertError(Text.of("refusal.alert_kind", kind=f"{kind!r:.40}"))
        opts = _options(options)
        text = _text(detail)
        found = dict(facts or {})
        seat_list = tuple(seats)
        existing_id = self._by_key.get(key)
        if existing_id is not None:
            old = self._alerts[existing_id]
            found_by = list(old.evidence.get("found_by", ()))
            new_source = bool(source) and source not in found_by
            if not new_source and (
                    old.kind, old.law, old.text, old.facts, old.options, old.seats, old.call,
                    old.trick) == (kind, law, text, found, opts, seat_list, call, trick):
                return None
            new = replace(old, kind=kind, law=law, seats=seat_list, call=call, trick=trick,
                          occurred=occurred if occurred is not None else old.occurred,
                          text=text, facts=found,
                          evidence=_evidence(evidence, found_by, source),
                          options=opts, version=old.version + 1, updated=detected)
            if law != old.law and old.status in (AlertStatus.RULED, AlertStatus.RESOLVED):
                new = replace(new, status=AlertStatus.ACKNOWLEDGED, resolved_at=None)
            self._alerts[existing_id] = new
            return new
        stem = f"{table}-{board if board is not None else 0}-{kind}"
        n = self._counts.get(stem, 0) + 1
        self._counts[stem] = n
        alert = Alert(f"{stem}-{n}", kind, law, table, round, board, detected, seat_list, call,
                      trick, occurred, text, found, _evidence(evidence, [], source), opts,
                      updated=detected)
        self._alerts[alert.id] = alert
        self._by_key[key] = alert.id
        self._by_table.setdefault(table, []).append(alert.id)
        return alert

    def key_of(self, key: str) -> Alert | None:
        """The alert raised under ``key``, if any."""
        alert_id = self._by_key.get(key)
        return None if alert_id is None else self._alerts[alert_id]

    def revise(self, alert_id: str, time: float, facts: Mapping[str, Any],
               detail: Text | str) -> Alert:
        """A new version of an alert with more facts (a player's choice at the table,
        hub.rectify): its status stays the director's."""
        old = self[alert_id]
        new = replace(old, facts=dict(facts), text=_text(detail), version=old.version + 1,
                      updated=time)
        self._alerts[alert_id] = new
        return new

    # The director ------------------------------------------------------------------------
    def _step(self, alert_id: str, status: AlertStatus, time: float) -> Alert:
        old = self._alerts.get(alert_id)
        if old is None:
            raise AlertError(Text.of("refusal.no_alert", id=str(alert_id)[:80]))
        if status not in _STEPS[old.status]:
            raise AlertError(Text.of("refusal.alert_step", id=alert_id,
                                     status=STATUS_TEXTS[old.status],
                                     to=STATUS_TEXTS[status]))
        acknowledged = old.acknowledged_at if old.acknowledged_at is not None else time
        return replace(old, status=status, acknowledged_at=acknowledged,
                       version=old.version + 1, updated=time)

    def acknowledge(self, alert_id: str, time: float) -> Alert:
        """The director has seen the alert: the time his attention was drawn."""
        new = self._step(alert_id, AlertStatus.ACKNOWLEDGED, time)
        self._alerts[alert_id] = new
        return new

    def rule(self, alert_id: str, time: float, text: str,
             score: Mapping[str, Any] | None = None, by: str | None = None,
             option: int | None = None) -> Alert:
        """Record the director's ruling (``score``: adjusted-score data, if any; ``by``: the
        account that gave it; ``option``: the index of the rectification he chose among the
        alert's ``options``, shown to the table). A ruling acknowledges the alert if it was
        not yet; a later ruling replaces the earlier one."""
        if not isinstance(text, str) or not text.strip():
            raise AlertError(Text.of("refusal.ruling_text", id=alert_id))
        new = self._step(alert_id, AlertStatus.RULED, time)
        ruling: dict[str, Any] = {"text": text}
        if score is not None:
            ruling["score"] = dict(score)
        if by is not None:
            ruling["by"] = by
        if option is not None and 0 <= option < len(new.options):
            ruling["option"] = option
        new = replace(new, ruling=ruling, ruled_at=time)
        self._alerts[alert_id] = new
        return new

    def resolve(self, alert_id: str, time: float, text: str = "") -> Alert:
        """Close the alert (``text``: why, when there was nothing to rule)."""
        new = self._step(alert_id, AlertStatus.RESOLVED, time)
        if text and new.ruling is None:
            new = replace(new, ruling={"text": text})
        new = replace(new, resolved_at=time)
        self._alerts[alert_id] = new
        return new

    # Queries -----------------------------------------------------------------------------
    def __getitem__(self, alert_id: str) -> Alert:
        try:
            return self._alerts[alert_id]
        except KeyError:
            raise AlertError(Text.of("refusal.no_alert", id=str(alert_id)[:80])) from None

    def __contains__(self, alert_id: object) -> bool:
        return alert_id in self._alerts

    def __iter__(self) -> Iterator[Alert]:
        return iter(self._alerts.values())

    def __len__(self) -> int:
        return len(self._alerts)

    def open(self) -> list[Alert]:
        """Alerts not yet resolved, in the order raised."""
        return [a for a in self._alerts.values() if a.is_open]

    def of_table(self, table: str) -> list[Alert]:
        """The alerts of ``table``, in the order raised."""
        alerts = self._alerts
        return [alerts[i] for i in self._by_table.get(table, ())]

    def to_json(self) -> list[dict[str, Any]]:
        return [a.to_json() for a in self._alerts.values()]
