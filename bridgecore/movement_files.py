"""The Dutch ``.ASC`` movement file, standard v1.0 (pjms.nl, formats.md 8).

Text. A header line ``pairs tables rounds boardgroups individual``, then one line per
round with, for each table in order, ``NS-EW group`` (pairs, ``individual`` 0:
:func:`read_asc`) or ``N S E W group`` (``individual`` 1, the first header field then
counts the players: :func:`read_individual_asc`); groups are capital letters A.. or numbers
1..; an empty table is ``0 0 0`` (``0 0 0 0 0``: pair or player 0 is an empty seat); ``#``
starts a comment; whitespace and ``-`` separate the fields. :func:`write_asc` writes
either kind.

The file does not say how many boards a group holds (``boards_per_round``) nor which
tables share boards: the reader takes every group found at several tables in one round
as shared by those tables. The reader is lenient: each problem is a
:class:`~bridgecore.record.RecordProblem` with its line, and what can be read is kept.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from bridgecore.individual import IndividualAssignment, IndividualMovement
from bridgecore.movements import Assignment, Movement, board_numbers
from bridgecore.record import RecordProblem
from bridgecore.text import Text

__all__ = ["read_asc", "read_individual_asc", "write_asc"]

_SEPARATORS = re.compile(r"[\s\-]+")


def _group_name(board_set: int, letters: bool) -> str:
    if board_set == 0:
        return "0"
    return chr(ord("A") + board_set - 1) if letters else str(board_set)


def write_asc(movement: Movement | IndividualMovement) -> str:
    """The movement as ``.ASC`` text (letters for up to 26 groups, numbers beyond)."""
    if isinstance(movement, IndividualMovement):
        return _write_individual(movement)
    sets = movement.board_sets
    letters = sets <= 26
    pairs = max(movement.pairs, default=0)
    width = len(str(pairs))
    lines = [f"{pairs} {movement.tables} {movement.rounds} {sets} 0"]
    for r in range(1, movement.rounds + 1):
        cells = []
        for t in range(1, movement.tables + 1):
            a = movement.assignment(r, t)
            if a is None:
                cells.append(f"{0:>{width}}-{0:>{width}} 0")
                continue
            cells.append(f"{a.ns or 0:>{width}}-{a.ew or 0:>{width}} "
                         f"{_group_name(a.board_set, letters)}")
        lines.append("  ".join(cells))
    return "\n".join(lines) + "\n"


def _write_individual(movement: IndividualMovement) -> str:
    sets = movement.board_sets
    letters = sets <= 26
    players = max(movement.players, default=0)
    width = len(str(players))
    lines = [f"{players} {movement.tables} {movement.rounds} {sets} 1"]
    for r in range(1, movement.rounds + 1):
        cells = []
        for t in range(1, movement.tables + 1):
            a = movement.assignment(r, t)
            seats = (0, 0, 0, 0) if a is None else (a.north, a.south, a.east, a.west)
            group = "0" if a is None else _group_name(a.board_set, letters)
            cells.append(" ".join(f"{p or 0:>{width}}" for p in seats) + f" {group}")
        lines.append("  ".join(cells))
    return "\n".join(lines) + "\n"


def _group(token: str) -> int | None:
    if token.isdecimal():
        return int(token)
    if len(token) == 1 and token.isalpha() and token.isascii():
        return ord(token.upper()) - ord("A") + 1
    return None


def _shared(cells: Iterable[Assignment]) -> list[set[int]]:
    """Groups of tables that hold the same set in some round (merged when they overlap)."""
    holders: dict[tuple[int, int], set[int]] = {}
    for a in cells:
        if a.board_set:
            holders.setdefault((a.round, a.board_set), set()).add(a.table)
    groups: list[set[int]] = []
    for tables in holders.values():
        if len(tables) < 2:
            continue
        merged = set(tables)
        for g in [g for g in groups if g & merged]:
            merged |= g
            groups.remove(g)
        groups.append(merged)
    return groups


def _header(text: str, problem: Callable[..., None], *, individual: bool
            ) -> tuple[list[tuple[int, str]], int, int, int, int] | None:
    """The file's lines (number, text without comments) and its header's counts, or None
    when the header cannot be used (the problem said)."""
    lines = [(n, line.split("#", 1)[0].strip())
             for n, line in enumerate(text.splitlines(), start=1)]
    lines = [(n, line) for n, line in lines if line]
    if not lines:
        problem("empty movement file", None, Text.of("asc.empty"))
        return None
    n, header = lines[0]
    fields = header.split()
    if len(fields) not in (4, 5) or not all(f.isdecimal() for f in fields):
        problem(f"expected 'pairs tables rounds boardgroups individual', got {header!r}", n,
                Text.of("asc.header", header=f"{header!r:.80}"))
        return None
    kind = fields[4] if len(fields) == 5 else None
    if kind is None and individual:
        problem("header has no 'individual' field: not an individual movement (1)", n,
                Text.of("asc.not_individual"))
        return None
    if kind is None:
        problem("header has no 'individual' field; taken as pairs (0)", n,
                Text.of("asc.taken_as_pairs"))
    elif kind != ("1" if individual else "0"):
        problem(f"header's 'individual' is {kind}: read it as "
                f"{'a pairs' if individual else 'an individual'} movement", n,
                Text.of("asc.read_as_pairs", kind=kind) if individual
                else Text.of("asc.read_as_individual", kind=kind))
        return None
    count, tables, rounds, groups = (int(f) for f in fields[:4])
    if tables < 1:
        problem(f"a movement needs tables, header says {tables}", n,
                Text.of("asc.no_tables", tables=tables))
        return None
    return lines, count, tables, rounds, groups


def read_asc(text: str | bytes, *, boards_per_round: int = 1, file: str | None = None,
             ) -> tuple[Movement | None, list[RecordProblem]]:
    """Read an ``.ASC`` movement: the movement (None if the header is unusable) and the
    problems found, with their lines."""
    if isinstance(text, bytes):
        text = text.decode("latin-1")
    problems: list[RecordProblem] = []

    def problem(message: str, line: int | None = None, said: Text | None = None) -> None:
        problems.append(RecordProblem(message, file, line, text=said))

    head = _header(text, problem, individual=False)
    if head is None:
        return None, problems
    lines, pairs, tables, rounds, groups = head
    n = lines[0][0]
    cells: list[Assignment] = []
    body = lines[1:]
    if len(body) != rounds:
        problem(f"header says {rounds} rounds, the file has {len(body)}",
                body[-1][0] if body else n,
                Text.of("asc.rounds_count", rounds=rounds, n=len(body)))
    for r, (n, line) in enumerate(body, start=1):
        tokens = [t for t in _SEPARATORS.split(line) if t]
        if len(tokens) % 3:
            problem(f"round {r}: {len(tokens)} fields, not a multiple of 3 (NS EW group)", n,
                    Text.of("asc.fields_pairs", round=r, n=len(tokens)))
        if len(tokens) // 3 != tables:
            problem(f"round {r}: {len(tokens) // 3} tables, header says {tables}", n,
                    Text.of("asc.tables_count", round=r, n=len(tokens) // 3, tables=tables))
        for t in range(1, min(tables, len(tokens) // 3) + 1):
            ns_text, ew_text, group_text = tokens[3 * t - 3: 3 * t]
            board_set = _group(group_text)
            if not (ns_text.isdecimal() and ew_text.isdecimal()) or board_set is None:
                problem(f"round {r}, table {t}: not 'NS-EW group': "
                        f"{ns_text}-{ew_text} {group_text}", n,
                        Text.of("asc.cell_pairs", round=r, table=t,
                                cell=f"{ns_text}-{ew_text} {group_text}"[:80]))
                continue
            ns, ew = int(ns_text) or None, int(ew_text) or None
            if ns is not None and ns == ew:
                problem(f"round {r}, table {t}: pair {ns} on both sides", n,
                        Text.of("asc.pair_twice", round=r, table=t, pair=ns))
                continue
            if any(p is not None and p > pairs for p in (ns, ew)) or board_set > groups:
                problem(f"round {r}, table {t}: {ns_text}-{ew_text} {group_text} beyond "
                        f"{pairs} pairs and {groups} groups of the header", n,
                        Text.of("asc.beyond_pairs", round=r, table=t, pairs=pairs,
                                cell=f"{ns_text}-{ew_text} {group_text}"[:80], groups=groups))
            cells.append(Assignment(r, t, ns, ew, board_set,
                                    board_numbers(board_set, boards_per_round)))
    shared = tuple(frozenset(g) for g in _shared(cells))
    movement = Movement(tables, max(len(body), 1), tuple(cells), boards_per_round, shared,
                        name=file or "")
    return movement, problems


def read_individual_asc(text: str | bytes, *, boards_per_round: int = 1,
                        file: str | None = None,
                        ) -> tuple[IndividualMovement | None, list[RecordProblem]]:
    """Read an individual ``.ASC`` movement (``N S E W group`` a table): the movement (None
    if the header is unusable) and the problems found, with their lines. A table whose
    line cannot be read, or that seats a player twice in a round, is left out and named."""
    if isinstance(text, bytes):
        text = text.decode("latin-1")
    problems: list[RecordProblem] = []

    def problem(message: str, line: int | None = None, said: Text | None = None) -> None:
        problems.append(RecordProblem(message, file, line, text=said))

    head = _header(text, problem, individual=True)
    if head is None:
        return None, problems
    lines, players, tables, rounds, groups = head
    body = lines[1:]
    if len(body) != rounds:
        problem(f"header says {rounds} rounds, the file has {len(body)}",
                body[-1][0] if body else lines[0][0],
                Text.of("asc.rounds_count", rounds=rounds, n=len(body)))
    cells: list[IndividualAssignment] = []
    for r, (n, line) in enumerate(body, start=1):
        tokens = [t for t in _SEPARATORS.split(line) if t]
        if len(tokens) % 5:
            problem(f"round {r}: {len(tokens)} fields, not a multiple of 5 (N S E W group)",
                    n, Text.of("asc.fields_individual", round=r, n=len(tokens)))
        if len(tokens) // 5 != tables:
            problem(f"round {r}: {len(tokens) // 5} tables, header says {tables}", n,
                    Text.of("asc.tables_count", round=r, n=len(tokens) // 5, tables=tables))
        seated: set[int] = set()
        for t in range(1, min(tables, len(tokens) // 5) + 1):
            north, south, east, west, group_text = tokens[5 * t - 5: 5 * t]
            board_set = _group(group_text)
            seats = (north, east, south, west)
            if not all(x.isdecimal() for x in seats) or board_set is None:
                problem(f"round {r}, table {t}: not 'N S E W group': "
                        f"{north} {south} {east} {west} {group_text}", n,
                        Text.of("asc.cell_individual", round=r, table=t,
                                cell=f"{north} {south} {east} {west} {group_text}"[:80]))
                continue
            n_, e_, s_, w_ = (int(x) or None for x in seats)
            numbers = [n_, e_, s_, w_]
            here = [p for p in numbers if p is not None]
            twice = sorted({p for p in here if here.count(p) > 1 or p in seated})
            if twice:
                problem(f"round {r}, table {t}: player {twice[0]} already seated this round",
                        n, Text.of("asc.player_twice", round=r, table=t, player=twice[0]))
                continue
            seated.update(here)
            if any(p > players for p in here) or board_set > groups:
                problem(f"round {r}, table {t}: {north} {south} {east} {west} {group_text} "
                        f"beyond {players} players and {groups} groups of the header", n,
                        Text.of("asc.beyond_players", round=r, table=t, players=players,
                                cell=f"{north} {south} {east} {west} {group_text}"[:80],
                                groups=groups))
            cells.append(IndividualAssignment(r, t, n_, e_, s_, w_, board_set,
                                              board_numbers(board_set, boards_per_round)))
    movement = IndividualMovement(tables, max(len(body), 1), tuple(cells), boards_per_round,
                                  name=file or "")
    return movement, problems
