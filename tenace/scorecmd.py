"""``tenace score``: score and rank a results file offline, or export it.

The file is PBN (ScoreTables, or a game record per table), USEBIO XML or CSV
(:mod:`bridgecore.results_io`, :mod:`bridgecore.usebio`); the event is scored by
:func:`bridgecore.ranking.score_event` with the conventions of issue 6. A line that
cannot be scored is reported on standard error (and under ``problems`` with
``--json``) and the rest is scored; the exit status is 1 only when nothing could be.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from bridgecore.cards import Side
from bridgecore.conventions import CONVENTIONS, conventions
from bridgecore.errors import BridgeError
from bridgecore.ranking import EventScore, Method, ScoredResult, ScoringOptions, score_event
from bridgecore.results_io import (
    ResultsFile,
    format_ruling,
    method_of,
    read_pbn_results,
    read_results_csv,
    write_results_csv,
    write_results_pbn,
)
from bridgecore.sessions import add_sessions, add_up, carry_by_place
from bridgecore.usebio import read_usebio, write_usebio
from tenace.commands import CommandError

__all__ = ["add_parser", "read_source", "score"]

METHODS = ("mp", "imp", "butler", "crossimp")
_NAMES = {Method.MATCHPOINTS: "matchpoints", Method.IMPS: "IMPs (teams)",
          Method.BUTLER: "Butler IMPs", Method.CROSS_IMPS: "cross-IMPs",
          Method.TOTAL_POINTS: "total points"}


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "score", help="score and rank a results file (PBN, USEBIO, CSV), or export it",
        description="Score a results file offline: PBN (ScoreTables or one game record per "
                    "table), USEBIO XML or CSV. Matchpoints on a top of n-1 with Neuberg for "
                    "boards with fewer results, IMPs for teams, Butler (datum: the mean "
                    "North-South score to the nearest 10) and cross-IMPs (divided by n-1). "
                    "Lines that cannot be scored are reported and the rest is scored.")
    p.add_argument("file", help="a .pbn, .xml (USEBIO) or .csv results file")
    p.add_argument("--method", choices=METHODS,
                   help="scoring method (default: the file's Scoring, else imp for a file "
                        "with teams, else mp)")
    p.add_argument("--json", action="store_true",
                   help="one JSON object: boards, ranking, problems")
    p.add_argument("--edition", choices=["1997", "2007", "2017"], default="2017",
                   help="edition of the Laws for adjusted scores (default 2017)")
    p.add_argument("--units", type=int, choices=[1, 2],
                   help="matchpoints per score beaten: 1 (top n-1, default) or 2 (Law 78A's "
                        "units, top 2(n-1), as PBN MP1 and USEBIO)")
    p.add_argument("--conventions", choices=list(CONVENTIONS),
                   help="a federation's scoring where they differ: its matchpoint units "
                        "(unless --units), Neuberg's rounding, a fouled board's small "
                        "groups, the Butler datum's halves")
    p.add_argument("--no-neuberg", action="store_true",
                   help="top of each board from its own results instead of Neuberg's formula")
    p.add_argument("--butler-trim", type=int, default=0, metavar="N",
                   help="leave the N top and N bottom scores out of the Butler datum")
    p.add_argument("--cross-imps", choices=["average", "total"], default="average",
                   help="cross-IMPs divided by the comparisons (default) or summed")
    p.add_argument("--vp", action="store_true",
                   help="teams: each match's IMP margin in victory points (WBF 2013)")
    p.add_argument("--digits", type=int, metavar="N",
                   help="round each board's points to N decimals, as a published result")
    p.add_argument("--rulings", metavar="CSV",
                   help="corrections and adjusted scores, one per line (board, ns, ew, "
                        "score_ns or contract, declarer, tricks, adjustment)")
    p.add_argument("--add", action="append", default=[], metavar="FILE",
                   help="another session of the same event (repeatable): the sessions' "
                        "matchpoint percentages added up by the boards each pair played")
    p.add_argument("--carry-from", metavar="FILE",
                   help="the qualifying session of this final: its percentages carried over")
    p.add_argument("--carry", type=float, default=0.5, metavar="FRACTION",
                   help="the fraction of the qualifying margin over 50%% carried over "
                        "(default 0.5, as the conditions of contest say); with "
                        "--carry-form place, the points the qualifying's first carries")
    p.add_argument("--carry-form", choices=["margin", "place"], default="margin",
                   help="margin: a share of the qualifying margin (default); place: the "
                        "first finalist by qualifying percentage carries --carry points, the "
                        "last none, in proportion to the place")
    p.add_argument("--export", choices=["pbn", "usebio", "csv"],
                   help="write the scored results in this format")
    p.add_argument("-o", "--output", help="file for --export (default: standard output)")
    p.set_defaults(run=score)


def read_source(path: str) -> ResultsFile:
    """A results file by its extension (or an XML start): PBN, USEBIO or CSV."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as err:
        raise CommandError(f"{path}: cannot read: {err.strerror or err}") from err
    kind = p.suffix.lower()
    try:
        if kind == ".xml" or data.lstrip()[:5] in (b"<?xml", b"<USEB"):
            return read_usebio(data, file=path)
        if kind == ".csv":
            return read_results_csv(_decode(data), file=path)
        return read_pbn_results(data, file=path)
    except BridgeError as err:
        raise CommandError(str(err)) from err


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("iso-8859-1")


