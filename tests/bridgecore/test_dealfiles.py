"""Deal files DUP, DLM, BRI, DGE (formats.md §4.1-4.3): vectors, real files, round trips."""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgecore.deal import Deal
from bridgecore.dealfiles import FORMATS, detect_format, read_dealfile, write_dealfile
from bridgecore.dealnumbers import D, pavlicek_deal
from bridgecore.errors import FormatError

BIGDEAL_1 = Deal.parse("N:.K9842.JT.AKJT62 K874.73.KQ32.Q84 AQJ53.65.A7654.9 T962.AQJT.98.753")
BRI_1 = b"151920242630314041434448520207081121252829383942465001030410122223273435363745"
DGE_1 = (b"\x06\x03K9842\x04JT\x05AKJT62\x06K874\x0373\x04KQ32\x05Q84\x06AQJ53\x0365\x04A7654"
         b"\x059\x06T962\x03AQJT\x0498\x05753")
DLM_VECTOR = "afdjiihdjomjnngobidfmlcgml003"
DLM_VECTOR_DEAL = Deal.parse(
    "N:AKT53.K6.854.Q94 QJ72.T42.KQ72.A7 864.J85.J96.J863 9.AQ973.AT3.KT52")

deals = st.integers(min_value=0, max_value=D - 1).map(pavlicek_deal)


def dlm(*boards: str, header: str = "") -> bytes:
    head = header or "[Document]\nStatus=Show\nDuplicates=0\nFrom board=1\nTo board=1\nChecksum=1\n"
    return (head + "".join(f"Board {i:02d}={b}\n" for i, b in enumerate(boards, 1))).encode()


def pbn_deals(text: str) -> dict[int, Deal]:
    found = re.findall(r'\[Board "(\d+)"\]\s*\n(?:\[[^\n]*\n)*?\[Deal "([^"]+)"\]', text)
    return {int(board): Deal.parse(deal) for board, deal in found}


# formats.md vectors ----------------------------------------------------------------------------

def test_bri_and_dge_records_of_bigdeal_board_1():
    assert write_dealfile({1: BIGDEAL_1}, "bri") == BRI_1 + b" " * 32 + b"\x00" * 18
    assert write_dealfile({1: BIGDEAL_1}, "dge") == DGE_1 + b"\x00" * 60
    assert read_dealfile(BRI_1 + b" " * 32 + b"\x00" * 18, "bri").boards == {1: BIGDEAL_1}
    assert read_dealfile(DGE_1 + b"\x00" * 60, "dge").boards == {1: BIGDEAL_1}


def test_dup_record_is_bri_then_dge_then_trailer():
    assert write_dealfile({1: BIGDEAL_1}, "dup") == BRI_1 + DGE_1 + b"YN1  0 01 "


def test_dlm_vector_from_a_real_duplimate_file():
    result = read_dealfile(dlm(DLM_VECTOR), "dlm")
    assert result.problems == []
    assert result.boards == {1: DLM_VECTOR_DEAL}


# Real files ------------------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", FORMATS)
def test_dealconvert_files_agree_with_the_pbn_deal_tags(realdata, fmt):
    folder = realdata / "dealfiles"
    expected = pbn_deals((folder / "dealconvert_16boards.pbn").read_text("latin-1"))
    assert sorted(expected) == list(range(1, 17))
    data = (folder / f"dealconvert_16boards.{fmt}").read_bytes()
    assert detect_format(None, data) == fmt
    result = read_dealfile(data, fmt, file=f"dealconvert_16boards.{fmt}")
    assert result.problems == []
    assert result.boards == expected


def test_real_duplimate_dlm_upper_case_document_and_extra_keys(realdata):
    data = (realdata / "dealfiles" / "duplimate_24boards.dlm").read_bytes()
    assert data.startswith(b"[DOCUMENT]") and b"Property 01=1" in data and b"Checksum=025" in data
    result = read_dealfile(data, "dlm")
    assert result.problems == []  # header checksum 025 and all 24 board checksums verify
    assert sorted(result.boards) == list(range(1, 25))
    assert all(deal.problems() == [] for deal in result.boards.values())
    assert result.boards[1] == DLM_VECTOR_DEAL


