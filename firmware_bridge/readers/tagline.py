"""The line format of serial card readers, and its parser (fed bytes, no port needed).

A reader built on a microcontroller (PN532, MFRC522) sends one ASCII line per event, framed
like an NMEA 0183 sentence so that any firmware author already knows it::

    $TAG,04A1B2C3D4E580*02\\r\\n

* ``$`` starts the line; the fields between ``$`` and ``*`` are printable ASCII (0x20-0x7E,
  neither ``$`` nor ``*``), separated by commas; ``*`` is followed by the checksum, two hex
  digits: the XOR of every byte between ``$`` and ``*``; the line ends with ``\\n``, a
  ``\\r`` before it being optional. A line is at most 82 bytes, its end included.
* ``TAG,<uid>``: a tag was presented; the UID in hex, 4, 7 or 10 bytes (8, 14 or 20 digits).
  A tag lying on the reader may be reported at every poll: the debounce keeps one read.
* ``RDY,<text>``: the reader (re)started; the text names its firmware.
* ``ERR,<text>``: the reader reports a fault of its own, in words (antenna, RF field...).

Anything else is a :class:`LineError`: bytes before the ``$``, a bad checksum, an unknown
kind, a malformed UID, a line too long, a partial line cut off when the port went away.
The parser never raises on what it is fed; it logs nothing either (its caller does, with
the port's name).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from firmware_bridge.readers import normalise_uid

__all__ = ["KINDS", "MAX_LINE", "LineError", "Sentence", "TagLineParser", "checksum",
           "format_line"]

MAX_LINE = 82
KINDS = ("TAG", "RDY", "ERR")

_BODY = re.compile(rb"^[\x20-\x23\x25-\x29\x2B-\x7E]*$")  # printable, no '$' or '*'


@dataclass(frozen=True, slots=True)
class Sentence:
    """One valid line: ``kind`` (TAG, RDY, ERR) and its ``value`` (a normalised UID for TAG,
    the text for the others)."""

    kind: str
    value: str


@dataclass(frozen=True, slots=True)
class LineError:
    """A line that is not one: why, and its bytes (as received, up to the limit)."""

    reason: str
    raw: bytes


def checksum(body: bytes) -> int:
    """The XOR of ``body``'s bytes (what goes between ``$`` and ``*``)."""
    value = 0
    for byte in body:
        value ^= byte
    return value


def format_line(kind: str, value: str) -> bytes:
    """The line a reader sends (``format_line("TAG", "04A1B2C3D4E580")``)."""
    text = f"{kind},{value}"
    body = text.encode("ascii", "replace")
    if not text.isascii() or not _BODY.match(body):
        raise ValueError(f"{kind},{value}: only printable ASCII, without '$' or '*'")
    line = b"$" + body + b"*%02X\r\n" % checksum(body)
    if len(line) > MAX_LINE:
        raise ValueError(f"{kind},{value}: {len(line)} bytes, more than {MAX_LINE}")
    return line


class TagLineParser:
    """Cuts a byte stream into lines and checks each (module docstring): :meth:`feed`
    returns what the bytes completed, in order; a partial line waits for the next bytes."""

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._skipping = False   # inside a line already reported too long
        self.lines = 0
        self.errors = 0

    def feed(self, data: bytes) -> list[Sentence | LineError]:
        out: list[Sentence | LineError] = []
        buffer = self._buffer
        buffer += data
        while True:
            end = buffer.find(b"\n")
            if end < 0:
                if len(buffer) > MAX_LINE and not self._skipping:
                    out.append(self._error(f"line longer than {MAX_LINE} bytes",
                                           bytes(buffer[:MAX_LINE])))
                    self._skipping = True
                if self._skipping:
                    buffer.clear()
                return out
            line = bytes(buffer[:end + 1])
            del buffer[:end + 1]
            if self._skipping:
                self._skipping = False   # the end of the line already reported
                continue
            out.append(self._line(line))

    def reset(self) -> LineError | None:
        """Forget a partial line (the port went away): reported as an error if there was one."""
        partial = bytes(self._buffer)
        self._buffer.clear()
        skipping, self._skipping = self._skipping, False
        if partial and not skipping:
            return self._error("partial line cut off", partial)
        return None

    def _error(self, reason: str, raw: bytes) -> LineError:
        self.errors += 1
        return LineError(reason, raw)

    def _line(self, line: bytes) -> Sentence | LineError:
        if len(line) > MAX_LINE:
            return self._error(f"line longer than {MAX_LINE} bytes", line[:MAX_LINE])
        text = line[:-1]
        if text.endswith(b"\r"):
            text = text[:-1]
        start = text.find(b"$")
        if start != 0:
            return self._error("garbled: the line does not start with '$'" if start > 0
                               else "garbled: no '$'", line)
        star = text.rfind(b"*")
        if star < 0 or len(text) - star != 3:
            return self._error("no checksum ('*' and two hex digits at the end)", line)
        body = text[1:star]
        if not _BODY.match(body):
            return self._error("garbled: not printable ASCII, or a '$' or '*' inside", line)
        try:
            expected = int(text[star + 1:], 16)
        except ValueError:
            return self._error("checksum is not two hex digits", line)
        if checksum(body) != expected:
            return self._error(f"bad checksum: {expected:02X}, the line gives "
                               f"{checksum(body):02X}", line)
        kind, _, value = body.decode("ascii").partition(",")
        if kind not in KINDS:
            return self._error(f"unknown kind {kind!r} (known: {', '.join(KINDS)})", line)
        if kind == "TAG":
            try:
                value = normalise_uid(value)
            except ValueError as err:
                return self._error(str(err), line)
        self.lines += 1
        return Sentence(kind, value)
