"""An event of several sessions (bridgecore/sessions.py), against figures worked by hand.

Three tables, North-South pairs 1-3 against East-West 4-6 (1 v 4, 2 v 5, 3 v 6), a top of 2.
Session 1, boards 1-2: board 1 NS 420, 450, -50 (pair 2 2, pair 1 1, pair 3 0); board 2
100, 100, 200 (pair 3 2, pairs 1 and 2 a half each): pair 1 1.5 of 4 (37.5%), pair 2 2.5
(62.5%), pair 3 2 (50%). Session 2, boards 3-6: board 3 600, 100, 100 (pair 1 2, pairs 2
and 3 a half each), boards 4-6 all tied (1 each): pair 1 5 of 8 (62.5%), pairs 2 and 3 3.5
(43.75%).
"""

from __future__ import annotations

import pytest

from bridgecore.adjusted import BoardResult
from bridgecore.cards import Side
from bridgecore.ranking import EventScore, Method, PairScore, score_event
from bridgecore.sessions import Form, add_sessions, add_up, imp_form

TABLES = [(1, 4), (2, 5), (3, 6)]


def session(scores: dict[int, list[int]]) -> EventScore:
    return score_event([BoardResult(board, ns, ew, score)
                        for board, row in scores.items()
                        for (ns, ew), score in zip(TABLES, row, strict=True)], "mp")


ONE = session({1: [420, 450, -50], 2: [100, 100, 200]})
TWO = session({3: [600, 100, 100], 4: [100] * 3, 5: [100] * 3, 6: [100] * 3})


def test_the_sessions_percentages_by_hand() -> None:
    assert {p.pair: p.percent for p in ONE.ranking if p.direction is Side.NS} == {
        1: 37.5, 2: 62.5, 3: 50.0}
    assert {p.pair: p.percent for p in TWO.ranking if p.direction is Side.NS} == {
        1: 62.5, 2: 43.75, 3: 43.75}


def test_two_sessions_add_up_by_the_boards_played() -> None:
    """Pair 1: (37.5·2 + 62.5·4)/6 = 54.17%, its 6.5 matchpoints of 12; pair 2: (62.5·2 +
    43.75·4)/6 = 50%; pair 3: (50·2 + 43.75·4)/6 = 45.83%. East-West mirror them: pair 4
    45.83%, pair 5 50%, pair 6 54.17%."""
    event = {t.pair: t for t in add_sessions([ONE, TWO])}
    assert event[1].percent == pytest.approx(6.5 / 12 * 100)
    assert event[1].percent == pytest.approx(54.1667, abs=1e-4)
    assert event[2].percent == pytest.approx(50.0) and event[3].percent == pytest.approx(
        45.8333, abs=1e-4)
    assert [(t.pair, t.rank) for t in add_sessions([ONE, TWO]) if t.direction is Side.NS] == [
        (1, 1), (2, 2), (3, 3)]
    assert event[6].percent == pytest.approx(54.1667, abs=1e-4) and event[6].rank == 1
    assert event[1].sessions == (37.5, 62.5) and event[1].boards == 6


def test_a_final_with_half_the_qualifying_carried_over() -> None:
    """Session 1 qualifies, session 2 is the final, half the qualifying margin carried:
    pair 1 62.5 + ½(37.5 − 50) = 56.25; pair 2 43.75 + ½(62.5 − 50) = 50; pair 3 43.75 + 0.
    """
    qualifying = {p.pair: p.percent for p in ONE.ranking if p.percent is not None}
    final = {t.pair: t for t in add_sessions([TWO], carry_from=qualifying,
                                             carry_fraction=0.5)}
    assert (final[1].percent, final[1].carry) == (56.25, -6.25)
    assert (final[2].percent, final[3].percent) == (50.0, 43.75)
    assert [final[p].rank for p in (1, 2, 3)] == [1, 2, 3]


def test_a_pair_missing_a_session_and_what_is_refused() -> None:
    """Pair 3 did not play session 2 (a session without it): ranked on session 1 alone, or
    left out with require_all. A fraction over 1 and an IMP session are refused."""
    short = score_event([BoardResult(board, ns, ew, score)
                         for board, row in {3: [600, 100], 4: [100, 100]}.items()
                         for (ns, ew), score in zip(TABLES[:2], row, strict=True)], "mp")
    event = {t.pair: t for t in add_sessions([ONE, short])}
    assert event[3].percent == 50.0 and event[3].sessions == (50.0, None)
    assert 3 not in {t.pair for t in add_sessions([ONE, short], require_all=True)}
    with pytest.raises(ValueError, match="fraction"):
        add_sessions([ONE], carry_from={}, carry_fraction=1.5)
    imps = score_event([BoardResult(1, 1, 2, 420), BoardResult(1, 3, 4, 400)], "crossimp")
    with pytest.raises(ValueError, match="different methods"):
        add_sessions([ONE, imps])


