"""The director's evening as the console shows it (issue 25, "the console's evening"): the
round clock follows the tables and the header says what the room is doing, the start button
does what it says in one click, a table's panel shows the live auction and play, every
message in a director's words. Chromium tests look at the pages; their screenshots go to a
temporary folder, or to docs/screenshots/ with TENACE_SCREENSHOTS=docs/screenshots.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bridgecore.cards import Seat
from hub.console import Console
from hub.console_i18n import CATALOGS
from hub.console_views import rounds
from hub.room import Room, Section
from tenace.sim.devices import envelopes
from tests.hub.test_console import (  # noqa: F401 - the browser fixture
    Login,
    Loop,
    browser,
    browser_login,
    make_users,
    wait,
)
from tests.hub.test_console_session import DEALS, MOVEMENT, SHOTS, EveningHub, fetch
from tests.hub.test_live_scoring import Session, board_script
from tests.hub.test_pairing import make_pairing
from wire.catalogs import card_text


def play(session: Session, plays: list[tuple[int, str, int, str, int | None]]) -> None:
    """The tables play, the director never starting a round."""
    for round_, table, board, contract, tricks in plays:
        session.now += 60
        events = board_script(session.room, table, round_, board, contract, tricks,
                              session.now)
        for tid, env in envelopes(events, devices=session.devices):
            out = session.room.apply(tid, env, env.time)
            assert out.reply.status == "ack", out.reply


def round_boards(round_: int, tables: range) -> list[tuple[int, str, int, str, int | None]]:
    out = []
    for table in tables:
        a = MOVEMENT.assignment(round_, table)
        assert a is not None
        out += [(round_, f"A{table}", b, "1NT", 7) for b in a.boards]
    return out


def test_the_round_clock_follows_the_tables() -> None:
    """Nobody presses "start round": the first table to start a board of round 1 starts
    it, the first of round 2 starts round 2 (at that board's time), and what the room is
    doing is read from the tables: rounds in play, the last round every table finished,
    how many tables are behind the clock's round."""
    session = Session(Room(Section("A", MOVEMENT), DEALS))
    room = session.room
    assert (room.clock.round, room.clock.started) == (0, None)
    assert rounds(room) == {"in_play": [], "finished": 0, "behind": 0}
    play(session, round_boards(1, range(1, 7))[:1])
    first = room.clock.started
    assert room.clock.round == 1 and first is not None and abs(first - session.now) < 60
    assert rounds(room) == {"in_play": [1], "finished": 0, "behind": 6}
    play(session, round_boards(1, range(1, 7))[1:])
    assert rounds(room) == {"in_play": [], "finished": 1, "behind": 0}
    assert room.clock.started == first                  # the same round: the same clock
    play(session, round_boards(2, range(1, 4)) + round_boards(3, range(1, 2))[:1])
    assert room.clock.round == 3 and room.clock.started is not None \
        and room.clock.started > first
    # A1 plays round 3, A2 and A3 have finished round 2, A4 to A6 have not begun it.
    assert rounds(room) == {"in_play": [3], "finished": 1, "behind": 6}
    play(session, round_boards(2, range(4, 5))[:1])
    assert rounds(room)["in_play"] == [2, 3]
    # the clock paused by the director: a round reached meanwhile counts from the resume
    assert session.director({"op": "round_pause", "paused": True})["ok"]
    play(session, round_boards(3, range(1, 2))[1:] + round_boards(4, range(1, 2))[:1])
    session.now += 300
    assert room.clock.round == 4
    assert session.director({"op": "round_pause", "paused": False})["ok"]
    assert room.clock.started == session.now and room.clock.deadline == session.now + 900
    assert (room.snapshot()["round"], room.snapshot()["round_started"]) == (4, session.now)


@pytest.fixture
def evening(tmp_path: Path) -> Iterator[tuple[Loop, EveningHub, Console]]:
    loop = Loop()
    session = Session(Room(Section("A", MOVEMENT), DEALS))
    loop.call(play, session, round_boards(1, range(1, 7)) + round_boards(2, range(1, 4))
              + round_boards(3, range(1, 2))[:1] + round_boards(2, range(4, 5))[:1])
    hub = EveningHub(session)
    console = Console(hub, coalesce=0.05, users=make_users(tmp_path / "users"),
                      pairing=make_pairing(tmp_path))
    loop.run(console.start())
    Login.director(console)
    try:
        yield loop, hub, console
    finally:
        loop.run(console.stop())
        loop.close()


def test_browser_the_header_says_what_the_room_is_doing(browser: Any,  # noqa: F811
                                                        evening: Any) -> None:
    """"Rounds 2-3 in play; round 1 finished" while the clock is at round 3; "Start round 4"
    asks first (tables behind), a "no" changes nothing and the button still says round 4
    (never a silent revert); a "yes" starts it in one click."""
    loop, hub, console = evening
    browser_login(browser, console)
    browser.get(console.url)
    wait(browser, lambda d: "in play" in d.find_element("id", "clock-round").text)
    assert browser.find_element("id", "clock-round").text \
        == "Rounds 2-3 in play; round 1 finished"
    assert browser.find_element("id", "clock-which").text == "clock of round 3"
    button = browser.find_element("id", "round-start")
    assert button.text == "Start round 4"
    SHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SHOTS / "console-rounds.png"))
    button.click()
    alert = browser.switch_to.alert
    assert "have not finished round 3" in alert.text and "start round 4" in alert.text
    alert.dismiss()
    assert button.text == "Start round 4" and loop.call(lambda: hub.room.clock.round) == 3
    button.click()
    browser.switch_to.alert.accept()
    wait(browser, lambda d: loop.call(lambda: hub.room.clock.round) == 4)
    assert hub.session.facts[-1][:2] == ("round_start", {"round": 4, "by": "dora"})
    loop.call(console.clock_changed)           # as the hub does after a round_start
    wait(browser, lambda d: d.find_element("id", "round-start").text == "Start round 5")


