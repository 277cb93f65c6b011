"""``tenace deploy init``: a club's whole configuration in one directory.

What :func:`init` writes into the deploy directory (``DIR``)::

    ca.key, ca.crt           the club's certificate authority (hub.tls; the key 0600)
    broker.key, broker.crt   the broker's certificate for the hub's names and addresses
    mosquitto.conf           Mosquitto with TLS only (8883), no anonymous client, and
    accounts.json            the event's MQTT accounts (hub.accounts; the embedded broker's),
    mosquitto.passwd         the same accounts for Mosquitto and
    mosquitto.acl            the access list of hub.access (all 0600: write_access_files;
                             with --broker mosquitto these two and broker.key 0640, group
                             mosquitto, and mosquitto-data/ 0770: Mosquitto's user reads them)
    tenace-hub.keyring       the hub's own MQTT password (0600; ``tenace hub --deploy``)
    device-credentials.json  the devices' MQTT passwords (0600; tenace accounts --data DIR)
    mosquitto-data/          Mosquitto's persistence (0700)
    event.toml               the event (with --event; 0600: it holds the deals)
    data/                    the hub's event log, the console's users.json (0700)
    tenace-hub.service       systemd: the hub (embedded broker with TLS, or Mosquitto's)
    tenace-readers@.service  systemd: a table's card-reader node (instance = the table)
    readers.env.example      what a reader node's readers-TABLE.env holds
    tenace-mosquitto-reload.path, .service
                             systemd (--broker mosquitto): Mosquitto reloads when the hub
                             rewrites its password or ACL file (a device paired or revoked)

The units come from the templates in ``deploy/`` (``@NAME@`` filled in): the user that runs
them, the working directory, the command, ``Restart=on-failure`` and the hardening options
(``NoNewPrivileges``, ``ProtectSystem=strict`` with ``ReadWritePaths`` the deploy directory,
whose accounts a pairing rewrites, and the data only...).

Existing keys are never replaced without ``force``; ``renew`` signs a new broker certificate
with the same authority and writes the rest again. Written again, ``mosquitto.conf`` keeps the
``include_dir`` lines it had (a simultaneous event's bridge; the report's ``kept`` says so).
Errors are :class:`hub.tls.TlsError` (certificates) and :class:`DeployError` (everything
else), both ``HubError``.
"""

from __future__ import annotations

import grp
import ipaddress
import json
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
    "hub_credentials",
    "init",
    "mosquitto_config",
    "write_access_files",
]

TEMPLATES = Path(__file__).resolve().parents[1] / "deploy"
PASSWORD_FILE, ACL_FILE = "mosquitto.passwd", "mosquitto.acl"
HUB_ACCOUNT, HUB_KEYRING = "tenace-hub", "tenace-hub.keyring"
DEVICE_CREDENTIALS = "device-credentials.json"
HUB_UNIT, READERS_UNIT = "tenace-hub.service", "tenace-readers@.service"
RELOAD_UNIT = "tenace-mosquitto-reload"   # .path and .service (--broker mosquitto)
MOSQUITTO_GROUP = "mosquitto"   # Debian's package creates the user and the group
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
    kept: list[str] = field(default_factory=list)   # what was kept of the files written again


def _fill(template: str, values: dict[str, str]) -> str:
    """A template of ``deploy/`` with its ``@NAME@`` filled in; DeployError if one is left."""
    text = (TEMPLATES / template).read_text()
    for name, value in values.items():
        text = text.replace(f"@{name}@", value)
    left = sorted(set(re.findall(r"@[A-Z_]+@", text)))
    if left:
        raise DeployError(f"{TEMPLATES / template}: unfilled {', '.join(left)}")
    return text


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


def _command(words: Sequence[str]) -> str:
    """A systemd command line: each word quoted if it needs it (systemd reads shell-like
    quotes), ``$VAR`` words left for systemd to split."""
    return " ".join(word if word.startswith("$") else shlex.quote(word) for word in words)


def mosquitto_config(folder: Path, *, port: int = TLS_PORT, bind: str = "0.0.0.0") -> str:
    """The Mosquitto configuration of a deploy directory (TLS listener, no anonymous
    client, the password and ACL files there)."""
    return _fill("mosquitto-tls.conf.in", {"DEPLOY": str(folder), "PORT": str(port),
                                           "BIND": bind})


def _club_lines(conf: Path) -> tuple[list[str], bool]:
    """The ``include_dir`` lines of an existing ``mosquitto.conf`` (a simultaneous event's
    bridge, docs/simultaneous.md: written again, the configuration keeps them), and whether
    it holds a pasted bridge (a ``connection`` line), which is not kept."""
    try:
        lines = conf.read_text().splitlines() if conf.is_file() else []
    except (OSError, UnicodeDecodeError) as err:
        raise DeployError(f"{conf}: unreadable, not written again: {err}") from err
    words = [line.split() for line in lines]
    keep = [" ".join(w) for w in words if len(w) >= 2 and w[0] == "include_dir"]
    return keep, any(w and w[0] == "connection" for w in words)


