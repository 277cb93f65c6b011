"""What a table's card readers mean: tag reads at the four seats become the hub's events.

One reader per seat watches that seat's play area (docs/protocol.md, "Card readers"). What
a tag read means follows from the table's public state, as the hub publishes it:

* before play (no board yet, or the auction): the seat's hand **out of the pocket**. The
  player passes his cards over the reader; the hand is complete when no new tag has come
  for ``hand_gap`` seconds, or when play starts. Then one ``hand`` event carries every card
  read (the hub checks count and content against the hand record: Laws 7, 13, 14, 15, 87,
  a rotated board). A card read later before play extends the hand and sends it again
  (the hub takes the last read of a pocket).
* in play: each tag is a **card played** by that seat, a ``card`` event at once, with the
  time the tag was read (revokes and plays out of turn follow from the sequence). A tag
  the seat has played already on this board is a trick shown again: ignored.
* once the seat has played 13 of its own cards (a card read here that was not in its
  hand out of the pocket, another seat's read at this zone, does not count), or the board
  is over: the hand **back into the pocket**, sent as ``hand`` with ``when: back`` after
  the same gap (Law 7C).

Cards are named through the :class:`firmware_bridge.decks.DeckStore`: a tag of no
enrolled deck goes as ``?<UID>``, a card of another pack than the board's as
``<deck>:<card>``: neither is a card the hub knows, so each is a foreign card (Law 1). The
board's pack is the deck enrolled for that board number, else the deck of the first tag
of an enrolled deck read at the table for the board.

Cut off from the hub (:meth:`TableReads.connection`), no state comes while the table plays
on, and the tags alone say where it is:

* a card of a seat's hand read out already, read again on its own (no other tag at that
  seat for ``hand_gap`` seconds), is a card played: during the auction as last known, the
  opening lead (the auction has ended); several read together are the hand going back into
  the pocket (a board passed out, or the rest of a hand after a claim). A card played is
  thus sent ``hand_gap`` seconds after its tag, with the tag's time;
* a tag of the pack enrolled for another board alone, once this board is over at every seat
  (13 cards played or the hand back), is the next board.

Each event says the board it was read on (:attr:`Report.at`): the hub places a card after
its board's auction, whichever device comes back first (docs/protocol.md section 6). Back
online, a state that has not caught up with what was read meanwhile (a board left, an
auction the tags showed over) is passed over until it has.

:class:`TableReads` holds no thread, no clock and no connection: it is fed reads,
states and the time (:meth:`TableReads.tick`) and returns :class:`Report` values
(tests drive it directly; :class:`firmware_bridge.daemon.TableDaemon` runs it).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bridgecore.cards import Seat
from firmware_bridge.decks import DeckStore
from firmware_bridge.readers import TagRead

__all__ = ["HAND_GAP", "Report", "TableReads"]

log = logging.getLogger(__name__)

HAND_GAP = 1.5
"""Seconds without a new tag after which a hand passed over a reader is complete."""


@dataclass(frozen=True, slots=True)
class Report:
    """One event for the hub: its ``type``, ``body``, ``time`` (when it happened: the
    tag's read time) and ``at``, its place in the table's record (docs/protocol.md
    section 6): the board it was read on, all the readers know of the record."""

    type: str
    body: dict[str, Any]
    time: float
    at: dict[str, int] | None = None


@dataclass(slots=True)
class _Seat:
    """One seat's reads on the current board."""

    out: dict[str, None] = field(default_factory=dict)     # UIDs of the hand read out
    back: dict[str, None] = field(default_factory=dict)    # UIDs read back at the end
    played: dict[str, str] = field(default_factory=dict)   # UID -> name sent
    sent: dict[str, tuple[str, ...]] = field(default_factory=dict)  # when -> cards sent
    open: str | None = None          # the hand being read: "out" or "back"
    last: float = 0.0                # the time of its last tag
    waiting: bool = False            # complete, kept until a board number is known
    # Cut off from the hub: tags of this seat's hand read again, kept for the gap (below).
    again: list[tuple[str, float]] = field(default_factory=list)


class TableReads:
    """The four seats of ``table`` (module docstring)."""

    def __init__(self, table: str, decks: DeckStore, *, hand_gap: float = HAND_GAP):
        if hand_gap <= 0:
            raise ValueError(f"hand_gap must be positive, got {hand_gap}")
        self.table = table
        self.decks = decks
        self.hand_gap = hand_gap
        self.board: int | None = None
        self.phase: str | None = None
        self.deck: str | None = None      # the board's pack, once known
        self.seats = {seat: _Seat() for seat in Seat}
        self._warned: set[str] = set()
        self.offline = False               # no state comes from the hub (connection())
        self._left: set[int] = set()       # boards left while cut off, the hub behind
        self._inferred: int | None = None  # the board whose play began while cut off

    def connection(self, online: bool) -> None:
        """The link to the hub is up or down. Down, no state comes while the table plays
        on: the readers work out from the tags where the table is (module docstring)."""
        self.offline = not online

    # Inputs --------------------------------------------------------------------------------
    def view(self, state: Mapping[str, Any]) -> list[Report]:
        """The table's public state from the hub: a new board starts afresh (hands still
        being read for the old one are sent first); play starting completes the hands."""
        board = state.get("board")
        if not isinstance(board, int) or isinstance(board, bool):
            board = None
        phase = state.get("phase")
        if board in self._left:
            return []   # the hub has not yet applied what was read here while cut off
        self._left.clear()
        if board == self.board == self._inferred and phase in (None, "waiting", "auction"):
            return []   # nor the auction's end, which the tags showed
        self._inferred = None
        out: list[Report] = []
        if board != self.board:
            if self.board is not None:
                out += self._close_all()
                self.seats = {seat: _Seat() for seat in Seat}
                self.deck = None
            self.board = board
            out += self._close_waiting()
        if phase == "play" and self.phase != "play":
            out += self._close_all("out")
        self.phase = phase if isinstance(phase, str) else None
        return out

    def read(self, seat: Seat, tag: TagRead) -> list[Report]:
        """A tag read at ``seat``'s reader."""
        if not self.offline:
            return self._read(seat, tag.uid, tag.time)
        out = self._next_board(tag.uid)
        s = self.seats[seat]
        if self.board is not None and s.open != "out" and tag.uid in s.out \
                and tag.uid not in s.played and self.phase != "over":
            s.again.append((tag.uid, tag.time))   # played, or the hand going back: the gap says
            return out
        return out + self._read(seat, tag.uid, tag.time)

    def _read(self, seat: Seat, uid: str, time: float) -> list[Report]:
        s = self.seats[seat]
        # A card of another seat read here (a cross-read: the hub works it out) does not
        # count among the seat's 13.
        own = sum(1 for u in s.played if not s.out or u in s.out)
        if own >= 13 or self.phase == "over":
            when = "back"
        elif self.phase == "play":
            if uid in s.played:
                log.info("table %s: %s shows %s again (played already): ignored", self.table,
                         seat, s.played[uid])
                return []
            out = self._close(seat, s) if s.open == "out" else []
            name = s.played[uid] = self._name(uid)
            return [*out, Report("card", {"seat": seat.letter, "card": name,
                                          "source": "reader"}, time, self._at())]
        else:
            when = "out"
        out = []
        if s.open is not None and s.open != when:
            out = self._close(seat, s)
        hand = s.out if when == "out" else s.back
        if uid not in hand:
            hand[uid] = None
            s.open = when
            s.last = time
            s.waiting = False
        return out

    def tick(self, now: float) -> list[Report]:
        """The time is ``now`` (the readers' clock): hands with no new tag for the gap are
        complete."""
        out: list[Report] = []
        settled = [seat for seat, s in self.seats.items()
                   if s.again and now - s.again[-1][1] >= self.hand_gap]
        for seat in sorted(settled, key=lambda x: self.seats[x].again[0][1]):  # as played
            out += self._settle(seat, self.seats[seat])
        for seat, s in self.seats.items():
            if s.open is not None and not s.waiting and now - s.last >= self.hand_gap:
                out += self._close(seat, s)
        return out

    def flush(self) -> list[Report]:
        """Every hand being read, sent as it is now (the daemon stops)."""
        return self._close_all()

    @property
    def deadline(self) -> float | None:
        """When :meth:`tick` next has something to do (None: nothing pending)."""
        times = [s.last + self.hand_gap for s in self.seats.values()
                 if s.open is not None and not s.waiting]
        times += [s.again[-1][1] + self.hand_gap for s in self.seats.values() if s.again]
        return min(times) if times else None

    # Cut off from the hub ----------------------------------------------------------------------
    def _settle(self, seat: Seat, s: _Seat) -> list[Report]:
        """Tags of the seat's hand read again while cut off, the gap passed: one alone is a
        card played (during the auction, as the hub would have said, the opening lead: the
        auction is over); several together are the hand going back into the pocket (a board
        passed out, or the rest of a hand after a claim)."""
        again, s.again = s.again, []
        if len(again) == 1:
            uid, time = again[0]
            out: list[Report] = []
            if self.phase != "play":
                self.phase, self._inferred = "play", self.board
                out += self._close_all("out")
            return out + self._read(seat, uid, time)
        out = self._close(seat, s) if s.open is not None else []
        for uid, _ in again:
            s.back[uid] = None
        s.open, s.last, s.waiting = "back", again[-1][1], False
        return out + self._close(seat, s)

    def _next_board(self, uid: str) -> list[Report]:
        """A tag of the pack enrolled for another board alone, once this board is over at
        every seat (its 13 cards played, or the hand back in the pocket): the table has
        moved to that board (while cut off, no state says so)."""
        found = self.decks.lookup(uid)
        boards = () if found is None else self.decks.decks[found[0]].boards
        if len(boards) != 1 or boards[0] == self.board:
            return []
        out: list[Report] = []
        for seat in sorted((x for x, s in self.seats.items() if s.again),
                           key=lambda x: self.seats[x].again[0][1]):
            out += self._settle(seat, self.seats[seat])
        if self.board is not None and not all(
                s.back or sum(1 for u in s.played if u in s.out) >= 13
                for s in self.seats.values()):
            return out
        out += self._close_all()
        if self.board is not None:
            self._left.add(self.board)
        self.seats = {seat: _Seat() for seat in Seat}
        self.board, self.phase, self.deck, self._inferred = boards[0], None, None, None
        log.info("table %s: cut off from the hub, a tag of board %s's pack: the table is at "
                 "board %s", self.table, boards[0], boards[0])
        return out + self._close_waiting()

    # Hands ---------------------------------------------------------------------------------
    def _close_all(self, only: str | None = None) -> list[Report]:
        out: list[Report] = []
        for seat, s in self.seats.items():
            if s.open is not None and (only is None or s.open == only):
                out += self._close(seat, s)
        return out

    def _close_waiting(self) -> list[Report]:
        """Hands complete but kept for want of a board number: sent now if one is known."""
        out: list[Report] = []
        for seat, s in self.seats.items():
            if s.open is not None and s.waiting:
                out += self._close(seat, s)
        return out

    def _close(self, seat: Seat, s: _Seat) -> list[Report]:
        when = s.open
        assert when is not None
        uids = s.out if when == "out" else s.back
        cards = tuple(self._name(uid) for uid in uids)
        board = self.board if self.board is not None else self._board_of_deck()
        if board is None:
            if not s.waiting:
                log.warning("table %s: %s's hand read, but no board on the table yet and its "
                            "pack is enrolled for no single board: kept until the board is "
                            "announced", self.table, seat)
            s.waiting = True   # view() sends it once the state brings a board
            return []
        s.open = None
        s.waiting = False
        if s.sent.get(when) == cards:
            return []
        s.sent[when] = cards
        body: dict[str, Any] = {"seat": seat.letter, "cards": list(cards), "when": when,
                                "board": board}
        return [Report("hand", body, s.last, {"board": board})]

    def _at(self) -> dict[str, int] | None:
        return None if self.board is None else {"board": self.board}

    def _board_of_deck(self) -> int | None:
        if self.deck is None:
            return None
        boards = self.decks.decks[self.deck].boards
        return boards[0] if len(boards) == 1 else None

    # Names ---------------------------------------------------------------------------------
    def _name(self, uid: str) -> str:
        """The card a tag is, as the hub is to read it (module docstring)."""
        found = self.decks.lookup(uid)
        if found is None:
            self._warn(uid, f"table {self.table}: tag {uid} is in no enrolled deck: a foreign "
                            "card (Law 1)")
            return f"?{uid}"
        deck, card = found
        allowed = self.decks.decks_for_board(self.board) if self.board is not None else []
        if self.deck is None and (not allowed or deck in allowed):
            self.deck = deck
            log.info("table %s: board %s is played with deck %s", self.table, self.board, deck)
        if deck == self.deck:
            return str(card)
        self._warn(uid, f"table {self.table}: tag {uid} is {card} of deck {deck}, not of "
                        f"this board's deck {self.deck or ', '.join(allowed)}: a foreign card "
                        "(Law 1)")
        return f"{deck}:{card}"

    def _warn(self, uid: str, message: str) -> None:
        if uid not in self._warned:
            self._warned.add(uid)
            log.warning("%s", message)
