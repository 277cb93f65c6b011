"""Double-dummy tricks and par of a deal, through endplay (which bundles the DDS solver).

endplay is the ``analysis`` extra and costs about 0.6 s to import, so it is imported
only here, and only when a deal is solved: without it :func:`solve_deals` raises
:class:`~bridgecore.errors.AnalysisUnavailable` and everything else in bridgecore works.
This is the one module of the code base that imports endplay. :class:`DDResult` also
gives the values hand records carry (formats.md 1.6): DoubleDummyTricks (20 hex digits,
declarers N, S, E, W, strains NT, S, H, D, C) and OptimumScore.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from bridgecore.cards import Seat, Strain
from bridgecore.deal import Deal
from bridgecore.errors import AnalysisUnavailable
from bridgecore.vulnerability import Vulnerability

__all__ = ["DD_SEATS", "DD_STRAINS", "AnalysisUnavailable", "DDResult", "solve_deals"]

DD_SEATS = (Seat.NORTH, Seat.SOUTH, Seat.EAST, Seat.WEST)
DD_STRAINS = (Strain.NOTRUMP, Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS)
# endplay's Denom order is spades, hearts, diamonds, clubs, notrump (solver order).
_ENDPLAY_DENOM_ROW = {Strain.SPADES: 0, Strain.HEARTS: 1, Strain.DIAMONDS: 2, Strain.CLUBS: 3,
                      Strain.NOTRUMP: 4}


class DDResult:
    """Double-dummy tricks for each (declarer, strain) and the par of one deal."""

    __slots__ = ("par_contracts", "par_score_ns", "tricks")

    def __init__(self, tricks: dict[tuple[Seat, Strain], int], par_score_ns: int,
                 par_contracts: list[str]):
        self.tricks = tricks
        self.par_score_ns = par_score_ns
        self.par_contracts = par_contracts

    @property
    def pbn_tricks(self) -> str:
        """The DoubleDummyTricks value: hex digits, declarers N S E W, strains NT S H D C."""
        return "".join(f"{self.tricks[seat, strain]:x}" for seat in DD_SEATS
                       for strain in DD_STRAINS)

    @property
    def optimum_score(self) -> str:
        """North-South's par score, signed, as hand-record programs write it: ``"NS -100"``."""
        return f"NS {self.par_score_ns}"


_DDS = threading.Lock()


def _endplay() -> Any:
    try:
        import endplay.dds as dds
        import endplay.types as types
    except ImportError as err:
        raise AnalysisUnavailable(
            "double-dummy analysis needs endplay: pip install 'tenace[analysis]'") from err
    return dds, types


def solve_deals(deals: Sequence[tuple[Deal, Seat, Vulnerability]]) -> list[DDResult]:
    """Double-dummy table and par for each (deal, dealer, vulnerability)."""
    dds, types = _endplay()
    vul_map = {Vulnerability.NONE: types.Vul.none, Vulnerability.NS: types.Vul.ns,
               Vulnerability.EW: types.Vul.ew, Vulnerability.BOTH: types.Vul.both}
    players = [types.Player.north, types.Player.east, types.Player.south, types.Player.west]
    results: list[DDResult] = []
    ep_deals = [types.Deal(d.pbn()) for d, _, _ in deals]
    with _DDS:   # the DDS library keeps global state: one call at a time in a process
        tables = dds.calc_all_tables(ep_deals) if ep_deals else []
    for (_, dealer, vul), table in zip(deals, tables, strict=True):
        rows = table.to_list()
        tricks = {(seat, strain): int(rows[_ENDPLAY_DENOM_ROW[strain]][seat])
                  for seat in Seat for strain in Strain}
        with _DDS:
            par = dds.par(table, vul_map[vul], players[dealer])
        contracts = [_par_text(c) for c in par]
        results.append(DDResult(tricks, int(par.score), contracts))
    return results


def _par_text(contract: Any) -> str:
    """endplay Contract -> ``"NS 4S"``, ``"EW 5HX-2"``."""
    seat = Seat.parse(contract.declarer.name)
    strain = {0: "S", 1: "H", 2: "D", 3: "C", 4: "NT"}[int(contract.denom)]
    risk = {"doubled": "X", "redoubled": "XX"}.get(contract.penalty.name, "")
    level = int(contract.level)
    tricks = int(contract.result)
    suffix = f"+{tricks}" if tricks > 0 else (f"{tricks}" if tricks < 0 else "")
    return f"{seat.side} {level}{strain}{risk}{suffix}"
