"""The event set-up: sections, movements, pairs and players, the boards and the Laws edition.

:class:`EventSetup` is what the hub must know before the first card: for each section its
movement (which pairs and which boards belong at each table in each round), its table ids
and its players, and the deal of every board played. It comes from a TOML file
(:meth:`EventSetup.load`), from the command line (:meth:`EventSetup.quick`, ``tenace hub
--tables 12``) or from the first record of an event log (:meth:`EventSetup.from_json`: the
hub logs :meth:`EventSetup.to_json` as the fact ``event_setup`` and rebuilds from the log
alone). The director's console builds the same tables a TOML file holds and reads them
with the same :func:`read_document` (hub.console_setup), so both give the same set-up and
name a bad key the same way. :meth:`EventSetup.build_room` makes the :class:`hub.room.Room`;
:meth:`EventSetup.summary` gives the lines a director reads on start. A hub started on an
empty data directory with no event runs a :class:`WaitingSetup` (a room without tables)
until the director sets the event up; :func:`setup_from_json` reads either back from the
log.

The TOML file (every key but the sections' ``movement`` and size is optional)::

    [event]
    name = "Monday pairs"
    session = "Evening"
    date = "2026-11-26"           # the session's date (ISO), none by default
    scoring = "matchpoints"       # "matchpoints", "imps" (against a datum), "butler" (the
                                  # datum without the top and bottom scores) or "cross-imps":
                                  # how the pairs sections are scored (the live ranking, the
                                  # travellers, the results files); a teams section is always
                                  # IMPs between its two rooms (victory points in a round
                                  # robin). Default: by the movement (matchpoints for pairs)
    live = true                   # the club shows scores as results arrive (default true)
    edition = "2017"              # Laws edition: "1997", "2007" or "2017" (default)
    minutes_per_round = 15        # default 15
    strict = false                # true: every table in strict mode; or ["A1", "B3"]
    clock_tolerance = 120         # seconds a device clock may be off (default); false: no check
    conventions = "ebu"           # the scoring conventions of a federation where they differ
                                  # (bridgecore.conventions, docs/scoring.md): "ebu", "acbl",
                                  # "ffb" or "wbf"; default "": what the Laws and all agree on
    language = "fr"               # the event's language: the words of its results files and
                                  # travellers (docs/translating.md): "en" (default), "fr",
                                  # "it", "de", "nl", "es", "pl"
    alerting = "ebu"              # who explains alerted calls (hub.explain): "ebu" (default),
                                  # "acbl", "ffb" (partner explains), "screens" (the caller)
    part = 2                      # an event of several sessions (hub.series): this session's
                                  # place in the event ``name`` names (0, the default: a
                                  # session on its own)
    carry = 0.5                   # a final: the share of the earlier sessions' margin over
                                  # 50% carried over (absent: the sessions add up)
    carry_form = "margin"         # or "place": the qualifying's first carries ``carry``
                                  # points, the last none, linear by place
    one_field = false             # true: the pairs sections are one field, each board's
                                  # results matchpointed across every section (hub.field,
                                  # results/field) besides each section's own ranking
    shards = 1                    # hub processes sharing the sections (hub.shards): tenace
                                  # hub --shard K runs shard K; 1 (default): one process

    [boards]                      # without it: secure random deals for the boards played
    file = "monday.pbn"           # .pbn, .dlm or .dup (also .bri, .dge), relative to this file;
                                  # a PBN's Dealer and Vulnerable tags are the boards' markings
                                  # (deal files have none: Law 2 by the number)
    format = "dlm"                # only when the extension does not say it
    # or, instead of file:
    generate = "1-24"             # deal these boards ("1-24", 24 for 1-24, or true: the
                                  # boards the movements play, the default)
    seed = "0123...cdef"          # BigDeal seed, 40 hex digits: the same deals every time,
    owner = "Tenace"              # with BigDeal's owner string (default "Tenace")

    [[section]]                   # one per section, counted from 1 in error messages
    name = "A"                    # default "A", "B", ... in order
    movement = "mitchell"         # "mitchell", "howell", "teams", "swiss_pairs", "swiss_teams"
    tables = 8                    # mitchell, howell (2 to 8 tables)
    teams = 4                     # teams, swiss_teams: teams of four, team k is pairs 2k-1, 2k
    entrants = 12                 # swiss_pairs: the number of pairs
    seed = 7                      # swiss: round 1 drawn at random from this seed (default:
                                  # by seeding, 1 v 2, 3 v 4...); later rounds by the standings
    bye_vp = 12                   # swiss: VPs of a bye (default 12), or "average"
    boards_per_round = 2          # default 2
    rounds = 6                    # mitchell, howell: fewer rounds than the whole movement;
                                  # swiss: the number of rounds (required)
    relay = false                 # mitchell, even tables: relay and bye-stand, not the skip
    arrow_switch = false          # mitchell: true (the last round) or a list of rounds
    missing_pair = 16             # mitchell, howell: a pair that is absent (a sit-out)
    duplicated = true             # teams: every match of a round plays the same boards
    table_ids = ["A1", "A2"]      # hub table ids, one per table (default name + number)
    # movement_file = "howell7.asc"  instead of movement: the club's Dutch .ASC pairs movement
    #                               (relative to this file; with boards_per_round, table_ids
    #                               and pairs only); the log keeps its text (movement_asc)
    # movement = "individual"       players = 20 (4 a table, 5, 7, 11.. tables): each player
    #                               changes partner each round; or an individual movement_file

    [section.pairs]               # pair number -> its players (one or two names)
    1 = ["First Player", "Second Player"]

A Mitchell with an even number of tables takes the skip unless ``relay = true``. In a teams
section both rooms of a match play the same boards in the same round (the tables share
boards). Board numbers are the movement's (set ``s`` holds boards ``(s-1)*bpr+1 ..
s*bpr``); sections playing the same board numbers play the same deals. Only the boards the
movements play are kept from a board file. The ``[boards]`` table is read, and the deals
made, in :mod:`hub.event_boards`; each ``[[section]]`` table in
:func:`hub.section_setup.read_sections`.

Every problem is a :class:`hub.errors.ConfigError` naming the file, the key and what is
wrong, all the problems found at once (unknown key or movement, a bad edition, board
numbers the movements play that the board file lacks, the problems of the board file).
Nothing in a bad file gives a traceback.

The JSON form (:meth:`EventSetup.to_json`) mirrors the TOML layout: ``{"v": 1, "event":
{...}, "section": [{...}], "boards": {"source": text, "deals": {"1": "N:..."}}}``, every
key written, every deal a PBN deal string, and ``"markings": {"5": {"dealer": "W",
"vulnerability": "All"}}`` in ``boards`` only when the hand record marks a board otherwise
than Law 2; ``from_json(to_json())`` is the same set-up.

Law 2: a board's markings govern. The dealer and vulnerability a table plays and is scored
with are the hand record's (PBN ``Dealer`` and ``Vulnerable``); where they contradict the
board number's, :meth:`EventSetup.summary` says so at start and the table that takes the
board out raises a ``board_markings`` alert (:mod:`hub.table_seating`).
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from bridgecore.deal import Deal
from bridgecore.editions import edition as laws_edition
from bridgecore.errors import BridgeError
from bridgecore.markings import Markings
from bridgecore.movements import ranges
from hub.console_i18n import date_text, language_name, say
from hub.errors import ConfigError
from hub.event_boards import DEFAULT_OWNER, boards_lacking, generate_deals, read_boards
from hub.event_values import (  # the tables' values, checked (hub.event_values)
    BOARD_NUMBERS,
    SCORINGS,
    _alerting,
    _Bad,
    _bool,
    _carry,
    _carry_form,
    _conventions,
    _date,
    _edition,
    _fail,
    _int,
    _Keys,
    _language,
    _number,
    _optional,
    _scoring,
    _seed,
    _shown,
    _strict,
    _text,
    _tolerance,
)
from hub.explain import DEFAULT_REGULATION
from hub.room import Room
from hub.section_setup import MOVEMENTS, SectionSetup, read_sections
from hub.texts import deal_source

__all__ = ["JSON_VERSION", "MOVEMENTS", "SCORINGS", "EventSetup",
           "SectionSetup", "WaitingSetup", "read_document", "setup_from_json"]

JSON_VERSION = 1


# Reading TOML and JSON tables -------------------------------------------------------------


def _event_fields(keys: _Keys) -> dict[str, Any]:
    out = {
        "name": keys.get("name", _text, ""),
        "session": keys.get("session", _text, ""),
        "date": keys.get("date", _date, ""),
        "scoring": keys.get("scoring", _scoring, ""),
        "live": keys.get("live", _bool, True),
        "edition": keys.get("edition", _edition, "2017"),
        "minutes_per_round": keys.get("minutes_per_round", _number, 15.0),
        "strict": keys.get("strict", _strict, False),
        "clock_tolerance": keys.get("clock_tolerance", _tolerance, 120.0),
        "alerting": keys.get("alerting", _alerting, DEFAULT_REGULATION),
        "conventions": keys.get("conventions", _conventions, ""),
        "language": keys.get("language", _language, ""),
        "part": keys.get("part", _int(0), 0),
        "carry": keys.get("carry", _carry, None),
        "carry_form": keys.get("carry_form", _carry_form, "margin"),
        "one_field": keys.get("one_field", _bool, False),
        "shards": keys.get("shards", _int(1), 1),
    }
    keys.done()
    return out


# The set-up -------------------------------------------------------------------------------


def read_document(doc: Mapping[str, Any], base: Path) -> tuple[EventSetup | None, list[str]]:
    """The set-up of a TOML event file's document (``tomllib.loads``, or the same tables
    built another way: hub.console_setup), board files relative to ``base``; else None and
    every problem, each ``key: what is wrong`` (``section[1].tables: ...``, sections counted
    from 1; a section's own problems ``section[1]: section 'A': tables: ...``)."""
    problems: list[str] = []
    top = _Keys(doc, "", problems)
    fields = _event_fields(_Keys(top.raw("event") or {}, "event", problems))
    sections = read_sections(top.raw("section"), problems, "section", base)
    boards = top.raw("boards")
    top.done()
    deals = None
    if sections is not None:
        deals = read_boards(_Keys({} if boards is None else boards, "boards", problems),
                        base, sections)
    if problems or sections is None or deals is None:
        return None, problems or ["the event cannot be set up"]
    try:
        return EventSetup(tuple(sections), deals[0], boards_source=deals[1],
                          markings=deals[2], **fields), []
    except ConfigError as err:
        head, _, rest = str(err).partition(" problems:\n")
        if rest and head.isdecimal():
            return None, [line.strip() for line in rest.splitlines()]
        return None, [str(err)]


@dataclass(frozen=True, slots=True)
class EventSetup:
    """Everything the hub needs to run a session; see the module docstring.

    ``edition`` is the name of the Laws edition ("1997", "2007", "2017"); ``strict`` is
    True (every table), False, or the ids of the tables in strict mode; ``clock_tolerance``
    is the seconds a device clock may be off (None: no check); ``deals`` maps every board
    number the sections play to its deal; ``boards_source`` says where the deals came from;
    ``markings`` the dealer and vulnerability of the boards the hand record marks otherwise
    than Law 2 (their markings govern; the others are Law 2's). ``date`` (ISO, "" for none),
    ``scoring`` (one of :data:`SCORINGS`, "" for the movement's) and ``live`` are kept with
    the event for the director and the club's results; the live ranking does not read them.
    ``one_field``: the pairs sections ranked as one field too (hub.field); ``shards``: the
    hub processes that share the sections (hub.shards).
    """

    sections: tuple[SectionSetup, ...]
    deals: Mapping[int, Deal]
    name: str = ""
    session: str = ""
    edition: str = "2017"
    date: str = ""
    scoring: str = ""
    live: bool = True
    minutes_per_round: float = 15.0
    strict: bool | tuple[str, ...] = False
    clock_tolerance: float | None = 120.0
    alerting: str = DEFAULT_REGULATION
    conventions: str = ""
    language: str = ""            # the event's (hub.event_values._language): "" English
    boards_source: str = ""
    markings: Mapping[int, Markings] = field(default_factory=dict)
    part: int = 0
    carry: float | None = None
    carry_form: str = "margin"
    one_field: bool = False
    shards: int = 1

    def __post_init__(self) -> None:
        object.__setattr__(self, "sections", tuple(self.sections))
        object.__setattr__(self, "deals", MappingProxyType(dict(sorted(self.deals.items()))))
        object.__setattr__(self, "markings", MappingProxyType(
            {b: m for b, m in sorted(self.markings.items()) if m.law_2_differences(b)}))
        if not isinstance(self.strict, bool):
            object.__setattr__(self, "strict", tuple(self.strict))
        problems: list[str] = []
        for key, check in (("minutes_per_round", _number), ("clock_tolerance", _tolerance),
                           ("alerting", _alerting), ("conventions", _conventions),
                           ("language", _language),
                           ("date", _date), ("scoring", _scoring), ("live", _bool),
                           ("part", _int(0)), ("carry", _carry),
                           ("carry_form", _carry_form),
                           ("one_field", _bool), ("shards", _int(1))):
            try:
                object.__setattr__(self, key, check(getattr(self, key)))
            except _Bad as err:
                problems.append(f"event.{key}: {err}")
        if self.carry_form == "margin" and self.carry is not None and self.carry > 1:
            problems.append(f"event.carry: a share of the margin is from 0 to 1 (0.5: half "
                            f"the margin), not {self.carry:g}; give carry_form = \"place\" "
                            f"for the first's points")
        try:
            object.__setattr__(self, "edition", _edition(self.edition))
        except _Bad as err:
            problems.append(f"event.edition: {err}")
        problems += self._section_problems()
        if problems:
            raise _fail(problems)

    def _section_problems(self) -> list[str]:
        out: list[str] = []
        if not self.sections:
            return ["section: no section: give at least one with its movement"]
        names: set[str] = set()
        ids: dict[str, str] = {}
        for s in self.sections:
            if s.name in names:
                out.append(f"section {s.name!r}: two sections have this name")
            names.add(s.name)
            for tid in s.ids:
                if tid in ids and ids[tid] != s.name:
                    out.append(f"section {s.name!r}: table id {tid!r} is also in section "
                               f"{ids[tid]!r}")
                ids.setdefault(tid, s.name)
        if not isinstance(self.strict, bool):
            unknown = [t for t in self.strict if t not in ids]
            if unknown:
                out.append(f"event.strict: no table {', '.join(map(repr, unknown))} in the "
                           f"sections")
        lacking = boards_lacking(self.deals, self.sections)
        if lacking:
            out.append("boards: no deal for " + "; ".join(lacking))
        for b, deal in self.deals.items():
            if not isinstance(deal, Deal) or not deal.is_complete:
                detail = ("; ".join(map(str, deal.problems())) or "hands not given"
                          if isinstance(deal, Deal) else f"not a Deal: {_shown(deal)}")
                out.append(f"boards: board {b} is not a complete deal: {detail}")
        return out

    # Building -------------------------------------------------------------------------------
    @classmethod
    def load(cls, path: str | Path) -> EventSetup:
        """Read a TOML event file (see the module docstring); ConfigError names every
        problem with the file and the key."""
        p = Path(path)
        try:
            text = p.read_bytes().decode("utf-8")
        except OSError as err:
            raise ConfigError(f"{p}: cannot read the event file: {err.strerror or err}") \
                from err
        except UnicodeDecodeError as err:
            raise ConfigError(f"{p}: not UTF-8 text (byte {err.start})") from err
        try:
            doc = tomllib.loads(text)
        except tomllib.TOMLDecodeError as err:
            raise ConfigError(f"{p}: not valid TOML: {err}") from err
        setup, problems = read_document(doc, p.parent)
        if setup is None:
            raise _fail(problems, str(p))
        return setup

    @classmethod
    def quick(cls, *, tables: int, boards_per_round: int = 2, movement: str = "mitchell",
              rounds: int | None = None, relay: bool = False,
              deals: Mapping[int, Deal] | None = None, seed: str | bytes | None = None,
              owner: str = DEFAULT_OWNER, edition: str | int = "2017",
              minutes_per_round: float = 15.0, strict: bool | Iterable[str] = False,
              clock_tolerance: float | None = 120.0, name: str = "", session: str = "",
              section: str = "A", language: str = "") -> EventSetup:
        """One section of ``tables`` tables (a teams movement: ``tables`` teams, two
        tables a match), with ``deals`` or deals generated for the boards it plays
        (BigDeal with ``seed``, else secure random)."""
        problems: list[str] = []
        kind = str(movement).lower()
        if kind == "teams" and (isinstance(tables, int) and tables % 2):
            problems.append(f"tables: a teams movement needs an even number of tables "
                            f"(two a match), not {tables}")
        seed_bytes = None
        try:
            seed_bytes = _optional(_seed)(seed)
        except _Bad as err:
            problems.append(f"seed: {err}")
        if problems:
            raise _fail(problems)
        one = SectionSetup(section, kind, tables=None if kind == "teams" else tables,
                           teams=tables if kind == "teams" else None,
                           boards_per_round=boards_per_round, rounds=rounds, relay=relay)
        strict_value = strict if isinstance(strict, bool) else tuple(strict)
        common: dict[str, Any] = {"name": name, "session": session, "edition": edition,
                                  "minutes_per_round": minutes_per_round,
                                  "strict": strict_value, "clock_tolerance": clock_tolerance,
                                  "language": language}
        if deals is not None:
            return cls((one,), {b: d for b, d in deals.items() if b in one.movement.boards},
                       boards_source="deals given", **common)
        made, source = generate_deals(range(1, max(one.movement.boards) + 1), seed_bytes, owner)
        return cls((one,), {b: made[b] for b in one.movement.boards},
                   boards_source=source, **common)

    def build_room(self) -> Room:
        """A fresh :class:`hub.room.Room` for this set-up."""
        return Room([s.room_section(self.scoring) for s in self.sections], dict(self.deals),
                    minutes_per_round=self.minutes_per_round,
                    edition=laws_edition(self.edition), strict=self.strict,
                    clock_tolerance=self.clock_tolerance, markings=self.markings,
                    alerting=self.alerting, conventions=self.conventions,
                    language=self.language or "en")

    # JSON -------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The whole set-up, every deal included, as JSON values (the log's first record)."""
        return {
            "v": JSON_VERSION,
            "event": {"name": self.name, "session": self.session, "edition": self.edition,
                      "minutes_per_round": self.minutes_per_round,
                      "strict": (self.strict if isinstance(self.strict, bool)
                                 else list(self.strict)),
                      "clock_tolerance": self.clock_tolerance, **self._extras()},
            "section": [s.to_json() for s in self.sections],
            "boards": {"source": self.boards_source,
                       "deals": {str(b): d.pbn() for b, d in self.deals.items()},
                       **({"markings": {str(b): m.to_json() for b, m in self.markings.items()}}
                          if self.markings else {})},
        }

    def _extras(self) -> dict[str, Any]:
        """``date``, ``scoring``, ``live``, ``alerting``, ``part``, ``carry``, ``one_field``
        and ``shards`` when not their defaults (a log written before they existed holds the
        same set-up)."""
        out: dict[str, Any] = {}
        if self.date:
            out["date"] = self.date
        if self.scoring:
            out["scoring"] = self.scoring
        if not self.live:
            out["live"] = False
        if self.alerting != DEFAULT_REGULATION:
            out["alerting"] = self.alerting
        if self.conventions:
            out["conventions"] = self.conventions
        if self.language:
            out["language"] = self.language
        if self.part:
            out["part"] = self.part
        if self.carry is not None:
            out["carry"] = self.carry
        if self.carry_form != "margin":
            out["carry_form"] = self.carry_form
        if self.one_field:
            out["one_field"] = True
        if self.shards != 1:
            out["shards"] = self.shards
        return out

    @classmethod
    def from_json(cls, obj: Any) -> EventSetup:
        """The set-up :meth:`to_json` wrote; ConfigError for anything else."""
        where = "event set-up (JSON)"
        problems: list[str] = []
        if not isinstance(obj, Mapping):
            raise _fail([f"a table is expected, not {_shown(obj)}"], where)
        top = _Keys(obj, "", problems)
        version = top.raw("v")
        if version != JSON_VERSION:
            raise _fail([f"v: version {version!r} is not {JSON_VERSION}"], where)
        fields = _event_fields(_Keys(top.raw("event") or {}, "event", problems))
        sections = read_sections(top.raw("section"), problems, "section")
        boards = _Keys(top.raw("boards") or {}, "boards", problems)
        source = boards.get("source", _text, "")
        deals: dict[int, Deal] = {}
        raw = boards.raw("deals")
        raw_marks = boards.raw("markings") or {}
        boards.done()
        top.done()
        markings: dict[int, Markings] = {}
        if not isinstance(raw_marks, Mapping):
            boards.bad("markings", f"a table of board number -> markings is expected, not "
                                   f"{_shown(raw_marks)}")
            raw_marks = {}
        for number, marks in raw_marks.items():
            try:
                if not str(number).isdecimal():
                    raise _Bad(BOARD_NUMBERS)
                markings[int(number)] = Markings.from_json(marks)
            except (_Bad, BridgeError) as err:
                boards.bad(f"markings.{number}", getattr(err, "text", None) or str(err))
        if not isinstance(raw, Mapping):
            boards.bad("deals", f"a table of board number -> deal is expected, not "
                                f"{_shown(raw)}")
            raw = {}
        for number, text in raw.items():
            try:
                if not str(number).isdecimal():
                    raise _Bad(BOARD_NUMBERS)
                deals[int(number)] = Deal.parse(_text(text))
            except (_Bad, BridgeError) as err:
                boards.bad(f"deals.{number}", getattr(err, "text", None) or str(err))
        if problems or sections is None:
            raise _fail(problems or ["no section"], where)
        try:
            return cls(tuple(sections), deals, boards_source=source, markings=markings,
                       **fields)
        except ConfigError as err:
            raise ConfigError(f"{where}: {err}") from None

    # For the director ---------------------------------------------------------------------
    def summary(self, language: str = "en") -> list[str]:
        """What a director reads when the hub starts: the event, each section, the boards,
        in ``language`` (hub/locale; the log and the files keep the set-up, not this)."""
        title = ", ".join(x for x in (self.name, self.session) if x) or say(language,
                                                                            "summary.event")
        if self.date:
            title = say(language, "summary.dated", title=title,
                        date=date_text(self.date, language))
        lines = [say(language, "summary.title", title=title, edition=self.edition,
                     minutes=f"{self.minutes_per_round:g}")]
        if self.scoring or not self.live:
            scoring = (say(language, f"scoring.{self.scoring}") if self.scoring
                       else say(language, "summary.by_movement"))
            lines.append(say(language, "summary.scoring" if self.live
                             else "summary.scoring_hidden", scoring=scoring))
        if self.conventions:
            lines.append(say(language, "summary.conventions",
                             conventions=say(language, f"conventions.{self.conventions}")))
        if self.language:
            lines.append(say(language, "summary.language",
                             name=language_name(self.language, language)))
        for s in self.sections:
            lines += s.summary(language)
        lines.append(say(language, "summary.boards", count=len(self.deals),
                         numbers=ranges(self.deals),
                         source=deal_source(self.boards_source, language)
                         if self.boards_source else say(language, "summary.from_setup")))
        for b, marks in self.markings.items():
            lines.append(say(language, "summary.marked", board=b,
                             marks=", ".join(marks.law_2_differences(b))))
        ids = [tid for s in self.sections for tid in s.ids]
        if self.strict is True:
            strict = say(language, "summary.every_table")
        elif self.strict:
            strict = say(language, "summary.tables", tables=", ".join(self.strict))
        else:
            strict = say(language, "summary.off")
        lines.append(say(language, "summary.strict", strict=strict, tables=len(ids)))
        lines.append(say(language, "summary.clock", check=say(language, "summary.off")
                         if self.clock_tolerance is None
                         else say(language, "summary.within",
                                  seconds=f"{self.clock_tolerance:g}")))
        return lines


# Waiting for the director ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class WaitingSetup:
    """No event yet: a room without sections until the director sets the event up on the
    console (hub.console_setup), which replaces it (``Hub.replace_setup``). Its JSON is
    ``{"v": 1, "waiting": true, "event": {"edition", "minutes_per_round"}}``."""

    edition: str = "2017"
    minutes_per_round: float = 15.0
    sections: tuple[SectionSetup, ...] = ()

    waiting = True

    def to_json(self) -> dict[str, Any]:
        return {"v": JSON_VERSION, "waiting": True,
                "event": {"edition": self.edition, "minutes_per_round": self.minutes_per_round}}

    @classmethod
    def from_json(cls, obj: Any) -> WaitingSetup:
        if not isinstance(obj, Mapping) or obj.get("waiting") is not True:
            raise ConfigError("not a waiting set-up")
        event = obj.get("event") or {}
        try:
            return cls(_edition(event.get("edition", "2017")),
                       _number(event.get("minutes_per_round", 15.0)))
        except _Bad as err:
            raise ConfigError(f"waiting set-up (JSON): {err}") from None

    def build_room(self) -> Room:
        return Room([], {}, minutes_per_round=self.minutes_per_round,
                    edition=laws_edition(self.edition))

    def summary(self, language: str = "en") -> list[str]:
        return [say(language, "summary.waiting", edition=self.edition)]


def setup_from_json(obj: Any) -> EventSetup | WaitingSetup:
    """The set-up :meth:`EventSetup.to_json` or :meth:`WaitingSetup.to_json` wrote."""
    if isinstance(obj, Mapping) and obj.get("waiting") is True:
        return WaitingSetup.from_json(obj)
    return EventSetup.from_json(obj)
