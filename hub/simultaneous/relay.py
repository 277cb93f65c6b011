"""A club hub's results, relayed to a simultaneous event: the hub plays its evening as ever and
publishes each table's result (docs/protocol.md 12.1, ``tenace/v1/result/{table}/{round}/
{board}``, retained); the relay, on the club's broker, turns each into the event's ``result``
(id ``{table}-{round}-{board}``: the hub's result published again, or corrected, keeps its id)
and, once the club's tables have all played a board (``plays`` results), ``finished``.

Fouled boards (Law 87): the hub's travellers (``results/traveller/{section}/{board}``, protocol
12.3) give each table's ``form`` once the club's director ruled a board fouled; a result of a
changed form goes out with ``"version": "form-<n>"`` (sent again, same id, when the ruling
comes after the result: the organiser takes it as a correction), so the organiser scores it
in its own group (hub.simultaneous.field).

Adjusted scores (Law 12C): the traveller also gives each line's ``adjustment`` (the club
director's ruling in force) and ``corrected`` (a scoring correction, the line's score then the
corrected one). A line with an adjustment goes out with ``"adjusted"`` (its text as
bridgecore.results_io.format_adjustment writes it) and ``score_ns`` the assigned score (12C1(a))
or null (artificial, split, weighted); a line of a board not played at the table but given an
adjusted score (an artificial score alone) goes out as a result of its own, and counts for the
board's ``finished``. A ruling or correction made after the result went out sends it again
under its id, a ruling withdrawn sends the table result again: the organiser takes the latest.

A line that the hub no longer scores goes out as a withdrawal of its id (docs/protocol.md):
a ruling alone on a board not played at the table withdrawn (the line leaves the section's
traveller), the hub's result removed (its retained topic cleared) with no ruling left, a line
the hub cancels (the traveller's ``not_scored``, Law 15B). A cancelled line counts for the
board's ``finished`` without going out (``finished`` then says ``closed``: fewer by the
director's act, Law 16); after a withdrawal on a board it had finished, the relay sends
``finished`` again with the results it now has there (``closed`` if fewer than the
club plays: the director's withdrawal).

With a ``state`` file (``tenace sim-event club``: ``KIT/relayed.json``) the relay remembers
the ids it sent (id -> board). Started again, it subscribes, then publishes a marker on a topic
of the club's broker it reads itself (``ClubLink.sync_topic``, no bridge carries it): the
broker delivers the hub's retained results and travellers before it, so when the marker comes
the relay has seen every line the hub scores now, and withdraws each remembered id that did
not go out again (a line that left the hub while the relay was not running).

It rides on the link's connection (one account, ``sim-link``, whatever binds the client id to
the username); messages leave paho's thread for the relay's own worker thread; a malformed
hub result is logged and skipped, never fatal.
"""

from __future__ import annotations

import json
import logging
import os
import queue
import threading
import uuid
from collections import defaultdict
from collections.abc import Mapping
from pathlib import Path

from bridgecore.adjusted import Assigned
from bridgecore.errors import BridgeError
from bridgecore.results_io import format_adjustment, parse_adjustment
from hub.simultaneous.club import ClubLink
from wire.mqtt import Message
from wire.protocol import ROOT, ProtocolError, parse_topic

__all__ = ["ClubRelay"]

log = logging.getLogger(__name__)

Key = tuple[str, int, int]                       # (table, round, board)
Line = tuple[str, int, int | str, int | str, int | None]   # (id, board, ns, ew, score_ns)


