"""The director sets the evening up from the console (hub/console_setup.py): a real hub on
an empty data directory waits (the console says so, devices are told ``no_event``), the
JSON API builds exactly what the TOML file builds, errors name the field, the set-up is
logged with the director's account and a restart rebuilds it; the club's roster imported
over the API and the names typed at check-in matched to it."""

from __future__ import annotations

import base64
import json
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bridgecore.bigdeal import BigDeal
from bridgecore.dealfiles import write_dealfile
from hub.broker import EmbeddedBroker
from hub.console import Console
from hub.console_setup import DEFAULTS, defaults
from hub.event import EventSetup, WaitingSetup, setup_from_json
from hub.service import NO_EVENT, Hub, HubRunner, data_log
from hub.setup_facts import SETUP_REPLACED
from tenace.sim.devices import DeviceEvent, envelopes
from tests.hub.test_console import Login, make_users
from wire.mqtt import Message
from wire.protocol import topic_event

SEED = "0123456789abcdef0123456789abcdef01234567"
TOML = f"""
[event]
name = "Monday pairs"
date = "2026-11-23"
edition = "2017"
scoring = "matchpoints"
minutes_per_round = 20

[boards]
seed = "{SEED}"

[[section]]
name = "A"
movement = "mitchell"
tables = 8
boards_per_round = 3
rounds = 7
missing_pair = 16

[section.pairs]
1 = ["Ann Smith", "Bob Jones"]
15 = ["Zoé Dupré"]

[[section]]
name = "B"
movement = "howell"
tables = 4
boards_per_round = 2
"""
DOCUMENT: dict[str, Any] = {
    "event": {"name": "Monday pairs", "date": "2026-11-23", "edition": "2017",
              "scoring": "matchpoints", "minutes_per_round": 20},
    "boards": {"seed": SEED},
    "sections": [
        {"name": "A", "movement": "mitchell", "tables": 8, "boards_per_round": 3,
         "rounds": 7, "missing_pair": 16,
         "pairs": {"1": [{"member": 101}, "Bob Jones"], "15": [{"name": "Zoé Dupré"}]}},
        {"name": "B", "movement": "howell", "tables": 4, "boards_per_round": 2},
    ],
}
ROSTER = ("\ufeffNom;Prénom;Numéro de membre\n"
          "Smith;Ann;101\nJones;Bob;102\nDupré;Zoé;103\n\nMüller;Jürgen;104\n")


def start_hub(data: Path, url: str, users: Any, setup: Any = None) -> HubRunner:
    hub = Hub(data_log(data), url=url, setup=setup, setup_loader=setup_from_json,
              tick_seconds=0.2, console=("127.0.0.1", 0), console_options={"users": users})
    return HubRunner(hub)


@pytest.fixture
def waiting(tmp_path: Path, embedded_broker: EmbeddedBroker
            ) -> Iterator[tuple[Hub, Login, Path, Any]]:
    users = make_users(tmp_path / "users")
    data = tmp_path / "data"
    runner = start_hub(data, embedded_broker.url, users, WaitingSetup())
    with runner as hub:
        assert isinstance(hub.console, Console)
        yield hub, Login.director(hub.console), data, users


def get(client: Login, path: str) -> tuple[int, Any, str]:
    with client.open(client.console.url + path) as r:
        return r.status, json.loads(r.read()) if "json" in r.headers["Content-Type"] \
            else r.read().decode(), r.url


def send_setup(client: Login, doc: Any, check: bool = False) -> tuple[int, Any]:
    return client.send("api/setup" + ("?check=1" if check else ""), json.dumps(doc).encode())


def import_roster(client: Login, text: str = ROSTER) -> tuple[int, Any]:
    return client.send("api/roster", text.encode(), "text/csv")


def test_a_hub_on_an_empty_data_directory_waits_for_the_directors_set_up(
        waiting: Any) -> None:
    hub, client, _, _ = waiting
    _status, page, url = get(client, "")
    assert url.endswith("/setup") and "Tenace set-up" in page     # the console says so
    state = get(client, "api/setup")[1]
    assert state["waiting"] is True and state["can_set_up"] is True
    assert "No event yet" in state["summary"][0] and state["setup"] is None
    assert get(client, "api/room")[1]["waiting"] is True
    # A device that comes before the event is told so, and nothing is logged.
    (_table, env), = envelopes([DeviceEvent("A1", "A1-tab", "checkin",
                                           {"direction": "NS", "pair": 1}, time.time())])
    before = hub.log.head()[0]
    hub.call(lambda: hub.handle([Message(topic_event("A1", "A1-tab"), env.to_json().encode())]))
    assert hub.stats.rejected_by_code == {NO_EVENT: 1}
    assert hub.log.head()[0] == before
    assert hub.status().tables == 0


