"""The director's console behind its login (hub/console.py, hub/users.py, hub/webserver.py's
Host/Origin guard), tried as someone on the club's network would: every page and API without
a session, a forged Host (DNS rebinding) or Origin (another site's page), a POST without
the session's CSRF token, guessed passwords, a viewer or a scorer doing a director's work;
then the accounts themselves (argon2 hashes in a 0600 file, ``tenace users``), the account
named in the log, and the login and logout in headless Chromium.

The console is served over the small hub of tests/hub/test_console.py (its scenario: alerts
at A1 and A7 with the deal in their evidence). No assertion reads the wall clock: the
throttle's and the sessions' clocks are the test's."""

from __future__ import annotations

import http.client
import json
import logging
import os
import socket
import stat
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hub.alerts import Alert
from hub.console import COOKIE, Console
from hub.users import LoginThrottle, Sessions, UserError, UserStore
from tests.hub.test_console import (  # noqa: F401 - the browser fixture
    FAST_HASH,
    PASSWORDS,
    Login,
    Loop,
    RoomHub,
    browser,
    browser_login,
    make_hub,
    make_users,
    scenario,
    wait,
)

SCREENSHOT = Path(__file__).resolve().parents[2] / "docs" / "screenshots" / "console-login.png"


class Clock:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


Served = tuple[Loop, RoomHub, Console, dict[str, Alert], Clock]


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    loop = Loop()
    hub = make_hub()
    alerts = loop.call(scenario, hub)
    clock = Clock()
    console = Console(hub, coalesce=0.05, users=make_users(tmp_path),
                      allowed_hosts=["hub.club.example"], sessions=Sessions(clock=clock),
                      throttle=LoginThrottle(clock=clock))
    hub.console = hub.tables.console = console
    loop.run(console.start())
    try:
        yield loop, hub, console, alerts, clock
    finally:
        loop.run(console.stop())
        loop.close()


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kw: Any) -> None:
        return None


def anonymous(console: Console, path: str, data: bytes | None = None,
              headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """A request without a session (redirects not followed): status, headers, body."""
    opener = urllib.request.build_opener(_NoRedirect)
    req = urllib.request.Request(console.url + path, data, headers or {})
    try:
        with opener.open(req, timeout=5) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as err:
        with err:
            return err.code, dict(err.headers), err.read()


def raw(console: Console, request: bytes, source: str = "127.0.0.1") -> tuple[int, bytes]:
    """Bytes as they are (from ``source``, an address of the loopback): status and body."""
    with socket.create_connection(("127.0.0.1", console.port), timeout=5,
                                  source_address=(source, 0)) as sock:
        sock.sendall(request)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    head, _, body = b"".join(chunks).partition(b"\r\n\r\n")
    return int(head.split()[1]), body


def director_post(login: Login, command: dict[str, Any], host: str | None = None,
                  **headers: str) -> bytes:
    """A director's POST /api/director as raw bytes, with the session and ``headers``."""
    body = json.dumps(command).encode()
    extra = "".join(f"{k.replace('_', '-')}: {v}\r\n" for k, v in headers.items())
    return (f"POST /api/director HTTP/1.1\r\nHost: {host or f'127.0.0.1:{login.console.port}'}"
            f"\r\nCookie: {login.cookie()}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n{extra}Connection: close\r\n\r\n").encode() + body


# Without a session ------------------------------------------------------------------------------

@pytest.mark.parametrize("path", ["api/room", "api/alert/A1-1-insufficient_bid-1",
                                  "api/events", "api/session"])
def test_every_api_without_a_session_is_401(served: Served, path: str) -> None:
    _, _, console, _, _ = served
    status, headers, body = anonymous(console, path)
    assert status == 401 and json.loads(body) == {"ok": False, "error": "log in first (/login)",
                                                  "text": {"key": "http.log_in", "values": {}}}
    assert headers["Cache-Control"] == "no-store"


def test_a_refusal_is_worded_in_the_reader_s_language(served: Served) -> None:
    """docs/protocol.md section 1, Texts: the refusal's message, worded as the browser asks
    (Accept-Language, or the language cookie), its key beside it."""
    _, _, console, _, _ = served
    _, _, body = anonymous(console, "api/room", None, {"Accept-Language": "it-IT,it;q=0.9"})
    assert json.loads(body) == {"ok": False, "error": "accedete prima (/login)",
                                "text": {"key": "http.log_in", "values": {}}}
    _, _, body = anonymous(console, "api/room", None, {"Cookie": "tenace_lang=fr"})
    assert json.loads(body)["error"] == "connectez-vous d'abord (/login)"


@pytest.mark.parametrize("path", ["api/director", "api/logout"])
def test_every_post_without_a_session_is_401_and_changes_nothing(served: Served,
                                                                path: str) -> None:
    loop, hub, console, alerts, _ = served
    before = loop.call(hub.room.snapshot)
    status, _, body = anonymous(console, path, json.dumps(
        {"op": "acknowledge", "id": alerts["revoke"].id}).encode(),
        {"Content-Type": "application/json"})
    assert status == 401 and "log in first" in json.loads(body)["error"]
    assert loop.call(hub.room.snapshot) == before and hub.facts == []


@pytest.mark.parametrize("path", ["", "index.html"])
def test_the_console_page_without_a_session_sends_to_the_login(served: Served,
                                                               path: str) -> None:
    _, _, console, _, _ = served
    status, headers, _ = anonymous(console, path)
    assert status == 303 and headers["Location"] == f"/login?next=/{path}"


@pytest.mark.parametrize("path", ["login", "static/login.js", "static/console.css", "results",
                                  "api/results", "api/login"])
def test_the_login_and_the_public_results_need_no_session(served: Served, path: str) -> None:
    _, _, console, _, _ = served
    assert anonymous(console, path)[0] == 200


# Forged Host and Origin ------------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/", "/login", "/api/login", "/api/room", "/results",
                                  "/api/results", "/static/console.js"])
