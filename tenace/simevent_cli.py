"""``tenace sim-event init|run|revoke|reissue|club``: a simultaneous event across clubs, the
organiser's side and a club's (hub.simultaneous, docs/simultaneous.md)."""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
from pathlib import Path
from typing import Any

from tenace.commands import CommandError

__all__ = ["add_parser"]


def add_parser(sub: Any) -> None:
    sim = sub.add_parser(
        "sim-event", help="a simultaneous event across clubs: set it up, run it",
        description="The organiser's side of a simultaneous pairs across clubs: each club's "
                    "Mosquitto is bridged to the organiser's (docs/simultaneous.md).")
    jobs = sim.add_subparsers(dest="job", required=True, metavar="JOB")
    init = jobs.add_parser(
        "init", help="write the organiser's broker configuration and each club's kit",
        description="Write DIR/organiser (signing key, Mosquitto configuration with TLS, an "
                    "account and ACL per club, a listener for the clubs' bridges that takes "
                    "client certificates only) and DIR/clubs/<club> (bridge.conf, bridge.crt, "
                    "bridge.key, ca.crt, organiser.pub) from the event file.")
    init.add_argument("event", metavar="EVENT.json", help="the event file")
    init.add_argument("dir", metavar="DIR", help="where to write (created if needed)")
    init.add_argument("--host", action="append", default=[], required=True,
                      help="a name or address the clubs reach the organiser's broker by")
    init.add_argument("--port", type=int, default=8883,
                      help="its TLS port for the organiser's service and observers, with "
                           "passwords (default 8883)")
    init.add_argument("--bridge-port", type=int, default=8884,
                      help="its TLS port for the clubs' bridges, with client certificates "
                           "(default 8884)")
    init.add_argument("--club-path", metavar="PATH",
                      help="where each club keeps its kit (default /etc/tenace/sim/EVENT)")
    init.add_argument("--force", action="store_true", help="replace the keys of DIR")
    init.set_defaults(run=_init)
    run = jobs.add_parser(
        "run", help="release the deals at each club's start, score the field",
        description="Connect to the organiser's broker as 'organiser', release each club's "
                    "deals at its start time, score the field as results arrive, publish "
                    "each club's field results and write DIR/ranking.json; until Ctrl-C.")
    run.add_argument("event", metavar="EVENT.json")
    run.add_argument("dir", metavar="DIR", help="the folder sim-event init wrote")
    run.add_argument("--broker", required=True, metavar="HOST:PORT",
                     help="the organiser's broker (TLS, checked against DIR's authority)")
    run.set_defaults(run=_run)
    revoke = jobs.add_parser(
        "revoke", help="revoke a club's certificate (its key lost or stolen)",
        description="Add CLUB's current certificate to the event's revocation list "
                    "(DIR/organiser/tls/clubs.crl, the bridge listener's crlfile): once the "
                    "organiser's Mosquitto has read it again (SIGHUP), no bridge gets in "
                    "with it. Revoked already: nothing changes.")
    revoke.set_defaults(run=_revoke)
    reissue = jobs.add_parser(
        "reissue", help="a new certificate and kit for one club",
        description="Sign a new certificate and key for CLUB (same authority, same name: "
                    "its account and its persistent session) and write its kit "
                    "DIR/clubs/CLUB again; its current certificate is revoked if it is not "
                    "yet. Every other club's kit is untouched.")
    reissue.set_defaults(run=_reissue)
    for one_club in (revoke, reissue):
        one_club.add_argument("event", metavar="EVENT.json", help="the event file")
        one_club.add_argument("dir", metavar="DIR", help="the folder sim-event init wrote")
        one_club.add_argument("club", metavar="CLUB", help="the club's id (its account)")
    club = jobs.add_parser(
        "club", help="a club's side: the checked deals in, the hub's results out",
        description="On the club's hub, beside its Mosquitto (bridged by KIT/bridge.conf): "
                    "check the deals against KIT/organiser.pub and write KIT/deals.pbn, relay "
                    "the hub's results to the event, write the field's ranking to "
                    "KIT/field-ranking.json; until Ctrl-C.")
    club.add_argument("kit", metavar="KIT", help="the club's kit folder")
    club.add_argument("--event", help="the event's id (default: the kit's, KIT/club.json)")
    club.add_argument("--club", help="the club's id (default: the kit's, KIT/club.json)")
    club.add_argument("--broker", required=True, metavar="URL",
                      help="the club's broker, with the account 'sim-link' (reads the hub's "
                           "results, writes the event's topics)")
    club.add_argument("--plays", type=int, required=True,
                      help="how many times the club plays each board")
    club.set_defaults(run=_club)


def _event(path: str) -> Any:
    from hub.simultaneous import SimError, SimEvent
    try:
        return SimEvent.load(Path(path))
    except SimError as err:
        raise CommandError(str(err)) from err