def test_the_api_builds_exactly_what_the_toml_file_builds_and_logs_who(
        waiting: Any, tmp_path: Path) -> None:
    hub, client, _, _ = waiting
    assert import_roster(client) == (200, {"ok": True, "members": 4})
    (tmp_path / "monday.toml").write_text(TOML, encoding="utf-8")
    from_toml = EventSetup.load(tmp_path / "monday.toml")
    status, checked = send_setup(client, DOCUMENT, check=True)
    assert status == 200 and checked["checked"] and hub.setup.waiting   # nothing changed
    status, result = send_setup(client, DOCUMENT)
    assert status == 200 and result["ok"], result
    assert result["tables"] == [*(f"A{n}" for n in range(1, 9)), "B1", "B2", "B3", "B4"]
    assert hub.setup.to_json() == from_toml.to_json()
    assert hub.setup.sections[0].pairs[1] == ("Ann Smith", "Bob Jones")   # from the roster
    assert sorted(hub.room.tables) == sorted(result["tables"])
    replaced = [r for r in hub.log.replay() if r.type == SETUP_REPLACED]
    assert [r.data()["account"] for r in replaced] == ["dora"]
    state = get(client, "api/setup")[1]
    assert state["waiting"] is False and state["setup"]["sections"][0]["missing_pair"] == 16
    assert state["setup"]["boards"]["numbers"] == list(range(1, 25))
    assert get(client, "")[2].endswith("/")          # the room, no longer the set-up


def test_a_restart_rebuilds_the_event_set_up_from_the_console(
        tmp_path: Path, embedded_broker: EmbeddedBroker) -> None:
    users = make_users(tmp_path / "users")
    data = tmp_path / "data"
    with start_hub(data, embedded_broker.url, users, WaitingSetup()) as hub:
        assert isinstance(hub.console, Console)
        client = Login.director(hub.console)
        doc = {**DOCUMENT, "sections": [DOCUMENT["sections"][1]]}
        assert send_setup(client, doc)[0] == 200
        made = hub.setup.to_json()
    hub.log.close()
    with start_hub(data, embedded_broker.url, users) as again:
        assert again.setup.to_json() == made
        assert sorted(again.room.tables) == ["B1", "B2", "B3", "B4"]
    again.log.close()


def test_errors_name_the_field_and_change_nothing(waiting: Any) -> None:
    hub, client, _, _ = waiting
    bad = {"event": {"edition": "1975", "scoring": "rubber", "date": "23/11/2026"},
           "sections": [{"movement": "mitchell", "tables": 0, "relay": True},
                        {"movement": "howel", "tables": 7},
                        {"movement": "teams", "teams": 4, "missing_pair": 3},
                        {"movement": "mitchell", "tables": 3, "pairs": {"2": [{"member": 9}]}}],
           "boards": {"file": {"name": "x.pbn", "data": "not base64!"}}}
    status, result = send_setup(client, bad)
    assert status == 400 and result["ok"] is False
    fields = {e["field"] for e in result["errors"]}
    assert {"event.edition", "event.scoring", "event.date", "sections[0].tables",
            "sections[1].movement", "sections[2].missing_pair", "sections[3].pairs.2",
            "boards.file"} <= fields, result["errors"]
    assert all(e["error"] for e in result["errors"])
    status, result = send_setup(client, {"sections": [{"movement": "mitchell", "tables": 5,
                                                        "missing_pair": 11}]})
    assert status == 400
    assert result["errors"][0]["field"] == "sections[0].missing_pair", result
    status, result = send_setup(client, {"section": [{"movement": "howell", "tables": 3}]})
    assert status == 400 and "sections" in {e["field"] for e in result["errors"]}
    assert hub.setup.waiting and not hub.room.tables


