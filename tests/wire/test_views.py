"""The typed views (wire/views.py): each encodes to exactly the JSON the hub builds, decodes
back to the same value, takes fields it does not know (a newer hub) and refuses a wrong
one naming it. The hub's own views, built by a room that plays, go through them unchanged."""

from __future__ import annotations

import json
from typing import Any, get_args

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgecore.cards import Seat
from bridgecore.irregularity import Kind
from hub.alerts import AlertStatus as HubAlertStatus
from hub.alerts import HubKind
from hub.room import Room, Section
from tenace.sim.devices import DeviceEvent, envelopes
from tests.hub.test_table import DEALS, MOVEMENT, START
from wire.protocol import ProtocolError
from wire.views import (
    MAX_VIEW,
    AlertKind,
    AlertStatus,
    AlertView,
    DeviceStatus,
    HubStatus,
    RankingView,
    ResultView,
    SeatView,
    TableView,
    TravellerView,
    View,
)


def dumps(obj: Any) -> str:
    """What the hub published before the views (json.dumps, compact, UTF-8 as is)."""
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


SCHEDULE = {"boards": [1, 2], "expected": {"NS": 1, "EW": 4},
            "next": {"NS": {"pair": 1, "table": "A1", "direction": "NS"}, "EW": None,
                     "boards": ["A3"]}, "started": 1763740000.5, "deadline": None}
RESULT = {"contract": "4SX", "declarer": "N", "tricks": 10, "score_ns": 590,
          "tricks_rectified": 10, "score_ns_rectified": 590}

SAMPLES: list[tuple[type[View], dict[str, Any]]] = [
    (TableView, {"table": "A1", "round": 1, "pairs": {"NS": 1, "EW": None},
                 "phase": "waiting", "strict": False, "schedule": SCHEDULE}),
    (TableView, {"table": "A1", "round": 1, "pairs": {"NS": 1, "EW": 4}, "phase": "over",
                 "strict": True, "schedule": SCHEDULE, "board": 1, "dealer": "N",
                 "vulnerability": "None", "turn": None, "contract": "4SX", "declarer": "N",
                 "doubled": "X", "trick": None, "tricks": {"NS": 10, "EW": 3},
                 "last_trick": {"number": 13, "leader": "E",
                                "cards": [["E", "C2"], ["S", "C3"], ["W", "C4"], ["N", "CA"]],
                                "winner": "N"},
                 "dummy": {"seat": "S", "cards": []},
                 "claim": {"claimer": "N", "tricks": 3, "remaining": 3, "statement": "",
                           "status": "accepted"},
                 "result": RESULT, "confirmed": True, "deal": "N:AKQ...",
                 "traveller": [{"table": "A1", "round": 1, "NS": 1, "EW": 4, "contract": "4SX",
                                "declarer": "N", "tricks": 10, "score_ns": 590, "own": True,
                                "percent_ns": 100.0},
                               {"table": "A2", "round": 2, "NS": 2, "EW": 5,
                                "contract": "PASS", "declarer": None, "tricks": None,
                                "score_ns": 0, "percent_ns": 0.0}],
                 "percentage": {"NS": 100.0, "EW": 0.0}, "imps": None,
                 "field": {"board": 1, "results": 2, "expected": 3, "method": "MP"},
                 "dd": {"tricks": {"N": {"C": 4, "D": 8, "H": 6, "S": 10, "NT": 5}},
                        "par": "NS 4S", "par_score_ns": 420}}),
    (TableView, {"table": "B2", "round": 2, "pairs": {"NS": None, "EW": None},
                 "phase": "auction", "strict": False,
                 "schedule": {"boards": [], "expected": None, "next": None, "started": None,
                              "deadline": None},
                 "board": 3, "dealer": "S", "vulnerability": "EW", "turn": "W",
                 "auction": [{"seat": "S", "call": "1NT", "alert": True, "status": "ok"}]}),
    (SeatView, {"table": "A1", "seat": "W", "board": None, "hand": []}),
    (SeatView, {"table": "A1", "seat": "N", "board": 3, "hand": ["SA", "HK"]}),
    (AlertView, {"id": "A1:r1:b1:revoke:E", "version": 2, "kind": "revoke", "law": "61",
                 "table": "A1", "round": 1, "board": 1, "seats": ["E"], "call": None,
                 "trick": 2, "occurred": 5.0, "detected": 6, "updated": 7.5,
                 "detail": "East revoked: défaut", "facts": {"established": False},
                 "evidence": {"contract": "1H", "play": [["W", "S2"]]},
                 "options": [{"law": "64A", "text": "two tricks"}], "status": "open",
                 "acknowledged_at": None, "ruling": None, "ruled_at": None,
                 "resolved_at": None}),
    (ResultView, {**RESULT, "table": "A1", "round": 1, "board": 1,
                  "pairs": {"NS": 1, "EW": 4}, "confirmed": False, "ended": 1763740123.25}),
    (RankingView, {"v": 1, "section": "A", "key": "A", "method": "mp", "field": "two-winner",
                   "expected": 3, "units": "MP",
                   "boards": [{"board": 1, "results": 2, "scored": 2}],
                   "ranking": [{"pair": 1, "names": ["Ann", "Bob"], "direction": "NS",
                                "total": 2.0, "percent": 100.0, "rank": 1, "boards": 1},
                               {"pair": "Team B", "names": [], "direction": None,
                                "total": None, "percent": None, "rank": 2, "boards": 0}],
                   "penalties": [{"id": "R1", "pair": 1, "amount": 0.5, "unit": "mp",
                                  "board": None, "text": ""}],
                   "problems": ["board 2: table A3, round 2: the pairs are not known"],
                   "ties": "range"}),
    (TravellerView, {"v": 1, "section": "A", "key": "A", "board": 1, "method": "mp",
                     "top": 2, "expected": 3, "dealer": "N", "vulnerability": "None",
                     "fouled": False,
                     "results": [{"table": "A1", "round": 1, "NS": 1, "EW": 4,
                                  "contract": None, "declarer": None, "tricks": None,
                                  "score_ns": None, "ruling": "R1", "form": 0,
                                  "adjustment": "A+ A-", "ns_points": 1.2,
                                  "ew_points": 0.8, "ns_percent": 60.0, "ew_percent": 40.0,
                                  "scored": True}]}),
    (HubStatus, {"online": False}),
    (HubStatus, {"online": True, "started": 1763740000.0, "tables": 12}),
    (DeviceStatus, {"online": False}),
    (DeviceStatus, {"online": True, "device": "A1-tab", "table": "A1", "seat": None,
                    "kind": "tablet"}),
    (DeviceStatus, {"online": True, "device": "A1-rdr", "table": "A1", "kind": "card_reader",
                    "seats": {"N": "pcsc:ACR122U 00 00"}}),
    (DeviceStatus, {"online": False, "device": "A1-rdr-N", "table": "A1", "seat": "N",
                    "kind": "card_reader", "reader": "pcsc:x", "detail": "unplugged",
                    "time": 1763740000.75}),
]


