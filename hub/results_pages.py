"""What the results pages show (``GET /api/results...`` on the console's server; the pages
themselves are hub/static/results.*): the rankings of every section, each board's traveller
with its hand diagram, double-dummy table and par, and each pair's score card, all from the
live scores (:class:`hub.scoring.LiveScoring`).

* ``/api/results``: every section's ranking and boards (``SectionScore.ranking_json``) and
  every ruling given, with its status;
* ``/api/results/board/{n}``: the board's hands, dealer, vulnerability, double-dummy table
  and par (None while the solver works on it: ``dd_pending``), and its traveller in each
  section that plays it; ``full`` true in the director's or scorer's view (the page then
  offers the director the form correcting a result, ``result_correct``);
* ``/api/results/pair/{section}/{n}``: the pair's players (with its substitutes), place and
  score card; ``full`` as for a board (the page then offers the director the form naming a
  substitute, ``substitute``).

The pages are public and read-only. What anyone sees (``public=True``, the default) is the
public view, which never shows a board's hands, traveller or any pair's result on it while a
table that plays it has not finished it (Law 16: :func:`finished_everywhere`), and shows
what the director chose during the session with the ``public_results`` command
(:class:`PublicResults`, logged as a director fact, so it survives a restart): the rankings
or not (or not during the session's last ``hide_last_rounds`` rounds, to keep the suspense
until the prize-giving: published once every table has finished the last round,
:func:`session_over`), the players' names or not, the finished boards or none; the ranking
counts only the boards every table has finished (hub.public_ranking), unless the director
chose ``live_ranking: "all"``. A director
or a scorer logged in to the console gets the full view (``public=False``). The tablets see a
board's traveller only once they have finished it (hub.traveller).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bridgecore.cards import Seat
from bridgecore.ranking import Method
from hub.public_ranking import public_ranking

if TYPE_CHECKING:
    from hub.room import Room

__all__ = ["PublicResults", "board_page", "finished_everywhere", "is_page", "overview",
           "pair_card", "results_api", "session_over", "session_rankings"]

_PAGE = re.compile(r"^/results(?:/board/\d{1,4}|/pair/[A-Za-z0-9_.-]{1,32}/\d{1,4}|/event|"
                   r"/ladder)?/?$")
_BOARD = re.compile(r"^/board/(\d{1,4})$")
_PAIR = re.compile(r"^/pair/([A-Za-z0-9_.-]{1,32})/(\d{1,4})$")
_SUITS = "SHDC"


def is_page(path: str) -> bool:
    """True for the paths the results page answers (``/results``, ``/results/board/5``,
    ``/results/pair/A/3``)."""
    return bool(_PAGE.match(path))


@dataclass(frozen=True, slots=True)
class PublicResults:
    """What the public results pages show (the director's ``public_results`` command):
    ``ranking`` the rankings (and the pairs' places), ``names`` the players' names,
    ``boards`` the boards every table has finished (never the others), ``hide_last_rounds``
    the last rounds of the movement during which the ranking is hidden (0: never)."""

    ranking: bool = True
    names: bool = True
    boards: bool = True
    hide_last_rounds: int = 0
    live_ranking: str = "finished"   # or "all": the ranking over boards still in play too

    @classmethod
    def of(cls, settings: Mapping[str, Any] | None) -> PublicResults:
        settings = settings or {}
        found: dict[str, Any] = {k: bool(settings[k]) for k in ("ranking", "names", "boards")
                                 if k in settings}
        return cls(**found, hide_last_rounds=int(settings.get("hide_last_rounds", 0)),
                   live_ranking=str(settings.get("live_ranking", "finished")))

    def ranking_shown(self, round: int, rounds: int, over: bool = False) -> bool:
        """Whether the ranking is shown while ``round`` of ``rounds`` is played; once the
        session is ``over`` (every table has finished its last round) the last rounds hide
        it no longer (a director who wants it hidden longer unticks ``ranking``)."""
        if not self.ranking:
            return False
        return over or not (self.hide_last_rounds and rounds
                            and round > rounds - self.hide_last_rounds)

    def to_json(self) -> dict[str, Any]:
        """The settings (``hide_last_rounds`` only when the director gave it)."""
        out: dict[str, Any] = {"ranking": self.ranking, "names": self.names,
                               "boards": self.boards}
        if self.hide_last_rounds:
            out["hide_last_rounds"] = self.hide_last_rounds
        if self.live_ranking != "finished":
            out["live_ranking"] = self.live_ranking
        return out


def finished_everywhere(room: Room, board: int) -> bool:
    """Whether every table that plays ``board`` (in any round of its section's movement) has
    finished it. A section without a movement: every one of its tables must have."""
    for section in room.sections:
        movement = section.movement
        for table_id, number in section.tables.items():
            table = room.tables[table_id]
            if movement is None:
                plays = True
            else:
                plays = any(a is not None and a.plays and board in a.boards
                            for a in (movement.assignment(r, number)
                                      for r in range(1, movement.rounds + 1)))
            if plays and not table.finished(board):
                return False
    return True


def results_api(room: Room, rest: str, *, public: bool = True) -> dict[str, Any]:
    """The JSON behind ``/api/results{rest}`` (the public view unless ``public`` is False);
    LookupError names what does not exist, or is not shown."""
    if rest in ("", "/"):
        return overview(room, public=public)
    board = _BOARD.match(rest)
    if board:
        return board_page(room, int(board.group(1)), public=public)
    pair = _PAIR.match(rest)
    if pair:
        return pair_card(room, pair.group(1), int(pair.group(2)), public=public)
    raise LookupError(f"no results page {rest!r:.80}")


def _settings(room: Room) -> PublicResults:
    return PublicResults.of(getattr(room, "public_results", None))


def session_over(room: Room) -> bool:
    """Whether every table of every section with a movement has finished its last round
    (a table that does not play that round has nothing to finish); False without one."""
    sections = [s for s in room.sections if s.movement is not None]
    return bool(sections) and all(
        table_id in room.tables and room.tables[table_id].round_done(s.movement.rounds)
        for s in sections if s.movement is not None for table_id in s.tables)


def _ranking_shown(room: Room, settings: PublicResults) -> bool:
    rounds = max((s.movement.rounds for s in room.sections if s.movement is not None),
                 default=0)
    if not settings.ranking:
        return False
    over = bool(settings.hide_last_rounds) and session_over(room)
    return settings.ranking_shown(room.clock.round, rounds, over)


def _shown_boards(room: Room, settings: PublicResults) -> set[int]:
    boards = set(room.board_numbers())
    for scored in room.scoring.sections():
        boards.update(scored.lines)
    if not settings.boards:
        return set()
    return {b for b in boards if finished_everywhere(room, b)}


def overview(room: Room, *, public: bool = False) -> dict[str, Any]:
    """Every section's ranking and boards, every board of the session, every ruling (in the
    public view: what the director lets the room see, and only boards finished
    everywhere)."""
    scoring = room.scoring
    settings = _settings(room)
    if not public:
        return {"sections": [dict(s.ranking_json(), problem_texts=s.problem_texts())
                             for s in scoring.sections()],
                "boards": room.board_numbers(), "rulings": scoring.rulings_json(),
                "public": settings.to_json(), "full": True}
    shown = _shown_boards(room, settings)
    sections = []
    for scored in scoring.sections():
        data = scored.ranking_json()
        data["boards"] = [b for b in data["boards"] if b["board"] in shown]
        if settings.live_ranking == "finished":   # Law 16: never boards still in play
            data["ranking"] = public_ranking(scored, shown)
        data["problems"] = []
        if not _ranking_shown(room, settings):
            data["ranking"], data["penalties"] = [], []
        elif not settings.names:
            for entry in data["ranking"]:
                entry["names"] = []
                entry.pop("substitutes", None)   # names too
        sections.append(data)
    rulings = [{k: v for k, v in r.items() if k != "by"} for r in scoring.rulings_json()
               if r.get("board") in shown
               or (r.get("board") is None and _ranking_shown(room, settings))]
    return {"sections": sections, "boards": [b for b in room.board_numbers() if b in shown],
            "rulings": rulings, "public": settings.to_json(),
            "ranking_shown": _ranking_shown(room, settings), "full": False}


def session_rankings(room: Room, *, public: bool = False
                     ) -> tuple[list[dict[str, Any]], bool, bool]:
    """Each section's ranking as the event's total (hub.series) adds it up: ``[{"name",
    "method", "units", "ranking"}]`` (in the public view over the boards finished everywhere, as the
    session's own ranking), whether the ranking may be shown, whether the names may (the
    pairs are matched by their names all the same: the page leaves them out)."""
    settings = _settings(room)
    shown = _shown_boards(room, settings) if public else set()
    out = []
    for scored in room.scoring.sections():
        ranking = (public_ranking(scored, shown) if public
                   and settings.live_ranking == "finished" else scored.ranking())
        out.append({"name": scored.name, "method": scored.method.value, "units": scored.units,
                    "ranking": ranking})
    if not public:
        return out, True, True
    return out, _ranking_shown(room, settings), settings.names


def _sections_playing(room: Room, board: int) -> list[str]:
    return [s.name for s in room.sections
            if s.movement is None or board in s.movement.boards]


def board_page(room: Room, board: int, *, public: bool = False) -> dict[str, Any]:
    """Board ``board``: hands, double-dummy table and par, and its traveller per section
    (in the public view only once every table has finished it)."""
    deal = room.deal(board)
    sections = _sections_playing(room, board)
    if deal is None and not any(board in s.lines for s in room.scoring.sections()):
        raise LookupError(f"no board {board} in this session")
    settings = _settings(room)
    if public and board not in _shown_boards(room, settings):
        raise LookupError(f"board {board} is not shown yet: not every table has finished it"
                          if settings.boards else "the boards are not shown during this "
                                                  "session")
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
            "boards": sorted(_shown_boards(room, settings)) if public else room.board_numbers(),
            "sections": [room.scoring.section(name).traveller_json(board) for name in sections],
            "full": not public}


def pair_card(room: Room, section: str, pair: int, *, public: bool = False
              ) -> dict[str, Any]:
    """Pair ``pair`` of ``section``: players, place, and each board it played (in the public
    view: the boards finished everywhere, the place and the names as the director lets)."""
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
    players = list(names[0].pairs.get(pair, ()) if team is not None else
                   scored.names.get(pair, ()))
    substitutes = [] if team is not None else \
        [dict(sub) for sub in scored.substitutes.get(pair, ())]   # hub.substitutes, as data
    penalties = [p for p in scored.penalties if p["pair"] == pair]
    if public:
        settings = _settings(room)
        shown = _shown_boards(room, settings)
        card = [c for c in card if c["board"] in shown]
        if settings.live_ranking == "finished":   # Law 16: never boards still in play
            place = next((p for p in public_ranking(scored, shown)
                          if p["pair"] == contestant), None)
        if not settings.names:
            players, substitutes = [], []
            if place is not None:
                place = {k: v for k, v in place.items() if k != "substitutes"}
                place["names"] = []
        if not _ranking_shown(room, settings):
            place, penalties = None, []
    return {"section": section, "key": scored.key, "pair": pair,
            "names": players, "substitutes": substitutes, "method": scored.method.value,
            "team": team, "place": place, "boards": card, "penalties": penalties,
            "full": not public}
