"""Sessions that add up, in the hub (hub.series): a two-session pairs played through the
simulator on the live hub, the hub stopped after the first session and started again on the
same data directory with the second (``tenace hub --event FILE --next-session``), the event
ranked on its total as the second is played, the pairs matched by their players (their
numbers change from one session to the next), and the event's files.

The total is checked against figures worked from the two sessions' own rankings: a pair's
event percentage is ``(p1·b1 + p2·b2) / (b1 + b2)``, its percentages p1, p2 over the b1, b2
boards it played in each (the EBU's and the ACBL's programs add sessions up by matchpoints
over matchpoints available, which this is when every board has the same top).
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bridgecore.usebio import read_usebio
from hub.event import EventSetup
from hub.mosquitto import Mosquitto
from hub.series import SESSION_SCORED, identity
from tenace.cli import main
from tenace.live import running_hub
from tests.conftest import Keyring
from tests.hub.test_console import (  # noqa: F401 - the browser fixture
    Login,
    browser,
    make_users,
    wait,
)
from tests.hub.test_console_session import fetch
from tests.hub.test_results_pages import SHOTS

PLAYERS = {1: ["Ada North", "Ben Oakes"], 2: ["Cleo Park", "Dan Quill"],
           3: ["Eve Rowan", "Finn Stone"], 4: ["Gus Thorn", "Hal Upton"],
           5: ["Ida Vale", "Jon Wells"], 6: ["Kay Yates", "Lou Zeal"]}
# The second evening seats the same pairs under other numbers, each in its direction.
RENUMBERED = {1: 2, 2: 3, 3: 1, 4: 6, 5: 4, 6: 5}


def write_event(path: Path, part: int, seed: str, pairs: dict[int, list[str]],
                carry: float | None = None) -> Path:
    lines = ["[event]", 'name = "Autumn two evenings"', f'session = "Evening {part}"',
             f'date = "2026-11-0{part + 1}"', f"part = {part}",
             *([f"carry = {carry}"] if carry is not None else []),
             "[boards]", "generate = true", f'seed = "{seed}"',
             "[[section]]", 'name = "A"', 'movement = "mitchell"', "tables = 3",
             "boards_per_round = 2", "rounds = 2", "[section.pairs]",
             *(f"{n} = {json.dumps(names)}" for n, names in sorted(pairs.items()))]
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture
def mosquitto(tmp_path: Path, keyring: Keyring) -> Iterator[Mosquitto]:
    with Mosquitto(tmp_path / "mosquitto", accounts=keyring.accounts) as broker:
        yield broker


def _ranking(hub: Any) -> list[dict[str, Any]]:
    return hub.call(lambda: hub.room.scoring.section("A").ranking())  # type: ignore[no-any-return]


def _travellers(hub: Any) -> set[tuple[int, int, int, int]]:
    """Section A's results as the hub scored them: (board, NS, EW, score)."""
    lines = hub.call(lambda: hub.room.scoring.section("A").lines)
    return {(board, r["NS"], r["EW"], r["score_ns"]) for board, rows in lines.items()
            for r in rows if not r["not_scored"]}