def score(args: argparse.Namespace) -> int:
    source = read_source(args.file)
    method = Method(args.method) if args.method else method_of(source.scoring)[0]
    method = method or (Method.IMPS if source.teams else Method.MATCHPOINTS)
    rulings = read_source(args.rulings) if args.rulings else ResultsFile()
    args.units = args.units or (conventions(args.conventions).units)
    try:
        options = ScoringOptions.of(
            args.conventions, units=args.units, neuberg=not args.no_neuberg, digits=args.digits,
            butler_trim=args.butler_trim, cross_imps_average=args.cross_imps == "average",
            teams=source.teams if method is Method.IMPS else None,
            victory_points=args.vp)
    except ValueError as err:
        raise CommandError(str(err)) from err
    event = score_event(source.results, method, edition=args.edition,
                        rulings=rulings.results, options=options)
    problems = [str(p) for p in (*source.problems, *rulings.problems)]
    problems += [f"{args.file}: {p}" for p in event.problems]
    for problem in problems:
        print(f"problem: {problem}", file=sys.stderr)
    if args.add or args.carry_from:
        return _sessions(args, event, options)
    if args.export:
        _export(args, source, event)
    if args.json:
        data = event.to_json()
        data["problems"] = problems
        print(json.dumps(data, ensure_ascii=False))
    elif args.export and args.output:
        results = sum(len(scored) for scored in event.boards.values())
        print(f"{args.output}: {args.export}, {results} results on {len(event.boards)} boards, "
              f"{len(event.ranking)} ranked")
    elif not args.export:
        sys.stdout.write(_table(event, args.units))
    return 0 if event.boards else 1


def _scored(path: str, args: argparse.Namespace, options: ScoringOptions) -> EventScore:
    source = read_source(path)
    event = score_event(source.results, Method.MATCHPOINTS, edition=args.edition,
                        options=options)
    for problem in (*source.problems, *event.problems):
        print(f"problem: {path}: {problem}", file=sys.stderr)
    return event


