"""The results file BridgeWebs publishes from: PBN with a ``ScoreTable`` per board.

A club's BridgeWebs site takes a session's results as a PBN file (or USEBIO XML:
:mod:`bridgecore.usebio`). This writes the layout BridgeWebs itself writes, as a real
BridgeWebs file shows it (``%Creator: Bridgewebs``; the test reads one from the shared real
data and writes it back byte for byte):

* the header ``% PBN 2.1``, ``% EXPORT``, the content type (ISO-8859-1) and the creator;
* for each board, in order: ``Event``, ``Site``, ``Date``, ``Board``, the four players (empty),
  ``Dealer``, ``Vulnerable``, ``Deal`` (from the dealer), the double-dummy tags the hand
  record had (``DoubleDummyTricks``, ``OptimumResultTable``), then the ``ScoreTable``
  ``PairId_NS\\4R;PairId_EW\\4R;Contract\\5L;Declarer\\1R;Result\\2R``: one line per table,
  a doubled contract written ``3S*`` (redoubled ``3S**``), a pass-out ``PO``, a line with an
  adjusted score ``A A A`` (BridgeWebs scores the session again from the results: it takes no
  matchpoints from this file), and no line for an artificial score given to one side alone
  (Law 15B's cancelled second play: BridgeWebs would score both pairs on it, one of them a
  second time; the director enters that award on BridgeWebs, docs/scoring.md); and
  ``Scoring``, ``Declarer``, ``Contract`` and ``Result`` of the board as a whole (``?``);
* CRLF line ends, a blank line between boards;
* when the pairs' names are known, after the first board's ``ScoreTable`` a
  ``TotalScoreTable`` ``PairId\\4R;Names\\40L`` (PBN's, which results sites read for the
  names): each pair's players joined by " - ".

The file is ISO-8859-1, as BridgeWebs takes it: every text in it (names, event, site) goes
through :func:`bridgecore.latin1.to_latin1`, so that a name outside Latin-1 is a readable
transliteration ("Lukasz Wisniewski"), never a ``?``.

:func:`write_bridgewebs` takes a :class:`bridgecore.results_io.ResultsFile` (the hub makes
one of the session, a results file read gives one): what is written reads back with
:func:`bridgecore.results_io.read_pbn_results` to the same results.
"""

from __future__ import annotations

from bridgecore.calls import Contract, Risk
from bridgecore.cards import Seat
from bridgecore.latin1 import to_latin1
from bridgecore.results_io import ResultsFile, TableResult
from bridgecore.vulnerability import Vulnerability

__all__ = ["NAMES_TABLE", "SCORE_TABLE", "write_bridgewebs"]

SCORE_TABLE = "PairId_NS\\4R;PairId_EW\\4R;Contract\\5L;Declarer\\1R;Result\\2R"
NAMES_TABLE = "PairId\\4R;Names\\40L"
_RISK = {Risk.UNDOUBLED: "", Risk.DOUBLED: "*", Risk.REDOUBLED: "**"}
_DD_TAGS = ("DoubleDummyTricks", "OptimumResultTable")


def _contract(contract: Contract) -> str:
    return f"{contract.level}{contract.strain.symbol}{_RISK[contract.risk]}"


def _line(row: TableResult) -> str:
    r = row.result
    if r.adjustment is not None:
        contract, declarer, tricks = "A", "A", "A"
    elif row.passed_out:
        contract, declarer, tricks = "PO", "-", "-"
    elif row.contract is not None:
        contract = _contract(row.contract)
        declarer = row.contract.declarer.letter if row.contract.declarer else "-"
        tricks = "-" if row.tricks is None else str(row.tricks)
    else:
        contract, declarer, tricks = "-", "-", "-"
    return " ".join((str(r.ns).ljust(4), str(r.ew).ljust(4), contract.ljust(5), declarer,
                     tricks.rjust(2)))


def write_bridgewebs(source: ResultsFile, *, title: str | None = None, site: str = "",
                     date: str | None = None, scoring: str = "MP") -> str:
    """The BridgeWebs PBN of ``source`` (module docstring): ``title``, ``site`` and ``date``
    (PBN form ``YYYY.MM.DD``) default to the file's own; encode it as ISO-8859-1."""
    by_board: dict[int, list[TableResult]] = {}
    for row in source.rows:
        by_board.setdefault(row.result.board, []).append(row)
    lines = ["% PBN 2.1", "% EXPORT", "%Content-type: text/pbn; charset=ISO-8859-1",
             "%Creator: Bridgewebs", "%"]
    first = first_board = True
    for board in sorted(set(by_board) | set(source.boards)):
        base = source.boards.get(board)
        tags = base.tags if base is not None else {}
        dealer = base.dealer if base is not None and base.dealer else Seat.dealer_of(board)
        vulnerability = (base.vulnerability if base is not None and base.vulnerability
                         else Vulnerability.of_board(board))
        if not first:
            lines.append("")
        first = False
        event = title if title is not None else tags.get("Event", source.title or "")
        lines += [f'[Event "{_quoted(event)}"]',
                  f'[Site "{_quoted(site or tags.get("Site", ""))}"]',
                  f'[Date "{date or tags.get("Date", source.date or "")}"]',
                  f'[Board "{board}"]',
                  '[West ""]', '[North ""]', '[East ""]', '[South ""]',
                  f'[Dealer "{dealer.letter}"]', f'[Vulnerable "{vulnerability}"]']
        if base is not None and base.deal is not None:
            lines.append(f'[Deal "{base.deal.pbn(dealer)}"]')
        for tag in _DD_TAGS:
            if tag in tags and base is not None:
                lines.append(f'[{tag} "{tags[tag]}"]')
                table = base.tables.get(tag)
                if table is not None:
                    lines += [_dd_row(row) for row in table.rows]
        lines.append(f'[ScoreTable "{SCORE_TABLE}"]')
        lines += [_line(row) for row in by_board.get(board, []) if row.result.only is None]
        if first_board:
            lines += _names(source)
            first_board = False
        lines += [f'[Scoring "{scoring}"]', '[Declarer "?"]', '[Contract "?"]',
                  '[Result "?"]']
    return "\r\n".join(lines) + "\r\n"


def _quoted(text: str) -> str:
    """A PBN string's content in Latin-1: transliterated, quotes and backslashes escaped."""
    return to_latin1(text, fallback="").replace("\\", "\\\\").replace('"', '\\"')


def _names(source: ResultsFile) -> list[str]:
    """The ``TotalScoreTable`` of the pairs' names (none when no name is known)."""
    pairs = sorted({p for p in (*source.names, *source.players) if source.players_of(p)},
                   key=lambda p: (isinstance(p, str), p if isinstance(p, int) else 0, str(p)))
    if not pairs:
        return []
    out = [f'[TotalScoreTable "{NAMES_TABLE}"]']
    for pair in pairs:
        names = " - ".join(to_latin1(p.name, fallback=f"#{p.number}" if p.number else
                                     "N.N.") for p in source.players_of(pair))
        out.append(f'{str(pair).rjust(4)} "{_quoted(names)}"')
    return out


def _dd_row(row: list[str]) -> str:
    """An ``OptimumResultTable`` line as BridgeWebs aligns it: ``N NT  9``."""
    if len(row) == 3:
        return f"{row[0]} {row[1].rjust(2)} {row[2].rjust(2)}"
    return " ".join(row)
