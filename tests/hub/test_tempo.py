"""Tempo as evidence through the live hub (hub/tempo.py, hub/console_tempo.py): golden boards
with known device times played over MQTT by three tables, then the director's API: a STOP
kept and one not (FFB Annex I), a long pause after partner's hesitation (Laws 16B, 73C,
73D), a slow table (Law 74B4), the timeline attached to a ruling, the timed exports read
back with the same times, and ``tenace tempo`` on them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher

from bridgecore.cards import Seat
from bridgecore.lin import read_lin
from bridgecore.pbn import read_pbn
from bridgecore.tempo import Source
from hub.broker import EmbeddedBroker
from hub.log_records import StoredRecord
from hub.room import Room, Section
from hub.service import Hub, HubRunner, data_log
from hub.tempo import RoomFacts, boards_from_log, session_tempo
from hub.users import UserStore
from tenace.sim.devices import DeviceEvent
from tenace.sim.driver import run_tables
from tests.bridgecore.tempo_boards import (
    HESITATION,
    SLOW,
    START,
    STOP_KEPT,
    STOP_NOT_KEPT,
    golden_actions,
)
from tests.conftest import Keyring
from tests.hub import test_console
from tests.hub.test_console_pseudo_browser import untranslated
from tests.hub.test_service import console_login, http
from tests.hub.test_table import DEALS, MOVEMENT

PASSWORDS = {"dora": "director-pass-1", "vic": "viewer-pass-333"}
browser = test_console.browser        # headless Chromium, once for the module


class TempoSetup:
    """The three tables of the table tests' Mitchell, device clocks not checked (the golden
    times are in the past)."""

    def to_json(self) -> dict[str, Any]:
        return {"test": "tempo-mitchell-3"}

    def build_room(self) -> Room:
        return Room(Section("A", MOVEMENT), DEALS, clock_tolerance=None, minutes_per_round=15)


def loader(obj: dict[str, Any]) -> TempoSetup:
    return TempoSetup()


def boards_of(table: int) -> tuple[int, ...]:
    a = MOVEMENT.assignment(1, table)
    assert a is not None
    return a.boards


def script(table: int, games: list[tuple[list[tuple[str, float, bool]], dict[str, Any]]],
           start: float, reader: bool = False) -> list[DeviceEvent]:
    """A table's round 1: check-in, then each golden board (its device times from
    ``start``), cards by the table's reader with ``reader``."""
    tid = f"A{table}"
    a = MOVEMENT.assignment(1, table)
    assert a is not None
    out = [DeviceEvent(tid, f"{tid}-tab", "checkin", {"direction": "NS", "pair": a.ns}, start),
           DeviceEvent(tid, f"{tid}-tab", "checkin", {"direction": "EW", "pair": a.ew}, start)]
    t = start
    for number, (calls, pace) in zip(a.boards, games, strict=False):
        out.append(DeviceEvent(tid, f"{tid}-tab", "board", {"board": number}, t))
        actions = golden_actions(DEALS[number], number, calls, start=t, reader=reader, **pace)
        for x in actions:
            if x.kind == "call":
                body: dict[str, Any] = {"seat": x.seat.letter, "call": x.item}
                if x.stop:
                    body["stop"] = True
                out.append(DeviceEvent(tid, f"{tid}-tab", "call", body, x.at or 0.0))
            elif reader:
                out.append(DeviceEvent(tid, f"{tid}-rdr", "card", {
                    "seat": x.seat.letter, "card": x.item, "source": "reader"}, x.at or 0.0))
            else:
                out.append(DeviceEvent(tid, f"{tid}-tab", "card", {
                    "seat": x.seat.letter, "card": x.item}, x.at or 0.0))
        t = (actions[-1].at or t) + 60.0
    return out


