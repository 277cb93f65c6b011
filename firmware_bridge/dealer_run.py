"""A board set through a dealing machine, each board checked as it comes out (Laws 6, 87).

:class:`DealingRun` tells the machine the deals, starts it, and takes its reports one at a
time: each copy of each board is compared with the hand record
(:func:`bridgecore.dealcheck.check_dealt`) at once, the operator sees a line for it
(``board 7 dealt (7/32), checked``), and, with a hub,
the board goes to the hub (``dealt``), which alerts the director when it differs, before the
board leaves the dealing room. Faults (a jam) and a machine that stops answering are shown
and sent too (``dealer_fault``). :func:`check_dealt_file` does the same for a file the
machine's own software wrote.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bridgecore.deal import Deal
from bridgecore.dealcheck import DealtCheck, check_dealt
from firmware_bridge.dealer import DealerConnectionError, DealerError, DealerSilent, DealingMachine
from firmware_bridge.dealer_hub import HubLink
from firmware_bridge.dealer_messages import BoardDealt, CardError, Fault, pocket_texts, pockets_of
from wire.protocol import Envelope

__all__ = ["BoardOutcome", "DealingRun", "RunSummary", "check_dealt_file"]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class BoardOutcome:
    """One copy of one board as dealt, and its check against the hand record."""

    board: int
    copy: int
    check: DealtCheck
    errors: tuple[CardError, ...] = ()

    @property
    def ok(self) -> bool:
        return self.check.ok and not self.errors

    def verdict(self) -> str:
        if self.ok:
            return "checked"
        what = [] if self.check.ok else [self.check.describe()]
        what += [f"machine: {', '.join(map(str, self.errors))}"] if self.errors else []
        return "MISDEALT: " + "; ".join(what) + ". Hold it: redeal it (Law 6D1)"


@dataclass(slots=True)
class RunSummary:
    """What a run (or a file check) found."""

    total: int
    outcomes: list[BoardOutcome] = field(default_factory=list)
    faults: list[Fault] = field(default_factory=list)
    stopped: str | None = None      # why the run ended before every board was dealt
    unanswered: int = 0             # events the hub never answered

    @property
    def misdealt(self) -> list[BoardOutcome]:
        return [o for o in self.outcomes if not o.ok]

    def lines(self) -> list[str]:
        out = [f"{len(self.outcomes)} of {self.total} boards dealt, "
               f"{len(self.misdealt)} not matching the hand record"
               + (f", {len(self.faults)} faults" if self.faults else "")]
        out += [f"  board {o.board} copy {o.copy}: {o.verdict()}" for o in self.misdealt]
        if self.stopped:
            out.append(f"  stopped: {self.stopped}")
        if self.unanswered:
            out.append(f"  {self.unanswered} events never answered by the hub")
        return out

    @property
    def exit_code(self) -> int:
        """0 every board checked; 1 a board differs; 3 the run stopped short."""
        if self.stopped:
            return 3
        return 1 if self.misdealt else 0


def _dealt_body(outcome: BoardOutcome, pockets: dict[str, list[str]]) -> dict[str, Any]:
    body: dict[str, Any] = {"board": outcome.board, "copy": outcome.copy,
                               "pockets": pockets}
    if outcome.errors:
        body["errors"] = [e.to_json() for e in outcome.errors]
    return body


class DealingRun:
    """``DealingRun(machine, boards, hub=...).run()`` (module docstring). ``wait`` is the
    longest a board may take before the run gives up on it (the machine still answering)."""

    def __init__(self, machine: DealingMachine, boards: Mapping[int, Deal], *,
                 copies: int = 1, hub: HubLink | None = None,
                 progress: Callable[[str], None] = print, wait: float = 120.0,
                 hub_wait: float = 2.0):
        if not boards:
            raise ValueError("no board to deal")
        self.machine = machine
        self.boards = dict(sorted(boards.items()))
        self.copies = copies
        self.hub = hub
        self.progress = progress
        self.wait = wait
        self.hub_wait = hub_wait
        self._refusals = 0

    def run(self) -> RunSummary:
        total = len(self.boards) * self.copies
        summary = RunSummary(total)
        machine = self.machine
        try:
            info = machine.hello()
            self.progress(f"{info.model} {info.firmware} (serial {info.serial or '?'}), "
                          f"protocol {info.version}: {len(self.boards)} boards, "
                          f"{self.copies} cop{'y' if self.copies == 1 else 'ies'} each")
            machine.clear()
            machine.load_all(self.boards, self.copies)
            machine.start(min(self.boards), max(self.boards))
            waiting = {(b, c) for b in self.boards for c in range(1, self.copies + 1)}
            last = time.monotonic()
            while waiting:
                report = machine.next_report(1.0)
                if report is None:
                    if time.monotonic() - last > self.wait:
                        summary.stopped = (f"no board for {self.wait:.0f} s "
                                           f"({machine.status().state.name.lower()})")
                        break
                    continue
                last = time.monotonic()
                if isinstance(report, Fault):
                    self._fault(report, summary)
                    continue
                waiting.discard((report.board, report.copy))
                self._board(report, summary)
        except (DealerSilent, DealerConnectionError) as err:
            summary.stopped = str(err)
            self.progress(f"STOPPED: {err}")
            self._send("dealer_fault", {"code": "silent" if isinstance(err, DealerSilent)
                                        else "port_lost", "detail": str(err)})
        except DealerError as err:
            summary.stopped = str(err)
            self.progress(f"STOPPED: {err}")
        if self.hub is not None:
            summary.unanswered = self.hub.settle(self.hub_wait + self.hub.timeout)
            self._refused()
        return summary

    def _board(self, report: BoardDealt, summary: RunSummary) -> None:
        record = self.boards.get(report.board)
        if record is None:
            self.progress(f"board {report.board}: dealt, but not in this board set")
            return
        outcome = BoardOutcome(report.board, report.copy,
                               check_dealt(report.board, record, report.pockets), report.errors)
        summary.outcomes.append(outcome)
        sent = self._send("dealt", _dealt_body(outcome, pocket_texts(report.pockets)))
        copy = f" copy {report.copy}" if self.copies > 1 else ""
        self.progress(f"board {report.board}{copy} dealt ({len(summary.outcomes)}/"
                      f"{summary.total}), {outcome.verdict()}{self._told(outcome, sent)}")
        self._refused()

    def _fault(self, fault: Fault, summary: RunSummary) -> None:
        summary.faults.append(fault)
        where = f" at board {fault.board}" if fault.board else ""
        self.progress(f"machine fault: {fault.code.label}{where}"
                      + (f" ({fault.detail})" if fault.detail else "")
                      + ": the operator clears it; the board is dealt again and checked")
        body: dict[str, Any] = {"code": fault.code.label, "detail": fault.detail}
        if fault.board:
            body["board"] = fault.board
        self._send("dealer_fault", body)

    def _told(self, outcome: BoardOutcome, sent: Envelope | None) -> str:
        """Whether the director knows of a board that differs (waiting a moment for it)."""
        if outcome.ok or sent is None or self.hub is None:
            return ""
        reply = self.hub.wait(sent, self.hub_wait)
        if reply is None:
            return " (the hub has not answered yet: sent again until it does)"
        return " (director alerted)" if reply.status == "ack" else ""

    def _send(self, type: str, body: dict[str, Any]) -> Envelope | None:
        return None if self.hub is None else self.hub.send(type, body)

    def _refused(self) -> None:
        if self.hub is None:
            return
        for env, reply in self.hub.refused[self._refusals:]:
            self.progress(f"the hub refused {env.type} {env.body.get('board', '')}: "
                          f"{reply.code}: {reply.reason}")
        self._refusals = len(self.hub.refused)


def check_dealt_file(dealt: Mapping[int, Deal], boards: Mapping[int, Deal], *,
                     hub: HubLink | None = None,
                     progress: Callable[[str], None] = print) -> RunSummary:
    """Each board of a file the machine wrote against the hand record ``boards``."""
    summary = RunSummary(len(boards))
    for number, deal in sorted(dealt.items()):
        record = boards.get(number)
        if record is None:
            progress(f"board {number}: in the machine's file, not in the hand record")
            continue
        pockets = pockets_of(deal)
        outcome = BoardOutcome(number, 1, check_dealt(number, record, pockets))
        summary.outcomes.append(outcome)
        progress(f"board {number} ({len(summary.outcomes)}/{summary.total}), "
                 f"{outcome.verdict()}")
        if hub is not None:
            hub.send("dealt", _dealt_body(outcome, pocket_texts(pockets)))
    lacking = sorted(set(boards) - set(dealt))
    if lacking:
        summary.stopped = "not in the machine's file: boards " + ", ".join(map(str, lacking))
    if hub is not None:
        summary.unanswered = hub.settle(2 * hub.timeout)
        for env, reply in hub.refused:
            progress(f"the hub refused board {env.body.get('board')}: {reply.code}: "
                     f"{reply.reason}")
    return summary
