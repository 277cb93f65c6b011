"""A club's certificate revoked and reissued (``tenace sim-event revoke|reissue``,
hub.simultaneous.revocation, docs/simultaneous.md, security.md): the files written, bad input
named, and the organiser's Mosquitto run for real from the configuration init wrote, with two
clubs' Mosquittos bridged to it by their kits.

What was found of Mosquitto 2.0.11 and is checked here: SIGHUP makes it read the revocation
list again, and from then on a handshake with the revoked certificate is refused; the bridge
connected with it before stays connected (SIGHUP cuts no connection) until Mosquitto restarts;
after a graceful restart it cannot get back in. The club's reissued certificate (same name,
hence the same client id) gets in and its persistent session delivers what was queued for it
meanwhile, both ways; the other club is never cut by the SIGHUP nor by the revoked club's
return, and loses nothing across the restart.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import ssl
import subprocess
from pathlib import Path

import pytest
from cryptography.x509.oid import NameOID

from hub.mosquitto import MOSQUITTO, Mosquitto, free_port, wait_for_port
from hub.simultaneous.event import topic
from hub.simultaneous.kit import organiser_url
from hub.tls import read_certificate, read_revocation_list
from tenace.cli import main
from tests.hub.simultaneous.helpers import until, write_accounts, write_event_file
from wire.mqtt import Message, MqttClient
from wire.processes import stop_process

HUB_PASSWORD = "club-hub-secret-0123456789"
CLUB_PATH = "/etc/tenace/sim/spring"   # where init's bridge.conf says the kit is


def _init(tmp_path: Path, *more: str) -> tuple[Path, int, int]:
    port, bridge_port = free_port(), free_port()
    out = tmp_path / "out"
    assert main(["sim-event", "init", str(write_event_file(tmp_path)), str(out), "--host",
                 "localhost", "--port", str(port), "--bridge-port", str(bridge_port),
                 "--club-path", CLUB_PATH, *more]) == 0
    return out, port, bridge_port


def _revoked_serials(out: Path) -> list[int]:
    """The serial numbers in the revocation list, once its signature is checked."""
    crl = read_revocation_list(out / "organiser" / "tls" / "clubs.crl")
    ca = read_certificate(out / "organiser" / "tls" / "ca.crt")
    assert crl.is_signature_valid(ca.public_key())
    assert crl.issuer == ca.subject
    return [entry.serial_number for entry in crl]


def _kit_files(kit: Path) -> dict[str, tuple[bytes, int]]:
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(kit.iterdir())}


def test_revoke_and_reissue_write_the_list_and_that_clubs_kit_only(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, _, _ = _init(tmp_path)
    conf = (out / "organiser" / "mosquitto.conf").read_text()
    crl_file = out.resolve() / "organiser" / "tls" / "clubs.crl"
    # init: an empty list, signed, named by the bridge listener (after its listener line).
    assert f"crlfile {crl_file}" in conf.splitlines()
    bridge_listener = conf.split("listener ")[2]
    assert f"crlfile {crl_file}" in bridge_listener and "require_certificate true" in \
        bridge_listener
    assert _revoked_serials(out) == []
    lyon, york = out / "clubs" / "lyon", out / "clubs" / "york"
    old = read_certificate(lyon / "bridge.crt")
    york_before = _kit_files(york)
    event = str(tmp_path / "event.json")
    capsys.readouterr()

    assert main(["sim-event", "revoke", event, str(out), "lyon"]) == 0
    said = capsys.readouterr().out
    assert f"club lyon: certificate {old.serial_number:x} revoked" in said
    assert "kill -HUP" in said and "restart Mosquitto" in said   # what the operator does
    assert _revoked_serials(out) == [old.serial_number]
    kept = json.loads((out / "organiser" / "certificates.json").read_text())
    assert [(e["club"], int(e["serial"], 16), e["why"]) for e in kept["revoked"]] == [
        ("lyon", old.serial_number, "revoked")]
    listed = (out / "organiser" / "tls" / "clubs.crl").read_bytes()
    # Twice: harmless, said, nothing written again.
    assert main(["sim-event", "revoke", event, str(out), "lyon"]) == 0
    assert "revoked already" in capsys.readouterr().out
    assert (out / "organiser" / "tls" / "clubs.crl").read_bytes() == listed

    assert main(["sim-event", "reissue", event, str(out), "lyon"]) == 0
    said = capsys.readouterr().out
    new = read_certificate(lyon / "bridge.crt")
    assert f"new certificate {new.serial_number:x}" in said and "kill -HUP" in said
    assert "revoked (" not in said                    # revoked already, not again
    assert new.serial_number != old.serial_number
    assert new.subject == old.subject                  # the club's account, its client id
    assert new.subject.get_attributes_for_oid(NameOID.COMMON_NAME)[0].value == "lyon"
    new.verify_directly_issued_by(read_certificate(out / "organiser" / "tls" / "ca.crt"))
    assert new.public_key() != old.public_key()
    assert os.stat(lyon / "bridge.key").st_mode & 0o077 == 0
    stanza = (lyon / "bridge.conf").read_text()
    assert f"bridge_certfile {CLUB_PATH}/bridge.crt" in stanza and "remote_clientid lyon" in \
        stanza
    assert json.loads((lyon / "club.json").read_text()) == {"event": "spring", "club": "lyon"}
    assert _revoked_serials(out) == [old.serial_number]   # the new one is not revoked
    assert _kit_files(york) == york_before                # every other kit untouched

    # Reissued without a revoke first: the certificate it replaces is revoked, and said.
    assert main(["sim-event", "reissue", event, str(out), "lyon"]) == 0
    assert f"certificate {new.serial_number:x} revoked" in capsys.readouterr().out
    assert _revoked_serials(out) == [old.serial_number, new.serial_number]
    assert _kit_files(york) == york_before

    # A new authority (init --force): the old list means nothing to it and starts empty.
    assert main(["sim-event", "init", event, str(out), "--host", "localhost", "--force"]) == 0
    assert _revoked_serials(out) == []
    assert json.loads((out / "organiser" / "certificates.json").read_text())["revoked"] == []


def _older_set_up(out: Path) -> None:
    """A folder as a tenace before revocation lists wrote it."""
    conf = out / "organiser" / "mosquitto.conf"
    conf.write_text("".join(line for line in conf.read_text().splitlines(keepends=True)
                            if not line.startswith("crlfile ")))


@pytest.mark.parametrize(("job", "change", "club", "words"), [
    ("revoke", None, "paris", "club 'paris' is not in event spring (its clubs: lyon, york)"),
    ("reissue", None, "paris", "club 'paris' is not in event spring"),
    ("revoke", "nowhere", "lyon", "no simultaneous event set up there"),
    ("reissue", "nowhere", "lyon", "no simultaneous event set up there"),
    ("revoke", "older", "lyon", "names no crlfile"),
    ("reissue", "no setup", "lyon", "setup.json is missing"),
    ("revoke", "other event", "lyon", "is set up for event spring, not autumn"),
    ("revoke", "torn list", "lyon", "certificates.json: unreadable"),
])
def test_bad_input_is_refused_by_name(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                      job: str, change: str | None, club: str,
                                      words: str) -> None:
    out, _, _ = _init(tmp_path)
    event = tmp_path / "event.json"
    folder = out
    if change == "nowhere":
        folder = tmp_path / "nowhere"
    elif change == "older":
        _older_set_up(out)
    elif change == "no setup":
        (out / "organiser" / "setup.json").unlink()
    elif change == "other event":
        data = json.loads(event.read_text())
        event.write_text(json.dumps({**data, "event": "autumn"}))
    elif change == "torn list":
        path = out / "organiser" / "certificates.json"
        path.write_text(path.read_text()[:40])
    listed = (out / "organiser" / "tls" / "clubs.crl").read_bytes()
    kit = _kit_files(out / "clubs" / "lyon")
    capsys.readouterr()
    assert main(["sim-event", job, str(event), str(folder), club]) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err
    assert (out / "organiser" / "tls" / "clubs.crl").read_bytes() == listed   # nothing done
    assert _kit_files(out / "clubs" / "lyon") == kit


class OrganiserBroker:
    """The organiser's Mosquitto run from the configuration init wrote (as the organiser
    runs it): started, sent SIGHUP, restarted gracefully; its log in ``log``."""

    def __init__(self, conf: Path, ports: tuple[int, ...], log: Path):
        if os.geteuid() == 0:    # else it drops to 'mosquitto', who cannot read the kit
            conf.write_text(conf.read_text() + "user root\n")
        self.conf, self.ports, self.log = conf, ports, log
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    def _count(self, text: str) -> int:
        return self.log.read_text(errors="replace").count(text) if self.log.exists() else 0

    def start(self) -> None:
        before = self._count(" running")
        with self.log.open("ab") as sink:
            process = subprocess.Popen([MOSQUITTO, "-c", str(self.conf)], stdout=sink,
                                       stderr=subprocess.STDOUT)
        self.process = process
        try:   # a broker that exits (a port taken) fails at once, not after the guard
            assert until(lambda: self._count(" running") > before
                         or process.poll() is not None), self.log.read_text()
            assert process.poll() is None, self.log.read_text()
            for port in self.ports:
                assert wait_for_port(port, 30.0, process)
        except BaseException:
            stop_process(process)    # never left running after a failed start
            raise

    def hup(self) -> None:
        before = self._count("Reloading config")
        assert self.process is not None
        self.process.send_signal(signal.SIGHUP)
        assert until(lambda: self._count("Reloading config") > before)

    def restart(self) -> None:
        self.stop()
        self.start()

    def stop(self) -> None:
        if self.process is not None:
            stop_process(self.process)    # SIGTERM: it saves its sessions first




def _gets_in(port: int, ca: Path, cert: Path, key: Path) -> bool:
    """Whether the broker on ``port`` takes an MQTT connection with this certificate: a
    TLS handshake, a CONNECT (clean session) and its CONNACK accepted."""
    context = ssl.create_default_context(ssl.Purpose.SERVER_AUTH, cafile=str(ca))
    context.load_cert_chain(str(cert), str(key))
    connect = b"\x10\x0e\x00\x04MQTT\x04\x02\x00\x3c\x00\x02id"
    try:
        with socket.create_connection(("localhost", port), 30) as raw, \
                context.wrap_socket(raw, server_hostname="localhost") as tls:
            tls.sendall(connect)
            return tls.recv(4) == b"\x20\x02\x00\x00"
    except (ssl.SSLError, OSError):
        return False     # the handshake refused (TLS 1.2), or the alert after it (TLS 1.3)


def _club_broker(tmp_path: Path, out: Path, club: str) -> Mosquitto:
    """The club's Mosquitto with its kit's bridge.conf, the kit where the stanza says it is
    (its folder in the test: CLUB_PATH stands for it) and its hub's account."""
    kit = out / "clubs" / club
    stanza = (kit / "bridge.conf").read_text().replace(CLUB_PATH, str(kit.resolve()))
    local = write_accounts(tmp_path / club, {"tenace-hub": (HUB_PASSWORD, ["topic readwrite #"])})
    return Mosquitto(tmp_path / club / "broker", (*local, *stanza.strip().splitlines()),
                     open_access=True)


