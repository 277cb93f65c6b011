"""The tablet's outbox (tablet/outbox.py): a persistent FIFO numbered as the hub wants it."""

from __future__ import annotations

import math
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hub.store import EventLog
from wire.outbox import OUTBOX_NAME, InvalidEventError, Outbox, OutboxError
from wire.protocol import Envelope, Reply

REPO = Path(__file__).resolve().parents[2]


def call(seat: str, bid: str) -> dict[str, object]:
    return {"seat": seat, "call": bid}


def reject(ref: str, code: str = "not_your_turn", reason: str = "it is West's turn") -> Reply:
    return Reply(ref, None, "reject", code, reason, 0.0)


def test_events_are_numbered_in_order_and_leave_when_answered(tmp_path: Path) -> None:
    with Outbox(tmp_path / OUTBOX_NAME, "A1-tab") as box:
        sent = [box.add("call", call(s, "Pass"), 1000.0 + i) for i, s in enumerate("NESW")]
        assert [e.seq for e in sent] == [1, 2, 3, 4]
        assert len({e.id for e in sent}) == 4
        assert all(e.id.startswith("A1-tab-") and e.device == "A1-tab" for e in sent)
        assert box.pending() == sent and box.head() == sent[0] and len(box) == 4
        assert sent[0].time == 1000.0 and sent[0].body == {"seat": "N", "call": "Pass"}
        assert box.done(sent[0].id) == sent[0]
        assert box.done(sent[0].id) is None              # a second reply settles nothing
        refused = reject(sent[2].id)
        assert box.rejected(sent[2].id, refused) == sent[2]
        assert box.pending() == [sent[1], sent[3]] and box.count() == 2
        assert box.rejections() == [(sent[2], "not_your_turn", "it is West's turn")]
        assert box.find(sent[1].id) == sent[1] and box.find(sent[2].id) is None
        assert box.find("nobody-000001") is None


def test_the_queue_and_the_numbering_survive_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "app" / OUTBOX_NAME
    with Outbox(path, "A1-tab") as box:
        first = [box.add("call", call("N", "1C"), 1.0), box.add("call", call("E", "1D"), 2.0)]
        box.done(first[0].id)
    with Outbox(path) as again:                  # the device the file serves
        assert again.device == "A1-tab" and again.pending() == first[1:]
        third = again.add("call", call("S", "1H"), 3.0)
        assert third.seq == 3 and third.id.split("-")[-2] == first[0].id.split("-")[-2]


def test_an_outbox_survives_kill_9_of_the_app(tmp_path: Path) -> None:
    path = tmp_path / OUTBOX_NAME
    script = (
        "import os, signal, sys\n"
        "from wire.outbox import Outbox\n"
        "box = Outbox(sys.argv[1], 'A1-S')\n"
        "for i, seat in enumerate('NESW'):\n"
        "    box.add('call', {'seat': seat, 'call': 'Pass'}, 100.0 + i)\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n")
    done = subprocess.run([sys.executable, "-c", script, str(path)], cwd=REPO, check=False)
    assert done.returncode == -9
    with Outbox(path, "A1-S") as box:
        assert [(e.seq, e.body["seat"]) for e in box.pending()] == [
            (1, "N"), (2, "E"), (3, "S"), (4, "W")]
        assert box.add("call", call("N", "1C"), 200.0).seq == 5


@pytest.mark.parametrize(("type_", "body", "time", "why"), [
    ("shout", {}, 1.0, "unknown event type"),
    ("call", {"seat": "N"}, 1.0, "missing field 'call'"),
    ("call", {"seat": "X", "call": "1C"}, 1.0, "seat 'X'"),
    ("card", {"seat": "N", "card": 7}, 1.0, "must be str"),
    ("call", {"seat": "N", "call": "1C"}, math.nan, "not JSON"),
    ("call", {"seat": "N", "call": {1, 2}}, 1.0, "not JSON"),
])
def test_an_event_the_hub_would_refuse_as_malformed_is_not_stored(
        tmp_path: Path, type_: str, body: dict[str, object], time: float, why: str) -> None:
    with Outbox(tmp_path / OUTBOX_NAME, "A1-tab") as box:
        with pytest.raises(InvalidEventError, match=why):
            box.add(type_, body, time)
        assert len(box) == 0 and box.last_seq == 0
        assert box.add("call", call("N", "1C"), 1.0).seq == 1


def test_a_new_device_id_numbers_afresh_and_the_old_one_goes_on(tmp_path: Path) -> None:
    """The hub keeps each device's last seq and table: a tablet moved to another table, or a
    spare, takes an id of its own; going back to an id continues its numbering."""
    path = tmp_path / OUTBOX_NAME
    with Outbox(path, "A1-tab") as box:
        old = box.add("call", call("N", "1C"), 1.0)
        box.done(old.id)
    with Outbox(path, "A2-tab") as moved:        # nothing pending: it just switches
        new = moved.add("call", call("N", "1C"), 2.0)
        assert (new.device, new.seq) == ("A2-tab", 1) and new.id != old.id
        moved.rejected(new.id, reject(new.id))
    with Outbox(path, "A1-tab") as back:
        assert back.add("call", call("E", "Pass"), 3.0).seq == 2


