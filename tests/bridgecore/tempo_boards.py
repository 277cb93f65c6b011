"""Golden boards with known times for the tempo tests (bridgecore, hub, tenace): each is a
list of calls with the seconds each took and a legal play (the first legal card each time)
at a steady pace, as :class:`bridgecore.tempo.Action` values from a start time."""

from __future__ import annotations

import random
from collections.abc import Sequence

from bridgecore.bigdeal import random_deal
from bridgecore.board import Board
from bridgecore.calls import Call
from bridgecore.cards import Seat
from bridgecore.deal import Deal
from bridgecore.pbn_writer import write_pbn
from bridgecore.randomgame import random_record
from bridgecore.record import GameRecord
from bridgecore.tempo import TEMPO_TABLE, Action, Source, tempo_table

START = 1_700_000_000.0

# (call, seconds since the previous action, STOP card shown)
# Annex I kept: East's 2S is a jump with a STOP; South waits 7 s before passing.
STOP_KEPT = [("1H", 20.0, False), ("2S", 3.0, True), ("Pass", 7.0, False), ("3S", 4.0, False),
             ("Pass", 3.0, False), ("Pass", 2.0, False), ("Pass", 2.0, False)]
# Annex I not kept: East jumps to 3S with a STOP; South passes after 1 s.
STOP_NOT_KEPT = [("1H", 20.0, False), ("3S", 3.0, True), ("Pass", 1.0, False),
                 ("Pass", 3.0, False), ("Pass", 2.0, False)]
# 16B: North hesitates 45 s before passing; South, after the hesitation, thinks 30 s and
# bids on.
HESITATION = [("1H", 20.0, False), ("1S", 3.0, False), ("2H", 4.0, False), ("2S", 3.0, False),
              ("Pass", 45.0, False), ("Pass", 2.0, False), ("3H", 30.0, False),
              ("Pass", 2.0, False), ("Pass", 3.0, False), ("Pass", 2.0, False)]
# A slow table: every call and card takes 20 s (74B4).
SLOW = [("1H", 20.0, False), ("Pass", 20.0, False), ("2H", 20.0, False), ("Pass", 20.0, False),
        ("Pass", 20.0, False), ("Pass", 20.0, False)]


def golden_actions(deal: Deal, number: int, calls: Sequence[tuple[str, float, bool]], *,
                  start: float = START, card_gap: float = 2.0, lead_gap: float = 25.0,
                  cards: int = 52, reader: bool = False) -> list[Action]:
    """The board's actions with their times (cards by the table's reader with ``reader``)."""
    board = Board(number, deal)
    t = start
    out: list[Action] = []
    for text, gap, stop in calls:
        seat = board.auction.turn
        assert seat is not None
        t += gap
        board.make_call(seat, Call.parse(text), t)
        out.append(Action("call", seat, text, t, Source.TAP, f"{seat.letter}", stop))
    play = board.play
    n = 0
    while play is not None and not play.is_complete and n < cards:
        seat = play.turn
        assert seat is not None
        card = play.legal_cards[0]
        t += lead_gap if n == 0 else card_gap
        board.play_card(seat, card, t)
        out.append(Action("card", seat, str(card), t, Source.TAG if reader else Source.TAP,
                          "rdr" if reader else seat.letter))
        n += 1
    return out


def dealer_of(number: int) -> Seat:
    return Seat.dealer_of(number)


def timed_board(n: int) -> GameRecord:
    """A random played board ``n`` with its ``TempoTable`` (every action timed)."""
    rng = random.Random(n)
    record = random_record(rng, n, random_deal(rng))
    table = tempo_table(record, started_at=1000.0 * n)
    assert table is not None
    record.tables[TEMPO_TABLE] = table
    return record


def _rows(record: GameRecord) -> list[list[str]]:
    return record.tables[TEMPO_TABLE].rows


def broken_tempo_file() -> str:
    """Ten boards whose tables are whole, broken in every way the reader knows (a call and a
    card not the record's, a time that is no number, a row given twice, rows out of order, a
    short row, no Time column), odd text inside (a string, a comment, an escape line), empty,
    or one bad row (issue 27: the lazy and deferred reads against the eager one)."""
    boards = [timed_board(n) for n in range(1, 10)]
    _rows(boards[1])[3][2] = "7NT"                   # a call that is not the record's
    _rows(boards[1])[-1][3] = "nan"                  # a time that is no number
    rows = _rows(boards[2])
    rows.append(list(rows[2]))                       # a row given twice
    rows[5][2] = "ZZ"
    rows = _rows(boards[3])
    rows[1], rows[2] = rows[2], rows[1]              # out of order
    rows[-1][2] = "C2"                               # a card that is not the record's
    del _rows(boards[4])[7][3:]                      # a short row
    _rows(boards[4])[-2][2] = "S3"
    boards[5].tables[TEMPO_TABLE].columns = ["Action", "Seat", "Item"]   # no Time column
    text = write_pbn(boards)
    # A string, a comment and an escape line inside board 7's table; board 8's table empty.
    lines = text.split("\r\n")
    tempo_tags = [i for i, line in enumerate(lines) if line.startswith("[TempoTable")]
    at = tempo_tags[6]
    lines[at + 3] += ' "quoted item"'
    lines.insert(at + 5, "{a comment in the table}")
    lines.insert(at + 8, "% an escape line")
    lines[at + 10] = lines[at + 10].replace(lines[at + 10].split()[2], "HX", 1)
    at = [i for i, line in enumerate(lines) if line.startswith("[TempoTable")][7]
    end = at + 1
    while lines[end] and not lines[end].startswith("["):
        end += 1
    del lines[at + 1:end]
    return "\r\n".join(lines) + '\r\n[Board "10"]\r\n[TempoTable "Action;Time"]\r\nC1 x\r\n'
