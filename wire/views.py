"""The views the hub publishes and the devices read (docs/protocol.md), as typed values.

Each view is a frozen :class:`msgspec.Struct` with ``to_json()`` (the exact payload the hub
publishes: the same keys in the same order, a key the hub leaves out is :data:`msgspec.UNSET`
and not encoded) and ``from_json()`` (raises :class:`wire.errors.ProtocolError`). Views are
open: a reader ignores a field it does not know, so a newer hub does not break an older
tablet. Every view carries its version: ``v`` on the wire where the payload has it
(ranking, traveller), else the class constant ``VERSION``; an alert's ``version`` is the
revision of that alert, not of the schema.

=====================  =====================================  ==========================
view                   topic                                  built by
=====================  =====================================  ==========================
:class:`TableView`     ``t/{table}/state``                    ``hub.table`` public state
:class:`SeatView`      ``t/{table}/seat/{seat}``              ``hub.table`` seat view
:class:`TabletView`    ``t/{table}/tablet``                   ``hub.explain``
:class:`AlertView`     ``director/alert/{id}``                ``hub.alerts.Alert``
:class:`ResultView`    ``result/{table}/{round}/{board}``     ``hub.service``
:class:`RankingView`   ``results/ranking/{section}``          ``hub.scoring``
:class:`TravellerView` ``results/traveller/{section}/{b}``    ``hub.scoring``
:class:`HubStatus`     ``hub/status``                         ``hub.service``
:class:`DeviceStatus`  ``t/{table}/dev/{device}/status``,     each device
                       ``dealer/{device}/status``
=====================  =====================================  ==========================
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal, TypeVar

import msgspec
from msgspec import UNSET, Meta, Struct, UnsetType

from wire.errors import ProtocolError

__all__ = [
    "MAX_VIEW", "Accepted", "AlertKind", "AlertStatus", "AlertView", "AuctionEntry",
    "ChosenRectification", "ClaimView", "DeviceStatus", "DoubleDummy", "DummyView",
    "Explanation", "FieldInfo", "HubCounters", "HubStatus", "IrregularityView", "LastTrick",
    "NextPair", "NextRound", "Number", "Pairs", "PlayerOption", "PromptView", "Question",
    "RankingBoard", "RankingEntry", "RankingPenalty", "RankingSubstitute", "RankingView",
    "ResultScore", "ResultView", "Schedule", "SeatLetter", "SeatView", "SideFloats", "TableView",
    "TabletView", "TravellerLine", "TravellerResult", "TravellerView", "TrickCount",
    "TrickView", "View",
]

MAX_VIEW = 4 * 1024 * 1024     # bytes: a view larger than this is not one the hub publishes

SeatLetter = Literal["N", "E", "S", "W"]
Number = int | float           # kept as the hub gives it: an int is not turned into a float
Pair = int | str               # a pair's number, or a team's name
Phase = Literal["waiting", "auction", "play", "over"]

# What an alert is about: the irregularities of bridgecore.irregularity.Kind, then the hub's
# own findings (hub.alerts.HubKind); a test keeps this list equal to the two.
AlertKind = Literal[
    "wrong_card_count", "duplicate_card", "missing_card", "call_out_of_rotation",
    "insufficient_bid", "inadmissible_double", "inadmissible_redouble", "bid_above_seven",
    "call_in_breach_of_pass_obligation", "call_after_final_pass", "change_of_call",
    "lead_out_of_turn", "play_out_of_turn", "card_not_in_hand", "card_played_twice",
    "revoke", "disputed_claim",
    "wrong_board", "wrong_table", "wrong_direction", "wrong_pair", "board_already_played",
    "hand_not_dealt", "rotated_board", "hands_exchanged", "hand_differs", "foreign_card",
    "cards_returned_wrong", "card_exposed", "result_disagrees", "result_unconfirmed",
    "late_table", "device_offline", "director_call", "misdealt_board", "dealer_fault",
    "board_markings", "device_overreach", "pairing_failures", "log_damage",
    "reads_unresolved", "clock_jump", "history_missing", "record_conflict", "events_held",
]
AlertStatus = Literal["open", "acknowledged", "ruled", "resolved"]

V = TypeVar("V", bound="View")


class View(Struct, frozen=True):
    """Base of every view: ``to_json`` / ``from_json`` / ``from_builtins``."""

    VERSION: ClassVar[int] = 1

    def to_json(self) -> str:
        """The payload, compact, UTF-8 text as is (what the hub publishes)."""
        return msgspec.json.encode(self).decode()

    @classmethod
    def from_json(cls: type[V], payload: bytes | str) -> V:
        """Decode and validate; ProtocolError(``too_large`` or ``malformed``) naming the field."""
        if len(payload) > MAX_VIEW:
            raise ProtocolError("too_large", f"{cls.__name__}: payload of {len(payload)} "
                                             f"bytes, limit {MAX_VIEW}")
        try:
            return msgspec.json.decode(payload, type=cls)
        except msgspec.ValidationError as err:
            raise ProtocolError("malformed", f"{cls.__name__}: {err}") from None
        except (msgspec.DecodeError, RecursionError) as err:  # msgspec's own depth guard
            raise ProtocolError("malformed", f"{cls.__name__}: not JSON: {err}") from None

    @classmethod
    def from_builtins(cls: type[V], obj: Mapping[str, Any]) -> V:
        """The view of a dict as the hub builds it (keys left out are UNSET)."""
        try:
            return msgspec.convert(obj, cls)
        except msgspec.ValidationError as err:
            raise ProtocolError("malformed", f"{cls.__name__}: {err}") from None

    def to_builtins(self) -> dict[str, Any]:
        """The payload as plain dicts and lists (what ``json.loads(to_json())`` gives)."""
        out: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(self))
        return out


class _Part(Struct, frozen=True):
    """A part of a view (not published on its own)."""


# The table's public state -------------------------------------------------------------------

class Pairs(_Part, frozen=True):
    """The pairs at the table (None: not known)."""

    NS: int | None
    EW: int | None


class NextPair(_Part, frozen=True):
    """Where a pair goes in the next round."""

    pair: Pair | None
    table: str | None
    direction: str


class NextRound(_Part, frozen=True):
    """Where the pairs (None: they stop) and the boards go in the next round."""

    NS: NextPair | None
    EW: NextPair | None
    boards: list[str]


class NextSeat(_Part, frozen=True):
    """Where an individual's player plays the next round."""

    table: str | None
    seat: SeatLetter


