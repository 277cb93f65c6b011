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

It rides on the link's connection (one account, ``sim-link``, whatever binds the client id to
the username); messages leave paho's thread for the relay's own worker thread; a malformed
hub result is logged and skipped, never fatal.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
from collections import defaultdict
from collections.abc import Mapping

from hub.simultaneous.club import ClubLink
from wire.mqtt import Message
from wire.protocol import ROOT, ProtocolError, parse_topic

__all__ = ["ClubRelay"]

log = logging.getLogger(__name__)


class ClubRelay:
    """Relay the hub's results through ``link``, on its connection (its account reads the
    hub's results). ``plays``: times the club plays each board (one number, or board ->
    number)."""

    def __init__(self, link: ClubLink, plays: int | Mapping[int, int]):
        self.link = link
        self.plays = plays
        self.ids: dict[int, set[str]] = defaultdict(set)
        self.finished: set[int] = set()
        self.relayed = 0
        self.forms: dict[tuple[str, int, int], int] = {}      # (table, round, board) -> form
        self._sent: dict[tuple[str, int, int], tuple[str, int, int | str, int | str, int]] = {}
        self._inbox: queue.Queue[Message | None] = queue.Queue()
        self._worker = threading.Thread(target=self._run, name="sim-relay", daemon=True)

    def start(self) -> ClubRelay:
        """Start relaying (the link started already)."""
        self.link.others = self._inbox.put
        self._worker.start()
        self.link.client.subscribe(f"{ROOT}/result/+/+/+")
        self.link.client.subscribe(f"{ROOT}/results/traveller/+/+")
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
        for key, (rid, board, ns, ew, score) in sorted(dict(self._sent).items()):
            form = self.forms.get(key, 0)
            out.append({"v": 1, "id": rid, "board": board, "ns": ns, "ew": ew,
                        "score_ns": score, **({"version": f"form-{form}"} if form else {})})
        return out

    def _publish(self, key: tuple[str, int, int]) -> None:
        rid, board, ns, ew, score = self._sent[key]
        form = self.forms.get(key, 0)
        self.link.publish_result(rid, board, ns, ew, score,
                                 version=f"form-{form}" if form else "")

    def _forms(self, traveller: dict[str, object]) -> None:
        """The forms of a board's tables (its traveller); results already out whose form
        changed go out again."""
        board, rows = traveller["board"], traveller["results"]
        if not isinstance(board, int) or not isinstance(rows, list):
            raise ValueError("a traveller without its board and results")
        for row in rows:
            if row.get("contract") is None and row.get("score_ns") is None:
                continue                 # an adjusted score alone: no table result
            key = (str(row["table"]), int(row["round"]), board)
            form = int(row.get("form") or 0)
            if self.forms.get(key, 0) != form:
                self.forms[key] = form
                if key in self._sent:
                    self._publish(key)

    def _expected(self, board: int) -> int:
        return self.plays if isinstance(self.plays, int) else self.plays.get(board, 0)

    def _run(self) -> None:
        while (message := self._inbox.get()) is not None:
            try:
                self._relay(message)
            except (ProtocolError, ValueError, KeyError, TypeError) as err:
                log.warning("not relayed %s: %s", message.topic, err)

    def _relay(self, message: Message) -> None:
        where = parse_topic(message.topic)
        body = json.loads(message.payload)
        if where.kind == "traveller":
            self._forms(body)
            return
        pairs = body["pairs"]
        if pairs.get("NS") is None or pairs.get("EW") is None:
            raise ValueError("a result without both pairs")
        board = where.board
        if board is None or where.round is None or where.table is None:
            raise ValueError("a result topic without its table, round and board")
        rid = f"{where.table}-{where.round}-{board}"
        key = (where.table, where.round, board)
        self._sent[key] = (rid, board, pairs["NS"], pairs["EW"], int(body["score_ns"]))
        self._publish(key)
        self.relayed += 1
        self.ids[board].add(rid)
        if board not in self.finished and len(self.ids[board]) >= self._expected(board) > 0:
            self.finished.add(board)
            self.link.publish_finished(board, len(self.ids[board]))