def test_a_two_session_pairs_adds_up_across_a_hub_restart(
        tmp_path: Path, mosquitto: Mosquitto, keyring: Keyring,
        capsys: pytest.CaptureFixture[str], browser: Any) -> None:  # noqa: F811
    data = tmp_path / "data"
    first_file = write_event(tmp_path / "evening1.toml", 1, "01" * 20, PLAYERS)
    second_file = write_event(tmp_path / "evening2.toml", 2, "02" * 20,
                              {RENUMBERED[n]: names for n, names in PLAYERS.items()})
    users = make_users(tmp_path / "users")
    with running_hub(mosquitto.url, str(data), EventSetup.load(first_file)) as (hub, url):
        assert main(["sim", "--json", "--hub", url, "--event", str(first_file),
                     "--seed", "3"]) == 0
        assert json.loads(capsys.readouterr().out)["results_equal"] is True
        first = {identity(e["names"]): e for e in _ranking(hub)}
        boards = [_travellers(hub)]
    assert len(first) == 6 and all(e["boards"] == 4 for e in first.values())
    # the hub stopped; started again on the same data directory with the next session
    with running_hub(mosquitto.url, str(data), None, console=("127.0.0.1", 0),
                     console_users=users, next_session=EventSetup.load(second_file)
                     ) as (hub, url):
        stored = hub.call(lambda: hub.series.sessions())
        assert [(s.name, s.part, s.session) for s in stored] == [
            ("Autumn two evenings", 1, "Evening 1")]
        console = hub.call(lambda: hub.console)
        director = Login.director(console)
        status, _, body = fetch(console.url + "api/results/event", director)
        before = json.loads(body)
        assert status == 200 and before["event"] is True and before["form"] == "add"
        # before the second evening's first result: the first evening alone
        assert {identity(e["names"]): e["percent"] for e in before["ranking"]} == {
            k: e["percent"] for k, e in first.items()}
        assert main(["sim", "--json", "--hub", url, "--event", str(second_file),
                     "--seed", "4"]) == 0
        assert json.loads(capsys.readouterr().out)["results_equal"] is True
        second = {identity(e["names"]): e for e in _ranking(hub)}
        boards.append(_travellers(hub))
        status, _, body = fetch(console.url + "api/results/event", director)
        total = json.loads(body)
        status_pbn, _, pbn = fetch(console.url + "api/evening/event/event.pbn", director)
        status_xml, _, xml = fetch(console.url + "api/evening/event/event-usebio.xml",
                                   director)
        public_status, _, public_body = fetch(console.url + "api/results/event")
        # the public page of the event's total, in a browser
        browser.get(console.url + "results/event")

        def page(d: Any) -> tuple[list[list[str]], str, list[list[str]]] | None:
            if not d.find_elements("id", "event-EW"):
                return None        # a redrawn element is found again (wait: stale ignored)
            return ([[c.text for c in row.find_elements("tag name", "td")]
                     for row in d.find_elements("css selector", "#event-NS tbody tr")],
                    d.find_element("id", "event-title").text,
                    [[c.text for c in d.find_elements("css selector", f"#event-{side} th")]
                     for side in ("NS", "EW")])

        shown, title, heads = wait(browser, page)
        SHOTS.mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(SHOTS / "event-total.png"))
    assert status == 200 and total["sessions"][1]["live"] is True
    # matched by players: session 1's pair 1 is session 2's pair 2, and so on
    assert {e["pair"]: identity(e["names"]) for e in second.values()} == {
        RENUMBERED[n]: identity(names) for n, names in PLAYERS.items()}
    by_players = {identity(e["names"]): e for e in total["ranking"]}
    assert set(by_players) == set(first)
    for key, entry in by_players.items():
        p1, b1 = first[key]["percent"], first[key]["boards"]
        p2, b2 = second[key]["percent"], second[key]["boards"]
        assert entry["percent"] == pytest.approx((p1 * b1 + p2 * b2) / (b1 + b2), abs=0.011)
        assert entry["sessions"] == [pytest.approx(p1, abs=0.006), pytest.approx(p2, abs=0.006)]
        assert entry["boards"] == 8 and entry["direction"] == first[key]["direction"]
        assert entry["pair"] == second[key]["pair"]     # tonight's number, for the room
    for direction in ("NS", "EW"):   # ranked in each direction by the total
        field = [e for e in total["ranking"] if e["direction"] == direction]
        assert [e["percent"] for e in field] == sorted((e["percent"] for e in field),
                                                       reverse=True)
        assert field[0]["rank"] == 1
    # the files: the results site's PBN and USEBIO with the event's total and both sessions
    assert status_pbn == 200 and status_xml == 200
    top = next(e for e in total["ranking"] if e["direction"] == "NS" and e["rank"] == 1)
    assert f'{top["percent"]:.2f}'.encode() in pbn and b"Percentage_2" in pbn
    root = ET.fromstring(xml.split(b"\n", 2)[2])
    event = root.find("EVENT")
    assert event is not None and event.findtext("SESSION_COUNT") == "2"
    assert [s.get("SESSION_ID") for s in event.findall("SESSION")] == ["1", "2"]
    # every session's boards, the first stored in the log across the restart: its
    # travellers as the hub scored them (an XML parse, and bridgecore's USEBIO reader)
    for session, hubs in zip(event.findall("SESSION"), boards, strict=True):
        lines = {(int(b.findtext("BOARD_NUMBER") or 0), int(x.findtext("NS_PAIR_NUMBER") or 0),
                  int(x.findtext("EW_PAIR_NUMBER") or 0), int(x.findtext("SCORE") or 0))
                 for b in session.iter("BOARD") for x in b.iter("TRAVELLER_LINE")}
        assert len(hubs) == 12 and lines == hubs     # 3 tables, 2 rounds of 2 boards
        assert all(x.findtext("NS_MATCH_POINTS") for x in session.iter("TRAVELLER_LINE"))
    read = read_usebio(xml)
    assert [str(p) for p in read.problems] == []
    assert {(r.result.board, r.result.ns, r.result.ew, r.result.score_ns)
            for r in read.rows} == boards[0] | boards[1]
    totals = event.find("PARTICIPANTS")
    assert totals is not None and len(totals.findall("PAIR")) == 6
    assert public_status == 200 and json.loads(public_body)["event"] is True
    assert title == "Autumn two evenings: the event's total"
    assert heads[0] == heads[1] == ["Rank", "Pair (this session)", "Players", "Session 1",
                                    "Session 2 (current)", "Boards", "Total"]
    north_south = [e for e in total["ranking"] if e["direction"] == "NS"]
    assert [row[-1] for row in shown] == [f'{e["percent"]:.2f}%' for e in north_south]
    assert [row[2] for row in shown] == [" – ".join(e["names"]) for e in north_south]
    assert [row[3:5] for row in shown] == [[f"{p:.2f}%" for p in e["sessions"]]
                                           for e in north_south]


