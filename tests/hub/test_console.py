"""The director's console (hub/console.py and hub/static): the HTTP API and the live feed
against a real room driven by real device envelopes, then the page itself in Debian's
headless Chromium (Selenium): the room map, a new alert arriving live with its sound, the
board drawn from the alert's evidence, the director acknowledging from the page (Laws 9B,
81: the system records, the director rules), the round clock.

Every request here is a logged-in director's (:class:`Login`: the session cookie and the CSRF
token, as the page sends them); what a request without them gets is
tests/hub/test_console_auth.py.

The hub here is small but real: director commands go through hub.director and Room.fact,
device events through Room.apply, and the console is told of each change as hub.service
tells it."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import random
import re
import socket
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any, ClassVar, TypeVar
from urllib.parse import urlsplit

import pytest
from argon2 import PasswordHasher

from bridgecore.bigdeal import random_deal
from bridgecore.cards import Seat
from bridgecore.deal import Deal
from bridgecore.movements import mitchell
from hub.alerts import Alert, AlertStatus
from hub.console import MAX_BODY, STATUSES, Console, alert_summary, table_status
from hub.director import parse_command
from hub.errors import HubError, error_text
from hub.room import Room, Section
from hub.users import UserStore
from tests.hub.test_director import Tables
from wire.protocol import ProtocolError

T = TypeVar("T")
START = 1_700_000_000.0
MOVEMENT = mitchell(7, boards_per_round=2)
DEALS = {n: random_deal(random.Random(n)) for n in range(1, 15)}
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
# A temporary folder; TENACE_SCREENSHOTS=docs/screenshots refreshes the committed one.
SCREENSHOT = Path(os.environ.get("TENACE_SCREENSHOTS")
                  or os.path.join(tempfile.gettempdir(), "tenace-screenshots")) / "console.png"
# The room as the scenario leaves it, before the end of round 1.
SCENARIO = {"A1": "alert", "A2": "bidding", "A3": "playing", "A4": "finished",
            "A5": "offline", "A6": "waiting", "A7": "alert"}
# The console's users in these tests (a cheap argon2 cost: the tests log in often).
FAST_HASH = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
PASSWORDS = {"dora": "director-pass-1", "sam": "scorer-pass-22", "vic": "viewer-pass-333"}
ROLES = {"dora": "director", "sam": "scorer", "vic": "viewer"}


def make_users(folder: Path) -> UserStore:
    """A director (dora), a scorer (sam) and a viewer (vic)."""
    users = UserStore.in_directory(folder, hasher=FAST_HASH)
    for name, password in PASSWORDS.items():
        users.add(name, ROLES[name], password)
    return users


class Login:
    """A client of one console with its own cookies: ``login(name)`` opens a session; every
    POST then carries the session's CSRF token, as the page does."""

    # The director's session of each console (by port): get() and post() below use it.
    of_port: ClassVar[dict[int, Login]] = {}

    def __init__(self, console: Console):
        self.console = console
        self.jar = CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.csrf = ""

    def login(self, name: str, password: str | None = None) -> tuple[int, Any]:
        status, result = self.send("api/login", json.dumps(
            {"name": name, "password": PASSWORDS[name] if password is None else password}
        ).encode(), csrf=False)
        if status == 200:
            self.csrf = result["csrf"]
        return status, result

    @classmethod
    def director(cls, console: Console) -> Login:
        client = cls(console)
        assert client.login("dora")[0] == 200
        cls.of_port[console.port] = client
        return client

    def open(self, request: urllib.request.Request | str) -> Any:
        return self.opener.open(request, timeout=5)

    def send(self, path: str, data: bytes, content_type: str = "application/json",
             headers: dict[str, str] | None = None, csrf: bool = True) -> tuple[int, Any]:
        head = {"Content-Type": content_type, **({"X-CSRF-Token": self.csrf} if csrf else {}),
                **(headers or {})}
        req = urllib.request.Request(self.console.url + path, data, head)
        try:
            with self.open(req) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as err:
            with err:
                return err.code, json.loads(err.read())

    def cookie(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.jar)


def _client(url: str) -> Any:
    """The director's session of the console at ``url`` (else no session)."""
    found = Login.of_port.get(urlsplit(url).port or 0)
    return found.opener if found is not None else urllib.request.build_opener()


