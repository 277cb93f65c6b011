"""A section of an event's set-up (:class:`SectionSetup`): its movement and its parameters,
its boards and tables, checked as a whole (every problem said), and its JSON; the room's
:class:`hub.section.Section` is built from it. :func:`read_sections` reads them from the
event's ``[[section]]`` tables (a TOML file's, the console's, or the log's JSON), for
:mod:`hub.event`, which holds them in its :class:`hub.event.EventSetup`.
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any, TypeVar

from bridgecore.errors import RuleError
from bridgecore.individual import IndividualMovement, rainbow_individual
from bridgecore.movement_files import read_asc, read_individual_asc
from bridgecore.movements import Movement, howell, mitchell, ranges, teams
from bridgecore.record import RecordProblem
from bridgecore.swiss_standings import BYE_VP
from bridgecore.text import Text
from hub.console_i18n import plural, say
from hub.errors import ConfigError
from hub.event_values import (
    Problem,
    _arrow_switch,
    _bool,
    _bye_vp,
    _fail,
    _int,
    _Keys,
    _optional,
    _shown,
    _text,
    _texts,
    nested,
)
from hub.room import Section
from hub.section import SwissSettings
from hub.texts import movement_text, render
from wire.protocol import ProtocolError, topic_state

__all__ = ["MAX_MOVEMENT_FILE", "MOVEMENTS", "SectionSetup", "movement_file", "read_sections"]

MOVEMENTS = ("mitchell", "howell", "teams", "swiss_pairs", "swiss_teams", "individual")
"""The movement kinds a section can have (:mod:`bridgecore.movements`; the Swiss ones,
drawn round by round: :mod:`bridgecore.swiss`, :mod:`hub.swiss`); besides them a pairs
movement read from a club's ``.ASC`` file (``movement_file``,
:mod:`bridgecore.movement_files`: kind ``"file"``). An ``individual`` is
:func:`bridgecore.individual.rainbow_individual` for ``players`` (4·T, T prime to 6), or the
individual ``.ASC`` file of ``movement_file``."""
SWISS = ("swiss_pairs", "swiss_teams")
MAX_MOVEMENT_FILE = 256 * 1024   # characters of an .ASC file (a 30-table movement: ~20 kB)


def movement_file(keys: _Keys, base: Path | None) -> tuple[str | None, str]:
    """(the .ASC text, its file name) of a section's ``movement_file`` (read relative to
    ``base``) or ``movement_asc`` (the text itself, as the log keeps it); (None, "")."""
    name = keys.get("movement_file", _text, "")
    text = keys.get("movement_asc", _optional(_text), None)
    if text is not None or not name:
        return text, name
    if base is None:
        keys.bad("movement_file", "give the file's text (movement_asc) here")
        return None, name
    path = base / name
    try:
        if path.stat().st_size > MAX_MOVEMENT_FILE:
            keys.bad("movement_file", f"{name}: larger than a movement file "
                                      f"({MAX_MOVEMENT_FILE} bytes)")
            return None, name
        data = path.read_bytes()
    except OSError as err:
        keys.bad("movement_file", f"{name}: {err.strerror or err}")
        return None, name
    try:
        return data.decode("utf-8-sig"), name
    except UnicodeDecodeError:
        return data.decode("iso-8859-1"), name


@dataclass(frozen=True, slots=True)
class SectionSetup:
    """One section: its movement and parameters, its table ids and its players.

    ``tables`` is the size of a Mitchell or a Howell, ``teams`` that of a teams movement;
    kind ``"file"`` is a pairs movement read from the text of a club's ``.ASC`` file
    (``asc``, named ``asc_name``), with its ``boards_per_round``.
    ``table_ids`` name the tables in order (default: the section name and the number);
    ``pairs`` maps pair numbers to their players. The :class:`Movement` is built here
    (``movement``); a section that cannot be raises ConfigError naming the key.

    An ``individual`` seats ``players`` players (4 a table) who change partner each round,
    or those of an individual ``.ASC`` file (``asc``); its ``individual`` is the schedule by
    seat, its ``movement`` the partnerships of it
    (:meth:`bridgecore.individual.IndividualMovement.as_pairs`); ``pairs`` then maps
    player numbers to their names.

    A Swiss section (``swiss_teams``: ``teams`` teams; ``swiss_pairs``: ``entrants`` pairs)
    plays ``rounds`` rounds (required) drawn one by one (hub.swiss): round 1 by seeding, or
    drawn with ``seed``; a bye scores ``bye_vp`` VPs (12) or ``"average"``. Its
    ``movement`` is round 1's; its tables are enough for every match of a round.
    """

    name: str
    kind: str = "mitchell"
    tables: int | None = None
    teams: int | None = None
    boards_per_round: int = 2
    rounds: int | None = None
    relay: bool = False
    arrow_switch: bool | tuple[int, ...] = False
    missing_pair: int | None = None
    duplicated: bool = True
    table_ids: tuple[str, ...] | None = None
    pairs: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    entrants: int | None = None
    seed: int | None = None
    bye_vp: float | str = BYE_VP
    asc: str | None = None
    asc_name: str = ""
    players: int | None = None
    movement: Movement = field(init=False, repr=False, compare=False)
    individual: IndividualMovement | None = field(init=False, repr=False, compare=False,
                                                  default=None)

    def __post_init__(self) -> None:
        if not isinstance(self.arrow_switch, bool):
            object.__setattr__(self, "arrow_switch", tuple(self.arrow_switch))
        if self.table_ids is not None:
            object.__setattr__(self, "table_ids", tuple(self.table_ids))
        object.__setattr__(self, "pairs", MappingProxyType(
            {p: (names,) if isinstance(names, str) else tuple(names)
             for p, names in sorted(self.pairs.items())}))
        problems = self._parameter_problems()
        if not problems:
            try:
                object.__setattr__(self, "movement", self._build())
            except (MovementFileError, RuleError) as err:   # its text (hub.console_setup)
                problems.append(Problem("movement", err.text) if err.text is not None
                                else f"movement: {err}")
            except ValueError as err:
                problems.append(f"movement: {err}")
            else:
                problems += self._seating_problems()
        if problems:
            raise _fail(problems, f"section {self.name!r}")

    def _parameter_problems(self) -> list[str]:
        out: list[str] = []
        if not self.name:
            out.append(Problem("name", Text.of("setup_error.section_name")))
        if self.kind == "individual":
            return out + self._individual_problems()
        if self.kind == "file" or self.asc is not None:
            return out + self._file_problems()
        if self.players is not None:
            out.append(Problem("players", Text.of("setup_error.individual_only")))
        if self.kind not in MOVEMENTS:
            out.append(Problem("movement", Text.of("setup_error.unknown_movement",
                                                   movement=f"{self.kind!r:.40}")))
            return out
        what = {"mitchell": Text.of("setup_what.mitchell"),
                "howell": Text.of("setup_what.howell"), "teams": Text.of("setup_what.teams"),
                "swiss_pairs": Text.of("setup_what.swiss_pairs"),
                "swiss_teams": Text.of("setup_what.swiss_teams")}
        only = {"relay": ("mitchell",), "arrow_switch": ("mitchell",),
                "missing_pair": ("mitchell", "howell"),
                "rounds": ("mitchell", "howell", *SWISS),
                "tables": ("mitchell", "howell"), "teams": ("teams", "swiss_teams"),
                "entrants": ("swiss_pairs",), "seed": SWISS, "bye_vp": SWISS}
        given = {"relay": self.relay, "arrow_switch": self.arrow_switch,
                 "missing_pair": self.missing_pair is not None,
                 "rounds": self.rounds is not None, "tables": self.tables is not None,
                 "teams": self.teams is not None, "entrants": self.entrants is not None,
                 "seed": self.seed is not None, "bye_vp": self.bye_vp != BYE_VP}
        for key, kinds in only.items():
            if given[key] and self.kind not in kinds:
                out.append(Problem(key, Text.of("setup_error.not_for", what=what[self.kind])))
        if not self.duplicated and self.kind != "teams":
            out.append(Problem("duplicated", Text.of("setup_error.duplicated",
                                                     what=what[self.kind])))
        size = {"teams": "teams", "swiss_teams": "teams",
                "swiss_pairs": "entrants"}.get(self.kind, "tables")
        if getattr(self, size) is None:
            out.append(Problem(size, Text.of("setup_error.needs_number", what=what[self.kind],
                                             size=size)))
        if self.kind in SWISS:
            if self.rounds is None:
                out.append(Problem("rounds", Text.of("setup_error.needs_rounds",
                                                     what=what[self.kind])))
            count = getattr(self, size)
            if count is not None and count < 2:
                out.append(Problem(size, Text.of("setup_error.at_least_two",
                                                 what=what[self.kind], count=count)))
            if count is not None and self.rounds is not None and self.rounds >= count + count % 2:
                out.append(Problem("rounds", Text.of(
                    "setup_error.rematch", rounds=self.rounds, count=count, size=size,
                    most=count + count % 2 - 1)))
            if not (self.bye_vp == "average" or (isinstance(self.bye_vp, (int, float))
                                                 and not isinstance(self.bye_vp, bool)
                                                 and 0 <= self.bye_vp <= 20)):
                out.append(Problem("bye_vp", Text.of("setup_error.bye_vp",
                                                     value=f"{self.bye_vp!r:.40}")))
        if self.boards_per_round < 1:
            out.append(Problem("boards_per_round", Text.of(
                "setup_error.at_least", least=1, value=self.boards_per_round)))
        return out

    def _individual_problems(self) -> list[str]:
        out: list[str] = []
        given = [key for key, value in (
            ("tables", self.tables), ("teams", self.teams), ("missing_pair", self.missing_pair),
            ("entrants", self.entrants), ("seed", self.seed)) if value is not None]
        given += [key for key, value in (("relay", self.relay),
                                         ("arrow_switch", self.arrow_switch),
                                         ("duplicated", not self.duplicated),
                                         ("bye_vp", self.bye_vp != BYE_VP)) if value]
        out += [Problem(key, Text.of("setup_error.not_for_individual")) for key in given]
        if self.asc is not None:
            if self.players is not None or self.rounds is not None:
                out.append(Problem("players, rounds", Text.of("setup_error.not_with_file")))
            if len(self.asc) > MAX_MOVEMENT_FILE:
                out.append(Problem("movement_file", Text.of(
                    "setup_error.file_chars", n=len(self.asc), most=MAX_MOVEMENT_FILE)))
        elif self.players is None:
            out.append(Problem("players", Text.of("setup_error.players_needed")))
        elif self.players % 4:
            out.append(Problem("players", Text.of("setup_error.players_four", n=self.players)))
        if self.boards_per_round < 1:
            out.append(Problem("boards_per_round", Text.of(
                "setup_error.at_least", least=1, value=self.boards_per_round)))
        return out

    def _individual(self) -> IndividualMovement:
        """The individual schedule: the file's (every problem of it named) or the rainbow's."""
        if self.asc is None:
            assert self.players is not None
            return rainbow_individual(self.players // 4, rounds=self.rounds,
                                      boards_per_round=self.boards_per_round)
        name = self.asc_name or "movement file"
        movement = _whole(name, *read_individual_asc(
            self.asc, boards_per_round=self.boards_per_round, file=name))
        return replace(movement, name=f"individual movement file {name}")

    def _file_problems(self) -> list[str]:
        out: list[str] = []
        if self.kind != "file" or self.asc is None:
            out.append(Problem("movement_file", Text.of("setup_error.give_file")))
            return out
        given = [key for key, value in (
            ("tables", self.tables), ("teams", self.teams), ("rounds", self.rounds),
            ("missing_pair", self.missing_pair), ("entrants", self.entrants),
            ("seed", self.seed)) if value is not None]
        given += [key for key, value in (("relay", self.relay),
                                         ("arrow_switch", self.arrow_switch),
                                         ("duplicated", not self.duplicated),
                                         ("bye_vp", self.bye_vp != BYE_VP)) if value]
        out += [Problem(key, Text.of("setup_error.not_for_file")) for key in given]
        if len(self.asc) > MAX_MOVEMENT_FILE:
            out.append(Problem("movement_file", Text.of(
                "setup_error.file_chars", n=len(self.asc), most=MAX_MOVEMENT_FILE)))
        if self.boards_per_round < 1:
            out.append(Problem("boards_per_round", Text.of(
                "setup_error.at_least", least=1, value=self.boards_per_round)))
        return out

    def _from_file(self) -> Movement:
        """The movement of the ``.ASC`` text; ValueError naming every problem of the file
        (the hub plays no movement its file does not wholly give)."""
        assert self.asc is not None
        name = self.asc_name or "movement file"
        movement = _whole(name, *read_asc(self.asc, boards_per_round=self.boards_per_round,
                                          file=name))
        return replace(movement, name=f"movement file {name}")

    def _build(self) -> Movement:
        if self.kind == "individual":
            individual = self._individual()
            object.__setattr__(self, "individual", individual)
            return individual.as_pairs()
        if self.kind == "file":
            return self._from_file()
        bpr = self.boards_per_round
        if self.kind == "mitchell":
            assert self.tables is not None
            return mitchell(self.tables, boards_per_round=bpr, rounds=self.rounds,
                            relay=self.relay, arrow_switch=self.arrow_switch,
                            missing_pair=self.missing_pair)
        if self.kind == "howell":
            assert self.tables is not None
            return howell(self.tables, boards_per_round=bpr, rounds=self.rounds,
                          missing_pair=self.missing_pair)
        swiss = self.swiss
        if swiss is not None:
            return swiss.movement(swiss.first())
        assert self.teams is not None
        return teams(self.teams, boards_per_round=bpr, duplicated=self.duplicated)

    @property
    def swiss(self) -> SwissSettings | None:
        """A Swiss section's settings (hub.swiss), else None."""
        if self.kind not in SWISS:
            return None
        count = self.teams if self.kind == "swiss_teams" else self.entrants
        assert count is not None and self.rounds is not None
        return SwissSettings(self.kind == "swiss_teams", count, self.rounds,
                             self.boards_per_round, self.seed, self.bye_vp)

    def _seating_problems(self) -> list[str]:
        out: list[str] = []
        m = self.movement
        if self.missing_pair is not None and not 1 <= self.missing_pair <= 2 * m.tables:
            out.append(Problem("missing_pair", Text.of(
                "setup_error.missing_pair", pair=self.missing_pair, movement=m.name,
                most=2 * m.tables)))
        ids = self.ids
        if len(ids) != m.tables:
            out.append(Problem("table_ids", Text.of("setup_error.ids_count", n=len(ids),
                                                    tables=m.tables, movement=m.name)))
        seen: set[str] = set()
        for tid in ids:
            if tid in seen:
                out.append(Problem("table_ids", Text.of("setup_error.id_twice",
                                                        id=f"{tid!r:.40}")))
            seen.add(tid)
            try:
                topic_state(tid)
            except ProtocolError:
                key = "table_ids" if self.table_ids is not None else "name"
                out.append(Problem(key, Text.of("setup_error.id_topic", id=f"{tid!r:.40}")))
        known = m.pairs if self.individual is None else self.individual.players
        for pair, names in self.pairs.items():
            if self.individual is not None and pair not in known:
                out.append(Problem("pairs", Text.of("setup_error.player_absent", pair=pair,
                                                    movement=m.name, players=ranges(known))))
            elif pair not in known:
                out.append(Problem("pairs", Text.of("setup_error.pair_absent", pair=pair,
                                                    movement=m.name, pairs=ranges(m.pairs))))
            if not 1 <= len(names) <= 2 or not all(isinstance(n, str) and n.strip()
                                                   for n in names):
                out.append(Problem("pairs", Text.of("setup_error.pair_names", pair=pair,
                                                    names=[str(n)[:40] for n in names][:6]
                                                    + (["…"] if len(names) > 6 else []))))
        return out

    @property
    def ids(self) -> tuple[str, ...]:
        """The hub table ids, table 1 first."""
        if self.table_ids is not None:
            return self.table_ids
        return tuple(f"{self.name}{t}" for t in range(1, self.movement.tables + 1))

    def room_section(self, scoring: str = "") -> Section:
        """The :class:`hub.room.Section` of this section, scored by ``scoring`` (the
        event's, :data:`SCORINGS`; "" for the movement's)."""
        if self.kind == "swiss_pairs" and scoring in ("", "matchpoints"):
            scoring = "imps"   # a Swiss pairs match is IMPs against the datum (hub.swiss)
        return Section(self.name, self.movement, tables=list(self.ids),
                       pairs=dict(self.pairs), scoring=scoring, swiss=self.swiss,
                       individual=self.individual)

    def summary(self, language: str = "en") -> list[str]:
        """This section for the director, in ``language`` (hub/locale)."""
        m = self.movement
        ids = self.ids
        size = (say(language, "section.teams", teams=self.teams, pairs=ranges(m.pairs),
                    tables=m.tables)
                if self.kind in ("teams", "swiss_teams")
                else plural(language, "section.players", len(self.individual.players))
                if self.individual is not None
                else plural(language, "section.pairs", len(m.pairs)))
        lines = [say(language, "section.line", name=self.name,
                     movement=movement_text(m.name, language), size=size,
                     rounds=plural(language, "section.rounds", m.rounds),
                     boards=plural(language, "section.boards", m.boards_per_round),
                     numbers=ranges(m.boards)),
                 say(language, "section.tables", tables=", ".join(ids))]
        half = m.tables // 2
        if self.kind == "mitchell" and m.tables % 2 == 0:
            if self.relay:
                lines.append(say(language, "section.relay", before=ids[half - 1],
                                 after=ids[half]))
            elif m.rounds > half:
                lines.append(say(language, "section.skip", round=half + 1))
        for group in m.shared_tables:
            names = ", ".join(ids[t - 1] for t in sorted(group))
            if self.kind == "mitchell":
                why = "section.why_relay"
            elif self.kind == "howell":
                why = "section.why_howell"
            elif len(group) == 2:
                why = "section.why_match"
            else:
                why = "section.why_teams"
            lines.append(say(language, "section.shared", tables=names,
                             why=say(language, why)))
        if self.kind in SWISS:
            first = (say(language, "section.swiss_seeded") if self.seed is None
                     else say(language, "section.swiss_seed", seed=self.seed))
            bye = (say(language, "section.swiss_average") if self.bye_vp == "average"
                   else f"{self.bye_vp:g}")
            lines.append(say(language, "section.swiss", first=first, bye=bye))
        if self.missing_pair is not None:
            lines.append(say(language, "section.absent", pair=self.missing_pair))
        if self.pairs:
            lines.append(say(language, "section.named", named=len(self.pairs),
                             pairs=len(m.pairs)))
        if self.kind == "file":     # a club's own schedule: what the director must know
            lines += [say(language, "section.movement_problem", problem=render(t, language))
                      for t in m.problem_texts()]
        return lines

    # JSON ----------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name, "movement": self.kind, "tables": self.tables,
            "teams": self.teams, "boards_per_round": self.boards_per_round,
            "rounds": self.rounds, "relay": self.relay,
            "arrow_switch": (self.arrow_switch if isinstance(self.arrow_switch, bool)
                             else list(self.arrow_switch)),
            "missing_pair": self.missing_pair, "duplicated": self.duplicated,
            "table_ids": None if self.table_ids is None else list(self.table_ids),
            "pairs": {str(p): list(names) for p, names in self.pairs.items()},
            **({"entrants": self.entrants, "seed": self.seed, "bye_vp": self.bye_vp}
               if self.kind in SWISS else {}),
            **({"movement_file": self.asc_name, "movement_asc": self.asc}
               if self.kind == "file" or self.asc is not None else {}),
            **({"players": self.players} if self.kind == "individual" else {}),
        }


