"""``tenace replay`` through a real broker and a real hub agrees with the same records applied
straight to a room (tests/tenace/test_replay.py compares that with ``tenace check`` on every
real file): so the live path tells the director what the offline audit finds."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from hub.mosquitto import Mosquitto
from tenace.cli import main
from tenace.commands import read_records
from tenace.replay import replay_local
from tests.conftest import REALDATA, Keyring

# The live path opens a connection per table (one table per board): the files up to 80
# boards, the ones written to hold irregularities first among them.
FILES = [p for p in sorted([*REALDATA.rglob("*.pbn"), *REALDATA.rglob("*.lin")])
         if len(read_records(str(p))) <= 80]


@pytest.fixture(scope="module")
def mosquitto(tmp_path_factory: pytest.TempPathFactory, keyring: Keyring) -> Iterator[Mosquitto]:
    """One Mosquitto for every file (each replay runs its own hub with a fresh log)."""
    keyring.issue_all({f"R{n}-{device}": None for n in range(1, 101)  # the replay's tables
                       for device in ("tab", "rdr")})
    with Mosquitto(tmp_path_factory.mktemp("mosquitto"), accounts=keyring.accounts) as broker:
        yield broker


def live(path: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> list[dict[str, object]]:
    assert main(["replay", str(path), "--json", *extra]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_enough_real_files_are_replayed_live() -> None:
    names = {p.name for p in FILES}
    assert len(FILES) >= 15 and "pbn_verifier_errors_10.pbn" in names


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_live_replay_through_mosquitto_agrees_with_the_room(
        path: Path, mosquitto: Mosquitto, capsys: pytest.CaptureFixture[str]) -> None:
    """Laws 1-91 as the audit applies them: every finding the hub's alerts carry."""
    assert live(path, capsys, "--broker", mosquitto.url) == replay_local(str(path), "2017")


@pytest.mark.parametrize("edition", ["1997", "2007", "2017"])
def test_live_replay_with_the_embedded_broker_in_every_edition(
        edition: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Laws 27, 30-32, 53-56, 61-64 in the three editions, on the PBN standard's error file."""
    path = REALDATA / "pbn-conformance" / "pbn_verifier_errors_10.pbn"
    got = live(path, capsys, "--edition", edition)
    assert got == replay_local(str(path), edition)
    assert sum(len(line["irregularities"]) for line in got) >= 10  # type: ignore[arg-type]
