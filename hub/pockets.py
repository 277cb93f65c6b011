"""The card readers' side of a table: the four pockets read out of the board and back in.

:class:`PocketReads` is a part of :class:`hub.table.TableState`: each ``hand`` event is
compared with the hand record (another board's hand, Law 17D; cards displaced, 87; the board
turned, 7), with the other pockets (a card read twice, 13F; the pack as a whole: counts and
missing cards, 13 and 14; a foreign card, 1) and, read back at the end, with what came out
(7C). Facts become alerts; nothing is refused that a real pocket could hold. A fact of the
pack (a pocket's wrong count, a card read twice, a card missing) is one alert whichever
check finds it: a pocket read first, then the four pockets together update it (a new
version; ``evidence["found_by"]`` names the checks, :mod:`hub.alerts`).

A reader misses a card of a hand swept too fast (issue 15): a pocket read that is its hand
(or, the board turned, another seat's) but one or two cards, with the cards missing in no
other pocket, is first taken for a sweep that missed them. The table is asked to sweep the
hand again (a ``sweep`` prompt in its public state); the new read, or the players naming
the cards the reader cannot read (``answer``), or the seat playing the card, completes it
with no alert. A pocket short again when swept again, or a pocket still in doubt when play
starts, is a short hand (Laws 13, 14) and goes to the director with how sure it is. A card
missing that another pocket holds is certain at once (87). A hand read back into the pocket
short of a card or two is asked to be swept back again before ``cards_returned_wrong``
(7C); the two reads together are what the pocket holds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bridgecore.audit import deal_irregularities
from bridgecore.cards import Card, Seat
from bridgecore.deal import Deal, Hand
from bridgecore.irregularity import Irregularity, Kind, Rectification
from bridgecore.text import Text
from hub.alerts import OPTIONS, Alert, HubKind
from hub.reads import ReadState
from hub.sitting import (
    SEATS,
    Outcome,
    Sitting,
    TableContext,
    card_mask,
    cards_of,
    parse_card,
)
from wire.protocol import Envelope

__all__ = ["PocketReads"]

_SEATS = tuple(Seat)     # iterating the enum builds a list each time



def _card_order(text: str) -> int:
    return Card.parse(text).index


def _fact_key(base: str, irr: Irregularity) -> str:
    """The alert key of a fact of the pack (Laws 1, 13, 14), whichever check finds it: a
    seat's wrong count, a card read twice, a card missing."""
    if irr.kind is Kind.WRONG_CARD_COUNT and irr.seat is not None:
        return f"{base}:{irr.kind.value}:{irr.seat.letter}"
    card = dict(irr.extra).get("card")
    if card is not None:
        return f"{base}:{irr.kind.value}:{card}"
    return f"{base}:{irr.kind.value}:{irr.detail}"  # pragma: no cover - every kind has one


