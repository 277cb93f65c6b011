"""Results files in and out: an event's table results with how each one was reached.

Reading is lenient (formats.md §1.6-1.7). A PBN results file gives a board's results
either as a ``ScoreTable`` (``PairId_NS``, ``PairId_EW``, ``Contract``, ``Declarer``,
``Result``, ``Score_NS``, ``Score_EW``: Magic Contest, Bridgewebs) or as one game record
per table (the pairs from ``PairNS``/``PairEW``, from ``HomeTeam``/``VisitTeam`` in a
teams match, or from the players' names: JFR, RealBridge). A CSV file has one line per
result. A line that cannot be scored (malformed, or a score its contract cannot give) is
a :class:`~bridgecore.record.RecordProblem` naming the file, the board and what is
wrong, and the rest is read. A pair playing a board twice and a ruling on a board that
does not exist are found when the event is scored
(:func:`bridgecore.adjusted.check_results`).

Writing: PBN with each board's ``ScoreTable`` and the event's ``TotalScoreTable`` (and
each table's own game record, auction and play, when the input had one) and CSV.
Reading what they write gives the same results back. USEBIO is in
:mod:`bridgecore.usebio`.
"""

from __future__ import annotations

import csv
import io
import re
from collections import defaultdict
from dataclasses import dataclass, field, replace
from pathlib import Path

from bridgecore.adjusted import (
    Adjustment,
    Artificial,
    ArtificialScore,
    Assigned,
    BoardResult,
    Pair,
    SideAward,
    Split,
    Weighted,
)
from bridgecore.calls import Contract
from bridgecore.cards import Seat, Side
from bridgecore.errors import FormatError, ParseError
from bridgecore.pbn import Source, read_pbn, write_pbn
from bridgecore.pbn_values import parse_contract, parse_result, parse_score
from bridgecore.ranking import EventScore, Method, PairScore, ScoredResult
from bridgecore.record import GameRecord, RecordProblem, Table
from bridgecore.scoring import score_ns as law77_score_ns
from bridgecore.vulnerability import Vulnerability

__all__ = [
    "CSV_COLUMNS", "Player", "ResultsFile", "TableResult", "export_lines", "format_adjustment",
    "format_ruling", "method_of", "pair_id", "parse_adjustment", "read_pbn_results",
    "read_results_csv", "scoring_tag", "table_result", "write_results_csv", "write_results_pbn",
]

CSV_COLUMNS = ("board", "ns", "ew", "contract", "declarer", "tricks", "lead", "score_ns",
               "adjustment", "ns_points", "ew_points", "team_ns", "team_ew")
"""The columns of a results CSV file, one line per table result (teams: the pairs' teams)."""

_UNKNOWN = frozenset({"", "?", "-"})
_ONE_SIDE = re.compile(r"(NS|EW)\s+(A[+=-](?:\d+(?:\.\d+)?)?)", re.I)   # Law 15B
_RESULT_TABLES = frozenset({"scoretable", "totalscoretable"})


@dataclass(frozen=True, slots=True)
class TableResult:
    """One table's result as a results file gives it: the result and how it was reached.

    ``contract`` carries its declarer; ``tricks`` are declarer's. ``record`` is the
    table's own game record (auction, play) when the file has one; ``table`` and
    ``round`` where it was played, when known (the hub's; Magic Contest's columns).
    """

    result: BoardResult
    contract: Contract | None = None
    passed_out: bool = False
    tricks: int | None = None
    lead: str | None = None
    record: GameRecord | None = field(default=None, compare=False)
    table: str | None = field(default=None, compare=False)
    round: int | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Player:
    """A player as a results file names him: his name as written (any script) and his
    national member number ("" when not known), which a federation credits."""

    name: str
    number: str = ""


