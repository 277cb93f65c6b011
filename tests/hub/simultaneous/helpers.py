"""What the simultaneous tests share: deals, a field's results, a TCP relay that can be cut
(socat, stopped by its process group), a broker's accounts file."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from hub.accounts import mosquitto_hash
from hub.mosquitto import free_port, wait_for_port
from hub.simultaneous import Club, SimEvent
from hub.simultaneous.field import FieldScorer

RANKS = "AKQJT98765432"
# Scores possible at any vulnerability (no problem of Law 77 whatever the board).
SCORES = (0, 110, -110, 140, -140, 170, -170, 90, -90, 120, 100, -100, 200, -200, 80)


def deals_pbn(boards: int, seed: int = 7) -> str:
    rng = random.Random(seed)
    out = []
    for board in range(1, boards + 1):
        deck = [(s, r) for s in range(4) for r in RANKS]
        rng.shuffle(deck)
        hands = []
        for seat in range(4):
            cards = deck[13 * seat:13 * seat + 13]
            hands.append(".".join("".join(r for r in RANKS if (s, r) in cards)
                                  for s in range(4)))
        out.append(f'[Board "{board}"]\n[Dealer "{"NESW"[(board - 1) % 4]}"]\n'
                   f'[Vulnerable "None"]\n[Deal "N:{" ".join(hands)}"]\n')
    return "\n".join(out)


def write_event_file(folder: Path, clubs: list[dict[str, object]] | None = None) -> Path:
    """``folder/event.json`` (event ``spring``, 3 boards in ``folder/deals.pbn``) with
    ``clubs``, by default lyon (plays 5) and york (plays 4), both starting 2026-04-12."""
    (folder / "deals.pbn").write_text(deals_pbn(3))
    path = folder / "event.json"
    path.write_text(json.dumps({"version": 1, "event": "spring", "deals": "deals.pbn",
                                "clubs": clubs or [
                                    {"id": "lyon", "start": "2026-04-12T19:00:00+02:00",
                                     "plays": 5},
                                    {"id": "york", "start": "2026-04-12T19:00:00+01:00",
                                     "plays": 4}]}))
    return path


def make_event(starts: dict[str, tuple[datetime, int]], boards: int = 4) -> SimEvent:
    return SimEvent("sim-test", deals_pbn(boards),
                    tuple(Club(c, start, plays) for c, (start, plays) in starts.items()))


def club_results(club: str, tables: int, boards: int, seed: int,
                 sit_out: frozenset[tuple[int, int]] = frozenset()) -> list[dict[str, Any]]:
    """Each board played at every table (NS 1..n against EW n+1..2n), but for the (board,
    table) of ``sit_out``; as a club hub publishes them."""
    rng = random.Random(seed)
    return [{"v": 1, "id": f"{club}-b{b}-t{t}", "board": b, "ns": t, "ew": tables + t,
             "score_ns": rng.choice(SCORES)}
            for b in range(1, boards + 1) for t in range(1, tables + 1)
            if (b, t) not in sit_out]


def write_accounts(folder: Path, accounts: dict[str, tuple[str, list[str]]]) -> tuple[str, ...]:
    """A Mosquitto password and ACL file (name -> (password, ACL lines)); the config lines."""
    folder.mkdir(parents=True, exist_ok=True)
    passwd, acl = folder / "local.passwd", folder / "local.acl"
    passwd.write_text("".join(f"{n}:{mosquitto_hash(p)}\n" for n, (p, _) in accounts.items()))
    acl.write_text("".join(f"user {n}\n" + "".join(f"{line}\n" for line in lines)
                           for n, (_, lines) in accounts.items()))
    os.chmod(passwd, 0o600)
    os.chmod(acl, 0o600)
    return (f"password_file {passwd}", f"acl_file {acl}", "allow_anonymous false")


class Relay:
    """socat from a free loopback port to ``target``: a club's line to the organiser, cut
    (every connection through it closed) and restored on the same port."""

    def __init__(self, target: int):
        self.target = target
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.restore()

    def restore(self) -> None:
        self.process = subprocess.Popen(
            ["socat", f"TCP-LISTEN:{self.port},bind=127.0.0.1,reuseaddr,fork",
             f"TCP:127.0.0.1:{self.target}"], start_new_session=True,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        assert wait_for_port(self.port, 10.0, self.process), "socat did not start"

    def cut(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)   # socat and its forked connections
            self.process.wait()
        self.process = None


def scored(field: FieldScorer) -> int:
    """The results the field's last scoring counted: ``field.results`` may already hold
    more, taken by the organiser's worker and not yet scored."""
    return 0 if field.score is None else sum(len(b) for b in field.score.boards.values())


def certificate_client(port: int, ca: Path, cert: Path, key: Path, client_id: str,
                       subscribe: str, seen: list[tuple[str, bytes]]) -> Any:
    """A paho client with a TLS client certificate (as a club's bridge logs in: wire.mqtt
    has no client certificates), connected to ``localhost:port`` and subscribed to
    ``subscribe`` (its SUBACK come), each message it receives appended to ``seen``."""
    import ssl
    import threading

    import paho.mqtt.client as paho
    from paho.mqtt.enums import CallbackAPIVersion

    context = ssl.create_default_context(ssl.Purpose.SERVER_AUTH, cafile=str(ca))
    context.load_cert_chain(str(cert), str(key))
    client = paho.Client(CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=True,
                         protocol=paho.MQTTv311)
    client.tls_set_context(context)
    acked = threading.Event()

    def connected(c: Any, _u: Any, _f: Any, code: Any, _p: Any) -> None:
        if not code.is_failure:
            c.subscribe(subscribe, 1)

    client.on_connect = connected
    client.on_subscribe = lambda *_: acked.set()
    client.on_message = lambda _c, _u, m: seen.append((m.topic, bytes(m.payload)))
    client.connect("localhost", port)
    client.loop_start()
    if not acked.wait(30):     # a guard: it returns as soon as the broker acknowledges
        client.loop_stop()
        raise AssertionError(f"{client_id}: not connected and subscribed on port {port}")
    return client


def until(test: Callable[[], object], timeout: float = 90.0) -> bool:
    """Whether ``test()`` comes true within ``timeout`` seconds (a guard: it returns as soon
    as it does)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if test():
            return True
        time.sleep(0.05)
    return False
