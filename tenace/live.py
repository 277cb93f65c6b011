"""The live commands: ``tenace hub``, and the helpers ``sim``, ``replay`` and ``demo`` use to
start a hub and a broker of their own.

Accounts (hub/accounts.py): ``tenace hub`` with its embedded broker keeps the accounts in its
data directory and gives itself a new password at every start (held in memory only); devices
get theirs from ``tenace accounts issue``. ``sim``, ``replay`` and ``demo`` with a broker of
their own issue every account of their event at start, in a temporary directory, and hand
the passwords to their simulated devices through a keyring file (wire/mqtt.py); with
``--broker`` the credentials must come from the URL or the environment's keyring.

Imported only when one of them runs (paho-mqtt and the hub are the ``hub`` extra).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tenace.commands import CommandError

__all__ = ["demo_director", "hub", "hub_status", "running_hub", "setup_from_args",
           "status_lines"]

log = logging.getLogger(__name__)


def _address(text: str, what: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise CommandError(f"{what} {text!r}: give HOST:PORT, e.g. 127.0.0.1:8080")
    return host or "127.0.0.1", int(port)


def setup_from_args(args: argparse.Namespace) -> Any:
    """The event set-up from ``--event FILE`` or from ``--tables`` and friends; None when
    neither is given (the data directory must then hold an event already)."""
    from hub.errors import ConfigError
    from hub.event import EventSetup

    try:
        if getattr(args, "event", None):
            return EventSetup.load(args.event)
        if getattr(args, "tables", None):
            return EventSetup.quick(tables=args.tables, movement=args.movement,
                                    boards_per_round=args.boards_per_round, rounds=args.rounds,
                                    seed=args.seed, edition=args.edition,
                                    minutes_per_round=args.minutes_per_round,
                                    language=getattr(args, "language", ""))
    except ConfigError as err:
        raise CommandError(str(err)) from err
    return None


def _has_event(data: str | None) -> bool:
    """Whether the data directory's event log holds an event already."""
    from hub.store import LOG_NAME
    return data is not None and (Path(data) / LOG_NAME).is_file() and \
        (Path(data) / LOG_NAME).stat().st_size > 0


def _loader(obj: dict[str, Any]) -> Any:
    if "bridgemate" in obj:       # set up by a scoring program (hub.bridgemate)
        from hub.bridgemate import BridgemateSetup
        return BridgemateSetup.from_json(obj)
    from hub.event import setup_from_json
    return setup_from_json(obj)


@contextlib.contextmanager
def _broker(url: str | None, listen: tuple[str, int], accounts: Path | None = None,
            tls: tuple[str, str] | None = None, ca: str | None = None,
            plain: int | None = None) -> Iterator[str]:
    """The broker URL: the one given (verified against ``ca``), or an embedded amqtt broker
    started here, checking the accounts file ``accounts`` (with ``tls``: certificate chain
    and key; ``plain``: a plain port too)."""
    if url:
        if ca is not None:
            from wire.mqtt import with_ca
            try:
                url = with_ca(url, ca)
            except ValueError as err:
                raise CommandError(str(err)) from err
        yield url
        return
    from hub.broker import BrokerError, EmbeddedBroker
    try:
        with EmbeddedBroker(*listen, accounts=accounts, tls=tls, ca_file=ca,
                            plain_port=plain) as broker:
            log.info("embedded broker on %s:%d", broker.host, broker.port)
            yield broker.url
    except BrokerError as err:
        raise CommandError(f"embedded broker: {err}") from err


def _open_hub(url: str, data: str | None, setup: Any, console: tuple[str, int] | None,
              durability: str = "process", client_id: str = "tenace-hub",
              double_dummy: bool = True, bridgemate: tuple[str, int] | None = None,
              console_options: dict[str, Any] | None = None,
              clock_tolerance: float | bool | None = None,
              offline_grace: float | None = None, next_session: Any = None,
              shard: Any = None) -> Any:
    from hub.errors import HubError
    from hub.service import Hub, data_log
    from hub.store import LOG_NAME, EventLog
    from wire.errors import WireError

    try:
        store = (data_log(None) if data is None else
                 EventLog.open(Path(data) / LOG_NAME, durability=durability))
        more: dict[str, Any] = {} if offline_grace is None else {
            "offline_grace": offline_grace}
        if next_session is not None:
            more["next_session"] = next_session
        return Hub(store, url=url, setup=setup, setup_loader=_loader, console=console,
                   client_id=client_id, double_dummy=double_dummy, bridgemate=bridgemate,
                   console_options=console_options, clock_tolerance=clock_tolerance,
                   shard=shard, **more)
    except (HubError, WireError) as err:
        raise CommandError(str(err)) from err


