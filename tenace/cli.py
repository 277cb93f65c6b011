"""The ``tenace`` command: one entry point, a subcommand per job.

Subcommands import what they need when they run, so ``tenace check`` starts
without loading the hub, Kivy or endplay.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from tenace import commands, live, scorecmd, tempo_cli
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
        description="Convert a file; formats come from the extensions. PBN and LIN are "
                    "read and written (with the calls' and cards' times: docs/tempo.md); "
                    "deal files (DLM, DUP, BRI, DGE) carry deals only.")
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
    tempo_cli.add_parser(sub)
    _add_devices_parser(sub)
    _add_users_parser(sub)
    from tenace import deploy_cli
    deploy_cli.add_parser(sub)
    from tenace import simevent_cli
    simevent_cli.add_parser(sub)
    from tenace import upload_cli
    upload_cli.add_parser(sub)
    from tenace import ladder_cli
    ladder_cli.add_parser(sub)
    _add_log_parser(sub)
    _add_accounts_parser(sub)
    return parser


def _add_users_parser(sub: Any) -> None:
    """``tenace users JOB``: the director's console's accounts (hub.users)."""
    users = sub.add_parser(
        "users", help="the director's console's accounts: add, list, remove, passwd",
        description="People who log in to the director's console, kept in users.json in the "
                    "hub's data directory (argon2 hashes, mode 0600). Roles: director "
                    "(everything), scorer (score rulings and the full results), viewer "
                    "(the console read-only). Changes count at once, even while the hub runs.")
    jobs = users.add_subparsers(dest="job", required=True, metavar="JOB")
    for job, text in (("add", "add an account (asks for its password)"),
                      ("list", "list the accounts and their roles"),
                      ("remove", "remove an account (its sessions end)"),
                      ("passwd", "give an account a new password (its sessions end)")):
        p = jobs.add_parser(job, help=text, description=text)
        if job != "list":
            p.add_argument("name")
        if job == "add":
            p.add_argument("--role", choices=["director", "scorer", "viewer"], required=True)
        if job in ("add", "passwd"):
            p.add_argument("--password-file", metavar="FILE",
                           help="read the password from the first line of FILE (- for "
                                "standard input) instead of asking for it")
        p.add_argument("--data", default="tenace-data",
                       help="the hub's data directory (default ./tenace-data)")
        p.set_defaults(run=_users)


def _users(args: argparse.Namespace) -> int:
    from hub.users import UserError, UserStore, check_password, users_job

    password = None
    try:
        if args.job in ("add", "passwd"):
            password = commands.read_password(args.password_file)
            check_password(password)
        store = UserStore.in_directory(args.data)
        for line in users_job(store, args.job, getattr(args, "name", None),
                              getattr(args, "role", None), password):
            print(line)
    except UserError as err:
        raise commands.CommandError(str(err)) from err
    return 0


def _add_accounts_parser(sub: Any) -> None:
    """``tenace accounts issue|list|revoke``: the MQTT accounts in a hub's data directory."""
    accounts = sub.add_parser(
        "accounts", help="MQTT accounts: issue a device's credentials, list, revoke",
        description="The MQTT accounts of the hub's data directory (hub/accounts.py). "
                    "`issue` prints a device's new password once (JSON, or a broker URL "
                    "with --url), for scripted set-ups and tests: issuing again revokes the "
                    "old password. The embedded broker reads the change at once; Mosquitto "
                    "after a SIGHUP (its password and ACL files are rewritten in DIR). In a "
                    "deploy directory (tenace deploy init) device-credentials.json is kept "
                    "up to date too. Devices are usually paired from the console instead "
                    "(tenace tablet --pair, tenace devices run --pair).")
    jobs = accounts.add_subparsers(dest="job", required=True, metavar="JOB")
    issue = jobs.add_parser("issue", help="issue (or rotate) an account; prints its password")
    issue.add_argument("device", help="device id (A1-tab, A1-N, A1-rdr, dealer-1, ...) or "
                                      "tenace-hub, director, scorer, results")
    issue.add_argument("--role", help="its role, if its name does not imply one (a dealing "
                                      "machine's: dealer)")
    issue.add_argument("--broker", default="mqtt://127.0.0.1:1883",
                       help="the broker URL the printed URL names (default %(default)s)")
    issue.add_argument("--url", action="store_true", help="print only the broker URL")
    shards = jobs.add_parser(
        "shards", help="issue (or rotate) the accounts of an event's hub shards",
        description="One account per hub shard (tenace-hub-K, role shard: it may publish "
                    "only its own tables' and sections' topics), from the event's set-up; "
                    "prints each one's password once (JSON lines, or broker URLs with --url). "
                    "Give each shard its URL: tenace hub --shard K --broker URL.")
    shards.add_argument("--event", required=True, help="the event's set-up file (TOML)")
    shards.add_argument("--of", type=int, help="the number of shards (default: the set-up's "
                                               "shards key)")
    shards.add_argument("--broker", default="mqtt://127.0.0.1:1883",
                        help="the broker URL the printed URLs name (default %(default)s)")
    shards.add_argument("--url", action="store_true", help="print only the broker URLs")
    listing = jobs.add_parser("list", help="the accounts and their roles (no secret)")
    revoke = jobs.add_parser("revoke", help="remove an account: it can no longer connect")
    revoke.add_argument("device")
    for job in (issue, shards, listing, revoke):
        job.add_argument("--data", default="tenace-data",
                         help="the hub's data directory (default ./tenace-data)")
    accounts.set_defaults(run=_accounts)