_M = TypeVar("_M", Movement, IndividualMovement)


class MovementFileError(ValueError):
    """A movement file the hub cannot play: every problem of it, in English (the message)
    and as a text (``text``: a list of the lines' problems, each a message)."""

    def __init__(self, text: Text):
        super().__init__(render(text, "en"))
        self.text = text


def _whole(name: str, movement: _M | None, problems: Sequence[RecordProblem]) -> _M:
    """``movement`` read from the file ``name`` when the file gave it whole:
    MovementFileError naming every problem of the file otherwise (the hub plays no movement
    its file does not wholly give)."""
    if problems or movement is None:
        raise MovementFileError(Text.of("setup_error.movement_file", problems=[
            Text.of("setup_error.movement_line", file=name, line=p.line,
                    problem=p.text or Text.plain(p.message)) if p.line else
            Text.of("setup_error.movement_problem", file=name,
                    problem=p.text or Text.plain(p.message))
            for p in problems] or [Text.of("setup_error.no_movement", file=name)]))
    if not any(a.plays for a in movement.assignments):
        raise MovementFileError(Text.of("setup_error.no_table_plays", file=name))
    return movement


# A section's table read ---------------------------------------------------------------------


def _pairs(keys: _Keys) -> dict[int, tuple[str, ...]]:
    raw = keys.raw("pairs")
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        keys.bad("pairs", f"a table of pair number = [names] is expected, not {_shown(raw)}")
        return {}
    out: dict[int, tuple[str, ...]] = {}
    for number, names in raw.items():
        key = f"pairs.{number}"
        if not str(number).isdecimal() or int(number) < 1:
            keys.bad(key, "pair numbers are whole numbers from 1")
        elif isinstance(names, str):
            out[int(number)] = (names,)
        elif isinstance(names, list) and all(isinstance(n, str) for n in names):
            out[int(number)] = tuple(names)
        else:
            keys.bad(key, f"a name or a list of names is expected, not {_shown(names)}")
    return out


