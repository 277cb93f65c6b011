"""A command one shard's console sends to another shard (hub.sharding, protocol 17), over a
real Mosquitto: shard 0 a ``tenace hub --shard 0`` process, shard 1 in this process with its
console. The shard that holds what the command names answers on its ``hub/shard/{J}/answer``:
the console's user has that answer, a success or a refusal worded in his language as his own
shard's would be. Shard 0 stopped (SIGSTOP) does not answer: the console says so in words
after its wait, and the command, kept by the broker, is applied once shard 0 goes on; shard 0
killed (SIGKILL) while a command waits: the console says so as soon as its will comes, and
the command is applied when it starts again; shard 0 known offline: the console refuses at
once and sends nothing."""

from __future__ import annotations

import json
import os
import signal
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bridgecore.text import Text
from hub.accounts import event_accounts
from hub.event import EventSetup
from hub.mosquitto import Mosquitto
from hub.shards import Shard
from hub.texts import render
from tests.hub.test_console import Login, make_users
from tests.hub.test_shard_views import two_sections, until
from tests.hub.test_shards import sharded_mosquitto
from wire.mqtt import MqttClient
from wire.protocol import ROOT, topic_hub_command, topic_shard_answer


@pytest.fixture
def event(tmp_path: Path) -> Iterator[tuple[Mosquitto, EventSetup]]:
    """Mosquitto with the event's devices, the director's tools and both shards' accounts."""
    from tenace.live import TOOL_ACCOUNTS

    setup = two_sections()
    with sharded_mosquitto(tmp_path, setup, {**event_accounts(setup), **TOOL_ACCOUNTS},
                           trace=True) as broker:
        yield broker, setup