class Loop:
    """An asyncio loop in a thread: the hub's loop, while the test talks HTTP to it."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def call(self, fn: Callable[..., T], *args: Any, **kw: Any) -> T:
        """Run ``fn`` on the loop (where the hub runs) and return its result."""
        done: concurrent.futures.Future[T] = concurrent.futures.Future()

        def run() -> None:
            try:
                done.set_result(fn(*args, **kw))
            except BaseException as err:
                done.set_exception(err)

        self.loop.call_soon_threadsafe(run)
        return done.result(10)

    def run(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(10)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


class ConsoleTables(Tables):
    """Device events applied to the room, the console told of what changed (as the hub)."""

    console: Console | None = None

    def send(self, table: str, type: str, **body: Any) -> list[Alert]:
        alerts = super().send(table, type, **body)
        if self.console is not None:
            self.console.table_changed(table)
            for alert in alerts:
                self.console.alert_changed(alert)
        return alerts


class RoomHub:
    """What the console needs of the hub: the room, its clock, and director commands checked
    by hub.director, applied with Room.fact (and kept as the log would keep them)."""

    def __init__(self, room: Room):
        self.room = room
        self.tables = ConsoleTables(room)
        self.console: Console | None = None
        self.facts: list[tuple[str, dict[str, Any], float]] = []

    def hub_time(self) -> float:
        return self.tables.now

    def director(self, command: Any, account: str = "console") -> dict[str, Any]:
        try:
            kind, body = parse_command(command, self.room, account)
        except (ProtocolError, HubError) as err:
            return {"ok": False, "error": getattr(err, "reason", str(err)),
                    "error_text": error_text(err).to_json()}
        now = self.hub_time()
        raised = self.room.fact(kind, body, now)
        self.facts.append((kind, body, now))
        assert self.console is not None
        for alert in raised:
            self.console.alert_changed(alert)
        if kind == "round_start":
            self.console.clock_changed()
        changed = set(self.room.tables) if kind in ("round_start", "table_mode") else set()
        for table in changed | {a.table for a in raised}:
            self.console.table_changed(table)
        return {"ok": True, "fact": kind, "alerts": [a.id for a in raised]}

    def device_offline(self, device: str) -> None:
        self.tables.now += 1
        for alert in self.room.device_offline(device, self.tables.now):
            if self.console is not None:
                self.console.alert_changed(alert)
                self.console.table_changed(alert.table)


def revoke(tables: Tables, table: str) -> tuple[Alert, list[str]]:
    """1NT by the dealer (North), East leads a suit West holds, West plays another: a revoke
    (Law 61) detected as the card is played. Returns the alert and the cards of trick 1."""
    a = tables.room.assignment(table, 1)
    assert a is not None
    board = a.boards[0]
    deal = DEALS[board]
    assert Seat.dealer_of(board) is Seat.NORTH
    tables.sit(table, board)
    tables.calls(table, "1NT", "Pass", "Pass", "Pass")

    def suit(seat: Seat, s: str) -> list[str]:
        return [str(c) for c in deal[seat] if str(c)[0] == s]

    led = next(s for s in "SHDC" if suit(Seat.EAST, s) and suit(Seat.WEST, s)
               and len(suit(Seat.WEST, s)) < 13)
    south = suit(Seat.SOUTH, led) or [str(c) for c in deal[Seat.SOUTH]]
    west = next(str(c) for c in deal[Seat.WEST] if str(c)[0] != led)
    cards = [suit(Seat.EAST, led)[0], south[0], west]
    assert tables.card(table, "E", cards[0]) == []
    assert tables.card(table, "S", cards[1]) == []
    (alert,) = [x for x in tables.card(table, "W", cards[2]) if x.kind == "revoke"]
    return alert, cards


def scenario(hub: RoomHub) -> dict[str, Alert]:
    """Every status at once: A1 an insufficient bid (Law 27), A2 bidding, A3 playing, A4 both
    boards passed out, A5 a tablet offline, A6 nobody yet, A7 a revoke (Law 61)."""
    t = hub.tables
    t.sit("A1", 1)
    (insufficient,) = t.calls("A1", "1S", "1H")
    t.sit("A2", 3)
    t.calls("A2", "1C")
    t.sit("A3", 5)
    t.calls("A3", "1NT", "Pass", "Pass", "Pass")
    t.card("A3", "E", str(next(iter(DEALS[5][Seat.EAST]))))
    t.sit("A4", 7)
    t.calls("A4", "Pass", "Pass", "Pass", "Pass")
    t.send("A4", "board", board=8)
    t.calls("A4", "Pass", "Pass", "Pass", "Pass")
    t.sit("A5", 9)
    hub.device_offline("A5-tab")
    revoked, _ = revoke(t, "A7")
    return {"insufficient": insufficient, "revoke": revoked}


def make_hub() -> RoomHub:
    room = Room(Section("A", MOVEMENT), DEALS, minutes_per_round=15)
    room.start_round(1, START)
    return RoomHub(room)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Loop, RoomHub, Console, dict[str, Alert]]]:
    loop = Loop()
    hub = make_hub()
    alerts = loop.call(scenario, hub)
    console = Console(hub, coalesce=0.05, users=make_users(tmp_path))
    hub.console = hub.tables.console = console
    loop.run(console.start())
    Login.director(console)
    try:
        yield loop, hub, console, alerts
    finally:
        loop.run(console.stop())
        loop.close()


def get(url: str) -> tuple[int, Any]:
    try:
        with _client(url).open(url, timeout=5) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as err:
        with err:
            return err.code, json.loads(err.read())


def post(url: str, data: bytes, content_type: str = "application/json",
         headers: dict[str, str] | None = None) -> tuple[int, Any]:
    login = Login.of_port.get(urlsplit(url).port or 0)
    csrf = {} if login is None else {"X-CSRF-Token": login.csrf}
    req = urllib.request.Request(url, data, {"Content-Type": content_type, **csrf,
                                             **(headers or {})})
    try:
        with _client(url).open(req, timeout=5) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as err:
        with err:
            return err.code, json.loads(err.read())


def raw(console: Console, request: bytes) -> bytes:
    """Send bytes as they are; the whole answer until the server closes."""
    with socket.create_connection(("127.0.0.1", console.port), timeout=5) as sock:
        sock.sendall(request)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


class Feed:
    """GET /api/events read event by event."""

    def __init__(self, console: Console):
        self.response = _client(console.url).open(console.url + "api/events", timeout=5)
        assert self.response.headers["Content-Type"] == "text/event-stream"

    def next(self) -> tuple[str, Any]:
        name, data = "", ""
        while True:
            line = self.response.readline().decode()
            if line == "\n" and name:
                return name, json.loads(data)
            if line.startswith("event: "):
                name = line[7:].strip()
            elif line.startswith("data: "):
                data += line[6:]

    def until(self, test: Callable[[str, Any], bool]) -> list[tuple[str, Any]]:
        seen = []
        while True:
            seen.append(self.next())
            if test(*seen[-1]):
                return seen

    def close(self) -> None:
        self.response.close()


# The HTTP API -------------------------------------------------------------------------------

def test_room_overview_has_every_status_the_clock_and_open_alerts(served: Any) -> None:
    _, hub, console, alerts = served
    status, room = get(console.url + "api/room")
    assert status == 200
    assert {t["id"]: t["status"] for t in room["tables"]} == SCENARIO
    assert set(SCENARIO.values()) | {"late"} == set(STATUSES)
    by_id = {t["id"]: t for t in room["tables"]}
    assert by_id["A1"]["board"] == 1 and by_id["A1"]["phase"] == "auction"
    assert by_id["A1"]["pairs"] == {"NS": 1, "EW": 8} and by_id["A1"]["alerts"] == 1
    assert by_id["A3"]["contract"] == "1NT" and by_id["A3"]["declarer"] == "N"
    assert by_id["A4"]["done"] == 2 and by_id["A4"]["boards"] == [7, 8]
    assert by_id["A5"]["devices"]["offline"] == ["A5-tab"] and by_id["A5"]["section"] == "A"
    assert room["clock"] == {"round": 1, "started": START, "deadline": START + 900,
                             "minutes": 15, "hub_time": hub.tables.now,
                             # from the tables: A4 alone of the 7 has finished round 1
                             "in_play": [1], "finished": 0, "behind": 6,
                             "last": MOVEMENT.rounds}
    ids = [a["id"] for a in room["alerts"]]
    assert set(ids) == {a.id for a in hub.room.alerts.open()}
    assert ids[0] == alerts["revoke"].id                   # newest first
    assert "evidence" not in room["alerts"][0] and room["counts"]["open"] == 3


def test_law_8_tables_not_done_at_the_end_of_the_round_are_late(served: Any) -> None:
    loop, hub, console, _ = served
    hub.tables.now = START + 15 * 60 + 1
    _, room = get(console.url + "api/room")
    statuses = {t["id"]: t["status"] for t in room["tables"]}
    late = {**SCENARIO, "A2": "late", "A3": "late", "A6": "late"}
    assert statuses == late
    assert loop.call(table_status, hub.room, "A4", hub.tables.now) == "finished"
    # The hub's clock raises its late_table alerts (Laws 8, 90B2): those tables stay "late",
    # a table with another alert stays "alert"; A4's two results were never confirmed (8C,
    # 79A): that is an alert.
    raised = loop.call(hub.room.tick, hub.tables.now)
    assert {a.table for a in raised if a.kind == "late_table"} == {
        "A1", "A2", "A3", "A5", "A6", "A7"}
    assert sorted(a.board for a in raised if a.kind == "result_unconfirmed") == [7, 8]
    after = {**late, "A4": "alert"}
    _, room = get(console.url + "api/room")
    assert {t["id"]: t["status"] for t in room["tables"]} == after
    assert {t["id"]: t["alerts"] for t in room["tables"]}["A2"] == 1
    assert loop.call(lambda: {tid: table_status(hub.room, tid, hub.tables.now)
                              for tid in hub.room.tables}) == after


def test_alert_in_full_with_evidence_and_options(served: Any) -> None:
    loop, hub, console, alerts = served
    revoked = alerts["revoke"]
    status, data = get(console.url + f"api/alert/{revoked.id}")
    stored = loop.call(lambda: hub.room.alerts[revoked.id].to_json())
    assert status == 200 and data == stored     # each option stored with its text (rect.*)
    assert all(o["say"]["key"].startswith("rect.") for o in data["options"])
    assert data["law"] == "61" and data["evidence"]["deal"] == DEALS[13].pbn()
    assert len(data["evidence"]["play"]) == 3 and data["options"]
    assert get(console.url + "api/alert/A9-1-revoke-1") == (404, {
        "ok": False, "error": "no alert A9-1-revoke-1",
        "text": {"key": "http.no_alert", "values": {"id": "A9-1-revoke-1"}}})


def test_law_9b_director_steps_posted_are_recorded_in_the_room(served: Any) -> None:
    loop, hub, console, alerts = served
    alert_id = alerts["insufficient"].id
    url = console.url + "api/director"
    hub.tables.now += 5
    status, result = post(url, json.dumps({"op": "acknowledge", "id": alert_id}).encode())
    assert (status, result) == (200, {"ok": True, "fact": "alert_acknowledge",
                                      "alerts": [alert_id]})
    acked = loop.call(lambda: hub.room.alerts[alert_id])
    assert acked.status is AlertStatus.ACKNOWLEDGED and acked.acknowledged_at == hub.tables.now
    status, result = post(url, json.dumps({"op": "acknowledge", "id": alert_id}).encode())
    assert status == 400 and result["ok"] is False and result["error"] == (
        f"Acknowledging the alert: alert {alert_id} is already acknowledged")
    assert result["error_text"]["values"]["reason"] == {
        "key": "refusal.alert_status",
        "values": {"id": alert_id, "status": {"key": "alert.acknowledged", "values": {}}}}
    post(url, json.dumps({"op": "rule", "id": alert_id, "text": "27B1"}).encode())
    status, result = post(url, json.dumps({"op": "resolve", "id": alert_id}).encode())
    assert status == 200 and loop.call(lambda: hub.room.alerts[alert_id].is_open) is False
    status, result = post(url, json.dumps({"op": "round_start", "round": 2}).encode())
    assert status == 200 and loop.call(lambda: hub.room.clock.round) == 2
    assert [f[0] for f in hub.facts] == ["alert_acknowledge", "alert_rule", "alert_resolve",
                                         "round_start"]
    _, room = get(console.url + "api/room")
    assert room["clock"]["round"] == 2
    assert [a["status"] for a in room["alerts"] if a["id"] == alert_id] == ["resolved"]


@pytest.mark.parametrize(("request_bytes", "status", "words"), [
    (b"GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n", 404, "no page '/nowhere'"),
    (b"GET /static/../console.py HTTP/1.1\r\nHost: x\r\n\r\n", 404, "no file"),
    (b"GET /static/%2e%2e/console.py HTTP/1.1\r\nHost: x\r\n\r\n", 404, "no file"),
    (b"GET /static/nothing.js HTTP/1.1\r\nHost: x\r\n\r\n", 404, "no file"),
    (b"GET /api/alert/A9-1-revoke-1 HTTP/1.1\r\nHost: x\r\n\r\n", 404, "no alert"),
    (b"GET /results/elsewhere HTTP/1.1\r\nHost: x\r\n\r\n", 404, "no page"),
    (b"DELETE /api/room HTTP/1.1\r\nHost: x\r\n\r\n", 405, "only GET"),
    (b"PUT /nowhere HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}", 405, "only GET"),
    (b"POST /api/director HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\r\n",
     411, "Content-Length"),
    (b"POST /api/director HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
     b"Transfer-Encoding: chunked\r\n\r\n", 411, "not chunked"),
    (b"POST /api/director HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n" % (MAX_BODY + 1),
     413, f"limit {MAX_BODY}"),
    (b"POST /api/director HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
     b"Content-Length: 9\r\n\r\n{not json", 400, "not JSON"),
])
def test_bad_requests_get_an_error_and_the_console_keeps_serving(
        served: Any, request_bytes: bytes, status: int, words: str) -> None:
    _, hub, console, _ = served
    login = Login.of_port[console.port]           # a director's request, from this machine
    request_bytes = request_bytes.replace(b"Host: x\r\n", b"Host: 127.0.0.1\r\nCookie: %s\r\n"
                                          b"X-CSRF-Token: %s\r\n" % (login.cookie().encode(),
                                                                      login.csrf.encode()))
    answer = raw(console, request_bytes)          # the console closes the connection
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 %d " % status), head
    assert b"\r\ncontent-type: application/json" in head.lower(), head
    assert b"\r\ncache-control: no-store" in head.lower(), head
    error = json.loads(body)
    assert error["ok"] is False and words in error["error"], error
    assert get(console.url + "api/room")[0] == 200 and hub.facts == []


@pytest.mark.parametrize(("request_bytes", "words"), [
    (b"hello\r\n\r\n", b"Invalid method"),
    (b"GET / HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n", b"Invalid header token"),
    (b"GET / HTTP/1.1\r\nHost: x\r\nX: " + b"a" * 20000 + b"\r\n\r\n", b"more than 16384 bytes"),
    (b"GET / HTTP/1.1\r\n\r\n", b"Host"),
])
def test_what_is_not_http_is_refused_by_the_server_and_the_console_keeps_serving(
        served: Any, request_bytes: bytes, words: bytes) -> None:
    """Not HTTP/1.1 at all (a request line, a header line without a colon, a header over
    16 KiB, no Host): aiohttp's parser answers 400 in plain text before any route."""
    _, _, console, _ = served
    answer = raw(console, request_bytes)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith((b"HTTP/1.0 400 ", b"HTTP/1.1 400 ")), head
    assert words in body, body
    assert get(console.url + "api/room")[0] == 200