def _accounts(args: argparse.Namespace) -> int:
    import json

    from hub.accounts import AccountError, Accounts
    from hub.pairing import update_device_credentials

    try:
        accounts = Accounts(args.data)
        if args.job == "issue":
            credentials = accounts.issue(args.device, args.role)
            if credentials.username != "tenace-hub":
                update_device_credentials(accounts.folder, [credentials])
            url = credentials.url(args.broker)
            print(url if args.url else json.dumps(
                {"username": credentials.username, "password": credentials.password,
                 "role": accounts.role(args.device), "url": url}))
        elif args.job == "shards":
            _issue_shards(accounts, args)
        elif args.job == "revoke":
            accounts.revoke(args.device)
            update_device_credentials(accounts.folder, removed=[args.device])
            print(f"{args.device} revoked")
        else:
            for entry in accounts.listing():
                print(f"{entry['account']}\t{entry['role']}")
    except AccountError as err:
        raise commands.CommandError(str(err)) from err
    return 0


def _issue_shards(accounts: Any, args: argparse.Namespace) -> None:
    """``tenace accounts shards``: every shard's account with its scope (hub.shards)."""
    import json

    from hub.access import SHARD_ROLE
    from hub.errors import ConfigError
    from hub.event import EventSetup
    from hub.shards import Shard, shard_accounts

    try:
        setup = EventSetup.load(args.event)
        count = args.of or setup.shards
        Shard(0, count).restrict(setup)     # the plan checked: a section for every shard
    except ConfigError as err:
        raise commands.CommandError(str(err)) from err
    issued = [accounts.issue(name, SHARD_ROLE, scope=scope, save=False)
              for name, scope in shard_accounts(setup, count)]
    accounts.save()
    for credentials in issued:
        url = credentials.url(args.broker)
        print(url if args.url else json.dumps(
            {"username": credentials.username, "password": credentials.password,
             "role": SHARD_ROLE, "url": url}))


