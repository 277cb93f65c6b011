"""The dealing machine's serial framing and messages, with no port (serial_frames.py,
dealer_messages.py): CRC, round trips, every kind of bad input counted, and fuzzing."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgecore.bigdeal import random_deal
from bridgecore.cards import ALL_CARDS, Seat
from bridgecore.deal import Deal
from firmware_bridge.dealer_messages import (
    BoardDealt,
    CardError,
    ErrorCode,
    Fault,
    Hello,
    Info,
    LoadBoard,
    MachineState,
    MessageError,
    MsgType,
    Nack,
    NackCode,
    Pause,
    Start,
    Status,
    decode,
    frame_of,
    frame_parser,
    pockets_of,
)
from firmware_bridge.serial_frames import MAX_PAYLOAD, SOF, Frame, FrameParser, crc16

DEAL = random_deal(random.Random(5))


def report(board: int = 7) -> BoardDealt:
    pockets = dict(pockets_of(DEAL))
    pockets[Seat.WEST] = (*pockets[Seat.WEST][:12], None)
    return BoardDealt(board, 1, pockets, (CardError(ErrorCode.MISREAD, Seat.WEST),))


def test_crc16_ccitt_false_check_value() -> None:
    assert crc16(b"123456789") == 0x29B1
    assert crc16(b"") == 0xFFFF


def test_frame_layout() -> None:
    data = Frame(0x83, 9, b"\x01\x02").encode()
    assert data[:6] == bytes((SOF, 1, 0x83, 9, 0, 2)) and data[6:8] == b"\x01\x02"
    assert int.from_bytes(data[8:], "big") == crc16(data[1:8])
    with pytest.raises(ValueError):
        Frame(0x100, 0)
    with pytest.raises(ValueError):
        Frame(1, 0, bytes(MAX_PAYLOAD + 1))


@pytest.mark.parametrize("message", [
    Hello(1), Info(1, "Model", "fw 2.1", "SN 42"), LoadBoard(12, DEAL, 3), Start(1, 32),
    Pause(), Nack(NackCode.BAD_STATE, "dealing"), Status(MachineState.STOPPED, 5, 4, 32, 1),
    report(), Fault(ErrorCode.JAM, 3, Seat.EAST, ALL_CARDS[0], "feeder"),
])
def test_every_message_round_trips_through_a_frame(message: object) -> None:
    parser = FrameParser()
    frames = parser.data_received(frame_of(message, 200).encode())  # type: ignore[arg-type]
    assert len(frames) == 1 and frames[0].seq == 200
    assert decode(frames[0]) == message


def test_a_frame_fed_one_byte_at_a_time() -> None:
    data = frame_of(report(), 3).encode()
    parser = FrameParser()
    got = [f for b in data for f in parser.data_received(bytes((b,)))]
    assert [decode(f) for f in got] == [report()]
    assert parser.pending == 0 and parser.stats.frames == 1


def test_garbage_bad_crc_and_bad_headers_are_counted_and_skipped() -> None:
    good = [frame_of(report(n), n).encode() for n in (1, 2, 3)]
    damaged = bytearray(good[1])
    damaged[10] ^= 0xFF
    fake_header = bytes((SOF, 1, 0x83, 0, 0xFF, 0xFF))      # length over the limit
    stream = b"hello" + good[0] + bytes(damaged) + fake_header + b"\x00" * 3 + good[2]
    parser = FrameParser()
    frames = parser.data_received(stream)
    assert [decode(f).board for f in frames] == [1, 3]  # type: ignore[union-attr]
    stats = parser.stats
    assert (stats.frames, stats.bad_crc, stats.bad_header) == (2, 1, 1)
    assert stats.garbage_bytes == len(stream) - len(good[0]) - len(good[2])
    assert stats.problems.keys() >= {"garbage", "bad_crc", "bad_header"}


def test_a_cut_frame_is_given_up_when_the_line_goes_quiet() -> None:
    """A frame cut short then sent again whole: the cut one is dropped, its start byte
    first, and the whole one that follows it is found."""
    data = frame_of(report(), 4).encode()
    parser = FrameParser()
    assert parser.data_received(data[:20]) == []
    assert parser.line_idle() == [] and parser.pending == 0
    assert parser.stats.truncated >= 1
    assert [f.seq for f in parser.data_received(data)] == [4]


def test_a_corrupted_length_does_not_hide_the_frames_behind_it() -> None:
    data = frame_of(report(), 4).encode()
    lying = bytes((SOF, 1, 0x83, 0, 0x01, 0x00))       # announces 256 bytes
    parser = FrameParser()
    assert parser.data_received(lying + data) == []   # waiting for 256 bytes
    assert [f.seq for f in parser.line_idle()] == [4]


@pytest.mark.parametrize(("frame", "code", "words"), [
    (Frame(0x83, 0, b"\x00"), NackCode.BAD_PAYLOAD, "at least 8"),
    (Frame(0x83, 0, b"\x00\x00\x01" + bytes(5)), NackCode.BAD_BOARD, "board 0"),
    (Frame(0x83, 0, b"\x00\x01\x01\x05\x00\x00\x00\x00"), NackCode.BAD_PAYLOAD,
     "announces 5"),
    (Frame(0x83, 0, b"\x00\x01\x01\x01\x40\x00\x00\x00\x00"), NackCode.BAD_PAYLOAD,
     "card byte 64"),
    (Frame(0x84, 0, b"\x09\x00\x01\xff\xff"), NackCode.BAD_PAYLOAD, "unknown error code 9"),
    (Frame(0x82, 0, b"\x09" + bytes(7)), NackCode.BAD_PAYLOAD, "unknown state 9"),
    (Frame(0x03, 0, b"\x00\x05\x00\x01"), NackCode.BAD_BOARD, "before 5"),
    (Frame(0x02, 0, b"\x00\x01\x01" + bytes(13)), NackCode.BAD_PAYLOAD, "not 4 hands"),
    (Frame(0x55, 0), NackCode.UNKNOWN_TYPE, "0x55"),
    (Frame(0x01, 0, b"\x01", version=2), NackCode.UNSUPPORTED_VERSION, "version 2"),
])
def test_bad_payloads_name_what_is_wrong(frame: Frame, code: NackCode, words: str) -> None:
    with pytest.raises(MessageError) as err:
        decode(frame)
    assert err.value.code == code and words in err.value.reason


def test_load_board_packs_two_bits_a_card() -> None:
    payload = LoadBoard(1, DEAL).encode()
    assert len(payload) == 16
    first = DEAL.owner(ALL_CARDS[0])
    assert first is not None and payload[3] >> 6 == int(first)
    with pytest.raises(ValueError):
        LoadBoard(1, Deal({Seat.NORTH: DEAL[Seat.NORTH]}))


# Fuzzing -------------------------------------------------------------------------------

frames_st = st.builds(lambda t, s, p: Frame(t, s, p), st.integers(0, 255), st.integers(0, 255),
                      st.binary(max_size=64))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.binary(max_size=80), max_size=20))
def test_fuzz_garbage_never_crashes_the_parser(chunks: list[bytes]) -> None:
    parser = FrameParser()
    out = [f for c in chunks for f in parser.data_received(c)] + parser.line_idle()
    assert parser.stats.bytes_in == sum(map(len, chunks))
    assert parser.pending == 0
    for frame in out:   # whatever came out is a frame the CRC vouches for
        assert FrameParser().data_received(frame.encode()) == [frame]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.binary(max_size=40), frames_st), min_size=1, max_size=8),
       st.binary(max_size=40), st.data())
def test_fuzz_good_frames_survive_garbage_between_them(pieces: list[tuple[bytes, Frame]],
                                                       tail: bytes, data: st.DataObject) -> None:
    stream = b"".join(g + f.encode() for g, f in pieces) + tail
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=6)))
    parser = FrameParser()
    out: list[Frame] = []
    for a, b in zip([0, *cuts], [*cuts, len(stream)], strict=True):
        out += parser.data_received(stream[a:b])
    out += parser.line_idle()
    wanted = iter(out)
    # every good frame is found, in order (garbage may by chance hold a valid frame too)
    assert all(any(got == f for got in wanted) for _, f in pieces)


@settings(max_examples=500, deadline=None)
@given(frames_st)
def test_fuzz_decoding_any_frame_raises_only_message_error(frame: Frame) -> None:
    try:
        message = decode(frame)
    except MessageError as err:
        assert err.reason
    else:
        assert frame_of(message, frame.seq).type == frame.type
        assert MsgType(frame.type)


def test_a_header_of_a_version_or_type_the_line_does_not_speak_is_noise() -> None:
    """A start byte in noise followed by a plausible length must not hold up the good frames
    behind it: the protocol's parser knows its version and types."""
    good = frame_of(report(), 5).encode()
    for fake in (bytes((SOF, 2, 0x83, 0, 1, 0)), bytes((SOF, 1, 0x99, 0, 1, 0))):
        parser = frame_parser()
        assert [f.seq for f in parser.data_received(fake + good)] == [5]
        assert parser.stats.bad_header == 1
    generic = FrameParser()
    assert generic.data_received(bytes((SOF, 1, 0x99, 0, 1, 0)) + good) == []  # waits
