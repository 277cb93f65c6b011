"""A club hub's results relayed to the event (hub.simultaneous.relay), on a real Mosquitto: the
hub's ``result/{table}/{round}/{board}`` become the event's results with stable ids, a board is
``finished`` once the club's tables have all played it, a malformed hub result is skipped; a
fouled board's form (Law 87) and the director's adjusted scores (Law 12C) and corrections, from
the hub's travellers, go out under the result's id."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bridgecore.adjusted import Artificial, ArtificialScore, Assigned, Split
from hub.mosquitto import Mosquitto
from hub.simultaneous.club import ClubLink
from hub.simultaneous.event import generate_key, load_public_key, public_pem
from hub.simultaneous.field import FieldScorer
from hub.simultaneous.relay import ClubRelay
from tests.hub.simultaneous.helpers import make_event, write_accounts
from wire.mqtt import Message, MqttClient
from wire.protocol import topic_result, topic_traveller

PASSWORD = "club-local-secret-0123456789"
T0 = datetime(2026, 4, 12, 18, 0, tzinfo=UTC)
PLUS, MINUS = ArtificialScore.AVERAGE_PLUS, ArtificialScore.AVERAGE_MINUS


@contextlib.contextmanager
def _relay_room(tmp_path: Path, plays: int | dict[int, int]
                ) -> Iterator[tuple[list[Message], ClubRelay, MqttClient]]:
    """A real Mosquitto with the club's hub (``tenace-hub``), the relay's link (``sim-link``,
    ``plays`` a board) and a watcher of the event's topics: (what the watcher saw, the relay,
    the hub's client), all closed after."""
    names = ("tenace-hub", "sim-link", "watch")
    lines = write_accounts(tmp_path / "acc", {n: (PASSWORD, ["topic readwrite #"])
                                              for n in names})
    seen: list[Message] = []
    with Mosquitto(tmp_path / "broker", lines, open_access=True) as broker:
        url = broker.url.replace("mqtt://", "mqtt://{}:" + PASSWORD + "@")
        watch = MqttClient(url.format("watch"), "watch", clean_session=True,
                           on_message=seen.append)
        watch.wait_connected()
        watch.subscribe("tenace/sim/#")
        link = ClubLink("spring", "lyon", url.format("sim-link"),
                        load_public_key(public_pem(generate_key())),
                        client_id="sim-link").start()
        relay = ClubRelay(link, plays).start()
        hub = MqttClient(url.format("tenace-hub"), "tenace-hub", clean_session=True)
        hub.wait_connected()
        try:
            yield seen, relay, hub
        finally:
            for client in (relay, link, hub, watch):
                client.close()


def _hub_result(table: str, rnd: int, board: int, ns: int, ew: int, score: int) -> bytes:
    return json.dumps({"contract": "3NT", "declarer": "S", "tricks": 9, "score_ns": score,
                       "tricks_rectified": 9, "score_ns_rectified": score, "table": table,
                       "round": rnd, "board": board, "pairs": {"NS": ns, "EW": ew},
                       "confirmed": True, "ended": 1780000300.5}).encode()


