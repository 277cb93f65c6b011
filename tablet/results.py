"""The board's traveller, the score so far and the double-dummy table, in the player's language.

The hub puts them in the table's public state only once the board is over at this table
(``traveller``, ``percentage``, ``imps``, ``field``, ``dd``: hub/traveller.py, Law 16); these
functions turn them into rows and lines for the result screen. Pure Python, no Kivy: they take
the table's state as shown (a :class:`tablet.state.TableState`, ``presenter.model.state``, or
None) and a :class:`tablet.i18n.Translator` (``presenter.model.tr``), and read its typed
fields (:class:`wire.views.TravellerLine`, ``SideFloats``, ``FieldInfo``, ``DoubleDummy``).
Anything missing gives nothing to show, never an exception.

Numbers are written the way each country reads them: ``87.5%`` in English, ``87,5 %`` in
French, ``87,5%`` in Italian. Contracts and par contracts use the tablet's strain labels
(``4♠X``, ``3SA``), East-West is ``EO`` in French and Italian.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import Any

from msgspec import UNSET

from tablet.i18n import Translator, call_label, seat_letter
from tablet.state import TableState
from wire.views import DoubleDummy, FieldInfo, SideFloats
from wire.views import TravellerLine as TravellerRow

__all__ = [
    "DD_SEATS", "DD_STRAINS", "DDGrid", "TravellerLine", "dd_grid",
    "format_percent", "has_traveller", "par_text", "say", "score_lines", "traveller_header",
    "traveller_lines",
]

log = logging.getLogger(__name__)

DD_SEATS = ("N", "S", "E", "W")                # the rows, as hand records print them
DD_STRAINS = ("NT", "S", "H", "D", "C")        # the columns

_PAR = re.compile(r"^(NS|EW) ([1-7])(NT|[SHDC])(X{0,2})([+-]\d+)?$")
_CONTRACT = re.compile(r"^([1-7])(NT|[SHDC])(X{0,2})$")


def say(tr: Translator, key: str, **fields: Any) -> str:
    """A text of the tablet's catalog (tablet/locale) in ``tr``'s language."""
    return tr(key, **fields)


def _number(value: float, language: str, decimals: int = 2) -> str:
    text = f"{value:.{decimals}f}".rstrip("0").rstrip(".") if decimals else f"{value:.0f}"
    if text in ("-0", ""):
        text = "0"
    return text.replace(".", ",") if language in ("fr", "it") else text


def format_percent(value: float, language: str, decimals: int = 2) -> str:
    """``87.5`` -> ``87.5%`` (en), ``87,5 %`` (fr, narrow no-break space), ``87,5%`` (it)."""
    text = _number(value, language, decimals)
    return f"{text}\u202f%" if language == "fr" else f"{text}%"


def _signed(value: float, language: str) -> str:
    text = _number(value, language, 2)
    return text if text.startswith("-") or text == "0" else f"+{text}"


def _state_field(state: TableState | None) -> FieldInfo | None:
    field = None if state is None else state.field
    return field if isinstance(field, FieldInfo) else None


def _rows(state: TableState | None) -> list[TravellerRow]:
    rows = None if state is None else state.traveller
    return [] if rows is None or rows is UNSET else list(rows)


def has_traveller(state: TableState | None) -> bool:
    """The state carries this board's traveller (the board is over at this table)."""
    field = _state_field(state)
    return (state is not None and state.phase == "over" and field is not None
            and field.board == state.board and state.traveller is not UNSET)


@dataclass(frozen=True, slots=True)
class TravellerLine:
    """One result of the traveller as shown: pairs, contract, declarer, tricks, the score
    on the side that scored it, and the percentage (or IMPs) of North-South."""

    ns: str
    ew: str
    contract: str        # for players: "4♠X", "3SA", "Passe"
    call: str | None     # the bid as the hub writes it ("4S"), for colouring; None: passed
    risk: str            # "", "X" or "XX"
    by: str              # seat letter in the language ("O" for West in French)
    tricks: str
    score_ns: str        # "420" or ""
    score_ew: str        # "100" or ""
    points: str          # "87.5" (percent) or "+7" (IMPs)
    own: bool            # this table's result

    @property
    def cells(self) -> tuple[str, ...]:
        """The row's cells, in :func:`traveller_header`'s order."""
        return (self.ns, self.ew, self.contract, self.by, self.tricks, self.score_ns,
                self.score_ew, self.points)


def _teams(state: TableState | None) -> bool:
    field = _state_field(state)
    return field is not None and field.method == "IMP"


def traveller_header(state: TableState | None, tr: Translator) -> tuple[str, ...]:
    """The traveller's column titles (the last is % NS, or IMP NS in a teams movement)."""
    last = "traveller.imps" if _teams(state) else "traveller.percent"
    return tuple(say(tr, k) for k in (
        "traveller.ns", "traveller.ew", "traveller.contract", "traveller.by",
        "traveller.tricks", "traveller.score_ns", "traveller.score_ew", last))


