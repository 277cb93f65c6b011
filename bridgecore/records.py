"""Any game-record file read into records, its format chosen by the file's extension.

:func:`read_records` reads PBN (``.pbn`` and anything unknown), LIN (``.lin``) and the
dealing machines' files (``.dlm``, ``.dup``, ``.bri``, ``.dge``: deals only). A deal file
carries no dealer or vulnerability (formats.md 4), so its records take them from the
board number (Law 2: :meth:`~bridgecore.cards.Seat.dealer_of`,
:meth:`~bridgecore.vulnerability.Vulnerability.of_board`); PBN and LIN records keep the
markings their file gives. Readers are lenient: what cannot be read of a board is a
problem of that record, and a deal file's problems go to ``warn`` (logged by default). A
file that cannot be read at all raises :class:`~bridgecore.errors.FormatError` (a
:class:`~bridgecore.errors.BridgeError`) naming it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from pathlib import Path

from bridgecore.cards import Seat
from bridgecore.deal import Deal
from bridgecore.errors import FormatError
from bridgecore.record import GameRecord, RecordProblem
from bridgecore.vulnerability import Vulnerability

__all__ = ["DEAL_FORMATS", "read_records", "records_from_deals"]

log = logging.getLogger(__name__)

DEAL_FORMATS = ("dlm", "dup", "bri", "dge")
"""The dealing machines' file formats (deals only), by extension."""


def _log_problem(problem: RecordProblem) -> None:
    log.warning("%s", problem)


def read_records(path: str | Path,
                 warn: Callable[[RecordProblem], None] = _log_problem) -> list[GameRecord]:
    """Every record of the PBN, LIN or deal file at ``path`` (module docstring)."""
    from bridgecore.dealfiles import read_dealfile
    from bridgecore.lin import read_lin
    from bridgecore.pbn import read_pbn

    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as err:
        raise FormatError(f"cannot read: {err.strerror or err}", file=str(path)) from err
    kind = p.suffix.lower().lstrip(".")
    if kind == "lin":
        return read_lin(data, file=str(p)).records
    if kind in DEAL_FORMATS:
        dealset = read_dealfile(data, kind, file=str(p))
        for problem in dealset.problems:
            warn(problem)
        return records_from_deals(dealset.boards)
    return read_pbn(data, file=str(p)).records


def records_from_deals(boards: Mapping[int, Deal]) -> list[GameRecord]:
    """A record per board of a deal file, dealer and vulnerability by the number (Law 2)."""
    return [GameRecord(board=n, dealer=Seat.dealer_of(n),
                       vulnerability=Vulnerability.of_board(n), deal=d)
            for n, d in sorted(boards.items())]