def test_the_next_session_from_the_command_line_and_its_restart(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--next-session`` starts the file's session once: the same command again (a hub
    restarted during that session) goes on with it. A session replaced before any result
    stores nothing (its log has no ``session_scored``); without ``--event`` it is refused."""
    from hub.store import LOG_NAME, EventLog
    data = str(tmp_path / "data")
    first = EventSetup.load(write_event(tmp_path / "a.toml", 1, "01" * 20, PLAYERS))
    second = EventSetup.load(write_event(tmp_path / "b.toml", 2, "02" * 20, PLAYERS))
    with running_hub(None, data, first):
        pass
    for _ in range(2):
        with running_hub(None, data, None, next_session=second) as (hub, _):
            assert hub.call(lambda: (hub.setup.part, hub.setup.session)) == (2, "Evening 2")
            assert hub.call(lambda: hub.series.sessions()) == []
    with EventLog.open(tmp_path / "data" / LOG_NAME) as log:
        assert log.of_type(SESSION_SCORED) == []
        assert [r.data()["setup"]["event"]["part"] for r in log.of_type("setup_replaced")] \
            == [2]
    assert main(["hub", "--data", data, "--next-session", "--console", "off"]) == 2
    assert "--next-session: give the next session's set-up with --event FILE" in \
        capsys.readouterr().err


def test_tenace_hub_next_session_on_the_same_data_directory(tmp_path: Path) -> None:
    """The command a director types: ``tenace hub --event evening1.toml`` one evening,
    ``tenace hub --event evening2.toml --next-session`` the next, on the same data
    directory; the log holds both sessions' set-ups, the second the one the hub runs."""
    import subprocess
    import sys

    from hub.store import LOG_NAME, EventLog
    data = tmp_path / "data"
    first = write_event(tmp_path / "evening1.toml", 1, "01" * 20, PLAYERS)
    second = write_event(tmp_path / "evening2.toml", 2, "02" * 20, PLAYERS)
    outputs = []
    for event, more in ((first, []), (second, ["--next-session"])):
        process = subprocess.Popen(
            [sys.executable, "-m", "tenace", "hub", "--listen", "127.0.0.1:0", "--console",
             "off", "--data", str(data), "--no-double-dummy", "--event", str(event), *more],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            assert process.stdout is not None
            lines = []
            for line in process.stdout:
                lines.append(line)
                if line.startswith("hub ready"):
                    break
            outputs.append("".join(lines))
        finally:
            process.terminate()
            process.communicate(timeout=30)
    assert "Autumn two evenings, Evening 1" in outputs[0]
    assert "Autumn two evenings, Evening 2" in outputs[1] and "hub ready" in outputs[1]
    with EventLog.open(data / LOG_NAME) as log:
        replaced = [r.data()["setup"]["event"] for r in log.of_type("setup_replaced")]
    assert [(e["session"], e["part"]) for e in replaced] == [("Evening 2", 2)]
