"""``tenace sim`` and ``tenace demo``: a simulated room through the real broker and hub.

``sim`` plays one session (:func:`tenace.sim.session.simulate`) with irregularities
injected, waits for the director's alerts and prints injected vs detected per kind: with a
hub of its own (on the embedded broker, or on ``--broker``), or with ``--hub URL`` against
a hub running elsewhere (its set-up from ``--event`` or ``--deals-seed``, the devices'
passwords from the keyring or ``--credentials``). ``--chaos [SEED]`` plays it under faults
(:mod:`tenace.sim.chaos`) and adds ``lost``, ``duplicated``, ``restarts`` and
``results_equal`` to the report.
``demo`` is the main job of the README: a hub with its embedded broker and the director's
console, and a room of simulated tables playing session after session, slowly enough to
watch. Only this module of the package speaks argparse.
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import signal
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
           minutes: float, sections: int = 1) -> Any:
    """The event: ``tables`` tables, in ``sections`` sections (:func:`section_sizes`, named
    A, B, C...) each playing the movement on the same board numbers (the same deals),
    deals drawn from ``seed``."""
    from bridgecore.bigdeal import random_deal
    from hub.errors import ConfigError
    from hub.event import EventSetup, SectionSetup

    try:
        parts = tuple(SectionSetup(section_name(i), movement, tables=size,
                                   boards_per_round=boards, rounds=rounds)
                      for i, size in enumerate(section_sizes(tables, sections)))
        rng = random.Random(seed)
        numbers = sorted({b for part in parts for b in part.movement.boards})
        deals = {n: random_deal(rng) for n in numbers}
        return EventSetup(parts, deals, minutes_per_round=minutes, boards_source="deals given")
    except ConfigError as err:
        raise CommandError(str(err)) from err


def section_sizes(tables: int, sections: int) -> list[int]:
    """``tables`` shared out as evenly as the sections allow, the first sections the larger."""
    if sections < 1 or tables < sections:
        raise CommandError(f"--sections {sections}: from 1 to the number of tables "
                           f"({tables})")
    share, extra = divmod(tables, sections)
    return [share + (i < extra) for i in range(sections)]


def section_name(index: int) -> str:
    """A, B, ... Z, then AA, AB...: the name of the section ``index`` (from 0)."""
    name = ""
    index += 1
    while index:
        index, letter = divmod(index - 1, 26)
        name = chr(ord("A") + letter) + name
    return name


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
    """``tenace sim``: one session, injected vs detected (``--hub``: against a hub running
    elsewhere; ``--chaos``: under faults, :mod:`tenace.sim.chaos`)."""
    import contextlib

    from wire.mqtt import using_keyring

    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    inject = _rates(args.inject)
    if args.hub and (args.chaos is not None or args.broker):
        raise CommandError("--hub: not with --chaos or --broker (the hub runs elsewhere)")
    if args.chaos is not None and args.broker:
        raise CommandError("--chaos starts its own Mosquitto and hub: not with --broker")
    if args.sections != 1 and (args.event or args.deals_seed):
        raise CommandError("--sections: not with --event or --deals-seed (the hub's event "
                           "file says its sections)")
    if (args.event or args.deals_seed or args.console) and not args.hub:
        raise CommandError("--event, --deals-seed and --console are the set-up of a hub "
                           "running elsewhere: only with --hub")
    if args.console and not args.director:
        raise CommandError("--console: the director's account that reads the deals, "
                           "--director NAME")
    seed = args.seed
    if seed is None and args.chaos is not None and args.chaos >= 0:
        seed = args.chaos
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    pace = args.pace if args.pace is not None else (
        CHAOS_PACE if args.chaos is not None else 0.002)
    if args.hub:
        setup = _hub_setup(args, seed)
    else:
        setup = _setup(args.tables, args.boards, args.rounds, args.movement, seed, 15.0,
                       args.sections)
    keyring = (using_keyring(args.credentials) if args.credentials
               else contextlib.nullcontext())
    if _swiss(setup):
        if args.chaos is not None:
            raise CommandError("--chaos: not on a Swiss event (its rounds are drawn as it "
                               "is played)")
        with keyring:
            report, accepted = _swiss_session(args, setup, seed, inject, pace)
    else:
        script = _script(setup, seed, inject, pace, _noise(args.reader_noise))
        if args.hub and args.credentials:
            _check_credentials(args.credentials, {event.device for events in
                                                  script.events_by_table.values()
                                                  for event in events})
        with keyring:
            if args.chaos is not None:
                return _chaos(args, setup, script, seed)
            report, accepted = _session(args, setup, script, seed)
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
    else:
        _print_report(report, accepted)
        for name, swiss in report.get("swiss", {}).items():
            print(f"section {name}, Swiss, {max(p[0] for p in swiss['pairings'])} rounds: "
                  "final ranking " + ", ".join(f"{e['rank']}. {e['pair']} ({e['total']} VP)"
                                               for e in swiss["ranking"] or ()))
    return 0


def _check_credentials(path: str, devices: set[str]) -> None:
    """``--credentials FILE`` holds a password for every simulated device and the director
    (whose view reads the alerts): else a CommandError naming those missing, before any
    device is refused by the broker over and over."""
    try:
        with open(path, encoding="utf-8") as file:
            known = json.load(file)
    except (OSError, ValueError) as err:
        raise CommandError(f"--credentials {path}: cannot read it ({err})") from err
    if not isinstance(known, dict):
        raise CommandError(f"--credentials {path}: not a JSON object {{account: password}}")
    missing = sorted(name for name in devices | {"director"}
                     if not isinstance(known.get(name), str))
    if missing:
        shown = ", ".join(missing[:12]) + (f" and {len(missing) - 12} more"
                                           if len(missing) > 12 else "")
        raise CommandError(
            f"--credentials {path}: no password for {shown}: every account the room plays "
            "with needs one (tenace accounts issue ACCOUNT --data DIR prints it; in a deploy "
            "directory it is added to device-credentials.json)")


CHAOS_PACE = 0.01
"""``--chaos``'s default pace: slow enough that faults land in mid-board."""


