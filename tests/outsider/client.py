"""An outsider's client for the Tenace hub, written from the published protocol alone.

It plays game records (PBN, LIN) through a live `tenace hub` as the protocol's section 18
says, and rebuilds, per record, the line `tenace check --json FILE` prints.  Only paho-mqtt
and the standard library are used; the hub is a black box started as a subprocess.

Usage: python -m tests.outsider.client FILE [LIMIT]
"""

from __future__ import annotations

import json
import math
import os
import re
import secrets
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import paho.mqtt.client as mqtt

ROOT = "tenace/v1"
SEATS = "NESW"
SUITS = "SHDC"
RANKS = "AKQJT98765432"
PACK = {s + r for s in SUITS for r in RANKS}
VUL16 = ["None", "NS", "EW", "All", "NS", "EW", "All", "None",
         "EW", "All", "None", "NS", "All", "None", "NS", "EW"]
TABLE = "A1"
ROUND = 1

# Section 13, first table: the irregularities of the record.
RECORD_KINDS = {
    "wrong_card_count", "duplicate_card", "missing_card", "call_out_of_rotation",
    "insufficient_bid", "inadmissible_double", "inadmissible_redouble", "bid_above_seven",
    "call_in_breach_of_pass_obligation", "call_after_final_pass", "change_of_call",
    "lead_out_of_turn", "play_out_of_turn", "card_not_in_hand", "card_played_twice",
    "revoke", "disputed_claim",
}
DEAL_KINDS = {"wrong_card_count", "duplicate_card", "missing_card"}


def law2(number: int) -> tuple[str, str]:
    """Law 2's dealer and vulnerability for a board number (section 8)."""
    return SEATS[(number - 1) % 4], VUL16[(number - 1) % 16]


def lho(seat: str) -> str:
    return SEATS[(SEATS.index(seat) + 1) % 4]


def partner(seat: str) -> str:
    return SEATS[(SEATS.index(seat) + 2) % 4]


def rho(seat: str) -> str:
    return SEATS[(SEATS.index(seat) + 3) % 4]


def side(seat: str) -> str:
    return "NS" if seat in "NS" else "EW"


# --------------------------------------------------------------------------- records


class Record:
    """One game of a file, as the client understands it."""

    def __init__(self) -> None:
        self.number: int | None = None
        self.dealer: str | None = None
        self.vul: str | None = None
        self.hands: dict[str, list[str] | None] | None = None  # None: no deal at all
        self.calls: list[tuple[str, str, bool, str | None]] = []  # seat, call, alert, expl.
        self.contract: str | None = None  # "4HX", "PASS"
        self.declarer: str | None = None
        self.result: int | None = None  # declarer's tricks
        self.result_sides: dict[str, int] = {}
        self.play_first: str | None = None  # PBN: seat of the first column
        self.play_tricks: list[list[tuple[str, str | None]]] = []  # PBN: columns
        self.play_seq: list[tuple[str | None, str]] | None = None  # LIN: in play order

    def four_hands(self) -> bool:
        """Four hands known, and not an end position (section 18 step 3)."""
        if not self.hands or any(h is None for h in self.hands.values()):
            return False
        counts = {len(h) for h in self.hands.values()}  # type: ignore[arg-type]
        return not (len(counts) == 1 and counts.pop() < 13)

    def sound(self) -> bool:
        if not self.four_hands():
            return False
        cards = [c for h in self.hands.values() for c in h]  # type: ignore[union-attr]
        return all(len(h) == 13 for h in self.hands.values()) and len(set(cards)) == 52  # type: ignore[arg-type]

    def own_markings(self) -> tuple[str | None, str | None]:
        d2, v2 = law2(self.number) if self.number else (None, None)
        return self.dealer or d2, self.vul or v2

    def declarer_tricks(self, declarer: str | None) -> int | None:
        if self.result is not None:
            return self.result
        if declarer and self.result_sides:
            mine, other = side(declarer), "EW" if side(declarer) == "NS" else "NS"
            if mine in self.result_sides:
                return self.result_sides[mine]
            if other in self.result_sides:
                return 13 - self.result_sides[other]
        return None


def norm_card(tok: str) -> str | None:
    t = tok.strip().upper().replace("10", "T")
    if len(t) == 2 and t[0] in SUITS and t[1] in RANKS:
        return t
    return None


