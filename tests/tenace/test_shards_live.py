"""One event, its hub as two processes (hub.shards): two sections played by the simulator
through a real Mosquitto, each shard ``tenace hub --shard K --of 2`` on its own log with its
own account. Every ranking, traveller and the field's ranking across both sections equal
those of one room scoring the same play without any network (the ground truth a single hub
is held to, tests/tenace/test_championship.py); and again with a shard killed (SIGKILL) mid-
session and started on its own log while the other plays on."""

from __future__ import annotations

from typing import Any

from tenace.sim.championship import run_championship, summary

INJECT = {"revoke": 0.1, "insufficient_bid": 0.05, "director_call": 0.05}


def _check(result: Any) -> None:
    figures = summary(result)
    report = result.report
    assert report["results_equal"], report.get("differences")
    assert report["missed"] == [] and report["false_alarms"] == []
    assert result.rejected == []
    assert figures["sittings"] >= 8 * 4


def test_two_shards_rank_the_field_as_one_room_does(keyring: Any) -> None:
    result = run_championship(tables=8, sections=2, boards_per_round=2, rounds=2,
                              pace=0.01, seed=11, inject=INJECT, probes=5, shards=2,
                              one_field=True)
    _check(result)
    assert result.killed == []


def test_a_shard_killed_mid_session_rebuilds_from_its_own_log(keyring: Any) -> None:
    result = run_championship(tables=8, sections=2, boards_per_round=2, rounds=2,
                              pace=0.01, seed=12, inject=INJECT, probes=5, shards=2,
                              one_field=True, kill_shard=1, reply_timeout=3.0)
    [(shard, logged)] = result.killed     # killed once, with half its events logged
    assert shard == 1 and logged > 0
    _check(result)