def _session(args: argparse.Namespace, setup: Any, script: Any,
             seed: int) -> tuple[dict[str, Any], int]:
    """One clean session through the broker: with its own hub, or the one at ``--hub``."""
    import contextlib

    from tenace.live import running_hub
    from tenace.sim.chaos import clean_room, published_differences
    from tenace.sim.driver import DriverError, run_tables
    from tenace.sim.observer import Observer
    from tenace.sim.script import compare
    from wire.errors import MqttError

    began = time.perf_counter()
    hub_here = (contextlib.nullcontext((None, args.hub)) if args.hub
                else running_hub(args.broker, None, setup))
    with hub_here as (hub, url):
        try:
            director = Observer(url, scores=True)
        except MqttError as err:
            raise CommandError(f"the director's view of {_shown(url)}: {err} (the "
                               "director's account must be in the credentials)") from err
        with director:
            try:
                runs = run_tables(url, script.events_by_table, realtime=script.pacer(),
                                  mux=True)
            except DriverError as err:
                raise CommandError(str(err)) from err
            director.settle(quiet=1.0)   # the live scores follow the replies (hub.service)
            alerts = director.alert_list()
            with director.lock:
                published = dict(director.scores)
            accepted = (hub.call(lambda: hub.stats).accepted if hub is not None else
                        sum(run.codes.get("ok", 0) for run in runs.values()))
    seconds = time.perf_counter() - began
    report = compare(script.injected, alerts, script.expected,
                     [k for k, rate in script.rates.items() if rate > 0])
    rejected = [{"table": t, "type": env.type, "code": reply.code, "reason": reply.reason}
                for t, run in runs.items() for env, reply in run.rejected]
    differences = published_differences(clean_room(setup, script)[0], published)
    report.update(events=script.events, seconds=round(seconds, 2), seed=seed,
                  results_equal=not differences)
    if differences:
        report["differences"] = differences[:50]
    if script.reader_errors:
        report["reader_errors"] = script.reader_errors
    if rejected:
        report["rejected"] = rejected
    return report, accepted


def _swiss(setup: Any) -> bool:
    from tenace.sim.script import SimError
    from tenace.sim.swiss import is_swiss

    try:
        return is_swiss(setup.build_room())
    except SimError as err:
        raise CommandError(str(err)) from err


