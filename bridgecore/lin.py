"""BBO LIN files: read them into :class:`GameRecord` values, and write them (formats.md §4.6).

A LIN file is a stream of ``tag|value|`` pairs; one board per ``md|`` (deal). A
file may hold one board per line, many per line, or (vugraph) values running
over several lines. The reader keeps going past what it cannot read and records
each problem with the file, line and board.

What the reader takes:

- ``md|<d><S>,<W>,<N>,<E>|``: dealer digit 1=S 2=W 3=N 4=E, hands in the order
  S, W, N, E; an omitted fourth hand gets the cards nobody else holds.
- ``sv|``: vulnerability ``0``/``o`` none, ``n`` NS, ``e`` EW, ``b`` both.
- ``mb|``: calls ``p``, ``d``, ``r``, ``1N``...; a trailing ``!`` is an alert, and an
  ``an|`` right after is the call's explanation.
- ``pc|``: cards in the order played; seats follow from the rotation and the trick
  winners (declarer's left-hand opponent leads).
- ``mc|n|``: a claim: n tricks in all for declarer (``claim`` and ``result``).
- ``ah|Board N|`` or ``qx|o12|`` (o open room, c closed): the board number.
- ``pn|S,W,N,E|``: player names (a vugraph header's 8 names serve both rooms).
- ``vg|event,segment,scoring,first,last,team1,carry,team2,carry|``: event tags.
- ``nt|``, ``at|``: commentary; but an ``nt|tenace-tempo 1 ...|`` is the times of the
  board's calls and cards (written after its play): Tenace's ``TempoTable`` (bridgecore.tempo,
  docs/tempo.md), rows separated by ``;``, cells by ``,``, after a first row ``@`` with the
  ``Table``, ``Round``, ``PairNS`` and ``PairEW`` tags LIN has no place for. Other programs
  show an ``nt|`` as a comment at most and never play it, so they skip it safely.

Contract, declarer and result are derived from the calls and the play (the
``Contract``/``Declarer``/``Result`` tags hold them too); the laws audit judges
whether the calls were legal. Text that was UTF-8 encoded twice (``intÃ©rÃ©ssÃ©``)
is repaired.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from bridgecore.auction import Auction
from bridgecore.calls import Call, CallKind, Contract
from bridgecore.cards import ALL_CARDS, Card, Seat, Strain, Suit
from bridgecore.deal import Deal, Hand
from bridgecore.errors import FormatError, ParseError
from bridgecore.play import trick_winner
from bridgecore.record import CallRecord, CardRecord, GameRecord, RecordProblem, Table
from bridgecore.tempo import TEMPO_TABLE, apply_tempo_table, tempo_table
from bridgecore.vulnerability import Vulnerability

__all__ = ["AuctionEnd", "LinFile", "auction_end", "read_lin", "write_lin"]

_LIN_SEATS = (Seat.SOUTH, Seat.WEST, Seat.NORTH, Seat.EAST)  # md hand order; dealer 1..4
_VUL = {"0": Vulnerability.NONE, "o": Vulnerability.NONE, "n": Vulnerability.NS,
        "e": Vulnerability.EW, "b": Vulnerability.BOTH}
_VUL_OUT = {Vulnerability.NONE: "0", Vulnerability.NS: "n", Vulnerability.EW: "e",
            Vulnerability.BOTH: "b"}
_SCORING = {"I": "IMP", "P": "MP", "B": "BAM"}
_RANKS = "23456789TJQKA"
_PAIR = re.compile(r"([A-Za-z]{2})\|([^|]*)\|")
_NEWLINE = re.compile(r"\r\n|\r|\n")
_DIGITS = re.compile(r"\d+")
_TEMPO = "tenace-tempo 1 "       # an nt| note holding the actions' times
_TEMPO_COLUMNS = ["Action", "Seat", "Item", "Time", "Source", "Stop"]
_TEMPO_TAGS = ("Table", "Round", "PairNS", "PairEW")   # its first row: "@,Table=A1,..."


@dataclass(slots=True)
class LinFile:
    """The boards of a LIN file, and every problem met reading it (boards' ones included)."""

    records: list[GameRecord] = field(default_factory=list)
    problems: list[RecordProblem] = field(default_factory=list)


# Auction and tricks ------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class AuctionEnd:
    """Where an auction ends and what it made: ``end`` is the index after the final pass."""

    end: int | None
    passed_out: bool
    contract: Contract | None


def auction_end(calls: list[Call], dealer: Seat) -> AuctionEnd:
    """The end of a recorded auction and its contract (Laws 17E, 19, 22).

    LIN gives calls in rotation from the dealer; they are replayed through
    :class:`~bridgecore.auction.Auction`, so the contract is the one the audit finds.
    ``contract`` is None when the auction has not ended or is passed out.
    """
    auction = Auction(dealer)
    for i, call in enumerate(calls):
        auction.push(dealer.offset(i), call)
        if auction.is_over:
            return AuctionEnd(i + 1, auction.is_passed_out, auction.contract)
    return AuctionEnd(None, False, None)


def _trick_winner(trick: list[CardRecord], trump: Suit | None) -> Seat:
    return trick_winner(tuple((r.seat, r.card) for r in trick), None, trump)


# Reading --------------------------------------------------------------------------------------

def _repair_text(text: str) -> str:
    """Undo UTF-8 that was encoded a second time (``Ã©`` for ``é``); else keep the text."""
    if text.isascii():
        return text
    for codec in ("latin-1", "cp1252"):
        try:
            fixed = text.encode(codec).decode("utf-8")
        except (UnicodeEncodeError, UnicodeDecodeError):
            continue
        if fixed != text:
            return fixed
    return text


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def _parse_hand(text: str) -> list[Card]:
    cards: list[Card] = []
    suit: Suit | None = None
    t = text.strip().upper().replace("10", "T")
    for ch in t:
        if ch in "SHDC":
            suit = Suit.parse(ch)
        elif suit is not None and ch in _RANKS:
            cards.append(ALL_CARDS[(3 - suit) * 13 + 12 - _RANKS.index(ch)])
        else:
            raise ParseError(f"not a LIN hand: {text!r}")
    return cards


@dataclass(slots=True)
class _Board:
    """A board being read: what came before its md| and what followed."""

    line: int | None = None
    room: str | None = None
    qx_number: int | None = None
    ah: str | None = None
    names: list[str] | None = None
    dealer: Seat | None = None
    vulnerability: Vulnerability | None = None
    deal: Deal | None = None
    calls: list[CallRecord] = field(default_factory=list)
    cards: list[tuple[Card, int]] = field(default_factory=list)
    claim: int | None = None
    commentary: list[str] = field(default_factory=list)
    tempo: str | None = None
    problems: list[tuple[str, int]] = field(default_factory=list)


class _LinReader:
    def __init__(self, text: str, file: str | None):
        self.text = text
        self.file = file
        self.out = LinFile()
        self.starts = [0] + [m.end() for m in _NEWLINE.finditer(text)]
        self.names: list[str] = []
        self.event: dict[str, str] = {}
        self.current: _Board | None = None
        self.pending = _Board()

    def line_of(self, pos: int) -> int:
        return bisect.bisect_right(self.starts, pos)

    def run(self) -> LinFile:
        pos = 0
        for m in _PAIR.finditer(self.text):
            self.junk(pos, m.start())
            pos = m.end()
            self.pair(m.group(1).lower(), m.group(2), self.line_of(m.start()))
        self.junk(pos, len(self.text))
        self.close()
        if not self.out.records:
            raise FormatError("no board (md|) in this LIN file", file=self.file)
        return self.out

    def junk(self, start: int, end: int) -> None:
        text = self.text[start:end]
        junk = text.strip(" \t\r\n|")
        if junk:
            where = start + text.index(junk)
            self.file_problem(f"text outside tag|value| pairs ignored: {junk[:40]!r}",
                              self.line_of(where))

    def file_problem(self, message: str, line: int) -> None:
        self.out.problems.append(RecordProblem(message, self.file, line))

    def target(self, line: int) -> _Board:
        if self.pending.line is None:
            self.pending.line = line
        return self.pending

    def close(self) -> None:
        if self.current is not None:
            record = _finish(self.current, self.names, self.event, self.file)
            self.out.records.append(record)
            self.out.problems.extend(record.problems)
            self.current = None

    def pair(self, tag: str, value: str, line: int) -> None:
        cur = self.current
        started = cur is not None and bool(cur.calls or cur.cards)
        if tag == "md":
            self.close()
            board = self.target(line)
            self.pending = _Board()
            self.current = board
            self.read_md(board, value, line)
        elif tag == "qx":
            self.close()
            board = self.target(line)
            room, number = value.split(",")[0].strip()[:1].lower(), _DIGITS.search(value)
            board.room = room if room in ("o", "c") else None
            board.qx_number = int(number.group()) if number else None
        elif tag == "pn":
            names = [_repair_text(n.strip()) for n in value.split(",")]
            if len(names) > 4:
                self.names = names
            elif cur is not None and not started and cur.names is None:
                cur.names = names
            else:
                self.close()
                self.target(line).names = names
        elif tag in ("ah", "sv"):
            fits = cur is not None and not started and (
                cur.ah is None if tag == "ah" else cur.vulnerability is None)
            if not fits:
                self.close()
            board = cur if fits and cur is not None else self.target(line)
            if tag == "ah":
                board.ah = _repair_text(value.strip())
            else:
                vul = _VUL.get(value.strip().lower())
                if vul is None:
                    board.problems.append((f"not a LIN vulnerability: sv|{value}|", line))
                board.vulnerability = vul
        elif tag == "nt" and value.startswith(_TEMPO) and cur is not None:
            cur.tempo = value[len(_TEMPO):]
        elif tag in ("nt", "at"):
            if value.strip():
                (cur or self.target(line)).commentary.append(_repair_text(value.strip()))
        elif tag == "vg":
            self.read_vg(value)
        elif tag in ("mb", "an", "pc", "mc"):
            if cur is None:
                self.file_problem(f"{tag}|{value}| before any deal (md|) ignored", line)
            else:
                self.read_play(cur, tag, value, line)

    def read_md(self, board: _Board, value: str, line: int) -> None:
        text = value.strip()
        if text[:1].isdecimal():
            digit = int(text[0])
            if 1 <= digit <= 4:
                board.dealer = _LIN_SEATS[digit - 1]
            else:
                board.problems.append((f"dealer digit {digit} is not 1-4", line))
            text = text[1:]
        hands: dict[Seat, list[Card]] = {}
        for seat, part in zip(_LIN_SEATS, text.split(",")[:4], strict=False):
            if not part.strip():
                continue
            try:
                hands[seat] = _parse_hand(part)
            except ParseError as err:
                board.problems.append((f"{err} (md|{value}|)", line))
        if not hands:
            return
        missing = [s for s in Seat if s not in hands]
        if len(missing) == 1 and all(len(h) == 13 for h in hands.values()):
            held = {c for h in hands.values() for c in h}
            hands[missing[0]] = [c for c in ALL_CARDS if c not in held]
        board.deal = Deal({s: Hand.of(c) for s, c in hands.items()})

    def read_vg(self, value: str) -> None:
        fields = [_repair_text(f.strip()) for f in value.split(",")]
        fields += [""] * (9 - len(fields))
        for key, text in (("Event", fields[0]), ("Stage", fields[1]),
                          ("Scoring", _SCORING.get(fields[2].upper(), fields[2])),
                          ("HomeTeam", fields[5]), ("VisitTeam", fields[7])):
            if text:
                self.event[key] = text

    def read_play(self, board: _Board, tag: str, value: str, line: int) -> None:
        text = value.strip()
        if tag == "mb":
            alert = text.endswith("!")
            try:
                call = Call.parse(text.rstrip("!").strip())
            except ParseError:
                board.problems.append((f"not a call: mb|{value}|", line))
                return
            dealer = Seat.NORTH if board.dealer is None else board.dealer
            board.calls.append(CallRecord(dealer.offset(len(board.calls)), call, alert=alert))
        elif tag == "an":
            if not board.calls:
                board.problems.append((f"explanation an|{value}| before any call", line))
                return
            board.calls[-1] = replace(board.calls[-1], explanation=_repair_text(value))
        elif tag == "pc":
            try:
                board.cards.append((Card.parse(text), line))
            except ParseError:
                board.problems.append((f"not a card: pc|{value}|", line))
        else:
            if text.isdecimal() and 0 <= int(text) <= 13:
                board.claim = int(text)
            else:
                board.problems.append((f"claim is not 0-13 tricks: mc|{value}|", line))


def _finish(board: _Board, file_names: list[str], event: dict[str, str], file: str | None
            ) -> GameRecord:
    number = None
    if board.ah is not None:
        found = _DIGITS.search(board.ah)
        number = int(found.group()) if found else None
    if number is None:
        number = board.qx_number
    record = GameRecord(board=number, dealer=board.dealer, vulnerability=board.vulnerability,
                        deal=board.deal, calls=list(board.calls), claim=board.claim,
                        commentary=board.commentary, file=file, line=board.line)
    for message, line in board.problems:
        record.problem(message, line)
    if record.dealer is None:
        record.problem("no dealer digit in md|")
        if number is not None and number >= 1:
            record.dealer = Seat.dealer_of(number)
    first = Seat.NORTH if record.dealer is None else record.dealer
    record.calls = [c if c.seat is first.offset(i) else replace(c, seat=first.offset(i))
                    for i, c in enumerate(board.calls)]
    tags = record.tags
    if "Event" in event:
        tags["Event"] = event["Event"]
    if number is not None:
        tags["Board"] = str(number)
    names = board.names
    if names is None and len(file_names) == 8 and board.room in ("o", "c"):
        names = file_names[:4] if board.room == "o" else file_names[4:]
    if names:
        by_seat = dict(zip(("South", "West", "North", "East"), names, strict=False))
        for key in ("West", "North", "East", "South"):
            if by_seat.get(key):
                tags[key] = by_seat[key]
    if record.dealer is not None:
        tags["Dealer"] = record.dealer.letter
    if record.vulnerability is not None:
        tags["Vulnerable"] = str(record.vulnerability)
    if record.deal is not None:
        tags["Deal"] = record.deal.pbn(first)
    for key in ("Scoring", "Stage", "HomeTeam", "VisitTeam"):
        if key in event:
            tags[key] = event[key]
    if board.room in ("o", "c"):
        tags["Room"] = "Open" if board.room == "o" else "Closed"
    _derive(record, board)
    if board.tempo is not None:
        rows = [row.split(",") for row in board.tempo.split(";") if row]
        for row in rows[:1]:
            if row[0] == "@":   # where it was played: tags LIN has no place for
                for cell in row[1:]:
                    key, _, value = cell.partition("=")
                    if key in _TEMPO_TAGS and value:
                        tags.setdefault(key, value)
                rows = rows[1:]
        record.tables[TEMPO_TABLE] = Table(list(_TEMPO_COLUMNS), rows)
        apply_tempo_table(record)
    return record


def _derive(record: GameRecord, board: _Board) -> None:
    """Contract, declarer, card seats and result from the calls, the play and the claim."""
    dealer = Seat.NORTH if record.dealer is None else record.dealer
    end = auction_end([c.call for c in record.calls], dealer)
    record.auction_complete = end.end is not None
    record.passed_out = end.passed_out
    contract = end.contract
    tags = record.tags
    if contract is not None:
        record.contract, record.declarer = contract, contract.declarer
        assert contract.declarer is not None
        tags["Declarer"] = contract.declarer.letter
        tags["Contract"] = str(contract)
    elif end.passed_out:
        tags["Contract"] = "Pass"
    leader = None if contract is None or contract.declarer is None else contract.declarer.lho
    trump = contract.strain.suit if contract is not None else None
    trick: list[CardRecord] = []
    won = 0
    for card, line in board.cards:
        seat = leader.offset(len(trick)) if leader is not None else (
            record.deal.owner(card) if record.deal is not None else None)
        if seat is None:
            record.problem(f"cannot tell who played {card}: no contract and no deal", line)
            continue
        trick.append(CardRecord(seat, card))
        if len(trick) == 4 and leader is not None and contract is not None:
            winner = _trick_winner(trick, trump)
            assert contract.declarer is not None
            won += winner.side is contract.declarer.side
            leader = winner
        record.plays.extend(trick[-1:])
        if len(trick) == 4:
            trick = []
    record.play_complete = len(record.plays) == 52
    if record.claim is not None:
        record.result = record.claim
    elif record.play_complete and contract is not None:
        record.result = won
    if record.result is not None and contract is not None:
        tags["Result"] = str(record.result)


def read_lin(source: str | Path | bytes, *, file: str | None = None) -> LinFile:
    """Read a LIN file: ``source`` is its bytes, its text (``str``), or a Path to it.

    Lenient: problems are collected with file, line and board and reading goes on.
    Raises FormatError only when no board at all can be read.
    """
    if isinstance(source, Path):
        file = file or str(source)
        try:
            data = source.read_bytes()
        except OSError as err:
            raise FormatError(f"cannot read: {err.strerror or err}", file=file) from err
        text = _decode(data)
    elif isinstance(source, bytes | bytearray):
        text = _decode(bytes(source))
    else:
        text = source
    if not text.strip():
        raise FormatError("empty LIN file", file=file)
    return _LinReader(text, file).run()


# Writing --------------------------------------------------------------------------------------

def _clean(text: str) -> str:
    """A value LIN can hold: no pipe, no line break."""
    return _NEWLINE.sub(" ", text).replace("|", "/")


def _call_text(call: Call) -> str:
    if call.kind is CallKind.PASS:
        return "p"
    if call.kind is CallKind.DOUBLE:
        return "d"
    if call.kind is CallKind.REDOUBLE:
        return "r"
    assert call.strain is not None
    return f"{call.level}{'N' if call.strain is Strain.NOTRUMP else call.strain.symbol}"


def _hand_text(hand: Hand) -> str:
    return "".join(s.letter + "".join(c.rank.letter for c in hand.suit(s))
                   for s in (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS))


def write_lin(records: Iterable[GameRecord]) -> str:
    """LIN text, one board per line: deal, dealer, vulnerability, names, calls, play, claim.

    Laid out as BigDeal and BBO do (``qx|o1|md|3...|rh||ah|Board 1|sv|0|``); the fourth
    hand is left out when the deal is complete. The actions' times, when the record has
    them, follow in an ``nt|tenace-tempo 1 ...|`` note (module docstring). Pipes in text
    become ``/``, line breaks spaces, commas in names spaces.
    """
    lines = []
    for r in records:
        out: list[str] = []
        room = "c" if r.tags.get("Room", "").lower().startswith("c") else "o"
        if r.board is not None:
            out.append(f"qx|{room}{r.board}|")
        names = [r.tags.get(k, "") for k in ("South", "West", "North", "East")]
        if any(names):
            out.append("pn|" + ",".join(_clean(n).replace(",", " ") for n in names) + "|")
        digit = "" if r.dealer is None else str(_LIN_SEATS.index(r.dealer) + 1)
        hands = []
        if r.deal is not None:
            hands = [_hand_text(r.deal[s]) for s in _LIN_SEATS]
            if r.deal.is_complete:
                hands[3] = ""
        out.append(f"md|{digit}{','.join(hands).rstrip(',')}|rh||")
        if r.board is not None:
            out.append(f"ah|Board {r.board}|")
        if r.vulnerability is not None:
            out.append(f"sv|{_VUL_OUT[r.vulnerability]}|")
        for c in r.calls:
            out.append(f"mb|{_call_text(c.call)}{'!' if c.alert else ''}|")
            if c.explanation is not None:
                out.append(f"an|{_clean(c.explanation)}|")
        if r.calls:
            out.append("pg||")
        out += [f"pc|{p.card}|" for p in r.plays]
        if r.claim is not None:
            out.append(f"mc|{r.claim}|")
        if r.plays or r.claim is not None or not r.calls:
            out.append("pg||")
        times = r.tables.get(TEMPO_TABLE) or tempo_table(r)
        if times is not None:
            where = [["@", *(f"{k}={r.tags[k]}" for k in _TEMPO_TAGS if r.tags.get(k))]]
            out.append(f"nt|{_TEMPO}" + ";".join(",".join(_clean(c).replace(",", " ").replace(
                ";", " ") for c in row) for row in where + times.rows) + "|")
        lines.append("".join(out))
    return "".join(line + "\n" for line in lines)
