"""The brokers' side of a simultaneous event: the organiser's Mosquitto accounts and ACL, and
each club's Mosquitto bridge stanza (Mosquitto's own bridge: TLS, an account per club, a
persistent session). No transport of Tenace's own.

Each club's account on the organiser's broker may write its ``result`` and ``finished``
topics and read its ``deals``, ``field/<board>`` and ``ranking`` topics, and nothing else
(not another club's, not the organiser's). The club's bridge carries exactly those five
topics, so nothing else of the club's broker (the tablets' hands, the hub's state) ever
leaves the club. ``cleansession false`` on both sides: a club cut off keeps its results
queued in its own broker, the organiser keeps the club's field results queued in its broker,
and both flow when the bridge is back (docs/simultaneous.md).

The bridge says it is a bridge (``try_private true``; the organiser's broker is Mosquitto):
the organiser's broker then passes each message on with the retain flag it was published
with. A plain client is sent a live message without it (MQTT 3.1.1), so deals released while
the bridge was up but the club's ``sim-event club`` not yet running were passed on to nobody
and not kept by the club's broker; that link never got them.

A club's bridge proves who it is with a TLS client certificate (its common name the club's
account), not a password: on the organiser's broker it connects to a listener of its own
(:func:`bridge_listener`: ``require_certificate``, ``use_identity_as_username``,
``use_username_as_clientid``) and its account has no password at all
(``write_organiser_files(..., certificates=True)``), so a stolen bridge.conf password, or a
guessed one, can neither take the club's client id nor wipe its persistent session. A
club's certificate lost or stolen is revoked in the listener's ``crlfile``
(hub.simultaneous.revocation), and the club alone gets a new one.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from pathlib import Path

from hub.accounts import SIM_BRIDGE, mosquitto_hash
from hub.simultaneous.event import SimError, SimEvent, topic
from wire.pairing import write_private

__all__ = [
    "ORGANISER", "OrganiserBroker", "bridge_listener", "bridge_stanza", "club_acl",
    "club_topics", "organiser_listener", "write_organiser_files",
]

ORGANISER = "organiser"   # the organiser's service account on its own broker
CLUB_OUT = ("result", "finished")
CLUB_IN = ("deals", "field", "ranking")


def club_topics(event: SimEvent, club: str) -> tuple[list[str], list[str]]:
    """(topics the club writes, filters the club reads) on the organiser's broker."""
    out = [topic(event.id, club, kind) for kind in CLUB_OUT]
    into = [topic(event.id, club, "deals"), topic(event.id, club, "field") + "/#",
            topic(event.id, club, "ranking")]
    return out, into


def club_acl(event: SimEvent, observers: dict[str, str] | None = None) -> str:
    """The organiser's Mosquitto ACL file for ``event`` (module docstring); ``observers``
    (account -> club) may read what that club reads and write nothing: what a club could
    see at worst, checked without taking the club's bridge session over."""
    lines = [f"user {ORGANISER}", f"topic readwrite tenace/sim/v1/{event.id}/#", ""]
    for club in event.clubs:
        out, into = club_topics(event, club.id)
        lines += [f"user {club.id}", *(f"topic write {t}" for t in out),
                  *(f"topic read {t}" for t in into), ""]
    for name, club_id in (observers or {}).items():
        event.club(club_id)
        _, into = club_topics(event, club_id)
        lines += [f"user {name}", *(f"topic read {t}" for t in into), ""]
    return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class OrganiserBroker:
    """What :func:`write_organiser_files` wrote: the files and each account's password
    (given once, to be handed to the club in its bridge stanza)."""

    passwd_file: Path
    acl_file: Path
    passwords: dict[str, str]


def write_organiser_files(event: SimEvent, folder: Path,
                          passwords: dict[str, str] | None = None,
                          observers: dict[str, str] | None = None, *,
                          certificates: bool = False) -> OrganiserBroker:
    """Write ``sim.passwd`` and ``sim.acl`` (0600) for the organiser's Mosquitto: the
    organiser's account, one per club and the ``observers`` (:func:`club_acl`), with new
    random passwords unless given. With ``certificates`` the clubs have no password (their
    bridges log in with their certificates, :func:`bridge_listener`): their ACL is the
    same, their names are not in ``sim.passwd``."""
    folder.mkdir(parents=True, exist_ok=True)
    clubs = [c.id for c in event.clubs]
    names = [ORGANISER, *clubs, *(observers or {})]
    if len(set(names)) != len(names):
        raise SimError(f"event {event.id}: an account name is used twice: {sorted(names)}")
    chosen = {name: (passwords or {}).get(name) or secrets.token_urlsafe(16) for name in names
              if not (certificates and name in clubs)}
    passwd, acl = folder / "sim.passwd", folder / "sim.acl"
    write_private(passwd, "".join(f"{n}:{mosquitto_hash(p)}\n" for n, p in chosen.items()))
    write_private(acl, club_acl(event, observers))
    return OrganiserBroker(passwd, acl, chosen)


