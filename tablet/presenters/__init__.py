"""One presenter per screen, over the table model: plain Python, no Kivy, unit-tested
without a window.

Each screen of the tablet (tablet/ui_*.py) draws what its presenter says and calls its
commands; each command returns the event to send as ``(type, body)``, with the body
``wire.protocol.EVENT_TYPES`` and ``hub.table`` expect, or raises :class:`PresenterError`
(with a message key of :mod:`tablet.i18n`) when the tablet does not offer that now::

    checkin.py  CheckinPresenter  check-in (Law 5)               check_in -> checkin
    board.py    BoardPresenter    board start (Laws 2, 8A, 15)    announce -> board
    auction.py  AuctionPresenter  the pad and the record          call, undo
    play.py     PlayPresenter     cards, the trick, claims        card, claim, claim_answer
    prompts.py  PromptPresenter   the hub's questions on reads    answer (7.12)
    explain.py  ExplainPresenter  questions on calls, answers     ask, explain (7.13, 7.14)
    rectify.py  RectifyPresenter  irregularities, players' choice rectify (7.15)
    result.py   ResultPresenter   result, 79A, hand record        confirm -> result_confirm
    common.py   what they share: PresenterError, the option and cell values

They all read one :class:`tablet.model.TableModel` (what the tablet knows of its table) and
keep only what is their own; :class:`tablet.presenter.TabletPresenter` holds the five, feeds
the model and picks the screen.
"""

from tablet.presenters.auction import AuctionPresenter
from tablet.presenters.board import BoardPresenter
from tablet.presenters.checkin import CheckinPresenter
from tablet.presenters.common import (
    AuctionCell,
    CallOption,
    CardOption,
    Event,
    PresenterError,
    is_jump,
)
from tablet.presenters.explain import ExplainPresenter
from tablet.presenters.play import ClaimView, PlayPresenter, QuittedTrick
from tablet.presenters.prompts import Prompt, PromptPresenter
from tablet.presenters.rectify import RectifyPresenter
from tablet.presenters.result import ResultPresenter, ResultView

__all__ = [
    "AuctionCell", "AuctionPresenter", "BoardPresenter", "CallOption", "CardOption",
    "CheckinPresenter", "ClaimView", "Event", "ExplainPresenter", "PlayPresenter",
    "PresenterError", "Prompt", "PromptPresenter", "QuittedTrick", "RectifyPresenter",
    "ResultPresenter", "ResultView", "is_jump",
]