def test_a_page_of_another_site_cannot_read_the_console(served: Any) -> None:
    """Every answer forbids caching, limits the page to its own origin and forbids any
    other site to frame it (clickjacking: frame-ancestors, and X-Frame-Options for older
    browsers; issue 23)."""
    _, _, console, _ = served
    for path in ("", "static/console.js", "api/room", "results", "api/results", "login",
                 "api/login"):
        with _client(console.url).open(console.url + path, timeout=5) as r:
            assert r.headers["Cache-Control"] == "no-store", path
            assert r.headers["X-Content-Type-Options"] == "nosniff", path
            assert r.headers["Content-Security-Policy"] == \
                "default-src 'self'; frame-ancestors 'none'", path
            assert r.headers["X-Frame-Options"] == "DENY", path


def test_bad_director_commands_are_refused_and_change_nothing(served: Any) -> None:
    loop, hub, console, _ = served
    url = console.url + "api/director"
    before = loop.call(hub.room.snapshot)
    cases = [
        (post(url, b"{not json"), 400, "not JSON"),
        (post(url, b'{"op": "acknowledge", "id": "x"}', "text/plain"), 415, "application/json"),
        (post(url, b'{"op": "acknowledge", "id": "x"}', headers={"Origin": "http://evil"}), 403,
         "another origin"),
        (post(url, b'[1, 2]'), 400, "JSON object"),
        (post(url, b'{"op": "explode"}'), 400, "unknown director command 'explode'"),
        (post(url, b'{"op": "acknowledge", "id": "A1-9-revoke-1"}'), 400, "no alert"),
        (post(url, b'{"op": "table_mode", "table": "Z9", "strict": true}'), 400, "no table"),
    ]
    for (status, result), expected, words in cases:
        assert status == expected and result["ok"] is False and words in result["error"], result
    assert loop.call(hub.room.snapshot) == before and hub.facts == []


