"""``tenace deploy init DIR --host NAME [--host IP ...]``: a club's whole configuration
(hub.deploy: certificates, Mosquitto, systemd units)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from tenace.commands import CommandError, read_password

__all__ = ["add_parser", "init_command"]


def add_parser(sub: Any) -> None:
    deploy = sub.add_parser(
        "deploy", help="a club's configuration: certificates, Mosquitto, systemd units",
        description="Set a club up: the club's certificate authority and the broker's "
                    "certificate, a Mosquitto configuration with TLS and no anonymous "
                    "client, systemd units for the hub and the reader nodes.")
    jobs = deploy.add_subparsers(dest="job", required=True, metavar="JOB")
    init = jobs.add_parser(
        "init", help="write the deploy directory",
        description="Write DIR: ca.key/ca.crt (the club's authority), broker.key/broker.crt "
                    "(valid for every --host, localhost, 127.0.0.1 and ::1), mosquitto.conf, "
                    "the accounts and access files, tenace-hub.service and "
                    "tenace-readers@.service. Keys already in DIR are kept unless --force.")
    init.add_argument("dir", metavar="DIR", help="the deploy directory (created if needed)")
    init.add_argument("--host", action="append", default=[], required=True,
                      help="a name or address devices reach the hub by (repeat for each)")
    init.add_argument("--event", metavar="FILE.toml", help="the event set-up (kept as "
                                                           "DIR/event.toml)")
    init.add_argument("--broker", choices=["embedded", "mosquitto"], default="embedded",
                      help="the hub's broker: its own amqtt (default) or Mosquitto")
    init.add_argument("--user", help="the user the services run as (default: you)")
    init.add_argument("--console", default="127.0.0.1:8080",
                      help="the director console's address (default 127.0.0.1:8080)")
    init.add_argument("--club", default="Tenace club",
                      help="the club's name in the certificates")
    init.add_argument("--director-password-file", metavar="FILE",
                      help="the console's first director account's password (first line of "
                           "FILE, - for standard input); without it deploy init asks for it "
                           "on a terminal, or says which command creates the account")
    init.add_argument("--simultaneous", action="store_true",
                      help="the club plays simultaneous events: add the accounts 'sim-link' "
                           "(tenace sim-event club) and 'sim-link.bridge' (its Mosquitto "
                           "bridge's local side), role sim-link")
    keys = init.add_mutually_exclusive_group()
    keys.add_argument("--force", action="store_true",
                      help="replace the keys of DIR (every device then needs the new ca.crt)")
    keys.add_argument("--renew", action="store_true",
                      help="keep the authority, sign a new broker certificate")
    init.set_defaults(run=init_command)


def _director_password(args: argparse.Namespace) -> str | None:
    """The first director's password: from --director-password-file, else asked on a
    terminal if the data directory has no director yet, else None (deploy init then prints
    the command that creates the account)."""
    from pathlib import Path

    from hub.users import UserError, UserStore, check_password

    if args.director_password_file is None:
        if not (sys.stdin.isatty() and sys.stdout.isatty()):
            return None
        if UserStore.in_directory(Path(args.dir) / "data").has_director():
            return None
        print("the console's first director account 'director':", flush=True)
    password = read_password(args.director_password_file, "--director-password-file")
    try:
        check_password(password)
    except UserError as err:
        raise CommandError(f"the director's password: {err}") from err
    return password


def init_command(args: argparse.Namespace) -> int:
    from hub.deploy import init
    from hub.errors import HubError
    from hub.tls import BROKER_DAYS, CA_DAYS, read_certificate

    try:
        report = init(args.dir, args.host, event=args.event, force=args.force,
                      renew=args.renew, user=args.user, broker=args.broker,
                      console=args.console, club=args.club,
                      director_password=_director_password(args),
                      simultaneous=args.simultaneous)
        broker = read_certificate(report.pki.broker_cert)
    except HubError as err:
        raise CommandError(str(err)) from err
    out = sys.stdout
    out.write(f"{report.folder}: a club configuration\n")
    for path in report.written:
        out.write(f"  {path.name:<26} {path.stat().st_mode & 0o777:04o}\n")
    for line in report.kept:
        out.write(f"  {line}\n")
    out.write(f"broker certificate valid until {broker.not_valid_after_utc:%Y-%m-%d} "
              f"(certificate authority: {CA_DAYS} days, broker: {BROKER_DAYS} days)\n")
    out.write("still to do:\n")
    for line in report.todo:
        out.write(f"  - {line}\n")
    return 0
