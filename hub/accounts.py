"""The MQTT accounts of an event: who may connect to the broker, with which password.

Every MQTT client connects with an account whose username is its client id (a device id such
as ``A1-tab``, ``A1-N``, ``A1-rdr``, ``dealer-1``; or ``tenace-hub``, ``director``, ``scorer``,
``results``). :func:`event_accounts` lists them from an event's set-up; hub/access.py says
what each role may read and write.

Credentials: :meth:`Accounts.issue` draws a random password (128 bits), returns it once and
stores only its hashes, in ``accounts.json`` in the hub's data directory (mode 0600): an
argon2id hash, which the embedded broker checks (hub/broker.py), and Mosquitto's ``$7$``
PBKDF2-SHA512 hash for its password file. Issuing an account again draws a new password (the
old one stops working); :meth:`Accounts.revoke` removes the account. Each change rewrites the
Mosquitto password and ACL files beside it (``mosquitto.passwd``, ``mosquitto.acl``, mode
0600); the embedded broker re-reads ``accounts.json`` when it changes; Mosquitto reloads its
files on SIGHUP. Mosquitto reads them as its own user: ``tenace deploy init --broker
mosquitto`` makes them 0640, group ``mosquitto``, and each rewrite keeps the group of the file
it replaces and its group read bit (:func:`write_broker_file`: never others' bits), so that a
device paired by the hub, which runs as a user of its own, still reaches Mosquitto.

The passwords are random and long, so the hashes need no slow work factor to resist guessing:
the argon2 parameters are small so that a connection costs the broker well under a
millisecond. Passwords are never logged.

Errors::

    HubError (hub.errors)
    └── AccountError       unknown account or role, unreadable accounts file
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import logging
import os
import secrets
import stat
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hub.access import Grant, device_role, grants, mosquitto_acl
from hub.errors import HubError
from wire.pairing import write_private as _write_private

__all__ = [
    "ACCOUNTS_FILE", "SIM_BRIDGE", "SIM_LINK", "AccountError", "Accounts", "Credentials",
    "event_accounts",
    "mosquitto_hash", "verify_mosquitto_hash", "write_broker_file", "write_keyring",
]

log = logging.getLogger(__name__)

ACCOUNTS_FILE = "accounts.json"
PASSWD_FILE = "mosquitto.passwd"
ACL_FILE = "mosquitto.acl"
SPECIAL_ACCOUNTS = ("tenace-hub", "director", "scorer", "results")
SIM_LINK, SIM_BRIDGE = "sim-link", "sim-link.bridge"   # a simultaneous event's link
_MOSQUITTO_ITERATIONS = 101  # mosquitto_passwd's default for $7$


class AccountError(HubError):
    """An unknown account or role, or an accounts file that cannot be read."""


@dataclass(frozen=True, slots=True)
class Credentials:
    """An account's username and its new password (shown once)."""

    username: str
    password: str

    def url(self, broker_url: str) -> str:
        """``broker_url`` (``mqtt://host:port``) with these credentials in it."""
        from urllib.parse import quote
        scheme, _, rest = broker_url.partition("://")
        rest = rest.rsplit("@", 1)[-1]
        return f"{scheme}://{quote(self.username, safe='')}:{quote(self.password, safe='')}@{rest}"

    def __repr__(self) -> str:  # never show the password
        return f"Credentials(username={self.username!r})"


def _hasher() -> Any:
    from argon2 import PasswordHasher, Type
    # Small parameters on purpose: the password is 128 random bits (module docstring).
    return PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1, type=Type.ID)


def mosquitto_hash(password: str, salt: bytes | None = None,
                   iterations: int = _MOSQUITTO_ITERATIONS) -> str:
    """Mosquitto's ``$7$iterations$salt$hash`` (PBKDF2-SHA512, 12-byte salt, base64)."""
    salt = secrets.token_bytes(12) if salt is None else salt
    digest = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, iterations)
    return (f"$7${iterations}${base64.b64encode(salt).decode()}$"
            f"{base64.b64encode(digest).decode()}")


