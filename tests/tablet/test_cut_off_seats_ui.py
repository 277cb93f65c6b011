"""Four seat tablets cut off together in the middle of the play (issue 22), through the real
Kivy app, the real link (each tablet's own network, tests/cable.py) and a live hub: they play
on, each card with the trick its seat plays it to (protocol section 6), every screen says
it is cut off, full width, with the cards waiting; back one after the other, in an order
that is not the play's, the hub ends with exactly the record the table played and no alert
(Law 44: a card of each seat to each trick in rotation; no false play out of turn, 57)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bridgecore.board import Board
from bridgecore.calls import Call
from bridgecore.cards import Seat
from hub.broker import EmbeddedBroker
from hub.event import EventSetup
from hub.service import Hub, HubRunner, data_log
from tests.cable import Cable
from tests.tablet.test_ui import SEED, Tablet, clock, shot, show, until


@pytest.fixture
def cut_table(embedded_broker: EmbeddedBroker, tmp_path: Path
              ) -> Iterator[tuple[Hub, dict[str, Tablet], dict[str, Cable]]]:
    setup = EventSetup.quick(tables=3, boards_per_round=2, seed=SEED)
    hub = Hub(data_log(tmp_path / "hub"), url=embedded_broker.url, setup=setup,
              tick_seconds=0.2, double_dummy=False)
    cables = {seat: Cable(embedded_broker.url) for seat in "NESW"}
    tablets: dict[str, Tablet] = {}
    try:
        with HubRunner(hub):
            for seat in "NESW":
                tablets[seat] = t = Tablet(cables[seat].url, seat, tmp_path, clock=clock)
                # As the app wires it (tablet.app.main): each event with its place, the
                # outbox's events shown waiting.
                t.root.send = t.presenter.send_through(t.link.send)
                t.root.pending = t.outbox.pending
            until(lambda: all(t.presenter.model.connection == "online"
                              and t.presenter.model.state for t in tablets.values()),
                  "the tablets to connect")
            yield hub, tablets, cables
    finally:
        for tablet in tablets.values():
            tablet.close()
        for cable in cables.values():
            cable.close()
        hub.log.close()


def test_law_44_four_seat_tablets_cut_off_mid_play_back_in_any_order(
        cut_table: tuple[Hub, dict[str, Tablet], dict[str, Cable]]) -> None:
    hub, tablets, cables = cut_table
    roots = {s: t.root for s, t in tablets.items()}
    p = {s: t.presenter for s, t in tablets.items()}
    assert roots["N"].act(p["N"].checkin.check_in, 1, "NS")
    until(lambda: p["N"].screen == "board", "North checked in")
    assert roots["E"].act(p["E"].checkin.check_in, 4, "EW")
    until(lambda: p["E"].screen == "board", "East checked in")
    assert roots["N"].act(p["N"].board.announce, 1)
    until(lambda: all(x.screen == "auction" for x in p.values()), "the auction")
    for seat, call in zip("NESW", ("1NT", "Pass", "Pass", "Pass"), strict=True):
        until(lambda s=seat: p[s].model.turn == s, f"{seat} to call")
        assert roots[seat].act(p[seat].auction.call, call)
    until(lambda: all(x.screen == "play" for x in p.values()), "the play")

    # The play as the table plays it: the lowest legal card each time (bridgecore).
    deal = hub.call(lambda: hub.room.deal(1))
    board = Board(1, deal)
    for seat, call in zip(Seat, ("1NT", "Pass", "Pass", "Pass"), strict=True):
        board.push_call(seat, Call.parse(call))
    play = board.play
    assert play is not None
    record: list[tuple[str, str]] = []
    while play.turn is not None and len(record) < 12:
        seat = play.turn
        card = min(play.legal_cards, key=lambda c: (c.suit, c.rank))
        record.append((seat.letter, str(card)))
        board.play_card(seat, card)
    declarer, dummy = "N", "S"

    def tap(seat: str, card: str) -> None:
        who = declarer if seat == dummy else seat   # declarer plays dummy's cards (45)
        assert roots[who].act(p[who].play.card, card, None), (seat, card)

    # Trick 1 online: the lead faced, dummy on every screen.
    for seat, card in record[:4]:
        # on the tablet that taps (declarer's for dummy): North's own shows its pending
        # card's next seat at once, West's only once the hub has that card
        until(lambda s=seat: p[declarer if s == dummy else s].model.turn == s,
              f"{seat} on turn")
        tap(seat, card)
    until(lambda: all(sum(x.model.tricks_won) == 1 for x in p.values()), "trick 1 won")

    # The table's Wi-Fi drops: tricks 2 and 3 are played on the four tablets, cut off.
    for cable in cables.values():
        cable.cut()
    until(lambda: all(x.model.connection == "offline" for x in p.values()),
          "every tablet to notice")
    for seat, card in record[4:]:
        tap(seat, card)
    for seat in "NESW":
        show(roots[seat])
        text = roots[seat].screens["play"].cut_off.text.text
        assert text.startswith("NO CONNECTION: play on"), (seat, text)
        # Dummy's tablet enters nothing (declarer plays dummy's cards): nothing waits there.
        assert ("Waiting for the hub" in text) is (seat != dummy), (seat, text)
    show(roots["E"])
    shot(roots["E"], "cut_off_seat_tablet")

    # Back one after the other, not in the play's order.
    for seat in "WSEN":
        cables[seat].plug()
        assert tablets[seat].link.wait_delivered(30), seat

    def history() -> list[tuple[str, str]]:
        sitting = hub.room.tables["A1"].sitting
        return [(x.letter, str(c)) for x, c, _ in sitting.board.play.history]

    try:
        until(lambda: hub.call(history) == record, "the record the table played", timeout=30)
    except AssertionError:   # seen once under a full run: say what the hub holds, and held back
        raise AssertionError(f"the hub's record {hub.call(history)} against {record}; held: "
                             f"{hub.call(lambda: hub.room.order['A1'].held)}") from None
    alerts = hub.call(lambda: [a.kind for a in hub.room.alerts.open()
                               if a.kind not in ("device_offline",)])
    assert alerts == []
