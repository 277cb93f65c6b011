"""What a card read means: the play tracked from readers that err, without cascading.

Card readers miss a card, read one at the neighbouring seat's zone (or at dummy's, declarer
playing from it), read a tag late or twice, and miss a card of a hand swept out of the
pocket (issue 15). A read is therefore evidence, weighed against what the Laws make certain:
whose turn it is (44, 45), the cards each seat holds (the hand record, the pockets read),
the cards already played. :class:`CardReads` is the part of :class:`hub.table.TableState`
that decides, for each ``card`` event in play (``answer`` events too), what it most likely
is. It is the one place where reads are interpreted (the events of a table played offline
come here in the order of its record, hub.ordering, and are interpreted the same way):

* a card already played, or already read and held, is **nothing** (a repeated read, a
  trick shown again, the tablet's tap of a card the reader read: one card);
* a reader's card that another seat holds is **that seat's card**, whatever zone read it
  (a cross-read: counted for the reader that read it, no alert); when it is not the seat
  on turn's, the next rule holds it, and its holder then playing his own card to the trick
  shows that the seat on turn faced a card not in his hand (87);
* a card (read or tapped) of another seat than the one on turn, while the table's readers
  are in use, may be a play or lead out of turn (53-57) or the card of the seat on turn
  (and the next) missed or read late:
  it is **held**, and the table asked "tap the card South played to trick 5"
  (a prompt in the table's public state). The answer (an ``answer`` event) places the
  missing card, and the held ones after it; "South had not played" confirms the play out
  of turn. Without an answer, the skipped seat's own card arriving and another card after
  it (the trick going on) settles it as recorded: the play or lead out of turn goes to the
  director within the trick (``evidence["sure"]``: the table did not answer), up to a
  second card of a seat in the trick, which asks again. An answer with the card's
  ``place`` in the trick puts it after the cards held before it (they were out of turn);
  an answer that comes before the question is kept for it. A missing card that is certain
  (the seat's last card) is placed at once; still unanswered with
  :data:`UNANSWERED_AFTER` cards held, the director is told of the reader
  (``reads_unresolved``);
* a card held at another seat's turn that would be in turn had an earlier trick's last
  card been its seat's lead to the next trick (his own card to that trick missed, the
  trick given to the wrong side, the cards since taken in that belief) asks about that
  trick instead, with the card recorded there (``recorded``): another card corrects the
  trick and the cards since are placed again; the recorded one asks the usual question;
* a seat's last card not read (nothing follows it to show it was missed): with the
  readers silent :data:`LAST_CARD_WAIT` seconds, the hub's clock (``Room.tick``) asks the
  table, about that seat's card or the earlier trick as above, so that a board never waits
  for ever on a card nobody read;
* a card that would be a revoke as the last card of a trick (the seat's card to
  the trick may have been missed, and this be its lead to the next one) is held likewise
  for two more cards or the answer;
* anything else is recorded as it comes: a true revoke is detected at once (a tapped card
  not in hand too); with no reader in use (tapping only, or none read this board) a play
  or lead out of turn too.

A card reported as ``source: "record"`` (a game record played through the hub, ``tenace
replay``) is certain and recorded as it comes. A question still open when the table goes on
to something else (a claim, a result, another board) is settled as recorded.

With the table switched to tapping only (the director's ``tapping_only``), reader cards are
logged and counted, not played. Each reader's errors are counted (:attr:`reader_errors`,
per seat: ``missed``, ``cross``, ``late``, ``repeat``, ``sweep``, ``ignored``) for the
console. The pockets' side (a sweep that missed a card) is in :mod:`hub.pockets`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bridgecore.cards import Card, Seat
from bridgecore.text import Text
from bridgecore.tricks import trick_winner
from hub.alerts import Alert, HubKind
from hub.ordering import is_reader
from hub.sitting import SEATS, Outcome, Sitting, TableContext, parse_card
from wire.protocol import Envelope

__all__ = ["LAST_CARD_WAIT", "READER_ERROR_KINDS", "UNANSWERED_AFTER", "CardReads", "Held",
           "ReadState"]

READER_ERROR_KINDS = ("missed", "cross", "late", "repeat", "sweep", "unreadable", "ignored")
UNANSWERED_AFTER = 8   # cards held without an answer before the director is told
LAST_CARD_WAIT = 15.0  # s: a seat's last card not read for so long, the table is asked




@dataclass(slots=True)
class Held:
    """A card reported and not yet placed in the play."""

    seat: Seat
    card: Card
    time: float
    device: str
    reader: bool
    zone: Seat          # the seat whose reader or tablet reported it


@dataclass(slots=True)
class ReadState:
    """One board's reads at a table: cards held, the question open, the prompts shown."""

    held: list[Held] = field(default_factory=list)
    missing: tuple[Seat, int] | None = None   # (seat, trick) whose card the table is asked
    suspect: bool = False                     # held for a revoke that may be a missed read
    told: bool = False                        # the director told of an unanswered question
    live: bool = False                        # the table's readers read on this board
    sweeps: dict[Seat, int] = field(default_factory=dict)   # seat -> cards missing (mask)
    backs: dict[Seat, int] = field(default_factory=dict)    # seat -> read back short (mask)
    answers: dict[tuple[Seat, int], Card] = field(default_factory=dict)  # told before asked
    recorded: Card | None = None    # asked about an earlier trick: the card recorded there
    last_at: float | None = None    # hub time of the last card reported (LAST_CARD_WAIT)
    prompts: dict[str, dict[str, Any]] = field(default_factory=dict)


