"""Pairing: a device enrols with a short one-time code the director draws on the console.

For each device account of the event (a table's tablet ``A1-tab``, a seat's tablet ``A1-N``,
a table's card-reader node ``A1-rdr``: hub/accounts.py) the director draws a code, eight
characters of an alphabet without look-alikes (:data:`ALPHABET`: no 0/O, 1/I/L, U), shown
grouped ``K7QX-M2PD`` and in a QR code (:func:`pairing_uri`, :func:`qr_svg`). The device
sends it to ``POST /api/pair`` (hub.console_devices); :meth:`Pairing.redeem` then issues (rotates)
the account's password with :meth:`hub.accounts.Accounts.issue` (the old password stops
working: a lost tablet is replaced by a spare paired with a new code) and answers the
credentials, the broker's URL and the club's CA certificate (PEM) when the broker has TLS.

A code is:

* **short-lived**: valid :data:`CODE_MINUTES` minutes (15) from when it was drawn;
* **single-use**: redeemed once, then ``used``; drawing a new code for an account cancels
  its pending one;
* **never stored**: ``pairing.json`` in the hub's data directory (mode 0600) keeps, per
  code, its scrypt hash (a salt of the file's, n=2**14, r=8: tens of milliseconds per guess),
  its account, when it expires and whether it was used; pending codes survive a restart of
  the hub. Answers about spent codes (``used``, ``expired``) are kept a day.

Guessing is throttled (docs/security.md has the arithmetic): each client address gets
:data:`FREE_FAILURES` wrong codes, then waits a delay that doubles with each further one
(hub.users.LoginThrottle), and every client together gets at most :data:`GLOBAL_FAILURES`
wrong codes per :data:`GLOBAL_WINDOW` seconds; past that every redemption is ``throttled``
until the window has room again. Wrong codes are counted (:attr:`Pairing.failures`) and
logged with the address, never the code; every :data:`ALERT_EVERY` wrong codes from one
address, ``on_failures(address, count)`` is called (the console raises the director's
``pairing_failures`` alert).

Errors::

    hub.errors.HubError
    └── PairingError (ValueError)     a code refused: ``code`` is unknown_code, expired, used,
                                      throttled, or no_account (not a device of the event);
                                      ``retry_after`` seconds for throttled
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import os
import secrets
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from hub.access import device_role
from hub.accounts import AccountError, Accounts, Credentials
from hub.errors import HubError
from hub.users import LoginThrottle
from wire.pairing import ca_fingerprint

__all__ = [
    "ALPHABET", "CODE_LENGTH", "CODE_MINUTES", "DEVICE_ROLES", "PAIRING_FILE", "Drawn",
    "Pairing", "PairingError", "ca_fingerprint", "format_code", "normalise_code",
    "pairing_uri", "qr_svg", "update_device_credentials",
]

log = logging.getLogger(__name__)

PAIRING_FILE = "pairing.json"
ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ"   # 30 symbols: no 0 O 1 I L U
CODE_LENGTH = 8
CODE_MINUTES = 15.0
DEVICE_ROLES = ("table", "seat", "reader")   # the accounts a code can pair
FREE_FAILURES = 5            # per address, before the doubling wait
GLOBAL_FAILURES = 30         # wrong codes per GLOBAL_WINDOW, all addresses together
GLOBAL_WINDOW = 60.0
ALERT_EVERY = 10             # wrong codes from one address per director's alert
KEEP_SPENT = 24 * 3600.0     # seconds a used or expired code is still known
_SCRYPT = {"n": 2 ** 14, "r": 8, "p": 1, "dklen": 32}


class PairingError(HubError, ValueError):
    """A code refused (module docstring): ``code`` says why, ``message`` for the person."""

    def __init__(self, code: str, message: str, retry_after: float = 0.0):
        super().__init__(message)
        self.code = code
        self.message = message
        self.retry_after = retry_after


def normalise_code(text: str) -> str:
    """``"k7qx m2pd"``, ``"K7QX-M2PD"`` -> ``"K7QXM2PD"`` (case, spaces and dashes do not
    count)."""
    return "".join(c for c in text.upper() if c not in " -\t")


def format_code(code: str) -> str:
    """``"K7QXM2PD"`` -> ``"K7QX-M2PD"``."""
    return f"{code[:4]}-{code[4:]}"


def pairing_uri(hub_url: str, code: str, ca_pem: bytes | str | None = None) -> str:
    """``tenace-pair:?hub=URL&code=K7QX-M2PD[&ca=sha256:HEX]``: what the QR code holds."""
    uri = f"tenace-pair:?hub={quote(hub_url, safe=':/[]')}&code={format_code(code)}"
    if ca_pem:
        uri += f"&ca={ca_fingerprint(ca_pem)}"
    return uri


def qr_svg(text: str) -> str:
    """``text`` as a QR code, an SVG element to put inline in a page (segno; error correction
    M; with its namespace, so that a page may parse it as SVG rather than HTML)."""
    import io

    import segno
    out = io.BytesIO()
    segno.make_qr(text, error="m").save(out, kind="svg", xmldecl=False, svgns=True, nl=False,
                                        omitsize=True, scale=4, border=4, dark="#000",
                                        light="#fff")
    return out.getvalue().decode()


def update_device_credentials(folder: Path, credentials: Iterable[Credentials] = (),
                              removed: Iterable[str] = ()) -> Path | None:
    """Keep ``device-credentials.json`` of a deploy directory (hub.deploy) true after an
    account was issued or revoked outside ``deploy init``; None when ``folder`` has none
    (only deploy init makes the file: a hub's data directory has no passwords in clear)."""
    from hub.deploy import DEVICE_CREDENTIALS
    from wire.pairing import write_private as _write_private
    path = Path(folder) / DEVICE_CREDENTIALS
    if not path.exists():
        return None
    try:
        known = json.loads(path.read_text())
        if not isinstance(known, dict):
            raise ValueError("not an object")
    except (OSError, ValueError) as err:
        log.error("%s not updated: %s", path, err)
        return None
    for c in credentials:
        known[c.username] = c.password
    for name in removed:
        known.pop(name, None)
    _write_private(path, json.dumps(known, indent=1, sort_keys=True, allow_nan=False))
    return path


@dataclass(frozen=True, slots=True)
class Drawn:
    """A code just drawn: shown once to the director (the file keeps only its hash)."""

    account: str
    code: str
    expires: float

    @property
    def shown(self) -> str:
        return format_code(self.code)

    def __repr__(self) -> str:  # never the code
        return f"Drawn(account={self.account!r}, expires={self.expires!r})"


class Pairing:
    """The pairing codes of a hub (module docstring).

    ``accounts``: the broker's accounts (hub.accounts); ``data``: the folder of
    ``pairing.json``; ``broker``: the URL devices connect to (``mqtts://HOST:8883``; a host
    of ``*`` is replaced by the one the device called the hub by); ``ca_pem``: the club's CA
    certificate, when the broker has TLS; ``devices``: a function giving the accounts a code
    may be drawn for (the event's devices; None: the accounts file's device accounts);
    ``reload``: called after an account changed (Mosquitto: SIGHUP; the embedded broker
    re-reads accounts.json by itself); ``deploy``: a deploy directory whose
    ``device-credentials.json`` is kept true (:func:`update_device_credentials`)."""

    def __init__(self, accounts: Accounts, data: Path | str, *, broker: str,
                 ca_pem: bytes | None = None,
                 devices: Callable[[], Iterable[str]] | None = None,
                 minutes: float = CODE_MINUTES, reload: Callable[[], None] | None = None,
                 on_failures: Callable[[str, int], None] | None = None,
                 clock: Callable[[], float] = time.time,
                 throttle: LoginThrottle | None = None,
                 global_failures: int = GLOBAL_FAILURES, global_window: float = GLOBAL_WINDOW,
                 deploy: Path | None = None):
        self.accounts = accounts
        self.path = Path(data) / PAIRING_FILE
        self.broker = broker
        self.ca_pem = ca_pem
        self.devices = devices
        self.minutes = minutes
        self.reload = reload
        self.on_failures = on_failures
        self.clock = clock
        self.throttle = throttle or LoginThrottle(free=FREE_FAILURES, base=1.0, cap=300.0,
                                                  forget=3600.0)
        self.global_failures = global_failures
        self.global_window = global_window
        self.deploy = deploy
        self.failures = 0                       # wrong codes since the hub started
        self._by_address: dict[str, int] = {}
        self._recent: deque[float] = deque()    # times of the last wrong codes, all clients
        self._lock = threading.Lock()
        self._tries = threading.Lock()          # the throttle's check and count, as one step
        self._salt, self._codes = self._load()

    # The file -------------------------------------------------------------------------------
    def _load(self) -> tuple[bytes, dict[str, dict[str, Any]]]:
        try:
            data = json.loads(self.path.read_text())
            salt = base64.b64decode(data["salt"])
            codes = {str(k): dict(v) for k, v in data["codes"].items()}
            return salt, codes
        except FileNotFoundError:
            return secrets.token_bytes(16), {}
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as err:
            log.error("%s unreadable (%s): pending pairing codes are lost", self.path, err)
            return secrets.token_bytes(16), {}

    def _save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps({"version": 1, "salt": base64.b64encode(self._salt).decode(),
                           "codes": self._codes}, indent=1, sort_keys=True, allow_nan=False)
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=f".{self.path.name}.")
        try:
            with os.fdopen(fd, "w") as out:
                out.write(text)
            os.chmod(tmp, 0o600)
            os.replace(tmp, self.path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    def _hash(self, code: str) -> str:
        digest = hashlib.scrypt(code.encode(), salt=self._salt, maxmem=64 * 1024 * 1024,
                                **_SCRYPT)
        return digest.hex()

    def _prune(self, now: float) -> None:
        for key, entry in list(self._codes.items()):
            if now > float(entry["expires"]) + KEEP_SPENT:
                del self._codes[key]

    # The director's side ------------------------------------------------------------------------
    def paired(self) -> set[str]:
        """The accounts that hold a password now (the accounts file as it is)."""
        return set(self._fresh())

    def pairable(self) -> list[str]:
        """The accounts a code may be drawn for."""
        if self.devices is not None:
            return [name for name in self.devices() if device_role(name) in DEVICE_ROLES]
        return [name for name in self.accounts
                if self.accounts.role(name) in DEVICE_ROLES]

    def draw(self, account: str) -> Drawn:
        """A new code for ``account`` (its pending one is cancelled); PairingError
        ``no_account`` when the account is not a device of the event."""
        if account not in self.pairable():
            raise PairingError("no_account", f"{account!r} is not a device of this event "
                                             "(a table's or a seat's tablet, a reader node)")
        code = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))
        key = self._hash(code)
        now = self.clock()
        with self._lock:
            self._prune(now)
            for entry in self._codes.values():
                if entry["account"] == account and entry["state"] == "pending":
                    entry["state"] = "cancelled"
            expires = now + self.minutes * 60.0
            self._codes[key] = {"account": account, "drawn": now, "expires": expires,
                                "state": "pending"}
            self._save()
        log.info("pairing code drawn for %s (valid %.0f min)", account, self.minutes)
        return Drawn(account, code, expires)

    def pending(self) -> dict[str, float]:
        """account -> when its pending code expires."""
        now = self.clock()
        return {e["account"]: float(e["expires"]) for e in self._codes.values()
                if e["state"] == "pending" and float(e["expires"]) >= now}

    def revoke(self, account: str) -> None:
        """Revoke ``account`` at once (hub.accounts; its pending code too): it can no longer
        connect, and its live connection is closed (module docstring of hub.broker)."""
        with self._lock:
            for entry in self._codes.values():
                if entry["account"] == account and entry["state"] == "pending":
                    entry["state"] = "cancelled"
            self._save()
            self._fresh().revoke(account)
        if self.deploy is not None:
            update_device_credentials(self.deploy, removed=[account])
        self._reloaded()

    def _fresh(self) -> Accounts:
        """The accounts file as it is now (``tenace accounts`` may have changed it)."""
        self.accounts = Accounts(self.accounts.folder)
        return self.accounts

    def _reloaded(self) -> None:
        if self.reload is not None:
            try:
                self.reload()
            except Exception:   # the broker's reload hook: logged, the change is made
                log.exception("the broker was not told of the accounts' change")

    # The device's side ------------------------------------------------------------------------
    def check_throttle(self, address: str) -> None:
        """PairingError ``throttled`` when ``address`` (or everyone) must wait."""
        now = time.monotonic()
        with self._lock:
            while self._recent and now - self._recent[0] > self.global_window:
                self._recent.popleft()
            if len(self._recent) >= self.global_failures:
                wait = self._recent[0] + self.global_window - now
                raise PairingError("throttled", f"too many wrong codes on this hub: try "
                                   f"again in {max(1, round(wait))} s", max(1.0, wait))
        wait = self.throttle.wait(f"pair {address}")
        if wait > 0:
            raise PairingError("throttled", f"too many wrong codes from {address}: try again "
                               f"in {max(1, round(wait))} s", max(1.0, wait))

    def redeem(self, text: str, address: str, label: str = "") -> dict[str, Any]:
        """The answer to a device that sent code ``text`` from ``address`` (module
        docstring): ``{"account", "username", "password", "role", "table", "seat",
        "broker", "ca"}``; PairingError otherwise. Slow on purpose (scrypt): call it off the
        event loop."""
        stamp = self._reserve(address)
        code = normalise_code(text)
        if len(code) != CODE_LENGTH or any(c not in ALPHABET for c in code):
            self._failed(address, "unknown_code")
            raise PairingError("unknown_code", f"not a pairing code: {CODE_LENGTH} characters "
                               f"of {ALPHABET}, e.g. K7QX-M2PD")
        key = self._hash(code)
        now = self.clock()
        with self._lock:
            entry = self._codes.get(key)
            if entry is None:
                state = "unknown_code"
            elif entry["state"] == "pending" and now > float(entry["expires"]):
                entry["state"] = "expired"
                self._save()
                state = "expired"
            elif entry["state"] in ("used", "cancelled", "expired"):
                state = {"cancelled": "expired"}.get(entry["state"], entry["state"])
            else:
                entry["state"] = "used"
                entry["used"] = now
                entry["by"] = address
                account = str(entry["account"])
                try:
                    credentials = self._fresh().issue(account)
                except (AccountError, OSError) as err:   # the accounts cannot be written
                    entry["state"] = "pending"             # (or read): the code holds
                    entry.pop("used", None)
                    entry.pop("by", None)
                    reason = (f"{err.filename}: {err.strerror}"
                              if isinstance(err, OSError) and err.filename else str(err))
                    log.error("pairing %s: the accounts: %s", account, reason)
                    raise PairingError("storage", f"the hub cannot write its accounts ({reason})"
                                       ": tell the director, then try the same code again"
                                       ) from err
                self._save()
                state = "ok"
        if state != "ok":
            self._failed(address, state)
            raise PairingError(state, {
                "unknown_code": "no such pairing code (ask the director for a new one)",
                "expired": "this pairing code has expired (ask the director for a new one)",
                "used": "this pairing code was used already (ask the director for a new one)",
            }[state])
        self.throttle.succeeded(f"pair {address}")
        with self._lock:   # a right code is not a wrong one for everyone's limit either
            if stamp in self._recent:
                self._recent.remove(stamp)
        if self.deploy is not None:
            update_device_credentials(self.deploy, [credentials])
        self._reloaded()
        log.info("device %s paired from %s%s", account, address,
                 f" ({label[:64]})" if label else "")
        role = self.accounts.role(account)
        base = account.split(".", 1)[0]
        table, _, seat = base.rpartition("-")
        return {"account": account, "username": credentials.username,
                "password": credentials.password, "role": role,
                "table": table, "seat": seat if role == "seat" else None,
                "broker": self.broker, "ca": None if self.ca_pem is None
                else self.ca_pem.decode()}

    def _reserve(self, address: str) -> float:
        """Check the throttle and count this try as a wrong code, in one step (issue 23:
        30 parallel wrong codes from one address got 9-10 checked, each passing the check
        before any was counted, instead of 5). A right code takes its count back
        (:meth:`redeem`). Returns the try's mark in the all-clients window."""
        with self._tries:
            self.check_throttle(address)
            stamp = time.monotonic()
            with self._lock:
                self._recent.append(stamp)
            self.throttle.failed(f"pair {address}")
        return stamp

    def _failed(self, address: str, why: str) -> None:
        """A wrong code (counted by the throttle already, :meth:`_reserve`): the counts,
        the log line and, every 10th from one address, the director's alert."""
        with self._lock:
            self.failures += 1
            count = self._by_address.get(address, 0) + 1
            if len(self._by_address) > 10_000:
                self._by_address.clear()
            self._by_address[address] = count
        log.warning("pairing refused (%s) from %s: %d wrong code(s) from it", why, address,
                    count)
        if count % ALERT_EVERY == 0 and self.on_failures is not None:
            try:
                self.on_failures(address, count)
            except Exception:
                log.exception("pairing failures not reported to the director")

    def __repr__(self) -> str:
        return f"Pairing({str(self.path)!r}, {len(self.pending())} pending)"