# Writers ---------------------------------------------------------------------------------------

def test_dlm_writer_as_bigdeal_99_boards_with_dummies():
    text = write_dealfile({3: BIGDEAL_1, 4: DLM_VECTOR_DEAL}, "dlm").decode("ascii")
    lines = text.split("\r\n")
    assert lines[0] == "[Document]" and "From board=3" in lines and "To board=4" in lines
    assert "Checksum=6" in lines  # 0 ^ 3 ^ 4 ^ 1 (Show)
    boards = [line for line in lines if line.startswith("Board ")]
    assert len(boards) == 99
    assert boards[0] == "Board 01=aaaaaabffffffkkkkkklpppppp015"  # 1 ^ 14
    assert boards[98] == "Board 99=aaaaaabffffffkkkkkklpppppp109"  # 99 ^ 14
    assert read_dealfile(text.encode(), "dlm").boards == {3: BIGDEAL_1, 4: DLM_VECTOR_DEAL}


def test_blind_variants():
    sealed = write_dealfile({1: BIGDEAL_1}, "dlm", blind=True)
    assert b"Status=Sealed" in sealed and b"Checksum=0\r\n" in sealed
    assert read_dealfile(sealed, "dlm").problems == []
    dup = write_dealfile({1: BIGDEAL_1, 2: DLM_VECTOR_DEAL}, "dup", blind=True)
    assert dup[78:146] == b" " * 68 and dup[156 + 78:156 + 146] != b" " * 68
    assert read_dealfile(dup, "dup").boards == {1: BIGDEAL_1, 2: DLM_VECTOR_DEAL}


def test_dup_trailer_gives_the_lowest_board():
    data = write_dealfile({10: BIGDEAL_1, 11: DLM_VECTOR_DEAL}, "dup")
    assert data[146:156] == b"YN10 0 11 "
    assert read_dealfile(data, "dup").boards == {10: BIGDEAL_1, 11: DLM_VECTOR_DEAL}


def test_bri_and_dge_count_boards_from_the_first_record():
    data = write_dealfile({7: BIGDEAL_1}, "bri")
    assert list(read_dealfile(data, "bri").boards) == [1]
    assert list(read_dealfile(data, "bri", first_board=7).boards) == [7]


@pytest.mark.parametrize("fmt", FORMATS)
def test_writers_refuse_incomplete_deals(fmt):
    bad = Deal.parse("N:AKQJT9876543... .AKQJT98765432.. ..AKQJT98765432. 2...AKQJT98765432")
    with pytest.raises(ValueError, match="board 1: not a complete deal"):
        write_dealfile({1: bad}, fmt)


def test_writers_refuse_what_the_format_cannot_hold():
    with pytest.raises(ValueError, match="1 to 99"):
        write_dealfile({100: BIGDEAL_1}, "dlm")
    with pytest.raises(ValueError, match="1 to 99"):
        write_dealfile({99: BIGDEAL_1, 100: BIGDEAL_1}, "dup")
    with pytest.raises(ValueError, match="consecutive"):
        write_dealfile({1: BIGDEAL_1, 3: BIGDEAL_1}, "bri")
    with pytest.raises(ValueError, match="unknown"):
        write_dealfile({1: BIGDEAL_1}, "xyz")


@settings(max_examples=40)
@given(st.sampled_from(FORMATS), st.integers(min_value=1, max_value=60),
       st.lists(deals, min_size=1, max_size=8))
def test_write_then_read_is_the_identity(fmt, first, hands):
    boards = {first + i: deal for i, deal in enumerate(hands)}
    data = write_dealfile(boards, fmt)
    assert detect_format(None, data) == fmt
    start = None if fmt in ("dlm", "dup") else first
    result = read_dealfile(data, fmt, first_board=start)
    assert result.problems == []
    assert result.boards == boards


# Lenient reading -------------------------------------------------------------------------------

def test_dlm_bad_checksum_is_reported_and_the_board_kept():
    bad = DLM_VECTOR[:-3] + "004"
    result = read_dealfile(dlm(bad), "dlm", file="x.dlm")
    assert result.boards == {1: DLM_VECTOR_DEAL}
    [problem] = result.problems
    assert problem.board == 1 and problem.file == "x.dlm" and problem.line == 7
    assert "checksum 004" in problem.message