def norm_call(tok: str) -> str | None:
    t = tok.strip().rstrip("!?").upper()
    if t in ("PASS", "P"):
        return "Pass"
    if t in ("X", "D", "DBL"):
        return "X"
    if t in ("XX", "R", "RDBL"):
        return "XX"
    m = re.fullmatch(r"([1-9])(NT|N|S|H|D|C)", t)
    if m:
        return m.group(1) + ("NT" if m.group(2) in ("N", "NT") else m.group(2))
    return None


def norm_vul(v: str | None) -> str | None:
    if v is None:
        return None
    v = v.strip()
    return {"None": "None", "Love": "None", "-": "None", "NS": "NS", "EW": "EW",
            "All": "All", "Both": "All"}.get(v)


def parse_hand(text: str) -> list[str] | None:
    text = text.strip()
    if text in ("-", ""):
        return None
    parts = text.split(".")
    if len(parts) != 4:
        return None
    cards = []
    for suit, ranks in zip(SUITS, parts, strict=True):
        for r in ranks.upper().replace("10", "T"):
            cards.append(suit + r)
    return cards


def parse_pbn_deal(value: str) -> dict[str, list[str] | None] | None:
    m = re.fullmatch(r"\s*([NESWnesw])\s*:(.*)", value or "")
    if not m:
        return None
    first = SEATS.index(m.group(1).upper())
    parts = m.group(2).split()
    if len(parts) != 4:
        return None
    return {SEATS[(first + i) % 4]: parse_hand(p) for i, p in enumerate(parts)}


def auction_over(calls: list[str]) -> bool:
    if len(calls) >= 4 and all(c == "Pass" for c in calls[:4]) and len(calls) == 4:
        return True
    bid = any(c not in ("Pass",) for c in calls)
    return bid and len(calls) >= 4 and calls[-3:] == ["Pass"] * 3


def _pbn_tokens(text: str):
    """Yield ('tag', name, value), ('tok', text) and ('blank',) from a PBN text."""
    lines = text.splitlines()
    buf = []
    for line in lines:
        if line.startswith("%"):
            continue
        buf.append(line)
    text = "\n".join(buf) + "\n"
    i, n = 0, len(text)
    line_has_content = False
    while i < n:
        c = text[i]
        if c == "\n":
            if not line_has_content:
                yield ("blank",)
            line_has_content = False
            i += 1
        elif c in " \t\r":
            i += 1
        elif c == "{":
            j = text.find("}", i)
            j = n if j < 0 else j
            line_has_content = True
            i = j + 1
        elif c == ";":
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif c == "[":
            m = re.compile(r'\[\s*([A-Za-z0-9_]+)\s*"((?:[^"\\]|\\.)*)"\s*\]').match(text, i)
            line_has_content = True
            if m:
                yield ("tag", m.group(1), m.group(2).replace('\\"', '"').replace("\\\\", "\\"))
                i = m.end()
            else:
                i += 1
        else:
            m = re.compile(r"[^\s\[\]{};]+").match(text, i)
            line_has_content = True
            if m is None:  # a stray ']' or '}'
                i += 1
                continue
            yield ("tok", m.group(0))
            i = m.end()


def parse_pbn(text: str) -> list[Record]:
    games: list[list] = []
    cur: list = []
    for t in _pbn_tokens(text):
        if t[0] == "blank":
            if any(x[0] == "tag" for x in cur):
                games.append(cur)
                cur = []
            continue
        cur.append(t)
    if any(x[0] == "tag" for x in cur):
        games.append(cur)

    records = []
    prev: dict[str, str] = {}
    sticky: dict[str, str] = {}
    for game in games:
        tags: dict[str, str] = dict(sticky)
        sections: dict[str, list[str]] = {}
        notes: dict[str, dict[int, str]] = {}
        where = None
        for t in game:
            if t[0] == "tag":
                name, value = t[1], t[2]
                if value == "#":
                    value = prev.get(name, "")
                elif value.startswith("##"):
                    value = value[2:]
                    sticky[name] = value
                if name == "Note":
                    m = re.match(r"\s*(\d+)\s*:(.*)", value, re.S)
                    if m and where in ("Auction", "Play"):
                        notes.setdefault(where, {})[int(m.group(1))] = m.group(2).strip()
                    continue
                tags[name] = value
                where = name if name in ("Auction", "Play") else None
                if where:
                    sections[where] = []
            elif where:
                sections[where].append(t[1])
        prev = tags
        records.append(_pbn_record(tags, sections, notes))
    return records


