"""The club's roster (hub/roster.py): CSV files as membership programs write them, every
problem with its line, kept in the data directory, names matched without case, accents or
word order."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hub.roster import ROSTER_NAME, Member, Roster, RosterError, name_key, parse_csv


@pytest.mark.parametrize("separator", [",", ";", "\t", "|"])
@pytest.mark.parametrize("bom", ["", "\ufeff"])
def test_the_common_separators_with_or_without_a_bom(separator: str, bom: str) -> None:
    text = bom + separator.join(["Name", "Member number"]) + "\r\n" + \
        separator.join(["Zoé Dupré", "7"]) + "\r\n" + separator.join(["Ann Smith", "12"])
    assert parse_csv(text.encode()) == [Member("Zoé Dupré", 7), Member("Ann Smith", 12)]


def test_columns_in_any_order_first_and_last_names_other_columns_ignored() -> None:
    text = "Email;Numéro de licence;Prénom;Nom\na@b.fr;12;Jean;Dupré\n"
    assert parse_csv(text.encode()) == [Member("Jean Dupré", 12)]
    italian = "Tessera,Nome,Cognome\n5,Mario,Rossi\n"
    assert parse_csv(italian.encode()) == [Member("Mario Rossi", 5)]


def test_without_a_header_the_name_then_the_number() -> None:
    assert parse_csv(b"Ann Smith,12\n\nBob Jones,13\n") == [Member("Ann Smith", 12),
                                                          Member("Bob Jones", 13)]


def test_every_problem_is_reported_with_its_line() -> None:
    text = "name,number\nAnn,1\nBob,x\n,3\n\nCid,1\nDee\n"
    with pytest.raises(RosterError) as caught:
        parse_csv(text.encode())
    assert [line for line, _ in caught.value.problems] == [3, 4, 6, 7]
    assert "line 3: member number 'x'" in str(caught.value)
    assert "also on line 2" in caught.value.problems[2][1]
    assert caught.value.problems[3][1] == "no member number"


def test_a_file_not_in_utf8_or_empty_is_refused() -> None:
    with pytest.raises(RosterError, match="line 2: not UTF-8"):
        parse_csv("name,number\nZoé,1\n".encode("latin-1"))
    with pytest.raises(RosterError, match="empty"):
        parse_csv(b"\n\n")
    with pytest.raises(RosterError, match="no member"):
        parse_csv(b"name,number\n")


def test_kept_in_the_data_directory_and_a_bad_file_changes_nothing(tmp_path: Path) -> None:
    roster = Roster.in_directory(tmp_path)
    assert len(roster) == 0
    assert roster.replace_csv("Nom;Numéro\nDupré, Zoé;3\n".encode()) == 1
    assert (tmp_path / ROSTER_NAME).read_text(encoding="utf-8") == \
        'name,number\n"Dupré, Zoé",3\n'
    with pytest.raises(RosterError):
        roster.replace_csv(b"name,number\nA,0\n")
    assert Roster.in_directory(tmp_path).members == [Member("Dupré, Zoé", 3)]


def test_names_match_without_case_accents_spaces_or_word_order() -> None:
    roster = Roster([Member("Zoé Dupré", 3), Member("Jürgen Müller", 4),
                     Member("Ann Smith", 5), Member("Ann Smith", 6)])
    assert name_key("  DUPRE,  zoe ") == name_key("Zoé Dupré")
    assert roster.match("dupre zoe") == [Member("Zoé Dupré", 3)]
    assert roster.match("MULLER Jurgen") == [Member("Jürgen Müller", 4)]
    assert roster.match("ann smith") == [Member("Ann Smith", 5), Member("Ann Smith", 6)]
    assert roster.match("Müller") == [Member("Jürgen Müller", 4)]       # a first name left out
    assert roster.match("A. Guest") == [] and roster.match("  ") == []


def test_names_match_as_typed_on_a_keyboard_without_the_letters() -> None:
    """Letters Unicode does not decompose (Ł, Ø, Æ, Đ...) match their base letters, and an
    apostrophe left out or typed as a space still matches (issue 25's walk-through: a
    player typing "Lukasz Wisniewski" or "Zoe OBrien" at check-in was matched to no one)."""
    roster = Roster([Member("Łukasz Wiśniewski", 4), Member("Zoë O'Brien", 3),
                     Member("Søren Åberg", 9), Member("Đorđe Ærø", 7),
                     Member("Jeanne d’Arc", 8), Member("Ann Smith", 5)])
    assert roster.match("lukasz wisniewski") == [Member("Łukasz Wiśniewski", 4)]
    assert roster.match("Zoe OBrien") == [Member("Zoë O'Brien", 3)]
    assert roster.match("zoe o'brien") == [Member("Zoë O'Brien", 3)]
    assert roster.match("soren aberg") == [Member("Søren Åberg", 9)]
    assert roster.match("dorde aero") == [Member("Đorđe Ærø", 7)]
    assert roster.match("jeanne d'arc") == roster.match("Jeanne DArc") == [
        Member("Jeanne d’Arc", 8)]
    assert roster.match("Wisniewski") == [Member("Łukasz Wiśniewski", 4)]  # one name alone
    assert roster.match("O Brian") == []          # another name still matches no one


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300) | st.text(max_size=300).map(str.encode))
def test_fuzz_any_bytes_give_members_or_a_roster_error(data: bytes) -> None:
    try:
        members = parse_csv(data)
    except RosterError as err:
        assert err.problems
    else:
        assert members and all(m.name and m.number >= 1 for m in members)
