"""Sessions that add up (hub.series, bridgecore.ladder, bridgecore.sessions), against figures
worked by hand: a final with its carry-over, and a club's ladder over three stored evenings
read by the hub from its own log and served by its console.

The carry-over: a qualifying of two sessions then a final with half the qualifying margin
over 50% carried over (the "share of the margin" form: ``final% + c·(q − 50)``):

=====  ================  ================  =====================  ===========  ==============
pair   qualifying 1      qualifying 2      q (by boards)          final        event
=====  ================  ================  =====================  ===========  ==============
A      60% over 24       50% over 26       (1440+1300)/50 = 54.8  50% over 26  50 + 2.4 = 52.4
B      55% over 24       55% over 26       55.0                   52%          52 + 2.5 = 54.5
C      45% over 24       47% over 26       (1080+1222)/50 = 46.04 58%          58 − 1.98 = 56.02
D      40% over 24       (absent)          40.0                   (not in it)  —
=====  ================  ================  =====================  ===========  ==============

Ranked C 56.02, B 54.5, A 52.4; D did not reach the final and is not ranked in it.

The ladder: three evenings, partnerships changing (each player credited with his pair's
percentage), Gus playing once:

==========  ===================================================================
2026-09-07  Ada–Ben 60, Cleo–Dan 50, Eve–Finn 40
2026-09-14  Ada–Cleo 55, Ben–Eve 45, Dan–Finn 50
2026-09-21  Ada–Ben 40, Cleo–Eve 65, Gus–Hal 35
==========  ===================================================================

Best 2 of at least 2 evenings: Cleo (55, 65) 60; Ada (60, 55) 57.5; Eve (45, 65) 55; Ben
(60, 45) 52.5; Dan (50, 50) 50; Finn (40, 50) 45; Gus and Hal (one evening) not ranked.
The plain average, no minimum: Cleo 56.67, Ada 51.67, Dan 50 and Eve 50 (3=), Ben 48.33,
Finn 45, Gus and Hal 35 (7=). From 2026-09-10 on: Cleo (55, 65) 60 first, Eve 55, Ada 47.5.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bridgecore.ladder import ladder
from hub.event import EventSetup
from hub.log_records import Record
from hub.series import SESSION_SCORED, SessionBook, event_total
from hub.store import LOG_NAME, EventLog
from tenace.live import running_hub
from tests.hub.test_console import (  # noqa: F401 - the browser fixture
    Login,
    browser,
    make_users,
    wait,
)
from tests.hub.test_console_session import fetch
from tests.hub.test_results_pages import SHOTS

NAMES = {"A": ["Ada North", "Ben Oakes"], "B": ["Cleo Park", "Dan Quill"],
         "C": ["Eve Rowan", "Finn Stone"], "D": ["Gus Thorn", "Hal Upton"]}


def entry(pair: int, names: list[str], percent: float, boards: int,
          direction: str | None = None) -> dict[str, Any]:
    return {"pair": pair, "names": names, "percent": percent, "boards": boards,
            "direction": direction, "rank": 0, "total": 0.0}


def fact(name: str, part: int, date: str, ranking: list[dict[str, Any]],
         session: str = "") -> dict[str, Any]:
    return {"v": 1, "name": name, "session": session, "date": date, "part": part,
            "carry": None, "sections": [{"name": "A", "method": "mp", "ranking": ranking}]}


def store(log: EventLog, *bodies: dict[str, Any]) -> None:
    log.append_many([Record.fact(SESSION_SCORED, body) for body in bodies])


def setup_of(part: int, carry: float | None, name: str = "Club championship",
             carry_form: str = "margin") -> EventSetup:
    quick = EventSetup.quick(tables=2, seed="03" * 20, name=name, session=f"Part {part}")
    return EventSetup(quick.sections, quick.deals, name=name, session=f"Part {part}",
                      part=part, carry=carry, carry_form=carry_form)


def pseudo_page(driver: Any, ready: str, names: set[str]) -> None:
    """The page in the pseudo-locale (tests/hub/test_console_pseudo_browser.py): every text
    but the players' names and the numbers is the catalog's."""
    from tests.hub.test_console_pseudo_browser import pseudo, untranslated
    pseudo(driver)
    wait(driver, lambda d: [e for e in d.find_elements("id", ready) if e.text.startswith("[")])
    languages = {o.text for o in driver.find_elements("css selector", "#lang option")}
    left = untranslated(driver, names | languages)
    assert left == [], "\n".join(f"{text!r} at {where}" for text, where in left)
    driver.save_screenshot(str(SHOTS / f"{ready}-pseudo.png"))
    driver.execute_async_script(    # the browser's next page in English again
        "const done = arguments[0]; tenaceI18n.choose('en').then(() => done(true));")


def test_a_final_carries_half_the_qualifying_margin(tmp_path: Path) -> None:
    with EventLog.open(tmp_path / LOG_NAME) as log:
        store(log, fact("Club championship", 1, "2026-10-05", [
            entry(1, NAMES["A"], 60.0, 24), entry(2, NAMES["B"], 55.0, 24),
            entry(3, NAMES["C"], 45.0, 24), entry(4, NAMES["D"], 40.0, 24)]),
            fact("Another event", 1, "2026-10-06", [entry(1, NAMES["A"], 90.0, 24)]),
            fact("Club championship", 2, "2026-10-12", [
                entry(3, NAMES["A"][::-1], 50.0, 26),   # names in any order: the same pair
                entry(1, NAMES["B"], 55.0, 26), entry(2, NAMES["C"], 47.0, 26)]))
        stored = SessionBook(log).sessions()
    assert [(s.name, s.part) for s in stored] == [
        ("Club championship", 1), ("Another event", 1), ("Club championship", 2)]
    final = [{"name": "A", "method": "mp", "ranking": [
        entry(2, NAMES["A"], 50.0, 26), entry(1, NAMES["B"], 52.0, 26),
        entry(3, NAMES["C"], 58.0, 26)]}]
    total = event_total(setup_of(3, 0.5), final, stored)
    assert total["form"] == "carry" and [s["part"] for s in total["sessions"]] == [1, 2, 3]
    got = {e["names"][0]: e for e in total["ranking"]}
    assert set(got) == {"Ada North", "Cleo Park", "Eve Rowan"}      # D is not in the final
    assert got["Ada North"]["qualifying"] == pytest.approx(54.8)
    assert got["Ada North"]["carry"] == pytest.approx(2.4)
    assert got["Ada North"]["percent"] == pytest.approx(52.4)
    assert got["Cleo Park"]["percent"] == pytest.approx(54.5)
    assert got["Eve Rowan"]["qualifying"] == pytest.approx(46.04)
    assert got["Eve Rowan"]["carry"] == pytest.approx(-1.98)
    assert got["Eve Rowan"]["percent"] == pytest.approx(56.02)
    assert [(e["names"][0], e["rank"]) for e in total["ranking"]] == [
        ("Eve Rowan", 1), ("Cleo Park", 2), ("Ada North", 3)]
    assert got["Ada North"]["sessions"] == [60.0, 50.0, 50.0]
    assert got["Ada North"]["pair"] == 2 and got["Ada North"]["section"] == "A"
    # the linear carry-over by qualifying place (the WBF's form), 3 points to the first:
    # the finalists by q, B 55 first (+3), A 54.8 second (+1.5), C 46.04 last (0)
    by_place = event_total(setup_of(3, 3.0, carry_form="place"), final, stored)
    placed = {e["names"][0]: (e["carry"], e["percent"], e["rank"]) for e in by_place["ranking"]}
    assert placed == {"Cleo Park": (3.0, 55.0, 2), "Ada North": (1.5, 51.5, 3),
                      "Eve Rowan": (0.0, 58.0, 1)}
    assert by_place["carry_form"] == "place"
    # the same sessions added up instead (no carry): every session's boards weigh alike
    added = event_total(setup_of(3, None), final, stored)
    ada = next(e for e in added["ranking"] if e["names"][0] == "Ada North")
    assert ada["percent"] == pytest.approx((60 * 24 + 50 * 26 + 50 * 26) / 76, abs=0.005)
    assert any(e["names"][0] == "Gus Thorn" for e in added["ranking"])  # ranked on part 1
    # a session on its own (no part) is no event
    assert event_total(setup_of(0, None), final, stored) == {"v": 1, "event": False}


EVENINGS = [
    ("2026-09-07", [entry(1, ["Ada North", "Ben Oakes"], 60.0, 24),
                    entry(2, ["Cleo Park", "Dan Quill"], 50.0, 24),
                    entry(3, ["Eve Rowan", "Finn Stone"], 40.0, 24)]),
    ("2026-09-14", [entry(1, ["Ada North", "Cleo Park"], 55.0, 24),
                    entry(2, ["Ben Oakes", "Eve Rowan"], 45.0, 24),
                    entry(3, ["Dan Quill", "Finn Stone"], 50.0, 24)]),
    ("2026-09-21", [entry(1, ["Ada North", "Ben Oakes"], 40.0, 24),
                    entry(2, ["Cleo Park", "Eve Rowan"], 65.0, 24),
                    entry(3, ["Gus Thorn", "Hal Upton"], 35.0, 24)]),
]


def test_the_ladder_by_hand() -> None:
    sessions = [{name: e["percent"] for e in ranking for name in e["names"]}
                for _, ranking in EVENINGS]
    best = ladder(sessions, best=2, minimum=2)
    assert [(e.player, e.percent, e.rank) for e in best] == [
        ("Cleo Park", 60.0, 1), ("Ada North", 57.5, 2), ("Eve Rowan", 55.0, 3),
        ("Ben Oakes", 52.5, 4), ("Dan Quill", 50.0, 5), ("Finn Stone", 45.0, 6),
        ("Gus Thorn", 35.0, None), ("Hal Upton", 35.0, None)]
    assert best[1].counted == (60.0, 55.0) and best[1].sessions == (60.0, 55.0, 40.0)
    average = ladder(sessions)
    assert [(e.player, round(e.percent, 2), e.rank) for e in average] == [
        ("Cleo Park", 56.67, 1), ("Ada North", 51.67, 2), ("Dan Quill", 50.0, 3),
        ("Eve Rowan", 50.0, 3), ("Ben Oakes", 48.33, 5), ("Finn Stone", 45.0, 6),
        ("Gus Thorn", 35.0, 7), ("Hal Upton", 35.0, 7)]
    with pytest.raises(ValueError, match="best 1 or more"):
        ladder(sessions, best=0)
    # a player in two pairs of one session (a substitute in both) counts his better one
    from hub.series import StoredSession
    from hub.series_ladder import ladder_json
    twice = StoredSession(1, "Monday pairs", "", "2026-09-28", 0, None, (
        {"name": "A", "ranking": [entry(1, ["Ada North", "Ben Oakes"], 40.0, 24),
                                  entry(2, ["Ada North", "Cleo Park"], 70.0, 24)]},))
    assert [(e["player"], e["percent"], e["played"]) for e in ladder_json([twice])["ranking"]] \
        == [("Ada North", 70.0, 1), ("Cleo Park", 70.0, 1), ("Ben Oakes", 40.0, 1)]


def test_the_hub_serves_the_ladder_of_its_stored_evenings(
        tmp_path: Path, browser: Any) -> None:  # noqa: F811
    """Three evenings stored in the hub's log (the facts it writes when a session ends),
    the hub started on it: its console's ladder, in each form, as worked by hand."""
    data = tmp_path / "data"
    with running_hub(None, str(data), setup_of(0, None, "Monday pairs")):
        pass
    with EventLog.open(data / LOG_NAME) as log:
        store(log, *(fact("Monday pairs", 0, date, ranking) for date, ranking in EVENINGS))
    users = make_users(tmp_path / "users")
    with running_hub(None, str(data), None, console=("127.0.0.1", 0),
                     console_users=users) as (hub, _):
        console = hub.call(lambda: hub.console)
        director = Login.director(console)

        def get(query: str, login: Login | None = director) -> tuple[int, Any]:
            status, _, body = fetch(console.url + "api/results/ladder" + query, login)
            return status, json.loads(body)

        status, best = get("?best=2&min=2")
        _, average = get("")
        _, season = get("?from=2026-09-10&best=2&min=2")
        public_status, public = get("?best=2&min=2", None)
        bad = [get(q)[0] for q in ("?best=0", "?min=x", "?from=09/10/2026")]
        browser.get(console.url + "results/ladder?best=2&min=2")   # the public page

        def page(d: Any) -> tuple[list[list[str]], str, str] | None:
            if not d.find_elements("id", "ladder-short"):
                return None        # a redrawn element is found again (wait: stale ignored)
            return ([[c.text for c in row.find_elements("tag name", "td")]
                     for row in d.find_elements("css selector", "#ladder tbody tr")],
                    d.find_element("id", "ladder-form").text,
                    d.find_element("id", "ladder-short").text)

        shown, form, short = wait(browser, page)
        chosen = [browser.find_element("id", f"ladder-{k}").get_attribute("value")
                  for k in ("best", "min", "from", "to")]
        # the season chosen on the page: from 2026-09-10, the best 2 of at least 2
        browser.find_element("id", "ladder-from").send_keys("09102026")
        browser.find_element("id", "ladder-show").click()

        def season_page(d: Any) -> list[list[str]] | None:
            if "from=2026-09-10" not in d.current_url:
                return None
            rows = [[c.text for c in row.find_elements("tag name", "td")]
                    for row in d.find_elements("css selector", "#ladder tbody tr")]
            return rows if rows and rows[1][1] == "Eve Rowan" else None

        in_season = wait(browser, season_page)
        SHOTS.mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(SHOTS / "ladder.png"))
        pseudo_page(browser, "ladder-form", {n for pair in NAMES.values() for n in pair})
    assert status == 200 and len(best["sessions"]) == 3
    assert [(e["player"], e["percent"], e["rank"]) for e in best["ranking"]] == [
        ("Cleo Park", 60.0, 1), ("Ada North", 57.5, 2), ("Eve Rowan", 55.0, 3),
        ("Ben Oakes", 52.5, 4), ("Dan Quill", 50.0, 5), ("Finn Stone", 45.0, 6),
        ("Gus Thorn", 35.0, None), ("Hal Upton", 35.0, None)]
    assert [(e["player"], e["percent"], e["rank"]) for e in average["ranking"]][:4] == [
        ("Cleo Park", 56.67, 1), ("Ada North", 51.67, 2), ("Dan Quill", 50.0, 3),
        ("Eve Rowan", 50.0, 3)]
    assert [s["date"] for s in season["sessions"]] == ["2026-09-14", "2026-09-21"]
    assert [(e["player"], e["percent"]) for e in season["ranking"]][:3] == [
        ("Cleo Park", 60.0), ("Eve Rowan", 55.0), ("Ada North", 47.5)]
    assert public_status == 200 and public["ranking"] == best["ranking"]
    assert public["full"] is False and best["full"] is True
    assert bad == [400, 400, 400]
    assert shown[:2] == [["1", "Cleo Park", "3", "2", "60.00%"],
                         ["2", "Ada North", "3", "2", "57.50%"]] and len(shown) == 6
    assert form == ("Average of each player's best 2 sessions; ranked from 2 sessions played"
                    " · Sessions: 3")
    assert short == "Not ranked yet (too few sessions): Gus Thorn, Hal Upton"
    assert chosen == ["2", "2", "", ""]
    assert [row[1:] for row in in_season[:3]] == [["Cleo Park", "2", "2", "60.00%"],
                                                  ["Eve Rowan", "2", "2", "55.00%"],
                                                  ["Ada North", "2", "2", "47.50%"]]


