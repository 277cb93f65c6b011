"""Translation catalogs: gettext ``.po`` files, read with Babel, used through :mod:`gettext`.

Each application keeps its words in ``<app>/locale/<language>/LC_MESSAGES/<domain>.po``
(hub: domain ``console``; tablet: domain ``tablet``). A message's ``msgid`` is its key
(``"auction.turn"``), the English catalog holds the source texts, every other language the
same keys; a text's ``{name}`` fields are filled in by :meth:`str.format`. The ``.po`` files
are the only thing in the tree: each is compiled in memory when it is first needed
(:func:`babel.messages.mofile.write_mo` into :class:`gettext.GNUTranslations`), so a
compiled catalog can never be older than its source and no ``.mo`` file is ever committed
(``pybabel compile`` still works on them for anyone who wants the files).

A language is offered to users only when its catalog is complete (:meth:`Catalogs.problems`
is empty): a half-translated catalog can sit in the tree while a federation finishes it. The
pseudo-locale :data:`PSEUDO` is English with every letter accented and each text bracketed
(``[Ŝţàŕţ ŕöûñð]``), made from the English catalog: any text on a screen that is not in that
form did not come from a catalog. docs/translating.md says how to add a language.

How a card and a call are written is in the catalogs too (``rank.K``, ``strain.NT``,
``call.Pass``...): :func:`card_text` and :func:`call_text` write them from any catalog's
lookup, the console's and the tablet's alike, so that both applications write ``♠R`` and
``3SA`` the same way from the same keys.
"""

from __future__ import annotations

import functools
import gettext
import io
import re
import string
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

__all__ = [
    "PSEUDO", "SOURCE", "SUIT_SYMBOLS", "Catalogs", "Lookup", "call_text", "card_text",
    "extract_markup", "fields", "pseudo", "rank_text", "strain_text",
]

SOURCE = "en"
PSEUDO = "en_XA"

_ACCENTED = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "àƀçðéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÀƁÇÐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ")


SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}

# A catalog's lookup: gettext's ``gettext``, the text of a key, the key itself when the
# catalog has none.
Lookup = Callable[[str], str]

_BID = re.compile(r"^([1-7])(NT|[SHDC])(X{0,2})$")
_CARD = re.compile(r"^([SHDC])([AKQJT2-9]|10)$")
_RANKS = frozenset("AKQJT")
_CALLS = frozenset(("Pass", "X", "XX"))


def _word(lookup: Lookup, key: str, fallback: str) -> str:
    text = lookup(key)
    return fallback if not text or text == key else text


def rank_text(rank: str, lookup: Lookup) -> str:
    """A rank as bridgecore writes it (``"K"``, ``"T"``) from the catalog's ``rank.*``:
    ``R`` in French and Italian, ``H`` in Dutch, ``10`` for the ten; a spot card as it is."""
    return _word(lookup, f"rank.{rank}", rank) if rank in _RANKS else rank


def strain_text(strain: str, lookup: Lookup) -> str:
    """``"S"`` -> ♠, ``"NT"`` -> the catalog's ``strain.NT`` (NT, SA, ST, BA)."""
    if strain == "NT":
        return _word(lookup, "strain.NT", "NT")
    return SUIT_SYMBOLS.get(strain, strain)


def card_text(card: str, lookup: Lookup) -> str:
    """``"SK"`` -> ``"♠K"`` (``"♠R"`` from a French or Italian catalog), ``"HT"`` and
    ``"H10"`` -> ``"♥10"``; anything that is not a card as it is. Read back in the same
    language with :func:`bridgecore.notation.notation`."""
    m = _CARD.match(card)
    if m is None:
        return card
    return SUIT_SYMBOLS[m[1]] + rank_text("T" if m[2] == "10" else m[2], lookup)


def call_text(call: str, lookup: Lookup) -> str:
    """A call or a contract as bridgecore writes it (``"3NT"``, ``"4HX"``, ``"Pass"``,
    ``"X"``, ``"XX"``) from the catalog's ``strain.NT`` and ``call.*``: ``"3SA"``,
    ``"4♥X"``, ``"Passe"``; anything else as it is."""
    m = _BID.match(call)
    if m is not None:
        return m[1] + strain_text(m[2], lookup) + m[3]
    return _word(lookup, f"call.{call}", call) if call in _CALLS else call


def fields(text: str) -> set[str]:
    """The ``{name}`` fields of a text."""
    try:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name}
    except ValueError:
        return {"<unbalanced braces>"}