def test_a_member_not_in_the_roster_is_one_error_without_pythons_words(waiting: Any) -> None:
    """A pair given a member number the roster lacks: that error alone, on the pair's field;
    not a second one saying the pair "got []" (issue 25's walk-through: "la paire 1 veut un
    ou deux noms, reçu []")."""
    _, client, _, _ = waiting
    status, result = send_setup(client, {"sections": [
        {"movement": "mitchell", "tables": 3, "pairs": {"1": [{"member": 9}, "Bob Jones"],
                                                        "2": [{"member": 8}]}}]}, check=True)
    assert status == 400
    assert [(e["field"], e["error"]) for e in result["errors"]] == [
        ("sections[0].pairs.1", "no member 9 in the club's roster"),
        ("sections[0].pairs.2", "no member 8 in the club's roster")]


def test_a_french_director_reads_the_set_up_s_errors_in_french(waiting: Any) -> None:
    """Issue 26: each error is worded in the director's language, with the message it was
    made from beside it (``error_text``); what hub.event words itself stays its words."""
    _, client, _, _ = waiting
    assert client.send("api/i18n", json.dumps({"language": "fr"}).encode())[0] == 200
    status, result = send_setup(client, {
        "event": {"date": "23/11/2026", "scoring": "rubber"},
        "sections": [{"movement": "mitchell", "tables": "six", "relai": True,
                      "pairs": {"2": [{"member": 9}]}}],
        "boards": {"file": {"name": "x.pbn", "data": "not base64!"}}})
    assert status == 400 and result["ok"] is False
    errors = {e["field"]: e for e in result["errors"]}
    # the event file's typed values (hub.event_values), their field named as before
    assert errors["event.date"]["error"] == (
        "une date telle que \"2026-11-26\" est attendue, pas '23/11/2026'")
    assert errors["event.scoring"]["error"].startswith("méthode de marque inconnue 'rubber'")
    assert errors["sections[0].tables"]["error"] == (
        "un nombre entier est attendu, pas 'six'")
    assert errors["sections[0].relai"]["error"].startswith(
        "clé inconnue (vouliez-vous dire « relay » ?) ; clés connues : ")
    assert errors["sections[0].pairs.2"]["error"] == "pas de licencié 9 dans la liste du club"
    assert errors["boards.file"]["error"] == "data : pas du base64"
    assert errors["boards.file"]["error_text"] == {"key": "setup_error.not_base64",
                                                   "values": {}}
    status, result = send_setup(client, [])
    assert (status, result["errors"][0]["error"]) == (
        400, "une mise en place est un objet JSON")
    # A section that cannot be built: each of its problems on its field, in French
    status, result = send_setup(client, {"sections": [
        {"movement": "mitchell", "tables": 3, "teams": 4, "duplicated": False}]}, check=True)
    assert status == 400 and {e["field"]: e["error"] for e in result["errors"]} == {
        "sections[0].teams": "pas pour un Mitchell",
        "sections[0].duplicated": "seulement pour un mouvement par équipes, pas un Mitchell"}
    # The roster's line problems too
    status, result = import_roster(client, "name,number\nAnn,1\nBob,x\nCid,1\n")
    assert status == 400 and [(e["line"], e["error"]) for e in result["errors"]] == [
        (3, "numéro de licence 'x' : un nombre entier à partir de 1 est attendu"),
        (4, "le numéro de licence 1 est aussi à la ligne 2")]
    # A club's movement file with a line the hub cannot play: the line's problem, in French
    broken = "4 2 2 2 0\n1 2 1 3 4 2\n1 1 1 3 4 2\n"
    data = base64.b64encode(broken.encode()).decode()
    status, result = send_setup(client, {"sections": [
        {"movement_file": {"name": "club.asc", "data": data}, "boards_per_round": 2}]},
        check=True)
    assert status == 400 and result["errors"] == [{
        "field": "sections[0].movement",
        "error": "club.asc ligne 3 : tour 2, table 1 : la paire 1 des deux côtés",
        "error_text": {"key": "setup_error.movement_file", "values": {"problems": [{
            "key": "setup_error.movement_line", "values": {
                "file": "club.asc", "line": 3, "problem": {
                    "key": "asc.pair_twice",
                    "values": {"pair": 1, "round": 2, "table": 1}}}}]}}}]


@pytest.mark.parametrize(("scoring", "method", "units"), [
    ("matchpoints", "mp", "MP"), ("imps", "butler", "IMPs"), ("butler", "butler", "IMPs"),
    ("cross-imps", "crossimp", "IMPs"), (None, "mp", "MP")])