SCRIPTS = {
    # A1 calls the director after its second board (9B1): the alert the ruling is on.
    "A1": [*script(1, [(STOP_KEPT, {}), (HESITATION, {})], START, reader=True),
           DeviceEvent("A1", "A1-tab", "director_call", {"seat": "E"}, START + 4000)],
    "A2": script(2, [(STOP_NOT_KEPT, {})], START + 5000),
    "A3": script(3, [(SLOW, {"card_gap": 20.0, "lead_gap": 20.0})], START + 9000),
}
A1_KEPT, A1_HESITATION = boards_of(1)
A2_BOARD = boards_of(2)[0]
A3_BOARD = boards_of(3)[0]


@pytest.fixture(scope="module")
def live(keyring: Keyring, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    folder = tmp_path_factory.mktemp("tempo")
    users = UserStore.in_directory(folder / "console", hasher=PasswordHasher(
        time_cost=1, memory_cost=1024, parallelism=1))
    users.add("dora", "director", PASSWORDS["dora"])
    users.add("vic", "viewer", PASSWORDS["vic"])
    with EmbeddedBroker("127.0.0.1", 0, accounts=keyring.accounts.path) as broker:
        hub = Hub(data_log(folder / "data"), url=broker.url, setup=TempoSetup(),
                  setup_loader=loader, tick_seconds=0.2, console=("127.0.0.1", 0),
                  console_options={"users": users})
        with HubRunner(hub) as running:
            runs = run_tables(broker.url, SCRIPTS)
            for tid, run in runs.items():
                assert run.codes == {"ok": len(SCRIPTS[tid])}, (tid, run.codes)
            base = hub.console.url.rstrip("/")
            yield {"hub": hub, "running": running, "base": base, "folder": folder,
                   "dora": console_login(base, "dora", PASSWORDS["dora"]),
                   "vic": console_login(base, "vic", PASSWORDS["vic"])}


def board_view(live: dict[str, Any], table: str, board: int) -> dict[str, Any]:
    view: dict[str, Any] = http(f"{live['base']}/api/tempo/board/{table}/{board}",
                                session=live["dora"])
    return view


def test_annex_i_stop_kept_through_the_hub(live: dict[str, Any]) -> None:
    """Annex I: East's jump with a STOP; South passes after 7 s, all of it the STOP wait."""
    view = board_view(live, "A1", A1_KEPT)
    south = view["actions"][2]
    assert view["actions"][1]["stop"] and south["after_jump"]
    assert south["stop_wait"] == pytest.approx(7.0) and south["think"] == pytest.approx(0.0)
    assert not [m for m in view["marks"] if m["kind"] == "stop_not_kept"]
    assert view["ns"] == "1" and view["round"] == 1 and view["started_at"] == START
    cards = [a for a in view["actions"] if a["kind"] != "call"]
    assert len(cards) == 52 and {a["source"] for a in cards} == {"tag"}
    assert all(a["device"] == "A1-rdr" for a in cards)


def test_annex_i_stop_not_kept_through_the_hub(live: dict[str, Any]) -> None:
    """Annex I, 73A2: the jumper's left-hand opponent passes 1 s after the jump: marked."""
    view = board_view(live, "A2", A2_BOARD)
    (mark,) = [m for m in view["marks"] if m["kind"] == "stop_not_kept"]
    lho = Seat.dealer_of(A2_BOARD).offset(2).letter
    assert mark["index"] == 2 and mark["player"] == lho and mark["think"] == pytest.approx(1.0)


def test_law_16b_long_pause_after_partners_hesitation(live: dict[str, Any]) -> None:
    """Laws 16B, 73C, 73D: the dealer's 45 s pass and his partner's 30 s 3H after it are
    marked; the dealer's mark points at his partner's call."""
    view = board_view(live, "A1", A1_HESITATION)
    dealer = Seat.dealer_of(A1_HESITATION)
    breaks = {m["index"]: m for m in view["marks"] if m["kind"] == "tempo_break"}
    assert breaks[4]["player"] == dealer.letter and breaks[4]["think"] == pytest.approx(45.0)
    assert breaks[4]["partner_next"] == 6
    assert breaks[6]["player"] == dealer.partner.letter
    assert breaks[6]["think"] == pytest.approx(30.0)
    assert view["actions"][6]["item"] == "3H" and view["actions"][6]["source"] == "tap"


def test_law_74b4_slow_table_and_pairs_against_the_allowance(live: dict[str, Any]) -> None:
    """Law 74B4: table A3 takes 20 s every action, over the 7.5 minutes a board of a
    15-minute round of two boards; the others are not."""
    report = http(f"{live['base']}/api/tempo/slow", session=live["dora"])
    assert report["law"] == "74B4" and report["slow_tables"] == ["A3"]
    a3 = next(b for b in report["boards"] if b["table"] == "A3")
    assert a3["allowance"] == 450.0 and a3["seconds"] > 1000 and a3["over"]
    assert set(a3["slow_sides"]) == {"NS", "EW"}
    slowest = report["pairs"][0]
    assert slowest["pair"] in (a3["pairs"]["NS"], a3["pairs"]["EW"]) and slowest["over"]


def test_the_view_is_the_directors_only(live: dict[str, Any]) -> None:
    """Players see nothing of it; on the console a viewer is refused."""
    refused = http(f"{live['base']}/api/tempo/board/A1/{A1_KEPT}", session=live["vic"])
    assert refused["http_status"] == 403
    assert http(f"{live['base']}/api/tempo/slow")["http_status"] == 401
    assert board_view(live, "A1", 99)["http_status"] == 404


def test_law_9b_director_attaches_the_timeline_to_a_ruling(live: dict[str, Any]) -> None:
    """The director rules on a table's call (9B1) with the timeline attached: the logged
    ruling names the log position and the view's digest, and the view computed again at
    that position has that digest."""
    hub, running = live["hub"], live["running"]
    alert_id = running.call(lambda: next(a.id for a in hub.room.alerts
                                         if a.kind == "director_call"))
    done = http(f"{live['base']}/api/tempo/attach", {
        "alert": alert_id, "table": "A1", "board": A1_HESITATION,
        "text": "North's hesitation suggested 3H (16B1): score adjusted"}, live["dora"])
    assert done["ok"], done
    ruling = running.call(lambda: hub.room.alerts[alert_id].ruling)
    assert ruling["by"] == "dora" and done["reference"] in ruling["text"]
    again = http(f"{live['base']}/api/tempo/board/A1/{A1_HESITATION}?upto={done['position']}",
                 session=live["dora"])
    assert again["reference"] == done["reference"]
    bad = http(f"{live['base']}/api/tempo/attach", {"alert": "nope", "table": "A1",
                                                     "board": A1_HESITATION, "text": ""},
               live["dora"])
    assert bad["http_status"] == 400 and not bad["ok"]


def test_offsets_correct_each_devices_clock(live: dict[str, Any]) -> None:
    """A reader whose clock runs 2 s ahead (the hub's clock minus its own: -2 s, as
    hub.clock's ClockBook keeps it): its cards' times are 2 s earlier."""
    with data_log(live["folder"] / "data") as stored:
        records = list(stored.replay())
    def kept(boards: list[Any]) -> Any:
        return next(b for b in boards if (b.table, b.board) == ("A1", A1_KEPT))

    plain = kept(boards_from_log(records))
    shifted = kept(boards_from_log(records, {"A1-rdr": -2.0}))
    card, moved = plain.actions[-1], shifted.actions[-1]
    assert card.device == "A1-rdr" and card.source is Source.TAG
    assert moved.at == pytest.approx((card.at or 0) - 2.0)
    assert plain.actions[0].at == shifted.actions[0].at   # the tablet's untouched
    room = TempoSetup().build_room().rebuild(records[1:])
    assert len(session_tempo(RoomFacts.of(room), records)) == 4


def fetch(live: dict[str, Any], path: str) -> bytes:
    opener, _ = live["dora"]
    with opener.open(urllib.request.Request(live["base"] + path), timeout=10) as r:
        data: bytes = r.read()
    return data


def test_exports_carry_the_times_and_read_back_the_same(live: dict[str, Any],
                                                        tmp_path: Path) -> None:
    pbn = fetch(live, "/api/tempo/export.pbn")
    lin = fetch(live, "/api/tempo/export.lin")
    boards = {(b["table"], b["board"]): b for b in [
        board_view(live, t, n) for t, n in (("A1", A1_KEPT), ("A1", A1_HESITATION),
                                            ("A2", A2_BOARD), ("A3", A3_BOARD))]}
    for records in (read_pbn(pbn).records, read_lin(lin.decode()).records):
        assert len(records) == 4
        for r in records:
            assert not r.problems, r.problems
            view = next(v for (t, n), v in boards.items() if n == r.board)
            times = [a["at"] for a in view["actions"]]
            assert [c.time for c in r.calls] + [p.time for p in r.plays] == times
    (tmp_path / "session.pbn").write_bytes(pbn)
    (tmp_path / "session.lin").write_bytes(lin)
    out = subprocess.run([sys.executable, "-m", "tenace", "tempo",
                          str(tmp_path / "session.pbn"), "--json"],
                         capture_output=True, text=True, check=True)
    data = json.loads(out.stdout)
    hesitation = next(b for b in data["boards"] if b["board"] == A1_HESITATION)
    assert {m["index"] for m in hesitation["marks"] if m["kind"] == "tempo_break"} >= {4, 6}
    kept = next(b for b in data["boards"] if b["board"] == A2_BOARD)
    assert [m["kind"] for m in kept["marks"]][:1] == ["stop_not_kept"]
    text = subprocess.run([sys.executable, "-m", "tenace", "tempo",
                           str(tmp_path / "session.lin")],
                          capture_output=True, text=True, check=True).stdout
    assert f"board {A1_HESITATION}" in text.lower() and "16B" in text
    assert "Players:" in text and "mark(s)" in text


# The page in headless Chromium ----------------------------------------------------------------

# A temporary folder; TENACE_SCREENSHOTS=docs/screenshots refreshes the committed one.
SHOTS = Path(os.environ.get("TENACE_SCREENSHOTS")
             or os.path.join(tempfile.gettempdir(), "tenace-screenshots"))


def test_browser_timeline_opened_from_an_alert_marks_the_hesitation(
        live: dict[str, Any], browser: Any) -> None:
    """The director opens the timeline from the alert (9B1) and sees the board's calls and
    cards with their times, the STOP wait and the 16B marks, then the slow-play panel
    (74B4)."""
    wait = test_console.wait
    base = live["base"]
    browser.get(base + "/login")
    wait(browser, lambda d: d.find_elements("id", "login-name"))
    browser.find_element("id", "login-name").send_keys("dora")
    browser.find_element("id", "login-password").send_keys(PASSWORDS["dora"])
    browser.find_element("id", "login-submit").click()
    wait(browser, lambda d: "/login" not in d.current_url)
    alert_id = live["running"].call(lambda: next(a.id for a in live["hub"].room.alerts
                                                 if a.kind == "director_call"))
    wait(browser, lambda d: d.find_elements("css selector", "#feed li"))
    browser.find_element("css selector", f"#feed li[data-alert='{alert_id}']").click()
    link = wait(browser, lambda d: d.find_elements("id", "tempo-link"))[0]
    href = link.get_attribute("href")
    assert "/tempo?table=A1" in href and "alert=" in href
    browser.get(href.replace(f"board={A1_KEPT}", f"board={A1_HESITATION}"))
    wait(browser, lambda d: d.find_elements("css selector", "body[data-ready='timeline']"))
    # Read in one script: the page redraws the timeline as the hub's updates come, and an
    # element found before a redraw is stale after it.
    marked = browser.execute_script(
        "return [...document.querySelectorAll('#timeline tr.marked')]"
        ".map(r => [r.dataset.index, r.textContent]);")
    assert {index for index, _ in marked} >= {"4", "6"}
    assert "16B" in marked[0][1]
    assert browser.find_element("id", "attach").is_displayed()
    wait(browser, lambda d: d.find_elements("css selector", "#slow tr.over"))
    SHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SHOTS / "tempo.png"))
    browser.get(base + f"/tempo?table=A1&board={A1_KEPT}")
    wait(browser, lambda d: d.find_elements("css selector", "body[data-ready='timeline']"))
    stop = browser.find_elements("css selector", "#timeline .bar-stop")
    assert len(stop) == 1 and "STOP" in browser.find_element("id", "timeline").text
    # In French: the calls and cards as French players write them, the source in words.
    browser.execute_async_script(
        "const done = arguments[0]; tenaceI18n.choose('fr').then(() => done(true));")
    wait(browser, lambda d: "touche de tablette" in d.find_element("id", "timeline").text)
    timeline = browser.find_element("id", "timeline").text
    assert "Passe" in timeline and "tap" not in timeline.split()
    # In the pseudo-locale every text of the timeline and the slow-play panel is the
    # catalog's (tests/hub/test_console_pseudo_browser.py): the STOP card too.
    browser.execute_async_script(
        "const done = arguments[0]; tenaceI18n.choose('en_XA').then(() => done(true));")
    wait(browser, lambda d: "[ŠŢÖÞ]" in d.find_element("id", "timeline").text)
    wait(browser, lambda d: d.find_elements("css selector", "#slow tr"))
    languages = set(browser.execute_script(
        "return [...document.querySelectorAll('#lang option')].map(o => o.textContent)"))
    left = untranslated(browser, languages | {"dora"})
    assert left == [], "\n".join(f"{text!r} at {where}" for text, where in left)
    browser.save_screenshot(str(SHOTS / "tempo-pseudo.png"))


