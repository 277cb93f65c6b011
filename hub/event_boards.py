"""An event's boards: the deals of its ``[boards]`` table, read or generated, checked.

The deals come from a board file (``file``: a PBN file, whose ``Dealer`` and ``Vulnerable``
are kept where they are not Law 2's, or a deal file, :mod:`bridgecore.dealfiles`) or are
generated (``generate``: BigDeal from a ``seed`` and ``owner``, else secure random deals).
Either way every board the sections' movements play must have a complete deal: what a file
lacks, and the problems of its boards played, are said by file and board; the problems of
boards not played are only logged. Only the boards played are kept.

Apart from :mod:`hub.event` because it reads files and deals, not the event's keys: the set-up
(:func:`hub.event.read_document`, :meth:`hub.event.EventSetup.quick`) asks it for the deals
of its sections and checks a set-up's deals with :func:`boards_lacking`.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from pathlib import Path

from bridgecore.bigdeal import BigDeal, secure_deals
from bridgecore.deal import Deal
from bridgecore.dealfiles import FORMATS, read_dealfile
from bridgecore.errors import BridgeError
from bridgecore.markings import Markings
from bridgecore.movements import ranges
from bridgecore.record import RecordProblem
from hub.errors import ConfigError
from hub.event_values import _board_range, _Keys, _optional, _seed, _text
from hub.section_setup import SectionSetup

__all__ = ["BOARD_FORMATS", "DEFAULT_OWNER", "boards_lacking", "generate_deals", "read_boards"]

log = logging.getLogger(__name__)

DEFAULT_OWNER = "Tenace"
"""BigDeal owner string when a seed is given without one."""
BOARD_FORMATS = ("pbn", *FORMATS)


def _needed(sections: Iterable[SectionSetup]) -> dict[int, list[SectionSetup]]:
    """Board number -> the sections that play it."""
    out: dict[int, list[SectionSetup]] = {}
    for s in sections:
        for b in s.movement.boards:
            out.setdefault(b, []).append(s)
    return dict(sorted(out.items()))


def boards_lacking(have: Iterable[int], sections: Iterable[SectionSetup]) -> list[str]:
    """For each section, the boards it plays that ``have`` lacks."""
    present = set(have)
    out = []
    for s in sections:
        missing = [b for b in s.movement.boards if b not in present]
        if missing:
            out.append(f"boards {ranges(missing)}, which section {s.name!r} "
                       f"({s.movement.name}) plays")
    return out


def generate_deals(boards: range, seed: bytes | None, owner: str) -> tuple[dict[int, Deal], str]:
    if seed is None:
        return secure_deals(boards.start, boards.stop - 1), "secure random deals (CSPRNG)"
    return (BigDeal(seed, owner).deals(boards.start, boards.stop - 1),
            f"BigDeal boards {ranges(boards)}, seed {seed.hex()}, owner {owner!r}")


def _read_board_file(path: Path, shown: str, fmt: str
                     ) -> tuple[dict[int, Deal], dict[int, Markings], list[RecordProblem]]:
    """The deals of a PBN or deal file, the markings of the boards whose ``Dealer`` or
    ``Vulnerable`` is not Law 2's (a deal file has none: Law 2), and its problems;
    ConfigError if it cannot be read."""
    try:
        data = path.read_bytes()
    except OSError as err:
        raise ConfigError(f"cannot read {shown}: {err.strerror or err}") from err
    try:
        if fmt != "pbn":
            dealset = read_dealfile(data, fmt, file=shown)
            return dealset.boards, {}, dealset.problems
        from bridgecore.pbn import read_pbn
        pbn = read_pbn(data, file=shown)
    except BridgeError as err:
        raise ConfigError(str(err)) from err
    deals: dict[int, Deal] = {}
    markings: dict[int, Markings] = {}
    problems = list(pbn.problems)
    for record in pbn.records:
        if record.board is None or record.deal is None:
            continue
        kept = deals.setdefault(record.board, record.deal)
        if kept != record.deal:
            problems.append(RecordProblem(f"board {record.board} appears again with "
                                          "another deal; the first one is kept", shown,
                                          record.line, record.board))
            continue
        if record.board >= 1 and record.board not in markings:
            marked = Markings.given(record.board, record.dealer, record.vulnerability)
            if marked.law_2_differences(record.board):
                markings[record.board] = marked
    return deals, markings, problems


def _file_deals(keys: _Keys, base: Path, sections: list[SectionSetup]
                ) -> tuple[dict[int, Deal], str, dict[int, Markings]] | None:
    """The deals of ``[boards] file``; None with the problems noted."""
    shown = keys.get("file", _text, "")
    fmt = keys.get("format", _text, "").lower().lstrip(".")
    keys.done()
    if not shown:
        keys.bad("file", "an empty file name")
        return None
    path = base / shown
    fmt = fmt or path.suffix.lower().lstrip(".")
    if fmt not in BOARD_FORMATS:
        keys.bad("format" if keys.data.get("format") else "file",
                 f"unknown board file format {fmt!r} ({', '.join(BOARD_FORMATS)})")
        return None
    try:
        deals, markings, problems = _read_board_file(path, shown, fmt)
    except ConfigError as err:
        keys.bad("file", str(err))
        return None
    needed = _needed(sections)
    lacking = boards_lacking(deals, sections)
    # The reader's problems on the boards played (and, when boards are missing, those
    # that name no board), then the incomplete deals the reader said nothing about.
    relevant = [p for p in problems if p.board in needed or (lacking and p.board is None)]
    said = {p.board for p in relevant}
    lines = [str(p) for p in relevant]
    lines += [f"{shown}: board {b}: not a complete deal: "
              f"{'; '.join(map(str, deals[b].problems())) or 'hands not given'}"
              for b in needed if b in deals and not deals[b].is_complete and b not in said]
    for p in problems:
        if p not in relevant:
            log.warning("board file: %s (a board not played)", p)
    if lacking:
        keys.bad("file", f"{shown} lacks " + "; ".join(lacking) +
                 (f" (it has boards {ranges(deals)})" if deals else ""))
    if lines:
        keys.bad("file", f"{shown} has problems with the boards played:\n    " +
                 "\n    ".join(lines))
    if lacking or lines:
        return None
    return ({b: deals[b] for b in needed}, f"{fmt.upper()} file {shown}",
            {b: m for b, m in markings.items() if b in needed})


def read_boards(keys: _Keys, base: Path, sections: list[SectionSetup]
            ) -> tuple[dict[int, Deal], str, dict[int, Markings]] | None:
    if keys.has("file"):
        for other in ("generate", "seed", "owner"):
            if keys.has(other):
                keys.bad(other, "not with a board file (file = ...)")
        return _file_deals(keys, base, sections)
    boards = keys.get("generate", _board_range, None)
    seed = keys.get("seed", _optional(_seed), None)
    owner = keys.get("owner", _text, DEFAULT_OWNER)
    if keys.has("format"):
        keys.bad("format", "only with a board file (file = ...)")
    keys.done()
    needed = _needed(sections)
    boards = boards or range(1, max(needed, default=1) + 1)
    lacking = boards_lacking(boards, sections)
    if lacking:
        keys.bad("generate", f"boards {ranges(boards)} lack " + "; ".join(lacking))
    if len(keys.problems) > 0:
        return None
    deals, source = generate_deals(boards, seed, owner)
    return {b: deals[b] for b in needed}, source, {}
