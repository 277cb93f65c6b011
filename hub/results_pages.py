"""What the results pages show (``GET /api/results...`` on the console's server; the pages
themselves are hub/static/results.*): the rankings of every section, each board's traveller
with its hand diagram, double-dummy table and par, and each pair's score card, all from the
live scores (:class:`hub.scoring.LiveScoring`).

* ``/api/results``: every section's ranking and boards (``SectionScore.ranking_json``) and
  every ruling given, with its status;
* ``/api/results/board/{n}``: the board's hands, dealer, vulnerability, double-dummy table
  and par (None while the solver works on it: ``dd_pending``), and its traveller in each
  section that plays it;
* ``/api/results/pair/{section}/{n}``: the pair's players, place and score card.

These pages show every result so far: like the director's console, they are for the
director's screen, or for the room once the boards are played (Law 16); the tablets see a
board's traveller only once they have finished it (hub.traveller).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from bridgecore.cards import Seat
from bridgecore.ranking import Method

if TYPE_CHECKING:
    from hub.room import Room

__all__ = ["board_page", "is_page", "overview", "pair_card", "results_api"]

_PAGE = re.compile(r"^/results(?:/board/\d{1,4}|/pair/[A-Za-z0-9_.-]{1,32}/\d{1,4})?/?$")
_BOARD = re.compile(r"^/board/(\d{1,4})$")
_PAIR = re.compile(r"^/pair/([A-Za-z0-9_.-]{1,32})/(\d{1,4})$")
_SUITS = "SHDC"


def is_page(path: str) -> bool:
    """True for the paths the results page answers (``/results``, ``/results/board/5``,
    ``/results/pair/A/3``)."""
    return bool(_PAGE.match(path))


def results_api(room: Room, rest: str) -> dict[str, Any]:
    """The JSON behind ``/api/results{rest}``; LookupError names what does not exist."""
    if rest in ("", "/"):
        return overview(room)
    board = _BOARD.match(rest)
    if board:
        return board_page(room, int(board.group(1)))
    pair = _PAIR.match(rest)
    if pair:
        return pair_card(room, pair.group(1), int(pair.group(2)))
    raise LookupError(f"no results page {rest!r:.80}")


def overview(room: Room) -> dict[str, Any]:
    """Every section's ranking and boards, every board of the session, every ruling."""
    scoring = room.scoring
    return {"sections": [s.ranking_json() for s in scoring.sections()],
            "boards": room.board_numbers(), "rulings": scoring.rulings_json()}


def _sections_playing(room: Room, board: int) -> list[str]:
    return [s.name for s in room.sections
            if s.movement is None or board in s.movement.boards]


def board_page(room: Room, board: int) -> dict[str, Any]:
    """Board ``board``: hands, double-dummy table and par, and its traveller per section."""
    deal = room.deal(board)
    sections = _sections_playing(room, board)
    if deal is None and not any(board in s.lines for s in room.scoring.sections()):
        raise LookupError(f"no board {board} in this session")
    marks = room.markings(board)  # Law 2: the board's markings govern
    dealer, vulnerability = marks.dealer, marks.vulnerability
    hands = None
    dd = None
    if deal is not None:
        hands = {seat.letter: {suit: "".join(str(c)[1:] for c in deal[seat] if str(c)[0] == suit)
                               for suit in _SUITS} for seat in Seat}
        dd = room.double_dummy.get(board, deal, dealer, vulnerability)
    solver = room.double_dummy
    return {"board": board, "dealer": dealer.letter, "vulnerability": str(vulnerability),
            "hands": hands, "dd": dd,
            "dd_pending": dd is None and deal is not None and solver.enabled
            and solver.available is not False,
            "boards": room.board_numbers(),
            "sections": [room.scoring.section(name).traveller_json(board) for name in sections]}


def pair_card(room: Room, section: str, pair: int) -> dict[str, Any]:
    """Pair ``pair`` of ``section``: players, place, and each board it played."""
    names = [s for s in room.sections if s.name == section]
    if not names:
        raise LookupError(f"no section {section!r:.40}")
    movement = names[0].movement
    scored = room.scoring.section(section)
    card = scored.card(pair)
    if (movement is None or pair not in movement.pairs) and not card:
        raise LookupError(f"no pair {pair} in section {section}")
    team = (pair + 1) // 2 if scored.method is Method.IMPS else None   # hub.scoring's teams
    contestant = pair if team is None else team
    place = next((p for p in scored.ranking() if p["pair"] == contestant), None)
    return {"section": section, "key": scored.key, "pair": pair,
            "names": list(names[0].pairs.get(pair, ())), "method": scored.method.value,
            "team": team, "place": place, "boards": card,
            "penalties": [p for p in scored.penalties if p["pair"] == pair]}