def _listener(broker: Mosquitto, name: str, filters: tuple[str, ...],
              seen: list[tuple[str, bytes]]) -> MqttClient:
    """A client of ``broker`` with a persistent session (what comes while it reconnects is
    kept for it), each message appended to ``seen``."""
    url = broker.url.replace("mqtt://", f"mqtt://tenace-hub:{HUB_PASSWORD}@")
    client = MqttClient(url, name, clean_session=False,
                        on_message=lambda m: seen.append((m.topic, m.payload)))
    client.wait_connected(30)
    for f in filters:
        client.subscribe(f, 1)
    return client


def test_a_revoked_club_is_refused_and_its_reissued_certificate_gets_its_session(
        tmp_path: Path, closing: list[object]) -> None:
    out, port, bridge_port = _init(tmp_path)
    event = str(tmp_path / "event.json")
    org = out / "organiser"
    ca = org / "tls" / "ca.crt"
    broker = OrganiserBroker(org / "mosquitto.conf", (port, bridge_port),
                             tmp_path / "organiser.log")
    closing.append(broker)
    # lyon's key, as a thief would keep it: it gets in before it is revoked.
    stolen = tmp_path / "stolen"
    stolen.mkdir()
    for name in ("bridge.crt", "bridge.key"):
        (stolen / name).write_bytes((out / "clubs" / "lyon" / name).read_bytes())
    assert _gets_in(bridge_port, ca, stolen / "bridge.crt", stolen / "bridge.key")

    # The organiser's service account, and both clubs bridged by their kits.
    taken: list[Message] = []
    organiser = MqttClient(organiser_url(out, f"localhost:{port}"), "organiser",
                           clean_session=True, on_message=taken.append)
    closing.append(organiser)
    organiser.wait_connected(30)
    organiser.subscribe("tenace/sim/v1/spring/+/result")
    clubs = {club: _club_broker(tmp_path, out, club) for club in ("lyon", "york")}
    closing.extend(clubs.values())
    seen: dict[str, list[tuple[str, bytes]]] = {"lyon": [], "york": []}
    hubs = {club: _listener(clubs[club], f"{club}-hub",
                            (f"tenace/sim/v1/spring/{club}/#",), seen[club])
            for club in ("lyon", "york")}
    closing.extend(hubs.values())

    def connections(club: str) -> int:
        return broker.log.read_text(errors="replace").count(f" as {club} ")

    def reached(club: str, board: int) -> bool:
        return any(t == topic("spring", club, "field", board) for t, _ in seen[club])

    def field(board: int) -> None:      # the field's results of a board, to each club
        for club in ("lyon", "york"):
            organiser.publish(topic("spring", club, "field", board), f"board {board}", 1,
                              wait=True)

    # Both bridges up: board 1's field results, published again until both carry them (a
    # bridge subscribes just after it connects: what comes before is for nobody).
    for _ in range(90):     # a guard: it ends as soon as both clubs have it
        field(1)
        if until(lambda: reached("lyon", 1) and reached("york", 1), 1.0):
            break
    assert reached("lyon", 1) and reached("york", 1), seen
    york_connections = connections("york")

    # lyon's key is stolen: the organiser revokes it and sends Mosquitto SIGHUP, as told.
    assert main(["sim-event", "revoke", event, str(out), "lyon"]) == 0
    broker.hup()
    assert not _gets_in(bridge_port, ca, stolen / "bridge.crt", stolen / "bridge.key")
    # The bridge connected with it before stays connected: SIGHUP cuts nothing (which is
    # why the operator is told to restart to cut a connection open with it).
    field(2)
    assert until(lambda: reached("lyon", 2) and reached("york", 2)), seen
    assert connections("york") == york_connections    # york's bridge never cut

    # A graceful restart: lyon's bridge, with the revoked certificate, cannot get back in.
    lyon_connections = connections("lyon")
    broker.restart()
    attempts = clubs["lyon"].log.read_text(errors="replace").count("Connecting bridge")
    assert until(lambda: connections("york") > york_connections)   # york is back
    assert until(lambda: clubs["lyon"].log.read_text(errors="replace").count(
        "Connecting bridge") >= attempts + 3)
    assert connections("lyon") == lyon_connections
    assert not _gets_in(bridge_port, ca, stolen / "bridge.crt", stolen / "bridge.key")
    # Meanwhile the field goes on and lyon plays on: both wait in the two brokers.
    assert until(lambda: organiser.connections >= 2)
    field(3)
    assert until(lambda: reached("york", 3)), seen
    hubs["lyon"].publish(topic("spring", "lyon", "result"), b"lyon's result while out", 1,
                         wait=True)
    york_after_restart = connections("york")

    # lyon's new certificate and kit; the club installs it and restarts its Mosquitto.
    york_kit = _kit_files(out / "clubs" / "york")
    assert main(["sim-event", "reissue", event, str(out), "lyon"]) == 0
    assert _kit_files(out / "clubs" / "york") == york_kit
    clubs["lyon"].restart()
    assert until(lambda: reached("lyon", 3)), seen          # its session kept it
    assert until(lambda: any(m.payload == b"lyon's result while out" for m in taken))
    assert connections("lyon") > lyon_connections
    assert not _gets_in(bridge_port, ca, stolen / "bridge.crt", stolen / "bridge.key")

    # york: not cut by lyon's return, nothing lost across the restart.
    assert connections("york") == york_after_restart
    for club in ("lyon", "york"):
        assert {t for t, _ in seen[club] if "/field/" in t} == {
            topic("spring", club, "field", board) for board in (1, 2, 3)}