def test_dns_rebinding_a_foreign_host_is_refused_everywhere(served: Served, path: str) -> None:
    """A page of attacker.example whose name now resolves to the hub: the browser sends
    ``Host: attacker.example``, even with the director's cookie (had it one)."""
    _, _, console, _, _ = served
    login = Login.director(console)
    status, body = raw(console, f"GET {path} HTTP/1.1\r\nHost: attacker.example:{console.port}"
                                f"\r\nCookie: {login.cookie()}\r\nConnection: close\r\n\r\n"
                       .encode())
    assert status == 403 and b"another host 'attacker.example:" in body


def test_dns_rebinding_a_command_with_a_foreign_host_is_refused(served: Served) -> None:
    loop, hub, console, alerts, _ = served
    login = Login.director(console)
    before = loop.call(hub.room.snapshot)
    command = {"op": "acknowledge", "id": alerts["revoke"].id}
    status, body = raw(console, director_post(login, command, host="rebind.attacker.example",
                                              X_CSRF_Token=login.csrf))
    assert status == 403 and b"another host" in body
    assert loop.call(hub.room.snapshot) == before and hub.facts == []


@pytest.mark.parametrize("origin", ["http://evil.example", "null", "http://localhost:1",
                                    "https://127.0.0.1"])
def test_a_command_from_another_origin_is_refused(served: Served, origin: str) -> None:
    """Another site's page (or a sandboxed one, Origin null, or another port of this
    machine) posting through the director's browser, cookie and all."""
    loop, hub, console, alerts, _ = served
    login = Login.director(console)
    before = loop.call(hub.room.snapshot)
    status, body = raw(console, director_post(
        login, {"op": "acknowledge", "id": alerts["revoke"].id}, X_CSRF_Token=login.csrf,
        Origin=origin))
    assert status == 403 and b"another origin" in body
    assert loop.call(hub.room.snapshot) == before and hub.facts == []
    # The same command from the console's own origin is applied.
    status, _ = raw(console, director_post(
        login, {"op": "acknowledge", "id": alerts["revoke"].id}, X_CSRF_Token=login.csrf,
        Origin=f"http://127.0.0.1:{console.port}"))
    assert status == 200 and [f[0] for f in hub.facts] == ["alert_acknowledge"]


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1", "[::1]", "hub.club.example",
                                  "192.0.2.7", socket.gethostname()])
