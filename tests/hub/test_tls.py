"""TLS on both brokers (embedded amqtt and Mosquitto) with the certificates `tenace deploy
init` writes: a device with the club's CA connects, anyone else is refused with a reason.

These are the attacks of a phone on the club's Wi-Fi posing as the hub (another authority, a
certificate for another name) and of a client that skips TLS; each fails at once with an
MqttError that names the reason, never a hang. Every broker here checks the session's
accounts (tests/conftest.py ``keyring``), TLS and accounts together, as in a club.
"""

from __future__ import annotations

import argparse
import os
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from hub.broker import EmbeddedBroker
from hub.deploy import init
from hub.mosquitto import Mosquitto, free_port
from hub.service import HubRunner
from hub.tls import (
    ClubPki,
    key_pem,
    make_broker_certificate,
    pem,
    read_certificate,
    write_club_pki,
    write_file,
)
from tenace.sim.driver import run_tables
from tests.conftest import Keyring
from tests.hub.conftest import BROKERS
from tests.hub.test_service import hub_on, revoke_script
from wire.mqtt import MqttClient, MqttError, parse_url, with_ca


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> ClubPki:
    """The club's certificates, as `tenace deploy init` writes them."""
    return init(tmp_path_factory.mktemp("deploy"), ["hub.club.test", "192.0.2.10"]).pki


@pytest.fixture(scope="module")
def other_club(tmp_path_factory: pytest.TempPathFactory) -> ClubPki:
    """Another authority (an attacker's), with a certificate for the same names."""
    return write_club_pki(tmp_path_factory.mktemp("other"), ["hub.club.test", "192.0.2.10"])