TOOL_ACCOUNTS = {"director": "director", "director.watch": "director"}
"""The accounts of the simulator's tools (tenace/sim/observer.py)."""


@contextlib.contextmanager
def own_accounts(broker: str | None, setup: Any) -> Iterator[Path | None]:
    """With no ``broker`` URL: every account of ``setup`` and of the tools issued in a
    temporary directory, their passwords in a keyring named by ``TENACE_MQTT_KEYRING`` for
    the duration; yields the accounts file for the embedded broker. With a URL: nothing."""
    if broker:
        yield None
        return
    import os
    import tempfile

    from hub.accounts import Accounts, event_accounts, write_keyring
    from wire.mqtt import KEYRING_ENV

    with tempfile.TemporaryDirectory(prefix="tenace-accounts-") as folder:
        accounts = Accounts(folder)
        names = {**event_accounts(setup), **TOOL_ACCOUNTS}
        keyring = write_keyring(Path(folder) / "keyring.json", accounts.issue_all(names))
        before = os.environ.get(KEYRING_ENV)
        os.environ[KEYRING_ENV] = str(keyring)
        try:
            yield accounts.path
        finally:
            if before is None:
                os.environ.pop(KEYRING_ENV, None)
            else:
                os.environ[KEYRING_ENV] = before


@contextlib.contextmanager
def demo_director() -> Iterator[tuple[Any, str, str]]:
    """A console users file of the demo's own, in a temporary directory removed at the end,
    with one director account: yields (the hub.users.UserStore, its name, its password)."""
    import tempfile

    from hub.users import UserStore, new_password

    with tempfile.TemporaryDirectory(prefix="tenace-demo-") as folder:
        users = UserStore.in_directory(folder)
        password = new_password()
        users.add("director", "director", password)
        yield users, "director", password


@contextlib.contextmanager
def running_hub(broker: str | None, data: str | None, setup: Any, *,
                console: tuple[str, int] | None = None,
                console_users: Any = None, next_session: Any = None
                ) -> Iterator[tuple[Any, str]]:
    """A hub on its own thread, with its embedded broker when ``broker`` is None (on a free
    loopback port, every account issued: :func:`own_accounts`): yields (hub, broker URL).
    ``console_users`` (hub.users.UserStore) may log in to the console; ``next_session``: a
    set-up starting the next session in ``data``'s log (hub.series)."""
    from hub.errors import HubError
    from hub.service import HubRunner
    from wire.errors import WireError

    with own_accounts(broker, setup or next_session) as accounts, \
            _broker(broker, ("127.0.0.1", 0), accounts) as url:
        hub_ = _open_hub(url, data, setup, console,
                         console_options={"users": console_users}, next_session=next_session)
        runner = HubRunner(hub_)
        try:
            running = runner.__enter__()
        except (HubError, WireError) as err:   # e.g. the console's port is taken
            raise CommandError(str(err)) from err
        try:
            yield running, url
        finally:
            runner.__exit__(None, None, None)