def write_access_files(folder: Path, setup: Any | None, *,
                       simultaneous: bool = False) -> list[Path]:
    """The event's MQTT accounts (hub.accounts, rules from hub.access) in ``folder``:
    ``accounts.json`` (the embedded broker's), ``mosquitto.passwd`` and ``mosquitto.acl``
    (Mosquitto's), the hub's own password in ``tenace-hub.keyring`` and the devices' in
    ``device-credentials.json`` (all 0600). Accounts already there keep their passwords (a
    ``--renew`` changes no device's); only new ones are issued. ``simultaneous``: the club
    plays a simultaneous event (its link's accounts, hub.accounts.event_accounts). Returns the
    files written."""
    from hub.accounts import AccountError, Accounts, event_accounts, write_keyring

    try:
        accounts = Accounts(folder)
        hub_keyring = folder / HUB_KEYRING
        fresh = {name: role for name, role in event_accounts(
            setup, simultaneous=simultaneous).items()
                 if name not in accounts or (name == HUB_ACCOUNT and not hub_keyring.exists())}
        issued = accounts.issue_all(fresh)
    except AccountError as err:
        raise DeployError(str(err)) from err
    written = [accounts.path, accounts.passwd_file, accounts.acl_file]
    for credentials in issued:
        if credentials.username == HUB_ACCOUNT:
            written.append(write_keyring(hub_keyring, [credentials]))
    devices = [c for c in issued if c.username != HUB_ACCOUNT]
    if devices:
        path = folder / DEVICE_CREDENTIALS
        known: dict[str, str] = {}
        if path.exists():
            try:
                known = json.loads(path.read_text())
            except (OSError, ValueError) as err:
                raise DeployError(f"{path}: {err}") from err
        known.update({c.username: c.password for c in devices})
        known = {name: password for name, password in known.items() if name in accounts}
        write_file(path, json.dumps(known, indent=1, sort_keys=True,
                                     allow_nan=False).encode(), 0o600)
        written.append(path)
    return written


def hub_credentials(folder: Path | str) -> Any | None:
    """The hub's own account (hub.accounts.Credentials) that :func:`write_access_files` kept
    in ``folder``, or None if there is none."""
    from hub.accounts import Credentials

    path = Path(folder) / HUB_KEYRING
    if not path.exists():
        return None
    try:
        password = json.loads(path.read_text())[HUB_ACCOUNT]
    except (OSError, ValueError, KeyError, TypeError) as err:
        raise DeployError(f"{path}: no password of {HUB_ACCOUNT} ({err})") from err
    return Credentials(HUB_ACCOUNT, str(password))


def create_first_director(folder: Path, password: str | None, name: str = "director") -> str:
    """The console's first director account (hub.users) in the hub's data directory
    ``folder/data``, with ``password``; without one (no terminal to ask), or if the data
    directory already has a director, what to tell the person."""
    from hub.users import UserError, UserStore

    data = folder / "data"
    users = UserStore.in_directory(data)
    if users.has_director():
        return f"the console already has a director's account ({users.path})"
    command = _command(["tenace", "users", "add", name, "--role", "director", "--data",
                        str(data)])
    if password is None:
        return (f"create the console's first director account: {command} (it asks for the "
                "password)")
    try:
        users.add(name, "director", password)
    except UserError as err:
        raise DeployError(f"the console's director account: {err}") from err
    return (f"the console's director account {name!r} is created (log in with the password "
            f"given; tenace users passwd {name} --data {shlex.quote(str(data))} changes it)")


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


def _mosquitto_gid() -> int:
    """The id of Mosquitto's group; DeployError when the machine has none."""
    try:
        return grp.getgrnam(MOSQUITTO_GROUP).gr_gid
    except KeyError:
        raise DeployError(f"--broker mosquitto: no group {MOSQUITTO_GROUP!r} on this machine: "
                          "install Mosquitto first (apt install mosquitto creates its user "
                          "and group), then run deploy init again") from None