@dataclass(slots=True)
class ResultsFile:
    """What a results file holds: the table results, each board's deal, the problems.

    ``teams`` maps each pair to its team in a teams event; ``scoring`` is the file's
    PBN ``Scoring`` value (see :func:`method_of`); ``names`` the pairs' names if given
    (the players joined by " - ", PBN's ``Names``); ``players`` each pair's players one by
    one, with their member numbers, where the file gives them (USEBIO) or the event knows
    them: :meth:`players_of` falls back on ``names``.
    """

    rows: list[TableResult] = field(default_factory=list)
    boards: dict[int, GameRecord] = field(default_factory=dict)
    problems: list[RecordProblem] = field(default_factory=list)
    teams: dict[Pair, Pair] | None = None
    names: dict[Pair, str] = field(default_factory=dict)
    scoring: str | None = None
    title: str | None = None
    date: str | None = None  # PBN form, YYYY.MM.DD
    file: str | None = None
    players: dict[Pair, list[Player]] = field(default_factory=dict)

    def players_of(self, pair: Pair) -> list[Player]:
        """The players of ``pair``: as given one by one, else its ``names`` split at " - "
        (PBN, USEBIO readers) or " & "."""
        given = self.players.get(pair)
        if given:
            return list(given)
        text = self.names.get(pair, "")
        parts = text.split(" - ") if " - " in text else text.split(" & ")
        return [Player(n.strip()) for n in parts if n.strip()]

    @property
    def results(self) -> list[BoardResult]:
        return [row.result for row in self.rows]

    def problem(self, message: str, board: int | None = None, line: int | None = None) -> None:
        self.problems.append(RecordProblem(message, self.file, line, board))

    def add_team(self, pair: Pair, team: Pair) -> None:
        if self.teams is None:
            self.teams = {}
        self.teams.setdefault(pair, team)


# Values --------------------------------------------------------------------------------

def pair_id(text: str) -> Pair:
    """A pair as the event knows it: ``"7"`` is pair 7, anything else keeps its text."""
    t = text.strip()
    if t in _UNKNOWN:
        raise ParseError(f"no pair given ({text!r})")
    return int(t) if t.isascii() and t.isdigit() and (t == "0" or not t.startswith("0")) else t


def method_of(scoring: str | None) -> tuple[Method | None, int | None]:
    """The method and matchpoint units a PBN ``Scoring`` value names, each None if it
    does not say: ``MatchPoints;MP1`` is matchpoints at 2 a score beaten, ``IMP;Cross2``
    cross-IMPs, ``Butler`` Butler, ``IMP`` teams."""
    words = {w.strip().lower() for w in (scoring or "").split(";")}
    units = 2 if "mp1" in words else 1 if "mp2" in words else None
    if words & {"butler", "butler-2"}:
        return Method.BUTLER, units
    if any(w.startswith("cross") for w in words):
        return Method.CROSS_IMPS, units
    if words & {"mp", "matchpoints"}:
        return Method.MATCHPOINTS, units
    if "totalpoints" in words:
        return Method.TOTAL_POINTS, units
    if "imp" in words:
        return Method.IMPS, units
    return None, units


def scoring_tag(event: EventScore, units: int = 1) -> str:
    """The PBN ``Scoring`` value of a scored event (the inverse of :func:`method_of`)."""
    return {Method.MATCHPOINTS: f"MatchPoints;MP{3 - units}", Method.IMPS: "IMP",
            Method.BUTLER: "IMP;Butler", Method.CROSS_IMPS: "IMP;Cross2",
            Method.TOTAL_POINTS: "TotalPoints"}[event.method]


_ARTIFICIAL = re.compile(r"A([+=-]\d*(?:\.\d+)?)?|A\d{4}", re.I)


def _side_award(text: str) -> SideAward:
    t = text.strip()
    try:
        return ArtificialScore(t.upper())
    except ValueError:
        pass
    if "%" in t:
        adjustment = parse_adjustment(t)
        if isinstance(adjustment, Weighted):
            return adjustment
    elif re.fullmatch(r"[+-]?\d+", t):
        return Assigned(int(t))
    raise ParseError(f"not an adjusted score for one side: {text!r}")


_PRINTED_WEIGHTS = 1e-4
"""How far from 1 the weights of a weighted score written as text may add up (the figures
a percentage is printed to); closer than that they are scaled to add up to 1."""


