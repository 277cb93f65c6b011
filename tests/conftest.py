"""Shared test fixtures: where the real data files are (tests/data/realdata), and the MQTT
accounts every broker of the tests checks (hub/accounts.py)."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

REPO = Path(__file__).resolve().parents[1]
REALDATA = REPO / "tests" / "data" / "realdata"

# Hypothesis keeps its examples and caches out of the repository: in HYPOTHESIS_STORAGE_DIRECTORY
# when set, else in a temporary folder of this checkout's own (shared by xdist's workers).
# No Hypothesis deadline: a wall-clock limit per example fails on a busy machine, not on slow
# code (a test that wants one sets it with @settings).
settings.register_profile("tenace", deadline=None)
settings.load_profile("tenace")

if not os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY"):
    from hypothesis.configuration import set_hypothesis_home_dir
    _checkout = hashlib.sha256(str(REPO).encode()).hexdigest()[:12]
    set_hypothesis_home_dir(Path(tempfile.gettempdir()) / f"tenace-hypothesis-{_checkout}")

# The tables whose devices have an account from the start (sections A and B, replays of up
# to 100 tables, and the wire tests' t3).
TEST_TABLES = (*(f"A{n}" for n in range(1, 101)), *(f"B{n}" for n in range(1, 9)), "t3")
# tenace-hub.observer: a hub-role account for the tests that truly observe everything.
TEST_TOOLS = {"tenace-hub": "hub", "tenace-hub.observer": "hub",
              "tenace-hub.observer2": "hub", "director": "director",
              "director.watch": "director",
              "scorer": "scorer", "results": "results", "dealer-1": "dealer",
              "dealer-2": "dealer", "dealer-3": "dealer"}


@pytest.fixture(scope="session")
def realdata() -> Path:
    """tests/data/realdata: real files written by other programs (its SOURCES.md says where
    each came from). Their absence is a failure, not a skip."""
    assert REALDATA.is_dir(), f"real data files not found at {REALDATA}"
    return REALDATA


class Keyring:
    """The tests' accounts (one store for the session, every broker of the tests reads it)
    and the keyring file that gives every client of the tests its password by client id
    (``TENACE_MQTT_KEYRING``, wire/mqtt.py), subprocesses included."""

    def __init__(self, folder: Path):
        from hub.access import device_role
        from hub.accounts import Accounts
        self.accounts = Accounts(folder / "accounts")
        self.path = folder / "keyring.json"
        names = dict(TEST_TOOLS)
        for table in TEST_TABLES:
            for device in (f"{table}-tab", *(f"{table}-{s}" for s in "NESW"), f"{table}-rdr"):
                names[device] = str(device_role(device))
        self.passwords = {c.username: c.password for c in self.accounts.issue_all(names)}
        self._save()
        self.reloads: list[Any] = []  # what to call after a change (Mosquitto's SIGHUP)

    def _save(self) -> None:
        self.path.write_text(json.dumps(self.passwords))
        self.path.chmod(0o600)

    def issue(self, name: str, role: str | None = None) -> Any:
        """A new password for ``name`` (in the keyring too); the brokers told."""
        credentials = self.accounts.issue(name, role)
        self.passwords[name] = credentials.password
        self._save()
        self._reload()
        return credentials

    def issue_all(self, names: dict[str, str | None]) -> None:
        """Issue every account of ``names`` (name -> role, None: its name's), saved once."""
        for credentials in self.accounts.issue_all(names):
            self.passwords[credentials.username] = credentials.password
        self._save()
        self._reload()

    def revoke(self, name: str) -> None:
        self.accounts.revoke(name)
        self._reload()

    def url(self, broker_url: str, name: str) -> str:
        """``broker_url`` with ``name``'s credentials."""
        from hub.accounts import Credentials
        return Credentials(name, self.passwords[name]).url(broker_url)

    def _reload(self) -> None:
        for reload in list(self.reloads):
            reload()


@pytest.fixture(scope="session")
def keyring(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Keyring]:
    """The session's accounts; ``TENACE_MQTT_KEYRING`` names its keyring from now on."""
    from wire.mqtt import using_keyring
    ring = Keyring(tmp_path_factory.mktemp("keyring"))
    with using_keyring(ring.path):
        yield ring



if os.environ.get("TENACE_LEAK_REPORT"):
    # Diagnostic, off by default: after each test, collect the garbage and write down every
    # socket or transport it left open, with the test's id, to the file named. A leak found
    # later by the garbage collector is otherwise blamed on whichever test runs next.
    import gc
    import warnings

    @pytest.fixture(autouse=True)
    def _leak_report(request: pytest.FixtureRequest) -> Iterator[None]:
        yield
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", ResourceWarning)
            gc.collect()
        leaks = [str(w.message) for w in caught if issubclass(w.category, ResourceWarning)]
        if leaks:
            with open(os.environ["TENACE_LEAK_REPORT"], "a", encoding="utf-8") as report:
                for leak in leaks:
                    report.write(f"{request.node.nodeid}\t{leak}\n")
