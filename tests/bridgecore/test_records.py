"""Any record file read into records (bridgecore/records.py): PBN, LIN, deal files."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bridgecore.bigdeal import random_deal
from bridgecore.cards import Seat
from bridgecore.dealfiles import write_dealfile
from bridgecore.errors import BridgeError, FormatError
from bridgecore.pbn_writer import write_pbn
from bridgecore.record import GameRecord
from bridgecore.records import read_records
from bridgecore.vulnerability import Vulnerability


def test_a_file_that_cannot_be_read_is_a_format_error_naming_it(tmp_path: Path) -> None:
    missing = tmp_path / "none.pbn"
    with pytest.raises(FormatError, match=r"none\.pbn: cannot read") as err:
        read_records(missing)
    assert isinstance(err.value, BridgeError)


def test_law_2_deal_files_take_dealer_and_vulnerability_from_the_board_number(
        tmp_path: Path) -> None:
    """A DLM file carries no dealer or vulnerability (formats.md 4.2): Law 2 by number."""
    rng = random.Random(5)
    deals = {n: random_deal(rng) for n in range(1, 6)}
    path = tmp_path / "set.dlm"
    data = write_dealfile(deals, "dlm")
    path.write_bytes(data if isinstance(data, bytes) else data.encode())
    records = read_records(path)
    assert [r.board for r in records] == [1, 2, 3, 4, 5]
    assert [r.dealer for r in records] == [Seat.dealer_of(n) for n in range(1, 6)]
    assert [r.vulnerability for r in records] == [Vulnerability.of_board(n)
                                                   for n in range(1, 6)]
    assert [r.deal for r in records] == [deals[n] for n in range(1, 6)]


def test_pbn_records_keep_the_markings_of_their_file(tmp_path: Path) -> None:
    deal = random_deal(random.Random(9))
    record = GameRecord(board=1, dealer=Seat.WEST, vulnerability=Vulnerability.BOTH, deal=deal)
    path = tmp_path / "odd.pbn"
    path.write_text(write_pbn([record]), encoding="utf-8")
    [read] = read_records(path)
    assert (read.board, read.dealer, read.vulnerability) == (1, Seat.WEST,
                                                              Vulnerability.BOTH)
