"""A club's ladder history kept across an upgrade, and its form kept with the club
(hub.series_replay, hub.series_club), through the hub and its console.

The evening is the 3-table Mitchell of tests/hub/test_series_players.py, played by the
tables' devices and the director's round starts, every record written to the log as a hub
writes it, then closed by the next session's set-up (``setup_replaced``), with no
``session_scored``: a log a hub wrote before that fact existed. Worked by hand there: pair 1
(Ann Archer and Bob Baker) scores 7 of 12, 58.33%; pair 2 (Cid Cole, Dee Dunn) 5, 41.67%;
pair 3 (Cid Cole, Eve Ewing) 6, 50%; each of the pairs' EW opponents the complement.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from hub.director import parse_command
from hub.event import EventSetup
from hub.log_records import Record
from hub.series import SESSION_SCORED, SessionBook
from hub.series_replay import CACHE_NAME
from hub.setup_facts import SETUP_FACT, SETUP_REPLACED
from hub.store import LOG_NAME, EventLog
from tenace.live import running_hub
from tenace.sim.devices import VirtualDevice, envelopes
from tests.hub.test_console import (  # noqa: F401 - the browser fixture
    Login,
    browser,
    browser_login,
    make_users,
    wait,
)
from tests.hub.test_console_session import fetch
from tests.hub.test_live_scoring import board_script
from tests.hub.test_results_pages import SHOTS
from tests.hub.test_series import pseudo_page
from tests.hub.test_series_players import PLAYS
from tests.hub.test_table import DEALS, START

PAIRS = {1: ("Ann Archer", "Bob Baker"), 2: ("Cid Cole", "Dee Dunn"),
         3: ("Cid Cole", "Eve Ewing"), 4: ("Fay Ford", "Gil Gray"),
         5: ("Hal Hunt", "Ida Ince"), 6: ("Jo Jones", "Kit King")}


def evening_setup(date: str, session: str) -> EventSetup:
    quick = EventSetup.quick(tables=3, boards_per_round=2, deals=DEALS, name="Monday pairs",
                             session=session)
    section = dataclasses.replace(quick.sections[0], pairs=dict(PAIRS))
    return dataclasses.replace(quick, sections=(section,), date=date)


def cannot_load(obj: dict[str, Any]) -> Any:
    raise ValueError("a set-up from another program")


def write_old_log(path: Path, date: str = "2026-11-02", *, close: bool = True) -> None:
    """The evening played and closed by the next evening's set-up, as a hub wrote its log
    before ``session_scored`` (module docstring); ``close`` False: the log ends with the
    evening (a data directory used for one evening)."""
    first = evening_setup(date, "First evening")
    room = first.build_room()
    devices: dict[str, VirtualDevice] = {}
    now, round_ = START, 0
    with EventLog.open(path) as log:
        log.append(Record.fact(SETUP_FACT, first.to_json(), hub_time=now))
        for r, table, board, contract, tricks in PLAYS:
            if r != round_:
                now += 1
                fact, body = parse_command({"op": "round_start", "round": r}, room)
                room.fact(fact, body, now)
                log.append(Record.fact(fact, body, hub_time=now, source="director"))
                round_ = r
            now += 60
            for tid, env in envelopes(board_script(room, table, r, board, contract, tricks,
                                                   now), devices=devices):
                assert room.apply(tid, env, env.time).reply.status == "ack"
                log.append(Record.from_envelope(env, tid, hub_time=env.time))
        if close:
            second = evening_setup("2026-11-09", "Second evening")
            log.append(Record.fact(SETUP_REPLACED, {"setup": second.to_json(),
                                                    "keep_play": False}, hub_time=now + 60))


def test_a_log_without_session_scored_keeps_its_evenings_on_the_ladder(
        tmp_path: Path) -> None:
    """The first evening of a log written before ``session_scored`` is found by replaying
    its records: on the ladder with each player's percentage worked by hand, the log left
    exactly as it was (no record added, none rewritten)."""
    data = tmp_path / "data"
    write_old_log(data / LOG_NAME)
    with EventLog.open(data / LOG_NAME) as log:
        before = log.head()
        closed = log.of_type(SETUP_REPLACED)[0].position   # the second evening's set-up
    users = make_users(tmp_path / "users")
    with running_hub(None, str(data), None, console=("127.0.0.1", 0),
                     console_users=users) as (hub, _):
        console = hub.call(lambda: hub.console)
        status, _, body = fetch(console.url + "api/results/ladder",
                                Login.director(console))
        public_status, _, public = fetch(console.url + "api/results/ladder", None)
        setup = hub.call(lambda: hub.setup)
    ladder = json.loads(body)
    assert status == 200 and public_status == 200
    assert setup.session == "Second evening"     # the session the log runs now
    assert ladder["sessions"] == [{"name": "Monday pairs", "session": "First evening",
                                   "date": "2026-11-02", "replayed": True,
                                   "position": closed}]
    got = {e["player"]: e["percent"] for e in ladder["ranking"]}   # rounded to 0.01
    assert (got["Ann Archer"], got["Bob Baker"]) == (58.33, 58.33)
    assert (got["Dee Dunn"], got["Eve Ewing"]) == (41.67, 50.0)
    # the two Cid Coles of pairs 2 and 3 (no roster): not merged silently
    assert [(a["player"], [w["pair"] for w in a["where"]]) for a in ladder["ambiguous"]] \
        == [("Cid Cole", [2, 3])]
    assert json.loads(public)["ranking"] == ladder["ranking"]
    with EventLog.open(data / LOG_NAME) as log:
        assert log.of_type(SESSION_SCORED) == []
        after = log.head()
        # what the replay found is kept beside the log (0600): not replayed again, even
        # by a hub that could no longer read the set-up; the file gone, replayed again
        cache = data / CACHE_NAME
        assert cache.stat().st_mode & 0o777 == 0o600
        kept = SessionBook(log, cannot_load).sessions()
        cache.unlink()
        again = SessionBook(log, cannot_load).sessions()
    assert after == before
    assert [(s.session, s.replayed) for s in kept] == [("First evening", True)]
    pair_1 = next(e for e in kept[0].sections[0]["ranking"] if e["pair"] == 1)
    assert round(pair_1["percent"], 2) == 58.33
    assert [p["member"] for p in pair_1["players"]] == [None, None]   # no roster here
    assert again == [] and not cache.exists()


def test_a_session_the_log_cannot_replay_is_left_out_and_logged(
        tmp_path: Path, caplog: Any) -> None:
    """A closed session whose set-up the hub cannot read again is left out of the
    stored sessions, named in the hub's log; the hub starts and serves the ladder."""
    data = tmp_path / "data"
    write_old_log(data / LOG_NAME)
    with EventLog.open(data / LOG_NAME) as log:
        book = SessionBook(log, cannot_load)
        assert book.sessions() == []
    assert "cannot be read again" in caplog.text and "a set-up from another program" \
        in caplog.text


