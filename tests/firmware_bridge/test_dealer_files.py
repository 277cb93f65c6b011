"""File exchange with dealing machines' software and ``tenace devices dealer`` (through its
``add_parsers``): export DLM, DUP, PBN; import what a machine dealt; drive the simulator;
real files written by Duplimate, deal-convert and Dealer4 users."""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

import pytest

from bridgecore.bigdeal import secure_deals
from bridgecore.cards import Seat
from bridgecore.deal import Deal
from bridgecore.dealfiles import read_dealfile
from bridgecore.pbn import read_pbn
from firmware_bridge.dealer import DealerFileError
from firmware_bridge.dealer_files import export_boards, load_boards, read_dealt
from tenace.commands import CommandError
from tenace.dealer_cli import add_parsers

EVENT = """
[event]
name = "Dealing test"
[boards]
file = "{board_file}"
[[section]]
movement = "mitchell"
tables = 3
boards_per_round = 2
"""


def tenace_devices(*words: str) -> int:
    parser = argparse.ArgumentParser(prog="tenace devices")
    add_parsers(parser.add_subparsers(dest="device_command", required=True))
    args = parser.parse_args(list(words))
    code: int = args.run(args)
    return code


def write_pbn(path: Path, boards: dict[int, Deal]) -> Path:
    path.write_bytes(export_boards(boards, "pbn"))
    return path


@pytest.fixture
def hand_record(tmp_path: Path) -> Path:
    return write_pbn(tmp_path / "session.pbn", secure_deals(1, 8))


@pytest.mark.parametrize("fmt", ["dlm", "dup", "pbn"])
def test_export_for_the_machine_software_reads_back_the_same_deals(fmt: str, hand_record: Path,
                                                                   tmp_path: Path) -> None:
    out = tmp_path / f"machine.{fmt}"
    assert tenace_devices("dealer", "export", "--boards", str(hand_record), "-o", str(out)) == 0
    boards = load_boards(str(hand_record))
    if fmt == "pbn":
        records = read_pbn(out.read_bytes()).records
        back = {r.board: r.deal for r in records}
        assert [r.dealer for r in records[:4]] == [Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST]
    else:
        back = read_dealfile(out.read_bytes(), fmt).boards
    assert back == boards


def test_export_blind_range_and_options_before_the_action(hand_record: Path,
                                                          tmp_path: Path) -> None:
    out = tmp_path / "sealed.dlm"
    assert tenace_devices("dealer", "--boards", str(hand_record), "--range", "3-5", "export",
                          "-o", str(out), "--blind") == 0
    text = out.read_text()
    assert "Status=Sealed" in text and "From board=3" in text and "To board=5" in text
    assert sorted(read_dealfile(out.read_bytes(), "dlm").boards) == [3, 4, 5]


def test_export_from_the_hubs_event_setup(tmp_path: Path, realdata: Path) -> None:
    """The deals the hub checks against are the deals the machine gets."""
    source = tmp_path / "boards.dlm"
    shutil.copy(realdata / "dealfiles" / "duplimate_24boards.dlm", source)
    event = tmp_path / "event.toml"
    event.write_text(EVENT.format(board_file=source.name))
    out = tmp_path / "for_machine.dup"
    assert tenace_devices("dealer", "export", "--boards", str(event), "-o", str(out)) == 0
    from hub.event import EventSetup
    assert read_dealfile(out.read_bytes(), "dup").boards == dict(EventSetup.load(event).deals)


