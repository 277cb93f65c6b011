"""The session's results as files for the club's world: USEBIO 1.2, PBN, BridgeWebs, ECATS.

:func:`results_file` turns one section as the live scorer has it (hub.scoring: every result
played, every ruling in force, scored by the method the director chose) into a
:class:`bridgecore.results_io.ResultsFile` with its :class:`bridgecore.ranking.EventScore`;
the writers of bridgecore make the files, each saying that method (USEBIO
``BOARD_SCORING_METHOD`` ``MATCH_POINTS``, ``BUTLER_IMPS``, ``CROSS_IMPS`` or ``IMPS``; PBN
``Scoring`` ``MatchPoints;MP2``, ``IMP;Butler`` (a datum of every score), ``IMP;Butler-2``
(without the top and bottom), ``IMP;Cross2`` or ``IMP``, and the score tables' MP and
percentage or IMP columns):

========================  ===============================================================
``usebio.xml``            USEBIO 1.2 (bridgecore.usebio): the EBU, scoring programs
``results.pbn``           PBN with each board's ScoreTable and the TotalScoreTable
                          (bridgecore.results_io)
``bridgewebs.pbn``        the PBN layout BridgeWebs writes and reads back
                          (bridgecore.bridgewebs)
``ecats.xml``             the ECATS simultaneous pairs upload: ECATS takes a USEBIO XML
                          file, mailed with the session number and the club's country as
                          the subject (its published instructions); the same file as
                          ``usebio.xml``, named for it
========================  ===============================================================
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from bridgecore.adjusted import Artificial
from bridgecore.bridgewebs import write_bridgewebs
from bridgecore.calls import Contract
from bridgecore.cards import Seat
from bridgecore.errors import ParseError
from bridgecore.ranking import EventScore, Method
from bridgecore.record import GameRecord
from bridgecore.results_io import ResultsFile, TableResult, scoring_tag, write_results_pbn
from bridgecore.usebio import write_usebio

if TYPE_CHECKING:
    from hub.room import Room

__all__ = ["EXPORTS", "export", "results_file"]


def results_file(room: Room, section: str, *, title: str = "",
                 date: str | None = None) -> tuple[ResultsFile, EventScore]:
    """Section ``section`` of ``room`` as a results file and its scored event (KeyError
    when there is no such section): a teams section's file has the teams (team k is pairs
    2k-1 and 2k), so that it is written as a teams event."""
    scored = room.scoring.section(section)
    source = ResultsFile(title=title or f"Tenace session, section {section}", date=date)
    found = next(s for s in room.sections if s.name == section)
    source.scoring = scoring_tag(scored.event)
    if scored.method is Method.BUTLER and found.pairs_method[1]:
        source.scoring += "-2"          # PBN: the datum without the two extremes
    if scored.method is Method.IMPS and found.movement is not None:  # hub.scoring's teams
        source.teams = {p: (p + 1) // 2 for p in found.movement.pairs}
    source.names = {p: " & ".join(n) for p, n in found.pairs.items() if n}
    for board, lines in scored.lines.items():
        by_pairs = {(int(s.result.ns), int(s.result.ew)): s.result
                    for s in scored.event.boards.get(board, ())}
        for line in lines:
            ns, ew = line["NS"], line["EW"]
            result = by_pairs.get((ns, ew))
            if result is None:
                continue
            contract, passed_out = _contract(line.get("contract"), line.get("declarer"))
            tricks = line.get("tricks")
            if isinstance(result.adjustment, Artificial):   # the board was not scored as
                contract, passed_out, tricks = None, False, None   # played: cancelled
            source.rows.append(TableResult(result, contract, passed_out, tricks))
    for board in sorted({*scored.lines, *room.board_numbers()}):
        marks = room.markings(board)
        source.boards[board] = GameRecord(board=board, dealer=marks.dealer,
                                          vulnerability=marks.vulnerability,
                                          deal=room.deal(board))
    return source, scored.event


def _contract(text: object, declarer: object) -> tuple[Contract | None, bool]:
    if not isinstance(text, str) or not text:
        return None, False
    if text.strip().lower() in ("pass", "p", "passed out"):
        return None, True
    seat = Seat.parse(declarer) if isinstance(declarer, str) and declarer else None
    try:
        return Contract.parse(text, seat), False
    except (ParseError, ValueError):
        return None, False


def _usebio(source: ResultsFile, event: EventScore, victory_points: bool) -> bytes:
    return write_usebio(source, event, victory_points_scored=victory_points)


def _pbn(source: ResultsFile, event: EventScore, _victory_points: bool) -> bytes:
    return write_results_pbn(source, event, scoring=source.scoring).encode("latin-1",
                                                                            errors="replace")


def _bridgewebs(source: ResultsFile, _event: EventScore, _victory_points: bool) -> bytes:
    return write_bridgewebs(source).encode("latin-1", errors="replace")


# name -> (writer of the file, the event and whether its matches are in VPs; content type)
EXPORTS: dict[str, tuple[Callable[[ResultsFile, EventScore, bool], bytes], str]] = {
    "usebio.xml": (_usebio, "application/xml; charset=iso-8859-1"),
    "results.pbn": (_pbn, "application/x-pbn; charset=iso-8859-1"),
    "bridgewebs.pbn": (_bridgewebs, "application/x-pbn; charset=iso-8859-1"),
    "ecats.xml": (_usebio, "application/xml; charset=iso-8859-1"),
}


def export(room: Room, name: str, section: str, *, title: str = "",
           now: float | None = None) -> tuple[bytes, str]:
    """The file ``name`` (:data:`EXPORTS`) of ``section``: its bytes and content type."""
    writer, kind = EXPORTS[name]
    date = time.strftime("%Y.%m.%d", time.localtime(time.time() if now is None else now))
    source, event = results_file(room, section, title=title, date=date)
    return writer(source, event, room.scoring.section(section).units == "VP"), kind
