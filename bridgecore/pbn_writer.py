"""PBN 2.1 writer (formats.md §1.1-1.7): GameRecord values to PBN text.

With ``export=True`` (the default) the text is in export format: CRLF line
ends, the ``% PBN 2.1``/``% EXPORT`` header, the 15 mandatory tags in their
order (``"?"`` when unknown), commentary, the auction from the dealer four calls
a line with its notes, the play by seat columns from the opening leader with
its notes, then the other tags alphabetically, tables with their rows. With
``export=False`` the tags keep the record's order and raw values.

A tag value the record's fields agree with is written as read (``"^S"``,
``"^9"``); otherwise the field is written. Alerts and explanations without a
note reference get a ``[Note]`` numbered after the record's notes. Reading
what this module writes gives the same record back, with these limits of PBN
itself: a tag value ``"#"`` or starting with ``##`` reads as inheritance, a
newline in a value or note becomes a space, and a trick of the play whose
cards are all unknown cannot be told from the next one.

The calls' and cards' times, when the record has them, go in a supplemental table,
``[TempoTable "Action;Seat;Item;Time;Source;Stop"]`` (bridgecore.tempo, docs/tempo.md): a
tag other programs skip (PBN 2.1: unknown tags are skipped), which the reader turns back
into the same times.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path

from bridgecore.cards import Seat, Strain
from bridgecore.deal import Deal
from bridgecore.errors import ParseError
from bridgecore.pbn_sections import group_tricks
from bridgecore.pbn_tokens import fast_deal, quote
from bridgecore.pbn_values import parse_contract, parse_result, parse_strain_only
from bridgecore.record import CallRecord, CardRecord, GameRecord, Table
from bridgecore.tempo import TEMPO_TABLE, resolve_tempo, tempo_table
from bridgecore.vulnerability import Vulnerability

__all__ = ["MANDATORY_TAGS", "dumps_record", "pbn_bytes", "play_strain", "save_pbn",
           "write_pbn"]

MANDATORY_TAGS = ("Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer",
                  "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result")
"""The 15 tags of the mandatory tag set, in export order (PBN 2.1 §3.1)."""

_SEATS = {s.letter: s for s in Seat}
_EXPORT_FORMS = {
    "Board": re.compile(r"[1-9]\d*|\??"),
    "Dealer": re.compile(r"[NESW]|\??"),
    "Vulnerable": re.compile(r"None|NS|EW|All|\??"),
    "Deal": re.compile(r"[NESW]:.*|\??"),
    "Declarer": re.compile(r"\^?[NESW]|\??"),
    "Contract": re.compile(r"Pass|[1-7](?:NT|S|H|D|C)(?:XX|X)?|(?:NT|S|H|D|C)|\??"),
    "Result": re.compile(r"\^?(?:1[0-3]|\d)|\??"),
}
_NOT_PLAIN = re.compile(r'[\s"{};\[\]\\%]')
_WIDTH = re.compile(r"\\(\d{1,4})([LR]?)")


def write_pbn(records: Iterable[GameRecord], *, export: bool = True,
              charset: str | None = None) -> str:
    """A PBN file of ``records``: a ``%`` header, then the games separated by empty lines.
    ``charset`` (e.g. ``"UTF-8"``) adds the escape line real files carry to say how the
    text is encoded, ``%Content-type: text/x-pbn; charset=...``, for a file written in
    other than PBN's ISO-8859-1 (the caller encodes the text so)."""
    eol = "\r\n" if export else "\n"
    header = ["% PBN 2.1", *(["% EXPORT"] if export else []),
              *([f"%Content-type: text/x-pbn; charset={charset}"] if charset else [])]
    parts = [eol.join(header) + eol]
    for i, record in enumerate(records):
        if i:
            parts.append(eol)
        parts.append(dumps_record(record, export=export))
    return "".join(parts)


def dumps_record(record: GameRecord, *, export: bool = True) -> str:
    """One game of PBN text (no file header), ending with a line end."""
    text = "\n".join(_Game(record, export).lines()) + "\n"
    return text.replace("\n", "\r\n") if export else text


