"""The console's words (hub/console_i18n.py): every key the pages use is in the English
catalogue, French and Italian have every English key with the same {fields}, so that nothing
falls back to English (or to the key) without a test failing."""

from __future__ import annotations

import re
import string
from pathlib import Path
from typing import Any

import pytest

from hub.console_i18n import CATALOGS, LANGUAGES, Languages, catalogue, choose
from tablet.i18n import CATALOGS as TABLET  # pure Python, no Kivy

STATIC = Path(__file__).resolve().parents[2] / "hub" / "static"

# data-i18n="key" (and -title, -placeholder) in the pages; in their scripts t("key", ...),
# plural("key", n), tr("key"), word("key"), the dataset form { i18n: "key" } and
# "data-i18n-placeholder": "key".
_HTML = re.compile(r'data-i18n(?:-title|-placeholder)?="([^"]+)"')
_JS = re.compile(r'\b(?:t|tr|word|plural)\(\s*"([a-z][\w.-]*[\w-])"|\bi18n: "([a-z][\w.-]*[\w-])"'
                 r'|"data-i18n(?:-title|-placeholder)?": "([a-z][\w.-]*[\w-])"')


def used_keys() -> dict[str, set[str]]:
    """Each key the static pages name literally -> the files that name it."""
    found: dict[str, set[str]] = {}
    for path in sorted(STATIC.glob("*.html")) + sorted(STATIC.glob("*.js")):
        text = path.read_text(encoding="utf-8")
        pattern = _HTML if path.suffix == ".html" else _JS
        for match in pattern.finditer(text):
            key = next(g for g in match.groups() if g)
            found.setdefault(key, set()).add(path.name)
    return found


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_the_pages_use_keys_and_scripts_go_through_t() -> None:
    keys = used_keys()
    assert len(keys) > 200
    for page in ("console.js", "ruling.js", "setup.js", "devices.js", "tempo.js", "setup.html",
                 "console.html", "tempo.html", "devices.html", "evening.html"):
        assert any(page in files for files in keys.values()), page


def test_every_key_a_page_uses_is_in_the_english_catalogue() -> None:
    missing = {key: sorted(files) for key, files in used_keys().items()
               if key not in CATALOGS.source}
    assert missing == {}


@pytest.mark.parametrize("language", ["fr", "it"])
def test_french_and_italian_have_every_english_key_with_the_same_fields(language: str) -> None:
    assert CATALOGS.problems(language) == []
    texts = catalogue(language)
    assert set(texts) == set(CATALOGS.source)
    for key, english in CATALOGS.source.items():
        assert texts[key].strip(), (language, key)
        assert fields(texts[key]) == fields(english), (language, key)


def test_the_bridge_words_are_the_tablets() -> None:
    """Law 2's dealer and vulnerability, Law 61's revoke, Law 41's opening lead: the words
    the tablet (tablet/i18n.py) uses."""
    fr, it = catalogue("fr"), catalogue("it")
    assert (fr["console.dealer"], it["console.dealer"]) == ("Donneur {seat}", "Mazziere {seat}")
    assert fr["kind.revoke"] == "Renonce" and "revoca" in it["kind.revoke"].lower()
    assert (fr["console.lead"], it["console.lead"]) == ("entame", "attacco")
    assert fr["console.vul"].startswith("Vulnérable") and it["console.vul"].startswith("Zona")
    assert (fr["strain.NT"], it["strain.NT"]) == ("SA", "SA")
    assert fr["console.h_options"].endswith("l'arbitre")
    assert it["console.h_options"].endswith("l'arbitro")
    assert fr["kind.wrong_board"] == "Mauvais étui"


# The console's key -> the tablet's key (tablet/i18n.py) that says the same thing.
SAME_AS_THE_TABLET = {
    "console.board": "header.board", "console.dealer": "header.dealer",
    "console.round": "header.round", "console.table": "header.table",
    "console.passed_out": "auction.passed_out", "results.pass": "call.Pass",
    "seat.N": "seat.N", "seat.E": "seat.E", "seat.S": "seat.S", "seat.W": "seat.W",
    "results.north_south": "side.NS", "results.east_west": "side.EW",
}


