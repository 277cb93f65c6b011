"""File exchange with dealing machines: what their own software reads and writes today.

Real machines are driven by their vendors' programs (Duplimate: DLM and DUP; Dealer4: PBN;
formats.md §4.7), so the first way to a machine is a file:

* :func:`load_boards` reads a board set, the hand record, from a PBN, LIN or deal file
  (through :func:`bridgecore.records.read_records`, as ``tenace convert`` does);
  :func:`select_boards` checks a board set from elsewhere (the command line reads the hub's
  event set-up, a ``.toml`` event file, for the deals the hub itself will check against, and
  passes them here);
* :func:`export_boards` writes it as DLM, DUP (``blind``: hands not shown on the machine's
  screen) or PBN, with bridgecore's writers;
* :func:`read_dealt` reads back what the machine says it dealt, leniently: a short or long
  hand is exactly what has to be compared, not a reason to stop.
"""

from __future__ import annotations

from collections.abc import Mapping

from bridgecore.cards import Seat
from bridgecore.deal import Deal
from bridgecore.errors import BridgeError
from bridgecore.record import GameRecord
from bridgecore.records import read_records
from bridgecore.vulnerability import Vulnerability
from firmware_bridge.errors import DealerFileError

__all__ = ["EXPORT_FORMATS", "export_boards", "load_boards", "read_dealt"]

EXPORT_FORMATS = ("dlm", "dup", "pbn")


def _records(path: str) -> list[GameRecord]:
    try:
        return read_records(path)
    except BridgeError as err:
        raise DealerFileError(str(err)) from err


def read_dealt(path: str) -> dict[int, Deal]:
    """Every board of a file the machine (or its software) wrote: board -> the deal as
    dealt, complete or not."""
    boards: dict[int, Deal] = {}
    for record in _records(path):
        if record.board is not None and record.deal is not None:
            boards[record.board] = record.deal
    if not boards:
        raise DealerFileError(f"{path}: no board with a deal in it")
    return boards


def load_boards(path: str, only: range | None = None) -> dict[int, Deal]:
    """The hand record of a board set read from a record or deal file (module docstring),
    ``only`` the boards in a range; DealerFileError naming the file and every board that is
    not a complete deal."""
    return select_boards(read_dealt(path), only, path)


def select_boards(boards: Mapping[int, Deal], only: range | None = None,
                  source: str = "the hand record") -> dict[int, Deal]:
    """``boards`` in board order, ``only`` those in a range, each a complete deal: what a
    machine can deal. DealerFileError naming ``source`` and every board that is not."""
    if only is not None:
        boards = {n: d for n, d in boards.items() if n in only}
        if not boards:
            raise DealerFileError(f"{source}: no board in {only.start}-{only.stop - 1}")
    bad = [f"board {n}: {'; '.join(map(str, d.problems())) or 'hands not given'}"
           for n, d in sorted(boards.items()) if not d.is_complete]
    if bad:
        raise DealerFileError(f"{source}: a machine deals complete deals only: "
                              + "; ".join(bad))
    return dict(sorted(boards.items()))


def export_boards(boards: Mapping[int, Deal], fmt: str, *, blind: bool = False) -> bytes:
    """The board set as a file for the machine's software: ``dlm``, ``dup`` or ``pbn``
    (Law 2 dealer and vulnerability from the board numbers)."""
    fmt = fmt.lower().lstrip(".")
    if fmt not in EXPORT_FORMATS:
        raise DealerFileError(f"unknown format {fmt!r} for a dealing machine "
                              f"({', '.join(EXPORT_FORMATS)})")
    if fmt == "pbn":
        from bridgecore.pbn import write_pbn

        records = [GameRecord(board=n, dealer=Seat.dealer_of(n),
                              vulnerability=Vulnerability.of_board(n), deal=d,
                              tags={"Generator": "Tenace hand record for a dealing machine"})
                   for n, d in sorted(boards.items())]
        return write_pbn(records).encode("latin-1")
    from bridgecore.dealfiles import write_dealfile

    try:
        return write_dealfile(boards, fmt, blind=blind,
                              headline="Tenace hand record for a dealing machine")
    except ValueError as err:
        raise DealerFileError(f"{fmt.upper()}: {err}") from err