def test_page_and_static_files_are_served(served: Any) -> None:
    _, _, console, _ = served
    for path in ("", "login"):
        with _client(console.url).open(console.url + path, timeout=5) as r:
            page = r.read().decode()
            assert r.headers["Content-Type"].startswith("text/html")
        for src in re.findall(r'(?:src|href)="(/static/[^"]+)"', page):
            with urllib.request.urlopen(console.url + src[1:], timeout=5) as r:
                assert r.status == 200 and r.read()


# The live feed ------------------------------------------------------------------------------

def test_feed_sends_the_room_then_a_new_alert_and_its_table(served: Any) -> None:
    loop, hub, console, _ = served
    feed = Feed(console)
    try:
        name, room = feed.next()
        assert name == "room" and {t["id"]: t["status"] for t in room["tables"]} == SCENARIO
        # A burst at A2 in one turn of the loop: West's 1C after South's 1C (Law 27), then
        # North passes over it (27A1: the bid is accepted, a new version of the alert).
        found = loop.call(lambda: hub.tables.calls("A2", "1C", "Pass"))
        (alert_id,) = {a.id for a in found}
        seen = feed.until(lambda n, d: n == "alert" and d["id"] == alert_id)
        assert [d for n, d in seen if n == "table"] == [
            loop.call(lambda: console.overview()["tables"][1])]   # one A2 update, coalesced
        assert [n for n, _ in seen] == ["table", "alert"]
        assert seen[-1][1] == loop.call(lambda: alert_summary(hub.room.alerts[alert_id]))
        assert seen[-1][1]["kind"] == "insufficient_bid" and seen[-1][1]["status"] == "open"
        assert seen[0][1]["id"] == "A2" and seen[0][1]["status"] == "alert"
        hub.tables.now += 1
        loop.call(hub.director, {"op": "round_start", "round": 2})
        seen = feed.until(lambda n, d: n == "clock")
        assert seen[-1][1]["round"] == 2 and seen[-1][1]["started"] == hub.tables.now
    finally:
        feed.close()
    for _ in range(200):                  # the page went away: its place is freed
        if loop.call(lambda: console.pages) == 0:
            break
        time.sleep(0.02)
    assert console.pages == 0