def hub(args: argparse.Namespace) -> int:
    """``tenace hub``: serve until interrupted (``tenace hub status``: :func:`hub_status`)."""
    if args.job == "status":
        if args.of is not None:
            raise CommandError("--of: not for status (--shard K names the shard)")
        return hub_status(args)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    setup = next_session = None
    shard, data = _shard(args)
    if args.next_session and not args.event:
        raise CommandError("--next-session: give the next session's set-up with --event FILE")
    if args.next_session and _has_event(data):
        next_session = setup_from_args(args)
        if shard is not None and next_session is not None:
            next_session = _restricted(shard, next_session)
    elif args.event or not _has_event(data):
        setup = setup_from_args(args)
        if shard is not None and setup is not None:
            setup = _restricted(shard, setup)
        elif setup is not None and getattr(setup, "shards", 1) > 1:
            raise CommandError(f"this event is shared among {setup.shards} hub processes "
                               f"(shards = {setup.shards}): run tenace hub --shard K for each "
                               f"K from 0 to {setup.shards - 1} (docs/deploying.md)")
    elif args.tables:
        print(f"{args.data} holds an event already: going on with it (--tables and the other "
              "set-up options are for a new data directory)", flush=True)
    console = None if args.console == "off" else _address(args.console, "--console")
    bridgemate = None if args.bridgemate is None else _address(
        args.bridgemate if ":" in args.bridgemate else f":{args.bridgemate}", "--bridgemate")
    if shard is not None and setup is None and not _has_event(data):
        raise CommandError(f"--shard {args.shard}: {data} holds no event yet: give --event")
    if setup is None and bridgemate is not None and not _has_event(args.data):
        from hub.bridgemate import BridgemateSetup  # the scoring program sets the event up
        setup = BridgemateSetup.waiting({"edition": args.edition, "strict": False,
                                         "minutes_per_round": args.minutes_per_round,
                                         "clock_tolerance": 120.0})
    if setup is None and console is not None and not _has_event(args.data):
        from hub.event import WaitingSetup  # the director sets the event up on the console
        setup = WaitingSetup(args.edition, args.minutes_per_round)
    tls, ca = _tls(args)
    options = None if console is None else _console_options(args)
    listen = _address(args.listen or ("0.0.0.0:8883" if tls else "0.0.0.0:1883"), "--listen")
    plain = None if args.plain_listen is None else _address(args.plain_listen, "--plain-listen")
    if plain is not None and (tls is None or plain[0] != listen[0]):
        raise CommandError("--plain-listen: only beside TLS, on the --listen address")
    from hub.private import DataDirectoryBusy, one_hub
    try:   # one hub per data directory, held before its broker, accounts or log are touched
        with one_hub(Path(data)):
            return _serve(args, data, setup, next_session, shard, console, bridgemate, tls,
                          ca, options, listen, plain)
    except DataDirectoryBusy as err:
        raise CommandError(str(err)) from err


def _serve(args: argparse.Namespace, data: str, setup: Any, next_session: Any, shard: Any,
           console: Any, bridgemate: Any, tls: Any, ca: Any, options: Any, listen: Any,
           plain: Any) -> int:
    """``tenace hub`` once its options are checked and its data directory held."""
    accounts_file, credentials = _hub_account(args)
    with _broker(args.broker, listen, accounts_file, tls, ca,
                 None if plain is None else plain[1]) as url:
        if options is not None:
            options["pairing"] = _pairing(args, url, ca)
        hub_url = url if credentials is None else credentials.url(url)
        hub_ = _open_hub(hub_url, data, setup, console, args.durability,
                         double_dummy=not args.no_double_dummy, bridgemate=bridgemate,
                         console_options=options, clock_tolerance=args.clock_tolerance,
                         offline_grace=args.offline_grace, next_session=next_session,
                         client_id="tenace-hub" if shard is None else shard.account,
                         shard=shard)
        for line in hub_.setup.summary():
            print(line)
        shown = url.rsplit("@", 1)[-1] if "@" in url else url  # never the password
        print(f"event log: {hub_.log.path}; broker: {shown}", flush=True)
        if options is not None and not options["users"].has_director():
            print("the director's console has no director's account yet: create one with\n"
                  f"    {options['create_director']}\n(it asks for the password; then log in "
                  "at the console's address)", flush=True)

        async def main() -> None:
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGINT, signal.SIGTERM):
                loop.add_signal_handler(sig, hub_.stop)
            task = asyncio.create_task(hub_.run())
            while not hub_.ready.is_set() and not task.done():
                await asyncio.sleep(0.05)
            if task.done():   # it could not start (its broker refused, ...): say why
                await task
            if hub_.console is not None:
                print(f"director console: {hub_.console.url}", flush=True)
                if hub_.console.host in ("0.0.0.0", "::", ""):   # no address to open
                    import socket
                    name = (args.console_allowed_host or [socket.gethostname()])[0]
                    scheme = hub_.console.url.split(":", 1)[0]
                    print(f"  (every address of this computer: open it as {scheme}://{name}:"
                          f"{hub_.console.port}/ or by this computer's address on the "
                          "club's network)", flush=True)
            if hub_.bridgemate is not None:
                print(f"Bridgemate Data Connector: {hub_.bridgemate.url}", flush=True)
            intake = _sim_intake(hub_, args.sim_kit)
            print("hub ready", flush=True)
            try:
                await task
            finally:
                if intake is not None:
                    intake.close()

        from wire.errors import MqttError
        try:
            asyncio.run(main())
        except OSError as err:    # the console's address is taken or not ours
            raise CommandError(f"the hub could not start: {err}") from err
        except MqttError as err:  # e.g. its broker's certificate refused
            raise CommandError(f"the hub could not start: {err}") from err
        finally:
            hub_.log.close()
    return 0