def pbn_bytes(records: Iterable[GameRecord], *, export: bool = True) -> tuple[bytes, str]:
    """The file's bytes and their charset: ISO-8859-1, PBN's own, when every character fits;
    else UTF-8, said by the ``%Content-type`` escape line, so that no name becomes ``?``."""
    records = list(records)
    text = write_pbn(records, export=export)
    try:
        return text.encode("iso-8859-1"), "ISO-8859-1"
    except UnicodeEncodeError:
        return write_pbn(records, export=export, charset="UTF-8").encode("utf-8"), "UTF-8"


def save_pbn(path: str | Path, records: Iterable[GameRecord], *, export: bool = True) -> None:
    """Write ``records`` to ``path``: ISO-8859-1, or UTF-8 when a name needs it
    (:func:`pbn_bytes`)."""
    Path(path).write_bytes(pbn_bytes(records, export=export)[0])


def play_strain(record: GameRecord) -> Strain | None:
    """The trump strain that decides tricks: the contract's, an end position's, the last bid's."""
    if record.contract is not None:
        return record.contract.strain
    value = record.tags.get("Contract")
    strain = parse_strain_only(value) if value else None
    if strain is not None:
        return strain
    for c in reversed(record.calls):
        if c.call.strain is not None:
            return c.call.strain
    return None


def _tag(name: str, value: str) -> str:
    return f"[{name} {quote(value)}]"


