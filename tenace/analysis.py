"""``tenace analyse``: double-dummy tags added to hand records.

The solving is :mod:`bridgecore.doubledummy` (endplay, the ``analysis`` extra, imported
only when a deal is solved). The tags written are the ones hand records carry
(formats.md 1.6): DoubleDummyTricks, OptimumResultTable, OptimumScore and ParContract.
"""

from __future__ import annotations

from collections.abc import Sequence

from bridgecore.cards import Seat
from bridgecore.deal import Deal
from bridgecore.doubledummy import DD_STRAINS, solve_deals
from bridgecore.record import GameRecord, Table
from bridgecore.vulnerability import Vulnerability

__all__ = ["analyse_records"]


def analyse_records(records: Sequence[GameRecord]) -> int:
    """Add double-dummy tags to every record whose deal is complete; returns how many."""
    todo: list[tuple[GameRecord, Deal, Seat, Vulnerability]] = []
    for record in records:
        if record.deal is None or record.deal.problems():
            continue
        board = record.board if record.board is not None and record.board >= 1 else 1
        dealer = record.dealer if record.dealer is not None else Seat.dealer_of(board)
        vul = (record.vulnerability if record.vulnerability is not None
               else Vulnerability.of_board(board))
        todo.append((record, record.deal, dealer, vul))
    results = solve_deals([(d, dealer, vul) for _, d, dealer, vul in todo])
    for (record, _, _, _), result in zip(todo, results, strict=True):
        record.tags["DoubleDummyTricks"] = result.pbn_tricks
        record.tags["OptimumScore"] = result.optimum_score
        if result.par_contracts:
            record.tags["ParContract"] = "; ".join(dict.fromkeys(result.par_contracts))
        table = Table(["Declarer", "Denomination\\2R", "Result\\2R"],
                      [[seat.letter, strain.symbol, str(result.tricks[seat, strain])]
                       for seat in (Seat.WEST, Seat.NORTH, Seat.EAST, Seat.SOUTH)
                       for strain in DD_STRAINS])
        record.tables["OptimumResultTable"] = table
        record.tags["OptimumResultTable"] = ";".join(table.columns)
    return len(todo)