def _sessions(args: argparse.Namespace, first: EventScore, options: ScoringOptions) -> int:
    """The event of several sessions (bridgecore.sessions): ``file`` and each ``--add``
    added up, with the ``--carry-from`` qualifying's percentages carried over."""
    carry = None
    if args.carry_from:
        qualifying = _scored(args.carry_from, args, options)
        carry = {p.pair: p.percent for p in qualifying.ranking if p.percent is not None}
    try:
        sessions = [first, *(_scored(f, args, options) for f in args.add)]
        if carry and args.carry_form == "place":
            finalists = {p.pair for s in sessions for p in s.ranking}
            totals = add_up([[(p.pair, p.percent, p.boards, p.direction) for p in s.ranking
                              if p.percent is not None] for s in sessions],
                            carries=carry_by_place({k: q for k, q in carry.items()
                                                    if k in finalists}, args.carry))
        else:
            totals = add_sessions(sessions, carry_from=carry,
                                  carry_fraction=args.carry if carry else 0.0)
    except ValueError as err:
        raise CommandError(str(err)) from err
    if args.json:
        print(json.dumps({"event": [
            {"pair": t.pair, "direction": None if t.direction is None else t.direction.value,
             "percent": round(t.percent, 2), "sessions": [
                 None if p is None else round(p, 2) for p in t.sessions],
             "carry": round(t.carry, 2), "boards": t.boards, "rank": t.rank}
            for t in totals]}, ensure_ascii=False))
        return 0
    how = (f", {args.carry:g} points to the qualifying's first, by place"
           if args.carry_form == "place" else
           f", {args.carry:g} of the qualifying margin carried over")
    lines = [f"Event of {1 + len(args.add)} session(s)" + (how if carry else "")]
    direction: object = "start"
    for t in totals:
        if t.direction != direction:
            direction = t.direction
            lines.append(f"  {t.direction.value}" if t.direction else "  one field")
        each = " ".join("  -  " if p is None else f"{p:6.2f}" for p in t.sessions)
        lines.append(f"  {t.rank:>3}  pair {t.pair!s:>4}  {t.percent:6.2f}%  ({each}"
                     + (f"; carry {t.carry:+.2f}" if carry else "") + ")")
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


def _export(args: argparse.Namespace, source: ResultsFile, event: EventScore) -> None:
    if args.export == "usebio":
        data = write_usebio(source, event, units=args.units, victory_points_scored=args.vp)
    elif args.export == "pbn":
        data = write_results_pbn(source, event, units=args.units,   # every name as written
                                 charset="UTF-8").encode("utf-8")
    else:
        data = write_results_csv(source, event).encode("utf-8")
    if args.output is None:
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        return
    try:
        Path(args.output).write_bytes(data)
    except OSError as err:
        raise CommandError(f"{args.output}: cannot write: {err.strerror or err}") from err


def _points(value: float) -> str:
    return f"{value:.2f}"


def _score(s: ScoredResult) -> str:
    r = s.result
    if r.adjustment is None:
        return str(r.score_ns)
    ruling = format_ruling(r)     # "NS A+": Law 15B's award to one side alone
    return ruling if r.score_ns is None or r.only else f"{r.score_ns} ({ruling})"


def _table(event: EventScore, units: int) -> str:
    """The ranking (each direction of a two-winner field apart), then each board."""
    mp = event.method is Method.MATCHPOINTS
    top = f", top {'n-1' if units == 1 else '2(n-1)'}" if mp else ""
    lines = [f"Ranking: {_NAMES[event.method]}{top}"]
    direction: object = "start"
    for p in event.ranking:
        if p.direction != direction:
            direction = p.direction
            if p.direction is not None:
                lines.append("North-South" if p.direction.value == "NS" else "East-West")
            lines.append(f"{'Rank':>4}  {'Pair':<16} {'Total':>9}"
                         + (f" {'Percent':>8}" if mp else "") + f" {'Boards':>6}")
        lines.append(f"{p.rank:>4}  {p.pair!s:<16} {_points(p.total):>9}"
                     + (f" {_points(p.percent or 0.0):>8}" if mp else "") + f" {p.boards:>6}")
    for board, results in event.boards.items():
        lines.append("")
        lines.append(f"Board {board}")
        lines.append(f"{'NS':<16} {'EW':<16} {'Score':>12} {'NS points':>10} {'EW points':>10}")
        for s in results:
            ns, ew = (_points(p) if side in s.result.sides else "-"
                      for side, p in zip(Side, (s.ns_points, s.ew_points), strict=True))
            lines.append(f"{s.result.ns!s:<16} {s.result.ew!s:<16} {_score(s):>12} "
                         f"{ns:>10} {ew:>10}")
    return "\n".join(lines) + "\n"
