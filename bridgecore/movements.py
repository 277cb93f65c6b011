"""Movements: who sits where and which boards they play, table by table and round by round.

A :class:`Movement` is the schedule the hub checks seated pairs and boards against
(Law 5B: players move as instructed; Law 15: a board not designated for them, or
already played by one of them). It is the BWS ``RoundData`` table (formats.md 8): one
:class:`Assignment` per (round, table) with the North-South pair, the East-West pair
and the board set. ``None`` for a pair is an empty seat (a sit-out, or a phantom pair);
board set 0 is a table without boards. Board set ``s`` holds boards
``(s-1)*boards_per_round + 1 .. s*boards_per_round``.

Pair numbers are unique in a movement: in a Mitchell the North-South pairs are
1..T (pair t stays at table t) and the East-West pairs T+1..2T (pair T+t starts at
table t), as in one-winner files (formats.md 8).

Constructions (properties checked by the tests):

* :func:`mitchell` -- NS stationary, EW up one table, boards down one table. Odd T: T
  rounds. Even T: the skip (EW jump one extra table before round T/2+1; T-1 rounds) or
  the relay and bye-stand (tables 1 and T share boards, a stand with no players holds
  one set between tables T/2 and T/2+1; T rounds). Optional arrow-switch rounds.
  The formula of formats.md 8 is the mirror image (EW down, boards up): same meetings.
* :func:`howell` -- the cyclic (round-robin "circle") Howell for N = 2..8 tables.
* :func:`teams` -- teams of four, two rooms a match, a single match or a round-robin.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field

from bridgecore.cards import Side
from bridgecore.errors import RuleError
from bridgecore.text import Text

__all__ = ["MOVEMENT_PROBLEMS", "Assignment", "Movement", "board_numbers", "howell", "mitchell",
           "ranges", "teams"]

MOVEMENT_PROBLEMS: dict[str, str] = {
    "movement.pair_two_tables": "round {round}: pair {pair} at tables {tables}",
    "movement.boards_at_once": "round {round}: boards {boards} at tables {tables} at once",
    "movement.meet_again": "pairs {pair} and {other} meet {count} times (rounds {rounds})",
    "movement.board_again": "pair {pair} plays boards {boards} in rounds {rounds} (Law 15B)",
}
"""Each problem of a schedule (:meth:`Movement.problem_texts`) and its English text: the
console catalog's English entry for the same key, word for word
(tests/hub/test_text_keys.py), as :meth:`Movement.validate` writes it."""


def board_numbers(board_set: int, boards_per_round: int) -> tuple[int, ...]:
    """Board numbers of a board set: ``(s-1)*bpr+1 .. s*bpr``; set 0 has none."""
    if board_set < 0 or boards_per_round < 1:
        raise ValueError(f"no board set {board_set} with {boards_per_round} boards a round")
    first = (board_set - 1) * boards_per_round + 1
    return tuple(range(first, first + boards_per_round)) if board_set else ()


def ranges(numbers: Iterable[int]) -> str:
    """``1, 2, 3, 7`` -> ``1-3, 7``."""
    runs: list[list[int]] = []
    for n in sorted(set(numbers)):
        if runs and runs[-1][1] == n - 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in runs)


@dataclass(frozen=True, slots=True)
class Assignment:
    """One table in one round: who sits NS and EW and which boards they play."""

    round: int
    table: int
    ns: int | None
    ew: int | None
    board_set: int
    boards: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.round < 1 or self.table < 1:
            raise ValueError(f"rounds and tables start at 1: round {self.round}, "
                             f"table {self.table}")
        for pair in (self.ns, self.ew):
            if pair is not None and pair < 1:
                raise ValueError(f"pair numbers start at 1, got {pair} at table {self.table}, "
                                 f"round {self.round} (use None for an empty seat)")
        if self.ns is not None and self.ns == self.ew:
            raise ValueError(f"pair {self.ns} on both sides of table {self.table}, "
                             f"round {self.round}")
        if self.board_set < 0 or any(b < 1 for b in self.boards):
            raise ValueError(f"bad boards at table {self.table}, round {self.round}: "
                             f"set {self.board_set}, boards {self.boards}")
        object.__setattr__(self, "boards", tuple(self.boards))

    @property
    def plays(self) -> bool:
        """Both pairs are there and there are boards: the table plays this round."""
        return self.ns is not None and self.ew is not None and bool(self.boards)

    def pair(self, side: Side) -> int | None:
        """The pair sitting on ``side``."""
        return self.ns if side is Side.NS else self.ew

    def opponent_of(self, pair: int) -> int | None:
        """The other pair at the table, or None (sit-out, or ``pair`` not here)."""
        if pair == self.ns:
            return self.ew
        return self.ns if pair == self.ew else None


@dataclass(frozen=True, slots=True)
class Movement:
    """A complete schedule; ``shared_tables`` are groups of tables allowed to hold
    the same boards in the same round (a relay, two rooms of a match, duplicated boards)."""

    tables: int
    rounds: int
    assignments: tuple[Assignment, ...]
    boards_per_round: int = 1
    shared_tables: tuple[frozenset[int], ...] = ()
    name: str = ""
    _cells: dict[tuple[int, int], Assignment] = field(init=False, repr=False, compare=False)
    _seats: dict[tuple[int, int], tuple[int, Side]] = field(init=False, repr=False,
                                                            compare=False)
    _plays_of: dict[int, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.tables < 1 or self.rounds < 1 or self.boards_per_round < 1:
            raise ValueError(f"a movement needs tables, rounds and boards: {self.tables} "
                             f"tables, {self.rounds} rounds, {self.boards_per_round} boards")
        cells: dict[tuple[int, int], Assignment] = {}
        seats: dict[tuple[int, int], tuple[int, Side]] = {}
        for a in self.assignments:
            if a.round > self.rounds or a.table > self.tables:
                raise ValueError(f"table {a.table}, round {a.round} outside a movement of "
                                 f"{self.tables} tables and {self.rounds} rounds")
            if (a.round, a.table) in cells:
                raise ValueError(f"two assignments for table {a.table}, round {a.round}")
            cells[a.round, a.table] = a
            for side in Side:
                pair = a.pair(side)
                if pair is not None:
                    seats.setdefault((pair, a.round), (a.table, side))
        groups = sorted((frozenset(g) for g in self.shared_tables), key=sorted)
        for g in groups:
            if len(g) < 2 or not all(1 <= t <= self.tables for t in g):
                raise ValueError(f"bad group of tables sharing boards: {sorted(g)}")
        object.__setattr__(self, "assignments",
                           tuple(sorted(cells.values(), key=lambda a: (a.round, a.table))))
        object.__setattr__(self, "shared_tables", tuple(groups))
        object.__setattr__(self, "_cells", cells)
        object.__setattr__(self, "_seats", seats)
        plays_of: dict[int, int] = {}
        for a in cells.values():
            if a.plays:
                for b in set(a.boards):
                    plays_of[b] = plays_of.get(b, 0) + 1
        object.__setattr__(self, "_plays_of", plays_of)

    # Queries -----------------------------------------------------------------------------

    @property
    def pairs(self) -> tuple[int, ...]:
        """Every pair number seated somewhere."""
        return tuple(sorted({p for p, _ in self._seats}))

    @property
    def board_sets(self) -> int:
        """The highest board set used."""
        return max((a.board_set for a in self.assignments), default=0)

    @property
    def boards(self) -> tuple[int, ...]:
        """Every board number played in the movement."""
        return tuple(sorted({b for a in self.assignments if a.plays for b in a.boards}))

    @property
    def winners(self) -> int:
        """2 when every pair keeps one direction (two fields, as a Mitchell), else 1."""
        sides: dict[int, set[Side]] = defaultdict(set)
        for (pair, _), (_, side) in self._seats.items():
            sides[pair].add(side)
        return 2 if sides and all(len(s) == 1 for s in sides.values()) else 1

    def times_played(self, board: int) -> int:
        """How many tables play ``board`` in the movement (rounds where both pairs sit and
        the table has boards), counted once when the movement is made."""
        return self._plays_of.get(board, 0)

    def board_numbers(self, board_set: int) -> tuple[int, ...]:
        """Board numbers of ``board_set`` with this movement's boards per round."""
        return board_numbers(board_set, self.boards_per_round)

    def assignment(self, round: int, table: int) -> Assignment | None:
        """What table ``table`` does in round ``round``; None if it is not in the movement."""
        return self._cells.get((round, table))

    def round(self, round: int) -> tuple[Assignment, ...]:
        """The assignments of one round, by table."""
        return tuple(a for a in self.assignments if a.round == round)

    def where(self, pair: int, round: int) -> tuple[int, Side] | None:
        """(table, direction) of ``pair`` in ``round``, or None if it does not sit there."""
        return self._seats.get((pair, round))

    def tables_with(self, board: int, round: int) -> tuple[int, ...]:
        """The tables that have ``board`` in ``round`` (more than one when shared)."""
        return tuple(a.table for a in self.round(round) if board in a.boards)

    def _played(self, pair: int) -> list[Assignment]:
        return [a for a in self.assignments if a.plays and pair in (a.ns, a.ew)]

    def boards_of(self, pair: int) -> set[int]:
        """The boards ``pair`` plays (not those it sits out)."""
        return {b for a in self._played(pair) for b in a.boards}

    def opponents(self, pair: int) -> tuple[int, ...]:
        """The opponents of ``pair`` round by round, sit-outs left out."""
        return tuple(o for a in self._played(pair) if (o := a.opponent_of(pair)) is not None)

    def scheduled_round(self, pair: int, board: int) -> int | None:
        """The first round in which ``pair`` plays ``board``, or None."""
        return next((a.round for a in self._played(pair) if board in a.boards), None)

    def _shared(self, tables: Collection[int]) -> bool:
        return any(set(tables) <= g for g in self.shared_tables)

    # Checks ------------------------------------------------------------------------------

    def validate(self) -> list[str]:
        """Every problem in the schedule, in English (:meth:`problem_texts`)."""
        return [MOVEMENT_PROBLEMS[t.key].format(**t.fields) for t in self.problem_texts()]

    def problem_texts(self) -> list[Text]:
        """Every problem in the schedule as a message (``movement.*``): a pair twice in a
        round, the same boards at two tables in a round (unless shared), two pairs meeting
        twice, a pair playing a board twice (Law 15B)."""
        problems: list[Text] = []
        meetings: dict[frozenset[int], list[int]] = defaultdict(list)
        plays: dict[tuple[int, int], list[int]] = defaultdict(list)
        for r in range(1, self.rounds + 1):
            seated: dict[int, list[int]] = defaultdict(list)
            holders: dict[int, list[int]] = defaultdict(list)
            for a in self.round(r):
                for pair in (a.ns, a.ew):
                    if pair is not None:
                        seated[pair].append(a.table)
                for b in a.boards:
                    holders[b].append(a.table)
                if a.plays and a.ns is not None and a.ew is not None:
                    meetings[frozenset((a.ns, a.ew))].append(r)
                    for b in a.boards:
                        plays[a.ns, b].append(r)
                        plays[a.ew, b].append(r)
            for pair, tables in sorted(seated.items()):
                if len(tables) > 1:
                    problems.append(Text.of("movement.pair_two_tables", round=r, pair=pair,
                                            tables=ranges(tables)))
            clashes: dict[tuple[int, ...], list[int]] = defaultdict(list)
            for b, tables in holders.items():
                if len(tables) > 1 and not self._shared(tables):
                    clashes[tuple(tables)].append(b)
            for tables_key, bs in sorted(clashes.items()):
                problems.append(Text.of("movement.boards_at_once", round=r, boards=ranges(bs),
                                        tables=", ".join(map(str, tables_key))))
        for pairs, rounds in sorted(meetings.items(), key=lambda kv: sorted(kv[0])):
            if len(rounds) > 1:
                one, other = sorted(pairs)
                problems.append(Text.of("movement.meet_again", pair=one, other=other,
                                        count=len(rounds),
                                        rounds=", ".join(map(str, rounds))))
        again: dict[tuple[int, tuple[int, ...]], list[int]] = defaultdict(list)
        for (pair, b), rounds in plays.items():
            if len(rounds) > 1:
                again[pair, tuple(rounds)].append(b)
        for (pair, rounds_key), bs in sorted(again.items()):
            problems.append(Text.of("movement.board_again", pair=pair, boards=ranges(bs),
                                    rounds=", ".join(map(str, rounds_key))))
        return problems

    def seating_problems(self, round: int, table: int, ns: int | None, ew: int | None,
                         board: int | None = None) -> list[str]:
        """What is wrong with pairs ``ns``/``ew`` (and ``board``) at ``table`` in ``round``:
        a pair at the wrong table or the wrong way round (Law 5B), a board not scheduled
        there (Law 15A) or one a seated pair had earlier by the movement (Law 15B)."""
        a = self.assignment(round, table)
        if a is None:
            return [f"table {table} does not play in round {round}"]
        problems: list[str] = []
        if ns is not None and (ns, ew) == (a.ew, a.ns):
            problems.append(f"table {table}, round {round}: pairs {ns} and {ew} sit the "
                            f"wrong way round (pair {ns} is scheduled EW) (Law 5B)")
        else:
            for pair, side in ((ns, Side.NS), (ew, Side.EW)):
                if pair is None or a.pair(side) == pair:
                    continue
                home = self.where(pair, round)
                scheduled = (f"scheduled {home[1]} at table {home[0]}" if home
                             else "not scheduled to play")
                problems.append(f"table {table}, round {round}: pair {pair} sits {side}, "
                                f"{scheduled} (Law 5B)")
        if board is not None:
            if board not in a.boards:
                elsewhere = self.tables_with(board, round)
                at = (f"board {board} is at table {ranges(elsewhere)}" if elsewhere
                      else f"board {board} is not in play this round")
                problems.append(f"table {table}, round {round}: board {board} is not "
                                f"scheduled here (boards {ranges(a.boards) or 'none'}; "
                                f"{at}) (Law 15)")
            for pair in (ns, ew):
                earlier = None if pair is None else self.scheduled_round(pair, board)
                if earlier is not None and earlier < round:
                    problems.append(f"pair {pair} had board {board} in round {earlier} "
                                    f"(Law 15B)")
        return problems


