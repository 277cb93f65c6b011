"""The Kivy tablet (tablet/app.py), offscreen, driven by simulated touches on the buttons'
positions: a whole board against a real hub (embedded broker, the hub on its thread), the four
seats played from four seat tablets linked by wire.link, and a table tablet on its own.
Each screen is saved to docs/screenshots/.

Kivy is configured before it is imported (offscreen SDL, no argv parsing, a temporary
KIVY_HOME, Python logging)."""

from __future__ import annotations

import os
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_HOME", os.path.join(tempfile.gettempdir(), "tenace-kivy-tests"))
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
if not os.environ.get("DISPLAY"):
    os.environ["SDL_VIDEODRIVER"] = "offscreen"

import pytest
from kivy.base import EventLoop
from kivy.core.window import Window
from kivy.tests.common import UnitTestTouch
from kivy.uix.widget import Widget

from hub.broker import EmbeddedBroker
from hub.event import EventSetup
from hub.service import Hub, HubRunner, data_log
from tablet.app import TabletApp, TabletRoot, broker_url, main
from tablet.presenter import TabletPresenter
from tablet.widgets import PALETTE
from tests.tablet.tables import Table
from wire.link import DeviceLink, device_id
from wire.outbox import Outbox

SEED = "0123456789abcdef0123456789abcdef01234567"
# Screenshots go to a temporary folder; TENACE_SCREENSHOTS=docs/screenshots refreshes the
# committed ones (a test run leaves the tree as it was).
SHOTS = Path(os.environ.get("TENACE_SCREENSHOTS")
             or os.path.join(tempfile.gettempdir(), "tenace-screenshots"))
LANDSCAPE = (1280, 800)     # a 10-inch tablet
PORTRAIT = (800, 1280)

EventLoop.ensure_window()


def frames(n: int = 2) -> None:
    for _ in range(n):
        EventLoop.idle()


def until(done: Callable[[], Any], what: str, timeout: float = 10.0) -> None:
    """Let frames pass (and the link's messages in) until ``done()``."""
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        EventLoop.idle()


def show(root: TabletRoot, size: tuple[int, int] = LANDSCAPE) -> TabletRoot:
    """Put this tablet's screen in the window (one window, one tablet at a time)."""
    Window.size = size
    for child in list(Window.children):
        Window.remove_widget(child)
    Window.add_widget(root)
    root.size = Window.size
    root.refresh(force=True)
    frames(3)
    return root


def touch(widget: Widget) -> None:
    """A finger on the widget's centre: down and up, as the touch screen would send."""
    x, y = widget.to_window(*widget.center)
    finger = UnitTestTouch(x, y)
    finger.touch_down()
    finger.touch_up()
    frames(1)


def tap(widget: Widget) -> None:
    """Wait until the widget is on screen and enabled, then touch it."""
    until(lambda: widget.get_root_window() is not None and not widget.disabled
          and widget.opacity > 0 and widget.width > 1, f"{widget!r} to be tappable")
    touch(widget)


