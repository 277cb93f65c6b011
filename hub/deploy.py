"""``tenace deploy init``: a club's whole configuration in one directory.

What :func:`init` writes into the deploy directory (``DIR``)::

    ca.key, ca.crt           the club's certificate authority (hub.tls; the key 0600)
    broker.key, broker.crt   the broker's certificate for the hub's names and addresses
    mosquitto.conf           Mosquitto with TLS only (8883), no anonymous client, and
    mosquitto.passwd         the accounts and
    mosquitto.acl            the access list (both 0600: :func:`write_access_files`)
    mosquitto-data/          Mosquitto's persistence (0700)
    event.toml               the event (with --event; 0600: it holds the deals)
    data/                    the hub's event log (0700)
    tenace-hub.service       systemd: the hub (embedded broker with TLS, or Mosquitto's)
    tenace-readers@.service  systemd: a table's card-reader node (instance = the table)
    readers.env.example      what a reader node's readers-TABLE.env holds

The units come from the templates in ``deploy/`` (``@NAME@`` filled in): the user that runs
them, the working directory, the command, ``Restart=on-failure`` and the hardening options
(``NoNewPrivileges``, ``ProtectSystem=strict`` with ``ReadWritePaths`` the data only...).

Existing keys are never replaced without ``force``; ``renew`` signs a new broker certificate
with the same authority and writes the rest again. Errors are :class:`hub.tls.TlsError`
(certificates) and :class:`DeployError` (everything else), both ``HubError``.
"""

from __future__ import annotations

import grp
import os
import pwd
import re
import shlex
import shutil
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hub.errors import ConfigError, HubError
from hub.tls import ClubPki, write_club_pki, write_file

__all__ = [
    "TEMPLATES",
    "DeployError",
    "DeployReport",
    "create_first_director",
    "init",
    "mosquitto_config",
    "write_access_files",
]

TEMPLATES = Path(__file__).resolve().parents[1] / "deploy"
PASSWORD_FILE, ACL_FILE = "mosquitto.passwd", "mosquitto.acl"
HUB_UNIT, READERS_UNIT = "tenace-hub.service", "tenace-readers@.service"
TLS_PORT = 8883


class DeployError(HubError):
    """The deploy directory cannot be written as asked (names the file or the option)."""


@dataclass
class DeployReport:
    """What :func:`init` wrote, and what is left for a person to do."""

    folder: Path
    pki: ClubPki
    written: list[Path] = field(default_factory=list)
    todo: list[str] = field(default_factory=list)


def _fill(template: str, values: dict[str, str]) -> str:
    """A template of ``deploy/`` with its ``@NAME@`` filled in; DeployError if one is left."""
    text = (TEMPLATES / template).read_text()
    for name, value in values.items():
        text = text.replace(f"@{name}@", value)
    left = sorted(set(re.findall(r"@[A-Z_]+@", text)))
    if left:
        raise DeployError(f"{TEMPLATES / template}: unfilled {', '.join(left)}")
    return text


def _command(words: Sequence[str]) -> str:
    """A systemd command line: each word quoted if it needs it (systemd reads shell-like
    quotes), ``$VAR`` words left for systemd to split."""
    return " ".join(word if word.startswith("$") else shlex.quote(word) for word in words)


def mosquitto_config(folder: Path, *, port: int = TLS_PORT, bind: str = "0.0.0.0") -> str:
    """The Mosquitto configuration of a deploy directory (TLS listener, no anonymous
    client, the password and ACL files there)."""
    return _fill("mosquitto-tls.conf.in", {"DEPLOY": str(folder), "PORT": str(port),
                                           "BIND": bind})


def write_access_files(folder: Path, setup: Any | None) -> list[Path]:
    """HOOK for the lead to wire: the accounts (``mosquitto.passwd``) and the access list
    (``mosquitto.acl``) of the event, from hub.accounts / hub.access, which this tree does not
    have yet. Until then it writes both files EMPTY (0600) when they are missing, so that
    Mosquitto starts and refuses everyone: no account, and an empty access list denies all.
    Returns the files it wrote."""
    written = []
    for name in (PASSWORD_FILE, ACL_FILE):
        path = folder / name
        if not path.exists():
            write_file(path, b"", 0o600)
            written.append(path)
    return written


def create_first_director(folder: Path) -> str | None:
    """HOOK for the lead to wire: the console's first director account (hub.users, not in
    this tree yet). Returns what to tell the person (the account's name and one-time
    password, or what to run), or None when nothing was created."""
    return None


def _owner(user: str | None) -> tuple[str, str]:
    """(user, group) the services run as: ``user`` (its primary group), else whoever runs
    ``deploy init``."""
    try:
        entry = pwd.getpwnam(user) if user else pwd.getpwuid(os.getuid())
    except KeyError:
        raise DeployError(f"--user {user!r}: no such user (create it: "
                          f"useradd --system {user})") from None
    try:
        group = grp.getgrgid(entry.pw_gid).gr_name
    except KeyError:
        group = str(entry.pw_gid)
    return entry.pw_name, group


def _check_event(event: Path | None) -> Any:
    """The event set-up of ``event`` (checked: ConfigError names the problems), or None."""
    if event is None:
        return None
    from hub.event import EventSetup

    try:
        return EventSetup.load(event)
    except ConfigError as err:
        raise DeployError(str(err)) from err