def test_the_owning_shard_answers_and_the_console_says_it_in_its_users_language(
        event: tuple[Mosquitto, EventSetup], tmp_path: Path) -> None:
    from hub.service import Hub, HubRunner, data_log
    from tenace.sim.chaos import HubProcess

    broker, setup = event
    zero = HubProcess(broker.url, tmp_path / "data", setup, Shard(0, 2))
    zero.start()
    one = Shard(1, 2)
    (tmp_path / "one").mkdir()
    hub = Hub(data_log(tmp_path / "one"), url=broker.url, setup=one.restrict(setup),
              shard=one, client_id=one.account, tick_seconds=0.1, double_dummy=False,
              console=("127.0.0.1", 0),
              console_options={"users": make_users(tmp_path / "users")})
    french = {"Accept-Language": "fr"}
    try:
        with HubRunner(hub) as running:
            console = running.console
            assert console is not None
            director = Login.director(console)   # type: ignore[arg-type]

            def send(**command: Any) -> tuple[int, Any]:
                """POST /api/director as the page does, waiting as long as the console
                may (its answer can take ``answer_seconds``)."""
                request = urllib.request.Request(
                    console.url + "api/director", json.dumps(command).encode(),
                    {"Content-Type": "application/json", "X-CSRF-Token": director.csrf,
                     **french})
                try:
                    with director.opener.open(request, timeout=120) as r:
                        return r.status, json.loads(r.read())
                except urllib.error.HTTPError as err:
                    with err:
                        return err.code, json.loads(err.read())

            def strict(table: str) -> bool:
                with director.open(console.url + "api/room") as r:
                    room = json.loads(r.read())
                return bool(next(t for t in room["tables"] if t["id"] == table)["strict"])

            until(lambda: running.call(lambda: len(running.remote_tables) == 3
                                       and running.shard_online.get(0)))

            # Applied by shard 0: the console confirms it with shard 0's own answer.
            status, answer = send(op="table_mode", table="A2", strict=True)
            assert status == 200, answer
            assert answer["ok"] and answer["forwarded"] and answer["shard"] == 0
            assert answer["fact"] == "table_mode" and answer["alerts"] == []
            assert "ref" not in answer
            until(lambda: strict("A2"))

            # Refused by shard 0: the same refused answer shard 1 gives for its own, in French.
            status, own = send(op="ruling_undo", id="1-R9")
            assert status == 400 and not own.get("forwarded")
            status, theirs = send(op="ruling_undo", id="0-R9")
            assert status == 400 and theirs["forwarded"] and theirs["shard"] == 0
            assert not theirs["ok"]
            assert theirs["error_text"]["key"] == own["error_text"]["key"]
            assert theirs["error_text"]["values"]["reason"]["values"] == {"id": "0-R9"}
            assert theirs["error"] == render(Text.from_json(theirs["error_text"]), "fr")
            assert theirs["error"] == own["error"].replace("1-R9", "0-R9")
            assert theirs["error"] != render(Text.from_json(theirs["error_text"]), "en")

            # Shard 0 stopped, still connected: no answer; the console says so after its
            # wait. The broker keeps the command for it: applied once it goes on.
            assert zero.process is not None
            os.kill(zero.process.pid, signal.SIGSTOP)
            try:
                status, silent = send(op="table_mode", table="A3", strict=True)
            finally:
                os.kill(zero.process.pid, signal.SIGCONT)
            assert status == 400 and silent["shard"] == 0
            assert silent["error_text"] == {"key": "refusal.shard_silent",
                                            "values": {"shard": 0, "seconds": 10}}
            assert silent["error"] == render(Text.from_json(silent["error_text"]), "fr")
            assert "n'a pas répondu" in silent["error"]
            until(lambda: strict("A3"))

            # Shard 0 killed while a command waits for its answer: its will says it is
            # offline, and the console says so then, in French, without waiting longer.
            os.kill(zero.process.pid, signal.SIGSTOP)
            pending: list[tuple[int, Any]] = []
            asking = threading.Thread(target=lambda: pending.append(
                send(op="table_mode", table="A1", strict=True)))
            asking.start()
            until(lambda: running.call(lambda: len(running._waiting) == 1))
            killed = zero.kill()
            asking.join(60.0)
            [(status, stopped)] = pending
            assert status == 400 and stopped["shard"] == 0 and stopped["forwarded"]
            assert stopped["error_text"] == {"key": "refusal.shard_stopped",
                                             "values": {"shard": 0}}
            assert "hors ligne avant de répondre" in stopped["error"]
            assert running.call(lambda: running.shard_online.get(0)) is False

            # Known offline: nothing is sent, the console says why at once, in French.
            watcher = MqttClient(broker.url, "director", clean_session=True, start=False)
            watcher.subscribe(f"{ROOT}/hub/cmd/#", 1, wait=False)
            watcher.start()
            try:
                assert watcher.wait_connected(30.0)
                status, offline = send(op="table_mode", table="A2", strict=False)
                assert status == 400 and offline["shard"] == 0 and not offline["forwarded"]
                assert offline["error_text"] == {"key": "refusal.shard_offline",
                                                 "values": {"shard": 0}}
                assert "hors ligne" in offline["error"]
                # what went on shard 1's hub/cmd meanwhile: nothing before this one
                status, _ = send(op="round_start", round=1)   # the whole room's: sent
                got = watcher.messages.get(timeout=30.0)
                assert got.topic == topic_hub_command(one.account)
                assert json.loads(got.payload)["op"] == "round_start"
            finally:
                watcher.close()

            # Back on its own log: shard 0 applies what the broker kept for it (A1), not
            # what was never sent (A2 stays strict), and answers again.
            zero.start(started_after=killed)
            until(lambda: running.call(lambda: running.shard_online.get(0)))
            try:
                until(lambda: strict("A1"))
            except AssertionError:   # which side missed it: shard 0's log, or shard 1's view
                seen = running.call(lambda: running.remote_tables.get("A1"))
                tail = (zero.data / "hub.out").read_text(errors="replace")[-4000:]
                raise AssertionError(f"A1 not strict on shard 1's console (its summary: "
                                     f"{seen}); shard 0 logged "
                                     f"{_facts(zero.path, 'table_mode')}; its output:\n"
                                     f"{tail}\nthe broker's commands and shard 0's "
                                     f"connections:\n{_commands_traced(broker)}") from None
            assert strict("A2")
            status, answer = send(op="table_mode", table="A2", strict=False)
            assert status == 200 and answer["forwarded"] and answer["shard"] == 0, answer
            until(lambda: not strict("A2"))
    finally:
        zero.stop()
        hub.log.close()