def parse_adjustment(text: str) -> Adjustment:
    """A ruling as :func:`format_adjustment` (or ``str``) writes it: ``A+ A-``, ``A6040``,
    ``A`` (average), ``420`` (assigned), ``60% 420 + 40% -50`` (weighted),
    ``NS A+ / EW -50`` (split)."""
    t = text.strip()
    try:
        split = re.fullmatch(r"NS\s+(.+?)\s*/\s*EW\s+(.+)", t, re.I)
        if split:
            return Split(_side_award(split.group(1)), _side_award(split.group(2)))
        if "%" in t:
            parts = [re.fullmatch(r"([\d.]+)%\s*([+-]?\d+)", p.strip()) for p in t.split(" + ")]
            if not all(parts):
                raise ValueError("expected 'weight% score + ...'")
            outcomes = [(float(m.group(1)) / 100, int(m.group(2))) for m in parts if m]
            total = sum(w for w, _ in outcomes)
            if 0 < abs(total - 1) <= _PRINTED_WEIGHTS:
                # Weights written to a few figures (three thirds as 33.3333%) are read as
                # the fractions they stand for.
                outcomes = [(w / total, s) for w, s in outcomes]
            return Weighted(tuple(outcomes))
        if re.fullmatch(r"[+-]?\d+", t):
            return Assigned(int(t))
        if t.upper() == "A":
            return Artificial(ArtificialScore.AVERAGE, ArtificialScore.AVERAGE)
        return Artificial.parse(t)
    except ParseError:
        raise
    except ValueError as err:
        raise ParseError(f"not an adjusted score: {text!r} ({err})") from None


def format_ruling(result: BoardResult) -> str:
    """A result's ruling as the files write it: :func:`format_adjustment`, or ``NS A+``
    (``EW A-35``...) for an artificial score for one side alone (Law 15B,
    ``BoardResult.only``), which :func:`table_result` reads back."""
    adjustment = result.adjustment
    if result.only is None or not isinstance(adjustment, Artificial):
        return "-" if adjustment is None else format_adjustment(adjustment)
    ns = result.only is Side.NS
    level = adjustment.ns if ns else adjustment.ew
    percent = adjustment.ns_percent if ns else adjustment.ew_percent
    return f"{result.only.value} {level}" + ("" if percent is None else f"{percent:g}")


def format_adjustment(adjustment: Adjustment) -> str:
    """A ruling as text that :func:`parse_adjustment` reads back exactly."""
    if isinstance(adjustment, Weighted):
        return " + ".join(f"{100 * w!r}% {s}" for w, s in adjustment.outcomes)
    if isinstance(adjustment, Split):
        return f"NS {_format_side(adjustment.ns)} / EW {_format_side(adjustment.ew)}"
    return str(adjustment)


def _format_side(award: SideAward) -> str:
    return format_adjustment(award) if isinstance(award, Weighted) else str(award)


def _vulnerability(board: int, given: Vulnerability | None) -> Vulnerability:
    return given if given is not None else Vulnerability.of_board(board)


def _describe(contract: Contract | None, passed_out: bool, tricks: int | None) -> str:
    if passed_out:
        return "a passed-out board"
    by = f" by {contract.declarer.letter}" if contract and contract.declarer is not None else ""
    return f"{contract}{by} with {tricks} tricks"


def _scored(board: int, ns: Pair, ew: Pair, *, contract: Contract | None, passed_out: bool,
            tricks: int | None, given: int | None, adjustment: Adjustment | None,
            vulnerability: Vulnerability | None, lead: str | None = None,
            record: GameRecord | None = None) -> TableResult:
    """The result of a line: the score given, checked against the contract's (Law 77)."""
    computed = None
    vul = _vulnerability(board, vulnerability)
    if passed_out:
        computed = 0
    elif contract is not None and contract.declarer is not None and tricks is not None:
        computed = law77_score_ns(contract, tricks, vul.is_vulnerable(Side.NS),
                                  vul.is_vulnerable(Side.EW))
    if given is not None and computed is not None and given != computed:
        raise ParseError(f"impossible score {given} for {_describe(contract, passed_out, tricks)}"
                         f" (Law 77 gives {computed} when vulnerability is {vul})")
    score = given if given is not None else computed
    if score is None and adjustment is None:
        raise ParseError("no score, and no contract, declarer and tricks to score")
    return TableResult(BoardResult(board, ns, ew, score, adjustment), contract, passed_out,
                       tricks, lead, record)