def test_browser_the_last_round_offers_no_round_after_it(browser: Any,  # noqa: F811
                                                         evening: Any) -> None:
    """Once the movement's last round is the clock's, the button offers no round beyond the
    movement (issue 25's walk-through: "Start round 10" on a 9-round Mitchell, refused when
    clicked); it says the round is the last and cannot be clicked. ``GET /api/room``'s clock
    says the last round."""
    loop, hub, console = evening
    last = MOVEMENT.rounds
    room = json.loads(fetch(console.url + "api/room", Login.of_port[console.port])[2])
    assert room["clock"]["last"] == last
    assert loop.call(hub.director, {"op": "round_start", "round": last})["ok"]
    loop.call(console.clock_changed)
    browser_login(browser, console)
    browser.get(console.url)
    wait(browser, lambda d: d.find_element("id", "round-start").text
         == f"Round {last} is the last")
    assert not browser.find_element("id", "round-start").is_enabled()


def test_browser_a_session_played_out_shows_no_countdown(browser: Any,  # noqa: F811
                                                         tmp_path: Path) -> None:
    """Every table has finished the last round: the header says so ("Round 6 finished") and
    the clock counts down no more (issue 25's walk-through: "Round 9 finished, clock of
    round 9, 18:41", the minutes of a round nobody plays)."""
    loop = Loop()
    session = Session(Room(Section("A", MOVEMENT), DEALS))
    loop.call(play, session, [p for r in range(1, MOVEMENT.rounds + 1)
                              for p in round_boards(r, range(1, 7))])
    console = Console(EveningHub(session), coalesce=0.05, users=make_users(tmp_path))
    loop.run(console.start())
    try:
        browser_login(browser, console)
        browser.get(console.url)
        wait(browser, lambda d: d.find_element("id", "clock-round").text
             == f"Round {MOVEMENT.rounds} finished")
        assert browser.find_element("id", "clock-left").text == "–"
        assert browser.find_element("id", "clock-which").text == ""
        assert "over" not in (browser.find_element("id", "clock").get_attribute("class") or "")
    finally:
        loop.run(console.stop())
        loop.close()


