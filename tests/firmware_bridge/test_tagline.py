"""The serial readers' line format (firmware_bridge/readers/tagline.py): framing, checksum,
strict validation, and a parser that never raises on what a port sends."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.readers.tagline import (
    MAX_LINE,
    LineError,
    Sentence,
    TagLineParser,
    checksum,
    format_line,
)

UID = "04A1B2C3D4E580"


def test_a_line_round_trips_and_its_checksum_is_the_xor_of_its_body() -> None:
    line = format_line("TAG", UID)
    assert line == b"$TAG,04A1B2C3D4E580*02\r\n"      # the example of docs/protocol.md
    body = f"TAG,{UID}".encode()
    assert line == b"$" + body + b"*%02X\r\n" % checksum(body)
    assert TagLineParser().feed(line) == [Sentence("TAG", UID)]
    # Without the carriage return, in lower case, 4- and 10-byte UIDs: all one tag each.
    parser = TagLineParser()
    lower = b"$TAG,04a1b2c3d4e580*%02X\n" % checksum(b"TAG,04a1b2c3d4e580")
    four = format_line("TAG", "DEADBEEF")
    ten = format_line("TAG", "04" * 10)
    assert parser.feed(lower + four + ten) == [Sentence("TAG", UID), Sentence("TAG", "DEADBEEF"),
                                               Sentence("TAG", "04" * 10)]
    assert parser.feed(format_line("RDY", "pn532 fw 1.6") + format_line("ERR", "antenna")) == [
        Sentence("RDY", "pn532 fw 1.6"), Sentence("ERR", "antenna")]


def test_lines_cut_anywhere_are_put_back_together() -> None:
    data = format_line("TAG", UID) * 3
    parser = TagLineParser()
    out = [item for byte in data for item in parser.feed(bytes([byte]))]
    assert out == [Sentence("TAG", UID)] * 3
    assert parser.reset() is None


def test_every_bad_line_is_an_error_naming_why_and_the_next_line_is_read() -> None:
    good = format_line("TAG", UID)
    wrong = bytearray(good)
    wrong[-4:-2] = b"%02X" % (checksum(f"TAG,{UID}".encode()) ^ 1)
    cases = {
        b"noise$TAG,04A1B2C3D4E580*00\n": "does not start with '$'",
        b"TAG,04A1B2C3D4E580\n": "no '$'",
        b"$TAG,04A1B2C3D4E580\n": "no checksum",
        bytes(wrong): "bad checksum",
        b"$TAG,04A1B2C3D4E580*ZZ\n": "not two hex digits",
        format_line("BYE", "x"): "unknown kind 'BYE'",
        format_line("TAG", "04A1B2"): "not a tag UID",
        format_line("TAG", "04A1B2C3D4E5XY"): "not a tag UID",
        b"$TAG,\xff\xfe*00\n": "not printable ASCII",
        b"$" + b"A" * 100 + b"*00\n": f"longer than {MAX_LINE}",
    }
    parser = TagLineParser()
    for data, why in cases.items():
        out = parser.feed(data + good)
        assert len(out) == 2 and isinstance(out[0], LineError), (data, out)
        assert why in out[0].reason, (data, out[0])
        assert out[1] == Sentence("TAG", UID)
    assert parser.errors == len(cases) and parser.lines == len(cases)


def test_a_line_that_never_ends_is_reported_once_then_skipped_to_its_end() -> None:
    parser = TagLineParser()
    errors = parser.feed(b"$TAG," + b"0" * 200)
    assert [type(e) for e in errors] == [LineError]
    assert parser.feed(b"0" * 500) == []           # still the same line: not reported again
    assert parser.feed(b"\n" + format_line("TAG", UID)) == [Sentence("TAG", UID)]


def test_a_partial_line_cut_off_by_the_port_going_away_is_reported() -> None:
    parser = TagLineParser()
    assert parser.feed(b"$TAG,04A1") == []
    cut = parser.reset()
    assert isinstance(cut, LineError) and cut.raw == b"$TAG,04A1" and "partial" in cut.reason
    assert parser.feed(format_line("TAG", UID)) == [Sentence("TAG", UID)]


def test_format_line_refuses_what_the_format_cannot_carry() -> None:
    for kind, value in (("ERR", "a*b"), ("ERR", "a$b"), ("ERR", "é"), ("ERR", "x" * 80)):
        try:
            format_line(kind, value)
        except ValueError as err:
            assert value[:3] in str(err)
        else:
            raise AssertionError(f"{kind},{value} accepted")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.binary(max_size=120), max_size=20), st.integers(1, 40))
def test_fuzz_any_bytes_never_raise_and_lines_after_garbage_are_read(
        garbage: list[bytes], chunk: int) -> None:
    """Whatever precedes a newline, the valid line after it is read, in any chunking."""
    parser = TagLineParser()
    data = b"".join(g.replace(b"\n", b"") + b"\n" for g in garbage) + format_line("TAG", UID)
    out: list[Sentence | LineError] = []
    for i in range(0, len(data), chunk):
        out += parser.feed(data[i:i + chunk])
    assert out and out[-1] == Sentence("TAG", UID)
    assert all(isinstance(x, Sentence | LineError) for x in out)
