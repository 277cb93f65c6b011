"""A result withdrawn (issue 28, docs/simultaneous.md "A line withdrawn"): a club's director
gives an artificial score (Law 12C2(a)) on a board not played at a table, then withdraws it;
the club's relay withdraws the line's id, and the organiser takes it out of the field, scores
again, publishes the board's field results again to the clubs that finished it (Law 16) and
writes its results file without it. First the organiser alone on one Mosquitto (the
withdrawal, its duplicate, the refusals logged); then through three Mosquittos bridged on
loopback (the organiser's and two clubs'), the club's line up, or cut between the ruling and
its withdrawal and restored: the field's ranking is the offline scoring of the results left.
"""

from __future__ import annotations

import json
import logging
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bridgecore.adjusted import BoardResult
from bridgecore.ranking import ScoringOptions, score_event
from bridgecore.usebio import read_usebio
from hub.mosquitto import Mosquitto
from hub.simultaneous.bridging import bridge_stanza, organiser_listener, write_organiser_files
from hub.simultaneous.club import ClubLink
from hub.simultaneous.ecats import field_file
from hub.simultaneous.event import generate_key, load_public_key, public_pem, topic
from hub.simultaneous.field import FieldScorer, field_pair
from hub.simultaneous.organiser import Organiser
from hub.simultaneous.relay import ClubRelay
from tests.hub.simultaneous.helpers import (
    Relay,
    club_results,
    make_event,
    scored,
    write_accounts,
)
from wire.mqtt import Message, MqttClient
from wire.protocol import topic_result, topic_traveller

T0 = datetime(2026, 4, 12, 18, 0, tzinfo=UTC)
HUB_PASSWORD = "club-hub-secret-0123456789"
WITHDRAWN = "organiser never had from it"



def _withdrawal(rid: str, board: int) -> bytes:
    return json.dumps({"v": 1, "id": rid, "board": board, "withdrawn": True}).encode()


def _logged(caplog: pytest.LogCaptureFixture, words: str, timeout: float = 60.0) -> bool:
    """Whether a record holding ``words`` is (or comes, within ``timeout``) in the log."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any(words in r.getMessage() for r in list(caplog.records)):
            return True
        time.sleep(0.05)
    return False


def _offline(rows: list[tuple[str, dict[str, Any]]], expected: int) -> Any:
    return score_event([BoardResult(r["board"], field_pair(c, r["ns"]), field_pair(c, r["ew"]),
                                    r["score_ns"]) for c, r in rows],
                       options=ScoringOptions(expected=expected))


def test_the_organiser_takes_a_withdrawal_and_refuses_anothers(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="hub.simultaneous")
    event = make_event({"lyon": (T0, 3), "york": (T0, 2)}, boards=2)
    lyon, york = club_results("lyon", 3, 2, seed=11), club_results("york", 2, 2, seed=12)
    files: list[bytes] = []
    seen: list[Message] = []
    with Mosquitto(tmp_path / "broker", open_access=True) as broker, \
            Organiser(event, broker.url, generate_key(), now=lambda: T0,
                      on_scored=lambda f: files.append(field_file(f))) as organiser:
        watch = MqttClient(broker.url, "watch", clean_session=True, on_message=seen.append)
        try:
            watch.wait_connected()
            watch.subscribe(topic(event.id, "lyon", "field") + "/+")
            for club, rows in (("lyon", lyon), ("york", york)):
                for row in rows:
                    watch.publish(topic(event.id, club, "result"), json.dumps(row), 1)
                for board in (1, 2):
                    watch.publish(topic(event.id, club, "finished"), json.dumps(
                        {"v": 1, "board": board, "results": len(rows) // 2}), 1)
            assert organiser.wait_for(lambda f: len(f.results) == 10
                                      and f.finished_boards("lyon") == (1, 2), 60)
            gone = lyon[4]                                  # board 2, lyon's second table
            # York withdrawing lyon's result, or one nobody sent; a board not the result's.
            watch.publish(topic(event.id, "york", "result"), _withdrawal(gone["id"], 2), 1)
            assert _logged(caplog, "it is club lyon's, not york's: a club withdraws only "
                                   "its own results")
            watch.publish(topic(event.id, "lyon", "result"), _withdrawal("lyon-b9", 2), 1)
            assert _logged(caplog, f"withdraws result lyon-b9, which the {WITHDRAWN}")
            watch.publish(topic(event.id, "lyon", "result"), _withdrawal(gone["id"], 1), 1)
            assert _logged(caplog, "that result is on board 2")
            assert len(organiser.field.results) == 10
            # Lyon's own withdrawal, delivered twice: out of the field once.
            for _ in range(2):
                watch.publish(topic(event.id, "lyon", "result"), _withdrawal(gone["id"], 2), 1)
            watch.publish(topic(event.id, "lyon", "finished"),
                          json.dumps({"v": 1, "board": 2, "results": 2, "closed": True}), 1)
            assert organiser.wait_for(lambda f: len(f.results) == 9 and f.duplicates == 1
                                      and f.has_finished("lyon", 2), 60)

            def board_2() -> list[dict[str, Any]]:
                found = [json.loads(m.payload) for m in list(seen) if m.topic.endswith("/2")]
                return found[-1]["results"] if found else []
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and len(board_2()) != 4:
                time.sleep(0.05)
        finally:
            watch.close()
    left = [("lyon", r) for r in lyon if r is not gone] + [("york", r) for r in york]
    offline = _offline(left, 5)
    assert organiser.field.score is not None
    assert organiser.field.score.ranking == offline.ranking
    # Published again to lyon, which finished board 2 (Law 16), without the line.
    assert sorted((r["ns"], r["ew"]) for r in board_2()) == sorted(
        (str(s.result.ns), str(s.result.ew)) for s in offline.boards[2])
    rows = read_usebio(files[-1]).rows      # the organiser closed: its last scoring's file
    assert len(rows) == 9
    assert (2, "lyon:2", "lyon:5") not in {(r.result.board, r.result.ns, r.result.ew)
                                           for r in rows}


def _traveller(board: int, rows: list[dict[str, object]]) -> bytes:
    """The hub's traveller (protocol 12.3) of ``board`` in section A."""
    return json.dumps({"v": 1, "section": "A", "key": "A", "board": board, "method": "mp",
                       "fouled": False, "results": rows}).encode()