class ClubRelay:
    """Relay the hub's results through ``link``, on its connection (its account reads the
    hub's results). ``plays``: times the club plays each board (one number, or board ->
    number)."""

    def __init__(self, link: ClubLink, plays: int | Mapping[int, int], *,
                 state: Path | None = None):
        self.link = link
        self.plays = plays
        self.state = state
        self._before, self._finished_before = self._load(state) if state is not None \
            else ({}, set())
        self._marker = uuid.uuid4().hex.encode()
        self.synced = threading.Event()   # the marker came: every retained line seen
        self.ids: dict[int, set[str]] = defaultdict(set)
        self.finished: set[int] = set()
        self.relayed = 0    # the hub's results taken
        self.changes = 0    # messages sent (results, withdrawals): what the club has out moved
        self.forms: dict[Key, int] = {}                   # (table, round, board) -> form
        self._sent: dict[Key, Line] = {}                  # the hub's table results
        self._rulings: dict[Key, tuple[Line, str, bool]] = {}   # the traveller's line, its
        # adjusted score's text ("" none), whether its score is a correction
        self._out: dict[Key, tuple[Line, str, int]] = {}   # what went out last
        self._unscored: set[Key] = set()                 # lines the hub does not score
        self._in_traveller: dict[tuple[str, int], set[Key]] = {}   # (section, board) -> lines
        self._inbox: queue.Queue[Message | None] = queue.Queue()
        self._worker = threading.Thread(target=self._run, name="sim-relay", daemon=True)

    def start(self) -> ClubRelay:
        """Start relaying (the link started already)."""
        self.link.others = self._inbox.put
        self._worker.start()
        self.link.client.subscribe(f"{ROOT}/result/+/+/+")
        self.link.client.subscribe(f"{ROOT}/results/traveller/+/+")
        self.link.client.subscribe(self.link.sync_topic)
        self.link.client.publish(self.link.sync_topic, self._marker, 1)
        return self

    def close(self) -> None:
        self.link.others = None
        self._inbox.put(None)
        if self._worker.is_alive():
            self._worker.join(10)

    def results(self) -> list[dict[str, object]]:
        """The club's results as relayed so far (``result`` payloads), in the order of
        their ids."""
        out: list[dict[str, object]] = []
        for key in sorted(set(self._sent) | set(self._rulings)):
            line = self._line(key)
            if line is None:
                continue
            (rid, board, ns, ew, score), adjusted = line
            form = self.forms.get(key, 0)
            out.append({"v": 1, "id": rid, "board": board, "ns": ns, "ew": ew,
                        "score_ns": score, **({"version": f"form-{form}"} if form else {}),
                        **({"adjusted": adjusted} if adjusted else {})})
        return out

    def _line(self, key: Key) -> tuple[Line, str] | None:
        """What goes out for a table's board: the hub's result, corrected or adjusted by the
        traveller's line (module docstring); None while there is nothing to send."""
        if key in self._unscored:
            return None
        table, ruling = self._sent.get(key), self._rulings.get(key)
        if ruling is None:
            return None if table is None else (table, "")
        line, adjusted, corrected = ruling
        if not adjusted:
            return (line if corrected or table is None else table), ""
        rid, board, ns, ew, score = line
        adjustment = parse_adjustment(adjusted)
        score = adjustment.score_ns if isinstance(adjustment, Assigned) else None
        return (rid, board, ns, ew, score), format_adjustment(adjustment)

    def _publish(self, key: Key, *, again: bool = False) -> None:
        """Send the table's result unless it went out as it is now (``again``: send it even
        so, the hub published it again)."""
        line = self._line(key)
        if line is None:
            self._withdraw(key)
            return
        (rid, board, ns, ew, score), adjusted = line
        form = self.forms.get(key, 0)
        out = (line[0], adjusted, form)
        if not again and self._out.get(key) == out:
            return
        new = key not in self._out
        self._out[key] = out
        self.link.publish_result(rid, board, ns, ew, score,
                                 version=f"form-{form}" if form else "", adjusted=adjusted)
        self.changes += 1
        if new:
            self._save()
        self.ids[board].add(rid)
        self._finish(board)

    def _withdraw(self, key: Key) -> None:
        """Withdraw the line's id if it went out (module docstring)."""
        out = self._out.pop(key, None)
        if out is not None:
            rid, board = out[0][0], out[0][1]
            self.link.publish_withdrawal(rid, board)
            self.changes += 1
            self._save()
            self.ids[board].discard(rid)
            log.info("line %s withdrawn: the hub no longer scores it", rid)
            if board in self.finished:
                self._send_finished(board)
        self._finish(key[2])

    def _finish(self, board: int) -> None:
        """Send ``finished`` once the club's tables have all played ``board``: its results
        out and its lines the hub cancelled make the club's plays."""
        done = len(self.ids[board]) + sum(1 for k in self._unscored if k[2] == board)
        if board not in self.finished and done >= self._expected(board) > 0:
            self.finished.add(board)
            self._send_finished(board)
            self._save()

    def _send_finished(self, board: int) -> None:
        """``finished`` with the results out on ``board``; ``closed`` with fewer than the
        club plays: the hub's director made them fewer (lines cancelled, Law 15B, before the
        board was finished; a line withdrawn after), not a table still playing (Law 16)."""
        out = len(self.ids[board])
        self.link.publish_finished(board, out, closed=out < self._expected(board))

    def _traveller(self, section: str, board: int, traveller: object) -> None:
        """The forms, adjusted scores, corrections and cancelled lines of a board's tables
        (its traveller; None: cleared); a line whose relayed result changed goes out again
        (same id), a line gone from the traveller loses its ruling."""
        rows: object = []
        if traveller is not None:
            if not isinstance(traveller, dict):
                raise ValueError("a traveller that is not an object")
            rows = traveller.get("results")
            if traveller.get("board") != board or not isinstance(rows, list):
                raise ValueError("a traveller without its board and results")
        assert isinstance(rows, list)
        keys: set[Key] = set()
        whole = True
        for row in rows:
            try:
                keys.add(self._traveller_line(board, row))
            except (BridgeError, ValueError, KeyError, TypeError) as err:
                whole = False
                log.warning("traveller of board %d: line %.120r not relayed: %s",
                            board, row, err)
        before = self._in_traveller.get((section, board), set())
        self._in_traveller[(section, board)] = keys if whole else keys | before
        if whole:
            for key in sorted(before - keys):    # no longer on the hub's traveller
                self._rulings.pop(key, None)
                self._unscored.discard(key)
                self._publish(key)

    def _traveller_line(self, board: int, row: dict[str, object]) -> Key:
        table, round_ = str(row["table"]), row["round"]
        if not isinstance(round_, int):
            raise ValueError(f"round {round_!r}")
        key = (table, round_, board)
        if row.get("not_scored"):           # the hub cancelled it (Law 15B)
            self._unscored.add(key)
        else:
            self._unscored.discard(key)
        form = row.get("form") or 0
        if not isinstance(form, int):
            raise ValueError(f"form {form!r}")
        self.forms[key] = form
        adjusted, corrected, score = row.get("adjustment"), row.get("corrected"), \
            row.get("score_ns")
        ns, ew = row.get("NS"), row.get("EW")
        if adjusted or (corrected and isinstance(score, int)):
            if not isinstance(ns, int | str) or not isinstance(ew, int | str):
                raise ValueError("a ruling on a line without both pairs")
            text = str(adjusted or "")
            if text:
                parse_adjustment(text)                      # refused now, not at each send
            self._rulings[key] = ((f"{table}-{round_}-{board}", board, ns, ew,
                                   score if isinstance(score, int) else None), text,
                                  bool(corrected))
        else:
            self._rulings.pop(key, None)
        self._publish(key)
        return key

    def _expected(self, board: int) -> int:
        return self.plays if isinstance(self.plays, int) else self.plays.get(board, 0)

    def _run(self) -> None:
        while (message := self._inbox.get()) is not None:
            try:
                self._relay(message)
            except (ProtocolError, ValueError, KeyError, TypeError) as err:
                log.warning("not relayed %s: %s", message.topic, err)

    def _sync(self) -> None:
        """The marker came (module docstring): withdraw the ids sent before the relay
        started again that did not go out again."""
        now = {out[0][0] for out in self._out.values()}
        boards = set()
        for rid, board in sorted(self._before.items()):
            if rid not in now:
                log.info("line %s withdrawn: gone from the hub while the relay was stopped",
                         rid)
                self.link.publish_withdrawal(rid, board)
                self.changes += 1
                self.ids[board].discard(rid)
                boards.add(board)
        for board in sorted(boards & self._finished_before - self.finished):
            self.finished.add(board)                 # finished before: its new number
            self._send_finished(board)
        self._before, self._finished_before = {}, set()
        self._save()
        self.synced.set()

    @staticmethod
    def _load(path: Path) -> tuple[dict[str, int], set[int]]:
        """The ids a relay sent before (id -> board) and the boards it had said finished
        (``state``); none when the file is missing or bad."""
        try:
            data = json.loads(path.read_text()) if path.exists() else {}
            ids, finished = data.get("ids", {}), data.get("finished", [])
            if not isinstance(ids, dict) or not all(
                    isinstance(k, str) and isinstance(v, int) for k, v in ids.items()) \
                    or not isinstance(finished, list) \
                    or not all(isinstance(b, int) for b in finished):
                raise ValueError("not {'ids': {id: board}, 'finished': [board]}")
            return ids, set(finished)
        except (OSError, ValueError, AttributeError) as err:
            log.warning("relay state %s unreadable, nothing withdrawn at start: %s", path, err)
            return {}, set()

    def _save(self) -> None:
        """The ids out now and the boards said finished (with those of before, until the
        marker), replaced atomically."""
        if self.state is None:
            return
        ids = {**self._before, **{out[0][0]: out[0][1] for out in self._out.values()}}
        finished = sorted(self._finished_before | self.finished)
        part = self.state.with_name(self.state.name + ".part")
        try:
            part.write_text(json.dumps({"ids": ids, "finished": finished}, sort_keys=True))
            os.replace(part, self.state)
        except OSError as err:
            log.warning("relay state %s not written: %s", self.state, err)

    def _relay(self, message: Message) -> None:
        if message.topic == self.link.sync_topic:
            if message.payload == self._marker:
                self._sync()
            return
        where = parse_topic(message.topic)
        body = json.loads(message.payload) if message.payload else None   # b"": cleared
        if where.kind == "traveller" and where.board is not None and where.section:
            self._traveller(where.section, where.board, body)
            return
        board = where.board
        if board is None or where.round is None or where.table is None:
            raise ValueError("a result topic without its table, round and board")
        key = (where.table, where.round, board)
        if body is None:                       # the hub's result removed
            self._sent.pop(key, None)
            self._publish(key)
            return
        pairs = body["pairs"]
        if pairs.get("NS") is None or pairs.get("EW") is None:
            raise ValueError("a result without both pairs")
        rid = f"{where.table}-{where.round}-{board}"
        self._sent[key] = (rid, board, pairs["NS"], pairs["EW"], int(body["score_ns"]))
        self._publish(key, again=True)
        self.relayed += 1
