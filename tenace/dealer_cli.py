"""``tenace devices dealer``: drive a dealing machine, exchange files with its software,
or run the simulator.

::

    tenace devices dealer --url URL --boards FILE [--hub HOST:PORT] [--device ID]
    tenace devices dealer export --boards FILE -o OUT.dlm|.dup|.pbn [--blind]
    tenace devices dealer import DEALT_FILE --boards FILE [--hub HOST:PORT]
    tenace devices dealer simulate (--listen HOST:PORT | --pty) [--fault BOARD:KIND ...]

``FILE`` is the hand record: PBN, LIN, DLM, DUP, BRI, DGE, or the hub's event set-up
(``.toml``). Driving and importing print a line per board and end with a summary; the exit
status is 0 when every board matches the hand record, 1 when a board differs, 3 when the
machine stopped answering or boards are missing, 2 for a command that cannot run.

The command line only: the work is :mod:`firmware_bridge`'s (``dealer``, ``dealer_run``,
``dealer_hub``, ``dealer_files``, ``dealer_sim``), whose errors
(:class:`firmware_bridge.errors.FirmwareBridgeError`) become :class:`CommandError` here. The
hub's event set-up (``.toml``) is read here and its deals passed down.
"""

from __future__ import annotations

import argparse
import threading
from pathlib import Path
from typing import Any

from tenace.commands import CommandError

__all__ = ["add_parsers"]


def add_parsers(devices_sub: Any) -> None:
    """Add ``dealer`` to the ``tenace devices`` subcommands (an argparse subparsers object)."""
    dealer = devices_sub.add_parser(
        "dealer", help="drive a dealing machine, check each board it deals; its files",
        description="Deal a board set on a dealing machine (pyserial URL, or sim:// for the "
                    "simulator) and check every board against the hand record as it comes "
                    "out; with --hub each board goes to the hub, which alerts the director "
                    "when one differs (Laws 6, 87). Actions: export, import, simulate.")
    dealer.add_argument("--url", help="the machine: /dev/ttyUSB0, socket://HOST:PORT, "
                                      "rfc2217://..., or sim://?faults=3:misread")
    _board_options(dealer)
    dealer.add_argument("--copies", type=int, default=1, help="copies of each board (default 1)")
    _hub_options(dealer)
    dealer.add_argument("--baud", type=int, default=115200, help="serial speed (default 115200)")
    dealer.add_argument("--ack-timeout", type=float, default=0.5,
                        help="seconds to wait for the machine's acknowledgement (default 0.5)")
    dealer.add_argument("--silence", type=float, default=15.0,
                        help="seconds without a word from a dealing machine before it is "
                             "asked for its status (default 15)")
    dealer.add_argument("--wait", type=float, default=120.0,
                        help="seconds a board may take before the run gives up (default 120)")
    dealer.set_defaults(run=_drive)
    actions = dealer.add_subparsers(dest="dealer_action", metavar="ACTION")

    export = actions.add_parser(
        "export", help="write the board set as DLM, DUP or PBN for the machine's software",
        description="Write the hand record for the machine's own software: DLM or DUP "
                    "(Duplimate), PBN (Dealer4 and most others).")
    _board_options(export, again=True)
    export.add_argument("-o", "--output", required=True,
                        help="file to write: .dlm, .dup or .pbn (the extension gives the format)")
    export.add_argument("--format", choices=("dlm", "dup", "pbn"),
                        help="the format, when the extension does not say it")
    export.add_argument("--blind", action="store_true",
                        help="the machine does not show the hands (DLM Sealed, DUP blind)")
    export.set_defaults(run=_export)

    check = actions.add_parser(
        "import", help="check the boards a machine's software says it dealt",
        description="Read the file the machine's software wrote (PBN, DLM, DUP, BRI, DGE) and "
                    "compare each board with the hand record; with --hub the hub alerts the "
                    "director of each board that differs.")
    check.add_argument("dealt", help="the machine's file of boards dealt")
    _board_options(check, again=True)
    _hub_options(check, again=True)
    check.set_defaults(run=_import)

    sim = actions.add_parser(
        "simulate", help="a simulated dealing machine on a TCP port or a pty",
        description="Run the dealing machine simulator until Ctrl-C; point the bridge at it "
                    "with --url socket://HOST:PORT, or the pty path it prints.")
    where = sim.add_mutually_exclusive_group(required=True)
    where.add_argument("--listen", metavar="HOST:PORT", help="a TCP port (socket:// URL)")
    where.add_argument("--pty", action="store_true",
                       help="a pseudo-terminal made here (its path is printed)")
    where.add_argument("--port", metavar="URL",
                       help="a serial port (pyserial URL) wired to the bridge's computer")
    sim.add_argument("--fault", action="append", default=[], metavar="BOARD:KIND",
                     help="inject a fault when the board is dealt: misread, missing, extra, "
                          "wrong_pocket, jam, garble, partial, cut, noise, silent")
    sim.add_argument("--board-seconds", type=float, default=6.0,
                     help="seconds to deal a board (default 6, a real machine's pace)")
    sim.add_argument("--seed", type=int, default=0, help="seed of the injected faults")
    sim.set_defaults(run=_simulate)


