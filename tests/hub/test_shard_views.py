"""One event on any shard's console and results pages (hub.shard_views, hub.sharding):
two shards over a real Mosquitto, each on its own account, shard 0 a ``tenace hub --shard
0`` process (killed and started again mid-session), shard 1 in this process with its
console. The director at shard 1's console follows a shard-0 table's live auction, gives
commands for shard 0's tables (shard 0 applies them, both show them) and sees shard 0's
alerts; shard 1's results pages show shard 0's section and the field's ranking, equal to a
single hub's."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bridgecore.bigdeal import random_deal
from bridgecore.text import Text
from hub.access import SHARD_ROLE
from hub.accounts import event_accounts
from hub.event import EventSetup, SectionSetup
from hub.mosquitto import Mosquitto
from hub.shard_views import RemoteViews, merge_results, remote_pair_card
from hub.sharding import FOLLOW_SECONDS
from hub.shards import Shard
from hub.texts import render
from tests.hub.test_console import Login, browser, browser_login, click, make_users
from tests.hub.test_console import wait as wait_page
from tests.hub.test_setup_browser import shot
from tests.hub.test_shards import sharded_mosquitto

__all__ = ["browser"]    # the Chromium fixture (tests/hub/test_console.py)

SEED = 7


def two_sections() -> EventSetup:
    import random

    parts = tuple(SectionSetup(name, "mitchell", tables=3, boards_per_round=1, rounds=2)
                  for name in "AB")
    rng = random.Random(SEED)
    boards = sorted({b for p in parts for b in p.movement.boards})
    return EventSetup(parts, {b: random_deal(rng) for b in boards}, shards=2,
                      one_field=True, boards_source="deals given", clock_tolerance=None)


def until(what: Callable[[], Any], timeout: float = 90.0) -> Any:
    """``what()`` once it is truthy (a guard, not a timing: it returns as soon as it is)."""
    deadline = time.monotonic() + timeout
    while True:
        found = what()
        if found or time.monotonic() > deadline:
            assert found, f"not reached in {timeout} s"
            return found
        time.sleep(0.1)


@pytest.fixture
def event(tmp_path: Path) -> Iterator[tuple[Mosquitto, EventSetup]]:
    """Mosquitto with the event's devices, the director's tools and both shards' accounts."""
    from tenace.live import TOOL_ACCOUNTS

    setup = two_sections()
    with sharded_mosquitto(tmp_path, setup, {**event_accounts(setup), **TOOL_ACCOUNTS}) as broker:
        yield broker, setup