def _pbn_record(tags, sections, notes) -> Record:
    r = Record()
    b = tags.get("Board", "").strip()
    if b.isdigit() and 1 <= int(b) <= 999:
        r.number = int(b)
    d = tags.get("Dealer", "").strip().upper()
    r.dealer = d if d in ("N", "E", "S", "W") else None
    r.vul = norm_vul(tags.get("Vulnerable"))
    if "Deal" in tags:
        r.hands = parse_pbn_deal(tags["Deal"])
    c = tags.get("Contract", "").strip().upper()
    if c == "PASS":
        r.contract = "PASS"
    elif re.fullmatch(r"[1-7](NT|S|H|D|C)(X|XX)?", c):
        r.contract = c
    dc = tags.get("Declarer", "").strip().lstrip("^").upper()
    r.declarer = dc if dc in ("N", "E", "S", "W") else None
    res = tags.get("Result", "").strip().lstrip("^")
    if res.isdigit():
        r.result = int(res)
    else:
        for m in re.finditer(r"(NS|EW)\s+(\d+)", res):
            r.result_sides[m.group(1)] = int(m.group(2))
    if "Auction" in sections:
        first = tags.get("Auction", "").strip().upper()
        if first in ("N", "E", "S", "W"):
            _pbn_auction(r, first, sections["Auction"], notes.get("Auction", {}))
    if "Play" in sections:
        first = tags.get("Play", "").strip().upper()
        if first in ("N", "E", "S", "W"):
            r.play_first = first
            cols: list[str | None] = []
            for tok in sections["Play"]:
                if tok == "*":
                    break
                if tok.startswith(("$", "=", "^")) or set(tok) <= set("!?"):
                    continue
                if tok in ("-", "+"):  # an unknown card: skipped (section 18.1)
                    cols.append(None)
                    continue
                card = norm_card(tok.rstrip("!?"))
                if card:
                    cols.append(card)
            for k in range(0, len(cols), 4):
                chunk = cols[k:k + 4]
                r.play_tricks.append([(SEATS[(SEATS.index(first) + i) % 4], cc)
                                      for i, cc in enumerate(chunk)])
    return r


def _pbn_auction(r: Record, first: str, toks: list[str], notes: dict[int, str]) -> None:
    pos = SEATS.index(first)
    made: list[str] = []
    for tok in toks:
        if tok in ("*", "+"):
            break
        m = re.fullmatch(r"=(\d+)=", tok)
        if m:
            if r.calls:
                seat, call, _, _ = r.calls[-1]
                text = notes.get(int(m.group(1)))
                r.calls[-1] = (seat, call, True, text)
            continue
        if tok.startswith("$") or set(tok) <= set("!?") or tok == "^I":
            continue
        if tok in ("-", "^S"):
            pos += 1
            continue
        if tok.upper() == "AP":
            while not auction_over(made):
                seat = SEATS[pos % 4]
                r.calls.append((seat, "Pass", False, None))
                made.append("Pass")
                pos += 1
            break
        call = norm_call(tok)
        if call is None:
            continue
        r.calls.append((SEATS[pos % 4], call, False, None))
        made.append(call)
        pos += 1


LIN_DEALER = {"1": "S", "2": "W", "3": "N", "4": "E"}
LIN_VUL = {"0": "None", "o": "None", "n": "NS", "e": "EW", "b": "All"}


def parse_lin_hand(text: str) -> list[str]:
    cards, suit = [], None
    t = text.upper().replace("10", "T")
    for ch in t:
        if ch in SUITS:
            suit = ch
        elif suit and ch in RANKS:
            cards.append(suit + ch)
    return cards


