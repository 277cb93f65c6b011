"""The Kivy tablet: ``TabletApp(presenter, send=callable)``, and ``main(argv)`` for
``tenace tablet --hub HOST[:PORT] --table N [--seat N|E|S|W]``, or ``tenace tablet --pair
CODE-or-URI [--hub http://CONSOLE]`` (pairing: wire.pairing), then ``tenace tablet`` alone
with the credentials kept.

The window is a thin view of :class:`tablet.presenter.TabletPresenter`: a top bar (table,
board, dealer, vulnerability in Law 2 red, round clock, connection, language, four colours,
and the silent director call, always there), a message strip (the hub's refusals in the
player's language), and one screen at a time (check-in, board, auction, play, result), each
drawing what its own presenter (``presenter.checkin``, ``presenter.auction``...) says and
calling its commands.

Threads never touch widgets: the link's callbacks (network thread) go through
``post_state`` / ``post_seat`` / ``post_tablet`` / ``post_reply`` / ``post_connection``,
which hand them to the Kivy clock; the presenter and the widgets live on the UI thread
only. The payloads are decoded into typed views there, by the table model
(:mod:`tablet.state`).

The table plays on while the network is down (:mod:`tablet.offline`): the screen shows
the events the hub has not answered yet on top of its last state. ``pending`` (the link's
``outbox.pending``) gives them when the window opens (those left from the last run); then
each event sent is added (the envelope ``send`` returns) and each reply takes its event out
(the envelope the link gives ``on_reply``). The outbox is not read again on the way: the
link's worker may have settled events whose states and replies are still queued for the UI
thread, and the screen would step back. Offline, the connection button counts them.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

os.environ.setdefault("KIVY_NO_ARGS", "1")  # our argv is ours, not Kivy's
# No multisampled framebuffer: on a software renderer (Mesa's llvmpipe, a Linux machine
# without a GPU) it held 32 MB of the process (docs/android.md, "Memory"); the cards and
# buttons are flat rectangles that need no antialiasing.
os.environ.setdefault("KCFG_GRAPHICS_MULTISAMPLES", "0")

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from tablet.i18n import LANGUAGES, SUIT_SYMBOLS, suit_colour
from tablet.kiosk import Kiosk, go_fullscreen
from tablet.presenter import TabletPresenter
from tablet.presenters import PresenterError
from tablet.settings import TabletSettings, settings_path
from tablet.ui_auction import AuctionScreen
from tablet.ui_board import BoardScreen
from tablet.ui_checkin import CheckinScreen
from tablet.ui_play import PlayScreen
from tablet.ui_result import ResultScreen
from tablet.widgets import PALETTE, Panel, Screen, Tap, Text, show
from wire.catalogs import PSEUDO

__all__ = ["TabletApp", "TabletRoot", "main"]

log = logging.getLogger(__name__)

Send = Callable[[str, dict[str, Any]], Any]
Pending = Callable[[], Sequence[Any]]
Remember = Callable[[str, bool], None]     # (language, four colours) kept for the next start
_LEVEL_COLOURS = {"info": "blue", "warning": "orange", "error": "red"}
_MESSAGE_SECONDS = 8.0
_CONNECTION_COLOURS = {"online": "green", "offline": "red", "connecting": "orange"}
DIRECTOR_CONFIRM_SECONDS = 5.0   # the director button's second tap, to call him
ONE_ROW_INFO = 330   # dp: "Table A1   Round 1   You: North" in the bar's font, in Italian


class TopBar(Panel):
    """Table, seat, board, dealer; vulnerability (red when vulnerable, Law 2); round clock;
    connection; language; four colours; the director call. One row in landscape, two in
    portrait."""

    def __init__(self, root: TabletRoot, **kw: Any):
        super().__init__(bg=list(PALETTE["bar"]), size_hint_y=None, height=dp(72),
                         padding=(dp(8), dp(6)), spacing=dp(8), **kw)
        self.info = Text("", size=19, bold=True, ink=PALETTE["white"], halign="left")
        self.vul = Panel(bg=list(PALETTE["notvul"]), radius=dp(8), size_hint_x=None,
                         width=dp(170), padding=dp(4))
        self.vul_text = Text("", size=17, bold=True)
        self.vul.add_widget(self.vul_text)
        self.clock = Text("", size=20, bold=True, ink=PALETTE["yellow"], size_hint_x=None,
                          width=dp(120))
        self.connection = Tap("", None, size=15, size_hint_x=None, width=dp(128))
        self.language = Tap("", root.next_language, size=18, bg=PALETTE["white"],
                            fg=PALETTE["ink"], size_hint_x=None, width=dp(60))
        self.colours = Tap("", root.toggle_colours, size=17, bg=PALETTE["white"],
                           fg=PALETTE["ink"], size_hint_x=None, width=dp(84))
        self.director = Tap("", root.call_director, size=20, bg=PALETTE["orange"],
                            size_hint_x=None, width=dp(130))
        self.first = BoxLayout(spacing=dp(8))
        self.second = BoxLayout(spacing=dp(8))
        for w in (self.info, self.vul):
            self.first.add_widget(w)
        for w in (self.clock, self.connection, self.language, self.colours, self.director):
            self.second.add_widget(w)
        self.add_widget(self.first)
        self.add_widget(self.second)
        self._landscape: bool | None = None

    def arrange(self, landscape: bool, width: float | None = None) -> None:
        """One row when the window is wide enough for the buttons, the vulnerability and
        the table's line in full (``ONE_ROW_INFO``); two rows else (portrait, and a
        landscape window as narrow as 800 pixels)."""
        one_row = landscape and (width is None or width >= self.one_row_width())
        if one_row == self._landscape:
            return
        self._landscape = one_row
        self.orientation = "horizontal" if one_row else "vertical"
        self.height = dp(72) if one_row else dp(120)
        self.second.size_hint_x = None if one_row else 1
        self._fit()

    def one_row_width(self) -> float:
        """The width one row needs: the buttons at their widths, the vulnerability and the
        table's line."""
        buttons = sum(w.width for w in self.second.children if w is not self.clock)
        return buttons + dp(120) + self.vul.width + dp(ONE_ROW_INFO) + dp(8) * 8

    def _fit(self) -> None:
        """Landscape: the buttons keep their width on the right; portrait: the clock takes
        what is left of the second row."""
        self.clock.size_hint_x = None if self._landscape else 1
        self.clock.width = dp(120) if self.clock.text else 0
        if self._landscape:
            self.second.width = sum(w.width for w in self.second.children) + \
                dp(8) * (len(self.second.children) - 1)

    def refresh(self, p: TabletPresenter, director_asked: bool = False) -> None:
        m = p.model
        tr = m.tr
        first = tr("header.table", table=m.table)
        round_ = m.round
        if isinstance(round_, int):
            first += "   " + tr("header.round", round=round_)
        if m.seat is not None:
            first += "   " + tr("header.seat", seat=tr.seat(m.seat))
        second = ""
        if m.board_number is not None:
            second = tr("header.board", board=m.board_number)
            if m.dealer is not None:
                second += "   " + tr("header.dealer", seat=tr.seat(m.dealer))
        self.info.text = f"{first}\n{second}" if second else first
        vul = m.vulnerability if m.board_number else None
        if vul is not None:
            self.vul_text.text = tr(f"vul.{vul}")
            red = vul != "None"
            self.vul.bg = list(PALETTE["vul"] if red else PALETTE["notvul"])
            self.vul_text.color = list(PALETTE["white"] if red else PALETTE["ink"])
            self.vul.opacity = 1
        else:
            self.vul.opacity = 0
        self.clock.text = p.clock_text or ""
        self._fit()
        status = m.connection if m.connection in _CONNECTION_COLOURS else "offline"
        waiting = m.pending_count if status != "online" else 0   # online: in flight
        self.connection.text = tr(f"conn.{status}") + (f" ({waiting})" if waiting else "")
        self.connection.bg = list(PALETTE[_CONNECTION_COLOURS[status]])
        self.language.text = m.language.upper()
        suits = [(s, suit_colour(s, True)) for s in "SHDC"] if m.four_colour else \
            [(s, suit_colour(s, False)) for s in "SHDC"]
        self.colours.text = "".join(f"[color={_hex(c)}]{SUIT_SYMBOLS[s]}[/color]"
                                    for s, c in suits)
        self.colours.selected = m.four_colour
        self.director.text = (tr("director.confirm") if director_asked
                              else tr("director.button"))
        self.director.bg = list(PALETTE["red" if director_asked else "orange"])


