"""The other shards' part of the event as one shard's console shows it (hub.sharding).

A shard holds its own sections' tables in memory; the event's other tables are held by
the other shards, each publishing them on the broker as it does for the devices and the
director's tools (docs/protocol.md 11-13). :class:`RemoteViews` keeps what this shard
reads of them, so that its console and its results pages show the whole event:

* a table's live board, for its panel (:meth:`RemoteViews.live_table`, the shape of
  hub.console_table's): from ``t/{table}/state`` and ``t/{table}/tablet``, read only while
  a director follows the table (the hub subscribes to them when the panel asks for it, and
  unsubscribes once no panel has asked for :data:`hub.sharding.FOLLOW_SECONDS`: every
  table's states would cost each shard every other shard's events). The public
  state shows the auction only until the opening lead, and the trick in progress and the
  last one: what was seen of a board is kept for it (its auction, its tricks), so that a
  panel opened before the lead follows the whole board;
* the alerts (``director/alert/{id}``): the open ones, and the last resolved ones;
* the sections' rankings and travellers (``results/ranking/{section}``,
  ``results/traveller/{section}/{board}``) and the field's (``results/field``), for the
  results pages (:func:`merge_results`).

Nothing here is ever logged: it is the other shards' truth, read again from the broker
(retained) when this shard starts.
"""

from __future__ import annotations

import logging
import re
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["RESOLVED_KEPT", "RemoteViews", "in_event_order", "merge_results", "remote_alert",
           "remote_of", "remote_pair_card", "with_remote_alerts"]

log = logging.getLogger("hub.service")

RESOLVED_KEPT = 50        # another shard's resolved alerts kept, the newest
_SUMMARY_DROPPED = ("facts", "evidence", "options")


@dataclass(slots=True)
class _Board:
    """What was seen of one board at a remote table: its auction, its tricks."""

    key: tuple[int, int]                                  # (round, board)
    auction: list[dict[str, Any]] = field(default_factory=list)
    tricks: dict[int, dict[str, Any]] = field(default_factory=dict)