def verify_mosquitto_hash(password: str, hashed: str) -> bool:
    """Whether ``password`` matches a ``$7$`` hash."""
    try:
        _, kind, iterations, salt, digest = hashed.split("$")
        if kind != "7":
            return False
        expected = hashlib.pbkdf2_hmac("sha512", password.encode(), base64.b64decode(salt),
                                       int(iterations))
    except ValueError:
        return False
    return hmac.compare_digest(expected, base64.b64decode(digest))


def _table_ids(setup: Any) -> list[str]:
    """The table ids of a set-up: an ``EventSetup``'s sections', or a ``tables`` list (a
    replay's); none for a set-up still waiting for its tables."""
    if hasattr(setup, "sections"):
        return [table for section in setup.sections for table in section.ids]
    tables = getattr(setup, "tables", None)
    return [str(t) for t in tables] if isinstance(tables, (list, tuple)) else []


def event_accounts(setup: Any, dealers: Iterable[str] = ("dealer-1",), *,
                   simultaneous: bool = False) -> dict[str, str]:
    """Every account of an event (hub/event.py ``EventSetup``, or a set-up with a ``tables``
    list), name -> role: per table its
    tablet, its four seats' tablets and its readers' daemon; the dealing machines; the hub,
    the director, the scoring program and the results reader; with ``simultaneous`` (the
    club plays a simultaneous event, hub.simultaneous) the link's accounts ``sim-link`` and
    ``sim-link.bridge`` (its Mosquitto bridge's local account), role ``sim-link``."""
    names: dict[str, str] = {name: str(device_role(name)) for name in SPECIAL_ACCOUNTS}
    for table in _table_ids(setup):
        for device in (f"{table}-tab", *(f"{table}-{s}" for s in "NESW"), f"{table}-rdr"):
            names[device] = str(device_role(device))
    for dealer in dealers:
        names[dealer] = "dealer"
    if simultaneous:
        names.update({SIM_LINK: "sim-link", SIM_BRIDGE: "sim-link"})
    return names


def write_broker_file(path: Path, text: str) -> None:
    """Write one of Mosquitto's files (its password file, its ACL) atomically: 0600, or, when
    the file it replaces lets its group read it (``deploy init --broker mosquitto`` gave it
    group ``mosquitto``, 0640), 0640 with that same group; others never. OSError (naming the
    file) when the group cannot be kept: the file is then left as it was."""
    try:
        before = path.stat()
    except FileNotFoundError:
        before = None
    shared = before is not None and bool(before.st_mode & stat.S_IRGRP)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w") as out:
            out.write(text)
        if shared and before is not None:
            if os.stat(tmp).st_gid != before.st_gid:
                try:
                    os.chown(tmp, -1, before.st_gid)
                except PermissionError as err:
                    raise PermissionError(
                        err.errno, f"cannot keep the group {_group_name(before.st_gid)} that "
                        "lets Mosquitto read it (the hub's user must be in that group: "
                        "SupplementaryGroups= in its unit, tenace deploy init --renew writes "
                        "it)", str(path)) from None
            os.chmod(tmp, 0o640)
        else:
            os.chmod(tmp, 0o600)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _group_name(gid: int) -> str:
    import grp
    try:
        return grp.getgrgid(gid).gr_name
    except KeyError:
        return str(gid)


def write_keyring(path: Path, credentials: Iterable[Credentials]) -> Path:
    """A keyring file (JSON {client id: password}, mode 0600) for a process that runs many
    simulated devices: wire/mqtt.py reads it when ``TENACE_MQTT_KEYRING`` names it."""
    _write_private(path, json.dumps({c.username: c.password for c in credentials}, allow_nan=False))
    return path


