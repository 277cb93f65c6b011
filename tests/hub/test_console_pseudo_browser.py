"""The console in the pseudo-locale (wire.catalogs.PSEUDO, docs/translating.md), in Debian's
headless Chromium against a real hub: every visible text of the set-up page, the room console
and the public results page comes from the catalog, so it shows bracketed and accented; a
text without brackets did not come through the catalog and fails the test. Screenshots go
to the screenshots folder (pseudo-setup.png, pseudo-console.png, pseudo-results.png)."""

from __future__ import annotations

import re
from typing import Any

from tests.hub.test_console import wait
from tests.hub.test_setup_browser import browser, setup_page, shot, submit
from wire.catalogs import PSEUDO

__all__ = ["browser", "setup_page"]

# Every visible text node of the page, with the id or class of the nearest element naming it.
_VISIBLE_TEXTS = """
const out = [];
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  const parent = node.parentElement;
  const text = node.textContent.trim();
  if (!text || !parent || parent.closest("script, style, option:not(:checked)")) continue;
  if (!parent.getClientRects().length) continue;
  const style = getComputedStyle(parent);
  if (style.visibility === "hidden" || style.display === "none") continue;
  const named = parent.closest("[id]");
  out.push([text, (named ? "#" + named.id : "") + " " + parent.tagName.toLowerCase()]);
}
for (const input of document.querySelectorAll("input[placeholder]")) {
  if (input.getClientRects().length && input.placeholder)
    out.push([input.placeholder, "placeholder of " + (input.id || input.dataset.field || "")]);
}
return out;
"""

# Texts that are data, not words: numbers, times and dates (a clock's AM and PM, a month's
# name: the pseudo-locale's dates are English's, Babel's and the browser's own), units'
# symbols (dBm), codes (a table A1, a round R1), file names, symbols, the language names of
# the switch, the roster's and the event's own names; a <code> element holds a command or a
# code.
_SEPARATORS = re.compile(r"[\s.,:;%+\-–—/()#·×=<>♠♥♦♣|…•*'\"?!\[\]✓✎›‹⏸±∞]+")
_TOKEN = re.compile(r"^([A-Z]\d+|\d+|[0-9a-f]{16,}|AM|PM|dBm|Tenace|January|February|March"
                    r"|April|May|June|July|August|September|October|November|December)?$")
_FILE = re.compile(r"\b[\w-]+\.(pbn|xml|lin|csv|json|txt|html)\b")


def untranslated(driver: Any, data: set[str], sections: frozenset[str] = frozenset("A")
                 ) -> list[tuple[str, str]]:
    """Each visible text that is neither bracketed (from the catalog) nor data, or that has
    a word in plain letters inside the brackets (a value the page or the hub put into a
    catalog's text without its own words: "[Þàŕ: EW 3NT]"). A letter alone is a word (a
    seat's letter is the language's: Z for South in Dutch) unless it is one of the
    ``sections``' names."""
    found = []
    for original, where in driver.execute_script(_VISIBLE_TEXTS):
        text = original
        if where.endswith(" code"):
            continue
        for name in sorted(data - {""}, key=len, reverse=True):   # "A1-rdr" before "A1"
            text = text.replace(name, "")
        text = _FILE.sub("", text)
        words, before = text, ""
        while words != before:                      # the catalog's texts (nested), taken out
            before, words = words, re.sub(r"\[[^\[\]]*\]", "", words)
        # outside the catalog's texts: data only; inside them (a value filled in), no word
        # in plain ASCII letters either: the pseudo-locale accents every letter it writes
        if all(_TOKEN.match(token) or token in sections
               for token in _SEPARATORS.split(words)) and not [
                token for token in _SEPARATORS.split(text)
                if token.isascii() and token.isalpha() and not _TOKEN.match(token)
                and token not in sections]:
            continue
        found.append((original, where))
    return found


def assert_from_the_catalog(driver: Any, data: set[str]) -> None:
    left = untranslated(driver, data)
    assert left == [], "\n".join(f"{text!r} at {where}" for text, where in left)


def pseudo(driver: Any) -> None:
    driver.execute_async_script(
        "const done = arguments[0]; tenaceI18n.choose('en_XA').then(() => done(true));")