def _int_score(text: str, what: str) -> int | None:
    t = text.strip().strip('"')
    if t in _UNKNOWN:
        return None
    if not re.fullmatch(r"[+-]?\d{1,6}", t):
        raise ParseError(f"{what} {text!r} is not a score")
    return int(t)


def table_result(board: int, ns: str, ew: str, *, contract: str = "", declarer: str = "",
                 tricks: str = "", score_ns: str = "", score_ew: str = "", ruling: str = "",
                 lead: str = "", vulnerability: Vulnerability | None = None) -> TableResult:
    """One result line from its texts (ScoreTable, CSV or USEBIO columns).

    ``score_ns``/``score_ew`` may hold an artificial score (``A+``, ``A``, ``A6040``;
    Bridgewebs writes ``A`` in the contract columns); ``ruling`` any adjusted score
    (:func:`parse_adjustment`). Raises :class:`ParseError` saying what is wrong.
    """
    who = (pair_id(ns), pair_id(ew))
    one_side = _ONE_SIDE.fullmatch(ruling.strip())     # Law 15B: "NS A+", that side alone
    only = None if one_side is None else Side(one_side.group(1).upper())
    if one_side is not None:
        ruling, score_ns, score_ew = one_side.group(2), "", ""
    adjustment = None if ruling.strip() in _UNKNOWN else parse_adjustment(ruling)
    artificial = [t.strip() for t in (score_ns, score_ew) if _ARTIFICIAL.fullmatch(t.strip())]
    if _ARTIFICIAL.fullmatch(contract.strip()):  # Bridgewebs: "A A A"
        artificial, contract, declarer, tricks = [contract.strip()], "", "", ""
    if contract.strip().upper() == "PO":  # Bridgewebs: passed out
        contract = "Pass"
    seat = None if declarer.strip() in _UNKNOWN else Seat.parse(declarer)
    if artificial and adjustment is None:
        adjustment = parse_adjustment(" ".join("A=" if a.upper() == "A" else a
                                               for a in artificial))
    made, passed_out = parse_contract(contract, seat)
    taken = None if artificial else parse_result(tricks, seat)
    given = None
    if not artificial:
        north, east = _int_score(score_ns, "Score_NS"), _int_score(score_ew, "Score_EW")
        if north is not None and east is not None and north != -east:
            raise ParseError(f"North-South score {north} and East-West score {east} disagree")
        given = north if north is not None else None if east is None else -east
    out = _scored(board, *who, contract=made, passed_out=passed_out, tricks=taken,
                  given=given, adjustment=adjustment, vulnerability=vulnerability,
                  lead=None if lead.strip() in _UNKNOWN else lead.strip())
    return out if only is None else replace(out, result=replace(out.result, only=only))


# PBN results files ---------------------------------------------------------------------

def read_pbn_results(source: Source, *, file: str | None = None) -> ResultsFile:
    """The results of a PBN file: ScoreTables and per-table game records, with problems.

    On a board with a ScoreTable, the game records of the same board and pairs are
    those tables' auctions and plays (their results are in the table).
    """
    pbn = read_pbn(source, file=file)
    out = ResultsFile(problems=list(pbn.problems), file=pbn.file)
    by_board: dict[int, list[GameRecord]] = defaultdict(list)
    for record in pbn.records:
        if record.board is None:
            if "ScoreTable" in record.tables or _has_result(record):
                out.problem("a game without a [Board] number: its results are not scored",
                            line=record.line)
            continue
        by_board[record.board].append(record)
        for name, table in record.tables.items():
            if name.lower() == "totalscoretable":
                _names(table, "PairId", "Names", out)
                _names(table, "PlayerId", "Names", out)   # an individual's
    first = pbn.records[0].tags if pbn.records else {}
    out.title, out.date, out.scoring = first.get("Event"), first.get("Date"), first.get("Scoring")
    for board, records in sorted(by_board.items()):
        out.boards[board] = records[0]
        _read_board(board, records, out)
    return out


def _has_result(record: GameRecord) -> bool:
    return record.contract is not None or record.passed_out or "Score" in record.tags