def test_browser_the_hubs_refusal_counters_are_words(browser: Any,  # noqa: F811
                                                    evening: Any) -> None:
    """The header's counters name each refusal in words: never a message's unfilled fields
    ("unknown director command '{op}' (one of {commands}) 1", as the walk-through read) nor
    a code ("no_account 2")."""
    _, hub, console = evening
    hub.status = lambda: {"online": True, "counters": {
        "accepted": 5, "duplicates": 0, "queue": 0, "devices": 4, "gaps": 0,
        "refused": {"unknown_command": 1, "no_account": 2, "director_command": 3,
                    "out_of_order": 4}}}
    try:
        browser_login(browser, console)
        browser.get(console.url)
        wait(browser, lambda d: "refused" in d.find_element("id", "hub-counters").text)
        line = browser.find_element("id", "hub-counters").text
        assert ("refused unknown command 1, no account 2, director's commands 3, "
                "out of order 4") in line
        assert "{" not in line and "_" not in line
    finally:
        del hub.status


# Every message in words ---------------------------------------------------------------------

INTERNALS = re.compile(r"\{'|'\w+': |\bNone\b|_add:|_names:|_withdraw:|Done\. |Seat\.|"
                       r"<\w+ object|\w+\(\w+=")


def _texts(alert: dict[str, Any]) -> list[str]:
    """What the console shows a director of an alert: its detail, the Laws' options, the
    facts' own sentences."""
    facts = alert.get("facts") or {}
    return [alert["detail"], *(o["text"] for o in alert.get("options") or []),
            *(str(facts[k]) for k in ("detail", "resolution") if facts.get(k))]


def test_an_evening_with_irregularities_speaks_to_the_director_in_words(tmp_path: Path
                                                                         ) -> None:
    """Issue 25: "W does not agree with the result {'contract': '2NT', ...}". A simulated
    evening with every irregularity the simulator injects, a result disagreed among them;
    every alert the console serves (the overview and each alert in full) is scanned for
    Python's internals: a dict or a repr, None, a command's name, "Done. op"."""
    import random

    from bridgecore.bigdeal import random_deal
    from bridgecore.movements import mitchell
    from tenace.sim.script import INJECTABLE
    from tenace.sim.session import run_local, simulate

    movement = mitchell(7, boards_per_round=3)
    deals = {b: random_deal(random.Random(b)) for b in movement.boards}
    script = simulate(Section("A", movement), deals, seed=3,
                      inject={k: 0.05 for k in INJECTABLE})
    room = Room(Section("A", movement), deals)
    run_local(room, script, director=True)
    kinds = {a.kind for a in room.alerts}
    assert "result_disagrees" in kinds and len(kinds) >= 10
    loop = Loop()
    hub = EveningHub(Session(room))
    console = Console(hub, coalesce=0.05, users=make_users(tmp_path / "users"))
    loop.run(console.start())
    try:
        Login.director(console)
        from tests.hub.test_results_pages import get
        status, _, overview = get(console.url + "api/room")
        assert status == 200 and overview["alerts"]
        texts = [a["detail"] for a in overview["alerts"]]
        for summary in overview["alerts"]:
            status, _, alert = get(console.url + "api/alert/" + summary["id"])
            assert status == 200
            texts += _texts(alert)
        bad = [t for t in texts if INTERNALS.search(t)]
        assert bad == []
        disagrees = [t for t in texts if "does not agree with the result" in t]
        assert disagrees and all(re.search(r"^(North|East|South|West) does not agree with the "
                                           r"result, (passed out|\d(C|D|H|S|NT|♣|♦|♥|♠)X{0,2} by "
                                           r"(North|East|South|West), \d+ tricks \(NS [+-]\d+\))",
                                           t) for t in disagrees), disagrees
    finally:
        loop.run(console.stop())
        loop.close()


# The room screen by direction ---------------------------------------------------------------

