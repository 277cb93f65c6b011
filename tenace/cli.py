"""The ``tenace`` command: one entry point, a subcommand per job.

Subcommands import what they need when they run, so ``tenace check`` starts
without loading the hub, Kivy or endplay.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from tenace import commands, live, scorecmd
from tenace.sim import cli as sim_cli

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tenace",
        description="Tenace: electronic bidding and play for duplicate bridge clubs.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    check = sub.add_parser(
        "check", help="audit game records against the Laws",
        description="Audit every board of a PBN or LIN file: contract, tricks, Law 64 "
                    "rectification, score and every irregularity the record shows.")
    check.add_argument("file", help="a .pbn or .lin file")
    check.add_argument("--edition", choices=["1997", "2007", "2017"], default="2017",
                       help="edition of the Laws (default 2017, the Laws in force)")
    check.add_argument("--json", action="store_true",
                       help="JSON Lines: one object per board, in file order")
    check.set_defaults(run=commands.check)

    deal = sub.add_parser(
        "deal", help="generate deals (secure, or BigDeal-compatible with --seed)",
        description="Deal boards with the Law 2 dealer and vulnerability. Without --seed the "
                    "deals come from the operating system's CSPRNG; with --seed they are the "
                    "deals BigDeal makes from that seed and owner.")
    deal.add_argument("--boards", default="1-32", help="board range, e.g. 1-32 (default)")
    deal.add_argument("--seed", help="BigDeal seed: 40 hex digits (160 bits)")
    deal.add_argument("--owner", default="Tenace",
                      help="BigDeal owner string, mixed into the seed (default: Tenace)")
    deal.add_argument("--format", choices=["pbn", "dlm", "dup", "bri", "dge", "lin"],
                      default="pbn")
    deal.add_argument("-o", "--output", help="file to write (default: standard output)")
    deal.set_defaults(run=commands.deal)

    convert = sub.add_parser(
        "convert", help="convert between PBN, LIN, DLM, DUP, BRI and DGE",
        description="Convert a file; formats come from the extensions. Deal files carry "
                    "deals only; LIN is read only.")
    convert.add_argument("input")
    convert.add_argument("output")
    convert.set_defaults(run=commands.convert)

    analyse = sub.add_parser(
        "analyse", aliases=["analyze"], help="add double-dummy tricks and par to a PBN file",
        description="Adds DoubleDummyTricks, OptimumResultTable, OptimumScore and ParContract "
                    "to every board (needs the 'analysis' extra: endplay).")
    analyse.add_argument("file")
    analyse.add_argument("-o", "--output", help="file to write (default: standard output)")
    analyse.set_defaults(run=commands.analyse)

    sub.add_parser(
        "tablet", add_help=False,
        help="the players' tablet (Kivy): tenace tablet --hub HOST[:PORT] --table T [--seat S]",
        description="Run the players' tablet; `tenace tablet --help` for its options.")
    live.add_hub_parser(sub)
    live.add_replay_parser(sub)
    sim_cli.add_parsers(sub)
    scorecmd.add_parser(sub)
    _add_devices_parser(sub)
    _add_accounts_parser(sub)
    return parser


def _add_accounts_parser(sub: Any) -> None:
    """``tenace accounts issue|list|revoke``: the MQTT accounts in a hub's data directory."""
    accounts = sub.add_parser(
        "accounts", help="MQTT accounts: issue a device's credentials, list, revoke",
        description="The MQTT accounts of the hub's data directory (hub/accounts.py). "
                    "`issue` prints a device's new password once (JSON, or a broker URL "
                    "with --url), for scripted set-ups and tests: issuing again revokes the "
                    "old password. The embedded broker reads the change at once; Mosquitto "
                    "after a SIGHUP (its password and ACL files are rewritten in DIR).")
    jobs = accounts.add_subparsers(dest="job", required=True, metavar="JOB")
    issue = jobs.add_parser("issue", help="issue (or rotate) an account; prints its password")
    issue.add_argument("device", help="device id (A1-tab, A1-N, A1-rdr, dealer-1, ...) or "
                                      "tenace-hub, director, scorer, results")
    issue.add_argument("--role", help="its role, if its name does not imply one (a dealing "
                                      "machine's: dealer)")
    issue.add_argument("--broker", default="mqtt://127.0.0.1:1883",
                       help="the broker URL the printed URL names (default %(default)s)")
    issue.add_argument("--url", action="store_true", help="print only the broker URL")
    listing = jobs.add_parser("list", help="the accounts and their roles (no secret)")
    revoke = jobs.add_parser("revoke", help="remove an account: it can no longer connect")
    revoke.add_argument("device")
    for job in (issue, listing, revoke):
        job.add_argument("--data", default="tenace-data",
                         help="the hub's data directory (default ./tenace-data)")
    accounts.set_defaults(run=_accounts)


def _accounts(args: argparse.Namespace) -> int:
    import json

    from hub.accounts import AccountError, Accounts

    try:
        accounts = Accounts(args.data)
        if args.job == "issue":
            credentials = accounts.issue(args.device, args.role)
            url = credentials.url(args.broker)
            print(url if args.url else json.dumps(
                {"username": credentials.username, "password": credentials.password,
                 "role": accounts.role(args.device), "url": url}))
        elif args.job == "revoke":
            accounts.revoke(args.device)
            print(f"{args.device} revoked")
        else:
            for entry in accounts.listing():
                print(f"{entry['account']}\t{entry['role']}")
    except AccountError as err:
        raise commands.CommandError(str(err)) from err
    return 0


def _add_devices_parser(sub: Any) -> None:
    """``tenace devices JOB``: the card readers' and the dealing machines' jobs (issue 5;
    pyscard and pyserial are imported only by the job that opens a device)."""
    from tenace import dealer_cli, reader_cli

    devices = sub.add_parser(
        "devices", help="card readers and dealing machines: list, enrol a deck, run a "
                        "table's readers, drive a dealing machine",
        description="The table's card readers (PC/SC, serial or simulated) and the dealing "
                    "machines (serial line or file exchange).")
    jobs = devices.add_subparsers(dest="job", required=True, metavar="JOB")
    reader_cli.add_parsers(jobs)
    dealer_cli.add_parsers(jobs)


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    if words[:1] == ["tablet"]:  # its own options, and Kivy, only when a tablet runs
        from tablet.app import main as tablet_main
        return tablet_main(words[1:])
    parser = _parser()
    args = parser.parse_args(words)
    try:
        code: int = args.run(args)
    except commands.CommandError as err:
        print(f"tenace {args.command}: {err}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    return code


if __name__ == "__main__":
    sys.exit(main())