def test_shard_ones_console_and_results_run_the_whole_event(
        event: tuple[Mosquitto, EventSetup], tmp_path: Path) -> None:
    from hub.service import Hub, HubRunner, data_log
    from tenace.sim.chaos import HubProcess, clean_room, field_truth
    from tenace.sim.driver import run_tables
    from tenace.sim.session import simulate

    broker, setup = event
    room = setup.build_room()
    script = simulate(list(room.sections), {n: room.deal(n) for n in setup.deals},
                      seed=SEED, edition=room.edition, start=time.time(), claim_rate=0.0,
                      inject={"director_call": 1.0})   # an alert at every table (Law 9B1)
    scripts = script.events_by_table
    a1 = scripts["A1"]
    calls = [i for i, e in enumerate(a1) if e.type == "call"]
    first_part = calls[1] + 1            # A1 checked in, its board on, two calls made

    zero = HubProcess(broker.url, tmp_path / "data", setup, Shard(0, 2))
    zero.start()
    one = Shard(1, 2)
    (tmp_path / "one").mkdir()
    hub = Hub(data_log(tmp_path / "one"), url=broker.url, setup=one.restrict(setup),
              shard=one, client_id=one.account, tick_seconds=0.1, double_dummy=False,
              console=("127.0.0.1", 0),
              console_options={"users": make_users(tmp_path / "users")})
    try:
        with HubRunner(hub) as running:
            console = running.console
            assert console is not None
            director = Login.director(console)   # type: ignore[arg-type]

            def get(path: str) -> Any:
                with director.open(console.url + path) as r:
                    return json.loads(r.read())

            # The room map: shard 0's tables beside shard 1's.
            room_ids = until(lambda: [t["id"] for t in get("api/room")["tables"]]
                            if len(get("api/room")["tables"]) == 6 else None)
            assert sorted(room_ids) == ["A1", "A2", "A3", "B1", "B2", "B3"]

            # Shard 0's table A1 live on shard 1's panel: its auction as it is called.
            outboxes = str(tmp_path / "outboxes")   # A1's devices go on with their seq
            runs = run_tables(broker.url, {"A1": a1[:first_part]}, timeout=10.0,
                              outboxes=outboxes)
            assert all(not r.rejected for r in runs.values())
            made = [[e.body["seat"], str(e.body["call"])] for e in a1[:first_part]
                    if e.type == "call"]
            panel = until(lambda: (p := get("api/table/A1"))["board"] is not None
                         and len(p["auction"]) == 2 and p)
            assert [[c["seat"], c["call"]] for c in panel["auction"]] == made
            assert panel["shard"] == 0 and panel["phase"] == "auction"
            assert panel["turn"] is not None

            # A command for shard 0's table, given on shard 1's console: shard 0 applies
            # it, both see it (shard 0's summary on shard 1's room map).
            status, answer = director.send("api/director", json.dumps(
                {"op": "table_mode", "table": "A2", "strict": True}).encode())
            assert status == 200 and answer["forwarded"] and answer["shard"] == 0
            until(lambda: next(t for t in get("api/room")["tables"]
                              if t["id"] == "A2")["strict"])
            # A score ruling for shard 0's section: shard 0 gives it its id (0-R1).
            status, answer = director.send("api/director", json.dumps(
                {"op": "ruling", "kind": "penalty", "section": "A", "pair": 1,
                 "amount": 1, "unit": "mp", "text": "late"}).encode())
            assert status == 200 and answer["forwarded"] and answer["shard"] == 0
            # Applied by shard 0: its section's ranking, as shard 1's results show it.
            until(lambda: [p["id"] for s in get("api/results")["sections"]
                           if s["section"] == "A" for p in s["penalties"]] == ["0-R1"])

            # Shard 0 killed mid-session, started again on its log: the rest is played.
            killed = zero.kill()
            zero.start(started_after=killed)
            rest = {t: ev for t, ev in scripts.items() if t != "A1"}
            rest["A1"] = a1[first_part:]
            runs = run_tables(broker.url, rest, timeout=10.0, outboxes=outboxes)
            assert [(t, r.rejected) for t, r in runs.items() if r.rejected] == []

            # The whole last board of A1 on shard 1's panel: the auction seen before the
            # lead, every trick after it.
            final = until(lambda: (p := get("api/table/A1"))["over"] and p)
            last = max(i for i, e in enumerate(a1) if e.type == "board")
            assert [[c["seat"], c["call"]] for c in final["auction"]] == \
                [[e.body["seat"], str(e.body["call"])] for e in a1[last:] if e.type == "call"]
            assert len(final["tricks"]) == 13 and final["result"] is not None

            # The results page of shard 1: both sections, the field equal to a single hub's.
            clean, _ = clean_room(setup, script)
            truth = {topic: json.loads(payload)
                     for topic, payload in clean.scoring.publications(force=True)}
            field = field_truth(truth, clean.edition.name, clean.conventions)
            expected_field = next(iter(field.values()))

            def complete() -> Any:
                data = get("api/results")
                names = sorted(s["section"] for s in data["sections"])
                done = data.get("field") and all(
                    b["results"] >= data["field"]["expected"]
                    for b in data["field"]["boards"]) and len(
                        data["field"]["boards"]) == len(expected_field["boards"])
                return names == ["A", "B"] and done and data

            data = until(complete)
            assert data["field"]["ranking"] == expected_field["ranking"]
            a = next(s for s in data["sections"] if s["section"] == "A")
            assert a["remote"] and [p["id"] for p in a["penalties"]] == ["0-R1"]
            b = next(s for s in data["sections"] if s["section"] == "B")
            assert b["ranking"] == truth["tenace/v1/results/ranking/B"]["ranking"]
            # A board's traveller of shard 0's section on shard 1's board page.
            number = a["boards"][0]["board"]
            board = get(f"api/results/board/{number}")
            assert sorted(s["section"] for s in board["sections"]) == ["A", "B"]
            remote_a = next(s for s in board["sections"] if s["section"] == "A")
            assert remote_a["results"] == \
                truth[f"tenace/v1/results/traveller/A/{number}"]["results"]
            # A pair of shard 0's section: its score card from the published travellers.
            card = get("api/results/pair/A/1")
            truth_card = clean.scoring.section("A").card(1)
            assert card["remote"] and card["place"]["pair"] == 1
            assert [(c["board"], c["score"], c["points"]) for c in card["boards"]] == \
                [(c["board"], c["score"], c["points"]) for c in truth_card]
            assert [p["id"] for p in card["penalties"]] == ["0-R1"]

            # Shard 0's alerts on shard 1's console, and acknowledged from it.
            theirs = until(lambda: [a for a in get("api/room")["alerts"]
                                   if a["table"].startswith("A") and a["status"] == "open"])
            assert {a["kind"] for a in theirs} == {"director_call"}
            detail = get(f"api/alert/{theirs[0]['id']}")
            assert detail["id"] == theirs[0]["id"] and "evidence" in detail
            status, answer = director.send("api/director", json.dumps(
                {"op": "acknowledge", "id": theirs[0]["id"]}).encode())
            assert status == 200 and answer["forwarded"]
            acknowledged = until(lambda: next(
                a for a in get("api/room")["alerts"]
                if a["id"] == theirs[0]["id"])["status"] == "acknowledged" and True)
            assert acknowledged
            # The public view too: every board is finished, so everything is shown.
            with director.opener.open(console.url + "api/results") as r:
                assert json.loads(r.read())["field"]["ranking"]

            # No panel has asked for A1 in a while: shard 1 lets it go, and follows it again
            # (its retained state) when a panel asks.
            later = time.monotonic() + FOLLOW_SECONDS + 1
            assert running.call(lambda: running.unfollow_idle(later)) == ["A1"]
            assert running.call(lambda: running.remote.live_table("A1")) is None
            again = until(lambda: (p := get("api/table/A1"))["board"] is not None and p)
            assert again["over"] and again["board"] == final["board"]
    finally:
        zero.stop()
        hub.log.close()


