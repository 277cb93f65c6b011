"""bridgecore.tempo: think times, the STOP wait (FFB Annex I), breaks in tempo (Laws 16B,
73C, 73D), slow play (Law 74B4), and the times carried through PBN and LIN."""

from __future__ import annotations

import random

import pytest

from bridgecore.bigdeal import random_deal
from bridgecore.calls import Call
from bridgecore.cards import Seat
from bridgecore.lin import read_lin, write_lin
from bridgecore.pbn import read_pbn
from bridgecore.pbn_writer import write_pbn
from bridgecore.record import GameRecord
from bridgecore.tempo import (
    FLOORS,
    TEMPO_TABLE,
    Action,
    BoardActions,
    BoardTempo,
    Source,
    board_actions,
    is_jump,
    mark_breaks,
    nearest_rank,
    record_calls_cards,
    slow_play,
    tempo_table,
    threshold,
    time_board,
)
from tests.bridgecore.tempo_boards import (
    HESITATION,
    SLOW,
    START,
    STOP_KEPT,
    STOP_NOT_KEPT,
    golden_actions,
)

DEAL = random_deal(random.Random(1))


def timed(calls: list[tuple[str, float, bool]], table: str = "A1", **kw: float) -> BoardTempo:
    actions = golden_actions(DEAL, 1, calls, **kw)
    return time_board(BoardActions(table, 1, Seat.NORTH, tuple(actions), START, 1, "1", "4"))


def test_annex_i_jump_bids_include_a_jump_opening() -> None:
    """Annex I: a jump bid is one above the lowest sufficient level in its strain, an
    opening above the one level included."""
    p = Call.parse
    assert is_jump(p("2S"), p("1H")) and is_jump(p("3H"), p("1S"))
    assert not is_jump(p("1S"), p("1H")) and not is_jump(p("2H"), p("1S"))
    assert is_jump(p("2H"), None) and not is_jump(p("1NT"), None)
    assert not is_jump(p("X"), p("1H")) and not is_jump(p("Pass"), None)


def test_think_time_runs_from_the_turn_and_dummy_cards_are_declarers() -> None:
    b = timed(STOP_KEPT)
    first, second = b.actions[0], b.actions[1]
    assert first.turn_at == START and first.think == pytest.approx(20.0)
    assert second.turn_at == first.at and second.think == pytest.approx(3.0)
    assert b.declarer is Seat.EAST
    lead = b.actions[7]
    assert lead.kind == "lead" and lead.seat is Seat.SOUTH and lead.think == pytest.approx(25.0)
    dummy_cards = [a for a in b.actions if a.kind == "card" and a.seat is Seat.WEST]
    assert dummy_cards and all(a.player is Seat.EAST for a in dummy_cards)
    assert second.precision == pytest.approx(0.2)  # two taps


def test_annex_i_stop_wait_counted_apart_and_kept() -> None:
    """Annex I: after East's jump (STOP shown) South's first 10 s are the STOP wait; 7 s
    waited is no thought and no mark."""
    b = mark_breaks([timed(STOP_KEPT)])[0]
    south = b.actions[2]
    assert south.after_jump and south.stop_wait == pytest.approx(7.0) and south.think == 0.0
    assert b.actions[1].stop and not b.actions[3].after_jump
    assert b.marks == []


def test_annex_i_stop_wait_not_kept_is_marked() -> None:
    """Annex I (73A2): South calls 1 s after East's jump: marked, nothing more."""
    b = mark_breaks([timed(STOP_NOT_KEPT)])[0]
    (mark,) = b.marks
    assert mark.kind == "stop_not_kept" and mark.index == 2 and mark.player is Seat.SOUTH
    assert mark.think == pytest.approx(1.0) and "Annex I" in mark.law


def test_law_16b_hesitation_marked_with_partners_next_action() -> None:
    """Laws 16B, 73C, 73D: North's 45 s pass is a break; South's 30 s 3H after it too, and
    North's mark points at it (the action a director looks at)."""
    b = mark_breaks([timed(HESITATION)])[0]
    breaks = [m for m in b.marks if m.kind == "tempo_break"]
    assert [(m.index, m.player) for m in breaks] == [(4, Seat.NORTH), (6, Seat.SOUTH)]
    assert breaks[0].partner_next == 6 and breaks[0].think == pytest.approx(45.0)
    assert breaks[0].limit == FLOORS["call"] and "16B" in breaks[0].law


