"""What happened at the table, that the director is called, and the choice a player has
(docs/protocol.md 7.15, the state's ``irregularities``; hub.rectify).

Every tablet of the table shows each open irregularity the players saw (an insufficient bid,
a call or lead out of turn, an exposed card): :attr:`RectifyPresenter.notices`, in the
tablet's language, with the director's choice once he has made it. The player the Laws give
a choice (LHO may accept an insufficient bid, 27A1; declarer a lead out of turn, 53A) finds
it on his tablet (the table tablet offers it for him): :attr:`RectifyPresenter.choices`, and
:meth:`RectifyPresenter.accept` gives the ``rectify`` event. The hub records it; the director
rectifies (Laws 9, 10, 81).

Until the choice is taken or the director has ruled, nobody calls or plays (9B2): while the
irregular call or card is still the last one made, :attr:`RectifyPresenter.wait_text` takes
the place of "your turn" on every tablet (the auction's and the play's banner). A call or
card made since (the director came and the table went on: 28B, or his word at the table)
ends the wait, though the alert stays open on his console.
"""

from __future__ import annotations

from dataclasses import dataclass

from tablet.model import TableModel, known
from tablet.presenters.common import Event, PresenterError

__all__ = ["Choice", "RectifyPresenter"]


@dataclass(frozen=True, slots=True)
class Choice:
    """A choice this tablet offers: the irregularity, who chooses, the button's words."""

    irregularity: str
    seat: str
    label: str


class RectifyPresenter:
    """``RectifyPresenter(model)``: the irregularities shown and the choices offered."""

    def __init__(self, model: TableModel):
        self.model = model

    def _open(self) -> list[object]:
        state = self.model.state
        return [] if state is None else list(known(state.irregularities) or [])

    @property
    def notices(self) -> list[str]:
        """One line per open irregularity: what, who, the law, and the director's part."""
        m = self.model
        tr = m.tr
        out = []
        for irr in self._open():
            seat = getattr(irr, "seat", None)
            what = tr(f"irr.{getattr(irr, 'kind', '')}", seat=tr.seat(seat) if seat else "?",
                      law=getattr(irr, "law", ""))
            accepted = getattr(irr, "accepted", None)
            ruling = getattr(irr, "ruling", None)
            if ruling is not None:
                # the option he chose in the players' language (a rect.* text), then his words
                option = tr.text(getattr(ruling, "say", None))
                what += " \u2014 " + (
                    tr("irr.ruled", law=ruling.law, text=ruling.text) if option is None else
                    tr("irr.ruled_option", law=ruling.law, option=option, text=ruling.text))
            elif accepted is not None:
                what += " \u2014 " + tr("irr.accepted", seat=tr.seat(accepted.seat))
            else:
                what += " \u2014 " + tr("irr.director_called")
            out.append(what)
        return out

    @property
    def choices(self) -> list[Choice]:
        """The choices the Laws give this tablet's player (every player's, per table)."""
        m = self.model
        out = []
        for irr in self._open():
            for option in getattr(irr, "options", []):
                if m.seat is not None and option.seat != m.seat:
                    continue
                key = "irr.accept" if m.seat is not None else "irr.accept_for"
                out.append(Choice(getattr(irr, "id", ""), option.seat,
                                  m.tr(key, law=option.law, seat=m.tr.seat(option.seat))))
        return out

    @property
    def waiting(self) -> bool:
        """An irregularity neither accepted nor ruled whose call or card is still the last
        one made: the table waits for the director (9B2)."""
        m = self.model
        for irr in self._open():
            if getattr(irr, "accepted", None) is not None or \
                    getattr(irr, "director", "called") != "called":
                continue
            call, trick = getattr(irr, "call", None), getattr(irr, "trick", None)
            if call is not None and m.phase == "auction" and \
                    call == len(m.auction_entries):
                return True
            cards = m.trick_cards
            now = m.trick
            if trick is not None and call is None and m.phase == "play" and cards and \
                    now is not None and now.number == trick and \
                    cards[-1][0] == getattr(irr, "seat", None):
                return True
        return False

    @property
    def wait_text(self) -> str | None:
        """What the banner says instead of whose turn it is while :attr:`waiting`: wait for
        the director, or, to the player who may accept, that he may."""
        if not self.waiting:
            return None
        tr = self.model.tr
        return tr("irr.wait_or_accept") if self.choices else tr("irr.wait")

    def accept(self, irregularity: str) -> Event:
        """Take the choice offered for ``irregularity`` (accept the call or the lead)."""
        found = next((c for c in self.choices if c.irregularity == irregularity), None)
        if found is None:
            raise PresenterError("err.not_now")
        return "rectify", {"seat": found.seat, "irregularity": irregularity,
                           "choice": "accept"}
