"""What a user types, read in the notation of the user's language (bridgecore.notation;
docs/translating.md gives each federation's letters and their sources): each language's own
letters, and the letters two languages give different meanings, read in the user's
language only."""

from __future__ import annotations

import pytest

from bridgecore.calls import DOUBLE, PASS, REDOUBLE, Call, Contract
from bridgecore.cards import Card, Seat
from bridgecore.errors import ParseError
from bridgecore.notation import LANGUAGES, notation

# Each language's king, queen, jack, no trump, pass, double, redouble and its letters for
# North East South West.
OWN = {
    "en": ("K", "Q", "J", "NT", "Pass", "X", "XX", "NESW"),
    "fr": ("R", "D", "V", "SA", "Passe", "Contre", "Surcontre", "NESO"),
    "it": ("R", "D", "F", "SA", "Passo", "Contro", "Surcontro", "NESO"),
    "de": ("K", "D", "B", "SA", "Passe", "Kontra", "Rekontra", "NOSW"),
    "nl": ("H", "V", "B", "SA", "Pas", "Doublet", "Redoublet", "NOZW"),
    "es": ("K", "Q", "J", "ST", "Paso", "Doblo", "Redoblo", "NESO"),
    "pl": ("K", "D", "W", "BA", "Pas", "Kontra", "Rekontra", "NESW"),
}


@pytest.mark.parametrize("language", list(OWN))
def test_each_language_reads_its_own_letters_and_words(language: str) -> None:
    king, queen, jack, nt, pass_, double, redouble, seats = OWN[language]
    read = notation(language)
    assert read.read_card("♠" + king) == Card.parse("SK")
    assert read.read_card("♥" + queen) == Card.parse("HQ")
    assert read.read_card(jack + "♦") == Card.parse("DJ")          # rank first, suit last
    assert read.read_card("C10") == read.read_card("♣T") == Card.parse("CT")
    assert read.read_contract("3" + nt + "X", Seat.SOUTH) == \
        Contract.parse("3NTX", Seat.SOUTH)
    assert read.read_contract("4♠xx") == Contract.parse("4SXX")
    assert read.read_call(pass_) == PASS and read.read_call(pass_.upper()) == PASS
    assert read.read_call(double) == DOUBLE and read.read_call(redouble) == REDOUBLE
    assert read.read_call("1 " + nt) == Call.parse("1NT")
    assert [read.read_seat(letter) for letter in seats] == list(Seat)
    assert set(OWN) == set(LANGUAGES)


def test_v_is_the_dutch_queen_and_the_french_and_spanish_jack() -> None:
    assert notation("nl").read_card("♠V") == Card.parse("SQ")      # vrouw
    assert notation("fr").read_card("♠V") == Card.parse("SJ")      # valet
    assert notation("es").read_card("♠V") == Card.parse("SJ")      # valet (AEB: "Valet o J")
    with pytest.raises(ParseError, match="not a card in de"):
        notation("de").read_card("♠V")                               # no V in German


def test_h_is_the_dutch_king_and_the_hearts_suit_everywhere() -> None:
    assert notation("nl").read_card("HH") == Card.parse("HK")      # heer of hearts
    assert notation("nl").read_card("SH") == Card.parse("SK")
    assert notation("nl").read_contract("4H") == Contract.parse("4H")
    with pytest.raises(ParseError):
        notation("en").read_card("SH")                               # hearts is not a rank


def test_w_is_the_polish_jack_and_west_as_a_seat() -> None:
    assert notation("pl").read_card("♣W") == Card.parse("CJ")      # walet
    assert notation("pl").read_seat("W") is Seat.WEST
    with pytest.raises(ParseError):
        notation("de").read_card("♣W")


def test_d_is_the_queen_in_french_german_spanish_polish_never_in_english_or_dutch() -> None:
    for language in ("fr", "it", "de", "es", "pl"):
        assert notation(language).read_card("♥D") == Card.parse("HQ"), language
    for language in ("en", "nl"):
        with pytest.raises(ParseError):
            notation(language).read_card("♥D")


def test_r_is_a_king_in_french_italian_spanish_and_b_the_german_and_dutch_jack() -> None:
    for language in ("fr", "it", "es"):
        assert notation(language).read_card("SR") == Card.parse("SK"), language
    for language in ("de", "nl", "pl", "en"):
        with pytest.raises(ParseError):
            notation(language).read_card("SR")
    assert notation("de").read_card("♦B") == notation("nl").read_card("♦B") == \
        Card.parse("DJ")


def test_o_is_east_in_german_and_dutch_and_west_in_french_italian_spanish() -> None:
    for language in ("de", "nl"):
        assert notation(language).read_seat("O") is Seat.EAST, language
    for language in ("fr", "it", "es"):
        assert notation(language).read_seat("O") is Seat.WEST, language
    with pytest.raises(ParseError, match="E, N, O, S, W, Z"):
        notation("nl").read_seat("X")                                 # names the letters
    assert notation("nl").read_seat("Z") is Seat.SOUTH
    assert notation("de").read_seat("Süd") is Seat.SOUTH
    assert notation("pl").read_seat("Zachód") is Seat.WEST


def test_no_trump_in_each_language_and_native_suit_initials_refused() -> None:
    assert notation("es").read_contract("3 sin triunfo") == Contract.parse("3NT")
    assert notation("de").read_contract("3OT") == Contract.parse("3NT")
    assert notation("pl").read_contract("6BAX") == Contract.parse("6NTX")
    # Suits: symbols or S H D C in every language; Spanish C (corazones) would be hearts
    # and English C clubs, Polish K is both kier and karo: the native initials are refused
    # rather than guessed.
    assert notation("es").read_contract("4C") == Contract.parse("4C")
    with pytest.raises(ParseError, match="not a contract in pl"):
        notation("pl").read_contract("4K")
    with pytest.raises(ParseError):
        notation("es").read_contract("3SA")          # French no trump is not Spanish's
    with pytest.raises(ParseError):
        notation("en").read_call("Paso")


def test_a_language_with_only_a_catalog_reads_the_labels_its_screens_show() -> None:
    """Portuguese (no table here): its catalog's letters are read over English's."""
    labels = {"rank.K": "R", "rank.Q": "D", "rank.J": "V", "strain.NT": "ST",
              "call.Pass": "Passo", "letter.W": "O"}
    read = notation("pt_BR", labels)
    assert read.read_card("♠V") == Card.parse("SJ") and read.read_card("HR") == Card.parse("HK")
    assert read.read_contract("3ST") == Contract.parse("3NT")
    assert read.read_call("passo") == PASS and read.read_seat("O") is Seat.WEST
    # a built-in table is not changed by labels
    assert notation("nl", {"rank.Q": "D"}).read_card("♠V") == Card.parse("SQ")
    assert notation("nl-BE").read_card("♠V") == Card.parse("SQ")     # Flemish: Dutch table


@pytest.mark.parametrize("text", ["", " ", "11", "0SA", "8NT", "4SAXXX", "SAX", "♠♠", "100",
                                  "Z♥", "1", "XXX", "\x00", "4" * 300])
@pytest.mark.parametrize("language", ["nl", "fr", "pl"])
def test_bad_input_is_a_parse_error_naming_it_never_a_crash(text: str, language: str) -> None:
    read = notation(language)
    for reading in (read.read_card, read.read_contract, read.read_call, read.read_seat,
                    read.read_strain, read.read_rank):
        with pytest.raises(ParseError, match=language):
            reading(text)