def _names(table: Table, pair_column: str, names_column: str, out: ResultsFile) -> None:
    names = [n.lower() for n in table.names]
    if pair_column.lower() in names and names_column.lower() in names:
        for p, n in zip(table.column(table.names[names.index(pair_column.lower())]),
                        table.column(table.names[names.index(names_column.lower())]),
                        strict=True):
            if p.strip() not in _UNKNOWN and n.strip() not in _UNKNOWN:
                out.names.setdefault(pair_id(p), n)


def _read_board(board: int, records: list[GameRecord], out: ResultsFile) -> None:
    rows: list[TableResult] = []
    for record in records:
        table = next((t for name, t in record.tables.items() if name.lower() == "scoretable"),
                     None)
        if table is not None:
            rows += _score_table(board, record, table, out)
    has_table = bool(rows) or any("scoretable" in (n.lower() for n in r.tables) for r in records)
    keyed = {(t.result.ns, t.result.ew): i for i, t in enumerate(rows)}
    for record in records:
        if has_table and not _has_result(record):
            continue
        try:
            row = _game_row(board, record, out)
        except ParseError as err:
            out.problem(str(err), board, record.line)
            continue
        key = (row.result.ns, row.result.ew)
        if key in keyed:  # the ScoreTable line of this table: keep its auction and play
            i = keyed[key]
            if rows[i].result.score_ns != row.result.score_ns:
                out.problem(f"{key[0]} v {key[1]}: the game record scores "
                            f"{row.result.score_ns}, the ScoreTable {rows[i].result.score_ns}: "
                            "the ScoreTable's is scored", board, record.line)
            rows[i] = replace(rows[i], record=record)
        else:
            rows.append(row)
    out.rows += rows


def _score_table(board: int, record: GameRecord, table: Table,
                 out: ResultsFile) -> list[TableResult]:
    names = [n.lower() for n in table.names]
    column = {n: i for i, n in reversed(list(enumerate(names)))}
    if "pairid_ns" not in column or "pairid_ew" not in column:
        if table.rows:
            out.problem("the ScoreTable has no PairId_NS and PairId_EW columns: its lines "
                        "are not scored", board, record.line)
        return []
    rows = []
    for k, row in enumerate(table.rows, 1):
        if len(row) != len(names):
            out.problem(f"ScoreTable line {k} is malformed: {len(row)} values for "
                        f"{len(names)} columns ({' '.join(row)!r})", board, record.line)
            continue

        def get(name: str, row: list[str] = row) -> str:
            return row[column[name]] if name in column else ""
        try:
            line = table_result(board, get("pairid_ns"), get("pairid_ew"),
                                contract=get("contract"), declarer=get("declarer"),
                                tricks=get("result"), score_ns=get("score_ns"),
                                score_ew=get("score_ew"), ruling=get("ruling"),
                                lead=get("lead"), vulnerability=record.vulnerability)
        except (ParseError, ValueError) as err:
            out.problem(f"ScoreTable line {k} ({get('pairid_ns')} v {get('pairid_ew')}): {err}",
                        board, record.line)
            continue
        seats = [get(f"playerid_{seat}").strip() for seat in _SEATS]
        if all(seat not in _UNKNOWN for seat in seats):    # an individual: N, E, S, W
            line = replace(line, result=replace(line.result, players=(
                pair_id(seats[0]), pair_id(seats[1]), pair_id(seats[2]), pair_id(seats[3]))))
        for side, team in ((line.result.ns, get("team_ns")), (line.result.ew, get("team_ew"))):
            if team.strip() not in _UNKNOWN:
                out.add_team(side, pair_id(team))
        for side, name in ((line.result.ns, get("names_ns")), (line.result.ew, get("names_ew"))):
            if name.strip() not in _UNKNOWN:
                out.names.setdefault(side, name)
        rows.append(line)
    return rows


_SEATS = ("north", "east", "south", "west")
"""An individual's ScoreTable columns ``PlayerId_North`` ... (PBN's, seat by seat)."""


