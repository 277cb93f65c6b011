"""The director's console's users (people, not MQTT accounts), their sessions, and the
throttle on their logins.

A user has a name, a role and an argon2id hash of the password (argon2-cffi). A name is
any letters of any script and digits, with ``_ . @ -`` after the first character ("gaëlle",
"Łukasz", "山田"), 1-64 characters: it is kept NFC-normalised as written, and compared
case-folded (:func:`name_key`): "Gaëlle" logs in as "gaëlle", and a second "GAËLLE" is the
same user. The roles:

* ``director``: everything, the alerts with their deals included;
* ``scorer``: the console read-only, plus score rulings (``ruling``, ``ruling_undo``) and the
  full results; the alerts without their evidence (no deals);
* ``viewer``: the console read-only, the alerts without their evidence.

:class:`UserStore` keeps them in ``users.json`` in the hub's data directory (mode 0600,
written whole to a temporary file then renamed): ``tenace users add NAME --role director``
adds one (tenace/cli.py). The console reads the file again when it changed, so an account
added, removed or given a new password while the hub runs counts at once; a session of a user
removed, or whose password changed, ends.

:class:`Sessions` is the console's server-side session store: a random token (the cookie)
-> the user, a CSRF token, and when it ends (idle and absolute limits). Sessions live in the
hub's memory: a restart of the hub logs everyone out.

:class:`LoginThrottle` counts failed logins per client address and per user name, and
refuses further tries for a delay that doubles with each failure past the first few.

Exceptions::

    hub.errors.HubError
    └── UserError (ValueError)   a bad name, role or password, an unknown user, a file
                                 that cannot be read or written
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from hub.errors import HubError

__all__ = ["MIN_PASSWORD", "ROLES", "USERS_NAME", "LoginThrottle", "Session", "Sessions",
           "User", "UserError", "UserStore", "check_name", "check_password", "name_key",
           "new_password", "users_job"]

log = logging.getLogger(__name__)

USERS_NAME = "users.json"
ROLES = ("director", "scorer", "viewer")
MIN_PASSWORD = 10
MAX_PASSWORD = 1024
_NAME_MARKS = "_.@-"
MAX_NAME = 64


def check_name(name: str) -> str:
    """``name`` NFC-normalised when it is a user name (module docstring), else UserError."""
    name = unicodedata.normalize("NFC", name)
    ok = 1 <= len(name) <= MAX_NAME and name[0].isalnum() and all(
        c.isalnum() or c in _NAME_MARKS or unicodedata.category(c) in ("Mn", "Mc")
        for c in name)
    if not ok:
        raise UserError(f"user name {name!r:.80}: letters (of any script), digits and "
                        f"{' '.join(_NAME_MARKS)}, 1-{MAX_NAME} characters, starting with a "
                        "letter or a digit")
    return name


def name_key(name: str) -> str:
    """What two names are compared by: NFC, case-folded (``"Gaëlle"`` and ``"GAËLLE"``)."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).casefold())


class UserError(HubError, ValueError):
    """A bad name, role or password, an unknown user, or users.json unreadable."""


@dataclass(frozen=True, slots=True)
class User:
    """A console user as stored (the hash, never the password)."""

    name: str
    role: str
    hash: str


def new_password() -> str:
    """A random password (16 characters of the URL-safe alphabet, 96 bits)."""
    return secrets.token_urlsafe(12)


def check_password(password: str) -> None:
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise UserError(f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters, "
                        f"not {len(password)}")


