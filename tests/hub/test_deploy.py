"""`tenace deploy init`: the files it writes, their modes, keys never replaced unasked, a
Mosquitto configuration Mosquitto accepts, systemd units systemd accepts; the event's MQTT
accounts (hub.accounts) and the console's first director (hub.users) it creates."""

from __future__ import annotations

import argparse
import configparser
import datetime
import ipaddress
import json
import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest
from cryptography import x509

from hub.access import mosquitto_acl
from hub.accounts import Accounts, event_accounts
from hub.deploy import DeployError, init
from hub.event import EventSetup
from hub.mosquitto import MOSQUITTO, free_port, wait_for_port
from hub.tls import BROKER_DAYS, CA_DAYS, TlsError, read_certificate
from hub.users import UserStore
from tenace.cli import main
from wire.mqtt import MqttClient, MqttError
from wire.processes import stop_process

REPO = Path(__file__).resolve().parents[2]
EVENT = REPO / "deploy" / "event.example.toml"


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def deployed(tmp_path: Path) -> Path:
    folder = tmp_path / "club"
    init(folder, ["hub.club.test", "192.0.2.10"], event=EVENT)
    return folder


def test_init_writes_the_whole_configuration_with_private_files_private(deployed: Path) -> None:
    private = {"ca.key", "broker.key", "mosquitto.passwd", "mosquitto.acl", "event.toml",
               "accounts.json", "tenace-hub.keyring", "device-credentials.json"}
    public = {"ca.crt", "broker.crt", "mosquitto.conf", "tenace-hub.service",
              "tenace-readers@.service", "readers.env.example"}
    assert {p.name for p in deployed.iterdir() if p.is_file()} == private | public
    assert {name: mode(deployed / name) for name in private} == dict.fromkeys(private, 0o600)
    assert {name: mode(deployed / name) for name in public} == dict.fromkeys(public, 0o644)
    assert mode(deployed / "data") == mode(deployed / "mosquitto-data") == 0o700
    assert (deployed / "event.toml").read_bytes() == EVENT.read_bytes()


def test_the_broker_certificate_names_the_hub_and_is_signed_by_the_clubs_authority(
        deployed: Path) -> None:
    ca = read_certificate(deployed / "ca.crt")
    broker = read_certificate(deployed / "broker.crt")
    broker.verify_directly_issued_by(ca)
    assert ca.extensions.get_extension_for_class(x509.BasicConstraints).value.ca
    assert not broker.extensions.get_extension_for_class(x509.BasicConstraints).value.ca
    names = broker.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert names.get_values_for_type(x509.DNSName) == ["hub.club.test", "localhost"]
    assert names.get_values_for_type(x509.IPAddress) == [
        ipaddress.ip_address("192.0.2.10"), ipaddress.ip_address("127.0.0.1"),
        ipaddress.ip_address("::1")]
    day = datetime.timedelta(days=1)
    assert abs(ca.not_valid_after_utc - ca.not_valid_before_utc - CA_DAYS * day) < day
    assert abs(broker.not_valid_after_utc - broker.not_valid_before_utc - BROKER_DAYS * day) < day
    chain = (deployed / "broker.crt").read_text()
    assert chain.count("BEGIN CERTIFICATE") == 2   # the leaf, then the authority


def test_existing_keys_are_kept_unless_forced_and_renew_keeps_the_authority(
        deployed: Path) -> None:
    before = {name: (deployed / name).read_bytes() for name in ("ca.key", "broker.key")}
    with pytest.raises(TlsError, match="holds keys already"):
        init(deployed, ["other.club.test"])
    assert {name: (deployed / name).read_bytes() for name in before} == before
    first = init(deployed.parent / "fresh", ["hub.club.test"])
    assert not any("restart" in line for line in first.todo)
    renewed = init(deployed, ["hub.club.test", "hub2.club.test"], renew=True)
    # a running hub serves its certificate until it restarts: the renewal says so
    assert any("systemctl restart tenace-hub" in line for line in renewed.todo)
    assert (deployed / "ca.key").read_bytes() == before["ca.key"]
    assert (deployed / "broker.key").read_bytes() != before["broker.key"]
    read_certificate(deployed / "broker.crt").verify_directly_issued_by(
        read_certificate(deployed / "ca.crt"))
    init(deployed, ["hub.club.test"], force=True)
    assert (deployed / "ca.key").read_bytes() != before["ca.key"]
    assert mode(deployed / "ca.key") == 0o600