def organiser_listener(broker: OrganiserBroker) -> tuple[str, ...]:
    """The lines of the organiser's mosquitto.conf that make its accounts and ACL count, to
    follow its (TLS) ``listener`` line: ``use_username_as_clientid`` is that listener's
    setting (before any listener, Mosquitto would open a default one on 1883 for it)."""
    return (f"password_file {broker.passwd_file}", f"acl_file {broker.acl_file}",
            "allow_anonymous false", "use_username_as_clientid true",
            "persistent_client_expiration 14d")


def bridge_listener(port: int, ca_file: Path | str, cert_file: Path | str,
                    key_file: Path | str, *, bind: str | None = None,
                    crl_file: Path | str | None = None) -> tuple[str, ...]:
    """The lines of the organiser's mosquitto.conf for the clubs' bridges: a second TLS
    listener on ``port`` that takes only clients with a certificate signed by ``ca_file``
    and names each by its certificate's common name (its account for the ACL, and its
    client id: nobody else can take over a club's session). With ``crl_file`` (the
    authority's revocation list, hub.simultaneous.revocation) a certificate revoked in it
    is refused too; the file must then exist and stay signed by ``ca_file``'s authority."""
    return (f"listener {port}" + (f" {bind}" if bind else ""), f"cafile {ca_file}",
            f"certfile {cert_file}", f"keyfile {key_file}", "tls_version tlsv1.2",
            *((f"crlfile {crl_file}",) if crl_file is not None else ()),
            "require_certificate true", "use_identity_as_username true",
            "use_username_as_clientid true")


def bridge_stanza(event: SimEvent, club: str, password: str | None, *, host: str, port: int,
                  ca_file: Path | str | None, local_password: str | None = None,
                  certificate: tuple[Path | str, Path | str] | None = None) -> str:
    """The ``connection`` stanza for the club's mosquitto.conf (module docstring); with
    ``ca_file`` the bridge speaks TLS and checks the organiser's certificate against it.
    The bridge's side on the club's broker is the account ``sim-link.bridge`` (role
    ``sim-link``, hub/access.py: the organiser's topics only) with ``local_password``, the
    club's; without it the stanza says where the club puts it (its device credentials).
    ``certificate`` (the club's certificate and key files) replaces the password: the bridge
    logs in on the organiser's :func:`bridge_listener` as its certificate's common name."""
    event.club(club)   # an unknown club is refused
    if certificate is not None and ca_file is None:
        raise SimError("a bridge's certificate needs TLS: give the organiser's ca_file")
    if certificate is None and password is None:
        raise SimError(f"club {club}: its bridge needs a certificate or a password")
    out, into = club_topics(event, club)
    lines = [f"# simultaneous {event.id}: club {club} <-> the organiser (tenace sim-event)",
             f"connection sim-{event.id}",
             f"address {host}:{port}",
             "bridge_protocol_version mqttv311",
             f"remote_clientid {club}",
             *((f"remote_username {club}", f"remote_password {password}")
               if certificate is None else ()),
             f"local_clientid sim-{event.id}-{club}",
             "cleansession false",
             "notifications false",
             "try_private true",     # retained messages stay retained (module docstring)
             "start_type automatic",
             "restart_timeout 1 10",
             "keepalive_interval 10",
             "bridge_attempt_unsubscribe false",
             f"local_username {SIM_BRIDGE}"]
    if local_password is not None:
        lines.append(f"local_password {local_password}")
    else:
        lines.append(f"# local_password <{SIM_BRIDGE}'s, from the hub's "
                     "device-credentials.json: tenace deploy init --simultaneous>")
    if ca_file is not None:
        lines += [f"bridge_cafile {ca_file}", "bridge_tls_version tlsv1.2",
                  "bridge_insecure false"]
    if certificate is not None:
        lines += [f"bridge_certfile {certificate[0]}", f"bridge_keyfile {certificate[1]}"]
    lines += [f"topic {t} out 1" for t in out]
    lines += [f"topic {t} in 1" for t in into]
    return "\n".join(lines) + "\n"
