"""Alerted calls explained to the opponents, never to partner (hub/explain.py; protocol 7.13,
7.14, 11.2, 11.3): Law 16 (unauthorized information), Law 20F (explanations on request),
Law 40B (the regulating authority says who explains)."""

from __future__ import annotations

from typing import Any

from bridgecore.cards import Seat
from tests.hub.test_table import Driver, make_room
from wire.views import SeatView, TabletView


def views(d: Driver) -> dict[str, dict[str, Any]]:
    """Every seat's view as the hub publishes it (checked against its schema)."""
    out = {}
    for seat in Seat:
        data = d.state.seat_view(seat)
        SeatView.from_builtins(data)
        out[seat.letter] = data
    return out


def texts(view: dict[str, Any]) -> list[str]:
    return [e["text"] for e in view.get("explanations", [])]


def test_partner_explains_and_only_the_opponents_see_it_law_16_and_20f() -> None:
    # EBU (the default): North opens 1C alerted; South, his partner, explains on request.
    d = Driver(make_room())
    d.seat_pairs()
    d.ok("call", "N", seat="N", call="1C", alert=True, explanation="my own note")
    # The caller's own note is for the director only without screens: nobody sees it.
    assert all(not texts(v) for v in views(d).values())
    d.ok("ask", "E", seat="E", call=1)
    assert views(d)["S"]["questions"] == [{"call": 1, "by": "E", "time": d.clock + 0.01}]
    assert "questions" not in views(d)["N"]   # the caller is not asked: partner explains
    d.ok("explain", "S", seat="S", call=1, text="precision: 16+ any shape")
    seen = views(d)
    assert texts(seen["E"]) == texts(seen["W"]) == ["precision: 16+ any shape"]
    assert texts(seen["S"]) == ["precision: 16+ any shape"]   # he wrote it
    # Law 16: the caller never learns how partner understood his call.
    assert texts(seen["N"]) == []
    assert "questions" not in seen["S"]   # answered
    tab = d.state.tablet_view()
    TabletView.from_builtins(tab)
    assert [(e["text"], e["to"]) for e in tab["explanations"]] == [
        ("precision: 16+ any shape", "EW")]
    # The director's record keeps the question, the answer and their times.
    record = d.state.evidence()
    assert [q["by"] for q in record["questions"]] == ["E"]
    assert record["questions"][0]["answered"] is not None
    assert [e["text"] for e in record["explanations"]] == ["precision: 16+ any shape"]


def test_with_screens_the_caller_explains_and_partner_never_sees_it_law_16() -> None:
    d = Driver(make_room(alerting="screens"))
    d.seat_pairs()
    d.ok("call", "N", seat="N", call="1C", alert=True, explanation="16+ any shape")
    seen = views(d)
    assert texts(seen["E"]) == texts(seen["W"]) == texts(seen["N"]) == ["16+ any shape"]
    assert texts(seen["S"]) == []
    # Partner may not explain his partner's call under screens (40B regulation).
    refused = d.send("explain", "S", seat="S", call=1, text="strong")
    assert (refused.reply.status, refused.reply.code) == ("reject", "not_your_seat")


def test_only_an_opponent_asks_and_a_correction_replaces_the_text_law_20f() -> None:
    d = Driver(make_room())
    d.seat_pairs()
    d.calls("1NT")
    refused = d.send("ask", "S", seat="S", call=1)   # his own side's call
    assert refused.reply.code == "not_your_seat"
    assert d.send("ask", "E", seat="E", call=5).reply.code == "wrong_state"
    d.ok("explain", "S", seat="S", call=1, text="12-14", announce=True)   # EBU announces
    d.ok("explain", "S", seat="S", call=1, text="15-17 (corrected)")
    assert texts(views(d)["W"]) == ["15-17 (corrected)"]
    assert len(d.state.evidence()["explanations"]) == 2   # both kept for the director
    ffb = Driver(make_room(alerting="ffb"))
    ffb.seat_pairs()
    ffb.calls("1NT")
    out = ffb.send("explain", "S", seat="S", call=1, text="12-14", announce=True)
    assert out.reply.code == "wrong_state"   # no announcements in this regulation


def test_an_undone_call_takes_its_explanation_away_law_25a() -> None:
    d = Driver(make_room())
    d.seat_pairs()
    d.ok("call", "N", seat="N", call="1C", alert=True)
    d.ok("explain", "S", seat="S", call=1, text="could be short")
    d.ok("undo", "N", seat="N")
    assert all(not texts(v) for v in views(d).values())


def test_the_exports_write_the_explanation_beside_its_call_pbn_note_and_lin_an() -> None:
    """The director's exports (console /api/tempo/export.pbn and .lin, hub.tempo): the
    explanation given to the opponents is the call's PBN note and its LIN an|."""
    from bridgecore.lin import read_lin, write_lin
    from bridgecore.pbn import read_pbn
    from bridgecore.pbn_writer import write_pbn
    from bridgecore.record import CallRecord, GameRecord
    from hub.tempo import call_notes, with_notes

    d = Driver(make_room())
    d.seat_pairs()
    d.ok("call", "N", seat="N", call="1C", alert=True)
    d.ok("ask", "E", seat="E", call=1)
    d.ok("explain", "S", seat="S", call=1, text="precision 16+")
    d.calls("Pass", "1NT", "Pass", "Pass", "Pass")
    sitting = d.state.sitting
    calls = [CallRecord(e.seat, e.call, e.time) for e in sitting.board.auction.entries]
    record = GameRecord(board=1, dealer=Seat.NORTH, vulnerability=sitting.board.vulnerability,
                        deal=sitting.board.deal, calls=with_notes(calls, call_notes(sitting)))
    pbn = write_pbn([record])
    assert '[Note "1:precision 16+"]' in pbn and "1C =1=" in pbn
    assert "an|precision 16+|" in write_lin([record])
    back = read_pbn(pbn).records[0].calls[0]
    assert back.explanation == "precision 16+"
    assert read_lin(write_lin([record])).records[0].calls[0].explanation == "precision 16+"
