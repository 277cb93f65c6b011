"""Swiss pairing (bridgecore/swiss.py) and standings (bridgecore/swiss_standings.py), on
cases worked by hand: round 1 by seeding and by a seeded draw, no rematch while one can be
avoided (with the backtracking that takes), the bye to the lowest-placed without one, the
look-ahead that keeps the last round possible, the Swiss movement's seats, and each
tie-break of the final ranking (Law 78D: victory points on the WBF 2013 scale)."""

from __future__ import annotations

import math

import pytest

from bridgecore.methods import victory_points
from bridgecore.swiss import Pairing, first_round, next_round, swiss_movement
from bridgecore.swiss_standings import MatchScore, bye_points, standings


def games(pairings: tuple[Pairing, ...]) -> set[tuple[int, int | None]]:
    return {(p.home, p.away) for p in pairings}


def rounds(*spec: list[tuple[int, int | None]]) -> list[Pairing]:
    return [Pairing(r, a, b) for r, one in enumerate(spec, 1) for a, b in one]


def test_round_1_by_seeding_and_the_last_seed_sits_out() -> None:
    assert games(first_round([1, 2, 3, 4, 5])) == {(1, 2), (3, 4), (5, None)}


def test_round_1_drawn_from_a_seed_is_the_same_every_time() -> None:
    drawn = first_round(range(1, 9), seed=2026)
    assert drawn == first_round(range(1, 9), seed=2026)
    assert sorted(c for p in drawn for c in (p.home, p.away)) == list(range(1, 9))
    assert any(first_round(range(1, 9), seed=s) != drawn for s in range(5))


def test_danish_order_top_plays_the_highest_placed_not_met() -> None:
    played = rounds([(1, 2), (3, 4)])
    assert games(next_round(2, [1, 2, 3, 4], played)) == {(1, 3), (2, 4)}
    played += rounds([], [(1, 3), (2, 4)])[0:2]
    assert games(next_round(3, [1, 3, 2, 4], played)) == {(1, 4), (3, 2)}


def test_backtracking_avoids_a_rematch_lower_down() -> None:
    """After 1-2, 3-4, 5-6 and 1-3, 2-5, 4-6: 1 takes 4, then 2-3 would leave 5-6, who
    met: 2 takes 6 instead, and 3-5 is new."""
    played = rounds([(1, 2), (3, 4), (5, 6)], [(1, 3), (2, 5), (4, 6)])
    assert games(next_round(3, [1, 2, 3, 4, 5, 6], played)) == {(1, 4), (2, 6), (3, 5)}


def test_look_ahead_keeps_the_last_round_possible() -> None:
    """Same two rounds, standings 1, 6, 2, 4, 3, 5. Plain Danish order gives 1-6, 2-4,
    3-5, after which the pairs not yet met are the triangles {1,4,5} and {2,3,6}: round 4
    has no pairing without a rematch. With round 4 to come, 2 takes 3 instead (then 4-5):
    what is left is the cycle 1-4-2-6-3-5-1, and round 4 is 1-4, 2-6, 3-5."""
    played = rounds([(1, 2), (3, 4), (5, 6)], [(1, 3), (2, 5), (4, 6)])
    order = [1, 6, 2, 4, 3, 5]
    greedy = next_round(3, order, played)
    assert games(greedy) == {(1, 6), (2, 4), (3, 5)}
    stuck = next_round(4, order, [*played, *greedy])
    met = {frozenset((p.home, p.away)) for p in [*played, *greedy]}
    assert any(frozenset((p.home, p.away)) in met for p in stuck)   # a rematch is forced
    kept = next_round(3, order, played, rounds=4)
    assert games(kept) == {(1, 6), (2, 3), (4, 5)}
    last = next_round(4, order, [*played, *kept], rounds=4)
    assert games(last) == {(1, 4), (6, 2), (3, 5)}
    assert not {frozenset((p.home, p.away)) for p in last} & {
        frozenset((p.home, p.away)) for p in [*played, *kept]}


def test_bye_to_the_lowest_placed_that_has_not_had_one() -> None:
    r1 = list(first_round([1, 2, 3, 4, 5]))           # 5 sits out
    r2 = next_round(2, [1, 3, 2, 4, 5], r1)           # 5 last again: 4 has the bye
    assert (4, None) in games(r2) and (5, None) not in games(r2)
    r3 = next_round(3, [5, 4, 3, 2, 1], [*r1, *r2])   # 1 last, no bye yet
    assert (1, None) in games(r3)


def test_a_rematch_only_when_nothing_else_is_possible() -> None:
    assert games(next_round(2, [2, 1], [Pairing(1, 1, 2)])) == {(2, 1)}