def test_law_16_the_public_total_counts_only_the_boards_finished_everywhere(
        tmp_path: Path) -> None:
    """Round 1 of a 3-table Howell: A1 has finished boards 1 and 2, A3 and A2 play them
    later. The event's public total counts none of them yet (Law 16), as the session's own
    public ranking; the director's counts them; once every table has finished, both agree."""
    from types import SimpleNamespace

    from hub.series_api import series_api
    from tests.hub.test_live_scoring import ROUND_ROBIN
    from tests.hub.test_results_pages import serve

    served = serve(tmp_path, ROUND_ROBIN[:2])
    loop, hub, _ = next(served)
    try:
        with EventLog.open(tmp_path / LOG_NAME) as log:
            store(log, fact("Club championship", 1, "2026-10-05", [
                entry(1, NAMES["A"], 60.0, 2), entry(2, NAMES["B"], 40.0, 2)]))
            book = SessionBook(log)
            series = SimpleNamespace(room=hub.room, setup=setup_of(2, None), series=book)
            full = loop.call(lambda: series_api(series, "event", {}, public=False))
            public = loop.call(lambda: series_api(series, "event", {}, public=True))
            tonight = {e["pair"]: e for e in full["ranking"] if e["pair"] is not None}
            assert {p: e["boards"] for p, e in tonight.items()} == {1: 2, 4: 2}
            assert all(e["pair"] is None for e in public["ranking"])   # part 1 alone
            loop.call(hub.session.play, ROUND_ROBIN[2:])
            full = loop.call(lambda: series_api(series, "event", {}, public=False))
            public = loop.call(lambda: series_api(series, "event", {}, public=True))
            # the director's public settings: no names, then no ranking
            loop.call(hub.director, {"op": "public_results", "ranking": True,
                                     "names": False, "boards": True})
            nameless = loop.call(lambda: series_api(series, "event", {}, public=True))
            loop.call(hub.director, {"op": "public_results", "ranking": False,
                                     "names": True, "boards": True})
            hidden = loop.call(lambda: series_api(series, "event", {}, public=True))
            still = loop.call(lambda: series_api(series, "event", {}, public=False))
    finally:
        next(served, None)
    assert public["ranking"] == full["ranking"] and public["full"] is False
    assert sum(1 for e in full["ranking"] if e["pair"] is not None) == 6
    # pairs without names are not matched across sessions: last time's two stay apart
    assert sum(1 for e in full["ranking"] if e["pair"] is None) == 2
    assert [e["names"] for e in full["ranking"] if e["pair"] is None] == [NAMES["A"], NAMES["B"]]
    assert all(e["names"] == [] for e in nameless["ranking"])
    assert [e["percent"] for e in nameless["ranking"]] == [e["percent"] for e in full["ranking"]]
    assert hidden["ranking"] == [] and hidden["ranking_shown"] is False
    assert still["ranking"] == full["ranking"]            # the director still sees it all