def _swiss_session(args: argparse.Namespace, setup: Any, seed: int,
                   inject: dict[str, float], pace: float) -> tuple[dict[str, Any], int]:
    """A Swiss event played round by round to its last (tenace.sim.swiss): injected vs
    detected over every round, each section's pairings and its final ranking as the hub
    published it (``results/ranking/{section}``: the Swiss standings)."""
    import contextlib

    from tenace.live import running_hub
    from tenace.sim.driver import DriverError, run_tables
    from tenace.sim.observer import Observer
    from tenace.sim.script import SimError, compare
    from tenace.sim.swiss import play_swiss
    from wire.errors import MqttError
    from wire.protocol import topic_ranking

    began = time.perf_counter()
    room = setup.build_room()
    hub_here = (contextlib.nullcontext((None, args.hub)) if args.hub
                else running_hub(args.broker, None, setup))
    with hub_here as (_, url):
        try:
            director = Observer(url, scores=True, states=True)
        except MqttError as err:
            raise CommandError(f"the director's view of {_shown(url)}: {err} (the "
                               "director's account must be in the credentials)") from err
        with director:
            def states() -> dict[str, Any]:
                with director.lock:
                    return dict(director.states)
            try:
                played, pairings = play_swiss(
                    url, room, {n: room.deal(n) for n in setup.deals}, seed=seed,
                    inject=inject, pace=pace, run_tables=run_tables, states=states,
                    noise=_noise(args.reader_noise))
            except (DriverError, SimError) as err:
                raise CommandError(str(err)) from err
            director.settle(quiet=1.0)
            alerts = director.alert_list()
            with director.lock:
                published = dict(director.scores)
    runs = [(t, run) for _, by_table in played for t, run in by_table.items()]
    kinds = {k for script, _ in played for k, rate in script.rates.items() if rate > 0}
    report = compare([i for script, _ in played for i in script.injected], alerts,
                     [e for script, _ in played for e in script.expected], sorted(kinds))
    rejected = [{"table": t, "type": env.type, "code": reply.code, "reason": reply.reason}
                for t, run in runs for env, reply in run.rejected]
    report.update(events=sum(script.events for script, _ in played),
                  seconds=round(time.perf_counter() - began, 2), seed=seed,
                  swiss={s.name: {"pairings": [[p.round, p.home, p.away]
                                               for p in pairings[s.name]],
                                  "ranking": published.get(topic_ranking(
                                      room.scoring.section(s.name).key), {}).get("ranking")}
                         for s in room.sections})
    if rejected:
        report["rejected"] = rejected
    return report, sum(run.codes.get("ok", 0) for _, run in runs)


def _shown(url: str) -> str:
    """A broker URL without its password."""
    scheme, sep, rest = url.partition("://")
    return f"{scheme}{sep}{rest.rsplit('@', 1)[-1]}"


def _hub_setup(args: argparse.Namespace, seed: int) -> Any:
    """The set-up of the hub at ``--hub``: its event file, or its quick set-up from
    ``--tables``... and its BigDeal seed (``tenace hub --tables N --seed HEX``)."""
    from hub.errors import ConfigError
    from hub.event import EventSetup

    if args.console:
        from tenace.sim.from_console import console_setup
        return console_setup(args.console, args.director, _console_password(args),
                             args.console_ca)
    try:
        if args.event:
            return EventSetup.load(args.event)
        if args.deals_seed:
            return EventSetup.quick(tables=args.tables, boards_per_round=args.boards,
                                    rounds=args.rounds, movement=args.movement,
                                    seed=args.deals_seed)
    except ConfigError as err:
        raise CommandError(str(err)) from err
    raise CommandError("--hub: give the hub's set-up, --event FILE (its event file), "
                       "--deals-seed HEX (its --seed, with the same --tables, --boards, "
                       "--rounds and --movement) or --console URL (the director's console, "
                       "which says the deals it dealt)")


CONSOLE_PASSWORD_ENV = "TENACE_CONSOLE_PASSWORD"


def _console_password(args: argparse.Namespace) -> str:
    """The director's console password: --password-file, else $TENACE_CONSOLE_PASSWORD."""
    import os

    if args.password_file:
        try:
            with open(args.password_file, encoding="utf-8") as source:
                return source.readline().rstrip("\r\n")
        except OSError as err:
            raise CommandError(f"--password-file: {err}") from err
    password = os.environ.get(CONSOLE_PASSWORD_ENV)
    if not password:
        raise CommandError(f"--console: the director's password in --password-file FILE or "
                           f"${CONSOLE_PASSWORD_ENV}")
    return password


def _chaos(args: argparse.Namespace, setup: Any, script: Any, seed: int) -> int:
    from tenace.sim.chaos import ChaosError, ChaosPlan, report_lines, run_chaos
    from tenace.sim.script import SimError

    for name in ("wire.mqtt", "wire.mqtt.paho", "wire.link"):   # every cut says so
        logging.getLogger(name).setLevel(logging.CRITICAL)
    try:
        plan = ChaosPlan(hub_kills=args.hub_kills, broker_restarts=args.broker_restarts,
                         broker_kills=args.broker_kills, cuts=args.cuts,
                         cut_seconds=args.cut_seconds, duplicate=args.duplicate,
                         delay=(args.delay_ms[0] / 1000, args.delay_ms[1] / 1000),
                         play_on=not args.wait_offline)
        report = run_chaos(setup, script, seed=seed, plan=plan, folder=args.keep,
                           chaos_seed=args.chaos if args.chaos >= 0 else None)
    except (SimError, ChaosError) as err:
        raise CommandError(str(err)) from err
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
    else:
        _print_report(report, report["events"] - report["lost"])
        for line in report_lines(report):
            print(line)
    return 0


