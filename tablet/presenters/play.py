"""The play screen: the trick, this seat's hand, dummy, the card picker of a table's tablet,
the trick just quitted, and claims.

What the Laws decide here, each with its test (tests/tablet/test_play.py):

* the auction record only until the opening lead is faced, then the contract and whether it
  is doubled; dummy's cards only once the lead is faced (41C, 41D), taken from the public
  state and never remembered from an earlier one; a table's tablet never shows a hand but
  dummy's;
* dummy does not play: declarer plays dummy's cards (43);
* the cards offered follow suit (44C, 44D) in strict mode; in bidding-box mode any card can
  be played, and the hub records it and alerts the director;
* the trick just quitted may be shown again while the player's side has not played to the
  next trick (66A);
* claims: dummy does not claim (43A1c); the opponents of the claimer's side answer, both
  defenders for declarer's claim, declarer for a defender's (68-70); no card once a claim
  stands (68D).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bridgecore.cards import ALL_CARDS, Card
from bridgecore.errors import BridgeError
from tablet.i18n import suit_colour
from tablet.model import SEATS, TableModel, known, seat_of, side_of
from tablet.presenters.common import (
    AuctionCell,
    CardOption,
    Event,
    PresenterError,
    auction_cells,
    card_options,
)
from tablet.presenters.rectify import RectifyPresenter

__all__ = ["ClaimView", "PlayPresenter", "QuittedTrick"]


@dataclass(frozen=True, slots=True)
class ClaimView:
    """The claim in force or last made (68, 69, 70), and who this tablet answers for."""

    claimer: str
    tricks: int
    remaining: int
    statement: str
    status: str               # open, accepted, disputed, void
    answer_for: tuple[str, ...]
    text: str
    pending: bool = False     # made or answered here, not yet confirmed by the hub
    total: int | None = None  # the claimer's side's tricks on the board ("claims 10")
    cards: tuple[str, ...] = ()   # the claimer's cards, faced while it is open (68C)
    dispute_for: tuple[str, ...] = ()   # the claimer's partner: may dispute, never accept
    #                                     (dummy 68D, a defender's partner 68B2; 69A)


@dataclass(frozen=True, slots=True)
class QuittedTrick:
    """The trick just quitted (66A): its cards by seat, its winner, and the seats whose card
    the hub has not confirmed yet."""

    number: int
    cards: dict[str, str]
    winner: str
    pending: set[str]


class PlayPresenter:
    """``PlayPresenter(model)``: what the play screen shows, and the ``card``, ``claim`` and
    ``claim_answer`` events it sends."""

    def __init__(self, model: TableModel):
        self.model = model
        self._answered: set[tuple[Any, ...]] = set()     # claims answered, by seat
        self._played: set[str] = set()                   # cards seen played this board
        self._played_board: Any = None

    # Cut off at a table whose readers record the play -------------------------------------
    @property
    def can_leave(self) -> bool:
        """Cut off from the hub in play, only a table's tablet (the whole table's): the card
        readers record the play, and their cards do not reach the tablet until the hub is
        back. The players may go on to the next board; the hub places it after the play
        (docs/protocol.md section 6, *Ordering by the record*)."""
        m = self.model
        return m.per_table and m.phase == "play" and m.connection != "online"

    def leave(self) -> None:
        """The players go on to the next board (:attr:`can_leave`): the board screen."""
        if not self.can_leave:
            raise PresenterError("err.not_now")
        self.model.play_left = self.model.board_number
        self.model.changed()

    def hub_state_changed(self) -> None:
        """Note the cards the hub shows played on this board (the picker leaves them out)."""
        state = self.model.hub_state
        if state is None:
            return
        board = known(state.board)
        if board != self._played_board:
            self._played_board = board
            self._played = set()
        trick = known(state.trick)
        if trick is not None:
            self._played.update(card for _, card in trick.cards)

    def refused(self, kind: Any, body: dict[str, Any]) -> None:
        """A refused claim answer is forgotten: the screen asks again."""
        if kind == "claim_answer":
            self._answered = {a for a in self._answered if a[-1] != body.get("seat")}

    # What the screen shows -------------------------------------------------------------------
    @property
    def turn_text(self) -> str:
        """Whose turn it is to play, in big letters (what a per-table tablet shows)."""
        model = self.model
        tr = model.tr
        if model.phase != "play":
            return ""
        turn = model.turn
        if turn is None:
            claim = self.claim_view
            return "" if claim is None else claim.text
        wait = RectifyPresenter(model).wait_text
        if wait is not None:   # 9B2: an irregularity waits for the director
            return wait
        lead = not model.trick_cards
        if turn == model.dummy_seat and model.declarer is not None:
            if model.seat is not None and model.seat == model.declarer:
                return tr("play.dummy_turn")
            return tr("play.from_dummy", seat=tr.seat(model.declarer))
        if model.seat == turn:
            return tr("play.your_lead") if lead else tr("play.your_turn")
        seat = tr.seat(turn)
        return tr("play.lead", seat=seat) if lead else tr("play.turn", seat=seat)

    @property
    def my_turn(self) -> bool:
        """A card is due from this seat's tablet (its own, or dummy's for declarer): the
        green banner. Never on dummy's tablet: dummy plays no card (43A1)."""
        model = self.model
        return model.phase == "play" and model.seat is not None and \
            model.turn is not None and model.turn in self.plays_for() and \
            not RectifyPresenter(model).waiting

    @property
    def auction_cells(self) -> list[AuctionCell]:
        """The auction record, in the clarification period until the opening lead (41C)."""
        return auction_cells(self.model)

    @property
    def trick(self) -> dict[str, str]:
        """The trick in progress: seat -> card (``"SK"``)."""
        return dict(self.model.trick_cards)

    @property
    def trick_pending(self) -> set[str]:
        """The seats whose card in the trick is not yet confirmed by the hub."""
        model = self.model
        return {seat for seat, card in model.trick_cards if model.card_pending(card)}

    @property
    def trick_number(self) -> int | None:
        trick = self.model.trick
        return None if trick is None else trick.number

    @property
    def last_trick(self) -> QuittedTrick | None:
        """The trick just quitted; None before the first trick is complete."""
        model = self.model
        last = model.last_trick
        if model.phase != "play" or last is None:
            return None
        cards: dict[str, str] = dict(last.cards)
        return QuittedTrick(last.number, cards, last.winner,
                            {seat for seat, card in cards.items() if model.card_pending(card)})

    @property
    def last_trick_allowed(self) -> bool:
        """Law 66A: the cards of the trick just quitted may be shown again to a player so
        long as his side has not led or played to the next trick (one tablet for the
        table: so long as one side has not)."""
        if self.last_trick is None:
            return False
        played = {seat.side for seat in map(seat_of, self.trick) if seat is not None}
        own = seat_of(self.model.seat)
        if own is None:
            return len(played) < 2
        return own.side not in played

    def plays_for(self) -> set[str]:
        """The seats whose cards this tablet plays: its own, and dummy's for declarer."""
        model = self.model
        if model.seat is None:
            return {model.turn} if model.turn else set()
        if model.seat == model.dummy_seat and model.phase == "play":
            return set()
        out = {model.seat}
        if model.seat == model.declarer and model.dummy_cards:
            out.add(model.dummy_seat or "")
        return out

    @property
    def hand(self) -> list[CardOption]:
        """This seat's cards as buttons (per-seat mode)."""
        model = self.model
        plays = self.plays_for() if model.phase == "play" else set()
        return card_options(model, model.own_cards, model.seat if model.seat in plays else None)

    @property
    def plays_dummy(self) -> bool:
        """Whether this tablet plays dummy's cards (declarer's, or the table's)."""
        return self.model.phase == "play" and self.model.dummy_seat in self.plays_for()

    @property
    def plays_own_hand(self) -> bool:
        """Whether this seat's cards are played from this tablet now (not dummy's tablet)."""
        model = self.model
        return model.phase == "play" and model.seat is not None and \
            model.seat in self.plays_for()

    @property
    def dummy(self) -> list[CardOption]:
        """Dummy's cards: tappable by declarer's tablet (or per table) in play. Not on
        dummy's own tablet: they are its hand, shown once, below."""
        seat = self.model.dummy_seat
        if seat is not None and self.model.seat == seat:
            return []
        plays = self.plays_for()
        return card_options(self.model, self.model.dummy_cards, seat if seat in plays else None)

    @property
    def picker(self) -> list[CardOption]:
        """Per-table mode: the 52 cards for the player in turn (not dummy, unless dummy's
        cards are not known yet: a lead made offline), without those seen played this board
        (pending ones included) or in dummy. No hand is known, so follow suit is the hub's
        (strict mode refuses a revoke with a reason): ``legal`` is never claimed."""
        model = self.model
        turn = model.turn
        if model.seat is not None or model.phase != "play":
            return []
        seen = self._played if self._played_board == model.board_number else set()
        gone = seen | model.pending_cards | set(model.dummy_cards)
        playing = turn is not None and not model.claim_stands and (
            turn != model.dummy_seat or not model.dummy_known)
        out = []
        for c in ALL_CARDS:
            card = str(c)
            out.append(CardOption(card, card[0], model.tr.rank(card[1:]),
                                  suit_colour(card[0], model.four_colour),
                                  playing and card not in gone, legal=False))
        return out

    @property
    def claim_seat(self) -> str | None:
        """Who may claim from this tablet now: declarer or a defender (dummy does not claim,
        43A1c); per table, declarer. None while a claim stands."""
        model = self.model
        if model.phase != "play" or model.claim_stands or model.declarer is None:
            return None
        seat = model.seat if model.seat is not None else model.declarer
        return None if seat == model.dummy_seat else seat

    @property
    def claim_view(self) -> ClaimView | None:
        model = self.model
        claim = model.claim
        if model.phase not in ("play", "over") or claim is None:
            return None
        claimer = claim.claimer
        declarer = model.declarer
        if declarer is None:
            return None
        d = SEATS.index(declarer)
        if side_of(claimer) == side_of(declarer):
            answerers = [SEATS[(d + 1) % 4], SEATS[(d + 3) % 4]]   # both defenders (69A)
        else:
            answerers = [declarer]
        key = (model.board_number, claimer, claim.tricks, claim.remaining)
        mine = answerers if model.seat is None else [s for s in answerers if s == model.seat]
        status = claim.status
        answer_for = tuple(s for s in mine if (*key, s) not in self._answered) \
            if status == "open" else ()
        tricks, remaining = claim.tricks, claim.remaining
        total = known(claim.total)
        text = (model.tr("claim.concedes", seat=model.tr.seat(claimer)) if tricks == 0 else
                model.tr("claim.total", seat=model.tr.seat(claimer), total=total)
                if isinstance(total, int) else
                model.tr("claim.open", seat=model.tr.seat(claimer), tricks=tricks,
                         remaining=remaining))
        # The claimer's partner may object, never accept: dummy (68D) or, to a defender's
        # claim or concession, the other defender (68B2).
        partner = SEATS[(SEATS.index(claimer) + 2) % 4]
        dispute_for = (partner,) if status == "open" and model.seat == partner \
            and (*key, partner) not in self._answered else ()
        return ClaimView(claimer, tricks, remaining, claim.statement or "",
                         status, answer_for, text, pending=model.marks.claim,
                         total=total if isinstance(total, int) else None,
                         cards=tuple(known(claim.cards) or ()) if status == "open" else (),
                         dispute_for=dispute_for)

    # Commands: each returns the event to send ------------------------------------------------
    def card(self, card: str, seat: str | None = None) -> Event:
        """Play ``card`` ("SK"): from this seat's hand, dummy's (declarer), or per table the
        player in turn's."""
        model = self.model
        try:
            text = str(Card.parse(card))
        except (BridgeError, ValueError):
            raise PresenterError("err.no_card") from None
        if model.seat is None:
            who = seat or model.turn
            pool = self.dummy if who == model.dummy_seat and model.dummy_known else self.picker
        else:
            who = None
            pool = []
            for options, owner in ((self.hand, model.seat), (self.dummy, model.dummy_seat)):
                if any(o.card == text for o in options):
                    who, pool = owner, options
                    break
            if who is None:
                raise PresenterError("err.no_card")
        option = next((o for o in pool if o.card == text), None)
        if who is None or option is None or not option.enabled:
            turn = model.turn
            if option is None or turn is None or model.phase != "play":
                raise PresenterError("err.not_now")
            if who != turn:
                raise PresenterError("err.not_your_turn", seat=model.tr.seat(turn))
            if not option.legal and (model.seat is not None or who == model.dummy_seat):
                raise PresenterError("err.illegal_card")   # a hand known here: 44
            raise PresenterError("err.not_now")
        model.changed()
        return "card", {"seat": who, "card": text, "source": "tablet"}

    def claim(self, tricks: int, statement: str = "") -> Event:
        """Claim ``tricks`` of the remaining tricks for this side, conceding the rest (68)."""
        seat = self.claim_seat
        if seat is None:
            raise PresenterError("err.claim")
        remaining = self.model.remaining_tricks
        if not isinstance(tricks, int) or not 0 <= tricks <= remaining:
            raise PresenterError("err.claim_tricks", remaining=remaining)
        body: dict[str, Any] = {"seat": seat, "tricks": tricks}
        if statement.strip():
            body["statement"] = statement.strip()
        return "claim", body

    @property
    def claim_cards(self) -> list[CardOption]:
        """The claimer's cards faced while his claim is open (68C), to show (not play)."""
        claim = self.claim_view
        return [] if claim is None else card_options(self.model, claim.cards, None)

    @property
    def claim_won(self) -> int:
        """The tricks the side of the seat who would claim from here has won so far."""
        seat = self.claim_seat
        ns, ew = self.model.tricks_won
        return 0 if seat is None else (ns if side_of(seat) == "NS" else ew)

    def claim_total(self, total: int, statement: str = "") -> Event:
        """Claim ``total`` tricks in all for this side on the board ("declarer claims 10"):
        sent as the tricks of the remaining ones the claim event counts (68)."""
        return self.claim(total - self.claim_won, statement)

    def claim_answer(self, accept: bool, seat: str | None = None) -> Event:
        """Accept or dispute the open claim (69A; a dispute calls the director, 68D; dummy
        may dispute, never accept)."""
        model = self.model
        claim = self.claim_view
        if claim is None or not (claim.answer_for or claim.dispute_for):
            raise PresenterError("err.not_now")
        who = seat if seat is not None else (claim.answer_for or claim.dispute_for)[0]
        if who not in claim.answer_for and (accept or who not in claim.dispute_for):
            raise PresenterError("err.not_now")
        self._answered.add((model.board_number, claim.claimer, claim.tricks, claim.remaining,
                            who))
        if not accept:
            model.notify(model.tr("claim.disputed"), "warning")
        model.changed()
        return "claim_answer", {"seat": who, "accept": bool(accept)}
