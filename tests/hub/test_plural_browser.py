"""Counts in the reader's language in the browser (issue 26): ``GET /api/i18n`` serves each
plural key's forms and the language's rule (hub.console_i18n.answer: the C expression of the
catalog's ``Plural-Forms``), static/i18n.js reads the rule without eval
(``tenaceI18n.pluralRule``) and writes a count with ``tenaceI18n.plural``. The rule as
Chromium runs it chooses, for every language and the pseudo-locale, the form Python's
gettext ``ngettext`` chooses; and the results page of a real console writes a board's count
of results "1 résultat", "2 résultats" in French and "1 wynik", "2 wyniki", "5 wyników" in
Polish, and the room's tally "2 tables en attente · 5 tables aux enchères", "2 stoły czekają
· 5 stołów licytuje", live to "1 stół czeka · 6 stołów licytuje"."""

from __future__ import annotations

import gettext
import random
from collections.abc import Iterator
from typing import Any

import pytest

from bridgecore.movements import howell
from hub.console import Console
from hub.console_i18n import CATALOGS, LANGUAGES, answer
from hub.room import Room, Section
from tests.hub.test_console import (  # noqa: F401 - the browser fixture
    START,
    Login,
    Loop,
    browser,
    browser_login,
    make_hub,
    make_users,
    wait,
)
from tests.hub.test_live_scoring import Session
from tests.hub.test_results_pages import ResultsHub, open_page
from tests.hub.test_scoring_conventions import DEALS, play_board

CEILING = 60.0     # seconds: a guard on a busy machine, not a time the test expects
COOKIE = "tenace_lang"
COUNTS = [*range(31), 101, 102, 105, 112, 122, 1_000_000]
ALL = [*LANGUAGES, "en_XA"]


@pytest.fixture(scope="module")
def counted(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Console]:
    """A 6-table Howell whose round 1 plays board 1 at five tables, board 2 at two and
    board 3 at one (each table's own pairs: every line counts), six results expected."""
    loop = Loop()
    session = Session(Room(Section("A", howell(6, boards_per_round=2)), DEALS))

    def play() -> None:
        for board, tables in ((1, 5), (2, 2), (3, 1)):
            for table in range(1, tables + 1):
                play_board(session, 1, f"A{table}", board, "4S", 10)

    loop.call(play)
    console = Console(ResultsHub(session), coalesce=0.05,
                      users=make_users(tmp_path_factory.mktemp("users")))
    loop.run(console.start())
    Login.director(console)
    try:
        yield console
    finally:
        loop.run(console.stop())
        loop.close()


def test_the_answer_has_every_plural_keys_forms_as_many_as_the_rule_has() -> None:
    for language in ALL:
        data = answer(language)
        forms, rule = data["plural"]["forms"], data["plural"]["rule"]
        assert (forms, rule) == CATALOGS.plural_rule(language)
        assert set(data["plurals"]) >= {"results.of", "setup.problems", "section.rounds"}
        assert all(len(texts) == forms for texts in data["plurals"].values()), language
    assert answer("pl")["plural"]["forms"] == 3
    assert answer("pl")["plurals"]["results.of"] == [
        "{n} wynik z {expected}", "{n} wyniki z {expected}", "{n} wyników z {expected}"]
    assert answer("en_XA")["plurals"]["setup.problems"] == ["[{n} þŕöƀļéɱ]",
                                                            "[{n} þŕöƀļéɱš]"]