def _shard(args: argparse.Namespace) -> tuple[Any, str]:
    """(the hub.shards.Shard this hub is, or None; its data directory): ``--shard K``, of
    ``--of N`` shards, or of the ``shards`` the event's set-up says (the file's, or the
    shard's log's when it holds the event already); its log in ``--data``/shard-K."""
    if args.shard is None:
        if args.of is not None:
            raise CommandError("--of: only with --shard")
        return None, args.data
    from hub.errors import ConfigError
    from hub.shards import SHARD_DIRECTORY, Shard

    if not args.broker:
        raise CommandError("--shard: the shards of an event share one broker (Mosquitto): "
                           "give --broker")
    data = str(Path(args.data) / SHARD_DIRECTORY.format(index=args.shard))
    count = args.of
    if count is None:
        setup = setup_from_args(args) if args.event else None
        count = setup.shards if setup is not None else _logged_shards(data)
    try:
        return Shard(args.shard, count), data
    except ConfigError as err:
        raise CommandError(str(err)) from err


def _logged_shards(data: str) -> int:
    """The ``shards`` of the set-up a shard's log holds (1 when it holds none)."""
    if not _has_event(data):
        return 1
    from hub.store import LOG_NAME, EventLog, StoreError

    try:
        with EventLog.open(Path(data) / LOG_NAME, verify=False, note_head=False) as logged:
            for record in logged.replay():
                event = record.data().get("event") or {}
                return int(event.get("shards", 1))
    except (StoreError, ValueError, TypeError, AttributeError) as err:
        raise CommandError(f"{data}: the set-up of its log cannot be read: {err}") from err
    return 1


def _restricted(shard: Any, setup: Any) -> Any:
    """A shard's own set-up: its sections of the event's (hub.shards)."""
    from hub.errors import ConfigError

    if not hasattr(setup, "sections"):
        raise CommandError("--shard: the event must be set up (--event FILE or --tables)")
    try:
        return shard.restrict(setup)
    except ConfigError as err:
        raise CommandError(str(err)) from err


def _sim_intake(hub_: Any, kit: str | None) -> Any:
    """With ``--sim-kit``: the organiser's deals handed to the set-up (hub.simultaneous)."""
    if kit is None:
        return None
    from hub.simultaneous import SimError
    from hub.simultaneous.handover import DealsIntake
    try:
        intake = DealsIntake(hub_, Path(kit)).start()
    except SimError as err:
        hub_.stop()
        raise CommandError(str(err)) from err
    print(f"simultaneous {intake.event}: the deals come from {Path(kit) / 'deals.signed'}",
          flush=True)
    return intake


def _console_options(args: argparse.Namespace) -> dict[str, Any]:
    """The console's users (users.json in the data directory) and the names it answers to."""
    import shlex

    from hub.users import UserStore

    return {"users": UserStore.in_directory(args.data),
            "tls": None if args.console_plain else _console_tls(args),
            "allowed_hosts": list(args.console_allowed_host or ()),
            "create_director": "tenace users add NAME --role director --data "
                               + shlex.quote(str(args.data))}