def test_the_scoring_sent_with_the_set_up_scores_the_live_ranking(
        waiting: Any, scoring: str | None, method: str, units: str) -> None:
    """Law 78: the scoring the director picks is the live ranking's method (the pairs
    sections'; a teams section stays IMPs), kept in the log's set-up."""
    hub, client, _, _ = waiting
    assert get(client, "api/setup")[1]["defaults"]["scorings"] == [
        "matchpoints", "imps", "butler", "cross-imps"]
    event = {} if scoring is None else {"scoring": scoring}
    status, result = send_setup(client, {"event": event, "sections": [
        {"movement": "mitchell", "tables": 3},
        {"name": "T", "movement": "teams", "teams": 2}]})
    assert status == 200 and result["ok"], result
    assert hub.setup.scoring == (scoring or "")
    views = hub.call(lambda: [s.ranking_json() for s in hub.room.scoring.sections()])
    assert [(v["method"], v["units"]) for v in views] == [(method, units), ("imp", "IMPs")]
    assert get(client, "api/setup")[1]["setup"]["event"].get("scoring") == scoring


def test_boards_from_a_dealing_machines_file_sent_with_the_set_up(waiting: Any) -> None:
    hub, client, data, _ = waiting
    deals = BigDeal(bytes.fromhex(SEED), "Club").deals(1, 12)
    dlm = write_dealfile(deals, "dlm")
    doc = {"sections": [{"movement": "howell", "tables": 3, "boards_per_round": 2}],
           "boards": {"file": {"name": "../evening.dlm",
                               "data": base64.b64encode(dlm).decode()}}}
    status, result = send_setup(client, doc)
    assert status == 200, result
    assert (data / "boards" / "evening.dlm").read_bytes() == dlm      # kept, never outside
    assert dict(hub.setup.deals) == {b: deals[b] for b in hub.setup.deals}
    assert "DLM file" in hub.setup.boards_source
    short = {"sections": [{"movement": "mitchell", "tables": 8}],
             "boards": {"file": {"name": "evening.dlm", "data": base64.b64encode(dlm).decode()}}}
    status, result = send_setup(client, short)    # the set-up is there now, not started:
    assert status == 400 and result["errors"][0]["field"] == "boards.file"   # 16 boards


def test_a_new_set_up_is_refused_once_play_has_started(waiting: Any) -> None:
    hub, client, _, _ = waiting
    assert send_setup(client, {"sections": [{"movement": "mitchell", "tables": 3}]})[0] == 200
    events = [DeviceEvent("A1", "A1-tab", "checkin", {"direction": "NS", "pair": 1}, time.time()),
              DeviceEvent("A1", "A1-tab", "checkin", {"direction": "EW", "pair": 4}, time.time()),
              DeviceEvent("A1", "A1-tab", "board", {"board": 1}, time.time())]
    messages = [Message(topic_event(t, "A1-tab"), e.to_json().encode())
                for t, e in envelopes(events, run="late")]
    hub.call(lambda: hub.handle(messages))
    assert hub.room.tables["A1"].sittings
    status, result = send_setup(client, {"sections": [{"movement": "howell", "tables": 3}]})
    assert status == 409 and "play recorded" in result["error"]
    assert get(client, "api/setup")[1]["can_set_up"] is False


def test_roster_csv_errors_name_the_line_and_keep_the_roster(waiting: Any) -> None:
    _hub, client, data, _ = waiting
    assert import_roster(client)[0] == 200
    assert (data / "roster.csv").read_text(encoding="utf-8").splitlines()[1] == "Ann Smith,101"
    status, result = import_roster(client, "name,number\nAnn,1\nBob,x\n,3\nCid,1\n")
    assert status == 400
    assert [e["line"] for e in result["errors"]] == [3, 4, 5]
    assert "also on line 2" in result["errors"][2]["error"]
    members = get(client, "api/roster")[1]["members"]
    assert [m["number"] for m in members] == [101, 102, 103, 104]
    assert client.send("api/roster", b"a,1", "application/json")[0] == 415
    matched = get(client, "api/roster/match?name=" + urllib.parse.quote("  zoe DUPRE "))[1]
    assert matched["members"] == [{"name": "Zoé Dupré", "number": 103}]


