"""The hub's questions to the table about its card readers (tablet/presenters/prompts.py,
hub/reads.py), shown and answered from a real hub table: the card a seat played to a trick
(Laws 44, 57), the hand to sweep again (13, 14); never a hidden hand on the table's tablet."""

from __future__ import annotations

from typing import Any

import pytest

from bridgecore.cards import Seat
from tablet.presenters import PresenterError
from tests.hub.test_table import BOARD_1
from tests.tablet.tables import Table
from wire.protocol import Envelope


def reader(t: Table, type: str, **body: Any) -> None:
    """An event of table A1's card readers, into the hub, then the views out."""
    device = "A1-rdr"
    t.seq[device] = n = t.seq.get(device, 0) + 1
    t.clock += 1.0
    env = Envelope(f"{device}-{n:06d}", device, n, t.clock, type, body)
    assert t.room.apply("A1", env, t.clock).reply.status == "ack"
    t.publish()


def to_play(t: Table) -> Table:
    t.seated()
    for seat in Seat:
        reader(t, "hand", seat=seat.letter, cards=[str(c) for c in BOARD_1[seat]])
    t.calls("Pass", "Pass", "1H", "Pass", "Pass", "Pass")
    return t


def test_the_table_is_asked_for_a_card_its_reader_missed_and_answers() -> None:
    t = to_play(Table([None, "S"]))
    tab, south = t[None], t["S"]
    reader(t, "card", seat="W", card="S2", source="reader")
    reader(t, "card", seat="E", card="ST", source="reader")     # North's card not read
    (prompt,) = tab.prompts.prompts
    assert prompt.kind == "card" and prompt.seat == "N" and prompt.trick == 1
    assert prompt.text == "The card reader missed a card: tap the card North played to trick 1"
    assert prompt.not_yet == "North had not played when East did"
    assert "S2" not in {o.card for o in prompt.choices}          # played already
    assert len(south.prompts.prompts) == 1       # declarer answers for dummy (45)
    with pytest.raises(PresenterError):
        tab.prompts.answer_card(prompt.id, "S2")
    t.ok(tab, tab.prompts.answer_card(prompt.id, "SA"))
    assert tab.prompts.prompts == [] and t.alerts == []
    assert [c for _, c in tab.model.hub_state.trick.cards] == ["S2", "SA", "ST"]


def test_the_table_says_the_seat_had_not_played_a_play_out_of_turn_57() -> None:
    t = to_play(Table([None]))
    tab = t[None]
    reader(t, "card", seat="W", card="S2", source="reader")
    reader(t, "card", seat="E", card="ST", source="reader")
    (prompt,) = tab.prompts.prompts
    t.ok(tab, tab.prompts.answer_card(prompt.id, None))
    assert [a.kind for a in t.alerts] == ["play_out_of_turn"]


def test_a_hand_to_sweep_again_hides_its_cards_from_the_table_in_french() -> None:
    t = Table([None, "N"], language="fr").seated()
    north = [str(c) for c in BOARD_1[Seat.NORTH]]
    reader(t, "hand", seat="N", cards=north[:-1])
    (prompt,) = t[None].prompts.prompts
    assert prompt.kind == "sweep" and prompt.choices == ()         # the table: no hand shown
    assert prompt.text == ("Le lecteur a manqué 1 carte(s) de la main de Nord : repassez-la "
                           "sur le lecteur")
    (own,) = t["N"].prompts.prompts
    assert north[-1] in {o.card for o in own.choices}              # North sees his own
    t.ok(t["N"], t["N"].prompts.answer_sweep(own.id, [north[-1]]))
    assert t[None].prompts.prompts == [] and t.alerts == []


def test_the_card_dummy_played_is_asked_of_declarers_tablet_not_dummys_45() -> None:
    """South declares 1H, North is dummy. The readers miss dummy's card: declarer played it
    (Law 45), so his tablet is asked, not dummy's (issue 22), and the hub takes his answer."""
    t = to_play(Table(["N", "E", "S", "W"]))
    north, south = t["N"], t["S"]
    assert south.model.declarer == "S" and south.model.dummy_seat == "N"
    reader(t, "card", seat="W", card="S2", source="reader")
    reader(t, "card", seat="E", card="ST", source="reader")     # dummy's card not read
    assert north.prompts.prompts == [] and t["E"].prompts.prompts == []
    (prompt,) = south.prompts.prompts
    assert prompt.seat == "N" and prompt.trick == 1
    assert "SA" in {o.card for o in prompt.choices}               # dummy's faced cards
    t.ok(south, south.prompts.answer_card(prompt.id, "SA"))
    assert t.alerts == [] and south.prompts.prompts == []
    assert [c for _, c in south.model.hub_state.trick.cards] == ["S2", "SA", "ST"]


def test_a_question_about_an_earlier_trick_offers_the_card_recorded_there() -> None:
    """hub/reads.py asks about trick 2 when its last card may have been missed: the tablet
    offers the card recorded there (to keep it) beside the others, and the answer corrects
    the trick."""
    t = to_play(Table([None]))
    tab = t[None]
    for seat, card in (("W", "S2"), ("N", "SA"), ("E", "ST"), ("S", "S3"), ("N", "SK"),
                       ("E", "S9"), ("S", "S4"), ("W", "D2"), ("N", "DA"), ("E", "D9"),
                       ("S", "D6"), ("N", "DK")):
        reader(t, "card", seat=seat, card=card, source="reader")
    (prompt,) = tab.prompts.prompts
    assert prompt.seat == "W" and prompt.trick == 2 and prompt.not_yet == ""
    cards = [o.card for o in prompt.choices]
    assert cards[0] == "D2" and "H2" in cards
    t.ok(tab, tab.prompts.answer_card(prompt.id, "H2"))
    assert tab.prompts.prompts == [] and t.alerts == []
    assert tab.model.hub_state.tricks.EW == 1
