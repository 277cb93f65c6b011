"""``tenace sim`` and ``tenace demo``: a simulated room through the real broker and hub.

``sim`` plays one session (:func:`tenace.sim.session.simulate`) with irregularities
injected, waits for the director's alerts and prints injected vs detected per kind.
``demo`` is the main job of the README: a hub with its embedded broker and the director's
console, and a room of simulated tables playing session after session, slowly enough to
watch. Only this module of the package speaks argparse.
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import sys
import threading
import time
import webbrowser
from typing import Any

from tenace.commands import CommandError

__all__ = ["add_parsers", "demo", "sim"]

log = logging.getLogger(__name__)

DEMO_RATES = ("revoke=0.04,lead_out_of_turn=0.03,call_out_of_rotation=0.03,"
              "insufficient_bid=0.04,card_not_in_hand=0.02,wrong_board=0.02,"
              "rotated_board=0.02,result_disagrees=0.02,disputed_claim=0.02,director_call=0.02")


def _setup(tables: int, boards: int, rounds: int | None, movement: str, seed: int,
           minutes: float) -> Any:
    """The event: a section of ``tables`` tables, deals drawn from ``seed``."""
    from bridgecore.bigdeal import random_deal
    from hub.errors import ConfigError
    from hub.event import EventSetup

    try:
        shape = EventSetup.quick(tables=tables, boards_per_round=boards, rounds=rounds,
                                 movement=movement, seed="0" * 40, minutes_per_round=minutes)
        rng = random.Random(seed)
        deals = {n: random_deal(rng) for n in sorted(shape.deals)}
        return EventSetup.quick(tables=tables, boards_per_round=boards, rounds=rounds,
                                movement=movement, deals=deals, minutes_per_round=minutes)
    except ConfigError as err:
        raise CommandError(str(err)) from err


def _script(setup: Any, seed: int, inject: dict[str, float], pace: float,
            noise: Any = None) -> Any:
    from tenace.sim.script import SimError
    from tenace.sim.session import simulate

    room = setup.build_room()
    try:
        return simulate(room.sections, {n: room.deal(n) for n in setup.deals}, seed=seed,
                        inject=inject, pace=pace, edition=room.edition, start=time.time(),
                        reader_noise=noise)
    except SimError as err:
        raise CommandError(str(err)) from err


def _rates(text: str | None) -> dict[str, float]:
    from tenace.sim.script import SimError, parse_rates

    try:
        return parse_rates(text or "")
    except SimError as err:
        raise CommandError(f"--inject: {err}") from err


def _noise(text: str | None) -> Any:
    from tenace.sim.noise import parse_noise
    from tenace.sim.script import SimError

    if not text:
        return None
    try:
        return parse_noise(text)
    except SimError as err:
        raise CommandError(str(err)) from err


def sim(args: argparse.Namespace) -> int:
    """``tenace sim``: one session, injected vs detected."""
    from tenace.live import running_hub
    from tenace.sim.driver import DriverError, run_tables
    from tenace.sim.observer import Observer
    from tenace.sim.script import compare

    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    inject = _rates(args.inject)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    setup = _setup(args.tables, args.boards, args.rounds, args.movement, seed, 15.0)
    script = _script(setup, seed, inject, args.pace, _noise(args.reader_noise))
    began = time.perf_counter()
    with running_hub(args.broker, None, setup) as (hub, url), Observer(url) as director:
        try:
            runs = run_tables(url, script.events_by_table, realtime=script.pacer())
        except DriverError as err:
            raise CommandError(str(err)) from err
        director.settle()
        alerts = director.alert_list()
        stats = hub.call(lambda: hub.stats)
    seconds = time.perf_counter() - began
    report = compare(script.injected, alerts, script.expected,
                     [k for k, rate in script.rates.items() if rate > 0])
    rejected = [{"table": t, "type": env.type, "code": reply.code, "reason": reply.reason}
                for t, run in runs.items() for env, reply in run.rejected]
    report.update(events=script.events, seconds=round(seconds, 2), seed=seed)
    if script.reader_errors:
        report["reader_errors"] = script.reader_errors
    if rejected:
        report["rejected"] = rejected
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
    else:
        _print_report(report, stats.accepted)
    return 0


def _print_report(report: dict[str, Any], accepted: int) -> None:
    kinds = sorted(set(report["injected"]) | set(report["detected"]))
    print(f"{'kind':<24} {'injected':>8} {'detected':>8}")
    for kind in kinds:
        print(f"{kind:<24} {report['injected'].get(kind, 0):>8} "
              f"{report['detected'].get(kind, 0):>8}")
    if report.get("reader_errors"):
        print("reader errors made: " + ", ".join(
            f"{k} {v}" for k, v in sorted(report["reader_errors"].items())))
    for name in ("missed", "false_alarms"):
        items = report[name]
        print(f"{name.replace('_', ' ')}: {len(items)}")
        for item in items[:20]:
            print(f"  table {item['table']} board {item['board']}: {item['kind']}")
    print(f"{report['events']} events ({accepted} accepted by the hub) in "
          f"{report['seconds']} s, seed {report['seed']}")
    for item in report.get("rejected", [])[:20]:
        print(f"  refused at {item['table']}: {item['type']}: {item['code']}: {item['reason']}")


def demo(args: argparse.Namespace) -> int:
    """``tenace demo``: hub, embedded broker, console, and a room playing until stopped."""
    from tenace.live import _address, demo_director, running_hub
    from tenace.sim.driver import DriverError, run_tables

    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    console = _address(args.console, "--console")
    inject = _rates(args.inject)
    # The round clock at the same pace as the play (a club: 7.5 minutes a board), so that
    # the slowest tables show late.
    pace = args.pace
    minutes = 7.5 * args.boards * pace
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    rounds = args.rounds
    if rounds is None:   # six rounds, or the whole movement when it has fewer
        from bridgecore.movements import mitchell
        try:
            rounds = min(6, mitchell(args.tables, boards_per_round=args.boards).rounds)
        except ValueError as err:
            raise CommandError(f"--tables {args.tables}: {err}") from err
    setup = _setup(args.tables, args.boards, rounds, "mitchell", seed, minutes)
    stop_at = None if args.minutes is None else time.monotonic() + args.minutes * 60
    with demo_director() as (users, name, password), \
            running_hub(args.broker, None, setup, console=console, console_users=users) \
            as (hub, url):
        page = hub.console.url if hub.console is not None else None
        print(f"Tenace demo: {args.tables} simulated tables on {url}")
        print(f"director console: {page}  (Ctrl-C to stop)", flush=True)
        print(f"log in as {name} with the password {password} (this demo's own account, "
              "gone when it stops)", flush=True)
        if page and not args.no_browser:
            threading.Thread(target=webbrowser.open, args=(page,), daemon=True).start()
        script = _script(setup, seed, inject, pace, _noise(args.reader_noise))
        starts = sorted(script.round_starts.items())
        pacer = script.pacer()

        def director() -> None:  # the director starts each round on time: the clock runs
            for number, at in starts:
                delay = pacer(at)
                if delay > 0:
                    time.sleep(delay)
                hub.call(lambda n=number: hub.director({"op": "round_start", "round": n}))

        threading.Thread(target=director, daemon=True).start()
        stop = threading.Event()
        player = threading.Thread(target=_play, args=(run_tables, DriverError, url, script,
                                                      pacer, stop), daemon=True)
        player.start()
        try:
            while player.is_alive() and (stop_at is None or time.monotonic() < stop_at):
                player.join(0.5)
        except KeyboardInterrupt:
            print("stopping", file=sys.stderr)
        finished = not player.is_alive()
        stop.set()              # the simulated tables leave before the broker stops
        player.join(15)
        alerts = hub.call(lambda: len(hub.room.alerts))
        print(f"{hub.stats.accepted} events taken, {alerts} alerts raised", flush=True)
        if args.minutes is None and finished:
            print("the session is over; the console stays up until Ctrl-C", flush=True)
            try:
                while True:
                    time.sleep(1)
            except KeyboardInterrupt:
                pass
    return 0


def _play(run_tables: Any, error: type[Exception], url: str, script: Any, pacer: Any,
          stop: threading.Event) -> None:
    try:
        run_tables(url, script.events_by_table, realtime=pacer, timeout=10.0, stop=stop)
    except error as err:
        log.error("simulated room: %s", err)


def add_parsers(sub: Any) -> None:
    p = sub.add_parser(
        "sim", help="simulate a room through the real broker and hub, injecting irregularities",
        description="Virtual tablets and card readers play a whole Mitchell session (real "
                    "deals, legal auctions and plays) through the broker and a hub, with "
                    "irregularities injected at the given rates per board; prints injected vs "
                    "detected per kind. Without --broker it starts the embedded broker.")
    p.add_argument("--tables", type=int, default=6)
    p.add_argument("--boards", type=int, default=2, help="boards per round (default 2)")
    p.add_argument("--rounds", type=int, help="rounds to play (default: the whole movement)")
    p.add_argument("--movement", choices=["mitchell", "howell"], default="mitchell")
    p.add_argument("--inject", help="kind=rate,... e.g. revoke=0.02,lead_out_of_turn=0.01")
    p.add_argument("--seed", type=int, help="make the run reproducible")
    p.add_argument("--reader-noise", metavar="KIND=RATE,...",
                   help="card readers that err: missed, cross, late, repeat (per card read), "
                        "sweep (per hand swept), unreadable (per board); 'issue' for the "
                        "issue's example (2%% missed, 1%% cross, 1%% late...)")
    p.add_argument("--pace", type=float, default=0.002,
                   help="fraction of a club's pace (1.0: seven minutes a board; default 0.002)")
    p.add_argument("--broker", help="broker URL (a hub of the simulation's own runs there)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=sim)

    d = sub.add_parser(
        "demo", help="hub, embedded broker, director console and a simulated room",
        description="The main job: a hub with its embedded broker and the director's console, "
                    "and a room of simulated tables playing with irregularities.")
    d.add_argument("--tables", type=int, default=12)
    d.add_argument("--boards", type=int, default=2, help="boards per round (default 2)")
    d.add_argument("--rounds", type=int, help="rounds to play (default 6, or fewer when "
                   "the movement has fewer)")
    d.add_argument("--inject", default=DEMO_RATES, help="kind=rate,... per board")
    d.add_argument("--seed", type=int)
    d.add_argument("--reader-noise", metavar="KIND=RATE,...",
                   help="card readers that err (as for sim; 'issue' for the issue's example): "
                        "the console shows each reader's errors")
    d.add_argument("--pace", type=float, default=0.02,
                   help="fraction of a club's pace (default 0.02: about 8 s a board)")
    d.add_argument("--console", default="127.0.0.1:8080", help="console address HOST:PORT")
    d.add_argument("--broker", help="use this broker instead of the embedded one")
    d.add_argument("--minutes", type=float, help="stop after this many minutes")
    d.add_argument("--no-browser", action="store_true", help="do not open the console")
    d.set_defaults(run=demo)