class SeatPlayer(_Part, frozen=True):
    """An individual's player the movement seats at a seat this round."""

    number: int
    name: str | None
    next: NextSeat | None


class Schedule(_Part, frozen=True):
    """This round's boards, the pairs the movement puts here, the round clock, what is next;
    in an individual, the player of each seat (``players``, by seat letter)."""

    boards: list[int]
    expected: Pairs | None
    next: NextRound | None
    started: Number | None = None
    deadline: Number | None = None
    players: dict[SeatLetter, SeatPlayer] | UnsetType = UNSET   # an individual's


class AuctionEntry(_Part, frozen=True):
    """One call of the auction as everyone sees it."""

    seat: SeatLetter
    call: str
    alert: bool
    status: str


class TrickView(_Part, frozen=True):
    """The trick in progress: ``cards`` are ``[seat, card]`` in the order played."""

    number: int
    leader: SeatLetter
    cards: list[tuple[SeatLetter, str]]


class LastTrick(_Part, frozen=True):
    """The trick just quitted, its four cards faced (Law 66A)."""

    number: int
    leader: SeatLetter
    cards: list[tuple[SeatLetter, str]]
    winner: SeatLetter


class TrickCount(_Part, frozen=True):
    """Tricks won by each side."""

    NS: int
    EW: int


class DummyView(_Part, frozen=True):
    """Dummy's remaining cards, once the opening lead is faced (41C, 41D)."""

    seat: SeatLetter
    cards: list[str]


class ClaimView(_Part, frozen=True):
    """The last claim: ``tricks`` of the ``remaining`` ones for the claimer's side."""

    claimer: SeatLetter
    tricks: int
    remaining: int
    statement: str | None
    status: str
    total: int | UnsetType = UNSET             # the claimer's side's tricks on the board
    cards: list[str] | UnsetType = UNSET       # his remaining cards, faced while open (68C)


class ResultScore(_Part, frozen=True):
    """A board's result at a table: as played, and what Law 64 would give (proposed)."""

    contract: str
    declarer: SeatLetter | None
    tricks: int | None
    score_ns: int
    tricks_rectified: int | None
    score_ns_rectified: int


