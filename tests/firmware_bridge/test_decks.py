"""Decks (firmware_bridge/decks.py): the guided enrolment of a pack's 52 tags, the deck
file, and which deck and card a tag is."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from bridgecore.cards import ALL_CARDS, Card
from firmware_bridge.decks import (
    ENROL_ORDER,
    Deck,
    DeckError,
    DeckStore,
    Enrolment,
    card_words,
    enrol,
)
from firmware_bridge.readers import open_reader
from firmware_bridge.readers import sim as simulated
from tests.firmware_bridge.conftest import make_deck, uid


def test_the_enrolment_asks_for_each_card_in_order_and_says_how_far_it_is() -> None:
    store = DeckStore()
    enrolment = Enrolment("green", store, boards=(5,))
    assert enrolment.progress == "0/52: next the ace of spades"
    for card in ENROL_ORDER[:12]:
        assert enrolment.offer(uid(3, card))[0]
    assert enrolment.progress == "12/52: next the 2 of spades"
    for card in ENROL_ORDER[12:17]:
        enrolment.offer(uid(3, card))
    assert enrolment.progress == "17/52: next the 10 of hearts"
    assert [card_words(Card.parse(c)) for c in ("SA", "HK", "DQ", "CJ", "ST", "S4")] == [
        "the ace of spades", "the king of hearts", "the queen of diamonds", "the jack of clubs",
        "the 10 of spades", "the 4 of spades"]


def test_a_tag_read_twice_or_of_another_deck_is_refused_and_the_same_card_asked_again() -> None:
    store = DeckStore(decks=[make_deck("red", 1)])
    enrolment = Enrolment("green", store)
    enrolment.offer(uid(3, "SA"))
    taken, why = enrolment.offer(uid(3, "SA"))
    assert not taken and "read already as the ace of spades" in why
    assert "present the king of spades" in why
    taken, why = enrolment.offer(uid(1, "DQ"))
    assert not taken and "the queen of diamonds of deck red" in why
    assert enrolment.progress == "1/52: next the king of spades"
    with pytest.raises(DeckError, match="1/52 tags read"):
        enrolment.deck()


def test_enrol_from_a_reader_saves_the_deck_and_every_tag_is_found(tmp_path: Path) -> None:
    path = tmp_path / "decks.json"
    said: list[str] = []
    surface = simulated.channel("enrol-test")

    def dealer() -> None:
        surface.present(uid(7, "SA"))
        surface.present(uid(7, "SA"))           # flicker: debounced, not refused
        surface.unplug()
        surface.plug()
        for card in ALL_CARDS[1:]:
            surface.present(uid(7, card))

    with open_reader("sim:enrol-test") as reader:
        player = threading.Timer(0.05, dealer)
        player.start()
        deck = enrol(reader, DeckStore.load(path), "club-7", boards=[7], say=said.append,
                     timeout=5)
        player.join()
    assert said[0].startswith("enrolling deck club-7 on sim:enrol-test")
    assert "1/52: next the king of spades" in said
    assert any("unplugged" in line for line in said)
    assert said[-1] == f"deck club-7 saved to {path}"
    assert not any(line.startswith("refused") for line in said)
    stored = DeckStore.load(path)
    assert stored.decks["club-7"] == deck and deck.boards == (7,)
    assert stored.lookup(uid(7, "HT")) == ("club-7", Card.parse("HT"))
    assert stored.lookup(uid(8, "HT")) is None
    assert stored.decks_for_board(7) == ["club-7"] and stored.decks_for_board(8) == []


def test_enrol_gives_up_after_the_timeout_without_saving(tmp_path: Path) -> None:
    path = tmp_path / "decks.json"
    with open_reader("sim:enrol-idle") as reader, pytest.raises(DeckError, match="no tag read"):
        enrol(reader, DeckStore.load(path), "idle", say=lambda _: None, timeout=0.2)
    assert not path.exists()


def test_the_deck_file_keeps_several_decks_and_refuses_a_tag_in_two(tmp_path: Path) -> None:
    path = tmp_path / "decks.json"
    store = DeckStore.load(path)
    store.add(make_deck("red", 1, (1, 3)))
    store.add(make_deck("blue", 2, (2,)))
    store.save()
    again = DeckStore.load(path)
    assert sorted(again.decks) == ["blue", "red"] and again.decks_for_board(3) == ["red"]
    with pytest.raises(DeckError, match="enrolled already"):
        again.add(make_deck("red", 1))
    clash = dict(make_deck("green", 3).cards)
    clash[uid(1, "SA")] = clash.pop(uid(3, "SA"))
    with pytest.raises(DeckError, match=f"{uid(1, 'SA')} \\(red SA\\)"):
        again.add(Deck("green", clash))
    again.add(make_deck("red", 4), replace=True)
    assert again.lookup(uid(1, "SA")) is None
    assert again.lookup(uid(4, "SA")) == ("red", Card.parse("SA"))


def test_a_bad_deck_file_is_an_error_naming_the_file_and_every_problem(tmp_path: Path) -> None:
    path = tmp_path / "decks.json"
    path.write_text("{not json")
    with pytest.raises(DeckError, match=f"deck file {path}: cannot read it"):
        DeckStore.load(path)
    cards = {uid(1, c): str(c) for c in ALL_CARDS}
    short = dict(list(cards.items())[:50])
    path.write_text(json.dumps({"format": "tenace-decks", "version": 1, "decks": {
        "short": {"cards": short}, "bad": {"cards": {"zz": "SA"}}, "ok": {"cards": cards}}}))
    with pytest.raises(DeckError) as err:
        DeckStore.load(path)
    assert "deck short: 50 tags, not 52; no tag for C3, C2" in str(err.value)
    assert "deck bad: not a tag UID" in str(err.value)
    path.write_text(json.dumps({"format": "tenace-decks", "version": 9, "decks": {}}))
    with pytest.raises(DeckError, match="version 9"):
        DeckStore.load(path)
    with pytest.raises(DeckError, match="deck name"):
        Enrolment("no spaces", DeckStore())