def test_a_page_too_slow_is_dropped_and_the_hub_goes_on(served: Any) -> None:
    loop, hub, console, _ = served
    console.queue_size = 4
    console.coalesce = 0.0
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
        sock.connect(("127.0.0.1", console.port))
        sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n")   # then never reads
        tables = list(hub.room.tables)
        for _ in range(2000):
            for table in tables:                 # each a flush of its own
                loop.call(console.table_changed, table)
            if console.pages == 0:
                break
        assert console.pages == 0
    assert get(console.url + "api/room")[0] == 200


# The page in headless Chromium ----------------------------------------------------------------

@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    assert Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists(), \
        "Debian's chromium and chromium-driver are needed (apt-get install chromium " \
        "chromium-driver): see scripts/test"
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                "--window-size=1600,1500", "--autoplay-policy=no-user-gesture-required"):
        options.add_argument(arg)
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    try:
        yield driver
    finally:
        driver.quit()


def browser_login(driver: Any, console: Console, name: str = "dora",
                  password: str | None = None) -> None:
    """Log in on the console's login page, as a person would (the page asked for first
    sends the browser there)."""
    driver.get(console.url)
    wait(driver, lambda d: "/login" in d.current_url
         and d.find_elements("id", "login-name"))
    driver.find_element("id", "login-name").send_keys(name)
    driver.find_element("id", "login-password").send_keys(
        PASSWORDS[name] if password is None else password)
    driver.find_element("id", "login-submit").click()
    wait(driver, lambda d: "/login" not in d.current_url)


