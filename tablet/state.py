"""The hub's views as the tablet reads them: :mod:`wire.views`, decoded at the tablet's edge.

The link hands the tablet each payload as the hub published it (``on_state``, ``on_seat``:
parsed JSON, see :mod:`wire.link`); :func:`table_state` and :func:`seat_view` turn it into
a typed, frozen value, or None when it is not one (logged with the reason, and dropped: a
malformed view from the network never stops the tablet). Everything past this edge reads
attributes, never string keys.

:class:`TableState` is :class:`wire.views.TableView` with two fields the protocol proposes and
the tablet already shows when a hub sends them (docs/protocol.md): a written explanation in
an auction entry (``AuctionEntry.explanation``: today's hub never puts one in the state, which
all four read; explanations come in the seat's own view and the table tablet's, Law 16) and
who has accepted a claim so far (``ClaimView.accepted_by``, 69A). A hub that does not send
them is read the same; the extra fields go once :mod:`wire.views` carries them.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from msgspec import UNSET, UnsetType

from wire.errors import ProtocolError
from wire.views import AuctionEntry, ClaimView, SeatLetter, SeatView, TabletView, TableView

__all__ = ["CallEntry", "ClaimState", "TableState", "seat_view", "table_state",
           "tablet_view"]

log = logging.getLogger(__name__)


class CallEntry(AuctionEntry, frozen=True):
    """One call of the auction, with the caller's written explanation when it was alerted
    (proposed: the hub does not publish it yet)."""

    explanation: str | UnsetType = UNSET


class ClaimState(ClaimView, frozen=True):
    """The last claim, with the seats that have accepted it so far (proposed)."""

    accepted_by: list[SeatLetter] | UnsetType = UNSET


class TableState(TableView, frozen=True):
    """``t/{table}/state`` as the tablet reads it (module docstring)."""

    # The same fields, read with the proposed additions (a narrower type: subclasses).
    auction: list[CallEntry] | UnsetType = UNSET  # type: ignore[assignment]
    claim: ClaimState | UnsetType = UNSET


def _decode(kind: type[TableState] | type[SeatView] | type[TabletView], payload: Any) -> Any:
    if isinstance(payload, kind):
        return payload
    try:
        if isinstance(payload, str | bytes):
            return kind.from_json(payload)
        if isinstance(payload, Mapping):
            return kind.from_builtins(payload)
        if isinstance(payload, TableView | SeatView | TabletView):
            return kind.from_json(payload.to_json())
    except ProtocolError as err:
        log.warning("%s dropped: %s", kind.__name__, err)
        return None
    except RecursionError:   # parsed JSON nested deeper than any view
        log.warning("%s dropped: nested too deep", kind.__name__)
        return None
    log.warning("%s dropped: not a view (%s)", kind.__name__, type(payload).__name__)
    return None


def table_state(payload: Any) -> TableState | None:
    """The table's public state from a payload (JSON text, parsed JSON or a view); None,
    logged, when it is not a valid one."""
    state: TableState | None = _decode(TableState, payload)
    return state


def seat_view(payload: Any) -> SeatView | None:
    """This seat's view (its hand) from a payload; None, logged, when it is not a valid
    one."""
    view: SeatView | None = _decode(SeatView, payload)
    return view


def tablet_view(payload: Any) -> TabletView | None:
    """The table tablet's own view (``t/{table}/tablet``: the explanations it shows each
    side) from a payload; None, logged, when it is not a valid one."""
    view: TabletView | None = _decode(TabletView, payload)
    return view