def test_swiss_teams_movement_two_rooms_and_the_bye() -> None:
    """Team A home: pairs 2A-1 NS at the first table, 2A EW at the second; round r plays
    board set r at every table (shared boards); the team with the bye has no table."""
    m = swiss_movement(5, 4, [Pairing(1, 1, 2), Pairing(1, 3, 4), Pairing(1, 5)],
                       teams=True, boards_per_round=3)
    assert m.name == "Teams Swiss 5 teams" and m.tables == 4 and m.drawn == 1
    cells = [(a.table, a.ns, a.ew, a.boards) for a in m.round(1)]
    assert cells == [(1, 1, 4, (1, 2, 3)), (2, 3, 2, (1, 2, 3)),
                     (3, 5, 8, (1, 2, 3)), (4, 7, 6, (1, 2, 3))]
    assert m.pairs == tuple(range(1, 11)) and m.boards == tuple(range(1, 13))
    assert m.assignment(2, 1) is None and m.validate() == []
    pairs = swiss_movement(4, 3, [Pairing(1, 3, 1), Pairing(1, 2, 4)], teams=False)
    assert [(a.table, a.ns, a.ew) for a in pairs.round(1)] == [(1, 3, 1), (2, 2, 4)]
    with pytest.raises(ValueError, match="plays twice"):
        swiss_movement(4, 3, [Pairing(1, 1, 2), Pairing(1, 2, 3)], teams=False)


def test_head_to_head_breaks_a_tie_between_two_that_met() -> None:
    """1 beat 2 by 5 IMPs, lost to 3 by 5; 2 beat 4 by 5: 1 and 2 have 20 VPs each, and 1
    won their match. 3: 10 + a, 4: 30 - a, where a = VPs for a 5-IMP win (> 10)."""
    a = victory_points(5, 1)[0]
    assert 10 < a < 20
    pairings = rounds([(1, 2), (3, 4)], [(3, 1), (2, 4)])
    scores = [MatchScore(1, 1, 2, (5,), (-5,)), MatchScore(1, 3, 4, (0,), (0,)),
              MatchScore(2, 3, 1, (5,), (-5,)), MatchScore(2, 2, 4, (5,), (-5,))]
    table = standings(range(1, 5), pairings, scores)
    assert [(s.contestant, s.vp, s.rank) for s in table] == [
        (3, 10 + a, 1), (1, 20.0, 2), (2, 20.0, 3), (4, pytest.approx(30 - a), 4)]
    assert table[1].tie_break == "head-to-head"


def test_imp_quotient_when_the_tied_did_not_meet() -> None:
    """Both winners are past the blitz (20 VPs): 1 won 40-0 (quotient infinite), 2 won
    60-10 (6); of the losers 4 (10/60) is above 3 (0/40)."""
    pairings = rounds([(1, 3), (2, 4)])
    scores = [MatchScore(1, 1, 3, (40, 0), (-40, 0)), MatchScore(1, 2, 4, (60, -10), (-60, 10))]
    table = standings(range(1, 5), pairings, scores)
    assert [(s.contestant, s.vp, s.rank, s.tie_break) for s in table] == [
        (1, 20.0, 1, "IMP quotient"), (2, 20.0, 2, ""), (4, 0.0, 3, "IMP quotient"),
        (3, 0.0, 4, "")]
    assert math.isinf(table[0].quotient) and table[1].quotient == 6.0
    assert table[0].to_json()["quotient"] is None


def test_opponents_vps_then_a_shared_rank() -> None:
    """Five teams, every match drawn, byes 12 VPs: 4 and 5 have 22 (shared first: equal
    opponents' VPs, 20 each); 1 and 3 have 20 with opponents worth 42 (shared third), 2
    has 20 with 40."""
    pairings = rounds([(1, 2), (3, 4), (5, None)], [(1, 5), (2, 3), (4, None)])
    scores = [MatchScore(r, a, b, (0,), (0,)) for r, a, b in
              ((1, 1, 2), (1, 3, 4), (2, 1, 5), (2, 2, 3))]
    table = standings(range(1, 6), pairings, scores)
    assert [(s.contestant, s.vp, s.buchholz, s.rank) for s in table] == [
        (4, 22.0, 20.0, 1), (5, 22.0, 20.0, 1), (1, 20.0, 42.0, 3), (3, 20.0, 42.0, 3),
        (2, 20.0, 40.0, 5)]
    assert table[3].tie_break == "opponents' VPs"


def test_bye_scores_12_or_the_average() -> None:
    assert bye_points(12, [3.0]) == 12.0
    assert bye_points("average", [15.0, 11.0]) == 13.0
    assert bye_points("average", []) == 12.0
    pairings = rounds([(1, 2), (3, None)], [(3, 1), (2, None)])
    scores = [MatchScore(1, 1, 2, (0,), (0,)), MatchScore(2, 3, 1, (0,), (0,))]
    vps = {s.contestant: s.vp for s in standings(range(1, 4), pairings, scores, bye="average")}
    assert vps == {1: 20.0, 2: 20.0, 3: 20.0}
    with pytest.raises(ValueError, match="average"):
        bye_points("half", [])


@pytest.mark.parametrize(("count", "seed"), [(8, 1), (8, 2), (8, 3), (7, 4), (10, 5)])
def test_the_look_ahead_completes_a_whole_round_robin(count: int, seed: int) -> None:
    """As many rounds as a round robin, the standings drawn at random each round: the draw
    never runs out of opponents not yet met, and every bye goes to a different one."""
    import random
    rng = random.Random(seed)
    total = count + count % 2 - 1
    played = list(first_round(range(1, count + 1)))
    for r in range(2, total + 1):
        order = rng.sample(range(1, count + 1), count)
        played += next_round(r, order, played, rounds=total)
    met = [frozenset((p.home, p.away)) for p in played if p.away is not None]
    assert len(met) == len(set(met)) == count * (count - 1) // 2
    byes = [p.home for p in played if p.away is None]
    assert len(byes) == len(set(byes)) == (total if count % 2 else 0)