def _pairing(args: argparse.Namespace, url: str, ca: str | None) -> Any:
    """The console's pairing of devices (hub.pairing): the accounts of --deploy DIR or of
    the data directory; devices are told the broker ``--pair-broker`` names, else this one's
    scheme and port with the host they called the console by (``*``); with TLS, the club's
    CA; the devices are the event's (the console asks the hub). None with an external
    broker and no deploy directory (the hub holds no accounts)."""
    from hub.accounts import Accounts
    from hub.pairing import Pairing
    from wire.mqtt import parse_url

    if args.broker and not args.deploy:
        return None
    folder = Path(args.deploy or args.data)
    broker = args.pair_broker
    if broker is None:
        address = parse_url(url)
        scheme = "mqtts" if address.tls else "mqtt"
        broker = f"{scheme}://*:{address.port}"
    ca_pem = None
    if ca is not None:
        try:
            ca_pem = Path(ca).read_bytes()
        except OSError as err:
            raise CommandError(f"the CA certificate {ca}: {err}") from err
    reload = None
    if args.broker_reload:
        import shlex
        import subprocess
        words = shlex.split(args.broker_reload)

        def reload() -> None:   # e.g. systemctl reload mosquitto: it re-reads its files
            done = subprocess.run(words, capture_output=True, text=True, timeout=30,
                                  check=False)
            if done.returncode != 0:
                log.error("--broker-reload %s failed (%d): %s", words[0], done.returncode,
                          (done.stderr or done.stdout).strip()[:300])
    return Pairing(Accounts(folder), args.data, broker=broker, ca_pem=ca_pem, reload=reload,
                   deploy=Path(args.deploy) if args.deploy else None)


def _console_tls(args: argparse.Namespace) -> tuple[str, str] | None:
    """The console's HTTPS certificate chain and key: the broker's (--tls-cert/--tls-key, or
    --deploy DIR's broker.crt and broker.key, also beside an external broker), else None."""
    cert, key, _ = _tls_files(args)
    if cert is None or key is None or not (Path(cert).is_file() and Path(key).is_file()):
        return None
    return cert, key


def _tls_files(args: argparse.Namespace) -> tuple[str | None, str | None, str | None]:
    """(certificate chain, key, CA) named by --tls-cert, --tls-key and --tls-ca, else by
    --deploy DIR's broker.crt, broker.key and ca.crt, else None."""
    deploy = Path(args.deploy) if args.deploy else None
    return (args.tls_cert or (str(deploy / "broker.crt") if deploy else None),
            args.tls_key or (str(deploy / "broker.key") if deploy else None),
            args.tls_ca or (str(deploy / "ca.crt") if deploy else None))


def _tls(args: argparse.Namespace) -> tuple[tuple[str, str] | None, str | None]:
    """((certificate chain, key) of the embedded broker, or None; the CA the hub verifies
    its broker with) from --deploy DIR and the --tls-* options."""
    cert, key, ca = _tls_files(args)
    if args.broker:   # an external broker: only its CA matters
        return None, ca
    if (cert is None) != (key is None):
        raise CommandError("--tls-cert and --tls-key go together")
    if cert is None or key is None:
        if ca is not None:
            raise CommandError("--tls-ca without --tls-cert/--tls-key (or --broker)")
        return None, None
    for option, path in (("--tls-cert", cert), ("--tls-key", key), ("--tls-ca", ca)):
        if path is not None and not Path(path).is_file():
            raise CommandError(f"{option} {path}: no such file (tenace deploy init writes it)")
    return (cert, key), ca or cert   # deploy init's broker.crt holds the CA after the leaf


def _hub_account(args: argparse.Namespace) -> tuple[Path | None, Any]:
    """(the accounts file the embedded broker checks, the hub's own credentials): with
    --deploy DIR, DIR's accounts and the hub's password kept there (tenace deploy init);
    else, for the embedded broker, the data directory's accounts with a new password for
    the hub at every start; with an external broker and no deploy directory, the URL's."""
    from hub.accounts import AccountError, Accounts
    from hub.deploy import DeployError, hub_credentials

    try:
        if args.deploy:
            credentials = hub_credentials(args.deploy)
            accounts = Accounts(args.deploy)
            if credentials is None and not args.broker:
                credentials = accounts.issue("tenace-hub")
            return (None if args.broker else accounts.path), credentials
        if args.broker:
            return None, None
        accounts = Accounts(args.data)
        return accounts.path, accounts.issue("tenace-hub")  # a new password at every start
    except (AccountError, DeployError) as err:
        raise CommandError(str(err)) from err