def _board_options(parser: argparse.ArgumentParser, again: bool = False) -> None:
    """The options of the board set; ``again`` on an action: given after the action word
    too, and not reset when given before it."""
    default = argparse.SUPPRESS if again else None
    parser.add_argument("--boards", metavar="FILE", default=default,
                        help="the hand record: .pbn, .lin, .dlm, .dup, .bri, .dge, or the "
                             "hub's event .toml")
    parser.add_argument("--range", metavar="FIRST-LAST", default=default,
                        help="only these boards, e.g. 1-16")


def _hub_options(parser: argparse.ArgumentParser, again: bool = False) -> None:
    parser.add_argument("--hub", metavar="HOST[:PORT]",
                        default=argparse.SUPPRESS if again else None,
                        help="the hub's MQTT broker: each board is sent there; with the "
                             "machine's account, mqtt://dealer-1:PASSWORD@HOST:PORT "
                             "(tenace accounts issue dealer-1 --url), or from "
                             "TENACE_MQTT_KEYRING")
    parser.add_argument("--device", default=argparse.SUPPRESS if again else "dealer-1",
                        help="this machine's id on the hub (default dealer-1)")
    parser.add_argument("--ca", metavar="FILE", default=argparse.SUPPRESS if again else None,
                        help="TLS: the club's ca.crt (the hub's port becomes 8883)")


def _range(text: str | None) -> range | None:
    if text is None:
        return None
    first, _, last = text.partition("-")
    try:
        low, high = int(first), int(last or first)
    except ValueError:
        raise CommandError(f"--range wants FIRST-LAST, e.g. 1-16, got {text!r}") from None
    if not 1 <= low <= high:
        raise CommandError(f"--range wants 1 <= first <= last, got {text!r}")
    return range(low, high + 1)


def _boards(args: argparse.Namespace) -> dict[int, Any]:
    """The board set of ``--boards`` (a record or deal file, or the hub's event .toml)."""
    from firmware_bridge.dealer_files import load_boards, select_boards
    from firmware_bridge.errors import DealerError

    if not getattr(args, "boards", None):
        raise CommandError("--boards FILE: the hand record is needed")
    only = _range(getattr(args, "range", None))
    try:
        if Path(args.boards).suffix.lower() == ".toml":
            return select_boards(_event_deals(args.boards), only, args.boards)
        return load_boards(args.boards, only)
    except DealerError as err:
        raise CommandError(str(err)) from err


def _event_deals(path: str) -> dict[int, Any]:
    """The deals of the hub's event set-up: the ones the hub itself will check against."""
    from hub.errors import ConfigError
    from hub.event import EventSetup

    try:
        return dict(EventSetup.load(path).deals)
    except ConfigError as err:
        raise CommandError(str(err)) from err


def _hub(args: argparse.Namespace) -> Any:
    from firmware_bridge.dealer_hub import HubLink
    from firmware_bridge.errors import DealerError

    if not getattr(args, "hub", None):
        return None
    try:
        hub = args.hub
        if getattr(args, "ca", None):
            from wire.mqtt import with_ca
            hub = with_ca(hub if "://" in hub else f"mqtt://{hub}", args.ca)
        return HubLink(hub, args.device)
    except (DealerError, ValueError) as err:
        raise CommandError(str(err)) from err


def _say(line: str) -> None:
    print(line, flush=True)