def test_browser_the_served_rule_chooses_the_form_gettext_chooses(
        counted: Console, browser: Any) -> None:  # noqa: F811
    open_page(browser, counted.url + "results")
    for language in ALL:
        data = answer(language)
        chosen = browser.execute_script(
            "const rule = window.tenaceI18n.pluralRule(arguments[0]);"
            "return arguments[1].map((n) => rule(n));", data["plural"]["rule"], COUNTS)
        translation = CATALOGS.translation(language)
        for key, forms in data["plurals"].items():
            assert [forms[i] for i in chosen] == [
                translation.ngettext(key, key, n) for n in COUNTS], (language, key)
    # Polish: 1, 2-4 (22-24, 102...), then the rest (5-21, 112, 1 000 000); French 0 and 1 one
    pl = answer("pl")["plural"]["rule"]
    fr = answer("fr")["plural"]["rule"]
    assert browser.execute_script(
        "const rule = window.tenaceI18n.pluralRule(arguments[0]);"
        "return [1, 2, 4, 5, 12, 22, 25, 102, 112].map((n) => rule(n));", pl) == \
        [0, 1, 1, 2, 2, 1, 2, 1, 2]
    assert browser.execute_script(
        "const rule = window.tenaceI18n.pluralRule(arguments[0]);"
        "return [0, 1, 2].map((n) => rule(n));", fr) == [0, 0, 2]
    # A rule that is not one is refused by name, never run.
    assert browser.execute_script(
        "try { window.tenaceI18n.pluralRule('n == 1 ? alert(1) : 0'); return 'read'; }"
        " catch (err) { return err.message; }").startswith("plural rule ")


def arithmetic(rng: random.Random, depth: int) -> str:
    """A number-valued C expression of n: n, a number, % / * + - of two (no unary minus:
    C's and Python's modulo differ on negative numbers)."""
    if depth == 0 or rng.random() < 0.3:
        return rng.choice(["n", str(rng.randint(0, 120))])
    op = rng.choice(["%", "/", "*", "+", "-"])
    right = str(rng.randint(1, 120)) if op in "%/" else arithmetic(rng, depth - 1)
    return f"{arithmetic(rng, depth - 1)} {op} {right}"


def condition(rng: random.Random, depth: int) -> str:
    """A 0-or-1 C expression: comparisons joined by && and ||, ! and parentheses (gettext's
    c2py, Python's own reader of Plural-Forms, gives an operand of && its value, not 1)."""
    if depth == 0 or rng.random() < 0.4:
        op = rng.choice(["==", "!=", "<", "<=", ">", ">="])
        return f"{arithmetic(rng, 2)} {op} {arithmetic(rng, 2)}"
    kind = rng.choice(["&&", "||", "!", "()"])
    if kind == "!":
        return f"!({condition(rng, depth - 1)})"
    if kind == "()":
        return f"({condition(rng, depth - 1)})"
    return f"{condition(rng, depth - 1)} {kind} {condition(rng, depth - 1)}"


def rule(rng: random.Random, depth: int) -> str:
    if depth == 0 or rng.random() < 0.3:
        return str(rng.randint(0, 3))
    return f"{condition(rng, 2)} ? {rule(rng, depth - 1)} : {rule(rng, depth - 1)}"


def test_browser_the_rule_reader_agrees_with_gettext_on_random_rules(
        counted: Console, browser: Any) -> None:  # noqa: F811
    """Any rule a catalog could carry, not only the seven languages': 300 random ones of the
    C grammar of Plural-Forms, read by i18n.js in Chromium and by gettext's own reader."""
    open_page(browser, counted.url + "results")
    rng = random.Random(26)
    rules = [rule(rng, 3) for _ in range(300)]
    chosen = browser.execute_script(
        "return arguments[0].map((source) => {"
        " const rule = window.tenaceI18n.pluralRule(source);"
        " return arguments[1].map((n) => rule(n)); });", rules, COUNTS)
    for source, got in zip(rules, chosen, strict=True):
        assert got == [gettext.c2py(source)(n) for n in COUNTS], source
    # Text that is no rule: an Error naming it, never run, never another exception.
    noise = ["", "n ==", "(n", "n ? 1", "n == 1 ? 0 : : 1", "1 2", "n; 1", "window",
             "n = 1", "n == 1 ? 0 : alert(1)", "constructor", "n.x", "0x10", "'1'"]
    noise += ["".join(rng.choice(["n", "1", "?", ":", "(", ")", "&&", "%", "==", "!", " "])
                      for _ in range(rng.randint(1, 12))) for _ in range(200)]
    answers = browser.execute_script(
        "return arguments[0].map((source) => {"
        " try { const rule = window.tenaceI18n.pluralRule(source); return rule(7); }"
        " catch (err) { return err instanceof Error ? err.message : 'thrown: ' + err; } });",
        noise)
    for source, got in zip(noise, answers, strict=True):
        try:
            wanted: Any = gettext.c2py(source)(7)
        except (ValueError, SyntaxError, ZeroDivisionError, TypeError):
            wanted = None
        if wanted is None:
            assert isinstance(got, str) and got.startswith("plural rule "), (source, got)
        else:           # a rule after all ("1 && n": 1 in C, where Python's "and" gives n)
            assert isinstance(got, int), (source, got)


