"""A claim through the real Kivy app, the real link and a live hub (protocol 9, 11.1
``claim.total``, ``claim.cards``): North, declarer, claims "all the rest" in one tap with his
statement; both defenders' screens show his remaining cards faced (Law 68C) and the tricks as
a total for the board; dummy's tablet offers Dispute and no Accept (68D, 69A); the defenders
accept by touch (69A) and the board ends with declarer's 13 tricks. Screenshots in the
temporary screenshots folder (test_ui.SHOTS)."""

from __future__ import annotations

from hub.service import Hub
from tests.tablet.test_rectify_ui import call, live  # noqa: F401 (a fixture, used by name)
from tests.tablet.test_ui import Tablet, shot, show, tap, until


def test_law_68c_69a_declarers_cards_on_the_defenders_screens(
        live: tuple[Hub, dict[str, Tablet]]) -> None:  # noqa: F811
    hub, tablets = live
    roots = {s: t.root for s, t in tablets.items()}
    north = roots["N"].presenter
    roots["N"].act(north.checkin.check_in, 1, "NS")
    until(lambda: north.screen == "board", "North checked in")
    roots["E"].act(roots["E"].presenter.checkin.check_in, 4, "EW")
    until(lambda: roots["E"].presenter.screen == "board", "East checked in")
    roots["N"].act(north.board.announce, 1)
    until(lambda: all(t.presenter.screen == "auction" for t in tablets.values()),
          "the auction on every tablet")
    for seat, text in (("N", "1NT"), ("E", "Pass"), ("S", "Pass"), ("W", "Pass")):
        call(tablets, seat, text)
    until(lambda: all(t.presenter.screen == "play" for t in tablets.values()),
          "the play on every tablet")
    held = list(north.model.own_cards)
    assert len(held) == 13

    # North claims all the rest in one tap, with his line of play (68C).
    show(roots["N"])
    screen = roots["N"].screens["play"]
    tap(screen.claim_button)
    panel = screen.claim_panel
    until(lambda: panel.parent is not None and panel.all_rest.text == "All the rest",
          "the claim panel")
    assert sorted(panel.buttons) == list(range(14))      # totals for the board, 0 to 13
    panel.statement.text = "all top tricks"
    shot(roots["N"], "claim_declarer")
    tap(panel.all_rest)
    until(lambda: all(t.presenter.play.claim_view is not None
                      for t in tablets.values()), "the claim on every tablet")

    for seat in "EW":
        p = tablets[seat].presenter
        view = p.play.claim_view
        assert view is not None and view.statement == "all top tricks"
        assert sorted(view.cards) == sorted(held)          # his hand faced (68C)
        show(roots[seat])
        answer = roots[seat].screens["play"].answer_panel
        until(lambda a=answer: a.parent is not None and a.cards.opacity == 1,
              f"North's cards on {seat}'s screen")
    assert tablets["W"].presenter.play.claim_view.text == "Nord reclama 13 prese"
    show(roots["E"])
    shot(roots["E"], "claim_defender")
    assert tablets["E"].presenter.play.claim_view.text == "Nord revendique 13 levées"
    # Dummy may dispute, not accept (68D, 69A).
    south = tablets["S"].presenter.play.claim_view
    assert south is not None and south.answer_for == () and south.dispute_for == ("S",)
    show(roots["S"])
    dummy_panel = roots["S"].screens["play"].answer_panel
    until(lambda: ("S", False) in dummy_panel.buttons, "dummy's Dispute")
    assert ("S", True) not in dummy_panel.buttons

    # Both defenders accept by touch (69A): the board is over with 13 tricks to North.
    for seat in "EW":
        show(roots[seat])
        panel_ = roots[seat].screens["play"].answer_panel
        until(lambda p=panel_, s=seat: (s, True) in p.buttons, f"{seat}'s Accept")
        tap(panel_.buttons[seat, True])
    until(lambda: north.screen == "result" and north.result.view is not None,
          "the result on North's tablet")
    assert north.result.view.tricks == 13
    alerts = hub.call(lambda: [a.kind for a in hub.room.alerts.open() if a.table == "A1"
                               and a.kind != "device_offline"])
    assert alerts == []