ROSTER_CSV = "name,number\nAnn Archer,11\nCid Cole,21\nCid Cole,22\n"


def test_the_club_keeps_its_form_and_tells_its_two_cid_coles_apart(
        tmp_path: Path, browser: Any) -> None:  # noqa: F811
    """The director keeps the club's form (best 1 evening from 2026-11-01): the page and
    the API use it by default, a request still names another, a restart keeps it. Two
    members named Cid Cole (21 and 22) played the replayed evening without a number (pairs 2
    and 3): flagged, not merged with either member; the director says pair 2's was 22 (the
    API), then on the page that pair 3's was 21, after which each is his member's line
    (41.67% and 50%, worked by hand in the module docstring)."""
    data = tmp_path / "data"
    write_old_log(data / LOG_NAME)
    (data / "roster.csv").write_text(ROSTER_CSV, encoding="utf-8")
    with EventLog.open(data / LOG_NAME) as log:
        closed = log.of_type(SETUP_REPLACED)[0].position
        log.append_many([Record.fact(SESSION_SCORED, {   # evenings not in percentages
            "v": 1, "name": "Monday pairs", "session": f"{what} night", "date": date,
            "part": 0, "carry": None, "sections": [{"name": "A", "method": method,
                                                    "units": units, "ranking": [
                {"pair": 1, "names": ["Ann Archer", "Bob Baker"], "percent": None,
                 "total": 12.0, "rank": 1, "boards": 24, "direction": None}]}]})
            for what, date, method, units in (("Butler", "2026-11-05", "butler", "IMPs"),
                                              ("Teams", "2026-11-06", "imp", "VP"))])
    users = make_users(tmp_path / "users")
    with running_hub(None, str(data), None, console=("127.0.0.1", 0),
                     console_users=users) as (hub, _):
        console = hub.call(lambda: hub.console)
        director = Login.director(console)
        scorer = Login(console)
        assert scorer.login("sam")[0] == 200

        def get(query: str = "", login: Login | None = director) -> Any:
            status, _, body = fetch(console.url + "api/results/ladder" + query, login)
            assert status == 200, body
            return json.loads(body)

        first = get()
        kept = director.send("api/results/ladder/form", json.dumps(
            {"best": 1, "min": 1, "from": "2026-11-01", "to": ""}).encode())
        refused = [director.send("api/results/ladder/form", json.dumps(body).encode())[0]
                   for body in ({"best": 0}, {"min": "two"}, {"min": 0},
                                {"from": "1/11/2026"}, [])]
        by_scorer = scorer.send("api/results/ladder/form", b'{"best": 2}')[0]
        no_token = director.send("api/results/ladder/form", b'{"best": 2}', csrf=False)[0]
        by_default, public = get(), get("", None)
        overridden = get("?best=&from=")
        told = director.send("api/results/ladder/player", json.dumps(
            {"session": closed, "section": "A", "pair": 2, "name": "Cid Cole",
             "member": 22}).encode())
        not_there = [director.send("api/results/ladder/player", json.dumps(body).encode())[0]
                     for body in ({"session": closed, "section": "A", "pair": 4,
                                   "name": "Cid Cole", "member": 22},
                                  {"session": closed + 1, "section": "A", "pair": 2,
                                   "name": "Cid Cole", "member": 22},
                                  {"session": closed, "section": "A", "pair": 2,
                                   "name": "Cid Cole", "member": 0})]
        one_left = get()
        browser.get(console.url + "results/ladder")      # the public page first
        public_page = wait(browser, lambda d: d.find_element("id", "ladder-homonyms").text
                           if d.find_elements("id", "ladder-homonyms") else None)
        public_forms = browser.find_elements("css selector", "#ladder-keep, .ladder-tell")
        browser_login(browser, console)
        browser.get(console.url + "results/ladder")
        fields = wait(browser, lambda d: [d.find_element("id", f"ladder-{k}").get_attribute(
            "value") for k in ("best", "min", "from", "to")]
            if d.find_elements("id", "ladder-member-0-0") else None)
        homonyms = browser.find_element("id", "ladder-homonyms").text
        replayed = browser.find_element("id", "ladder-replayed").text
        left_out = browser.find_element("id", "ladder-left-out").text
        imp_ladder = [[c.text for c in row.find_elements("tag name", "td")]
                      for row in browser.find_elements("css selector", "#imp-ladder tbody tr")]
        imp_title = browser.find_element("id", "imp-ladder-title").text
        browser.save_screenshot(str(SHOTS / "ladder-homonyms.png"))
        # every text of it, the director's forms included, from the catalogs
        pseudo_page(browser, "ladder-homonyms", {n for pair in PAIRS.values() for n in pair}
                    | {"Cid Cole (?)", "Teams night"})
        browser.get(console.url + "results/ladder")
        wait(browser, lambda d: d.find_elements("id", "ladder-member-0-0"))
        browser.find_element("id", "ladder-member-0-0").send_keys("21")
        browser.find_element("css selector", ".ladder-tell button").click()
        rows = wait(browser, lambda d: None if d.find_elements("id", "ladder-homonyms") else
                    [[c.text for c in row.find_elements("tag name", "td")]
                     for row in d.find_elements("css selector", "#ladder tbody tr")] or None)
        said = browser.find_element("id", "ladder-message").text
        browser.save_screenshot(str(SHOTS / "ladder-told.png"))
        # the club's best 1 dropped for this view only: the page asks for ?best= alone
        browser.find_element("id", "ladder-best").clear()
        browser.find_element("id", "ladder-show").click()
        every = wait(browser, lambda d: d.find_element("id", "ladder-form").text
                     if d.current_url.endswith("/results/ladder?best=") else None)
        browser.delete_all_cookies()
    with running_hub(None, str(data), None, console=("127.0.0.1", 0),
                     console_users=users) as (hub, _):         # a restart keeps it all
        console = hub.call(lambda: hub.console)
        status, _, body = fetch(console.url + "api/results/ladder", None)
        restarted = json.loads(body)
    assert first["kept"] == {"best": None, "min": 1, "from": "", "to": ""}
    assert first["ambiguous"] == [{"player": "Cid Cole", "members": [21, 22], "played": 1,
                                   "where": [{"position": closed, "date": "2026-11-02",
                                              "session": "First evening", "section": "A",
                                              "pair": pair, "name": "Cid Cole"}
                                             for pair in (2, 3)]}]
    assert [e["ambiguous"] for e in first["ranking"] if e["player"] == "Cid Cole"] == [True]
    assert kept == (200, {"ok": True, "kept": {"best": 1, "min": 1, "from": "2026-11-01",
                                                "to": ""}})
    assert refused == [400] * 5 and by_scorer == 403 and no_token == 403
    for ladder in (by_default, public):
        assert (ladder["best"], ladder["minimum"], ladder["since"]) == (1, 1, "2026-11-01")
        assert ladder["kept"]["best"] == 1
    assert (overridden["best"], overridden["since"]) == (None, "")
    # the public view: the ambiguity said, the club's member numbers not
    assert [a["members"] for a in public["ambiguous"]] == [[]]
    assert {e["member"] for e in public["ranking"]} == {None}
    assert 11 in {e["member"] for e in by_default["ranking"]}      # Ann Archer's, the roster's
    assert told == (200, {"ok": True}) and not_there == [404, 404, 400]
    assert [w["pair"] for a in one_left["ambiguous"] for w in a["where"]] == [3]
    by = {(e["player"], e["percent"]) for e in one_left["ranking"]}
    assert ("Cid Cole", 41.67) in by              # member 22: pair 2's 5 of 12
    assert fields == ["1", "", "2026-11-01", ""]
    assert "Cid Cole: two members have this name (members 21, 22)" in homonyms
    assert public_page == ("Cid Cole: two players of this name are not told apart yet: the "
                           "line marked (?) holds their evenings together.")
    assert public_forms == []
    assert "section A, pair 3" in homonyms
    assert replayed.endswith(": 1")
    assert left_out == ("Left out, scored in VPs or total points (no score for each player): "
                        "2026-11-06 Teams night (A)")
    # the Butler night: 12 IMPs over 24 boards, 0.5 a board, its own ladder
    assert imp_title == "Butler and cross-IMP pairs evenings: IMPs per board"
    assert imp_ladder == [["1=", "Ann Archer", "1", "1", "0.50"],
                          ["1=", "Bob Baker", "1", "1", "0.50"]]
    assert ["Cid Cole (21)", "1", "1", "50.00%"] in [r[1:] for r in rows]
    assert ["Cid Cole (22)", "1", "1", "41.67%"] in [r[1:] for r in rows]
    assert said == "Saved."
    assert every.startswith("Average of every session played")
    assert status == 200 and restarted["best"] == 1 and restarted["ambiguous"] == []
    assert restarted["since"] == "2026-11-01"


