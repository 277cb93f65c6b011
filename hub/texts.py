"""Texts the hub makes (bridgecore.text.Text: a catalog key and its values) rendered in the
reader's language from the console catalog (hub/locale, docs/translating.md).

The hub stores and sends a :class:`Text`, never a sentence; a sentence is made here, at the
edge, for one reader: the console's director (his chosen language), a visitor of the results
pages (cookie or ``Accept-Language``), an export (the event's language). Each value is written
in the language's notation by what its field name says it is (bridgecore.text.kind_of): a
seat by its name (Nord, Ovest), a card and a call with the language's letters (♠R, 1SA,
Passe), a time as the language's clock (24-hour in French and Italian, Babel's CLDR data).
The browser does the same for the texts it gets as JSON (static/i18n.js ``text(message)``).
"""

from __future__ import annotations

import datetime
import logging
import re
from collections.abc import Mapping
from typing import Any

from babel.dates import format_time

from bridgecore.text import PLAIN, Text, kind_of
from hub.console_i18n import CATALOGS, say
from wire import catalogs
from wire.catalogs import PSEUDO
from wire.protocol import Envelope, Reply

__all__ = ["call_text", "card_text", "deal_source", "in_language", "movement_text",
           "refused_answer", "render", "reply", "stored_text", "value_text"]

log = logging.getLogger(__name__)

def _word(language: str, key: str, fallback: str) -> str:
    text = CATALOGS.translation(language).gettext(key)
    return fallback if text == key else text


def card_text(card: str, language: str) -> str:
    """``"SK"`` -> ``"♠K"`` (``"♠R"`` in French and Italian); anything else as it is
    (wire.catalogs.card_text over the console catalog)."""
    return catalogs.card_text(card, CATALOGS.translation(language).gettext)


def call_text(call: str, language: str) -> str:
    """``"3NT"`` -> ``"3SA"``, ``"Pass"`` -> ``"Passe"``; anything else as it is
    (wire.catalogs.call_text over the console catalog)."""
    return catalogs.call_text(call, CATALOGS.translation(language).gettext)


# Where an event's deals came from, as hub.event writes it in the set-up (English, kept as it
# is in the stored set-up) -> the catalog key that says it in a reader's language.
_SOURCES = (
    (re.compile(r"^secure random deals \(CSPRNG\)$"), "summary.source_random"),
    (re.compile(r"^deals given$"), "summary.source_given"),
    (re.compile(r"^BigDeal boards (?P<boards>\S+), seed (?P<seed>[0-9a-f]+), "
                r"owner (?P<owner>.*)$"), "summary.source_bigdeal"),
    (re.compile(r"^(?P<format>[A-Z0-9]+) file (?P<file>.+)$"), "summary.source_file"),
)


def deal_source(source: str, language: str) -> str:
    """The set-up's ``boards.source`` (``"secure random deals (CSPRNG)"``, ``"PBN file
    boards.pbn"``...) in ``language``; a source written otherwise (an older hub's) as it
    is."""
    for pattern, key in _SOURCES:
        m = pattern.match(source)
        if m is not None:
            return say(language, key, **m.groupdict())
    return source


# A movement's name as bridgecore and hub.section_setup write it (English, kept as it is: the
# scoring reads "Teams..." from it) -> the catalog key that says it in a reader's language.
_MOVEMENTS = (
    (re.compile(r"^Mitchell (?P<tables>\d+) tables(?P<more>(, [a-z -]+)*)$"),
     "movement.name_mitchell"),
    (re.compile(r"^Howell (?P<tables>\d+) tables$"), "movement.name_howell"),
    (re.compile(r"^Individual (?P<tables>\d+) tables$"), "movement.name_individual"),
    (re.compile(r"^Teams match$"), "movement.name_teams_match"),
    (re.compile(r"^Teams round-robin (?P<teams>\d+) teams$"), "movement.name_round_robin"),
    (re.compile(r"^Teams Swiss (?P<teams>\d+) teams$"), "movement.name_swiss_teams"),
    (re.compile(r"^Swiss pairs (?P<pairs>\d+) pairs$"), "movement.name_swiss_pairs"),
    (re.compile(r"^individual movement file (?P<file>.+)$"), "movement.name_individual_file"),
    (re.compile(r"^movement file (?P<file>.+)$"), "movement.name_file"),
)
_MITCHELL_KINDS = {"skip": "movement.name_skip", "relay and bye-stand": "movement.name_relay",
                   "arrow-switch": "movement.name_arrow_switch"}