def _players(record: GameRecord, first: str, second: str) -> Pair | None:
    names = sorted({n for n in (record.tags.get(first, ""), record.tags.get(second, ""))
                    if n.strip() not in _UNKNOWN})
    return " - ".join(names) if names else None


def _game_row(board: int, record: GameRecord, out: ResultsFile) -> TableResult:
    """The result of one table's game record; its pairs from PairNS/PairEW, the teams,
    or the players' names."""
    tags = record.tags
    ns_text = tags.get("PairNS", tags.get("PairId_NS", "")).strip()
    ew_text = tags.get("PairEW", tags.get("PairId_EW", "")).strip()
    home, visit = tags.get("HomeTeam", "").strip(), tags.get("VisitTeam", "").strip()
    ns: Pair | None = pair_id(ns_text) if ns_text not in _UNKNOWN else None
    ew: Pair | None = pair_id(ew_text) if ew_text not in _UNKNOWN else None
    if home not in _UNKNOWN and visit not in _UNKNOWN:  # HomeTeam sits North-South
        ns = f"{home} NS" if ns is None else ns
        ew = f"{visit} EW" if ew is None else ew
        out.add_team(ns, home)
        out.add_team(ew, visit)
    ns = _players(record, "North", "South") if ns is None else ns
    ew = _players(record, "East", "West") if ew is None else ew
    if ns is None or ew is None:
        raise ParseError("no pairs (PairNS and PairEW, HomeTeam and VisitTeam, or the "
                         "players' names): the result is not scored")
    given = None
    if tags.get("Score"):
        given = parse_score(tags["Score"], record.declarer)
    lead = record.plays[0].card if record.plays else None
    try:
        return _scored(board, ns, ew, contract=record.contract, passed_out=record.passed_out,
                       tricks=record.result, given=given, adjustment=None,
                       vulnerability=record.vulnerability,
                       lead=None if lead is None else str(lead), record=record)
    except ParseError as err:
        raise ParseError(f"{ns} v {ew}: {err}") from None


# Writing ---------------------------------------------------------------------------------

def export_lines(source: ResultsFile, event: EventScore,
                 ) -> dict[int, list[tuple[TableResult, ScoredResult | None]]]:
    """Each board's lines to write: the scored results (rulings applied) with how each was
    reached, then the file's lines that could not be scored, so that nothing is lost."""
    unused: dict[tuple[int, Pair, Pair], list[TableResult]] = defaultdict(list)
    for row in source.rows:
        unused[(row.result.board, row.result.ns, row.result.ew)].append(row)
    out: dict[int, list[tuple[TableResult, ScoredResult | None]]] = defaultdict(list)
    for board, scored in event.boards.items():
        for s in scored:
            candidates = unused.get((board, s.result.ns, s.result.ew))
            found = candidates.pop(0) if candidates else None
            if found is None or found.result.score_ns != s.result.score_ns:
                found = TableResult(s.result)  # a corrected score: how it was made is unknown
            out[board].append((replace(found, result=s.result), s))
    for left in unused.values():
        for row in left:
            out[row.result.board].append((row, None))
    return dict(sorted(out.items()))


def _number(value: float, digits: int = 2) -> str:
    text = f"{value:.{digits}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _score_columns(row: TableResult) -> tuple[str, str]:
    r = row.result
    if r.only is not None:      # a cancelled line (Law 15B): its Ruling says the award
        return "-", "-"
    if r.score_ns is None:
        if isinstance(r.adjustment, Artificial):
            ns, ew = str(r.adjustment).split()
            return ns, ew
        return "-", "-"
    return (str(r.score_ns), "-") if r.score_ns >= 0 else ("-", str(-r.score_ns))


def _contract_columns(row: TableResult) -> tuple[str, str, str]:
    if row.passed_out:
        return "Pass", "-", "-"
    if row.contract is None:
        return "-", "-", "-"
    declarer = row.contract.declarer
    return (str(row.contract), "-" if declarer is None else declarer.letter,
            "-" if row.tricks is None else str(row.tricks))