def test_a_shard_answers_only_the_shard_whose_command_carries_a_ref(tmp_path: Path) -> None:
    """The answer goes to the sending shard (``to``), once the batch is stored; a command
    without ``ref`` (an older shard's) is applied with no answer; the director's tools may
    not name ``ref``."""
    from hub.service import Hub, data_log
    from wire.mqtt import Message

    setup = two_sections()
    zero = Hub(data_log(tmp_path), url="mqtt://127.0.0.1:1", setup=Shard(0, 2).restrict(setup),
               shard=Shard(0, 2))
    sent: list[tuple[str, str]] = []

    class Recorder:
        closed = False

        def send(self, topic: str, payload: Any, qos: int = 1, retain: bool = False) -> None:
            sent.append((topic, payload if isinstance(payload, str) else payload.decode()))

    zero._client = Recorder()   # type: ignore[assignment]
    try:
        def give(account: str, **command: Any) -> list[dict[str, Any]]:
            sent.clear()
            zero.handle([Message(topic_hub_command(account), json.dumps(command).encode(),
                                 1, False)])
            return [json.loads(p) for t, p in sent if t == topic_shard_answer(0)]

        mode = {"op": "table_mode", "table": "A1", "strict": True}
        [answer] = give("tenace-hub-1", **mode, by="dora", ref="1-ab-1")
        assert answer == {"v": 1, "to": 1, "ref": "1-ab-1", "shard": 0, "ok": True,
                          "fact": "table_mode", "alerts": []}
        [refused] = give("tenace-hub-1", op="ruling_undo", id="0-R9", by="dora", ref="1-ab-2")
        assert not refused["ok"] and refused["error_text"]["key"] == "refusal.command"
        assert refused["error_text"]["values"]["reason"] == {"key": "refusal.no_ruling",
                                                             "values": {"id": "0-R9"}}
        assert refused["error"] == render(Text.from_json(refused["error_text"]), "en")
        assert "code" not in refused
        assert give("tenace-hub-1", **dict(mode, strict=False), by="dora") == []   # no ref
        assert not zero.room.tables["A1"].strict                          # applied all the same
        assert give("tenace-hub-1", **mode, by="dora", ref="no spaces") == []
        assert give("tenace-hub-1", **dict(mode, table="B1"), by="dora", ref="1-ab-3") == []
        before = zero.room.tables["A1"].strict
        assert give("director", **dict(mode, strict=not before), ref="x") == []
        assert zero.room.tables["A1"].strict == before     # ref: an unknown field there
    finally:
        zero.log.close()


def test_the_protocols_example_is_shard_zeros_answer_to_that_command(tmp_path: Path) -> None:
    """docs/protocol.md's example is what shard 0 answers to shard 1's ``ruling_undo`` of a
    ruling it never gave."""
    from hub.service import Hub, data_log
    from tests.wire.test_protocol_doc import blocks
    from wire.mqtt import Message

    [example] = [b.data for b in blocks() if b.args == "shard-answer"]
    zero = Hub(data_log(tmp_path), url="mqtt://127.0.0.1:1", setup=Shard(0, 2).restrict(
        two_sections()), shard=Shard(0, 2))
    sent: list[tuple[str, str]] = []

    class Recorder:
        closed = False

        def send(self, topic: str, payload: str, qos: int = 1, retain: bool = False) -> None:
            sent.append((topic, payload))

    zero._client = Recorder()   # type: ignore[assignment]
    try:
        command = {"op": "ruling_undo", "id": "0-R9", "by": "dora", "ref": example["ref"]}
        zero.handle([Message(topic_hub_command("tenace-hub-1"), json.dumps(command).encode(),
                             1, False)])
        assert [json.loads(p) for t, p in sent if t == topic_shard_answer(0)] == [example]
    finally:
        zero.log.close()


def _facts(path: Path, kind: str) -> list[Any]:
    """The facts of ``kind`` in a shard's log (another process's: read, never written)."""
    from hub.store import EventLog

    with EventLog.open(path, verify=False, note_head=False) as event_log:
        return [r.data() for r in event_log.replay() if r.type == kind]


def _commands_traced(broker: Mosquitto) -> str:
    """The lines of the broker's log (``log_type all``) on ``hub/cmd`` and on shard 0's
    connections and acknowledgements: where a command went, and whether it came back."""
    words = ("hub/cmd", "as tenace-hub-0", "tenace-hub-0 closed", "tenace-hub-0 disconnected",
             "CONNACK to tenace-hub-0", "PUBACK from tenace-hub-0")
    lines = broker.log.read_text(errors="replace").splitlines()
    return "\n".join(line for line in lines if any(w in line for w in words))[-6000:]