def test_browser_the_room_screen_by_direction_with_ties(browser: Any,  # noqa: F811
                                                        tmp_path: Path) -> None:
    """Issue 25: the screen mixed North-South and East-West in one list with two "1"s and no
    "=" for ties. A Mitchell's screen shows its NS list, then its EW list, each ranked on
    its own, a shared rank "2=" on each pair that shares it."""
    from tests.hub.test_console_session import make_session

    session = make_session()
    session.play([(2, "A6", 1, "4S", 11), (2, "A6", 2, "3NT", 9), (2, "A1", 3, "2H", 8)])
    loop = Loop()
    hub = EveningHub(session)
    # The screen is public: it ranks only the boards every table has finished (Law 16) unless
    # the director shows every result so far, as here, where boards are still in play.
    assert hub.director({"op": "public_results", "ranking": True, "names": True,
                         "boards": True, "live_ranking": "all"})["ok"]
    console = Console(hub, coalesce=0.05, users=make_users(tmp_path / "users"))
    loop.run(console.start())
    try:
        ranking = loop.call(lambda: session.room.scoring.section("A").ranking())
        expected = {}
        for direction in ("NS", "EW"):
            rows = [e for e in ranking if e["direction"] == direction]
            ranks = [e["rank"] for e in rows]
            expected[direction] = [(str(e["pair"]), f"{e['rank']}"
                                    + ("=" if ranks.count(e["rank"]) > 1 else ""))
                                   for e in rows]
        # hand-checked: NS 6 alone first, 2 and 3 share second, 1 fourth; EW 7 first, three
        # pairs share second
        assert expected["NS"] == [("6", "1"), ("2", "2="), ("3", "2="), ("1", "4")]
        assert [r for _, r in expected["EW"]] == ["1", "2=", "2=", "2=", "5"]
        browser.get(console.url + "screen?every=2&rows=20")
        seen = {}
        subtitles = {}
        for _ in range(2):
            wait(browser, lambda d: (d.find_elements("css selector", "#body table")
                                     and d.find_element("css selector", "#body table")
                                     .get_attribute("data-direction") not in seen), 15)
            table = browser.find_element("css selector", "#body table")
            direction = table.get_attribute("data-direction")
            seen[direction] = [(tr.get_attribute("data-pair"),
                                tr.find_element("css selector", ".rank").text)
                               for tr in table.find_elements("css selector", "tr")]
            subtitles[direction] = browser.find_element("id", "sub").text
            SHOTS.mkdir(parents=True, exist_ok=True)
            browser.save_screenshot(str(SHOTS / f"console-screen-{direction}.png"))
        assert seen == expected
        assert subtitles == {"NS": "Section A · North-South", "EW": "Section A · East-West"}
    finally:
        loop.run(console.stop())
        loop.close()


# A table's board live -----------------------------------------------------------------------

def _event(session: Session, type: str, **body: Any) -> None:
    """A1's tablet sends one event (the hub's own path: Room.apply)."""
    from tenace.sim.devices import DeviceEvent

    session.now += 1
    (item,) = envelopes([DeviceEvent("A1", "A1-tab", type, body, session.now)],
                        devices=session.devices)
    out = session.room.apply(*item, session.now)
    assert out.reply.status == "ack", out.reply


