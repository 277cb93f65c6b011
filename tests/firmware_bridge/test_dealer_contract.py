"""One contract for every dealing machine backend: the simulator in this process, the serial
driver against the simulator through a real socat pty pair and through a TCP socket
(``socket://``), and a real machine when ``TENACE_TEST_DEALER_URL`` names one (a club runs
the suite against its own machine; that case exists only then)."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from bridgecore.bigdeal import secure_deals
from firmware_bridge.dealer import DealerError, DealerRefused, DealingMachine, open_dealer
from firmware_bridge.dealer_messages import PROTOCOL_VERSION, BoardDealt, MachineState, NackCode
from firmware_bridge.dealer_sim import (
    DealerSimulator,
    FaultPlan,
    MachineModel,
    open_serial,
    serve_tcp,
)
from hub.dealing import check_dealt
from tests.firmware_bridge.conftest import Pty

HARDWARE = os.environ.get("TENACE_TEST_DEALER_URL")
SIMULATED = ("sim", "pty", "socket")
BACKENDS = SIMULATED + (("hardware",) if HARDWARE else ())
FAST = {"ack_timeout": 0.2, "retries": 2, "silence": 0.6}
"""Driver timings for the simulators: a machine that stops answering is found in ~1.5 s."""
PATIENT = {"ack_timeout": 60.0, "silence": 120.0}
"""For a test whose machine answers every frame (no fault lost on the line, none silent):
ceilings only, so that a busy machine's pause is never taken for a machine not answering
(each answer ends the driver's wait at once)."""


@contextmanager
def simulated(kind: str, folder: Path, faults: str = "", **sim: Any
              ) -> Iterator[tuple[str, dict[str, Any]]]:
    """A machine of backend ``kind`` with ``faults``: (URL, driver options)."""
    sim.setdefault("ack_timeout", 0.15)
    sim.setdefault("clear_after", 0.1)
    if kind == "sim":
        yield (f"sim://?faults={faults}", {"answer_timeout": 0.3,
                                           "clear_after": sim["clear_after"]})
    elif kind == "hardware":
        assert HARDWARE is not None
        yield HARDWARE, {}
    elif kind == "socket":
        listener, thread = serve_tcp("127.0.0.1", 0, MachineModel(FaultPlan.parse(faults)),
                                     **sim)
        try:
            yield f"socket://127.0.0.1:{listener.getsockname()[1]}", dict(FAST)
        finally:
            listener.close()
            thread.join(2)
    else:
        pair = Pty(folder)
        line = open_serial(pair.device)          # the machine's end first: nothing is lost
        machine = DealerSimulator(line, MachineModel(FaultPlan.parse(faults)), **sim).start()
        try:
            yield pair.reader, dict(FAST)
        finally:
            machine.stop()
            line.close()
            pair.stop()


@pytest.fixture(params=BACKENDS)
def machine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[DealingMachine]:
    with simulated(request.param, tmp_path) as (url, options):
        dealer = open_dealer(url, **options)
        try:
            yield dealer
        finally:
            dealer.close()


def reports(machine: DealingMachine, boards: int, timeout: float = 60.0) -> list[BoardDealt]:
    got: list[BoardDealt] = []
    end = time.monotonic() + timeout
    while len(got) < boards and time.monotonic() < end:
        report = machine.next_report(0.5)
        if isinstance(report, BoardDealt):
            got.append(report)
    return got


def test_contract_hello_names_the_machine_and_its_protocol(machine: DealingMachine) -> None:
    info = machine.hello()
    assert info.version == PROTOCOL_VERSION and info.model
    assert machine.info == info and machine.problem is None


def test_contract_status_answers(machine: DealingMachine) -> None:
    machine.hello()
    status = machine.status()
    assert isinstance(status.state, MachineState) and status.dealt >= 0


def test_contract_start_with_no_board_loaded_is_refused(machine: DealingMachine) -> None:
    machine.hello()
    machine.clear()
    with pytest.raises(DealerRefused) as err:
        machine.start(1, 2)
    assert err.value.code == NackCode.BAD_BOARD and "START" in str(err.value)


def test_contract_each_loaded_board_is_dealt_once_and_checks(machine: DealingMachine,
                                                              request: pytest.FixtureRequest
                                                              ) -> None:
    """Laws 6, 87: each board comes back with the four pockets as read; on a simulator they
    are the hand record's hands."""
    deals = secure_deals(1, 2)
    machine.hello()
    machine.clear()
    machine.load_all(deals)
    machine.start(1, 2)
    got = reports(machine, 2)
    assert sorted(r.board for r in got) == [1, 2] and {r.copy for r in got} == {1}
    for report in got:
        check = check_dealt(report.board, deals[report.board], report.pockets)
        if request.node.callspec.params["machine"] in SIMULATED:
            assert check.ok and not report.errors
        else:   # a real pack may be short or worn: the check then says how
            assert 48 <= sum(len(cards) for cards in report.pockets.values()) <= 56
    assert machine.status().state in (MachineState.DONE, MachineState.IDLE)


def test_contract_close_is_idempotent_and_final(machine: DealingMachine) -> None:
    machine.hello()
    machine.close()
    machine.close()
    with pytest.raises(DealerError):
        machine.status()