def _add_log_parser(sub: Any) -> None:
    """``tenace log verify | backup | salvage``: the hub's event log checked, copied and
    rescued without the hub (hub.logcheck)."""
    logs = sub.add_parser(
        "log", help="the hub's event log: verify, backup, salvage",
        description="Jobs on the event log a hub keeps in its data directory "
                    "(events.sqlite3, its -wal and its .head).")
    jobs = logs.add_subparsers(dest="job", required=True, metavar="JOB")
    verify = jobs.add_parser(
        "verify", help="find what is wrong; exit 0 sound, 1 damaged, 2 unreadable",
        description="Say precisely what is wrong with the log: the file truncated, the -wal "
                    "ending with a torn transaction, records missing at the end against the "
                    "head the hub noted (a lost or forgotten -wal), the hash chain broken at "
                    "record N (a record changed, inserted or removed). Reads only (from a "
                    "copy). Exit status: 0 sound, 1 damaged, 2 no log or not readable (or "
                    "not chained yet: schema 1).")
    verify.add_argument("--head", metavar="POSITION:HASH",
                        help="a chain head noted earlier (hub/status): the log must still "
                             "hold it, so records removed from the end are seen too")
    verify.set_defaults(run=_log_verify)
    backup = jobs.add_parser(
        "backup", help="an online backup (safe while the hub runs), verified after",
        description="Copy the log through SQLite's backup API into a new, self-contained "
                    "file (what the -wal holds included), then check the copy: SQLite's "
                    "integrity check, the hash chain, the head. Safe while the hub runs. "
                    "Copying events.sqlite3 alone is NOT a backup: it misses what is still "
                    "in events.sqlite3-wal.")
    backup.add_argument("target", help="the backup file to write (must not exist)")
    backup.set_defaults(run=_log_backup)
    salvage = jobs.add_parser(
        "salvage", help="copy every readable, chain-valid record to a new log",
        description="Read what can be read of a damaged log (truncated, pages unreadable, "
                    "records changed) and copy every record whose hash holds, in order, into "
                    "a new log; list every record lost and why. The damaged log is only "
                    "read. Exit status 0 nothing lost, 1 records lost.")
    salvage.add_argument("target", help="the new log file to write (must not exist)")
    salvage.set_defaults(run=_log_salvage)
    for job in (verify, backup, salvage):
        job.add_argument("--data", required=True, metavar="DIR",
                         help="the hub's data directory (or the log file itself)")


def _log_verify(args: argparse.Namespace) -> int:
    from hub.logcheck import diagnose
    from hub.store import StoreError, parse_head
    try:
        head = None if args.head is None else parse_head(args.head)
        found = diagnose(args.data, head)
    except (StoreError, ValueError) as err:
        raise commands.CommandError(str(err)) from err
    print("\n".join(found.lines()))
    if not found.readable:
        return 2
    return 0 if found.sound else 1


def _log_backup(args: argparse.Namespace) -> int:
    from hub.logcheck import backup
    from hub.store import StoreError
    try:
        print(backup(args.data, args.target))
    except StoreError as err:
        raise commands.CommandError(str(err)) from err
    return 0


def _log_salvage(args: argparse.Namespace) -> int:
    from hub.logcheck import salvage
    from hub.store import StoreError
    try:
        done = salvage(args.data, args.target)
    except StoreError as err:
        raise commands.CommandError(str(err)) from err
    print("\n".join(done.lines()))
    return 0 if done.complete else 1


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


def _refuse_unknown_options(parser: argparse.ArgumentParser, words: list[str]) -> None:
    """An option the command does not have, named with the one meant (``--tabels``: did you
    mean ``--tables``?), before argparse reads it as something else (``tenace hub --tabels 4``
    said "argument job: invalid choice: '4'"). Prefixes argparse accepts are left to it."""
    import difflib

    command = parser
    for word in words:
        if word == "--":
            return
        if not word.startswith("-"):
            sub = next((a for a in command._actions
                        if isinstance(a, argparse._SubParsersAction)), None)
            if sub is not None and word in sub.choices:
                command = sub.choices[word]
            continue
        if not word.startswith("--"):
            continue
        name = word.split("=", 1)[0]
        known = [o for o in command._option_string_actions if o.startswith("--")]
        if any(option.startswith(name) for option in known):
            continue
        close = difflib.get_close_matches(name, known, 1)
        command.error(f"{name}: no such option"
                      + (f" (did you mean {close[0]}?)" if close else ""))


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    if words[:1] == ["tablet"]:  # its own options, and Kivy, only when a tablet runs
        from tablet.app import main as tablet_main
        return tablet_main(words[1:])
    parser = _parser()
    _refuse_unknown_options(parser, words)
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