class TravellerLine(_Part, frozen=True):
    """One result of the board in the table's state (``own``: this table's)."""

    table: str
    round: int
    NS: int | None
    EW: int | None
    contract: str | None
    declarer: SeatLetter | None
    tricks: int | None
    score_ns: int | None
    own: bool | UnsetType = UNSET
    percent_ns: Number | UnsetType = UNSET
    imps_ns: Number | UnsetType = UNSET


class SideFloats(_Part, frozen=True):
    """A value for each side (percentage, IMPs)."""

    NS: Number
    EW: Number


class FieldInfo(_Part, frozen=True):
    """Results of the board in and expected, and how it is scored (MP, IMP)."""

    board: int
    results: int
    expected: int
    method: str


class DoubleDummy(_Part, frozen=True):
    """Double-dummy tricks by declarer (N E S W) and strain (C D H S NT), and par."""

    tricks: dict[str, dict[str, int]]
    par: str
    par_score_ns: int


class PromptView(_Part, frozen=True):
    """A question the hub asks the table about what its card readers saw (hub.reads):
    ``card``: tap the card ``seat`` played to ``trick`` (``after``: the seat whose card came
    first; the answer may say ``seat`` had not played yet; ``recorded``: the card recorded as
    ``seat``'s to that earlier trick, which may have been his next lead); ``sweep``: sweep
    ``seat``'s hand over the reader again (``count``: cards the reader may have missed)."""

    id: str
    kind: Literal["card", "sweep"]
    seat: SeatLetter
    trick: int | UnsetType = UNSET
    after: SeatLetter | UnsetType | None = UNSET
    count: int | UnsetType = UNSET
    recorded: str | UnsetType = UNSET


class TableView(View, frozen=True):
    """``t/{table}/state``: what all four players may see (never a hidden hand)."""

    table: str
    round: int
    pairs: Pairs
    phase: Phase
    strict: bool
    schedule: Schedule
    checked_in: list[Literal["NS", "EW"]] | UnsetType = UNSET
    tapping_only: bool | UnsetType = UNSET
    board: int | UnsetType = UNSET
    dealer: SeatLetter | UnsetType = UNSET
    vulnerability: str | UnsetType = UNSET
    turn: SeatLetter | UnsetType | None = UNSET
    auction: list[AuctionEntry] | UnsetType = UNSET
    contract: str | UnsetType = UNSET
    declarer: SeatLetter | UnsetType | None = UNSET
    doubled: str | UnsetType = UNSET
    trick: TrickView | UnsetType | None = UNSET
    tricks: TrickCount | UnsetType = UNSET
    last_trick: LastTrick | UnsetType = UNSET
    dummy: DummyView | UnsetType = UNSET
    claim: ClaimView | UnsetType = UNSET
    irregularities: list[IrregularityView] | UnsetType = UNSET
    prompts: list[PromptView] | UnsetType = UNSET
    result: ResultScore | UnsetType | None = UNSET
    confirmed: bool | UnsetType = UNSET
    deal: str | UnsetType = UNSET
    traveller: list[TravellerLine] | UnsetType = UNSET
    percentage: SideFloats | UnsetType = UNSET
    imps: SideFloats | UnsetType | None = UNSET
    field: FieldInfo | UnsetType = UNSET
    dd: DoubleDummy | UnsetType | None = UNSET
    withheld: Annotated[str, Meta(max_length=200)] | UnsetType = UNSET
    # the hub shard that holds the table (an event several hub processes share): its
    # devices read that shard's presence (protocol 14)
    shard: Annotated[int, Meta(ge=0, le=999)] | UnsetType = UNSET


class Explanation(_Part, frozen=True):
    """An explanation of call number ``call`` by ``by`` (docs/protocol.md 7.14)."""

    call: int
    seat: SeatLetter
    by: SeatLetter
    text: str
    announce: bool
    time: Number
    to: str | UnsetType = UNSET


class Question(_Part, frozen=True):
    """An open question about call number ``call`` asked by ``by`` (protocol 7.13)."""

    call: int
    by: SeatLetter
    time: Number
    to: SeatLetter | UnsetType = UNSET


