"""The check-in screen (Law 5): the pair's number and players, for this seat's side or, on a
table's tablet, for both sides; the warning when the pair is not the one the movement seats
here (5B: the hub tells the director too)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tablet.model import TableModel, side_of
from tablet.presenters.common import Event, PresenterError

__all__ = ["CheckinPresenter"]


class CheckinPresenter:
    """``CheckinPresenter(model)``: what the check-in screen shows, and the ``checkin``
    event its button sends."""

    def __init__(self, model: TableModel):
        self.model = model
        self._checked_in: dict[str, tuple[Any, int]] = {}  # side -> (round, pair)
        self._wanted = False

    @property
    def sides(self) -> tuple[str, ...]:
        """The sides this tablet checks in: its seat's, or both on a table's tablet."""
        seat = self.model.seat
        return ("NS", "EW") if seat is None else (side_of(seat),)

    def side_checked_in(self, side: str) -> bool:
        """Checked in for the table's round: from this tablet (or just sent), or from the
        partner's, as the hub's state says (``checked_in``)."""
        done = self._checked_in.get(side)
        if done is not None and done[0] in (None, self.model.round):
            return True
        hub = self.model.hub_state
        return hub is not None and hub.round == self.model.round and \
            side in (hub.checked_in or ())

    @property
    def done(self) -> bool:
        """Every side of this tablet checked in for the table's round."""
        return all(self.side_checked_in(s) for s in self.sides)

    @property
    def wanted(self) -> bool:
        """The board screen's 'new round' button was pressed."""
        return self._wanted

    def new_round(self) -> None:
        """The board screen's 'new round' button: back to check-in."""
        self._wanted = True
        self.model.changed()

    def expected_pair(self, direction: str) -> int | None:
        """The pair the movement seats here for ``direction`` (``schedule.expected``)."""
        schedule = self.model.schedule
        expected = None if schedule is None else schedule.expected
        if expected is None or direction not in ("NS", "EW"):
            return None
        return expected.NS if direction == "NS" else expected.EW

    def expected_players(self, direction: str) -> list[tuple[str, int, str | None]]:
        """An individual: the players the movement seats at ``direction``'s seats this
        round (a seat's tablet: its own seat), (seat, number, name) (``schedule.players``);
        [] otherwise."""
        schedule = self.model.schedule
        players = None if schedule is None else schedule.players
        if not isinstance(players, dict) or direction not in ("NS", "EW"):
            return []
        seats: tuple[str, ...] = ("N", "S") if direction == "NS" else ("E", "W")
        if self.model.seat is not None:     # a seat's tablet: its own player checks in
            seats = tuple(s for s in seats if s == self.model.seat)
        return [(seat, players[seat].number, players[seat].name)
                for seat in seats if seat in players]

    def warning(self, direction: str, pair: int) -> str | None:
        """The warning for a pair that is not the one the movement seats here (Law 5B)."""
        want = self.expected_pair(direction)
        if want is None or want == pair:
            return None
        tr = self.model.tr
        return tr("checkin.mismatch", pair=pair, side=tr.side(direction), expected=want)

    def check_in(self, pair: int, direction: str | None = None,
                 players: Iterable[tuple[int | None, str]] = ()) -> Event:
        """Check a pair in (Law 5): its number, direction and players (number, name)."""
        seat = self.model.seat
        if seat is not None:
            direction = side_of(seat)
        if direction not in ("NS", "EW"):
            raise PresenterError("err.not_now")
        if not isinstance(pair, int) or isinstance(pair, bool) or pair < 1:
            raise PresenterError("checkin.missing_pair")
        people = []
        for number, name in players:
            person: dict[str, Any] = {}
            if isinstance(number, int) and number > 0:
                person["number"] = number
            if name and name.strip():
                person["name"] = name.strip()
            if person:
                people.append(person)
        body: dict[str, Any] = {"direction": direction, "pair": pair}
        if people:
            body["players"] = people
        if seat is not None:
            body["seat"] = seat
        # The round is the one the hub seats the pair in (its check-in may move the table
        # on to the next round): taken from the state that follows, or from the reply.
        self._checked_in[direction] = (None, pair)
        if self.done:
            self._wanted = False
        warning = self.warning(direction, pair)
        if warning is not None:
            self.model.notify(warning, "warning")
        self.model.changed()
        return "checkin", body

    # What the hub says -------------------------------------------------------------------
    def hub_state_changed(self) -> None:
        """A check-in sent before the first state: its round is the state's."""
        for side, (round_, pair) in list(self._checked_in.items()):
            if round_ is None:
                hub = self.model.hub_state
                self._checked_in[side] = (None if hub is None else hub.round, pair)

    def accepted(self, kind: Any, body: dict[str, Any]) -> None:
        """An accepted check-in: the state published before the reply has its round."""
        if kind == "checkin":
            side = str(body.get("direction"))
            if side in self._checked_in:
                self._checked_in[side] = (self.model.round, self._checked_in[side][1])

    def refused(self, kind: Any, body: dict[str, Any]) -> None:
        """A refused check-in is forgotten: the screen asks again."""
        if kind == "checkin":
            self._checked_in.pop(str(body.get("direction")), None)
