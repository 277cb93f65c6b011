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

# Texts that are data, not words: numbers, times, codes, symbols, the language names of the
# switch, the roster's and the event's own names.
_DATA = re.compile(r"^[\d\s.,:;%+\-–—/()#·×=<>♠♥♦♣|…•*'\"?!\[\]]*$"
                   r"|^[A-Z]\d*$|^(NS|EW|N|E|S|W)$|^Tenace$")


def untranslated(driver: Any, data: set[str]) -> list[tuple[str, str]]:
    """Each visible text that is neither bracketed (from the catalog) nor data."""
    found = []
    for text, where in driver.execute_script(_VISIBLE_TEXTS):
        words, before = text, ""
        while words != before:                      # the catalog's texts (nested), taken out
            before, words = words, re.sub(r"\[[^\[\]]*\]", "", words)
        for name in data:
            words = words.replace(name, "")
        if _DATA.match(words):
            continue
        found.append((text, where))
    return found


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
    assert untranslated(driver, languages) == []
    shot(driver, "pseudo-setup.png")
    submit(driver)
    wait(driver, lambda d: d.find_elements("css selector", "#setup-done h2"))
    assert untranslated(driver, languages) == []

    driver.get(hub.console.url)            # the room console: the language is the user's
    wait(driver, lambda d: d.find_elements("css selector", "#map .tile"), timeout=20)
    wait(driver, lambda d: d.find_element("id", "round-start").text.startswith("["))
    assert untranslated(driver, languages) == []
    shot(driver, "pseudo-console.png")

    driver.get(hub.console.url + "results")
    wait(driver, lambda d: d.find_elements("css selector", ".ranking th"))
    wait(driver, lambda d: d.find_element("css selector", ".ranking th").text.startswith("["))
    assert untranslated(driver, languages) == []
    shot(driver, "pseudo-results.png")
    # the event's total (a session on its own here) and the club's ladder (hub.series)
    for page, ready in (("results/event", "no-event"), ("results/ladder", "ladder-title")):
        driver.get(hub.console.url + page)
        wait(driver, lambda d: [e for e in d.find_elements("id", ready)  # noqa: B023
                                if e.text.startswith("[")])
        assert untranslated(driver, languages) == [], page
