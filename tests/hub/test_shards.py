"""An event's sections shared among hub shards (hub.shards, hub.sharding, hub.access): which
sections each shard holds, what its account may publish (the rules, then a real Mosquitto
enforcing them), the commands a shard lets pass, and the field's ranking across sections
(hub.field) worked out by hand."""

from __future__ import annotations

import json
import queue
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from bridgecore.deal import Deal
from hub.access import SHARD_ROLE, grants, may_read, may_write, mosquitto_acl
from hub.accounts import Accounts, write_keyring
from hub.errors import ConfigError
from hub.event import EventSetup, SectionSetup
from hub.field import FieldRanking
from hub.mosquitto import Mosquitto
from hub.shards import Shard, shard_accounts, shard_scope
from wire.mqtt import MqttClient, using_keyring
from wire.protocol import (
    ROOT,
    topic_field_ranking,
    topic_hub_status,
    topic_ranking,
    topic_shard_status,
    topic_shard_tables,
    topic_state,
    topic_traveller,
)
from wire.views import RankingView

DEAL = Deal.parse("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765")


def three_sections(**more: Any) -> EventSetup:
    parts = tuple(SectionSetup(name, "mitchell", tables=3, boards_per_round=1, rounds=2)
                  for name in "ABC")
    boards = {b for p in parts for b in p.movement.boards}
    return EventSetup(parts, {b: DEAL for b in boards}, **more)


# Which sections a shard holds ------------------------------------------------------------

def test_each_shard_holds_the_sections_at_its_place_modulo_the_shards() -> None:
    setup = three_sections(strict=("A1", "B2"), shards=2)
    first, second = Shard(0, 2).restrict(setup), Shard(1, 2).restrict(setup)
    assert [s.name for s in first.sections] == ["A", "C"]
    assert [s.name for s in second.sections] == ["B"]
    assert first.strict == ("A1",) and second.strict == ("B2",)   # its own tables only
    assert first.deals == setup.deals and first.shards == second.shards == 2
    assert sorted(first.build_room().tables) == ["A1", "A2", "A3", "C1", "C2", "C3"]
    # A shard's set-up is what its log keeps: read back the same.
    assert EventSetup.from_json(second.to_json()) == second


def test_a_plan_that_cannot_be_is_refused_naming_why() -> None:
    with pytest.raises(ConfigError, match="numbered 0 to 1"):
        Shard(2, 2)
    with pytest.raises(ConfigError, match="at least 1"):
        Shard(0, 0)
    with pytest.raises(ConfigError, match="4 shards for 3 sections"):
        Shard(0, 4).restrict(three_sections())


def test_the_setup_keys_say_how_many_shards_and_whether_one_field() -> None:
    setup = three_sections(shards=3, one_field=True)
    back = EventSetup.from_json(setup.to_json())
    assert (back.shards, back.one_field) == (3, True)
    assert "shards" not in three_sections().to_json()["event"]    # the default unwritten
    with pytest.raises(ConfigError, match=r"event\.shards: at least 1"):
        three_sections(shards=0)


# What a shard's account may publish --------------------------------------------------------

def test_a_shards_rules_name_its_own_tables_and_sections_only() -> None:
    setup = three_sections()
    grant = grants("tenace-hub-1", SHARD_ROLE, shard_scope(setup, Shard(1, 2)))
    assert may_write(grant, topic_state("B1")) and may_write(grant, topic_ranking("B"))
    assert may_write(grant, topic_traveller("B", 2))
    assert may_write(grant, f"{ROOT}/result/B3/1/2")
    assert may_write(grant, topic_shard_status(1))
    for theirs in (topic_state("A1"), topic_ranking("A"), topic_traveller("C", 1),
                   f"{ROOT}/result/A1/1/1", topic_hub_status(), topic_shard_status(0),
                   topic_field_ranking(), f"{ROOT}/t/B1/ev/B1-N"):   # nor a device's event
        assert not may_write(grant, theirs), theirs
    assert may_read(grant, f"{ROOT}/t/B2/ev/B2-tab")
    assert not may_read(grant, f"{ROOT}/t/A2/ev/A2-tab")
    zero = grants("tenace-hub-0", SHARD_ROLE, shard_scope(setup, Shard(0, 2)))
    assert may_write(zero, topic_hub_status()) and may_write(zero, topic_field_ranking())
    with pytest.raises(ValueError, match="needs its scope"):
        grants("tenace-hub-1", SHARD_ROLE)
    acl = mosquitto_acl([grant])
    assert f"topic write {ROOT}/results/ranking/B" in acl
    assert "ranking/A" not in acl


