"""The organiser's deals handed to the club hub's set-up, with no manual import.

``tenace sim-event club`` keeps the deals message exactly as it came (``KIT/deals.signed``,
beside the ``deals.pbn`` it writes); the hub, started with ``tenace hub --sim-kit KIT``, runs a
:class:`DealsIntake` that watches that file, checks the organiser's Ed25519 signature itself
(``KIT/organiser.pub``) and that the deals are this event's and this club's, and puts them
into its event set-up (``Hub.replace_setup``, nothing played lost): the tables play, and the
dealing machine deals, the organiser's deals. A forged, tampered or foreign set, one that
lacks a board the club's movement plays, or one that would change a board already started,
is refused with an error naming why, logged, and the set-up is left as it was: a club plays
only the organiser's deals.

``KIT/club.json`` (``tenace sim-event init`` writes it in each club's kit) names the event
and the club: ``{"event": "spring-sim", "club": "lyon"}``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import threading
from pathlib import Path
from typing import Any

from bridgecore.deal import Deal
from bridgecore.errors import BridgeError
from bridgecore.markings import Markings
from bridgecore.pbn import read_pbn
from hub.simultaneous.event import SimError, load_public_key, open_signed

__all__ = ["CLUB_FILE", "SIGNED_DEALS", "DealsIntake", "club_identity", "read_signed_deals",
           "setup_with_deals"]

log = logging.getLogger(__name__)

SIGNED_DEALS = "deals.signed"
CLUB_FILE = "club.json"
PUBLIC_KEY = "organiser.pub"


def club_identity(kit: Path) -> tuple[str, str]:
    """(event, club) of a club's kit (``club.json``)."""
    try:
        data = json.loads((kit / CLUB_FILE).read_text())
        return str(data["event"]), str(data["club"])
    except (OSError, ValueError, KeyError, TypeError) as err:
        raise SimError(f"{kit / CLUB_FILE}: which event and club the kit is for: {err!r}") \
            from err


def read_signed_deals(kit: Path, event: str, club: str) -> dict[str, Any]:
    """The body of ``kit/deals.signed`` once its signature (``kit/organiser.pub``), event and
    club are checked; SimError naming what is wrong."""
    try:
        public = load_public_key((kit / PUBLIC_KEY).read_bytes())
        payload = (kit / SIGNED_DEALS).read_bytes()
    except OSError as err:
        raise SimError(f"{kit}: {err.strerror or err}: {err.filename}") from err
    body = open_signed(public, payload)
    if (body.get("event"), body.get("club")) != (event, club):
        raise SimError(f"deals signed for {body.get('event')}/{body.get('club')}, not "
                       f"{event}/{club}")
    if not isinstance(body.get("pbn"), str):
        raise SimError("signed deals without their PBN text")
    return body


def setup_with_deals(setup: Any, pbn: str, event: str, room: Any = None) -> Any:
    """``setup`` (hub.event.EventSetup) with the boards its sections play dealt from ``pbn``
    (the PBN's Dealer and Vulnerable are the boards' markings, Law 2); SimError if a board
    is missing, or (given the hub's ``room``) if a board already started would change."""
    if getattr(setup, "waiting", False) or not hasattr(setup, "deals"):
        raise SimError("the hub has no event set up yet: set its movement up, the deals then "
                       "come in by themselves")
    try:
        records = read_pbn(pbn, file=f"simultaneous {event}").records
    except BridgeError as err:
        raise SimError(f"the organiser's deals cannot be read: {err}") from err
    deals: dict[int, Deal] = {}
    markings: dict[int, Markings] = {}
    for r in records:
        if r.board is None or r.deal is None or r.board in deals:
            continue
        deals[r.board] = r.deal
        if r.board >= 1:
            markings[r.board] = Markings.given(r.board, r.dealer, r.vulnerability)
    needed = sorted(setup.deals)
    lacking = [b for b in needed if b not in deals]
    if lacking:
        raise SimError(f"the organiser's deals lack boards {lacking} that the club's movement "
                       "plays")
    if room is not None:
        changed = [f"table {tid}, round {number}, board {board}"
                   for tid, table in room.tables.items()
                   for number, board in sorted(table.sittings)
                   if room.deal(board) is not None and room.deal(board) != deals[board]]
        if changed:
            raise SimError("boards already started with other deals: " + "; ".join(changed))
    return dataclasses.replace(
        setup, deals={b: deals[b] for b in needed},
        markings={b: markings[b] for b in needed if b in markings},
        boards_source=f"simultaneous {event}: the organiser's signed deals")


class DealsIntake:
    """Watch ``kit/deals.signed`` and hand each new, checked set to ``hub`` (hub.service.Hub:
    ``setup``, ``room``, ``replace_setup``, ``call``), every ``poll`` seconds."""

    def __init__(self, hub: Any, kit: Path, *, event: str | None = None,
                 club: str | None = None, poll: float = 1.0):
        if event is None or club is None:
            event, club = club_identity(kit)
        self.hub, self.kit, self.event, self.club, self.poll = hub, kit, event, club, poll
        self.taken: str | None = None      # the digest of the set handed over last
        self.refused: list[str] = []
        self.changed = threading.Condition()
        self._seen: bytes | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="sim-deals", daemon=True)

    def start(self) -> DealsIntake:
        self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(10)

    def _run(self) -> None:
        while True:
            self.check()
            if self._stop.wait(self.poll):
                return

    def check(self) -> bool:
        """Take the signed deals if they changed since last seen; whether the set-up now
        holds them."""
        try:
            payload = (self.kit / SIGNED_DEALS).read_bytes()
        except FileNotFoundError:
            return False
        except OSError as err:
            return self._refuse(f"{self.kit / SIGNED_DEALS}: {err.strerror or err}")
        if payload == self._seen:
            return self.taken is not None
        self._seen = payload
        try:
            body = read_signed_deals(self.kit, self.event, self.club)
            pbn = str(body["pbn"])
            new = self.hub.call(lambda: self._replace(pbn))
        except SimError as err:
            return self._refuse(str(err))
        with self.changed:
            self.taken = hashlib.sha256(payload).hexdigest()
            self.changed.notify_all()
        log.info("simultaneous %s: the organiser's deals (boards %s) are the event's deals",
                 self.event, ",".join(map(str, sorted(new.deals))))
        return True

    def _replace(self, pbn: str) -> Any:   # on the hub's loop
        new = setup_with_deals(self.hub.setup, pbn, self.event, self.hub.room)
        if new != self.hub.setup:
            self.hub.replace_setup(new, keep_play=True, account="sim-link")
        return new

    def _refuse(self, why: str) -> bool:
        log.error("simultaneous %s, club %s: deals refused, the set-up keeps its own: %s",
                  self.event, self.club, why)
        with self.changed:
            self.refused.append(why)
            self.changed.notify_all()
        return False

    def wait_for(self, test: Any, timeout: float = 30.0) -> bool:
        with self.changed:
            return bool(self.changed.wait_for(lambda: test(self), timeout))