def test_the_linear_carry_over_by_qualifying_place() -> None:
    """Five finalists, 6 points to the first (the WBF's BAM final of 2023: the winner 6, the
    last qualifier 0): 6·(5 − place)/4, so 6, 4.5, 3, 1.5, 0; two tied for second both
    carry the second's 4.5 and the next is fourth (1.5)."""
    from bridgecore.sessions import carry_by_place
    assert carry_by_place({"a": 60.0, "b": 55.0, "c": 52.0, "d": 48.0, "e": 40.0}, 6.0) == {
        "a": 6.0, "b": 4.5, "c": 3.0, "d": 1.5, "e": 0.0}
    assert carry_by_place({"a": 60.0, "b": 55.0, "c": 55.0, "d": 48.0, "e": 40.0}, 6.0) == {
        "a": 6.0, "b": 4.5, "c": 4.5, "d": 1.5, "e": 0.0}
    assert carry_by_place({"a": 50.0}, 3.0) == {"a": 3.0}
    with pytest.raises(ValueError, match="0 points or more"):
        carry_by_place({"a": 50.0}, -1.0)


def _imps(method: Method, rows: list[tuple[int, float, int]]) -> EventScore:
    """A session's ranking as its scorer left it: (pair, total, boards played)."""
    return EventScore(method, {}, tuple(PairScore(p, None, total, None, 0, boards)
                                        for p, total, boards in rows))


BUTLER_1 = _imps(Method.BUTLER, [(1, 12.0, 24), (2, -5.0, 24), (3, -7.0, 24)])


def test_butler_sessions_add_their_imps() -> None:
    """Every pair played both sessions (24 + 26 boards): the IMPs added, pair 1 12 − 4 = 8,
    pair 2 −5 + 10 = 5, pair 3 −7 − 6 = −13."""
    two = _imps(Method.BUTLER, [(1, -4.0, 26), (2, 10.0, 26), (3, -6.0, 26)])
    event = {t.pair: t for t in add_sessions([BUTLER_1, two])}
    assert {p: (t.percent, t.rank, t.boards) for p, t in event.items()} == {
        1: (8.0, 1, 50), 2: (5.0, 2, 50), 3: (-13.0, 3, 50)}
    assert event[2].sessions == (-5.0, 10.0)


def test_imps_per_board_when_the_pairs_boards_differ() -> None:
    """Pair 3 missed the second session, pair 4 played only it: the IMPs per board played,
    pair 1 8/50 = 0.16, pair 2 5/50 = 0.10, pair 4 0/26 = 0, pair 3 −7/24 = −0.2917."""
    two = _imps(Method.CROSS_IMPS, [(1, -4.0, 26), (2, 10.0, 26), (4, 0.0, 26)])
    lines = [[(p.pair, p.total, p.boards, None) for p in s.ranking] for s in (BUTLER_1, two)]
    assert imp_form(lines) is Form.IMPS_PER_BOARD
    event = {t.pair: t for t in add_up(lines, form=imp_form(lines))}
    assert event[1].percent == pytest.approx(0.16) and event[2].percent == pytest.approx(0.1)
    assert event[4].percent == 0.0 and event[3].percent == pytest.approx(-7 / 24)
    assert [event[p].rank for p in (1, 2, 4, 3)] == [1, 2, 3, 4]
    # a final of IMPs with half the qualifying carried over: the margin over 0 IMPs
    final = {t.pair: t for t in add_up([[(1, 3.0, 26, None), (2, 1.0, 26, None)]],
                                       carry_from={1: 8.0, 2: 5.0}, carry_fraction=0.5,
                                       form=Form.IMPS)}
    assert (final[1].percent, final[1].carry) == (7.0, 4.0)
    assert (final[2].percent, final[2].carry) == (3.5, 2.5)


def test_teams_add_their_victory_points() -> None:
    """Three teams, two sessions of matches on the VP scale: team 1 28.5 + 35.2 = 63.7,
    team 2 31.5 + 22.1 = 53.6, team 3 30.0 + 32.7 = 62.7. A share of the margin cannot be
    carried over in VPs (no average score): refused, by place it can."""
    one = _imps(Method.IMPS, [(1, 28.5, 16), (2, 31.5, 16), (3, 30.0, 16)])
    two = _imps(Method.IMPS, [(1, 35.2, 16), (2, 22.1, 16), (3, 32.7, 16)])
    event = {t.pair: t for t in add_sessions([one, two], victory_points=True)}
    assert {p: round(t.percent, 2) for p, t in event.items()} == {1: 63.7, 2: 53.6, 3: 62.7}
    assert [event[p].rank for p in (1, 3, 2)] == [1, 2, 3]
    with pytest.raises(ValueError, match="by place"):
        add_sessions([two], carry_from={1: 28.5}, carry_fraction=0.5, victory_points=True)