def parse_lin(text: str) -> list[Record]:
    records: list[Record] = []
    for line in text.splitlines():
        parts = line.strip().split("|")
        pairs = list(zip(parts[0::2], parts[1::2], strict=False))
        cur: Record | None = None
        for key, value in pairs:
            key = key.strip().lower()
            if key == "qx" or (key == "md" and cur is not None and cur.hands is not None):
                cur = Record()
                cur.play_seq = []
                records.append(cur)
                if key == "qx":
                    m = re.search(r"(\d+)", value)
                    if m and 1 <= int(m.group(1)) <= 999:
                        cur.number = int(m.group(1))
                    continue
            if cur is None:
                cur = Record()
                cur.play_seq = []
                records.append(cur)
            if key == "md":
                if value[:1] in LIN_DEALER:
                    cur.dealer = LIN_DEALER[value[0]]
                    value = value[1:]
                hs = value.split(",")
                order = ["S", "W", "N", "E"]
                hands: dict[str, list[str] | None] = {}
                for seat, h in zip(order, (hs + [""] * 4)[:4], strict=True):
                    hands[seat] = parse_lin_hand(h) if h.strip() else None
                missing = [s for s in order if hands[s] is None]
                if len(missing) == 1:
                    used = {c for h in hands.values() if h for c in h}
                    hands[missing[0]] = sorted(PACK - used)
                cur.hands = {s: hands[s] for s in SEATS}
            elif key == "ah":
                m = re.search(r"(\d+)", value)
                if m and 1 <= int(m.group(1)) <= 999:
                    cur.number = int(m.group(1))
            elif key == "sv":
                cur.vul = LIN_VUL.get(value.strip().lower()[:1])
            elif key == "mb":
                alert = "!" in value
                call = norm_call(value.replace("!", ""))
                if call:
                    cur.calls.append((None, call, alert, None))  # type: ignore[arg-type]
            elif key == "an":
                if cur.calls:
                    s, c, a, _ = cur.calls[-1]
                    cur.calls[-1] = (s, c, a, value.replace("+", " "))
            elif key == "pc":
                card = norm_card(value)
                if card:
                    cur.play_seq.append((None, card))  # type: ignore[union-attr]
            elif key == "mc" and value.strip().isdigit():
                cur.result = int(value.strip())
    # LIN calls are in rotation from the dealer.
    for r in records:
        if r.dealer:
            pos = SEATS.index(r.dealer)
            r.calls = [(SEATS[(pos + i) % 4], c, a, e) for i, (_, c, a, e) in enumerate(r.calls)]
        else:
            r.calls = []
    return records


def parse_file(path: str | Path) -> list[Record]:
    path = Path(path)
    text = path.read_bytes().decode("latin-1")
    if path.suffix.lower() == ".lin":
        return parse_lin(text)
    return parse_pbn(text)


# --------------------------------------------------------------------------- numbering


def number_records(records: list[Record]) -> tuple[list[int], int]:
    """Section 18 step 1: a distinct hub number per record, and boards_per_round."""
    hub: list[int | None] = [None] * len(records)
    taken: set[int] = set()
    for i, r in enumerate(records):
        if r.sound() and r.number and r.number not in taken:
            hub[i] = r.number
            taken.add(r.number)
    free = 1
    for i, r in enumerate(records):
        if r.sound() and hub[i] is None:
            while free in taken:
                free += 1
            hub[i] = free
            taken.add(free)
    top = max([h for h in hub if h] or [1])
    bpr = max(1, math.ceil(top / 2))
    for i, r in enumerate(records):
        if hub[i] is not None:
            continue
        dealer, vul = r.own_markings()
        n = 2 * bpr + 1
        while n < 1000:
            d2, v2 = law2(n)
            if n not in taken and dealer in (None, d2) and vul in (None, v2):
                break
            n += 1
        if n >= 1000:
            raise RuntimeError("no free board number left for a flawed record")
        hub[i] = n
        taken.add(n)
    return hub, bpr  # type: ignore[return-value]


def deal_string(hands: dict[str, list[str]]) -> str:
    out = []
    for seat in SEATS:
        h = hands[seat]
        out.append(".".join("".join(sorted((c[1] for c in h if c[0] == s), key=RANKS.index))
                            for s in SUITS))
    return "N:" + " ".join(out)


FILLER = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"


def write_setup(directory: Path, records: list[Record], hub: list[int], bpr: int) -> Path:
    lines = []
    used = {}
    for r, n in zip(records, hub, strict=True):
        if r.sound():
            used[n] = r
    for n in sorted(set(range(1, 2 * bpr + 1)) | set(used)):
        lines.append(f'[Board "{n}"]')
        r = used.get(n)
        if r is not None:
            dealer, vul = r.own_markings()
            if dealer:
                lines.append(f'[Dealer "{dealer}"]')
            if vul:
                lines.append(f'[Vulnerable "{vul}"]')
            lines.append(f'[Deal "{deal_string(r.hands)}"]')  # type: ignore[arg-type]
        else:
            lines.append(f'[Deal "{FILLER}"]')
        lines.append("")
    deals = directory / "deals.pbn"
    deals.write_text("\n".join(lines), encoding="latin-1")
    event = directory / "event.toml"
    event.write_text(
        "[event]\nclock_tolerance = false\n[boards]\n"
        f"file = {json.dumps(str(deals))}\n"
        "[[section]]\nname = \"A\"\nmovement = \"mitchell\"\ntables = 2\n"
        f"boards_per_round = {bpr}\n", encoding="utf-8")
    return event