def share_with_mosquitto(root: Path, gid: int) -> list[str]:
    """Let Mosquitto's group (``gid``) read the files of ``root`` it needs (the broker key,
    the password and ACL files: 0640; hub.accounts keeps the group on each rewrite) and write
    ``mosquitto-data`` (0770). Returns the commands left for a person, when this user may not
    give the group (neither root nor in it)."""
    files = [root / "broker.key", root / PASSWORD_FILE, root / ACL_FILE]
    try:
        for path in files:
            os.chown(path, -1, gid)
            os.chmod(path, 0o640)
        os.chown(root / "mosquitto-data", -1, gid)
        os.chmod(root / "mosquitto-data", 0o770)
    except PermissionError:
        named = " ".join(shlex.quote(str(p)) for p in files)
        data = shlex.quote(str(root / "mosquitto-data"))
        return [f"Mosquitto reads its files as its own user: chgrp {MOSQUITTO_GROUP} {named} "
                f"{data} && chmod 0640 {named} && chmod 0770 {data}"]
    return []


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
         python: str = sys.executable, club: str = "Tenace club",
         director_password: str | None = None, simultaneous: bool = False) -> DeployReport:
    """Write a club's configuration into ``folder`` (module docstring) for the hub reached
    as ``hosts`` (names and addresses: the broker certificate's names). ``broker`` is
    "embedded" (the hub's own amqtt, TLS on 8883) or "mosquitto" (the hub connects to the
    Mosquitto of ``mosquitto.conf`` on this machine). ``director_password`` creates the
    console's first director account (else the report says how); ``simultaneous`` adds the
    accounts of a simultaneous event's link (``sim-link``, ``sim-link.bridge``)."""
    if not hosts:
        raise DeployError("--host: give the hub's name or address (several if it has several)")
    if broker not in ("embedded", "mosquitto"):
        raise DeployError(f"broker {broker!r}: embedded or mosquitto")
    root = Path(folder).absolute()
    for name in ("mosquitto-tls.conf.in", HUB_UNIT + ".in", READERS_UNIT + ".in",
                 RELOAD_UNIT + ".path.in", RELOAD_UNIT + ".service.in"):
        if not (TEMPLATES / name).is_file():
            raise DeployError(f"{TEMPLATES / name}: template missing (run from a checkout)")
    owner, group = _owner(user)
    mosquitto_gid = _mosquitto_gid() if broker == "mosquitto" else None
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
    for host in hosts:   # the console is opened by the certificate's names (IPs always pass)
        if not _is_address(host):
            hub_words += ["--console-allowed-host", host]
    common = {"USER": owner, "GROUP": group, "DEPLOY": str(root)}
    texts = {
        "mosquitto.conf": mosquitto_config(root),
        HUB_UNIT: _fill(HUB_UNIT + ".in", {
            **common, "DATA": str(data), "EXEC": _command(hub_words),
            "AFTER": "mosquitto.service" if broker == "mosquitto" else "",
            "SUPPLEMENTARY": MOSQUITTO_GROUP if broker == "mosquitto" else ""}),
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

    if broker == "mosquitto":
        texts[RELOAD_UNIT + ".path"] = _fill(RELOAD_UNIT + ".path.in", common)
        texts[RELOAD_UNIT + ".service"] = _fill(RELOAD_UNIT + ".service.in", {
            **common, "SYSTEMCTL": shutil.which("systemctl") or "/usr/bin/systemctl"})

    included, pasted = _club_lines(root / "mosquitto.conf")
    if included:
        texts["mosquitto.conf"] += ("\n# Kept from the configuration written before (a "
                                    "simultaneous event's bridge)\n"
                                    + "".join(f"{line}\n" for line in included))

    pki = write_club_pki(root, hosts, club=club, force=force, renew=renew)
    report = DeployReport(root, pki, [pki.ca_key, pki.ca_cert, pki.broker_key, pki.broker_cert])
    report.kept += [f"mosquitto.conf: {line} (kept)" for line in included]
    if pasted:
        report.todo.append(f"{root / 'mosquitto.conf'} held a bridge pasted in (a connection "
                           "line), not kept: add include_dir of the event's kit folder instead "
                           "(docs/simultaneous.md)")
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
    report.written += write_access_files(root, setup, simultaneous=simultaneous)

    report.todo.append(create_first_director(root, director_password))
    report.todo.append(f"each device's MQTT password is in {root / DEVICE_CREDENTIALS} "
                       f"(0600; give each device only its own); tenace accounts issue DEVICE "
                       f"--data {shlex.quote(str(root))} --url issues a new one (a spare, a "
                       f"lost device), tenace accounts revoke DEVICE removes one")
    if mosquitto_gid is not None:
        report.todo += share_with_mosquitto(root, mosquitto_gid)
    if owner == "root":
        report.todo.append("the services would run as root: give them a user of their own "
                           "(useradd --system tenace; deploy init --user tenace)")
    if owner != pwd.getpwuid(os.getuid()).pw_name:   # Mosquitto's group kept (no "owner:")
        report.todo.append(f"the hub runs as {owner}: chown -R {owner}"
                           f"{'' if mosquitto_gid is not None else ':'} {root}")
    report.todo.append(f"give every device {pki.ca_cert} (tenace tablet --ca, tenace devices "
                       "run --ca); it is public, the keys beside it are not")
    if shutil.which("systemctl"):
        report.todo.append(f"systemctl link {root / HUB_UNIT} && systemctl enable --now "
                           "tenace-hub")
    if mosquitto_gid is not None:
        units = " ".join(str(root / f"{RELOAD_UNIT}.{kind}") for kind in ("service", "path"))
        report.todo.append(f"Mosquitto reloads by itself when a device is paired or revoked: "
                           f"systemctl link {units} && systemctl enable --now "
                           f"{RELOAD_UNIT}.path (the mosquitto service must run "
                           f"{root / 'mosquitto.conf'}: systemctl edit mosquitto, [Service] "
                           f"ExecStart= then ExecStart=/usr/sbin/mosquitto -c "
                           f"{root / 'mosquitto.conf'})")
    if renew or force:   # a running hub (its broker, its console) keeps the old certificate
        report.todo.append("a hub already running serves the old certificate until it starts "
                           "again: systemctl daemon-reload && systemctl restart tenace-hub"
                           + (" (and every device needs the new ca.crt)" if force else ""))
    return report
