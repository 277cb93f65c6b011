"""``tenace sim`` through real brokers and a real hub: every kind injected is detected, nothing
else is alerted, and a seed makes a run reproducible."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from hub.mosquitto import Mosquitto
from tenace.cli import main
from tenace.sim.script import BOARD_KINDS, INJECTABLE

EVERY_KIND = ",".join(f"{k}={0.9 / len(BOARD_KINDS):.3f}" for k in BOARD_KINDS) + \
    "," + ",".join(f"{k}=0.2" for k in INJECTABLE if k not in BOARD_KINDS)


@pytest.fixture(scope="module")
def mosquitto(tmp_path_factory: pytest.TempPathFactory, keyring: Any) -> Iterator[Mosquitto]:
    with Mosquitto(tmp_path_factory.mktemp("mosquitto"), accounts=keyring.accounts) as broker:
        yield broker


def sim(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["sim", "--json", *args]) == 0
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    return report


def test_every_injected_irregularity_reaches_the_director_through_mosquitto(
        mosquitto: Mosquitto, capsys: pytest.CaptureFixture[str]) -> None:
    """Laws 5B, 7, 9B1, 15, 15B, 27, 28-29, 54, 57, 61-64, 68-70, 79A, 87 over MQTT."""
    report = sim(capsys, "--tables", "5", "--boards", "2", "--rounds", "4", "--seed", "11",
                 "--inject", EVERY_KIND, "--broker", mosquitto.url)
    assert report["missed"] == [] and report["false_alarms"] == []
    assert "rejected" not in report
    assert sum(report["injected"].values()) >= 12 and len(report["injected"]) >= 8
    assert report["detected"] == report["injected"]
    assert report["events"] > 500 and report["seconds"] > 0


def test_a_seed_makes_the_run_reproducible_with_the_embedded_broker(
        capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--tables", "3", "--boards", "2", "--rounds", "2", "--seed", "5",
            "--inject", "revoke=0.3,insufficient_bid=0.3,wrong_direction=0.3")
    first, second = sim(capsys, *args), sim(capsys, *args)
    for report in (first, second):
        assert report["missed"] == [] and report["false_alarms"] == []
        assert sum(report["injected"].values()) > 0
    assert {k: v for k, v in first.items() if k != "seconds"} == \
        {k: v for k, v in second.items() if k != "seconds"}


def test_no_injection_no_alert(mosquitto: Mosquitto,
                               capsys: pytest.CaptureFixture[str]) -> None:
    report = sim(capsys, "--tables", "3", "--boards", "2", "--rounds", "2", "--seed", "3",
                 "--broker", mosquitto.url)
    assert report["injected"] == {} and report["detected"] == {}
    assert report["false_alarms"] == []


def test_bad_rates_are_refused_with_a_reason(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--inject", "revoke=lots"]) == 2
    assert "--inject" in capsys.readouterr().err


def test_reader_noise_over_mqtt_calls_the_director_for_nothing_but_the_injected(
        mosquitto: Mosquitto, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 15: the card readers err as the issue says (``--reader-noise issue``); the
    simulated tables answer the hub's questions through the broker; every injection is
    found and nothing else (Laws 54, 57, 61)."""
    report = sim(capsys, "--tables", "3", "--boards", "2", "--rounds", "3", "--seed", "4",
                 "--inject", "revoke=0.2,play_out_of_turn=0.2,lead_out_of_turn=0.1",
                 "--reader-noise", "missed=0.06,cross=0.03,late=0.03,sweep=0.2",
                 "--broker", mosquitto.url)
    assert sum(report["reader_errors"].values()) > 5
    assert report["missed"] == [] and report["false_alarms"] == []
    assert "rejected" not in report
    assert main(["sim", "--reader-noise", "lost=1"]) == 2
    assert "--reader-noise" in capsys.readouterr().err
