"""Four seat tablets cut off together (hub/ordering.py, protocol section 6: a card's ``at``
names its ``trick``): each tablet knows only its own cards, so each card says the trick its
seat plays it to; back in any order, the hub applies every card at its place and ends with
exactly the record the table played, and no alert (Law 44: one card of each seat to each
trick, in rotation from the leader; no false play out of turn, Law 57)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from bridgecore.board import Board
from bridgecore.calls import Call
from bridgecore.cards import Seat
from tests.hub.test_table import BOARD_1, START, make_room
from wire.protocol import Envelope

ORDERS = list(itertools.permutations("NEW"))   # the three devices that hold cards


def played_board() -> list[tuple[str, str, int]]:
    """The board as played at the table: 1S by North, every card in turn (seat, card,
    trick)."""
    board = Board(1, BOARD_1)
    for seat, call in zip((Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST),
                          ("1S", "Pass", "Pass", "Pass"), strict=True):
        board.push_call(seat, Call.parse(call))
    out = []
    play = board.play
    assert play is not None
    while play.turn is not None:
        seat = play.turn
        card = min(play.legal_cards, key=lambda c: (c.suit, c.rank))
        done = sum(1 for t in play.tricks if t.winner is not None)
        out.append((seat.letter, str(card), done + 1))
        board.play_card(seat, card)
    return out


@pytest.mark.parametrize("order", ORDERS)
def test_law_44_four_seat_tablets_back_in_any_order_give_the_record_they_played(
        order: tuple[str, ...]) -> None:
    room = make_room()
    seq: dict[str, int] = {}
    clock = [START]

    def send(device: str, type: str, body: dict[str, Any],
             at: dict[str, int] | None = None) -> Any:
        name = f"A1-{device}"
        seq[name] = n = seq.get(name, 0) + 1
        clock[0] += 1.0
        env = Envelope(f"{name}-{n:06d}", name, n, clock[0], type, body, at=at)
        out = room.apply("A1", env, clock[0])
        assert out.reply.status == "ack", out.reply
        return out

    send("N", "checkin", {"direction": "NS", "pair": 1})
    send("E", "checkin", {"direction": "EW", "pair": 4})
    send("N", "board", {"board": 1})
    for seat, call in zip("NESW", ("1S", "Pass", "Pass", "Pass"), strict=True):
        send(seat, "call", {"seat": seat, "call": call})
    record = played_board()
    # Cut off: each tablet keeps its cards (North's plays dummy's too), each with its trick.
    kept: dict[str, list[tuple[str, str, int]]] = {"N": [], "E": [], "W": []}
    for seat, card, trick in record:
        kept["N" if seat in "NS" else seat].append((seat, card, trick))
    alerts = []
    for device in order:                       # back one after the other
        for seat, card, trick in kept[device]:
            out = send(device, "card", {"seat": seat, "card": card, "source": "tablet"},
                       at={"board": 1, "trick": trick})
            alerts += out.alerts
    sitting = room.tables["A1"].sitting
    assert [(x.letter, str(c)) for x, c, _ in sitting.board.play.history] == [
        (s, c) for s, c, _ in record]
    assert alerts == [] and not room.alerts.open()
    assert sitting.over


def test_law_57_a_connected_card_out_of_turn_is_still_alerted() -> None:
    """With its place in the trick (``position``), a card played out of turn by a tablet
    that saw the trick is applied as it comes and alerted: the place does not hide it."""
    room = make_room()
    seq: dict[str, int] = {}

    def send(device: str, type: str, body: dict[str, Any],
             at: dict[str, int] | None = None) -> Any:
        name = f"A1-{device}"
        seq[name] = n = seq.get(name, 0) + 1
        env = Envelope(f"{name}-{n:06d}", name, n, START + len(seq) + n, type, body, at=at)
        return room.apply("A1", env, START + 100 + n)

    send("N", "checkin", {"direction": "NS", "pair": 1})
    send("E", "checkin", {"direction": "EW", "pair": 4})
    send("N", "board", {"board": 1})
    for seat, call in zip("NESW", ("1S", "Pass", "Pass", "Pass"), strict=True):
        send(seat, "call", {"seat": seat, "call": call})
    send("E", "card", {"seat": "E", "card": "HJ"}, at={"board": 1, "trick": 1, "position": 1})
    out = send("W", "card", {"seat": "W", "card": "H2"},
               at={"board": 1, "trick": 1, "position": 2})   # South (dummy) is on turn
    assert out.reply.code == "ok"
    assert [a.kind for a in room.alerts.open()] == ["play_out_of_turn"]