class PlayerOption(_Part, frozen=True):
    """A choice the Laws give a player at the table (protocol 7.15)."""

    choice: str
    seat: SeatLetter
    law: str


class Accepted(_Part, frozen=True):
    """Who accepted an irregularity, and when (hub time)."""

    seat: SeatLetter
    time: Number


class ChosenRectification(_Part, frozen=True):
    """The rectification the director chose (``option``: its index in the alert's; ``text``:
    his words; ``say``: the option as a message, ``{"key": "rect.*", "values"}``, absent for
    an older log's option that has none)."""

    law: str
    text: str
    option: int
    say: dict[str, Any] | UnsetType = UNSET


class IrregularityView(_Part, frozen=True):
    """An irregularity the table saw, the director called (protocol 11.1, 7.15)."""

    id: str
    kind: str
    law: str
    seat: SeatLetter | None
    call: int | None
    trick: int | None
    director: Literal["called", "ruled"]
    options: list[PlayerOption]
    accepted: Accepted | None
    ruling: ChosenRectification | None


class SeatView(View, frozen=True):
    """``t/{table}/seat/{seat}``: what only that seat may see, his remaining cards (none,
    with ``withheld`` saying why, for a board not this table's this round)."""

    table: str
    seat: SeatLetter
    board: int | None
    hand: list[str]
    withheld: Annotated[str, Meta(max_length=200)] | UnsetType = UNSET
    explanations: list[Explanation] | UnsetType = UNSET
    questions: list[Question] | UnsetType = UNSET


class TabletView(View, frozen=True):
    """``t/{table}/tablet``: the explanations the table tablet shows each side (``to``)."""

    table: str
    board: int | None
    explanations: list[Explanation]
    questions: list[Question]


# The director's and the scorers' views ------------------------------------------------------

class AlertView(View, frozen=True):
    """``director/alert/{id}``: one alert (``version``: its revision, 1 and up)."""

    id: str
    version: int
    kind: AlertKind
    law: str
    table: str
    round: int | None
    board: int | None
    seats: list[SeatLetter]
    call: int | None
    trick: int | None
    occurred: Number | None
    detected: Number
    updated: Number | None
    detail: str
    facts: dict[str, Any]
    evidence: dict[str, Any]
    options: list[dict[str, Any]]
    status: AlertStatus
    acknowledged_at: Number | None
    ruling: dict[str, Any] | None
    ruled_at: Number | None
    resolved_at: Number | None
    # The finding as a message (docs/protocol.md 1, "Texts"): {"key", "values"}; an older
    # hub's alert has none (its detail is the text).
    text: dict[str, Any] | UnsetType = UNSET


class ResultView(View, frozen=True):
    """``result/{table}/{round}/{board}``: a board's result at a table (not for players)."""

    contract: str
    declarer: SeatLetter | None
    tricks: int | None
    score_ns: int
    tricks_rectified: int | None
    score_ns_rectified: int
    table: str
    round: int
    board: int
    pairs: Pairs
    confirmed: bool
    ended: Number | None


class RankingBoard(_Part, frozen=True):
    """A board's results in and scored so far."""

    board: int
    results: int
    scored: int


class RankingSubstitute(_Part, frozen=True):
    """A substitute who played for the pair's ``player`` (1 or 2; ``for`` his name, null
    when the set-up gave none) in ``rounds``: each reader words it in his language."""

    name: str
    for_: str | None = msgspec.field(name="for")
    player: int
    rounds: list[int]


class RankingEntry(_Part, frozen=True):
    """A contestant's place (``direction`` None in a one-winner field); ``substitutes``
    who played for one of its players in some rounds (absent: none)."""

    pair: Pair
    names: list[str]
    direction: str | None
    total: Number | None
    percent: Number | None
    rank: int
    boards: int
    substitutes: list[RankingSubstitute] | UnsetType = UNSET


class RankingPenalty(_Part, frozen=True):
    """A procedural penalty in force (Law 90)."""

    id: str
    pair: Pair
    amount: Number
    unit: str
    board: int | None
    text: str


class RankingView(View, frozen=True):
    """``results/ranking/{section}``: the section's ranking so far."""

    v: int
    section: str
    key: str
    method: str
    field: str
    expected: int
    units: str
    boards: list[RankingBoard]
    ranking: list[RankingEntry]
    penalties: list[RankingPenalty]
    problems: list[str]
    ties: str = "="
    individual: bool | UnsetType = UNSET    # the contestants are players (pair: his number)