def test_rule_uses_own_pace_and_the_other_tables() -> None:
    """The limit is max(3 x own median, the field's p90 at the other tables, the floor)."""
    assert threshold("call", [1, 2, 3, 4], []) == (FLOORS["call"], None, None)
    assert threshold("card", [5, 5, 5, 6, 9], [])[0] == 15.0
    field = [float(x) for x in range(1, 11)]
    assert threshold("call", [], field) == (9.0, None, 9.0)
    assert threshold("call", [], [*field, 40.0, 50.0])[2] == 40.0
    assert nearest_rank([3.0, 1.0, 2.0], 0.5) == 2.0
    # The same 45 s at a table where the field takes as long is not a break.
    slow_field = [timed(HESITATION, table=f"A{i}") for i in range(2, 6)]
    marked = mark_breaks([timed(HESITATION), *slow_field])
    assert all(m.index != 4 for m in marked[0].marks)


def test_law_74b4_slow_table_against_the_allowance() -> None:
    """Law 74B4: a table taking 20 s an action is over a 7.5-minute allowance; the sides'
    times add up to the table's."""
    slow = timed(SLOW, card_gap=20.0, lead_gap=20.0)
    fine = timed(STOP_KEPT)
    rows = slow_play([slow, fine], 450.0)
    assert rows[0].over and not rows[1].over
    assert sum(rows[0].sides.values()) == pytest.approx(rows[0].seconds)
    assert rows[0].slow_sides() and rows[0].to_json()["over"] is True


def test_precision_follows_the_source() -> None:
    actions = golden_actions(DEAL, 1, STOP_KEPT, reader=True)
    b = time_board(BoardActions("A1", 1, Seat.NORTH, tuple(actions), START))
    assert b.actions[8].source is Source.TAG and b.actions[8].precision == pytest.approx(1.0)
    assert b.actions[7].precision == pytest.approx(0.6)  # a tap then a tag


def golden_record() -> GameRecord:
    actions = golden_actions(DEAL, 1, HESITATION)
    calls, cards = record_calls_cards(actions)
    record = GameRecord(board=1, dealer=Seat.NORTH, deal=DEAL, calls=calls, plays=cards)
    record.tags["Table"] = "A1"
    table = tempo_table(record, started_at=START, sources=[a.source for a in actions],
                        stops=[1])
    assert table is not None
    record.tables[TEMPO_TABLE] = table
    return record


def test_pbn_carries_the_times_and_reads_them_back() -> None:
    record = golden_record()
    text = write_pbn([record])
    assert '[TempoTable "Action\\3R;Seat;Item\\4L;Time\\16R;Source;Stop"]' in text
    (back,) = read_pbn(text).records
    assert back.problems == []
    assert [c.time for c in back.calls] == [c.time for c in record.calls]
    assert [p.time for p in back.plays] == [p.time for p in record.plays]
    again = board_actions(back)
    assert again.started_at == START and again.actions[1].stop
    assert again.table == "A1" and again.actions[0].source is Source.TAP


def test_pbn_writer_adds_the_table_for_timed_records_and_other_readers_skip_it() -> None:
    record = golden_record()
    del record.tables[TEMPO_TABLE]
    text = write_pbn([record])
    assert "[TempoTable" in text
    # Without the table (what a program that skips it sees) the board is the same.
    kept, skipping = [], False
    for line in text.split("\r\n"):
        if line.startswith("["):
            skipping = line.startswith("[TempoTable")
        if not skipping:
            kept.append(line)
    bare = "\r\n".join(kept)
    assert "1700000000" not in bare
    (plain,) = read_pbn(bare).records
    assert [str(c.call) for c in plain.calls] == [str(c.call) for c in record.calls]
    assert all(c.time is None for c in plain.calls)


def test_lin_carries_the_times_in_an_nt_note_and_reads_them_back() -> None:
    record = golden_record()
    text = write_lin([record])
    assert "nt|tenace-tempo 1 @,Table=A1;0,-,-,1700000000.0,hub,-;C1,N,1H," in text
    (back,) = read_lin(text).records
    assert back.commentary == [] and back.problems == []
    assert [c.time for c in back.calls] == [c.time for c in record.calls]
    assert [p.time for p in back.plays] == [p.time for p in record.plays]
    assert board_actions(back).started_at == START and back.tags["Table"] == "A1"
    # Through PBN and back to LIN: the same times.
    (via_pbn,) = read_pbn(write_pbn([back])).records
    assert [p.time for p in via_pbn.plays] == [p.time for p in record.plays]


