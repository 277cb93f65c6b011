"""The console's words in every language of its gettext catalogs (hub/locale/<language>/
LC_MESSAGES/console.po, read by wire.catalogs; docs/translating.md): English, French,
Italian, German, Dutch, Spanish and Polish, and any other a federation adds once its catalog
is complete.

The pages mark each text to translate with ``data-i18n="key"`` (``data-i18n-title`` for a
tooltip, ``data-i18n-placeholder`` for a field's hint); static/i18n.js fetches ``GET
/api/i18n`` once (the user's language and its catalogue, JSON made from the compiled
catalog: :func:`catalogue`) and puts each
text in through ``textContent``. What the scripts build (the alert feed, an alert's kind and
explanation, the table panels, the set-up page's sections, messages) goes through
``tenaceI18n.t(key, params)``, which fills the text's ``{name}`` fields, and a count through
``tenaceI18n.plural(key, n, params)``, which chooses the key's form for ``n`` by the language's
rule (:func:`answer`: the forms and the catalog's ``Plural-Forms``, read without eval); a page
draws its own texts again on the ``tenace-language`` event. A key missing in a language
would fall back to English, an unknown key to the key itself: tests/hub/test_console_i18n.py and
tests/test_catalogs.py make both a test failure. Texts that come from the hub itself are
messages (a key and its values: bridgecore.text.Text), rendered by hub.texts in Python and by
``tenaceI18n.text(message)`` in the browser; a refusal of the console's API (a director's
command refused, a set-up's problem) is a message too, worded in the user's language
(hub.errors).

The language is chosen with the switch on each page (``POST /api/i18n {"language"}``:
hub.console_session) and remembered for the user's account (:class:`Languages`, in
``languages.json`` beside the users file, across restarts) and in the browser (cookie
``tenace_lang``, read when no user is logged in: the public results pages and the room
screen). The default is the browser's
``Accept-Language`` when it names one of :data:`LANGUAGES`, else English.
"""

from __future__ import annotations

import datetime
import functools
import json
import logging
import os
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from babel import Locale, UnknownLocaleError
from babel.dates import format_date

from bridgecore.notation import Notation, notation
from wire.catalogs import PSEUDO, Catalogs, fields

__all__ = [
    "CATALOGS", "COOKIE", "LANGUAGES", "Languages", "answer", "catalogue", "choose",
    "date_text", "language_name", "option_text", "plural", "reader", "say",
]

log = logging.getLogger(__name__)

COOKIE = "tenace_lang"

# The console's words: hub/locale/<language>/LC_MESSAGES/console.po (docs/translating.md).
# Bridge words as the tablet says them (tablet/locale): donne/donneur/vulnérable/entame/
# renonce/arbitre/étui; board/mazziere/zona/attacco/renonce (revoca)/arbitro.
CATALOGS = Catalogs(Path(__file__).resolve().parent / "locale", "console")

# Each language offered (its catalog complete) -> its own name.
LANGUAGES: dict[str, str] = CATALOGS.offered


def catalogue(language: str) -> dict[str, str]:
    """Every key -> its text in ``language`` (English where it has none: a test failure for
    an offered language)."""
    return CATALOGS.texts(language)


def answer(language: str) -> dict[str, Any]:
    """What ``GET /api/i18n`` (and a language chosen with ``POST``) gives a page: the
    language, its ``strings`` (a text with plural forms as it reads for 2), every plural
    key's forms (``plurals``: key -> the forms in the order of the rule) and the language's
    rule (``plural``: ``{"forms": 3, "rule": "n == 1 ? 0 : ..."}``, the C expression of its
    catalog's ``Plural-Forms``, the one gettext's ``ngettext`` follows here), which
    static/i18n.js reads itself without ``eval`` (docs/console-api.md)."""
    forms, rule = CATALOGS.plural_rule(language)
    return {"language": language, "strings": catalogue(language),
            "plural": {"forms": forms, "rule": rule},
            "plurals": CATALOGS.plural_texts(language)}


def reader(language: str) -> Notation:
    """How a text the user typed is read in ``language`` (bridgecore.notation): the
    language's own table, or, for one that has only a catalog, the letters its catalog shows
    (``rank.K``, ``strain.NT``, ``call.Pass``, ``letter.W``...)."""
    texts = CATALOGS.texts(language)
    return notation(language, {key: texts[key] for key in texts
                               if key.startswith(("rank.", "letter.", "call."))
                               or key == "strain.NT"})