def test_butler_evenings_are_a_ladder_of_their_own_and_swiss_ones_left_out() -> None:
    """The ladder averages percentages: a Butler evening (IMPs) is in the IMP ladder (IMPs
    per board), a Swiss teams evening (VPs, no score per player) is left out and named,
    the matchpoint evening in the ladder (docs/sessions.md, "Sessions not scored in
    matchpoints")."""
    from hub.series import StoredSession
    from hub.series_ladder import ladder_json

    def stored(position: int, date: str, method: str, units: str,
               ranking: list[dict[str, Any]]) -> StoredSession:
        return StoredSession(position, "Club nights", "", date, 0, None, (
            {"name": "A", "method": method, "units": units, "ranking": ranking},))

    pair = {"pair": 1, "names": ["Ann Archer", "Bob Baker"], "rank": 1, "boards": 24,
            "direction": "NS"}
    got = ladder_json([
        stored(1, "2026-11-02", "mp", "MP", [{**pair, "percent": 60.0, "total": 144.0}]),
        stored(2, "2026-11-09", "butler", "IMPs", [{**pair, "percent": None, "total": 31.0}]),
        stored(3, "2026-11-16", "imp", "VP", [{**pair, "percent": None, "total": 62.5}])])
    assert got["left_out"] == [
        {"name": "Club nights", "session": "", "date": "2026-11-16", "section": "A",
         "scores": "vp"}]
    assert [(e["player"], e["percent"], e["played"]) for e in got["ranking"]] == [
        ("Ann Archer", 60.0, 1), ("Bob Baker", 60.0, 1)]
    # the Butler evening, stored without its players: the pair's 31 IMPs over 24 boards,
    # 1.29 a board, its players' (its own ladder, never mixed with percentages)
    assert [(e["player"], e["imps"], e["sessions"]) for e in got["imp_ranking"]] == [
        ("Ann Archer", 1.29, [None, 1.29, None]), ("Bob Baker", 1.29, [None, 1.29, None])]


