"""The views the hub publishes are never stale (hub.publishing, issue 27): a seat's view is
rebuilt only when :meth:`TableViews.seat_key` moved, so every change of the view must move
the key; and after every batch, what the hub last published on each table's topics is what
the table's views say now. And every view it publishes is of its type (wire.views): the hub
encodes the dicts it builds without validating them again, so this is where the protocol's
guarantee is checked."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from bridgecore.bigdeal import random_deal
from bridgecore.cards import Seat
from bridgecore.movements import mitchell
from hub.publishing import _view
from hub.room import Room, Section
from hub.service import Hub, data_log
from tenace.sim.devices import envelopes
from tenace.sim.session import simulate
from tests.hub.test_table import Driver, make_room
from wire.mqtt import Message
from wire.protocol import ROOT, topic_seat, topic_state, topic_tablet
from wire.views import AlertView, ResultView, SeatView, TabletView, TableView, View

_SEATS = tuple(Seat)


class _Recorder:
    """The broker's side of the hub's retained publications: the last payload per topic."""

    closed = False

    def __init__(self) -> None:
        self.retained: dict[str, str] = {}

    def send(self, topic: str, payload: Any, qos: int = 1, retain: bool = False) -> None:
        if retain:
            self.retained[topic] = payload if isinstance(payload, str) else payload.decode()


def _keys_and_views(d: Driver) -> list[tuple[Any, dict[str, Any]]]:
    return [(d.state.seat_key(seat), d.state.seat_view(seat)) for seat in _SEATS]


def test_a_seat_key_moves_whenever_the_seat_view_does_through_explanations_and_undo() -> None:
    """Calls, an alert asked about and explained (Law 20F), a call taken back with its
    explanation (25A), a question left open, the play: after each event, a seat whose view
    changed has a new key (the hub publishes a seat's view only then)."""
    d = Driver(make_room())
    before = _keys_and_views(d)
    changes = 0

    def step(type: str, device: str = "tab", **body: Any) -> None:
        nonlocal before, changes
        d.ok(type, device, **body)
        now = _keys_and_views(d)
        for seat, ((key0, view0), (key1, view1)) in zip(_SEATS, zip(before, now, strict=True),
                                                         strict=True):
            if view1 != view0:
                changes += 1
                assert key1 != key0, (type, body, seat, view0, view1)
        before = now

    step("checkin", direction="NS", pair=1)
    step("checkin", direction="EW", pair=4)
    step("board", board=1)
    step("call", "N", seat="N", call="1C", alert=True)
    step("ask", "E", seat="E", call=1)
    step("explain", "S", seat="S", call=1, text="could be short")
    step("undo", "N", seat="N")                       # the explanation goes with the call
    step("call", "N", seat="N", call="1C", alert=True)   # the same call again, unexplained
    step("explain", "S", seat="S", call=1, text="natural")
    step("call", "E", seat="E", call="1H", alert=True)
    step("ask", "S", seat="S", call=2)                # left open
    for call in ("Pass", "Pass", "Pass"):
        step("call", seat=d.state.sitting.board.auction.turn.letter, call=call)
    play = d.state.sitting.board.play
    assert play is not None
    for _ in range(6):
        seat = play.turn
        step("card", seat=seat.letter, card=str(play.legal_cards[0]))
    assert changes >= 10   # the scenario changes the views, or it shows nothing


class _Sent:
    """The broker's side of everything the hub publishes, retained or not, in order."""

    closed = False

    def __init__(self) -> None:
        self.sent: list[tuple[str, str]] = []

    def send(self, topic: str, payload: Any, qos: int = 1, retain: bool = False) -> None:
        self.sent.append((topic, payload if isinstance(payload, str) else payload.decode()))


_VIEW_OF_TOPIC: tuple[tuple[re.Pattern[str], type[View]], ...] = tuple(
    (re.compile(f"^{re.escape(ROOT)}/{pattern}$"), kind) for pattern, kind in (
        (r"t/[^/]+/state", TableView), (r"t/[^/]+/seat/[NESW]", SeatView),
        (r"t/[^/]+/tablet", TabletView), (r"director/alert/[^/]+", AlertView),
        (r"result/[^/]+/\d+/\d+", ResultView)))


def _session_hub(tmp_path: Path, recorder: Any, seed: int) -> tuple[Hub, list[Message]]:
    """A hub on a whole session of four tables with irregularities (revokes, leads out of
    turn, insufficient bids, calls out of rotation, director calls, results disputed) and
    reader noise, and the session's messages."""
    movement = mitchell(4, boards_per_round=2)
    deals = {b: random_deal(random.Random(b)) for b in movement.boards}
    script = simulate(Section("A", movement), deals, seed=seed, inject={
        "revoke": 0.1, "lead_out_of_turn": 0.1, "insufficient_bid": 0.1,
        "call_out_of_rotation": 0.1, "director_call": 0.1, "result_disagrees": 0.1})

    class Setup:
        def build_room(self) -> Room:
            return Room(Section("A", movement), deals)

        def to_json(self) -> dict[str, Any]:
            return {}

    hub = Hub(data_log(tmp_path), url="mqtt://unused:1", setup=Setup(), double_dummy=False,
              clock_tolerance=False)
    hub._client = recorder
    messages = [Message(f"tenace/v1/t/{table}/ev/{env.device}", env.to_json().encode(), 1)
                for table, env in envelopes(script.merged())]
    return hub, messages


@pytest.mark.parametrize("seed", [1027, 27])
def test_every_view_the_hub_publishes_is_of_its_type(tmp_path: Path, seed: int) -> None:
    """Each payload the hub publishes on a view's topic through a whole session decodes as
    that view (wire.views: every field of its type, nothing missing), and the typed view
    writes the very same text: no key the type does not know, none left to a default, the
    keys in the type's order. This is the check ``from_builtins`` made at every publication
    before the hub encoded its dicts directly (issue 27)."""
    recorder = _Sent()
    hub, messages = _session_hub(tmp_path, recorder, seed)
    for start in range(0, len(messages), 16):
        hub.handle(messages[start:start + 16])
    checked: dict[str, int] = {}
    for topic, payload in recorder.sent:
        kind = next((k for pattern, k in _VIEW_OF_TOPIC if pattern.match(topic)), None)
        if kind is None or payload == "":   # another topic; a cleared retained alert
            continue
        view = kind.from_json(payload)
        assert view.to_json() == payload, (topic, payload)
        checked[kind.__name__] = checked.get(kind.__name__, 0) + 1
    assert set(checked) == {"TableView", "SeatView", "TabletView", "AlertView",
                            "ResultView"}, checked
    assert checked["TableView"] > 200 and checked["AlertView"] > 5, checked
    hub.log.close()


def test_every_view_published_after_a_batch_is_the_tables_view_now(tmp_path: Path) -> None:
    """A whole session of four tables with irregularities (revokes, leads out of turn,
    insufficient bids, calls out of rotation, director calls, results disputed) and reader
    noise, through the hub in batches: after each batch, each table's state, seats and
    tablet as last published equal the views built afresh."""
    recorder = _Recorder()
    hub, messages = _session_hub(tmp_path, recorder, 1027)
    assert len(messages) > 500
    for start in range(0, len(messages), 37):
        hub.handle(messages[start:start + 37])
        for table_id, table in hub.room.tables.items():
            assert recorder.retained[topic_state(table_id)] == _view(
                table.public_state())
            assert recorder.retained[topic_tablet(table_id)] == _view(
                table.tablet_view())
            for seat in _SEATS:
                assert recorder.retained[topic_seat(table_id, seat.letter)] == _view(
                    table.seat_view(seat)), (table_id, seat, start)
    assert hub.stats.accepted > 500 and len(hub.room.alerts) > 0
    hub.log.close()


def test_the_collector_is_paused_for_a_batch_and_runs_again_after(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``Hub.handle`` pauses Python's cyclic collector for its batch (issue 27): on again
    after the batch, also when the batch fails, and left off when the caller had it off."""
    import gc

    class Setup:
        def build_room(self) -> Room:
            return make_room()

        def to_json(self) -> dict[str, Any]:
            return {}

    hub = Hub(data_log(tmp_path), url="mqtt://unused:1", setup=Setup(), double_dummy=False)
    seen: list[bool] = []

    def batch(messages: Any) -> None:
        seen.append(gc.isenabled())
        if messages == ["boom"]:
            raise RuntimeError("a bug in a batch")

    monkeypatch.setattr(hub, "_handle", batch)
    assert gc.isenabled()
    hub.handle([])
    assert seen == [False] and gc.isenabled()
    with pytest.raises(RuntimeError, match="a bug"):
        hub.handle(["boom"])    # type: ignore[list-item]
    assert seen == [False, False] and gc.isenabled()
    gc.disable()
    try:
        hub.handle([])
        assert not gc.isenabled()
    finally:
        gc.enable()
    hub.log.close()
