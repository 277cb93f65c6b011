"""Pairing devices with one-time codes (hub/pairing.py, hub/console_devices.py,
wire/pairing.py): a code is redeemed once and never twice, expires, is kept hashed and
survives a restart; wrong codes are throttled per address and for everyone and alert the
director; the credentials work on both brokers; revoking from the console cuts the device;
a spare paired mid-session goes on with the table's play while the old tablet is refused;
the QR code holds the URI; a device refuses a hub whose CA is not the one it scanned;
``tenace tablet --pair`` and ``tenace devices run --pair`` end to end; the Devices page in
headless Chromium.

Each test runs its own broker on its own accounts (not the session's keyring): pairing
rotates and revokes accounts. No assertion reads the wall clock: code expiry uses the
test's clock."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hub.accounts import Accounts, Credentials
from hub.broker import EmbeddedBroker
from hub.mosquitto import Mosquitto
from hub.pairing import (
    ALPHABET,
    PAIRING_FILE,
    Pairing,
    PairingError,
    normalise_code,
    pairing_uri,
    qr_svg,
)
from hub.service import Hub, HubRunner, data_log
from hub.tls import write_club_pki
from hub.users import UserStore
from tests.hub.test_console import FAST_HASH, browser, wait  # noqa: F401 - the browser fixture
from tests.hub.test_service import MitchellSetup, loader, revoke_script
from wire import pairing as device_side
from wire.errors import MqttError
from wire.link import DeviceLink
from wire.mqtt import MqttClient, using_keyring
from wire.outbox import Outbox

DEVICES = [f"A{t}-{d}" for t in (1, 2, 3) for d in ("tab", "N", "E", "S", "W", "rdr")]
# A temporary folder; TENACE_SCREENSHOTS=docs/screenshots refreshes the committed one.
SCREENSHOT = Path(os.environ.get("TENACE_SCREENSHOTS")
                  or os.path.join(tempfile.gettempdir(), "tenace-screenshots")) \
    / "console-devices.png"
DIRECTOR = ("dora", "director-pass-1")


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def make_pairing(folder: Path, **kw: Any) -> Pairing:
    return Pairing(Accounts(folder / "accounts"), folder / "data", broker="mqtt://*:1883",
                   devices=lambda: DEVICES, **kw)


# The codes themselves ---------------------------------------------------------------------------

def test_a_code_is_redeemed_once_and_never_twice(tmp_path: Path) -> None:
    pairing = make_pairing(tmp_path)
    drawn = pairing.draw("A1-N")
    assert len(drawn.code) == 8 and set(drawn.code) <= set(ALPHABET)
    assert drawn.shown == f"{drawn.code[:4]}-{drawn.code[4:]}"
    assert "A1-N" in pairing.pending()
    answer = pairing.redeem(drawn.shown.lower(), "10.0.0.7", "tablet 7")
    assert answer["account"] == answer["username"] == "A1-N"
    assert answer["role"] == "seat" and answer["table"] == "A1" and answer["seat"] == "N"
    assert answer["broker"] == "mqtt://*:1883" and answer["ca"] is None
    assert Accounts(tmp_path / "accounts").verify("A1-N", answer["password"])
    assert "A1-N" not in pairing.pending()
    with pytest.raises(PairingError) as again:
        pairing.redeem(drawn.code, "10.0.0.7")
    assert again.value.code == "used"
    assert Accounts(tmp_path / "accounts").verify("A1-N", answer["password"])   # unchanged


def test_a_code_expires_and_a_new_one_cancels_the_pending_one(tmp_path: Path) -> None:
    clock = Clock()
    pairing = make_pairing(tmp_path, clock=clock)
    late = pairing.draw("A1-tab")
    clock.now += 15 * 60 + 1
    with pytest.raises(PairingError) as expired:
        pairing.redeem(late.code, "10.0.0.8")
    assert expired.value.code == "expired"
    first = pairing.draw("A1-E")
    second = pairing.draw("A1-E")
    with pytest.raises(PairingError) as cancelled:
        pairing.redeem(first.code, "10.0.0.8")
    assert cancelled.value.code == "expired"
    assert pairing.redeem(second.code, "10.0.0.8")["account"] == "A1-E"
    assert "A1-tab" not in Accounts(tmp_path / "accounts")


def test_codes_are_kept_hashed_privately_and_survive_a_restart(tmp_path: Path) -> None:
    pairing = make_pairing(tmp_path)
    drawn = pairing.draw("A2-rdr")
    path = tmp_path / "data" / PAIRING_FILE
    text = path.read_text()
    assert drawn.code not in text and drawn.shown not in text
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert "A2-rdr" in text and drawn.code not in repr(drawn)
    restarted = make_pairing(tmp_path)
    assert restarted.redeem(drawn.code, "10.0.0.9")["role"] == "reader"


def test_only_the_events_devices_can_be_paired(tmp_path: Path) -> None:
    pairing = make_pairing(tmp_path)
    for account in ("tenace-hub", "director", "A9-N", "dealer-1"):
        with pytest.raises(PairingError) as refused:
            pairing.draw(account)
        assert refused.value.code == "no_account"


def test_wrong_codes_are_throttled_counted_logged_and_alerted(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    alerts: list[tuple[str, int]] = []
    pairing = make_pairing(tmp_path, on_failures=lambda a, n: alerts.append((a, n)))
    drawn = pairing.draw("A1-S")
    guesses = ["2222-2222", "XXXX-XXXX", "not a code", "3333-3333", "4444-4444"]
    for guess in guesses:
        with pytest.raises(PairingError) as wrong:
            pairing.redeem(guess, "10.0.0.66")
        assert wrong.value.code == "unknown_code"
    with pytest.raises(PairingError) as throttled:      # even the right code now waits
        pairing.redeem(drawn.code, "10.0.0.66")
    assert throttled.value.code == "throttled" and throttled.value.retry_after >= 1
    assert pairing.failures == 5
    assert all(g not in caplog.text for g in guesses[:2])      # the codes are never logged
    assert caplog.text.count("10.0.0.66") >= 5
    # another address still pairs; the attacker's alert comes every 10 wrong codes
    assert pairing.redeem(drawn.code, "10.0.0.5")["account"] == "A1-S"
    pairing.throttle.clock = lambda: time.monotonic() + 10_000   # its wait is over
    for _ in range(5):
        with pytest.raises(PairingError):
            pairing.redeem("5555-5555", "10.0.0.66")
    assert alerts == [("10.0.0.66", 10)]


def test_wrong_codes_from_many_addresses_are_throttled_for_everyone(tmp_path: Path) -> None:
    pairing = make_pairing(tmp_path, global_failures=8, global_window=60.0)
    drawn = pairing.draw("A3-W")
    for n in range(8):
        with pytest.raises(PairingError) as wrong:
            pairing.redeem("2345-6789", f"10.1.0.{n}")
        assert wrong.value.code == "unknown_code"
    with pytest.raises(PairingError) as throttled:
        pairing.redeem(drawn.code, "10.1.0.200")
    assert throttled.value.code == "throttled" and "this hub" in throttled.value.message


def test_codes_are_read_as_people_type_them() -> None:
    assert normalise_code(" k7qx-m2pd ") == "K7QXM2PD"
    assert not set("01ILOU") & set(ALPHABET) and len(ALPHABET) == 30


# The QR code and the URI ------------------------------------------------------------------------

def test_the_qr_code_holds_the_uri_with_the_cas_fingerprint(tmp_path: Path) -> None:
    pki = write_club_pki(tmp_path / "club", ["hub.local"])
    ca_pem = pki.ca_cert.read_bytes()
    uri = pairing_uri("http://192.168.1.10:8080", "K7QXM2PD", ca_pem)
    fingerprint = device_side.ca_fingerprint(ca_pem)
    assert uri == f"tenace-pair:?hub=http://192.168.1.10:8080&code=K7QX-M2PD&ca={fingerprint}"
    request = device_side.parse_pairing(uri)
    assert request == device_side.PairingRequest("http://192.168.1.10:8080", "K7QX-M2PD",
                                                 fingerprint)
    svg = qr_svg(uri)
    assert svg.startswith("<svg") and "<path" in svg
    # zbarimg (Debian's zbar-tools) reads the same QR code, drawn as a PNG by segno
    import segno
    png = tmp_path / "qr.png"
    segno.make_qr(uri, error="m").save(str(png), scale=8, border=4)
    zbarimg = shutil.which("zbarimg")
    assert zbarimg, "zbarimg is needed (apt-get install zbar-tools): see scripts/test"
    decoded = subprocess.run([zbarimg, "--raw", "-q", str(png)], capture_output=True,
                             text=True, timeout=30)
    assert decoded.stdout.strip() == uri


def test_device_side_refuses_malformed_codes_and_uris() -> None:
    for text, hub in (("K7QX", "http://h:1"), ("K7QX-M2P0", "http://h:1"),
                      ("K7QX-M2PD", None), ("tenace-pair:?hub=http://h:1", None),
                      ("tenace-pair:?hub=http://h:1&code=K7QX-M2PD&ca=md5:00", None),
                      ("K7QX-M2PD", "ftp://h")):
        with pytest.raises(device_side.PairingFailed) as bad:
            device_side.parse_pairing(text, hub)
        assert bad.value.code == "bad_code"
    assert device_side.parse_pairing("K7QX-M2PD", "h:8080").hub == "http://h:8080"


# Through the console and a live hub ------------------------------------------------------------

class Club:
    """A hub with its embedded broker (or Mosquitto) on accounts of its own, its console with
    a director, and pairing."""

    def __init__(self, folder: Path, broker: str = "amqtt", ca_pem: bytes | None = None,
                 console_tls: tuple[str, str] | None = None, cafile: str | None = None):
        self.folder = folder
        self.accounts = Accounts(folder / "accounts")
        hub_credentials = self.accounts.issue("tenace-hub")
        self.observer = self.accounts.issue("director")
        self.mosquitto: Mosquitto | None = None
        self.embedded: EmbeddedBroker | None = None
        if broker == "amqtt":
            self.embedded = EmbeddedBroker("127.0.0.1", 0, accounts=self.accounts.path)
            self.embedded.start()
            self.url = self.embedded.url
        else:
            self.mosquitto = Mosquitto(folder / "mosquitto", accounts=self.accounts)
            self.url = self.mosquitto.url
        users = UserStore.in_directory(folder / "console", hasher=FAST_HASH)
        users.add(*DIRECTOR[:1], "director", DIRECTOR[1])
        self.pairing = Pairing(Accounts(folder / "accounts"), folder / "data",
                               broker=self.url.replace("127.0.0.1", "*"), ca_pem=ca_pem,
                               devices=lambda: DEVICES,
                               reload=None if self.mosquitto is None else self.mosquitto.reload)
        self.hub = Hub(data_log(folder / "data"), url=hub_credentials.url(self.url),
                       setup=MitchellSetup(), setup_loader=loader, tick_seconds=0.2,
                       console=("127.0.0.1", 0),
                       console_options={"users": users, "pairing": self.pairing,
                                        "tls": console_tls})
        self.cafile = cafile                    # the console's authority, over HTTPS
        self.runner = HubRunner(self.hub)
        self.runner.__enter__()
        assert self.hub.console is not None
        self.base = self.hub.console.url.rstrip("/")
        self.session = self.login()

    def close(self) -> None:
        self.runner.__exit__(None, None, None)
        if self.embedded is not None:
            self.embedded.stop()
        if self.mosquitto is not None:
            self.mosquitto.stop()

    def login(self) -> tuple[Any, str]:
        from http.cookiejar import CookieJar
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()),
                                             *self._https())
        status, done = self.http("/api/login", {"name": DIRECTOR[0], "password": DIRECTOR[1]},
                                 (opener, ""))
        assert status == 200, done
        return opener, done["csrf"]

    def http(self, path: str, body: Any = None, session: tuple[Any, str] | None = None,
             headers: dict[str, str] | None = None) -> tuple[int, Any]:
        opener, csrf = session or (urllib.request.build_opener(*self._https()), "")
        data = None if body is None else json.dumps(body).encode()
        head = {"Content-Type": "application/json", **({"X-CSRF-Token": csrf} if csrf else {}),
                **(headers or {})}
        request = urllib.request.Request(self.base + path, data, head)
        try:
            with opener.open(request, timeout=20) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as err:
            with err:
                return err.code, json.loads(err.read())

    def _https(self) -> list[Any]:
        cafile = getattr(self, "cafile", None)
        if cafile is None:
            return []
        import ssl
        return [urllib.request.HTTPSHandler(context=ssl.create_default_context(cafile=cafile))]

    def draw(self, account: str) -> dict[str, Any]:
        status, drawn = self.http("/api/devices/pair", {"account": account}, self.session)
        assert status == 200 and drawn["ok"], drawn
        return drawn

    def facts(self) -> list[tuple[str, dict[str, Any]]]:
        with data_log(self.folder / "data") as stored:
            return [(r.type, r.data()) for r in stored.replay() if r.source == "director"]


@pytest.fixture
def club(tmp_path: Path) -> Iterator[Club]:
    made = Club(tmp_path)
    try:
        yield made
    finally:
        made.close()


def connects(url: str, client_id: str, timeout: float = 5.0) -> bool:
    client = MqttClient(url, client_id, clean_session=True, start=False,
                        reconnect_delay=(0.2, 0.5))
    try:
        client.start().wait_connected(timeout)
        return True
    except MqttError:
        return False
    finally:
        client.close(farewell=False)


def wait_until(check: Any, timeout: float = 60.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        got = check()
        if got or time.monotonic() > deadline:
            return got
        time.sleep(0.05)


def test_pair_from_the_console_then_the_device_connects_and_the_code_is_spent(
        club: Club) -> None:
    status, listing = club.http("/api/devices", session=club.session)
    assert status == 200 and [d["account"] for d in listing["devices"]][:6] == [
        "A1-tab", "A1-N", "A1-E", "A1-S", "A1-W", "A1-rdr"]
    assert not any(d["paired"] for d in listing["devices"])
    drawn = club.draw("A1-tab")
    assert drawn["uri"] == f"tenace-pair:?hub={club.base}&code={drawn['code']}"
    assert drawn["svg"].startswith("<svg")
    # the device: no session, no cookie
    status, answer = club.http("/api/pair", {"code": drawn["code"], "device": "tablet 3"})
    assert status == 200 and answer["ok"] and answer["account"] == "A1-tab"
    assert answer["broker"] == club.url and answer["first_seq"] == 0
    url = Credentials(answer["username"], answer["password"]).url(answer["broker"])
    assert connects(url, "A1-tab")
    status, again = club.http("/api/pair", {"code": drawn["code"]})
    assert status == 409 and again == {"ok": False, "code": "used", "error": again["error"]}
    assert club.http("/api/pair", {"code": "2345-6789"})[1]["code"] == "unknown_code"
    assert club.http("/api/pair", {"code": 5})[0] == 400
    assert club.http("/api/pair", {"code": drawn["code"]},
                     headers={"Host": "rebind.attacker.example"})[0] == 403
    listing = club.http("/api/devices", session=club.session)[1]["devices"]
    assert next(d for d in listing if d["account"] == "A1-tab")["paired"] is True
    facts = club.facts()
    assert ("pairing_code", {"account": "A1-tab", "expires": drawn["expires"],
                             "by": "dora"}) in facts
    assert ("device_paired", {"account": "A1-tab", "address": "127.0.0.1",
                              "device": "tablet 3", "by": "hub"}) in facts


def test_accounts_the_hub_cannot_write_are_a_clear_refusal_and_the_code_holds(
        club: Club) -> None:
    # A deploy directory the hub may not write (the unit's ProtectSystem=strict once left it
    # read-only): Pair answered 500, "internal error of the hub", and the code was spent.
    drawn = club.draw("A1-S")
    accounts = club.folder / "accounts" / "accounts.json"
    kept = accounts.read_bytes()
    accounts.unlink()
    accounts.mkdir()                      # the file cannot be read nor replaced
    try:
        status, answer = club.http("/api/pair", {"code": drawn["code"]})
    finally:
        accounts.rmdir()
        accounts.write_bytes(kept)
    assert status == 503 and answer["code"] == "storage", answer
    assert "accounts" in answer["error"] and "director" in answer["error"]
    status, answer = club.http("/api/pair", {"code": drawn["code"]})   # not spent
    assert status == 200 and answer["account"] == "A1-S"


def test_the_devices_api_is_the_directors_only(club: Club) -> None:
    assert club.http("/api/devices")[0] == 401
    assert club.http("/api/devices/pair", {"account": "A1-N"})[0] == 401
    opener, _ = club.session
    assert club.http("/api/devices/revoke", {"account": "A1-N"}, (opener, ""))[0] == 403
    assert club.http("/api/devices/pair", {"account": "tenace-hub"}, club.session)[0] == 404


def test_repeated_wrong_codes_alert_the_director(club: Club) -> None:
    club.pairing.throttle.free = 100           # this test counts alerts, not waits
    for n in range(10):
        assert club.http("/api/pair", {"code": f"2345-678{n + 2 if n < 8 else 'A'}"}
                         )[0] in (404, 429)
    def alert() -> Any:
        return club.hub.call(lambda: [a for a in club.hub.room.alerts
                                         if a.kind == "pairing_failures"])
    (raised,) = wait_until(alert)
    assert raised.table == "hub" and raised.facts["count"] == 10
    assert raised.facts["address"] == "127.0.0.1"
    assert ("pairing_failures", {"address": "127.0.0.1", "count": 10, "by": "hub"}) \
        in club.facts()


def test_revoke_from_the_console_cuts_the_device_and_it_cannot_come_back(club: Club) -> None:
    drawn = club.draw("A2-N")
    answer = club.http("/api/pair", {"code": drawn["code"]})[1]
    url = Credentials("A2-N", answer["password"]).url(answer["broker"])
    live = MqttClient(url, "A2-N", clean_session=True, start=False)
    live.start().wait_connected(10)
    try:
        status, done = club.http("/api/devices/revoke", {"account": "A2-N"}, club.session)
        assert status == 200 and done == {"ok": True, "account": "A2-N"}
        assert wait_until(lambda: not live.connected.is_set())      # its live session is cut
        assert not connects(url, "A2-N", timeout=2.0)     # and it cannot come back
    finally:
        live.close(farewell=False)
    assert ("device_revoked", {"account": "A2-N", "by": "dora"}) in club.facts()
    assert club.http("/api/devices/revoke", {"account": "A2-N"}, club.session)[0] == 409


def test_a_spare_paired_mid_session_goes_on_with_the_play(club: Club, tmp_path: Path) -> None:
    """The table's tablet enters check-ins, the board and calls; it is lost; the director
    pairs a spare for the same account: the old tablet is cut off and refused, the spare
    starts its numbering above the old one's and finishes the auction."""
    script = [e for e in revoke_script() if e.device == "A1-tab"]
    old_code = club.draw("A1-tab")["code"]
    old = club.http("/api/pair", {"code": old_code})[1]
    old_url = Credentials("A1-tab", old["password"]).url(old["broker"])
    old_link = DeviceLink(old_url, "A1", "A1-tab",
                          outbox=Outbox(tmp_path / "old.sqlite3", "A1-tab"))
    try:
        for event in script[:5]:
            old_link.send(event.type, event.body)
        assert old_link.wait_delivered(20)
    finally:
        old_link.close()
    spare = club.http("/api/pair", {"code": club.draw("A1-tab")["code"]})[1]
    assert spare["first_seq"] == 5
    assert not connects(old_url, "A1-tab", timeout=2.0)       # the lost tablet is refused
    replies: list[Any] = []
    with DeviceLink(Credentials("A1-tab", spare["password"]).url(spare["broker"]), "A1",
                    "A1-tab", outbox=Outbox(tmp_path / "spare.sqlite3", "A1-tab",
                                            first_seq=spare["first_seq"]),
                    on_reply=lambda reply, env: replies.append(reply)) as spare_link:
        for event in script[5:]:
            spare_link.send(event.type, event.body)
        assert spare_link.wait_delivered(20)
    assert [r.status for r in replies] == ["ack"] * len(script[5:])
    auction = club.hub.call(
        lambda: club.hub.room.tables["A1"].snapshot()["boards"][0]["auction"])
    assert [entry[1] for entry in auction] == ["Pass", "Pass", "1H", "Pass", "Pass", "Pass"]