# --------------------------------------------------------------------------- MQTT


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def new_client(client_id: str, clean: bool, password: str):
    """Section 2.3: every client connects with an account, its username as client id."""
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id,
                         clean_session=clean, protocol=mqtt.MQTTv311)
    client.username_pw_set(client_id, password)
    return client


class Device:
    """A table device (section 2.3, 19): one numbering, one event in flight."""

    def __init__(self, host: str, port: int, table: str, device: str, kind: str,
                 password: str):
        self.table, self.device, self.kind = table, device, kind
        self.tag = secrets.token_hex(4)
        self.seq = 0
        self.cond = threading.Condition()
        self.replies: dict[str, dict] = {}
        self.ready = False
        self.status = f"{ROOT}/t/{table}/dev/{device}/status"
        self.topics = [f"{ROOT}/t/{table}/state", f"{ROOT}/t/{table}/reply/{device}",
                       f"{ROOT}/t/{table}/cmd", f"{ROOT}/t/{table}/cmd/{device}",
                       f"{ROOT}/hub/status"]
        self.c = new_client(device, clean=False, password=password)
        self.c.will_set(self.status, json.dumps({"online": False}), qos=1, retain=True)
        self.c.on_connect = self._on_connect
        self.c.on_subscribe = self._on_subscribe
        self.c.on_message = self._on_message
        self.c.connect(host, port, keepalive=20)
        self.c.loop_start()
        with self.cond:
            if not self.cond.wait_for(lambda: self.ready, timeout=20):
                raise RuntimeError(f"{device}: no SUBACK")

    def _on_connect(self, client, userdata, flags, reason_code, properties):
        client.subscribe([(t, 1) for t in self.topics])

    def _on_subscribe(self, client, userdata, mid, reason_codes, properties):
        birth = {"online": True, "device": self.device, "table": self.table,
                 "kind": self.kind}
        if self.kind == "tablet":
            birth["seat"] = None
        client.publish(self.status, json.dumps(birth), qos=1, retain=True)
        with self.cond:
            self.ready = True
            self.cond.notify_all()

    def _on_message(self, client, userdata, msg):
        if not msg.topic.endswith(f"/reply/{self.device}") or not msg.payload:
            return
        try:
            reply = json.loads(msg.payload)
        except ValueError:
            return
        with self.cond:
            self.replies[reply.get("ref")] = reply
            self.cond.notify_all()

    def send(self, type_: str, body: dict, when: float) -> dict:
        self.seq += 1
        eid = f"{self.device}-{self.tag}-{self.seq:06d}"
        env = {"v": 1, "id": eid, "device": self.device, "seq": self.seq, "time": when,
               "sent": max(when, time.time()), "type": type_, "body": body}
        topic = f"{ROOT}/t/{self.table}/ev/{self.device}"
        deadline = time.monotonic() + 30
        while True:
            self.c.publish(topic, json.dumps(env), qos=1)
            with self.cond:
                self.cond.wait_for(lambda: eid in self.replies, timeout=3)
                reply = self.replies.get(eid)
            if reply is not None and reply.get("code") != "storage":
                return reply
            if time.monotonic() > deadline:
                raise RuntimeError(f"no reply to {type_} {body}")
            self.replies.pop(eid, None)

    def close(self) -> None:
        info = self.c.publish(self.status, json.dumps({"online": False}), qos=1, retain=True)
        info.wait_for_publish(5)
        self.c.disconnect()
        self.c.loop_stop()


