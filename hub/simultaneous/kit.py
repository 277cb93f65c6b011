"""What ``tenace sim-event init`` writes for an event: the organiser's side and one kit per club.

``DIR/organiser/``: ``signing.key`` (Ed25519, 0600: it never leaves the organiser),
``organiser.password`` (the organiser service's account, 0600),
``sim.passwd`` and ``sim.acl`` (hub.simultaneous.bridging), ``mosquitto.conf`` (two TLS
listeners: ``port`` for the organiser's service and observers, with passwords; ``bridge_port``
for the clubs' bridges, with client certificates only; no anonymous client, persistence), the
certificate authority and broker certificate (hub.tls). ``DIR/clubs/<club>/``: ``bridge.conf``
(the club's Mosquitto bridge stanza, 0600), ``bridge.crt`` and ``bridge.key`` (the club's
certificate, its common name the club's account, signed by the organiser's authority; the key
a secret, 0600), ``ca.crt`` (to check the organiser's broker) and ``organiser.pub`` (to check
the deals' signature). A club copies its folder to ``club_path`` on its hub and adds
``include_dir`` (or the stanza) to its Mosquitto configuration (docs/simultaneous.md).

Beside them ``DIR/organiser/setup.json`` (what init was told: the hosts, ports and the clubs'
path, to write a club's kit again), ``certificates.json`` and ``tls/clubs.crl`` (each club's
certificate, those revoked and their revocation list, the bridge listener's ``crlfile``:
hub.simultaneous.revocation). :func:`revoke_club` revokes a club's certificate
(``sim-event revoke``), :func:`reissue_club` gives the club a new one and its kit again,
every other club's kit untouched (``sim-event reissue``).
"""

from __future__ import annotations

import json
import logging
import shutil
import threading
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from cryptography import x509

from hub.simultaneous.bridging import (
    ORGANISER,
    bridge_listener,
    bridge_stanza,
    organiser_listener,
    write_organiser_files,
)
from hub.simultaneous.event import SimError, SimEvent, generate_key, private_pem, public_pem
from hub.simultaneous.handover import CLUB_FILE, SIGNED_DEALS
from hub.simultaneous.revocation import ClubCertificates, Revoked
from hub.tls import (
    ClubPki,
    Key,
    TlsError,
    key_pem,
    make_client_certificate,
    pem,
    read_authority,
    write_club_pki,
    write_file,
)
from wire.pairing import write_private

__all__ = [
    "BRIDGE_CERT",
    "BRIDGE_KEY",
    "FIELD_FILE",
    "JOURNAL_FILE",
    "PASSWORD_FILE",
    "PUBLIC_KEY",
    "RELAY_STATE",
    "SETUP_FILE",
    "SIGNING_KEY",
    "UPLOAD_FILE",
    "Kit",
    "Reissued",
    "Setup",
    "organiser_url",
    "reissue_club",
    "revoke_club",
    "run_club",
    "run_organiser",
    "write_kit",
]

log = logging.getLogger(__name__)

SIGNING_KEY = "signing.key"
PASSWORD_FILE = "organiser.password"
BRIDGE_CERT, BRIDGE_KEY = "bridge.crt", "bridge.key"   # a club's, in its kit
PUBLIC_KEY = "organiser.pub"
FIELD_FILE = "field.xml"
RELAY_STATE = "relayed.json"     # the ids the club's relay sent (relay.py)
JOURNAL_FILE = "journal.jsonl"   # the clubs' messages the organiser took (organiser.py)
UPLOAD_FILE = "ecats-upload.xml"
SETUP_FILE = "setup.json"        # what init was told (Setup), in DIR/organiser


@dataclass(frozen=True, slots=True)
class Kit:
    organiser: Path
    clubs: dict[str, Path]


@dataclass(frozen=True, slots=True)
class Setup:
    """What ``sim-event init`` was told, kept to write a club's kit again (reissue)."""

    event: str
    hosts: tuple[str, ...]
    port: int
    bridge_port: int
    club_path: str | None

    def to_json(self) -> str:
        return json.dumps({"event": self.event, "hosts": list(self.hosts), "port": self.port,
                           "bridge_port": self.bridge_port, "club_path": self.club_path},
                          indent=1) + "\n"

    @classmethod
    def load(cls, path: Path) -> Setup:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            setup = cls(str(data["event"]), tuple(str(h) for h in data["hosts"]),
                        int(data["port"]), int(data["bridge_port"]),
                        None if data["club_path"] is None else str(data["club_path"]))
        except FileNotFoundError as err:
            raise SimError(f"{path} is missing (written by a tenace before revocation "
                           "lists: sim-event init --force writes it, and new kits for "
                           "every club)") from err
        except (OSError, ValueError, KeyError, TypeError) as err:
            raise SimError(f"{path}: unreadable: {err}") from err
        if not setup.hosts:
            raise SimError(f"{path}: no host")
        return setup


