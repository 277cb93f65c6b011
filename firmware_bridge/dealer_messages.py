"""The dealing machine's messages: what each frame type carries (docs/dealer-protocol.md).

Every message is a frozen dataclass with ``encode() -> bytes`` (the payload) and a
``TYPE``; :func:`decode` turns a :class:`firmware_bridge.serial_frames.Frame` back into one,
or raises :class:`MessageError` naming the type and what is wrong. Integers are big-endian.
A card is one byte, its deal-file number less one (0 = ♠A ... 51 = ♣2, the order of
``bridgecore.cards.ALL_CARDS``); 0xFF is a card the machine could not read. A pocket is one
byte, 0 = North, 1 = East, 2 = South, 3 = West; 0xFF = no pocket.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from typing import ClassVar, Self

from bridgecore.cards import ALL_CARDS, Card, Seat
from bridgecore.deal import Deal
from firmware_bridge.errors import MessageError
from firmware_bridge.serial_frames import Frame, FrameParser

__all__ = [
    "PROTOCOL_VERSION", "Ack", "BoardDealt", "CardError", "Clear", "ErrorCode", "Fault", "Hello",
    "Info", "LoadBoard", "MachineState", "Message", "MessageError", "MsgType", "Nack",
    "NackCode", "Pause", "Resume", "Start", "Status", "StatusQuery", "decode", "frame_of",
    "frame_parser",
    "pocket_texts", "pockets_of",
]

PROTOCOL_VERSION = 1
NO_CARD = 0xFF
NO_POCKET = 0xFF
_POCKETS = (Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST)


class MsgType(IntEnum):
    # host -> machine
    HELLO = 0x01
    LOAD_BOARD = 0x02
    START = 0x03
    PAUSE = 0x04
    RESUME = 0x05
    STATUS_QUERY = 0x06
    CLEAR = 0x07
    # both ways: the link
    ACK = 0x40
    NACK = 0x41
    # machine -> host
    INFO = 0x81
    STATUS = 0x82
    BOARD_DEALT = 0x83
    FAULT = 0x84


class NackCode(IntEnum):
    BAD_PAYLOAD = 1
    UNKNOWN_TYPE = 2
    UNSUPPORTED_VERSION = 3
    BAD_STATE = 4          # not now: START with nothing loaded, RESUME when not stopped
    BAD_BOARD = 5          # a board number out of range, or not loaded


class MachineState(IntEnum):
    IDLE = 0
    DEALING = 1
    PAUSED = 2             # paused by the host
    STOPPED = 3            # stopped by a fault (jam, hopper empty, cover open) until RESUME
    DONE = 4               # every board asked for is dealt


class ErrorCode(IntEnum):
    """What the machine noticed: about one card (in a board report) or about itself (a fault)."""

    JAM = 1
    MISREAD = 2            # a card it could not identify
    MISSING_CARD = 3       # a card of the deal not found in the pack
    EXTRA_CARD = 4         # a card the deal does not need (read twice, or not of the pack)
    HOPPER_EMPTY = 5
    COVER_OPEN = 6

    @property
    def label(self) -> str:
        return self.name.lower()


def _card_byte(card: Card | None) -> int:
    return NO_CARD if card is None else card.index


def _card_of(value: int, where: str) -> Card | None:
    if value == NO_CARD:
        return None
    if value >= 52:
        raise MessageError(NackCode.BAD_PAYLOAD, f"{where}: card byte {value} is not 0-51 "
                                                 "or 0xFF")
    return ALL_CARDS[value]


def _pocket_of(value: int, where: str) -> Seat | None:
    if value == NO_POCKET:
        return None
    if value >= 4:
        raise MessageError(NackCode.BAD_PAYLOAD, f"{where}: pocket byte {value} is not 0-3 "
                                                 "or 0xFF")
    return _POCKETS[value]


def _board_number(value: int, where: str) -> int:
    if value == 0:
        raise MessageError(NackCode.BAD_BOARD, f"{where}: board 0 is not a board")
    return value


@dataclass(frozen=True, slots=True)
class Hello:
    """Host -> machine, first: the highest protocol version the host speaks."""

    TYPE: ClassVar[MsgType] = MsgType.HELLO
    version: int = PROTOCOL_VERSION

    def encode(self) -> bytes:
        return bytes((self.version,))

    @classmethod
    def decode(cls, payload: bytes) -> Hello:
        _size(payload, 1, "HELLO")
        return cls(payload[0])


@dataclass(frozen=True, slots=True)
class Info:
    """Machine -> host, after HELLO: its protocol version, model, firmware, serial number."""

    TYPE: ClassVar[MsgType] = MsgType.INFO
    version: int
    model: str = ""
    firmware: str = ""
    serial: str = ""

    def encode(self) -> bytes:
        out = bytearray((self.version,))
        for text in (self.model, self.firmware, self.serial):
            raw = text.encode("utf-8")[:255]
            out += bytes((len(raw),)) + raw
        return bytes(out)

    @classmethod
    def decode(cls, payload: bytes) -> Info:
        _size(payload, 4, "INFO", exact=False)
        texts: list[str] = []
        at = 1
        for name in ("model", "firmware", "serial"):
            if at >= len(payload):
                raise MessageError(NackCode.BAD_PAYLOAD, f"INFO: no {name}")
            n = payload[at]
            raw = payload[at + 1:at + 1 + n]
            if len(raw) != n:
                raise MessageError(NackCode.BAD_PAYLOAD, f"INFO: {name} cut short")
            texts.append(raw.decode("utf-8", "replace"))
            at += 1 + n
        return cls(payload[0], *texts)


@dataclass(frozen=True, slots=True)
class LoadBoard:
    """Host -> machine: the deal of one board (the owner of each card, two bits a card,
    ♠A first, in the top bits of the first byte) and how many copies to deal."""

    TYPE: ClassVar[MsgType] = MsgType.LOAD_BOARD
    board: int
    deal: Deal
    copies: int = 1

    def __post_init__(self) -> None:
        if not 1 <= self.board <= 0xFFFF or not 1 <= self.copies <= 255:
            raise ValueError(f"board {self.board} copies {self.copies}: out of range")
        if not self.deal.is_complete:
            raise ValueError(f"board {self.board}: only a complete deal can be dealt")

    def encode(self) -> bytes:
        packed = bytearray(13)
        for i, seat in enumerate(self.deal.owners()):
            packed[i // 4] |= int(seat) << (6 - 2 * (i % 4))
        return struct.pack(">HB", self.board, self.copies) + bytes(packed)

    @classmethod
    def decode(cls, payload: bytes) -> LoadBoard:
        _size(payload, 16, "LOAD_BOARD")
        board, copies = struct.unpack_from(">HB", payload)
        _board_number(board, "LOAD_BOARD")
        if copies == 0:
            raise MessageError(NackCode.BAD_PAYLOAD, "LOAD_BOARD: 0 copies")
        owners = [Seat((payload[3 + i // 4] >> (6 - 2 * (i % 4))) & 3) for i in range(52)]
        deal = Deal.from_owners(owners)
        if not deal.is_complete:
            raise MessageError(NackCode.BAD_PAYLOAD,
                               f"LOAD_BOARD: board {board} is not 4 hands of 13 cards")
        return cls(board, deal, copies)


@dataclass(frozen=True, slots=True)
class Start:
    """Host -> machine: deal the loaded boards ``first`` to ``last``, each copy of each."""

    TYPE: ClassVar[MsgType] = MsgType.START
    first: int
    last: int

    def encode(self) -> bytes:
        return struct.pack(">HH", self.first, self.last)

    @classmethod
    def decode(cls, payload: bytes) -> Start:
        _size(payload, 4, "START")
        first, last = struct.unpack(">HH", payload)
        _board_number(first, "START")
        if last < first:
            raise MessageError(NackCode.BAD_BOARD, f"START: last board {last} before {first}")
        return cls(first, last)


@dataclass(frozen=True, slots=True)
class _Bare:
    """A message with no fields: its type says it all."""

    TYPE: ClassVar[MsgType]

    def encode(self) -> bytes:
        return b""

    @classmethod
    def decode(cls, payload: bytes) -> Self:
        _size(payload, 0, cls.TYPE.name)
        return cls()


@dataclass(frozen=True, slots=True)
class Pause(_Bare):
    """Host -> machine: finish the board in hand, then wait for RESUME."""

    TYPE: ClassVar[MsgType] = MsgType.PAUSE


@dataclass(frozen=True, slots=True)
class Resume(_Bare):
    """Host -> machine: go on after a pause, or after a fault the operator has cleared."""

    TYPE: ClassVar[MsgType] = MsgType.RESUME


@dataclass(frozen=True, slots=True)
class StatusQuery(_Bare):
    """Host -> machine: answer with a STATUS (the host's keep-alive too)."""

    TYPE: ClassVar[MsgType] = MsgType.STATUS_QUERY


@dataclass(frozen=True, slots=True)
class Clear(_Bare):
    """Host -> machine: forget every loaded board."""

    TYPE: ClassVar[MsgType] = MsgType.CLEAR


@dataclass(frozen=True, slots=True)
class Ack(_Bare):
    """Both ways: the frame with this header ``seq`` arrived and was taken."""

    TYPE: ClassVar[MsgType] = MsgType.ACK


@dataclass(frozen=True, slots=True)
class Nack:
    """Both ways: the frame with this header ``seq`` arrived whole but is refused."""

    TYPE: ClassVar[MsgType] = MsgType.NACK
    code: int
    reason: str = ""

    def encode(self) -> bytes:
        return bytes((self.code,)) + self.reason.encode("utf-8")[:200]

    @classmethod
    def decode(cls, payload: bytes) -> Nack:
        _size(payload, 1, "NACK", exact=False)
        return cls(payload[0], payload[1:].decode("utf-8", "replace"))

    @property
    def code_name(self) -> str:
        try:
            return NackCode(self.code).name.lower()
        except ValueError:
            return f"code {self.code}"


@dataclass(frozen=True, slots=True)
class Status:
    """Machine -> host, after STATUS_QUERY: its state, the board in hand, boards dealt and
    loaded, and the fault that stopped it (0: none)."""

    TYPE: ClassVar[MsgType] = MsgType.STATUS
    state: MachineState
    board: int = 0
    dealt: int = 0
    loaded: int = 0
    fault: int = 0

    def encode(self) -> bytes:
        return struct.pack(">BHHHB", self.state, self.board, self.dealt, self.loaded,
                           self.fault)

    @classmethod
    def decode(cls, payload: bytes) -> Status:
        _size(payload, 8, "STATUS")
        state, board, dealt, loaded, fault = struct.unpack(">BHHHB", payload)
        try:
            machine_state = MachineState(state)
        except ValueError:
            raise MessageError(NackCode.BAD_PAYLOAD, f"STATUS: unknown state {state}") from None
        return cls(machine_state, board, dealt, loaded, fault)


@dataclass(frozen=True, slots=True)
class CardError:
    """One problem the machine noticed while dealing a board."""

    code: ErrorCode
    pocket: Seat | None = None
    card: Card | None = None

    def __str__(self) -> str:
        where = "" if self.pocket is None else f" in {self.pocket.letter}"
        card = "" if self.card is None else f" {self.card}"
        return f"{self.code.label}{card}{where}"

    def to_json(self) -> dict[str, str]:
        out = {"code": self.code.label}
        if self.pocket is not None:
            out["pocket"] = self.pocket.letter
        if self.card is not None:
            out["card"] = str(self.card)
        return out


@dataclass(frozen=True, slots=True)
class BoardDealt:
    """Machine -> host: one copy of one board is dealt; the cards it read into each pocket
    (None: a card it could not read) and what it noticed."""

    TYPE: ClassVar[MsgType] = MsgType.BOARD_DEALT
    board: int
    copy: int
    pockets: Mapping[Seat, tuple[Card | None, ...]]
    errors: tuple[CardError, ...] = field(default=())

    def encode(self) -> bytes:
        out = bytearray(struct.pack(">HB", self.board, self.copy))
        for seat in _POCKETS:
            cards = self.pockets.get(seat, ())
            out.append(len(cards))
            out += bytes(_card_byte(c) for c in cards)
        out.append(len(self.errors))
        for e in self.errors:
            out += bytes((e.code, NO_POCKET if e.pocket is None else int(e.pocket),
                          _card_byte(e.card)))
        return bytes(out)

    @classmethod
    def decode(cls, payload: bytes) -> BoardDealt:
        _size(payload, 8, "BOARD_DEALT", exact=False)
        board, copy = struct.unpack_from(">HB", payload)
        _board_number(board, "BOARD_DEALT")
        at = 3
        pockets: dict[Seat, tuple[Card | None, ...]] = {}
        for seat in _POCKETS:
            if at >= len(payload):
                raise MessageError(NackCode.BAD_PAYLOAD, f"BOARD_DEALT: pocket {seat.letter} "
                                                         "missing")
            n = payload[at]
            raw = payload[at + 1:at + 1 + n]
            if len(raw) != n or n > 52:
                raise MessageError(NackCode.BAD_PAYLOAD, f"BOARD_DEALT: pocket {seat.letter} "
                                                         f"announces {n} cards, has {len(raw)}")
            pockets[seat] = tuple(_card_of(b, f"BOARD_DEALT pocket {seat.letter}") for b in raw)
            at += 1 + n
        if at >= len(payload):
            raise MessageError(NackCode.BAD_PAYLOAD, "BOARD_DEALT: error count missing")
        n = payload[at]
        raw = payload[at + 1:]
        if len(raw) != 3 * n:
            raise MessageError(NackCode.BAD_PAYLOAD, f"BOARD_DEALT: {n} errors announced, "
                                                     f"{len(raw)} bytes for them")
        errors = tuple(
            CardError(_error_code(raw[3 * i], "BOARD_DEALT"),
                      _pocket_of(raw[3 * i + 1], "BOARD_DEALT error"),
                      _card_of(raw[3 * i + 2], "BOARD_DEALT error"))
            for i in range(n))
        return cls(board, copy, pockets, errors)


@dataclass(frozen=True, slots=True)
class Fault:
    """Machine -> host: the machine stopped (or, for a card, noticed something) while
    dealing ``board`` (0: none); it waits for RESUME once the operator has cleared it."""

    TYPE: ClassVar[MsgType] = MsgType.FAULT
    code: ErrorCode
    board: int = 0
    pocket: Seat | None = None
    card: Card | None = None
    detail: str = ""

    def encode(self) -> bytes:
        return (struct.pack(">BHBB", self.code, self.board,
                            NO_POCKET if self.pocket is None else int(self.pocket),
                            _card_byte(self.card)) + self.detail.encode("utf-8")[:200])

    @classmethod
    def decode(cls, payload: bytes) -> Fault:
        _size(payload, 5, "FAULT", exact=False)
        code, board, pocket, card = struct.unpack_from(">BHBB", payload)
        return cls(_error_code(code, "FAULT"), board, _pocket_of(pocket, "FAULT"),
                   _card_of(card, "FAULT"), payload[5:].decode("utf-8", "replace"))


def _error_code(value: int, where: str) -> ErrorCode:
    try:
        return ErrorCode(value)
    except ValueError:
        raise MessageError(NackCode.BAD_PAYLOAD, f"{where}: unknown error code {value}") from None


def _size(payload: bytes, n: int, name: str, exact: bool = True) -> None:
    if (len(payload) != n) if exact else (len(payload) < n):
        want = f"{n}" if exact else f"at least {n}"
        raise MessageError(NackCode.BAD_PAYLOAD, f"{name}: payload of {len(payload)} bytes, "
                                                 f"{want} expected")


Message = (Hello | Info | LoadBoard | Start | Pause | Resume | StatusQuery | Clear | Ack | Nack
           | Status | BoardDealt | Fault)
"""Any message of the protocol."""

_DECODERS: dict[int, Callable[[bytes], Message]] = {
    cls.TYPE: cls.decode
    for cls in (Hello, Info, LoadBoard, Start, Pause, Resume, StatusQuery, Clear, Ack, Nack,
                Status, BoardDealt, Fault)
}


def decode(frame: Frame) -> Message:
    """The message a frame carries; MessageError (with the NACK code) when it cannot be."""
    if frame.version != PROTOCOL_VERSION:
        raise MessageError(NackCode.UNSUPPORTED_VERSION,
                           f"protocol version {frame.version}; this end speaks "
                           f"{PROTOCOL_VERSION}")
    decoder = _DECODERS.get(frame.type)
    if decoder is None:
        raise MessageError(NackCode.UNKNOWN_TYPE, f"unknown message type 0x{frame.type:02X}")
    return decoder(frame.payload)


def frame_parser() -> FrameParser:
    """A parser for this protocol's frames: version 1, the message types above."""
    return FrameParser(versions=(PROTOCOL_VERSION,), types=frozenset(MsgType))


def frame_of(message: Message, seq: int) -> Frame:
    """The frame carrying ``message`` with sequence number ``seq``."""
    return Frame(int(message.TYPE), seq, message.encode())


def pockets_of(deal: Deal) -> dict[Seat, tuple[Card | None, ...]]:
    """A deal as the pockets a machine fills (in deal-file card order)."""
    out: dict[Seat, tuple[Card | None, ...]] = {}
    for seat in _POCKETS:
        cards: list[Card] = sorted(deal[seat].cards, key=_index)
        out[seat] = tuple(cards)
    return out


def _index(card: Card) -> int:
    return card.index


def pocket_texts(pockets: Mapping[Seat, Sequence[Card | None]]) -> dict[str, list[str]]:
    """Pockets as JSON: ``{"N": ["SA", ...]}``, "?" for a card the machine could not read."""
    return {seat.letter: ["?" if c is None else str(c) for c in pockets.get(seat, ())]
            for seat in _POCKETS}
