"""The organiser's service: it releases each club's deals at the club's start time (signed,
retained, never before), takes the clubs' results and ``finished`` messages from the
bridges, scores the field and publishes to each club the field's results of the boards it has
finished (Law 16) and, once it has finished them all, the field's ranking with the club's own.

Messages leave paho's thread at once for one worker thread, which takes every message waiting,
scores the field once for all of them (a burst of results after a club reconnects costs one
rescoring) and publishes what changed. Bad messages are logged and dropped, never fatal.

A club not on Tenace takes part by file: with ``uploads``, the worker reads
``uploads/<club>.xml`` (the club's USEBIO upload, hub.simultaneous.ecats) whenever it changes,
as ECATS polls its upload folder; its results count as the club's (the same line uploaded
again keeps its id), and the club has finished each board its file holds; a line its earlier
upload had and its new one has not is withdrawn.

With a ``journal`` (``tenace sim-event run``: ``DIR/journal.jsonl``), every message of a club
that changed the field is appended to it (one JSON line: club, kind, payload), on disk before
the field it makes is published, and each club's deals released (kind ``deals``: they stay
retained on the broker, not released again); a new service reads it first: stopped and
started again, the organiser has every result it had (and the broker's persistent session
gives it those that came meanwhile). Only a message taken from the broker in the last
moments before a crash (not a stop: :meth:`Organiser.close` journals what it took) may miss
the journal.

A club's withdrawal of one of its results (on ``result``, hub.simultaneous.field) takes it out
of the field: the board is scored again, its field results published again to the clubs that
finished it, the ranking with them. A withdrawal refused (an id the organiser never had from
the club, another club's) is logged and changes nothing.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import queue
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, BinaryIO

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from hub.simultaneous.bridging import ORGANISER
from hub.simultaneous.event import ROOT, SimError, SimEvent, parse_topic, sign, topic
from hub.simultaneous.field import FieldScorer
from wire.mqtt import Message, MqttClient

__all__ = ["Organiser", "deals_body"]

log = logging.getLogger(__name__)


def deals_body(event: SimEvent, club: str, released: datetime) -> dict[str, Any]:
    return {"event": event.id, "club": club, "boards": list(event.boards),
            "released": released.isoformat(), "pbn": event.deals}


def _encode(data: dict[str, Any]) -> bytes:
    return json.dumps(data, sort_keys=True, allow_nan=False).encode()


class Organiser:
    """Run the event on the organiser's broker at ``url`` (its ``organiser`` account)."""

    def __init__(self, event: SimEvent, url: str, key: Ed25519PrivateKey, *,
                 now: Callable[[], datetime] = lambda: datetime.now(UTC),
                 on_scored: Callable[[FieldScorer], None] | None = None,
                 uploads: Path | None = None, journal: Path | None = None,
                 on_notice: Callable[[str], None] | None = None):
        self.event = event
        self.key = key
        self.now = now
        self.field = FieldScorer(event)
        self.released: set[str] = set()
        self.scored = threading.Condition()
        self.rescorings = 0
        self._on_scored = on_scored
        self._on_notice = on_notice   # the operator told (tenace sim-event run: its terminal)
        self.notices: list[str] = []
        self.uploads = uploads
        self.upload_problems: dict[str, list[str]] = {}   # club -> its last upload's problems
        self._uploads_seen: dict[Path, bytes] = {}
        self._upload_lines: dict[str, set[tuple[str, int]]] = {}   # club -> (id, board) taken
        self._uploads_due = 0.0
        self._sent: dict[str, bytes] = {}   # topic -> digest of the last payload published
        self._boards: dict[int, bytes] = {}  # board -> its field results, as published
        self._inbox: queue.Queue[Message | None] = queue.Queue()
        self._stop = threading.Event()
        self.client = MqttClient(url, ORGANISER, on_message=self._inbox.put, start=False)
        self._worker = threading.Thread(target=self._run, name="sim-organiser", daemon=True)
        self.journal = journal
        self._journal: BinaryIO | None = None
        self._replayed = self._replay(journal) if journal is not None else 0

    def start(self) -> Organiser:
        self.client.start()
        try:
            self.client.wait_connected()
            for kind in ("result", "finished"):
                self.client.subscribe(f"{ROOT}/{self.event.id}/+/{kind}")
        except BaseException:   # not left retrying in the background
            self.client.close(farewell=False)
            raise
        if self.journal is not None:
            self._journal = self.journal.open("ab")
            if self._journal.tell() and not self.journal.read_bytes().endswith(b"\n"):
                self._journal.write(b"\n")     # after a torn last line, a line of its own
        self._worker.start()
        return self

    def close(self) -> None:
        """Stop: the worker ends its batch, the client stops taking messages, and those it
        took meanwhile (acknowledged to the broker) are kept in the journal, not lost."""
        self._stop.set()
        self._inbox.put(None)
        if self._worker.is_alive():
            self._worker.join(10)
        self.client.close()
        while True:
            try:
                message = self._inbox.get_nowait()
            except queue.Empty:
                break
            if message is not None:
                self._take(message)
        if self._journal is not None:
            self._sync()
            self._journal.close()
            self._journal = None

    def __enter__(self) -> Organiser:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.close()

    # The worker ------------------------------------------------------------------------------

    def _run(self) -> None:
        if self._replayed:
            self._publish_scores()     # the field as the journal left it, to the clubs
        while not self._stop.is_set():
            self.release_due()
            if self._read_uploads():
                self._publish_scores()
            try:
                first = self._inbox.get(timeout=0.2)
            except queue.Empty:
                continue
            batch = [first]
            while True:
                try:
                    batch.append(self._inbox.get_nowait())
                except queue.Empty:
                    break
            taken = [self._take(m) for m in batch if m is not None]   # every one: no any()
            if self._journal is not None:
                self._sync()
            if any(taken):
                self._publish_scores()

    def release_due(self) -> None:
        """Publish the deals of every club whose start time has come, once."""
        now = self.now()
        for club in self.event.clubs:
            if club.id not in self.released and now >= club.start:
                payload = sign(self.key, deals_body(self.event, club.id, now))
                self.client.publish(topic(self.event.id, club.id, "deals"), payload,
                                    qos=1, retain=True)
                self.released.add(club.id)
                if self._journal is not None:     # started again: not released twice
                    self._journal.write(json.dumps(
                        {"club": club.id, "kind": "deals",
                         "data": {"released": now.isoformat()}}).encode() + b"\n")
                    self._sync()
                log.info("deals of %s released to club %s", self.event.id, club.id)

    def _read_uploads(self) -> bool:
        """Take the clubs' upload files that changed (module docstring), once a second."""
        if self.uploads is None or time.monotonic() < self._uploads_due:
            return False
        self._uploads_due = time.monotonic() + 1.0
        from hub.simultaneous.ecats import read_upload
        took = False
        for path in sorted(self.uploads.glob("*.xml")):
            try:
                data = path.read_bytes()
            except OSError as err:
                log.warning("upload %s unreadable: %s", path, err)
                continue
            digest = hashlib.sha256(data).digest()
            if self._uploads_seen.get(path) == digest:
                continue
            self._uploads_seen[path] = digest
            try:
                self.event.club(path.stem)
                upload = read_upload(self.event, data, file=path.name)
            except SimError as err:
                log.warning("upload %s refused: %s", path, err)
                self.upload_problems[path.stem] = [str(err)]
                continue
            self.upload_problems[path.stem] = upload.problems
            for problem in upload.problems:
                log.warning("upload %s: %s", path, problem)
            for result in upload.results:
                took = self.field.add_result(path.stem, result) or took
            took = self._withdraw_missing(path.stem, upload.results) or took
            for finished in upload.finished:
                self._finish(path.stem, finished)
                took = True
            log.info("upload %s: %d results of club %s", path, len(upload.results), path.stem)
        return took

    def _withdraw_missing(self, club: str, results: list[dict[str, Any]]) -> bool:
        """Withdraw the lines of ``club``'s earlier upload that its new one no longer has (a
        club by file withdraws a line by uploading its file without it); a board left with
        none is finished with no result."""
        now = {(r["id"], r["board"]) for r in results}
        before = self._upload_lines.get(club, set())
        self._upload_lines[club] = now
        for rid, board in sorted(before - now):
            try:
                self.field.withdraw_result(club, {"v": 1, "id": rid, "board": board,
                                                  "withdrawn": True})
            except SimError as err:
                log.warning("upload of club %s: %s", club, err)
                continue
            log.info("upload of club %s: line %s no longer there, withdrawn", club, rid)
        for board in sorted({b for _, b in before} - {b for _, b in now}):
            self.field.finish(club, {"v": 1, "board": board, "results": 0, "closed": True})
        return bool(before - now)

    def _take(self, message: Message) -> bool:
        try:
            event, club, kind, _board = parse_topic(message.topic)
            if event != self.event.id:
                raise SimError(f"a message of another event {event!r}")
            data = json.loads(message.payload)
            self._check_released(club)
            took = self._apply(club, kind, data)
        except (SimError, ValueError) as err:
            log.warning("dropped %s: %s", message.topic, err)   # refused, nothing changed
            return False
        except RecursionError:   # one club's [[[[... killed the worker: every club's event
            log.warning("dropped %s: JSON nested too deep", message.topic)
            return False
        except Exception:        # a bug costs this message, never the event (audit auditsec)
            log.exception("dropped %s: the organiser could not take it", message.topic)
            return False
        if took and self._journal is not None:
            self._journal.write(json.dumps({"club": club, "kind": kind, "data": data},
                                           sort_keys=True).encode() + b"\n")
        return took

    def _check_released(self, club: str) -> None:
        """A club's message before its deals went out is refused: it cannot have played
        them, and a ``finished`` then would give it the field's results of boards it has not
        played (Law 16), before its start."""
        if club not in self.released:
            start = self.event.club(club).start.isoformat()
            raise SimError(f"club {club}'s deals are not released yet (its start: {start}): "
                           "it cannot have played them (Law 16)")

    def _apply(self, club: str, kind: str, data: Any) -> bool:
        """Take a club's message (its topic's ``kind``); False for a duplicate."""
        if kind == "result" and isinstance(data, dict) and "withdrawn" in data:
            return self.field.withdraw_result(club, data)
        if kind == "result":
            return self.field.add_result(club, data)
        if kind == "finished":
            self._finish(club, data)
            return True
        raise SimError(f"clubs do not publish {kind}")

    def _finish(self, club: str, data: object) -> None:
        """Take a club's ``finished``; a short count (fewer results than the club plays, its
        director not closing the board) is kept but holds the board's field results back
        (Law 16): logged, and the operator told."""
        board = self.field.finish(club, data)
        said = data.get("results") if isinstance(data, dict) else None
        plays = self.event.club(club).plays
        if isinstance(said, int) and said < plays and not self.field.short(club, board):
            log.info("club %s's director closed board %d with %d results of the %d it plays",
                     club, board, said, plays)
        if self.field.short(club, board):
            self.notify(f"club {club} said board {board} finished with {said} results but "
                        f"plays it {plays} times, its director not "
                        "closing it: the field's results of the board are held back from the "
                        "club until its results are all in or its director closes the board "
                        "(Law 16)")

    def notify(self, text: str) -> None:
        """Tell the organiser's operator (and the log)."""
        log.warning("%s", text)
        self.notices.append(text)
        if self._on_notice is not None:
            self._on_notice(text)

    def _replay(self, path: Path) -> int:
        """Take again the messages the journal kept (module docstring); how many. A line
        that cannot be taken (a write torn by a crash) is named in the log and skipped."""
        try:
            lines = path.read_bytes().splitlines() if path.exists() else []
        except OSError as err:
            raise SimError(f"the organiser's journal {path}: {err}") from err
        taken = 0
        for number, line in enumerate(lines, 1):
            try:
                entry = json.loads(line)
                club, kind = str(entry["club"]), str(entry["kind"])
                if kind == "deals":
                    self.released.add(self.event.club(club).id)
                else:
                    self._apply(club, kind, entry["data"])
                taken += 1
            except (SimError, ValueError, KeyError, TypeError) as err:
                log.warning("journal %s, line %d not taken: %s", path, number, err)
        if lines:
            log.info("journal %s: %d messages of the clubs taken again", path, taken)
        return taken

    def _sync(self) -> None:
        """The journal's lines on disk before the field they make is published."""
        assert self._journal is not None
        self._journal.flush()
        os.fsync(self._journal.fileno())

    def _publish_scores(self) -> None:
        """Score the field, then publish to each club the boards it has finished whose field
        results it has not had as they are now, and the ranking once it has finished them
        all (each payload made once, whatever the number of clubs)."""
        self.field.rescore()
        for board in self.field.changed:
            self._boards[board] = _encode(self.field.board_payload(board))
        ranking: bytes | None = None    # the field's, encoded once; each club's own added
        clubs: dict[str, list[dict[str, Any]]] = {}
        for club in self.event.clubs:
            done = self.field.finished_boards(club.id)
            for board in done:
                if board not in self._boards:   # finished with no result of the field yet
                    self._boards[board] = _encode(self.field.board_payload(board))
                self._publish(topic(self.event.id, club.id, "field", board), self._boards[board])
            if len(done) == len(self.field.boards):
                if ranking is None:
                    ranking = _encode(self.field.ranking_payload())
                    clubs = self.field.club_rankings()
                own = _encode({"id": club.id, "ranking": clubs.get(club.id, [])})
                self._publish(topic(self.event.id, club.id, "ranking"),
                              ranking[:-1] + b', "club": ' + own + b"}")
        with self.scored:
            self.rescorings += 1
            self.scored.notify_all()
        if self._on_scored is not None:
            self._on_scored(self.field)

    def _publish(self, name: str, payload: bytes) -> None:
        """Publish (retained) unless ``name`` has exactly this payload already."""
        digest = hashlib.sha256(payload).digest()
        if self._sent.get(name) != digest:
            self.client.publish(name, payload, qos=1, retain=True)
            self._sent[name] = digest

    def wait_for(self, test: Callable[[FieldScorer], bool], timeout: float = 60.0) -> bool:
        """Wait until ``test(field)`` holds after a rescoring (tests, tools)."""
        deadline = time.monotonic() + timeout
        with self.scored:
            while not (self.field.score is not None and test(self.field)):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.scored.wait(left)
        return True