class PocketReads:
    """The pocket checks of a table (a part of :class:`hub.table.TableState`)."""

    if TYPE_CHECKING:
        id: str
        context: TableContext
        sitting: Sitting | None

        def _base(self) -> str: ...
        def _ack(self, env: Envelope, t: float, changed: bool,
                 alerts: Any = (), reason: str = "") -> Outcome: ...
        def _reject(self, env: Envelope, t: float, code: str, reason: Any) -> Outcome: ...
        def _start_board(self, number: int, t: float, occurred: float) -> list[Alert | None]: ...
        def _alert(self, key: str, t: float, kind: str, law: str, *, seats: Any = (),
                   call: int | None = None, trick: int | None = None,
                   occurred: float | None = None, detail: Text | str = "", facts: Any = None,
                   options: tuple[Rectification, ...] | Any = (),
                   source: str = "") -> Alert | None: ...
        def _irregularity_alert(self, key: str, irr: Irregularity, t: float,
                                facts: Any = None, detail: Text | None = None,
                                source: str = "") -> Alert | None: ...
        def read_state(self, s: Sitting | None = None) -> ReadState: ...
        def count_error(self, seat: Seat, kind: str, n: int = 1) -> None: ...
        _how_sure: str | None

    # Hands from the card readers ----------------------------------------------------------
    def _hand(self, env: Envelope, t: float) -> Outcome:
        body = env.body
        seat = SEATS[body["seat"]]
        when = body.get("when") or "out"
        if when not in ("out", "back"):
            return self._reject(env, t, "malformed", f"hand: when {when!r} is not out or back")
        texts = body["cards"]
        if not all(isinstance(x, str) for x in texts) or len(texts) > 64:
            return self._reject(env, t, "malformed", "hand: cards must be up to 64 card names")
        alerts: list[Alert | None] = []
        if self.sitting is None:
            number = body.get("board")
            if number is None or number < 1:
                return self._reject(env, t, "wrong_state", Text.of("deny.no_board"))
            alerts += self._start_board(number, t, env.time)
        cards: list[Card] = []
        foreign: list[str] = []
        for text in texts:
            card = parse_card(text)
            if card is None:
                foreign.append(text)
            else:
                cards.append(card)
        s = self.sitting
        assert s is not None
        if when == "back":
            s.pocket_back(seat)
            back = self._hand_back(seat, cards, foreign, t, env.time)
            if s.board.play is None:  # put back before play (7B): its next read replaces it
                s.reads.pop(seat, None)
                s.foreign.pop(seat, None)
            return self._ack(env, t, False, back)
        rs = self.read_state(s)
        rs.live = True
        cards, doubt = self._sweep(s, rs, seat, cards, foreign)
        s.pocket_out(seat)
        s.reads[seat] = tuple(cards)
        if foreign:
            s.foreign[seat] = tuple(foreign)
        else:
            s.foreign.pop(seat, None)
        try:
            if doubt:
                alerts.append(self._check_rotation(s, t, env.time))
            else:
                alerts += self._check_hand(s, seat, cards, foreign, t, env.time)
            mine = card_mask(cards)
            for other, bits in list(rs.sweeps.items()):
                if other is not seat and bits & mine:
                    # The card a sweep may have missed is in this pocket: a hand that
                    # differs, certain (87).
                    rs.sweeps.pop(other)
                    rs.prompts.pop(f"sweep:{other.letter}", None)
                    alerts += self._check_hand(s, other, list(s.reads.get(other, ())), [],
                                               t, env.time)
            alerts += self._four_pockets(s, rs, t)
        finally:
            self._how_sure = None
        if not s.has_record and s.board.play is None:  # no hand record: the reads are the deal
            s.board.deal = Deal({x: Hand.of(c) for x, c in s.reads.items()},
                                unknown=[x for x in Seat if x not in s.reads])
        return self._ack(env, t, True, alerts)

    def _four_pockets(self, s: Sitting, rs: ReadState, t: float) -> list[Alert | None]:
        """The four pockets together: the pack as a whole (1, 13, 14), but for what a sweep
        in doubt explains (its count, the cards it may have missed)."""
        if len(s.reads) != 4:
            return []
        out: list[Alert | None] = []
        doubt = 0
        for bits in rs.sweeps.values():
            doubt |= bits
        read = Deal({x: Hand.of(c) for x, c in s.reads.items()})
        for irr in deal_irregularities(read):
            card = dict(irr.extra).get("card")
            if irr.kind is Kind.WRONG_CARD_COUNT and irr.seat in rs.sweeps:
                continue
            if (irr.kind is Kind.MISSING_CARD and isinstance(card, str)
                    and doubt >> Card.parse(card).index & 1):
                continue
            out.append(self._irregularity_alert(
                _fact_key(self._base(), irr), irr, t, source="four pockets"))
        return out

    def _sweep(self, s: Sitting, rs: ReadState, seat: Seat, cards: list[Card],
               foreign: list[str]) -> tuple[list[Card], bool]:
        """The pocket's cards, with an earlier sweep of the same pocket that read what this
        one missed; and whether it is in doubt (module docstring)."""
        before = rs.sweeps.get(seat)
        if not s.has_record or foreign or s.board.play is not None:
            rs.sweeps.pop(seat, None)
            rs.prompts.pop(f"sweep:{seat.letter}", None)
            return cards, False
        mask = card_mask(cards)
        deal = s.board.deal
        previous = card_mask(s.reads.get(seat, ()))
        others = 0
        for x, other in s.reads.items():
            if x is not seat:
                others |= card_mask(other)
        for x in _SEATS:
            record = card_mask(deal[x])
            if mask & ~record:
                continue
            union = mask | (previous if before is not None and previous & ~record == 0
                            else 0)
            missing = record & ~union
            if union != mask:
                # Swept again: the two sweeps together are what the pocket holds.
                cards = [Card.from_index(i) for i in range(52) if union >> i & 1]
            if missing == 0:
                break
            if bin(missing).count("1") > 2 or missing & others:
                break
            if before is not None and before == missing:
                break   # swept again, the same cards missing: a short hand
            if before is None:
                self.count_error(seat, "sweep")
            rs.sweeps[seat] = missing
            rs.prompts[f"sweep:{seat.letter}"] = {
                "id": f"{self._base()}:sweep:{seat.letter}", "kind": "sweep",
                "seat": seat.letter, "count": bin(missing).count("1")}
            return cards, True
        if before is not None:
            self._how_sure = "swept again" if rs.sweeps.get(seat) else None
        rs.sweeps.pop(seat, None)
        rs.prompts.pop(f"sweep:{seat.letter}", None)
        return cards, False

    def sweep_completed(self, s: Sitting, seat: Seat, bits: int,
                        t: float) -> list[Alert | None]:
        """Cards of ``seat``'s pocket its reader missed are known to be there (named by the
        players, or played): the pocket read is completed."""
        rs = self.read_state(s)
        missing = rs.sweeps.get(seat, 0) & ~bits
        cards = s.reads.get(seat, ())
        s.reads[seat] = tuple(sorted({*cards, *(Card.from_index(i) for i in range(52)
                                                 if bits >> i & 1)}, key=lambda c: c.index))
        if missing:
            rs.sweeps[seat] = missing
            return []
        rs.sweeps.pop(seat, None)
        rs.prompts.pop(f"sweep:{seat.letter}", None)
        return []

    def sweeps_unanswered(self, s: Sitting, t: float) -> list[Alert | None]:
        """Play starts with pockets still in doubt: they are short hands as read (13, 14),
        to the director with how sure it is."""
        rs = self.read_state(s)
        out: list[Alert | None] = []
        if not rs.sweeps:
            return out
        self._how_sure = "likely: the reader may have missed it; the hand was not swept again"
        try:
            for seat in list(rs.sweeps):
                rs.sweeps.pop(seat)
                rs.prompts.pop(f"sweep:{seat.letter}", None)
                cards = list(s.reads.get(seat, ()))
                out += self._check_hand(s, seat, cards, [], t, t)
            out += self._four_pockets(s, rs, t)
        finally:
            self._how_sure = None
        return out

    def _check_hand(self, s: Sitting, seat: Seat, cards: list[Card], foreign: list[str],
                    t: float, occurred: float) -> list[Alert | None]:
        """One pocket read against the hand record and the pockets read so far. A wrong
        count or a card read twice is a fact of the pack: the same alert as the four
        pockets' check (:func:`_fact_key`), which judges it alone once they are all read."""
        base = f"{self._base()}:hand:{seat.letter}"
        fact = self._base()
        source = f"pocket {seat.letter}"
        pack_checked = len(s.reads) == 4
        board = s.board
        called = any(e.seat is seat for e in board.auction.entries)
        calls = len(board.auction)
        when = (Text.of("alert.pocket_after_call", seat=seat) if called
                else Text.of("alert.pocket_before_call", seat=seat))
        common = {"seat": seat.letter, "calls_made": calls, "seat_has_called": called}
        out: list[Alert | None] = []
        if foreign:
            out.append(self._alert(
                f"{base}:foreign", t, HubKind.FOREIGN_CARD.value, "1", seats=(seat,),
                occurred=occurred, detail=Text.of("alert.pocket_foreign", seat=seat, n=len(foreign),
                                             tags=", ".join(foreign)),
                facts={**common, "foreign": foreign}, options=OPTIONS["pack"]))
        mask, twice = 0, []
        for c in cards:
            bit = 1 << c.index
            if mask & bit:
                twice.append(str(c))
            mask |= bit
        elsewhere = {str(c): x.letter for x, other in s.reads.items()
                     if x is not seat and x in s.out for c in other if mask >> c.index & 1}
        for card in [] if pack_checked else sorted({*twice, *elsewhere}, key=_card_order):
            where = [Text.of("alert.pocket_read_twice", card=card)] if card in twice else []
            also = {card: elsewhere[card]} if card in elsewhere else {}
            where += [Text.of("alert.pocket_also_in", card=card, other_seat=x)
                      for x in also.values()]
            kind = Kind.DUPLICATE_CARD.value
            out.append(self._alert(
                f"{fact}:{kind}:{card}", t, kind, "13F", seats=(seat,), occurred=occurred,
                detail=Text.of("alert.pocket_duplicate", seat=seat, where=where),
                facts={**common, "twice": [card] if card in twice else [], "also_in": also},
                options=OPTIONS["pack"], source=source))
        count = len(cards) + len(foreign)
        if count != 13 and not pack_checked:
            over = count > 13 or any(len(r) > 13 for r in s.reads.values())
            law = "13" if over else "14"
            out.append(self._alert(
                f"{fact}:{Kind.WRONG_CARD_COUNT.value}:{seat.letter}", t,
                Kind.WRONG_CARD_COUNT.value, law,
                seats=(seat,), occurred=occurred, detail=Text.of(
                    "alert.pocket_count", seat=seat, count=count, law=law, when=when),
                facts={**common, "count": count},
                options=OPTIONS["card_count"], source=source))
        if s.has_record:
            expected = card_mask(board.deal[seat])
            if mask != expected:
                out += self._compare(s, seat, mask, expected, base, common, t, occurred)
            else:
                s.wrong_hand.pop(seat, None)  # his own cards now
            out.append(self._check_rotation(s, t, occurred))
        return out

    def _compare(self, s: Sitting, seat: Seat, mask: int, expected: int, base: str,
                 common: dict[str, Any], t: float, occurred: float) -> list[Alert | None]:
        number = s.board.number
        matches = self.context.hands_matching(mask)
        if any(b == number for b, _ in matches):
            return []  # another seat's hand of this board: see _check_rotation
        other = [(b, x) for b, x in matches if b != number]
        if other:
            b, x = other[0]
            s.wrong_hand[seat] = f"{base}:wrong_hand"
            return [self._alert(
                f"{base}:wrong_hand", t, HubKind.HAND_NOT_DEALT.value, "17D", seats=(seat,),
                occurred=occurred, detail=Text.of("alert.hand_not_dealt", seat=seat, held_seat=x,
                                             held_board=b, board=number),
                facts={**common, "holds_board": b, "holds_seat": x.letter, "calls_with_it": []},
                options=OPTIONS["hand_not_dealt"])]
        deal = s.board.deal
        extra = {c: (o.letter if (o := deal.owner(Card.parse(c))) is not None else None)
                 for c in cards_of(mask & ~expected)}
        missing = cards_of(expected & ~mask)
        return [self._alert(
            f"{base}:differs", t, HubKind.HAND_DIFFERS.value, "87", seats=(seat,),
            occurred=occurred, detail=Text.of(
                "alert.hand_differs", seat=seat, where=[
                    *(Text.of("alert.hand_differs_card", card=c, owner_seat=o) if o else
                      Text.of("alert.hand_differs_stray", card=c) for c, o in extra.items()),
                    *([Text.of("alert.hand_differs_missing", cards=missing)]
                      if missing else [])]),
            facts={**common, "extra": extra, "missing": missing}, options=OPTIONS["fouled"])]

    def _check_rotation(self, s: Sitting, t: float, occurred: float) -> Alert | None:
        deal = s.board.deal
        record = {x: card_mask(deal[x]) for x in _SEATS}
        steps: dict[Seat, int | None] = {}
        for seat, cards in s.reads.items():
            m = card_mask(cards)
            holder = next((x for x in _SEATS if record[x] == m), None)
            doubt = self.read_state(s).sweeps.get(seat, 0)
            if holder is None and doubt:   # a sweep in doubt: the hand it is part of
                holder = next((x for x in _SEATS if record[x] == m | doubt), None)
            steps[seat] = None if holder is None else holder.distance_to(seat)
        if not any(k for k in steps.values()):
            return None
        held = {x.letter: (None if k is None else x.offset(-k).letter) for x, k in steps.items()}
        calls = len(s.board.auction)
        distinct = set(steps.values())
        base = self._base()
        if len(distinct) == 1:
            k = next(iter(distinct))
            assert k is not None
            return self._alert(
                f"{base}:rotated", t, HubKind.ROTATED_BOARD.value, "7",
                seats=sorted(steps), occurred=occurred,
                detail=Text.of(
                    "alert.rotated", board=s.board.number, degrees=90 * k, holds=[
                        Text.of("alert.holds", seat=x, held_seat=h) for x, h in held.items()],
                    when=Text.of("alert.rotated_before") if calls == 0
                    else Text.of("alert.rotated_calls", n=calls)),
                facts={"rotation": 90 * k, "seats_read": sorted(held), "holds": held,
                       "complete": len(steps) == 4, "calls_made": calls},
                options=OPTIONS["rotated_board"])
        return self._alert(
            f"{base}:exchanged", t, HubKind.HANDS_EXCHANGED.value, "87",
            seats=[x for x, k in steps.items() if k], occurred=occurred,
            detail=Text.of("alert.exchanged", holds=[
                Text.of("alert.holds", seat=x, held_seat=h)
                for x, h in held.items() if h not in (None, x)]),
            facts={"holds": held, "calls_made": calls},
            options=OPTIONS["fouled"])

    def _hand_back(self, seat: Seat, cards: list[Card], foreign: list[str], t: float,
                   occurred: float) -> list[Alert | None]:
        s = self.sitting
        assert s is not None
        original = s.reads.get(seat)
        if original is None:
            if not s.has_record:
                return []
            original = s.board.deal[seat].cards
        got, want = card_mask(cards), card_mask(original)
        rs = self.read_state(s)
        key = f"back:{seat.letter}"
        earlier = rs.backs.get(seat, 0)
        if earlier and not foreign and (got | earlier) & ~want == 0:
            got |= earlier   # swept back again: the two reads are what the pocket holds
            cards = [Card.from_index(i) for i in range(52) if got >> i & 1]
        if got == want and not foreign and bin(got).count("1") == 13:
            rs.backs.pop(seat, None)
            rs.prompts.pop(key, None)
            return []
        short = want & ~got
        if (not foreign and not got & ~want and bin(short).count("1") <= 2
                and seat not in rs.backs):
            # A sweep back into the pocket missing a card or two: swept again first (7C).
            self.count_error(seat, "sweep")
            rs.backs[seat] = got
            rs.prompts[key] = {"id": f"{self._base()}:{key}", "kind": "sweep",
                               "seat": seat.letter, "count": bin(short).count("1")}
            return []
        rs.backs.pop(seat, None)
        rs.prompts.pop(key, None)
        return [self._alert(
            f"{self._base()}:back:{seat.letter}", t, HubKind.CARDS_RETURNED_WRONG.value, "7C",
            seats=(seat,), occurred=occurred,
            detail=Text.of("alert.read_back", seat=seat, where=[
                *([Text.of("alert.read_back_not_his", cards=cards_of(got & ~want))]
                  if got & ~want else []),
                *([Text.of("alert.read_back_missing", cards=cards_of(want & ~got))]
                  if want & ~got else []),
                *([Text.of("alert.read_back_foreign", tags=", ".join(foreign))]
                  if foreign else [])]),
            facts={"seat": seat.letter, "extra": cards_of(got & ~want),
                   "missing": cards_of(want & ~got), "foreign": foreign},
            options=OPTIONS["cards_returned_wrong"])]

