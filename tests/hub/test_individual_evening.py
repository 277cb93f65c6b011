"""The director's evening of an individual, player by player (hub/late_changes.py,
hub/substitutes.py, hub/console_session.py): 20 players on 5 tables (the rainbow), 3 rounds
of 2 boards played by the room simulator over MQTT on the live hub. A late player named
before round 1; after it a substitute for player 3 in rounds 2-3, player 4's name
corrected, player 20 withdrawn: his table does not play round 3 and the director gives its
boards an artificial score, his side's (both its players, Law 12C3: Law 12C2 A- for the side
of the player who left, A+ for the other). The hub stopped after round 1 and started again
on its log rebuilds the same evening; the ranking, ``results.pbn`` and ``usebio.xml`` name
each player, and the substitute, with his member number, beside the player he replaced.

Below it, on a room without broker: what is refused (a second name, a player that does not
exist, a substitute for player 2, rounds the player has no seat in), and the names typed at
check-in accepted one player at a time (``checkin_accept`` with ``player``).
"""

from __future__ import annotations

import tomllib
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bridgecore.adjusted import Artificial
from bridgecore.cards import Side
from bridgecore.movements import Movement
from bridgecore.ranking import Method, ScoringOptions, score_event
from bridgecore.results_io import method_of, read_pbn_results
from hub.director import parse_command
from hub.errors import ConfigError
from hub.event import EventSetup, read_document, setup_from_json
from hub.late_changes import unplayed
from hub.room import Room
from hub.section import Section
from hub.section_setup import SectionSetup
from hub.service import Hub, HubRunner, data_log
from hub.session_export import export
from tenace.sim.devices import DeviceEvent, envelopes
from tests.hub.swiss_play import SEED, play_section_round, spare_devices, wait
from tests.hub.test_live_scoring import Session, wait_for
from tests.hub.test_service import listen
from tests.hub.test_table import DEALS
from wire.protocol import topic_state

NAMES = {p: f"Player {p:02d}" for p in range(1, 21) if p != 19}    # 19 comes late


def setup_of(tmp_path: Path) -> EventSetup:
    text = (f'[event]\nname = "Individual"\nclock_tolerance = false\n'
            f'[boards]\nseed = "{SEED}"\n'
            '[[section]]\nname = "A"\nmovement = "individual"\nplayers = 20\nrounds = 3\n'
            'boards_per_round = 2\n[section.pairs]\n'
            + "".join(f'{p} = ["{n}"]\n' for p, n in NAMES.items()))
    setup, problems = read_document(tomllib.loads(text), tmp_path)
    assert setup is not None, problems
    return setup


def round_of(section: Section, round_: int, *, but: int | None = None) -> Section:
    """``section`` with only round ``round_`` in its movement (what the simulator plays),
    without table ``but``."""
    m = section.movement
    assert m is not None
    cells = tuple(a for a in m.assignments if a.round == round_ and a.table != but)
    tables = {t: n for t, n in section.tables.items() if n != but}
    return Section(section.name, Movement(m.tables, m.rounds, cells, m.boards_per_round),
                   tables=tables, pairs=dict(section.pairs), individual=section.individual)


def evening(hub: Hub) -> tuple[Any, ...]:
    room = hub.room
    return (room.scoring.section("A").ranking_json(), room.late.snapshot(),
            room.scoring.substitutes.snapshot(), dict(room.sections[0].pairs))


