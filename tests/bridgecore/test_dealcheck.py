"""A dealt board checked against its hand record (bridgecore/dealcheck.py; Laws 6D1, 87)."""

from __future__ import annotations

import random

from bridgecore.bigdeal import random_deal
from bridgecore.cards import Seat
from bridgecore.dealcheck import check_dealt

N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST


def test_check_dealt_reports_every_difference_at_once() -> None:
    deal = random_deal(random.Random(7))
    dealt = {s: list(deal[s].cards) for s in (N, E, S, W)}
    dealt[N][0], dealt[S][0] = dealt[S][0], dealt[N][0]
    dealt[E].pop()
    check = check_dealt(1, deal, dealt)
    assert [p.seat for p in check.pockets] == [N, E, S]
    assert check.pockets[0].extra == (deal[S].cards[0],)
    assert check.pockets[1].count == 12 and check.absent == (deal[E].cards[-1],)
    assert check_dealt(1, deal, {s: deal[s].cards for s in (N, E, S, W)}).ok


def test_law_87_a_pocket_holding_another_seats_hand_is_named() -> None:
    deal = random_deal(random.Random(3))
    check = check_dealt(4, deal, {N: deal[E].cards, E: deal[N].cards, S: deal[S].cards,
                                  W: deal[W].cards})
    assert [(p.seat, p.holds) for p in check.pockets] == [(N, E), (E, N)]
    assert check.describe() == "N holds E's hand; E holds N's hand"
    assert check.to_json()["pockets"]["N"]["holds"] == "E"