def test_names_typed_at_check_in_are_matched_to_the_roster_and_never_forced(
        waiting: Any) -> None:
    hub, client, _, _ = waiting
    assert import_roster(client)[0] == 200
    assert send_setup(client, {"sections": [{"movement": "mitchell", "tables": 3}]})[0] == 200
    events = [DeviceEvent("A1", "A1-tab", "checkin", {
        "direction": "NS", "pair": 1,
        "players": [{"name": "jurgen muller"}, {"name": "A. Guest"}]}, time.time()),
              DeviceEvent("A1", "A1-tab", "checkin", {
                  "direction": "EW", "pair": 4, "players": [{"number": 103}]}, time.time())]
    messages = [Message(topic_event(t, "A1-tab"), e.to_json().encode())
                for t, e in envelopes(events, run="names")]
    hub.call(lambda: hub.handle(messages))
    checkins = get(client, "api/setup/checkins")[1]["checkins"]
    assert [(c["name"], c["members"]) for c in checkins] == [
        ("", [{"name": "Zoé Dupré", "number": 103}]),          # EW: its member number
        ("jurgen muller", [{"name": "Jürgen Müller", "number": 104}]), ("A. Guest", [])]
    assert hub.setup.sections[0].pairs == {}          # shown, never applied
    assert [c["pair_names"] for c in checkins] == [[], [], []]
    # the director accepts NS's: each of its lines then gives the pair's names, so that the
    # page offers no "Accept these names" for names already the pair's (the walk-through
    # found a button on every line of an evening whose names were all applied)
    assert client.send("api/director", json.dumps({
        "op": "checkin_accept", "table": "A1", "side": "NS",
        "names": ["Jürgen Müller", "A. Guest"]}).encode())[0] == 200
    checkins = get(client, "api/setup/checkins")[1]["checkins"]
    assert [(c["side"], c["pair_names"]) for c in checkins] == [
        ("EW", []), ("NS", ["Jürgen Müller", "A. Guest"]), ("NS", ["Jürgen Müller", "A. Guest"])]


def test_only_a_director_sets_up_and_only_with_the_csrf_token(waiting: Any) -> None:
    hub, client, _, _ = waiting
    scorer = Login(client.console)
    assert scorer.login("sam")[0] == 200
    assert send_setup(scorer, DOCUMENT)[0] == 403
    assert import_roster(scorer)[0] == 403
    client.csrf = "wrong"
    assert send_setup(client, DOCUMENT)[0] == 403
    assert hub.setup.waiting


def test_a_pbn_hand_record_larger_than_a_director_command_is_taken(waiting: Any) -> None:
    hub, client, _, _ = waiting
    deals = BigDeal(bytes.fromhex(SEED), "Club").deals(1, 26)
    padding = "{" + "analysis " * 600 + "}\n"        # what dealing software adds per board
    pbn = "".join(f'[Board "{b}"]\n[Dealer "{"NESW"[(b - 1) % 4]}"]\n'
                  f'[Vulnerable "{_law_2_vulnerability(b)}"]\n[Deal "{deal.pbn()}"]\n'
                  f"{padding}\n" for b, deal in deals.items())
    assert len(pbn) > 100_000
    doc = {"sections": [{"movement": "howell", "tables": 7, "boards_per_round": 2}],
           "boards": {"file": {"name": "evening.pbn",
                               "data": base64.b64encode(pbn.encode()).decode()}}}
    status, result = send_setup(client, doc)
    assert status == 200, result
    assert dict(hub.setup.deals) == deals and "PBN file" in hub.setup.boards_source
    huge = json.dumps({"sections": [], "pad": "x" * 2_200_000}).encode()
    assert client.send("api/setup", huge)[0] == 413
    assert hub.setup.deals == deals


def _law_2_vulnerability(board: int) -> str:
    from bridgecore.markings import Markings
    return str(Markings.of_board(board).to_json()["vulnerability"])