def test_the_console_answers_to_its_own_names(served: Served, host: str) -> None:
    """IP addresses, loopback names, this machine's name and --console-allowed-host."""
    _, _, console, _, _ = served
    status, _ = raw(console, f"GET /login HTTP/1.1\r\nHost: {host}:{console.port}\r\n"
                             "Connection: close\r\n\r\n".encode())
    assert status == 200


# CSRF ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("token", [None, "", "forged-token", "x" * 43])
def test_a_command_without_the_sessions_csrf_token_is_refused(served: Served,
                                                              token: str | None) -> None:
    loop, hub, console, alerts, _ = served
    login = Login.director(console)
    before = loop.call(hub.room.snapshot)
    headers = {} if token is None else {"X_CSRF_Token": token}
    status, body = raw(console, director_post(
        login, {"op": "acknowledge", "id": alerts["revoke"].id}, **headers))
    assert status == 403 and b"CSRF token" in body
    assert loop.call(hub.room.snapshot) == before and hub.facts == []
    other = Login(console)                    # another session's token is no better
    other.login("dora")
    status, _ = raw(console, director_post(
        login, {"op": "acknowledge", "id": alerts["revoke"].id}, X_CSRF_Token=other.csrf))
    assert status == 403 and hub.facts == []


def test_logout_needs_the_csrf_token_too(served: Served) -> None:
    _, _, console, _, _ = served
    login = Login.director(console)
    assert login.send("api/logout", b"", csrf=False)[0] == 403
    assert login.send("api/session", b"", csrf=False)[0] == 405    # GET only
    with login.open(console.url + "api/session") as r:
        assert json.loads(r.read())["user"] == "dora"                # still logged in


# Logging in -----------------------------------------------------------------------------------

def test_login_sets_a_strict_httponly_cookie_and_logout_ends_the_session(
        served: Served) -> None:
    loop, _, console, _, _ = served
    body = json.dumps({"name": "dora", "password": PASSWORDS["dora"]}).encode()
    status, headers, answer = anonymous(console, "api/login", body,
                                        {"Content-Type": "application/json"})
    assert status == 200 and json.loads(answer)["role"] == "director"
    cookie = headers["Set-Cookie"]
    assert cookie.startswith(f"{COOKIE}=") and "HttpOnly" in cookie
    assert "SameSite=Strict" in cookie and "Path=/" in cookie
    assert "Secure" not in cookie                  # plain HTTP here: Secure over TLS only
    login = Login.director(console)
    feed = login.open(console.url + "api/events")
    assert feed.readline() == b"retry: 2000\n"
    assert login.send("api/logout", b"")[0] == 200
    with pytest.raises((http.client.IncompleteRead, ConnectionError)):
        feed.read()                                 # the feed of that session is cut
    feed.close()
    status, _ = login.send("api/director", b'{"op": "round_start", "round": 2}')
    assert status == 401
    for _ in range(200):
        if loop.call(lambda: console.pages) == 0:
            break
    assert console.pages == 0


def test_wrong_passwords_are_refused_then_throttled_and_logged_without_the_password(
        served: Served, caplog: pytest.LogCaptureFixture) -> None:
    """Five wrong passwords from one address: the sixth try waits, even with the right
    password (429, Retry-After), and waits longer after each further failure; the name and
    the address are logged, never what was typed."""
    _, _, console, _, clock = served
    client = Login(console)
    caplog.set_level(logging.INFO, logger="hub.console")
    for n in range(5):
        status, result = client.login("dora", f"guess-number-{n}")
        assert (status, result["error"]) == (401, "wrong name or password")
    status, result = client.login("dora")
    assert status == 429 and "too many failed logins" in result["error"]
    clock.now += 1.5                                 # the first wait is over
    assert client.login("dora", "guess-number-5")[0] == 401
    clock.now += 1.5                                 # the wait doubled: not yet
    assert client.login("dora")[0] == 429
    clock.now += 1.0
    assert client.login("dora")[0] == 200
    text = "\n".join(r.getMessage() for r in caplog.records)
    assert "login refused: user 'dora' from 127.0.0.1" in text
    assert "guess-number" not in text and PASSWORDS["dora"] not in text