class RemoteViews:
    """The other shards' tables, alerts and results, as published (module docstring)."""

    def __init__(self) -> None:
        self.states: dict[str, dict[str, Any]] = {}
        self.tablets: dict[str, dict[str, Any]] = {}
        self.followed: dict[str, float] = {}    # table -> when a panel last asked for it
        self._boards: dict[str, _Board] = {}
        self.alerts: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self.rankings: dict[str, dict[str, Any]] = {}
        self.travellers: dict[tuple[str, int], dict[str, Any]] = {}
        self.field: dict[str, Any] | None = None

    # What arrives ---------------------------------------------------------------------
    def state(self, table: str, body: dict[str, Any] | None) -> None:
        """``t/{table}/state`` (None: cleared)."""
        if body is None:
            self.states.pop(table, None)
            self._boards.pop(table, None)
            return
        self.states[table] = body
        number = body.get("board")
        if not isinstance(number, int):
            self._boards.pop(table, None)
            return
        key = (int(body.get("round") or 0), number)
        seen = self._boards.get(table)
        if seen is None or seen.key != key:
            seen = self._boards[table] = _Board(key)
        auction = body.get("auction")
        if isinstance(auction, list):
            seen.auction = [dict(e) for e in auction if isinstance(e, dict)]
        for trick in (body.get("last_trick"), body.get("trick")):
            if isinstance(trick, dict) and isinstance(trick.get("number"), int):
                seen.tricks[trick["number"]] = trick

    def tablet(self, table: str, body: dict[str, Any] | None) -> None:
        """``t/{table}/tablet``: the explanations of the calls (None: cleared)."""
        if body is None:
            self.tablets.pop(table, None)
        else:
            self.tablets[table] = body

    def alert(self, ident: str, body: dict[str, Any] | None) -> bool:
        """``director/alert/{id}``: True when what the console shows changed (an empty
        payload clears a resolved alert's retained copy: its last version is kept)."""
        if body is None:
            return False
        if self.alerts.get(ident) == body:
            return False
        self.alerts[ident] = body
        self.alerts.move_to_end(ident)
        resolved = [a for a, v in self.alerts.items() if v.get("status") == "resolved"]
        for old in resolved[:-RESOLVED_KEPT]:
            del self.alerts[old]
        return True

    def ranking(self, section: str, body: dict[str, Any] | None) -> None:
        if body is None:
            self.rankings.pop(section, None)
        else:
            self.rankings[section] = body

    def traveller(self, section: str, board: int, body: dict[str, Any] | None) -> None:
        if body is None:
            self.travellers.pop((section, board), None)
        else:
            self.travellers[(section, board)] = body

    def forget(self, table: str) -> None:
        """No panel follows ``table`` any longer: what was kept of it goes."""
        self.followed.pop(table, None)
        for kept in (self.states, self.tablets, self._boards):
            kept.pop(table, None)

    # What the console asks ------------------------------------------------------------
    def alert_summary(self, ident: str) -> dict[str, Any] | None:
        """The alert as the console's feed lists it (hub.console_views.alert_summary)."""
        body = self.alerts.get(ident)
        if body is None:
            return None
        out = {k: v for k, v in body.items() if k not in _SUMMARY_DROPPED}
        ruling = body.get("ruling")
        out["ruled_by"] = ruling.get("by") if isinstance(ruling, dict) else None
        return out

    def live_table(self, table: str) -> dict[str, Any] | None:
        """The board at ``table`` as the director follows it (hub.console_table's shape),
        from its published state; None before the state has come."""
        state = self.states.get(table)
        if state is None:
            return None
        out: dict[str, Any] = {"table": table, "round": state.get("round"),
                               "pairs": state.get("pairs") or {"NS": None, "EW": None},
                               "board": None, "remote": True}
        board = state.get("board")
        if not isinstance(board, int):
            return out
        seen = self._boards.get(table) or _Board((0, board))
        explained = {e.get("call"): e.get("text")
                     for e in (self.tablets.get(table) or {}).get("explanations") or ()
                     if isinstance(e, dict)}
        phase = state.get("phase")
        over = phase == "over"
        auction = [{"seat": e.get("seat"), "call": e.get("call"),
                    "alert": bool(e.get("alert")), "explanation": explained.get(i),
                    "status": e.get("status")} for i, e in enumerate(seen.auction, 1)]
        tricks = state.get("tricks") if isinstance(state.get("tricks"), dict) else None
        dummy = state.get("dummy")
        claim = state.get("claim")
        out.update(
            board=board, dealer=state.get("dealer"), vulnerability=state.get("vulnerability"),
            phase=phase, turn=None if over else state.get("turn"), over=over,
            auction=auction, contract=state.get("contract"),
            declarer=state.get("declarer"),
            dummy=dummy.get("seat") if isinstance(dummy, dict) else None,
            tricks=[{"number": n, "leader": t.get("leader"), "cards": t.get("cards") or [],
                     "winner": t.get("winner")} for n, t in sorted(seen.tricks.items())],
            won=tricks, claim=None if not isinstance(claim, dict) else {
                k: claim.get(k) for k in ("claimer", "tricks", "statement", "status")},
            result=state.get("result") if over else None)
        return out


# The results pages across shards ----------------------------------------------------------

def _shown(ranking: dict[str, Any]) -> set[int]:
    """The boards of a published ranking that every table of its section has finished."""
    expected = int(ranking.get("expected") or 0)
    return {int(b["board"]) for b in ranking.get("boards") or ()
            if isinstance(b, dict) and isinstance(b.get("board"), int)
            and expected and int(b.get("results") or 0) >= expected}


def _complete(ranking: dict[str, Any]) -> bool:
    """Whether every board a published ranking counts is finished everywhere."""
    boards = {int(b["board"]) for b in ranking.get("boards") or ()
              if isinstance(b, dict) and isinstance(b.get("board"), int)}
    return boards <= _shown(ranking)


