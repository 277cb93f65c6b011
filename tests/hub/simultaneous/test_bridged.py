"""Simultaneous pairs over bridged Mosquitto brokers (issue 28, docs/simultaneous.md): the
organiser's Mosquitto (TLS, an account per club) and two clubs' Mosquittos bridged to it on
loopback, each club's line through a relay that the test cuts and restores.

What is checked: deals reach a club only once the organiser's clock passes its start time,
signed (a forged deal is refused); a club's results reach the organiser once each, the club
cut off mid-session catching up when its line is back; the field's results of a board reach a
club only after it has finished the board (Law 16), the field's ranking only after it has
finished them all; nothing of a club's own broker (a hand) reaches the organiser; the
organiser's field ranking is the one scoring every club's results together gives (Neuberg,
Law 78, for the board a club played fewer times). Each club's bridge logs in with its TLS
client certificate on the organiser's bridge listener; one without it, with a password, or
with a certificate of another authority never gets in (security.md).
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bridgecore.adjusted import BoardResult
from bridgecore.ranking import ScoringOptions, score_event
from hub.accounts import mosquitto_hash
from hub.mosquitto import Mosquitto, free_port
from hub.simultaneous import SimEvent
from hub.simultaneous.bridging import (
    OrganiserBroker,
    bridge_listener,
    bridge_stanza,
    organiser_listener,
    write_organiser_files,
)
from hub.simultaneous.club import ClubLink
from hub.simultaneous.event import generate_key, load_public_key, public_pem, sign, topic
from hub.simultaneous.field import field_pair
from hub.simultaneous.organiser import Organiser, deals_body
from hub.tls import (
    ClubPki,
    key_pem,
    make_authority,
    make_client_certificate,
    pem,
    read_authority,
    write_club_pki,
    write_file,
)
from tests.hub.simultaneous.helpers import Relay, club_results, make_event, write_accounts
from wire.errors import MqttError
from wire.mqtt import Message, MqttClient

T0 = datetime(2026, 4, 12, 18, 0, tzinfo=UTC)
HUB_PASSWORD = "club-hub-secret-0123456789"
BOARDS = 4


@dataclass
class Listener:
    """Every message a client receives, each with what the test had done by then."""

    client: MqttClient
    seen: list[tuple[str, bytes, frozenset[str]]] = field(default_factory=list)


class Moments:
    """What the test has done so far ("north finished 2", "south released"), read by the
    listeners when a message reaches them: it is set before the action it names."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.done: set[str] = set()

    def add(self, what: str) -> None:
        with self.lock:
            self.done.add(what)

    def now(self) -> frozenset[str]:
        with self.lock:
            return frozenset(self.done)


def _listen(url: str, client_id: str, filters: tuple[str, ...], moments: Moments) -> Listener:
    seen: list[tuple[str, bytes, frozenset[str]]] = []

    def take(message: Message) -> None:
        seen.append((message.topic, message.payload, moments.now()))

    listener = Listener(MqttClient(url, client_id, clean_session=True, on_message=take), seen)
    listener.client.wait_connected()
    for f in filters:
        listener.client.subscribe(f)
    return listener


def _club_certificate(pki: ClubPki, folder: Path, name: str,
                      authority: ClubPki | None = None) -> tuple[Path, Path]:
    """``name``'s certificate and key, signed by ``authority`` (the organiser's by default)."""
    ca_key, ca_cert = read_authority(authority or pki)
    key, cert = make_client_certificate(ca_key, ca_cert, name)
    folder.mkdir(parents=True, exist_ok=True)
    write_file(folder / f"{name}.crt", pem(cert), 0o644)
    write_file(folder / f"{name}.key", key_pem(key))
    return folder / f"{name}.crt", folder / f"{name}.key"