def _total_score_table(event: EventScore, source: ResultsFile, units: int,
                       individual: bool = False) -> Table:
    directions = any(p.direction is not None for p in event.ranking)
    total = {Method.MATCHPOINTS: "TotalMP", Method.TOTAL_POINTS: "TotalScore"}.get(
        event.method, "TotalIMP")
    columns = ["Rank\\3R", "PlayerId\\4R" if individual else "PairId\\4R",
               *(["Direction\\2L"] if directions else []),
               f"{total}\\7R", *(["TotalPercentage\\6R"] if event.method is Method.MATCHPOINTS
                                 else []), "NrBoards\\2R", "Names"]

    def row(p: PairScore) -> list[str]:
        return [str(p.rank), str(p.pair),
                *([p.direction.value if p.direction else "-"] if directions else []),
                _number(p.total), *([_number(p.percent or 0.0)]
                                    if event.method is Method.MATCHPOINTS else []),
                str(p.boards), source.names.get(p.pair, "-")]
    return Table(columns, [row(p) for p in event.ranking])


def _score_table_of(event: EventScore, source: ResultsFile, board: int,
                    lines: list[tuple[TableResult, ScoredResult | None]]) -> Table:
    mp = event.method is Method.MATCHPOINTS
    teams = source.teams
    individual = any(row.result.players for row, _ in lines)
    columns = ["PairId_NS\\4R", "PairId_EW\\4R", *(["Team_NS", "Team_EW"] if teams else []),
               *([f"PlayerId_{seat.title()}\\3R" for seat in _SEATS] if individual else []),
               "Contract\\4L", "Declarer\\1R", "Result\\2R", "Lead\\3L", "Score_NS\\6R",
               "Score_EW\\6R", *(["MP_NS\\5R", "MP_EW\\5R", "Percentage_NS\\3R",
                                  "Percentage_EW\\3R"] if mp else ["IMP_NS\\6R", "IMP_EW\\6R"]),
               "Ruling"]
    top = event.tops.get(board, 0.0)
    rows = []
    for row, scored in lines:
        r = row.result
        if scored is None:
            points = ["-", "-", "-", "-"] if mp else ["-", "-"]
        else:   # a side not scored on this line (Law 15B, the other side's alone): "-"
            mine = [p if side in r.sides else None
                    for side, p in zip(Side, (scored.ns_points, scored.ew_points), strict=True)]
            points = ["-" if p is None else _number(p) for p in mine]
            if mp:
                points += ["-" if p is None or not top else _number(100 * p / top)
                           for p in mine]
        team_cells = [str(teams.get(p, "-")) for p in (r.ns, r.ew)] if teams else []
        seats = ([str(p) for p in r.players] if r.players else ["-"] * 4) if individual else []
        rows.append([str(r.ns), str(r.ew), *team_cells, *seats, *_contract_columns(row),
                     row.lead or "-", *_score_columns(row), *points, format_ruling(r)])
    return Table(columns, rows)


def write_results_pbn(source: ResultsFile, event: EventScore, *, units: int = 1,
                      scoring: str | None = None, charset: str | None = None) -> str:
    """A PBN results file: a game per board (its deal, when known) with the board's
    ScoreTable, the event's TotalScoreTable on the first, and after each board the
    game records of its tables that have an auction or a play (tagged PairNS/PairEW).
    ``scoring`` is the Scoring tag when it says more than :func:`scoring_tag` can (a
    Butler datum without the extremes, ``IMP;Butler-2``). ``charset``: the encoding the
    caller writes the text in when not ISO-8859-1 (``"UTF-8"``: every name as written),
    said in the file's ``%Content-type`` line."""
    records: list[GameRecord] = []
    scoring = scoring or scoring_tag(event, units)
    individual = any(row.result.players for row in source.rows) or any(
        s.result.players for scored in event.boards.values() for s in scored)
    for board, lines in export_lines(source, event).items():
        base = source.boards.get(board)
        game = GameRecord(board=board,
                          dealer=base.dealer if base and base.dealer else Seat.dealer_of(board),
                          vulnerability=_vulnerability(board, base.vulnerability if base
                                                       else None),
                          deal=base.deal if base else None)
        for tag, default in (("Event", source.title), ("Site", None), ("Date", source.date)):
            value = (base.tags.get(tag) if base else None) or default
            if value:
                game.tags[tag] = value
        game.tags["Scoring"] = scoring
        game.tables["ScoreTable"] = _score_table_of(event, source, board, lines)
        if not records:
            game.tables["TotalScoreTable"] = _total_score_table(event, source, units,
                                                                individual)
        if individual:
            game.tags["Competition"] = "Individuals"
        records.append(game)
        for row, _ in lines:
            played = row.record
            if played is not None and (played.calls or played.plays):
                results = {n for n in played.tables if n.lower() in _RESULT_TABLES}
                tags = {k: v for k, v in played.tags.items() if k not in results}
                tags["PairNS"], tags["PairEW"] = str(row.result.ns), str(row.result.ew)
                records.append(replace(played, tags=tags, tables={
                    k: v for k, v in played.tables.items() if k not in results}))
    return write_pbn(records, charset=charset)