@pytest.fixture(scope="module")
def elsewhere(club: ClubPki, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A certificate the club's authority signed for another name only (no loopback)."""
    from cryptography.hazmat.primitives import serialization

    ca_key = serialization.load_pem_private_key(club.ca_key.read_bytes(), password=None)
    ca_cert = read_certificate(club.ca_cert)
    key, cert = make_broker_certificate(ca_key, ca_cert, ["printer.club.test"],  # type: ignore[arg-type]
                                        loopback=False)
    folder = tmp_path_factory.mktemp("elsewhere")
    write_file(folder / "broker.key", key_pem(key))
    write_file(folder / "broker.crt", pem(cert) + pem(ca_cert), 0o644)
    return folder / "broker.crt", folder / "broker.key"


def _start(kind: str, folder: Path, keyring: Keyring, ca: Path, cert: Path,
           key: Path) -> EmbeddedBroker | Mosquitto:
    if kind == "amqtt":
        return EmbeddedBroker(accounts=keyring.accounts.path, tls=(str(cert), str(key)),
                              ca_file=str(ca)).start()
    return Mosquitto(folder / "mosquitto", tls=(ca, cert, key), accounts=keyring.accounts)


@pytest.fixture(params=BROKERS)
def tls_url(request: pytest.FixtureRequest, club: ClubPki, tmp_path: Path,
            keyring: Keyring) -> Iterator[str]:
    """``mqtts://127.0.0.1:PORT?ca=.../ca.crt`` of a fresh broker with the club's
    certificate and the session's accounts: the embedded amqtt one, then Mosquitto."""
    broker = _start(request.param, tmp_path, keyring, club.ca_cert, club.broker_cert,
                    club.broker_key)
    try:
        yield broker.url
    finally:
        broker.stop()


def _refusal(url: str, timeout: float = 10.0) -> tuple[str, float]:
    """The MqttError of a client connecting to ``url``, and how long it took."""
    started = time.monotonic()
    client = MqttClient(url, f"probe-{time.monotonic_ns()}", clean_session=True)
    try:
        with pytest.raises(MqttError) as refused:
            client.wait_connected(timeout)
    finally:
        client.close()
    return str(refused.value), time.monotonic() - started


def _bare(url: str) -> str:
    """The URL without its CA."""
    return url.split("?", 1)[0]


def test_a_client_with_the_clubs_ca_round_trips_a_qos1_message(tls_url: str) -> None:
    assert parse_url(tls_url).tls
    with MqttClient(tls_url, "A1-tab", clean_session=True) as client:
        client.wait_connected()
        client.subscribe("tenace/v1/t/A1/#")
        client.publish("tenace/v1/t/A1/dev/A1-tab/status", b'{"hello": 1}', 1, wait=True)
        message = client.messages.get(timeout=10)
    assert (message.topic, message.payload, message.qos) == (
        "tenace/v1/t/A1/dev/A1-tab/status", b'{"hello": 1}', 1)


def test_a_client_without_the_clubs_ca_is_refused_with_the_reason(tls_url: str) -> None:
    why, _ = _refusal(_bare(tls_url))
    assert "not signed by an authority of the system" in why
    assert "give the club's ca.crt" in why


def test_a_client_with_another_authority_is_refused_with_the_reason(
        tls_url: str, other_club: ClubPki) -> None:
    why, _ = _refusal(f"{_bare(tls_url)}?ca={other_club.ca_cert}")
    assert f"not signed by the authority in {other_club.ca_cert}" in why


def test_a_device_refuses_a_broker_posing_with_another_authoritys_certificate(
        club: ClubPki, other_club: ClubPki, tmp_path: Path, keyring: Keyring) -> None:
    """The phone posing as the hub: a certificate for the hub's very names, from another
    authority. A device with the club's CA does not talk to it."""
    with EmbeddedBroker(accounts=keyring.accounts.path,
                        tls=(str(other_club.broker_cert), str(other_club.broker_key))) as fake:
        why, _ = _refusal(f"{_bare(fake.url)}?ca={club.ca_cert}")
    assert f"not signed by the authority in {club.ca_cert}" in why


@pytest.mark.parametrize("kind", BROKERS)
def test_a_certificate_for_another_host_name_is_refused(
        kind: str, club: ClubPki, elsewhere: tuple[Path, Path], tmp_path: Path,
        keyring: Keyring) -> None:
    broker = _start(kind, tmp_path, keyring, club.ca_cert, *elsewhere)
    try:
        why, _ = _refusal(broker.url)
    finally:
        broker.stop()
    assert "not valid for '127.0.0.1'" in why


def test_plain_mqtt_to_the_tls_port_gets_nothing(tls_url: str) -> None:
    address = parse_url(tls_url)
    plain = f"mqtt://{address.host}:{address.port}"
    client = MqttClient(plain, f"plain-{time.monotonic_ns()}", clean_session=True)
    try:
        with pytest.raises(MqttError, match="not connected"):
            client.wait_connected(1.5)
        assert client.last_error is not None
        assert "closed before the broker answered" in client.last_error
        assert "mqtts://" in client.last_error
    finally:
        client.close()
    # The same at the socket: an MQTT CONNECT in clear gets no CONNACK, only the end.
    connect = bytes([0x10, 16, 0, 4]) + b"MQTT" + bytes([4, 2, 0, 30, 0, 4]) + b"spy1"
    with socket.create_connection((address.host, address.port), timeout=5) as sock:
        sock.sendall(connect)
        try:
            answer = sock.recv(64)
        except (ConnectionResetError, TimeoutError):
            answer = b""
    assert not answer.startswith(b"\x20")   # a CONNACK


@pytest.mark.parametrize("kind", BROKERS)
def test_tls_to_a_plain_port_names_the_mistake(kind: str, tmp_path: Path,
                                              keyring: Keyring) -> None:
    broker = EmbeddedBroker(accounts=keyring.accounts.path).start() if kind == "amqtt" \
        else Mosquitto(tmp_path / "plain", accounts=keyring.accounts)
    try:
        address = parse_url(broker.url)
        why, _ = _refusal(f"mqtts://{address.host}:{address.port}", timeout=8.0)
    finally:
        broker.stop()
    assert "plain MQTT port" in why


def test_the_embedded_broker_opens_a_plain_port_beside_tls_only_when_asked(
        club: ClubPki, keyring: Keyring) -> None:
    port = free_port()
    accounts = keyring.accounts.path
    with EmbeddedBroker(accounts=accounts, tls=(str(club.broker_cert), str(club.broker_key)),
                        ca_file=str(club.ca_cert), plain_port=port) as broker, \
            MqttClient(broker.url, "tenace-hub.observer", clean_session=True) as secure, \
            MqttClient(f"mqtt://127.0.0.1:{port}", "A1-N", clean_session=True) as lan:
        secure.wait_connected()
        lan.wait_connected()
        lan.subscribe("tenace/v1/t/A1/#")
        secure.publish("tenace/v1/t/A1/state", b"1", 1, wait=True)
        assert lan.messages.get(timeout=10).payload == b"1"
        # the plain port checks the same accounts: no account, no connection
        anonymous = MqttClient(f"mqtt://127.0.0.1:{port}", f"anonymous-{time.monotonic_ns()}",
                               clean_session=True)
        try:
            with pytest.raises(MqttError, match="Not authorized"):
                anonymous.wait_connected(5)
        finally:
            anonymous.close()
    with EmbeddedBroker(accounts=accounts,
                        tls=(str(club.broker_cert), str(club.broker_key))) as broker, \
            pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=2).close()