def test_a_row_that_is_not_the_records_action_is_a_problem() -> None:
    record = golden_record()
    table = record.tables[TEMPO_TABLE]
    table.rows[1][2] = "7NT"
    (back,) = read_pbn(write_pbn([record])).records
    assert back.calls[0].time is None and back.calls[1].time is not None
    assert any("C1" in p.message for p in back.problems)


# Issue 23: four places where the rule and docs/tempo.md disagreed --------------------------

def test_the_action_after_an_untimed_one_is_not_timed_from_an_earlier_action() -> None:
    """An untimed call (a row left out) ends the turn of the action before it at an unknown
    time: the next action's turn is unknown too, so it is not timed (its think time would
    include the untimed one and could mark the wrong player)."""
    actions = list(golden_actions(DEAL, 1, HESITATION))
    actions[4] = Action(actions[4].kind, actions[4].seat, actions[4].item, None,
                        actions[4].source)                 # North's 45 s pass: no time
    b = mark_breaks([time_board(BoardActions("A1", 1, Seat.NORTH, tuple(actions), START))])[0]
    assert b.actions[4].think is None and b.actions[5].think is None
    assert b.actions[5].turn_at is None
    assert b.actions[6].think == pytest.approx(30.0)        # timed again from a known turn
    assert all(m.index not in (4, 5) for m in b.marks)


def test_rows_in_the_writers_order_with_bad_items_and_times_keep_what_can_be_read() -> None:
    """Issue 27: a table in the writer's order is read straight through; each row that is
    not the record's action is a problem, a time that is not a finite number is no time,
    and every other row's time is kept."""
    record = golden_record()
    rows = record.tables[TEMPO_TABLE].rows
    first_card = next(i for i, r in enumerate(rows) if r[0] == "P1")
    rows[first_card + 2][2] = "C2" if rows[first_card + 2][2] != "C2" else "D2"   # P3
    rows[2][3] = "?"                                      # C2: no time
    rows[first_card][3] = "inf"                           # P1: not finite
    rows[first_card + 1][3] = "nan"                       # P2: not a number
    rows[first_card + 3][3] = "soon"                      # P4: not a number
    (back,) = read_pbn(write_pbn([record])).records
    assert [p.message.split(":")[0] for p in back.problems] == [f"{TEMPO_TABLE} P3"]
    assert back.calls[1].time is None and back.calls[0].time == record.calls[0].time
    assert [p.time for p in back.plays[:4]] == [None] * 4
    assert [p.time for p in back.plays[4:]] == [p.time for p in record.plays[4:]]
    assert [str(p.card) for p in back.plays] == [str(p.card) for p in record.plays]


def test_of_two_rows_for_one_action_the_first_report_counts() -> None:
    record = golden_record()
    table = record.tables[TEMPO_TABLE]
    first = next(r for r in table.rows if r[0] == "C2")
    table.rows.append(["C2", first[1], first[2], repr(float(first[3]) + 100), "tap", "0"])
    (back,) = read_pbn(write_pbn([record])).records
    assert back.calls[1].time == float(first[3])


def test_a_break_on_the_last_call_names_partners_next_action_a_card() -> None:
    """16B: South's slow final pass; North's next action is his opening lead, a card."""
    calls = [("1H", 20.0, False), ("Pass", 3.0, False), ("Pass", 3.0, False),
             ("Pass", 40.0, False)]
    b = mark_breaks([timed(calls)])[0]
    (mark,) = [m for m in b.marks if m.kind == "tempo_break"]
    assert mark.index == 3 and mark.player is Seat.WEST
    assert mark.partner_next is not None and b.actions[mark.partner_next].kind in ("lead",
                                                                                   "card")
    assert "partner's next card" in mark.detail and "next call" not in mark.detail


def test_the_players_median_leaves_out_the_boards_first_call_as_the_rule_does() -> None:
    """The summary said "median call 17.5 s" while the rule, which leaves out each board's
    first call, marked a 15 s call against a limit of 8 s: both now use the same calls."""
    from tenace.tempo_cli import players
    calls = [("1H", 60.0, False), ("Pass", 2.0, False), ("2H", 2.0, False),
             ("Pass", 2.0, False), ("Pass", 3.0, False), ("Pass", 2.0, False)]
    boards = mark_breaks([timed(calls, table=f"A{n}") for n in range(1, 3)])
    north = next(p for p in players(boards) if p["player"] == "1N")
    assert north["median"]["call"] == pytest.approx(3.0)    # the 60 s first calls left out
