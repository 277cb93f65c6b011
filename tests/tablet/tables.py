"""Table A1 of a real hub room and its tablets' presenters fed exactly what the hub
publishes (hub.room.Room): the fixture of the presenters' tests (test_checkin.py,
test_board.py, test_auction.py, test_play.py, test_result.py, test_presenter.py) and of the
UI tests."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from bridgecore.cards import Seat
from hub.room import Room
from tablet.presenter import TabletPresenter
from tests.hub.test_table import START, make_room
from wire.protocol import Envelope, Reply

SEATS = "NESW"


class Table:
    """Table A1 of a real room (Mitchell, 3 tables; board 1: North holds every top card) and
    tablets fed what the hub would publish to them after each event."""

    def __init__(self, seats: Iterable[str | None] = SEATS, *, strict: bool = False,
                 language: str = "en", alerting: str = "ebu", room: Room | None = None):
        self.room = room or make_room(strict=strict, alerting=alerting)
        self.now = 0.0           # the tablets' monotonic clock (the STOP wait)
        self.clock = START       # device and hub time
        self.seq: dict[str, int] = {}
        self.tablets = {seat: TabletPresenter("A1", seat=seat, language=language,
                                              strict=strict, clock=lambda: self.now,
                                              wall=lambda: self.clock)
                        for seat in seats}
        self.publish()

    def __getitem__(self, seat: str | None) -> TabletPresenter:
        return self.tablets[seat]

    @property
    def alerts(self) -> list[Any]:
        return list(self.room.alerts.open())

    def publish(self) -> None:
        table = self.room.tables["A1"]
        state = json.loads(json.dumps(table.public_state()))
        for seat, tablet in self.tablets.items():
            tablet.on_state(state)
            if seat is not None:
                tablet.on_seat(json.loads(json.dumps(table.seat_view(Seat(SEATS.index(seat))))))
            else:   # the table tablet's own view (t/{table}/tablet)
                tablet.on_tablet(json.loads(json.dumps(table.tablet_view())))

    def send(self, tablet: TabletPresenter, event: tuple[str, dict[str, Any]]) -> Reply:
        kind, body = event
        device = f"A1-{tablet.model.seat or 'tab'}"
        self.seq[device] = n = self.seq.get(device, 0) + 1
        self.clock += 1.0
        wire = Envelope(f"{device}-{n:06d}", device, n, self.clock, kind, body).to_json()
        env = Envelope.from_json(wire)   # the body is what the protocol's schema allows
        out = self.room.apply("A1", env, self.clock)
        self.publish()
        tablet.on_reply(json.loads(out.reply.to_json()), env)
        return out.reply

    def ok(self, tablet: TabletPresenter, event: tuple[str, dict[str, Any]]) -> None:
        reply = self.send(tablet, event)
        assert reply.status == "ack", reply

    def seated(self, board: int = 1) -> Table:
        ns = self.tablets.get("N") or self.tablets[None]
        ew = self.tablets.get("E") or self.tablets[None]
        self.ok(ns, ns.checkin.check_in(1, "NS"))
        self.ok(ew, ew.checkin.check_in(4, "EW"))
        self.ok(ns, ns.board.announce(board))
        assert not self.alerts, self.alerts
        return self

    def first(self) -> TabletPresenter:
        return next(iter(self.tablets.values()))

    def calls(self, *calls: str) -> None:
        """Calls in rotation, each from the tablet of the player in turn (or the table's)."""
        for call in calls:
            tablet = self.tablets.get(self.first().model.turn) or self.tablets[None]
            self.now += 20.0  # past any STOP wait
            self.ok(tablet, tablet.auction.call(call))

    def cards(self, *cards: str) -> None:
        """Cards in turn, each from the tablet that plays for the seat in turn."""
        for card in cards:
            turn = self.first().model.turn
            tablet = next((t for t in self.tablets.values()
                           if t.model.seat is None or turn in t.play.plays_for()), None)
            assert tablet is not None, turn
            self.ok(tablet, tablet.play.card(card))


def enabled(options: Iterable[Any]) -> list[str]:
    return [o.call if hasattr(o, "call") else o.card for o in options if o.enabled]


def in_play(strict: bool = False, seats: Iterable[str | None] = SEATS) -> Table:
    t = Table(seats, strict=strict).seated()
    t.calls("1S", "Pass", "4S", "Pass", "Pass", "Pass")
    t.cards("HJ", "H8", "H2", "HA")
    return t


def any_card_of(t: Table, seat: str) -> str:
    """A card East still holds (from the hub's deal: a table tablet holds no hand)."""
    table = t.room.tables["A1"]
    play = table.sitting.board.play
    return str(next(iter(play.remaining(Seat(SEATS.index(seat))))))
