"""A small championship (issue 16): 20 tables in two sections (two driver processes)
against ``tenace hub`` in its own process through Mosquitto, live scoring on; every
injected irregularity detected, no false alarm, every ranking and traveller the hub
published equal to the ground truth. The figures it measures are printed by
benchmarks/championship.py, never asserted."""

from __future__ import annotations

from typing import Any

from tenace.sim.championship import championship_setup, run_championship, summary
from tenace.sim.chaos import clean_room, published_differences
from tenace.sim.session import simulate

INJECT = {"revoke": 0.1, "lead_out_of_turn": 0.05, "insufficient_bid": 0.05,
          "wrong_board": 0.05, "result_disagrees": 0.05, "director_call": 0.05}


def test_twenty_tables_in_two_sections_detected_and_scored_right(keyring: Any) -> None:
    result = run_championship(tables=20, sections=2, boards_per_round=2, rounds=2,
                              pace=0.01, seed=7, inject=INJECT, probes=20, processes=2)
    figures = summary(result)
    report = result.report
    assert figures["injected"] >= 5
    assert report["missed"] == [] and report["false_alarms"] == []
    assert report["detected"] == report["injected"]
    assert result.rejected == []
    assert report["results_equal"], report.get("differences")
    # Every table plays its four boards, and a wrong board (Law 15) is one sitting more.
    assert figures["sittings"] == 20 * 4 + report["injected"].get("wrong_board", 0)
    assert figures["probes"] == 20 and figures["boards_timed"] > 0
    assert figures["log_bytes"] > 0 and len(result.rss) >= 2


def test_the_ground_truth_comparison_sees_a_changed_ranking() -> None:
    """published_differences is no rubber stamp: a ranking that differs, or a traveller
    missing, is named."""
    import json

    setup = championship_setup(6, 2, 2, 2, seed=3)
    room = setup.build_room()
    sections = [s for s in room.sections if s.name != "P"]
    script = simulate(sections, {n: room.deal(n) for n in setup.deals}, seed=3)
    truth, _ = clean_room(setup, script)
    published = {topic: json.loads(payload)
                 for topic, payload in truth.scoring.publications(force=True)}
    assert published_differences(clean_room(setup, script)[0], published) == []
    ranking = next(t for t in published if "/ranking/A" in t)
    total = published[ranking]["ranking"][0]["total"]
    published[ranking]["ranking"][0]["total"] += 1
    traveller = next(t for t in published if "/traveller/B/" in t)
    del published[traveller]
    # what differs is named down to the value
    assert published_differences(clean_room(setup, script)[0], published) == [
        f"{ranking}: differs at .ranking[0].total: {total!r} != {total + 1!r}",
        f"{traveller}: not published by the hub"]