def _init(args: argparse.Namespace) -> int:
    from hub.simultaneous import SimError
    from hub.simultaneous.kit import write_kit
    event = _event(args.event)
    try:
        kit = write_kit(event, Path(args.dir), hosts=args.host, port=args.port,
                        bridge_port=args.bridge_port, club_path=args.club_path, force=args.force)
    except SimError as err:
        raise CommandError(str(err)) from err
    for club in event.clubs:     # a plays its movement cannot have: Law 16 at stake
        problem = club.plays_problem()
        if problem is not None:
            print(f"warning: {problem}", file=sys.stderr)
    print(f"organiser: {kit.organiser} (mosquitto -c {kit.organiser / 'mosquitto.conf'})")
    for club, folder in kit.clubs.items():
        print(f"club {club}: {folder} (bridge.key is its certificate's key: send it privately)")
    return 0


RELOAD = ("the organiser's Mosquitto reads the list again on SIGHUP: kill -HUP <its pid> "
          "(mosquitto -c {conf}); from then on it refuses that certificate at every new "
          "connection. A connection open with it already stays open: to cut it at once, "
          "restart Mosquitto instead (a graceful stop keeps every club's session and what is "
          "queued for it; the bridges are back within 10 s).")


def _revoke(args: argparse.Namespace) -> int:
    from hub.simultaneous import SimError
    from hub.simultaneous.kit import revoke_club
    event = _event(args.event)
    try:
        revoked = revoke_club(event, Path(args.dir), args.club)
    except SimError as err:
        raise CommandError(str(err)) from err
    org = Path(args.dir).resolve() / "organiser"
    if revoked is None:
        print(f"club {args.club}: its certificate is revoked already "
              f"({org / 'tls' / 'clubs.crl'} unchanged)")
        return 0
    print(f"club {args.club}: certificate {revoked.serial:x} revoked "
          f"({org / 'tls' / 'clubs.crl'}); sim-event reissue gives the club a new one")
    print(RELOAD.format(conf=org / "mosquitto.conf"))
    return 0


def _reissue(args: argparse.Namespace) -> int:
    from hub.simultaneous import SimError
    from hub.simultaneous.kit import reissue_club
    event = _event(args.event)
    try:
        done = reissue_club(event, Path(args.dir), args.club)
    except SimError as err:
        raise CommandError(str(err)) from err
    org = Path(args.dir).resolve() / "organiser"
    if done.revoked is not None:
        print(f"club {args.club}: certificate {done.revoked.serial:x} revoked "
              f"({org / 'tls' / 'clubs.crl'})")
    print(f"club {args.club}: new certificate {done.serial:x} in {done.kit} (bridge.key is its "
          "key: send the kit privately; the club replaces its copy and restarts its "
          "Mosquitto)")
    print(RELOAD.format(conf=org / "mosquitto.conf"))
    return 0


def _log_to_terminal() -> None:
    """The service's log on standard error, as the hub's: the deals released, the messages
    refused and why (docs/simultaneous.md says what is logged)."""
    logging.basicConfig(level=logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")


def _run(args: argparse.Namespace) -> int:
    from hub.simultaneous import SimError
    from hub.simultaneous.kit import run_organiser
    from wire.errors import MqttError
    event = _event(args.event)
    _log_to_terminal()
    stop = threading.Event()
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    print(f"sim-event {event.id}: running (Ctrl-C stops); ranking in "
          f"{Path(args.dir) / 'ranking.json'}", flush=True)
    try:
        run_organiser(event, Path(args.dir), args.broker, stop)
    except (SimError, MqttError) as err:
        raise CommandError(str(err)) from err
    return 0


def _club(args: argparse.Namespace) -> int:
    from hub.simultaneous import SimError
    from hub.simultaneous.handover import club_identity
    from hub.simultaneous.kit import run_club
    from wire.errors import MqttError
    try:
        event, club = club_identity(Path(args.kit))
    except SimError as err:
        raise CommandError(str(err)) from err
    for option, given, kit in (("--event", args.event, event), ("--club", args.club, club)):
        if given is not None and given != kit:   # else it would wait on another's topics
            raise CommandError(f"{option} {given}: the kit {args.kit} is for {kit} "
                               f"({Path(args.kit) / 'club.json'})")
    args.event, args.club = event, club
    _log_to_terminal()
    stop = threading.Event()
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    print(f"sim-event {args.event}, club {args.club}: running (Ctrl-C stops); the deals to "
          f"{Path(args.kit) / 'deals.pbn'} once they come", flush=True)
    try:
        run_club(Path(args.kit), args.event, args.club, args.broker, args.plays, stop)
    except (SimError, MqttError) as err:
        raise CommandError(str(err)) from err
    return 0