@pytest.mark.parametrize("language", ["fr", "en", "it", "de", "nl", "es", "pl"])
def test_the_console_says_what_the_tablet_says(language: str) -> None:
    for console_key, tablet_key in SAME_AS_THE_TABLET.items():
        assert catalogue(language)[console_key] == TABLET.texts(language)[tablet_key], console_key


def test_catalogue_and_choice() -> None:
    assert {"fr", "en", "it"} <= set(LANGUAGES)
    assert catalogue("xx") == CATALOGS.source
    assert choose(None, "xx", accept="it-IT,it;q=0.9,en;q=0.8") == "it"
    assert choose("fr", accept="it") == "fr"
    assert choose(accept="ja") == "en"
    assert choose(accept="de-AT,de;q=0.9") == "de" and choose(accept="nl") == "nl"


def test_the_language_is_kept_for_the_users_account_across_restarts(tmp_path: Path,
                                                                     caplog: Any) -> None:
    path = tmp_path / "console" / "languages.json"
    first = Languages(path)
    first.set("dora", "it")
    first.set("marc", "fr")
    assert Languages(path).get("dora") == "it" and Languages(path).get("marc") == "fr"
    assert Languages(path).get("nobody") is None and Languages(path).get(None) is None
    assert path.stat().st_mode & 0o777 == 0o600
    with pytest.raises(ValueError):
        first.set("dora", "klingon")
    path.write_text('{"dora": "klingon", "marc": "it"}')       # edited by hand
    assert Languages(path).get("dora") is None and Languages(path).get("marc") == "it"
    path.write_text("not json")
    assert Languages(path).get("marc") is None and "unreadable" in caplog.text
    assert Languages().get("dora") is None                     # no file: while the hub runs


def test_where_the_deals_came_from_in_the_readers_language() -> None:
    """The set-up keeps its ``boards.source`` in English (hub.event writes it so, and an
    older set-up reads back the same); the summary says it in the reader's language."""
    from hub.texts import deal_source
    assert deal_source("secure random deals (CSPRNG)", "fr") == "donnes aléatoires sûres (CSPRNG)"
    assert deal_source("secure random deals (CSPRNG)", "en") == "secure random deals (CSPRNG)"
    assert deal_source("PBN file boards.pbn", "de") == "PBN-Datei boards.pbn"
    assert deal_source("BigDeal boards 1-24, seed 00ff, owner 'club'", "it") == \
        "BigDeal smazzate 1-24, seme 00ff, proprietario 'club'"
    assert deal_source("deals given", "nl") == "opgegeven verdelingen"
    assert deal_source("a source of another hub", "pl") == "a source of another hub"


def test_a_movements_name_in_the_readers_language() -> None:
    """bridgecore names a movement in English (the scoring reads "Teams" from the name); the
    set-up summary says it in the reader's language, each Mitchell variant too."""
    from hub.texts import movement_text
    assert movement_text("Mitchell 8 tables, skip", "fr") == "Mitchell 8 tables, saut"
    assert movement_text("Mitchell 8 tables, skip", "en") == "Mitchell 8 tables, skip"
    assert movement_text("Mitchell 8 tables, relay and bye-stand", "it") == \
        "Mitchell 8 tavoli, relais e tavolo di riposo"
    assert movement_text("Howell 7 tables", "de") == "Howell 7 Tische"
    assert movement_text("Teams Swiss 6 teams", "nl") == "Zwitserse teams, 6 teams"
    assert movement_text("movement file club.asc", "es") == "fichero de movimiento club.asc"
    assert movement_text("Mitchell 8 tables, a variant of another hub", "pl") == \
        "Mitchell 8 tables, a variant of another hub"