def test_guessing_one_users_password_from_many_addresses_is_throttled_too(
        served: Served) -> None:
    """Per user name as well as per address: the wait follows the name to 127.0.0.2."""
    _, _, console, _, _ = served
    for n in range(5):
        body = json.dumps({"name": "sam", "password": f"guess-{n}-xxxxx"})
        request = (f"POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                   f"application/json\r\nContent-Length: {len(body)}\r\nConnection: close"
                   f"\r\n\r\n{body}").encode()
        assert raw(console, request, source=f"127.0.0.{10 + n}")[0] == 401
    body = json.dumps({"name": "sam", "password": PASSWORDS["sam"]})
    request = (f"POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
               f"application/json\r\nContent-Length: {len(body)}\r\nConnection: close"
               f"\r\n\r\n{body}").encode()
    assert raw(console, request, source="127.0.0.2")[0] == 429
    assert Login(console).login("dora")[0] == 200        # another user is not held up


@pytest.mark.parametrize("body", [b"{not json", b'["dora"]', b'{"name": "dora"}',
                                  b'{"name": 1, "password": "x"}'])
def test_a_malformed_login_is_a_400(served: Served, body: bytes) -> None:
    _, _, console, _, _ = served
    status, _, _ = anonymous(console, "api/login", body, {"Content-Type": "application/json"})
    assert status == 400


def test_an_idle_session_ends(served: Served) -> None:
    _, _, console, _, clock = served
    login = Login.director(console)
    clock.now += console.sessions.idle - 1
    assert login.send("api/director", b'{"op": "explode"}')[0] == 400   # alive, refused
    clock.now += console.sessions.idle + 1
    assert login.send("api/director", b'{"op": "explode"}')[0] == 401


def test_a_user_removed_or_given_a_new_password_is_logged_out(served: Served) -> None:
    _, _, console, _, _ = served
    assert console.users is not None
    dora, sam = Login.director(console), Login(console)
    sam.login("sam")
    console.users.passwd("dora", "a-new-password-1")
    console.users.remove("sam")
    for login in (dora, sam):
        assert login.send("api/director", b'{"op": "explode"}')[0] == 401
    assert Login(console).login("dora", "a-new-password-1")[0] == 200


def test_a_hub_without_a_director_account_says_how_to_make_one(tmp_path: Path) -> None:
    loop = Loop()
    hub = make_hub()
    console = Console(hub, users=UserStore.in_directory(tmp_path, hasher=FAST_HASH),
                      create_director="tenace users add NAME --role director --data /srv/t")
    loop.run(console.start())
    try:
        status, _, body = anonymous(console, "api/login")
        # Anyone may read this: never the data directory's path (issue 23).
        assert json.loads(body) == {"user": None, "role": None, "director_account": False,
                                    "create": "tenace users add NAME --role director "
                                              "--data DIR"}
        status, _, body = anonymous(console, "api/login", b'{"name": "a", "password": "b"}',
                                    {"Content-Type": "application/json"})
        assert status == 503 and "tenace users add NAME" in json.loads(body)["error"]
        assert "/srv/t" not in json.loads(body)["error"]
        # Made while the hub runs (tenace users add): it counts at once.
        UserStore.in_directory(tmp_path, hasher=FAST_HASH).add("dora", "director",
                                                               PASSWORDS["dora"])
        assert Login(console).login("dora")[0] == 200
    finally:
        loop.run(console.stop())
        loop.close()


# Roles ----------------------------------------------------------------------------------------

