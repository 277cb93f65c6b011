"""``tenace accounts shards`` and ``tenace hub --shard``: the shards' accounts issued from the
event's set-up, and a plan that cannot run refused with its reason before anything starts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hub.accounts import Accounts
from tenace.cli import main

EVENT = """\
[event]
name = "Championship"
shards = 2
one_field = true

[boards]
generate = true
seed = "0123456789abcdef0123456789abcdef01234567"

[[section]]
movement = "mitchell"
tables = 3
boards_per_round = 1

[[section]]
movement = "mitchell"
tables = 3
boards_per_round = 1

[[section]]
movement = "mitchell"
tables = 3
boards_per_round = 1
"""


def test_each_shard_gets_an_account_that_names_its_own_tables(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    event = tmp_path / "event.toml"
    event.write_text(EVENT)
    assert main(["accounts", "shards", "--event", str(event), "--data",
                 str(tmp_path / "data")]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [x["username"] for x in lines] == ["tenace-hub-0", "tenace-hub-1"]
    assert all(x["role"] == "shard" and x["password"] in x["url"] for x in lines)
    accounts = Accounts(tmp_path / "data")
    assert accounts.verify("tenace-hub-1", lines[1]["password"])
    # Sections A and C are shard 0's, B shard 1's: its ACL block names B's tables only.
    acl = (tmp_path / "data" / "mosquitto.acl").read_text().split("user tenace-hub-1")[1]
    assert "t/B1/state" in acl and "results/ranking/B" in acl
    assert "t/A1/" not in acl and "results/ranking/C" not in acl


@pytest.mark.parametrize(("words", "says"), [
    (["--shard", "2", "--of", "2", "--broker", "mqtt://127.0.0.1:1"], "numbered 0 to 1"),
    (["--shard", "0"], "give --broker"),
    (["--of", "2"], "--of: only with --shard"),
    ([], "shared among 2 hub processes"),
    (["--shard", "0", "--of", "4", "--broker", "mqtt://127.0.0.1:1"],
     "4 shards for 3 sections"),
])
def test_a_shard_plan_that_cannot_run_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], words: list[str],
        says: str) -> None:
    event = tmp_path / "event.toml"
    event.write_text(EVENT)
    assert main(["hub", "--event", str(event), "--data", str(tmp_path / "data"),
                 "--console", "off", *words]) == 2
    assert says in capsys.readouterr().err