def add_hub_parser(sub: Any) -> None:
    p = sub.add_parser(
        "hub", help="run the hub: every table's state, detection, the director's console",
        description="Run the hub. Without --broker it starts an embedded MQTT broker. "
                    "--data holds the append-only event log: on start the hub rebuilds every "
                    "table from it. A new event needs --event FILE.toml or --tables N.")
    p.add_argument("job", nargs="?", choices=["run", "status"], default="run",
                   help="run (default): run the hub; status: print a running hub's counters "
                        "from its retained hub/status (the console may be off)")
    p.add_argument("--broker", help="external broker URL, e.g. mqtt://user:pass@host:1883 "
                                    "(status: the hub's broker, default "
                                    "mqtt://127.0.0.1:1883)")
    p.add_argument("--listen",
                   help="where the embedded broker listens (default 0.0.0.0:1883, or "
                        "0.0.0.0:8883 with TLS)")
    tls = p.add_argument_group("TLS (tenace deploy init writes the files)")
    tls.add_argument("--deploy", metavar="DIR",
                     help="the deploy directory: TLS with its broker.crt, broker.key, ca.crt; "
                          "the MQTT accounts and the hub's own password written there")
    tls.add_argument("--tls-cert", metavar="FILE",
                     help="the embedded broker listens with TLS: its certificate chain")
    tls.add_argument("--tls-key", metavar="FILE", help="the certificate's private key")
    tls.add_argument("--tls-ca", metavar="FILE",
                     help="the authority the hub verifies its broker with (default: the "
                          "deploy directory's ca.crt, else the --tls-cert chain)")
    tls.add_argument("--plain-listen", metavar="HOST:PORT",
                     help="with TLS, also a plain MQTT port (default: none)")
    sh = p.add_argument_group("an event shared among several hub processes (docs/deploying.md)")
    sh.add_argument("--shard", type=int, metavar="K",
                    help="run shard K (from 0): the sections whose place in the set-up is K "
                         "modulo the number of shards, its log in DATA/shard-K; needs "
                         "--broker, the broker every shard and device shares (status: "
                         "shard K's own status)")
    sh.add_argument("--of", type=int, metavar="N",
                    help="the number of shards (default: the set-up's shards key)")
    p.add_argument("--data", default="tenace-data",
                   help="data directory for the event log (default ./tenace-data)")
    p.add_argument("--durability", choices=["process", "power"], default="process",
                   help="process: survives a crash of the hub (default); power: also a power "
                        "cut (slower)")
    p.add_argument("--console", default="127.0.0.1:8080",
                   help="director console address HOST:PORT, or off (default 127.0.0.1:8080)")
    p.add_argument("--console-allowed-host", action="append", metavar="NAME",
                   help="a host name the console may be called by, besides IP addresses, "
                        "localhost and this machine's name (repeat for more); any other is "
                        "refused (DNS rebinding)")
    p.add_argument("--console-plain", action="store_true",
                   help="serve the console over plain HTTP even when the hub has the club's "
                        "certificate (--deploy or --tls-cert): only behind a TLS proxy, since "
                        "console passwords and pairing answers would cross the network in clear")
    p.add_argument("--pair-broker", metavar="URL",
                   help="the broker URL devices paired on the console are given (default: "
                        "this hub's broker, by the name the device called the console by)")
    p.add_argument("--broker-reload", metavar="COMMAND",
                   help="with an external Mosquitto: the command that makes it re-read its "
                        "password and ACL files after a device is paired or revoked on the "
                        "console, e.g. 'sudo systemctl reload mosquitto' (the embedded broker "
                        "needs none)")
    p.add_argument("--no-double-dummy", action="store_true",
                   help="no double-dummy tables on the tablets' result screens (with the "
                        "'analysis' extra they are solved on a worker, once per board)")
    p.add_argument("--bridgemate", nargs="?", const="5079", metavar="[HOST:]PORT",
                   help="answer the Bridgemate Data Connector API (BCS 5) for a scoring "
                        "program: it sets the event up (default off; port 5079, host "
                        "127.0.0.1)")
    p.add_argument("--sim-kit", metavar="KIT",
                   help="the club plays a simultaneous event: take the organiser's deals "
                        "into the event's set-up as tenace sim-event club receives them "
                        "(KIT/deals.signed, its signature checked against KIT/organiser.pub; "
                        "anything else refused and logged)")
    p.add_argument("--clock-tolerance", type=_tolerance, metavar="SECONDS|off",
                   help="how far a device's clock may be from the hub's (default: the "
                        "event's, 120 s unless its file says otherwise; off: no check)")
    p.add_argument("--offline-grace", type=float, metavar="SECONDS",
                   help="how long a device that dropped off has to come back before the "
                        "director is alerted (default 15; a broker restart drops them all)")
    st = p.add_argument_group("tenace hub status")
    st.add_argument("--account", default="scorer",
                    help="the account to read hub/status with (default scorer; its password "
                         "from the --broker URL or the keyring, TENACE_MQTT_KEYRING). An "
                         "account connects once: a program connected with it is dropped for "
                         "a moment (it reconnects); director.watch avoids that")
    st.add_argument("--timeout", type=float, default=5.0,
                    help="seconds to wait for the retained status (default 5)")
    st.add_argument("--json", action="store_true", help="print the status as received")
    add_event_arguments(p)
    p.add_argument("--next-session", action="store_true",
                   help="with --event: the next session of the data directory's log (the "
                        "session it holds is stored, its results kept for the event's total "
                        "and the club's ladder); the same command again goes on with it")
    p.add_argument("-v", "--verbose", action="store_true")
    p.set_defaults(run=hub)