class Watcher:
    """The director's and the results reader's view: alerts, results, the table's state."""

    def __init__(self, host: str, port: int, password: str):
        self.cond = threading.Condition()
        self.alerts: dict[str, dict] = {}
        self.alert_order: dict[str, int] = {}
        self.results: dict[tuple[str, int, int], dict] = {}
        self.state: dict | None = None
        self.state_count = 0
        self.hub_online = False
        self.last_msg = time.monotonic()
        self.subscribed = False
        self.c = new_client("director", clean=True, password=password)  # the director's account
        self.c.on_connect = lambda c, u, f, rc, p: c.subscribe(
            [(f"{ROOT}/director/alert/#", 1), (f"{ROOT}/result/#", 1),
             (f"{ROOT}/t/{TABLE}/state", 1), (f"{ROOT}/hub/status", 1)])
        self.c.on_subscribe = self._on_subscribe
        self.c.on_message = self._on_message
        self.c.connect(host, port, keepalive=20)
        self.c.loop_start()

    def _on_subscribe(self, *a):
        with self.cond:
            self.subscribed = True
            self.cond.notify_all()

    def _on_message(self, client, userdata, msg):
        with self.cond:
            self.last_msg = time.monotonic()
            if not msg.payload:  # a cleared retained topic: no such message
                self.cond.notify_all()
                return
            try:
                data = json.loads(msg.payload)
            except ValueError:
                return
            t = msg.topic[len(ROOT) + 1:].split("/")
            if t[0] == "director" and t[1] == "alert":
                aid = data.get("id")
                old = self.alerts.get(aid)
                if aid not in self.alert_order:
                    self.alert_order[aid] = len(self.alert_order)
                if old is None or data.get("version", 0) >= old.get("version", 0):
                    self.alerts[aid] = data
            elif t[0] == "result" and len(t) == 4:
                self.results[(t[1], int(t[2]), int(t[3]))] = data
            elif t[0] == "t" and t[-1] == "state":
                self.state = data
                self.state_count += 1
            elif t[0] == "hub" and t[1] == "status":
                self.hub_online = bool(data.get("online"))
            self.cond.notify_all()

    def wait(self, pred, timeout: float) -> bool:
        with self.cond:
            return self.cond.wait_for(pred, timeout=timeout)

    def quiet(self, seconds: float, limit: float = 10.0) -> None:
        """Wait until nothing has arrived for `seconds` (no completion signal exists)."""
        end = time.monotonic() + limit
        while time.monotonic() < end:
            with self.cond:
                idle = time.monotonic() - self.last_msg
            if idle >= seconds:
                return
            time.sleep(seconds - idle)

    def close(self) -> None:
        self.c.disconnect()
        self.c.loop_stop()


# --------------------------------------------------------------------------- playing


def trick_winner(cards: list[tuple[str, str]], trump: str | None) -> str:
    best = cards[0]
    for seat, card in cards[1:]:
        b = best[1]
        if card[0] == b[0]:
            if RANKS.index(card[1]) < RANKS.index(b[1]):
                best = (seat, card)
        elif trump and card[0] == trump and b[0] != trump:
            best = (seat, card)
    return best[0]


def play_order(r: Record, trump: str | None) -> list[tuple[str, str]]:
    """The cards in the order they were played: (seat, card)."""
    out: list[tuple[str, str]] = []
    leader = r.play_first
    for trick in r.play_tricks:
        by_seat = dict(trick)
        seq = []
        for i in range(4):
            seat = SEATS[(SEATS.index(leader) + i) % 4]
            card = by_seat.get(seat)
            if card is None:  # unknown: skipped, the trick's other cards are sent (18.1)
                continue
            seq.append((seat, card))
        out.extend(seq)
        if seq:  # a trick with no known card keeps its leader
            leader = trick_winner(seq, trump)
    return out


def lin_play_order(r: Record, declarer: str, trump: str | None) -> list[tuple[str, str]]:
    """LIN cards are in play order; the hands say whose each card is, else the rotation."""
    owner = {}
    for seat, h in (r.hands or {}).items():
        for c in h or []:
            owner.setdefault(c, seat)
    out = []
    leader = lho(declarer)
    seq = []
    for _, card in r.play_seq or []:
        seat = SEATS[(SEATS.index(leader) + len(seq)) % 4]
        seat = owner.get(card, seat)
        seq.append((seat, card))
        out.append((seat, card))
        if len(seq) == 4:
            leader = trick_winner(seq, trump)
            seq = []
    return out