class Accounts:
    """The accounts file of a data directory (module docstring)."""

    def __init__(self, folder: str | Path):
        self.folder = Path(folder)
        self.path = self.folder / ACCOUNTS_FILE
        self.passwd_file = self.folder / PASSWD_FILE
        self.acl_file = self.folder / ACL_FILE
        self._accounts: dict[str, dict[str, Any]] = {}
        if self.path.exists():
            self._accounts = self.load(self.path)

    @staticmethod
    def load(path: Path) -> dict[str, dict[str, Any]]:
        """name -> {"role", "argon2", "mosquitto"} from an accounts file."""
        try:
            data = json.loads(path.read_text())
            accounts = data["accounts"]
            if not isinstance(accounts, dict):
                raise TypeError("accounts is not an object")
            return {str(k): dict(v) for k, v in accounts.items()}
        except (OSError, ValueError, KeyError, TypeError) as err:
            raise AccountError(f"cannot read the accounts file {path}: {err}") from err

    def __contains__(self, name: object) -> bool:
        return name in self._accounts

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._accounts))

    def __len__(self) -> int:
        return len(self._accounts)

    def role(self, name: str) -> str:
        try:
            return str(self._accounts[name]["role"])
        except KeyError:
            raise AccountError(f"no account {name!r}") from None

    def issue(self, name: str, role: str | None = None, *, save: bool = True,
              scope: Mapping[str, Any] | None = None) -> Credentials:
        """A new password for ``name`` (created, or rotated: the old password is revoked).
        ``role`` defaults to the one its name implies (hub/access.py ``device_role``);
        ``scope``: a hub shard's tables and sections (hub/shards.py), kept with it."""
        before = self._accounts.get(name, {})
        role = role or (before.get("role") or device_role(name))
        if role is None:
            raise AccountError(f"account {name!r}: give its role (its name implies none)")
        if scope is None and role == before.get("role"):
            scope = before.get("scope")
        try:
            grants(name, role, scope)
        except ValueError as err:
            raise AccountError(str(err)) from None
        password = secrets.token_urlsafe(16)
        entry: dict[str, Any] = {"role": role, "argon2": _hasher().hash(password),
                                 "mosquitto": mosquitto_hash(password)}
        if scope is not None:
            entry["scope"] = dict(scope)
        self._accounts[name] = entry
        if save:
            self.save()
        log.info("account %s (%s) issued", name, role)
        return Credentials(name, password)

    def issue_all(self, names: Mapping[str, str | None]) -> list[Credentials]:
        """Issue (or rotate) every account of ``names`` (name -> role, or None for the one
        its name implies), saved once."""
        issued = [self.issue(name, role, save=False) for name, role in names.items()]
        self.save()
        return issued

    def revoke(self, name: str) -> None:
        """Remove ``name``: it can no longer connect."""
        if self._accounts.pop(name, None) is None:
            raise AccountError(f"no account {name!r}")
        self.save()
        log.info("account %s revoked", name)

    def verify(self, name: str, password: str) -> bool:
        """Whether ``password`` is ``name``'s current password."""
        entry = self._accounts.get(name)
        if entry is None:
            return False
        from argon2.exceptions import Argon2Error
        try:
            return bool(_hasher().verify(entry["argon2"], password))
        except (Argon2Error, KeyError):
            return False

    def listing(self) -> list[dict[str, str]]:
        """[{"account", "role"}] without any secret."""
        return [{"account": name, "role": self._accounts[name]["role"]} for name in self]

    def save(self) -> None:
        """Write the accounts file (0600) and the Mosquitto password and ACL files (0600, or
        0640 keeping Mosquitto's group: :func:`write_broker_file`)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        # Mosquitto's files first: one that cannot keep its group stops the change before
        # the accounts file records it.
        write_broker_file(self.passwd_file, "".join(
            f"{name}:{self._accounts[name]['mosquitto']}\n" for name in self))
        write_broker_file(self.acl_file, mosquitto_acl(self.grant(name) for name in self))
        _write_private(self.path, json.dumps({"version": 1, "accounts": self._accounts},
                                             indent=1, sort_keys=True, allow_nan=False))

    def grant(self, name: str) -> Grant:
        """What ``name`` may read and write (hub/access.py), its scope included."""
        entry = self._accounts.get(name)
        if entry is None:
            raise AccountError(f"no account {name!r}")
        try:
            return grants(name, entry["role"], entry.get("scope"))
        except (KeyError, ValueError) as err:
            raise AccountError(f"account {name!r}: {err}") from None

    def __repr__(self) -> str:
        return f"Accounts({str(self.folder)!r}, {len(self)} accounts)"