def test_browser_every_visible_text_of_the_console_is_from_the_catalog(setup_page: Any) -> None:
    driver, hub, _, _ = setup_page
    pseudo(driver)
    wait(driver, lambda d: d.find_element("css selector", "#setup-form h2").text == "[Éṽéñţ]")
    languages = set(driver.execute_script(
        "return [...document.querySelectorAll('#lang option')].map(o => o.textContent)"))
    languages.add("dora")                   # the director's user name
    assert_from_the_catalog(driver, languages)
    shot(driver, "pseudo-setup.png")
    submit(driver)
    wait(driver, lambda d: d.find_elements("css selector", "#setup-done h2"))
    assert_from_the_catalog(driver, languages)

    driver.get(hub.console.url)            # the room console: the language is the user's
    wait(driver, lambda d: d.find_elements("css selector", "#map .tile"), timeout=20)
    wait(driver, lambda d: d.find_element("id", "round-start").text.startswith("["))
    assert_from_the_catalog(driver, languages)
    shot(driver, "pseudo-console.png")

    driver.get(hub.console.url + "results")
    wait(driver, lambda d: d.find_elements("css selector", ".ranking th"))
    wait(driver, lambda d: d.find_element("css selector", ".ranking th").text.startswith("["))
    assert_from_the_catalog(driver, languages)
    shot(driver, "pseudo-results.png")
    # the event's total (a session on its own here) and the club's ladder (hub.series)
    for page, ready in (("results/event", "no-event"), ("results/ladder", "ladder-title")):
        driver.get(hub.console.url + page)
        wait(driver, lambda d: [e for e in d.find_elements("id", ready)  # noqa: B023
                                if e.text.startswith("[")])
        assert_from_the_catalog(driver, languages)


# The evening's pages, page by page ------------------------------------------------------------

# Each page of a played evening -> what shows that its data is drawn (a CSS selector whose text
# holds a catalog's text).
EVENING_PAGES = {
    "evening": "#pairs tbody tr",
    "check": "#check tbody tr",
    "cards": "#tables",
    "devices": "#devices tbody tr",
    "swiss": "#swiss-sections p",
    "tempo?table=A1&board=1": "#timeline-panel p",
    "results": ".ranking tbody tr",
    "results/board/1": ".traveller tbody tr",
    "results/pair/A/1": "#card tbody tr",
    "screen": "#body tr",
}


# A page -> the button the director presses there, and what it draws: the pairing codes of the
# printable sheet, a device's pairing panel.
DRAWN = {"cards": ("#draw", ".device-card .code"),
         "devices": ("#devices button[data-job='pair']", "#pair-panel:not([hidden]) #pair-code")}


def codes(driver: Any) -> set[str]:
    """The pairing codes and their addresses on the page: data."""
    return {e.text for e in driver.find_elements(
        "css selector", ".code, #pair-code, #pair-uri, #pair-hub, #pair-account") if e.text}


def _live_board(session: Any, table: str) -> None:
    """``table`` checks in and bids 1NT - Pass - 3NT - Pass - Pass - Pass, then plays five
    cards: a live auction and play for its panel (the hub's own path, Room.apply)."""
    from tenace.sim.devices import DeviceEvent, envelopes
    from tests.hub.test_console_session import MOVEMENT

    a = MOVEMENT.assignment(1, int(table[1:]))
    assert a is not None

    def send(type: str, **body: Any) -> None:
        session.now += 1
        (item,) = envelopes([DeviceEvent(table, f"{table}-tab", type, body, session.now)],
                            devices=session.devices)
        out = session.room.apply(*item, session.now)
        assert out.reply.status == "ack", out.reply
    send("checkin", direction="NS", pair=a.ns)
    send("checkin", direction="EW", pair=a.ew)
    send("board", board=a.boards[0])
    seat = session.room.markings(a.boards[0]).dealer
    for call in ("1NT", "Pass", "3NT", "Pass", "Pass", "Pass"):
        send("call", seat=seat.letter, call=call)
        seat = seat.lho
    play = session.room.tables[table].sitting.board.play
    for _ in range(5):
        send("card", seat=play.turn.letter, card=str(play.legal_cards[0]))