def test_a_remote_tables_board_is_kept_past_the_opening_lead() -> None:
    """The public state drops the auction at the opening lead (Annex I): the panel keeps
    the auction it saw, and every trick from the last one quitted."""
    views = RemoteViews()
    base = {"table": "A1", "round": 1, "pairs": {"NS": 1, "EW": 4}, "board": 1,
            "dealer": "N", "vulnerability": "None"}
    auction = [{"seat": "N", "call": "1NT", "alert": False, "status": "made"},
               {"seat": "E", "call": "Pass", "alert": False, "status": "made"}]
    views.state("A1", dict(base, phase="auction", turn="S", auction=auction))
    views.tablet("A1", {"table": "A1", "board": 1, "explanations": [
        {"call": 1, "seat": "N", "by": "S", "text": "15-17", "to": "EW"}]})
    views.state("A1", dict(base, phase="play", turn="S", contract="1NT", declarer="N",
                           trick={"number": 2, "leader": "E", "cards": [["E", "SA"]]},
                           last_trick={"number": 1, "leader": "E", "winner": "E",
                                       "cards": [["E", "S2"], ["S", "S3"], ["W", "S4"],
                                                 ["N", "S5"]]},
                           tricks={"NS": 0, "EW": 1}, dummy={"seat": "S", "cards": []}))
    live = views.live_table("A1")
    assert live is not None
    assert [c["call"] for c in live["auction"]] == ["1NT", "Pass"]
    assert live["auction"][0]["explanation"] == "15-17"
    assert [t["number"] for t in live["tricks"]] == [1, 2]
    assert live["tricks"][0]["winner"] == "E" and live["dummy"] == "S"
    # The next board starts afresh.
    views.state("A1", dict(base, board=2, phase="auction", turn="E", auction=[]))
    assert views.live_table("A1")["auction"] == []   # type: ignore[index]


