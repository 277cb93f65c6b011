"""Who really played: a substitute for some rounds, and the names given at check-in.

Two director commands (hub.director), both replayed from the log:

``substitute`` ``{"section", "pair", "player", "name", "rounds", "member"?}``
    ``name`` played in place of the pair's ``player``-th player (1 or 2, as the set-up lists
    them) in ``rounds``. The pair keeps its number and its results; the substitute is named
    for those rounds: in the ranking, as data (``substitutes``: ``{"name": "Zoé Roux",
    "for": "Bob Baker", "player": 2, "rounds": [3, 4]}``, which each page words in its
    reader's language; a hub before it wrote ``"Zoé Roux (for Bob Baker, rounds 3-4)"``
    among the ``names``, which the ladder still reads in a stored session) and in the
    results files, where he is a player of the pair, with his member number from
    the roster (or ``member``), so that the federation credits him too (USEBIO lists each
    PLAYER; the scoring program shares out the masterpoints by boards played). A later
    substitution of the same player and round replaces it. Logged as ``substitute``.

``checkin_accept`` ``{"table", "side", "names"?, "player"?}``
    the names typed at check-in by the pair seated on ``side`` (NS or EW) of ``table``
    become the pair's (``names`` as the director corrected them, else as typed): logged as
    the late change ``pair_names`` (hub.late_changes) with ``checkin``, so the pair keeps
    its number and its results. A match with the roster is only shown (the set-up page's
    check-ins); this is the director accepting it.

In an individual the contestants are players (``Section.individual``): ``pair`` is a
player's number and ``player`` is 1, the player himself; the substitute is named for his
rounds as for a pair (``substitutes``, "for" his name, or None) and credited in the results
files beside him. A ``checkin_accept`` names the player (``player``, his number) whose typed
name becomes his: the ``pair_names`` fact is then that player's, one name.

Refusals are :class:`hub.errors.ConfigError` naming the field.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from bridgecore.text import Text
from hub.errors import ConfigError
from hub.late_changes import contestants, refused
from hub.section import Section

__all__ = ["CHECKIN_FIELDS", "SUBSTITUTE_FIELDS", "Substitutes", "check_checkin",
           "check_substitute", "old_substitute", "rounds_text"]

MAX_NAME = 80

SUBSTITUTE_FIELDS: dict[str, tuple[type, bool]] = {
    "section": (str, True), "pair": (int, True), "player": (int, True), "name": (str, True),
    "rounds": (list, True), "member": (int, False),
}
CHECKIN_FIELDS: dict[str, tuple[type, bool]] = {
    "table": (str, True), "side": (str, True), "names": (list, False), "player": (int, False),
}


# A substitute as a hub before the ``substitutes`` field wrote him among the ranking's names
# (an old stored session, an old log's published ranking): "Name (for X, rounds 3-4, 6)".
_OLD = re.compile(r"^(.*) \(for (.*), rounds? ([\d, -]+)\)$")


def old_substitute(name: str) -> dict[str, Any] | None:
    """``"Zoé Roux (for Bob Baker, rounds 3-4)"`` (an older hub's words among the names) ->
    ``{"name": "Zoé Roux", "for": "Bob Baker", "rounds": [3, 4]}``; None for a player's
    name."""
    found = _OLD.match(name)
    if found is None:
        return None
    rounds: list[int] = []
    for part in found.group(3).split(","):
        first, _, last = part.strip().partition("-")
        if not first.isdigit() or (last and not last.isdigit()):
            return None
        rounds.extend(range(int(first), int(last or first) + 1))
    return {"name": found.group(1), "for": found.group(2), "rounds": rounds}


def rounds_text(rounds: Sequence[int]) -> str:
    """``[3, 4, 6]`` -> ``"rounds 3-4, 6"``; ``[2]`` -> ``"round 2"`` (English: the log's
    words; each page words the rounds in its reader's language)."""
    spans: list[list[int]] = []
    for r in sorted(set(rounds)):
        if spans and r == spans[-1][1] + 1:
            spans[-1][1] = r
        else:
            spans.append([r, r])
    parts = [str(a) if a == b else f"{a}-{b}" for a, b in spans]
    return ("round " if len(rounds) == 1 else "rounds ") + ", ".join(parts)


class Substitutes:
    """The substitutions in force: (section, pair, player) -> round -> the substitute."""

    def __init__(self) -> None:
        self._by: dict[tuple[str, int, int], dict[int, dict[str, Any]]] = {}

    def fact(self, body: Mapping[str, Any]) -> str:
        """Apply a logged ``substitute`` fact; returns its section."""
        key = (str(body["section"]), int(body["pair"]), int(body["player"]))
        rounds = self._by.setdefault(key, {})
        for r in body["rounds"]:
            rounds[int(r)] = dict(body)
        return key[0]

    def playing(self, section: str, player: int, round_: int) -> str | None:
        """In an individual, who plays for ``player`` in ``round_``: his substitute's name,
        or None (he plays himself)."""
        sub = self._by.get((section, player, 1), {}).get(round_)
        return None if sub is None else str(sub["name"])

    def of_pair(self, section: str, pair: int) -> list[dict[str, Any]]:
        """The pair's substitutes: ``{"player", "name", "member", "rounds"}`` each, by
        player then first round."""
        out: dict[tuple[int, str, int | None], list[int]] = {}
        for (s, p, player), rounds in sorted(self._by.items()):
            if (s, p) != (section, pair):
                continue
            for r, sub in sorted(rounds.items()):
                out.setdefault((player, sub["name"], sub.get("member")), []).append(r)
        return [{"player": player, "name": name, "member": member, "rounds": rounds}
                for (player, name, member), rounds in out.items()]

    def names(self, section: Section) -> dict[int, list[str]]:
        """The ranking's names of each pair of ``section``: its own players (its
        substitutes are :meth:`of_section`'s)."""
        return {p: list(n) for p, n in section.pairs.items()}

    def of_section(self, section: Section) -> dict[int, list[dict[str, Any]]]:
        """Each pair of ``section`` that had substitutes -> them, as the ranking publishes
        them: ``{"name", "for", "player", "rounds"}`` (``for`` the player's name, None
        when the set-up gave none; ``player`` 1 or 2, in an individual the player's own
        number, so that a page can say "player 7" for a player without a name)."""
        out: dict[int, list[dict[str, Any]]] = {}
        for pair in sorted({p for s, p, _ in self._by if s == section.name}):
            who = section.pairs.get(pair, ())
            out[pair] = [{"name": sub["name"],
                          "for": who[sub["player"] - 1] if sub["player"] <= len(who) else None,
                          "player": pair if section.individual else sub["player"],
                          "rounds": list(sub["rounds"])}
                         for sub in self.of_pair(section.name, pair)]
        return out

    def snapshot(self) -> dict[str, Any]:
        return {f"{s}:{p}:{n}": {str(r): dict(v) for r, v in rounds.items()}
                for (s, p, n), rounds in sorted(self._by.items())}


def _section(sections: Sequence[Section], name: str, op: str) -> Section:
    for s in sections:
        if s.name == name:
            return s
    raise ConfigError(refused(op, Text.of("refusal.no_section", section=name[:40])))


def check_substitute(op: str, body: dict[str, Any], sections: Sequence[Section]) -> None:
    """Check a ``substitute`` command in place (names stripped); ConfigError naming the
    field."""
    section = _section(sections, body["section"], op)
    pair = body["pair"]
    movement = section.movement
    solo = section.individual
    if pair not in contestants(section):
        raise ConfigError(refused(op, Text.of(
            "refusal.no_player", pair=pair, section=section.name) if solo
            else Text.of("refusal.no_pair", pair=pair, section=section.name)))
    if body["player"] not in ((1,) if solo else (1, 2)):
        player = str(body["player"])[:20]
        raise ConfigError(refused(op, Text.of("refusal.substitute_solo", player=player)
                                  if solo else
                                  Text.of("refusal.substitute_player", player=player)))
    name = " ".join(str(body["name"]).split())
    if not 0 < len(name) <= MAX_NAME:
        raise ConfigError(refused(op, Text.of("refusal.name_length", most=MAX_NAME)))
    body["name"] = name
    rounds = body["rounds"]
    most = max((a.round for a in movement.assignments), default=0) if movement else 999
    if not rounds or not all(isinstance(r, int) and not isinstance(r, bool) and 1 <= r <= most
                             for r in rounds):
        raise ConfigError(refused(op, Text.of("refusal.substitute_rounds", most=most,
                                              rounds=f"{rounds!r:.60}")))
    body["rounds"] = sorted(set(rounds))
    if solo is not None:      # an individual: the rounds the player has a seat in
        absent = [r for r in body["rounds"] if not any(
            a.round == r and a.plays and pair in a.seats for a in solo.assignments)]
        if absent:
            raise ConfigError(refused(op, Text.of("refusal.substitute_sits_out", player=pair,
                                                  rounds=", ".join(map(str, absent)))))
    member = body.get("member")
    if member is not None and member < 1:
        raise ConfigError(refused(op, Text.of("refusal.member_number", member=member)))


def check_checkin(op: str, body: dict[str, Any], tables: Mapping[str, Any],
                  section_of: Mapping[str, str], solo: Collection[str] = frozenset()) -> None:
    """Turn a ``checkin_accept`` command into the ``pair_names`` fact's body in place:
    ``{"section", "pair", "names", "checkin"}``; ConfigError naming the field. ``solo``:
    the tables of an individual, where the command names its ``player``."""
    table, side = body["table"], body["side"]
    state = tables.get(table)
    if state is None:
        raise ConfigError(refused(op, Text.of("refusal.no_table", table=table[:40])))
    if side not in ("NS", "EW"):
        raise ConfigError(refused(op, Text.of("refusal.side", side=side[:10])))
    seated = next((v for k, v in state.seated.items()
                   if getattr(k, "name", str(k)) == side or str(k) == side), None)
    if seated is None:
        raise ConfigError(refused(op, Text.of("refusal.no_checkin", side=side, table=table)))
    pair, players = seated[0], seated[1]
    player = body.get("player")
    individual = table in solo
    if individual:                      # one player's name, he the contestant
        if player is None:
            raise ConfigError(refused(op, Text.of("refusal.checkin_player", side=side,
                                                  table=table)))
        players = [p for p in players if isinstance(p, Mapping) and p.get("number") == player]
        if not players:
            raise ConfigError(refused(op, Text.of("refusal.checkin_no_player", player=player,
                                                  side=side, table=table)))
        pair = player
    elif player is not None:
        raise ConfigError(refused(op, Text.of("refusal.checkin_pairs_player")))
    given = [p.get("name") if isinstance(p, Mapping) else p for p in players]
    typed = [" ".join(n.split()) for n in given if isinstance(n, str) and n.strip()]
    names = body.get("names")
    if names is None:
        names = typed
    if not names or not all(isinstance(n, str) and 0 < len(" ".join(n.split())) <= MAX_NAME
                            for n in names) or len(names) > 4:
        raise ConfigError(refused(op, Text.of("refusal.checkin_names", most=MAX_NAME,
                                              side=side, table=table)))
    if individual and len(names) != 1:
        raise ConfigError(refused(op, Text.of("refusal.player_names", n=len(names))))
    body.clear()
    body.update(section=section_of[table], pair=pair,
                names=[" ".join(n.split()) for n in names],
                checkin={"table": table, "side": side, "typed": typed})