class CardReads:
    """The card-read interpretation of a table (a part of :class:`hub.table.TableState`)."""

    if TYPE_CHECKING:
        id: str
        context: TableContext
        sitting: Sitting | None
        tapping_only: bool
        reader_errors: dict[str, dict[str, int]]
        _how_sure: str | None

        def _base(self) -> str: ...
        def _ack(self, env: Envelope, t: float, changed: bool,
                 alerts: Any = (), reason: str = "") -> Outcome: ...
        def _reject(self, env: Envelope, t: float, code: str, reason: Any) -> Outcome: ...
        def _alert(self, key: str, t: float, kind: str, law: str, *, seats: Any = (),
                   call: int | None = None, trick: int | None = None,
                   occurred: float | None = None, detail: Any = "", facts: Any = None,
                   options: Any = (), source: str = "") -> Alert | None: ...
        def _push_card(self, seat: Seat, card: Card, time: float, device: str,
                       t: float) -> list[Alert | None]: ...

    _read_states: dict[tuple[int, int], ReadState]

    # State ---------------------------------------------------------------------------------
    def read_state(self, s: Sitting | None = None) -> ReadState:
        s = s or self.sitting
        assert s is not None
        key = (s.round, s.board.number)
        found = self._read_states.get(key)
        if found is None:
            found = self._read_states[key] = ReadState()
        return found

    def count_error(self, seat: Seat, kind: str, n: int = 1) -> None:
        """One more error of ``kind`` for ``seat``'s reader (the console shows them)."""
        mine = self.reader_errors.setdefault(seat.letter, {})
        mine[kind] = mine.get(kind, 0) + n

    def prompts(self) -> list[dict[str, Any]]:
        """The questions open to the table (its public state's ``prompts``)."""
        if self.sitting is None:
            return []
        return list(self.read_state().prompts.values())

    # A card in play ------------------------------------------------------------------------
    def read_card(self, env: Envelope, t: float, seat: Seat, card: Card) -> Outcome:
        """A ``card`` event in play, not in strict mode (module docstring)."""
        s = self.sitting
        assert s is not None
        play = s.board.play
        assert play is not None
        rs = self.read_state(s)
        rs.last_at = t
        source = env.body.get("source")
        reader = source == "reader"
        if source == "record":   # a game record played through the hub: certain
            return self._ack(env, t, True, self._push_card(seat, card, env.time, env.device,
                                                           t))
        if reader:
            rs.live = True
            if self.tapping_only:
                self.count_error(seat, "ignored")
                return self._ack(env, t, False, reason="the table plays by tapping only: "
                                 "reader cards are logged, not played")
        if self._known(s, rs, card, seat, env.device, reader):
            if reader:
                self.count_error(seat, "repeat")
            return self._ack(env, t, False, reason=f"{card} already recorded")
        if play.is_complete:
            return self._reject(env, t, "wrong_state", Text.of("deny.all_played"))
        h = Held(seat, card, env.time, env.device, reader, seat)
        alerts: list[Alert | None] = []
        if rs.held:
            rs.held.append(h)
            alerts += self._settle(s, rs, t)
        else:
            alerts += self._place(s, rs, h, t)
        return self._ack(env, t, True, alerts)

    def _known(self, s: Sitting, rs: ReadState, card: Card, seat: Seat, device: str,
               reader: bool) -> bool:
        """The card is already in the record or held: this report adds nothing (a tablet
        tapping twice a card it played stays the irregularity it is)."""
        if any(h.card == card for h in rs.held):
            return True
        source = s.card_source.get(card)
        if source is None:
            return False
        return reader or is_reader(source[1]) or (source[0] is seat
                                                        and source[1] != device)

    def _holder(self, s: Sitting, card: Card) -> Seat | None:
        """Who holds ``card`` now: the hand record (less the cards played), else the
        pockets read."""
        play = s.board.play
        assert play is not None
        if s.has_record:
            return play.holder(card)
        return next((x for x, cards in s.reads.items() if card in cards), None)

    def _place(self, s: Sitting, rs: ReadState, h: Held, t: float) -> list[Alert | None]:
        """Place one report in the play, or hold it (module docstring)."""
        play = s.board.play
        assert play is not None
        turn = play.turn
        if turn is None:
            return self._push(h, t)
        holder = self._holder(s, h.card)
        crossed = False
        if h.reader and holder is not None and holder is not h.seat:
            crossed = True
            # Read at the wrong zone: the card is its holder's. (The seat on turn facing a
            # card another holds, 87, shows when that seat then plays his own: _settle.)
            self.count_error(h.zone, "cross")
            h.seat = holder
        trick = len(play.completed_tricks) + 1
        told = rs.answers.get((turn, trick))
        if told is not None and (h.seat is not turn or h.card != told) \
                and told not in s.card_source:
            del rs.answers[(turn, trick)]
            # The table already said what the seat on turn played: its reader missed it.
            self.count_error(turn, "missed")
            out = self._push(Held(turn, told, h.time, "", False, turn), t)
            return out + self._place(s, rs, h, t)
        if h.seat is turn:
            if self._readers_live(s, rs) and self._revoke_as_last(s, h):
                rs.held = [h]
                rs.suspect = True
                self._ask(s, rs, turn, trick, None)
                return []
            if rs.missing == (turn, trick) and not rs.held:
                self._close_question(rs)   # the card asked for (LAST_CARD_WAIT) came
            return self._push(h, t)
        current = play.current_trick
        cards = () if current is None else current.cards
        if (self._readers_live(s, rs) and holder in (h.seat, None)
                and not any(x is turn for x, _ in cards)):
            last = play.remaining(turn)
            if len(last) == 1 and s.has_record:
                # Certain: the seat on turn had one card left (its reader missed it).
                self.count_error(turn, "missed")
                out = self._push(Held(turn, next(iter(last)), h.time, "", False, turn), t)
                return out + self._place(s, rs, h, t)
            rs.held = [h]
            rs.suspect = False
            # A card read at its holder's own zone only: one read at another seat's zone is
            # the table's usual question (it may be a card of another hand played, 87).
            earlier = None if crossed else self._missed_last(s, h)
            if earlier is not None:
                # The cards since fit, in turn, had an earlier trick's last card been its
                # seat's lead to the next one, his own card to it not read: asked of that
                # trick (the answer corrects it; "as recorded" asks the usual question).
                self._ask(s, rs, earlier[0], earlier[1], None, recorded=earlier[2])
                return []
            self._ask(s, rs, turn, trick, h.seat)
            return []
        return self._push(h, t)

    def waiting_tick(self, t: float) -> bool:
        """The hub's clock (Room.tick): the seat on turn has one card left, the readers read
        this board, and no card came for :data:`LAST_CARD_WAIT` s: its card was not read (or
        an earlier one of his, :meth:`_missed_last`). The table is asked, so that a board
        never waits for ever on a card nobody read. True when a question was opened."""
        s = self.sitting
        play = None if s is None else s.board.play
        if s is None or play is None or play.is_complete or play.claims or not s.has_record:
            return False
        rs = self.read_state(s)
        turn = play.turn
        if (turn is None or rs.held or rs.missing is not None or rs.last_at is None
                or t - rs.last_at < LAST_CARD_WAIT or not self._readers_live(s, rs)
                or len(play.remaining(turn)) != 1):
            return False
        earlier = self._missed_last(s, None)
        if earlier is not None and earlier[0] is turn:
            self._ask(s, rs, turn, earlier[1], None, recorded=earlier[2])
        else:
            self._ask(s, rs, turn, len(play.completed_tricks) + 1, None)
        return True

    def _missed_last(self, s: Sitting, h: Held | None) -> tuple[Seat, int, Card] | None:
        """(seat, trick, card): the latest trick whose last card, ``seat``'s ``card``, taken
        as his lead to the next trick (his own card to it missed, and he winning it), puts
        every card since and ``h`` in turn; None when there is none (within the last 8
        cards, as :meth:`_correct` takes back)."""
        play = s.board.play
        assert play is not None
        history = [(x, c) for x, c, _ in play.history]
        trump = play.contract.strain.suit
        completed = play.completed_tricks
        for number in range(len(completed), 0, -1):
            seat, card = completed[number - 1].cards[-1]
            at = next((i for i, (x, c) in enumerate(history) if x is seat and c == card), None)
            if at is None or len(history) - at > 8:
                return None
            turn, trick = seat, []
            for x, c in history[at:] + ([] if h is None else [(h.seat, h.card)]):
                if x is not turn:
                    break
                trick.append((x, c))
                if len(trick) == 4:
                    turn, trick = trick_winner(tuple(trick), None, trump), []
                else:
                    turn = turn.lho
            else:
                return seat, number, card
        return None

    def _revoke_as_last(self, s: Sitting, h: Held) -> bool:
        """``h`` would be a revoke as the last card of the trick (module docstring)."""
        play = s.board.play
        assert play is not None
        if play.cards_in_trick != 3 or not s.has_record:   # counted, not built (issue 27)
            return False
        trick = play.current_trick
        if trick is None:
            return False
        led = trick.led_suit
        return (led is not None and h.card.suit is not led
                and any(c.suit is led for c in play.remaining(h.seat)))

    def _readers_live(self, s: Sitting, rs: ReadState) -> bool:
        return rs.live and not self.tapping_only

    def _push(self, h: Held, t: float) -> list[Alert | None]:
        return self._push_card(h.seat, h.card, h.time, h.device or "hub", t)

    # Holding and settling ------------------------------------------------------------------
    def _ask(self, s: Sitting, rs: ReadState, seat: Seat, trick: int,
             after: Seat | None, recorded: Card | None = None) -> None:
        rs.missing = (seat, trick)
        rs.recorded = recorded
        key = f"card:{trick}:{seat.letter}"
        rs.prompts = {k: v for k, v in rs.prompts.items() if not k.startswith("card:")}
        rs.prompts[key] = {"id": f"{self._base()}:{key}", "kind": "card", "seat": seat.letter,
                           "trick": trick, "after": None if after is None else after.letter}
        if recorded is not None:
            rs.prompts[key]["recorded"] = str(recorded)

    def _close_question(self, rs: ReadState) -> list[Held]:
        held = rs.held
        rs.held = []
        rs.missing = None
        rs.recorded = None
        rs.suspect = False
        rs.told = False
        rs.prompts = {k: v for k, v in rs.prompts.items() if not k.startswith("card:")}
        return held

    def _settle(self, s: Sitting, rs: ReadState, t: float) -> list[Alert | None]:
        """A report came while a question is open: settle it as recorded when the cards
        that followed say so (module docstring), else keep waiting."""
        assert rs.missing is not None
        seat, _ = rs.missing
        held = rs.held
        first = held[0]
        if first.zone is not first.seat and any(h.seat is first.seat for h in held[1:]):
            # Taken for its holder's card, read at another zone: the holder then played his
            # own. It was the card of the seat on turn, not in his hand (87).
            first.seat = seat
            rest = self._close_question(rs)[1:]
            return self._push(first, t) + self._replace(s, rs, rest, t)
        # The skipped seat's own card came, and another after it: the trick went on.
        came = next((i for i, h in enumerate(held) if i and (
            h.seat is seat or self._holder(s, h.card) is seat)), None)
        if (rs.suspect and len(held) >= 3) or (came is not None and len(held) > came + 1):
            return self._release(s, rs, t, "likely: the table did not answer (a read may "
                                 "have been late)")
        if len(held) >= UNANSWERED_AFTER and not rs.told:
            rs.told = True
            return [self._alert(
                f"{self._base()}:unanswered:{rs.missing[1]}:{seat.letter}", t,
                HubKind.READS_UNRESOLVED.value, "", seats=(seat,), trick=rs.missing[1],
                occurred=held[0].time,
                detail=Text.of("alert.reads_unresolved", seat=seat, trick=rs.missing[1],
                               n=len(held)),
                facts={"seat": seat.letter, "trick": rs.missing[1], "held": [
                    [h.seat.letter, str(h.card)] for h in held], "sure": "reader problem"})]
        return []

    def moved_on(self, t: float) -> list[Alert | None]:
        """The table went on to something else (a claim, a result, another board) with a
        question open: what is held is played as it came."""
        s = self.sitting
        if s is None or s.board.play is None:
            return []
        rs = self.read_state(s)
        if not rs.held:
            return []
        return self._release(s, rs, t, "likely: the table went on without answering")

    def _release(self, s: Sitting, rs: ReadState, t: float, sure: str) -> list[Alert | None]:
        """Everything held, played as it came (the irregularity it shows is real)."""
        out: list[Alert | None] = []
        held = self._close_question(rs)
        play = s.board.play
        assert play is not None
        self._how_sure = sure
        try:
            for i, h in enumerate(held):
                current = play.current_trick
                there = () if current is None else [x for x, _ in current.cards]
                if i and len(there) < 4 and (
                        h.seat in there or self._holder(s, h.card) in there
                        or (h.seat is play.turn and self._revoke_as_last(s, h))):
                    # A second card of a seat in the trick (or a revoke as its last card):
                    # maybe the next trick's, a card of this one missing. Asked from there.
                    self._how_sure = None
                    return out + self._replace(s, rs, held[i:], t)
                out += self._push(h, t)
        finally:
            self._how_sure = None
        return out

    def _replace(self, s: Sitting, rs: ReadState, held: list[Held],
                 t: float) -> list[Alert | None]:
        out: list[Alert | None] = []
        for i, h in enumerate(held):
            if rs.held:
                rs.held.extend(held[i:])
                return out + self._settle(s, rs, t)
            if self._known(s, rs, h.card, h.seat, h.device, h.reader):
                continue
            out += self._place(s, rs, h, t)
        return out

    # The table's answer ----------------------------------------------------------------------
    def answer(self, env: Envelope, t: float) -> Outcome:
        """``answer``: the table's answer to a prompt: the card a seat played to a trick
        (``card`` null: it had not played; ``place``: its place in the trick, when it came
        after cards played out of turn), or cards a pocket holds that its reader missed."""
        s = self.sitting
        if s is None:
            return self._reject(env, t, "wrong_state", Text.of("deny.no_board"))
        body = env.body
        seat = SEATS[body["seat"]]
        rs = self.read_state(s)
        if body.get("cards") is not None:
            return self._answer_pocket(env, t, s, rs, seat, body["cards"])
        trick = body.get("trick")
        play = s.board.play
        if trick is None or play is None:
            return self._reject(env, t, "wrong_state", Text.of("deny.no_play"))
        text = body.get("card")
        card = None if text is None else parse_card(text)
        if text is not None and card is None:
            return self._reject(env, t, "malformed", f"not a card: {text!r}")
        current = len(play.completed_tricks) + 1
        if rs.recorded is not None and rs.missing == (seat, trick):
            return self._answer_earlier(env, t, s, rs, seat, trick, card)
        placed = (rs.held and card is not None and trick == current and bool(body.get("place"))
                  and self._played_to(s, seat, trick) is None)
        if rs.missing == (seat, trick) or placed:
            if card is None:   # the seat had not played: what came first was out of turn
                return self._ack(env, t, True, self._release(
                    s, rs, t, "confirmed by the table"))
            held = self._close_question(rs)
            late = [h for h in held if h.card == card]
            rest = [h for h in held if h.card != card]
            self.count_error(seat, "late" if late else "missed")
            # ``place``: the card's place in the trick, when the players say it came after
            # cards of seats out of turn (those are confirmed as they came).
            before = max(0, int(body.get("place") or 0) - 1 - self._in_trick(s))
            alerts: list[Alert | None] = []
            self._how_sure = "confirmed by the table"
            try:
                for h in rest[:before]:
                    alerts += self._push(h, t)
            finally:
                self._how_sure = None
            when = late[0].time if late else held[0].time if held else env.time
            alerts += self._push(Held(seat, card, when, env.device, False, seat), t)
            return self._ack(env, t, True, alerts + self._replace(s, rs, rest[before:], t))
        if card is None:
            return self._ack(env, t, False, reason="nothing asked about it")
        recorded = self._played_to(s, seat, trick)
        if recorded == card:
            return self._ack(env, t, False, reason="as recorded")
        turn = play.turn
        place = int(body.get("place") or 0)
        if (recorded is None and trick == current and card not in s.card_source
                and 1 <= place <= self._in_trick(s) and not rs.held):
            # Played before cards already recorded: out of turn (the table says so).
            return self._ack(env, t, True, self._insert(s, seat, card, place, env, t))
        if recorded is None and turn is seat and current == trick \
                and card not in s.card_source:
            self.count_error(seat, "missed")
            return self._ack(env, t, True, self._push(Held(seat, card, env.time, env.device,
                                                           False, seat), t))
        if recorded is not None and card not in s.card_source:
            return self._ack(env, t, True, self._correct(s, rs, seat, trick, recorded, card,
                                                         env, t))
        if recorded is None and trick >= len(play.completed_tricks) + 1 \
                and card not in s.card_source:
            rs.answers[(seat, trick)] = card   # told before the hub asked: kept for then
            return self._ack(env, t, True, reason="noted")
        return self._ack(env, t, False, reason=f"{seat}'s card to trick {trick} is recorded as "
                         f"{recorded}: kept")

    def _answer_earlier(self, env: Envelope, t: float, s: Sitting, rs: ReadState,
                        seat: Seat, trick: int, card: Card | None) -> Outcome:
        """The answer to a question about an earlier trick (:meth:`_missed_last`): another
        card than the one recorded corrects that trick and replays the cards since; the
        recorded one (or none) keeps the record and asks the usual question."""
        play = s.board.play
        assert play is not None and rs.recorded is not None
        recorded = rs.recorded
        held = self._close_question(rs)
        rs.held = held
        if card is None or card == recorded or card in s.card_source:
            turn = play.turn
            if turn is None:
                return self._ack(env, t, True, self._release(s, rs, t, "as recorded"))
            self._ask(s, rs, turn, len(play.completed_tricks) + 1,
                      held[0].seat if held else None)
            return self._ack(env, t, True, reason=f"{seat}'s card to trick {trick} is "
                             f"{recorded} as recorded")
        return self._ack(env, t, True, self._correct(s, rs, seat, trick, recorded, card,
                                                     env, t))

    def _in_trick(self, s: Sitting) -> int:
        play = s.board.play
        assert play is not None
        current = play.current_trick
        return 0 if current is None else len(current.cards)

    def _played_to(self, s: Sitting, seat: Seat, trick: int) -> Card | None:
        play = s.board.play
        assert play is not None
        tricks = play.tricks
        if not 1 <= trick <= len(tricks):
            return None
        return next((c for x, c in tricks[trick - 1].cards if x is seat), None)

    def _correct(self, s: Sitting, rs: ReadState, seat: Seat, trick: int, recorded: Card,
                 card: Card, env: Envelope, t: float) -> list[Alert | None]:
        """The table says ``seat`` played ``card`` to ``trick``, recorded as ``recorded`` (its
        own card missed, the next one taken for it): the cards from there are placed again,
        the missing one first. Only the last few cards are taken back."""
        play = s.board.play
        assert play is not None
        history = play.history
        at = next((i for i, (x, c, _) in enumerate(history) if x is seat and c == recorded),
                  None)
        if at is None or len(history) - at > 8:
            return []
        board = s.board
        again: list[Held] = []
        for x, c, tm in reversed(history[at:]):
            board.pop()
            source = s.card_source.pop(c, (x, "hub"))
            again.append(Held(x, c, tm or env.time, source[1],
                              is_reader(source[1]), x))
        again.reverse()
        self.count_error(seat, "missed")
        held = rs.held
        rs.held = []
        out = self._push(Held(seat, card, again[0].time, env.device, False, seat), t)
        return out + self._replace(s, rs, again + held, t)

    def _insert(self, s: Sitting, seat: Seat, card: Card, place: int, env: Envelope,
                t: float) -> list[Alert | None]:
        """``seat``'s ``card``, not read, was the ``place``-th of the trick in progress: the
        cards recorded after it are taken back and played again after it, as they came."""
        board = s.board
        again: list[Held] = []
        for _ in range(self._in_trick(s) - place + 1):
            popped = board.pop()
            assert isinstance(popped, Card)
            x, device = s.card_source.pop(popped, (seat, "hub"))
            again.append(Held(x, popped, env.time, device, is_reader(device), x))
        again.reverse()
        self.count_error(seat, "missed")
        out: list[Alert | None] = []
        self._how_sure = "confirmed by the table"
        try:
            out += self._push(Held(seat, card, again[0].time, env.device, False, seat), t)
            for h in again:
                out += self._push(h, t)
        finally:
            self._how_sure = None
        return out

    def _answer_pocket(self, env: Envelope, t: float, s: Sitting, rs: ReadState, seat: Seat,
                       texts: list[str]) -> Outcome:
        """Cards the players see in ``seat``'s pocket that its reader did not read."""
        cards = [c for c in (parse_card(x) for x in texts) if c is not None]
        if len(cards) != len(texts):
            return self._reject(env, t, "malformed", "answer: cards must be card names")
        missing = rs.sweeps.get(seat, 0)
        bits = 0
        for c in cards:
            bits |= 1 << c.index
        if not missing or bits & ~missing:
            return self._ack(env, t, False, reason="nothing asked about these cards")
        self.count_error(seat, "unreadable", bin(bits).count("1"))
        return self._ack(env, t, True, self.sweep_completed(s, seat, bits, t))

    if TYPE_CHECKING:
        def sweep_completed(self, s: Sitting, seat: Seat, bits: int,
                            t: float) -> list[Alert | None]: ...