@pytest.fixture(scope="module")
def page(browser: Any, tmp_path_factory: pytest.TempPathFactory
         ) -> Iterator[tuple[Any, Loop, RoomHub, dict[str, Alert]]]:
    loop = Loop()
    hub = make_hub()
    hub.tables.now = START + 100
    alerts = loop.call(scenario, hub)
    console = Console(hub, coalesce=0.1, users=make_users(tmp_path_factory.mktemp("users")))
    hub.console = hub.tables.console = console
    loop.run(console.start())
    browser_login(browser, console)
    wait(browser, lambda d: len(d.find_elements("css selector", ".tile")) == 7)
    try:
        yield browser, loop, hub, alerts
    finally:
        assert hub.console is not None        # the one running now (a test may restart it)
        loop.run(hub.console.stop())
        loop.close()


def wait(driver: Any, test: Callable[[Any], Any], timeout: float = 10.0) -> Any:
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    # The page redraws a list or a tile as it changes: an element found may be replaced.
    return WebDriverWait(driver, timeout, poll_frequency=0.05,
                         ignored_exceptions=[StaleElementReferenceException]).until(test)


def click(driver: Any, selector: str, timeout: float = 10.0) -> None:
    """Click the element ``selector`` finds, found again when the page redrew it between
    the finding and the click (a stale element)."""
    wait(driver, lambda d: d.find_element("css selector", selector).click() or True, timeout)