def _organiser_broker(tmp_path: Path, event: SimEvent, pki: ClubPki,
                      observers: dict[str, str] | None = None,
                      ) -> tuple[Mosquitto, int, OrganiserBroker]:
    """The organiser's Mosquitto: its password listener and the clubs' certificate one; an
    ``audit`` account (password ``audit-secret``) reads everything."""
    files = write_organiser_files(event, tmp_path / "organiser", observers=observers,
                                  certificates=True)
    files.acl_file.write_text(files.acl_file.read_text() + "user audit\ntopic read #\n")
    files.passwd_file.write_text(files.passwd_file.read_text()
                                 + f"audit:{mosquitto_hash('audit-secret')}\n")
    bridges = free_port()
    org = Mosquitto(tmp_path / "organiser" / "broker", open_access=True,
                    tls=(pki.ca_cert, pki.broker_cert, pki.broker_key),
                    listener_extra=(*organiser_listener(files), *bridge_listener(
                        bridges, pki.ca_cert, pki.broker_cert, pki.broker_key,
                        bind="127.0.0.1")))
    return org, bridges, files



def test_simultaneous_over_bridged_mosquittos(tmp_path: Path, closing: list[object]) -> None:
    clock = [T0]
    event = make_event({"north": (T0, 4), "south": (T0 + timedelta(hours=1), 3)}, BOARDS)
    key = generate_key()
    moments = Moments()

    # The organiser: TLS Mosquitto, accounts per club, observers with each club's read rights.
    pki = write_club_pki(tmp_path / "pki", ["localhost"], club="Organiser")
    org, bridges, files = _organiser_broker(
        tmp_path, event, pki, {"north-eye": "north", "south-eye": "south"})
    closing.append(org)

    def org_url(name: str, password: str) -> str:
        return org.url.replace("mqtts://", f"mqtts://{name}:{password}@")

    # The clubs: each its own Mosquitto, its hub's account, its bridge through a relay.
    relays, clubs, links = {}, {}, {}
    for club in ("north", "south"):
        relays[club] = Relay(bridges)
        closing.append(relays[club])
        stanza = bridge_stanza(event, club, None, host="127.0.0.1", port=relays[club].port,
                               ca_file=pki.ca_cert, certificate=_club_certificate(
                                   pki, tmp_path / club / "kit", club))
        local = write_accounts(tmp_path / club, {
            "tenace-hub": (HUB_PASSWORD, ["topic readwrite #"])})
        clubs[club] = Mosquitto(tmp_path / club / "broker",
                                (*local, *stanza.strip().splitlines()), open_access=True)
        closing.append(clubs[club])
    audit_listener = _listen(org_url("audit", "audit-secret"), "audit", ("#",), moments)
    eyes = {club: _listen(org_url(f"{club}-eye", files.passwords[f"{club}-eye"]),
                          f"{club}-eye", ("tenace/sim/#", "#"), moments)
            for club in ("north", "south")}
    closing.extend(x.client for x in (audit_listener, *eyes.values()))

    organiser = Organiser(event, org_url("organiser", files.passwords["organiser"]), key,
                          now=lambda: clock[0])
    closing.append(organiser)
    public = load_public_key(public_pem(key))
    for club in ("north", "south"):
        url = clubs[club].url.replace("mqtt://", f"mqtt://tenace-hub:{HUB_PASSWORD}@")
        links[club] = ClubLink(event.id, club, url, public).start()
        closing.append(links[club])
    moments.add("north released")
    organiser.start()

    # North's session starts: its deals arrive, signed; south's do not.
    north, south = links["north"], links["south"]
    assert north.wait_for(lambda link: link.deals is not None, 60), "north never got its deals"
    assert north.deals is not None and north.deals["pbn"] == event.deals
    assert south.deals is None

    # A forged deal (another key) on north's own broker is refused.
    forged = sign(generate_key(), deals_body(event, "north", T0))
    north.client.publish(topic(event.id, "north", "deals"), forged, 1)
    assert north.wait_for(lambda link: bool(link.refused), 30), "a forged deal was taken"
    assert north.deals["pbn"] == event.deals

    # North plays: a hand on its own broker (never leaves the club), its first two boards.
    north.client.publish("tenace/v1/table/1/hand/N", b"AKQJ.T98.765.432", 1)
    north_rows = club_results("north", 4, BOARDS, seed=1)
    for row in north_rows[:8]:
        north.publish_result(row["id"], row["board"], row["ns"], row["ew"], row["score_ns"])
    for board in (1, 2):
        moments.add(f"north finished {board}")
        north.publish_finished(board, 4)
    assert north.wait_for(lambda link: {1, 2} <= set(link.field), 60), "no field results"

    # North is cut off mid-session and plays on; south's session starts meanwhile.
    relays["north"].cut()
    for row in north_rows[8:]:
        north.publish_result(row["id"], row["board"], row["ns"], row["ew"], row["score_ns"])
    first = north_rows[0]   # sent again after the cut: counted once
    north.publish_result(first["id"], first["board"], first["ns"], first["ew"], first["score_ns"])
    for board in (3, 4):
        moments.add(f"north finished {board}")
        north.publish_finished(board, 4)
    moments.add("south released")
    clock[0] = T0 + timedelta(hours=1)
    assert south.wait_for(lambda link: link.deals is not None, 60), "south never got its deals"
    south_rows = club_results("south", 3, BOARDS, seed=2, sit_out=frozenset({(2, 3)}))
    for row in south_rows:
        south.publish_result(row["id"], row["board"], row["ns"], row["ew"], row["score_ns"])
    for board in range(1, BOARDS + 1):
        moments.add(f"south finished {board}")
        # board 2: a table sat out, south's director closes it with two results (Law 16)
        south.publish_finished(board, 2 if board == 2 else 3, closed=board == 2)
    assert south.wait_for(lambda link: link.ranking is not None, 60), "south got no ranking"
    assert north.ranking is None   # cut off: nothing of the rest has reached north

    # North's line is back: its results catch up, once each.
    relays["north"].restore()
    total = len(north_rows) + len(south_rows)
    assert organiser.wait_for(lambda f: len(f.results) == total
                              and len(f.finished_boards("north")) == BOARDS, 90)
    assert north.wait_for(lambda link: link.ranking is not None
                          and len(link.ranking["ranking"]) == 14, 90), "north got no ranking"

    # The organiser's field ranking is the offline scoring of all the clubs' results.
    offline = score_event(
        [BoardResult(r["board"], field_pair(club, r["ns"]), field_pair(club, r["ew"]),
                     r["score_ns"])
         for club, rows in (("north", north_rows), ("south", south_rows)) for r in rows],
        options=ScoringOptions(expected=7))
    assert organiser.field.score is not None
    assert organiser.field.score.ranking == offline.ranking
    assert organiser.field.score.tops[2] == offline.tops[2]
    assert north.ranking == json.loads(json.dumps(organiser.field.ranking_payload("north")))
    assert organiser.field.duplicates >= 1   # the resent result counted once

    # Secrecy, as each club's account sees the organiser's broker.
    for club, eye in eyes.items():
        other = "south" if club == "north" else "north"
        for name, _payload, done in eye.seen:
            assert f"/{other}/" not in name, f"{club} saw {name}"
            assert f"/{club}/" in name, f"{club} saw {name}"
            if name.endswith("/deals"):
                assert f"{club} released" in done, f"{club} saw its deals before its start"
            if "/field/" in name:
                number = name.rsplit("/", 1)[1]
                assert f"{club} finished {number}" in done, f"{club} saw board {number} early"
        assert any("/field/" in name for name, _, _ in eye.seen)
    # Nothing of a club's broker but its results and finished boards reaches the organiser.
    assert audit_listener.seen, "the audit listener saw nothing"
    for name, payload, _ in audit_listener.seen:
        assert name.startswith(f"tenace/sim/v1/{event.id}/"), name
        assert b"AKQJ" not in payload