@pytest.mark.parametrize(("kind", "obj"), SAMPLES)
def test_a_view_is_exactly_the_json_the_hub_publishes(kind: type[View],
                                                      obj: dict[str, Any]) -> None:
    view = kind.from_builtins(obj)
    assert view.to_json() == dumps(obj)
    assert kind.from_json(view.to_json()) == view
    assert kind.from_json(view.to_json().encode()) == view
    assert view.to_builtins() == obj
    assert kind.VERSION == 1


def test_the_alert_kinds_are_the_games_and_the_hubs() -> None:
    assert set(get_args(AlertKind)) == {k.value for k in Kind} | {k.value for k in HubKind}
    assert set(get_args(AlertStatus)) == {s.value for s in HubAlertStatus}


def test_views_are_frozen_and_read_by_attribute() -> None:
    view = TableView.from_builtins(SAMPLES[1][1])
    assert view.result is not None and not isinstance(view.result, type(None))
    assert view.trick is None and view.last_trick and view.last_trick.winner == "N"
    assert view.pairs.EW == 4 and view.schedule.next and view.schedule.next.boards == ["A3"]
    with pytest.raises(AttributeError):
        view.phase = "play"  # type: ignore[misc]


def test_a_field_a_reader_does_not_know_is_taken() -> None:
    """A newer hub may add a field: an older tablet reads on."""
    payload = dumps({**SAMPLES[3][1], "colour": "blue"})
    assert SeatView.from_json(payload) == SeatView.from_builtins(SAMPLES[3][1])