class _Game:
    """The lines of one game."""

    __slots__ = ("export", "record")

    def __init__(self, record: GameRecord, export: bool):
        if record.raw_tempo is not None:     # read lazily: the table and times first
            resolve_tempo(record)
        if TEMPO_TABLE not in record.tables:   # the actions' times (bridgecore.tempo)
            times = tempo_table(record)
            if times is not None:
                record = replace(record, tables={**record.tables, TEMPO_TABLE: times})
        self.record = record
        self.export = export

    def lines(self) -> list[str]:
        r = self.record
        out: list[str] = []
        if self.export:
            for name in MANDATORY_TAGS:
                value = self.mandatory(name)
                out.append(_tag(name, "?" if value is None else value))
            out.extend(self.commentary())
            out.extend(self.orphan_notes())
            out.extend(self.auction())
            out.extend(self.play())
            for name in sorted(set(r.tags) | set(r.tables)):
                if name not in _MANDATORY_SET and name not in _SECTION_TAGS:
                    out.extend(self.tag(name))
            return out
        out.extend(self.commentary())
        out.extend(self.orphan_notes())
        done: set[str] = set()
        for name in r.tags:
            done.add(name)
            if name == "Auction":
                out.extend(self.auction())
            elif name == "Play":
                out.extend(self.play())
            else:
                out.extend(self.tag(name))
        for name in MANDATORY_TAGS:
            if name not in done and self.mandatory(name):
                out.extend(self.tag(name))
        for name in r.tables:
            if name not in done:
                out.extend(self.tag(name))
        if "Auction" not in done:
            out.extend(self.auction())
        if "Play" not in done:
            out.extend(self.play())
        if not any(line.startswith("[") for line in out):
            out.append(_tag("Event", "?"))  # a game needs a tag
        return out

    # Tags --------------------------------------------------------------------------------
    def tag(self, name: str) -> list[str]:
        r = self.record
        if name in _MANDATORY_SET:
            value = self.mandatory(name)
            return [] if value is None else [_tag(name, value)]
        table = r.tables.get(name)
        if table is None:
            return [_tag(name, r.tags[name])]
        raw = r.tags.get(name)
        columns = raw if raw is not None and raw.split(";") == table.columns else \
            ";".join(table.columns)
        return [_tag(name, columns), *self.rows(table)]

    def mandatory(self, name: str) -> str | None:
        """The value to write for a mandatory tag, or None when there is none."""
        r = self.record
        raw = r.tags.get(name)
        derive = _DERIVED.get(name)
        if derive is None:
            return raw
        if raw is not None and _agrees(name, raw, r):
            form = _EXPORT_FORMS[name]
            if not self.export or (form.fullmatch(raw) and (name != "Deal" or _deal_first(raw, r))):
                return raw
        value = derive(r)
        return value if value is not None else raw

    def rows(self, table: Table) -> list[str]:
        widths: list[tuple[int, str]] = []
        for column in table.columns:
            m = _WIDTH.search(column)
            widths.append((min(int(m.group(1)), 80), m.group(2)) if m else (0, ""))
        out = []
        for row in table.rows:
            cells = []
            for i, token in enumerate(row):
                text = token if token and not _NOT_PLAIN.search(token) else quote(token)
                if self.export and i < len(widths) and widths[i][0]:
                    width, align = widths[i]
                    text = text.rjust(width) if align == "R" else text.ljust(width)
                cells.append(text)
            out.append(" ".join(cells).rstrip())
        return out

    def commentary(self) -> list[str]:
        out = []
        for text in self.record.commentary:
            if "}" not in text:
                out.append("{" + text + "}")
            elif "\n" not in text:
                out.append(";" + text)
            else:
                out.append("{" + text.replace("}", ")") + "}")
        return out

    # Auction -----------------------------------------------------------------------------
    def orphan_notes(self) -> list[str]:
        """Notes of a record without an auction, written before any section as they were read."""
        r = self.record
        if r.calls or "Auction" in r.tags:
            return []
        return [_tag("Note", f"{n}:{text}") for n, text in r.notes.items()]

    def auction(self) -> list[str]:
        r = self.record
        raw = r.tags.get("Auction")
        if not r.calls and raw is None:
            return []
        tagged = _SEATS.get((raw or "").strip().upper())
        if raw is not None and tagged is None:  # the reader starts from the dealer, or North
            tagged = Seat.NORTH if r.dealer is None else r.dealer
        first = r.calls[0].seat if r.calls else None
        start = _known(r.dealer, tagged, first) if self.export else _known(tagged, r.dealer, first)
        if start is None:
            return [_tag("Auction", raw or "")]
        value = raw if raw is not None and not self.export else start.letter
        notes = dict(r.notes)
        slots: list[str] = []
        previous: Seat | None = None
        for c in r.calls:
            skipped = c.annotations.count("^S")
            if previous is None:
                slots.extend(["-"] * ((c.seat - start - skipped) % 4) + ["^S"] * skipped)
            else:
                gap = (c.seat - previous - 1) % 4
                slots.extend(["^S"] * (skipped if skipped % 4 == gap else gap))
            previous = c.seat
            slots.append(_call_text(c, notes))
        lines = [_tag("Auction", value)]
        lines.extend(" ".join(slots[i:i + 4]) for i in range(0, len(slots), 4))
        if r.calls and not r.auction_complete:
            lines.append("*")
        lines.extend(_tag("Note", f"{n}:{text}") for n, text in notes.items())
        return lines

    # Play --------------------------------------------------------------------------------
    def play(self) -> list[str]:
        r = self.record
        raw = r.tags.get("Play")
        if not r.plays and raw is None:
            return []
        lho = None if r.declarer is None else r.declarer.lho
        first = _SEATS.get((raw or "").strip().upper())
        if first is None and raw is not None:  # the reader starts from declarer's LHO, or North
            first = Seat.NORTH if lho is None else lho
        if first is None:
            first = _known(r.plays[0].seat if r.plays else None, lho)
        if first is None:
            return [_tag("Play", raw or "")]
        lines = [_tag("Play", raw if raw is not None and not self.export else first.letter)]
        strain = play_strain(r)
        for _, cards in group_tricks(r.plays, first, Strain.NOTRUMP if strain is None else strain):
            tokens = [_card_text(cards.get(first.offset(j))) for j in range(4)]
            width = max(len(t) for t in tokens)
            lines.append(" ".join(t.ljust(width) for t in tokens).rstrip())
        if r.plays and not r.play_complete:
            lines.append("*")
        lines.extend(_tag("Note", f"{n}:{text}") for n, text in r.play_notes.items())
        return lines