def pseudo(text: str) -> str:
    """``"Start {n} rounds"`` -> ``"[Šţàŕţ {n} ŕöûñðš]"``: accented, bracketed, fields kept."""
    out: list[str] = []
    for literal, name, spec, conversion in string.Formatter().parse(text):
        out.append(literal.translate(_ACCENTED).replace("{", "{{").replace("}", "}}"))
        if name is not None:
            out.append("{" + name + ("!" + conversion if conversion else "")
                       + (":" + spec if spec else "") + "}")
    return "[" + "".join(out) + "]"


def _key(msgid: object) -> str:
    return str(msgid[0] if isinstance(msgid, (tuple, list)) else msgid)


def _forms(string_: object) -> tuple[str, ...]:
    if isinstance(string_, (tuple, list)):
        return tuple(str(s) for s in string_)
    return (str(string_),) if string_ else ()


def _last(string_: object) -> str:
    forms = _forms(string_)
    return forms[-1] if forms else ""


def _fields_of(string_: object) -> set[str]:
    """The fields of a text, or of all the plural forms of one together."""
    return set().union(*(fields(form) for form in _forms(string_))) if _forms(string_) else set()


# A catalog's Plural-Forms header: "nplurals=3; plural=n == 1 ? 0 : ...;".
_PLURAL_FORMS = re.compile(r"\s*nplurals\s*=\s*(\d+)\s*;\s*plural\s*=\s*([^;]+);?\s*$")

# The counts tried for a form's witness: every count to 1000, then the powers of ten (the
# millions of French, Italian and Spanish, "1 000 000 de joueurs").
_COUNTS = (*range(1000), *(10 ** k for k in range(3, 10)))


def _witnesses(translation: gettext.NullTranslations, count: int) -> list[int]:
    """For each form 0..count-1 the smallest count ``ngettext`` gives it for (the last
    count tried for a form no count reaches)."""
    chooser = getattr(translation, "plural", lambda n: int(n != 1))
    found: dict[int, int] = {}
    for n in _COUNTS:
        found.setdefault(int(chooser(n)), n)
        if len(found) >= count:
            break
    return [found.get(form, _COUNTS[-1]) for form in range(count)]


