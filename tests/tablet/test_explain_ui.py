"""An alerted call explained through the real Kivy app, the real link and a live hub (protocol
7.13, 7.14, 11.2, 11.3): North alerts 1C; East asks from his tablet by touch; South, North's
partner, answers on his (EBU: partner explains); East and West see the explanation under the
call, North never does, in the views every seat's link received (Law 16: unauthorized
information; Law 20F: explanation on request). The table tablet, on its own link, gets it for
East-West only. Screenshots in the temporary screenshots folder (test_ui.SHOTS)."""

from __future__ import annotations

from pathlib import Path

from hub.broker import EmbeddedBroker
from tablet.app import TabletRoot
from tablet.presenter import TabletPresenter
from tests.tablet.test_ui import Tablet, room, shot, show, tap, until  # noqa: F401 (fixture)
from wire.link import DeviceLink
from wire.outbox import Outbox


def cell(root: TabletRoot, call: str) -> str | None:
    return next(c.explanation for c in root.presenter.auction.cells if c.call == call)


def test_east_asks_south_explains_north_never_sees_it_law_16_20f(
        room: dict[str, Tablet], embedded_broker: EmbeddedBroker,  # noqa: F811
        tmp_path: Path) -> None:
    n, e, s, w = (room[x].root for x in "NESW")
    north = n.presenter
    table_tablet = TabletPresenter("A1", language="it")
    tab_root = TabletRoot(table_tablet)
    box = Outbox(tmp_path / "A1-tab.sqlite3", "A1-tab")
    tab_link = DeviceLink(embedded_broker.url, "A1", "A1-tab", outbox=box,
                          on_state=tab_root.post_state, on_tablet=tab_root.post_tablet,
                          on_reply=tab_root.post_reply, on_connection=tab_root.post_connection)
    try:
        n.act(north.checkin.check_in, 1, "NS")
        until(lambda: north.screen == "board", "North checked in")
        e.act(e.presenter.checkin.check_in, 4, "EW")
        until(lambda: e.presenter.screen == "board", "East checked in")
        n.act(north.board.announce, 1)
        until(lambda: all(t.presenter.screen == "auction" for t in room.values()),
              "the auction on every tablet")

        # North alerts 1C by touch, with a note (EBU: kept for the director only).
        show(n)
        pad = n.screens["auction"].pad
        tap(pad.alert)
        pad.explanation.text = "strong club"
        tap(pad.buttons["1C"])
        until(lambda: len(e.presenter.model.auction_entries) == 1, "1C on East's tablet")

        # East asks by touch; the question reaches South (not North) on his tablet.
        show(e)
        strip = e.screens["auction"].explain
        until(lambda: strip.ask_buttons[0].opacity == 1, "East's ask button")
        tap(strip.ask_buttons[0])
        until(lambda: bool(s.presenter.explain.questions), "the question on South's tablet")
        assert north.explain.questions == []
        show(s)
        answer = s.screens["auction"].explain
        until(lambda: answer.answer_row.opacity == 1, "South's answer field")
        shot(s, "explain_question")
        answer.answer.text = "precision: 16+ any shape"
        tap(answer.send)

        text = "precision: 16+ any shape"
        until(lambda: cell(e, "1C") == text and cell(w, "1C") == text, "East-West see it")
        until(lambda: table_tablet.model.tablet_view is not None
              and bool(table_tablet.model.explanations), "the table tablet's view")
        assert cell(n, "1C") is None        # Law 16: never partner's explanation
        show(e)
        shot(e, "explain_opponent")
        show(n)
        shot(n, "explain_partner")
        # What every seat's link received from the hub: only the opponents, and the seat
        # who wrote it, ever got the text; North's view never held it, nor his note.
        for seat, tablet in room.items():
            got = [x["text"] for x in (tablet.link.seat_view or {}).get("explanations", [])]
            assert got == ([] if seat == "N" else [text]), (seat, got)
        assert "strong club" not in str([t.link.state for t in room.values()])
        view = table_tablet.model.tablet_view
        assert view is not None and [(x.text, x.to) for x in view.explanations] == [
            (text, "EW")]
        show(tab_root)
        until(lambda: cell(tab_root, "1C") == f"per Est-Ovest: {text}", "the table tablet")
        shot(tab_root, "explain_table_tablet")
    finally:
        tab_link.close()
        box.close()
        tab_root.close()
