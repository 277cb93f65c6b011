"""Who really played (hub/substitutes.py): a substitute for some rounds keeps the pair's
number and results, is named for those rounds and credited in the results files; the names
typed at check-in become the pair's once the director accepts them. Both are director
commands, logged and replayed.

The session is the 3-table Mitchell of tests/hub/test_live_scoring.py with named pairs.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from hub.director import parse_command
from hub.errors import ConfigError
from hub.room import Room, Section
from hub.roster import Member, Roster
from hub.series import identity
from hub.session_export import export
from hub.substitutes import old_substitute, rounds_text
from tenace.sim.devices import DeviceEvent, envelopes
from tests.hub.test_live_scoring import ROUND_ROBIN, Session
from tests.hub.test_table import DEALS, MOVEMENT
from wire.views import RankingView

NAMES = {1: ("Ann Archer", "Bob Baker"), 3: ("Cid Cole", "Dee Dunn")}


def named() -> Session:
    s = Session(Room(Section("A", MOVEMENT, pairs=dict(NAMES)), DEALS))
    s.play(ROUND_ROBIN)
    return s


def command(s: Session, by: str = "dora", **fields: Any) -> tuple[str, dict[str, Any]]:
    fact, body = parse_command(fields, s.room, by)
    s.now += 1
    s.room.fact(fact, body, s.now)
    s.facts.append((fact, body, s.now))
    return fact, body


def test_rounds_in_words() -> None:
    assert rounds_text([3, 4, 6]) == "rounds 3-4, 6" and rounds_text([2]) == "round 2"


def test_an_older_hubs_substitute_among_the_names_is_still_read() -> None:
    """A log or stored session of a hub before the ``substitutes`` field has the substitute
    as an English phrase among the names: still read as one (never as a player)."""
    assert old_substitute("Zoé Roux (for 太郎 山田, rounds 3-4, 6)") == {
        "name": "Zoé Roux", "for": "太郎 山田", "rounds": [3, 4, 6]}
    assert old_substitute("Łukasz Nowak (for player 2, round 1)") == {
        "name": "Łukasz Nowak", "for": "player 2", "rounds": [1]}
    assert old_substitute("Zoé Roux") is None and old_substitute("Anne (formerly Bee)") is None
    assert identity(["Ann Archer", "Bob Baker", "Zoé Roux (for Bob Baker, rounds 2-3)"]) == \
        identity(["Bob Baker", "Ann Archer"])


def test_a_substitute_is_named_for_his_rounds_and_the_pair_keeps_its_results() -> None:
    """Zoé Roux played for Bob Baker (pair 1's second player) in rounds 2 and 3: pair 1
    keeps its number, its results and its ranking; its names say who played when."""
    s = named()
    before = s.ranking()
    fact, body = command(s, op="substitute", section="A", pair=1, player=2,
                         name="  Zoé   Roux ", rounds=[3, 2])
    assert fact == "substitute" and body["by"] == "dora"
    assert body["name"] == "Zoé Roux" and body["rounds"] == [2, 3]
    assert s.ranking() == before
    entry = next(e for e in s.room.scoring.section("A").ranking() if e["pair"] == 1)
    # issue 25: as data, not an English phrase among the names (each page words it)
    assert entry["names"] == ["Ann Archer", "Bob Baker"]
    assert entry["substitutes"] == [{"name": "Zoé Roux", "for": "Bob Baker", "player": 2,
                                     "rounds": [2, 3]}]
    assert all("substitutes" not in e for e in s.room.scoring.section("A").ranking()
               if e["pair"] != 1)
    RankingView.from_json(json.dumps(s.room.scoring.section("A").ranking_json()).encode())
    # replayed from the log: the same names
    again = Session(Room(Section("A", MOVEMENT, pairs=dict(NAMES)), DEALS))
    again.play(ROUND_ROBIN)
    for f, b, at in s.facts[3:]:
        again.room.fact(f, json.loads(json.dumps(b)), at)
    assert again.room.scoring.section("A").ranking() == s.room.scoring.section("A").ranking()


def test_the_substitute_is_credited_in_usebio_with_his_member_number() -> None:
    """USEBIO lists the substitute as a PLAYER of pair 1 beside its two players, with the
    member number the roster gives his name (the federation shares out the masterpoints)."""
    s = named()
    command(s, op="substitute", section="A", pair=1, player=2, name="Zoé Roux", rounds=[2])
    roster = Roster([Member("Ann Archer", 11), Member("Bob Baker", 12), Member("Zoé Roux", 13)])
    body, _ = export(s.room, "usebio.xml", "A", title="Club", date="2026-11-26",
                     roster=roster)
    root = ET.fromstring(body)
    pair = next(p for p in root.iter("PAIR") if p.findtext("PAIR_NUMBER") == "1")
    assert [(p.findtext("PLAYER_NAME"), p.findtext("NATIONAL_ID_NUMBER"))
            for p in pair.findall("PLAYER")] == [("Ann Archer", "11"), ("Bob Baker", "12"),
                                                  ("Zoé Roux", "13")]
    pbn, _ = export(s.room, "results.pbn", "A", title="Club", date="2026-11-26")
    assert "Ann Archer - Bob Baker - Zoé Roux" in pbn.decode("utf-8")


@pytest.mark.parametrize("fields,reason", [
    ({"section": "B", "pair": 1, "player": 1, "name": "X", "rounds": [1]}, "no section"),
    ({"section": "A", "pair": 99, "player": 1, "name": "X", "rounds": [1]}, "no pair 99"),
    ({"section": "A", "pair": 1, "player": 3, "name": "X", "rounds": [1]}, "player: 1 or 2"),
    ({"section": "A", "pair": 1, "player": 1, "name": " ", "rounds": [1]}, "name"),
    ({"section": "A", "pair": 1, "player": 1, "name": "X", "rounds": [9]}, "rounds"),
    ({"section": "A", "pair": 1, "player": 1, "name": "X", "rounds": []}, "rounds"),
])
def test_a_substitution_that_does_not_fit_is_refused(fields: dict[str, Any],
                                                    reason: str) -> None:
    s = named()
    with pytest.raises(ConfigError, match=reason):
        parse_command({"op": "substitute", **fields}, s.room, "dora")


def checkin(s: Session, table: str, direction: str, pair: int,
            players: list[dict[str, Any]]) -> None:
    s.now += 5
    events = [DeviceEvent(table, f"{table}-tab", "checkin",
                          {"direction": direction, "pair": pair, "players": players}, s.now)]
    for tid, env in envelopes(events, devices=s.devices):
        assert s.room.apply(tid, env, env.time).reply.status == "ack"


def test_names_typed_at_check_in_become_the_pairs_once_the_director_accepts() -> None:
    """Pair 2 (no names at set-up) types "gaëlle durand" and "Jürgen Müller" at table A2:
    shown only; the director accepts them, corrected to "Gaëlle Durand": the pair's names,
    logged as pair_names with the check-in they came from. Pair 5 typed nothing: refused."""
    s = named()
    checkin(s, "A2", "NS", 2, [{"name": "gaëlle durand"}, {"name": "Jürgen Müller"}])
    assert 2 not in s.room.scoring.section("A").names
    fact, body = command(s, op="checkin_accept", table="A2", side="NS")
    assert fact == "pair_names" and body["pair"] == 2 and body["section"] == "A"
    assert body["names"] == ["gaëlle durand", "Jürgen Müller"]
    assert body["checkin"] == {"table": "A2", "side": "NS",
                               "typed": ["gaëlle durand", "Jürgen Müller"]}
    command(s, op="checkin_accept", table="A2", side="NS",
            names=["Gaëlle Durand", "Jürgen Müller"])
    entry = next(e for e in s.room.scoring.section("A").ranking() if e["pair"] == 2)
    assert entry["names"] == ["Gaëlle Durand", "Jürgen Müller"]
    checkin(s, "A2", "EW", 5, [])
    with pytest.raises(ConfigError, match="none was typed"):
        parse_command({"op": "checkin_accept", "table": "A2", "side": "EW"}, s.room, "dora")
    with pytest.raises(ConfigError, match="no table"):
        parse_command({"op": "checkin_accept", "table": "Z1", "side": "NS"}, s.room, "dora")