def test_the_hubs_results_become_the_events(tmp_path: Path) -> None:
    with _relay_room(tmp_path, {1: 2, 2: 1}) as (seen, _relay, hub):
        hub.publish(topic_result("A1", 1, 1), _hub_result("A1", 1, 1, 1, 4, 400),
                    retain=True, wait=True)
        hub.publish(topic_result("A1", 1, 1), _hub_result("A1", 1, 1, 1, 4, 400),
                    retain=True, wait=True)               # published again: same id
        hub.publish(topic_result("A2", 1, 2), b"{not json", retain=True, wait=True)
        hub.publish(topic_result("A2", 2, 1), _hub_result("A2", 2, 1, 2, 3, -100),
                    retain=True, wait=True)
        hub.publish(topic_result("A3", 1, 2), _hub_result("A3", 1, 2, 3, 6, 110),
                    retain=True, wait=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and sum(
                m.topic.endswith("/finished") for m in seen) < 2:
            time.sleep(0.05)
    results = [json.loads(m.payload) for m in seen if m.topic.endswith("/result")]
    assert [r["id"] for r in results] == ["A1-1-1", "A1-1-1", "A2-2-1", "A3-1-2"]
    assert results[2] == {"v": 1, "id": "A2-2-1", "board": 1, "ns": 2, "ew": 3,
                          "score_ns": -100}
    finished = [json.loads(m.payload) for m in seen if m.topic.endswith("/finished")]
    assert finished == [{"v": 1, "board": 1, "results": 2}, {"v": 1, "board": 2, "results": 1}]
    assert all(m.topic.startswith("tenace/sim/v1/spring/lyon/") for m in seen)


def _traveller(board: int, rows: list[tuple[str, int, int]]) -> bytes:
    """A traveller (protocol 12.3) with each (table, round, form) line."""
    return json.dumps({"v": 1, "section": "A", "key": "A", "board": board, "method": "mp",
                       "fouled": any(f for _, _, f in rows),
                       "results": [{"table": t, "round": r, "NS": 1, "EW": 4,
                                    "contract": "3NT", "score_ns": 400, "form": f}
                                   for t, r, f in rows]}).encode()


def test_a_fouled_boards_form_goes_out_as_its_version_law_87(tmp_path: Path) -> None:
    with _relay_room(tmp_path, 3) as (seen, _relay, hub):
        hub.publish(topic_result("A1", 1, 1), _hub_result("A1", 1, 1, 1, 4, 400),
                    retain=True, wait=True)
        hub.publish(topic_result("A2", 1, 1), _hub_result("A2", 1, 1, 2, 5, 420),
                    retain=True, wait=True)
        # The director rules board 1 fouled: A2 played a changed form (the traveller).
        hub.publish(topic_traveller("A", 1), _traveller(1, [("A1", 1, 0), ("A2", 1, 1),
                                                           ("A3", 1, 1)]),
                    retain=True, wait=True)
        hub.publish(topic_result("A3", 1, 1), _hub_result("A3", 1, 1, 3, 6, -50),
                    retain=True, wait=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not any(
                m.topic.endswith("/finished") for m in seen):
            time.sleep(0.05)
    results = [json.loads(m.payload) for m in seen if m.topic.endswith("/result")]
    assert [(r["id"], r.get("version")) for r in results] == [
        ("A1-1-1", None), ("A2-1-1", None), ("A2-1-1", "form-1"), ("A3-1-1", "form-1")]


def _line(table: str, ns: int, ew: int, score: int | None, *, adjustment: str | None = None,
          corrected: str | None = None) -> dict[str, object]:
    """A traveller line (protocol 12.3) of round 1; a board not played there has no contract."""
    return {"table": table, "round": 1, "NS": ns, "EW": ew,
            "contract": None if score is None else "3NT", "score_ns": score, "form": 0,
            "adjustment": adjustment, "ruling": "R1" if adjustment else None,
            "corrected": corrected}


def test_the_directors_adjusted_scores_go_out_and_replace_law_12c(tmp_path: Path) -> None:

    def traveller(*rows: dict[str, object]) -> bytes:
        return json.dumps({"v": 1, "section": "A", "key": "A", "board": 1, "method": "mp",
                           "fouled": False, "results": list(rows)}).encode()

    def results() -> list[dict[str, object]]:
        return [json.loads(m.payload) for m in list(seen) if m.topic.endswith("/result")]

    with _relay_room(tmp_path, 3) as (seen, relay, hub):
        hub.publish(topic_result("A1", 1, 1), _hub_result("A1", 1, 1, 1, 4, 400),
                    retain=True, wait=True)
        hub.publish(topic_result("A3", 1, 1), _hub_result("A3", 1, 1, 3, 6, 110),
                    retain=True, wait=True)
        # The director rules: at A1 4S= by North assigned (12C1(a)), A2 could not play
        # the board (12C2(a), a line of its own), at A3 split scores (12C1(f)).
        hub.publish(topic_traveller("A", 1), traveller(
            _line("A1", 1, 4, 400, adjustment="420"),
            _line("A2", 2, 5, None, adjustment="A+ A-"),
            _line("A3", 3, 6, 110, adjustment="NS 140 / EW 200")), retain=True, wait=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not any(
                m.topic.endswith("/finished") for m in list(seen)):
            time.sleep(0.05)
        # Then the A1 ruling is withdrawn and the score corrected to 3NT+1 (Law 79C).
        hub.publish(topic_traveller("A", 1), traveller(
            _line("A1", 1, 4, 430, corrected="C1"),
            _line("A2", 2, 5, None, adjustment="A+ A-"),
            _line("A3", 3, 6, 110, adjustment="NS 140 / EW 200")), retain=True, wait=True)
        while time.monotonic() < deadline and len(results()) < 6:
            time.sleep(0.05)
        time.sleep(0.3)     # nothing more should come: A2 and A3 went out as they are
    sent = [(r["id"], r["score_ns"], r.get("adjusted")) for r in results()]
    assert sent == [("A1-1-1", 400, None), ("A3-1-1", 110, None),
                    ("A1-1-1", 420, "420"), ("A2-1-1", None, "A+ A-"),
                    ("A3-1-1", None, "NS 140 / EW 200"), ("A1-1-1", 430, None)]
    finished = [json.loads(m.payload) for m in seen if m.topic.endswith("/finished")]
    assert finished == [{"v": 1, "board": 1, "results": 3}]
    assert relay.results() == [
        {"v": 1, "id": "A1-1-1", "board": 1, "ns": 1, "ew": 4, "score_ns": 430},
        {"v": 1, "id": "A2-1-1", "board": 1, "ns": 2, "ew": 5, "score_ns": None,
         "adjusted": "A+ A-"},
        {"v": 1, "id": "A3-1-1", "board": 1, "ns": 3, "ew": 6, "score_ns": None,
         "adjusted": "NS 140 / EW 200"}]
    # The organiser takes them as they came: the latest of each id counts.
    field = FieldScorer(make_event({"lyon": (T0, 3)}, boards=1))
    for r in results():
        field.add_result("lyon", r)
    field.finish("lyon", finished[0])
    assert field.has_finished("lyon", 1)
    assert {rid: (r.score_ns, r.adjustment) for (_, rid), r in field.results.items()} == {
        "A1-1-1": (430, None), "A2-1-1": (None, Artificial(PLUS, MINUS)),
        "A3-1-1": (None, Split(Assigned(140), Assigned(200)))}


def test_a_real_hubs_rulings_go_out_from_its_traveller_law_12c(tmp_path: Path) -> None:
    """The traveller as the hub's live scoring writes it (hub.scoring, Room driven by its
    tables and director): board 1 not played at A2, given A+ A- (12C2(a)); at A1 420
    assigned (12C1(a)); at A3 split 450 / 420 (12C1(f))."""
    from tests.hub.test_live_scoring import ROUND_ROBIN, Session
    s = Session()
    s.play([p for p in ROUND_ROBIN if p[:3] != (3, "A2", 1)])
    s.rule(kind="artificial", table="A2", board=1, ns="A+", ew="A-")
    s.rule(kind="assigned", table="A1", board=1, score_ns=420)
    s.rule(kind="split", table="A3", board=1, ns=450, ew=420)
    traveller = s.room.scoring.section("A").traveller_json(1)
    with _relay_room(tmp_path, 3) as (seen, _relay, hub):
        hub.publish(topic_traveller("A", 1), json.dumps(traveller).encode(), retain=True,
                    wait=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not any(
                m.topic.endswith("/finished") for m in list(seen)):
            time.sleep(0.05)
    results = {r["id"]: r for r in (json.loads(m.payload) for m in seen
                                    if m.topic.endswith("/result"))}
    assert {rid: (r["score_ns"], r.get("adjusted")) for rid, r in results.items()} == {
        "A1-1-1": (420, "420"), "A2-3-1": (None, "A+ A-"),
        "A3-2-1": (None, "NS 450 / EW 420")}
    field = FieldScorer(make_event({"lyon": (T0, 3)}, boards=1))
    for r in results.values():
        field.add_result("lyon", r)
    # E = 3, top 2; two results compared, Neuberg (M + 1/2)·3/2 - 1/2. North-South: the
    # split's 450 beats A1's 420 (1 -> 1.75, 0 -> 0.25); East-West: A1's 420 ties the
    # split's 420 (1/2 -> 1.0 each): 2.75 in all, not balancing. A+ A-: 60%, 40% of 2.
    points = {}
    for scored in field.rescore().boards[1]:
        points[scored.result.ns], points[scored.result.ew] = scored.ns_points, scored.ew_points
    assert points == pytest.approx({"lyon:1": 0.25, "lyon:4": 1.0, "lyon:3": 1.75,
                                    "lyon:5": 1.0, "lyon:2": 1.2, "lyon:6": 0.8})


def _relay_session(tmp_path: Path, steps: list[tuple[str, bytes]], until: int
                   ) -> tuple[list[dict[str, object]], list[tuple[str, dict[str, object]]]]:
    """Publish each (topic, payload) on a real Mosquitto as the hub would (retained), the
    relay running (3 plays a board); the event's messages out, once ``until`` of them came
    (then a moment more, for any that should not come)."""
    with _relay_room(tmp_path, 3) as (seen, relay, hub):
        for name, payload in steps:
            hub.publish(name, payload, retain=True, wait=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and sum(
                not m.topic.endswith("/relay-sync") for m in list(seen)) < until:
            time.sleep(0.05)
        time.sleep(0.3)
        out = relay.results()
    return out, [(m.topic.rsplit("/", 1)[1], json.loads(m.payload)) for m in seen
                 if not m.topic.endswith("/relay-sync")]   # the relay's marker, its own


def test_a_ruling_alone_withdrawn_at_a_real_hub_goes_out_as_a_withdrawal_law_12c(
        tmp_path: Path) -> None:
    """The hub's own traveller: board 1 not played at A2, the director gives A+ A- (12C2(a)),
    then withdraws the ruling (``ruling_undo``): the line leaves the traveller, and the relay
    withdraws its id, then says board 1 finished with the two results left."""
    from tests.hub.test_live_scoring import ROUND_ROBIN, Session
    s = Session()
    s.play([p for p in ROUND_ROBIN if p[:3] != (3, "A2", 1)])
    ruling = s.rule(kind="artificial", table="A2", board=1, ns="A+", ew="A-")
    lines = s.room.scoring.section("A").traveller_json(1)
    ruled = json.dumps(lines).encode()
    assert s.director({"op": "ruling_undo", "id": ruling})["ok"]
    undone = json.dumps(s.room.scoring.section("A").traveller_json(1)).encode()
    played = [(topic_result(r["table"], r["round"], 1),
               _hub_result(r["table"], r["round"], 1, r["NS"], r["EW"], r["score_ns"]))
              for r in lines["results"] if r["contract"] is not None]
    assert len(played) == 2
    results, seen = _relay_session(tmp_path, [*played, (topic_traveller("A", 1), ruled),
                                              (topic_traveller("A", 1), undone)], until=6)
    assert [(kind, m.get("id"), m.get("withdrawn"), m.get("results")) for kind, m in seen] == [
        ("result", "A1-1-1", None, None), ("result", "A3-2-1", None, None),
        ("result", "A2-3-1", None, None), ("finished", None, None, 3),
        ("result", "A2-3-1", True, None), ("finished", None, None, 2)]
    assert seen[4][1] == {"v": 1, "id": "A2-3-1", "board": 1, "withdrawn": True}
    assert [r["id"] for r in results] == ["A1-1-1", "A3-2-1"]


def test_a_result_removed_or_cancelled_at_the_hub_is_withdrawn(tmp_path: Path) -> None:
    """The hub clears a table's retained result (its set-up replaced): withdrawn. A line the
    hub cancels (the traveller's ``not_scored``, Law 15B: a pair playing the board again)
    is withdrawn and counts for ``finished`` without going out."""
    def traveller(*rows: dict[str, object]) -> bytes:
        return json.dumps({"v": 1, "section": "A", "key": "A", "board": 1, "method": "mp",
                           "fouled": False, "results": list(rows)}).encode()

    cancelled = {**_line("A3", 1, 5, 110), "not_scored": "pair 1 played board 1 before"}
    results, seen = _relay_session(tmp_path, [
        (topic_result("A1", 1, 1), _hub_result("A1", 1, 1, 1, 4, 400)),
        (topic_result("A2", 1, 2), _hub_result("A2", 1, 2, 2, 5, 100)),
        (topic_result("A3", 1, 1), _hub_result("A3", 1, 1, 1, 5, 110)),
        (topic_traveller("A", 1), traveller(_line("A1", 1, 4, 400), cancelled)),
        (topic_result("A2", 1, 2), b""),
        (topic_result("A2", 2, 1), _hub_result("A2", 2, 1, 2, 6, -50)),
    ], until=7)
    assert [(kind, m.get("id"), m.get("withdrawn"), m.get("results")) for kind, m in seen] == [
        ("result", "A1-1-1", None, None), ("result", "A2-1-2", None, None),
        ("result", "A3-1-1", None, None), ("result", "A3-1-1", True, None),
        ("result", "A2-1-2", True, None), ("result", "A2-2-1", None, None),
        ("finished", None, None, 2)]
    assert [r["id"] for r in results] == ["A1-1-1", "A2-2-1"]


def test_a_line_gone_while_the_relay_was_stopped_is_withdrawn_when_it_starts(
        tmp_path: Path) -> None:
    """The relay stopped (``tenace sim-event club`` not running) while the director withdraws
    a ruling alone (12C2(a)) and the hub clears a result: started again, the relay has the
    ids it sent (its state file), sees every retained line before its marker, and withdraws
    the two ids, then says board 1 finished again with its one result."""
    names = ("tenace-hub", "sim-link", "watch")
    lines = write_accounts(tmp_path / "acc", {n: (PASSWORD, ["topic readwrite #"])
                                              for n in names})
    state = tmp_path / "relayed.json"
    seen: list[Message] = []

    def traveller(*rows: dict[str, object]) -> bytes:
        return json.dumps({"v": 1, "section": "A", "key": "A", "board": 1, "method": "mp",
                           "fouled": False, "results": list(rows)}).encode()

    def out() -> list[tuple[str, object, object, object]]:
        return [(m.topic.rsplit("/", 1)[1], body.get("id"), body.get("withdrawn"),
                 body.get("results"))
                for m in list(seen) if not m.topic.endswith("/relay-sync")
                for body in [json.loads(m.payload)]]

    def wait(count: int) -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and len(out()) < count:
            time.sleep(0.05)

    with Mosquitto(tmp_path / "broker", lines, open_access=True) as broker:
        url = broker.url.replace("mqtt://", "mqtt://{}:" + PASSWORD + "@")
        watch = MqttClient(url.format("watch"), "watch", clean_session=True,
                           on_message=seen.append)
        watch.wait_connected()
        watch.subscribe("tenace/sim/#")
        hub = MqttClient(url.format("tenace-hub"), "tenace-hub", clean_session=True)
        hub.wait_connected()
        key = load_public_key(public_pem(generate_key()))
        try:
            link = ClubLink("spring", "lyon", url.format("sim-link"), key,
                            client_id="sim-link").start()
            relay = ClubRelay(link, 3, state=state).start()
            for table, ns, ew, score in (("A1", 1, 4, 400), ("A3", 3, 6, 110)):
                hub.publish(topic_result(table, 1, 1), _hub_result(table, 1, 1, ns, ew, score),
                            retain=True, wait=True)
            hub.publish(topic_traveller("A", 1), traveller(
                _line("A1", 1, 4, 400), _line("A2", 2, 5, None, adjustment="A+ A-"),
                _line("A3", 3, 6, 110)), retain=True, wait=True)
            wait(4)
            relay.close()
            link.close()
            assert json.loads(state.read_text()) == {
                "ids": {"A1-1-1": 1, "A2-1-1": 1, "A3-1-1": 1}, "finished": [1]}
            # Meanwhile: the ruling withdrawn, A3's result cleared (the set-up replaced).
            hub.publish(topic_traveller("A", 1), traveller(_line("A1", 1, 4, 400)),
                        retain=True, wait=True)
            hub.publish(topic_result("A3", 1, 1), b"", retain=True, wait=True)
            link = ClubLink("spring", "lyon", url.format("sim-link"), key,
                            client_id="sim-link").start()
            relay = ClubRelay(link, 3, state=state).start()
            assert relay.synced.wait(30), "the relay's marker never came back"
            wait(8)
            time.sleep(0.3)     # nothing more should come
            relay.close()
            link.close()
        finally:
            for client in (hub, watch):
                client.close()
    assert out() == [
        ("result", "A1-1-1", None, None), ("result", "A3-1-1", None, None),
        ("result", "A2-1-1", None, None), ("finished", None, None, 3),
        ("result", "A1-1-1", None, None),                 # the hub's, sent again at start
        ("result", "A2-1-1", True, None), ("result", "A3-1-1", True, None),
        ("finished", None, None, 1)]
    assert json.loads(state.read_text()) == {"ids": {"A1-1-1": 1}, "finished": [1]}