def test_the_public_view_holds_back_another_shards_unfinished_board() -> None:
    """Law 16: board 2 still to be played at a table of section B (shard 0's): not on
    shard 1's public pages, nor B's ranking; the director's view shows everything."""
    views = RemoteViews()
    views.ranking("B", {"section": "B", "key": "B", "expected": 2, "method": "mp",
                        "boards": [{"board": 1, "results": 2, "scored": 2},
                                   {"board": 2, "results": 1, "scored": 1}],
                        "ranking": [{"pair": 1, "names": ["Ann"], "rank": 1}],
                        "penalties": [], "problems": []})
    views.traveller("B", 1, {"section": "B", "board": 1, "results": []})

    def own() -> dict[str, Any]:
        return {"sections": [{"section": "A", "boards": [{"board": 1}, {"board": 2}]}],
                "boards": [1, 2], "public": {"names": True}, "ranking_shown": True}

    public = merge_results(own(), "", views, public=True, own_sections={"A"})
    assert public["boards"] == [1]
    b = public["sections"][1]
    assert b["ranking"] == [] and [x["board"] for x in b["boards"]] == [1]
    assert [x["board"] for x in public["sections"][0]["boards"]] == [1]
    full = merge_results(own(), "", views, public=False, own_sections={"A"})
    assert full["boards"] == [1, 2] and full["sections"][1]["ranking"]
    with pytest.raises(LookupError, match="board 2 is not shown yet"):
        merge_results({"sections": []}, "/board/2", views, public=True, own_sections={"A"})
    page = merge_results({"sections": []}, "/board/1", views, public=True,
                         own_sections={"A"})
    assert [s["section"] for s in page["sections"]] == ["B"]
    # Pair 1's card: board 2 and its place wait for the table still playing board 2.
    line = {"table": "B1", "round": 1, "NS": 1, "EW": 2, "score_ns": 420, "ns_points": 1.0,
            "ew_points": 0.0}
    views.traveller("B", 1, {"section": "B", "board": 1, "top": 1, "results": [line]})
    views.traveller("B", 2, {"section": "B", "board": 2, "top": 1,
                             "results": [dict(line, round=2, score_ns=-50)]})
    card = remote_pair_card(views, "B", 1, public=True)
    assert [c["board"] for c in card["boards"]] == [1] and card["place"] is None
    full = remote_pair_card(views, "B", 1, public=False)
    assert [(c["board"], c["score"]) for c in full["boards"]] == [(1, 420), (2, -50)]
    assert full["place"]["rank"] == 1 and full["names"] == ["Ann"]
    assert remote_pair_card(views, "B", 2, public=False)["boards"][0]["score"] == -420
    with pytest.raises(LookupError, match="no pair 9"):
        remote_pair_card(views, "B", 9, public=False)


def test_browser_shard_ones_console_shows_both_shards_tables_and_a_live_panel(
        event: tuple[Mosquitto, EventSetup], tmp_path: Path, browser: Any) -> None:
    """In Chromium, on shard 1's console: every table of both shards on the map, and shard
    0's table A1 in its panel with its auction as it is called (screenshot
    console-shards.png)."""
    from hub.service import Hub, HubRunner, data_log
    from tenace.sim.driver import run_tables
    from tenace.sim.session import simulate

    broker, setup = event
    room = setup.build_room()
    script = simulate(list(room.sections), {n: room.deal(n) for n in setup.deals},
                      seed=SEED, edition=room.edition, start=time.time(), claim_rate=0.0)
    a1 = script.events_by_table["A1"]
    first_part = [i for i, e in enumerate(a1) if e.type == "call"][2] + 1   # three calls
    hubs = []
    for k in (0, 1):
        shard = Shard(k, 2)
        (tmp_path / f"shard-{k}").mkdir()
        hubs.append(Hub(data_log(tmp_path / f"shard-{k}"), url=broker.url,
                        setup=shard.restrict(setup), shard=shard, client_id=shard.account,
                        tick_seconds=0.1, double_dummy=False,
                        **({} if k == 0 else {"console": ("127.0.0.1", 0), "console_options":
                                              {"users": make_users(tmp_path / "users")}})))
    try:
        with HubRunner(hubs[0]), HubRunner(hubs[1]) as one:
            assert one.console is not None
            browser.delete_all_cookies()
            browser_login(browser, one.console)   # type: ignore[arg-type]

            def tiles(driver: Any) -> list[str]:
                return sorted(t.get_attribute("data-table")
                              for t in driver.find_elements("css selector", ".tile"))

            wait_page(browser, lambda d: tiles(d) == ["A1", "A2", "A3", "B1", "B2", "B3"],
                      60.0)
            runs = run_tables(broker.url, {"A1": a1[:first_part]}, timeout=10.0)
            assert all(not r.rejected for r in runs.values())
            click(browser, "#tile-A1")
            calls = [str(e.body["call"]) for e in a1[:first_part] if e.type == "call"]

            def auction(driver: Any) -> list[str]:
                cells = driver.find_elements("css selector", "#live-auction td[data-index]")
                return [c.text.strip() for c in cells]

            # (the page redraws the panel as the table changes: each look is taken again)
            shown = wait_page(browser, lambda d: len(a := auction(d)) == len(calls) and a,
                              60.0)
            assert len(shown) == 3 and all(shown)
            assert wait_page(browser, lambda d: d.find_element("id", "live-turn").text)
            shot(browser, "console-shards.png")
            # Strict mode for A1 from shard 1's page: shard 0 applies it, both show it.
            click(browser, "#table-mode")
            zero = hubs[0]
            until(lambda: zero.call(lambda: zero.room.tables["A1"].strict))
            wait_page(browser, lambda d: d.find_element("id", "table-mode").text
                      == "Switch to bidding box", 30.0)
            # Shard 0 gone: the console says so on the panel, in words, and sends nothing.
            zero.stop()
            until(lambda: one.call(lambda: one.shard_online.get(0) is False))
            click(browser, "#table-mode")
            offline = render(Text.of("refusal.shard_offline", shard=0), "en")
            note = wait_page(browser, lambda d: next(
                (m for m in d.find_elements("css selector", "#detail .message.error")
                 if m.text == offline), None), 30.0)
            assert note.is_displayed()
            assert zero.room.tables["A1"].strict     # as it was: nothing reached it
    finally:
        for hub in hubs:
            hub.log.close()