def shortest_auction(dealer: str, contract: str, declarer: str) -> list[str]:
    """Section 18 step 3: the shortest auction reaching a contract, from the dealer."""
    calls, seat = [], dealer
    if contract == "PASS":
        return ["Pass"] * 4
    while seat != declarer:
        calls.append("Pass")
        seat = lho(seat)
    m = re.fullmatch(r"([1-7](?:NT|S|H|D|C))(X{0,2})", contract)
    calls.append(m.group(1))
    if m.group(2):
        calls.append("X")  # declarer's LHO
        if m.group(2) == "XX":
            calls.append("XX")  # declarer's partner
    calls += ["Pass"] * 3
    return calls


def issue_account(data: Path, name: str) -> str:
    """``tenace accounts issue NAME --data DIR``: the account's new password."""
    done = subprocess.run([sys.executable, "-m", "tenace", "accounts", "issue", name,
                           "--data", str(data)], capture_output=True, text=True, timeout=60,
                          check=True)
    return json.loads(done.stdout)["password"]


class HubRun:
    """A `tenace hub` subprocess with its embedded broker on a free loopback port."""

    def __init__(self, directory: Path, event: Path):
        self.port = free_port()
        # Every client needs an account (section 2.3): issued with the documented command.
        self.passwords = {name: issue_account(directory / "data", name)
                          for name in ("director", f"{TABLE}-tab", f"{TABLE}-rdr")}
        self.log = open(directory / "hub.log", "wb")  # noqa: SIM115 (closed in stop)
        # The installed command, run by the interpreter running the tests.
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tenace", "hub", "--event", str(event),
             "--data", str(directory / "data"), "--listen", f"127.0.0.1:{self.port}",
             "--console", "off", "--no-double-dummy"],
            stdout=self.log, stderr=subprocess.STDOUT, env=os.environ.copy())

    def wait_broker(self, timeout: float = 60) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"tenace hub exited with {self.proc.returncode}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("the hub's broker did not come up")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


def clean_irregularity(alert: dict, invented_times: bool) -> dict:
    out = {k: v for k, v in alert["facts"].items() if k not in ("final", "fits")}
    if alert.get("options"):
        out["options"] = alert["options"]
    if invented_times:
        out.pop("time", None)
        out.pop("elapsed", None)
        if isinstance(out.get("detail"), str):
            out["detail"] = re.sub(r" \(\d+(?:\.\d+)? s later\)", "", out["detail"])
    return out


def play_records(path: str | Path, limit: int | None = None, log=None) -> list[dict]:
    """Play the records of a file through a live hub; return the audit's lines."""
    records = parse_file(path)
    if limit is not None:
        records = records[:limit]
    hub_no, bpr = number_records(records)
    with tempfile.TemporaryDirectory(prefix="outsider-") as tmp:
        d = Path(tmp)
        event = write_setup(d, records, hub_no, bpr)
        hub = HubRun(d, event)
        try:
            hub.wait_broker()
            watch = Watcher("127.0.0.1", hub.port, hub.passwords["director"])
            if not watch.wait(lambda: watch.hub_online and watch.subscribed, 60):
                raise RuntimeError("hub/status never came online")
            tab = Device("127.0.0.1", hub.port, TABLE, f"{TABLE}-tab", "tablet",
                         hub.passwords[f"{TABLE}-tab"])
            rdr = Device("127.0.0.1", hub.port, TABLE, f"{TABLE}-rdr", "card_reader",
                         hub.passwords[f"{TABLE}-rdr"])
            try:
                states = [_play_one(r, n, tab, rdr, watch, log)
                          for r, n in zip(records, hub_no, strict=True)]
                watch.quiet(1.5)
                lines = [_read_back(r, n, st, watch)
                         for r, n, st in zip(records, hub_no, states, strict=True)]
            finally:
                tab.close()
                rdr.close()
                watch.close()
        finally:
            hub.stop()
    return lines


def _settled_state(watch: Watcher, pred, timeout: float = 3.0) -> dict | None:
    watch.wait(lambda: watch.state is not None and pred(watch.state), timeout)
    return watch.state


