"""A table's events applied in the order of its game record, whichever device sent them.

A table that plays on while cut off from the hub (docs/protocol.md section 6) keeps its
events in each device's outbox: the tablet's calls and taps, the card reader's sweeps and
cards. When the network comes back each device empties its own outbox, so the hub receives
the reader's cards of a board before the tablet's auction of it, or the tablet's
``result_confirm`` before the cards it confirms. Each event may say where in the record it
belongs, its envelope's ``at`` (``board``, ``hands``, ``answers``, ``calls``, ``cards``: the
board, and the ``hand``, ``answer``, ``call`` and ``card`` events reported at the table on
it before this one, as the device saw them; a card reported by two devices counts twice, so
the cards a device saw played are never more than the reports of them). Each count is
optional: a device gives those it knows, and what it leaves out the kind of its event says
(:meth:`TableOrder._kind_fits`). A card reader knows its reads, not the auction the tablet took: its
``card``, or its ``hand`` going back into the pocket, comes after the board's auction has
ended at the table (so does a ``claim`` without ``calls``; a ``claim`` without ``cards``, entered
where the readers' cards were not seen, comes after every card the readers read on the board
before it: once one of them puts a hand back, or names a later board). A tablet cut off from the hub
knows its calls, not the cards the readers saw: its ``board`` or ``result_confirm`` without
``cards`` comes after the play of the board it names has ended (a board left in the middle
of its play waits, and goes to the director with the other held events after
:data:`HOLD_SECONDS`).
:class:`TableOrder` is the part of :class:`hub.room.Room` that, per table:

* keeps the **tally** of each board as reported at the table: its ``hand`` and ``answer``
  events, the calls of the ``call`` events accepted on it, the cards of its ``card`` events
  (with the seat and the device that reported each), and the boards the table has been at;
* **holds** an event whose ``at`` the tally has not reached (a board the table has not been
  at, fewer events of a kind than it names), and every later event of the same device (a
  device's events keep their order): it is acknowledged ``held`` and logged, and applied as
  soon as what precedes it has been (:meth:`TableOrder.ready`);
* finds a **conflict**: a ``card`` event whose ``at`` names a place the tally has already
  filled with another card, its own card reported nowhere before on the board. The director
  gets one ``record_conflict`` alert with both versions (the one recorded first stays in the
  record), and the event is acknowledged ``conflict``, not applied. The same card reported
  twice (the tablet's tap and the reader's read) is no conflict: it goes to the table, which
  takes it as one card (hub.reads);
* tells the director when events wait too long (:data:`HOLD_SECONDS` of hub time, or more
  than :data:`MAX_HELD` held at the table): one ``events_held`` alert, and the events held
  are applied as they came (:meth:`hub.room.Room.tick`). The wait counts from the later of
  the first held event's arrival and the table's last **progress**: the last event that
  came from a device with nothing held (:meth:`TableOrder.arrived`). A table emptying its
  outboxes after a long cut, on a slow hub, may take minutes to send what precedes the held
  events; while its other devices keep delivering, what is missing may still come, and
  applying the held events as they came would refuse them (a card before the auction's
  end) and lose the rest of the board. A device that has stopped sending (a dead tablet)
  makes no progress: its table's held events go to the director after the wait.

An event without ``at`` (an older client) is applied as it comes, after the held events of
its device. Everything here is a function of the events applied and the hub times given:
replaying the log (held events included) holds and releases them again at the same points.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Any

from wire.protocol import Envelope

__all__ = ["HOLD_SECONDS", "MAX_HELD", "Conflict", "TableOrder", "Tally", "TrickPlace",
           "Waiting"]

COUNTS = ("hands", "answers", "calls", "cards")   # the counts an ``at`` may give
# Where a table's play is: its tricks complete, the cards of the trick in progress, the seat
# on turn (None: nobody, a claim stands or the play is over).
TrickPlace = tuple[int, int, str | None]
HOLD_SECONDS = 60.0   # hub seconds an event may wait for what precedes it in the record
MAX_HELD = 4000       # events held at one table (a whole session of one table's devices)


@dataclass(slots=True)
class Tally:
    """One board's record as reported at a table: how many ``hand``, ``answer``, ``call``
    and ``card`` events the table applied on it and, while the board may still be played,
    the cards themselves (card, seat, device), in the order the table applied them: the
    conflicts are found in them. A board of an earlier round keeps its counts only."""

    hands: int = 0
    answers: int = 0
    calls: int = 0
    cards: int = 0
    played: list[tuple[str, str, str]] | None = field(default_factory=list)
    back: int = 0       # ``hand`` events of a card reader with ``when: back`` (the play over)
    # The sitting these counts are of (:meth:`TableOrder.reached`; _NO_SITTING: none named
    # yet, an event of the board noted before the table reached it).
    sitting: object = field(default=None, repr=False, compare=False)

    def has_card(self, card: str) -> bool:
        return self.played is not None and any(c == card for c, _, _ in self.played)

    def add_card(self, card: str, seat: str, device: str) -> None:
        self.cards += 1
        if self.played is not None:   # the same few strings all session: one copy of each
            self.played.append((sys.intern(card), sys.intern(seat), sys.intern(device)))


@dataclass(frozen=True, slots=True)
class Waiting:
    """An event held, and the hub time it came."""

    env: Envelope
    since: float


@dataclass(frozen=True, slots=True)
class Conflict:
    """Two different cards reported at the same place of a board's play."""

    board: int
    place: int                         # cards played before it
    recorded: tuple[str, str, str]     # card, seat, device: the version in the record
    reported: tuple[str, str, str]     # the other version

    def facts(self) -> dict[str, Any]:
        def version(v: tuple[str, str, str]) -> dict[str, str]:
            return {"card": v[0], "seat": v[1], "device": v[2]}
        return {"board": self.board, "place": self.place + 1,
                "recorded": version(self.recorded), "reported": version(self.reported)}