def test_browser_a_tables_panel_follows_the_auction_and_the_play(
        browser: Any, tmp_path: Path) -> None:  # noqa: F811
    """Issue 25: a table's panel showed a summary. Opened on A1, it shows the auction as it
    is bid (an alerted call with its explanation), whose turn, then each trick as it is
    played with its leader and winner, live from the feed's table events."""
    session = Session(Room(Section("A", MOVEMENT), DEALS))
    room = session.room
    loop = Loop()
    hub = EveningHub(session)
    console = Console(hub, coalesce=0.05, users=make_users(tmp_path / "users"))
    loop.run(console.start())

    def send(type: str, **body: Any) -> None:
        loop.call(_event, session, type, **body)
        loop.call(console.table_changed, "A1")        # as the hub does after each event

    try:
        Login.director(console)
        a = MOVEMENT.assignment(1, 1)
        assert a is not None
        send("checkin", direction="NS", pair=a.ns)
        send("checkin", direction="EW", pair=a.ew)
        send("board", board=1)
        browser_login(browser, console)
        browser.get(console.url)
        wait(browser, lambda d: d.find_elements("id", "tile-A1"))
        browser.find_element("id", "tile-A1").click()
        dealer = room.markings(1).dealer
        wait(browser, lambda d: d.find_element("id", "live-turn").text
             == f"{dealer.name.title()} to call")
        seat = dealer
        for call, extra in (("1NT", {}), ("2C", {"alert": True, "explanation": "both majors"}),
                            ("Pass", {}), ("2H", {}), ("Pass", {}), ("Pass", {}),
                            ("Pass", {})):
            send("call", seat=seat.letter, call=call, **extra)
            seat = seat.lho
        wait(browser, lambda d: len(d.find_elements(
            "css selector", "#live-auction td[data-index]")) == 7)
        alerted = browser.find_element("css selector", "#live-auction td[data-index='2']")
        assert "!" in alerted.text and "both majors" in alerted.text
        assert "both majors" in alerted.get_attribute("title")
        play = loop.call(lambda: room.tables["A1"].sitting.board.play)  # type: ignore
        declarer = play.declarer
        assert "2♥" in browser.find_element("id", "live-table").text
        # five cards: the first trick, then the lead to the second
        for _ in range(5):
            seat, card = loop.call(lambda: (play.turn, play.legal_cards[0]))
            send("card", seat=seat.letter, card=str(card))
        first = loop.call(lambda: play.tricks[0])
        wait(browser, lambda d: len(d.find_elements("css selector", "#live-tricks tbody tr"))
             == 2)
        row = browser.find_element("css selector", "#live-tricks tr[data-trick='1']")
        cells = row.find_elements("css selector", "td")[1:]
        # written as the Python side writes them (wire.catalogs.card_text: ♠K, ♥10)
        english = CATALOGS.translation("en").gettext
        assert [c.text for c in cells] == [
            card_text(str(first.card_of(s)), english)
            for s in (Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST)]
        order = ["N", "E", "S", "W"]
        assert "lead" in cells[order.index(first.leader.letter)].get_attribute("class")
        assert "win" in cells[order.index(first.winner.letter)].get_attribute("class")
        turn = loop.call(lambda: play.turn)
        assert browser.find_element("id", "live-turn").text == f"{turn.name.title()} to play"
        assert declarer.letter in "NESW"
        SHOTS.mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(SHOTS / "console-table-live.png"))
        # an API for the director alone
        from tests.hub.test_results_pages import get
        assert get(console.url + "api/table/A1")[0] == 200
        assert get(console.url + "api/table/Z9")[0] == 404
        viewer = Login(console)
        assert viewer.login("vic")[0] == 200
        assert fetch(console.url + "api/table/A1", viewer)[0] == 403
    finally:
        loop.run(console.stop())
        loop.close()


def test_browser_the_device_check_says_good_news_as_good(browser: Any,  # noqa: F811
                                                          tmp_path: Path) -> None:
    """Every device the room has seen is online (no pairing on this hub): the check's
    summary says so in words, in green, not as a count in an error's colour."""
    session = Session(Room(Section("A", MOVEMENT), DEALS))
    play(session, round_boards(1, range(1, 7)))
    loop = Loop()
    console = Console(EveningHub(session), coalesce=0.05,
                      users=make_users(tmp_path / "users"))
    loop.run(console.start())
    try:
        Login.director(console)
        browser_login(browser, console)
        browser.get(console.url + "check")
        wait(browser, lambda d: d.find_element("id", "summary").text)
        summary = browser.find_element("id", "summary")
        assert summary.text == "✓ Every device is paired and online."
        assert summary.get_attribute("class") == "ok"
    finally:
        loop.run(console.stop())
        loop.close()