@contextmanager
def sharded_mosquitto(tmp_path: Path, setup: EventSetup, names: dict[str, str | None],
                      shards: int = 2, trace: bool = False) -> Iterator[Mosquitto]:
    """A Mosquitto whose accounts are ``names`` (name -> role) and the event's ``shards``
    shards, with their keyring in use while it runs; ``trace``: its log names every packet
    (which PUBLISH went to whom, with its packet id and DUP flag), for a test to quote."""
    accounts = Accounts(tmp_path / "accounts")
    issued = accounts.issue_all(names)
    issued += [accounts.issue(name, SHARD_ROLE, scope=scope, save=False)
               for name, scope in shard_accounts(setup, shards)]
    accounts.save()
    with using_keyring(write_keyring(tmp_path / "keyring.json", issued)):
        broker = Mosquitto(tmp_path / "mosquitto", ("log_type all",) if trace else (),
                           accounts=accounts)
        try:
            yield broker
        finally:
            broker.stop()


@pytest.fixture
def shard_broker(tmp_path: Path) -> Iterator[tuple[Mosquitto, EventSetup]]:
    """A Mosquitto whose accounts are a 2-shard event's shards and the director's."""
    setup = three_sections(shards=2)
    with sharded_mosquitto(tmp_path, setup, {"director": None, "scorer": None}) as broker:
        yield broker, setup


def test_mosquitto_refuses_a_shard_publishing_another_shards_section(
        shard_broker: tuple[Mosquitto, EventSetup]) -> None:
    broker, _ = shard_broker
    director = MqttClient(broker.url, "director", clean_session=True, start=False)
    director.subscribe(f"{ROOT}/results/#", 1, wait=False)
    director.subscribe(f"{ROOT}/t/+/state", 1, wait=False)
    director.subscribe(f"{ROOT}/hub/shard/+/tables", 1, wait=False)
    director.start()
    shard = MqttClient(broker.url, "tenace-hub-1", clean_session=True)
    try:
        assert director.wait_connected(30.0) and shard.wait_connected(30.0)
        # Shard 1 holds section B: A and C are shard 0's. The broker drops what it may
        # not publish; its own topic, published after, arrives: nothing came before it.
        for topic in (topic_ranking("A"), topic_traveller("C", 1), topic_state("A1"),
                      topic_field_ranking(), topic_shard_tables(0), topic_ranking("B"),
                      topic_shard_tables(1)):
            shard.send(topic, json.dumps({"from": "tenace-hub-1"}), 1)
        first = director.messages.get(timeout=30.0)
        assert first.topic == topic_ranking("B")
        assert director.messages.get(timeout=30.0).topic == topic_shard_tables(1)
        with pytest.raises(queue.Empty):
            director.messages.get(timeout=0.5)   # and nothing of the others after it
    finally:
        shard.close()
        director.close()


def test_a_shards_own_status_is_read_by_tenace_hub_status(
        shard_broker: tuple[Mosquitto, EventSetup], capsys: pytest.CaptureFixture[str]) -> None:
    from tenace.cli import main

    broker, _ = shard_broker
    status = {"online": True, "started": 1780000000.0, "tables": 3}
    with MqttClient(broker.url, "tenace-hub-1", clean_session=True) as shard:
        assert shard.wait_connected(30.0)
        shard.publish(topic_shard_status(1), json.dumps(status), 1, True, wait=True,
                      timeout=30.0)
    assert main(["hub", "status", "--shard", "1", "--broker", broker.url, "--json",
                 "--timeout", "30"]) == 0
    assert json.loads(capsys.readouterr().out) == status
    assert main(["hub", "status", "--shard", "0", "--broker", broker.url,
                 "--timeout", "1"]) == 1           # shard 0 never ran here
    assert "no hub/shard/0/status retained" in capsys.readouterr().out