class TableOrder:
    """The tally and the held events of one table (module docstring)."""

    def __init__(self) -> None:
        self.tallies: dict[int, Tally] = {}
        self.held: list[Waiting] = []
        self._held_by: dict[str, int] = {}         # device -> its events held
        self._visits: list[int] = []               # the boards the table has been at, in order
        self._readers: dict[str, int] = {}         # card readers' device -> last board named
        self._round: int | None = None             # the round of the table's sitting
        self.progress: float | None = None         # hub time of the last event of a device
                                                   # with nothing held (module docstring)

    # Where the table is -------------------------------------------------------------------
    def reached(self, board: int | None, sitting: object = None) -> None:
        """The table is at ``board`` (after an event was applied), in ``sitting`` (the
        :class:`hub.sitting.Sitting`, one per round and board at a table: the same object is
        the same sitting; its ``round`` is read): a board played again in another sitting
        starts a new tally. The tally keeps the sitting (issue 27: no tuple made per event
        and no dictionary per board beside the tallies)."""
        if board is None:
            return
        tally = self.tallies.get(board)
        if tally is None or (tally.sitting is not _NO_SITTING and tally.sitting is not sitting):
            tally = self.tallies[board] = Tally()
        tally.sitting = sitting
        if not self._visits or self._visits[-1] != board:
            self._visits.append(board)
        now = _round_of(sitting)
        if now is not None and now != self._round:
            self._round = now   # a board of an earlier round is not played again here
            for tally in self.tallies.values():
                then = _round_of(tally.sitting)
                if then is not None and then < now:
                    tally.played = None

    def arrived(self, env: Envelope, hub_time: float | None = None) -> None:
        """An event has come (held or applied) at ``hub_time``: a card reader's says which
        board its reads have reached (its events keep their order: those of earlier boards
        came before); one of a device with nothing held is the table's progress."""
        if hub_time is not None and not self._held_by.get(env.device):
            self.progress = hub_time if self.progress is None else max(self.progress, hub_time)
        board = (env.at or {}).get("board")
        if board is not None and is_reader(env.device):
            self._readers[env.device] = board

    def _readers_past(self, board: int) -> bool:
        """Every card reader that has reported at the table has reported on a board the
        table reached after ``board``, or has not reached yet: all it read on ``board`` has
        come (True at a table without readers)."""
        for named in self._readers.values():
            if named == board:
                return False
            if named in self._visits and board in self._visits and \
                    _last(self._visits, named) < _last(self._visits, board):
                return False
        return True

    def _board(self, env: Envelope, current: int | None) -> int | None:
        at = env.at or {}
        board = at.get("board")
        return current if board is None else board

    def fits(self, env: Envelope, current: int | None, phase: str | None = None,
             trick: TrickPlace | None = None) -> bool:
        """Whether the record has reached the place ``env.at`` names (``current``: the
        board the table is at, ``phase`` its phase there: ``auction``, ``play``, ``over``;
        ``trick`` where its play is, :data:`TrickPlace`)."""
        at = env.at
        if not at:
            return True
        board = self._board(env, current)
        if board is None:
            return not any(at.get(k) for k in COUNTS)
        tally = self.tallies.get(board)
        if tally is None:
            return False
        if not (tally.hands >= at.get("hands", 0) and tally.answers >= at.get("answers", 0)
                and tally.calls >= at.get("calls", 0) and tally.cards >= at.get("cards", 0)):
            return False
        return (self._kind_fits(env, board, board == current, phase)
                and _trick_fits(env, board == current, phase, trick))

    def _kind_fits(self, env: Envelope, board: int, here: bool, phase: str | None) -> bool:
        """What a device that cannot know part of the record leaves out, the kind of its
        event says (module docstring). ``here``: the table is at ``board``, the one
        ``env.at`` names, in ``phase`` (``auction``, ``play``, ``over``)."""
        at, kind = env.at or {}, env.type
        if "calls" not in at:
            if kind in ("card", "claim"):   # played after the auction, at that board
                return here and phase in ("play", "over")
            if kind == "hand" and env.body.get("when") == "back":   # after the auction
                return not here or phase != "auction"
        if kind == "claim" and "cards" not in at and here and phase == "play":
            # A claim entered where the tablet did not see the cards (cut off at a table
            # whose readers record the play): after all the readers read of the board before
            # it, that is once a reader put a hand back, or named a later board.
            tally = self.tallies.get(board)
            return (tally is not None and tally.back > 0) or self._readers_past(board)
        if kind in ("board", "result_confirm") and "cards" not in at:
            if here and phase == "play":    # after the play
                return False
            if kind == "board" and here:    # and after all the readers read of the board
                return self._readers_past(board)
        return True

    def holds(self, device: str) -> bool:
        """Whether an event of ``device`` is held."""
        return bool(self._held_by.get(device))

    def must_wait(self, env: Envelope, current: int | None, phase: str | None = None,
                  trick: TrickPlace | None = None) -> bool:
        """Hold ``env``: an earlier event of its device is held, or its place is not
        reached yet."""
        return (bool(self._held_by.get(env.device))
                or not self.fits(env, current, phase, trick))

    def conflict(self, env: Envelope, current: int | None) -> Conflict | None:
        """The other card already recorded at the place a ``card`` event names, if any."""
        at = env.at
        if env.type != "card" or not at or "cards" not in at:
            return None
        board = self._board(env, current)
        tally = None if board is None else self.tallies.get(board)
        card = str(env.body.get("card", ""))
        place = at["cards"]
        if board is None or tally is None or tally.played is None \
                or place >= len(tally.played) or tally.has_card(card):
            return None
        recorded = tally.played[place]
        return Conflict(board, place, recorded,
                        (card, str(env.body.get("seat", "")), env.device))

    def note(self, env: Envelope, current: int | None, sitting: object = None) -> None:
        """An event the table accepted: count its sweep, call or card (``current``: the
        board the table is at after it, in ``sitting``)."""
        self.reached(current, sitting)
        if env.type not in ("hand", "answer", "call", "card"):
            return
        board = self._board(env, current)
        if board is None:
            return
        tally = self.tallies.get(board)
        if tally is None:
            tally = self.tallies[board] = Tally(sitting=_NO_SITTING)
        if env.type == "hand":
            tally.hands += 1
            if env.body.get("when") == "back" and is_reader(env.device):
                tally.back += 1
            return
        if env.type == "answer":
            tally.answers += 1
            return
        if env.type == "call":
            tally.calls += 1
            return
        tally.add_card(str(env.body.get("card", "")), str(env.body.get("seat", "")), env.device)

    # Held events --------------------------------------------------------------------------
    def hold(self, env: Envelope, hub_time: float) -> None:
        self.held.append(Waiting(env, hub_time))
        self._held_by[env.device] = self._held_by.get(env.device, 0) + 1

    def ready(self, current: int | None, phase: str | None = None,
              trick: TrickPlace | None = None) -> Waiting | None:
        """The first held event that fits now and is its device's first held one (taken
        out of the held events), or None."""
        devices: set[str] = set()
        holding = sum(1 for n in self._held_by.values() if n)
        for i, w in enumerate(self.held):
            if w.env.device in devices:
                if len(devices) >= holding:   # every device's first held one looked at
                    break
                continue
            devices.add(w.env.device)
            if self.fits(w.env, current, phase, trick):
                self._held_by[w.env.device] -= 1
                return self.held.pop(i)
        return None

    def overdue(self, hub_time: float, hold_seconds: float) -> bool:
        """Events have waited too long since the table's last progress, or too many
        wait."""
        if not self.held:
            return False
        since = self.held[0].since
        if self.progress is not None:
            since = max(since, self.progress)
        return hub_time - since >= hold_seconds or len(self.held) > MAX_HELD

    def take_all(self) -> list[Waiting]:
        held, self.held = self.held, []
        self._held_by.clear()
        return held

    def snapshot(self) -> dict[str, Any]:
        return {"held": [w.env.id for w in self.held],
                "boards": {str(b): [t.hands, t.answers, t.calls, t.cards]
                           for b, t in sorted(self.tallies.items())}}


