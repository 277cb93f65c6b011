"""Frames on a serial line: start byte, header, payload, CRC-16 (docs/dealer-protocol.md).

::

    offset  size  field
    0       1     SOF, 0xA5
    1       1     version of the protocol (1)
    2       1     message type
    3       1     sequence number (0-255, wraps)
    4       2     payload length, big-endian (0 to MAX_PAYLOAD)
    6       n     payload
    6+n     2     CRC-16/CCITT-FALSE of bytes 1 .. 5+n (version to the end of the payload)

:class:`FrameParser` is a protocol object fed bytes as they come (``data_received``), in
any pieces, with no port behind it (pyserial's ``serial.threaded.Packetizer``). It hunts for
the start byte, checks the header (a version and a type the line speaks, a length within
the limit: a start byte in noise is seldom followed by all three), waits for a whole frame,
checks the CRC, and on a bad frame
drops only the start byte and scans again from the next byte, so a good frame that follows
garbage, a cut frame or a frame with a corrupted length is still found. A frame left
incomplete when the line goes quiet (:meth:`FrameParser.line_idle`) is given up the same
way. Nothing fed to it raises: every problem is counted in :class:`LinkStats` and logged.
"""

from __future__ import annotations

import binascii
import logging
from collections.abc import Collection
from dataclasses import dataclass, field

__all__ = [
    "HEADER_SIZE", "MAX_PAYLOAD", "SOF", "TRAILER_SIZE", "Frame", "FrameParser", "LinkStats",
    "crc16", "encode_frame",
]

log = logging.getLogger(__name__)

SOF = 0xA5
HEADER_SIZE = 6
TRAILER_SIZE = 2
MAX_PAYLOAD = 512
"""The largest payload a frame may carry; a header announcing more is garbage."""


def crc16(data: bytes | bytearray | memoryview) -> int:
    """CRC-16/CCITT-FALSE (polynomial 0x1021, initial value 0xFFFF): 0x29B1 for b"123456789"."""
    return binascii.crc_hqx(data, 0xFFFF)


@dataclass(frozen=True, slots=True)
class Frame:
    """One frame as it travels: ``type`` and ``seq`` are bytes, ``payload`` up to
    :data:`MAX_PAYLOAD` bytes."""

    type: int
    seq: int
    payload: bytes = b""
    version: int = 1

    def __post_init__(self) -> None:
        for name in ("type", "seq", "version"):
            value = getattr(self, name)
            if not isinstance(value, int) or not 0 <= value <= 255:
                raise ValueError(f"frame {name} must be a byte (0-255), got {value!r}")
        if self.version == 0:
            raise ValueError("frame version 0 is not a version")
        if len(self.payload) > MAX_PAYLOAD:
            raise ValueError(f"frame payload of {len(self.payload)} bytes, "
                             f"limit {MAX_PAYLOAD}")

    def encode(self) -> bytes:
        return encode_frame(self)


def encode_frame(frame: Frame) -> bytes:
    """The bytes of ``frame`` on the line."""
    n = len(frame.payload)
    body = bytes((frame.version, frame.type, frame.seq, n >> 8, n & 0xFF)) + frame.payload
    return bytes((SOF,)) + body + crc16(body).to_bytes(2, "big")


@dataclass(slots=True)
class LinkStats:
    """What a parser has seen: good frames and every kind of bad input, counted."""

    frames: int = 0
    bytes_in: int = 0
    garbage_bytes: int = 0      # bytes dropped while hunting for a start byte
    bad_crc: int = 0            # whole frames whose CRC did not match
    bad_header: int = 0         # a start byte and a version, type or length not spoken here
    truncated: int = 0          # frames cut short: the line went quiet before their end
    last_problem: str = ""
    problems: dict[str, int] = field(default_factory=dict)

    def note(self, kind: str, detail: str) -> None:
        self.problems[kind] = self.problems.get(kind, 0) + 1
        self.last_problem = detail
        log.debug("serial link: %s", detail)

    def summary(self) -> str:
        return (f"{self.frames} frames, {self.bad_crc} bad CRC, {self.bad_header} bad headers, "
                f"{self.truncated} truncated, {self.garbage_bytes} garbage bytes")


class FrameParser:
    """Bytes in, frames out (module docstring). ``data_received`` returns the frames that
    the new bytes completed, in order; ``line_idle`` gives up a frame left incomplete.
    ``versions`` and ``types`` are the header values the line speaks (None: any but
    version 0); a header with another is noise."""

    def __init__(self, max_payload: int = MAX_PAYLOAD, *, versions: Collection[int] | None = None,
                 types: Collection[int] | None = None):
        self.max_payload = max_payload
        self.stats = LinkStats()
        self._buffer = bytearray()
        self._versions = bytes(int(v != 0 if versions is None else v in versions)
                               for v in range(256))
        self._types = bytes(int(types is None or t in types) for t in range(256))

    @property
    def pending(self) -> int:
        """Bytes held while waiting for the rest of a frame."""
        return len(self._buffer)

    def data_received(self, data: bytes | bytearray | memoryview) -> list[Frame]:
        self.stats.bytes_in += len(data)
        self._buffer += data
        return self._scan()

    def line_idle(self) -> list[Frame]:
        """The line went quiet: whatever frame is incomplete will not be finished. Drop its
        start byte and scan the rest again (a corrupted length may have hidden good frames
        behind it); a true tail with no complete frame in it is dropped."""
        out: list[Frame] = []
        while self._buffer:
            self.stats.truncated += 1
            self.stats.note("truncated", f"frame cut short: {len(self._buffer)} bytes "
                                         "pending when the line went quiet")
            del self._buffer[0]
            self.stats.garbage_bytes += 1
            out += self._scan()
        return out

    def _scan(self) -> list[Frame]:
        out: list[Frame] = []
        buf = self._buffer
        stats = self.stats
        while buf:
            start = buf.find(SOF)
            if start < 0:
                stats.garbage_bytes += len(buf)
                stats.note("garbage", f"{len(buf)} bytes without a start byte dropped")
                buf.clear()
                break
            if start:
                stats.garbage_bytes += start
                stats.note("garbage", f"{start} bytes before a start byte dropped")
                del buf[:start]
            if len(buf) < HEADER_SIZE:
                break
            length = (buf[4] << 8) | buf[5]
            if not self._versions[buf[1]] or not self._types[buf[2]] or length > self.max_payload:
                stats.bad_header += 1
                stats.note("bad_header", f"header with version {buf[1]}, type 0x{buf[2]:02X}, "
                                         f"length {length} is not a frame")
                stats.garbage_bytes += 1
                del buf[0]
                continue
            total = HEADER_SIZE + length + TRAILER_SIZE
            if len(buf) < total:
                break
            end = HEADER_SIZE + length
            stored = (buf[end] << 8) | buf[end + 1]
            with memoryview(buf) as view:
                computed = crc16(view[1:end])
            if stored != computed:
                stats.bad_crc += 1
                stats.note("bad_crc", f"frame type 0x{buf[2]:02X} seq {buf[3]}: CRC "
                                      f"0x{stored:04X}, computed 0x{computed:04X}")
                stats.garbage_bytes += 1
                del buf[0]
                continue
            out.append(Frame(buf[2], buf[3], bytes(buf[HEADER_SIZE:end]), buf[1]))
            stats.frames += 1
            del buf[:total]
        return out
