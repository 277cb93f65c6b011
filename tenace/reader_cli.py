"""``tenace devices readers | enrol | run``: the card readers from the command line.

:func:`add_parsers` adds the three subcommands to the ``tenace devices`` group:

* ``readers [--backend pcsc|serial|sim]``: the readers connected now, as specs to give to
  the other commands (``pcsc:ACS ACR122U PICC Interface 00 00``, ``serial:/dev/ttyUSB0``);
* ``enrol --reader SPEC --deck NAME [--boards 1-4,9]``: read a pack's 52 tags in order,
  guided card by card, into the deck file;
* ``run --table A1 --seat N=SPEC ...``: a table's readers publishing to the hub until
  interrupted (Ctrl-C, SIGTERM); ``run --pair CODE-or-URI [--hub URL] --seat ...`` first
  redeems a pairing code from the console's Devices page (wire.pairing) and keeps the
  reader node's credentials, which later runs without ``--table`` use.

The command line only: the work is :mod:`firmware_bridge`'s (``readers``, ``decks``,
``daemon``), whose errors (:class:`firmware_bridge.errors.FirmwareBridgeError`) become
:class:`CommandError` here.
"""

from __future__ import annotations

import argparse
import logging
import signal
import threading
from pathlib import Path
from typing import Any

from bridgecore.cards import Seat
from tenace.commands import CommandError

__all__ = ["DEFAULT_DECKS", "add_parsers", "enrol_command", "readers_command", "run_command"]

log = logging.getLogger(__name__)

DEFAULT_DECKS = "tenace-data/decks.json"


def add_parsers(devices_sub: Any) -> None:
    """Add ``readers``, ``enrol`` and ``run`` to the ``tenace devices`` subparsers."""
    p = devices_sub.add_parser(
        "readers", help="list the card readers connected now",
        description="List the card readers of each backend (pcsc: PC/SC readers through "
                    "pcscd; serial: serial ports; sim: simulated readers of this process).")
    p.add_argument("--backend", choices=["pcsc", "serial", "sim"],
                   help="only this backend (default: pcsc and serial)")
    p.set_defaults(run=readers_command)

    e = devices_sub.add_parser(
        "enrol", aliases=["enroll"], help="enrol a deck: read its 52 tags in order",
        description="Read the 52 tags of one pack in order (spades ace to two, then hearts, "
                    "diamonds, clubs), guided card by card, and keep the deck in the deck "
                    "file. A tag read twice or already in another deck is refused.")
    e.add_argument("--reader", required=True, help="reader spec, e.g. pcsc:ACR122U")
    e.add_argument("--deck", required=True, help="the deck's name, e.g. club-07")
    e.add_argument("--boards", default="",
                   help="the boards this pack is in, e.g. 7 or 1-4,9 (then a card of another "
                        "pack is foreign from the first card read)")
    e.add_argument("--decks", default=DEFAULT_DECKS, help=f"deck file (default {DEFAULT_DECKS})")
    e.add_argument("--replace", action="store_true", help="enrol again a deck of that name")
    e.add_argument("--timeout", type=float, default=120.0,
                   help="give up after this many seconds without a tag (default 120)")
    e.set_defaults(run=enrol_command)

    r = devices_sub.add_parser(
        "run", help="run a table's card readers and publish to the hub",
        description="Read the four seats' readers of one table and publish what they see to "
                    "the hub: hands out of the pockets, cards played, hands back. Events are "
                    "kept in an outbox file until the hub has them.")
    r.add_argument("--table", help="the table's id on the hub, e.g. A1 (default: the paired "
                                   "account's)")
    r.add_argument("--seat", action="append", default=[], metavar="SEAT=SPEC",
                   help="a seat's reader, e.g. N=pcsc:ACR122U (once per seat)")
    r.add_argument("--broker", default="mqtt://127.0.0.1:1883",
                   help="the hub's broker (default mqtt://127.0.0.1:1883), with the "
                        "account {table}-rdr's credentials: mqtt://A1-rdr:PASSWORD@HOST:PORT "
                        "(tenace accounts issue A1-rdr --url), or from TENACE_MQTT_KEYRING"),
    r.add_argument("--ca", metavar="FILE", help="TLS: the club's ca.crt (mqtt://HOST becomes "
                                                "mqtts://HOST:8883)")
    r.add_argument("--pair", metavar="CODE-or-URI",
                   help="redeem a pairing code of the console's Devices page (K7QX-M2PD with "
                        "--hub, or the QR code's tenace-pair: URI), keep the credentials, run")
    r.add_argument("--hub", metavar="URL", help="with --pair: the console's address, "
                                                "http://HOST:PORT")
    r.add_argument("--device-config", metavar="FILE",
                   help="where the paired credentials are kept (default $TENACE_DEVICE_CONFIG "
                        "or ~/.config/tenace/device.json); without --table, used to connect")
    r.add_argument("--decks", default=DEFAULT_DECKS, help=f"deck file (default {DEFAULT_DECKS})")
    r.add_argument("--outbox", help="outbox file (default tenace-data/readers-TABLE.sqlite3)")
    r.add_argument("--hand-gap", type=float, default=1.5,
                   help="seconds without a tag that complete a hand (default 1.5)")
    r.add_argument("-v", "--verbose", action="store_true")
    r.set_defaults(run=run_command)


def parse_boards(text: str) -> list[int]:
    """``"1-4,9"`` -> [1, 2, 3, 4, 9]; CommandError naming the text."""
    boards: list[int] = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        low, _, high = part.partition("-")
        try:
            first, last = int(low), int(high or low)
        except ValueError:
            raise CommandError(f"--boards {text!r}: {part!r} is not a board or a range") \
                from None
        if first < 1 or last < first:
            raise CommandError(f"--boards {text!r}: {part!r} is not a range of boards")
        boards.extend(range(first, last + 1))
    return boards


