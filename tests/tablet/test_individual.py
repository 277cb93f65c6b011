"""An individual on the tablets (tablet/presenters/checkin.py, board.py), fed by a real hub
room (tests/tablet/tables.py): each seat's tablet shows its player, checks him in at his seat
(Law 5) with his side's partnership, and at the end of the round says where each of the
table's players goes next (Law 8A: the rainbow moves East up one table, South two, West
three)."""

from __future__ import annotations

from hub.room import Room
from hub.section_setup import SectionSetup
from tests.hub.test_table import DEALS
from tests.tablet.tables import Table

SETUP = SectionSetup("A", "individual", players=20, rounds=2, boards_per_round=1,
                     pairs={1: ["Player One"], 16: ["Player Sixteen"]})


def individual(seats: str | list[str | None] = "NESW", language: str = "en") -> Table:
    return Table(seats, language=language, room=Room(SETUP.room_section(), DEALS))


def test_each_seat_shows_and_checks_in_its_own_player() -> None:
    t = individual()
    north, west = t["N"], t["W"]
    # Table A1, round 1: North 1, East 6, South 11, West 16; partnerships 1 (NS) and 2 (EW).
    assert north.checkin.expected_players("NS") == [("N", 1, "Player One")]
    assert west.checkin.expected_players("EW") == [("W", 16, "Player Sixteen")]
    assert north.checkin.expected_pair("NS") == 1 and west.checkin.expected_pair("EW") == 2
    for seat, pair, number in (("N", 1, 1), ("S", 1, 11), ("E", 2, 6), ("W", 2, 16)):
        tablet = t[seat]
        direction = "NS" if seat in "NS" else "EW"
        t.ok(tablet, tablet.checkin.check_in(pair, direction, [(number, "")]))
    assert t.alerts == []
    seated = t.room.tables["A1"].seated
    assert [p["number"] for side in seated.values() for p in side[1]] == [1, 11, 6, 16]
    assert all(tablet.checkin.done for tablet in t.tablets.values())


def test_the_table_tablet_shows_all_four_and_where_each_goes_next() -> None:
    t = individual([None], language="fr")
    tablet = t[None]
    assert [n for side in ("NS", "EW") for _, n, _ in tablet.checkin.expected_players(side)
            ] == [1, 11, 6, 16]
    t.ok(tablet, tablet.checkin.check_in(1, "NS", [(1, ""), (11, "")]))
    t.ok(tablet, tablet.checkin.check_in(2, "EW", [(6, ""), (16, "")]))
    t.ok(tablet, tablet.board.announce(1))
    t.calls("Pass", "Pass", "Pass", "Pass")
    text = tablet.board.next_text
    assert text is not None
    for move in ("joueur 1 à la table A1 Nord", "joueur 6 à la table A2 Est",
                 "joueur 11 à la table A3 Sud", "joueur 16 à la table A4 Ouest"):
        assert move in text, text


def test_the_check_in_screen_shows_the_seat_player_and_sends_him() -> None:
    """Drawn by Kivy: East's tablet shows 'East: player 6' and has his partnership (2) and
    his number filled in; its button checks him in at his seat (screenshot individual_checkin)."""
    from tablet.app import TabletRoot
    from tests.tablet.test_ui import shot, show, tap

    t = individual(["E"])
    east = t["E"]
    root = show(TabletRoot(east))
    root.send = lambda kind, body: t.ok(east, (kind, body))   # type: ignore[method-assign]
    screen = root.screens["checkin"]
    (side,) = screen.sides
    assert side.expected.text == "East: player 6"
    assert (side.pair.number, [n.number for n in side.numbers]) == (2, [6, None])
    shot(root, "individual_checkin")
    tap(screen.send)
    (players,) = [s[1] for s in t.room.tables["A1"].seated.values()]
    assert players == [{"number": 6}]
    root.close()