def test_damaged_ladder_facts_and_cache_never_break_the_ladder(
        tmp_path: Path, caplog: Any) -> None:
    """A ``ladder_form`` or ``ladder_player`` fact this hub did not write (a damaged log)
    is passed over, logged, the last readable form counting; a cache that is not JSON is
    replayed again and written anew."""
    from hub.series_ladder import (
        LADDER_FORM,
        LADDER_PLAYER,
        kept_form,
        ladder_json,
        player_choices,
    )
    data = tmp_path / "data"
    write_old_log(data / LOG_NAME)
    (data / CACHE_NAME).write_text("{not json", encoding="utf-8")
    with EventLog.open(data / LOG_NAME) as log:
        log.append_many([
            Record.fact(LADDER_FORM, {"v": 1, "best": 2, "min": 1, "from": "", "to": ""}),
            Record.fact(LADDER_FORM, {"v": 1, "best": "ten", "min": 1}),
            Record.fact(LADDER_PLAYER, {"v": 1, "session": "x", "section": "A", "pair": 2,
                                        "name": "Cid Cole", "member": 22}),
            Record.fact(LADDER_PLAYER, {"v": 1, "section": "A"})])
        book = SessionBook(log, evening_loader)
        form = kept_form(book)
        choices = player_choices(book)
        sessions = book.sessions()
    assert form.best == 2 and choices == {}
    assert [s.session for s in sessions] == ["First evening"]
    assert json.loads((data / CACHE_NAME).read_text())["v"] == 1   # written anew
    assert "record" in caplog.text and "(ladder_form) passed over" in caplog.text
    assert "(ladder_player) passed over" in caplog.text
    assert "cannot be read (the sessions are replayed again)" in caplog.text
    assert ladder_json(sessions, form)["best"] == 2


def evening_loader(obj: dict[str, Any]) -> Any:
    from hub.event import setup_from_json
    return setup_from_json(obj)