def movement_text(name: str, language: str) -> str:
    """A movement's name (``"Mitchell 8 tables, skip"``, ``"Howell 7 tables"``...) in
    ``language``; a name written otherwise as it is."""
    for pattern, key in _MOVEMENTS:
        m = pattern.match(name)
        if m is None:
            continue
        values = m.groupdict()
        kinds = [k for k in (values.pop("more", None) or "").split(", ") if k]
        if any(k not in _MITCHELL_KINDS for k in kinds):
            return name
        return ", ".join([say(language, key, **values)]
                         + [say(language, _MITCHELL_KINDS[k]) for k in kinds])
    return name


def _time_text(value: Any, language: str) -> str:
    try:
        moment = datetime.datetime.fromtimestamp(float(value))
    except (TypeError, ValueError, OverflowError, OSError):
        return str(value)
    return format_time(moment, "medium", locale="en" if language == PSEUDO else language)


def is_names(name: str) -> bool:
    """A field of people's names (``names``, ``..._names``): written as a person lists them."""
    return name == "names" or name.endswith("_names")


def names_text(names: list[str], language: str) -> str:
    """``["Ann", "Bob", "Cid"]`` as a person writes a list: ``Ann, Bob and Cid`` (French
    ``Ann, Bob et Cid``, from the catalog's ``text.and``); a blank name is ``text.blank``."""
    words = [" ".join(n.split()) or _word(language, "text.blank", "(blank)") for n in names]
    if len(words) < 2:
        return "".join(words)
    return _word(language, "text.and", "{most} and {last}").format(
        most=", ".join(words[:-1]), last=words[-1])


def value_text(name: str, value: Any, language: str) -> str:
    """One value of a text, written as ``language`` writes what ``name`` says it is."""
    kind = kind_of(name)
    if isinstance(value, Text):
        return render(value, language)
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, Text) for v in value):
        joint = "" if name == "more" else _word(language, "text.separator", "; ")
        return joint.join(render(v, language) for v in value)
    if isinstance(value, (list, tuple)) and is_names(name):
        return names_text([str(v) for v in value], language)
    if isinstance(value, (list, tuple)):
        return ", ".join(value_text(kind.rstrip("s") if kind else name, v, language)
                         for v in value)
    if value is None:
        return "–"
    if kind == "seat":
        return _word(language, f"seat.{value}", str(value))
    if kind == "card":
        return card_text(str(value), language)
    if kind == "call":
        return call_text(str(value), language)
    if kind == "time":
        return _time_text(value, language)
    return str(value)


class _Fields(dict[str, str]):
    def __missing__(self, name: str) -> str:
        return "{" + name + "}"


def render(text: Text | Mapping[str, Any] | str, language: str) -> str:
    """``text`` in ``language`` with its values in the language's notation. A key the
    catalog lacks is logged and shown as the key and its values (never an exception: the
    reader sees something, a test makes it a failure)."""
    if isinstance(text, str):
        return text
    if not isinstance(text, Text):
        try:
            text = Text.from_json(text)
        except ValueError:
            return str(text)
    fields = _Fields({name: value_text(name, value, language) for name, value in text.values})
    if text.key == PLAIN:
        return fields.get("text", "")
    template = CATALOGS.translation(language).gettext(text.key)
    if template == text.key:
        log.warning("no catalog text for %s", text.key)
        return text.key + "".join(f" {n}={v}" for n, v in fields.items())
    # a value left empty leaves no space at the end ("{code} {where}" without a place)
    return template.format_map(fields).rstrip()


def reply(env: Envelope, t: float, status: str, code: str, reason: Text | str = "") -> Reply:
    """The reply to ``env``: a reason given as a :class:`Text` travels as the reply's
    ``text`` (the device renders it in its players' language) with its English words in
    ``reason`` (logs, operators, older devices); a plain string (a protocol error's own
    words, for a device's developer) as ``reason`` alone."""
    if isinstance(reason, Text):
        return Reply(env.id, env.seq, status, code, render(reason, "en"), t, text=reason)
    return Reply(env.id, env.seq, status, code, reason, t)


def refused_answer(text: Text, language: str = "en") -> dict[str, Any]:
    """A refused command's answer: ``error`` in ``language`` (English for the log, until the
    console words it for its user: :func:`in_language`) and ``error_text``, the message."""
    return {"ok": False, "error": render(text, language), "error_text": text.to_json()}


def in_language(answer: dict[str, Any], language: str) -> dict[str, Any]:
    """``answer`` with its ``error`` worded in ``language`` where it carries its message
    (``error_text``); any other answer as it is."""
    if "error_text" not in answer:
        return answer
    return dict(answer, error=render(answer["error_text"], language))


def stored_text(body: Mapping[str, Any], old: str) -> Text:
    """A logged fact's message: its ``text`` (``{"key", "values"}``), or, in an older log,
    its English words under ``old`` (``detail``, ``reason``), shown as they are."""
    try:
        return Text.from_json(body["text"]) if "text" in body else Text.plain(
            str(body.get(old, "")))
    except ValueError:
        return Text.plain(str(body.get("text")))