def test_an_individuals_evening_player_by_player_on_the_live_hub(
        embedded_broker: Any, tmp_path: Path, keyring: Any) -> None:
    setup = setup_of(tmp_path)
    section_setup = setup.sections[0]
    assert section_setup.individual is not None
    keyring.issue_all(spare_devices(section_setup.ids, 3))
    url, data = embedded_broker.url, tmp_path / "hub"

    def hub_on() -> Hub:
        return Hub(data_log(data), url=url, setup=setup, setup_loader=setup_from_json,
                   tick_seconds=0.2, double_dummy=False, score_interval=0)

    def done(running: HubRunner, **command: Any) -> dict[str, Any]:
        answer: dict[str, Any] = running.call(lambda: hub.director(command))
        return answer

    def scored(running: HubRunner, count: int) -> bool:
        ranking = running.call(lambda: hub.room.scoring.section("A").ranking_json())
        return sum(b["scored"] for b in ranking["boards"]) == count

    hub = hub_on()
    section = hub.room.sections[0]
    schedule = section.individual
    assert schedule is not None
    # Player 20's table in round 3, and his side there.
    last = next(a for a in schedule.assignments if a.round == 3 and 20 in a.seats)
    his_side = Side.NS if last.seats.index(20) in (0, 2) else Side.EW
    partner = last.seats[(last.seats.index(20) + 2) % 4]
    with HubRunner(hub) as running:
        assert done(running, op="pair_add", section="A", pair=19, names=["Late Nineteen"])["ok"]
        again = done(running, op="pair_add", section="A", pair=19, names=["Someone"])
        assert "player 19 of section A already has a name" in again["error"], again
        play_section_round(url, round_of(section, 1), setup.deals, 1)
        wait(lambda: scored(running, 10))
        assert done(running, op="substitute", section="A", pair=3, player=1,
                    name="Zoé  Roux", rounds=[3, 2], member=1009)["ok"]
        # Player 4's name corrected: his table's tablets show it (the state's schedule)
        seat4 = next(a for a in schedule.assignments if a.round == 1 and 4 in a.seats)
        table4 = section.ids[seat4.table]
        tablets = listen(url, topic_state(table4))

        def seat_name(state: dict[str, Any], player: int, assignment: Any) -> Any:
            return state["schedule"]["players"]["NESW"[assignment.seats.index(player)]]["name"]

        # the late player's name, given before round 1, is on his seat (retained; the
        # rainbow seats him with player 4 in round 1)
        assert 19 in seat4.seats
        wait_for(tablets, topic_state(table4),
                 lambda s: seat_name(s, 19, seat4) == "Late Nineteen")
        assert done(running, op="pair_names", section="A", pair=4, names=["Player Four"])["ok"]
        wait_for(tablets, topic_state(table4),
                 lambda s: seat_name(s, 4, seat4) == "Player Four")
        tablets.close()
        assert done(running, op="pair_withdraw", section="A", pair=20, text="unwell")["ok"]
        twice = done(running, op="pair_withdraw", section="A", pair=20)
        assert "player 20 of section A has already withdrawn" in twice["error"], twice
        before = running.call(lambda: evening(hub))
    # The hub goes mid-session; the one that comes back rebuilds the same evening.
    hub = hub_on()
    assert evening(hub) == before
    with HubRunner(hub) as running:
        play_section_round(url, round_of(section, 2), setup.deals, 2)
        wait(lambda: scored(running, 20))
        # In round 2 the substitute sits in player 3's seat: his tablet names her.
        seat3 = next(a for a in schedule.assignments if a.round == 2 and 3 in a.seats)
        tablets = listen(url, topic_state(section.ids[seat3.table]))
        wait_for(tablets, topic_state(section.ids[seat3.table]),
                 lambda s: s["schedule"]["players"]["NESW"[seat3.seats.index(3)]]["name"]
                 == "Zoé Roux")
        tablets.close()
        play_section_round(url, round_of(section, 3, but=last.table), setup.deals, 3)
        wait(lambda: scored(running, 28))
        table = section.ids[last.table]

        def left(player: int) -> list[dict[str, Any]]:   # what the evening page offers
            return running.call(lambda: unplayed(
                section, hub.room.scoring.section("A").lines, player, 3))

        assert left(20) == [{"table": table, "round": 3, "board": b, "side": str(his_side)}
                            for b in last.boards]
        elsewhere = next(p for p in range(1, 21) if p not in last.seats)
        assert left(elsewhere) == [] and left(partner) == left(20)
        for board in last.boards:      # the director's ruling on the boards not played
            ruled = done(running, op="ruling", kind="artificial", table=table, board=board,
                         round=3, ns="A-" if his_side is Side.NS else "A+",
                         ew="A-" if his_side is Side.EW else "A+", text="player 20 left")
            assert ruled["ok"], ruled
        wait(lambda: scored(running, 30))
        assert left(20) == []
        ranking = running.call(lambda: hub.room.scoring.section("A").ranking_json())
        api = running.call(lambda: evening(hub))
        results = running.call(lambda: export(hub.room, "results.pbn", "A")[0])
        usebio = running.call(lambda: export(hub.room, "usebio.xml", "A")[0])
    assert api[1]["withdrawn"] == ["A:20"] and api[3][19] == ("Late Nineteen",)
    entries = {e["pair"]: e for e in ranking["ranking"]}
    assert sorted(entries) == list(range(1, 21))
    assert all(e["boards"] == 6 for e in entries.values())     # his ruled boards count
    assert entries[3]["names"] == ["Player 03"]             # issue 25: the substitute as data
    assert entries[3]["substitutes"] == [{"name": "Zoé Roux", "for": "Player 03", "player": 3,
                                          "rounds": [2, 3]}]
    assert entries[4]["names"] == ["Player Four"]
    assert entries[19]["names"] == ["Late Nineteen"]
    assert entries[20]["names"] == ["Player 20"]        # withdrawn: his results stay
    # Law 12C3: the artificial score is his side's, his partner's as much as his.
    source = read_pbn_results(results.decode("utf-8"))
    assert source.problems == []
    rows = [row.result for row in source.rows]
    ruled_rows = [r for r in rows if isinstance(r.adjustment, Artificial)]
    assert len(ruled_rows) == 2 and all(set(r.players or ()) == set(last.seats)
                                        for r in ruled_rows)
    offline = score_event(rows, method_of(source.scoring)[0] or Method.MATCHPOINTS,
                          options=ScoringOptions(individual=True))
    points = {(p.pair): p for p in offline.ranking}
    for r in ruled_rows:
        board = offline.boards[r.board]
        line = next(s for s in board if s.result.ns == r.ns)
        mine, theirs = ((line.ns_points, line.ew_points) if his_side is Side.NS
                        else (line.ew_points, line.ns_points))
        assert mine < theirs                         # A- for his side, A+ for the other
    assert entries[20]["total"] == pytest.approx(points[20].total, abs=0.01)
    assert entries[partner]["total"] == pytest.approx(points[partner].total, abs=0.01)
    assert sorted((e["pair"], e["total"], e["rank"]) for e in entries.values()) == sorted(
        (p.pair, round(p.total, 2), p.rank) for p in offline.ranking)
    # The files name the substitute beside the player he replaced.
    assert source.names[3] == "Player 03 - Zoé Roux" and source.names[19] == "Late Nineteen"
    root = ET.fromstring(usebio)
    player = next(p for p in root.findall(".//PARTICIPANTS/PLAYER")
                  if p.findtext("PLAYER_NUMBER") == "3")
    assert player.findtext("PLAYER_NAME") == "Player 03"
    assert [(s.findtext("PLAYER_NAME"), s.findtext("NATIONAL_ID_NUMBER"))
            for s in player.findall("SUBSTITUTE")] == [("Zoé Roux", "1009")]