@pytest.mark.parametrize("broker", ["amqtt", "mosquitto"])
def test_paired_credentials_work_and_revoking_cuts_on_both_brokers(
        tmp_path: Path, broker: str) -> None:
    made = Club(tmp_path, broker)
    try:
        answer = made.http("/api/pair", {"code": made.draw("A3-S")["code"]})[1]
        url = Credentials("A3-S", answer["password"]).url(answer["broker"])
        live = MqttClient(url, "A3-S", clean_session=True, start=False,
                          reconnect_delay=(0.2, 0.5))
        live.start().wait_connected(10)
        try:
            assert made.http("/api/devices/revoke", {"account": "A3-S"}, made.session)[0] == 200
            assert wait_until(lambda: not live.connected.is_set())
        finally:
            live.close(farewell=False)
        assert not connects(url, "A3-S", timeout=2.0)
        again = made.http("/api/pair", {"code": made.draw("A3-S")["code"]})[1]
        assert connects(Credentials("A3-S", again["password"]).url(again["broker"]), "A3-S")
    finally:
        made.close()


# The device's side, end to end ------------------------------------------------------------------

@pytest.fixture
def tls_club(tmp_path: Path) -> Iterator[tuple[Club, bytes]]:
    pki = write_club_pki(tmp_path / "club", ["hub.local"])
    ca_pem = pki.ca_cert.read_bytes()
    made = Club(tmp_path / "hub", ca_pem=ca_pem)
    try:
        yield made, ca_pem
    finally:
        made.close()