def _drive(args: argparse.Namespace) -> int:
    from firmware_bridge.dealer import open_dealer
    from firmware_bridge.dealer_run import DealingRun
    from firmware_bridge.errors import DealerError

    if not args.url:
        raise CommandError("--url URL: the dealing machine is needed (or an action: export, "
                           "import, simulate)")
    boards = _boards(args)
    if not 1 <= args.copies <= 255:
        raise CommandError(f"--copies wants 1 to 255, got {args.copies}")
    options: dict[str, Any] = {}
    if not args.url.startswith("sim:"):
        options = {"baudrate": args.baud, "ack_timeout": args.ack_timeout,
                   "silence": args.silence}
    try:
        machine = open_dealer(args.url, **options)
    except DealerError as err:
        raise CommandError(str(err)) from err
    hub = None
    try:
        hub = _hub(args)
        summary = DealingRun(machine, boards, copies=args.copies, hub=hub, progress=_say,
                             wait=args.wait).run()
    finally:
        machine.close()
        if hub is not None:
            hub.close()
    for line in summary.lines():
        _say(line)
    link = machine.link_summary()
    if link:
        _say(f"line: {link}")
    return summary.exit_code


def _export(args: argparse.Namespace) -> int:
    from firmware_bridge.dealer_files import EXPORT_FORMATS, export_boards
    from firmware_bridge.errors import DealerError

    boards = _boards(args)
    fmt = args.format or Path(args.output).suffix.lower().lstrip(".")
    if fmt not in EXPORT_FORMATS:
        raise CommandError(f"{args.output}: say --format dlm, dup or pbn")
    try:
        data = export_boards(boards, fmt, blind=args.blind)
        Path(args.output).write_bytes(data)
    except DealerError as err:
        raise CommandError(str(err)) from err
    except OSError as err:
        raise CommandError(f"{args.output}: cannot write: {err.strerror or err}") from err
    _say(f"{len(boards)} boards ({min(boards)}-{max(boards)}) written to {args.output} "
         f"({fmt.upper()}{', blind' if args.blind else ''})")
    return 0


def _import(args: argparse.Namespace) -> int:
    from firmware_bridge.dealer_files import read_dealt
    from firmware_bridge.dealer_run import check_dealt_file
    from firmware_bridge.errors import DealerError

    boards = _boards(args)
    try:
        dealt = read_dealt(args.dealt)
    except DealerError as err:
        raise CommandError(str(err)) from err
    hub = _hub(args)
    try:
        summary = check_dealt_file(dealt, boards, hub=hub, progress=_say)
    finally:
        if hub is not None:
            hub.close()
    for line in summary.lines():
        _say(line)
    return summary.exit_code


def _simulate(args: argparse.Namespace) -> int:
    from firmware_bridge.dealer_sim import (
        DealerSimulator,
        FaultPlan,
        MachineModel,
        open_pty,
        open_serial,
        serve_tcp,
    )

    try:
        model = MachineModel(FaultPlan.parse(args.fault), seed=args.seed)
    except ValueError as err:
        raise CommandError(str(err)) from err
    stop = threading.Event()
    if args.listen:
        host, _, port = args.listen.rpartition(":")
        if not port.isdigit():
            raise CommandError(f"--listen wants HOST:PORT, got {args.listen!r}")
        try:
            listener, _ = serve_tcp(host or "127.0.0.1", int(port), model,
                                    board_seconds=args.board_seconds)
        except OSError as err:
            raise CommandError(f"--listen {args.listen}: {err}") from err
        bound = listener.getsockname()
        _say(f"dealing machine simulator on socket://{bound[0]}:{bound[1]} (Ctrl-C stops it)")
        try:
            stop.wait()
        except KeyboardInterrupt:
            pass
        finally:
            listener.close()
        return 0
    if args.port:
        try:
            line: Any = open_serial(args.port)
        except (OSError, ValueError) as err:
            raise CommandError(f"--port {args.port}: {err}") from err
        path = args.port
    else:
        line, path, _other = open_pty()
    _say(f"dealing machine simulator on {path} (Ctrl-C stops it)")
    sim = DealerSimulator(line, model, board_seconds=args.board_seconds).start()
    try:
        stop.wait()
    except KeyboardInterrupt:
        pass
    finally:
        sim.stop()
    return 0