def _tolerance(text: str) -> float | bool:
    """``--clock-tolerance``: seconds (> 0), or off (False)."""
    if text.strip().lower() in ("off", "false", "no"):
        return False
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seconds or off, not {text!r}") from None
    if not value > 0 or value != value or value == float("inf"):
        raise argparse.ArgumentTypeError(f"a number of seconds above 0, or off, not {text!r}")
    return value


def hub_status(args: argparse.Namespace) -> int:
    """``tenace hub status``: the retained ``hub/status`` of a running hub (``--shard K``:
    that shard's own, ``hub/shard/K/status``), read with the scorer's (or ``--account``'s)
    credentials, printed (the console may be off). Exit 0 online, 1 offline or nothing
    retained, 2 no broker."""
    import json
    import queue

    from wire.errors import MqttError
    from wire.mqtt import MqttClient
    from wire.protocol import ProtocolError, topic_hub_status, topic_shard_status

    try:
        topic = topic_hub_status() if args.shard is None else topic_shard_status(args.shard)
    except ProtocolError as err:
        raise CommandError(err.reason) from err
    url = args.broker or "mqtt://127.0.0.1:1883"
    try:
        with MqttClient(url, args.account, clean_session=True) as client:
            client.wait_connected(args.timeout)
            client.subscribe(topic, 1, timeout=args.timeout)
            try:
                message = client.messages.get(timeout=args.timeout)
            except queue.Empty:
                print(f"no {topic.split('/', 2)[2]} retained on this broker: no hub (shard) "
                      "has run here")
                return 1
    except MqttError as err:
        raise CommandError(str(err)) from err
    text = message.payload.decode("utf-8", "replace")
    if args.json:
        print(text)
    else:
        try:
            print("\n".join(status_lines(json.loads(text))))
        except (ValueError, AttributeError, TypeError):
            print(text)
            return 1
    return 0 if '"online":true' in text.replace(" ", "") else 1


def status_lines(status: dict[str, Any]) -> list[str]:
    """``hub/status`` (wire.views.HubStatus) as lines for a person."""
    import time

    if not status.get("online"):
        return ["hub offline"]
    started = status.get("started")
    lines = ["hub online" + ("" if started is None else " since " + time.strftime(
        "%Y-%m-%d %H:%M:%S", time.localtime(float(started)))) + (
        f", {status['tables']} tables" if "tables" in status else "")]
    counters = status.get("counters") or {}
    if counters:
        lines.append(f"events accepted {counters.get('accepted', 0)}, duplicates "
                     f"{counters.get('duplicates', 0)}, sequence gaps {counters.get('gaps', 0)}")
        lines.append(f"queue {counters.get('queue', 0)}, devices online "
                     f"{counters.get('devices', 0)}")
        refused = counters.get("refused") or {}
        lines.append("refused: " + (", ".join(f"{code} {n}" for code, n in refused.items())
                                    or "none"))
    if "chain" in status:
        lines.append(f"log head {status['chain']}")
    if "chain_broken" in status:
        lines.append(f"LOG: hash chain broken at record {status['chain_broken']}")
    if status.get("set_aside"):
        lines.append("LOG: records set aside (not applied): "
                     + ", ".join(str(p) for p in status["set_aside"]))
    if status.get("log_behind"):
        lines.append(f"LOG: {status['log_behind']} acknowledged records were missing at start")
    return lines