# On a room alone ---------------------------------------------------------------------------

SMALL = SectionSetup("A", "individual", players=20, rounds=3, boards_per_round=1,
                     pairs={p: [f"Player {p:02d}"] for p in range(1, 21)})


def small() -> Session:
    return Session(Room(SMALL.room_section(), DEALS))


def command(s: Session, **fields: Any) -> tuple[str, dict[str, Any]]:
    fact, body = parse_command(fields, s.room, "dora")
    s.now += 1
    s.room.fact(fact, body, s.now)
    s.facts.append((fact, body, s.now))
    return fact, body


@pytest.mark.parametrize("fields,reason", [
    ({"op": "pair_names", "pair": 4, "names": ["A", "B"]},
     "Correcting the player.s name: one name for a player, not 2"),
    ({"op": "pair_names", "pair": 21, "names": ["A"]}, "no player 21 in section A"),
    ({"op": "pair_withdraw", "pair": 0}, "Withdrawing the player: no player 0 in section A"),
    ({"op": "substitute", "pair": 3, "player": 2, "name": "Z", "rounds": [1]},
     "player: 1 in an individual"),
    ({"op": "substitute", "pair": 33, "player": 1, "name": "Z", "rounds": [1]},
     "no player 33"),
    ({"op": "substitute", "pair": 3, "player": 1, "name": "Z", "rounds": [4]}, "rounds"),
])
def test_what_an_individuals_evening_refuses(fields: dict[str, Any], reason: str) -> None:
    s = small()
    with pytest.raises((ConfigError, ValueError), match=reason):
        parse_command({"section": "A", **fields}, s.room, "dora")


def test_a_substitute_in_a_round_the_player_sits_out_is_refused() -> None:
    """A file's individual may sit a player out: his substitute cannot play that round."""
    s = small()
    schedule = s.room.sections[0].individual
    assert schedule is not None
    # The rainbow seats everyone every round: a schedule without player 3 in round 2.
    seat = ("north", "east", "south", "west")
    cut = replace(schedule, assignments=tuple(
        replace(a, **{seat[a.seats.index(3)]: None}) if a.round == 2 and 3 in a.seats
        else a for a in schedule.assignments))
    section = s.room.sections[0]
    section.individual = cut
    with pytest.raises(ConfigError, match="player 3 has no seat in these rounds: 2"):
        parse_command({"op": "substitute", "section": "A", "pair": 3, "player": 1,
                       "name": "Zoé Roux", "rounds": [1, 2]}, s.room, "dora")


