"""Deal releases only move forward (issue 28; audit `audit28b`): a forged or old genuine
release retained on the club's broker displaced the genuine one, and a club side started
again (``tenace sim-event club``) saw only the refused copy. The link now refuses a release
not later than the one it holds, and starts from the last genuine one kept in the kit
(``KIT/deals.signed``); a refused copy is logged and the club's evening goes on."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

from hub.mosquitto import Mosquitto
from hub.simultaneous.club import ClubLink
from hub.simultaneous.event import generate_key, public_pem, sign, topic
from hub.simultaneous.handover import SIGNED_DEALS
from hub.simultaneous.kit import PUBLIC_KEY, run_club
from hub.simultaneous.organiser import deals_body
from tests.hub.simultaneous.helpers import make_event, until
from wire.mqtt import MqttClient

T0 = datetime(2026, 4, 12, 18, tzinfo=UTC)




def test_an_old_release_replayed_or_a_forged_one_never_replaces_the_genuine(
        tmp_path: Path) -> None:
    event = make_event({"lyon": (T0, 1)}, boards=2)
    key = generate_key()
    old = sign(key, deals_body(event, "lyon", T0))
    new = sign(key, deals_body(event, "lyon", T0 + timedelta(minutes=5)))  # released again
    forged = sign(generate_key(), deals_body(event, "lyon", T0 + timedelta(hours=1)))
    name = topic(event.id, "lyon", "deals")
    with Mosquitto(tmp_path / "broker", open_access=True) as broker:
        attacker = MqttClient(broker.url, "attacker", clean_session=True)
        link = ClubLink(event.id, "lyon", broker.url, key.public_key()).start()
        try:
            attacker.wait_connected()
            attacker.publish(name, old, retain=True, wait=True)
            assert link.wait_for(lambda lk: lk.deals_signed == old, 30)
            attacker.publish(name, new, retain=True, wait=True)   # later: it moves forward
            assert link.wait_for(lambda lk: lk.deals_signed == new, 30)
            attacker.publish(name, old, retain=True, wait=True)   # the old one replayed
            assert link.wait_for(lambda lk: any("old release replayed" in r
                                                for r in lk.refused), 30)
            attacker.publish(name, forged, retain=True, wait=True)
            assert link.wait_for(lambda lk: any("not the organiser's" in r
                                                for r in lk.refused), 30)
            assert link.deals_signed == new and link.deals is not None
            assert link.deals["released"] == (T0 + timedelta(minutes=5)).isoformat()
        finally:
            link.close()
        # Started again with the release it kept: the forged copy retained on the broker
        # is refused, the kept one held from the start; then the old one, retained.
        for retained, words in ((forged, "not the organiser's"), (old, "old release")):
            attacker.publish(name, retained, retain=True, wait=True)
            again = ClubLink(event.id, "lyon", broker.url, key.public_key(), kept=new)
            assert again.deals_signed == new
            again.start()
            try:
                assert again.wait_for(lambda lk, w=words: any(w in r for r in lk.refused), 30)
                assert again.deals_signed == new
            finally:
                again.close()
        attacker.close()
        # A kept file that is not genuine is refused, not taken.
        bad = ClubLink(event.id, "lyon", broker.url, key.public_key(), kept=forged)
        assert bad.deals is None and "kept deals" in bad.refused[0]


def test_sim_event_club_started_again_keeps_its_genuine_deals(tmp_path: Path) -> None:
    """``run_club`` started again while a forged release is retained on the club's broker:
    the kit's deals stay the genuine ones, and the club's side runs on."""
    event = make_event({"lyon": (T0, 1)}, boards=2)
    key = generate_key()
    kit = tmp_path / "kit"
    kit.mkdir()
    (kit / PUBLIC_KEY).write_bytes(public_pem(key))
    genuine = sign(key, deals_body(event, "lyon", T0))
    (kit / SIGNED_DEALS).write_bytes(genuine)
    stop = threading.Event()
    with Mosquitto(tmp_path / "broker", open_access=True) as broker:
        attacker = MqttClient(broker.url, "attacker", clean_session=True)
        attacker.wait_connected()
        attacker.publish(topic(event.id, "lyon", "deals"),
                         sign(generate_key(), deals_body(event, "lyon", T0)),
                         retain=True, wait=True)
        attacker.close()
        worker = threading.Thread(target=run_club, args=(
            kit, event.id, "lyon", broker.url, 1, stop), kwargs={"poll": 0.05})
        worker.start()
        try:
            assert until(lambda: (kit / "deals.pbn").exists()), "the kept deals not written"
            assert (kit / "deals.pbn").read_text() == event.deals
            assert (kit / SIGNED_DEALS).read_bytes() == genuine
            assert worker.is_alive()
        finally:
            stop.set()
            worker.join(30)
    assert not worker.is_alive()
    assert (kit / SIGNED_DEALS).read_bytes() == genuine
