"""The simulator's ground truth: which irregularities it can inject, what it injected, and
the report of injected vs detected.

Injection (``inject``: alert kind -> rate). Rates are per opportunity: per board played at
a table for the board kinds (at most one board irregularity per board: their rates are the
probabilities of one draw and must add up to 1 at most), per table and round for
``wrong_direction``. A board where the irregularity is impossible (an insufficient bid
after 1C pass pass pass, a board already played in round 1) gets none: only what was
actually injected is recorded. Each injected irregularity is an :class:`Injection` with
the kind the hub raises (:class:`bridgecore.irregularity.Kind` or
:class:`hub.alerts.HubKind` values). After it the table goes on as a real one would before
the director arrives, following the Laws from the actual state (the hub never rectifies):

* ``revoke`` (61, 63A, 64): a player holding the suit led plays another suit; play goes on
  legally from the cards actually held, so the revoke is established (63A1).
* ``lead_out_of_turn`` (54): the opening leader's partner faces the opening lead; declarer
  plays next, which accepts it (53A, 54B), and play goes on in rotation from it.
* ``play_out_of_turn`` (57): a player plays to a trick before the player in turn; the
  skipped player then plays, and the trick goes on.
* ``call_out_of_rotation`` (28, 29; ``call_out_of_turn`` is accepted as its name): a call
  by the player in turn's partner or LHO; the player in turn calls next, which cancels it
  (28B).
* ``insufficient_bid`` (27): a bid lower than the last one; LHO calls over it (27A1).
* ``card_not_in_hand`` (87): the player on lead leads a card another player holds
  (hands mixed); the trick is finished with legal cards and declarer then claims, the
  defenders agree (the rest of the record could not be played without a second card not
  in hand or the same card twice).
* ``wrong_board`` (15): before one of its boards the table plays a board scheduled at
  another table this round, which neither pair has played, then plays its own (the extra
  board is drawn per scheduled board: these two kinds add a sitting).
* ``board_already_played`` (15B): the table plays again a board one of its pairs played in
  an earlier round (left on the table), then its own; the hub also says it is not this
  round's board (``wrong_board``, counted as a consequence).
* ``rotated_board`` (7): the reader reads every pocket turned by the same quarter; the
  players hold their own hands and the board is played normally.
* ``wrong_direction`` (5B): the two pairs sit the wrong way round for a whole round; the
  table still moves on to that round (the pairs are the round's, on the wrong sides).
* ``result_disagrees`` (79A): a defender does not agree with the result; his partner
  then confirms it.
* ``disputed_claim`` (68D, 70): declarer claims, a defender disputes, and the table plays
  the board out (evidence for the director, 70D3).
* ``director_call`` (9B1): a player calls the director from the tablet.

Consequences: a pair that played a board off schedule (``wrong_board``,
``board_already_played``) is told later that it had the board already when the movement
brings it there (Law 15B): those alerts are in :attr:`SimScript.expected`, with their
cause, and are not false alarms. :data:`CONSEQUENCES` lists the other alert kinds an
injection may bring at the same table and board. The bridgecore board the simulator plays
alongside checks that each act reveals exactly the irregularity intended and nothing else.

:class:`SimScript` is a whole simulated session (each table's events, what was injected, what
follows from it, when each round starts); :func:`compare` turns the injected list and the
alerts raised into the issue's report. :class:`SimError` (a ValueError) is the simulator's one
exception.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bridgecore.irregularity import Kind
from hub.alerts import HubKind
from tenace.sim.devices import DeviceEvent

__all__ = ["ALIASES", "BOARD_KINDS", "CONSEQUENCES", "INJECTABLE", "LAWS", "ROUND_KINDS",
           "Expected", "Injection", "SimError", "SimScript", "check_rates", "compare",
           "parse_rates"]

# The kinds the simulator can inject, in the order of the per-board draw.
BOARD_KINDS: tuple[str, ...] = (
    Kind.REVOKE.value, Kind.LEAD_OUT_OF_TURN.value, Kind.PLAY_OUT_OF_TURN.value,
    Kind.CALL_OUT_OF_ROTATION.value, Kind.INSUFFICIENT_BID.value, Kind.CARD_NOT_IN_HAND.value,
    HubKind.WRONG_BOARD.value, HubKind.ROTATED_BOARD.value,
    HubKind.BOARD_ALREADY_PLAYED.value, HubKind.RESULT_DISAGREES.value,
    Kind.DISPUTED_CLAIM.value, HubKind.DIRECTOR_CALL.value,
)
ROUND_KINDS: tuple[str, ...] = (HubKind.WRONG_DIRECTION.value,)
INJECTABLE: tuple[str, ...] = BOARD_KINDS + ROUND_KINDS
ALIASES = {"call_out_of_turn": Kind.CALL_OUT_OF_ROTATION.value}
# The law each injected kind breaks (the alert may cite a sub-law).
LAWS: dict[str, str] = {
    "revoke": "61", "lead_out_of_turn": "54", "play_out_of_turn": "57",
    "call_out_of_rotation": "29", "insufficient_bid": "27", "card_not_in_hand": "87",
    "wrong_board": "15", "rotated_board": "7", "board_already_played": "15B",
    "result_disagrees": "79A", "disputed_claim": "70", "director_call": "9B1",
    "wrong_direction": "5B",
}
# Other alert kinds an injection may bring at the same table and board.
CONSEQUENCES: dict[str, frozenset[str]] = {
    HubKind.BOARD_ALREADY_PLAYED.value: frozenset({HubKind.WRONG_BOARD.value}),
}
# Kinds about the seating of a round: matched by table and round (their board is not theirs).
_SEATING = frozenset({HubKind.WRONG_DIRECTION.value, HubKind.WRONG_TABLE.value,
                      HubKind.WRONG_PAIR.value})


class SimError(ValueError):
    """A simulation that cannot be made: bad rates, a section without a movement, a board
    without a hand record, or (a bug) an act that would reveal what was not intended."""


# Ground truth ---------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Injection:
    """One irregularity injected: the alert ``kind`` the hub should raise for ``table`` and
    ``board`` (None for the seating of a round) in ``round``."""

    table: str
    round: int
    board: int | None
    kind: str
    detail: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"table": self.table, "board": self.board, "kind": self.kind,
                "round": self.round, "detail": self.detail}


@dataclass(frozen=True, slots=True)
class Expected:
    """An alert that follows from an earlier injection (``cause``), elsewhere or later."""

    table: str
    round: int | None
    board: int | None
    kind: str
    cause: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"table": self.table, "board": self.board, "kind": self.kind,
                "round": self.round, "cause": self.cause}


@dataclass(slots=True)
class SimScript:
    """A simulated session: each table's events, what was injected, what follows from it,
    when each round starts (device time, the same at every table), and the card readers'
    errors made (:mod:`tenace.sim.noise`: not irregularities, no alert expected)."""

    events_by_table: dict[str, list[DeviceEvent]]
    injected: list[Injection] = field(default_factory=list)
    expected: list[Expected] = field(default_factory=list)
    round_starts: dict[int, float] = field(default_factory=dict)
    seed: int = 0
    rates: dict[str, float] = field(default_factory=dict)
    reader_errors: dict[str, int] = field(default_factory=dict)  # kind -> errors made

    @property
    def events(self) -> int:
        """The number of events of all tables."""
        return sum(len(v) for v in self.events_by_table.values())

    def merged(self) -> list[DeviceEvent]:
        """Every event of every table in device-time order (ties: table order)."""
        order = {t: i for i, t in enumerate(self.events_by_table)}
        out = [e for events in self.events_by_table.values() for e in events]
        out.sort(key=lambda e: (e.time, order[e.table]))
        return out

    def pacer(self, wall_start: float | None = None) -> Callable[[float], float]:
        """For ``tenace.sim.driver.run_tables(realtime=...)``: device time -> seconds to wait, so
        that the first round starts at ``wall_start`` (default: now) and every event keeps
        its place (the script's ``pace`` sets the speed)."""
        origin = self.round_starts.get(1, 0.0)
        wall = time.time() if wall_start is None else wall_start

        def wait(device_time: float) -> float:
            return (device_time - origin) - (time.time() - wall)
        return wait

    def injected_counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for inj in self.injected:
            counts[inj.kind] = counts.get(inj.kind, 0) + 1
        return counts


def parse_rates(text: str) -> dict[str, float]:
    """``"revoke=0.02,lead_out_of_turn=0.01"`` -> rates by kind (aliases accepted)."""
    rates: dict[str, float] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, sep, value = part.partition("=")
        if not sep:
            raise SimError(f"--inject: {part!r} is not kind=rate")
        try:
            rate = float(value)
        except ValueError:
            raise SimError(f"--inject: rate {value!r} of {name!r} is not a number") from None
        rates[name.strip()] = rate
    return check_rates(rates)


def check_rates(rates: Mapping[str, float]) -> dict[str, float]:
    """Rates by kind, aliases resolved; SimError for an unknown kind or a rate out of range."""
    out: dict[str, float] = {}
    for name, rate in rates.items():
        kind = ALIASES.get(name, name)
        if kind not in INJECTABLE:
            raise SimError(f"cannot inject {name!r}: the kinds are {', '.join(INJECTABLE)}")
        if not 0.0 <= rate <= 1.0:
            raise SimError(f"rate of {name!r} must be between 0 and 1, not {rate}")
        out[kind] = out.get(kind, 0.0) + float(rate)
    total = sum(r for k, r in out.items() if k in BOARD_KINDS)
    if total > 1.0 + 1e-9:
        raise SimError(f"the board irregularities' rates add up to {total:.3f}: at most one "
                       "per board, so at most 1")
    return out


# Injected vs detected --------------------------------------------------------------------

def _alert_fields(alert: Any) -> tuple[str, int | None, int | None, str]:
    if isinstance(alert, Mapping):
        return (str(alert.get("table")), alert.get("round"), alert.get("board"),
                str(alert.get("kind")))
    return alert.table, alert.round, alert.board, alert.kind


def _truth_fields(item: Any) -> tuple[str, int | None, int | None, str]:
    if isinstance(item, Mapping):
        return (str(item.get("table")), item.get("round"), item.get("board"),
                str(ALIASES.get(str(item.get("kind")), item.get("kind"))))
    return item.table, item.round, item.board, item.kind


def compare(injected: Iterable[Injection | Mapping[str, Any]],
            alerts: Iterable[Any],
            expected: Iterable[Expected | Mapping[str, Any]] = (),
            kinds: Iterable[str] = ()) -> dict[str, Any]:
    """Injected vs detected, in the issue's JSON shape: ``injected`` and ``detected``
    (counts per kind), ``missed`` and ``false_alarms`` (lists of {table, board, kind}).

    An injection is detected when an alert of its kind names its table, board and round
    (the seating kinds: its table and round; a round of None matches any). An alert is
    explained by an injection of its kind, by a :data:`CONSEQUENCES` kind of an injection
    at the same table, board and round, or by an ``expected`` entry (same table and kind,
    same board and round unless the entry's are None: e.g. a device-offline alert the
    driver caused on purpose); any other alert is a false alarm. ``alerts`` are
    :class:`hub.alerts.Alert` values or their JSON; the versions of an alert count once.
    ``kinds`` are listed in the counts even when none was injected."""
    truth = [_truth_fields(i) for i in injected]
    extra = [_truth_fields(e) for e in expected]
    found: dict[tuple[str, int | None, int | None, str], None] = {}
    for alert in alerts:
        table, rnd, board, kind = _alert_fields(alert)
        found[(table, rnd, None if kind in _SEATING else board, kind)] = None

    def same(a: int | None, b: int | None) -> bool:
        return a is None or b is None or a == b

    injected_n = {ALIASES.get(k, k): 0 for k in kinds}
    detected_n = dict(injected_n)
    missed: list[dict[str, Any]] = []
    for table, rnd, board, kind in truth:
        injected_n[kind] = injected_n.get(kind, 0) + 1
        detected_n.setdefault(kind, 0)
        if any(t == table and k == kind and same(r, rnd) and (k in _SEATING or b == board)
               for t, r, b, k in found):
            detected_n[kind] += 1
        else:
            missed.append({"table": table, "board": board, "kind": kind})
    false_alarms: list[dict[str, Any]] = []
    for table, rnd, board, kind in found:
        ok = any(t == table and same(r, rnd)
                 and (k == kind if kind in _SEATING else
                      b == board and (k == kind or kind in CONSEQUENCES.get(k, ())))
                 for t, r, b, k in truth)
        ok = ok or any(t == table and k == kind and same(b, board) and same(r, rnd)
                       for t, r, b, k in extra)
        if not ok:
            false_alarms.append({"table": table, "board": board, "kind": kind})
    return {"injected": injected_n, "detected": detected_n, "missed": missed,
            "false_alarms": false_alarms}