def _contract(text: str | None, language: str) -> tuple[str, str | None, str]:
    if text == "PASS" or text is None:
        return call_label("Pass", language), None, ""
    m = _CONTRACT.match(text)
    if m is None:
        return text, None, ""
    call = m.group(1) + m.group(2)
    return call_label(call, language) + m.group(3), call, m.group(3)


def traveller_lines(state: TableState | None, tr: Translator) -> list[TravellerLine]:
    """The traveller of the board over at this table, one line per result, in the hub's
    order (North-South pair numbers); empty when the state has none."""
    if not has_traveller(state):
        return []
    teams = _teams(state)
    language = tr.language
    out: list[TravellerLine] = []
    for row in _rows(state):
        contract, call, risk = _contract(row.contract, language)
        declarer, tricks, score = row.declarer, row.tricks, row.score_ns
        points = row.imps_ns if teams else row.percent_ns
        if isinstance(points, int | float) and not isinstance(points, bool):
            shown = (_signed(points, language) if teams
                     else _number(points, language, 1))
        else:
            shown = ""
        out.append(TravellerLine(
            ns="" if row.NS is None else str(row.NS),
            ew="" if row.EW is None else str(row.EW),
            contract=contract, call=call, risk=risk,
            by=seat_letter(declarer, language) if declarer is not None else "",
            tricks=str(tricks) if tricks is not None else "",
            score_ns=str(score) if score is not None and score > 0 else "",
            score_ew=str(-score) if score is not None and score < 0 else "",
            points=shown, own=row.own is True))
    return out


def score_lines(state: TableState | None, tr: Translator) -> tuple[str, str]:
    """(``"Score so far: NS 87.5%  -  EW 12.5%"``, ``"2 of 3 results"``); IMPs in a teams
    movement; ``("", "")`` when the state has no traveller."""
    field = _state_field(state)
    if state is None or field is None or not has_traveller(state):
        return "", ""
    language = tr.language
    headline = ""
    imps, pct = state.imps, state.percentage
    if _teams(state) and isinstance(imps, SideFloats):
        headline = say(tr, "score.imps", ns=_signed(imps.NS, language),
                       ew=_signed(imps.EW, language))
    elif isinstance(pct, SideFloats):
        headline = say(tr, "score.percent", ns=format_percent(pct.NS, language),
                       ew=format_percent(pct.EW, language))
    results, expected = field.results, field.expected
    count = (say(tr, "score.field_one", expected=expected) if results == 1
             else say(tr, "score.field", results=results, expected=expected))
    return headline, count


@dataclass(frozen=True, slots=True)
class DDGrid:
    """The double-dummy table: ``columns`` (strain labels), ``rows`` of (seat label, tricks
    per strain), and the par line."""

    columns: tuple[str, ...]
    rows: tuple[tuple[str, tuple[int | None, ...]], ...]
    par: str


def par_text(par: Any, score: Any, tr: Translator) -> str:
    """``"NS 4S; NS 4H", 420`` -> ``"Par: NS 4♠, NS 4♥ (+420)"`` in the player's language."""
    language = tr.language
    parts = []
    for item in str(par or "").split(";"):
        item = item.strip()
        m = _PAR.match(item)
        if m is None:
            if item:
                parts.append(item)
            continue
        side = say(tr, "traveller.ns" if m.group(1) == "NS" else "traveller.ew")
        text = f"{side} {call_label(m.group(2) + m.group(3), language)}{m.group(4)}"
        if m.group(5):
            text += f" {m.group(5)}"
        parts.append(text)
    text = ", ".join(parts)
    if isinstance(score, int) and not isinstance(score, bool):
        value = f"NS {score:+d}" if score else "0"
        text = f"{text} ({value})" if text else value
    return say(tr, "dd.par", par=text) if text else ""


def dd_grid(state: TableState | None, tr: Translator) -> DDGrid | None:
    """The double-dummy grid of the board over at this table; None when the state has no
    table (the hub without endplay, or before the board is over)."""
    if state is None or not has_traveller(state):
        return None
    dd = state.dd
    if not isinstance(dd, DoubleDummy):
        return None
    language = tr.language
    rows = []
    for seat in DD_SEATS:
        line = dd.tricks.get(seat, {})      # keyed by seat, then strain: data, not fields
        rows.append((seat_letter(seat, language),
                     tuple(v if isinstance(v, int) and 0 <= v <= 13 else None
                           for v in (line.get(s) for s in DD_STRAINS))))
    columns = tuple(tr.strain(s) for s in DD_STRAINS)
    return DDGrid(columns, tuple(rows), par_text(dd.par, dd.par_score_ns, tr))
