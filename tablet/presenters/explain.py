"""Questions about the opponents' calls and their answers (docs/protocol.md 7.13, 7.14).

An opponent may ask what any call means, during the auction and the play (Law 20F1, 20F2):
:attr:`ExplainPresenter.askable` lists the calls this tablet may ask about (on a seat
tablet the other side's; on the table tablet every call, asked by the caller's left-hand
opponent), :meth:`ExplainPresenter.ask` gives the ``ask`` event. The hub sends the question
to the seat who explains (the caller's partner without screens, the caller with them):
:attr:`ExplainPresenter.questions` are the ones this tablet is to answer and
:meth:`ExplainPresenter.explain` gives the ``explain`` event. The explanation then shows in
the opponents' auction records only (Law 16: tablet.presenters.common.auction_cells).
"""

from __future__ import annotations

from dataclasses import dataclass

from bridgecore.calls import Call
from bridgecore.errors import BridgeError
from tablet.model import SEATS, TableModel, side_of
from tablet.presenters.common import Event, PresenterError

__all__ = ["Askable", "ExplainPresenter", "OpenQuestion"]


@dataclass(frozen=True, slots=True)
class Askable:
    """A call this tablet may ask about: its number, caller, who asks, the button's text."""

    call: int
    seat: str
    by: str
    label: str


@dataclass(frozen=True, slots=True)
class OpenQuestion:
    """A question this tablet answers: call number, who answers, the words shown."""

    call: int
    seat: str
    text: str


class ExplainPresenter:
    """``ExplainPresenter(model)``: the calls to ask about and the questions to answer."""

    def __init__(self, model: TableModel):
        self.model = model
        self._asked: set[tuple[int | None, int]] = set()   # (board, call) asked from here

    def _label(self, call: str) -> str:
        try:
            return self.model.tr.call(str(Call.parse(call)))
        except (BridgeError, ValueError):
            return call

    @property
    def askable(self) -> list[Askable]:
        """The other side's calls (every call on the table tablet), newest first, not yet
        asked about from here, while the board is in the auction or the play."""
        m = self.model
        if m.phase not in ("auction", "play") or m.auction is None:
            return []
        out = []
        for entry in m.auction.entries:
            caller = entry.seat.letter
            if m.seat is not None and side_of(caller) == side_of(m.seat):
                continue
            if (m.board_number, entry.index) in self._asked:
                continue
            by = m.seat if m.seat is not None else SEATS[(SEATS.index(caller) + 1) % 4]
            out.append(Askable(entry.index, caller, by, m.tr(
                "explain.ask", call=self._label(str(entry.call)), seat=m.tr.seat(caller))))
        return out[::-1]

    def ask(self, call: int) -> Event:
        """Ask what call number ``call`` means (20F)."""
        found = next((a for a in self.askable if a.call == call), None)
        if found is None:
            raise PresenterError("err.not_now")
        self._asked.add((self.model.board_number, call))
        self.model.notify(self.model.tr("explain.sent"))
        return "ask", {"seat": found.by, "call": call}

    @property
    def questions(self) -> list[OpenQuestion]:
        """The questions the hub asks this tablet to answer, oldest first."""
        m = self.model
        entries = {} if m.auction is None else {e.index: e for e in m.auction.entries}
        out = []
        for q in m.questions:
            entry = entries.get(q.call)
            if entry is None:
                continue
            answerer = m.seat if m.seat is not None else (q.to or None)
            if not isinstance(answerer, str):
                continue
            out.append(OpenQuestion(q.call, answerer, m.tr(
                "explain.asked", seat=m.tr.seat(q.by), call=self._label(str(entry.call)),
                caller=m.tr.seat(entry.seat.letter))))
        return out

    def explain(self, call: int, text: str) -> Event:
        """Answer the question about call number ``call`` with ``text``."""
        found = next((q for q in self.questions if q.call == call), None)
        text = text.strip()
        if found is None or not text:
            raise PresenterError("err.not_now")
        return "explain", {"seat": found.seat, "call": call, "text": text}