def add_event_arguments(p: argparse.ArgumentParser, *, tables: int | None = None) -> None:
    g = p.add_argument_group("the event (for a new data directory)")
    g.add_argument("--event", help="event set-up file (TOML): sections, movements, boards")
    g.add_argument("--tables", type=int, default=tables, help="quick set-up: number of tables")
    g.add_argument("--movement", choices=["mitchell", "howell", "teams"], default="mitchell")
    g.add_argument("--boards-per-round", type=int, default=2)
    g.add_argument("--rounds", type=int, help="rounds to play (default: the whole movement)")
    g.add_argument("--seed", help="BigDeal seed for the deals (40 hex digits); default secure")
    g.add_argument("--edition", choices=["1997", "2007", "2017"], default="2017")
    g.add_argument("--minutes-per-round", type=float, default=15.0)
    g.add_argument("--language", default="",
                   help="the results files' words: en (default), fr, it, de, nl, es, pl")


def replay(args: argparse.Namespace) -> int:
    """``tenace replay``: a game record through the live system, as its devices would."""
    import json

    from hub.service import HubRunner
    from tenace.commands import read_records
    from tenace.replay import board_line, plan_replay
    from tenace.sim.driver import DriverError, run_tables
    from tenace.sim.observer import Observer

    records = read_records(args.file)
    plan = plan_replay(records, _edition(args.edition))
    scripts = plan.scripts()
    logging.basicConfig(level=logging.WARNING)
    with own_accounts(args.broker, plan.setup) as accounts, \
            _broker(args.broker, ("127.0.0.1", 0), accounts) as url:
        hub_ = _open_hub(url, None, plan.setup, None)
        refused: dict[str, list[str]] = {}
        with HubRunner(hub_), Observer(url, states=True) as director:
            tables = list(scripts)
            for i in range(0, len(tables), _CHUNK):  # a connection per table: a few at once
                try:
                    runs = run_tables(url, {t: scripts[t] for t in tables[i:i + _CHUNK]},
                                      announce=False)
                except DriverError as err:
                    raise CommandError(str(err)) from err
                for table, run in runs.items():
                    refused[table] = [f"the hub refused {env.type} {env.body}: {reply.code}: "
                                      f"{reply.reason}" for env, reply in run.rejected]
            director.settle()
            alerts = director.alert_list()
            lines = [board_line(p, director.results.get((p.table, p.round, p.board)), alerts,
                                director.states.get(p.table), refused.get(p.table, []))
                     for p in plan.boards]
    for line in lines:
        if args.json:
            print(json.dumps(line, ensure_ascii=False))
        else:
            _print_line(line)
    return 0


_CHUNK = 32


def _edition(name: str) -> Any:
    from bridgecore.editions import edition
    return edition(name)


def _print_line(line: dict[str, Any]) -> None:
    head = f"Board {line['board']}: "
    if line["contract"] is None:
        head += "no contract"
    elif line["contract"] == "PASS":
        head += "passed out"
    else:
        head += (f"{line['contract']} by {line['declarer']}, {line['tricks']} tricks"
                 + ("" if line["tricks_rectified"] == line["tricks"]
                    else f" ({line['tricks_rectified']} after Law 64)")
                 + ("" if line["score_ns"] is None else f", NS {line['score_ns']:+d}"))
    print(head)
    for irr in line["irregularities"]:
        print(f"  Law {irr['law']}: {irr.get('detail') or irr['kind']}")
    for problem in line.get("problems", []):
        print(f"  problem: {problem}")


def add_replay_parser(sub: Any) -> None:
    p = sub.add_parser(
        "replay", help="play a game record through the live hub, as its devices would",
        description="Each board of a PBN or LIN record is played through a hub and a broker "
                    "(calls from a tablet, cards from the card readers); prints what the "
                    "director was told, board by board, like tenace check. Without --broker "
                    "it starts an embedded broker; with one, it runs its own hub there (not "
                    "a broker where a session is being played).")
    p.add_argument("file", help="a .pbn or .lin file")
    p.add_argument("--edition", choices=["1997", "2007", "2017"], default="2017")
    p.add_argument("--broker", help="broker URL, e.g. mqtt://127.0.0.1:1883 (Mosquitto)")
    p.add_argument("--json", action="store_true", help="JSON Lines, as tenace check --json")
    p.set_defaults(run=replay)
