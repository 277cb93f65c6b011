"""The messages devices and tools send the hub, typed and bounded (docs/protocol.md).

One definition serves the hub (validation), the devices (what to send) and the published
schema (:mod:`wire.schema`). Every message is a frozen :class:`msgspec.Struct` that refuses
unknown fields (the protocol is closed: a field the hub does not know is a mistake, not an
extension) and bounds what it takes: ids and texts by length, lists by size, integers by
range (a board is 1..999, a pair 1..9999), seats by name. The decoder refuses, before any
field is looked at, a payload over :data:`MAX_PAYLOAD` bytes, one nested deeper than
:data:`MAX_DEPTH`, one that is not UTF-8 or holds a lone UTF-16 surrogate (``"\\ud800"``),
and NaN or Infinity (not JSON).

* Device events: an envelope (:class:`EventEnvelope`, ``type`` is its tag) whose ``body`` is
  one of :data:`EVENT_TYPES`; a dealing machine's events are :data:`DEALER_EVENT_TYPES`; a
  device's ``hello`` on (re)connecting, on either topic, :data:`HELLO_TYPES`.
* The hub's reply: :class:`ReplyMessage`.
* The director's commands on ``hub/cmd``: :data:`DirectorCommand`, tagged by ``op``
  (hub.director checks them against the room).

:func:`decode_event` is the one entry point; :class:`wire.protocol.Envelope` wraps it.
Every failure is a :class:`wire.errors.ProtocolError` whose reason names the field by its
path (``$.body.board``).
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Final, Literal

import msgspec
from msgspec import UNSET, Meta, Struct, UnsetType

from wire.errors import ProtocolError

__all__ = [
    "DEALER_EVENT_TYPES", "EVENT_TYPES", "HELLO_TYPES", "MAX_DEPTH", "MAX_OFFSET", "MAX_PAYLOAD",
    "SCHEMA_VERSION", "Acknowledge", "AnswerBody", "AnswerEvent", "AskBody", "AskEvent",
    "BoardBody", "BoardEvent", "CallBody", "CallEvent", "CardBody", "CardEvent", "CheckinAccept",
    "CheckinBody", "CheckinEvent", "ClaimAnswerBody", "ClaimAnswerEvent", "ClaimBody",
    "ClaimEvent", "DealerError", "DealerEvent", "DealerFaultBody", "DealerFaultEvent", "DealtBody",
    "DealtEvent", "DeviceEvent", "DirectorCallBody", "DirectorCallEvent", "DirectorCommand",
    "EventEnvelope", "EventTypes", "ExplainBody", "ExplainEvent", "HandBody", "HandEvent",
    "HelloBody", "HelloEvent", "PairAdd", "PairNames", "PairWithdraw", "Player", "Position",
    "PublicResults", "RectifyBody", "RectifyEvent", "ReplyMessage", "Resolve", "ResultConfirmBody",
    "ResultConfirmEvent", "ResultCorrect", "RoundPause", "RoundStart", "RoundTime", "Rule",
    "Ruling", "RulingUndo", "Substitute", "SwissDraw", "TableMode", "UndoBody", "UndoEvent",
    "check_payload", "decode_event", "validation_reason",
]

SCHEMA_VERSION: Final = 1
MAX_PAYLOAD: Final = 64 * 1024      # bytes of one message
MAX_DEPTH: Final = 8                # objects and arrays nested (an event needs 4)
MAX_BOARD: Final = 999
MAX_PAIR: Final = 9999
MAX_SEQ: Final = 2 ** 63 - 1        # SQLite's INTEGER
MAX_TIME: Final = 1e11              # seconds since the epoch: the year 5138
MAX_OFFSET: Final = 1e10            # seconds a device clock may be off the hub's, either way
MAX_CALLS: Final = 400              # calls (or card reports) of one board: 319 calls at most

# The shapes every message shares --------------------------------------------------------------

Seat = Literal["N", "E", "S", "W"]
Id = Annotated[str, Meta(pattern=r"^[A-Za-z0-9_.-]{1,64}$",
                         description="[A-Za-z0-9_.-], 1-64 characters")]
Board = Annotated[int, Meta(ge=1, le=MAX_BOARD, description="a board number")]
PairNumber = Annotated[int, Meta(ge=1, le=MAX_PAIR, description="a pair's number")]
Seq = Annotated[int, Meta(ge=0, le=MAX_SEQ)]
Time = Annotated[float, Meta(ge=0, le=MAX_TIME, description="seconds since the epoch")]
Offset = Annotated[float, Meta(ge=-MAX_OFFSET, le=MAX_OFFSET,
                               description="hub clock minus device clock, seconds")]
CardText = Annotated[str, Meta(min_length=1, max_length=80,
                               description='"SA"..., "?{uid}" (no known tag), '
                                           '"{deck}:{card}" (another pack)')]
CallText = Annotated[str, Meta(min_length=1, max_length=8,
                               description='"1NT", "Pass", "X", "XX"')]
Word = Annotated[str, Meta(max_length=64)]
Note = Annotated[str, Meta(max_length=4000)]
Cards = Annotated[list[CardText], Meta(max_length=64)]


class _Closed(Struct, frozen=True, forbid_unknown_fields=True):
    """A part of a message: every field known, none other taken."""


# Device events: the bodies --------------------------------------------------------------------

class Player(_Closed, frozen=True):
    """A player checking in: his number (the club's) and name, either optional."""

    number: Annotated[int, Meta(ge=1, le=2 ** 31 - 1)] | UnsetType = UNSET
    name: Annotated[str, Meta(max_length=100)] | UnsetType = UNSET


class CheckinBody(_Closed, frozen=True):
    """``checkin``: a pair sits down (Law 5): its direction, number, players, the seat."""

    direction: Literal["NS", "EW"]
    pair: PairNumber
    players: Annotated[list[Player], Meta(max_length=4)] | UnsetType | None = UNSET
    seat: Seat | UnsetType | None = UNSET


class BoardBody(_Closed, frozen=True):
    """``board``: the board put on the table (tablet, or its tag read)."""

    board: Board
    source: Word | UnsetType | None = UNSET


class HandBody(_Closed, frozen=True):
    """``hand``: the cards a seat's reader read out of (``out``) or back into the pocket."""

    seat: Seat
    cards: Cards
    when: Literal["out", "back"] | UnsetType | None = UNSET
    board: Board | UnsetType | None = UNSET


class CallBody(_Closed, frozen=True):
    """``call``: a call made, alerted or not, with a stop card (``stop``)."""

    seat: Seat
    call: CallText
    alert: bool | UnsetType | None = UNSET
    explanation: Note | UnsetType | None = UNSET
    stop: bool | UnsetType | None = UNSET


class CardBody(_Closed, frozen=True):
    """``card``: a card played (from the tablet, or faced on the seat's reader)."""

    seat: Seat
    card: CardText
    source: Word | UnsetType | None = UNSET


class UndoBody(_Closed, frozen=True):
    """``undo``: an unintended call taken back (Law 25A, before partner calls)."""

    seat: Seat


class ClaimBody(_Closed, frozen=True):
    """``claim``: ``tricks`` of the remaining ones for the claimer's side (Law 68)."""

    seat: Seat
    tricks: Annotated[int, Meta(ge=0, le=13)]
    statement: Note | UnsetType | None = UNSET


class ClaimAnswerBody(_Closed, frozen=True):
    """``claim_answer``: a defender accepts the claim or not (Law 69)."""

    seat: Seat
    accept: bool


class ResultConfirmBody(_Closed, frozen=True):
    """``result_confirm``: the other side's confirmation of the result (Laws 79A, 8C)."""

    seat: Seat
    accept: bool


class DirectorCallBody(_Closed, frozen=True):
    """``director_call``: the director called from the table (a silent call)."""

    seat: Seat | UnsetType | None = UNSET
    note: Note | UnsetType | None = UNSET


class AskBody(_Closed, frozen=True):
    """``ask``: an opponent asks what call number ``call`` means (Law 20F)."""

    seat: Seat
    call: Annotated[int, Meta(ge=1, le=400)]


class ExplainBody(_Closed, frozen=True):
    """``explain``: the alerting side explains call number ``call`` (Laws 20F, 40B), or
    announces it (``announce``)."""

    seat: Seat
    call: Annotated[int, Meta(ge=1, le=400)]
    text: Annotated[str, Meta(min_length=1, max_length=4000)]
    announce: bool | UnsetType | None = UNSET


class RectifyBody(_Closed, frozen=True):
    """``rectify``: a player takes the option the Laws give him (27A1, 29A, 53A...)."""

    seat: Seat
    irregularity: Annotated[str, Meta(pattern=r"^[A-Za-z0-9_.-]{1,64}$")]
    choice: Literal["accept"]


class AnswerBody(_Closed, frozen=True):
    """``answer``: the table answers the hub's prompt about what its readers saw
    (docs/protocol.md, "Asking the table"): the ``card`` ``seat`` played to ``trick``
    (null: it had not played when the next seat did), its ``place`` in the trick (1: led;
    when it came after a card played out of turn), or ``cards`` of ``seat``'s pocket its
    reader did not read."""

    seat: Seat
    trick: Annotated[int, Meta(ge=1, le=13)] | UnsetType | None = UNSET
    card: CardText | UnsetType | None = UNSET
    place: Annotated[int, Meta(ge=1, le=4)] | UnsetType | None = UNSET
    cards: Annotated[list[CardText], Meta(max_length=13)] | UnsetType | None = UNSET


class HelloBody(_Closed, frozen=True):
    """``hello``: a device (re)connecting says the last ``seq`` the hub acknowledged to it
    (``acked``, null before any) and the hub's event log that acknowledged it (``log``, as
    the hub's last reply to a hello named it); the hub's reply says the last it holds
    (``last``) and its log (``log``). Not an event of the game: never logged, never numbered
    (its ``seq`` repeats the device's last)."""

    acked: Seq | UnsetType | None = UNSET
    log: Annotated[str, Meta(max_length=64)] | UnsetType | None = UNSET


class DealerError(_Closed, frozen=True):
    """What the dealing machine itself noticed: ``misread``, ``missing_card``..."""

    code: Word
    pocket: Seat | UnsetType | None = UNSET
    card: CardText | UnsetType | None = UNSET


class DealtBody(_Closed, frozen=True):
    """``dealt``: the cards the machine read into each pocket (``?``: unreadable)."""

    board: Annotated[int, Meta(le=MAX_BOARD)]    # hub.dealing refuses < 1 with its reason
    pockets: Annotated[dict[Seat, Cards], Meta(max_length=4)]
    copy: Annotated[int, Meta(ge=1, le=999)] | UnsetType | None = UNSET
    errors: Annotated[list[DealerError], Meta(max_length=208)] | UnsetType | None = UNSET


class DealerFaultBody(_Closed, frozen=True):
    """``dealer_fault``: the machine stopped (``jam``, ``silent``, ``port_lost``...)."""

    code: Word
    board: Annotated[int, Meta(ge=0, le=MAX_BOARD)] | UnsetType | None = UNSET
    detail: Note | UnsetType | None = UNSET


class Position(_Closed, frozen=True):
    """``at``: where in the table's game record an event belongs, as its device saw the
    record when the player acted (docs/protocol.md section 6, ordering by the record): the
    board, the ``hand`` events (the pockets' sweeps), the ``answer`` events (the table's
    answers to the hub's questions), the ``call`` events and the ``card`` events reported on
    it so far (a card reported by two devices counts twice). Each field
    optional: the hub orders an event by the fields given."""

    board: Board | UnsetType = UNSET
    hands: Annotated[int, Meta(ge=0, le=MAX_CALLS)] | UnsetType = UNSET
    answers: Annotated[int, Meta(ge=0, le=MAX_CALLS)] | UnsetType = UNSET
    calls: Annotated[int, Meta(ge=0, le=MAX_CALLS)] | UnsetType = UNSET
    cards: Annotated[int, Meta(ge=0, le=MAX_CALLS)] | UnsetType = UNSET
    trick: Annotated[int, Meta(ge=1, le=13)] | UnsetType = UNSET      # a card's trick
    position: Annotated[int, Meta(ge=1, le=4)] | UnsetType = UNSET    # ... and its place


# Device events: the envelopes (``type`` is the tag) ------------------------------------------

class EventEnvelope(_Closed, frozen=True, kw_only=True, tag_field="type"):
    """One event: ``id`` its idempotency key, ``seq`` increasing per device, ``time`` the
    device's clock when the player acted, ``sent`` when this copy was published, ``offset``
    the device's estimate of the hub's clock minus its own when it published this copy,
    ``at`` where in the table's record it belongs (:class:`Position`)."""

    v: Literal[1]
    id: Id
    device: Id
    seq: Seq
    time: Time
    sent: Time | UnsetType | None = UNSET
    offset: Offset | UnsetType | None = UNSET
    at: Position | UnsetType | None = UNSET


class HelloEvent(EventEnvelope, frozen=True, tag="hello"):
    body: HelloBody = HelloBody()


class CheckinEvent(EventEnvelope, frozen=True, tag="checkin"):
    body: CheckinBody


class BoardEvent(EventEnvelope, frozen=True, tag="board"):
    body: BoardBody


class HandEvent(EventEnvelope, frozen=True, tag="hand"):
    body: HandBody


class CallEvent(EventEnvelope, frozen=True, tag="call"):
    body: CallBody


class CardEvent(EventEnvelope, frozen=True, tag="card"):
    body: CardBody


class UndoEvent(EventEnvelope, frozen=True, tag="undo"):
    body: UndoBody


class ClaimEvent(EventEnvelope, frozen=True, tag="claim"):
    body: ClaimBody


class ClaimAnswerEvent(EventEnvelope, frozen=True, tag="claim_answer"):
    body: ClaimAnswerBody


class ResultConfirmEvent(EventEnvelope, frozen=True, tag="result_confirm"):
    body: ResultConfirmBody


class DirectorCallEvent(EventEnvelope, frozen=True, tag="director_call"):
    body: DirectorCallBody = DirectorCallBody()


class AnswerEvent(EventEnvelope, frozen=True, tag="answer"):
    body: AnswerBody


class AskEvent(EventEnvelope, frozen=True, tag="ask"):
    body: AskBody


class ExplainEvent(EventEnvelope, frozen=True, tag="explain"):
    body: ExplainBody


class RectifyEvent(EventEnvelope, frozen=True, tag="rectify"):
    body: RectifyBody


class DealtEvent(EventEnvelope, frozen=True, tag="dealt"):
    body: DealtBody


class DealerFaultEvent(EventEnvelope, frozen=True, tag="dealer_fault"):
    body: DealerFaultBody


DeviceEvent = (CheckinEvent | BoardEvent | HandEvent | CallEvent | CardEvent | UndoEvent
               | ClaimEvent | ClaimAnswerEvent | ResultConfirmEvent | DirectorCallEvent
               | AnswerEvent | AskEvent | ExplainEvent | RectifyEvent | HelloEvent)
DealerEvent = DealtEvent | DealerFaultEvent | HelloEvent

EventTypes = dict[str, type[EventEnvelope]]

# type -> the envelope of that type (its ``body`` the body's struct).
EVENT_TYPES: Final[EventTypes] = {
    "checkin": CheckinEvent, "board": BoardEvent, "hand": HandEvent, "call": CallEvent,
    "card": CardEvent, "undo": UndoEvent, "claim": ClaimEvent,
    "claim_answer": ClaimAnswerEvent, "result_confirm": ResultConfirmEvent,
    "director_call": DirectorCallEvent, "answer": AnswerEvent, "ask": AskEvent,
    "explain": ExplainEvent, "rectify": RectifyEvent,
}
# The events of a dealing machine's bridge (tenace/v1/dealer/{device}/ev; hub.dealing).
DEALER_EVENT_TYPES: Final[EventTypes] = {
    "dealt": DealtEvent, "dealer_fault": DealerFaultEvent,
}
# A device's ``hello`` (re)connecting, on either event topic: not an event of the game (no
# outbox takes it; the hub answers it and logs nothing of it).
HELLO_TYPES: Final[EventTypes] = {"hello": HelloEvent}


# The hub's reply ------------------------------------------------------------------------------

class ReplyMessage(Struct, frozen=True):
    """Hub -> device: ``ack`` (``code`` ``duplicate`` when the id was already taken) or
    ``reject`` with a code and a reason; ``notice``: what the table itself must hear;
    ``time``: the hub's clock; ``last`` and ``log`` (a ``hello``'s reply): the last ``seq`` of
    the device the hub holds (null for none), and the id of the hub's event log; ``text``:
    the reason as a message, ``{"key", "values"}`` (bridgecore.text.Text), that the device
    renders in its players' language."""

    type: Literal["ack", "reject"]
    ref: str
    v: int = SCHEMA_VERSION
    seq: int | None = None
    code: str = "ok"
    reason: str = ""
    time: float = 0.0
    notice: str | UnsetType | None = UNSET
    last: int | UnsetType | None = UNSET
    log: str | UnsetType | None = UNSET
    text: dict[str, Any] | UnsetType | None = UNSET


# The director's commands (``hub/cmd``, ``POST /api/director``) --------------------------------

class _Command(_Closed, frozen=True, kw_only=True, tag_field="op"):
    v: Literal[1] | UnsetType = UNSET
    # Only on a hub shard's hub/cmd/tenace-hub-{K}: the user of its console who gave it.
    by: Annotated[str, Meta(min_length=1, max_length=64)] | UnsetType = UNSET
    # With it: the command's reference, named again in the owner's answer
    # (hub/shard/{J}/answer, docs/protocol.md section 17).
    ref: Id | UnsetType = UNSET


AlertId = Id
Text = Annotated[str, Meta(max_length=4000)]


class Acknowledge(_Command, frozen=True, tag="acknowledge"):
    """The director has seen the alert: the time his attention was drawn."""

    id: AlertId


class Rule(_Command, frozen=True, tag="rule"):
    """His ruling on the alert, with an adjusted score when he gives one."""

    id: AlertId
    text: Text
    score: dict[str, Any] | UnsetType | None = UNSET
    option: Annotated[int, Meta(ge=0, le=31)] | UnsetType | None = UNSET


class Resolve(_Command, frozen=True, tag="resolve"):
    """The alert is closed: its retained copy is cleared."""

    id: AlertId
    text: Text | UnsetType | None = UNSET


class RoundStart(_Command, frozen=True, tag="round_start"):
    """Starts the round clock; the previous round's late tables are reported."""

    round: Annotated[int, Meta(ge=1, le=999)]


class TableMode(_Command, frozen=True, tag="table_mode"):
    """Bidding-box mode (everything recorded) or strict mode (illegal calls refused);
    ``tapping_only``: the table's card readers' cards are logged, not played (a reader
    that errs too often). One of the two at least (hub.director checks)."""

    table: Annotated[str, Meta(pattern=r"^[A-Za-z0-9_-]{1,16}$")]
    strict: bool | UnsetType = UNSET
    tapping_only: bool | UnsetType = UNSET


Score = Annotated[int, Meta(ge=-10_000, le=10_000, multiple_of=10)]
Weight = Annotated[float, Meta(ge=0, le=1)]
Percent = Annotated[float, Meta(ge=0, le=100)]
Award = str | Score | list[tuple[Weight, Score]]


class Ruling(_Command, frozen=True, tag="ruling"):
    """A score ruling (hub.scoring checks the fields each ``kind`` takes)."""

    kind: Literal["artificial", "assigned", "weighted", "split", "penalty", "fouled"]
    table: str | UnsetType | None = UNSET
    board: Board | UnsetType | None = UNSET
    round: Annotated[int, Meta(ge=1, le=999)] | UnsetType | None = UNSET
    section: Word | UnsetType | None = UNSET
    side: Literal["NS", "EW"] | UnsetType | None = UNSET
    pair: PairNumber | UnsetType | None = UNSET
    ns: Award | UnsetType | None = UNSET
    ew: Award | UnsetType | None = UNSET
    ns_percent: Percent | UnsetType | None = UNSET
    ew_percent: Percent | UnsetType | None = UNSET
    score_ns: Score | UnsetType | None = UNSET
    outcomes: list[tuple[Weight, Score]] | UnsetType | None = UNSET
    amount: Annotated[float, Meta(gt=0, le=10_000)] | UnsetType | None = UNSET   # by unit: hub
    unit: Literal["mp", "percent", "imp", "vp"] | UnsetType | None = UNSET
    groups: list[list[str]] | UnsetType | None = UNSET
    text: Text | UnsetType | None = UNSET
    alert: AlertId | UnsetType | None = UNSET


class RulingUndo(_Command, frozen=True, tag="ruling_undo"):
    """Withdraws a ruling; the one it had replaced is in force again."""

    id: Id


class ResultCorrect(_Command, frozen=True, tag="result_correct"):
    """A table's result corrected (not an adjusted score): the result as it really was."""

    table: str
    board: Board
    contract: Annotated[str, Meta(min_length=1, max_length=8)]
    declarer: Literal["N", "E", "S", "W"] | UnsetType | None = UNSET
    tricks: Annotated[int, Meta(ge=0, le=13)] | UnsetType | None = UNSET
    lead: Annotated[str, Meta(min_length=2, max_length=3)] | UnsetType | None = UNSET
    round: Annotated[int, Meta(ge=1, le=999)] | UnsetType | None = UNSET
    text: Text | UnsetType | None = UNSET


class Substitute(_Command, frozen=True, tag="substitute"):
    """A substitute played for the pair's first or second player in these rounds."""

    section: Word
    pair: PairNumber
    player: Literal[1, 2]
    name: Annotated[str, Meta(min_length=1, max_length=80)]
    rounds: Annotated[list[Annotated[int, Meta(ge=1, le=999)]], Meta(min_length=1,
                                                                       max_length=999)]
    member: Annotated[int, Meta(ge=1)] | UnsetType | None = UNSET


class CheckinAccept(_Command, frozen=True, tag="checkin_accept"):
    """The names typed at check-in (or as the director corrected them) become the pair's;
    in an individual, ``player``'s (his number) become his."""

    table: str
    side: Literal["NS", "EW"]
    names: Annotated[list[Annotated[str, Meta(min_length=1, max_length=80)]],
                     Meta(min_length=1, max_length=4)] | UnsetType | None = UNSET
    player: PairNumber | UnsetType | None = UNSET


class PublicResults(_Command, frozen=True, tag="public_results"):
    """What the public results pages show: rankings, players' names, finished boards."""

    ranking: bool
    names: bool
    boards: bool
    hide_last_rounds: Annotated[int, Meta(ge=0, le=99)] | UnsetType | None = UNSET
    live_ranking: Literal["finished", "all"] | UnsetType | None = UNSET


PlayerName = Annotated[str, Meta(min_length=1, max_length=80)]
Names = Annotated[list[PlayerName], Meta(min_length=1, max_length=4)]


class PairAdd(_Command, frozen=True, tag="pair_add"):
    """A late pair takes a pair number of the movement that nobody had yet; the set-up's
    absent pair's from ``from_round`` (default: the round in progress)."""

    section: Word
    pair: PairNumber
    names: Names
    from_round: Annotated[int, Meta(ge=1, le=999)] | UnsetType | None = UNSET


class PairNames(_Command, frozen=True, tag="pair_names"):
    """The players' names of a pair corrected; its number and results stay."""

    section: Word
    pair: PairNumber
    names: Names


class PairWithdraw(_Command, frozen=True, tag="pair_withdraw"):
    """The pair leaves the session; what it played stays."""

    section: Word
    pair: PairNumber
    text: Text | UnsetType | None = UNSET


class RoundPause(_Command, frozen=True, tag="round_pause"):
    """The round clock stops (no late tables while paused) or runs again."""

    paused: bool


class RoundTime(_Command, frozen=True, tag="round_time"):
    """The round's length in minutes, from now on."""

    minutes: Annotated[float, Meta(ge=1, le=240)]


class AllowBoard(_Command, frozen=True, tag="allow_board"):
    """A board the movement does not give the table this round (withheld: nothing of it
    shown there) is shown after all; ``round``: the table's round when not given."""

    table: Annotated[str, Meta(pattern=r"^[A-Za-z0-9_-]{1,16}$")]
    board: Board
    round: Annotated[int, Meta(ge=1, le=999)] | UnsetType = UNSET


class SwissDraw(_Command, frozen=True, tag="swiss_draw"):
    """A Swiss section's next round drawn now, from the standings as they are (docs/swiss.md)."""

    section: Word


DirectorCommand = (Acknowledge | Rule | Resolve | RoundStart | TableMode | Ruling | RulingUndo
                   | ResultCorrect | Substitute | CheckinAccept | PublicResults | PairAdd
                   | PairNames | PairWithdraw | RoundPause | RoundTime | AllowBoard | SwissDraw)


# Decoding ----------------------------------------------------------------------------------

class _Head(Struct, frozen=True):
    """What is read first: the version and the type (any other field is skipped)."""

    v: Any = None
    type: Any = None


_HEAD = msgspec.json.Decoder(_Head)
_DECODERS: dict[type[EventEnvelope], msgspec.json.Decoder[Any]] = {}
_OPEN = frozenset(b"[{")


def check_payload(payload: bytes | str, limit: int = MAX_PAYLOAD,
                  depth: int = MAX_DEPTH) -> bytes:
    """The payload as UTF-8 bytes once its size and nesting are within bounds (``too_large``,
    ``malformed``): checked before any parser sees it."""
    if isinstance(payload, str):
        try:
            payload = payload.encode()
        except UnicodeEncodeError as err:
            raise ProtocolError("malformed", f"not JSON: not valid text: {err}") from None
    if len(payload) > limit:
        raise ProtocolError("too_large", f"payload of {len(payload)} bytes, limit {limit}")
    if payload.count(b"[") + payload.count(b"{") > depth:
        level = deepest = 0
        quoted = escaped = False
        for byte in payload:
            if quoted:
                if escaped:
                    escaped = False
                elif byte == 0x5C:        # backslash
                    escaped = True
                elif byte == 0x22:        # quote
                    quoted = False
            elif byte == 0x22:
                quoted = True
            elif byte in _OPEN:
                level += 1
                deepest = max(deepest, level)
                if deepest > depth:
                    raise ProtocolError("malformed", f"not JSON this protocol takes: nested "
                                                     f"deeper than {depth}")
            elif byte in (0x5D, 0x7D):
                level -= 1
    return payload


_EXPECTED = re.compile(r"^Expected `(.+?)`, got `(.+?)`$")
_MISSING = re.compile(r"^Object missing required field `(.+?)`$")
_ENUM = re.compile(r"^Invalid enum value (.+)$")


def validation_reason(err: msgspec.ValidationError, where: str) -> str:
    """msgspec's message said as the protocol says it, naming the field by its path:
    ``call: missing field 'call' (at $.body)``, ``board: Expected int <= 999 (at
    $.body.board)``."""
    message, found_at, path = str(err).rpartition(" - at `")
    if found_at:
        path = path.rstrip("`")
    else:
        message, path = path, "$"
    name = path.rsplit(".", 1)[-1]
    found = _MISSING.match(message)
    if found:
        return f"{where}: missing field {found.group(1)!r} (at {path})"
    found = _EXPECTED.match(message)
    if found:
        return f"{where}: field {name!r} must be {found.group(1)}, got {found.group(2)} " \
               f"(at {path})"
    found = _ENUM.match(message)
    if found and name in ("seat", "pocket"):
        return f"{where}: seat {found.group(1)} is not N, E, S or W (at {path})"
    return f"{where}: {message.replace('`', '')} (at {path})"


def decode_event(payload: bytes | str,
                 types: EventTypes | None = None) -> EventEnvelope:
    """The typed event in ``payload``, of one of ``types`` (default :data:`EVENT_TYPES`).

    ProtocolError: ``too_large``, ``malformed`` (not JSON, a field missing, mistyped or out
    of bounds, unknown, ``sent`` before ``time``), ``unsupported_version`` (``v`` is not
    1), ``unknown_type``; checked in that order."""
    data = check_payload(payload)
    try:
        head = _HEAD.decode(data)
    except msgspec.ValidationError:
        raise ProtocolError("malformed", "the payload must be a JSON object") from None
    except (msgspec.DecodeError, RecursionError) as err:
        raise ProtocolError("malformed", f"not JSON: {err}") from None
    if type(head.v) is not int or head.v != SCHEMA_VERSION:
        raise ProtocolError("unsupported_version",
                            f"schema version {head.v!r:.20}; this hub speaks {SCHEMA_VERSION}")
    kind = head.type
    if not isinstance(kind, str):
        raise ProtocolError("malformed", f"envelope: field 'type' must be str, got {kind!r:.20}")
    cls = (EVENT_TYPES if types is None else types).get(kind)
    if cls is None:
        raise ProtocolError("unknown_type", f"unknown event type {kind!r:.40}")
    decoder = _DECODERS.get(cls)
    if decoder is None:
        decoder = _DECODERS[cls] = msgspec.json.Decoder(cls)
    try:
        event: EventEnvelope = decoder.decode(data)
    except msgspec.ValidationError as err:
        raise ProtocolError("malformed", validation_reason(err, kind)) from None
    except (msgspec.DecodeError, RecursionError) as err:   # pragma: no cover - read once
        raise ProtocolError("malformed", f"not JSON: {err}") from None
    sent = event.sent
    if isinstance(sent, float) and sent < event.time:
        raise ProtocolError("malformed", f"sent {sent} is before the event's time {event.time}")
    return event