def heading(driver: Any) -> str:
    found = driver.find_elements("css selector", "#traveller-A h2")
    return found[0].text if found else ""


@pytest.mark.parametrize(("language", "wanted"), [
    ("fr", {1: "5 résultats sur 6", 2: "2 résultats sur 6", 3: "1 résultat sur 6"}),
    ("pl", {1: "5 wyników z 6", 2: "2 wyniki z 6", 3: "1 wynik z 6"}),
    ("en", {1: "5 results of 6", 2: "2 results of 6", 3: "1 result of 6"}),
])
def test_browser_a_boards_count_of_results_in_the_readers_plural(
        counted: Console, browser: Any, language: str,  # noqa: F811
        wanted: dict[int, str]) -> None:
    browser.delete_all_cookies()
    browser_login(browser, counted)        # the director: a board still in play is shown
    browser.add_cookie({"name": COOKIE, "value": language, "path": "/"})
    for board, text in wanted.items():
        open_page(browser, counted.url + f"results/board/{board}")
        wait(browser, lambda d, w=text: w in heading(d), timeout=CEILING)
        assert f" {text} " in heading(browser) + " "
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Loop, Any, Console]]:
    """The 7-table Mitchell of the console's tests in round 1: A1 to A5 bidding, A6 and A7
    waiting for their players."""
    loop = Loop()
    hub = make_hub()
    hub.tables.now = START + 100

    def bid() -> None:
        for n in range(1, 6):
            hub.tables.sit(f"A{n}", 2 * n - 1)
            hub.tables.calls(f"A{n}", "1C")

    loop.call(bid)
    console = Console(hub, coalesce=0.05, users=make_users(tmp_path_factory.mktemp("room")))
    hub.console = hub.tables.console = console
    loop.run(console.start())
    try:
        yield loop, hub, console
    finally:
        loop.run(console.stop())
        loop.close()


def tally(driver: Any) -> str:
    found = driver.find_elements("id", "map-summary")
    return found[0].text if found else ""


def test_browser_the_rooms_tally_counts_tables_in_the_readers_plural(
        room: Any, browser: Any) -> None:  # noqa: F811
    loop, hub, console = room
    browser.delete_all_cookies()
    browser_login(browser, console)
    for language, wanted in (
            ("en", "2 tables waiting · 5 tables bidding"),
            ("fr", "2 tables en attente · 5 tables aux enchères"),
            ("pl", "2 stoły czekają · 5 stołów licytuje")):
        browser.add_cookie({"name": COOKIE, "value": language, "path": "/"})
        browser.get(console.url)
        wait(browser, lambda d, w=wanted: tally(d) == w, timeout=CEILING)
    # A6 starts bidding: the tally follows, live, in Polish's singular and "many" forms.
    loop.call(lambda: (hub.tables.sit("A6", 11), hub.tables.calls("A6", "1C")))
    wait(browser, lambda d: tally(d) == "1 stół czeka · 6 stołów licytuje", timeout=CEILING)
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
