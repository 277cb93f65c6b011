"""``tenace sim --hub URL --console URL``: an event the director set up on the console, its
deals dealt by the hub (no seed anyone knows), played by the simulator to its results
(issue 25). The simulator learns the deals from the console with the director's account
(``GET /api/setup/deals``), never a device's; the results it published equal a clean run
of the same script."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hub.event import WaitingSetup
from hub.mosquitto import Mosquitto
from tenace.cli import main
from tenace.live import running_hub
from tests.conftest import Keyring
from tests.hub.test_console import PASSWORDS, Login, make_users
from tests.hub.test_console_session import fetch
from tests.hub.test_results_pages import post


@pytest.fixture
def mosquitto(tmp_path: Path, keyring: Keyring) -> Iterator[Mosquitto]:
    with Mosquitto(tmp_path / "mosquitto", accounts=keyring.accounts) as broker:
        yield broker


def test_sim_plays_an_event_set_up_on_the_console(
        tmp_path: Path, mosquitto: Mosquitto, keyring: Keyring,
        capsys: pytest.CaptureFixture[str]) -> None:
    users = make_users(tmp_path / "users")
    with running_hub(mosquitto.url, None, WaitingSetup(), console=("127.0.0.1", 0),
                     console_users=users) as (hub, url):
        console = hub.call(lambda: hub.console)
        Login.director(console)
        # the director sets a 3-table Mitchell up, the boards dealt by the hub
        status, answer = post(console.url + "api/setup", {
            "event": {"name": "Console evening", "minutes_per_round": 20},
            "sections": [{"name": "A", "movement": "mitchell", "tables": 3,
                          "boards_per_round": 2, "rounds": 2}]})
        assert status == 200, answer
        _, _, body = fetch(console.url + "api/setup", Login.of_port[console.port])
        public: dict[str, Any] = json.loads(body)["setup"]
        assert set(public["boards"]) == {"source", "numbers"}  # GET /api/setup: no deal
        assert "N:" not in json.dumps(public)
        # the deals: the director's alone (a scorer, a viewer, nobody else)
        for name in ("sam", "vic"):
            other = Login(console)
            assert other.login(name)[0] == 200
            assert fetch(console.url + "api/setup/deals", other)[0] == 403
        assert fetch(console.url + "api/setup/deals")[0] == 401
        secret = tmp_path / "director-password"
        secret.write_text(PASSWORDS["dora"] + "\n")
        wrong = tmp_path / "wrong-password"
        wrong.write_text("not-the-password\n")
        args = ["sim", "--json", "--hub", url, "--console", console.url, "--director", "dora",
                "--seed", "5", "--inject", "revoke=0.3,insufficient_bid=0.3"]
        assert main([*args, "--password-file", str(wrong)]) == 2
        assert "401 wrong name or password" in capsys.readouterr().err
        assert main([*args, "--password-file", str(secret)]) == 0
        report: dict[str, Any] = json.loads(capsys.readouterr().out)
        scored = hub.call(lambda: [len(hub.room.scoring.section("A").card(p))
                                   for p in hub.room.sections[0].movement.pairs])
    assert report["missed"] == [] and report["false_alarms"] == []
    assert "rejected" not in report and report["detected"] == report["injected"]
    assert report["results_equal"] is True           # the hub's results, as a clean run's
    assert all(n == 4 for n in scored)                # every pair: 2 rounds of 2 boards