def shot(root: TabletRoot, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    root.refresh(force=True)
    frames(3)
    root.export_to_png(str(SHOTS / f"{name}.png"))
    assert (SHOTS / f"{name}.png").stat().st_size > 10_000


# A room with four seat tablets -----------------------------------------------------------

class Tablet:
    """One seat's tablet: presenter, window root and link to the hub (its outbox on disk)."""

    def __init__(self, url: str, seat: str, folder: Path, language: str = "en",
                 clock: Callable[[], float] = time.monotonic):
        self.presenter = TabletPresenter("A1", seat=seat, language=language, clock=clock)
        self.root = TabletRoot(self.presenter)
        device = device_id("A1", seat)
        self.outbox = Outbox(folder / f"{device}.sqlite3", device)
        self.link = DeviceLink(url, "A1", device, seat=seat, outbox=self.outbox,
                               on_state=self.root.post_state, on_seat=self.root.post_seat,
                               on_reply=self.root.post_reply,
                               on_connection=self.root.post_connection, reply_timeout=5.0)
        self.root.send = self.link.send

    def close(self) -> None:
        self.link.close()
        self.outbox.close()
        self.root.close()


SKIPPED = [0.0]   # seconds the tablets' clock is moved on (the STOP wait is not waited)


def clock() -> float:
    return time.monotonic() + SKIPPED[0]


@pytest.fixture
def room(embedded_broker: EmbeddedBroker, tmp_path: Path) -> Iterator[dict[str, Tablet]]:
    setup = EventSetup.quick(tables=3, boards_per_round=2, seed=SEED)
    hub = Hub(data_log(tmp_path / "hub"), url=embedded_broker.url, setup=setup,
              tick_seconds=0.2)
    tablets: dict[str, Tablet] = {}
    try:
        with HubRunner(hub):
            for seat in "NESW":
                tablets[seat] = Tablet(embedded_broker.url, seat, tmp_path,
                                       language="fr" if seat == "E" else "en", clock=clock)
            until(lambda: all(t.presenter.model.connection == "online" and t.presenter.model.state
                              for t in tablets.values()), "the tablets to connect")
            yield tablets
    finally:
        for tablet in tablets.values():
            tablet.close()
        hub.log.close()


def test_a_whole_board_on_four_seat_tablets_with_touches(room: dict[str, Tablet]) -> None:
    n, e, s, w = (room[x].root for x in "NESW")
    north, east, south, west = (room[x].presenter for x in "NESW")

    # Check-in (Law 5): North enters pair 1 and his player number, East pair 4.
    show(n)
    checkin = n.screens["checkin"]
    tap(checkin.keypad.keys["1"])
    side = checkin.sides[0]
    tap(side.numbers[0])
    for key in "101":
        tap(checkin.keypad.keys[key])
    side.names[0].insert_text("North player")   # the on-screen keyboard's text
    shot(n, "checkin")
    tap(checkin.send)
    until(lambda: north.screen == "board", "North's board screen")
    show(e)
    tap(e.screens["checkin"].keypad.keys["4"])
    tap(e.screens["checkin"].send)
    until(lambda: east.screen == "board" and east.board.pairs_text, "East checked in")

    # Board start (Law 2): board 1, North deals, nobody vulnerable.
    show(n)
    board = n.screens["board"]
    tap(board.keypad.keys["1"])
    tap(board.start)
    until(lambda: all(t.presenter.screen == "auction" and t.presenter.model.own_cards
                      for t in room.values()), "the auction on every tablet")
    assert north.header[2:] == ["Board 1", "Dealer North", "Nobody vulnerable"]
    assert len(south.auction.hand) == 13 and not any(o.enabled for o in south.auction.hand)

    # The auction: 1NT - Pass - 3NT (a jump: STOP, West waits) - Pass - Pass - Pass.
    def call(root: TabletRoot, text: str, calls_before: int, name: str = "") -> None:
        show(root)
        until(lambda: len(root.presenter.model.auction_entries) == calls_before,
              f"{calls_before} calls before {text}")
        if name:
            shot(root, name)
        tap(root.screens["auction"].pad.buttons[text])
        until(lambda: len(north.model.auction_entries) == calls_before + 1,
              f"{text} recorded")

    call(n, "1NT", 0)
    call(e, "Pass", 1)
    call(s, "3NT", 2, "bidding_pad")
    show(w)
    until(lambda: west.auction.stop_wait > 0, "West's STOP wait")
    # Locked for what is left of the 10 s (how much depends on how busy the machine is).
    assert not any(o.enabled for o in west.auction.call_options)
    assert 0 < west.auction.stop_wait <= 10
    shot(w, "bidding")
    touch(w.screens["auction"].pad.buttons["Pass"])   # locked: no call is made
    frames(5)
    assert len(north.model.auction_entries) == 3 and not room["W"].link.pending
    SKIPPED[0] += 10.0                       # ten seconds later (Annex I)
    call(w, "Pass", 3)
    call(n, "Pass", 4)
    call(e, "Pass", 5)
    until(lambda: north.model.phase == "play" and north.model.declarer == "N", "3NT by North")
    assert north.model.contract == "3NT"

    # The play: East leads, declarer plays from dummy, West, declarer.
    def play(root: TabletRoot, from_dummy: bool = False) -> None:
        p = root.presenter
        before = len(north.play.trick) + 4 * sum(north.model.tricks_won)
        show(root)
        until(lambda: any(o.enabled and o.legal
                          for o in (p.play.dummy if from_dummy else p.play.hand)),
              f"{p.model.seat}'s turn")
        option = next(o for o in (p.play.dummy if from_dummy else p.play.hand) if o.legal)
        screen = root.screens["play"]
        tap((screen.dummy if from_dummy else screen.hand).buttons[option.card])
        until(lambda: len(north.play.trick) + 4 * sum(north.model.tricks_won) == before + 1,
              f"{option.card} played")

    play(e)
    until(lambda: bool(north.model.dummy_cards), "dummy faced")
    assert north.play.auction_cells == []            # Law 41C: the auction is put away
    play(n, from_dummy=True)
    play(w)
    show(n)
    shot(n, "play")
    play(n)
    until(lambda: sum(north.model.tricks_won) == 1, "trick 1 complete")

    # Law 66A: the quitted trick stays on the cloth, its winner marked, until the next lead;
    # then a player whose side has not played to the new trick may have it shown again.
    show(w)
    until(lambda: west.play.last_trick is not None, "the quitted trick on West's tablet")
    cloth = w.screens["play"].trick
    quitted = dict(west.play.last_trick.cards)
    faces = lambda: [label.text for _, face, label in cloth._places if face.opacity]  # noqa: E731
    assert "won by North" in cloth.centre.text and len(faces()) == 4
    assert w.screens["play"].last_button.disabled          # nothing led yet: on the cloth
    play(n)                                                # North leads to trick 2
    show(w)
    until(lambda: west.play.last_trick_allowed and west.play.trick, "trick 2 led")
    frames(3)
    last = w.screens["play"].last_button
    assert not last.disabled and cloth.centre.text == "Trick 2"
    tap(last)
    assert "won by North" in cloth.centre.text and len(faces()) == len(quitted) == 4
    shot(w, "last_trick")
    tap(last)
    assert cloth.centre.text == "Trick 2"

    # A claim (68-69): declarer claims the 12 remaining tricks, both defenders accept.
    show(n)
    tap(n.screens["play"].claim_button)
    tap(n.screens["play"].claim_panel.buttons[12])
    until(lambda: east.play.claim_view is not None and east.play.claim_view.answer_for == ("E",),
          "the claim on East's tablet")
    show(e)
    shot(e, "claim")
    tap(e.screens["play"].answer_panel.buttons["E", True])
    show(w)
    until(lambda: west.play.claim_view is not None and west.play.claim_view.answer_for == ("W",),
          "the claim on West's tablet")
    tap(w.screens["play"].answer_panel.buttons["W", True])
    until(lambda: north.screen == "result", "the result")

    # The result (79A): computed by the hub from the play, East agrees, then the hand record.
    result = north.result.view
    assert result is not None and result.contract == "3NT" and result.tricks is not None
    assert north.result.hand_record == {}
    show(e)
    tap(e.screens["result"].agree)
    until(lambda: north.result.confirmed and north.result.hand_record, "the confirmation")
    show(n)
    shot(n, "result")
    tap(n.screens["result"].next)
    assert north.screen == "board"
    assert all(not t.link.pending for t in room.values())


def test_a_table_tablet_picker_director_call_and_language_switch() -> None:
    """One tablet for the table (no hand shown): the card picker plays for the player in
    turn; the language switch and the silent director call from the top bar."""
    t = Table([None], strict=True).seated()
    t.calls("1S", "Pass", "4S", "Pass", "Pass", "Pass")
    t.cards("HJ", "H8")
    sent: list[tuple[str, dict[str, Any]]] = []
    root = TabletRoot(t[None], send=lambda kind, body: sent.append((kind, body)))
    show(root, PORTRAIT)
    screen = root.screens["play"]
    assert "West" in screen.hand_title.text
    tap(screen.hand.buttons["H5"])
    assert sent == [("card", {"seat": "W", "card": "H5", "source": "tablet"})]
    assert screen.hand.buttons["H8"].disabled     # played already
    shot(root, "play_table_portrait")
    tap(root.bar.director)          # a first tap asks on the button itself
    assert sent[-1][0] == "card" and root.bar.director.text == "Call? Tap"
    tap(root.bar.director)          # the second calls the director
    assert sent[-1] == ("director_call", {}) and root.bar.director.text == "Director"
    assert root.message.opacity == 1 and "director" in root.message.text
    from tablet.i18n import LANGUAGES
    seen = [t[None].model.language]
    while t[None].model.language != "it":     # the switch goes round the offered languages
        tap(root.bar.language)
        assert t[None].model.language not in seen and len(seen) <= len(LANGUAGES)
        seen.append(t[None].model.language)
    assert "Ovest" in screen.turn_text.text
    tap(root.bar.colours)
    assert t[None].model.four_colour
    root.close()


def test_the_app_takes_the_links_callbacks_from_any_thread() -> None:
    presenter = TabletPresenter("A1", seat="N")
    app = TabletApp(presenter, send=lambda kind, body: None)
    root = app.build()
    assert isinstance(root, TabletRoot) and app.tablet is root
    worker = threading.Thread(target=lambda: (app.post_connection("online"), app.post_state(
        {"table": "A1", "round": 1, "phase": "waiting", "pairs": {"NS": 1, "EW": 4},
         "strict": False, "schedule": {"boards": [], "expected": None, "next": None}})))
    worker.start()
    worker.join()
    until(lambda: presenter.model.connection == "online" and presenter.model.state, "the callbacks")
    assert broker_url("hub.local") == "mqtt://hub.local:1883"
    assert broker_url("10.0.0.2:1884") == "mqtt://10.0.0.2:1884"
    with pytest.raises(ValueError):
        broker_url("hub:port")
    assert main(["--hub", "hub:port", "--table", "A1"]) == 2      # refused before any window
    assert main(["--hub", "hub", "--table", "no such table!"]) == 2
    root.close()


def test_the_pad_by_touch_alert_with_its_explanation_and_undo() -> None:
    """Laws 40 and 25A from the pad: Alert arms the next call with a written explanation;
    Undo takes the call back before partner has called."""
    t = Table([None]).seated()
    tab = t[None]
    sent: list[tuple[str, dict[str, Any]]] = []

    def send(kind: str, body: dict[str, Any]) -> None:
        sent.append((kind, body))
        assert t.send(tab, (kind, body)).status == "ack"

    root = show(TabletRoot(tab, send=send))
    pad = root.screens["auction"].pad
    assert pad.undo.disabled and pad.explanation.opacity == 0
    assert pad.alert.bg == list(PALETTE["yellow"]) and pad.alert.text == "Alert"
    tap(pad.alert)
    assert tab.auction.alert_armed and pad.explanation.opacity == 1
    # Armed, it shows: dark with yellow text and a tick (yellow on yellow did not).
    assert pad.alert.bg == list(PALETTE["ink"]) and pad.alert.color == list(PALETTE["yellow"])
    assert pad.alert.text == "\u2713 Alert"
    shot(root, "alert_armed")
    pad.explanation.insert_text("Precision: 16+")
    tap(pad.buttons["1C"])
    assert sent == [("call", {"seat": "N", "call": "1C", "alert": True,
                              "explanation": "Precision: 16+"})]
    assert not tab.auction.alert_armed and pad.explanation.text == ""
    assert root.screens["auction"].grid.children     # the record shows the call
    tap(pad.undo)
    assert sent[-1] == ("undo", {"seat": "N"})
    assert tab.model.has_auction and tab.model.auction_entries == []
    root.close()


def test_the_table_is_asked_for_a_card_its_reader_missed_by_touch() -> None:
    """The card readers missed North's card (hub/reads.py): the play screen asks the table
    for it; a touch on the card answers (tablet/presenters/prompts.py)."""
    from tests.tablet.test_prompts import reader, to_play

    t = to_play(Table([None]))
    reader(t, "card", seat="W", card="S2", source="reader")
    reader(t, "card", seat="E", card="ST", source="reader")
    sent: list[tuple[str, dict[str, Any]]] = []
    root = TabletRoot(t[None], send=lambda kind, body: sent.append((kind, body)))
    show(root, LANDSCAPE)
    panel = root.screens["play"].prompt_panel
    assert "North played to trick 1" in panel.text.text and panel.not_yet.opacity == 1
    tap(panel.cards.buttons["SA"])
    assert sent == [("answer", {"seat": "N", "trick": 1, "card": "SA"})]
    shot(root, "play_prompt_landscape")
    root.close()
