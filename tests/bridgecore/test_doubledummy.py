"""Double-dummy solving (bridgecore/doubledummy.py, endplay imported lazily, only there)."""

from __future__ import annotations

import subprocess
import sys

from bridgecore.cards import Seat, Strain
from bridgecore.deal import Deal
from bridgecore.doubledummy import DDResult, solve_deals
from bridgecore.errors import AnalysisUnavailable, BridgeError
from bridgecore.vulnerability import Vulnerability

TOPS = Deal.parse("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432")


def test_importing_bridgecore_does_not_import_endplay() -> None:
    code = ("import sys, bridgecore, bridgecore.doubledummy, bridgecore.records;"
            "print('endplay' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "False"


def test_analysis_unavailable_is_a_bridgecore_error() -> None:
    assert issubclass(AnalysisUnavailable, BridgeError)
    assert issubclass(AnalysisUnavailable, RuntimeError)


def test_solved_tricks_and_par_of_a_deal_of_solid_suits() -> None:
    [result] = solve_deals([(TOPS, Seat.NORTH, Vulnerability.NONE)])
    assert isinstance(result, DDResult)
    assert result.tricks[Seat.NORTH, Strain.SPADES] == 13
    assert result.tricks[Seat.EAST, Strain.HEARTS] == 13
    assert len(result.pbn_tricks) == 20
    assert result.optimum_score.startswith("NS ")
    assert solve_deals([]) == []