def _trick_fits(env: Envelope, here: bool, phase: str | None,
                trick: TrickPlace | None) -> bool:
    """A ``card`` whose ``at`` names its ``trick`` (and ``position``) waits for that
    place in the play (a seat tablet cut off knows its own cards only: docs/protocol.md
    section 6). A place already past is not waited for: the table judges the card."""
    at = env.at or {}
    number = at.get("trick")
    if env.type != "card" or number is None:
        return True
    if not here or phase not in ("play", "over"):
        return False
    if trick is None:   # the play is over: nothing to wait for
        return True
    done, in_trick, turn = trick
    if done + 1 != number:
        return done + 1 > number
    position = at.get("position")
    if position is not None:
        return in_trick >= position - 1
    return turn is None or turn == env.body.get("seat")


_NO_SITTING = object()
"""A tally's sitting before the table reached its board (an event naming the board came
first): the sitting that reaches it then is its own."""


def _round_of(sitting: object) -> int | None:
    """The round of a sitting (:class:`hub.sitting.Sitting`), None for none."""
    r = getattr(sitting, "round", None)
    return r if isinstance(r, int) else None


def _last(boards: list[int], board: int) -> int:
    return len(boards) - 1 - boards[::-1].index(board)


def is_reader(device: str) -> bool:
    """A card readers' device id: ``{table}-rdr`` (a spare ``{table}-rdr.2`` too)."""
    return device.split(".", 1)[0].endswith("-rdr")