def _range(text: str) -> tuple[float, float]:
    """``LOW:HIGH`` (or one number) -> (low, high), both 0 or more."""
    low, _, high = text.partition(":")
    try:
        lo, hi = float(low), float(high or low)
    except ValueError:
        raise argparse.ArgumentTypeError(f"LOW:HIGH, not {text!r}") from None
    if not 0 <= lo <= hi < float("inf"):
        raise argparse.ArgumentTypeError(f"0 <= LOW <= HIGH, not {text!r}")
    return lo, hi


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
    if "results_equal" in report and "lost" not in report:   # a chaos run says it itself
        print("results, travellers and rankings published: " + (
            "equal to the ground truth" if report["results_equal"] else "DIFFERENT from the "
            "ground truth (the script's results scored)"))
        for item in report.get("differences", [])[:20]:
            print(f"  {item}")


def demo(args: argparse.Namespace) -> int:
    """``tenace demo``: hub, embedded broker, console, and a room playing until stopped."""
    from tenace.live import _address, demo_director, running_hub

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
    # Ctrl-C only asks the demo to stop, whatever it is doing: a KeyboardInterrupt raised in
    # the middle of an import could leave the import lock held and the double-dummy worker
    # waiting on it for ever (the process never exiting), or a traceback.
    interrupt = threading.Event()
    previous = signal.signal(signal.SIGINT, lambda *_: interrupt.set())
    try:
        with demo_director() as (users, name, password), \
                running_hub(args.broker, None, setup, console=console, console_users=users) \
                as (hub, url):
            _demo_room(args, hub, url, name, password, setup, seed, inject, pace, stop_at,
                       interrupt)
    finally:
        signal.signal(signal.SIGINT, previous)
    return 0


def _demo_room(args: argparse.Namespace, hub: Any, url: str, name: str, password: str,
               setup: Any, seed: int, inject: Any, pace: float, stop_at: float | None,
               interrupt: threading.Event) -> None:
    """The demo's room playing through ``hub`` until it is over, ``stop_at`` or Ctrl-C."""
    from tenace.sim.driver import DriverError, run_tables

    stop = threading.Event()
    over = threading.Event()   # set by the player when the room is done
    playing = not interrupt.is_set()
    if playing:
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
        threading.Thread(target=_play, args=(run_tables, DriverError, url, script, pacer,
                                             stop, over), daemon=True).start()
        while not (over.wait(0.5) or interrupt.is_set()) and (
                stop_at is None or time.monotonic() < stop_at):
            pass
    if interrupt.is_set():
        print("stopping", file=sys.stderr)
    finished = over.is_set() and not interrupt.is_set()
    stop.set()              # the simulated tables leave before the broker stops
    if playing:
        over.wait(15)
    alerts = hub.call(lambda: len(hub.room.alerts))
    print(f"{hub.stats.accepted} events taken, {alerts} alerts raised", flush=True)
    if args.minutes is None and finished:
        print("the session is over; the console stays up until Ctrl-C", flush=True)
        while not interrupt.is_set():
            time.sleep(0.5)


def _play(run_tables: Any, error: type[Exception], url: str, script: Any, pacer: Any,
          stop: threading.Event, over: threading.Event) -> None:
    try:
        run_tables(url, script.events_by_table, realtime=pacer, timeout=10.0, stop=stop,
                   mux=True)
    except error as err:
        log.error("simulated room: %s", err)
    finally:
        over.set()