def test_a_carry_over_the_set_up_cannot_take_is_named(tmp_path: Path) -> None:
    from hub.errors import ConfigError
    base = ('[event]\nname = "Final"\npart = 2\n{extra}\n[[section]]\n'
            'movement = "mitchell"\ntables = 3\n')
    for extra, error in (("carry = 3", "event.carry: a share of the margin is from 0 to 1"),
                         ('carry = 0.5\ncarry_form = "rank"', "event.carry_form: \"margin\""),
                         ("part = -1", "event.part: at least 0")):
        path = tmp_path / "final.toml"
        path.write_text(base.format(extra=extra).replace("part = 2\npart = -1", "part = -1"))
        with pytest.raises(ConfigError, match=error.replace("(", r"\(")):
            EventSetup.load(path)
    path.write_text(base.format(extra='carry = 3\ncarry_form = "place"'))
    setup = EventSetup.load(path)
    assert (setup.part, setup.carry, setup.carry_form) == (2, 3.0, "place")
    assert EventSetup.from_json(setup.to_json()) == setup


def test_a_stored_session_this_hub_did_not_write_is_left_out_and_logged(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A damaged or foreign ``session_scored`` never breaks the event's total or the
    ladder: it is left out, with a log line naming its record and what is wrong."""
    good = fact("Monday pairs", 0, "2026-09-07", EVENINGS[0][1])
    bad_entry = fact("Monday pairs", 0, "2026-09-14", [entry(1, ["Ada North"], 50.0, 24)])
    bad_entry["sections"][0]["ranking"][0]["percent"] = "fifty"
    with EventLog.open(tmp_path / LOG_NAME) as log:
        store(log, good, {"v": 2}, {"v": 1, "sections": "none"}, bad_entry,
              dict(good, carry="half"))
        with caplog.at_level("ERROR", logger="hub.series"):
            stored = SessionBook(log).sessions()
    assert [s.date for s in stored] == ["2026-09-07"]
    problems = [r.getMessage() for r in caplog.records]
    assert len(problems) == 4 and all("left out of the stored sessions" in m for m in problems)
    assert any("percent 'fifty' is not a number" in m for m in problems)


def scored(pair: int, names: list[str], total: float, boards: int) -> dict[str, Any]:
    return {"pair": pair, "names": names, "percent": None, "boards": boards,
            "direction": None, "rank": 0, "total": total}


def test_butler_and_teams_sessions_add_up_by_hand(tmp_path: Path) -> None:
    """Two Butler evenings, every pair in both (24 + 26 boards): the IMPs added, A 12 − 4 =
    8, B −5 + 10 = 5, C −7 − 6 = −13. A fourth pair D plays only the second evening (0
    IMPs over 26): the boards differ, so the IMPs per board played, A 8/50 = 0.16, B 5/50 =
    0.10, D 0/26 = 0, C −13/50 = −0.26. Teams on VPs: 28.5 + 35.2 = 63.7 and 31.5 + 22.1 =
    53.6. A matchpoint evening of the same event is left out, named."""
    butler_1 = {"v": 1, "name": "Butler", "session": "", "date": "2026-10-05", "part": 1,
                "carry": None, "sections": [{"name": "A", "method": "butler", "units": "IMPs",
                                             "ranking": [scored(1, NAMES["A"], 12.0, 24),
                                                         scored(2, NAMES["B"], -5.0, 24),
                                                         scored(3, NAMES["C"], -7.0, 24)]}]}
    teams_1 = {"v": 1, "name": "Teams", "session": "", "date": "2026-10-05", "part": 1,
               "carry": None, "sections": [{"name": "A", "method": "imp", "units": "VP",
                                            "ranking": [scored(1, NAMES["A"] + NAMES["B"],
                                                               28.5, 16),
                                                        scored(2, NAMES["C"] + NAMES["D"],
                                                               31.5, 16)]}]}
    with EventLog.open(tmp_path / LOG_NAME) as log:
        store(log, butler_1, teams_1, fact("Teams", 2, "2026-10-06", [
            entry(1, NAMES["A"], 60.0, 24)]))
        stored = SessionBook(log).sessions()
    second = [{"name": "A", "method": "butler", "units": "IMPs", "ranking": [
        scored(2, NAMES["A"], -4.0, 26), scored(1, NAMES["B"], 10.0, 26),
        scored(3, NAMES["C"], -6.0, 26)]}]
    total = event_total(setup_of(2, None, name="Butler"), second, stored)
    assert total["scores"] == "imps" and total["problems"] == []
    got = {e["names"][0]: (e["score"], e["rank"], e["sessions"]) for e in total["ranking"]}
    assert got == {"Ada North": (8.0, 1, [12.0, -4.0]), "Cleo Park": (5.0, 2, [-5.0, 10.0]),
                   "Eve Rowan": (-13.0, 3, [-7.0, -6.0])}
    assert all(e["percent"] is None for e in total["ranking"])
    # a Butler final with half the qualifying IMPs carried over: A −4 + ½·12 = 2, B 10 −
    # ½·5 = 7.5, C −6 − ½·7 = −9.5
    final = event_total(setup_of(2, 0.5, name="Butler"), second, stored)
    assert [(e["names"][0], e["score"], e["carry"]) for e in final["ranking"]] == [
        ("Cleo Park", 7.5, -2.5), ("Ada North", 2.0, 6.0), ("Eve Rowan", -9.5, -3.5)]
    second[0]["ranking"].append(scored(4, NAMES["D"], 0.0, 26))
    per_board = event_total(setup_of(2, None, name="Butler"), second, stored)
    assert per_board["scores"] == "imps_per_board"
    assert [(e["names"][0], e["score"]) for e in per_board["ranking"]] == [
        ("Ada North", 0.16), ("Cleo Park", 0.1), ("Gus Thorn", 0.0), ("Eve Rowan", -0.26)]
    teams = event_total(setup_of(3, None, name="Teams"), [
        {"name": "A", "method": "imp", "units": "VP", "ranking": [
            scored(1, NAMES["C"] + NAMES["D"], 22.1, 16),
            scored(2, NAMES["A"] + NAMES["B"], 35.2, 16)]}], stored)
    assert teams["scores"] == "vp"
    assert [(e["names"][0], e["score"], e["rank"]) for e in teams["ranking"]] == [
        ("Ada North", 63.7, 1), ("Eve Rowan", 53.6, 2)]
    assert len(teams["problems"]) == 1 and "session 2" in teams["problems"][0]
    assert [s["part"] for s in teams["sessions"]] == [1, 3]


def test_browser_the_event_page_of_butler_sessions(tmp_path: Path,
                                                   browser: Any) -> None:  # noqa: F811
    """A Butler event's first evening stored, the second set up with no result yet: the
    public page shows the IMPs (no percentage), its form in words."""
    data = tmp_path / "data"
    with running_hub(None, str(data), setup_of(2, None, "Butler")):
        pass
    with EventLog.open(data / LOG_NAME) as log:
        store(log, {"v": 1, "name": "Butler", "session": "", "date": "2026-10-05",
                    "part": 1, "carry": None, "sections": [
                        {"name": "A", "method": "butler", "units": "IMPs", "ranking": [
                            scored(1, NAMES["A"], 12.0, 24), scored(2, NAMES["B"], -5.0, 24),
                            scored(3, NAMES["C"], -7.0, 24)]}]})
    with running_hub(None, str(data), None,
                     console=("127.0.0.1", 0), console_users=make_users(tmp_path / "users")
                     ) as (hub, _):
        console = hub.call(lambda: hub.console)
        browser.get(console.url + "results/event")

        def page(d: Any) -> tuple[list[list[str]], str] | None:
            if not d.find_elements("css selector", "#event-all tbody tr"):
                return None
            return ([[c.text for c in row.find_elements("tag name", "td")]
                     for row in d.find_elements("css selector", "#event-all tbody tr")],
                    d.find_element("id", "event-form").text)

        rows, form = wait(browser, page)
        SHOTS.mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(SHOTS / "event-butler.png"))
        pseudo_page(browser, "event-form",
                    {"Butler", *(n for pair in NAMES.values() for n in pair)})
    assert form == ("Sessions added up: each pair's IMPs over every session (every pair "
                    "played as many boards).")
    assert [(r[2], r[-1]) for r in rows] == [("Ada North – Ben Oakes", "12.00"),
                                             ("Cleo Park – Dan Quill", "-5.00"),
                                             ("Eve Rowan – Finn Stone", "-7.00")]