def parse_seats(items: list[str]) -> dict[Seat, str]:
    """``["N=pcsc:ACR122U", ...]`` -> {Seat.NORTH: "pcsc:ACR122U"}; CommandError otherwise."""
    seats: dict[Seat, str] = {}
    for item in items:
        letter, sep, spec = item.partition("=")
        try:
            seat = Seat.parse(letter)
        except ValueError:
            raise CommandError(f"--seat {item!r}: {letter!r} is not a seat (N, E, S, W)") \
                from None
        if not sep or not spec:
            raise CommandError(f"--seat {item!r}: expected SEAT=SPEC, e.g. N=pcsc:ACR122U")
        if seat in seats:
            raise CommandError(f"--seat {item!r}: {seat} has a reader already")
        seats[seat] = spec
    if not seats:
        raise CommandError("no reader: give --seat SEAT=SPEC for each seat")
    return seats


def readers_command(args: argparse.Namespace) -> int:
    from firmware_bridge.readers import ReaderError, available_readers

    backends = [args.backend] if args.backend else ["pcsc", "serial"]
    failed = 0
    for backend in backends:
        try:
            specs = available_readers(backend)
        except ReaderError as err:
            print(f"{backend}: {err}")
            failed += 1
            continue
        if not specs:
            print(f"{backend}: no reader")
        for spec in specs:
            print(spec)
    return 1 if failed == len(backends) else 0


def enrol_command(args: argparse.Namespace) -> int:
    from firmware_bridge.decks import DeckError, DeckStore, enrol
    from firmware_bridge.readers import ReaderError, open_reader

    boards = parse_boards(args.boards)
    try:
        store = DeckStore.load(args.decks)
        with open_reader(args.reader) as reader:
            enrol(reader, store, args.deck, boards=boards, replace=args.replace,
                  timeout=args.timeout, say=lambda line: print(line, flush=True))
    except (DeckError, ReaderError) as err:
        raise CommandError(str(err)) from err
    except KeyboardInterrupt:
        print(f"interrupted: deck {args.deck} not saved")
        return 1
    return 0


def _paired(args: argparse.Namespace) -> int:
    """``--pair`` (or the stored credentials, without ``--table``): sets ``args.table`` and
    ``args.broker`` from them; returns the first sequence number of the outbox."""
    from wire.errors import WireError
    from wire.pairing import pair_or_load
    try:
        paired = pair_or_load(getattr(args, "pair", None), getattr(args, "hub", None),
                              getattr(args, "device_config", None), ("reader",),
                              stored=getattr(args, "table", None) is None,
                              say=lambda line: print(line, flush=True),
                              cafile=getattr(args, "ca", None))
    except WireError as err:
        raise CommandError(str(err)) from None
    if paired is None:
        return 0
    if args.table not in (None, paired.table):
        raise CommandError(f"--table {args.table}: the paired account is {paired.account}'s")
    args.table, args.broker = paired.table, paired.broker_url()
    return paired.first_seq


def run_command(args: argparse.Namespace, stop: threading.Event | None = None) -> int:
    """Run until SIGINT or SIGTERM (or until ``stop`` is set)."""
    from firmware_bridge.daemon import TableDaemon
    from firmware_bridge.decks import DeckError, DeckStore
    from firmware_bridge.readers import CardReader, ReaderError, open_reader
    from wire.outbox import Outbox, OutboxError
    from wire.protocol import ProtocolError, topic_event

    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    seats = parse_seats(args.seat)
    first_seq = _paired(args)
    if getattr(args, "ca", None):   # TLS: checked before any reader is opened
        from wire.mqtt import with_ca
        try:
            args.broker = with_ca(args.broker, args.ca)
        except ValueError as err:
            raise CommandError(str(err)) from None
    try:
        topic_event(args.table, f"{args.table}-rdr")
    except ProtocolError as err:
        raise CommandError(f"--table {args.table!r}: {err.reason}") from None
    try:
        decks = DeckStore.load(args.decks)
    except DeckError as err:
        raise CommandError(str(err)) from err
    if not decks.decks:
        log.warning("no deck enrolled in %s: every card will be reported as foreign "
                    "(tenace devices enrol)", args.decks)
    outbox_path = Path(args.outbox or f"tenace-data/readers-{args.table}.sqlite3")
    readers: dict[Seat, CardReader] = {}
    stop = stop or threading.Event()
    try:
        outbox = Outbox(outbox_path, f"{args.table}-rdr", first_seq=first_seq)
    except OutboxError as err:
        raise CommandError(str(err)) from err
    try:
        for seat, spec in seats.items():
            readers[seat] = open_reader(spec)
        for sig in (signal.SIGINT, signal.SIGTERM):
            if threading.current_thread() is threading.main_thread():
                signal.signal(sig, lambda *_: stop.set())
        with TableDaemon(args.broker, args.table, readers, decks, outbox,
                         hand_gap=args.hand_gap) as daemon:
            print(f"table {args.table}: " + ", ".join(
                f"{seat.letter} {reader.spec}" for seat, reader in readers.items())
                + f"; broker {args.broker.rsplit('@', 1)[-1]}; outbox {outbox_path}", flush=True)
            while not stop.wait(1.0):
                pending = daemon.pending
                if pending:
                    log.info("%d event(s) waiting for the hub (%s)", pending,
                             daemon.connection.value)
    except (ReaderError, ValueError) as err:
        raise CommandError(str(err)) from err
    finally:
        for reader in readers.values():
            reader.close()
        outbox.close()
    return 0
