"""A pairs session's results in the PBN form Magic Contest writes for the FFB.

The Fédération Française de Bridge publishes its events' results as the PBN files Magic
Contest France writes (a real one, a national final, is in tests/data/realdata/pbn-results
with its source); a French club, a comité or a results site that reads those reads this.
What is copied from it (formats.md 1.7):

* the header ``% PBN 2.0``-style lines, then ``% <META name=... content="...">`` lines:
  ``ContestName``, ``ContestDate``, ``ScoringType``, ``PairCount``, ``BoardCount``;
* for each board ``Event``, ``Site``, ``Date``, ``Board``, the four players (empty),
  ``Dealer``, ``Vulnerable``, ``Deal``, ``Scoring`` (``MatchPoints;MP1``: two matchpoints a
  score beaten, the FFB's scale), ``Declarer``, ``Contract``, ``Result`` (empty),
  ``Competition "Pairs"``;
* on the first board the ``TotalScoreTable`` of Magic Contest's columns ``Rank``,
  ``PairId``, ``Table``, ``Direction`` (``"N-S"``, ``"E-W"``), ``TotalScoreMP`` (one
  decimal), ``TotalPercentage`` (two), ``Names`` (the players joined by " - "),
  ``NrBoards``, ``MemberID1``, ``MemberID2`` (the players' licence numbers, quoted);
* on every board its ``ScoreTable`` of ``Table``, ``Round``, ``PairId_NS``, ``PairId_EW``,
  ``Contract`` (``4S``, ``2HX``), ``Declarer``, ``Result`` (tricks), ``Lead``, ``Score_NS``
  and ``Score_EW`` (the score quoted, the other side ``-``), ``MP_NS`` and ``MP_EW`` (one
  decimal) and ``Percentage_NS``/``Percentage_EW`` (whole numbers, as Magic Contest writes
  them).

Magic Contest's ``Tiebreak`` column and its other META lines (FFB contest ids, strata,
handicaps) are not written: their rules are not published. The file is ISO-8859-1, as
Magic Contest's: every text goes through :func:`bridgecore.latin1.to_latin1` (a name outside
Latin-1 is transliterated, never a ``?``). What is written reads back with
:func:`bridgecore.results_io.read_pbn_results` to the same results and names.
"""

from __future__ import annotations

from bridgecore.cards import Seat, Side
from bridgecore.latin1 import to_latin1
from bridgecore.ranking import EventScore, Method, PairScore, ScoredResult
from bridgecore.results_io import ResultsFile, TableResult, export_lines
from bridgecore.vulnerability import Vulnerability

__all__ = ["SCORE_TABLE", "TOTAL_SCORE_TABLE", "write_ffb_pbn"]

SCORE_TABLE = ("Table\\2R;Round\\2R;PairId_NS\\2R;PairId_EW\\2R;Contract\\3L;Declarer\\1R;"
               "Result\\2R;Lead\\3L;Score_NS\\6R;Score_EW\\6R;MP_NS\\4R;MP_EW\\4R;"
               "Percentage_NS\\3R;Percentage_EW\\3R")
TOTAL_SCORE_TABLE = ("Rank\\2R;PairId\\2R;Table\\2R;Direction\\5R;TotalScoreMP\\5R;"
                     "TotalPercentage\\5R;Names\\51L;NrBoards\\2R;MemberID1\\10R;"
                     "MemberID2\\10R")
_DIRECTIONS = {"NS": "N-S", "EW": "E-W"}


def _text(value: str) -> str:
    return to_latin1(value, fallback="").replace("\\", "\\\\").replace('"', '\\"')