# Constructions ---------------------------------------------------------------------------


def _build(cells: Iterable[tuple[int, int, int | None, int | None, int]], *, tables: int,
           rounds: int, boards_per_round: int, missing_pair: int | None,
           shared: Iterable[Iterable[int]], name: str) -> Movement:
    assignments = []
    for r, t, ns, ew, board_set in cells:
        ns, ew = (None if p == missing_pair else p for p in (ns, ew))
        assignments.append(Assignment(r, t, ns, ew, board_set,
                                      board_numbers(board_set, boards_per_round)))
    return Movement(tables, rounds, tuple(assignments), boards_per_round,
                    tuple(frozenset(g) for g in shared), name)


def _rounds(rounds: int | None, most: int, what: str) -> int:
    if rounds is None:
        return most
    if not 1 <= rounds <= most:
        raise RuleError(f"a {what} has 1 to {most} rounds, not {rounds}",
                        Text.of("movement_size.rounds", movement=what, most=most, rounds=rounds))
    return rounds


def mitchell(tables: int, *, boards_per_round: int = 1, rounds: int | None = None,
             relay: bool = False, arrow_switch: bool | Collection[int] = False,
             missing_pair: int | None = None) -> Movement:
    """A Mitchell: NS pair t stays at table t; EW pair T+e starts at table e and moves up
    one table a round; board set s starts at table s and moves down one table.

    Odd T: T rounds, every NS meets every EW once and plays every set once. Even T: the
    skip (default; EW move two tables before round T/2+1; at most T-1 rounds) or, with
    ``relay``, the relay and bye-stand (tables 1 and T share a set; the bye stand between
    tables T/2 and T/2+1 holds one set nobody plays; T rounds, sets 1..T; round 1: table t
    has set t, table T set 1, tables T/2+1..T-1 set t+1, the bye stand set T/2+1).
    ``arrow_switch``: True for the last round, or the rounds in which the EW pairs play
    the NS cards (one winner). ``missing_pair``: a pair that is absent; its opponents sit out.
    """
    t_count = tables
    if t_count < 2:
        raise RuleError(f"a Mitchell needs at least 2 tables, not {t_count}",
                        Text.of("movement_size.mitchell_tables", tables=t_count))
    even = t_count % 2 == 0
    if relay and not even:
        raise RuleError("the relay and bye-stand is for an even number of tables",
                        Text.of("movement_size.relay_even"))
    skip = even and not relay
    rounds = _rounds(rounds, t_count - 1 if skip else t_count, "Mitchell")
    switched = {rounds} if arrow_switch is True else set(arrow_switch or ())
    if not switched <= set(range(1, rounds + 1)):
        raise RuleError(f"arrow-switch rounds {sorted(switched)} outside 1..{rounds}",
                        Text.of("movement_size.arrow_switch", switched=str(sorted(switched)),
                                rounds=rounds))
    half = t_count // 2
    # Relay: the board positions in order, tables 1 and T being one position, the bye stand
    # (no table) between T/2 and T/2+1; boards move to the previous position each round.
    slot = {1: 0, t_count: 0, **{t: t - 1 for t in range(2, half + 1)},
            **{t: t for t in range(half + 1, t_count)}}

    def cells() -> Iterable[tuple[int, int, int | None, int | None, int]]:
        for r in range(1, rounds + 1):
            shift = r - 1 + (1 if skip and r > half else 0)
            for t in range(1, t_count + 1):
                ns, ew = t, t_count + (t - 1 - shift) % t_count + 1
                position = slot[t] if relay else t - 1
                board_set = (position + r - 1) % t_count + 1
                yield (r, t, *((ew, ns) if r in switched else (ns, ew)), board_set)

    kind = "relay and bye-stand" if relay else "skip" if even else ""
    name = f"Mitchell {t_count} tables" + (f", {kind}" if kind else "")
    name += ", arrow-switch" if switched else ""
    return _build(cells(), tables=t_count, rounds=rounds, boards_per_round=boards_per_round,
                  missing_pair=missing_pair, shared=[(1, t_count)] if relay else [],
                  name=name)


