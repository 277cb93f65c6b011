"""One ranking everywhere for a Swiss section (docs/swiss.md, docs/protocol.md 12.2): the
live ranking the hub publishes (``results/ranking/A``), the public results page and the
results files (USEBIO's SWISS_TEAMS with its MATCHes, PBN's TotalScoreTable) are the Swiss
standings of ``GET /api/swiss``: the VPs (Law 78D, WBF 2013 scale) in the order of the
tie-breaks, here two teams level on 30 VPs ranked by their head-to-head match.

Four teams play three rounds of two boards in the room (tenace.sim, no broker); after each
round the director assigns the scores of its boards (Law 12C1(a) assigned scores, every
table ruled) so that the standings come out as designed: team 1 beats team 2 by 6 IMPs in
round 1, loses to team 3 by 6 in round 2 and draws with team 4 in round 3; team 2 draws
with 4, then beats 3 by 6; team 3 beats 4 by 12 in round 1. Teams 1 and 2 end on 30 VPs
each: team 1 first on head-to-head."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from hub.director import parse_command
from hub.results_pages import overview
from hub.room import Room
from hub.section import Section
from hub.session_export import export
from tenace.sim.devices import envelopes
from tenace.sim.session import simulate
from tests.hub.swiss_play import swiss_setup
from wire.protocol import topic_ranking

WIN, LOSS = (110, -110), (-110, 110)   # the two rooms' NS scores: 220 apart, 6 IMPs
DRAW = (0, 0)
# round -> (home, away) -> the two boards, each (first table's NS, second table's NS)
DESIGN = {1: {(1, 2): (WIN, DRAW), (3, 4): (WIN, WIN)},
          2: {(3, 1): (WIN, DRAW), (2, 4): (DRAW, DRAW)},
          3: {(3, 2): (LOSS, DRAW), (1, 4): (DRAW, DRAW)}}


def play_and_rule(room: Room, round_: int, devices: dict[str, Any], deals: Any) -> None:
    """Round ``round_`` played by the simulator, then every board of it assigned its
    designed score at every table by the director."""
    section = room.sections[0]
    settings = section.swiss
    assert settings is not None
    drawn = [p for p in room.swiss.pairings["A"] if p.round == round_]
    assert {(p.home, p.away) for p in drawn} == set(DESIGN[round_])   # Danish order
    played = Section("A", settings.movement(drawn), tables=dict(section.tables))
    script = simulate(played, deals, seed=round_, start=1_000_000.0 * round_)
    for table, env in envelopes(script.merged(), "", devices):
        assert room.apply(table, env, env.time).reply.status == "ack"
    api = room.swiss.to_json()["sections"][0]["pairings"][round_ - 1]
    boards = [2 * round_ - 1, 2 * round_]
    for match in api["matches"]:
        for board, scores in zip(boards, DESIGN[round_][match["home"], match["away"]],
                                 strict=True):
            for table, score in zip(match["tables"], scores, strict=True):
                fact, body = parse_command({"op": "ruling", "kind": "assigned",
                                            "table": table, "board": board,
                                            "round": round_, "score_ns": score}, room)
                room.fact(fact, body, 1_000_000.0 * round_ + 50_000)


def test_every_ranking_of_a_swiss_section_is_its_standings_tie_broken_head_to_head(
        tmp_path: Path) -> None:
    setup = swiss_setup(tmp_path, "swiss_teams", 4, 3, 2)
    room = setup.build_room()
    deals = {n: room.deal(n) for n in setup.deals}
    devices: dict[str, Any] = {}
    for r in (1, 2, 3):
        play_and_rule(room, r, devices, deals)
        for body in room.swiss.due():      # drawn from the ruled standings, as the hub does
            room.fact("swiss_round", body, 1_000_000.0 * r + 60_000)
    assert room.swiss.drawn("A") == 3 and room.swiss.complete("A", 3)
    standings = room.swiss.to_json()["sections"][0]["standings"]
    assert [s["contestant"] for s in standings] == [3, 1, 2, 4]
    assert standings[1]["vp"] == standings[2]["vp"] == 30.0
    assert standings[1]["tie_break"] == "head-to-head"      # 1 beat 2 in round 1
    expected = [(s["contestant"], s["vp"], s["rank"]) for s in standings]
    assert [r for _, _, r in expected] == [1, 2, 3, 4]

    def places(ranking: list[dict[str, Any]]) -> list[tuple[Any, Any, Any]]:
        return [(e["pair"], e["total"], e["rank"]) for e in ranking]

    # The MQTT ranking, as the hub publishes it.
    published = dict(room.scoring.publications(force=True))[topic_ranking("A")]
    ranking = json.loads(published) if isinstance(published, (str, bytes)) else published
    assert ranking["units"] == "VP" and places(ranking["ranking"]) == expected
    # The public results page (every board finished everywhere) and the director's.
    assert places(overview(room, public=True)["sections"][0]["ranking"]) == expected
    assert places(overview(room)["sections"][0]["ranking"]) == expected
    # USEBIO: a SWISS_TEAMS event, the teams in the standings' order, a MATCH a round.
    usebio = ET.fromstring(export(room, "usebio.xml", "A")[0])
    event = usebio.find("EVENT")
    assert event is not None and event.get("EVENT_TYPE") == "SWISS_TEAMS"
    teams = [(int(t.get("TEAM_ID", "0")), float(t.findtext("TOTAL_SCORE", "")),
              t.findtext("PLACE")) for t in event.iter("TEAM") if t.get("TEAM_ID")]
    assert teams == [(c, vp, str(rank)) for c, vp, rank in expected]
    matches = {(int(m.findtext("ROUND_NUMBER", "0")), int(m.findtext("TEAM", "0")),
                int(m.findtext("OPPOSING_TEAM", "0"))):
               (float(m.findtext("TEAM_SCORE", "")), float(m.findtext("TEAM_VICTORY_POINTS", "")))
               for m in event.iter("MATCH")}
    assert matches.keys() == {(r, h, a) for r, design in DESIGN.items() for h, a in design}
    assert matches[1, 1, 2][0] == 6 and matches[1, 1, 2][1] > 10
    assert matches[3, 1, 4] == (0.0, 10.0)
    # PBN: the TotalScoreTable in the same order, with the same VPs.
    pbn = export(room, "results.pbn", "A")[0].decode("utf-8")
    rows = []
    for line in pbn.split("[TotalScoreTable", 1)[1].splitlines()[1:]:
        if not line.strip() or line.startswith("["):
            break
        rank, pair, total = line.split()[:3]
        rows.append((int(pair), float(total), int(rank)))
    assert rows == expected


def test_a_swiss_pairs_section_is_ranked_on_its_vps_with_the_bye_everywhere(
        tmp_path: Path) -> None:
    """Five pairs, three rounds of two boards played in the room (a bye each round at 12
    VPs): the MQTT ranking and the USEBIO file (SWISS_PAIRS, a MATCH a match with the VPs)
    are the standings, the bye's VPs in the total, not the pairs' IMPs against the datum."""
    setup = swiss_setup(tmp_path, "swiss_pairs", 5, 3, 2)
    room = setup.build_room()
    section = room.sections[0]
    settings = section.swiss
    assert settings is not None
    deals = {n: room.deal(n) for n in setup.deals}
    devices: dict[str, Any] = {}
    for r in (1, 2, 3):
        drawn = [p for p in room.swiss.pairings["A"] if p.round == r]
        played = Section("A", settings.movement(drawn), tables=dict(section.tables))
        script = simulate(played, deals, seed=10 + r, start=1_000_000.0 * r)
        for table, env in envelopes(script.merged(), "", devices):
            assert room.apply(table, env, env.time).reply.status == "ack"
        for body in room.swiss.due():
            room.fact("swiss_round", body, 1_000_000.0 * r + 60_000)
    assert room.swiss.complete("A", 3)
    standings = room.swiss.to_json()["sections"][0]["standings"]
    assert sorted(s["byes"] for s in standings) == [0, 0, 1, 1, 1]
    expected = [(s["contestant"], s["vp"], s["rank"]) for s in standings]
    published = dict(room.scoring.publications(force=True))[topic_ranking("A")]
    ranking = json.loads(published) if isinstance(published, (str, bytes)) else published
    assert ranking["units"] == "VP"
    assert [(e["pair"], e["total"], e["rank"]) for e in ranking["ranking"]] == expected
    datum = {e.pair: e.total for e in room.scoring.section("A").event.ranking}
    assert any(datum[c] != vp for c, vp, _ in expected)   # not the IMPs against the datum
    event = ET.fromstring(export(room, "usebio.xml", "A")[0]).find("EVENT")
    assert event is not None and event.get("EVENT_TYPE") == "SWISS_PAIRS"
    assert event.findtext("MATCH_SCORING_METHOD") == "VPS"
    pairs = [(int(p.findtext("PAIR_NUMBER", "0")), float(p.findtext("TOTAL_SCORE", "")),
              p.findtext("PLACE")) for p in event.iter("PAIR")]
    assert [(c, vp) for c, vp, _ in pairs] == [(c, vp) for c, vp, _ in expected]
    matches = [(int(m.findtext("ROUND_NUMBER", "0")), int(m.findtext("NS_PAIR_NUMBER", "0")),
                int(m.findtext("EW_PAIR_NUMBER", "0")),
                float(m.findtext("NS_VICTORY_POINTS", "")),
                float(m.findtext("EW_VICTORY_POINTS", ""))) for m in event.iter("MATCH")]
    api = room.swiss.to_json()["sections"][0]["pairings"]
    assert matches == [(r["round"], m["home"], m["away"], *m["vp"]) for r in api
                       for m in r["matches"] if m["away"] is not None]
