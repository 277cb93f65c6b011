"""Brokers for the benchmarks: Mosquitto (the Debian package) or the embedded amqtt one.

With ``access`` (the default, as in production) the broker checks accounts and topic access
(hub/accounts.py, hub/access.py): every account of a ``tables``-table event and the
benchmark's own tools are issued in a temporary directory, their passwords in a keyring
(``TENACE_MQTT_KEYRING``, inherited by the hub's process). Without it the broker is open
(``--no-access``: the cost of the controls is the difference).
"""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path

from hub.accounts import Accounts, write_keyring
from hub.broker import EmbeddedBroker
from hub.mosquitto import Mosquitto
from hub.tls import write_club_pki
from wire.mqtt import using_keyring

# The benchmarks' own clients: hub-role accounts (they publish for every table at once).
BENCH_ACCOUNTS = {"tenace-hub": "hub", "tenace-hub.bench": "hub", "tenace-hub.probe": "hub",
                  "director": "director", "director.watch": "director"}


@contextlib.contextmanager
def _keyring(folder: Path, tables: int, extra: Mapping[str, str]) -> Iterator[Accounts]:
    accounts = Accounts(folder / "accounts")
    names = dict(BENCH_ACCOUNTS, **extra)
    for n in range(1, tables + 1):
        for device in ("tab", "rdr", "N", "E", "S", "W"):
            names[f"A{n}-{device}"] = {"tab": "table", "rdr": "reader"}.get(device, "seat")
    path = write_keyring(folder / "keyring.json", accounts.issue_all(names))
    with using_keyring(path):
        yield accounts


@contextlib.contextmanager
def broker(kind: str, *, access: bool = True, tables: int = 0,
           extra: Mapping[str, str] | None = None, tls: bool = False) -> Iterator[str]:
    """The URL of a fresh broker of ``kind`` ("mosquitto" or "amqtt"), stopped afterwards;
    ``access`` as in the module docstring (``extra``: more accounts, name -> role). With
    ``tls`` it listens with TLS only, its certificates made by hub.tls as ``tenace deploy
    init`` makes them (the URL is ``mqtts://...?ca=``)."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        pki = write_club_pki(folder / "pki", ["localhost"]) if tls else None
        with contextlib.ExitStack() as stack:
            accounts = stack.enter_context(_keyring(folder, tables, extra or {})) \
                if access else None
            if kind == "amqtt":
                embedded = stack.enter_context(EmbeddedBroker(
                    "127.0.0.1", 0, accounts=None if accounts is None else accounts.path,
                    open_access=accounts is None,
                    tls=None if pki is None else (str(pki.broker_cert), str(pki.broker_key)),
                    ca_file=None if pki is None else str(pki.ca_cert)))
                yield embedded.url
                return
            real = stack.enter_context(Mosquitto(
                folder / "mosquitto", ("max_inflight_messages 1000",), queued=0,
                accounts=accounts, open_access=accounts is None,
                tls=None if pki is None else (pki.ca_cert, pki.broker_cert, pki.broker_key)))
            yield real.url
