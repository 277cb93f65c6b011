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
``ffb.pbn``               the PBN Magic Contest writes for the FFB (bridgecore.ffb):
                          ``MatchPoints;MP1``, its ScoreTable and TotalScoreTable columns,
                          ISO-8859-1; a matchpointed pairs section only (:class:`ExportError`
                          for another)
========================  ===============================================================

An individual section (hub.section_setup) is written as one: ``usebio.xml`` (and
``ecats.xml``) with EVENT_TYPE ``INDIVIDUAL`` and one PLAYER a participant,
``results.pbn`` with each line's players by seat (``PlayerId_North``...) and a
``TotalScoreTable`` of players (a player's substitute for some rounds named after him, and
in USEBIO a ``SUBSTITUTE`` of his ``PLAYER``, with his member number); ``bridgewebs.pbn``
and ``ffb.pbn``, layouts of pairs, are refused (:class:`ExportError`).

Every name as written: ``usebio.xml`` and ``ecats.xml`` are UTF-8 with one ``PLAYER`` a
player and his ``NATIONAL_ID_NUMBER`` where the club's roster (hub.roster) has exactly one
member of that name (a substitute, hub.substitutes, is one more PLAYER of the pair, so
that he is credited too); ``results.pbn`` is UTF-8, said by its ``%Content-type`` line (PBN
escape lines; bridgecore's reader and endplay's read it); ``bridgewebs.pbn`` is ISO-8859-1,
as BridgeWebs takes it, its names transliterated (bridgecore.latin1) and its
``TotalScoreTable`` carrying them. Each file carries the event's name and the session's
date: the set-up's ``date``, else the day the session's first board was over, else the
day of the download (a session with no result yet).

