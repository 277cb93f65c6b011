"""The translation catalogs (wire/catalogs.py, docs/translating.md): every offered language
complete with the English fields, every key a page, a script or a screen names is in its
catalog (found by Babel's own extraction with babel.cfg), the catalogs compile cleanly and no
compiled catalog sits in the tree to go stale, the pseudo-locale marks every text, and the
converter from the old word tables folds a late table in once."""

from __future__ import annotations

import gettext
import importlib.util
import re
import textwrap
from pathlib import Path
from types import ModuleType

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg

from wire.catalogs import PSEUDO, SOURCE, Catalogs, call_text, card_text, fields, pseudo

ROOT = Path(__file__).resolve().parents[2]
APPS = {
    # app -> (catalogs, the folder Babel extracts from, the keywords of its calls)
    "hub": (Catalogs(ROOT / "hub" / "locale", "console"), ROOT / "hub" / "static", {}),
    "tablet": (Catalogs(ROOT / "tablet" / "locale", "tablet"), ROOT / "tablet",
               {"tr": None, "say": (2,)}),
}


def converter() -> ModuleType:
    spec = importlib.util.spec_from_file_location("tables_to_po",
                                                  ROOT / "scripts" / "tables_to_po.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("app", list(APPS))
def test_french_english_and_italian_are_offered_and_every_offered_catalog_is_complete(
        app: str) -> None:
    catalogs = APPS[app][0]
    assert {"en", "fr", "it"} <= set(catalogs.offered)
    assert catalogs.offered["fr"] == "Français" and catalogs.offered["it"] == "Italiano"
    # German, Dutch, Spanish and Polish (docs/translating.md: the largest federations after
    # France and Italy), each named in itself
    assert {code: catalogs.offered.get(code) for code in ("de", "nl", "es", "pl")} == {
        "de": "Deutsch", "nl": "Nederlands", "es": "Español", "pl": "Polski"}
    for language in catalogs.offered:
        assert catalogs.problems(language) == [], (app, language)
    assert len(catalogs.source) > 100


@pytest.mark.parametrize("app", list(APPS))
def test_every_key_the_code_names_is_in_the_catalog(app: str) -> None:
    """What ``pybabel extract -F babel.cfg`` finds (docs/translating.md) is all in English."""
    catalogs, folder, keywords = APPS[app]
    with (ROOT / "babel.cfg").open(encoding="utf-8") as handle:
        method_map, options_map = parse_mapping_cfg(handle, "babel.cfg")
    found: dict[str, str] = {}
    for filename, lineno, message, _, _ in extract_from_dir(
            str(folder), method_map, options_map, keywords=keywords or {"t": None}):
        key = message if isinstance(message, str) else message[0]
        found.setdefault(key, f"{filename}:{lineno}")
    assert len(found) > 60
    missing = {key: where for key, where in found.items() if key not in catalogs.source}
    assert missing == {}


@pytest.mark.parametrize("app", list(APPS))
def test_the_catalogs_compile_cleanly_and_no_compiled_catalog_is_in_the_tree(app: str) -> None:
    """Compiled in memory at first use, so never stale: a ``.mo`` file in the tree could be."""
    catalogs = APPS[app][0]
    assert list(catalogs.folder.rglob("*.mo")) == []
    for language in catalogs.present():
        errors = [(str(m.id), [str(e) for e in errs]) for m, errs in
                  catalogs.read(language).check()]
        assert errors == [], (app, language)
        texts = catalogs.texts(language)
        catalog = catalogs.read(language)
        form_of = gettext.c2py(catalog.plural_expr)      # the catalog's own Plural-Forms
        for message in catalog:
            if message.id and message.string and not message.fuzzy:
                if message.pluralizable:        # the forms, through ngettext
                    others = {name: f"<{name}>" for form in message.string
                              for name in fields(form) if name != "n"}
                    for n in (1, 2, 5, 22, 25):
                        assert catalogs.plural(language, message.id[0], n, **others) == \
                            message.string[form_of(n)].format(n=n, **others)
                else:
                    assert texts[str(message.id)] == message.string


def test_a_missing_key_or_a_changed_field_keeps_a_language_from_being_offered(
        tmp_path: Path) -> None:
    for language, body in {
            "en": 'msgid "a"\nmsgstr "Board {board}"\n\nmsgid "b"\nmsgstr "Pass"\n',
            "fr": 'msgid "a"\nmsgstr "Donne {donne}"\n\nmsgid "c"\nmsgstr "Passe"\n',
            "it": 'msgid "a"\nmsgstr "Smazzata {board}"\n\nmsgid "b"\nmsgstr "Passo"\n'}.items():
        path = tmp_path / language / "LC_MESSAGES" / "x.po"
        path.parent.mkdir(parents=True)
        path.write_text(body, encoding="utf-8")
    catalogs = Catalogs(tmp_path, "x")
    assert catalogs.problems("fr") == ["a: fields ['donne'], English has ['board']",
                                       "b: no text", "c: not in English"]
    assert list(catalogs.offered) == ["en", "it"]
    assert catalogs.texts("fr")["b"] == "Pass"          # English behind a missing text
    assert catalogs.texts("it") == {"a": "Smazzata {board}", "b": "Passo"}
    assert catalogs.texts("de") == catalogs.source      # no catalog at all


def test_plural_forms_follow_each_language() -> None:
    """gettext's ngettext with each catalog's Plural-Forms: French counts 0 as singular."""
    catalogs = APPS["hub"][0]
    assert [catalogs.plural("en", "section.rounds", n) for n in (0, 1, 2)] == \
        ["0 rounds", "1 round", "2 rounds"]
    assert [catalogs.plural("fr", "section.rounds", n) for n in (0, 1, 2)] == \
        ["0 tour", "1 tour", "2 tours"]
    assert [catalogs.plural("it", "section.boards", n) for n in (1, 3)] == \
        ["1 smazzata", "3 smazzate"]
    assert catalogs.plural(PSEUDO, "section.rounds", 2) == "[2 ŕöûñðš]"
    # Polish has three forms: 1 runda, 2-4 (and 22-24...) rundy, 5-21 (and 25...) rund
    assert [catalogs.plural("pl", "section.rounds", n) for n in (1, 2, 5, 12, 22, 25)] == \
        ["1 runda", "2 rundy", "5 rund", "12 rund", "22 rundy", "25 rund"]
    assert [catalogs.plural("de", "section.boards", n) for n in (1, 2)] == \
        ["1 Board", "2 Boards"]


def test_the_pseudo_locale_accents_and_brackets_every_text_and_keeps_its_fields() -> None:
    assert pseudo("Start round {n}") == "[Šţàŕţ ŕöûñð {n}]"
    assert pseudo("{seat} to play: {count:d} {{x}}") == "[{seat} ţö þļàý: {count:d} {{ẋ}}]"
    catalogs = APPS["tablet"][0]
    texts = catalogs.texts(PSEUDO)
    for key, english in catalogs.source.items():
        assert texts[key].startswith("[") and texts[key].endswith("]"), key
        assert fields(texts[key]) == fields(english), key
    assert PSEUDO not in catalogs.offered and SOURCE in catalogs.offered


def test_the_converter_folds_a_late_table_in_once(tmp_path: Path) -> None:
    """A branch that added a word to the old tablet table: rerunning the converter adds it
    to each language's catalog, once, and leaves the other texts as the catalogs have them."""
    module = converter()
    (tmp_path / "tablet").mkdir()
    (tmp_path / "tablet" / "i18n.py").write_text(textwrap.dedent('''
        STRINGS: dict[str, dict[str, str]] = {
            "seat.N": {"en": "North", "fr": "Nord", "it": "Nord"},
            "late.word": {"en": "Late {n}", "fr": "Tard {n}", "it": "Tardi {n}"},
        }
    '''), encoding="utf-8")
    (tmp_path / "hub").mkdir()
    (tmp_path / "hub" / "console_words.py").write_text(
        'EVENING_WORDS = {"x.y": ("Room", "Salle", "Sala")}\n', encoding="utf-8")
    first = module.fold("tablet", None, False, root=tmp_path)
    assert len(first) == 3
    assert module.fold("tablet", None, False, root=tmp_path) == []
    assert module.fold("hub", None, False, root=tmp_path) != []
    catalogs = Catalogs(tmp_path / "tablet" / "locale", "tablet")
    assert catalogs.texts("it") == {"seat.N": "Nord", "late.word": "Tardi {n}"}
    assert Catalogs(tmp_path / "hub" / "locale", "console").texts("fr") == {"x.y": "Salle"}


@pytest.mark.parametrize("app", list(APPS))
def test_no_text_shows_a_reader_a_repository_path(app: str) -> None:
    """A director reads "the reference line", not "the rule of docs/tempo.md"."""
    catalogs = APPS[app][0]
    path = re.compile(r"\b(?:docs|hub|tablet|wire|bridgecore|tests)/[\w./-]+")
    for language in catalogs.present():
        shown = {key: text for key, text in catalogs.texts(language).items()
                 if path.search(text)}
        assert shown == {}, language


# How cards, calls and seats are written: the same keys in both applications' catalogs.
NOTATION = ("rank.A", "rank.K", "rank.Q", "rank.J", "rank.T", "strain.NT", "call.Pass",
            "call.X", "call.XX", "letter.N", "letter.E", "letter.S", "letter.W")


@pytest.mark.parametrize("language", APPS["hub"][0].present())
def test_the_console_and_the_tablet_write_cards_and_calls_alike(language: str) -> None:
    console, tablet = APPS["hub"][0], APPS["tablet"][0]
    assert language in tablet.present()
    console_words = console.translation(language).gettext
    tablet_words = tablet.translation(language).gettext
    for key in NOTATION:
        assert key in console.source and key in tablet.source, key
        assert console_words(key) == tablet_words(key), (language, key)
    for card in ("SA", "HK", "DQ", "CJ", "ST", "H10", "S2"):
        assert card_text(card, console_words) == card_text(card, tablet_words)
    for call in ("Pass", "X", "XX", "3NT", "1C", "4HX", "6NTXX"):
        assert call_text(call, console_words) == call_text(call, tablet_words)


def test_cards_and_calls_in_a_catalogs_words() -> None:
    italian = {"rank.K": "R", "rank.J": "F", "rank.T": "10", "strain.NT": "SA",
               "call.Pass": "Passo"}
    words = lambda key: italian.get(key, key)  # noqa: E731 - gettext's contract
    assert [card_text(c, words) for c in ("SK", "HJ", "DT", "C10", "S9", "SA")] == [
        "\u2660R", "\u2665F", "\u266610", "\u266310", "\u26609", "\u2660A"]
    assert [call_text(c, words) for c in ("3NT", "1S", "4HX", "2DXX", "Pass", "X", "XX")] == [
        "3SA", "1\u2660", "4\u2665X", "2\u2666XX", "Passo", "X", "XX"]
    # a key the catalog lacks is written as bridgecore writes it; what is not a card or a
    # call is shown as it is, never an exception
    assert card_text("SQ", words) == "\u2660Q" and call_text("8NT", words) == "8NT"
    assert card_text("", words) == "" and call_text("Skip", words) == "Skip"
    assert card_text("ZK", words) == "ZK"