def test_a_device_refuses_a_hub_whose_ca_is_not_the_one_it_scanned(
        tls_club: tuple[Club, bytes], tmp_path: Path) -> None:
    made, ca_pem = tls_club
    drawn = made.draw("A1-W")
    other = write_club_pki(tmp_path / "impostor", ["hub.local"]).ca_cert.read_bytes()
    forged = drawn["uri"].rsplit("&ca=", 1)[0] + "&ca=" + device_side.ca_fingerprint(other)
    config = tmp_path / "device" / "device.json"
    with pytest.raises(device_side.PairingFailed) as refused:
        device_side.pair_or_load(forged, None, config, ("seat",), say=lambda _: None)
    assert refused.value.code == "ca_mismatch"
    assert not config.exists()
    # the genuine URI pairs: the CA is kept beside the credentials, both private
    drawn = made.draw("A1-W")
    paired = device_side.pair_or_load(drawn["uri"], None, config, ("seat",),
                                      say=lambda _: None)
    assert paired is not None and paired.account == "A1-W" and paired.seat == "W"
    assert paired.ca_file is not None and Path(paired.ca_file).read_bytes() == ca_pem
    assert stat.S_IMODE(config.stat().st_mode) == 0o600
    assert device_side.load(config) == paired
    assert "?ca=" in paired.broker_url() and paired.password not in repr(paired)