def _hub_line(table: str, ns: int, ew: int, score: int | None,
              adjustment: str | None = None) -> dict[str, object]:
    return {"table": table, "round": 1, "NS": ns, "EW": ew,
            "contract": None if score is None else "3NT", "score_ns": score, "form": 0,
            "adjustment": adjustment, "ruling": "R1" if adjustment else None,
            "corrected": None, "not_scored": None}


def _hub_result(table: str, board: int, ns: int, ew: int, score: int) -> bytes:
    return json.dumps({"contract": "3NT", "declarer": "S", "tricks": 9, "score_ns": score,
                       "table": table, "round": 1, "board": board, "pairs": {"NS": ns, "EW": ew},
                       "confirmed": True, "ended": 1780000300.5}).encode()


@pytest.mark.parametrize("cut", [False, True], ids=["line up", "cut and restored"])
def test_a_ruling_withdrawn_at_a_club_leaves_the_field_over_bridges_law_12c(
        tmp_path: Path, closing: list[object], caplog: pytest.LogCaptureFixture,
        cut: bool) -> None:
    caplog.set_level(logging.INFO, logger="hub.simultaneous")
    event = make_event({"north": (T0, 3), "south": (T0, 2)}, boards=2)
    files = write_organiser_files(event, tmp_path / "organiser")
    org = Mosquitto(tmp_path / "organiser" / "broker", open_access=True,
                    listener_extra=organiser_listener(files))
    closing.append(org)
    relays, brokers, links = {}, {}, {}
    for club in ("north", "south"):
        relays[club] = Relay(org.port)
        closing.append(relays[club])
        stanza = bridge_stanza(event, club, files.passwords[club], host="127.0.0.1",
                               port=relays[club].port, ca_file=None)
        local = write_accounts(tmp_path / club, {
            "tenace-hub": (HUB_PASSWORD, ["topic readwrite #"])})
        brokers[club] = Mosquitto(tmp_path / club / "broker",
                                  (*local, *stanza.strip().splitlines()), open_access=True)
        closing.append(brokers[club])
    written: list[bytes] = []
    key = generate_key()
    organiser = Organiser(event, org.url.replace(
        "mqtt://", f"mqtt://organiser:{files.passwords['organiser']}@"), key, now=lambda: T0,
        on_scored=lambda f: written.append(field_file(f)))
    closing.append(organiser)
    for club in ("north", "south"):
        url = brokers[club].url.replace("mqtt://", f"mqtt://tenace-hub:{HUB_PASSWORD}@")
        links[club] = ClubLink(event.id, club, url, load_public_key(public_pem(key))).start()
        closing.append(links[club])
    north, south = links["north"], links["south"]
    relay = ClubRelay(north, 3).start()
    closing.append(relay)
    hub = MqttClient(brokers["north"].url.replace(
        "mqtt://", f"mqtt://tenace-hub:{HUB_PASSWORD}@"), "north-hub", clean_session=True)
    closing.append(hub)
    hub.wait_connected()
    organiser.start()
    assert north.wait_for(lambda link: link.deals is not None, 60), "no deals through the bridge"

    # North's hub: three tables; board 2 not played at A2, its director gives A+ A- (12C2(a)).
    played = [("A1", 1, 1, 4, 400), ("A2", 1, 2, 5, 430), ("A3", 1, 3, 6, -50),
              ("A1", 2, 1, 4, 110), ("A3", 2, 3, 6, 140)]
    for table, board, ns, ew, score in played:
        hub.publish(topic_result(table, 1, board), _hub_result(table, board, ns, ew, score),
                    retain=True, wait=True)
    lines = [_hub_line("A1", 1, 4, 110), _hub_line("A3", 3, 6, 140)]
    hub.publish(topic_traveller("A", 2), _traveller(2, [
        *lines, _hub_line("A2", 2, 5, None, "A+ A-")]), retain=True, wait=True)
    south_rows = club_results("south", 2, 2, seed=5)
    for row in south_rows:
        south.publish_result(row["id"], row["board"], row["ns"], row["ew"], row["score_ns"])
    for board in (1, 2):
        south.publish_finished(board, 2)
    ruled = ("north", "A2-1-2")
    assert organiser.wait_for(lambda f: scored(f) == 10 and ruled in f.results
                              and f.finished_boards("north") == (1, 2), 90)
    assert north.wait_for(lambda link: any(r.get("adjustment") == "A+ A-"
                                           for r in link.field.get(2, {}).get("results", ())),
                          60), "north never saw its ruling in the field"

    if cut:
        relays["north"].cut()
    # The director withdraws the ruling: the line leaves the hub's traveller.
    hub.publish(topic_traveller("A", 2), _traveller(2, lines), retain=True, wait=True)
    # South cannot withdraw north's line: on north's topic its bridge does not carry it, on
    # its own the organiser refuses it.
    south.client.publish(topic(event.id, "north", "result"), _withdrawal("A2-1-2", 2), 1)
    south.client.publish(topic(event.id, "south", "result"), _withdrawal("A2-1-2", 2), 1)
    assert _logged(caplog, "it is club north's, not south's: a club withdraws only its own")
    if cut:
        assert ruled in organiser.field.results          # queued at north's broker
        relays["north"].restore()
    assert organiser.wait_for(lambda f: scored(f) == 9 and ruled not in f.results
                              and f.finished_boards("north") == (1, 2), 90), \
        "the withdrawal never reached the organiser"
    assert north.wait_for(lambda link: len(link.field.get(2, {}).get("results", ())) == 4, 60)
    assert not any(r.get("adjustment") for r in north.field[2]["results"])

    # The field is the offline scoring of the results left; nothing counted twice.
    north_rows = [{"id": f"{t}-1-{b}", "board": b, "ns": ns, "ew": ew, "score_ns": s}
                  for t, b, ns, ew, s in played]
    offline = _offline([("north", r) for r in north_rows] + [("south", r) for r in south_rows],
                       5)
    field: FieldScorer = organiser.field
    assert field.score is not None and field.score.ranking == offline.ranking
    assert sorted(rid for club, rid in field.results if club == "north") == sorted(
        r["id"] for r in north_rows)
    assert field.withdrawn == {ruled}
    organiser.close()
    rows = read_usebio(written[-1]).rows
    assert len(rows) == 9 and all(r.result.adjustment is None for r in rows)
