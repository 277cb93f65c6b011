"""A club's broker restarted while its line to the organiser is down (hub.simultaneous,
docs/simultaneous.md): the results it had queued for the bridge survive the restart
(Mosquitto's persistence, the bridge's ``cleansession false``) and reach the organiser once
each when the line is back."""

from __future__ import annotations

import contextlib
import queue
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from hub.mosquitto import Mosquitto
from hub.simultaneous import SimEvent
from hub.simultaneous.bridging import bridge_stanza, organiser_listener, write_organiser_files
from hub.simultaneous.club import ClubLink
from hub.simultaneous.event import generate_key, load_public_key, public_pem, topic
from hub.simultaneous.organiser import Organiser
from tests.hub.simultaneous.helpers import Relay, club_results, make_event, write_accounts
from wire.mqtt import Message, MqttClient

T0 = datetime(2026, 4, 12, 18, 0, tzinfo=UTC)
HUB_PASSWORD = "club-hub-secret-0123456789"


@dataclass
class West:
    """The organiser's Mosquitto and club west's, bridged (through ``relay`` when there is
    one), with the accounts' URLs."""

    event: SimEvent
    org: Mosquitto
    club: Mosquitto
    relay: Relay | None
    org_url: str
    club_url: str


def bridged_west(tmp_path: Path, closing: list[object], *, relay: bool) -> West:
    event = make_event({"west": (T0, 3)}, boards=3)
    files = write_organiser_files(event, tmp_path / "organiser")
    org = Mosquitto(tmp_path / "organiser" / "broker", open_access=True,
                    listener_extra=organiser_listener(files))
    closing.append(org)
    line = Relay(org.port) if relay else None
    if line is not None:
        closing.append(line)
    stanza = bridge_stanza(event, "west", files.passwords["west"], host="127.0.0.1",
                           port=org.port if line is None else line.port, ca_file=None)
    local = write_accounts(tmp_path / "west", {"tenace-hub": (HUB_PASSWORD, ["topic readwrite #"])})
    club = Mosquitto(tmp_path / "west" / "broker", (*local, *stanza.strip().splitlines()),
                     open_access=True)
    closing.append(club)
    return West(event, org, club, line,
                org.url.replace("mqtt://", f"mqtt://organiser:{files.passwords['organiser']}@"),
                club.url.replace("mqtt://", f"mqtt://tenace-hub:{HUB_PASSWORD}@"))


def test_queued_results_survive_the_clubs_broker_restart(tmp_path: Path,
                                                         closing: list[object]) -> None:
    west = bridged_west(tmp_path, closing, relay=True)
    event, org, club, relay = west.event, west.org, west.club, west.relay
    assert relay is not None
    key = generate_key()
    organiser = Organiser(event, west.org_url, key, now=lambda: T0)
    closing.append(organiser)
    link = ClubLink(event.id, "west", west.club_url, load_public_key(public_pem(key)))
    closing.append(link)
    organiser.start()
    link.start()
    assert link.wait_for(lambda lk: lk.deals is not None, 60), (
        "no deals through the bridge; the club's broker's log:\n"
        + club.log.read_text(errors="replace")[-3000:]
        + "\nthe organiser's broker's log:\n" + org.log.read_text(errors="replace")[-3000:])

    rows = club_results("west", 3, 3, seed=3)
    relay.cut()
    for row in rows:
        link.publish_result(row["id"], row["board"], row["ns"], row["ew"], row["score_ns"])
    for board in (1, 2, 3):
        link.publish_finished(board, 3)
    link.client.publish("tenace/sim/v1/sim-test/west/finished", b'{"v": 1, "board": 1, '
                        b'"results": 3}', wait=True)   # all of them are in the club's broker
    club.restart()                                     # gracefully: it saves its queues
    relay.restore()
    assert organiser.wait_for(lambda f: len(f.results) == len(rows)
                              and len(f.finished_boards("west")) == 3, 90), \
        f"{len(organiser.field.results)} of {len(rows)} results reached the organiser"
    assert link.wait_for(lambda lk: lk.ranking is not None, 60), "no ranking back"
    assert len(organiser.field.results) == len(rows)


def test_deals_released_while_no_club_link_listens_are_kept_on_the_clubs_broker(
        tmp_path: Path, closing: list[object]) -> None:
    """The organiser releases a club's deals while the club's bridge is up but its
    ``sim-event club`` is not yet running: the club's broker keeps them (retained), and the
    link started afterwards gets them. A bridge that does not say it is a bridge
    (``try_private false``) is sent a live message as to any client, without its retain flag:
    the club's broker passed the deals on to nobody and forgot them."""
    west = bridged_west(tmp_path, closing, relay=False)
    event, club_url, org_url = west.event, west.club_url, west.org_url
    key = generate_key()
    watcher = MqttClient(club_url, "watcher", clean_session=True).wait_connected()
    closing.append(watcher)
    watcher.subscribe(topic(event.id, "west", "deals"))
    watcher.subscribe(topic(event.id, "west", "ranking"))
    probe = MqttClient(org_url, "probe", clean_session=True).wait_connected()
    closing.append(probe)
    deadline = time.monotonic() + 60          # a guard: the bridge is up and subscribed
    got: list[Message] = []
    while not got and time.monotonic() < deadline:
        probe.publish(topic(event.id, "west", "ranking"), b"{}", wait=True)
        with contextlib.suppress(queue.Empty):
            got.append(watcher.messages.get(timeout=0.5))
    assert got, "the club's bridge never passed the organiser's messages on"
    organiser = Organiser(event, org_url, key, now=lambda: T0)
    closing.append(organiser)
    organiser.start()
    live = watcher.messages.get(timeout=60)
    while live.topic != topic(event.id, "west", "deals"):
        live = watcher.messages.get(timeout=60)
    link = ClubLink(event.id, "west", club_url, load_public_key(public_pem(key)))
    closing.append(link)
    link.start()
    assert link.wait_for(lambda lk: lk.deals is not None, 30), \
        "the deals, released before the club's link started, are not on the club's broker"
    assert link.deals_signed == live.payload