def test_two_shards_over_mosquitto_share_their_tables_with_shard_zero(
        shard_broker: tuple[Mosquitto, EventSetup], tmp_path: Path) -> None:
    """Each shard on its own account: shard 1's tables reach shard 0 through the broker
    (its rules let it write its own summaries, shard 0's let it read them)."""
    import time

    from hub.service import Hub, HubRunner, data_log

    broker, setup = shard_broker
    hubs = []
    for k in (0, 1):
        (tmp_path / f"shard-{k}").mkdir()
        shard = Shard(k, 2)
        hubs.append(Hub(data_log(tmp_path / f"shard-{k}"), url=broker.url,
                        setup=shard.restrict(setup), shard=shard, client_id=shard.account,
                        tick_seconds=0.1, double_dummy=False))
    try:
        with HubRunner(hubs[0]) as zero, HubRunner(hubs[1]):
            deadline = time.monotonic() + 60.0     # a guard: it returns once they are there
            seen: list[str] = []
            while time.monotonic() < deadline and seen != ["B1", "B2", "B3"]:
                time.sleep(0.05)
                seen = zero.call(lambda: sorted(zero.remote_tables))
            assert seen == ["B1", "B2", "B3"]
    finally:
        for hub in hubs:
            hub.log.close()


# Director commands over MQTT reach every shard --------------------------------------------

def test_a_shard_lets_pass_the_commands_for_another_shards_tables(tmp_path: Path) -> None:
    from hub.service import Hub, data_log

    setup = three_sections(shards=2)
    mine = Shard(1, 2)
    hub = Hub(data_log(tmp_path), url="mqtt://127.0.0.1:1", setup=mine.restrict(setup),
              shard=mine)
    try:
        assert hub._other_shards({"op": "table_mode", "table": "A1", "strict": True})
        assert hub._other_shards({"op": "pair_names", "section": "C", "pair": 1,
                                  "names": ["x"]})
        assert hub._other_shards({"op": "acknowledge", "id": "A1-1-revoke-1"})
        assert not hub._other_shards({"op": "table_mode", "table": "B1", "strict": True})
        assert not hub._other_shards({"op": "round_start", "round": 2})   # everyone's
        # A ruling's id is the event's: its shard's number first.
        assert hub.room.scoring.id_prefix == hub.room.scoring.corrections.id_prefix == "1-"
        assert hub._other_shards({"op": "ruling_undo", "id": "0-R1"})
        assert not hub._other_shards({"op": "ruling_undo", "id": "1-R1"})
        result = hub.director({"op": "ruling", "kind": "penalty", "section": "B", "pair": 1,
                               "amount": 1, "unit": "mp"})
        assert result["ruling"] == "1-R1"
        topics = hub._subscriptions()
        assert f"{ROOT}/t/B1/ev/+" in topics and f"{ROOT}/t/+/ev/+" not in topics
        assert f"{ROOT}/dealer/+/ev" not in topics            # shard 0's
        assert hub._status_topics() == [topic_shard_status(1)]
    finally:
        hub.log.close()


def test_shard_zeros_console_shows_the_other_shards_tables(tmp_path: Path) -> None:
    """Each shard publishes its tables as the console shows them; shard 0's console puts
    them on its room map beside its own, and sends those that changed to its pages."""
    from hub.console import Console
    from hub.service import Hub, data_log
    from wire.mqtt import Message

    setup = three_sections(shards=2)
    hubs = []
    for k in (0, 1):
        (tmp_path / str(k)).mkdir()
        shard = Shard(k, 2)
        hubs.append(Hub(data_log(tmp_path / str(k)), url="mqtt://127.0.0.1:1",
                        setup=shard.restrict(setup), shard=shard))
    zero, one = hubs
    try:
        assert f"{ROOT}/hub/shard/+/tables" in zero._subscriptions()
        console = Console(zero)
        zero.console = console
        summary = one.tables_summary()
        zero.handle([Message(topic_shard_tables(1), summary.encode(), 1, True)])
        room = console.overview()
        assert [t["id"] for t in room["tables"]] == ["A1", "A2", "A3", "B1", "B2", "B3",
                                                     "C1", "C2", "C3"]   # the event's order
        b1 = next(t for t in room["tables"] if t["id"] == "B1")
        assert (b1["shard"], b1["section"], b1["status"]) == (1, "B", "waiting")
        assert room["sections"] == ["A", "B", "C"]
        assert console._remote == {"B1", "B2", "B3"}          # for the pages' next flush
        # The same summary again changes nothing; a table gone from it is gone here too.
        console._remote.clear()
        zero.handle([Message(topic_shard_tables(1), summary.encode(), 1, True)])
        assert console._remote == set()
        fewer = json.loads(summary)
        fewer["tables"] = fewer["tables"][:1]
        zero.handle([Message(topic_shard_tables(1), json.dumps(fewer).encode(), 1, True)])
        assert sorted(zero.remote_tables) == ["B1"]
        # Shard 0's own summary never replaces its own tables.
        zero.handle([Message(topic_shard_tables(0), zero.tables_summary().encode(), 1, True)])
        assert sorted(zero.remote_tables) == ["B1"]
    finally:
        for hub in hubs:
            hub.log.close()