def _section(keys: _Keys, default_name: str, base: Path | None = None
             ) -> SectionSetup | None:
    """A SectionSetup from a [[section]] table; None (problems noted) if it cannot be."""
    start = len(keys.problems)
    name = keys.get("name", _text, default_name)
    asc, asc_name = movement_file(keys, base)
    kind = keys.get("movement", _text, "file" if asc is not None or asc_name else "")
    if not keys.has("movement") and kind != "file":
        keys.bad("movement", "missing: mitchell, howell, teams, swiss_pairs, swiss_teams or "
                             "individual (or a movement_file)")
    params: dict[str, Any] = {
        "tables": keys.get("tables", _optional(_int(1)), None),
        "teams": keys.get("teams", _optional(_int(1)), None),
        "boards_per_round": keys.get("boards_per_round", _int(1), 2),
        "rounds": keys.get("rounds", _optional(_int(1)), None),
        "relay": keys.get("relay", _bool, False),
        "arrow_switch": keys.get("arrow_switch", _arrow_switch, False),
        "missing_pair": keys.get("missing_pair", _optional(_int(1)), None),
        "duplicated": keys.get("duplicated", _bool, True),
        "table_ids": keys.get("table_ids", _optional(_texts), None),
        "pairs": _pairs(keys),
        "entrants": keys.get("entrants", _optional(_int(1)), None),
        "seed": keys.get("seed", _optional(_int(0)), None),
        "bye_vp": keys.get("bye_vp", _bye_vp, 12.0),
        "players": keys.get("players", _optional(_int(4)), None),
    }
    keys.done()
    if len(keys.problems) > start:
        return None
    try:
        return SectionSetup(name, kind, asc=asc, asc_name=asc_name, **params)
    except ConfigError as err:
        keys.problems.append(nested(keys.where, err))
        return None


def read_sections(value: Any, problems: list[str], key: str, base: Path | None = None
              ) -> list[SectionSetup] | None:
    if isinstance(value, Mapping):
        value = [value]  # a single [section] table
    if not isinstance(value, list) or not value:
        problems.append(f"{key}: no section: give at least one [[section]] with its movement")
        return None
    names = iter(string.ascii_uppercase)
    out = [_section(_Keys(v, f"{key}[{i}]", problems), next(names, f"S{i}"), base)
           for i, v in enumerate(value, 1)]
    return None if any(s is None for s in out) else [s for s in out if s is not None]