@pytest.mark.parametrize(("name", "command"), [
    ("vic", {"op": "acknowledge", "id": "A1-1-insufficient_bid-1"}),
    ("vic", {"op": "ruling", "kind": "penalty", "pair": 1, "amount": 0.5, "unit": "mp"}),
    ("sam", {"op": "acknowledge", "id": "A1-1-insufficient_bid-1"}),
    ("sam", {"op": "round_start", "round": 2}),
    ("sam", {"op": "table_mode", "table": "A1", "strict": True}),
])
def test_a_viewer_or_a_scorer_cannot_do_the_directors_work(served: Served, name: str,
                                                           command: dict[str, Any]) -> None:
    loop, hub, console, _, _ = served
    login = Login(console)
    login.login(name)
    before = loop.call(hub.room.snapshot)
    status, refused = login.send("api/director", json.dumps(command).encode())
    assert status == 403 and refused["error"].startswith(name), refused
    assert loop.call(hub.room.snapshot) == before and hub.facts == []


def test_a_scorer_gives_a_score_ruling_named_in_the_log(served: Served) -> None:
    """Law 90 from the scorer's session: applied, and the fact names the scorer."""
    _, hub, console, _, _ = served
    login = Login(console)
    login.login("sam")
    status, done = login.send("api/director", json.dumps(
        {"op": "ruling", "kind": "penalty", "pair": 1, "amount": 0.5, "unit": "mp",
         "text": "slow play"}).encode())
    assert status == 200 and done["ok"]
    assert hub.facts[-1][0] == "ruling" and hub.facts[-1][1]["by"] == "sam"


def test_the_deal_in_an_alert_is_the_directors_only(served: Served) -> None:
    _, _, console, alerts, _ = served
    path = f"api/alert/{alerts['revoke'].id}"
    director = Login.director(console)
    with director.open(console.url + path) as r:
        full = json.loads(r.read())
    assert full["evidence"]["deal"] and full["facts"]
    for name in ("sam", "vic"):
        login = Login(console)
        login.login(name)
        with login.open(console.url + path) as r:
            shown = json.loads(r.read())
        assert shown["evidence"] == {} and shown["facts"] == {} and shown["restricted"]
        assert shown["id"] == full["id"] and shown["options"] == full["options"]
        with login.open(console.url + "api/room") as r:      # the room is theirs to see
            assert json.loads(r.read())["tables"]


def test_a_command_through_the_real_hub_is_logged_with_the_user(tmp_path: Path) -> None:
    """hub.service.Hub.director(command, account): the fact logged says "by" whom, and the
    room rebuilt from the log is the same."""
    from hub.service import Hub
    from hub.store import EventLog
    from tests.hub.test_service import MitchellSetup, loader

    log = EventLog.open(tmp_path / "events.sqlite")
    hub = Hub(log, url="mqtt://127.0.0.1:1", setup=MitchellSetup(), setup_loader=loader)
    assert hub.director({"op": "table_mode", "table": "A1", "strict": True},
                        account="dora")["ok"]
    assert hub.director({"op": "public_results", "ranking": False, "names": True,
                         "boards": True}, account="dora")["ok"]
    facts = [r.data() for r in log.replay() if r.source == "director"]
    assert facts == [{"table": "A1", "strict": True, "by": "dora"},
                     {"ranking": False, "names": True, "boards": True, "by": "dora"}]
    snapshot = hub.room.snapshot()
    log.close()
    again = Hub(EventLog.open(tmp_path / "events.sqlite"), url="mqtt://127.0.0.1:1",
                setup_loader=loader)
    assert again.room.snapshot() == snapshot
    assert again.room.public_results == {"ranking": False, "names": True, "boards": True}
    again.log.close()


# The accounts ---------------------------------------------------------------------------------

