"""A simultaneous event: its deals, its clubs (account, start time, tables), its scoring; the
topics it travels on; the organiser's signature of the deals (Ed25519).

The event file (JSON, ``version`` 1) is the organiser's: ``{"version": 1, "event": "ecats-0412",
"deals": "deals.pbn", "method": "mp", "small_groups": false, "clubs": [{"id": "paris", "start":
"2026-04-12T18:00:00+00:00", "plays": 9, "movement": "mitchell", "tables": 10}]}``.
``plays`` is how many times the club plays each board (its tables in a Mitchell without a
skip); the field's expected number of results per board (Neuberg, Law 78) is their sum.
``movement`` (optional, ``mitchell`` or ``howell``, with its ``tables``) lets ``sim-event
init`` warn when ``plays`` cannot be right for it (:meth:`Club.plays_problem`).
``small_groups`` (default false): a fouled board's version played 2 or 3 times in the field
gets the EBU small-group percentages rather than Neuberg (Law 87, formats.md 9.1;
hub.simultaneous.field). ``artificial`` (default ``"session"``): what an artificial adjusted
score (Law 12C2) gives its side: ``"session"`` 60/50/40 or the pair's session percentage if
higher (average-plus) or lower (average-minus), Law 12C2(c) as the WBFLC states it;
``"fixed"`` 60/50/40 (or the percentage the director
gave). Topics (docs/protocol.md,
"Simultaneous events"), all under ``tenace/sim/v1/<event>/<club>/``: ``deals`` (organiser
to club, retained, signed), ``result`` and ``finished`` (club to organiser, QoS 1),
``field/<board>`` and ``ranking`` (organiser to club, retained). Nothing else crosses a bridge.
"""

from __future__ import annotations

import base64
import json
import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from bridgecore.pbn import read_pbn
from bridgecore.ranking import Method
from hub.errors import HubError

__all__ = [
    "ROOT", "Club", "SimError", "SimEvent", "generate_key", "load_private_key",
    "load_public_key", "open_signed", "parse_topic", "private_pem", "public_pem", "sign", "topic",
]

ROOT = "tenace/sim/v1"
KINDS = ("deals", "result", "finished", "field", "ranking")
ARTIFICIAL = ("session", "fixed")   # the conventions for an artificial adjusted score
MOVEMENTS = ("mitchell", "howell")   # a club's movement the event file may say (plays checked)
_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")


class SimError(HubError):
    """A bad event file, a bad or forged message, an unknown club."""


def _name(value: object, what: str) -> str:
    if not isinstance(value, str) or not _NAME.match(value):
        raise SimError(f"{what} {value!r}: lower-case letters, digits, '-' and '_' (40 at most)")
    return value


@dataclass(frozen=True, slots=True)
class Club:
    """A club of the field: its id (its account on the organiser's broker), its session's
    start (aware datetime), how many times it plays each board."""

    id: str
    start: datetime
    plays: int = 1
    movement: str | None = None   # optional: "mitchell" or "howell", with its tables
    tables: int | None = None

    def __post_init__(self) -> None:
        _name(self.id, "club id")
        if self.start.tzinfo is None:
            raise SimError(f"club {self.id}: its start {self.start} needs a time zone")
        if self.plays < 1:
            raise SimError(f"club {self.id}: plays each board {self.plays} times")
        if self.movement is not None and (self.movement not in MOVEMENTS or not isinstance(
                self.tables, int) or isinstance(self.tables, bool) or not 2 <= self.tables <= 30):
            raise SimError(f"club {self.id}: movement {self.movement!r} of {self.tables!r} "
                           f"tables: one of {', '.join(MOVEMENTS)}, with 2 to 30 tables")

    def plays_problem(self) -> str | None:
        """Why ``plays`` cannot be right for the club's movement (when the event file says
        it), None when it can or none is said: a board's field results are released to the
        club only when it has that many results or its director closes it (Law 16)."""
        if self.movement is None or self.tables is None:
            return None
        from collections import Counter

        from bridgecore.errors import BridgeError
        from bridgecore.movements import howell, mitchell
        try:
            made = (mitchell if self.movement == "mitchell" else howell)(self.tables)
        except BridgeError as err:
            return f"club {self.id}: {self.movement} of {self.tables} tables: {err}"
        times = sorted(set(Counter(b for a in made.assignments if a.plays
                                   for b in a.boards).values()))
        if self.plays in times:
            return None
        said = " or ".join(map(str, times))
        return (f"club {self.id}: plays {self.plays}, but its movement ({made.name}) plays "
                f"each board {said} times: its boards' field results would be held (Law 16) "
                "or released early")