def init(folder: Path | str, hosts: Sequence[str], *, event: Path | str | None = None,
         force: bool = False, renew: bool = False, user: str | None = None,
         broker: str = "embedded", console: str = "127.0.0.1:8080",
         python: str = sys.executable, club: str = "Tenace club") -> DeployReport:
    """Write a club's configuration into ``folder`` (module docstring) for the hub reached
    as ``hosts`` (names and addresses: the broker certificate's names). ``broker`` is
    "embedded" (the hub's own amqtt, TLS on 8883) or "mosquitto" (the hub connects to the
    Mosquitto of ``mosquitto.conf`` on this machine)."""
    if not hosts:
        raise DeployError("--host: give the hub's name or address (several if it has several)")
    if broker not in ("embedded", "mosquitto"):
        raise DeployError(f"broker {broker!r}: embedded or mosquitto")
    root = Path(folder).absolute()
    for name in ("mosquitto-tls.conf.in", HUB_UNIT + ".in", READERS_UNIT + ".in"):
        if not (TEMPLATES / name).is_file():
            raise DeployError(f"{TEMPLATES / name}: template missing (run from a checkout)")
    owner, group = _owner(user)
    pki = ClubPki(root)
    if pki.exists() and not (force or renew):
        write_club_pki(root, hosts, club=club)   # raises: keys there already
    event_path = None if event is None else Path(event)
    setup = _check_event(event_path)
    data = root / "data"
    event_file = root / "event.toml" if event_path or (root / "event.toml").exists() else None

    # Everything is made before anything is written: a bad template writes no key.
    hub_words = [python, "-m", "tenace", "hub", "--deploy", str(root), "--data", str(data),
                 "--console", console]
    if broker == "embedded":
        hub_words += ["--listen", f"0.0.0.0:{TLS_PORT}"]
    else:
        hub_words += ["--broker", f"mqtts://localhost:{TLS_PORT}"]
    if event_file is not None:
        hub_words += ["--event", str(event_file)]
    common = {"USER": owner, "GROUP": group, "DEPLOY": str(root)}
    texts = {
        "mosquitto.conf": mosquitto_config(root),
        HUB_UNIT: _fill(HUB_UNIT + ".in", {
            **common, "DATA": str(data), "EXEC": _command(hub_words),
            "AFTER": "mosquitto.service" if broker == "mosquitto" else ""}),
        READERS_UNIT: _fill(READERS_UNIT + ".in", {**common, "EXEC": _command([
            python, "-m", "tenace", "devices", "run", "--table", "%i",
            "--broker", f"mqtts://{hosts[0]}:{TLS_PORT}", "--ca", str(pki.ca_cert),
            "--outbox", "/var/lib/tenace-readers/readers-%i.sqlite3", "$TENACE_READERS"])}),
        "readers.env.example": (
            "# A table's readers, for tenace-readers@TABLE.service: copy to readers-TABLE.env\n"
            "# One --seat SEAT=SPEC per seat (tenace devices readers lists the specs), e.g.\n"
            "TENACE_READERS=--seat N=serial:/dev/ttyUSB0 --seat E=serial:/dev/ttyUSB1 "
            "--seat S=serial:/dev/ttyUSB2 --seat W=serial:/dev/ttyUSB3\n"),
    }

    pki = write_club_pki(root, hosts, club=club, force=force, renew=renew)
    report = DeployReport(root, pki, [pki.ca_key, pki.ca_cert, pki.broker_key, pki.broker_cert])
    os.chmod(root, 0o755)   # devices' ca.crt and the units are public; secrets are 0600
    for sub in (data, root / "mosquitto-data"):
        sub.mkdir(exist_ok=True)
        os.chmod(sub, 0o700)
    if event_path is not None and event_file is not None:
        if event_path.resolve() != event_file.resolve():
            write_file(event_file, event_path.read_bytes(), 0o600)
        report.written.append(event_file)
    for name, text in texts.items():
        write_file(root / name, text.replace(" \n", "\n").encode(), 0o644)
        report.written.append(root / name)
    report.written += write_access_files(root, setup)

    director = create_first_director(root)
    if director is None:
        report.todo.append("the console's first director account is not created yet "
                           "(hub.deploy.create_first_director is a hook for hub.users)")
    else:
        report.todo.append(director)
    if broker == "mosquitto":
        report.todo.append(f"Mosquitto reads its files as its own user: chown mosquitto "
                           f"{pki.broker_key} {root / PASSWORD_FILE} {root / ACL_FILE} "
                           f"{root / 'mosquitto-data'}")
    if owner == "root":
        report.todo.append("the services would run as root: give them a user of their own "
                           "(useradd --system tenace; deploy init --user tenace)")
    if owner != pwd.getpwuid(os.getuid()).pw_name:
        report.todo.append(f"the hub runs as {owner}: chown -R {owner}: {root}")
    report.todo.append(f"give every device {pki.ca_cert} (tenace tablet --ca, tenace devices "
                       "run --ca); it is public, the keys beside it are not")
    if shutil.which("systemctl"):
        report.todo.append(f"systemctl link {root / HUB_UNIT} && systemctl enable --now "
                           "tenace-hub")
    return report