class TravellerResult(_Part, frozen=True):
    """One line of a section's traveller (``contract`` None: an adjusted score only)."""

    table: str
    round: int
    NS: int | None
    EW: int | None
    contract: str | None
    declarer: SeatLetter | None
    tricks: int | None
    score_ns: int | None
    ruling: str | None
    form: int
    adjustment: str | None
    ns_points: Number | None
    ew_points: Number | None
    ns_percent: Number | None
    ew_percent: Number | None
    scored: bool
    not_scored: str | UnsetType | None = UNSET   # why it never will be (Law 15B...)
    not_scored_text: dict[str, Any] | UnsetType | None = UNSET   # the same as a message
    deprived: Literal["NS", "EW"] | UnsetType | None = UNSET   # 15B: owed an artificial score
    corrected: str | UnsetType | None = UNSET    # the director's correction in force (C1...)
    players: list[int] | UnsetType = UNSET      # an individual's N, E, S, W


class TravellerView(View, frozen=True):
    """``results/traveller/{section}/{board}``: every result of the board so far."""

    v: int
    section: str
    key: str
    board: int
    method: str
    top: Number | None
    expected: int
    dealer: SeatLetter
    vulnerability: str
    fouled: bool
    results: list[TravellerResult]


# Presence -------------------------------------------------------------------------------

class HubCounters(Struct, frozen=True):
    """What the hub has taken since it started: events ``accepted`` (logged), ``duplicates``
    (acknowledged again, not logged), and every message ``refused``, by its reason code (the
    reply's ``code`` for an event; for a command, a presence or a topic the code the hub's
    log line gives); ``queue``: messages received and not yet handled when the status was
    made; ``devices``: table devices online (their status says so, or they sent an event
    since); ``gaps``: accepted events whose ``seq`` skipped numbers after the device's last
    accepted one (a rejected event leaves one; docs/protocol.md section 6)."""

    accepted: int
    duplicates: int
    refused: dict[str, int]
    queue: int = 0
    devices: int = 0
    gaps: int = 0


class HubStatus(View, frozen=True):
    """``hub/status``: birth (``online`` true, when it started, how many tables) and will.
    While it runs the hub republishes it, at most once a second, with its ``counters`` and
    the head of its event log's hash chain (``chain``, ``POSITION:HASH``: noted, it shows
    later whether records were removed; ``chain_broken``: the first position where the
    chain did not hold when the hub started, left out when it held). ``set_aside``: the
    positions of logged records the hub could not apply when it rebuilt the room (kept in
    the log, left out of the room, shown to the director); ``log_behind``: how many records
    the log lacked when the hub started, against the head the hub had noted beside it
    (``events.sqlite3.head``): acknowledged events lost with the log's end or its ``-wal``.
    Both are left out when there is nothing to say. ``time``: the hub's clock when it was
    published, so a device may see how far its own is off."""

    online: bool
    started: Number | UnsetType = UNSET
    tables: int | UnsetType = UNSET
    counters: HubCounters | UnsetType = UNSET
    chain: str | UnsetType = UNSET
    chain_broken: int | UnsetType = UNSET
    set_aside: list[int] | UnsetType = UNSET
    log_behind: int | UnsetType = UNSET
    time: Number | UnsetType = UNSET


class DeviceStatus(View, frozen=True):
    """A device's presence: birth and last will (``online`` false), a reader's own state."""

    online: bool
    device: str | UnsetType = UNSET
    table: str | UnsetType | None = UNSET   # null for a dealing machine (no table)
    seat: SeatLetter | UnsetType | None = UNSET
    kind: str | UnsetType = UNSET
    reader: str | UnsetType = UNSET
    detail: str | UnsetType = UNSET
    time: Number | UnsetType = UNSET
    seats: dict[str, str] | UnsetType = UNSET
    battery: Annotated[int, Meta(ge=0, le=100)] | UnsetType | None = UNSET   # percent
    signal: Annotated[int, Meta(ge=-120, le=0)] | UnsetType | None = UNSET   # Wi-Fi, dBm
    leaving: bool | UnsetType = UNSET   # a clean stop's farewell (14): offline at once