# Offsets g(i) of the cyclic Howell: round ρ (0-based), position i plays set ρ+g(i) mod
# 2N-1. Found by exhaustive search: {g(0)} ∪ {g(i)±i} covers Z_{2N-1} (every pair plays
# every set once) with as few equal g (shared boards) as possible. N = 2, 3: none without
# sharing, all tables play the same set; N = 5: positions 1 and 4 share.
_HOWELL_OFFSETS: dict[int, tuple[int, ...]] = {
    2: (0, 0), 3: (0, 0, 0), 4: (0, 2, 4, 1), 5: (0, 2, 6, 8, 2), 6: (0, 3, 5, 9, 1, 4),
    7: (0, 3, 5, 9, 1, 6, 2), 8: (0, 2, 7, 11, 6, 1, 13, 5),
}


def howell(tables: int, *, boards_per_round: int = 1, rounds: int | None = None,
           missing_pair: int | None = None) -> Movement:
    """A complete Howell for N = 2..8 tables: 2N pairs, 2N-1 rounds and board sets.

    Cyclic construction (round-robin circle) mod m = 2N-1: pair 2N stays NS at table 1;
    pair p (1..2N-1) stands for p-1 mod m. In round ρ+1, table 1 is pair 2N against the
    pair ρ, table i+1 (i = 1..N-1) the pair ρ+i (NS) against the pair ρ-i (EW), playing
    set ρ+g(i) ("+1" from residues to numbers). Every pair meets every other once and
    plays every set once. Tables with equal g(i) share boards (declared in
    ``shared_tables``). ``missing_pair`` = 2N gives the 2N-1 pair Howell with a sit-out.
    """
    if tables not in _HOWELL_OFFSETS:
        raise RuleError(f"Howell movements are built for 2 to 8 tables, not {tables}",
                        Text.of("movement_size.howell_tables", tables=tables))
    offsets, m = _HOWELL_OFFSETS[tables], 2 * tables - 1
    rounds = _rounds(rounds, m, "Howell")

    def cells() -> Iterable[tuple[int, int, int | None, int | None, int]]:
        for r in range(rounds):
            yield r + 1, 1, 2 * tables, r + 1, (r + offsets[0]) % m + 1
            for i in range(1, tables):
                yield (r + 1, i + 1, (r + i) % m + 1, (r - i) % m + 1,
                       (r + offsets[i]) % m + 1)

    groups: dict[int, list[int]] = defaultdict(list)
    for i, g in enumerate(offsets):
        groups[g].append(i + 1)
    return _build(cells(), tables=tables, rounds=rounds, boards_per_round=boards_per_round,
                  missing_pair=missing_pair, name=f"Howell {tables} tables",
                  shared=[g for g in groups.values() if len(g) > 1])