@pytest.mark.parametrize(("kind", "obj", "path"), [
    (SeatView, {"table": "A1", "seat": "X", "board": None, "hand": []}, "$.seat"),
    (SeatView, {"table": "A1", "seat": "N", "board": "3", "hand": []}, "$.board"),
    (TableView, {**SAMPLES[0][1], "pairs": {"NS": 1}}, "$.pairs"),
    (HubStatus, {"online": "yes"}, "$.online"),
    (RankingView, {**SAMPLES[8][1], "ranking": [{"pair": 1.5}]}, "$.ranking[0].pair"),
])
def test_a_wrong_view_is_malformed_naming_the_field(kind: type[View], obj: dict[str, Any],
                                                    path: str) -> None:
    with pytest.raises(ProtocolError) as err:
        kind.from_json(dumps(obj))
    assert err.value.code == "malformed" and path in err.value.reason
    with pytest.raises(ProtocolError):
        kind.from_builtins(obj)


def test_garbage_is_a_protocol_error() -> None:
    for payload in (b"", b"{", b"[]", b'"\\ud800"', b"\xff"):
        with pytest.raises(ProtocolError) as err:
            TableView.from_json(payload)
        assert err.value.code == "malformed"
    with pytest.raises(ProtocolError) as err:
        HubStatus.from_json(b" " * (MAX_VIEW + 1))
    assert err.value.code == "too_large"


scalars = (st.none() | st.booleans() | st.integers(-10 ** 30, 10 ** 30) | st.floats()
           | st.text(max_size=10))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(st.sampled_from(["table", "seat", "board", "hand",
                                                         "online", "facts", "x"]), inner,
                                        max_size=4), max_leaves=20)


@settings(max_examples=200, deadline=None)
@given(values, st.sampled_from([kind for kind, _ in SAMPLES]), st.integers(0, 3))
def test_any_json_gives_a_view_or_a_protocol_error(value: Any, kind: type[View],
                                                   deep: int) -> None:
    text = "[" * (deep * 2000) + json.dumps(value) + "]" * (deep * 2000)
    try:
        view = kind.from_json(text)
    except ProtocolError as err:
        assert err.code == "malformed"
    else:
        assert kind.from_json(view.to_json()) == view


def test_the_rooms_own_views_go_through_unchanged() -> None:
    """A table plays board 1 to the end (claim accepted): every state, seat view and result
    it builds on the way is its view's JSON exactly."""
    room = Room(Section("A", MOVEMENT), DEALS)
    t = START
    events: list[DeviceEvent] = []

    def add(type_: str, **body: Any) -> None:
        events.append(DeviceEvent("A1", "A1-tab", type_, body, t + len(events)))

    add("checkin", direction="NS", pair=1)
    add("checkin", direction="EW", pair=4)
    add("board", board=1)
    for seat, call in zip("NESW", ("1S", "Pass", "Pass", "Pass"), strict=True):
        add("call", seat=seat, call=call)
    add("card", seat="E", card=str(min(DEALS[1][Seat.EAST], key=str)))
    add("claim", seat="N", tricks=7)
    add("claim_answer", seat="E", accept=True)
    add("claim_answer", seat="W", accept=True)
    add("result_confirm", seat="E", accept=True)
    seen = 0
    for tid, env in envelopes(events):
        assert room.apply(tid, env, env.time).reply.status == "ack", env
        table = room.tables["A1"]
        for kind, obj in [(TableView, table.public_state()),
                          *((SeatView, table.seat_view(s)) for s in Seat)]:
            assert kind.from_builtins(obj).to_json() == dumps(obj)
            seen += 1
        result = table.result()
        if result is not None:
            assert ResultView.from_builtins(
                {**result, "table": "A1", "round": 1, "board": 1,
                 "pairs": {"NS": 1, "EW": 4}, "confirmed": False, "ended": None})
    assert seen == 5 * len(events)
    state = TableView.from_builtins(room.tables["A1"].public_state())
    assert state.phase == "over" and state.result and state.claim
    for alert in room.alerts:
        assert AlertView.from_builtins(alert.to_json()).to_json() == dumps(alert.to_json())
    for _, payload in room.scoring.publications(force=True):
        obj = json.loads(payload)
        kind = RankingView if "ranking" in obj else TravellerView
        assert kind.from_json(payload).to_json() == payload