def _fixed(value: float | None, digits: int) -> str:
    if value is None:
        return "-"
    text = f"{value:.{digits}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def write_ffb_pbn(source: ResultsFile, event: EventScore, *, units: int = 2) -> str:
    """The Magic Contest PBN of a matchpointed pairs session (module docstring); ``units``
    are those ``event`` was scored in (its points are written in two units a score beaten:
    doubled when scored in one). Encode it as ISO-8859-1. ValueError for another method."""
    if event.method is not Method.MATCHPOINTS:
        raise ValueError(f"the FFB's Magic Contest file is of matchpoints, not "
                         f"{event.method.value}")
    scale = 2 / units
    lines = export_lines(source, event)
    title = _text(source.title or "")
    date = source.date or ""
    lines_out = ["% PBN 2.1", "% EXPORT", "%Content-type: text/pbn; charset=ISO-8859-1", "%",
                 '% <META  name=Generator                  content="Tenace">',
                 f'% <META  name=ContestName                content="{title}">',
                 f'% <META  name=ContestDate                content="{date}">',
                 '% <META  name=ScoringType                content="MatchPoints;MP1">',
                 f'% <META  name=PairCount                  content="{len(event.ranking)}">',
                 f'% <META  name=BoardCount                 content="{len(lines)}">', "%"]
    tables = _tables(lines)
    for i, board in enumerate(sorted(set(lines) | set(source.boards))):
        base = source.boards.get(board)
        dealer = base.dealer if base is not None and base.dealer else Seat.dealer_of(board)
        vulnerability = (base.vulnerability if base is not None and base.vulnerability
                         else Vulnerability.of_board(board))
        site = _text(base.tags.get("Site", "")) if base is not None else ""
        lines_out += [f'[Event "{title}"]', f'[Site "{site}"]',
                      f'[Date "{date}"]', f'[Board "{board}"]',
                      '[West ""]', '[North ""]', '[East ""]', '[South ""]',
                      f'[Dealer "{dealer.letter}"]', f'[Vulnerable "{vulnerability}"]']
        if base is not None and base.deal is not None:
            lines_out.append(f'[Deal "{base.deal.pbn(dealer)}"]')
        lines_out += ['[Scoring "MatchPoints;MP1"]', '[Declarer ""]', '[Contract ""]',
                      '[Result ""]', '[Competition "Pairs"]']
        if i == 0:
            lines_out.append(f'[TotalScoreTable "{TOTAL_SCORE_TABLE}"]')
            lines_out += [_total_row(p, source, tables, scale) for p in event.ranking]
        lines_out.append(f'[ScoreTable "{SCORE_TABLE}"]')
        top = event.tops.get(board, 0.0)
        lines_out += [_score_row(row, scored, top, scale)
                      for row, scored in lines.get(board, [])]
        lines_out.append("")
    return "\r\n".join(lines_out)


def _tables(lines: dict[int, list[tuple[TableResult, ScoredResult | None]]]
            ) -> dict[tuple[object, str], str]:
    """(pair, direction) -> the table it sat at first (Magic Contest's ``Table``)."""
    out: dict[tuple[object, str], str] = {}
    for board in sorted(lines):
        for row, _ in lines[board]:
            if row.table is not None:
                out.setdefault((row.result.ns, "NS"), row.table)
                out.setdefault((row.result.ew, "EW"), row.table)
    return out


def _total_row(p: PairScore, source: ResultsFile, tables: dict[tuple[object, str], str],
               scale: float) -> str:
    direction = p.direction.value if p.direction is not None else ""
    table = tables.get((p.pair, direction)) or next(
        (t for (pair, _), t in tables.items() if pair == p.pair), "-")
    players = source.players_of(p.pair)
    names = " - ".join(to_latin1(one.name, fallback=f"#{one.number}" if one.number else
                                 "N.N.") for one in players)
    numbers = [f'"{_text(one.number)}"' if one.number else "-" for one in players[:2]]
    numbers += ["-"] * (2 - len(numbers))
    return " ".join([str(p.rank).rjust(2), str(p.pair).rjust(2), table.rjust(2),
                     f'"{_DIRECTIONS.get(direction, "-")}"' if direction else "-",
                     _fixed(p.total * scale, 1), _fixed(p.percent, 2),
                     f'"{_text(names)}"'.ljust(53), str(p.boards).rjust(2), *numbers])


def _score_row(row: TableResult, scored: ScoredResult | None, top: float, scale: float
               ) -> str:
    r = row.result
    if row.passed_out:
        contract, declarer, tricks = "Pass", "-", "-"
    elif row.contract is None:
        contract, declarer, tricks = "-", "-", "-"
    else:
        seat = row.contract.declarer
        contract = str(row.contract)
        declarer = "-" if seat is None else seat.letter
        tricks = "-" if row.tricks is None else str(row.tricks)
    if r.score_ns is None or r.only is not None:    # no score, or a cancelled line (15B)
        score_ns, score_ew = "-", "-"
    elif r.score_ns >= 0:
        score_ns, score_ew = f'"{r.score_ns}"', "-"
    else:
        score_ns, score_ew = "-", f'"{-r.score_ns}"'
    if scored is None:
        points = ["-"] * 4
    else:   # a side the line does not score (Law 15B: the other side's alone): "-"
        mine = [v if side in r.sides else None
                for side, v in zip(Side, (scored.ns_points, scored.ew_points), strict=True)]
        points = [*("-" if v is None else _fixed(v * scale, 1) for v in mine),
                  *("-" if v is None or not top else _fixed(100 * v / top, 0) for v in mine)]
    return " ".join([(row.table or "-").rjust(2), str(row.round or "-").rjust(2),
                     str(r.ns).rjust(2), str(r.ew).rjust(2), contract.ljust(4), declarer,
                     tricks.rjust(2), (row.lead or "-").ljust(4), score_ns.ljust(8),
                     score_ew.ljust(6), points[0].rjust(4), points[1].rjust(4),
                     points[2].rjust(3), points[3].rjust(3)])
