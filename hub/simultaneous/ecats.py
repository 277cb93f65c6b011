"""Results files of a simultaneous event, in the form ECATS exchanges them.

ECATS (the European simultaneous pairs' scoring service) takes a club's results as the
four text files of its own scoring program (``r.txt``, ``p.txt``, ``c.txt``, ``e.txt``, whose
layout it does not publish) or as one USEBIO XML file, sent with the ECATS session number and
the club's country; it scores the field across the clubs and publishes each club's place in
it. Tenace writes and reads the USEBIO form (bridgecore.usebio, formats.md section 2):

- :func:`club_upload`: a club's results as the file it sends (its tables' results, scored
  at the club, pair numbers as the club numbers them);
- :func:`field_file`: the organiser's field results as it publishes them (every club's
  results with the field's points, the field's ranking; pairs named ``club:pair``);
- :func:`read_upload`: a club's upload read back into the event's results (``result`` and
  ``finished`` payloads, hub.simultaneous.field), so that a club not on Tenace takes part by
  file: the organiser's service reads ``DIR/uploads/<club>.xml`` as ECATS polls its upload
  folder (hub.simultaneous.organiser).

A traveller line with the club director's adjusted score (Law 12C) is read as the relay
sends it: SCORE ``A6040`` (USEBIO's artificial score: A, North-South's percentage,
East-West's; 60 or more is average-plus, 40 or less average-minus) is the artificial score
``A+ A-``, a ruling in NOTES (``Ruling: 420``, ``Ruling: NS 420 / EW -50``) the assigned or
split score; the result then carries ``adjusted`` (hub.simultaneous.field). A line that cannot
be read, or a board that is not the event's, is named in the problems.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bridgecore.adjusted import Assigned, BoardResult
from bridgecore.errors import FormatError
from bridgecore.ranking import ScoringOptions, score_event
from bridgecore.results_io import ResultsFile, TableResult, format_adjustment
from bridgecore.usebio import read_usebio, write_usebio
from hub.simultaneous.event import SimError, SimEvent
from hub.simultaneous.field import FieldScorer, check_result

__all__ = ["Upload", "club_upload", "field_file", "read_upload", "upload_id"]


def upload_id(board: int, ns: object, ew: object) -> str:
    """The id of a result read from a file: the same line uploaded again keeps it."""
    return f"file-{board}-{ns}-{ew}"


def club_upload(event: SimEvent, club: str, results: Iterable[Mapping[str, Any]], *,
                title: str = "") -> bytes:
    """The USEBIO file of ``club``'s results (``result`` payloads), scored at the club by
    the event's method (Neuberg to the club's plays)."""
    plays = event.club(club).plays
    rows = []
    for data in results:
        _rid, r = check_result(dict(data), event.boards)
        rows.append(TableResult(r))
    source = ResultsFile(rows=rows, title=title or f"{event.id}: {club}")
    scored = score_event([row.result for row in rows], event.method,
                         options=ScoringOptions(expected=plays))
    return write_usebio(source, scored)


def field_file(field: FieldScorer, *, title: str = "") -> bytes:
    """The organiser's field results as it publishes them: every club's results with the
    field's points and the field's ranking (USEBIO)."""
    score = field.score or field.rescore()
    rows = [TableResult(r) for _, r in sorted(field.results.items(),
                                              key=lambda kv: (kv[1].board, kv[0]))]
    return write_usebio(ResultsFile(rows=rows, title=title or f"{field.event.id}: the field"),
                        score)


@dataclass(slots=True)
class Upload:
    """A club's upload read: the ``result`` and ``finished`` payloads, the problems."""

    results: list[dict[str, Any]] = field(default_factory=list)
    finished: list[dict[str, Any]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def read_upload(event: SimEvent, data: bytes, *, file: str = "upload") -> Upload:
    """A club's USEBIO upload as the event's results (module docstring); SimError if it is
    not a USEBIO file at all."""
    try:
        source = read_usebio(data, file=file)
    except FormatError as err:
        raise SimError(f"{file}: {err}") from err
    out = Upload(problems=[str(p) for p in source.problems
                           if "is scored" not in str(p)])   # a line without a contract
    counts: Counter[int] = Counter()
    for row in source.rows:
        r: BoardResult = row.result
        where = f"{file}: board {r.board}, {r.ns} v {r.ew}"
        if r.board not in event.boards:
            out.problems.append(f"{where}: not a board of {event.id}")
            continue
        payload = {"v": 1, "id": upload_id(r.board, r.ns, r.ew), "board": r.board,
                   "ns": r.ns, "ew": r.ew, "score_ns": r.score_ns}
        if r.adjustment is not None:     # the director's (Law 12C), as the relay sends it
            payload["adjusted"] = format_adjustment(r.adjustment)
            payload["score_ns"] = r.adjustment.score_ns \
                if isinstance(r.adjustment, Assigned) else None
        try:
            check_result(payload, event.boards)
        except SimError as err:
            out.problems.append(f"{where}: {err}")
            continue
        out.results.append(payload)
        counts[r.board] += 1
    # The upload is the club's session as its scorer scored it, after play: each board it
    # holds is closed with its lines (a sit-out, a board not played: fewer than plays).
    out.finished = [{"v": 1, "board": b, "results": n, "closed": True}
                    for b, n in sorted(counts.items())]
    return out
