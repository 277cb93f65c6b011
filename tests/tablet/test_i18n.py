"""The tablet's words (tablet/locale's catalogs, through tablet/i18n.py): French, English and
Italian complete and consistent; cards and calls written as each country's players read them,
and read back by bridgecore."""

from __future__ import annotations

import pytest

from bridgecore.calls import ALL_BIDS, DOUBLE, PASS, REDOUBLE
from bridgecore.cards import ALL_CARDS, Seat
from bridgecore.notation import notation
from tablet.i18n import (
    CATALOGS,
    LANGUAGES,
    Translator,
    call_label,
    card_label,
    rank_label,
    reply_key,
    seat_letter,
    strain_label,
    suit_colour,
)

# docs/protocol.md, "Replies": every code a device can be sent.
REPLY_CODES = ("ok", "duplicate", "malformed", "unsupported_version", "unknown_type",
               "too_large", "bad_topic", "device_mismatch", "wrong_table", "out_of_order",
               "clock_skew", "illegal_call", "illegal_play", "wrong_state", "not_your_turn",
               "storage", "no_event", "rate_limited")


def test_every_text_exists_in_french_english_and_italian_with_the_same_fields() -> None:
    assert {"fr", "en", "it"} <= set(LANGUAGES)
    for language in LANGUAGES:
        assert CATALOGS.problems(language) == [], language
    assert all(text.strip() for text in CATALOGS.source.values())


def test_card_letters_per_language() -> None:
    assert [rank_label(r, "en") for r in "AKQJT9"] == ["A", "K", "Q", "J", "10", "9"]
    assert [rank_label(r, "fr") for r in "AKQJT"] == ["A", "R", "D", "V", "10"]
    assert [rank_label(r, "it") for r in "AKQJT"] == ["A", "R", "D", "F", "10"]
    assert card_label("SK", "fr") == "\u2660R" and card_label("HJ", "it") == "\u2665F"
    assert card_label("DT", "en") == "\u266610"


def test_no_trump_is_sa_in_french_and_italian() -> None:
    assert strain_label("NT", "en") == "NT"
    assert strain_label("NT", "fr") == strain_label("NT", "it") == "SA"
    assert call_label("3NT", "fr") == "3SA" and call_label("1S", "en") == "1\u2660"
    assert call_label("Pass", "fr") == "Passe" and call_label("Pass", "it") == "Passo"
    assert call_label("X", "it") == "X" and call_label("XX", "fr") == "XX"
    assert [seat_letter(s, "fr") for s in "NESW"] == ["N", "E", "S", "O"]


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_what_the_tablet_shows_bridgecore_reads_back(language: str) -> None:
    """Read in the language's own notation (bridgecore.notation): the Dutch ♠V the tablet
    shows is the queen, the French ♠V the jack."""
    read = notation(language)
    for card in ALL_CARDS:
        assert read.read_card(card_label(str(card), language)) == card
    for call in (PASS, DOUBLE, REDOUBLE, *ALL_BIDS):
        assert read.read_call(call_label(str(call), language)) == call
    for seat in "NESW":
        assert read.read_seat(seat_letter(seat, language)) is Seat.parse(seat)


def test_two_and_four_colour_suits() -> None:
    assert suit_colour("H") == suit_colour("D") != suit_colour("S") == suit_colour("C")
    four = {suit_colour(s, True) for s in "SHDC"}
    assert len(four) == 4 and suit_colour("H", True) == suit_colour("H")


def test_every_reply_code_has_a_message_in_every_language() -> None:
    for code in REPLY_CODES:
        key = reply_key(code)
        if code in ("ok", "duplicate"):
            assert key is None
            continue
        assert key in CATALOGS.source, code
        for language in LANGUAGES:
            text = Translator(language)(key, seat="x", code=code)
            assert text and "{" not in text, (code, language)
    assert reply_key("something_new") == "reply.malformed"


def test_translator_falls_back_rather_than_failing() -> None:
    tr = Translator("it")
    assert tr("seat.W") == "Ovest" and tr.seat("W") == "Ovest" and tr.side("EW") == "Est-Ovest"
    assert tr("no.such.key") == "no.such.key"
    assert tr("auction.turn") == "Dichiara {seat}"            # a field left as it is
    assert tr.card("SQ") == "\u2660D" and tr.call("2NT") == "2SA" and tr.rank("J") == "F"
    assert tr.strain("C") == "\u2663" and tr.seat_letter("W") == "O"
    with pytest.raises(ValueError):
        Translator("xx")


def test_german_is_offered_once_its_catalog_is_complete() -> None:
    """A language added with pybabel and a PO editor alone (docs/translating.md): German
    tablets write K D B for the honours, SA for no trump and O for East."""
    assert LANGUAGES["de"] == "Deutsch" and CATALOGS.problems("de") == []
    tr = Translator("de")
    assert tr.card("SJ") == "\u2660B" and tr.card("HQ") == "\u2665D" and tr.call("3NT") == "3SA"
    assert tr.call("Pass") == "Passe" and tr.seat_letter("E") == "O"
    assert tr("auction.turn", seat=tr.seat("W")) == "West reizt"
