"""``tenace ladder --data DIR``: the club's ladder printed from a hub's data directory.

The sessions the hub stored in its event log (and those of a log written before it stored
them, found by replaying their records: hub.series_replay), ranked in the club's form as
the director kept it on the console (the log fact ``ladder_form``; hub.series_ladder),
unless ``--best``, ``--min``, ``--from`` or ``--to`` name another (``--best 0``: every
session; an empty date: no bound). The players of one name the director has not told
apart are marked ``(?)`` and listed with where they played; the Butler and cross-IMP
evenings are a ladder of their own (IMPs per board), the sections scored in VPs or total
points are named. The data directory is only read (the hub may be running on it):
the log, the roster, and what a hub's replay kept beside the log (``replayed-sessions.json``;
without it an old log's sessions are replayed here, and not kept). The session being played
counts once it is stored (the next session's set-up).

``--import OLD_DIR`` first stores the sessions of a data directory the club used before
(one a evening, before the hub ran the next session in the same log) in this one's log
(hub.series_import: the old log read, never written; importing twice stores nothing new).
That appends to the log: with the hub stopped, or restart it after.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

__all__ = ["add_parser", "run"]


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "ladder", help="the club's ladder from a hub's data directory",
        description="The club's ladder over the sessions a hub's event log holds, in the "
                    "club's form as kept on the console unless an option names another "
                    "(docs/sessions.md). Reads only.")
    p.add_argument("--data", required=True, metavar="DIR",
                   help="the hub's data directory (its events.sqlite3, its roster.csv)")
    p.add_argument("--best", type=int, metavar="N",
                   help="count each player's best N sessions (0: every session; default: "
                        "the club's form)")
    p.add_argument("--min", type=int, metavar="M", dest="minimum",
                   help="rank only players with M sessions or more (default: the club's form)")
    p.add_argument("--from", metavar="YYYY-MM-DD", dest="since",
                   help="the period's first day (\"\": none; default: the club's form)")
    p.add_argument("--to", metavar="YYYY-MM-DD", dest="until",
                   help="the period's last day (\"\": none; default: the club's form)")
    p.add_argument("--json", action="store_true",
                   help="the ladder as GET /api/results/ladder gives it (docs/console-api.md)")
    p.add_argument("--import", action="append", default=[], metavar="OLD_DIR",
                   dest="imports",
                   help="first store the sessions of an earlier data directory's log in this "
                        "one's (read, never written; twice: nothing new); the hub stopped, "
                        "or restarted after")
    p.set_defaults(run=run)


def _text(data: dict[str, Any]) -> list[str]:
    form = (f"best {data['best']} sessions" if data["best"] else "every session") + \
        (f", ranked from {data['minimum']} played" if data["minimum"] > 1 else "") + \
        (f", from {data['since']}" if data["since"] else "") + \
        (f", to {data['until']}" if data["until"] else "")
    replayed = sum(1 for s in data["sessions"] if s.get("replayed"))
    lines = [f"Club ladder: {form}; sessions: {len(data['sessions'])}"
             + (f" ({replayed} found by replaying the log)" if replayed else "")]
    for title, ranking, field, unit in (
            ("", data["ranking"], "percent", "%"),
            ("Butler and cross-IMP pairs evenings: IMPs per board", data["imp_ranking"],
             "imps", " IMPs/board")):
        if title and ranking:
            lines.append(title)
        for e in ranking:
            name = e["player"] + (" (?)" if e["ambiguous"] else
                                  f" ({e['member']})" if e["member"] else "")
            place = "-" if e["rank"] is None else str(e["rank"])
            lines.append(f"{place:>4}  {name:<32} {e['played']:>3} played {e['counted']:>3} "
                         f"counted {e[field]:6.2f}{unit}")
    for a in data["ambiguous"]:
        places = "; ".join(f"{w['date'] or '-'} section {w['section']} pair {w['pair']}"
                           for w in a["where"])
        members = ", ".join(map(str, a["members"])) or "none known"
        lines.append(f"(?) {a['player']}: not told apart (members {members}): {places}")
    for s in data["left_out"]:
        lines.append(f"left out ({s['scores']}, not percentages): {s['date'] or '-'} "
                     f"{s['name']} {s['session']} section {s['section']}".rstrip())
    return lines


def _import(path: Path, folders: list[str]) -> None:
    """``--import``: each old directory's sessions stored in the log at ``path``
    (hub.series_import), one line each on standard error."""
    from hub.series_import import import_sessions, open_old
    from hub.series_players import club_roster
    from hub.store import LOG_NAME, EventLog, StoreError
    from tenace.commands import CommandError
    from tenace.live import _loader

    roster = club_roster(path)
    try:
        with EventLog.open(path) as target:
            for folder in folders:
                if not (Path(folder) / LOG_NAME).is_file():
                    raise CommandError(f"--import {folder}: no event log ({LOG_NAME}) in it")
                with open_old(folder, LOG_NAME) as old:
                    try:
                        done = import_sessions(target, old, _loader, roster, folder)
                    except ValueError as err:
                        raise CommandError(f"--import {err}") from err
                for one in done:
                    sys.stderr.write(f"{folder}: {one.date or '-'} {one.name} {one.session}"
                                     .rstrip() + (": imported\n" if one.stored
                                                  else ": imported before\n"))
                if not done:
                    sys.stderr.write(f"{folder}: no session with a result\n")
    except StoreError as err:
        raise CommandError(str(err)) from err


def run(args: Any) -> int:
    from hub.series import SessionBook
    from hub.series_ladder import (
        LadderForm,
        homonyms,
        kept_form,
        ladder_json,
        player_choices,
    )
    from hub.series_players import club_roster
    from hub.store import LOG_NAME, EventLog, StoreError
    from tenace.commands import CommandError
    from tenace.live import _loader

    path = Path(args.data) / LOG_NAME
    if not path.is_file():
        raise CommandError(f"{args.data}: no event log ({LOG_NAME}) in it")
    if args.imports:
        _import(path, args.imports)
    try:
        log = EventLog.open(path, verify=False, upgrade=False, note_head=False)
    except StoreError as err:
        raise CommandError(str(err)) from err
    with log:
        book = SessionBook(log, _loader, keep_found=False)
        kept = kept_form(book)
        try:
            form = LadderForm(
                kept.best if args.best is None else (args.best or None),
                kept.minimum if args.minimum is None else args.minimum,
                kept.since if args.since is None else args.since,
                kept.until if args.until is None else args.until)
        except ValueError as err:
            raise CommandError(str(err)) from err
        data = ladder_json(book.sessions(), form, shared=homonyms(club_roster(path)),
                           choices=player_choices(book))
    data["kept"] = kept.to_json()
    if args.json:
        json.dump(data, sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
    else:
        sys.stdout.write("\n".join(_text(data)) + "\n")
    return 0