# The log read without a hub ---------------------------------------------------------------------

def logged(events: list[tuple[str, str, dict[str, Any], float | None]]) -> list[StoredRecord]:
    """Device records of table A1 as the log keeps them: (type, device, body, device time)."""
    return [StoredRecord(f"e{i}", "device", kind, json.dumps({"body": body}), START + 1000 + i,
                         "A1", device, i, at, position=i + 1)
            for i, (kind, device, body, at) in enumerate(events)]


def test_law_25a_undo_drops_the_call_and_those_after_it() -> None:
    """25A: North takes back 1H before South calls: 1H and East's pass are gone, North's 1S
    is timed from the action before (the board's start)."""
    records = logged([
        ("board", "A1-tab", {"board": 1}, START),
        ("call", "A1-tab", {"seat": "N", "call": "1H"}, START + 5),
        ("call", "A1-tab", {"seat": "E", "call": "Pass"}, START + 7),
        ("undo", "A1-tab", {"seat": "N"}, START + 8),
        ("call", "A1-tab", {"seat": "N", "call": "1S"}, START + 10),
    ])
    (board,) = boards_from_log(records)
    assert [(a.seat, a.item, a.at) for a in board.actions] == [(Seat.NORTH, "1S", START + 10)]


def test_cards_reported_twice_or_faced_in_the_auction_and_missing_device_times() -> None:
    """A card faced during the auction (24) is no play; a card the reader and the tablet
    both report counts once; an event without a device time takes the hub's (±1 s)."""
    passes = [("call", "A1-tab", {"seat": s, "call": c}, START + 10 + i)
              for i, (s, c) in enumerate([("E", "Pass"), ("S", "Pass"), ("W", "Pass")])]
    records = logged([
        ("board", "A1-tab", {"board": 1}, START),
        ("call", "A1-tab", {"seat": "N", "call": "1NT"}, START + 5),
        ("card", "A1-rdr", {"seat": "E", "card": "S2", "source": "reader"}, START + 6),
        *passes,
        ("card", "A1-rdr", {"seat": "E", "card": "S2", "source": "reader"}, START + 20),
        ("card", "A1-tab", {"seat": "E", "card": "S2"}, START + 21),
        ("card", "A1-rdr", {"seat": "S", "card": "ZZ", "source": "reader"}, START + 22),
        ("card", "A1-tab", {"seat": "S", "card": "S3"}, None),
    ])
    (board,) = boards_from_log(records)
    cards = [a for a in board.actions if a.kind == "card"]
    assert [(a.item, a.source) for a in cards] == [("S2", Source.TAG), ("S3", Source.HUB)]
    assert cards[0].at == START + 20 and cards[1].at == records[-1].hub_time
    assert boards_from_log(records, upto=3)[0].actions[-1].item == "1NT"