class Catalogs:
    """The catalogs of one domain under one ``locale`` folder."""

    def __init__(self, folder: Path, domain: str) -> None:
        self.folder = folder
        self.domain = domain

    def path(self, language: str) -> Path:
        return self.folder / language / "LC_MESSAGES" / f"{self.domain}.po"

    def present(self) -> list[str]:
        """Every language with a ``.po`` file, English first."""
        found = sorted(p.parent.parent.name for p in self.folder.glob(f"*/LC_MESSAGES/"
                                                                       f"{self.domain}.po"))
        return sorted(found, key=lambda code: code != SOURCE)

    def read(self, language: str) -> Catalog:
        """The ``.po`` file of ``language`` as Babel reads it."""
        with self.path(language).open("rb") as handle:
            return read_po(handle, locale=language, domain=self.domain)

    @functools.cached_property
    def source(self) -> dict[str, str]:
        """Every key -> its English text (the source catalog); a text with plural forms
        (``msgid_plural``, for :meth:`plural`) gives its last form."""
        return {_key(m.id): _last(m.string) for m in self.read(SOURCE) if m.id}

    def plural(self, language: str, key: str, n: int, **values: object) -> str:
        """The form of ``key`` for the count ``n`` in ``language`` (gettext's ``ngettext``,
        the catalog's ``Plural-Forms``), its fields filled from ``n`` and ``values``."""
        text = self.translation(language).ngettext(key, key, n)
        return text.format(n=n, **values)

    def say(self, language: str, key: str, **values: object) -> str:
        """The text of ``key`` in ``language``, its fields filled from ``values``."""
        return self.translation(language).gettext(key).format(**values)

    @functools.cache  # noqa: B019 - one per domain for the process's life
    def translation(self, language: str) -> gettext.NullTranslations:
        """The catalog of ``language`` compiled in memory, English behind it for any key it
        lacks (a test makes that a failure for an offered language); English for a language
        with no catalog."""
        english = self._compiled(self.read(SOURCE))
        if language == SOURCE or (language != PSEUDO and not self.path(language).exists()):
            return english
        if language == PSEUDO:
            made = Catalog(locale="en", domain=self.domain, fuzzy=False)
            for message in self.read(SOURCE):
                if message.id:
                    made.add(message.id, tuple(pseudo(str(t)) for t in message.string)
                             if isinstance(message.string, tuple) else pseudo(str(message.string)))
            return self._compiled(made)
        translation = self._compiled(self.read(language))
        translation.add_fallback(english)
        return translation

    @staticmethod
    def _compiled(catalog: Catalog) -> gettext.GNUTranslations:
        buffer = io.BytesIO()
        write_mo(buffer, catalog)
        buffer.seek(0)
        return gettext.GNUTranslations(buffer)

    def texts(self, language: str) -> dict[str, str]:
        """Every key -> its text in ``language``."""
        translation = self.translation(language)
        return {key: translation.ngettext(key, key, 2) if key in self._plurals
                else translation.gettext(key) for key in self.source}

    def plural_rule(self, language: str) -> tuple[int, str]:
        """The number of forms of ``language`` and the C expression choosing one from ``n``:
        the catalog's own ``Plural-Forms`` header, the rule gettext's ``ngettext`` follows
        (``(3, "n == 1 ? 0 : n % 10 >= 2 && ...")`` in Polish); English's for the
        pseudo-locale and for a language with no catalog."""
        header = self.translation(language).info().get("plural-forms", "")
        m = _PLURAL_FORMS.match(header)
        if m is None:
            return 2, "(n != 1)"
        return int(m[1]), m[2].strip()

    def plural_texts(self, language: str) -> dict[str, list[str]]:
        """Every key with plural forms -> its forms in ``language``, in the order of the
        language's rule (:meth:`plural_rule`): what a browser needs to choose the form of a
        count itself. Each form is the one ``ngettext`` gives for the smallest count the rule
        sends to it (the last form for one no count reaches)."""
        translation = self.translation(language)
        count, _ = self.plural_rule(language)
        witness = _witnesses(translation, count)
        return {key: [translation.ngettext(key, key, n) for n in witness]
                for key in sorted(self._plurals)}

    @functools.cached_property
    def _plurals(self) -> set[str]:
        return {_key(m.id) for m in self.read(SOURCE) if m.id and m.pluralizable}

    def problems(self, language: str) -> list[str]:
        """What keeps ``language`` from being offered: each key missing, empty, fuzzy or with
        fields other than the English text's, and each key English does not have."""
        found: list[str] = []
        messages = {_key(m.id): m for m in self.read(language) if m.id}
        english_fields = {_key(m.id): _fields_of(m.string) for m in self.read(SOURCE) if m.id}
        for key in self.source:
            message = messages.get(key)
            forms = () if message is None else _forms(message.string)
            if not forms or not all(forms):
                found.append(f"{key}: no text")
            elif message is not None and message.fuzzy:
                found.append(f"{key}: fuzzy (to check)")
            elif (got := set().union(*map(fields, forms))) != english_fields[key]:
                found.append(f"{key}: fields {sorted(got)}, "
                             f"English has {sorted(english_fields[key])}")
        found.extend(f"{key}: not in English" for key in messages if key not in self.source)
        return found

    @functools.cached_property
    def offered(self) -> dict[str, str]:
        """Each complete language -> its own name (``{"fr": "Français", ...}``)."""
        return {code: self.name(code) for code in self.present()
                if code == SOURCE or not self.problems(code)}

    @staticmethod
    def name(code: str) -> str:
        """A language's name in itself: ``"it"`` -> ``"Italiano"``."""
        if code == PSEUDO:
            return "[Þšéûðö]"
        name = Locale.parse(code).get_display_name(code) or code
        return name[:1].upper() + name[1:]


# The keys a page or a script names literally: data-i18n="key" (and -title, -placeholder) in
# HTML; t("key"), tr("key"), word("key"), plural("key", n), the dataset form { i18n: "key" }
# and "data-i18n-placeholder": "key" in JavaScript.
_HTML_KEYS = re.compile(r'data-i18n(?:-title|-placeholder)?="([^"]+)"')
_SCRIPT_KEYS = re.compile(
    r'\b(?:t|tr|word|plural)\(\s*"([a-z][\w.-]*[\w-])"|\bi18n: "([a-z][\w.-]*[\w-])"'
    r'|"data-i18n(?:-title|-placeholder)?": "([a-z][\w.-]*[\w-])"')


def extract_markup(fileobj: IO[bytes], keywords: object, comment_tags: object,
                   options: object) -> Iterator[tuple[int, None, str, list[str]]]:
    """A Babel extractor (babel.cfg: ``[extractors] markup = wire.catalogs:extract_markup``)
    for the console's pages and scripts: each key they name, with its line."""
    text = fileobj.read().decode("utf-8")
    html = str(getattr(fileobj, "name", "")).endswith((".html", ".htm"))
    for match in (_HTML_KEYS if html else _SCRIPT_KEYS).finditer(text):
        key = next(group for group in match.groups() if group)
        yield text.count("\n", 0, match.start()) + 1, None, key, []