def test_the_hub_runs_over_tls_and_acknowledges_a_tables_events(tls_url: str,
                                                               tmp_path: Path) -> None:
    script = revoke_script()
    with HubRunner(hub_on(tls_url, tmp_path)) as hub:
        runs = run_tables(tls_url, {"A1": script})
        assert runs["A1"].codes == {"ok": len(script)}
        assert hub.stats.accepted == len(script)


def test_the_hub_does_not_start_against_a_broker_it_cannot_verify(
        tls_url: str, other_club: ClubPki, tmp_path: Path) -> None:
    from hub.errors import HubError

    hub = hub_on(f"{_bare(tls_url)}?ca={other_club.ca_cert}", tmp_path)
    with pytest.raises(HubError, match="not signed by the authority"), HubRunner(hub):
        pass


# The URL forms (no broker) ---------------------------------------------------------------

def test_mqtts_urls_default_to_8883_and_carry_the_ca() -> None:
    address = parse_url("mqtts://a1-rdr:s%40cret@hub.club.test?ca=/etc/tenace/ca%20club.crt")
    assert (address.host, address.port, address.tls) == ("hub.club.test", 8883, True)
    assert address.ca_file == "/etc/tenace/ca club.crt"
    assert "cret" not in repr(address)
    assert parse_url("mqtts://hub:18883").port == 18883


def test_with_ca_turns_a_plain_url_into_tls(tmp_path: Path) -> None:
    ca = tmp_path / "ca club.crt"
    ca.write_text("")
    assert with_ca("mqtt://hub.local", ca) == f"mqtts://hub.local:8883?ca={tmp_path}/ca%20club.crt"
    assert with_ca("mqtt://u:p@hub.local:1883", ca).startswith("mqtts://u:p@hub.local:8883?")
    assert with_ca("mqtt://hub.local:1999", ca).startswith("mqtts://hub.local:1999?")
    assert parse_url(with_ca("mqtts://[::1]", ca)).ca_file == str(ca)
    with pytest.raises(ValueError, match="no such file"):
        with_ca("mqtt://hub.local", tmp_path / "missing.crt")
    with pytest.raises(ValueError, match="two CA files"):
        with_ca(f"mqtts://hub?ca={tmp_path}/other.crt", ca)