def test_users_file_holds_argon2id_hashes_only_and_is_private(tmp_path: Path) -> None:
    users = make_users(tmp_path)
    mode = stat.S_IMODE(os.stat(users.path).st_mode)
    assert mode == 0o600
    text = users.path.read_text()
    assert all(p not in text for p in PASSWORDS.values())
    assert all(u["hash"].startswith("$argon2id$") for u in json.loads(text)["users"].values())
    assert users.verify("dora", PASSWORDS["dora"]) is not None
    assert users.verify("dora", PASSWORDS["sam"]) is None
    assert users.verify("nobody", PASSWORDS["dora"]) is None
    with pytest.raises(UserError, match="exists already"):
        users.add("dora", "viewer", "another-password")
    with pytest.raises(UserError, match="10 to 1024 characters"):
        users.add("eve", "viewer", "short")
    with pytest.raises(UserError, match="role 'admin'"):
        users.add("eve", "admin", "long-enough-password")
    with pytest.raises(UserError, match="user name"):
        users.add("../eve", "viewer", "long-enough-password")


def test_any_letter_makes_a_login_name_compared_in_any_case(served: Served,
                                                           tmp_path: Path) -> None:
    """Issue 25: "gaëlle" was refused as not letters. A name is letters of any script
    (NFC-normalised, so the decomposed "gaëlle" a keyboard may type is the same name) and is
    compared case-folded; a name with a space, a slash or a quote is still refused."""
    import unicodedata

    users = make_users(tmp_path / "unicode")
    for name in ("gaëlle", "Łukasz", "山田太郎", "zoë.o-brien"):
        assert users.add(name, "viewer", "long-enough-password").name == name
    decomposed = unicodedata.normalize("NFD", "Gaëlle")
    assert decomposed != "Gaëlle" and len(decomposed) == 7
    user = users.verify(decomposed, "long-enough-password")
    assert user is not None and user.name == "gaëlle"
    user = users.verify("ŁUKASZ", "long-enough-password")
    assert user is not None and user.name == "Łukasz"
    with pytest.raises(UserError, match="exists already"):
        users.add("GAËLLE", "viewer", "long-enough-password")
    for bad in ("gaëlle martin", "a/b", "o'brien", "-x", "", "é" * 65):
        with pytest.raises(UserError, match=r"letters \(of any script\)"):
            users.add(bad, "viewer", "long-enough-password")
    users.passwd("łukasz", "another-long-password")
    assert users.verify("Łukasz", "another-long-password") is not None
    users.remove("山田太郎")
    assert set(users.users()) == {"dora", "sam", "vic", "gaëlle", "Łukasz", "zoë.o-brien"}
    # through the console: the session names the user as written
    console = served[2]
    assert console.users is not None
    console.users.add("Gaëlle.B", "director", "long-enough-password")
    status, body = Login(console).login("gaëlle.b", "long-enough-password")
    assert status == 200 and body["user"] == "Gaëlle.B" and body["role"] == "director"