def test_over_https_the_device_checks_the_console_against_the_scanned_authority(
        tmp_path: Path) -> None:
    """With the club's certificate the console is HTTPS (issue 12): a device fetches the CA,
    checks its fingerprint against the QR code's before it sends its code, then verifies the
    console with it; an impostor's authority is refused and the code is not spent."""
    pki = write_club_pki(tmp_path / "club", ["hub.local"])
    ca_pem = pki.ca_cert.read_bytes()
    made = Club(tmp_path / "hub", ca_pem=ca_pem,
                console_tls=(str(pki.broker_cert), str(pki.broker_key)),
                cafile=str(pki.ca_cert))
    try:
        assert made.base.startswith("https://127.0.0.1:")
        drawn = made.draw("A1-N")
        assert drawn["hub"] == made.base
        assert drawn["uri"].startswith(f"tenace-pair:?hub={made.base}&")
        with pytest.raises(OSError):                    # plain HTTP is not served
            urllib.request.urlopen(made.base.replace("https", "http") + "/api/pair/ca",
                                   timeout=5)
        other = write_club_pki(tmp_path / "impostor", ["hub.local"]).ca_cert.read_bytes()
        forged = drawn["uri"].rsplit("&ca=", 1)[0] + "&ca=" + device_side.ca_fingerprint(other)
        config = tmp_path / "device" / "device.json"
        with pytest.raises(device_side.PairingFailed) as refused:
            device_side.pair_or_load(forged, None, config, ("seat",), say=lambda _: None)
        assert refused.value.code == "ca_mismatch" and "nothing was sent" in str(refused.value)
        assert not config.exists()
        # the code was never sent, so the genuine URI still pairs with it
        paired = device_side.pair_or_load(drawn["uri"], None, config, ("seat",),
                                          say=lambda _: None)
        assert paired is not None and paired.account == "A1-N"
        assert paired.ca_file is not None and Path(paired.ca_file).read_bytes() == ca_pem
        # a bare code over https with no authority to check the console by is refused
        with pytest.raises(device_side.PairingFailed) as unchecked:
            device_side.redeem(device_side.parse_pairing(made.draw("A1-E")["code"], made.base))
        assert unchecked.value.code == "unreachable" and "CERTIFICATE" in str(unchecked.value)
        # ... saying what to do: the club's ca.crt, or the QR code's text
        assert "--ca" in str(unchecked.value) and "tenace-pair:" in str(unchecked.value)
    finally:
        made.close()


