"""An insufficient bid through the real Kivy app, the real link and a live hub (protocol 7.15,
11.1 ``irregularities``): every tablet of the table says what happened and that the director
is called; then either East's LHO accepts it from his own tablet by touch (Law 27A1), or the
director's choice from his console (``rule`` with its option: 27B1(a)) is shown on every
tablet, the option in each player's language, and East replaces his bid by touch (27B). Each
ends with the right record and no further alert (Laws 9, 10, 81: only the director
rectifies). Screenshots in the temporary screenshots folder (test_ui.SHOTS)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hub.broker import EmbeddedBroker
from hub.event import EventSetup
from hub.service import Hub, HubRunner, data_log
from tablet.app import TabletRoot
from tablet.widgets import PALETTE
from tests.tablet.test_ui import SEED, Tablet, clock, shot, show, tap, until


@pytest.fixture
def live(embedded_broker: EmbeddedBroker,
         tmp_path: Path) -> Iterator[tuple[Hub, dict[str, Tablet]]]:
    setup = EventSetup.quick(tables=3, boards_per_round=2, seed=SEED)
    hub = Hub(data_log(tmp_path / "hub"), url=embedded_broker.url, setup=setup,
              tick_seconds=0.2, double_dummy=False)
    tablets: dict[str, Tablet] = {}
    try:
        with HubRunner(hub):
            for seat in "NESW":
                tablets[seat] = Tablet(embedded_broker.url, seat, tmp_path,
                                       language={"E": "fr", "W": "it"}.get(seat, "en"),
                                       clock=clock)
            until(lambda: all(t.presenter.model.connection == "online"
                              and t.presenter.model.state for t in tablets.values()),
                  "the tablets to connect")
            yield hub, tablets
    finally:
        for tablet in tablets.values():
            tablet.close()
        hub.log.close()


def auction(hub: Hub) -> list[tuple[str, str, str]]:
    def read() -> list[tuple[str, str, str]]:
        sitting = hub.room.tables["A1"].sitting
        return [(e.seat.letter, str(e.call), e.status.value)
                for e in sitting.board.auction.entries]
    found: list[tuple[str, str, str]] = hub.call(read)
    return found


def open_alerts(hub: Hub) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = hub.call(
        lambda: [(a.kind, a.status.value) for a in hub.room.alerts.open()
                 if a.table == "A1" and a.kind != "device_offline"])
    return found


def call(tablets: dict[str, Tablet], seat: str, text: str) -> None:
    root = tablets[seat].root
    show(root)
    before = len(tablets["N"].presenter.model.auction_entries)
    tap(root.screens["auction"].pad.buttons[text])
    until(lambda: all(len(t.presenter.model.auction_entries) > before
                      for t in tablets.values()), f"{seat}'s {text} on every tablet")


def start(hub: Hub, tablets: dict[str, Tablet]) -> dict[str, TabletRoot]:
    roots = {s: t.root for s, t in tablets.items()}
    north = roots["N"].presenter
    roots["N"].act(north.checkin.check_in, 1, "NS")
    until(lambda: north.screen == "board", "North checked in")
    roots["E"].act(roots["E"].presenter.checkin.check_in, 4, "EW")
    until(lambda: roots["E"].presenter.screen == "board", "East checked in")
    roots["N"].act(north.board.announce, 1)
    until(lambda: all(t.presenter.screen == "auction" for t in tablets.values()),
          "the auction on every tablet")
    call(tablets, "N", "1NT")
    call(tablets, "E", "1S")                       # insufficient (Law 27)
    until(lambda: all(t.presenter.rectify.notices for t in tablets.values()),
          "every tablet told of the insufficient bid")
    return roots


def notice(tablets: dict[str, Tablet], seat: str) -> str:
    return tablets[seat].presenter.rectify.notices[0]


def test_law_27a1_lho_accepts_the_insufficient_bid_from_his_tablet(
        live: tuple[Hub, dict[str, Tablet]]) -> None:
    hub, tablets = live
    roots = start(hub, tablets)
    assert notice(tablets, "N") == ("Insufficient bid by East (Law 27) \u2014 the director is "
                                    "called")
    assert notice(tablets, "E") == ("Enchère insuffisante de Est (Loi 27) \u2014 l'arbitre "
                                    "est appelé")
    assert notice(tablets, "W").startswith("Dichiarazione insufficiente di Est (Legge 27)")
    # The choice is South's alone (27A1): only his tablet offers it.
    assert [c.seat for c in tablets["S"].presenter.rectify.choices] == ["S"]
    assert all(not tablets[x].presenter.rectify.choices for x in "NEW")
    show(roots["S"])
    bar = roots["S"].screens["auction"].irregularity
    until(lambda: bar.buttons[0].opacity == 1, "South's accept button")
    assert bar.buttons[0].text == "Accept it (Law 27A1)"
    # Nobody is told it is his turn until the choice or the ruling (9B2).
    screen = roots["S"].screens["auction"]
    assert screen.turn_text.text == "Accept below, or wait for the director"
    assert screen.turn.bg == list(PALETTE["orange"])
    show(roots["N"])
    assert roots["N"].screens["auction"].turn_text.text == "Wait for the director (Law 9B2)"
    show(roots["S"])
    shot(roots["S"], "irregularity_lho_choice")
    tap(bar.buttons[0])
    until(lambda: all("accepted by South" in notice(tablets, "N") for _ in [0]),
          "the acceptance on North's tablet")
    for seat, text in (("S", "Pass"), ("W", "Pass"), ("N", "Pass")):
        call(tablets, seat, text)
    until(lambda: tablets["N"].presenter.model.phase == "play", "the auction over")
    assert auction(hub) == [("N", "1NT", "made"), ("E", "1S", "accepted"),
                            ("S", "Pass", "made"), ("W", "Pass", "made"),
                            ("N", "Pass", "made")]
    assert tablets["N"].presenter.model.contract == "1S"
    assert open_alerts(hub) == [("insufficient_bid", "open")]   # nothing more alerted
    fact = hub.call(lambda: next(a for a in hub.room.alerts.open()
                                 if a.kind == "insufficient_bid").facts["accepted"])
    assert fact["seat"] == "S" and fact["law"] == "27A1"


def test_law_27b_the_directors_choice_is_shown_and_the_offender_replaces(
        live: tuple[Hub, dict[str, Tablet]]) -> None:
    hub, tablets = live
    roots = start(hub, tablets)
    alert: Any = hub.call(lambda: next(a for a in hub.room.alerts.open()
                                       if a.kind == "insufficient_bid"))
    option = next(i for i, o in enumerate(alert.options) if o["law"] == "27B1(a)")
    done = hub.call(lambda: hub.director({"op": "rule", "id": alert.id, "option": option,
                                          "text": "replace by 2S: no rectification"}))
    assert done["ok"], done
    until(lambda: all("27B1(a)" in notice(tablets, x) for x in "NESW"),
          "the director's choice on every tablet")
    # The option he chose in each player's language, the call in its notation, then his words.
    assert notice(tablets, "N").endswith(
        "Director (27B1(a)): replaced by 2\u2660, the lowest sufficient bid specifying the same "
        "denomination(s) (it may be artificial): no rectification (see 27D). replace by 2S: no "
        "rectification")
    assert notice(tablets, "E").endswith(
        "Arbitre (27B1(a)) : remplacée par 2\u2660, l'enchère suffisante la moins forte "
        "spécifiant la ou les mêmes dénominations (elle peut être artificielle) : pas de "
        "rectification (voir 27D). replace by 2S: no rectification")
    assert "Arbitro (27B1(a)): sostituita da 2\u2660, la dichiarazione sufficiente più bassa" \
        in notice(tablets, "W")
    assert not any(t.presenter.rectify.choices for t in tablets.values())   # his, not theirs
    show(roots["E"])
    shot(roots["E"], "irregularity_ruled")
    call(tablets, "E", "2S")                       # the replacement (27B)
    for seat in "SWN":
        call(tablets, seat, "Pass")
    until(lambda: tablets["N"].presenter.model.phase == "play", "the auction over")
    assert auction(hub) == [("N", "1NT", "made"), ("E", "1S", "withdrawn"),
                            ("E", "2S", "made"), ("S", "Pass", "made"),
                            ("W", "Pass", "made"), ("N", "Pass", "made")]
    assert tablets["W"].presenter.model.contract == "2S"
    assert open_alerts(hub) == [("insufficient_bid", "ruled")]   # no further alert
