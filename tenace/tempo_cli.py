"""``tenace tempo FILE... [--json]``: the tempo of game records read offline.

Reads PBN or LIN files whose calls and cards carry their times (the hub's exports, or any
record with a ``TempoTable``: bridgecore.tempo, docs/tempo.md) and prints, per board and
per player, the times and the marks of the rule (a STOP wait not kept, Annex I; a break in
tempo, Laws 16B, 73C, 73D), with each board's time against ``--minutes`` a board (Law
74B4). The marks are the rule's, not findings: the director or the federation judges.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import defaultdict
from typing import Any

from bridgecore.errors import FormatError
from bridgecore.records import read_records
from bridgecore.tempo import (
    BoardTempo,
    board_actions,
    counted,
    mark_breaks,
    player_key,
    slow_play,
    time_board,
)

__all__ = ["add_parser", "run"]


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "tempo", help="think times and breaks in tempo of timed game records",
        description="Per board and per player: each call's and card's time, the STOP waits "
                    "(Annex I), the breaks in tempo by the rule of docs/tempo.md (Laws 16B, "
                    "73C, 73D: the director judges), and each board's time against the "
                    "allowance (Law 74B4).")
    p.add_argument("files", nargs="+", metavar="FILE", help="PBN or LIN files with times")
    p.add_argument("--json", action="store_true", help="one JSON object: boards and players")
    p.add_argument("--minutes", type=float, default=7.5,
                   help="allowance a board, in minutes (default 7.5: 15 a round of 2)")
    p.add_argument("--actions", action="store_true",
                   help="print every call and card with its time, not only the marks")
    p.set_defaults(run=run)


def _boards(files: list[str]) -> list[BoardTempo]:
    from tenace.commands import CommandError
    out = []
    for name in files:
        try:
            records = read_records(name)
        except FormatError as err:
            raise CommandError(str(err)) from err
        for r in records:
            out.append(time_board(board_actions(r, table=r.tags.get("Table") or name)))
    return mark_breaks(out)


def players(boards: list[BoardTempo]) -> list[dict[str, Any]]:
    """Each player's pace over the records: median think per kind, time, marks."""
    thinks: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    marks: dict[str, int] = defaultdict(int)
    paced: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for b in boards:
        for a in b.actions:
            if a.think is not None:
                thinks[player_key(b, a.player)][a.kind].append(a.think)
                if counted(a):   # the median the rule uses: never the board's first call
                    paced[player_key(b, a.player)][a.kind].append(a.think)
        for m in b.marks:
            marks[player_key(b, m.player)] += 1
    return [{"player": key,
             "median": {k: round(statistics.median(v), 3)
                        for k, v in sorted(paced[key].items())},
             "seconds": round(sum(sum(v) for v in kinds.values()), 3),
             "actions": sum(len(v) for v in kinds.values()), "marks": marks.get(key, 0)}
            for key, kinds in sorted(thinks.items())]


def _clock(seconds: float | None) -> str:
    if seconds is None:
        return "?"
    total = round(seconds)
    return f"{total // 60}:{total % 60:02d}"


def run(args: argparse.Namespace) -> int:
    boards = _boards(args.files)
    allowance = args.minutes * 60.0
    slow = slow_play(boards, allowance)
    out = sys.stdout
    if args.json:
        out.write(json.dumps({"boards": [b.to_json() for b in boards],
                              "players": players(boards),
                              "slow": [s.to_json() for s in slow]}, ensure_ascii=False,
                             allow_nan=False) + "\n")
        return 0
    for b, s in zip(boards, slow, strict=True):
        sides = b.side_seconds()
        out.write(f"Board {b.board}, table {b.table}: {_clock(b.seconds)} at the table "
                  f"(NS {_clock(sides['NS'])}, EW {_clock(sides['EW'])})"
                  + (f": over the {_clock(allowance)} allowed (74B4)" if s.over else "") + "\n")
        if args.actions:
            for a in b.actions:
                think = "?" if a.think is None else f"{a.think:.1f}"
                stop = f" +{a.stop_wait:.1f} STOP wait" if a.stop_wait else ""
                out.write(f"  {a.index:3d} {a.seat.letter} {a.item:5s} {think:>6s} s{stop}\n")
        for m in b.marks:
            out.write(f"  mark {m.kind} ({m.law}) at {m.index}: {m.detail}\n")
    out.write("Players:\n")
    for p in players(boards):
        pace = ", ".join(f"{k} {v:.1f} s" for k, v in p["median"].items())
        out.write(f"  {p['player']}: {p['actions']} actions, median {pace}; "
                  f"{p['marks']} mark(s)\n")
    return 0