def test_browser_map_shows_every_table_with_its_status(page: Any) -> None:
    driver, loop, hub, _ = page
    tiles = driver.find_elements("css selector", ".tile")
    shown = {t.get_attribute("data-table"): t.get_attribute("data-status") for t in tiles}
    expected = loop.call(lambda: {tid: table_status(hub.room, tid, hub.hub_time())
                                  for tid in hub.room.tables})
    assert shown == expected and len(set(shown.values())) >= 5
    for tile in tiles:
        assert tile.get_attribute("data-status") in tile.text.lower()
    assert "s-offline" in driver.find_element("id", "tile-A5").get_attribute("class")


def test_browser_clock_counts_down_the_round(page: Any) -> None:
    driver, _, hub, _ = page
    assert driver.find_element("id", "clock-round").text == "Round 1 in play"
    assert driver.find_element("id", "clock-which").text == "clock of round 1"
    left = driver.find_element("id", "clock-left").text
    minutes, seconds = map(int, re.fullmatch(r"(\d+):(\d\d)", left).groups())  # type: ignore
    remaining = START + 900 - hub.hub_time()
    assert abs(minutes * 60 + seconds - remaining) <= 60  # the page runs on from hub time


def test_browser_law_27_alert_raised_later_appears_live_with_a_beep(page: Any) -> None:
    driver, loop, hub, _ = page
    driver.execute_script("window.notReloaded = true")
    beeps = driver.execute_script("return window.tenaceBeeps")
    (raised,) = loop.call(lambda: hub.tables.calls("A2", "1C"))   # West: 1C after 1C
    item = wait(driver, lambda d: d.find_elements("id", f"alert-{raised.id}"))[0]
    assert "Insufficient bid" in item.text and "Table A2" in item.text and "Law 27" in item.text
    assert driver.execute_script("return window.tenaceBeeps") == beeps + 1
    assert driver.execute_script("return window.notReloaded") is True
    wait(driver, lambda d: d.find_element("id", "tile-A2").get_attribute("data-status")
         == "alert")
    shown = [li.get_attribute("data-alert") for li in
             driver.find_elements("css selector", "#feed li")]
    newest_first = loop.call(lambda: [a.id for a in hub.room.alerts.open()][::-1])
    assert shown == newest_first and shown[0] == raised.id


def suit_lines(deal: Deal, seat: Seat) -> dict[str, str]:
    out = {}
    for s in "SHDC":
        ranks = "".join(str(c)[1:] for c in deal[seat] if str(c)[0] == s).replace("T", "10")
        out[s] = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[s] + " " + (ranks or "–")
    return out