def _hex(rgba: Sequence[float]) -> str:
    return "".join(f"{int(c * 255):02x}" for c in rgba[:3])


class TabletRoot(BoxLayout):
    """The whole window: top bar, message strip, the current screen. ``send(type, body)``
    gives an event to the link; ``pending()`` lists those the hub has not answered yet
    (``link.outbox.pending``), shown on top of the hub's state."""

    def __init__(self, presenter: TabletPresenter, send: Send | None = None,
                 pending: Pending | None = None, **kw: Any):
        super().__init__(orientation="vertical", **kw)
        self.presenter = presenter
        self.send = send
        self.pending = pending
        self.remember: Remember | None = None
        self.bar = TopBar(self)
        self.add_widget(self.bar)
        self.message = Tap("", self.presenter.model.dismiss_message, size=22, radius=0,
                           size_hint_y=None, height=0)
        self.add_widget(self.message)
        self.body = Panel(bg=list(PALETTE["page"]))
        self.add_widget(self.body)
        self.screens: dict[str, Screen] = {}
        self.current: Screen | None = None
        self.screen_name = ""
        self.landscape: bool | None = None
        self._seen = -1
        self._message_at = 0.0
        self._message: Any = None
        self._ticked: Any = None
        self._director_asked: float | None = None
        self.bind(size=lambda *_: self.refresh(force=True))
        self._ticker = Clock.schedule_interval(lambda dt: self.tick(), 0.25)
        self.sync_pending()
        self.refresh(force=True)

    # Input from the link (any thread) -------------------------------------------------------
    def post(self, fn: Callable[..., Any], *args: Any) -> None:
        """Run ``fn(*args)`` on the UI thread, then refresh."""
        def run(_dt: float) -> None:
            fn(*args)
            self.refresh()
        Clock.schedule_once(run, 0)

    def sync_pending(self) -> None:
        """Give the presenter every event still waiting for the hub, read from the outbox
        (UI thread): when the window opens, or when a send did not return its envelope."""
        if self.pending is None:
            return
        try:
            events = self.pending()
        except Exception:  # a failing outbox must not close the window
            log.exception("could not read the events waiting for the hub")
            return
        self.presenter.set_pending(events)

    def post_state(self, state: dict[str, Any]) -> None:
        self.post(self.presenter.on_state, state)

    def post_seat(self, view: dict[str, Any]) -> None:
        self.post(self.presenter.on_seat, view)

    def post_tablet(self, view: dict[str, Any]) -> None:
        self.post(self.presenter.on_tablet, view)

    def post_reply(self, reply: Any, envelope: Any = None) -> None:
        self.post(self.presenter.on_reply, reply, envelope)

    def post_connection(self, status: str) -> None:
        self.post(self.presenter.on_connection, status)

    # Actions (UI thread) ---------------------------------------------------------------------
    def act(self, command: Callable[..., Any], *args: Any) -> bool:
        """Run a presenter command; send the event it returns. False when refused (the
        reason is shown in the player's language)."""
        try:
            event = command(*args)
        except PresenterError as err:
            self.presenter.model.notify(err.text(self.presenter.model.tr), "error")
            self.refresh()
            return False
        if event is not None:
            kind, body = event
            if self.send is None:
                log.warning("no link: %s %s not sent", kind, body)
            else:
                sent: Any = None
                try:
                    sent = self.send(kind, body)
                except Exception:  # a link failure must not close the window
                    log.exception("could not send %s", kind)
                    self.presenter.on_connection("offline")
                if getattr(sent, "id", None) is not None:   # the envelope, in the outbox
                    self.presenter.add_pending(sent)
                else:
                    self.sync_pending()
        self.refresh()
        return True

    def next_language(self) -> None:
        self.presenter.model.next_language()
        self._remember()
        self.refresh(force=True)

    def toggle_colours(self) -> None:
        model = self.presenter.model
        model.set_four_colour(not model.four_colour)
        self._remember()
        self.refresh(force=True)

    def _remember(self) -> None:
        """The device keeps the player's choice (tablet.settings) for its next start."""
        if self.remember is None:
            return
        try:
            self.remember(self.presenter.model.language, self.presenter.model.four_colour)
        except Exception:   # a settings file that cannot be written must not close the window
            log.exception("could not keep the tablet's settings")

    def call_director(self) -> None:
        """The first tap asks "Call the director?" on the button itself; a second tap
        within ``DIRECTOR_CONFIRM_SECONDS`` calls him (a brush of the bar calls nobody)."""
        now = time.monotonic()
        if self._director_asked is None or now - self._director_asked > DIRECTOR_CONFIRM_SECONDS:
            self._director_asked = now
            self.refresh(force=True)
            return
        self._director_asked = None
        self.act(self.presenter.director_call)

    @property
    def director_asked(self) -> bool:
        asked = self._director_asked
        return asked is not None and time.monotonic() - asked <= DIRECTOR_CONFIRM_SECONDS

    # Drawing ---------------------------------------------------------------------------------
    def tick(self) -> None:
        """Four times a second: the STOP countdown, the round clock, old messages."""
        p = self.presenter
        m = p.model
        if m.message is not None and m.message is self._message and \
                time.monotonic() - self._message_at > _MESSAGE_SECONDS:
            m.dismiss_message()
        wait = p.auction.stop_wait
        key = (int(wait + 0.999) if wait > 0 else 0, p.auction.stop_banner, p.clock_text,
               self.director_asked)
        if key != self._ticked or m.revision != self._seen:
            self._ticked = key
            self.refresh(force=True)

    def refresh(self, force: bool = False) -> None:
        p = self.presenter
        if not force and p.model.revision == self._seen:
            return
        self._seen = p.model.revision
        landscape = self.width >= self.height
        name = p.screen
        if name != self.screen_name or self.current is None:
            screen = self.screens.get(name)
            if screen is None:
                screen = self.screens[name] = _SCREENS[name](self)
                screen.arrange(landscape)
            self.body.clear_widgets()
            self.body.add_widget(screen)
            self.current, self.screen_name = screen, name
        if landscape != self.landscape:
            self.landscape = landscape
            for screen in self.screens.values():
                screen.arrange(landscape)
        elif self.current is not None:
            self.current.arrange(landscape)
        self.bar.arrange(landscape, self.width)
        self.bar.refresh(p, self.director_asked)
        message = p.model.message
        if message is not self._message:
            self._message = message
            self._message_at = time.monotonic()
        if message is not None:
            self.message.text = message.text
            self.message.bg = list(PALETTE[_LEVEL_COLOURS.get(message.level, "blue")])
        show(self.message, message is not None, dp(64))
        assert self.current is not None
        self.current.refresh()

    def close(self) -> None:
        self._ticker.cancel()


