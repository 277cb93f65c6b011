"""Swiss sections on the live hub: each round drawn from the standings when the last one
is scored, logged, and the section's movement grown by it (docs/swiss.md).

A Swiss section (``swiss_teams`` or ``swiss_pairs``, :class:`SwissSettings` in
:attr:`hub.section.Section.swiss`) starts with round 1 drawn from its set-up (by seeding, or
by its ``seed``: the same draw every time the set-up is read). Each later round is a fact:

* ``swiss_round``: ``{"section", "round", "pairings": [[home, away | null], ...], "order",
  "by"}`` -- the round's matches (``away`` null: ``home``'s bye) and the standings order it
  was drawn from. The hub draws it itself (``by`` ``"hub"``) in the batch that scores the
  last board of the round before (:meth:`SwissRounds.due`, hub.service), or the director
  does (``{"op": "swiss_draw", "section": "A"}``, hub.director), with the scores as they
  stand. A restarted hub replays the fact: the pairings are never drawn again.

The round's assignments then reach the tables as any round's do: the movement of the
section (:func:`bridgecore.swiss.swiss_movement`) has the new round, the tables' views say
who is expected where (``round_info``), and a pair checking in at a table of the next round
moves the table on (hub.table).

A match is scored from the section's live scores (hub.scoring): a teams match is the IMPs of
the two rooms (Law 78B), a pairs match each pair's IMPs against the datum of the board
across the field (the section's scoring, "imps" by default: Butler); each converts to VPs
(WBF 2013, Law 78D) and the standings follow :mod:`bridgecore.swiss_standings`.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from bridgecore.swiss import Pairing, next_round
from bridgecore.swiss_standings import MatchScore, Standing, standings
from bridgecore.text import Text
from hub.errors import ConfigError
from hub.late_changes import refused
from hub.section import Section, SwissSettings
from hub.section_score import SectionScore

__all__ = ["FACTS", "SwissRounds", "SwissSettings"]

log = logging.getLogger(__name__)

FACTS = ("swiss_round",)


class _Scores(Protocol):
    def section(self, name: str) -> SectionScore: ...


class _Table(Protocol):
    def round_done(self, round: int) -> bool: ...


class SwissRoom(Protocol):
    """What :class:`SwissRounds` reads of the room (hub.room.Room)."""

    @property
    def sections(self) -> Sequence[Section]: ...
    @property
    def tables(self) -> Mapping[str, _Table]: ...
    @property
    def scoring(self) -> _Scores: ...
    def movement_changed(self, section: str) -> None: ...


class SwissRounds:
    """The rounds drawn in each Swiss section of ``room`` (module docstring)."""

    def __init__(self, room: SwissRoom):
        self.room = room
        self.pairings: dict[str, list[Pairing]] = {}
        self.drawn_by: dict[str, list[str]] = {}
        for section in room.sections:
            if section.swiss is not None:
                self.pairings[section.name] = list(section.swiss.first())
                self.drawn_by[section.name] = ["set-up"]
                section.movement = section.swiss.movement(self.pairings[section.name])

    def _section(self, name: str) -> tuple[Section, SwissSettings]:
        for section in self.room.sections:
            if section.name == name and section.swiss is not None:
                return section, section.swiss
        raise ConfigError(Text.of("refusal.no_swiss_section", section=str(name)[:40],
                                  sections=", ".join(self.pairings) or "–"))

    def drawn(self, name: str) -> int:
        return max((p.round for p in self.pairings[name]), default=0)

    # Scores ---------------------------------------------------------------------------------
    def _points(self, name: str, scored: SectionScore | None = None
                ) -> dict[tuple[int, int], tuple[int, float]]:
        """(contestant, board) -> (round, its IMPs) of every scored result of ``name`` (as
        ``scored``, default the live scores)."""
        _, settings = self._section(name)
        out: dict[tuple[int, int], tuple[int, float]] = {}
        if scored is None:
            scored = self.room.scoring.section(name)
        for board, lines in scored.lines.items():
            for line in lines:
                if not line.get("scored") or line["NS"] is None or line["EW"] is None:
                    continue
                for side, points in (("NS", "ns_points"), ("EW", "ew_points")):
                    key = (settings.contestant(int(line[side])), board)
                    out[key] = (int(line["round"]), float(line[points]))
        return out

    def matches(self, name: str, scored: SectionScore | None = None) -> list[MatchScore]:
        """Every match drawn, with the boards of it scored so far."""
        _, settings = self._section(name)
        points = self._points(name, scored)
        out = []
        for p in self.pairings[name]:
            if p.away is None:
                continue
            bpr = settings.boards_per_round
            boards = range((p.round - 1) * bpr + 1, p.round * bpr + 1)
            both = [b for b in boards if points.get((p.home, b), (0,))[0] == p.round
                    and points.get((p.away, b), (0,))[0] == p.round]
            out.append(MatchScore(p.round, p.home, p.away,
                                  tuple(points[p.home, b][1] for b in both),
                                  tuple(points[p.away, b][1] for b in both)))
        return out

    def complete(self, name: str, round_: int) -> bool:
        """Every board of every match of ``round_`` is scored."""
        _, settings = self._section(name)
        return all(m.boards == settings.boards_per_round for m in self.matches(name)
                   if m.round == round_)

    def standings(self, name: str, scored: SectionScore | None = None
                  ) -> tuple[Standing, ...]:
        _, settings = self._section(name)
        return standings(range(1, settings.entrants + 1), self.pairings[name],
                         self.matches(name, scored), bye=settings.bye_vp)

    def ranking(self, scored: SectionScore) -> list[dict[str, Any]] | None:
        """A Swiss section's ranking (``results/ranking/{section}``, the public pages, the
        results files): its standings in their order, ``total`` the VPs (byes included),
        ``rank`` shared only when every tie-break is equal, ``boards`` the boards scored;
        None for a section that is not Swiss (its live ranking stands)."""
        if scored.name not in self.pairings:
            return None
        section, settings = self._section(scored.name)
        names = self._names(section, settings)
        boards: dict[int, int] = {}
        for m in self.matches(scored.name, scored):
            for c in (m.home, m.away):
                boards[c] = boards.get(c, 0) + m.boards
        return [{"pair": s.contestant, "names": names.get(s.contestant, []),
                 "direction": None, "total": round(s.vp, 2) + 0.0, "percent": None,
                 "rank": s.rank, "boards": boards.get(s.contestant, 0)}
                for s in self.standings(scored.name, scored)]

    # Drawing --------------------------------------------------------------------------------
    def draw(self, name: str, by: str) -> dict[str, Any]:
        """The body of the ``swiss_round`` fact that draws ``name``'s next round now."""
        _, settings = self._section(name)
        number = self.drawn(name) + 1
        if number > settings.rounds:
            raise ConfigError(refused("swiss_draw", Text.of(
                "refusal.swiss_all_drawn", section=name, rounds=settings.rounds)))
        order = [s.contestant for s in self.standings(name)]
        drawn = next_round(number, order, self.pairings[name], rounds=settings.rounds)
        return {"section": name, "round": number, "pairings": [p.to_json() for p in drawn],
                "order": order, "by": by}

    def due(self) -> list[dict[str, Any]]:
        """The ``swiss_round`` facts due now: each Swiss section whose last round drawn is
        scored through and that has rounds to come (module docstring)."""
        out = []
        for name in self.pairings:
            section, settings = self._section(name)
            number = self.drawn(name)
            if number >= settings.rounds:
                continue
            tables = self.room.tables   # the tables first: cheap, and mostly not done
            if not all(tables[tid].round_done(number) for tid in section.tables
                       if tid in tables):
                continue
            if self.complete(name, number):
                out.append(self.draw(name, "hub"))
        return out

    def fact(self, body: Mapping[str, Any]) -> list[str]:
        """Apply a logged ``swiss_round``; returns the section's table ids (their views
        change: the round's assignments)."""
        name = str(body["section"])
        section, settings = self._section(name)
        number = int(body["round"])
        if number != self.drawn(name) + 1:
            raise ConfigError(Text.of("refusal.swiss_not_ready", section=name,
                                      drawn=self.drawn(name), round=number))
        try:
            drawn = [Pairing(number, int(h), None if a is None else int(a))
                     for h, a in body["pairings"]]
            movement = settings.movement([*self.pairings[name], *drawn])
        except (TypeError, ValueError) as err:
            raise ConfigError(Text.of("refusal.swiss_round_bad", section=name, round=number,
                                      detail=Text.plain(str(err)))) from err
        self.pairings[name].extend(drawn)
        self.drawn_by[name].append(str(body.get("by", "")))
        section.movement = movement
        self.room.movement_changed(name)
        log.info("section %s: Swiss round %d drawn (%s): %s", name, number, body.get("by"),
                 ", ".join(f"{h} v {a}" if a is not None else f"{h} bye"
                           for h, a in body["pairings"]))
        return list(section.tables)

    # The console ----------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """Every Swiss section: its settings, the rounds drawn with their matches (tables
        and VPs) and the standings (``GET /api/swiss``, docs/console-api.md)."""
        sections = []
        for name, pairings in self.pairings.items():
            section, settings = self._section(name)
            scores = {(m.round, m.home): m for m in self.matches(name)}
            table = self._tables(section, settings)
            rounds = []
            for number in range(1, self.drawn(name) + 1):
                matches = []
                for p in pairings:
                    if p.round != number:
                        continue
                    m = scores.get((p.round, p.home))
                    matches.append({
                        "home": p.home, "away": p.away,
                        "tables": table.get((number, p.home), []),
                        "boards": 0 if m is None else m.boards,
                        "imps": None if m is None or not m.boards else
                        [round(sum(m.home_imps), 2), round(sum(m.away_imps), 2)],
                        "vp": None if m is None or not m.boards else
                        [m.vp(m.home), m.vp(m.away)]})
                rounds.append({"round": number, "by": self.drawn_by[name][number - 1],
                               "complete": self.complete(name, number), "matches": matches})
            sections.append({
                "section": name, "kind": "swiss_teams" if settings.teams else "swiss_pairs",
                "entrants": settings.entrants, "rounds": settings.rounds,
                "boards_per_round": settings.boards_per_round, "bye_vp": settings.bye_vp,
                "seed": settings.seed, "drawn": self.drawn(name),
                "names": {str(c): list(names) for c, names in
                          self._names(section, settings).items()},
                "pairings": rounds,
                "standings": [s.to_json() for s in self.standings(name)]})
        return {"v": 1, "sections": sections}

    @staticmethod
    def _tables(section: Section, settings: SwissSettings) -> dict[tuple[int, int], list[str]]:
        """(round, contestant) -> the hub ids of the tables of its match."""
        out: dict[tuple[int, int], list[str]] = {}
        movement = section.movement
        if movement is None:
            return out
        for a in movement.assignments:
            for pair in (a.ns, a.ew):
                if pair is not None:
                    out.setdefault((a.round, settings.contestant(pair)), []).append(
                        section.ids.get(a.table, str(a.table)))
        return out

    @staticmethod
    def _names(section: Section, settings: SwissSettings) -> dict[int, list[str]]:
        out: dict[int, list[str]] = {}
        for pair, names in sorted(section.pairs.items()):
            out.setdefault(settings.contestant(pair), []).extend(names)
        return out

    def snapshot(self) -> dict[str, Any]:
        return {name: [[*p.to_json(), p.round] for p in pairings]
                for name, pairings in self.pairings.items()}