# The field's ranking ----------------------------------------------------------------------

def _traveller(section: str, board: int, lines: list[tuple[int, int, int]],
               expected: int = 2) -> dict[str, Any]:
    return {"v": 1, "section": section, "key": section, "board": board,
            "method": "mp", "top": expected - 1, "expected": expected,
            "results": [{"table": f"{section}{i}", "round": 1, "NS": ns, "EW": ew,
                         "contract": "3NT", "declarer": "N", "tricks": 9, "score_ns": score,
                         "ruling": None, "form": 0, "adjustment": None, "scored": True,
                         "not_scored": None}
                        for i, (ns, ew, score) in enumerate(lines, 1)]}


def test_the_field_matchpoints_every_score_against_every_section() -> None:
    """Board 1: section A's North-South pairs scored 400 and 100, section B's 600 and 400.
    Across the field of four (top 3): 600 beats three (3), each 400 beats one and ties one
    (1.5), 100 beats none (0); in its section alone A's 400 was a top."""
    field = FieldRanking("2017")
    field.traveller("A", 1, _traveller("A", 1, [(1, 2, 400), (3, 4, 100)]))
    field.traveller("B", 1, _traveller("B", 1, [(1, 2, 600), (3, 4, 400)]))
    zoe = {"name": "Zoé Roux", "for": "Bob", "player": 2, "rounds": [1]}
    field.ranking("A", {"ranking": [{"pair": 1, "names": ["Ann", "Bob"], "substitutes": [zoe]}]})
    out = RankingView.from_builtins(field.ranking_json()).to_builtins()
    assert next(e for e in out["ranking"] if e["pair"] == "A:1")["substitutes"] == [zoe]
    assert all("substitutes" not in e for e in out["ranking"] if e["pair"] != "A:1")
    ns = {e["pair"]: e["total"] for e in out["ranking"] if e["direction"] == "NS"}
    ew = {e["pair"]: e["total"] for e in out["ranking"] if e["direction"] == "EW"}
    assert ns == {"B:1": 3.0, "A:1": 1.5, "B:3": 1.5, "A:3": 0.0}
    assert ew == {"A:4": 3.0, "A:2": 1.5, "B:4": 1.5, "B:2": 0.0}
    assert out["expected"] == 4 and out["field"] == "two-winner"
    assert next(e for e in out["ranking"] if e["pair"] == "A:1")["names"] == ["Ann", "Bob"]
    assert out["boards"] == [{"board": 1, "results": 4, "scored": 4}]


def test_the_field_leaves_out_what_it_cannot_compare_and_says_so() -> None:
    field = FieldRanking("2017")
    adjusted = _traveller("A", 1, [(1, 2, 400), (3, 4, 100)])
    adjusted["results"][1].update(ruling="R1", score_ns=None, contract=None)
    field.traveller("A", 1, adjusted)
    imps = _traveller("B", 1, [(1, 2, 600)])
    imps["method"] = "butler"
    field.traveller("B", 1, imps)
    out = field.ranking_json()
    assert [e["pair"] for e in out["ranking"]] in (["A:1", "A:2"], ["A:2", "A:1"])
    assert any("adjusted score" in p for p in out["problems"])
    assert any("section B: scored by butler" in p for p in out["problems"])
    field.traveller("A", 1, None)       # a traveller withdrawn (its last result gone)
    assert field.changed and field.ranking_json()["ranking"] == []