_SCREENS: dict[str, Callable[[TabletRoot], Screen]] = {
    "checkin": CheckinScreen, "board": BoardScreen, "auction": AuctionScreen,
    "play": PlayScreen, "result": ResultScreen,
}


class TabletApp(App):
    """``TabletApp(presenter, send=link.send, pending=link.outbox.pending).run()``. The
    link's callbacks go to :meth:`post_state` and friends (from any thread)."""

    title = "Tenace"

    def __init__(self, presenter: TabletPresenter, send: Send | None = None,
                 pending: Pending | None = None, *, remember: Remember | None = None,
                 fullscreen: bool = False, kiosk: bool = False,
                 exit_pin: Callable[[str], bool] | None = None, **kw: Any):
        super().__init__(**kw)
        self.presenter = presenter
        self.send = send
        self.pending = pending
        self.remember = remember
        self.fullscreen = fullscreen or kiosk
        self.kiosk: Kiosk | None = None
        if kiosk:
            self.kiosk = Kiosk(self.stop, exit_pin, lambda: self.presenter.model.tr)
        self.tablet: TabletRoot | None = None

    def build(self) -> Widget:
        Window.clearcolor = PALETTE["page"]
        if self.fullscreen:
            go_fullscreen(Window)
        if self.kiosk is not None:
            self.kiosk.attach(Window)
        self.tablet = TabletRoot(self.presenter, self._send, self._pending)
        self.tablet.remember = self.remember
        return self.tablet

    def _pending(self) -> Sequence[Any]:
        return () if self.pending is None else self.pending()

    def _send(self, kind: str, body: dict[str, Any]) -> Any:
        if self.send is None:
            raise RuntimeError("the tablet has no link to the hub")
        return self.send(kind, body)

    def _post(self, kind: str, *data: Any) -> None:
        root = self.tablet
        if root is None:
            Clock.schedule_once(lambda dt: self._post(kind, *data), 0.05)
            return
        getattr(root, f"post_{kind}")(*data)

    def post_state(self, state: dict[str, Any]) -> None:
        self._post("state", state)

    def post_seat(self, view: dict[str, Any]) -> None:
        self._post("seat", view)

    def post_tablet(self, view: dict[str, Any]) -> None:
        self._post("tablet", view)

    def post_reply(self, reply: Any, envelope: Any = None) -> None:
        self._post("reply", reply, envelope)

    def post_connection(self, status: str) -> None:
        self._post("connection", status)

    def on_stop(self) -> None:
        if self.tablet is not None:
            self.tablet.close()


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="tenace tablet",
        description="The players' tablet: one per table (North keeps it) or one per seat "
                    "(the bidding-box replacement).")
    p.add_argument("--hub", help="the hub's broker, HOST[:PORT] (port 1883; 8883 with --ca); "
                                 "with --pair, the console's address http://HOST:PORT")
    p.add_argument("--ca", metavar="FILE", help="TLS: the club's ca.crt, the authority the "
                                                "hub's certificate must be signed by")
    p.add_argument("--table", help="table id, e.g. A1 (default: the paired account's)")
    p.add_argument("--seat", choices=["N", "E", "S", "W"],
                   help="this tablet's seat (one tablet per seat); none: one per table")
    p.add_argument("--device", help="device id (default TABLE-SEAT, or TABLE-tab for the "
                                    "table's tablet; a spare tablet needs an id of its own)")
    p.add_argument("--credentials", metavar="FILE",
                   help="the device's MQTT account, a JSON file {\"username\", \"password\"} "
                        "as `tenace accounts issue DEVICE` prints it")
    p.add_argument("--user", help="the MQTT account (default: the device id, which the "
                                  "broker requires as client id)")
    p.add_argument("--password", help="its password (other users of the machine can see a "
                                      "command line: prefer --credentials)")
    pairing = p.add_argument_group("pairing (the console's Devices page)")
    pairing.add_argument("--pair", metavar="CODE-or-URI",
                         help="redeem a pairing code (K7QX-M2PD, with --hub http://HOST:PORT) "
                              "or the QR code's tenace-pair: URI, keep the credentials, run")
    pairing.add_argument("--device-config", metavar="FILE",
                         help="where the paired credentials are kept (default "
                              "$TENACE_DEVICE_CONFIG or ~/.config/tenace/device.json); "
                              "without --table, the tablet runs with them")
    pairing.add_argument("--pair-only", action="store_true",
                         help="with --pair: store the credentials and exit (set-up scripts)")
    p.add_argument("--language", choices=[*LANGUAGES, PSEUDO],
                   help="the players' language, kept for the next starts (default: the one "
                        "kept, else the system's, LANG, else English)")
    p.add_argument("--four-colour", action="store_true", help="four-colour suits (kept)")
    screen = p.add_argument_group("the screen")
    screen.add_argument("--fullscreen", action="store_true",
                        help="the whole screen, no window decorations")
    screen.add_argument("--kiosk", action="store_true",
                        help="full screen, and no way out but Ctrl+Shift+Q and the exit PIN")
    screen.add_argument("--set-exit-pin", metavar="PIN",
                        help="keep the kiosk's exit PIN (4 to 12 digits, stored hashed) and "
                             "exit")
    p.add_argument("--strict", action="store_true",
                   help="offer only legal calls and cards (else bidding-box mode)")
    p.add_argument("--outbox", help="file of the events entered, kept until the hub has "
                                    "answered (default: in the app's data folder)")
    return p


