"""A club hub's link to a simultaneous event, on the club's own broker (its bridge carries the
five topics to and from the organiser: hub.simultaneous.bridging).

The club plays its evening as any other (its log, console and local ranking); beside that it
publishes each result to ``result`` (QoS 1, with an id: a result delivered twice counts once;
a line its hub no longer scores is withdrawn there under the same id) and, once every table
has played a board, ``finished`` with the number of its results on it.
Deals come in on ``deals``: signed by the organiser, checked against the organiser's public key
before anything uses them (a forged or altered deal is refused, logged). A release only moves
forward: a genuine release whose ``released`` time is not later than the one the link holds
(an old one replayed, retained again on the club's broker) is refused and logged too, and the
link keeps the one it had. Started with ``kept`` (``tenace sim-event club``: the last genuine
release, ``KIT/deals.signed``), it holds that one from the start, checked again: a forged or
old copy retained on the club's broker since does not displace it, nor stop the evening.
The field's results of a finished board come in on ``field/<board>``, the field's ranking on
``ranking``.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from datetime import datetime
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from hub.simultaneous.event import ROOT, SimError, open_signed, parse_topic, topic
from wire.mqtt import Message, MqttClient

__all__ = ["ClubLink"]

log = logging.getLogger(__name__)


def _released(body: dict[str, Any]) -> datetime:
    """A release's ``released`` time (aware); SimError if it has none."""
    try:
        released = datetime.fromisoformat(str(body.get("released")))
    except ValueError:
        raise SimError(f"deals released {body.get('released')!r}: not a time") from None
    if released.tzinfo is None:
        raise SimError(f"deals released {released}: no time zone")
    return released


class ClubLink:
    """The link of club ``club`` of event ``event`` through its broker at ``url`` (the club
    hub's own account there, ``client_id``)."""

    def __init__(self, event: str, club: str, url: str, organiser_key: Ed25519PublicKey, *,
                 client_id: str = "tenace-hub", kept: bytes | None = None):
        self.event, self.club, self.key = event, club, organiser_key
        self.deals: dict[str, Any] | None = None
        self.deals_signed: bytes | None = None   # the deals message as it came, checked
        self.refused: list[str] = []
        if kept is not None:
            try:
                self.deals, self.deals_signed = self._open_deals(kept), kept
            except SimError as err:
                log.warning("the kept deals release refused: %s", err)
                self.refused.append(f"kept deals: {err}")
        self.field: dict[int, dict[str, Any]] = {}
        self.ranking: dict[str, Any] | None = None
        self.changed = threading.Condition()
        self.others: Callable[[Message], None] | None = None   # the rest (ClubRelay)
        self.client = MqttClient(url, client_id, on_message=self._take, start=False)

    def start(self) -> ClubLink:
        """Connect and subscribe; MqttError if the club's broker cannot be reached, the
        client closed then (else it would go on retrying in the background)."""
        self.client.start()
        try:
            self.client.wait_connected()
            for kind in ("deals", "ranking"):
                self.client.subscribe(topic(self.event, self.club, kind))
            self.client.subscribe(topic(self.event, self.club, "field") + "/+")
        except BaseException:
            self.client.close(farewell=False)
            raise
        return self

    def close(self) -> None:
        self.client.close()

    def publish_result(self, rid: str, board: int, ns: int | str, ew: int | str,
                       score_ns: int | None, *, version: str = "", deal: str | None = None,
                       adjusted: str = "") -> None:
        """A table's result of ``board`` (``rid``: the club's id for it, stable on resends);
        ``version``/``deal``: the version of a fouled board the table played (Law 87);
        ``adjusted``: the director's adjusted score (Law 12C, ``score_ns`` then the assigned
        score or None; hub.simultaneous.field)."""
        body: dict[str, Any] = {"v": 1, "id": rid, "board": board, "ns": ns, "ew": ew,
                                "score_ns": score_ns}
        if adjusted:
            body["adjusted"] = adjusted
        if version:
            body["version"] = version
        if deal is not None:
            body["deal"] = deal
        self.client.publish(topic(self.event, self.club, "result"), json.dumps(body), 1)

    def publish_withdrawal(self, rid: str, board: int) -> None:
        """The club's hub no longer scores the line ``rid`` of ``board`` (a ruling alone
        withdrawn, a result removed, a line cancelled): on ``result``, after its results, so
        that the organiser takes it as the id's latest version."""
        self.client.publish(topic(self.event, self.club, "result"),
                            json.dumps({"v": 1, "id": rid, "board": board, "withdrawn": True}),
                            1)

    def publish_finished(self, board: int, results: int, *, closed: bool = False) -> None:
        """The club has played ``board`` ``results`` times: it may see the field's results
        (``closed``: its director closed the board with fewer than the club plays, a table
        did not play it; hub.simultaneous.field)."""
        body: dict[str, object] = {"v": 1, "board": board, "results": results}
        if closed:
            body["closed"] = True
        self.client.publish(topic(self.event, self.club, "finished"), json.dumps(body), 1)

    def _open_deals(self, payload: bytes) -> dict[str, Any]:
        """A deals release checked: the organiser's signature, this club's event, its
        ``released`` time (ISO, with its zone)."""
        body = open_signed(self.key, payload)
        if (body.get("event"), body.get("club")) != (self.event, self.club):
            raise SimError(f"deals signed for {body.get('event')}/{body.get('club')}")
        _released(body)
        return body

    @property
    def sync_topic(self) -> str:
        """A topic of the club's own broker (no bridge carries it) for the relay's marker
        (hub.simultaneous.relay): handed to ``others`` like the hub's topics."""
        return f"{ROOT}/{self.event}/{self.club}/relay-sync"

    def _take(self, message: Message) -> None:   # paho's thread: parse and store only
        if self.others is not None and (not message.topic.startswith(ROOT + "/")
                                        or message.topic == self.sync_topic):
            self.others(message)
            return
        try:
            event, club, kind, board = parse_topic(message.topic)
            if (event, club) != (self.event, self.club):
                raise SimError(f"not this club's event: {message.topic}")
            if kind == "deals":
                if message.payload == self.deals_signed:
                    return                        # the release it holds, delivered again
                value: Any = self._open_deals(message.payload)
                with self.changed:
                    held = self.deals
                if held is not None and _released(value) <= _released(held):
                    raise SimError(f"a release of {value['released']}, not after the one "
                                   f"held ({held['released']}): an old release replayed, "
                                   "refused; the one held is kept")
            else:
                value = json.loads(message.payload)
                if not isinstance(value, dict):
                    raise SimError(f"{message.topic}: not an object")
        except (SimError, ValueError) as err:
            log.warning("refused %s: %s", message.topic, err)
            with self.changed:
                self.refused.append(f"{message.topic}: {err}")
                self.changed.notify_all()
            return
        with self.changed:
            if kind == "deals":
                self.deals, self.deals_signed = value, message.payload
            elif kind == "field" and board is not None:
                self.field[board] = value
            elif kind == "ranking":
                self.ranking = value
            self.changed.notify_all()

    def wait_for(self, test: Callable[[ClubLink], bool], timeout: float = 60.0) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: test(self), timeout)