def teams(count: int, *, boards_per_round: int = 1, duplicated: bool = True) -> Movement:
    """Teams of four: team k is pairs 2k-1 and 2k; each match uses two tables (rooms).

    Match home A against away B at tables 2j-1 (open room: A's pair 2A-1 NS, B's pair 2B
    EW) and 2j (closed room: B's pair 2B-1 NS, A's pair 2A EW); both rooms play the same
    boards in the round. 2 teams: one match, one round; more: a round-robin (circle method,
    a bye for an odd number). ``duplicated``: every match of round r plays set r (copies
    of the boards, all tables share); otherwise every match has its own sets.
    """
    if count < 2:
        raise RuleError(f"a teams movement needs at least 2 teams, not {count}",
                        Text.of("movement_size.teams_count", teams=count))
    size = count + count % 2  # with a bye team (count+1) when odd
    m = size - 1
    seats = [j for j in range(size // 2) if not (count % 2 and j == 0)]
    matches = len(seats)

    def cells() -> Iterable[tuple[int, int, int | None, int | None, int]]:
        for r in range(m):
            for index, j in enumerate(seats):
                if j == 0:
                    home, away = (r + 1, size) if r % 2 == 0 else (size, r + 1)
                else:
                    home, away = (r + j) % m + 1, (r - j) % m + 1
                board_set = r + 1 if duplicated else r * matches + index + 1
                yield r + 1, 2 * index + 1, 2 * home - 1, 2 * away, board_set
                yield r + 1, 2 * index + 2, 2 * away - 1, 2 * home, board_set

    tables = 2 * matches
    shared = ([range(1, tables + 1)] if duplicated and tables > 2 else
              [(2 * i + 1, 2 * i + 2) for i in range(matches)])
    name = "Teams match" if count == 2 else f"Teams round-robin {count} teams"
    return _build(cells(), tables=tables, rounds=m, boards_per_round=boards_per_round,
                  missing_pair=None, shared=shared, name=name)