@dataclass(frozen=True, slots=True)
class Reissued:
    """What :func:`reissue_club` did: the certificate it revoked (None when revoked
    already), the new one's serial number, the club's kit written again."""

    revoked: Revoked | None
    serial: int
    kit: Path


def write_kit(event: SimEvent, folder: Path, *, hosts: list[str], port: int = 8883,
              bridge_port: int = 8884, club_path: str | None = None,
              force: bool = False) -> Kit:
    """Write the organiser's folder and each club's kit (module docstring). Keys already
    there are kept unless ``force`` (new keys mean new kits for every club). The broker's
    configuration names its files by absolute path: Mosquitto reads a relative one from its
    own working directory, not the configuration's."""
    org = folder.resolve() / "organiser"
    key_file = org / SIGNING_KEY
    if key_file.exists() and not force:
        raise SimError(f"{key_file} exists: the event is set up already (--force replaces "
                       "its keys; every club then needs its new kit)")
    if not hosts:
        raise SimError("give the name (or address) the clubs reach the organiser's broker by")
    if bridge_port == port:
        raise SimError(f"the clubs' bridge port and the organiser's port are both {port}: "
                       "they are two listeners")
    try:
        pki = write_club_pki(org / "tls", hosts, club=f"Tenace simultaneous {event.id}",
                             force=force)
        ca_key, ca_cert = read_authority(pki)
        certificates = {club.id: make_client_certificate(ca_key, ca_cert, club.id)
                        for club in event.clubs}
    except TlsError as err:
        raise SimError(str(err)) from err
    kept = ClubCertificates.load(pki)   # its revoked list, unless the authority is new
    kept.issued = {club: cert.serial_number for club, (_, cert) in certificates.items()}
    crl = kept.save()
    setup = Setup(event.id, tuple(hosts), port, bridge_port, club_path)
    key = generate_key()
    write_private(key_file, private_pem(key).decode())
    broker = write_organiser_files(event, org, certificates=True)
    write_private(org / PASSWORD_FILE, broker.passwords[ORGANISER] + "\n")
    conf = [f"# the organiser's Mosquitto for simultaneous {event.id} (tenace sim-event)",
            f"# Run it with: mosquitto -c {org / 'mosquitto.conf'}. Started as root, Mosquitto",
            "# drops to its own user before reading the files below: chown mosquitto this",
            "# folder (its persistence), sim.passwd, sim.acl and tls/broker.key (never",
            "# signing.key), or start it as the user that owns them.",
            f"listener {port}", f"cafile {pki.ca_cert}", f"certfile {pki.broker_cert}",
            f"keyfile {pki.broker_key}", "tls_version tlsv1.2", *organiser_listener(broker),
            "# the clubs' bridges: a TLS client certificate signed by tls/ca.crt and not in",
            "# tls/clubs.crl (tenace sim-event revoke; read again on SIGHUP), no password",
            *bridge_listener(bridge_port, pki.ca_cert, pki.broker_cert, pki.broker_key,
                             crl_file=crl),
            "persistence true", f"persistence_location {org}/",
            "max_queued_messages 100000", "max_queued_bytes 268435456",
            "# a club's packet over 1 MiB closes its connection (Mosquitto's own limit is",
            "# 256 MB: one club could hand the organiser's service 100 MB to parse)",
            "max_packet_size 1048576"]
    (org / "mosquitto.conf").write_text("\n".join(conf) + "\n")
    (org / SETUP_FILE).write_text(setup.to_json())
    (org / PUBLIC_KEY).write_bytes(public_pem(key))
    clubs: dict[str, Path] = {}
    for club in event.clubs:
        clubs[club.id] = _write_club_kit(event, club.id, folder, setup, pki,
                                         certificates[club.id])
    return Kit(org, clubs)


def _write_club_kit(event: SimEvent, club_id: str, folder: Path, setup: Setup, pki: ClubPki,
                    certificate: tuple[Key, x509.Certificate]) -> Path:
    """Write ``folder/clubs/<club_id>`` (module docstring) with the club's ``certificate``
    (its key and certificate); its path."""
    kit = folder / "clubs" / club_id
    kit.mkdir(parents=True, exist_ok=True)
    where = Path(setup.club_path or f"/etc/tenace/sim/{event.id}")
    club_key, club_cert = certificate
    try:
        write_file(kit / BRIDGE_KEY, key_pem(club_key))
        write_file(kit / BRIDGE_CERT, pem(club_cert), 0o644)
    except TlsError as err:
        raise SimError(str(err)) from err
    write_private(kit / "bridge.conf", bridge_stanza(
        event, club_id, None, host=setup.hosts[0], port=setup.bridge_port,
        ca_file=where / "ca.crt", certificate=(where / BRIDGE_CERT, where / BRIDGE_KEY)))
    shutil.copyfile(pki.ca_cert, kit / "ca.crt")
    shutil.copyfile(pki.folder.parent / PUBLIC_KEY, kit / PUBLIC_KEY)
    (kit / CLUB_FILE).write_text(json.dumps({"event": event.id, "club": club_id}) + "\n")
    (kit / "start.txt").write_text(f"{event.id}: the deals come at "
                                   f"{event.club(club_id).start.isoformat()}\n")
    return kit