def test_tenace_hub_on_a_new_data_directory_without_an_event_waits_for_the_console(
        tmp_path: Path) -> None:
    """``tenace hub`` with neither --event nor --tables: it starts, says it waits, and a
    restart goes on waiting from the log (the waiting set-up is its first record)."""
    import subprocess
    import sys

    data = tmp_path / "data"
    for _ in range(2):
        process = subprocess.Popen(
            [sys.executable, "-m", "tenace", "hub", "--listen", "127.0.0.1:0",
             "--console", "127.0.0.1:0", "--data", str(data), "--no-double-dummy"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            assert process.stdout is not None
            lines = []
            for line in process.stdout:
                lines.append(line)
                if line.startswith("hub ready"):
                    break
            out = "".join(lines)
            assert "No event yet: the director sets it up on the console (/setup)" in out, out
            assert "director console: http://" in out
        finally:
            process.terminate()
            process.communicate(timeout=30)


def test_the_conventions_proposed_are_the_directors_federations_and_reach_the_room(
        waiting: Any) -> None:
    """The set-up page proposes the conventions the clubs of the director's language expect
    (bridgecore.conventions); the one sent scores the room (two units a score beaten for
    the FFB) and is kept in the log's set-up."""
    assert defaults("fr")["event"]["conventions"] == "ffb"
    assert defaults("en")["event"]["conventions"] == "ebu"
    assert defaults("it")["event"]["conventions"] == "wbf"
    assert DEFAULTS["event"].get("conventions") is None       # the module's own: untouched
    hub, client, _, _ = waiting
    state = get(client, "api/setup")[1]
    assert state["defaults"]["conventions"] == ["ebu", "acbl", "ffb", "wbf"]
    assert state["defaults"]["event"]["conventions"] in ("ebu", "ffb", "wbf")
    status, result = send_setup(client, {"event": {"conventions": "ffb"}, "sections": [
        {"movement": "mitchell", "tables": 3}]})
    assert status == 200 and result["ok"], result
    assert hub.setup.conventions == "ffb" and hub.call(lambda: hub.room.conventions) == "ffb"
    assert get(client, "api/setup")[1]["setup"]["event"]["conventions"] == "ffb"
    status, result = send_setup(client, {"event": {"conventions": "xyz"}, "sections": [
        {"movement": "mitchell", "tables": 3}]}, check=True)
    assert "event.conventions" in json.dumps(result)


def test_a_movement_file_is_sent_with_the_set_up_never_read_from_a_path(waiting: Any
                                                                         ) -> None:
    """``movement_file`` through the API is the file itself ({name, data} in base64): a
    path on the hub is refused (nothing there is read)."""
    from bridgecore.movement_files import write_asc
    from bridgecore.movements import howell

    hub, client, _, _ = waiting
    data = base64.b64encode(write_asc(howell(3, boards_per_round=2)).encode()).decode()
    section = {"movement_file": {"name": "../howell3.asc", "data": data},
               "boards_per_round": 2}
    status, result = send_setup(client, {"event": {}, "sections": [section]})
    assert status == 200 and result["ok"], result
    assert hub.setup.sections[0].asc_name == "howell3.asc"
    assert hub.call(lambda: hub.room.sections[0].movement.tables) == 3
    status, result = send_setup(client, {"event": {}, "sections": [
        {"movement_file": "/etc/passwd"}]}, check=True)
    assert status == 400
    assert result["errors"][0]["field"] == "sections[0].movement_file"


def test_the_events_language_is_the_directors_unless_he_chooses_another(waiting: Any) -> None:
    """The set-up page proposes the director's language as the event's (the results files'
    words, docs/translating.md), offers every complete catalog's, and a set-up sent without
    one takes the director's; an unknown language is named with the choices."""
    assert defaults("fr")["event"]["language"] == "fr"
    assert defaults("pl")["event"]["language"] == "pl"
    assert defaults("en_XA")["event"]["language"] == "en"     # the pseudo-locale: a test's
    hub, client, _, _ = waiting
    assert client.send("api/i18n", json.dumps({"language": "it"}).encode())[0] == 200
    state = get(client, "api/setup")[1]
    assert state["defaults"]["event"]["language"] == "it"
    assert set(state["defaults"]["languages"]) >= {"en", "fr", "it", "de", "nl", "es", "pl"}
    status, result = send_setup(client, {"sections": [{"movement": "mitchell", "tables": 3}]})
    assert status == 200 and result["ok"], result
    assert hub.setup.language == "it" and hub.call(lambda: hub.room.language) == "it"
    assert any("Risultati scritti in italiano" in line for line in result["summary"])
    status, result = send_setup(client, {"event": {"language": "xx"}, "sections": [
        {"movement": "mitchell", "tables": 3}]}, check=True)
    assert status == 400 and "event.language" in json.dumps(result)
