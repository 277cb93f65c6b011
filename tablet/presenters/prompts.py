"""The hub's questions to the table about what its card readers saw (docs/protocol.md 7.12,
15.1), shown over the play and auction screens, and the ``answer`` events they send.

A card reader errs (a card missed, read late, a hand swept too fast): the hub asks the table
before it calls the director. Two questions:

* ``card``: "tap the card South played to trick 5", with every card not seen played yet to
  choose from (a table's tablet knows no hidden hand; dummy's cards for dummy), and "South
  had not played yet" when a card of ``after`` came first (a play out of turn: the director
  is called);
* ``sweep``: "sweep North's hand over the reader again" (the players do it; the prompt goes
  when the hub has the whole hand), or, when a card's tag cannot be read, name it: the seat's
  own hand (its seat view) to pick from.

A seat tablet answers only for its own seat, and declarer's for the card dummy played
(dummy's tablet is not asked); the table's tablet for any.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bridgecore.cards import ALL_CARDS
from tablet.i18n import suit_colour
from tablet.model import TableModel, known
from tablet.presenters.common import CardOption, Event, PresenterError

__all__ = ["Prompt", "PromptPresenter"]


@dataclass(frozen=True, slots=True)
class Prompt:
    """One question of the hub, as the screen shows it."""

    id: str
    kind: str                 # "card" or "sweep"
    seat: str
    trick: int | None
    after: str | None
    text: str                 # the question, in the tablet's language
    not_yet: str              # the "had not played yet" button ("" when not offered)
    choices: tuple[CardOption, ...]


class PromptPresenter:
    """``PromptPresenter(model)``: the open questions and the answers to them."""

    def __init__(self, model: TableModel):
        self.model = model

    @property
    def prompts(self) -> list[Prompt]:
        """The questions this tablet may answer now (its seat's only, on a seat tablet)."""
        model = self.model
        state = model.hub_state
        if state is None:
            return []
        tr = model.tr
        out = []
        for p in known(state.prompts) or []:
            if model.seat is not None and self.answerer(p.kind, p.seat) != model.seat:
                continue
            trick = known(p.trick)
            after = known(p.after)
            if p.kind == "card":
                text = tr("prompt.card", seat=tr.seat(p.seat), trick=trick)
                not_yet = "" if after is None else tr("prompt.not_yet", seat=tr.seat(p.seat),
                                                      after=tr.seat(after))
                choices = self._unplayed(p.seat)
                recorded = known(p.recorded)
                if recorded and all(o.card != recorded for o in choices):
                    # asked about an earlier trick: the card recorded there keeps the record
                    choices = [self._option(recorded), *choices]
            else:
                text = tr("prompt.sweep", seat=tr.seat(p.seat), count=known(p.count) or 1)
                not_yet = ""
                choices = self._own(p.seat)
            out.append(Prompt(p.id, p.kind, p.seat, trick, after, text, not_yet,
                              tuple(choices)))
        return out

    def answerer(self, kind: str, seat: str) -> str:
        """The seat whose tablet answers: the seat asked about, but declarer for the card
        dummy played (declarer plays dummy's cards, 45; dummy's tablet is not asked)."""
        model = self.model
        if kind == "card" and model.declarer is not None and seat == model.dummy_seat:
            return model.declarer
        return seat

    def _option(self, card: str) -> CardOption:
        model = self.model
        return CardOption(card, card[0], model.tr.rank(card[1:]),
                          suit_colour(card[0], model.four_colour), True, legal=False)

    def _unplayed(self, seat: str) -> list[CardOption]:
        """Dummy's cards for dummy (faced on the table), else every card not seen played
        and not dummy's."""
        state = self.model.hub_state
        seen: set[str] = set()
        if state is not None:
            dummy = known(state.dummy)
            if dummy is not None and dummy.seat == seat:
                return [self._option(c) for c in dummy.cards]
            if dummy is not None:
                seen.update(dummy.cards)
            trick = known(state.trick)
            if trick is not None:
                seen.update(card for _, card in trick.cards)
            last = known(state.last_trick)
            if last is not None:
                seen.update(card for _, card in last.cards)
        return [self._option(str(c)) for c in ALL_CARDS if str(c) not in seen]

    def _own(self, seat: str) -> list[CardOption]:
        model = self.model
        if model.seat != seat:
            return []   # a hidden hand: the table's tablet does not show it
        return [self._option(c) for c in model.own_cards]

    def _find(self, prompt_id: str) -> Prompt:
        found = next((p for p in self.prompts if p.id == prompt_id), None)
        if found is None:
            raise PresenterError("err.not_now")
        return found

    # Commands -----------------------------------------------------------------------------
    def answer_card(self, prompt_id: str, card: str | None, place: int | None = None) -> Event:
        """The card the seat played to the trick (``None``: it had not played yet)."""
        prompt = self._find(prompt_id)
        if prompt.kind != "card" or (card is None and not prompt.not_yet):
            raise PresenterError("err.not_now")
        if card is not None and not any(o.card == card for o in prompt.choices):
            raise PresenterError("err.no_card")
        body: dict[str, Any] = {"seat": prompt.seat, "trick": prompt.trick, "card": card}
        if place is not None:
            body["place"] = place
        return "answer", body

    def answer_sweep(self, prompt_id: str, cards: list[str]) -> Event:
        """Cards of the seat's pocket its reader does not read (the seat names them)."""
        prompt = self._find(prompt_id)
        own = {o.card for o in prompt.choices}
        if prompt.kind != "sweep" or not cards or any(c not in own for c in cards):
            raise PresenterError("err.no_card")
        return "answer", {"seat": prompt.seat, "cards": list(cards)}
