"""USEBIO 1.2 results files (formats.md §2): read into, and write from, table results.

USEBIO is the XML the EBU's programs exchange. The reader takes both shapes real files
have (PARTICIPANTS and BOARD under SESSION/SECTION, or straight under EVENT) and the
teams shape (MATCH elements whose traveller lines say where the TEAM sat); SCORE is the
North-South score or an artificial score ``A6040``. Like the other readers it is
lenient: a traveller line that cannot be scored is a problem naming the board, and the
rest is read.

The writer follows the 1.2 skeleton: a pairs event has PARTICIPANTS (PAIR: number,
direction in a two-winner field, players, PLACE with ``=`` for ties, TOTAL_SCORE,
PERCENTAGE; one PLAYER a player, PLAYER_NAME as written and NATIONAL_ID_NUMBER when the
event knows it; in UTF-8, as ScoreBridge and RealBridge write it) and a BOARD per board
with its TRAVELLER_LINEs; matchpoints are written in USEBIO's scale of 2 a score beaten
(NS/EW_MATCH_POINTS), Butler and cross-IMPs as
NS/EW_CROSS_IMP_POINTS (the only pairs IMP elements real files show). A teams event has
TEAMs and a MATCH per pair of teams, each BOARD with the IMPS of the TEAM and the two
rooms' lines. A ruling that SCORE cannot carry (assigned, weighted, split) is written in
NOTES as ``Ruling: ...``, which the reader reads back.

An individual (results whose ``players`` are given) is EVENT_TYPE ``INDIVIDUAL``: its
PARTICIPANTS are one PLAYER a player (PLAYER_NUMBER, PLAYER_NAME, NATIONAL_ID_NUMBER, then
DIRECTION, BOARDS_PLAYED, PLACE, TOTAL_SCORE and PERCENTAGE as a PAIR has them), and each
TRAVELLER_LINE gives, after its partnerships' NS/EW_PAIR_NUMBER, the seats' players as
NORTH_PLAYER_NUMBER, EAST_..., SOUTH_..., WEST_PLAYER_NUMBER; a player's substitute for
some rounds is a SUBSTITUTE of his PLAYER (PLAYER_NAME, NATIONAL_ID_NUMBER). No real
individual USEBIO file was found to check these element names against (formats.md 2 lists
the event type only): they are Tenace's, and this reader does not read them back.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path

from bridgecore.adjusted import Artificial, Pair
from bridgecore.cards import Side
from bridgecore.errors import FormatError, ParseError
from bridgecore.methods import victory_points
from bridgecore.pbn_values import parse_contract
from bridgecore.ranking import EventScore, Method, ScoredResult
from bridgecore.results_io import (
    Player,
    ResultsFile,
    TableResult,
    export_lines,
    format_adjustment,
    format_ruling,
    pair_id,
    table_result,
)
from bridgecore.swiss_standings import MatchScore

__all__ = ["read_usebio", "write_usebio"]

_SCORING = {"MATCH_POINTS": "MatchPoints;MP1", "IMPS": "IMP", "BUTLER_IMPS": "IMP;Butler",
            "CROSS_IMPS": "IMP;Cross2"}
_METHODS = {Method.MATCHPOINTS: "MATCH_POINTS", Method.IMPS: "IMPS",
            Method.BUTLER: "BUTLER_IMPS", Method.CROSS_IMPS: "CROSS_IMPS",
            Method.TOTAL_POINTS: "AGGREGATE"}
_RULING = "Ruling: "
VERSION = "0.1.0"


def _text(element: ET.Element, tag: str) -> str:
    return (element.findtext(tag) or "").strip()


def _pair(text: str) -> Pair | None:
    try:
        return pair_id(text)
    except ParseError:
        return None


def _pbn_date(text: str) -> str | None:
    """USEBIO 1.2 ``dd/mm/yyyy`` (or 1.3 ``yyyy-mm-dd``) as PBN ``yyyy.mm.dd``."""
    m = re.fullmatch(r"(\d\d)/(\d\d)/(\d{4})", text)
    if m:
        return f"{m.group(3)}.{m.group(2)}.{m.group(1)}"
    m = re.fullmatch(r"(\d{4})-(\d\d)-(\d\d)", text)
    return f"{m.group(1)}.{m.group(2)}.{m.group(3)}" if m else None


def read_usebio(source: str | Path | bytes, *, file: str | None = None) -> ResultsFile:
    """The results of a USEBIO file. Raises :class:`FormatError` if it is not USEBIO XML."""
    if isinstance(source, Path):
        file = file or str(source)
        try:
            source = source.read_bytes()
        except OSError as err:
            raise FormatError(f"cannot read the file: {err.strerror or err}", file=file) from err
    try:
        root = ET.fromstring(source)
    except (ET.ParseError, LookupError) as err:  # LookupError: an unknown encoding declared
        raise FormatError(f"not XML: {err}", file=file) from err
    if root.tag != "USEBIO":
        raise FormatError(f"not a USEBIO file (root element {root.tag})", file=file)
    out = ResultsFile(file=file)
    event = root.find("EVENT")
    if event is None:
        out.problem("no EVENT element: nothing is read")
        return out
    out.title = _text(event, "EVENT_DESCRIPTION") or _text(event, "TITLE") or None
    out.date = _pbn_date(_text(event, "DATE"))
    out.scoring = _SCORING.get(_text(event, "BOARD_SCORING_METHOD"))
    for pair in event.iter("PAIR"):
        number = _pair(_text(pair, "PAIR_NUMBER"))
        players = [Player(_text(p, "PLAYER_NAME"), _text(p, "NATIONAL_ID_NUMBER"))
                   for p in pair.findall("PLAYER")]
        players = [p for p in players if p.name]
        if number is not None and players:
            out.names.setdefault(number, " - ".join(p.name for p in players))
            out.players.setdefault(number, players)
    for team in event.iter("TEAM"):
        team_id = _pair(team.get("TEAM_ID", ""))
        for pair in team.iter("PAIR"):
            member = _pair(_text(pair, "PAIR_NUMBER"))
            if team_id is not None and member is not None:
                out.add_team(member, team_id)
    seen: set[tuple[int, str, str, str]] = set()
    in_matches: set[ET.Element] = set()
    for match in event.iter("MATCH"):
        for board in match.iter("BOARD"):
            in_matches.add(board)
            _read_board(board, match, out, seen)
    for board in event.iter("BOARD"):
        if board not in in_matches:
            _read_board(board, None, out, seen)
    return out


def _read_board(board: ET.Element, match: ET.Element | None, out: ResultsFile,
                seen: set[tuple[int, str, str, str]]) -> None:
    lines = board.findall("TRAVELLER_LINE")
    if not lines:
        return  # a HANDSET board: the deal, no results
    number = _text(board, "BOARD_NUMBER")
    if not (number.isascii() and number.isdigit()) or int(number) < 1:
        out.problem(f"a BOARD whose BOARD_NUMBER is {number!r}: its {len(lines)} traveller "
                    "lines are not scored")
        return
    n = int(number)
    for k, line in enumerate(lines, 1):
        ns, ew, score = (_text(line, t) for t in ("NS_PAIR_NUMBER", "EW_PAIR_NUMBER", "SCORE"))
        key = (n, ns, ew, score)
        if key in seen:  # the same room listed again (a match seen from both teams)
            continue
        seen.add(key)
        notes = _text(line, "NOTES")
        contract, declarer, tricks = (_text(line, t) for t in ("CONTRACT", "PLAYED_BY",
                                                               "TRICKS"))
        try:
            parse_contract(contract)
        except ParseError as err:
            if not re.fullmatch(r"[+-]?\d+", score):
                out.problem(f"traveller line {k} ({ns} v {ew}): {err}", n)
                continue
            out.problem(f"traveller line {k} ({ns} v {ew}): {err}; its SCORE {score} is "
                        "scored", n)
            contract = declarer = tricks = ""
        try:
            row = table_result(n, ns, ew, contract=contract, declarer=declarer, tricks=tricks,
                               score_ns=score, lead=_text(line, "LEAD"),
                               ruling=notes[len(_RULING):] if notes.startswith(_RULING) else "")
        except (ParseError, ValueError) as err:
            out.problem(f"traveller line {k} ({ns} v {ew}): {err}", n)
            continue
        out.rows.append(row)
        direction = _text(line, "DIRECTION")
        if match is not None and direction in ("NS", "EW"):
            team, other = (_pair(_text(match, t)) for t in ("TEAM", "OPPOSING_TEAM"))
            if team is None or other is None:
                out.problem(f"traveller line {k} ({ns} v {ew}): its MATCH does not say the "
                            "teams", n)
                continue
            mine, theirs = (row.result.ns, row.result.ew) if direction == "NS" else \
                (row.result.ew, row.result.ns)
            out.add_team(mine, team)
            out.add_team(theirs, other)


# Writing ---------------------------------------------------------------------------------

def _add(parent: ET.Element, tag: str, text: object | None = None, **attributes: str
         ) -> ET.Element:
    element = ET.SubElement(parent, tag, attributes)
    if text is not None:
        element.text = str(text)
    return element


def _number(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _usebio_date(pbn: str | None) -> str | None:
    m = re.fullmatch(r"(\d{4})\.(\d\d)\.(\d\d)", pbn or "")
    return f"{m.group(3)}/{m.group(2)}/{m.group(1)}" if m else None


def _score(row: TableResult) -> tuple[str | None, str | None]:
    """SCORE and NOTES of a line: the score, ``A6040``, or a ruling in NOTES."""
    r = row.result
    adjustment = r.adjustment
    if r.only is not None:      # Law 15B: a cancelled line, one side's artificial score
        return None, _RULING + format_ruling(r)
    if isinstance(adjustment, Artificial):
        ns = adjustment.ns_percent if adjustment.ns_percent is not None else adjustment.ns.percent
        ew = adjustment.ew_percent if adjustment.ew_percent is not None else adjustment.ew.percent
        if ns == int(ns) and ew == int(ew) and ns < 100 and ew < 100:
            return f"A{int(ns):02d}{int(ew):02d}", None
    notes = None if adjustment is None else _RULING + format_adjustment(adjustment)
    return (None if r.score_ns is None else str(r.score_ns)), notes


def _traveller_line(parent: ET.Element, row: TableResult, scored: ScoredResult | None,
                    points: tuple[str, str] | None, scale: float,
                    direction: str | None = None) -> None:
    line = _add(parent, "TRAVELLER_LINE")
    if direction:
        _add(line, "DIRECTION", direction)
    _add(line, "NS_PAIR_NUMBER", row.result.ns)
    _add(line, "EW_PAIR_NUMBER", row.result.ew)
    for seat, player in zip(("NORTH", "EAST", "SOUTH", "WEST"), row.result.players or (),
                            strict=False):
        _add(line, f"{seat}_PLAYER_NUMBER", player)
    if row.passed_out:
        _add(line, "CONTRACT", "PASS")
    elif row.contract is not None:
        _add(line, "CONTRACT", row.contract)
        if row.contract.declarer is not None:
            _add(line, "PLAYED_BY", row.contract.declarer.letter)
    if row.lead:
        _add(line, "LEAD", row.lead)
    if row.tricks is not None and not row.passed_out:
        _add(line, "TRICKS", row.tricks)
    score, notes = _score(row)
    _add(line, "SCORE", score or "")
    if notes:
        _add(line, "NOTES", notes)
    if scored is not None and points is not None:     # a side not scored (15B): no element
        for side, name, value in zip(Side, points, (scored.ns_points, scored.ew_points),
                                     strict=True):
            if side in row.result.sides:
                _add(line, name, _number(value * scale))


def _players(parent: ET.Element, source: ResultsFile, pair: Pair) -> None:
    """One PLAYER a player, with his national member number when known."""
    for one in source.players_of(pair):
        player = _add(parent, "PLAYER")
        _add(player, "PLAYER_NAME", one.name)
        if one.number:
            _add(player, "NATIONAL_ID_NUMBER", one.number)


def _individual_player(parent: ET.Element, source: ResultsFile, number: Pair) -> ET.Element:
    """An individual's participant: one PLAYER, his number, name and member number, then
    each of his substitutes (the results' further players) as a SUBSTITUTE with his name
    and member number, so that he is credited too."""
    player = _add(parent, "PLAYER")
    _add(player, "PLAYER_NUMBER", number)
    for i, one in enumerate(source.players_of(number)):
        where = player if i == 0 else _add(player, "SUBSTITUTE")
        if one.name:
            _add(where, "PLAYER_NAME", one.name)
        if one.number:
            _add(where, "NATIONAL_ID_NUMBER", one.number)
    return player


def _places(event: EventScore) -> dict[tuple[Pair, object], str]:
    """PLACE of each contestant: its rank, with ``=`` when shared (``3=``)."""
    count: dict[tuple[object, int], int] = defaultdict(int)
    for p in event.ranking:
        count[(p.direction, p.rank)] += 1
    return {(p.pair, p.direction): f"{p.rank}{'=' if count[(p.direction, p.rank)] > 1 else ''}"
            for p in event.ranking}


def write_usebio(source: ResultsFile, event: EventScore, *, units: int = 1,
                 victory_points_scored: bool = False,
                 swiss: Sequence[MatchScore] | None = None) -> bytes:
    """A USEBIO 1.2 file (UTF-8 bytes, as ScoreBridge and RealBridge write it: every name
    as written) of a scored event; matchpoints in MP1 units. ``swiss``: the matches of a
    Swiss event (EVENT_TYPE SWISS_TEAMS or SWISS_PAIRS; each MATCH with its ROUND_NUMBER,
    the IMPs as TEAM_SCORE/NS_SCORE and the VPs; ``event``'s ranking the standings)."""
    root = ET.Element("USEBIO", Version="1.2")
    teams = event.method is Method.IMPS and source.teams is not None
    individual = not teams and swiss is None and any(row.result.players
                                                     for row in source.rows)
    kind = "TEAMS" if teams else "INDIVIDUAL" if individual else "PAIRS"
    node = _add(root, "EVENT", EVENT_TYPE=kind if swiss is None else f"SWISS_{kind}")
    _add(node, "BOARD_SCORING_METHOD", _METHODS[event.method])
    if teams or swiss is not None:
        _add(node, "MATCH_SCORING_METHOD", "VPS" if victory_points_scored else "IMPS")
    _add(node, "PROGRAM_NAME", "Tenace")
    _add(node, "PROGRAM_VERSION", VERSION)
    _add(node, "EVENT_DESCRIPTION", source.title or "")
    date = _usebio_date(source.date)
    if date:
        _add(node, "DATE", date)
    lines = export_lines(source, event)
    _add(node, "BOARDS_PLAYED", len(lines))
    two_winner = any(p.direction is not None for p in event.ranking)
    if not teams:
        _add(node, "WINNER_TYPE", 2 if two_winner else 1)
        if not individual:
            _add(node, "PAIRS", len(event.ranking))
        if two_winner and not individual:
            _add(node, "EW_PAIRS", sum(1 for p in event.ranking if p.direction is not None
                                       and p.direction.value == "EW"))
    _add(node, "SESSION_COUNT", 1)
    _add(node, "SECTION_COUNT", 1)
    section = _add(node, "SESSION", SESSION_ID="1")
    if not teams:  # real teams files have no SECTION: PARTICIPANTS and MATCHes in SESSION
        section = _add(section, "SECTION", SECTION_ID="A")
    participants = _add(section, "PARTICIPANTS")
    mp = event.method is Method.MATCHPOINTS
    scale = 2 / units if mp else 1.0
    places = _places(event)
    if teams:
        _teams(section, participants, source, event, lines, places, victory_points_scored,
               swiss)
    else:
        for p in event.ranking:
            if individual:
                pair = _individual_player(participants, source, p.pair)
            else:
                pair = _add(participants, "PAIR")
                _add(pair, "PAIR_NUMBER", p.pair)
            if p.direction is not None:
                _add(pair, "DIRECTION", p.direction.value)
            _add(pair, "BOARDS_PLAYED", p.boards)
            if not individual:
                _players(pair, source, p.pair)
            _add(pair, "PLACE", places[(p.pair, p.direction)])
            _add(pair, "TOTAL_SCORE", _number(p.total * scale))
            if p.percent is not None:
                _add(pair, "PERCENTAGE", _number(p.percent))
        points = ("NS_MATCH_POINTS", "EW_MATCH_POINTS") if mp else \
            ("NS_CROSS_IMP_POINTS", "EW_CROSS_IMP_POINTS")
        for number, board_lines in lines.items():
            board = _add(section, "BOARD")
            _add(board, "BOARD_NUMBER", number)
            for row, scored in board_lines:
                _traveller_line(board, row, scored, points, scale)
        for m in swiss or ():        # Swiss pairs: each match, its IMPs and VPs
            match = _add(section, "MATCH")
            _add(match, "ROUND_NUMBER", m.round)
            _add(match, "NS_PAIR_NUMBER", m.home)
            _add(match, "EW_PAIR_NUMBER", m.away)
            _match_scores(match, m, ("NS_SCORE", "EW_SCORE"),
                          ("NS_VICTORY_POINTS", "EW_VICTORY_POINTS"))
    ET.indent(root, space="  ")
    text = ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<!DOCTYPE USEBIO SYSTEM "http://www.usebio.org/files/usebio_v1_2.dtd">\n'
            + ET.tostring(root, encoding="unicode") + "\n")
    return text.encode("utf-8")


def _teams(section: ET.Element, participants: ET.Element, source: ResultsFile,
           event: EventScore, lines: dict[int, list[tuple[TableResult, ScoredResult | None]]],
           places: dict[tuple[Pair, object], str], vp: bool,
           swiss: Sequence[MatchScore] | None = None) -> None:
    """TEAMs with their pairs, then a MATCH per pair of teams with each board's two rooms
    (a Swiss event's: its ROUND_NUMBER, the IMPs and the VPs)."""
    teams = source.teams or {}
    pairs: dict[Pair, list[Pair]] = defaultdict(list)
    for member, team_of in teams.items():
        pairs[team_of].append(member)
    for p in event.ranking:
        entry = _add(participants, "TEAM", TEAM_ID=str(p.pair), TEAM_NAME=str(p.pair))
        _add(entry, "TOTAL_SCORE", _number(p.total))
        _add(entry, "PLACE", places[(p.pair, p.direction)])
        for member in pairs.get(p.pair, ()):
            element = _add(entry, "PAIR")
            _add(element, "PAIR_NUMBER", member)
            _players(element, source, member)
    matches: dict[tuple[Pair, Pair], dict[int, list[tuple[TableResult, ScoredResult | None,
                                                          str]]]] = defaultdict(dict)
    oriented: dict[frozenset[Pair], tuple[Pair, Pair]] = {
        frozenset((m.home, m.away)): (m.home, m.away) for m in swiss or ()}
    for number, board_lines in lines.items():
        for row, scored in board_lines:
            home, away = teams.get(row.result.ns), teams.get(row.result.ew)
            if home is None or away is None:
                continue
            key = (home, away) if (away, home) not in matches else (away, home)
            key = oriented.get(frozenset(key), key)     # a Swiss match: home v away
            direction = "NS" if key[0] == home else "EW"
            matches[key].setdefault(number, []).append((row, scored, direction))
    for (team, other), boards in matches.items():
        match = _add(section, "MATCH")
        numbers = sorted(boards)
        played = next((m for m in swiss or () if {m.home, m.away} == {team, other}), None)
        if played is not None:
            _add(match, "ROUND_NUMBER", played.round)
        _add(match, "TEAM", team)
        _add(match, "OPPOSING_TEAM", other)
        _add(match, "START_BOARD_NUMBER", numbers[0])
        _add(match, "END_BOARD_NUMBER", numbers[-1])
        won = [_imps_of_team(rooms) for _, rooms in sorted(boards.items())]
        mine, theirs = sum(max(w, 0.0) for w in won), sum(max(-w, 0.0) for w in won)
        if played is not None:     # a Swiss match: the IMPs, then the VPs
            if played.home != team:
                played = MatchScore(played.round, played.away, played.home,
                                    played.away_imps, played.home_imps)
            _match_scores(match, played, ("TEAM_SCORE", "OPPOSING_TEAM_SCORE"),
                          ("TEAM_VICTORY_POINTS", "OPPOSING_TEAM_VICTORY_POINTS"))
        else:
            if vp:
                mine, theirs = victory_points(mine - theirs, len(numbers))
            _add(match, "TEAM_SCORE", _number(mine))
            _add(match, "OPPOSING_TEAM_SCORE", _number(theirs))
        for number, imps in zip(numbers, won, strict=True):
            board = _add(match, "BOARD")
            _add(board, "BOARD_NUMBER", number)
            _add(board, "IMPS", _number(imps))
            for row, scored, direction in boards[number]:
                _traveller_line(board, row, scored, None, 1.0, direction)


def _match_scores(match: ET.Element, m: MatchScore, imps: tuple[str, str],
                  vps: tuple[str, str]) -> None:
    """A Swiss match's IMPs (each side's over its boards) and VPs (WBF 2013, Law 78D)."""
    _add(match, imps[0], _number(sum(m.imps(m.home))))
    _add(match, imps[1], _number(sum(m.imps(m.away))))
    _add(match, vps[0], _number(m.vp(m.home)))
    _add(match, vps[1], _number(m.vp(m.away)))


def _imps_of_team(rooms: Iterable[tuple[TableResult, ScoredResult | None, str]]) -> float:
    """The TEAM's IMPs on a board: its North-South pair's points (or its East-West's)."""
    for _, scored, direction in rooms:
        if scored is not None:
            return scored.ns_points if direction == "NS" else scored.ew_points
    return 0.0