def broker_url(hub: str, user: str | None = None, password: str | None = None) -> str:
    """``HOST[:PORT]`` (or a full mqtt:// URL) -> the broker URL, with ``user`` and
    ``password`` in it when given."""
    if "://" in hub:
        url = hub
    else:
        host, sep, port = hub.rpartition(":")
        if not sep:
            host, port = hub, "1883"
        if not port.isdigit():
            raise ValueError(f"--hub {hub!r}: give HOST or HOST:PORT")
        url = f"mqtt://{host or '127.0.0.1'}:{port}"
    if user is None:
        return url
    from urllib.parse import quote
    scheme, _, rest = url.partition("://")
    secret = "" if password is None else ":" + quote(password, safe="")
    return f"{scheme}://{quote(user, safe='')}{secret}@{rest.rsplit('@', 1)[-1]}"


def _credentials(args: argparse.Namespace, device: str) -> tuple[str | None, str | None]:
    """(user, password) from --credentials FILE or --user/--password; (None, None) leaves
    them to the URL or the keyring (wire/mqtt.py)."""
    if args.credentials:
        import json
        try:
            data = json.loads(Path(args.credentials).read_text(encoding="utf-8"))
            return str(data["username"]), str(data["password"])
        except (OSError, ValueError, KeyError, TypeError) as err:
            raise ValueError(f"--credentials {args.credentials}: {err}") from None
    if args.password is not None:
        return args.user or device, args.password
    return args.user, None