def test_names_typed_at_check_in_are_accepted_one_player_at_a_time() -> None:
    """At table A1 in round 1, North-South's two players check in (their numbers, the
    names they typed); the director accepts North's, spelled his way: it is that player's
    name (one name, his number), logged as pair_names; South's is left as it was."""
    s = small()
    section = s.room.sections[0]
    north, east, south, _ = section.players("A1", 1) or (0, 0, 0, 0)
    ns = s.room.tables["A1"].pairs(1)[0]
    s.now += 5
    events = [DeviceEvent("A1", "A1-tab", "checkin", {
        "direction": "NS", "pair": ns, "players": [
            {"number": north, "name": "gaëlle durand"}, {"number": south, "name": "Jo"}]},
        s.now)]
    for tid, env in envelopes(events, devices=s.devices):
        assert s.room.apply(tid, env, env.time).reply.status == "ack"
    with pytest.raises(ConfigError, match="name the player"):
        parse_command({"op": "checkin_accept", "table": "A1", "side": "NS"}, s.room, "dora")
    with pytest.raises(ConfigError, match=f"player {east} has not checked in NS"):
        parse_command({"op": "checkin_accept", "table": "A1", "side": "NS", "player": east},
                      s.room, "dora")
    fact, body = command(s, op="checkin_accept", table="A1", side="NS", player=north,
                         names=["Gaëlle Durand"])
    assert fact == "pair_names" and body["pair"] == north and body["names"] == ["Gaëlle Durand"]
    assert body["checkin"]["typed"] == ["gaëlle durand"]
    assert section.pairs[north] == ("Gaëlle Durand",)
    assert section.pairs[south] == (f"Player {south:02d}",)
    assert list(s.room.scoring.section("A").names[north]) == ["Gaëlle Durand"]


def test_the_ladders_players_of_an_individual_are_its_players_and_their_substitutes() -> None:
    """A stored session's players (hub.series_players, the club's ladder): in an individual
    each player is credited with the boards of the lines that seat him, at his side's
    percentage; his substitute with those of his rounds."""
    from hub.series_players import section_players
    from tests.hub.test_individual_pages import games

    s = small()
    s.play(games())
    command(s, op="substitute", section="A", pair=3, player=1, name="Zoé Roux", rounds=[2])
    scored = s.room.scoring.section("A")
    players = section_players(s.room, scored, None)
    assert sorted(players) == list(range(1, 21))
    mine: dict[int, float] = {}                # player 3's percentage on each round's board
    for rows in scored.lines.values():
        for r in rows:
            seats = r["players"]
            if 3 in seats:
                ns = seats.index(3) in (0, 2)
                mine[r["round"]] = r["ns_percent" if ns else "ew_percent"]
    assert sorted(mine) == [1, 2, 3]
    himself, substitute = players[3]
    assert (himself["name"], himself["boards"]) == ("Player 03", 2)
    assert himself["percent"] == pytest.approx((mine[1] + mine[3]) / 2)
    assert (substitute["name"], substitute["boards"]) == ("Zoé Roux", 1)
    assert substitute["percent"] == pytest.approx(mine[2])
    assert all(p[0]["boards"] == 3 for n, p in players.items() if n != 3)


def test_a_late_players_boards_played_without_him_are_offered_to_be_ruled() -> None:
    """Player 19 comes in round 2: his table of round 1 could not play (three players), so
    his number has no board yet and takes his name (``pair_add``); that board is what he
    left unplayed (``unplayed``, offered on the evening page), his partner's too, and
    nobody else's. A Mitchell's sit-out has nothing unplayed."""
    from bridgecore.movements import mitchell
    from tests.hub.test_individual_pages import games

    setup = SectionSetup("A", "individual", players=20, rounds=3, boards_per_round=1,
                         pairs={p: [f"Player {p:02d}"] for p in range(1, 21) if p != 19})
    s = Session(Room(setup.room_section(), DEALS))
    schedule = setup.individual
    assert schedule is not None
    first = next(a for a in schedule.assignments if a.round == 1 and 19 in a.seats)
    s.play([g for g in games() if g[0] == 1 and g[1] != f"A{first.table}"])
    section = s.room.sections[0]
    lines = s.room.scoring.section("A").lines
    assert unplayed(section, lines, 19, 0) == []                # no round started
    command(s, op="pair_add", section="A", pair=19, names=["Late Nineteen"])
    side = "NS" if first.seats.index(19) in (0, 2) else "EW"
    want = [{"table": f"A{first.table}", "round": 1, "board": first.boards[0], "side": side}]
    assert unplayed(section, lines, 19, 1) == want
    partner = first.seats[(first.seats.index(19) + 2) % 4]
    assert unplayed(section, lines, partner, 1) == want
    assert all(unplayed(section, lines, p, 1) == [] for p in range(1, 21)
               if p not in first.seats)
    # A Mitchell without NS pair 5: the EW pair at table 5 sits out; his other rounds count.
    movement = mitchell(5, boards_per_round=1, missing_pair=5)
    sat_out = {a.round for a in movement.assignments if a.ew == 10 and a.ns is None}
    assert sat_out == {1}
    left = unplayed(Room(Section("B", movement), DEALS).sections[0], {}, 10, 5)
    assert [r["round"] for r in left] == [2, 3, 4, 5] and {r["side"] for r in left} == {"EW"}