def _set_up(event: SimEvent, folder: Path, club: str) -> tuple[ClubPki, ClubCertificates]:
    """The event's authority and club certificates in ``folder`` (sim-event init's), for
    ``club``: SimError when the folder holds no event, another event, an older set-up
    without a revocation list, or ``club`` is not one of its clubs."""
    org = folder.resolve() / "organiser"
    pki = ClubPki(org / "tls")
    if not pki.ca_key.exists():
        raise SimError(f"{folder}: no simultaneous event set up there ({pki.ca_key} is "
                       "missing: tenace sim-event init writes it)")
    setup = Setup.load(org / SETUP_FILE)
    if setup.event != event.id:
        raise SimError(f"{folder} is set up for event {setup.event}, not {event.id}")
    if club not in {c.id for c in event.clubs}:
        raise SimError(f"club {club!r} is not in event {event.id} (its clubs: "
                       f"{', '.join(c.id for c in event.clubs)})")
    conf = org / "mosquitto.conf"
    try:
        lines = conf.read_text(encoding="utf-8").splitlines()
    except OSError as err:
        raise SimError(f"{conf}: {err.strerror or err}") from err
    if not any(line.split()[:1] == ["crlfile"] for line in lines):
        raise SimError(f"{conf} names no crlfile (written by a tenace before revocation "
                       "lists): sim-event init --force writes it, and new kits for every club")
    kept = ClubCertificates.load(pki)
    if club not in kept.issued:
        raise SimError(f"club {club} has no certificate of {folder} (added to the event "
                       "after sim-event init? init --force makes every club's kit)")
    return pki, kept


def revoke_club(event: SimEvent, folder: Path, club: str) -> Revoked | None:
    """Revoke ``club``'s current certificate in the event set up in ``folder``: added to
    the revoked list and its revocation list written again (hub.simultaneous.revocation);
    None when it was revoked already (nothing written)."""
    _, kept = _set_up(event, folder, club)
    revoked = kept.revoke(club)
    if revoked is not None:
        kept.save()
        log.info("club %s: certificate %x revoked (%s)", club, revoked.serial, kept.crl_file)
    return revoked


def reissue_club(event: SimEvent, folder: Path, club: str) -> Reissued:
    """A new certificate and key for ``club`` (same authority, same common name: the club's
    account and client id, hence its persistent session; a new serial number) and its kit
    written again, as init writes it; its current certificate revoked first if it is not
    yet. No other club's kit is touched."""
    pki, kept = _set_up(event, folder, club)
    setup = Setup.load(pki.folder.parent / SETUP_FILE)
    try:
        ca_key, ca_cert = read_authority(pki)
        certificate = make_client_certificate(ca_key, ca_cert, club)
    except TlsError as err:
        raise SimError(str(err)) from err
    revoked = kept.revoke(club, "reissued")
    kept.issued[club] = certificate[1].serial_number
    kept.save()     # the old one revoked before the new kit exists
    kit = _write_club_kit(event, club, folder, setup, pki, certificate)
    log.info("club %s: certificate %x issued (%s)", club, certificate[1].serial_number, kit)
    return Reissued(revoked, certificate[1].serial_number, kit)


def _write_upload(kit: Path, link: Any, relay: Any, club_upload: Any) -> None:
    """The club's results as its ECATS upload file (``kit/ecats-upload.xml``)."""
    from hub.simultaneous.event import Club
    deals = link.deals
    event = SimEvent(link.event, str(deals["pbn"]),
                  (Club(link.club, datetime.fromisoformat(str(deals["released"])),
                        relay.plays if isinstance(relay.plays, int) else 1),))
    try:
        _replace_file(kit / UPLOAD_FILE, club_upload(event, link.club, relay.results()))
    except SimError as err:
        log.warning("the club's upload file: %s", err)


def _replace_file(path: Path, data: bytes) -> None:
    """Write ``path`` whole or not at all (the hub reads it meanwhile)."""
    part = path.with_name(path.name + ".part")
    part.write_bytes(data)
    part.replace(path)