def test_bad_input_writes_nothing(tmp_path: Path) -> None:
    with pytest.raises(TlsError, match="not a host name"):
        init(tmp_path / "a", ["bad host!"])
    with pytest.raises(DeployError, match="--host"):
        init(tmp_path / "b", [])
    bad_event = tmp_path / "bad.toml"
    bad_event.write_text("[event]\nname = 3\n")
    with pytest.raises(DeployError):
        init(tmp_path / "c", ["hub"], event=bad_event)
    assert not any((tmp_path / name / "ca.key").exists() for name in "abc")


def test_mosquitto_accepts_the_configuration_and_refuses_anonymous_clients(
        deployed: Path) -> None:
    """The configuration as written, on a free loopback port instead of 0.0.0.0:8883."""
    port = free_port()
    text = (deployed / "mosquitto.conf").read_text()
    assert "listener 8883 0.0.0.0" in text and "allow_anonymous false" in text
    assert "tls_version tlsv1.2" in text
    for line in (f"password_file {deployed}/mosquitto.passwd",
                 f"acl_file {deployed}/mosquitto.acl", f"keyfile {deployed}/broker.key"):
        assert line in text
    config = deployed / "mosquitto-test.conf"
    config.write_text(text.replace("listener 8883 0.0.0.0", f"listener {port} 127.0.0.1")
                      + ("user root\n" if os.geteuid() == 0 else ""))
    log = (deployed / "mosquitto.log").open("wb")
    process = subprocess.Popen([MOSQUITTO, "-c", str(config)], stdout=log,
                               stderr=subprocess.STDOUT)
    try:
        assert wait_for_port(port, 10.0, process), (deployed / "mosquitto.log").read_text()
        client = MqttClient(f"mqtts://127.0.0.1:{port}?ca={deployed}/ca.crt", "spy",
                            clean_session=True)
        try:
            with pytest.raises(MqttError, match="not connected"):
                client.wait_connected(3)
            assert client.last_error == "refused by the broker: Not authorized"  # TLS passed
        finally:
            client.close()
        # a device with the credentials deploy init issued for it is let in
        password = json.loads((deployed / "device-credentials.json").read_text())["A1-N"]
        with MqttClient(f"mqtts://A1-N:{password}@127.0.0.1:{port}?ca={deployed}/ca.crt",
                        "A1-N", clean_session=True) as north:
            north.wait_connected()
    finally:
        stop_process(process)
        log.close()


def _units(folder: Path) -> list[Path]:
    return [folder / "tenace-hub.service", folder / "tenace-readers@.service"]


def test_the_systemd_units_are_complete_and_hardened(deployed: Path) -> None:
    for unit in _units(deployed):
        parser = configparser.ConfigParser(interpolation=None, strict=False)
        parser.optionxform = str  # type: ignore[assignment,method-assign]
        parser.read_string(unit.read_text())
        assert set(parser.sections()) == {"Unit", "Service", "Install"}
        service = parser["Service"]
        for key in ("User", "ExecStart", "WorkingDirectory"):
            assert service[key], key
        assert service["Restart"] == "on-failure"
        assert service["NoNewPrivileges"] == "yes" and service["ProtectSystem"] == "strict"
        assert service["CapabilityBoundingSet"] == ""
        assert Path(service["ExecStart"].split()[0]).is_absolute()
        assert "@" not in service["ExecStart"].replace("readers@", "")
    hub = _units(deployed)[0].read_text()
    # Pairing, revoking or issuing a device from the console rewrites the deploy directory's
    # accounts, password, ACL and device-credentials files (beside them, then renamed), the
    # log goes to the data directory: under ProtectSystem=strict both must be writable, else
    # the console's Pair answers 500 (a read-only file system).
    from hub.accounts import Accounts
    writable = [Path(p) for line in hub.splitlines() if line.startswith("ReadWritePaths=")
                for p in line.split("=", 1)[1].split()]
    accounts = Accounts(deployed)
    for written in (accounts.path, accounts.passwd_file, accounts.acl_file,
                    deployed / "device-credentials.json", deployed / "data" / "events.sqlite3"):
        assert any(written.parent == w or w in written.parent.parents for w in writable), \
            (written, writable)
    assert f"--deploy {deployed} " in hub and f"--event {deployed}/event.toml" in hub
    # The director opens the console by the name the certificate holds (--host): the
    # console's Host check must let that name in, not only this machine's own host name.
    words = next(line for line in hub.splitlines() if line.startswith("ExecStart=")).split()
    allowed = [words[i + 1] for i, w in enumerate(words) if w == "--console-allowed-host"]
    assert allowed == ["hub.club.test"]    # an address (192.0.2.10) is always let in
    readers = _units(deployed)[1].read_text()
    assert f"--ca {deployed}/ca.crt" in readers and "mqtts://hub.club.test:8883" in readers


@pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                    reason="systemd-analyze not installed: the structural test stands alone")
def test_systemd_analyze_verifies_the_units(deployed: Path) -> None:
    done = subprocess.run(["systemd-analyze", "verify", *map(str, _units(deployed))],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "tenace" not in done.stderr, done.stderr   # no warning about our units


def test_the_command_line_writes_and_then_refuses_to_overwrite(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "club"
    assert main(["deploy", "init", str(folder), "--host", "hub.local", "--host", "10.0.0.2",
                 "--broker", "mosquitto"]) == 0
    out = capsys.readouterr().out
    assert "ca.key                     0600" in out and "valid until" in out
    assert "director account" in out and "0640" in out   # Mosquitto's group reads them
    assert "systemctl enable --now tenace-mosquitto-reload.path" in out
    assert "--broker mqtts://localhost:8883" in (folder / "tenace-hub.service").read_text()
    assert main(["deploy", "init", str(folder), "--host", "hub.local"]) == 2
    assert "holds keys already" in capsys.readouterr().err


def test_tenace_hub_takes_its_tls_files_from_the_deploy_directory(deployed: Path) -> None:
    from tenace.commands import CommandError
    from tenace.live import _tls

    def args(**kw: str | None) -> argparse.Namespace:
        base: dict[str, str | None] = dict(deploy=None, tls_cert=None, tls_key=None,
                                           tls_ca=None, broker=None)
        return argparse.Namespace(**{**base, **kw})

    assert _tls(args(deploy=str(deployed))) == (
        (f"{deployed}/broker.crt", f"{deployed}/broker.key"), f"{deployed}/ca.crt")
    assert _tls(args(tls_cert=f"{deployed}/broker.crt", tls_key=f"{deployed}/broker.key")) == (
        (f"{deployed}/broker.crt", f"{deployed}/broker.key"), f"{deployed}/broker.crt")
    assert _tls(args(deploy=str(deployed), broker="mqtts://hub")) == (
        None, f"{deployed}/ca.crt")
    assert _tls(args()) == (None, None)
    with pytest.raises(CommandError, match="go together"):
        _tls(args(tls_cert=f"{deployed}/broker.crt"))
    with pytest.raises(CommandError, match="no such file"):
        _tls(args(deploy=str(deployed / "nowhere")))


def test_tenace_hub_runs_its_broker_with_tls_from_the_deploy_directory(
        deployed: Path, tmp_path: Path) -> None:
    import signal
    import sys

    from hub.tls import write_club_pki

    base = [sys.executable, "-m", "tenace", "hub", "--listen", "127.0.0.1:0", "--console",
            "off", "--no-double-dummy", "--tables", "2"]
    served = ["127.0.0.1:0" if word == "off" else word for word in base]  # a console: HTTPS
    hub = subprocess.Popen([*served, "--deploy", str(deployed), "--data", str(tmp_path / "a")],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert hub.stdout is not None
        lines = []
        for line in hub.stdout:
            lines.append(line)
            if line.startswith("hub ready"):
                break
        url = next(line for line in lines if "; broker: " in line).split("; broker: ")[1]
        assert url.startswith("mqtts://127.0.0.1:") and url.strip().endswith(
            f"?ca={deployed}/ca.crt")
        # the console is served with the same certificate: HTTPS, checked by the club's CA
        import ssl
        import urllib.request
        console = next(line for line in lines if line.startswith("director console: "))
        console = console.split(": ", 1)[1].strip()
        assert console.startswith("https://127.0.0.1:")
        checked = ssl.create_default_context(cafile=str(deployed / "ca.crt"))
        with urllib.request.urlopen(console + "api/pair/ca", timeout=10,
                                    context=checked) as answer:
            assert answer.read() == (deployed / "ca.crt").read_bytes()
        # the broker checks the accounts deploy init wrote; the hub is in with its own
        password = json.loads((deployed / "device-credentials.json").read_text())["A1-tab"]
        address = url.strip().split("://", 1)[1]
        with MqttClient(f"mqtts://A1-tab:{password}@{address}", "A1-tab",
                        clean_session=True) as tablet:
            tablet.wait_connected()
            tablet.subscribe("tenace/v1/hub/status")
            assert b'"online":true' in tablet.messages.get(timeout=10).payload
        spy = MqttClient(url.strip(), "spy", clean_session=True)
        try:
            with pytest.raises(MqttError, match="Not authorized"):
                spy.wait_connected(5)
        finally:
            spy.close()
    finally:
        hub.send_signal(signal.SIGTERM)
        hub.communicate(timeout=30)
    other = write_club_pki(tmp_path / "other", ["hub"])
    refused = subprocess.run([*base, "--deploy", str(deployed), "--tls-ca", str(other.ca_cert),
                              "--data", str(tmp_path / "b")],
                             capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert "the hub could not start" in refused.stderr
    assert f"not signed by the authority in {other.ca_cert}" in refused.stderr
    assert "hub ready" not in refused.stdout


# The hooks: the event's accounts (hub.accounts) and the console's first director (hub.users)

def _secrets(folder: Path) -> list[str]:
    ring = json.loads((folder / "device-credentials.json").read_text())
    return [*ring.values(), json.loads((folder / "tenace-hub.keyring").read_text())["tenace-hub"]]


def test_init_issues_every_account_of_the_event_and_keeps_them_on_renew(deployed: Path) -> None:
    names = event_accounts(EventSetup.load(EVENT))
    accounts = Accounts(deployed)
    assert {entry["account"]: entry["role"] for entry in accounts.listing()} == names
    assert (deployed / "mosquitto.acl").read_text() == mosquitto_acl(
        (name, names[name]) for name in sorted(names))
    users = (deployed / "mosquitto.passwd").read_text().splitlines()
    assert sorted(line.split(":", 1)[0] for line in users) == sorted(names)
    devices = json.loads((deployed / "device-credentials.json").read_text())
    assert set(devices) == set(names) - {"tenace-hub"}
    assert all(accounts.verify(name, password) for name, password in devices.items())
    hub = json.loads((deployed / "tenace-hub.keyring").read_text())
    assert accounts.verify("tenace-hub", hub["tenace-hub"])
    # no secret in a file anyone may read
    secrets = _secrets(deployed)
    for path in deployed.iterdir():
        if path.is_file() and mode(path) & 0o077:
            assert not any(secret in path.read_text() for secret in secrets), path
    before = {p.name: p.read_bytes() for p in deployed.iterdir()
              if p.name in ("accounts.json", "device-credentials.json", "tenace-hub.keyring")}
    init(deployed, ["hub.club.test"], event=EVENT, renew=True)   # no device loses its password
    assert {name: (deployed / name).read_bytes() for name in before} == before


def test_init_creates_the_first_director_or_says_how(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    secret = tmp_path / "director.txt"
    secret.write_text("correct horse battery staple\n")
    folder = tmp_path / "club"
    assert main(["deploy", "init", str(folder), "--host", "hub.local",
                 "--director-password-file", str(secret)]) == 0
    out = capsys.readouterr().out
    assert "director account 'director' is created" in out
    assert "correct horse" not in out and not any(s in out for s in _secrets(folder))
    users = UserStore.in_directory(folder / "data")
    assert users.has_director() and users.verify("director", "correct horse battery staple")
    assert mode(users.path) == 0o600
    assert main(["deploy", "init", str(folder), "--host", "hub.local", "--renew"]) == 0
    assert "already has a director's account" in capsys.readouterr().out
    # no password and no terminal to ask for one: the exact command to run
    other = tmp_path / "other"
    init(other, ["hub.local"])
    report = init(other, ["hub.local"], renew=True)
    assert (f"tenace users add director --role director --data {other}/data"
            in "\n".join(report.todo))
    assert not UserStore.in_directory(other / "data").has_director()
    short = tmp_path / "short.txt"
    short.write_text("short\n")
    assert main(["deploy", "init", str(tmp_path / "third"), "--host", "hub.local",
                 "--director-password-file", str(short)]) == 2
    assert "director's password" in capsys.readouterr().err
