"""What the screens' presenters share: the refusal, the values the screens draw (options,
auction cells) and the helpers that make them from the :class:`tablet.model.TableModel`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bridgecore.auction import CallStatus
from bridgecore.calls import Call
from bridgecore.errors import BridgeError
from tablet.i18n import Translator, suit_colour
from tablet.model import SEATS, TableModel, side_of

__all__ = [
    "LIVE",
    "AuctionCell",
    "CallOption",
    "CardOption",
    "Event",
    "PresenterError",
    "auction_cells",
    "card_options",
    "cut_off_banner",
    "is_jump",
]

Event = tuple[str, dict[str, Any]]
LIVE = {CallStatus.MADE.value, CallStatus.PENDING.value, CallStatus.ACCEPTED.value}


class PresenterError(ValueError):
    """A command the tablet does not offer now; ``key`` and ``fields`` make its message."""

    def __init__(self, key: str, **fields: Any):
        super().__init__(f"{key} {fields}" if fields else key)
        self.key = key
        self.fields = fields

    def text(self, tr: Translator) -> str:
        return tr(self.key, **self.fields)


@dataclass(frozen=True, slots=True)
class CallOption:
    """One button of the bidding pad. ``proper``: legal for the player in turn now."""

    call: str          # as the hub writes it: "1NT", "Pass", "X", "XX"
    label: str         # as the player reads it: "1SA", "Passe"
    enabled: bool
    proper: bool
    jump: bool = False


@dataclass(frozen=True, slots=True)
class AuctionCell:
    """One call of the auction record, at ``row`` and ``column`` of the grid (columns start
    at the dealer). ``alert`` and ``explanation`` only when this tablet may show them."""

    seat: str
    call: str
    label: str
    row: int
    column: int
    status: str = "made"
    alert: bool = False
    explanation: str | None = None
    pending: bool = False      # entered here, not yet confirmed by the hub

    @property
    def live(self) -> bool:
        """False for a call cancelled or withdrawn (shown struck out)."""
        return self.status in LIVE


@dataclass(frozen=True, slots=True)
class CardOption:
    """A card button: ``enabled`` when a tap plays it, ``legal`` when it follows suit."""

    card: str          # "SK"
    suit: str          # "S"
    label: str         # rank as the player reads it: "R"
    colour: tuple[float, float, float, float]
    enabled: bool
    legal: bool = True


def is_jump(call: Call, last_bid: Call | None) -> bool:
    """A bid above the cheapest sufficient level in its strain (FFB Annex I: an opening
    bid above the one level included)."""
    if not call.is_bid or call.strain is None:
        return False
    if last_bid is None or last_bid.strain is None:
        lowest = 1
    else:
        lowest = last_bid.level if call.strain > last_bid.strain else last_bid.level + 1
    return call.level > lowest


def auction_cells(model: TableModel) -> list[AuctionCell]:
    """The auction record while the Laws let it be seen: until the opening lead is faced
    (then the state carries no auction: 41C). Partner's self-alerts are not shown to a
    seat's tablet (16, 40); the explanations are those the hub sent this tablet (the
    opponents' calls', never partner's: hub.explain), on the table tablet marked with the
    side they are for."""
    columns = model.columns
    out: list[AuctionCell] = []
    row, last = 0, -1
    seat_here = model.seat
    partner = None if seat_here is None else SEATS[(SEATS.index(seat_here) + 2) % 4]
    explained = model.explanations
    for index, entry in enumerate(model.auction_entries):
        seat, call = entry.seat, entry.call
        col = columns.index(seat)
        if col <= last:
            row += 1
        last = col
        try:
            label = model.tr.call(str(Call.parse(call)))
        except (BridgeError, ValueError):
            label = call
        visible = seat != partner
        given = explained.get(index + 1)
        explanation = None
        if given is not None and given.seat == seat:
            opponents = "EW" if side_of(seat) == "NS" else "NS"
            explanation = given.text if seat_here is not None else model.tr(
                "explain.for", side=model.tr.side(opponents), text=given.text)
        out.append(AuctionCell(
            seat, call, label, row, col, entry.status, alert=entry.alert and visible,
            explanation=explanation, pending=model.call_pending(index)))
    return out


def _led_suit(model: TableModel) -> str | None:
    cards = model.trick_cards
    return cards[0][1][0] if cards and len(cards) < 4 else None


def legal_cards(model: TableModel, held: Sequence[str]) -> set[str]:
    """Law 44C-D: the suit led if the hand holds one, else any card."""
    led = _led_suit(model)
    follow = [c for c in held if led is not None and c[0] == led]
    return set(follow or held)


def card_options(model: TableModel, cards: Sequence[str], seat: str | None) -> list[CardOption]:
    """Buttons for ``cards`` held by ``seat`` (None: only showing them)."""
    playing = seat is not None and model.phase == "play" and not model.claim_stands
    legal = legal_cards(model, cards)
    in_turn = seat is not None and seat == model.turn
    waiting = set(model.waiting_cards)   # played here, waiting for the hub: not again
    out = []
    for card in cards:
        ok = card in legal and in_turn
        enabled = playing and (ok if model.strict else True) and card not in waiting
        out.append(CardOption(card, card[0], model.tr.rank(card[1:]),
                              suit_colour(card[0], model.four_colour), enabled, ok))
    return out


def cut_off_banner(model: TableModel) -> str | None:
    """The full-width line a tablet shows while it is cut off from the hub (its link
    offline: the players play on, their entries wait in order for the hub), with the cards
    still waiting for the hub; None otherwise when nothing waits."""
    waiting = [model.tr.card(c) for c in model.waiting_cards]
    if model.connection != "offline":
        return None if not waiting else model.tr("link.waiting_cards",
                                                 cards=", ".join(waiting))
    text = model.tr("link.cut_off")
    if waiting:
        text += "\n" + model.tr("link.waiting_cards", cards=", ".join(waiting))
    return text