def write_results_csv(source: ResultsFile, event: EventScore) -> str:
    """A CSV file of :data:`CSV_COLUMNS`, one line per result, boards in order."""
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for board, lines in export_lines(source, event).items():
        for row, scored in lines:
            r = row.result
            contract, declarer, tricks = _contract_columns(row)
            writer.writerow([board, r.ns, r.ew, "" if contract == "-" else contract,
                             "" if declarer == "-" else declarer,
                             "" if tricks == "-" else tricks, row.lead or "",
                             "" if r.score_ns is None or r.only else r.score_ns,
                             "" if r.adjustment is None else format_ruling(r),
                             "" if scored is None or Side.NS not in r.sides
                             else _number(scored.ns_points, 4),
                             "" if scored is None or Side.EW not in r.sides
                             else _number(scored.ew_points, 4),
                             *(source.teams.get(p, "") if source.teams else ""
                               for p in (r.ns, r.ew))])
    return text.getvalue()


def read_results_csv(source: str | Path, *, file: str | None = None) -> ResultsFile:
    """The results of a CSV file with at least ``board``, ``ns``, ``ew`` and a score,
    a contract or an adjustment on each line (the columns of :data:`CSV_COLUMNS`)."""
    if isinstance(source, Path):
        file = file or str(source)
        try:
            text = source.read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as err:
            raise FormatError(f"cannot read the file: {err}", file=file) from err
    else:
        text = source
    out = ResultsFile(file=file)
    reader = csv.reader(io.StringIO(text, newline=""))
    names: list[str] | None = None
    while True:
        try:
            values = next(reader)
        except StopIteration:
            break
        except csv.Error as err:
            out.problem(f"unreadable CSV ({err}): the rest of the file is not read",
                        line=reader.line_num)
            break
        if names is None:
            names = [v.strip().lower() for v in values]
            missing = [c for c in ("board", "ns", "ew") if c not in names]
            if missing:
                out.problem(f"the CSV file has no column {', '.join(missing)}: nothing is "
                            "read", line=reader.line_num)
                return out
            continue
        if any(v.strip() for v in values):
            _csv_line(values, names, reader.line_num, out)
    return out


def _csv_line(values: list[str], names: list[str], line: int, out: ResultsFile) -> None:
    cells: dict[str, str] = defaultdict(str, zip(names, values, strict=False))
    number = cells["board"].strip()
    if len(values) > len(names) or not (number.isascii() and number.isdigit()) \
            or int(number) < 1:
        why = "more values than columns" if len(values) > len(names) else f"board {number!r}"
        out.problem(f"malformed line ({why}): not scored", line=line)
        return
    board = int(number)
    try:
        row = table_result(board, cells["ns"], cells["ew"], contract=cells["contract"],
                           declarer=cells["declarer"], tricks=cells["tricks"],
                           score_ns=cells["score_ns"], ruling=cells["adjustment"],
                           lead=cells["lead"])
        teams = [(side, pair_id(team)) for side, team in ((row.result.ns, cells["team_ns"]),
                                                          (row.result.ew, cells["team_ew"]))
                 if team.strip() not in _UNKNOWN]
    except (ParseError, ValueError) as err:
        out.problem(f"{cells['ns']} v {cells['ew']}: {err}", board, line)
        return
    out.rows.append(row)
    for side, team in teams:
        out.add_team(side, team)