def test_tenace_users_add_list_passwd_remove(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    from tenace.cli import main

    data = tmp_path / "data"
    secret = tmp_path / "secret"
    secret.write_text("the-first-password\n")
    assert main(["users", "add", "dora", "--role", "director", "--password-file",
                 str(secret), "--data", str(data)]) == 0
    assert main(["users", "add", "sam", "--role", "scorer", "--password-file", str(secret),
                 "--data", str(data)]) == 0
    assert main(["users", "list", "--data", str(data)]) == 0
    out = capsys.readouterr().out
    assert "dora\tdirector" in out and "sam\tscorer" in out
    assert "the-first-password" not in out
    users = UserStore.in_directory(data)
    assert users.verify("dora", "the-first-password") is not None
    secret.write_text("the-second-password\n")
    assert main(["users", "passwd", "dora", "--password-file", str(secret), "--data",
                 str(data)]) == 0
    assert users.verify("dora", "the-second-password") is not None
    assert main(["users", "remove", "sam", "--data", str(data)]) == 0
    assert set(users.users()) == {"dora"}
    assert main(["users", "remove", "sam", "--data", str(data)]) == 2
    secret.write_text("short\n")
    assert main(["users", "add", "eve", "--role", "viewer", "--password-file", str(secret),
                 "--data", str(data)]) == 2
    assert "10 to 1024 characters" in capsys.readouterr().err


def test_the_demo_makes_its_own_director_account_and_forgets_it() -> None:
    """``tenace demo`` runs with one command: a director's account of its own, with a random
    password it prints, in a folder removed when it stops."""
    from tenace.live import demo_director

    with demo_director() as (users, name, password):
        assert users.verify(name, password) is not None and users.has_director()
        assert stat.S_IMODE(os.stat(users.path).st_mode) == 0o600
        folder = users.path.parent
    assert not folder.exists()


# The login page in headless Chromium ------------------------------------------------------------

def test_browser_login_and_logout(served: Served, browser: Any) -> None:  # noqa: F811
    """The page asked for sends the browser to the login; a wrong password is said so; the
    right one opens the console with the user's name; logging out goes back to the login,
    and the console's page sends there again."""
    _, _, console, _, _ = served
    browser.delete_all_cookies()
    browser.get(console.url)
    wait(browser, lambda d: "/login?next=/" in d.current_url
         and d.find_elements("id", "login-name"))
    assert browser.find_element("id", "no-director").get_attribute("hidden") is not None
    browser.find_element("id", "login-name").send_keys("dora")
    browser.find_element("id", "login-password").send_keys("not-the-password")
    browser.find_element("id", "login-submit").click()
    wait(browser, lambda d: d.find_element("id", "login-message").text
         == "wrong name or password")
    assert browser.find_element("id", "login-password").get_attribute("value") == ""
    browser.find_element("id", "login-name").clear()
    browser.find_element("id", "login-name").send_keys("dora")
    browser.execute_script("window.scrollTo(0, 0)")
    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SCREENSHOT))        # no password in it: none typed yet
    browser.find_element("id", "login-password").send_keys(PASSWORDS["dora"])
    browser.find_element("id", "login-submit").click()
    wait(browser, lambda d: d.find_element("id", "user").text == "dora · director")
    wait(browser, lambda d: d.find_elements("css selector", ".tile"))
    assert browser.get_cookie(COOKIE)["httpOnly"] is True
    assert browser.execute_script("return document.cookie") == ""   # not readable by scripts
    browser.find_element("id", "logout").click()
    wait(browser, lambda d: "/login" in d.current_url)
    browser.get(console.url)
    wait(browser, lambda d: "/login?next=/" in d.current_url)
    severe = [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert all("api/login" in m and "401" in m for m in severe), severe   # the wrong password


def test_browser_a_viewer_sees_the_room_without_the_directors_buttons(
        served: Served, browser: Any) -> None:  # noqa: F811
    _, _, console, alerts, _ = served
    browser.delete_all_cookies()
    browser_login(browser, console, "vic")
    wait(browser, lambda d: d.find_element("id", "user").text == "vic · viewer")
    assert not browser.find_element("id", "round-start").is_displayed()
    assert browser.find_element("id", "public-panel").get_attribute("hidden") is not None
    browser.find_element("id", f"alert-{alerts['revoke'].id}").click()
    wait(browser, lambda d: d.find_elements("id", "detail"))
    assert not browser.find_elements("css selector", "#diagram .hand")   # no deal for him
    browser.delete_all_cookies()


def test_tenace_hub_without_a_director_account_says_how_to_make_one(tmp_path: Path) -> None:
    """The club's IT volunteer starts the hub first: it says, without any secret, which
    command makes the director's account; made, the console takes it at once."""
    import subprocess
    import sys

    data = tmp_path / "data"
    process = subprocess.Popen(
        [sys.executable, "-m", "tenace", "hub", "--tables", "3", "--listen", "127.0.0.1:0",
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
        assert "no director's account yet" in out
        assert f"tenace users add NAME --role director --data {data}" in out
        url = next(w for w in out.split() if w.startswith("http://"))
        with urllib.request.urlopen(url + "api/login", timeout=5) as r:
            assert json.loads(r.read())["director_account"] is False
        UserStore.in_directory(data).add("alice", "director", "a-long-password")
        with urllib.request.urlopen(url + "api/login", timeout=5) as r:
            assert json.loads(r.read())["director_account"] is True
    finally:
        process.terminate()
        process.communicate(timeout=30)
