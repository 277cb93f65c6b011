"""Setting a simultaneous event up (hub.simultaneous.event, .kit, ``tenace sim-event init``):
the event file, the topics, the organiser's signature, and the generated organiser's Mosquitto
run for real: each club's account reads its own deals and nothing of another club's."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from cryptography.x509.oid import NameOID

from bridgecore.usebio import read_usebio
from hub.mosquitto import MOSQUITTO, free_port, wait_for_port
from hub.simultaneous import SimError, SimEvent
from hub.simultaneous.event import (
    generate_key,
    load_public_key,
    open_signed,
    parse_topic,
    public_pem,
    sign,
    topic,
)
from hub.simultaneous.handover import club_identity
from hub.simultaneous.kit import FIELD_FILE, JOURNAL_FILE, organiser_url, run_organiser
from hub.tls import read_certificate
from tenace.cli import main
from tests.hub.simultaneous.helpers import certificate_client, deals_pbn, until, write_event_file
from wire.mqtt import MqttClient
from wire.processes import stop_process


def test_the_event_file_is_read_with_its_deals_and_clubs(tmp_path: Path) -> None:
    event = SimEvent.load(write_event_file(tmp_path))
    assert event.boards == (1, 2, 3)
    assert event.expected == 9
    assert event.club("york").start.utcoffset() is not None
    assert event.club("lyon").start < event.club("york").start   # 17:00 UTC before 18:00


@pytest.mark.parametrize(("clubs", "words"), [
    ([{"id": "A B", "start": "2026-04-12T19:00:00+00:00"}], "club id"),
    ([{"id": "a", "start": "2026-04-12T19:00:00"}], "time zone"),
    ([{"id": "a", "start": "2026-04-12T19:00:00+00:00"}] * 2, "twice"),
    ([{"id": "a"}], "not a simultaneous event file"),
])
def test_a_bad_event_file_is_refused_by_name(tmp_path: Path, clubs: list[dict[str, object]],
                                             words: str) -> None:
    with pytest.raises(SimError, match=words):
        SimEvent.load(write_event_file(tmp_path, clubs))


def test_topics_round_trip_and_others_are_refused() -> None:
    assert parse_topic(topic("spring", "lyon", "field", 7)) == ("spring", "lyon", "field", 7)
    assert parse_topic(topic("spring", "lyon", "result")) == ("spring", "lyon", "result", None)
    for bad in ("tenace/sim/v1/spring/lyon/hands", "tenace/sim/v1/spring/lyon/result/3",
                "tenace/v1/spring/lyon/result", "tenace/sim/v1/spring/lyon/field/x"):
        with pytest.raises(SimError):
            parse_topic(bad)


def test_deals_signed_by_the_organiser_and_nobody_else() -> None:
    key = generate_key()
    public = load_public_key(public_pem(key))
    payload = sign(key, {"event": "spring", "pbn": deals_pbn(1)})
    assert open_signed(public, payload)["pbn"] == deals_pbn(1)
    with pytest.raises(SimError, match="not the organiser's"):
        open_signed(public, sign(generate_key(), {"event": "spring"}))
    outer = json.loads(payload)
    outer["body"] = outer["body"].replace('"spring"', '"autumn"')   # altered on the way
    with pytest.raises(SimError, match="not the organiser's"):
        open_signed(public, json.dumps(outer).encode())
    with pytest.raises(SimError, match="malformed"):
        open_signed(public, b"{not json")




def test_init_writes_a_working_organiser_broker_and_club_kits(tmp_path: Path) -> None:
    port, bridge_port = free_port(), free_port()
    out = tmp_path / "out"
    assert main(["sim-event", "init", str(write_event_file(tmp_path)), str(out),
                 "--host", "localhost", "--port", str(port),
                 "--bridge-port", str(bridge_port)]) == 0
    kit = out / "clubs" / "lyon"
    stanza = (kit / "bridge.conf").read_text()
    assert "cleansession false" in stanza and "bridge_cafile" in stanza
    assert f"address localhost:{bridge_port}" in stanza
    # The club logs in with its certificate (its name the club's), never a password.
    assert "remote_password" not in stanza and "bridge_certfile" in stanza
    assert "lyon:" not in (out / "organiser" / "sim.passwd").read_text()
    certificate = read_certificate(kit / "bridge.crt")
    assert certificate.subject.get_attributes_for_oid(NameOID.COMMON_NAME)[0].value == "lyon"
    assert os.stat(kit / "bridge.key").st_mode & 0o077 == 0
    assert [line for line in stanza.splitlines() if line.startswith("topic ")] == [
        "topic tenace/sim/v1/spring/lyon/result out 1",
        "topic tenace/sim/v1/spring/lyon/finished out 1",
        "topic tenace/sim/v1/spring/lyon/deals in 1",
        "topic tenace/sim/v1/spring/lyon/field/# in 1",
        "topic tenace/sim/v1/spring/lyon/ranking in 1"]
    assert os.stat(kit / "bridge.conf").st_mode & 0o077 == 0
    assert "local_username sim-link.bridge" in stanza
    assert club_identity(kit) == ("spring", "lyon")   # for tenace hub --sim-kit
    assert os.stat(out / "organiser" / "signing.key").st_mode & 0o077 == 0
    assert (kit / "organiser.pub").read_bytes() == (out / "organiser" / "organiser.pub"
                                                    ).read_bytes()
    assert main(["sim-event", "init", str(tmp_path / "event.json"), str(out),
                 "--host", "localhost"]) == 2     # keys there already: kept

    conf = out / "organiser" / "mosquitto.conf"
    if os.geteuid() == 0:
        conf.write_text(conf.read_text() + "user root\n")
    log = (tmp_path / "mosquitto.log").open("wb")
    broker = subprocess.Popen([MOSQUITTO, "-c", str(conf)], stdout=log, stderr=subprocess.STDOUT)
    clients: list[MqttClient] = []
    bridges: list[Any] = []
    try:
        assert wait_for_port(port, 10.0, broker)
        assert wait_for_port(bridge_port, 10.0, broker)
        ca = out / "organiser" / "tls" / "ca.crt"
        seen: dict[str, list[tuple[str, bytes]]] = {"lyon": [], "york": []}
        for club in ("lyon", "york"):   # as its bridge: its certificate, on the bridge port
            folder = out / "clubs" / club
            bridges.append(certificate_client(bridge_port, ca, folder / "bridge.crt",
                                              folder / "bridge.key", club, "tenace/sim/#",
                                              seen[club]))
        organiser = MqttClient(organiser_url(out, f"localhost:{port}"), "organiser",
                               clean_session=True)
        clients.append(organiser)
        organiser.wait_connected()
        organiser.publish(topic("spring", "lyon", "deals"), b"lyon's deals", retain=True,
                          wait=True)
        organiser.publish(topic("spring", "york", "deals"), b"york's deals", retain=True,
                          wait=True)
        for club in ("lyon", "york"):   # after the deals, in order: the last to arrive
            organiser.publish(topic("spring", club, "ranking"), b"end", wait=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not all(
                m and m[-1][1] == b"end" for m in seen.values()):
            time.sleep(0.05)
        assert [m[1] for m in seen["lyon"]] == [b"lyon's deals", b"end"]
        assert [m[1] for m in seen["york"]] == [b"york's deals", b"end"]
        # The organiser run from the kit (sim-event run): lyon's start has come (2026-04-12),
        # so its deals are released, signed with the kit's key; york's result is scored.
        stop = threading.Event()
        worker = threading.Thread(target=run_organiser, args=(
            SimEvent.load(tmp_path / "event.json"), out, f"localhost:{port}", stop))
        worker.start()
        try:
            assert until(lambda: any(m[1].startswith(b'{"v": 1') for m in seen["lyon"]))
            public = load_public_key((kit / "organiser.pub").read_bytes())
            signed = next(m for m in seen["lyon"] if m[1].startswith(b'{"v": 1'))
            assert open_signed(public, signed[1])["club"] == "lyon"
            york = bridges[1]
            york.publish(topic("spring", "york", "result"), json.dumps(
                {"v": 1, "id": "A1-1-1", "board": 1, "ns": 1, "ew": 2, "score_ns": 110}))
            assert until(lambda: (out / "ranking.json").exists())
            ranking = json.loads((out / "ranking.json").read_text())["ranking"]
            assert {r["pair"] for r in ranking} == {"york:1", "york:2"}
            # The field's results file, as ECATS publishes them (USEBIO).
            assert until(lambda: (out / FIELD_FILE).exists())
            assert [(r.result.ns, r.result.score_ns) for r in
                    read_usebio((out / FIELD_FILE).read_bytes()).rows] == [("york:1", 110)]
        finally:
            stop.set()
            worker.join(30)
        # Its journal, for its next start: the deals released, york's result as it came.
        journal = [json.loads(line) for line in (out / JOURNAL_FILE).read_text().splitlines()]
        assert [(e["club"], e["kind"]) for e in journal if e["kind"] == "deals"] == [
            ("lyon", "deals"), ("york", "deals")]
        assert [e for e in journal if e["kind"] != "deals"] == [
            {"club": "york", "kind": "result", "data": {"v": 1, "id": "A1-1-1", "board": 1,
                                                       "ns": 1, "ew": 2, "score_ns": 110}}]
        opened = (tmp_path / "mosquitto.log").read_text()
        assert f"port {port}" in opened and f"port {bridge_port}" in opened
        assert "port 1883" not in opened   # its two listeners only
    finally:
        for client in clients:
            client.close()
        for bridge in bridges:
            bridge.loop_stop()
            bridge.disconnect()
        stop_process(broker)
        log.close()


def test_the_organiser_broker_names_its_files_by_absolute_path(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`sim-event init event.json kit` (a relative folder, as docs/simultaneous.md shows it):
    Mosquitto reads a relative path from its own working directory, so the configuration
    must not depend on where the organiser started it (audit of issue 28)."""
    write_event_file(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(["sim-event", "init", "event.json", "kit", "--host", "localhost"]) == 0
    lines = (tmp_path / "kit" / "organiser" / "mosquitto.conf").read_text().splitlines()
    named = {line.split()[0]: line.split(maxsplit=1)[1] for line in lines
             if line.split() and line.split()[0] in (
                 "cafile", "certfile", "keyfile", "password_file", "acl_file",
                 "persistence_location")}
    assert len(named) == 6
    for option, value in named.items():
        assert Path(value).is_absolute(), (option, value)
        assert Path(value).exists(), (option, value)
    assert any("chown mosquitto" in line for line in lines)   # how Mosquitto reads them


def test_the_organiser_service_says_on_its_terminal_what_it_did(tmp_path: Path) -> None:
    """`tenace sim-event run` in a terminal: the deals released to a club, and a club's
    message refused with its reason, are in its log on standard error (they were lost
    before: the command set no logging up; audit of issue 28)."""
    port, bridge_port = free_port(), free_port()
    out = tmp_path / "out"
    assert main(["sim-event", "init", str(write_event_file(tmp_path)), str(out),
                 "--host", "localhost", "--port", str(port),
                 "--bridge-port", str(bridge_port)]) == 0
    conf = out / "organiser" / "mosquitto.conf"
    if os.geteuid() == 0:
        conf.write_text(conf.read_text() + "user root\n")
    broker_log = (tmp_path / "mosquitto.log").open("wb")
    broker = subprocess.Popen([MOSQUITTO, "-c", str(conf)], stdout=broker_log,
                              stderr=subprocess.STDOUT)
    err, said = tmp_path / "run.err", tmp_path / "run.out"
    service: subprocess.Popen[bytes] | None = None
    client: Any = None
    try:
        assert wait_for_port(port, 10.0, broker)
        assert wait_for_port(bridge_port, 10.0, broker)
        with err.open("wb") as sink, said.open("wb") as told:
            service = subprocess.Popen(
                [sys.executable, "-m", "tenace", "sim-event", "run",
                 str(tmp_path / "event.json"), str(out), "--broker", f"localhost:{port}"],
                stdout=told, stderr=sink)
        assert until(lambda: "released to club york" in err.read_text())
        ca = out / "organiser" / "tls" / "ca.crt"
        york = out / "clubs" / "york"   # as york's bridge logs in: its certificate
        client = certificate_client(bridge_port, ca, york / "bridge.crt", york / "bridge.key",
                                    "york", topic("spring", "york", "deals"), [])
        client.publish(topic("spring", "york", "result"), b"not json", 1).wait_for_publish(30)
        assert until(lambda: "dropped tenace/sim/v1/spring/york/result" in err.read_text())
        # A short finished (Law 16; audit audit28b): the operator is told on its terminal.
        client.publish(topic("spring", "york", "finished"),
                       json.dumps({"v": 1, "board": 1, "results": 0}).encode(),
                       1).wait_for_publish(30)
        assert until(lambda: "sim-event spring: club york said board 1 finished with 0 "
                     "results but plays it 4 times" in said.read_text())
        text = err.read_text()
        assert "INFO hub.simultaneous.organiser: deals of spring released to club lyon" in text
    finally:
        if client is not None:
            client.loop_stop()
            client.disconnect()
        if service is not None:
            stop_process(service)
        stop_process(broker)
        broker_log.close()


def test_sim_event_club_takes_its_event_and_club_from_the_kit(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`tenace sim-event club KIT` needs no --event nor --club: the kit says them
    (club.json); given and different, it stops at once naming the kit's, instead of waiting
    for deals on another club's topics that never come (audit of issue 28)."""
    out = tmp_path / "out"
    assert main(["sim-event", "init", str(write_event_file(tmp_path)), str(out),
                 "--host", "localhost"]) == 0
    kit = str(out / "clubs" / "lyon")
    nobody = f"mqtt://sim-link:x@127.0.0.1:{free_port()}"
    capsys.readouterr()
    assert main(["sim-event", "club", kit, "--club", "lyonn", "--broker", nobody,
                 "--plays", "3"]) == 2
    assert "--club lyonn: the kit" in capsys.readouterr().err
    assert main(["sim-event", "club", kit, "--event", "autumn", "--broker", nobody,
                 "--plays", "3"]) == 2
    assert "--event autumn: the kit" in capsys.readouterr().err
    # Without them: the kit's, then the club's broker (none here) is what stops it.
    assert main(["sim-event", "club", kit, "--broker", nobody, "--plays", "3"]) == 2
    err = capsys.readouterr().err
    assert "the kit" not in err and "not connected to 127.0.0.1" in err
    # and its client is closed, not left retrying in the background for ever
    assert _wait_gone("paho-mqtt-client-sim-link"), "the sim-link client still runs"


def _wait_gone(thread_name: str, timeout: float = 30.0) -> bool:
    """Whether no thread of that name runs (waited for: a closed client's thread ends
    shortly after; the ceiling is a guard)."""
    deadline = time.monotonic() + timeout
    while any(t.name == thread_name for t in threading.enumerate()):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True
