"""The board screen: the board put on the table (the round's boards offered when the hub says
which, Law 15's warning for one that is not), the pairs seated, and at the end of the round
where pairs and boards go next (Law 8A)."""

from __future__ import annotations

from tablet.model import TableModel, side_of
from tablet.presenters.common import Event, PresenterError

__all__ = ["BoardPresenter"]


class BoardPresenter:
    """``BoardPresenter(model)``: what the board screen shows, and the ``board`` event its
    button sends."""

    def __init__(self, model: TableModel):
        self.model = model

    @property
    def suggested_boards(self) -> list[int]:
        """The boards to offer on the board screen: the round's (the state's
        ``schedule.boards``) still to come after the one on the table, else the next one."""
        schedule = self.model.schedule
        boards = [] if schedule is None else schedule.boards
        n = self.model.board_number
        if boards:
            return [b for b in boards if n is None or b > n] if n in boards or n is None \
                else list(boards)
        return [] if n is None else [n + 1]

    @property
    def round_over(self) -> bool:
        """The round's boards are played here: the screen says where to go (8A)."""
        return self.next_text is not None

    @property
    def next_text(self) -> str | None:
        """At the end of the round (no board of it left here): where each pair and the boards
        go next, as the movement says (``schedule.next``), this tablet's own pair first; the
        director's word prevails."""
        if self.suggested_boards or self.model.phase not in ("over", "waiting"):
            return None
        schedule = self.model.schedule
        following = None if schedule is None else schedule.next
        if following is None:
            return None
        tr = self.model.tr
        moves = []
        players = schedule.players if schedule is not None else None
        if isinstance(players, dict):    # an individual: each player goes his own way
            mine = "NESW" if self.model.seat is None else self.model.seat
            for seat in "NESW":
                player = players.get(seat)   # type: ignore[call-overload]
                if seat in mine and player is not None and player.next is not None:
                    moves.append(tr("board.next_player", player=player.number,
                                    table=player.next.table, seat=tr.seat(player.next.seat)))
        sides = (following.NS, following.EW)
        if self.model.seat is not None and side_of(self.model.seat) == "EW":
            sides = sides[::-1]          # his own pair's move first
        for move in sides:
            if move is not None and move.table:
                moves.append(tr("board.next_pair", pair=move.pair, table=move.table,
                                side=tr.side(move.direction)))
        if following.boards:
            moves.append(tr("board.next_boards", tables=", ".join(following.boards)))
        return tr("board.next", moves="; ".join(moves)) if moves else None

    @property
    def warning(self) -> str | None:
        """'This is not the board for this table and round' when the board on the table is
        not among the round's (``schedule.boards``): Law 15. Shown on the auction and play
        screens too."""
        schedule = self.model.schedule
        boards = [] if schedule is None else schedule.boards
        n = self.model.board_number
        if boards and n is not None and n not in boards:
            return self.model.tr("board.wrong", board=n)
        return None

    @property
    def pairs_text(self) -> str | None:
        pairs = self.model.pairs
        if pairs is None:
            return None
        return self.model.tr("board.pairs", ns=pairs.NS or "-", ew=pairs.EW or "-")

    def announce(self, number: int) -> Event:
        """Announce the board put on the table."""
        if not isinstance(number, int) or isinstance(number, bool) or number < 1:
            raise PresenterError("board.missing")
        phase = self.model.phase
        if phase == "auction" or (phase == "play" and not self.model.left_to_readers):
            raise PresenterError("err.not_now")
        return "board", {"board": number, "source": "tablet"}
