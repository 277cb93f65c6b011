"""The work behind each ``tenace`` subcommand (argument parsing is in :mod:`tenace.cli`)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from pathlib import Path

from bridgecore.audit import BoardAudit, audit_record
from bridgecore.editions import edition
from bridgecore.errors import BridgeError
from bridgecore.record import GameRecord, RecordProblem
from bridgecore.records import DEAL_FORMATS, records_from_deals
from bridgecore.records import read_records as read_record_file

__all__ = ["CommandError", "analyse", "check", "convert", "deal", "read_password"]


class CommandError(Exception):
    """A command that cannot do its job; the message is one line for the user."""


def read_password(path: str | None, option: str = "--password-file") -> str:
    """The password from ``path`` (its first line; - is standard input; ``option`` names it
    in errors), or asked twice on the terminal."""
    if path is not None:
        try:
            text = sys.stdin.readline() if path == "-" else \
                (Path(path).read_text(encoding="utf-8").splitlines() or [""])[0]
        except OSError as err:
            raise CommandError(f"{option} {path}: {err}") from err
        return text.rstrip("\r\n")
    import getpass
    first = getpass.getpass("password: ")
    if getpass.getpass("again: ") != first:
        raise CommandError("the two passwords differ")
    return first


def read_records(path: str) -> list[GameRecord]:
    """Read a PBN, LIN or deal file into records (:func:`bridgecore.records.read_records`);
    a deal file's problems are warnings on stderr, a file that cannot be read is a
    CommandError."""
    try:
        return read_record_file(path, warn=_warn)
    except BridgeError as err:
        raise CommandError(str(err)) from err


def _warn(problem: RecordProblem) -> None:
    print(f"warning: {problem}", file=sys.stderr)


def check(args: argparse.Namespace) -> int:
    records = read_records(args.file)
    ed = edition(args.edition)
    out = sys.stdout
    for record in records:
        result = audit_record(record, ed)
        if args.json:
            out.write(json.dumps(result.to_json(), ensure_ascii=False) + "\n")
        else:
            out.write(_human(result) + "\n")
    if not args.json:
        flagged = sum(1 for r in records if r.problems)
        noun = "board" if len(records) == 1 else "boards"
        out.write(f"{len(records)} {noun} read from {args.file}"
                  + (f", {flagged} with reading problems\n" if flagged else "\n"))
    return 0


def _human(result: BoardAudit) -> str:
    contract = result.contract_text or "no contract"
    declarer = f" by {result.declarer}" if result.declarer is not None else ""
    head = f"Board {result.board if result.board is not None else '?'}: {contract}{declarer}"
    if result.tricks is not None:
        head += f", {result.tricks} tricks"
        if result.tricks_rectified != result.tricks:
            head += f" ({result.tricks_rectified} after Law 64)"
    if result.score_ns is not None:
        head += f", NS {result.score_ns:+d}"
    lines = [head]
    lines += [f"  {irregularity}" for irregularity in result.irregularities]
    lines += [f"  problem: {problem.message}" for problem in result.problems]
    if len(lines) == 1:
        lines[0] += ": no irregularity"
    return "\n".join(lines)


def _board_range(text: str) -> range:
    try:
        if "-" in text:
            low, high = (int(x) for x in text.split("-", 1))
        else:
            low = high = int(text)
    except ValueError:
        raise CommandError(f"--boards wants a range such as 1-32, got {text!r}") from None
    if not 1 <= low <= high:
        raise CommandError(f"--boards wants 1 <= first <= last, got {text!r}")
    return range(low, high + 1)


def deal(args: argparse.Namespace) -> int:
    from bridgecore.bigdeal import BigDeal, secure_deals

    boards = _board_range(args.boards)
    if args.seed:
        try:
            seed = bytes.fromhex(args.seed)
        except ValueError:
            raise CommandError("--seed wants 40 hexadecimal digits") from None
        if len(seed) != 20:
            raise CommandError(
                f"--seed wants 40 hexadecimal digits (160 bits), got {len(seed) * 2}")
        deals = BigDeal(seed, args.owner).deals(boards.start, boards.stop - 1)
        generator = f"Tenace BigDeal-compatible, owner {args.owner!r}"
    else:
        deals = secure_deals(boards.start, boards.stop - 1)
        generator = "Tenace (CSPRNG)"
    records = records_from_deals(deals)
    for record in records:
        record.tags["Generator"] = generator
    _write(records, args.format, args.output)
    return 0


def _write(records: list[GameRecord], fmt: str, output: str | None) -> None:
    data = _encode(records, fmt)
    if output is None:
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        try:
            Path(output).write_bytes(data)
        except OSError as err:
            raise CommandError(f"{output}: cannot write: {err.strerror or err}") from err


def _encode(records: Iterable[GameRecord], fmt: str) -> bytes:
    records = list(records)
    if fmt == "pbn":
        from bridgecore.pbn_writer import pbn_bytes

        return pbn_bytes(records)[0]       # UTF-8 when a name is not Latin-1: never "?"
    if fmt == "lin":
        from bridgecore.lin import write_lin

        return write_lin(records).encode("utf-8")
    if fmt in DEAL_FORMATS:
        from bridgecore.dealfiles import write_dealfile

        boards = {r.board: r.deal for r in records if r.board is not None and r.deal is not None}
        if not boards:
            raise CommandError("no board with a deal to write")
        return write_dealfile(boards, fmt)
    raise CommandError(f"unknown format {fmt!r}")


def convert(args: argparse.Namespace) -> int:
    records = read_records(args.input)
    fmt = Path(args.output).suffix.lower().lstrip(".")
    if fmt not in ("pbn", "lin", *DEAL_FORMATS):
        raise CommandError(f"{args.output}: unknown output format {fmt!r} "
                           "(pbn, lin, dlm, dup, bri, dge)")
    _write(records, fmt, args.output)
    return 0


def analyse(args: argparse.Namespace) -> int:
    from bridgecore.errors import AnalysisUnavailable
    from tenace.analysis import analyse_records

    records = read_records(args.file)
    try:
        analyse_records(records)
    except AnalysisUnavailable as err:
        raise CommandError(str(err)) from err
    _write(records, "pbn", args.output)
    return 0