def merge_results(data: dict[str, Any], rest: str, remote: RemoteViews | None, *,
                  public: bool, own_sections: set[str],
                  own_field: dict[str, Any] | None = None) -> dict[str, Any]:
    """The JSON of ``/api/results{rest}`` (hub.results_pages, this shard's sections) with
    the other shards' sections and the field's ranking (``field``) added.

    The public view (Law 16) shows a board only once no other shard's section has a table
    still to play it (its published ranking counts fewer results than expected on it), and
    another shard's section's ranking (and the field's) only once every board it counts is
    finished: a shard cannot rank another's section again over the finished boards as it
    does its own (hub.public_ranking). LookupError for a board not shown yet."""
    rest = rest.rstrip("/")
    theirs = {} if remote is None else {
        name: r for name, r in sorted(remote.rankings.items()) if name not in own_sections}
    pending = {b.get("board") for r in theirs.values() for b in r.get("boards") or ()
               if isinstance(b, dict)} - {b for r in theirs.values() for b in _shown(r)}
    if rest.startswith("/board/"):
        board = int(rest.rsplit("/", 1)[1])
        if public and board in pending:
            raise LookupError(f"board {board} is not shown yet: not every table has "
                              f"finished it")
        for name, ranking in theirs.items():
            assert remote is not None
            traveller = remote.travellers.get((name, board))
            if traveller is not None and (not public or board in _shown(ranking)):
                data["sections"].append(dict(traveller, remote=True))
        return data
    if rest != "":
        return data
    names = bool((data.get("public") or {}).get("names", True))
    shown_ranking = not public or bool(data.get("ranking_shown", True))
    boards = set(data.get("boards") or ())
    if public:
        boards -= pending
        for section in data["sections"]:
            section["boards"] = [b for b in section["boards"] if b.get("board") not in pending]
    for ranking in theirs.values():
        section = dict(ranking, problem_texts=[], remote=True)
        if public:
            shown = _shown(ranking)
            section["boards"] = [b for b in ranking.get("boards") or ()
                                 if b.get("board") in shown]
            section["problems"] = []
            if not shown_ranking or not _complete(ranking):
                section["ranking"], section["penalties"] = [], []
            elif not names:
                section["ranking"] = [_nameless(e) for e in section["ranking"]]
        boards.update(int(b["board"]) for b in section["boards"])
        data["sections"].append(section)
    field_ranking = own_field if own_field is not None else \
        None if remote is None else remote.field
    if field_ranking is not None:
        shown_field = dict(field_ranking, problem_texts=[])
        if public and (not shown_ranking or not _complete(field_ranking)):
            shown_field["ranking"] = []
        elif public and not names:
            shown_field["ranking"] = [_nameless(e) for e in shown_field["ranking"]]
        if public:
            shown_field["problems"] = []
        data["field"] = shown_field
    data["boards"] = sorted(boards)
    return data