def _env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "TENACE_MQTT_KEYRING"}
    return dict(env, KIVY_NO_ARGS="1", SDL_VIDEODRIVER="offscreen",
                KIVY_HOME=str(tmp_path / "kivy"),
                TENACE_DEVICE_CONFIG=str(tmp_path / "config" / "device.json"))


def _watch(club: Club, topic: str) -> MqttClient:
    watcher = MqttClient(club.observer.url(club.url), "director", clean_session=True,
                         start=False)
    watcher.subscribe(topic, 1, wait=False)
    watcher.start().wait_connected()
    return watcher


def test_tenace_tablet_pair_stores_the_credentials_then_runs_with_them(
        club: Club, tmp_path: Path) -> None:
    env = _env(tmp_path)
    drawn = club.draw("A2-E")
    pair = subprocess.run([sys.executable, "-m", "tenace", "tablet", "--pair", drawn["code"],
                           "--hub", club.base, "--pair-only"], capture_output=True, text=True,
                          timeout=90, env=env)
    assert pair.returncode == 0, pair.stderr
    assert "paired as A2-E (seat)" in pair.stdout
    stored = json.loads((tmp_path / "config" / "device.json").read_text())
    assert stored["account"] == "A2-E" and stored["table"] == "A2"
    used = subprocess.run([sys.executable, "-m", "tenace", "tablet", "--pair", drawn["code"],
                           "--hub", club.base, "--pair-only"], capture_output=True, text=True,
                          timeout=90, env=env)
    assert used.returncode == 2 and "used" in used.stderr and "Traceback" not in used.stderr
    # later runs: no option but the outbox; the stored account connects
    watcher = _watch(club, "tenace/v1/t/A2/dev/A2-E/status")
    proc = subprocess.Popen([sys.executable, "-m", "tenace", "tablet", "--outbox",
                             str(tmp_path / "outbox.sqlite3")], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        status = json.loads(watcher.messages.get(timeout=90).payload)
        assert status["online"] is True and status["seat"] == "E" and status["table"] == "A2"
    finally:
        proc.terminate()
        proc.wait(20)
        watcher.close()


def test_tenace_devices_run_pair_with_the_qr_uri(club: Club, tmp_path: Path) -> None:
    env = _env(tmp_path)
    drawn = club.draw("A3-rdr")
    watcher = _watch(club, "tenace/v1/t/A3/dev/A3-rdr/status")
    proc = subprocess.Popen([sys.executable, "-m", "tenace", "devices", "run", "--pair",
                             drawn["uri"], "--seat", "N=sim:pair-N",
                             "--outbox", str(tmp_path / "readers.sqlite3"),
                             "--decks", str(tmp_path / "decks.json")], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        status = json.loads(watcher.messages.get(timeout=60).payload)
        assert status["online"] is True
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=20)
        watcher.close()
    assert "paired as A3-rdr (reader)" in out
    stored = device_side.load(tmp_path / "config" / "device.json")
    assert stored.account == "A3-rdr" and stored.role == "reader"
    # a reader node refuses a tablet's code, and stores nothing
    tablet_code = club.draw("A3-N")["uri"]
    refused = subprocess.run([sys.executable, "-m", "tenace", "devices", "run", "--pair",
                              tablet_code, "--seat", "N=sim:pair-N2", "--device-config",
                              str(tmp_path / "other.json")], capture_output=True, text=True,
                             timeout=60, env=env)
    assert refused.returncode == 2 and "not a reader" in refused.stderr
    assert not (tmp_path / "other.json").exists()


# The Devices page ---------------------------------------------------------------------------------

def test_browser_the_devices_page_pairs_and_revokes(club: Club, browser: Any) -> None:  # noqa: F811
    from tests.hub.test_console import browser_login, click
    browser.delete_all_cookies()

    class Shown:   # browser_login wants the console's url
        url = club.base + "/"
    browser_login(browser, Shown(), "dora", DIRECTOR[1])   # type: ignore[arg-type]
    browser.get(club.base + "/devices")
    wait(browser, lambda d: d.execute_script("return document.body.dataset.loaded") == "yes")
    click(browser, "button[data-account='A1-N'][data-job='pair']")
    wait(browser, lambda d: d.find_element("id", "pair-panel").get_attribute("hidden") is None)
    code = browser.find_element("id", "pair-code").text
    uri = browser.find_element("id", "pair-uri").text
    assert uri == f"tenace-pair:?hub={club.base}&code={code}"
    assert browser.find_elements("css selector", "#pair-qr svg path")
    browser.execute_script("window.scrollTo(0, 0)")
    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SCREENSHOT))
    # the QR code on the screen is the URI (zbarimg reads the screenshot of it)
    qr = browser.find_element("id", "pair-qr")
    shot = Path(club.folder) / "qr.png"
    qr.screenshot(str(shot))
    decoded = subprocess.run(["zbarimg", "--raw", "-q", str(shot)], capture_output=True,
                             text=True, timeout=30)
    assert decoded.stdout.strip() == uri
    assert club.http("/api/pair", {"code": code})[0] == 200
    revoke = "button[data-account='A1-N'][data-job='revoke']"
    wait(browser, lambda d: d.find_element("css selector", revoke).get_attribute(
        "disabled") is None)
    click(browser, revoke)
    click(browser, revoke)     # confirmed
    wait(browser, lambda d: d.find_element("id", "devices-message").text == "A1-N revoked")
    assert "A1-N" not in Accounts(club.folder / "accounts")