def _bridge_attempts(club: Mosquitto) -> int:
    """How many times the club's bridge has dialled the organiser (its broker's log)."""
    return club.log.read_text(errors="replace").count("Connecting bridge")


def test_only_a_bridge_with_its_clubs_certificate_gets_in(tmp_path: Path,
                                                          closing: list[object]) -> None:
    """A club's bridge without a certificate (with a password, its own or another club's
    observer's), or with a certificate of another authority, never reaches the organiser's
    broker, on either listener; the genuine bridge does, and a client that names itself
    after a club with a password cannot take that club's session."""
    event = make_event({"north": (T0, 4), "south": (T0, 4)}, BOARDS)
    pki = write_club_pki(tmp_path / "pki", ["localhost"], club="Organiser")
    org, bridges, files = _organiser_broker(tmp_path, event, pki, {"south-eye": "south"})
    closing.append(org)
    assert "north" not in files.passwords and "south" not in files.passwords
    assert "north:" not in files.passwd_file.read_text()
    audit = _listen(org.url.replace("mqtts://", "mqtts://audit:audit-secret@"), "audit",
                    ("#",), Moments())
    closing.append(audit.client)

    stranger = tmp_path / "stranger"
    stranger.mkdir()
    other_key, other_cert = make_authority("Another organiser")
    write_file(stranger / "ca.key", key_pem(other_key))
    write_file(stranger / "ca.crt", pem(other_cert), 0o644)
    other = ClubPki(stranger)
    eye = files.passwords["south-eye"]
    # (name, stanza): what each impostor's broker would bridge with, and where to.
    attempts = {
        "no-cert-bridge-port": bridge_stanza(event, "north", eye, host="127.0.0.1",
                                             port=bridges, ca_file=pki.ca_cert),
        "password-listener": bridge_stanza(event, "north", eye, host="127.0.0.1",
                                           port=org.port, ca_file=pki.ca_cert),
        "other-authority": bridge_stanza(
            event, "north", None, host="127.0.0.1", port=bridges, ca_file=pki.ca_cert,
            certificate=_club_certificate(other, tmp_path / "forged", "north", other)),
        "genuine": bridge_stanza(
            event, "south", None, host="127.0.0.1", port=bridges, ca_file=pki.ca_cert,
            certificate=_club_certificate(pki, tmp_path / "south", "south")),
    }
    brokers: dict[str, Mosquitto] = {}
    for name, stanza in attempts.items():
        brokers[name] = Mosquitto(tmp_path / name, tuple(stanza.strip().splitlines()),
                                  open_access=True)
        closing.append(brokers[name])
    hubs = {name: MqttClient(broker.url, f"{name}-hub", clean_session=True)
            for name, broker in brokers.items()}
    closing.extend(hubs.values())
    for name, client in hubs.items():
        client.wait_connected()
        club = "south" if name == "genuine" else "north"
        client.publish(topic(event.id, club, "result"), name.encode(), 1, wait=True)

    # The genuine bridge carries its club's result; each impostor dials again and again.
    deadline = threading.Event()
    for _ in range(1200):     # a guard of 120 s: it ends as soon as all is seen
        if (any(p == b"genuine" for _, p, _ in audit.seen)
                and all(_bridge_attempts(brokers[n]) >= 3 for n in attempts if n != "genuine")):
            break
        deadline.wait(0.1)
    assert [p for _, p, _ in audit.seen] == [b"genuine"], audit.seen
    assert all(_bridge_attempts(brokers[n]) >= 3 for n in attempts if n != "genuine")

    # A client with a password that names itself north gets neither listener.
    nocert = org.url.replace("mqtts://", f"mqtts://south-eye:{eye}@").replace(
        f":{org.port}", f":{bridges}")
    for url in (org.url.replace("mqtts://", f"mqtts://north:{eye}@"), nocert):
        client = MqttClient(url, "north", clean_session=False)
        closing.append(client)
        with pytest.raises(MqttError):
            client.wait_connected(10)