def main(argv: Sequence[str] | None = None) -> int:
    """``tenace tablet --hub HOST[:PORT] --table N [--seat N|E|S|W]``, or ``--pair CODE``, or
    nothing (the paired credentials): run the tablet."""
    args = _parser().parse_args(sys.argv[1:] if argv is None else list(argv))
    logging.basicConfig(level=logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    # The network side (paho-mqtt), imported only when a tablet runs.
    from wire.errors import WireError
    from wire.link import DeviceLink, device_id
    from wire.outbox import OUTBOX_NAME, Outbox, OutboxError

    if args.set_exit_pin is not None:
        path = settings_path(args.device_config)
        try:
            kept = TabletSettings.load(path).with_exit_pin(args.set_exit_pin).save(path)
        except ValueError as err:
            print(f"tenace tablet: --set-exit-pin: {err}", file=sys.stderr)
            return 2
        if not kept:
            print(f"tenace tablet: could not write {path}", file=sys.stderr)
            return 2
        print(f"the kiosk's exit PIN is kept in {path}")
        return 0
    first_seq = 0
    try:
        from wire.pairing import pair_or_load
        paired = pair_or_load(args.pair, args.hub, args.device_config, ("table", "seat"),
                              stored=args.table is None, cafile=args.ca)
        if args.pair_only:
            if not args.pair:
                raise ValueError("--pair-only goes with --pair")
            return 0
        if paired is not None:
            args.table, args.seat, device = paired.table, paired.seat, paired.account
            url, first_seq = paired.broker_url(), paired.first_seq
        else:
            if args.hub is None:
                raise ValueError("give --hub HOST[:PORT] (or pair the tablet: --pair CODE)")
            device = args.device or device_id(args.table, args.seat)
            url = broker_url(args.hub, *_credentials(args, device))
            if args.ca:
                from wire.mqtt import with_ca
                url = with_ca(url, args.ca)
    except (ValueError, WireError) as err:
        print(f"tenace tablet: {err}", file=sys.stderr)
        return 2
    settings_file = settings_path(args.device_config)
    settings = TabletSettings.load(settings_file)
    language = settings.language_for(args.language)
    four_colour = args.four_colour or settings.four_colour
    if args.language or args.four_colour:
        settings = settings.with_language(language).with_four_colour(four_colour)
        settings.save(settings_file)

    def remember(language: str, four_colour: bool) -> None:
        nonlocal settings
        settings = settings.with_language(language).with_four_colour(four_colour)
        settings.save(settings_file)

    presenter = TabletPresenter(args.table, seat=args.seat, language=language,
                                four_colour=four_colour, strict=args.strict)
    app = TabletApp(presenter, remember=remember, fullscreen=args.fullscreen, kiosk=args.kiosk,
                    exit_pin=settings.exit_pin_matches if settings.has_exit_pin else None)
    path = Path(args.outbox) if args.outbox else Path(app.user_data_dir) / OUTBOX_NAME
    try:
        outbox = Outbox(path, device, first_seq=first_seq)
    except OutboxError as err:
        print(f"tenace tablet: {err}", file=sys.stderr)
        return 2
    link = DeviceLink(url, args.table, device, seat=args.seat, outbox=outbox,
                      on_state=app.post_state, on_seat=app.post_seat,
                      on_tablet=app.post_tablet,
                      on_reply=app.post_reply, on_connection=app.post_connection)
    app.send = presenter.send_through(link.send)
    app.pending = outbox.pending
    try:
        app.run()
    finally:
        link.close()
        outbox.close()
    return 0