def test_browser_law_61_alert_detail_draws_the_board(page: Any) -> None:
    driver, _, _, alerts = page
    revoked = alerts["revoke"]
    driver.find_element("id", f"alert-{revoked.id}").click()
    wait(driver, lambda d: d.find_elements("css selector", "#diagram .hand"))
    for seat in Seat:
        for s, text in suit_lines(DEALS[13], seat).items():
            line = driver.find_element(
                "css selector", f'#diagram [data-seat="{seat.letter}"] [data-suit="{s}"]')
            assert line.text.replace("\n", "") == text
    auction = driver.find_element("id", "auction")
    assert [c.text for c in auction.find_elements("css selector", "td[data-index]")] == [
        "1NT", "Pass", "Pass", "Pass"]
    assert [th.text for th in auction.find_elements("css selector", "th")] == [
        "North", "East", "South", "West"]                      # from the dealer
    assert driver.find_element("id", "contract").text == "Contract 1NT by North"
    trick = driver.find_element("css selector", '#play tr[data-trick="1"]')
    assert "mark" in trick.get_attribute("class")               # the revoke's trick
    played = [c for c in trick.find_elements("css selector", "td")[1:5] if c.text]
    assert len(played) == 3
    options = driver.find_elements("css selector", ".options li")
    assert len(options) == len(revoked.options)
    assert [o.find_element("css selector", ".law").text for o in options] == [
        o["law"] for o in revoked.options]


def test_browser_law_9b_acknowledge_from_the_page_records_the_time(page: Any) -> None:
    driver, loop, hub, alerts = page
    alert_id = alerts["insufficient"].id
    driver.find_element("id", f"alert-{alert_id}").click()
    wait(driver, lambda d: d.find_elements("css selector", "#auction td.mark"))
    marked = driver.find_element("css selector", "#auction td.mark")
    assert marked.text == "1♥" and marked.get_attribute("data-index") == "2"
    hub.tables.now += 7
    driver.find_element("id", "do-acknowledge").click()
    wait(driver, lambda d: d.find_element("id", "detail-status").text.lower() == "acknowledged")
    acked = loop.call(lambda: hub.room.alerts[alert_id])
    assert acked.status is AlertStatus.ACKNOWLEDGED and acked.acknowledged_at == hub.hub_time()
    assert hub.facts[-1] == ("alert_acknowledge", {"id": alert_id, "by": "dora"},
                             hub.hub_time())            # the logged-in director gave it
    wait(driver, lambda d: d.find_element("id", f"alert-{alert_id}").get_attribute(
        "data-status") == "acknowledged")
    assert driver.find_element("id", "do-acknowledge").get_attribute("disabled") is not None
    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []                               # no script error, no failed request
    driver.execute_script("window.scrollTo(0, 0)")
    time.sleep(0.2)                                   # let the flash of the new alert fade
    driver.save_screenshot(str(SCREENSHOT))


def test_browser_page_reconnects_and_catches_up_without_reloading(page: Any) -> None:
    driver, loop, hub, _ = page
    driver.execute_script("window.notReloaded = true")
    beeps = driver.execute_script("return window.tenaceBeeps")
    old = hub.console
    assert old is not None
    loop.run(old.stop())
    wait(driver, lambda d: d.find_element("id", "link").text != "live")
    # While the page is cut off, South opens 1S at A6 and West bids 1H (Law 27).
    a = hub.room.assignment("A6", 1)
    assert a is not None

    def insufficient() -> Alert:
        hub.tables.sit("A6", a.boards[0])
        (alert,) = hub.tables.calls("A6", "1S", "1H")
        return alert

    raised = loop.call(insufficient)
    # The same users and sessions (the hub keeps them): the page is still logged in.
    new = Console(hub, port=old.port, coalesce=0.1, users=old.users, sessions=old.sessions)
    hub.console = hub.tables.console = new
    loop.run(new.start())
    wait(driver, lambda d: d.find_elements("id", f"alert-{raised.id}"))
    assert driver.execute_script("return window.tenaceBeeps") == beeps + 1
    assert driver.execute_script("return window.notReloaded") is True
    assert driver.find_element("id", "link").text == "live"
    assert driver.find_element("id", "tile-A6").get_attribute("data-status") == "alert"