def test_a_bad_ca_file_is_an_error_naming_it(tmp_path: Path) -> None:
    bad = tmp_path / "ca.crt"
    bad.write_text("not a certificate\n")
    with pytest.raises(MqttError, match=r"CA file .*ca\.crt"):
        MqttClient(f"mqtts://127.0.0.1?ca={bad}", "x", clean_session=True, start=False)


def test_the_client_context_wants_tls_1_2_and_checks_the_host(club: ClubPki) -> None:
    from wire.mqtt import _tls_context

    context = _tls_context(str(club.ca_cert))
    assert context.minimum_version >= ssl.TLSVersion.TLSv1_2
    assert context.check_hostname and context.verify_mode == ssl.CERT_REQUIRED


# The devices' --ca --------------------------------------------------------------------------

def test_the_dealers_hub_link_verifies_the_broker_with_its_ca(
        club: ClubPki, other_club: ClubPki, keyring: Keyring) -> None:
    from tenace.commands import CommandError
    from tenace.dealer_cli import _hub

    with EmbeddedBroker(accounts=keyring.accounts.path,
                        tls=(str(club.broker_cert), str(club.broker_key))) as broker:
        where = f"127.0.0.1:{broker.port}"
        link = _hub(argparse.Namespace(hub=where, device="dealer-1", ca=str(club.ca_cert)))
        try:
            assert link.link.client.connected.is_set()
            assert link.link.client.address.tls
        finally:
            link.close()
        with pytest.raises(CommandError, match="not signed by the authority"):
            _hub(argparse.Namespace(hub=where, device="dealer-1", ca=str(other_club.ca_cert)))


def test_the_tablet_and_the_readers_refuse_a_missing_ca_file_clearly(tmp_path: Path) -> None:
    env = dict(os.environ, KIVY_NO_ARGS="1", SDL_VIDEODRIVER="offscreen")
    missing = str(tmp_path / "ca.crt")
    tablet = subprocess.run([sys.executable, "-m", "tenace", "tablet", "--hub", "hub.local",
                             "--table", "A1", "--ca", missing], capture_output=True, text=True,
                            timeout=60, env=env)
    assert tablet.returncode == 2 and "Traceback" not in tablet.stderr
    assert f"--ca {missing!r}: no such file" in tablet.stderr
    readers = subprocess.run([sys.executable, "-m", "tenace", "devices", "run", "--table", "A1",
                              "--seat", "N=sim:A1-N", "--outbox", str(tmp_path / "o.sqlite3"),
                              "--decks", str(tmp_path / "decks.json"), "--ca", missing],
                             capture_output=True, text=True, timeout=60, env=env)
    assert readers.returncode == 2 and "Traceback" not in readers.stderr
    assert f"--ca {missing!r}: no such file" in readers.stderr


def test_a_client_certificate_names_its_account_and_serves_clients_only() -> None:
    """A simultaneous event's club bridge certificate (hub.simultaneous.kit): its common name
    is the account Mosquitto's ``use_identity_as_username`` takes, signed by the authority,
    for client authentication only; a name no certificate can hold is refused."""
    from cryptography.x509 import ExtendedKeyUsage
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    from hub.tls import TlsError, make_authority, make_client_certificate
    ca_key, ca_cert = make_authority("Organiser")
    _key, cert = make_client_certificate(ca_key, ca_cert, "lyon")
    assert cert.subject.get_attributes_for_oid(NameOID.COMMON_NAME)[0].value == "lyon"
    assert cert.issuer == ca_cert.subject
    cert.verify_directly_issued_by(ca_cert)
    usage = cert.extensions.get_extension_for_class(ExtendedKeyUsage).value
    assert list(usage) == [ExtendedKeyUsageOID.CLIENT_AUTH]
    assert cert.not_valid_after_utc <= ca_cert.not_valid_after_utc
    for bad in ("", "x" * 65, "lyon\n"):
        with pytest.raises(TlsError):
            make_client_certificate(ca_key, ca_cert, bad)