def add_parsers(sub: Any) -> None:
    p = sub.add_parser(
        "sim", help="simulate a room through the real broker and hub, injecting irregularities",
        description="Virtual tablets and card readers play a whole Mitchell session (real "
                    "deals, legal auctions and plays) through the broker and a hub, with "
                    "irregularities injected at the given rates per board; prints injected vs "
                    "detected per kind. Without --broker it starts the embedded broker.")
    p.add_argument("--tables", type=int, default=6,
                   help="tables in all (default 6), shared out among the sections")
    p.add_argument("--sections", type=int, default=1, metavar="K",
                   help="sections A, B, C... (default 1), each its own movement on the same "
                        "boards, each ranked on its own")
    p.add_argument("--boards", type=int, default=2, help="boards per round (default 2)")
    p.add_argument("--rounds", type=int, help="rounds to play (default: the whole movement)")
    p.add_argument("--movement", choices=["mitchell", "howell"], default="mitchell")
    p.add_argument("--inject", help="kind=rate,... e.g. revoke=0.02,lead_out_of_turn=0.01")
    p.add_argument("--seed", type=int, help="make the run reproducible")
    p.add_argument("--reader-noise", metavar="KIND=RATE,...",
                   help="card readers that err: missed, cross, late, repeat (per card read), "
                        "sweep (per hand swept), unreadable (per board); 'issue' for the "
                        "issue's example (2%% missed, 1%% cross, 1%% late...)")
    p.add_argument("--pace", type=float,
                   help="fraction of a club's pace (1.0: seven minutes a board; default 0.002, "
                        f"{CHAOS_PACE} with --chaos)")
    p.add_argument("--broker", help="broker URL (a hub of the simulation's own runs there)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    remote = p.add_argument_group(
        "a hub running elsewhere",
        "The room plays against that hub through its broker; the sim must know its set-up "
        "(the deals) and each simulated device's password (and the director's, whose view "
        "it reads): from the keyring (TENACE_MQTT_KEYRING) or --credentials. Give it a hub "
        "with a fresh event.")
    remote.add_argument("--hub", metavar="URL",
                        help="the broker URL of a hub running elsewhere (no hub started here)")
    remote.add_argument("--credentials", metavar="FILE",
                        help="JSON {device: password}: tenace deploy init's "
                             "device-credentials.json, or a keyring file")
    remote.add_argument("--event", metavar="FILE",
                        help="the hub's event file (TOML): its sections and deals")
    remote.add_argument("--deals-seed", metavar="HEX",
                        help="or the hub's quick set-up: its --seed (BigDeal, 40 hex digits) "
                             "with the same --tables, --boards, --rounds and --movement")
    remote.add_argument("--console", metavar="URL",
                        help="or the hub's director's console (http(s)://host:port), for an "
                             "event set up there, deals dealt by the hub: read with the "
                             "director's account (docs/console-api.md)")
    remote.add_argument("--director", metavar="NAME",
                        help="with --console: the director's account name")
    remote.add_argument("--password-file", metavar="FILE",
                        help="with --console: the director's password, first line (else "
                             f"${CONSOLE_PASSWORD_ENV})")
    remote.add_argument("--console-ca", metavar="FILE",
                        help="with --console over https: the CA that signed its certificate")
    chaos = p.add_argument_group(
        "chaos",
        "--chaos [SEED]: Mosquitto and the hub in its own process started here; the hub "
        "killed (SIGKILL) and restarted, the broker restarted and crashed, tables cut off "
        "while they play on, device messages duplicated and delayed, at moments drawn from "
        "the seed (default: --seed). --json adds lost, duplicated, restarts and "
        "results_equal (against a clean run of the same seed).")
    chaos.add_argument("--chaos", nargs="?", type=int, const=-1, metavar="SEED",
                       help="run under faults (SEED: the faults' seed, and the session's "
                            "unless --seed is given)")
    chaos.add_argument("--hub-kills", type=int, default=2, metavar="N",
                       help="SIGKILLs of the hub, each restarted at once (default 2)")
    chaos.add_argument("--broker-restarts", type=int, default=1, metavar="N",
                       help="graceful restarts of Mosquitto (default 1)")
    chaos.add_argument("--broker-kills", type=int, default=1, metavar="N",
                       help="crashes of Mosquitto, SIGKILL (default 1)")
    chaos.add_argument("--cuts", type=int, default=2, metavar="N",
                       help="a table's network cut off (default 2)")
    chaos.add_argument("--cut-seconds", type=_range, default=(30.0, 120.0),
                       metavar="LOW:HIGH", help="how long a cut lasts (default 30:120)")
    chaos.add_argument("--duplicate", type=float, default=0.02, metavar="RATE",
                       help="device messages sent twice (default 0.02)")
    chaos.add_argument("--delay-ms", type=_range, default=(0.0, 20.0), metavar="LOW:HIGH",
                       help="each device message held back this long (default 0:20)")
    chaos.add_argument("--wait-offline", action="store_true",
                       help="a table waits for the hub's answer to each event instead of "
                            "playing on while cut off")
    chaos.add_argument("--keep", metavar="DIR",
                       help="keep the broker's, the hub's and the accounts' files in DIR")
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