def _play_one(r: Record, n: int, tab: Device, rdr: Device, watch: Watcher, log) -> dict:
    clock = [time.time()]

    def t() -> float:
        clock[0] += 1.0
        return clock[0]

    def check(reply: dict, what: str) -> None:
        if reply.get("type") != "ack" and log:
            log(f"board {n}: {what} rejected: {reply}")

    check(tab.send("board", {"board": n, "source": "tablet"}, t()), "board")
    st = _settled_state(watch, lambda s: s.get("board") == n)
    if r.four_hands():
        for seat in SEATS:
            check(rdr.send("hand", {"seat": seat, "cards": list(r.hands[seat]), "when": "out",
                                    "board": n}, t()), "hand")
    calls = r.calls
    if not calls and r.contract:
        dealer = (st or {}).get("dealer") or r.dealer
        if r.contract == "PASS":
            calls = [(SEATS[(SEATS.index(dealer) + i) % 4], "Pass", False, None) for i in range(4)]
        elif r.declarer and dealer:
            seq = shortest_auction(dealer, r.contract, r.declarer)
            calls = [(SEATS[(SEATS.index(dealer) + i) % 4], c, False, None)
                     for i, c in enumerate(seq)]
    for seat, call, alert, expl in calls:
        body: dict = {"seat": seat, "call": call}
        if alert:
            body["alert"] = True
            if expl:
                body["explanation"] = expl[:4000]
        check(tab.send("call", body, t()), f"call {seat} {call}")
    st = _settled_state(watch, lambda s: s.get("board") == n and (
        s.get("phase") != "auction" or len(s.get("auction") or []) >= len(calls)))
    declarer = (st or {}).get("declarer")
    contract = (st or {}).get("contract")
    if declarer and contract and contract != "PASS" and r.sound() and st.get("phase") == "play":
        strain = re.match(r"[1-7](NT|S|H|D|C)", contract).group(1)
        trump = None if strain == "NT" else strain
        if r.play_seq is not None:
            cards = lin_play_order(r, declarer, trump)
        else:
            cards = play_order(r, trump)
        for seat, card in cards:
            check(rdr.send("card", {"seat": seat, "card": card, "source": "reader"}, t()),
                  f"card {seat} {card}")
        won, played = 0, len(cards) // 4
        for k in range(played):
            if side(trick_winner(cards[4 * k:4 * k + 4], trump)) == side(declarer):
                won += 1
    else:
        won, played = 0, 0
    if declarer and contract and contract != "PASS" and played < 13:
        result = r.declarer_tricks(declarer)
        if result is not None:
            claim = result - won if r.sound() else result
            # A claim outside 0..remaining cannot be made: the record's result contradicts
            # the play (section 18, last paragraph); the board then does not end live.
            if 0 <= claim <= 13 - played:
                reply = tab.send("claim", {"seat": declarer, "tricks": claim}, t())
                check(reply, f"claim {claim}")
            else:
                reply = {}
            if reply.get("type") == "ack":
                for seat in (lho(declarer), rho(declarer)):
                    check(tab.send("claim_answer", {"seat": seat, "accept": True}, t()),
                          "claim_answer")
    # The state after the record's last event (before the next record's board).
    watch.quiet(0.2, limit=3)
    return dict(watch.state or {})


def _read_back(r: Record, n: int, state: dict, watch: Watcher) -> dict:
    res = watch.results.get((TABLE, ROUND, n))
    _, vul = r.own_markings()
    if res is not None:
        line = {"board": r.number, "contract": res.get("contract"),
                "declarer": res.get("declarer"), "tricks": res.get("tricks"),
                "tricks_rectified": res.get("tricks_rectified"),
                "score_ns": res.get("score_ns_rectified")}
        if res.get("contract") == "PASS":
            line["score_ns"] = 0
        elif vul is None:
            line["score_ns"] = None
    else:
        same = state.get("board") == n
        line = {"board": r.number, "contract": state.get("contract") if same else None,
                "declarer": state.get("declarer") if same else None, "tricks": None,
                "tricks_rectified": None, "score_ns": None}
    alerts = [a for a in watch.alerts.values()
              if a.get("table") == TABLE and a.get("round") == ROUND and a.get("board") == n
              and a.get("kind") in RECORD_KINDS
              and (a.get("facts") or {}).get("kind") == a.get("kind")]

    def group(a: dict) -> int:
        if a["kind"] in DEAL_KINDS and a.get("call") is None and a.get("trick") is None:
            return 0
        return 2 if a["kind"] == "revoke" else 1

    alerts.sort(key=lambda a: (group(a), a.get("detected", 0), watch.alert_order[a["id"]]))
    line["irregularities"] = [clean_irregularity(a, True) for a in alerts]
    return line


def main(argv: list[str]) -> int:
    limit = int(argv[2]) if len(argv) > 2 else None
    for line in play_records(argv[1], limit, log=lambda m: print(m, file=sys.stderr)):
        print(json.dumps(line))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
