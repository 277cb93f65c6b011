"""bridgecore: the game of duplicate bridge and its file formats, standard library only.

Cards, seats, deals and boards (Laws 1-7, 13-14), the auction (Laws 17-39), the
play, revokes and claims (Laws 41-71), scoring (Laws 77-78) and the editions of
the Laws (1997, 2007, 2017). Irregularities are values with their law and the
rectification options the Laws give the director; nothing here ever applies a
rectification by itself. Any record file is read by :func:`bridgecore.records.read_records`;
double-dummy solving (:mod:`bridgecore.doubledummy`) imports endplay, the optional
``analysis`` extra, only when a deal is solved. What a user types (a card, a contract, a
call, a seat) is read in the notation of the user's language by :mod:`bridgecore.notation`.
"""

from bridgecore.calls import DOUBLE, PASS, REDOUBLE, Call, CallKind, Contract, Risk
from bridgecore.cards import ALL_CARDS, Card, Rank, Seat, Side, Strain, Suit
from bridgecore.deal import Deal, DealProblem, Hand
from bridgecore.editions import DEFAULT_EDITION, EDITIONS, Edition, edition
from bridgecore.errors import (
    AnalysisUnavailable,
    BridgeError,
    FormatError,
    IllegalCallError,
    IllegalPlayError,
    ParseError,
    RuleError,
    StateError,
)
from bridgecore.irregularity import Irregularity, Kind, Rectification
from bridgecore.scoring import imps, score, score_ns
from bridgecore.vulnerability import Vulnerability

__all__ = [
    "ALL_CARDS", "DEFAULT_EDITION", "DOUBLE", "EDITIONS", "PASS", "REDOUBLE",
    "AnalysisUnavailable", "BridgeError", "Call", "CallKind", "Card", "Contract", "Deal",
    "DealProblem", "Edition", "FormatError", "Hand", "IllegalCallError", "IllegalPlayError",
    "Irregularity", "Kind", "ParseError", "Rank", "Rectification", "Risk", "RuleError", "Seat",
    "Side",
    "StateError", "Strain", "Suit", "Vulnerability", "edition", "imps", "score", "score_ns",
]