# Scripted set-ups: tenace accounts issue keeps device-credentials.json ---------------------------

def test_tenace_accounts_issue_and_revoke_keep_the_deploy_directorys_credentials(
        tmp_path: Path) -> None:
    from hub.deploy import DEVICE_CREDENTIALS, write_access_files
    from tenace.cli import main
    write_access_files(tmp_path, type("Setup", (), {"tables": ["A1"]})())
    path = tmp_path / DEVICE_CREDENTIALS
    before = json.loads(path.read_text())["A1-N"]
    with using_keyring(tmp_path / "none.json"):
        assert main(["accounts", "issue", "A1-N", "--data", str(tmp_path)]) == 0
    after = json.loads(path.read_text())["A1-N"]
    assert after != before and Accounts(tmp_path).verify("A1-N", after)
    assert main(["accounts", "revoke", "A1-N", "--data", str(tmp_path)]) == 0
    assert "A1-N" not in json.loads(path.read_text())
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


# tenace hub: the console pairs the event's devices ------------------------------------------------

def test_tenace_hub_pairs_the_events_devices_with_its_embedded_broker(tmp_path: Path) -> None:
    from hub.mosquitto import free_port
    console_port, broker_port = free_port(), free_port()
    data = tmp_path / "data"
    UserStore.in_directory(data, hasher=FAST_HASH).add("dora", "director", DIRECTOR[1])
    env = {k: v for k, v in os.environ.items() if k != "TENACE_MQTT_KEYRING"}
    hub = subprocess.Popen([sys.executable, "-m", "tenace", "hub", "--tables", "2", "--data",
                            str(data), "--console", f"127.0.0.1:{console_port}", "--listen",
                            f"127.0.0.1:{broker_port}", "--no-double-dummy"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    try:
        assert hub.stdout is not None
        for line in hub.stdout:
            if "hub ready" in line:
                break
        club = Club.__new__(Club)           # only its HTTP helpers, on that hub's console
        club.base = f"http://127.0.0.1:{console_port}"
        club.session = club.login()
        devices = club.http("/api/devices", session=club.session)[1]["devices"]
        assert [d["account"] for d in devices] == [
            f"A{t}-{d}" for t in (1, 2) for d in ("tab", "N", "E", "S", "W", "rdr")]
        uri = club.draw("A2-rdr")["uri"]
        paired = device_side.pair_or_load(uri, None, tmp_path / "device.json", ("reader",),
                                          say=lambda _: None)
        assert paired is not None and paired.broker == f"mqtt://127.0.0.1:{broker_port}"
        assert connects(paired.broker_url(), "A2-rdr")
    finally:
        hub.terminate()
        hub.communicate(timeout=20)       # and its output pipe closed