The files' words are the event's language (the set-up's ``language``, docs/translating.md):
the title a file has when the set-up names no event (``export.title``: "Séance Tenace,
section A"); what the formats define (tags, columns, USEBIO's elements and values, PBN's
``Scoring`` and ``Competition``, a ruling's ``A6040``) is written as the formats say.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from bridgecore.adjusted import Artificial
from bridgecore.bridgewebs import write_bridgewebs
from bridgecore.calls import Contract
from bridgecore.cards import Seat
from bridgecore.conventions import conventions
from bridgecore.errors import ParseError
from bridgecore.ffb import write_ffb_pbn
from bridgecore.ranking import EventScore, Method, PairScore
from bridgecore.record import GameRecord
from bridgecore.results_io import (
    Player,
    ResultsFile,
    TableResult,
    scoring_tag,
    write_results_pbn,
)
from bridgecore.usebio import write_usebio
from hub.console_i18n import say
from hub.late_changes import contestants
from hub.roster import name_key

if TYPE_CHECKING:
    from hub.room import Room
    from hub.roster import Roster

__all__ = ["EXPORTS", "ExportError", "export", "results_file"]


class ExportError(ValueError):
    """A results file that cannot be made of this section (the FFB's of an IMP section)."""


def results_file(room: Room, section: str, *, title: str = "",
                 date: str | None = None, roster: Roster | None = None
                 ) -> tuple[ResultsFile, EventScore]:
    """Section ``section`` of ``room`` as a results file and its scored event (KeyError
    when there is no such section): a teams section's file has the teams (team k is pairs
    2k-1 and 2k), so that it is written as a teams event. Each player has his member
    number when ``roster`` has exactly one member of his name."""
    scored = room.scoring.section(section)
    source = ResultsFile(title=title or say(room.language, "export.title", section=section),
                         date=date)
    found = next(s for s in room.sections if s.name == section)
    source.scoring = scoring_tag(scored.event, conventions(room.conventions).units)
    if scored.method is Method.BUTLER and found.pairs_method[1]:
        source.scoring += "-2"          # PBN: the datum without the two extremes
    if scored.method is Method.IMPS and found.movement is not None:  # hub.scoring's teams
        source.teams = {p: (p + 1) // 2 for p in found.movement.pairs}
    numbers = _numbers(roster)
    source.players = {p: [Player(name, numbers.get(name_key(name), "")) for name in n]
                      for p, n in found.pairs.items() if n}
    for pair in {*found.pairs, *contestants(found)}:
        for sub in room.scoring.substitutes.of_pair(section, pair):   # credited too
            number = str(sub["member"]) if sub.get("member") else \
                numbers.get(name_key(sub["name"]), "")
            # an individual's player comes first, named or not: his substitutes follow
            first = [Player("")] if found.individual is not None else []
            source.players.setdefault(pair, first).append(Player(sub["name"], number))
    source.names = {p: " - ".join(one.name for one in players if one.name)
                    for p, players in source.players.items() if players}
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
            source.rows.append(TableResult(
                result, contract, passed_out, tricks,
                table=str(found.tables.get(line["table"], line["table"])), round=line["round"]))
    for board in sorted({*scored.lines, *room.board_numbers()}):
        marks = room.markings(board)
        source.boards[board] = GameRecord(board=board, dealer=marks.dealer,
                                          vulnerability=marks.vulnerability,
                                          deal=room.deal(board))
    swiss = scored.swiss
    if swiss is None:
        return source, scored.event
    # A Swiss section's ranking is its standings (hub.swiss, docs/swiss.md): VPs with the
    # byes, places after the tie-breaks.
    return source, dataclasses.replace(scored.event, ranking=tuple(
        PairScore(e["pair"], None, e["total"], None, e["rank"], e["boards"]) for e in swiss))


def _numbers(roster: Roster | None) -> dict[str, str]:
    """Name (as matched, hub.roster.name_key) -> member number, for the names that exactly
    one member of ``roster`` has (two members of one name: no number is guessed)."""
    found: dict[str, list[int]] = {}
    for m in roster.members if roster is not None else ():
        found.setdefault(name_key(m.name), []).append(m.number)
    return {key: str(numbers[0]) for key, numbers in found.items() if len(numbers) == 1}


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
    return write_usebio(source, event, units=_units(source),
                        victory_points_scored=victory_points)


def _units(source: ResultsFile) -> int:
    """The matchpoint units the hub scored in: 2 where the Scoring tag says ``MP1``."""
    return 2 if (source.scoring or "").endswith("MP1") else 1


def _pbn(source: ResultsFile, event: EventScore, _victory_points: bool) -> bytes:
    return write_results_pbn(source, event, scoring=source.scoring,
                             charset="UTF-8").encode("utf-8")


def _bridgewebs(source: ResultsFile, _event: EventScore, _victory_points: bool) -> bytes:
    return write_bridgewebs(source).encode("latin-1")   # transliterated: it all fits


def _ffb(source: ResultsFile, event: EventScore, _victory_points: bool) -> bytes:
    try:
        return write_ffb_pbn(source, event, units=_units(source)).encode("latin-1")
    except ValueError as err:
        raise ExportError(f"ffb.pbn: {err}") from None


# name -> (writer of the file, the event and whether its matches are in VPs; content type)
EXPORTS: dict[str, tuple[Callable[[ResultsFile, EventScore, bool], bytes], str]] = {
    "usebio.xml": (_usebio, "application/xml; charset=utf-8"),
    "results.pbn": (_pbn, "application/x-pbn; charset=utf-8"),
    "bridgewebs.pbn": (_bridgewebs, "application/x-pbn; charset=iso-8859-1"),
    "ecats.xml": (_usebio, "application/xml; charset=utf-8"),
    "ffb.pbn": (_ffb, "application/x-pbn; charset=iso-8859-1"),
}


PAIRS_ONLY = ("bridgewebs.pbn", "ffb.pbn")
"""The files of a layout that has no individual: an individual section's is refused."""


def session_date(room: Room, date: str = "", now: float | None = None) -> str:
    """The session's date in PBN's form ``YYYY.MM.DD``: ``date`` (the set-up's, ISO), else
    the day the session's first board was over, else the day of ``now`` (module
    docstring)."""
    if date:
        return date.replace("-", ".")
    first = room.scoring.first_result()
    when = first if first is not None else (time.time() if now is None else now)
    return time.strftime("%Y.%m.%d", time.localtime(when))


def export(room: Room, name: str, section: str, *, title: str = "", date: str = "",
           now: float | None = None, roster: Roster | None = None) -> tuple[bytes, str]:
    """The file ``name`` (:data:`EXPORTS`) of ``section``: its bytes and content type;
    ``date`` the session's (ISO, the set-up's), ``roster`` the club's for member numbers."""
    writer, kind = EXPORTS[name]
    if name in PAIRS_ONLY and any(s.name == section and s.individual is not None
                                  for s in room.sections):
        raise ExportError(f"{name}: a pairs layout, not for an individual (usebio.xml and "
                          "results.pbn give the players)")
    source, event = results_file(room, section, title=title,
                                 date=session_date(room, date, now), roster=roster)
    if writer is _usebio and section in room.swiss.pairings:   # SWISS_PAIRS, SWISS_TEAMS
        return write_usebio(source, event, units=_units(source), victory_points_scored=True,
                            swiss=room.swiss.matches(section)), kind
    return writer(source, event, room.scoring.section(section).units == "VP"), kind
