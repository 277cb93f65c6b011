"""Card readers that err (issue 15) through the real reader daemon and a real hub: the
simulated backend's error model (firmware_bridge/readers/sim.py), and a clean board whose
reads are full of errors that reaches the director with nothing (hub/reads.py)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from bridgecore.cards import Seat
from firmware_bridge.decks import DeckStore
from firmware_bridge.readers import DEBOUNCE, TagRead, open_reader
from firmware_bridge.readers import sim as simulated
from firmware_bridge.readers.sim import ReadErrors
from tenace.sim.observer import Observer
from tests.firmware_bridge.conftest import uid, wait_until
from tests.firmware_bridge.kit import ReaderTable, Tablet
from tests.hub.test_table import BOARD_1

N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST


def _reads(errors: ReadErrors, count: int = 200) -> tuple[int, dict[str, int], int]:
    name = f"errs-{time.monotonic_ns()}"
    here, there = simulated.channel(name), simulated.channel(name + "-next")
    here.errors, here.neighbours = errors, [there]
    mine, theirs = open_reader(f"sim:{name}"), open_reader(f"sim:{name}-next")
    try:
        for i in range(count):
            here.present(f"04000000{i:06X}")
        read = sum(isinstance(e, TagRead) for e in iter(lambda: mine.read(0.01), None))
        crossed = sum(isinstance(e, TagRead) for e in iter(lambda: theirs.read(0.01), None))
    finally:
        mine.close()
        theirs.close()
        simulated.forget(name)
        simulated.forget(name + "-next")
    return read, dict(here.made), crossed


def test_the_simulated_reader_errs_as_told_and_the_same_seed_errs_the_same() -> None:
    errors = dict(missed=0.1, cross=0.1, unreadable=frozenset({"04000000000003"}))
    first = _reads(ReadErrors(**errors, seed=7))   # type: ignore[arg-type]
    again = _reads(ReadErrors(**errors, seed=7))   # type: ignore[arg-type]
    read, made, crossed = first
    assert first == again
    assert made["unreadable"] == 1 and made["missed"] > 5 and made["cross"] > 5
    assert crossed == made["cross"] and read > 0
    assert read + crossed + made["missed"] + made["unreadable"] == 200


def test_read_errors_refuse_rates_out_of_bounds() -> None:
    with pytest.raises(ValueError, match="missed"):
        ReadErrors(missed=1.5)
    with pytest.raises(ValueError, match="add up"):
        ReadErrors(missed=0.6, cross=0.6)


def test_a_clean_board_read_by_erring_readers_calls_nobody(
        hub_url: str, tmp_path: Path, decks: DeckStore, tablet: Tablet) -> None:
    """South's pocket swept too fast (a card missed, swept again); North's (dummy's) SA read
    at East's zone (Law 45: declarer plays dummy's cards), South's S3 not read and tapped in
    answer, East's ST read again after the debounce at West's zone: one trick, no alert."""
    table = ReaderTable(hub_url, tmp_path, decks)
    try:
        with Observer(hub_url) as director:
            tablet.seat()
            table.wait_phase("auction")
            for seat in Seat:
                cards = [str(c) for c in BOARD_1[seat]]
                table.read_hand(seat, [c for c in cards if (seat, c) != (S, "C6")])
            assert table.daemon.wait_delivered()
            table.read_hand(S, ["C6"])                       # asked: swept again
            assert table.daemon.wait_delivered()
            tablet.calls("Pass", "Pass", "1H", "Pass", "Pass", "Pass")
            table.wait_phase("play")
            table.play(W, "S2")
            table.present[E](uid(1, "SA"))                   # North's ace, at East's zone
            wait_until(lambda: table.daemon.reported >= 6, 5.0)
            table.play(E, "ST")
            time.sleep(DEBOUNCE * 1.5)
            table.present[W](uid(1, "ST"))                   # read again, next zone
            tablet.link.send("answer", {"seat": "S", "trick": 1, "card": "S3", "place": 4})
            tablet.settle()
            table.play(N, "SK")
            assert table.daemon.wait_delivered()
            assert table.daemon.rejections() == []
            director.settle()
            alerts = director.alert_list()
    finally:
        table.close()
    assert [a["kind"] for a in alerts] == []