def organiser_url(folder: Path, broker: str) -> str:
    """The organiser service's URL on its broker ``host:port`` (its account, the CA)."""
    org = folder / "organiser"
    try:
        password = (org / PASSWORD_FILE).read_text().strip()
    except OSError as err:
        raise SimError(f"the organiser's password: {err}") from err
    return f"mqtts://{ORGANISER}:{password}@{broker}?ca={org / 'tls' / 'ca.crt'}"


def run_club(kit: Path, event: str, club: str, url: str, plays: int,
             stop: threading.Event, *, poll: float = 0.2) -> None:
    """The club's side until ``stop``: its link and relay on the club's broker at ``url``;
    the deals, once checked against ``kit/organiser.pub``, written to ``kit/deals.pbn``, the
    field's ranking to ``kit/field-ranking.json``; the deals message as it came, to
    ``kit/deals.signed``, for the hub (``tenace hub --sim-kit``, hub.simultaneous.handover),
    which checks it again before its set-up takes the deals. Started again, the link holds
    the release kept there first: a forged or older copy on the broker does not replace it
    (hub.simultaneous.club)."""
    from hub.simultaneous.club import ClubLink
    from hub.simultaneous.event import load_public_key
    from hub.simultaneous.relay import ClubRelay
    try:
        public = load_public_key((kit / PUBLIC_KEY).read_bytes())
    except OSError as err:
        raise SimError(f"the organiser's public key: {err}") from err
    try:     # the last genuine release: a forged or old copy on the broker cannot displace it
        kept = (kit / SIGNED_DEALS).read_bytes() if (kit / SIGNED_DEALS).exists() else None
    except OSError as err:
        log.warning("the kept deals %s unreadable: %s", kit / SIGNED_DEALS, err)
        kept = None
    link = ClubLink(event, club, url, public, client_id="sim-link", kept=kept).start()
    try:
        relay = ClubRelay(link, plays, state=kit / RELAY_STATE).start()
    except BaseException:
        link.close()
        raise
    from hub.simultaneous.ecats import club_upload
    written: tuple[object, object] = (None, None)
    uploaded = 0
    try:
        while not stop.wait(poll):
            if relay.changes != uploaded and link.deals is not None:
                uploaded = relay.changes      # a result, a ruling, a line withdrawn
                _write_upload(kit, link, relay, club_upload)
            with link.changed:
                now = (link.deals, link.ranking)
            if now == written:
                continue
            if now[0] is not None and now[0] is not written[0]:
                (kit / "deals.pbn").write_text(str(now[0]["pbn"]))
                if link.deals_signed is not None:
                    _replace_file(kit / SIGNED_DEALS, link.deals_signed)
                log.info("deals of %s checked (the organiser's signature): boards %s written "
                         "to %s", event, now[0].get("boards"), kit / "deals.pbn")
            if now[1] is not None and now[1] is not written[1]:
                (kit / "field-ranking.json").write_text(json.dumps(now[1], indent=1))
                log.info("the field's ranking written to %s", kit / "field-ranking.json")
            written = now
    finally:
        relay.close()
        link.close()


def run_organiser(event: SimEvent, folder: Path, broker: str, stop: threading.Event) -> None:
    """The organiser's side until ``stop`` (``tenace sim-event run``): its service on the
    broker ``host:port`` with the kit's account, key and authority; the field's ranking
    written to ``folder/ranking.json`` and the field's results file (USEBIO, as ECATS
    publishes them) to ``folder/field.xml`` after each scoring; clubs' upload files read from
    ``folder/uploads/<club>.xml`` (hub.simultaneous.ecats); the clubs' messages kept in
    ``folder/journal.jsonl`` and taken again at the next start."""
    from hub.simultaneous.event import load_private_key
    from hub.simultaneous.field import FieldScorer
    from hub.simultaneous.organiser import Organiser
    try:
        key = load_private_key((folder / "organiser" / SIGNING_KEY).read_bytes())
    except OSError as err:
        raise SimError(f"the organiser's signing key: {err}") from err
    from hub.simultaneous.ecats import field_file
    out = folder / "ranking.json"
    (folder / "uploads").mkdir(exist_ok=True)

    def write(field: FieldScorer) -> None:
        out.write_text(json.dumps(field.ranking_payload(), indent=1))
        _replace_file(folder / FIELD_FILE, field_file(field))

    def tell(text: str) -> None:
        print(f"sim-event {event.id}: {text}", flush=True)

    with Organiser(event, organiser_url(folder, broker), key, on_scored=write,
                   uploads=folder / "uploads", journal=folder / JOURNAL_FILE,
                   on_notice=tell):
        stop.wait()