def say(language: str, key: str, **values: object) -> str:
    """The text of ``key`` in ``language``, its ``{fields}`` filled from ``values``: what the
    hub itself writes for a reader (a set-up summary, ...) made in that reader's language."""
    return CATALOGS.say(language, key, **values)


def plural(language: str, key: str, n: int, **values: object) -> str:
    """The form of ``key`` for the count ``n`` (gettext's ngettext, the language's plural
    rules): ``plural("fr", "section.rounds", 2)`` -> ``"2 tours"``."""
    return CATALOGS.plural(language, key, n, **values)


def date_text(iso: str, language: str) -> str:
    """A date the way ``language`` writes it (``2026-11-28`` -> ``28 novembre 2026``); any
    other text as it is."""
    try:
        day = datetime.date.fromisoformat(iso)
    except ValueError:
        return iso
    return format_date(day, "long", locale="en" if language == PSEUDO else language)


def language_name(code: str, language: str) -> str:
    """The name of language ``code`` as ``language`` writes it (Babel's CLDR data: "it" is
    "italien" in French); the code itself for one CLDR does not know."""
    try:
        name = Locale.parse(code).get_display_name("en" if language == PSEUDO else language)
    except (ValueError, UnknownLocaleError):
        return code
    return name or code


def option_text(option: Mapping[str, Any]) -> dict[str, Any] | None:
    """The text of a rectification the Laws give the director (an alert's ``options`` entry,
    bridgecore's ``Rectification``): its ``say`` (``{"key": "rect.*", "values"}``), rendered
    in the reader's language. An option of an older log has only its English words: when they
    are the English text of a ``rect.*`` key without fields (an option naming no seat, call or
    law number) that key is its text, else None (its English words are shown as they are)."""
    say = option.get("say")
    if isinstance(say, Mapping) and isinstance(say.get("key"), str):
        return {"key": say["key"], "values": dict(say.get("values") or {})}
    key = _english_options().get(str(option.get("text", "")))
    return None if key is None else {"key": key, "values": {}}


@functools.cache
def _english_options() -> dict[str, str]:
    return {english: key for key, english in CATALOGS.source.items()
            if key.startswith("rect.") and not fields(english)}


def choose(*candidates: str | None, accept: str = "") -> str:
    """The first of ``candidates`` that is a language of :data:`LANGUAGES`, else the first of
    the ``Accept-Language`` header that is, else English. The pseudo-locale is accepted when
    named (a test's or a translator's choice), never offered."""
    for language in candidates:
        if language in LANGUAGES or language == PSEUDO:
            return language
    for part in accept.split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return "en"


class Languages:
    """The language each user chose (any thread), kept for the user's account in ``path``
    (``languages.json`` beside the users file: a JSON object user -> language, 0600) so that
    the choice outlives the hub; without a path, while the hub runs. A file that cannot be
    read or written is logged, never fatal: the language is a comfort, not a record."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self._chosen: dict[str, str] = self._load()
        self._lock = threading.Lock()

    def _load(self) -> dict[str, str]:
        if self.path is None or not self.path.exists():
            return {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            log.warning("%s: unreadable (%s); the users' languages start afresh", self.path, err)
            return {}
        if not isinstance(data, dict):
            log.warning("%s: not a JSON object; the users' languages start afresh", self.path)
            return {}
        return {str(user): language for user, language in data.items()
                if isinstance(language, str) and (language in LANGUAGES or language == PSEUDO)}

    def get(self, user: str | None) -> str | None:
        with self._lock:
            return None if user is None else self._chosen.get(user)

    def set(self, user: str, language: str) -> None:
        if language not in LANGUAGES and language != PSEUDO:
            raise ValueError(f"language {language!r:.20}: one of {', '.join(LANGUAGES)}")
        with self._lock:
            self._chosen[user] = language
            if self.path is not None:
                self._save(dict(self._chosen))

    def _save(self, chosen: dict[str, str]) -> None:
        assert self.path is not None
        tmp = self.path.with_name(f".{self.path.name}.tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(chosen, out, indent=1, sort_keys=True)
            os.replace(tmp, self.path)
        except OSError as err:
            log.warning("could not keep the users' languages in %s: %s", self.path, err)
