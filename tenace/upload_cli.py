"""``tenace upload bridgewebs``: a session's results posted to the club's BridgeWebs site
(the client, shared with the console's evening page, is wire.bridgewebs).

BridgeWebs documents a direct results upload for scoring programs (its user guide,
"Results - API Interface": an HTTP POST of the form a user would submit, instead of FTP):
the fields ``club`` (the club's code), ``password`` (the club's BridgeWebs password),
``type`` ``upload``, ``filename`` and ``data`` (the results file's name and its lines as
one string), ``event_id`` (the calendar's event, when known), ``dealname`` and
``dealdata`` (the hand record: dlm, bri, pbn or dup); the reply carries
``message = ...``, the status, which is printed. The address to post to is the one the
guide's examples give: it is asked for (``--url``), not assumed.

The password is never an argument (it would sit in the shell's history and in ``ps``): it
comes from the environment variable ``TENACE_BRIDGEWEBS_PASSWORD`` or is asked for, and is
never printed or logged.
"""

from __future__ import annotations

import argparse
import getpass
import logging
import os
import sys
from pathlib import Path
from typing import Any

from tenace.commands import CommandError
from wire.bridgewebs import UploadError, bridgewebs_fields, check_club, check_url, upload

__all__ = ["PASSWORD_VARIABLE", "add_parser", "bridgewebs_fields", "upload_bridgewebs"]

log = logging.getLogger(__name__)

PASSWORD_VARIABLE = "TENACE_BRIDGEWEBS_PASSWORD"
_DEAL_FORMATS = (".dlm", ".bri", ".pbn", ".dup")
_RESULT_FORMATS = (".pbn", ".xml", ".csv")
MAX_FILE = 4 * 1024 * 1024


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "upload", help="post a session's results to a results site (BridgeWebs)",
        description="Post a results file (the hub's bridgewebs.pbn or usebio.xml) and its "
                    "hand record to the club's BridgeWebs site by the upload BridgeWebs "
                    f"documents for scoring programs. The password is read from "
                    f"{PASSWORD_VARIABLE} or asked for.")
    sites = p.add_subparsers(dest="site", required=True, metavar="SITE")
    bw = sites.add_parser("bridgewebs", help="BridgeWebs' direct results upload")
    bw.add_argument("results", help="the results file: .pbn (bridgewebs.pbn), .xml (USEBIO) "
                                    "or .csv")
    bw.add_argument("--club", required=True, help="the club's BridgeWebs code")
    bw.add_argument("--url", required=True,
                    help="the address BridgeWebs' API guide gives for the upload")
    bw.add_argument("--deals", help="the hand record (.dlm, .bri, .pbn or .dup)")
    bw.add_argument("--event-id", type=int, help="the event in the club's calendar")
    bw.add_argument("--timeout", type=float, default=60.0,
                    help="seconds to wait for the reply (default 60)")
    bw.set_defaults(run=upload_bridgewebs)


def _read(path: str, formats: tuple[str, ...], what: str) -> tuple[str, str]:
    """(file name, its text) of ``path``: one of ``formats``, at most MAX_FILE bytes."""
    p = Path(path)
    if p.suffix.lower() not in formats:
        raise CommandError(f"{path}: a {what} is {', '.join(formats)}, not "
                           f"{p.suffix or 'a file without extension'}")
    try:
        data = p.read_bytes()
    except OSError as err:
        raise CommandError(f"{path}: {err.strerror or err}") from err
    if len(data) > MAX_FILE:
        raise CommandError(f"{path}: {len(data)} bytes, more than a results site takes "
                           f"({MAX_FILE})")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("iso-8859-1")      # BridgeWebs' PBN and the deal files
    return p.name, text


def _password() -> str:
    password = os.environ.get(PASSWORD_VARIABLE, "")
    if password:
        return password
    if not sys.stdin.isatty():
        raise CommandError(f"no BridgeWebs password: set {PASSWORD_VARIABLE}")
    return getpass.getpass("BridgeWebs password: ")


def upload_bridgewebs(args: argparse.Namespace) -> int:
    if check_club(args.club):
        raise CommandError(f"--club {args.club!r:.70}: {check_club(args.club)}")
    if check_url(args.url):
        raise CommandError(f"--url {args.url!r:.100}: {check_url(args.url)}")
    results = _read(args.results, _RESULT_FORMATS, "results file")
    deals = _read(args.deals, _DEAL_FORMATS, "hand record") if args.deals else None
    fields = bridgewebs_fields(args.club, _password(), results, deals, args.event_id)
    try:
        status, message = upload(args.url, fields, timeout=args.timeout)
    except UploadError as err:
        raise CommandError(str(err)) from err
    if message is None:
        print(f"BridgeWebs answered HTTP {status} without a 'message =' line: the upload's "
              "status is not known", file=sys.stderr)
        return 1
    log.info("BridgeWebs upload of %s for club %s: %s", results[0], args.club, message)
    print(message)
    return 0
