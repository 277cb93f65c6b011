"""PBN sections (formats.md §1.4, §1.5, §1.7): auction, play and supplemental tables.

Readers take the section's tokens as ``(kind, line, text)`` (``"w"`` a run of
words, ``"s"`` a quoted string, ``"t"`` a table's lines of words taken in one piece) and
report what they cannot read through a ``problem(message, line)`` callback.
:func:`group_tricks` is the writer's side of the play section: it puts a chronological play
back into tricks with the same rule the reader uses to take them out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from bridgecore.calls import PASS, Call
from bridgecore.cards import Card, Seat, Strain
from bridgecore.pbn_tokens import CALLS, CARDS, SUFFIX_NAGS, split_word, trick_winner, unescape
from bridgecore.record import CallRecord, CardRecord, Table

__all__ = ["auction_closed", "group_tricks", "read_auction", "read_play", "read_table"]

Problem = Callable[[str, int], None]
Tokens = Sequence[tuple[str, int, str]]

_PREFIX_MARKS = {"auction": ("^I", "^S"), "play": ("^R", "^L")}


class _Entry:
    """A call or card being read, with the annotations met before and after it."""

    __slots__ = ("gap", "item", "line", "post", "pre", "seat")

    def __init__(self, seat: Seat, item: Call | Card, gap: int, pre: list[str], line: int):
        self.seat = seat
        self.item = item
        self.gap = gap
        self.pre = pre
        self.post: list[str] = []
        self.line = line


def _annotate(entry: _Entry | None, piece: str, line: int, problem: Problem) -> None:
    """Attach a note reference, NAG or suffix to the call or card before it."""
    if piece[0] == "=":
        ok = 2 < len(piece) < 12 and piece[-1] == "=" and piece[1:-1].isdecimal()
        value = piece
    elif piece[0] == "$":
        ok = len(piece) <= 4 and piece[1:].isdecimal() and int(piece[1:]) <= 255
        value = piece
    else:
        nag = SUFFIX_NAGS.get(piece)
        ok = nag is not None
        value = nag or piece
    if not ok:
        problem(f"bad annotation {piece!r}", line)
    elif entry is None:
        problem(f"annotation {piece!r} follows no call or card", line)
    else:
        if value[0] == "=" and any(p[0] == "=" for p in entry.post):
            problem(f"more than one note reference on {entry.item}", line)
        entry.post.append(value)


def _annotations(entry: _Entry) -> tuple[str, ...]:
    refs = [p for p in entry.post if p[0] == "="]
    nags = sorted((p for p in entry.post if p[0] == "$"), key=lambda p: int(p[1:]))
    return ("^S",) * entry.gap + tuple(entry.pre) + tuple(refs) + tuple(nags)


def _note(entry: _Entry, ann: tuple[str, ...], notes: Mapping[int, str],
          problem: Problem) -> tuple[bool, str | None]:
    """(alert, explanation) of a call or card from its first note reference."""
    for a in ann:
        if a[0] == "=":
            n = int(a[1:-1])
            text = notes.get(n)
            if text is None:
                problem(f"no [Note] for note reference ={n}=", entry.line)
            return True, text or None
    return False, None


_PLAIN = frozenset(CALLS) | frozenset(CARDS) | {"-", "*", "+", "AP", "^S", "^I", "^R", "^L"}


def _word_pieces(word: str) -> list[str]:
    return [word] if word in _PLAIN else split_word(word)


Slot = tuple[tuple[CardRecord, ...], int, int]
"""A card of the play section: its records as played by N, E, S, W, its suit and its rank."""


def _records_by_seat() -> tuple[dict[str, tuple[CallRecord, ...]], dict[str, Slot]]:
    calls = {c: tuple(CallRecord(s, c) for s in Seat) for c in set(CALLS.values())}
    cards: dict[Card, Slot] = {}
    for c in set(CARDS.values()):
        cards[c] = (tuple(CardRecord(seat, c) for seat in Seat), int(c.suit), int(c.rank))
    return ({t: calls[c] for t, c in CALLS.items()}, {t: cards[c] for t, c in CARDS.items()})


_CALL_TOKENS, _CARD_TOKENS = _records_by_seat()
"""For each plain call or card token, its record as made by each seat (shared, frozen)."""
_NEXT = tuple(s.lho for s in Seat)


def read_auction(tokens: Tokens, start: Seat, notes: Mapping[int, str],
                 problem: Problem) -> tuple[list[CallRecord], bool]:
    """The calls of an auction section from ``start``; and whether it closed (Law 17E)."""
    out: list[CallRecord | _Entry] = []
    seat = start
    gap = 0
    pending: list[str] = []
    ended = False
    for kind, line, text in tokens:
        if kind != "w":
            problem(f"unexpected string {text} in the auction", line)
            continue
        for word in text.split():
            plain = _CALL_TOKENS.get(word)
            if plain is not None and not gap and not pending and not ended:
                out.append(plain[seat])
                seat = _NEXT[seat]
                continue
            if word[0] == "=" and word[-1] == "=" and 2 < len(word) < 12 \
                    and word[1:-1].isdecimal() and out:
                entry = _last_entry(out, line)
                if entry is not None and not entry.post:
                    entry.post.append(word)
                    continue
            for piece in _word_pieces(word):
                call = CALLS.get(piece)
                if call is None:
                    head = piece[0]
                    if head in "=$!?":
                        _annotate(_last_entry(out, line), piece, line, problem)
                        continue
                    if piece == "-" or piece == "^S":
                        if out or piece == "^S":
                            gap += 1
                        seat = _NEXT[seat]
                        continue
                    if head == "^":
                        if piece not in _PREFIX_MARKS["auction"]:
                            problem(f"unknown irregularity mark {piece!r} in the auction", line)
                        pending.append(piece)
                        continue
                    if piece == "*" or piece == "+":
                        ended = True
                        continue
                    if piece.upper() == "AP":
                        for _ in range(_passes_to_close(out)):
                            out.append(_Entry(seat, PASS, gap, pending, line))
                            gap, pending, seat = 0, [], _NEXT[seat]
                        continue
                    call = _odd_call(piece, line, problem)
                    if call is None:
                        seat = _NEXT[seat]
                        if out:
                            gap += 1
                        continue
                if ended:
                    problem(f"call {piece} after the end of the auction section", line)
                out.append(_Entry(seat, call, gap, pending, line))
                gap, pending, seat = 0, [], _NEXT[seat]
    if pending:
        problem(f"irregularity mark {' '.join(pending)} before no call", tokens[-1][1])
    calls: list[CallRecord] = []
    for e in out:
        if isinstance(e, CallRecord):
            calls.append(e)
        elif not e.gap and not e.pre and not e.post and str(e.item) in _CALL_TOKENS:
            calls.append(_CALL_TOKENS[str(e.item)][e.seat])
        else:
            assert isinstance(e.item, Call)
            ann = _annotations(e)
            alert, explanation = _note(e, ann, notes, problem)
            calls.append(CallRecord(e.seat, e.item, None, alert, explanation, ann))
    return calls, auction_closed(c.call for c in calls)


def _last_entry(out: list[CallRecord | _Entry], line: int) -> _Entry | None:
    """The last call, made an entry that can take annotations."""
    if not out:
        return None
    last = out[-1]
    if isinstance(last, CallRecord):
        last = out[-1] = _Entry(last.seat, last.call, 0, [], line)
    return last


def _odd_call(piece: str, line: int, problem: Problem) -> Call | None:
    try:
        call = Call.parse(piece)
    except ValueError:  # a ParseError, or a digit int() does not take (Call.parse("²C"))
        problem(f"not a call: {piece!r}", line)
        return None
    problem(f"non-standard call {piece!r} read as {call}", line)
    return call


def _passes_to_close(out: list[CallRecord | _Entry]) -> int:
    """How many passes ``AP`` stands for: those that close the auction (Law 17E)."""
    items = [e.call if isinstance(e, CallRecord) else e.item for e in out]
    calls = [c for c in items if isinstance(c, Call)]
    if auction_closed(calls):
        return 0
    trailing = 0
    for call in reversed(calls):
        if call != PASS:
            return 3 - trailing
        trailing += 1
    return 4 - trailing


def auction_closed(calls: Iterable[Call]) -> bool:
    """True when the calls contain the end of an auction: three passes after a call, or four."""
    passes = 0
    bid = False
    for call in calls:
        if call == PASS:
            passes += 1
            if passes == (3 if bid else 4):
                return True
        else:
            passes = 0
            bid = True
    return False


def read_play(tokens: Tokens, first: Seat, strain: Strain, notes: Mapping[int, str],
              problem: Problem) -> list[CardRecord]:
    """The cards of a play section in the order played.

    The section has one column per seat from ``first`` (the leader of the first
    trick). Each later trick is led by the winner of the one before, at
    ``strain`` (as :func:`~bridgecore.pbn_tokens.trick_winner`); within a trick
    the cards go clockwise from its leader. A ``-`` (unknown card) is skipped;
    a trick with no known card keeps its leader.
    """
    slots: list[Slot | None] = []
    special: dict[int, _Entry] = {}
    pending: list[str] = []
    last = -1
    ended = False
    for kind, line, text in tokens:
        if kind != "w":
            problem(f"unexpected string {text} in the play", line)
            continue
        words = text.split()
        if not pending and not ended:
            plain = [_CARD_TOKENS.get(w) for w in words]
            if None not in plain:
                slots.extend(plain)
                last = len(slots) - 1
                continue
        for word in words:
            plain_card = _CARD_TOKENS.get(word)
            if plain_card is not None and not pending and not ended:
                last = len(slots)
                slots.append(plain_card)
                continue
            for piece in _word_pieces(word):
                card = CARDS.get(piece)
                if card is None:
                    head = piece[0]
                    if head in "=$!?":
                        _annotate(_slot_entry(slots, special, last, first, line), piece, line,
                                  problem)
                        continue
                    if piece == "-" or piece == "+":
                        slots.append(None)
                        last = -1
                        continue
                    if head == "^":
                        if piece not in _PREFIX_MARKS["play"]:
                            problem(f"unknown irregularity mark {piece!r} in the play", line)
                        pending.append(piece)
                        continue
                    if piece == "*":
                        ended = True
                        continue
                    card = _odd_card(piece, line, problem)
                    if card is None:
                        slots.append(None)
                        last = -1
                        continue
                if ended:
                    problem(f"card {piece} after the end of the play section", line)
                last = len(slots)
                slots.append(_CARD_TOKENS[str(card)])
                if pending:
                    special[last] = _Entry(first.offset(last), card, 0, pending, line)
                    pending = []
    return _chronological(slots, special, first, strain, notes, problem)


def _slot_entry(slots: list[Slot | None], special: dict[int, _Entry],
                index: int, first: Seat, line: int) -> _Entry | None:
    """The entry of the card in slot ``index`` (the last one read), to take annotations."""
    if index < 0:
        return None
    entry = special.get(index)
    if entry is None:
        records = slots[index]
        assert records is not None
        seat = first.offset(index)
        entry = special[index] = _Entry(seat, records[0][seat].card, 0, [], line)
    return entry


_ROTATIONS = tuple(tuple((lead + j) & 3 for j in range(4)) for lead in range(4))


def _chronological(slots: list[Slot | None], special: dict[int, _Entry], first: Seat,
                   strain: Strain, notes: Mapping[int, str], problem: Problem
                   ) -> list[CardRecord]:
    """The cards of the slots (by seat columns from ``first``) in the order played."""
    trump = -1 if strain.suit is None else int(strain.suit)
    seats = [int(first.offset(c)) for c in range(4)]
    plays: list[CardRecord] = []
    append = plays.append
    n = len(slots)
    lead = 0
    for base in range(0, n, 4):
        best_suit = best_rank = -1
        best_column = lead
        for column in _ROTATIONS[lead]:
            i = base + column
            slot = slots[i] if i < n else None
            if slot is None:
                continue
            if special and i in special:
                append(_card_record(special[i], notes, problem))
            else:
                append(slot[0][seats[column]])
            suit = slot[1]
            rank = slot[2]
            if best_suit < 0 or (suit == best_suit and rank > best_rank) \
                    or (suit == trump and best_suit != trump):
                best_suit, best_rank, best_column = suit, rank, column
        lead = best_column
    return plays


def _card_record(e: _Entry, notes: Mapping[int, str], problem: Problem) -> CardRecord:
    assert isinstance(e.item, Card)
    ann = _annotations(e)
    _note(e, ann, notes, problem)
    return CardRecord(e.seat, e.item, None, ann)


def _odd_card(piece: str, line: int, problem: Problem) -> Card | None:
    try:
        card = Card.parse(piece)
    except ValueError:
        problem(f"not a card: {piece!r}", line)
        return None
    problem(f"non-standard card {piece!r} read as {card}", line)
    return card


def group_tricks(plays: Sequence[CardRecord], first: Seat, strain: Strain
                 ) -> list[tuple[Seat, dict[Seat, CardRecord]]]:
    """Tricks of a chronological play as ``(leader, {seat: card})``, for writing by columns.

    The inverse of :func:`read_play`: a card starts a new trick when its seat has
    played to the current one already or comes before the last card's seat in
    rotation from the leader.
    """
    tricks: list[tuple[Seat, dict[Seat, CardRecord]]] = []
    leader = first
    current: dict[Seat, CardRecord] = {}
    last = -1
    for p in plays:
        offset = (p.seat - leader) % 4
        if p.seat in current or offset <= last:
            tricks.append((leader, current))
            winner = trick_winner(((s, c.card) for s, c in current.items()), strain)
            if winner is not None:
                leader = winner
            current = {}
            offset = (p.seat - leader) % 4
        current[p.seat] = p
        last = offset
    if current:
        tricks.append((leader, current))
    return tricks


def read_table(value: str, tokens: Tokens) -> Table:
    """A supplemental table: the tag's column list and one row per line of tokens (with
    each row's line)."""
    columns = value.split(";") if value else []
    if len(tokens) == 1 and tokens[0][0] == "t":     # whole lines of words only (a
        _, line, text = tokens[0]                    # TempoTable as Tenace writes it)
        return Table.of_lines(columns, text, line)
    rows: list[list[str]] = []
    lines: list[int] = []
    row: list[str] = []
    row_line = -1
    for kind, line, text in tokens:
        if line != row_line:
            if row:
                rows.append(row)
                lines.append(row_line)
            row, row_line = [], line
        if kind == "w":
            row.extend(text.split())
        elif kind == "t":       # whole lines of words, a row each (the reader's _ROWS)
            block = text.split("\n")[:-1]
            rows.extend(ln.split() for ln in block)
            lines.extend(range(line, line + len(block)))
            row_line = -1
        else:
            inner = text[1:-1] if len(text) > 1 and text.endswith('"') else text[1:]
            row.append(unescape(inner))
    if row:
        rows.append(row)
        lines.append(row_line)
    return Table(columns, rows, lines)