def _known(*seats: Seat | None) -> Seat | None:
    """The first seat that is not None (a Seat may be North, which is falsy)."""
    return next((s for s in seats if s is not None), None)


def _call_text(c: CallRecord, notes: dict[int, str]) -> str:
    before = [a for a in c.annotations if a[:1] == "^" and a != "^S"]
    after = [a for a in c.annotations if a[:1] != "^"]
    if (c.alert or c.explanation) and not any(a[:1] == "=" for a in after):
        text = c.explanation or ""
        number = next((n for n, t in notes.items() if t == text), None)
        if number is None:
            number = max(notes, default=0) + 1
            notes[number] = text
        after.insert(0, f"={number}=")
    return " ".join([*before, str(c.call), *after])


def _card_text(c: CardRecord | None) -> str:
    if c is None:
        return "-"
    if not c.annotations:
        return str(c.card)
    before = [a for a in c.annotations if a[:1] == "^"]
    after = [a for a in c.annotations if a[:1] != "^"]
    return " ".join([*before, str(c.card), *after])


def _deal_first(raw: str, r: GameRecord) -> bool:
    return r.dealer is None or raw.strip()[:1].upper() == r.dealer.letter


def _read_deal(raw: str) -> Deal | None:
    deal = fast_deal(raw)
    if deal is None:
        deal = Deal.parse(raw)
    return deal


def _agrees(name: str, raw: str, r: GameRecord) -> bool:
    """Whether ``raw`` reads as the record's field (so it may be written as it is)."""
    try:
        if name == "Board":
            v = raw.strip()
            return (int(v) if v.isdecimal() and len(v) <= 9 and int(v) > 0 else None) == r.board
        if name == "Dealer":
            return _SEATS.get(raw.strip().upper()) == r.dealer
        if name == "Vulnerable":
            return _VULNERABLE.get(raw.strip().upper()) == r.vulnerability
        if name == "Deal":
            if raw.strip() in ("", "?"):
                return r.deal is None
            return _read_deal(raw) == r.deal
        if name == "Declarer":
            return _SEATS.get(raw.strip().lstrip("^").upper()) == r.declarer
        if name == "Contract":
            return parse_contract(raw, r.declarer) == (r.contract, r.passed_out)
        return parse_result(raw, r.declarer) == r.result
    except (ParseError, ValueError):
        return False


def _declarer(r: GameRecord) -> str | None:
    seat = _known(r.declarer, None if r.contract is None else r.contract.declarer)
    if seat is not None:
        return seat.letter
    return "" if r.passed_out else None


def _contract(r: GameRecord) -> str | None:
    if r.passed_out:
        return "Pass"
    return None if r.contract is None else str(r.contract)


def _result(r: GameRecord) -> str | None:
    if r.result is not None:
        return str(r.result)
    return "" if r.passed_out else None


_DERIVED: dict[str, Callable[[GameRecord], str | None]] = {
    "Board": lambda r: None if r.board is None else str(r.board),
    "Dealer": lambda r: None if r.dealer is None else r.dealer.letter,
    "Vulnerable": lambda r: None if r.vulnerability is None else str(r.vulnerability),
    "Deal": lambda r: None if r.deal is None else r.deal.pbn(
        Seat.NORTH if r.dealer is None else r.dealer),
    "Declarer": _declarer,
    "Contract": _contract,
    "Result": _result,
}
_MANDATORY_SET = frozenset(MANDATORY_TAGS)
_SECTION_TAGS = frozenset({"Auction", "Play", "Note"})
_VULNERABLE = {"NONE": Vulnerability.NONE, "LOVE": Vulnerability.NONE, "-": Vulnerability.NONE,
               "NS": Vulnerability.NS, "EW": Vulnerability.EW, "ALL": Vulnerability.BOTH,
               "BOTH": Vulnerability.BOTH}