def test_a_shard_takes_another_shards_forwarded_command_as_its_users(tmp_path: Path) -> None:
    """A command on ``hub/cmd/tenace-hub-1`` (shard 1's console) is taken by shard 0, by the
    user named in it; shard 0's own is not taken again, and no other account may name
    ``by``."""
    from hub.service import Hub, data_log
    from wire.mqtt import Message
    from wire.protocol import topic_hub_command

    setup = two_sections()
    zero = Hub(data_log(tmp_path), url="mqtt://127.0.0.1:1", setup=Shard(0, 2).restrict(setup),
               shard=Shard(0, 2))
    try:
        def send(account: str, **command: Any) -> None:
            zero.handle([Message(topic_hub_command(account), json.dumps(command).encode(),
                                 1, False)])

        penalty = {"op": "ruling", "kind": "penalty", "section": "A", "pair": 1,
                   "amount": 1, "unit": "mp"}
        send("tenace-hub-1", **penalty, by="dora")
        send("tenace-hub-0", **penalty, by="dora")          # its own, back: not again
        send("director", **penalty, by="dora")              # by: a shard's only
        send("tenace-hub-1", **dict(penalty, section="B"), by="dora")   # shard 1's own
        rulings = zero.room.scoring.rulings_json()
        assert [(r["id"], r["by"]) for r in rulings] == [("0-R1", "dora")]
    finally:
        zero.log.close()


def test_a_shards_account_reads_the_public_views_of_every_table_never_a_seat() -> None:
    from hub.access import grants, may_read, may_write
    from hub.shards import shard_scope
    from wire.protocol import ROOT, topic_hub_command, topic_seat, topic_state, topic_tablet

    setup = two_sections()
    one = grants("tenace-hub-1", SHARD_ROLE, shard_scope(setup, Shard(1, 2)))
    assert may_read(one, topic_state("A1")) and may_read(one, topic_tablet("A1"))
    assert may_read(one, f"{ROOT}/director/alert/A1-1-revoke-1")
    assert not may_read(one, topic_seat("A1", "N"))
    assert not may_read(one, f"{ROOT}/t/A1/ev/A1-tab")        # another shard's events
    assert may_write(one, topic_hub_command("tenace-hub-1"))
    assert not may_write(one, topic_hub_command("tenace-hub-0"))
    assert not may_write(one, topic_hub_command("director"))


def test_a_single_hub_ranking_the_field_shows_it_on_its_results_pages(tmp_path: Path) -> None:
    """Not only shards: a hub whose event is one field (``one_field = true``) shows the
    field's ranking below the sections (the travellers as it publishes them, hub.field)."""
    from hub.console_results import results_json
    from hub.service import Hub, data_log

    setup = EventSetup(two_sections().sections, two_sections().deals, one_field=True,
                       boards_source="deals given")
    hub = Hub(data_log(tmp_path), url="mqtt://127.0.0.1:1", setup=setup)
    try:
        assert hub.field is not None
        traveller = {"v": 1, "section": "A", "key": "A", "board": 1, "method": "mp",
                     "top": 0, "expected": 1, "results": [
                         {"table": "A1", "round": 1, "NS": 1, "EW": 4, "contract": "3NT",
                          "declarer": "N", "tricks": 9, "score_ns": 400, "ruling": None,
                          "not_scored": None}]}
        hub.field.traveller("A", 1, traveller)
        data = results_json(hub, "", public=False)
        assert data["field"]["key"] == "field"
        assert [e["pair"] for e in data["field"]["ranking"]] == ["A:1", "A:4"]
        assert [s["section"] for s in data["sections"]] == ["A", "B"]   # its own, as ever
    finally:
        hub.log.close()