def test_dlm_hand_not_of_thirteen_is_reported_the_rest_kept():
    # Board 2: first letter 'f' (E, E) where the vector has 'a' (N, N): North 11, East 15.
    letters = "f" + DLM_VECTOR[1:26]
    check = 2
    for ch in letters:
        check ^= ord(ch)
    header = "[DOCUMENT]\nStatus=Show\nDuplicates=0\nFrom board=1\nTo board=2\nChecksum=2\n"
    result = read_dealfile(dlm(DLM_VECTOR, letters + f"{check:03d}", header=header), "dlm")
    assert result.boards[1] == DLM_VECTOR_DEAL and 2 in result.boards
    messages = [p.message for p in result.problems if p.board == 2]
    assert any("N holds 11 cards" in m for m in messages)
    assert any("E holds 15 cards" in m for m in messages)


def test_dlm_header_checksum_and_bad_values_are_reported():
    header = ("[Document]\r\nStatus=Show\r\nDuplicates=0\r\nFrom board=1\r\nTo board=1\r\n"
              "Checksum=7\r\n")
    result = read_dealfile(dlm(DLM_VECTOR, "xyz", header=header), "dlm")
    assert result.boards == {1: DLM_VECTOR_DEAL}
    assert [p.line for p in result.problems] == [6]
    header = "[Document]\nFrom board=1\nTo board=2\n"
    result = read_dealfile(dlm(DLM_VECTOR, "xyz", header=header), "dlm")
    assert [p.board for p in result.problems] == [2] and "26 letters" in result.problems[0].message


def test_bri_bad_card_number_is_reported():
    record = BRI_1[:2] + b"99" + BRI_1[4:] + b" " * 32 + b"\x00" * 18
    result = read_dealfile(record + write_dealfile({1: DLM_VECTOR_DEAL}, "bri"), "bri")
    assert result.boards[2] == DLM_VECTOR_DEAL
    messages = [p.message for p in result.problems if p.board == 1]
    assert any("bad card number '99'" in m for m in messages)
    assert any("N holds 12 cards" in m for m in messages)


def test_dup_whose_dge_part_disagrees_is_reported():
    data = bytearray(write_dealfile({1: BIGDEAL_1}, "dup"))
    data[80] = ord("Q")  # a heart K becomes Q in the DGE part
    result = read_dealfile(bytes(data), "dup")
    assert result.boards == {1: BIGDEAL_1}
    assert "disagrees" in result.problems[0].message


@pytest.mark.parametrize("fmt,data", [
    ("dlm", b""), ("dlm", b"hello"), ("bri", b"\x00" * 128), ("dge", b"  \r\n"),
    ("dup", b"x" * 156), ("pbn", b"[Board \"1\"]"),
])
def test_nothing_readable_is_a_format_error(fmt, data):
    with pytest.raises(FormatError):
        read_dealfile(data, fmt, file="bad")


@given(st.sampled_from(FORMATS), st.binary(max_size=400))
def test_fuzz_never_crashes(fmt, data):
    try:
        result = read_dealfile(data, fmt)
    except FormatError:
        return
    assert all(board >= 1 for board in result.boards)
    assert all(isinstance(deal, Deal) for deal in result.boards.values())


def test_detect_format_by_name_then_content():
    assert detect_format("SESSION.DLM", b"") == "dlm"
    assert detect_format("a.bri", b"") == "bri"
    assert detect_format(None, b"\xef\xbb\xbf[document]\r\n") == "dlm"
    assert detect_format("x.txt", b"hello") is None


def test_bri_card_given_twice_is_reported_once():
    record = BRI_1[:2] + BRI_1[:2] + BRI_1[4:] + b" " * 32 + b"\x00" * 18  # 15 (HK) twice, no 19
    result = read_dealfile(record, "bri")
    messages = [p.message for p in result.problems]
    assert messages.count("cards given more than once: HK") == 1
    assert any("W holds 14 cards" in m for m in messages)