def test_file_problems_are_one_clear_error(tmp_path: Path, hand_record: Path) -> None:
    deals = secure_deals(1, 2)
    short = Deal({**{s: deals[1][s] for s in Seat}, Seat.EAST: deals[1][Seat.EAST].cards[:12]})
    bad = write_pbn(tmp_path / "bad.pbn", {1: short, 2: deals[2]})
    with pytest.raises(DealerFileError, match=r"board 1: .*12 cards"):
        load_boards(str(bad))
    with pytest.raises(CommandError, match="say --format"):
        tenace_devices("dealer", "export", "--boards", str(hand_record), "-o",
                       str(tmp_path / "x.txt"))
    with pytest.raises(CommandError, match="DLM holds boards 1 to 99"):
        many = write_pbn(tmp_path / "many.pbn", secure_deals(99, 100))
        tenace_devices("dealer", "export", "--boards", str(many), "-o", str(tmp_path / "m.dlm"))
    with pytest.raises(CommandError, match="--range wants"):
        tenace_devices("dealer", "export", "--boards", str(hand_record), "--range", "x", "-o",
                       str(tmp_path / "m.dlm"))
    with pytest.raises(CommandError, match="cannot read"):
        tenace_devices("dealer", "export", "--boards", str(tmp_path / "none.pbn"), "-o",
                       str(tmp_path / "m.dlm"))


def test_import_real_machine_files_against_their_hand_record(capsys: pytest.CaptureFixture[str],
                                                             realdata: Path) -> None:
    """deal-convert's DUP and DLM of the same 16 boards as its PBN: every board checks."""
    folder = realdata / "dealfiles"
    for machine_file in ("dealconvert_16boards.dup", "dealconvert_16boards.dlm"):
        assert tenace_devices("dealer", "import", str(folder / machine_file), "--boards",
                              str(folder / "dealconvert_16boards.pbn")) == 0
        out = capsys.readouterr().out
        assert out.count(", checked") == 16 and "16 of 16 boards dealt, 0 not matching" in out


def test_law_87_import_finds_the_displaced_card_and_the_missing_boards(
        hand_record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    boards = load_boards(str(hand_record))
    north, south = boards[2][Seat.NORTH].cards, boards[2][Seat.SOUTH].cards
    swapped = Deal({Seat.NORTH: (*north[1:], south[0]), Seat.EAST: boards[2][Seat.EAST],
                    Seat.SOUTH: (*south[1:], north[0]), Seat.WEST: boards[2][Seat.WEST]})
    dealt = {n: boards[n] for n in range(1, 6)} | {2: swapped}
    machine_file = write_pbn(tmp_path / "dealt.pbn", dealt)
    assert read_dealt(str(machine_file))[2] == swapped
    code = tenace_devices("dealer", "import", str(machine_file), "--boards", str(hand_record))
    out = capsys.readouterr().out
    assert code == 3            # boards 6-8 were not in the machine's file
    assert f"board 2 (2/8), MISDEALT: N lacks {north[0]}, holds {south[0]} (S's)" in out
    assert "not in the machine's file: boards 6, 7, 8" in out


def test_drive_the_simulator_from_a_real_dealer4_hand_record(
        realdata: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hand_record = realdata / "pbn-handrecords" / "dealer4_482_sunset_dd.pbn"
    boards = load_boards(str(hand_record))
    code = tenace_devices("dealer", "--url", "sim://?faults=2:wrong_pocket", "--boards",
                          str(hand_record), "--range", "1-4", "--copies", "2")
    out = capsys.readouterr().out.splitlines()
    assert code == 1 and len(boards) >= 4
    assert out[1] == "board 1 copy 1 dealt (1/8), checked"
    assert out[3].startswith("board 2 copy 1 dealt (3/8), MISDEALT: ")
    assert out[4] == "board 2 copy 2 dealt (4/8), checked"
    assert out[9] == "8 of 8 boards dealt, 1 not matching the hand record"


def test_drive_needs_a_machine_and_a_hand_record(hand_record: Path) -> None:
    with pytest.raises(CommandError, match="--url URL"):
        tenace_devices("dealer", "--boards", str(hand_record))
    with pytest.raises(CommandError, match="--boards FILE"):
        tenace_devices("dealer", "--url", "sim://")
    with pytest.raises(CommandError, match="cannot open"):
        tenace_devices("dealer", "--url", "/dev/no-such-port", "--boards", str(hand_record))
    with pytest.raises(CommandError, match="write BOARD:KIND"):
        tenace_devices("dealer", "--url", "sim://?faults=2:boom", "--boards", str(hand_record))
    with pytest.raises(CommandError, match="faults of the line need a line"):
        tenace_devices("dealer", "--url", "sim://?faults=2:garble", "--boards",
                       str(hand_record))