def remote_pair_card(remote: RemoteViews, section: str, pair: int, *, public: bool,
                     names: bool = True, ranking_shown: bool = True) -> dict[str, Any]:
    """Pair ``pair`` of another shard's ``section``: its score card from the section's
    published travellers, its place and penalties from its ranking (hub.results_pages'
    ``pair_card`` shape); in the public view the boards finished everywhere, the place once
    the section's ranking is complete (:func:`merge_results`). LookupError for a section no
    shard published, a teams or an individual section (their cards are their shard's), or
    a pair it does not have."""
    ranking = remote.rankings.get(section)
    if ranking is None:
        raise LookupError(f"no section {section!r:.40}")
    if ranking.get("method") == "imp" or ranking.get("individual"):
        raise LookupError(f"section {section}: its cards are on the pages of the hub that "
                          f"holds it")
    shown = _shown(ranking) if public else None
    card = []
    for (name, board), traveller in sorted(remote.travellers.items()):
        if name != section or (shown is not None and board not in shown):
            continue
        for r in traveller.get("results") or ():
            if pair not in (r.get("NS"), r.get("EW")):
                continue
            ns = r.get("NS") == pair
            score = r.get("score_ns")
            card.append({
                "board": board, "round": r.get("round"), "table": r.get("table"),
                "direction": "NS" if ns else "EW", "opponents": r.get("EW" if ns else "NS"),
                "contract": r.get("contract"), "declarer": r.get("declarer"),
                "tricks": r.get("tricks"),
                "score": None if score is None else (score if ns else -score) + 0,
                "points": r.get("ns_points" if ns else "ew_points"),
                "percent": r.get("ns_percent" if ns else "ew_percent"),
                "top": traveller.get("top"), "adjustment": r.get("adjustment"),
                "ruling": r.get("ruling"),     # a Law 15B award: its side's, scored
                "scored": bool(r.get("scored")) or r.get("ns_points" if ns else "ew_points")
                is not None, "not_scored": r.get("not_scored"), "corrected": r.get("corrected")})
    card.sort(key=lambda c: (c["round"] or 0, c["board"]))
    place = next((e for e in ranking.get("ranking") or () if e.get("pair") == pair), None)
    if place is None and not card:
        raise LookupError(f"no pair {pair} in section {section}")
    penalties = [x for x in ranking.get("penalties") or () if x.get("pair") == pair]
    players = list(place.get("names") or ()) if place is not None else []
    substitutes = list(place.get("substitutes") or ()) if place is not None else []
    if public:
        if not names:
            players, substitutes = [], []
            place = None if place is None else {
                **{k: v for k, v in place.items() if k != "substitutes"}, "names": []}
        if not ranking_shown or not _complete(ranking):
            place, penalties = None, []
    return {"section": section, "key": ranking.get("key", section), "pair": pair,
            "names": players, "substitutes": substitutes, "method": ranking.get("method"),
            "team": None,
            "place": place, "boards": card, "penalties": penalties, "full": not public,
            "remote": True}


def _nameless(entry: Mapping[str, Any]) -> dict[str, Any]:
    """A ranking entry without its players' names (its substitutes' neither)."""
    return {**{k: v for k, v in entry.items() if k != "substitutes"}, "names": []}


# The console across shards (hub.console) ---------------------------------------------------

def remote_of(hub: Any) -> RemoteViews | None:
    """The hub's views of the other shards (hub.sharding), None for a hub that is no shard."""
    if getattr(hub, "shard", None) is None:
        return None
    remote = getattr(hub, "remote", None)
    return remote if isinstance(remote, RemoteViews) else None


def with_remote_alerts(hub: Any, own: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The overview's alerts (``own``: this shard's summaries, newest first, the open ones
    first) with the other shards': the open ones, newest detected first, then the resolved."""
    remote = remote_of(hub)
    if remote is None or not remote.alerts:
        return own
    theirs = [s for s in (remote.alert_summary(a) for a in remote.alerts) if s is not None]
    every = own + theirs
    every.sort(key=lambda a: -float(a.get("detected") or 0))
    return ([a for a in every if a.get("status") != "resolved"]
            + [a for a in every if a.get("status") == "resolved"])


def remote_alert(hub: Any, ident: str) -> dict[str, Any] | None:
    """Another shard's alert in full, as it published it (its ``AlertView``)."""
    remote = remote_of(hub)
    body = None if remote is None else remote.alerts.get(ident)
    return None if body is None else dict(body)


def in_event_order(sections: list[str], tables: list[dict[str, Any]]
                   ) -> tuple[list[str], list[dict[str, Any]]]:
    """Every shard's sections and tables on one room map: the sections by name (a shard
    does not know the others' places in the set-up), each section's tables by number."""
    def natural(text: str) -> tuple[Any, ...]:
        return tuple(int(p) if p.isdigit() else p
                     for p in re.split(r"(\d+)", text) if p)

    order = sorted(dict.fromkeys(sections), key=natural)
    place = {name: i for i, name in enumerate(order)}
    return order, sorted(tables, key=lambda t: (place.get(str(t.get("section")), len(order)),
                                                t.get("number") or 0, str(t.get("id"))))
