"""The BridgeWebs results file (bridgecore/bridgewebs.py), against a real file BridgeWebs
wrote (tests/data/realdata/pbn-results/, Creator: Bridgewebs): read, then written again, it
is the same file byte for byte; what Tenace writes reads back to the same results."""

from __future__ import annotations

from pathlib import Path

from bridgecore.adjusted import Artificial, ArtificialScore, BoardResult
from bridgecore.bridgewebs import SCORE_TABLE, write_bridgewebs
from bridgecore.calls import Contract
from bridgecore.cards import Seat
from bridgecore.results_io import ResultsFile, TableResult, read_pbn_results

FILE = "pbn-results/bridgewebs_welwyn_2025-04-09.pbn"


def test_a_real_bridgewebs_file_is_written_back_byte_for_byte(realdata: Path) -> None:
    path = realdata / FILE
    source = read_pbn_results(path)
    assert not source.problems and len(source.rows) == 144
    assert write_bridgewebs(source).encode("latin-1") == path.read_bytes()


def test_what_is_written_reads_back_to_the_same_results(tmp_path: Path) -> None:
    average = Artificial(ArtificialScore.AVERAGE, ArtificialScore.AVERAGE)
    rows = [
        TableResult(BoardResult(1, 1, 8, 420), Contract.parse("4S", Seat.NORTH), tricks=10),
        TableResult(BoardResult(1, 2, 7, -300), Contract.parse("3NTX", Seat.SOUTH), tricks=7),
        TableResult(BoardResult(1, 3, 6, 0), passed_out=True),
        TableResult(BoardResult(1, 4, 5, None, average)),
        TableResult(BoardResult(2, 1, 8, -640), Contract.parse("2HXX", Seat.WEST), tricks=8),
    ]
    source = ResultsFile(rows=rows, title="Club pairs", date="2026.11.26")
    text = write_bridgewebs(source, site="Tenace club")
    assert f'[ScoreTable "{SCORE_TABLE}"]\r\n1    8    4S    N 10\r\n' in text
    assert "2    7    3NT*  S  7\r\n3    6    PO    -  -\r\n4    5    A     A  A\r\n" in text
    assert "1    8    2H**  W  8\r\n" in text
    assert '[Site "Tenace club"]' in text and '[Vulnerable "NS"]' in text
    path = tmp_path / "bw.pbn"
    path.write_bytes(text.encode("latin-1"))
    back = read_pbn_results(path)
    assert not back.problems
    assert [r.result for r in back.rows] == [r.result for r in rows]
    assert [(r.contract, r.tricks, r.passed_out) for r in back.rows] == [
        (r.contract, r.tricks, r.passed_out) for r in rows]