@dataclass(frozen=True, slots=True)
class SimEvent:
    """The event (module docstring); ``deals`` is the PBN text."""

    id: str
    deals: str
    clubs: tuple[Club, ...]
    method: Method = Method.MATCHPOINTS
    small_groups: bool = False   # fouled boards: EBU percentages for groups of 2 or 3
    artificial: str = "session"   # Law 12C2: "session" (12C2(c)) or "fixed" 60/50/40

    def __post_init__(self) -> None:
        _name(self.id, "event id")
        ids = [c.id for c in self.clubs]
        if len(set(ids)) != len(ids):
            raise SimError(f"event {self.id}: a club appears twice ({sorted(ids)})")
        if self.method not in (Method.MATCHPOINTS, Method.CROSS_IMPS, Method.BUTLER):
            raise SimError(f"event {self.id}: a simultaneous pairs is scored mp, crossimp or "
                           f"butler, not {self.method}")
        if self.artificial not in ARTIFICIAL:
            raise SimError(f"event {self.id}: artificial is 'session' or 'fixed' (Law 12C2), "
                           f"not {self.artificial!r}")
        if not self.boards:
            raise SimError(f"event {self.id}: the deals hold no numbered board")

    @property
    def boards(self) -> tuple[int, ...]:
        return tuple(sorted({r.board for r in read_pbn(self.deals, tempo="lazy").records
                             if r.board is not None and r.deal is not None}))

    @property
    def expected(self) -> int:
        """Results expected on each board across the field (Neuberg's E)."""
        return sum(c.plays for c in self.clubs)

    def club(self, club_id: str) -> Club:
        for c in self.clubs:
            if c.id == club_id:
                return c
        raise SimError(f"event {self.id}: no club {club_id!r}")

    @classmethod
    def load(cls, path: Path) -> SimEvent:
        """Read an event file; deals are read beside it (a relative path)."""
        try:
            data = json.loads(path.read_text())
            if data.get("version") != 1:
                raise SimError(f"{path}: version {data.get('version')!r}, expected 1")
            deals = (path.parent / data["deals"]).read_text()
            clubs = tuple(Club(_name(c["id"], "club id"), datetime.fromisoformat(c["start"]),
                               int(c.get("plays", 1)), c.get("movement"), c.get("tables"))
                          for c in data["clubs"])
            small = data.get("small_groups", False)
            if not isinstance(small, bool):
                raise SimError(f"{path}: small_groups is true or false, not {small!r}")
            return cls(_name(data["event"], "event id"), deals, clubs,
                       Method(data.get("method", "mp")), small,
                       data.get("artificial", "session"))
        except SimError:
            raise
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as err:
            raise SimError(f"{path}: not a simultaneous event file: {err!r}") from err


def topic(event: str, club: str, kind: str, board: int | None = None) -> str:
    """The topic of ``kind`` (module docstring) for ``club`` of ``event``."""
    if kind not in KINDS:
        raise ValueError(f"unknown simultaneous topic kind {kind!r}")
    base = f"{ROOT}/{event}/{club}/{kind}"
    return base if board is None else f"{base}/{board}"


def parse_topic(name: str) -> tuple[str, str, str, int | None]:
    """(event, club, kind, board or None) of a simultaneous topic; SimError if it is not one."""
    parts = name.split("/")
    root = ROOT.split("/")
    if parts[:3] != root or len(parts) not in (6, 7) or parts[5] not in KINDS:
        raise SimError(f"not a simultaneous topic: {name!r}")
    board = None
    if len(parts) == 7:
        if parts[5] != "field" or not parts[6].isdigit():
            raise SimError(f"not a simultaneous topic: {name!r}")
        board = int(parts[6])
    return parts[3], parts[4], parts[5], board


# The organiser's signature -------------------------------------------------------------------

def generate_key() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.generate()


def private_pem(key: Ed25519PrivateKey) -> bytes:
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption())


def public_pem(key: Ed25519PrivateKey | Ed25519PublicKey) -> bytes:
    public = key.public_key() if isinstance(key, Ed25519PrivateKey) else key
    return public.public_bytes(serialization.Encoding.PEM,
                               serialization.PublicFormat.SubjectPublicKeyInfo)


def load_private_key(data: bytes) -> Ed25519PrivateKey:
    key = serialization.load_pem_private_key(data, password=None)
    if not isinstance(key, Ed25519PrivateKey):
        raise SimError("the organiser's key is not an Ed25519 key")
    return key


def load_public_key(data: bytes) -> Ed25519PublicKey:
    try:
        key = serialization.load_pem_public_key(data)
    except ValueError as err:
        raise SimError(f"the organiser's public key is unreadable: {err}") from err
    if not isinstance(key, Ed25519PublicKey):
        raise SimError("the organiser's public key is not an Ed25519 key")
    return key


def sign(key: Ed25519PrivateKey, body: dict[str, Any]) -> bytes:
    """``{"v": 1, "body": <JSON text>, "sig": <base64 Ed25519 of that text>}``."""
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), allow_nan=False)
    signature = key.sign(text.encode())
    return json.dumps({"v": 1, "body": text,
                       "sig": base64.b64encode(signature).decode()}).encode()


def open_signed(public: Ed25519PublicKey, payload: bytes) -> dict[str, Any]:
    """The body of a signed message, once its signature is checked; SimError if forged or
    malformed."""
    try:
        outer = json.loads(payload)
        if not isinstance(outer, dict) or outer.get("v") != 1:
            raise SimError("a signed message of an unknown version")
        text, signature = outer["body"], base64.b64decode(outer["sig"], validate=True)
        public.verify(signature, text.encode())
        body = json.loads(text)
    except InvalidSignature:
        raise SimError("the signature is not the organiser's: refused") from None
    except (ValueError, KeyError, TypeError) as err:
        raise SimError(f"a malformed signed message: {err!r}") from err
    if not isinstance(body, dict):
        raise SimError("a signed message whose body is not an object")
    return body