class UserStore:
    """The users of ``path`` (``users.json``): add, remove, passwd, list, verify."""

    def __init__(self, path: str | os.PathLike[str], *,
                 hasher: PasswordHasher | None = None):
        self.path = Path(path)
        self.hasher = hasher or PasswordHasher()
        self._users: dict[str, User] = {}
        self._stamp: tuple[int, int] | None = None
        self._dummy = self.hasher.hash(secrets.token_hex(8))   # for unknown names

    @classmethod
    def in_directory(cls, data: str | os.PathLike[str], **kw: Any) -> UserStore:
        return cls(Path(data) / USERS_NAME, **kw)

    # Reading -----------------------------------------------------------------------------
    def users(self) -> dict[str, User]:
        """Every user by name (the file read again when it changed)."""
        try:
            stat = self.path.stat()
        except FileNotFoundError:
            self._users, self._stamp = {}, None
            return self._users
        except OSError as err:
            raise UserError(f"{self.path}: {err}") from err
        stamp = (stat.st_mtime_ns, stat.st_size)
        if stamp != self._stamp:
            self._users = self._read()
            self._stamp = stamp
        return self._users

    def _read(self) -> dict[str, User]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            return {name: User(name, entry["role"], entry["hash"])
                    for name, entry in data["users"].items() if entry["role"] in ROLES}
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as err:
            raise UserError(f"{self.path}: not a users file: {err}") from err

    def get(self, name: str) -> User | None:
        """The user of ``name`` as written or in any case (:func:`name_key`)."""
        users = self.users()
        found = users.get(name)
        if found is not None:
            return found
        key = name_key(name)
        return next((u for u in users.values() if name_key(u.name) == key), None)

    def has_director(self) -> bool:
        try:
            return any(u.role == "director" for u in self.users().values())
        except UserError as err:
            log.error("%s", err)
            return False

    def verify(self, name: str, password: str) -> User | None:
        """The user when ``password`` is theirs, else None (as slow for an unknown name)."""
        user = self.get(name)
        if len(password) > MAX_PASSWORD:
            return None
        try:
            self.hasher.verify(self._dummy if user is None else user.hash, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return None
        if user is None:
            return None
        if self.hasher.check_needs_rehash(user.hash):
            try:
                self._write({**self.users(), user.name: User(user.name, user.role,
                                                             self.hasher.hash(password))})
            except UserError as err:
                log.warning("password of %s not rehashed: %s", user.name, err)
        return self.users().get(user.name, user)

    # Changing ----------------------------------------------------------------------------
    def add(self, name: str, role: str, password: str) -> User:
        name = check_name(name)
        if role not in ROLES:
            raise UserError(f"role {role!r:.40}: one of {', '.join(ROLES)}")
        users = dict(self.users())
        same = self.get(name)
        if same is not None:
            raise UserError(f"user {same.name!r} exists already (tenace users passwd to "
                            "change the password)")
        check_password(password)
        users[name] = user = User(name, role, self.hasher.hash(password))
        self._write(users)
        return user

    def passwd(self, name: str, password: str) -> None:
        users = dict(self.users())
        user = self.get(name)
        if user is None:
            raise UserError(f"no user {name!r:.80}")
        check_password(password)
        users[user.name] = User(user.name, user.role, self.hasher.hash(password))
        self._write(users)

    def remove(self, name: str) -> None:
        users = dict(self.users())
        user = self.get(name)
        if user is None:
            raise UserError(f"no user {name!r:.80}")
        del users[user.name]
        self._write(users)

    def _write(self, users: dict[str, User]) -> None:
        data = {"v": 1, "users": {u.name: {"role": u.role, "hash": u.hash}
                                  for u in sorted(users.values(), key=lambda u: u.name)}}
        text = json.dumps(data, indent=1, allow_nan=False) + "\n"
        tmp = self.path.with_name(f".{self.path.name}.{secrets.token_hex(4)}")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(text)
                out.flush()
                os.fsync(out.fileno())
            os.replace(tmp, self.path)
        except OSError as err:
            tmp.unlink(missing_ok=True)
            raise UserError(f"{self.path}: {err}") from err
        self._users = dict(users)
        stat = self.path.stat()
        self._stamp = (stat.st_mtime_ns, stat.st_size)


# Sessions ----------------------------------------------------------------------------------

@dataclass(slots=True)
class Session:
    """A logged-in user: ``token`` is the cookie, ``csrf`` what each POST must carry."""

    token: str
    user: str
    role: str
    hash: str                  # the password hash at login: a new password ends the session
    csrf: str
    started: float
    seen: float


@dataclass
class Sessions:
    """Server-side sessions: idle for ``idle`` seconds, or ``lifetime`` after login, they end.
    At most ``limit`` at once (the oldest goes)."""

    idle: float = 4 * 3600.0
    lifetime: float = 16 * 3600.0
    limit: int = 256
    clock: Callable[[], float] = time.monotonic
    _by_token: dict[str, Session] = field(default_factory=dict)

    def open(self, user: User) -> Session:
        now = self.clock()
        self._expire(now)
        while len(self._by_token) >= self.limit:
            del self._by_token[next(iter(self._by_token))]
        session = Session(secrets.token_urlsafe(32), user.name, user.role, user.hash,
                          secrets.token_urlsafe(32), now, now)
        self._by_token[session.token] = session
        return session

    def get(self, token: str | None, users: UserStore) -> Session | None:
        """The session of ``token`` while it lasts and its user still has that password
        (the role is the user's now)."""
        if not token:
            return None
        session = self._by_token.get(token)
        if session is None:
            return None
        now = self.clock()
        if now - session.seen > self.idle or now - session.started > self.lifetime:
            self.close(token)
            return None
        try:
            user = users.get(session.user)
        except UserError as err:
            log.error("%s", err)
            return None
        if user is None or user.hash != session.hash:
            self.close(token)
            return None
        session.role = user.role
        session.seen = now
        return session

    def close(self, token: str | None) -> None:
        if token:
            self._by_token.pop(token, None)

    def __len__(self) -> int:
        return len(self._by_token)

    def _expire(self, now: float) -> None:
        for token, s in list(self._by_token.items()):
            if now - s.seen > self.idle or now - s.started > self.lifetime:
                del self._by_token[token]


@dataclass
class LoginThrottle:
    """Failed logins per key (a client address, a user name): after ``free`` failures each
    further one makes the key wait ``base`` * 2**(extra failures) seconds (at most ``cap``).
    A success clears the user's count; counts are forgotten after ``forget`` quiet seconds.

    A console login is throttled by its address and its user name (:meth:`login_keys`),
    but not by the name from an address that logged in as that user before
    (:meth:`logged_in`): anyone on the club's Wi-Fi who knew the director's name could
    otherwise fail one login every 300 s and keep the director out of the console all
    evening (audit ``auditsec``). A new address still meets the name's wait."""

    free: int = 5
    base: float = 1.0
    cap: float = 300.0
    forget: float = 3600.0
    clock: Callable[[], float] = time.monotonic
    _fails: dict[str, tuple[int, float]] = field(default_factory=dict)   # key -> (n, last)
    _known: dict[str, set[str]] = field(default_factory=dict)   # user -> addresses logged in

    def login_keys(self, address: str, user: str) -> tuple[str, ...]:
        """The keys a login of ``user`` (its :func:`name_key`) from ``address`` waits on."""
        if address in self._known.get(user, ()):
            return (f"address {address}",)
        return (f"address {address}", f"user {user}")

    def logged_in(self, address: str, user: str) -> None:
        """A login of ``user`` from ``address`` succeeded: both counts cleared, the address
        remembered for that user (at most 64 per user, 10,000 users)."""
        self.succeeded(f"address {address}", f"user {user}")
        if len(self._known) > 10_000:
            self._known.clear()
        known = self._known.setdefault(user, set())
        if len(known) >= 64:
            known.clear()
        known.add(address)

    def wait(self, *keys: str) -> float:
        """Seconds before ``keys`` may try again (0: now)."""
        now = self.clock()
        longest = 0.0
        for key in keys:
            n, last = self._fails.get(key, (0, now))
            if now - last > self.forget:
                self._fails.pop(key, None)
                continue
            if n >= self.free:
                delay = min(self.cap, self.base * 2 ** (n - self.free))
                longest = max(longest, last + delay - now)
        return max(0.0, longest)

    def failed(self, *keys: str) -> None:
        now = self.clock()
        if len(self._fails) > 10_000:          # bounded: the quietest are forgotten
            for key, _ in sorted(self._fails.items(), key=lambda kv: kv[1][1])[:5_000]:
                del self._fails[key]
        for key in keys:
            n, _ = self._fails.get(key, (0, now))
            self._fails[key] = (n + 1, now)

    def succeeded(self, *keys: str) -> None:
        for key in keys:
            self._fails.pop(key, None)


# The ``tenace users`` jobs ------------------------------------------------------------------

def users_job(store: UserStore, job: str, name: str | None = None, role: str | None = None,
              password: str | None = None) -> list[str]:
    """``tenace users JOB`` on ``store``: the lines to print (UserError when refused)."""
    if job == "list":
        users = sorted(store.users().values(), key=lambda u: u.name)
        if not users:
            return [f"no console users in {store.path}"]
        return [f"{u.name}\t{u.role}" for u in users]
    if name is None:
        raise UserError(f"tenace users {job}: give the user's name")
    if job == "add":
        if password is None or role is None:
            raise UserError("tenace users add: a role and a password are needed")
        store.add(name, role, password)
        log.info("console user %s added (%s)", name, role)
        return [f"{name} ({role}) added to {store.path}"]
    if job == "passwd":
        if password is None:
            raise UserError("tenace users passwd: a password is needed")
        store.passwd(name, password)
        log.info("console user %s: new password", name)
        return [f"{name}: new password (their sessions end)"]
    if job == "remove":
        store.remove(name)
        log.info("console user %s removed", name)
        return [f"{name} removed (their sessions end)"]
    raise UserError(f"unknown job {job!r}")