def test_pending_events_of_another_device_are_never_sent_under_a_new_id(
        tmp_path: Path) -> None:
    path = tmp_path / OUTBOX_NAME
    with Outbox(path, "A1-tab") as box:
        left = [box.add("call", call("N", "1C"), 1.0), box.add("call", call("E", "X"), 2.0)]
    with pytest.raises(OutboxError, match=r"2 event\(s\) of device A1-tab not delivered"):
        Outbox(path, "A1-tab.spare")
    with Outbox(path, "A1-tab.spare", abandon_pending=True) as spare:
        assert spare.device == "A1-tab.spare" and spare.pending() == []
        mine = [spare.add("call", call("S", "Pass"), 3.0), spare.add("call", call("W", "1C"), 4.0)]
        assert [e.seq for e in mine] == [1, 2]
        assert spare.reset("A3-tab") == mine
        assert spare.device == "A3-tab" and len(spare) == 0
    with Outbox(path, "A1-tab") as first:        # abandoned, kept, never pending again
        assert first.pending() == [] and first.last_seq == len(left)


def test_ids_differ_when_a_lost_outbox_is_replaced(tmp_path: Path) -> None:
    """Were the file lost, a new one numbers from 1 again: its ids must still be new, or the
    hub would acknowledge them as duplicates without applying them."""
    with Outbox(tmp_path / "a.sqlite3", "A1-tab") as one, \
            Outbox(tmp_path / "b.sqlite3", "A1-tab") as two:
        first, second = (b.add("call", call("N", "1C"), 1.0) for b in (one, two))
        assert first.seq == second.seq == 1 and first.id != second.id


def test_long_device_ids_still_give_valid_envelope_ids(tmp_path: Path) -> None:
    device = "x" * 64
    with Outbox(tmp_path / OUTBOX_NAME, device) as box:
        env = box.add("call", call("N", "1C"), 1.0)
        assert Envelope.from_json(env.to_json()) == env and len(env.id) == 64


@pytest.mark.parametrize("device", ["", "A1 tab", "é", "x" * 65])
def test_a_bad_device_id_is_refused(tmp_path: Path, device: str) -> None:
    with pytest.raises(ValueError, match="device id"):
        Outbox(tmp_path / OUTBOX_NAME, device)


def test_a_file_that_is_not_an_outbox_is_refused_and_left_alone(tmp_path: Path) -> None:
    log_path = tmp_path / "events.sqlite3"
    EventLog.open(log_path).close()
    before = log_path.read_bytes()
    with pytest.raises(OutboxError, match="not a Tenace outbox"):
        Outbox(log_path, "A1-tab")
    assert log_path.read_bytes() == before
    text = tmp_path / "notes.txt"
    text.write_text("hello, this is not a database at all" * 50)
    with pytest.raises(OutboxError, match=re.escape(str(text))):
        Outbox(text, "A1-tab")
    with pytest.raises(OutboxError, match="directory"):
        Outbox(tmp_path, "A1-tab")
    with pytest.raises(OutboxError, match="needs its device id"):
        Outbox(tmp_path / "new.sqlite3")


def test_closed_outbox_says_so(tmp_path: Path) -> None:
    box = Outbox(tmp_path / OUTBOX_NAME, "A1-tab")
    box.close()
    box.close()
    assert box.closed
    with pytest.raises(OutboxError, match="closed"):
        box.add("call", call("N", "1C"), 1.0)


def test_threads_adding_at_once_get_distinct_rising_numbers(tmp_path: Path) -> None:
    with Outbox(tmp_path / OUTBOX_NAME, "A1-tab") as box:
        def enter(seat: str) -> None:
            for _ in range(25):
                box.add("call", call(seat, "Pass"), 1.0)

        threads = [threading.Thread(target=enter, args=(s,)) for s in "NESW"]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert [e.seq for e in box.pending()] == list(range(1, 101))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["add", "done", "reject", "reopen"]),
                          st.integers(0, 5)), max_size=40))
def test_pending_is_always_what_was_added_and_not_answered_in_order(
        steps: list[tuple[str, int]]) -> None:
    """Invariant: pending() lists exactly the envelopes added and not yet answered, by seq;
    seq rises by one per add, across reopenings."""
    box = Outbox(":memory:", "A1-tab")
    expected: list[Envelope] = []
    added = 0
    try:
        for op, k in steps:
            if op == "add":
                expected.append(box.add("call", call("NESW"[k % 4], "Pass"), float(k)))
                added += 1
                assert expected[-1].seq == added
            elif op == "reopen":
                assert box.reset("A1-tab") == []
            elif expected:
                env = expected.pop(k % len(expected))
                settled = (box.done(env.id) if op == "done"
                           else box.rejected(env.id, reject(env.id)))
                assert settled == env
            assert box.pending() == expected
    finally:
        box.close()