def test_browser_every_page_of_a_played_evening_is_from_the_catalog(
        browser: Any, tmp_path: Any) -> None:
    """The evening's pages a director reads page by page (the evening, the device check, the
    printable sheet, the devices, Swiss, tempo, a table's panel with a live auction and play,
    the results with a board's travellers and a pair's card, the correction form, the room
    screen) in the pseudo-locale: no text may be left unbracketed."""
    from selenium.common.exceptions import TimeoutException

    from hub.console import Console
    from hub.room import Room, Section
    from tests.hub.test_console import Login, Loop, browser_login, make_users
    from tests.hub.test_console_session import DEALS, MOVEMENT, NAMES, PLAYED, EveningHub
    from tests.hub.test_live_scoring import Session
    from tests.hub.test_pairing import make_pairing

    session = Session(Room(Section("A", MOVEMENT, pairs=NAMES), DEALS))
    loop = Loop()
    loop.call(session.play, PLAYED)
    loop.call(_live_board, session, "A4")
    hub = EveningHub(session)
    assert hub.director({"op": "public_results", "ranking": True, "names": True,
                         "boards": True, "live_ranking": "all"})["ok"]
    console = Console(hub, coalesce=0.05, users=make_users(tmp_path / "users"),
                      pairing=make_pairing(tmp_path))
    loop.run(console.start())
    try:
        Login.director(console)
        browser.delete_all_cookies()        # no language left by another test
        browser_login(browser, console)
        browser.get(console.url)
        wait(browser, lambda d: d.find_elements("css selector", "#map .tile"), timeout=20)
        pseudo(browser)
        data = set(browser.execute_script(
            "return [...document.querySelectorAll('#lang option')].map(o => o.textContent)"))
        data |= {"dora", *(name for pair in NAMES.values() for name in pair)}
        data |= {f"A{n}-{device}" for n in range(1, 7) for device in ("tab", "rdr", *"NESW")}
        data |= {"pcsc:ACS ACR122U", "pcsc:0", "pcsc:1"}    # a card reader's own names
        left: dict[str, list[tuple[str, str]]] = {}
        wait(browser, lambda d: d.find_element("id", "round-start").text.startswith("["))
        browser.find_element("id", "tile-A4").click()
        wait(browser, lambda d: len(d.find_elements("css selector", "#live-tricks tbody tr"))
             == 2, timeout=20)
        left["console, table A4"] = untranslated(browser, data)
        shot(browser, "pseudo-table-live.png")
        for page, ready in EVENING_PAGES.items():
            browser.get(console.url + page)
            try:
                wait(browser, lambda d: d.execute_script(
                    "return document.documentElement.lang") == PSEUDO
                     and [e for e in d.find_elements("css selector", ready)  # noqa: B023
                          if e.text.strip()], timeout=20)
            except TimeoutException:
                left[page] = [("not drawn", ready)]
            if page == "results/board/1":
                wait(browser, lambda d: d.find_elements("id", "correct-form"), timeout=20)
                # the par's contract in the page's notation (a value: inside the brackets)
                wait(browser, lambda d: [e for e in d.find_elements("id", "par")
                                         if "3[ÑŢ]+1" in e.text], timeout=60)
            left[page] = untranslated(browser, data)
            shot(browser, "pseudo-" + page.split("?")[0].replace("/", "-") + ".png")
            if page in DRAWN:               # what the director's button draws, read too
                button, drawn = DRAWN[page]
                browser.find_element("css selector", button).click()
                wait(browser, lambda d: d.find_elements(
                    "css selector", drawn), timeout=20)  # noqa: B023
                left[page + " (drawn)"] = untranslated(browser, data | codes(browser))
        # the login page, logged out: the language stays the browser's
        browser.delete_cookie("tenace_console")
        browser.get(console.url + "login")
        wait(browser, lambda d: d.execute_script("return document.documentElement.lang")
             == PSEUDO and d.find_element("css selector", "#login-form label").text
             .startswith("["), timeout=20)
        left["login"] = untranslated(browser, data)
        shot(browser, "pseudo-login.png")
        found = [f"{page}: {text!r} at {where}" for page, texts in left.items()
                 for text, where in texts]
        assert found == [], "\n".join(found)
        browser_login(browser, console)
        # The same traveller read in French: its numbers and its par as French writes them.
        browser.get(console.url + "results/board/1")
        browser.execute_async_script(
            "const done = arguments[0]; tenaceI18n.choose('fr').then(() => done(true));")
        wait(browser, lambda d: [e for e in d.find_elements("css selector", ".traveller")
                                 if "50,00%" in e.text], timeout=20)
        wait(browser, lambda d: [e for e in d.find_elements("id", "par")
                                 if e.text.startswith("Par : EO 3SA+1")], timeout=60)
    finally:
        loop.run(console.stop())
        loop.close()
