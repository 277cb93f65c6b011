"""Names in files that can hold ISO-8859-1 (Latin-1) only: a readable transliteration.

Some of the files clubs exchange are Latin-1 by their specification or by what their readers
take (the BridgeWebs results file says ``charset=ISO-8859-1``). A name is written there as
it is when every letter is in Latin-1 ("Müller", "Gaëlle", "Zoë O'Brien"); otherwise each
letter outside it becomes its base letter ("Łukasz Wiśniewski" -> "Lukasz Wisniewski",
"Antonín Dvořák" -> "Antonín Dvorak": the accents Latin-1 has are kept), by Unicode's
decomposition and a short table of the letters that do not decompose (Ł, Đ, Ħ, ı, Œ...).
Never a ``?``.

Letters no table can romanise without a dictionary (Chinese, Japanese, Korean, Arabic,
Cyrillic...) are left out; a name of which nothing is left is :data:`UNWRITABLE`, a
placeholder that says so, unless the caller gives its own (a member number). The files that
allow UTF-8 (PBN with its content-type line, USEBIO XML) keep every name as written.
"""

from __future__ import annotations

import unicodedata

__all__ = ["UNWRITABLE", "fits_latin1", "to_latin1"]

UNWRITABLE = "N.N."
"""What a name of which no letter can be written in Latin-1 becomes (nomen nescio)."""

# Letters outside Latin-1 that Unicode does not decompose to a base letter and a mark.
_TABLE = {
    "Ł": "L", "ł": "l", "Đ": "D", "đ": "d", "Ħ": "H", "ħ": "h", "ı": "i", "Ŀ": "L",
    "ŀ": "l", "Œ": "OE", "œ": "oe", "Ŋ": "N", "ŋ": "n", "Ŧ": "T", "ŧ": "t", "ſ": "s",
    "ƒ": "f", "Ə": "E", "ə": "e", "Ɨ": "I", "ɨ": "i", "Ʉ": "U", "ʉ": "u", "ĸ": "k",
    "‘": "'", "’": "'", "‚": ",", "“": '"', "”": '"', "„": '"', "–": "-", "—": "-",
    "‐": "-", "‑": "-", "…": "...", "€": "EUR", "\u2009": " ", "\u202f": " ",
}


def fits_latin1(text: str) -> bool:
    """Whether ``text`` can be written in ISO-8859-1 as it is."""
    return all(ord(c) < 256 for c in text)


def _letter(c: str) -> str:
    if ord(c) < 256:
        return c
    if c in _TABLE:
        return _TABLE[c]
    base = "".join(d for d in unicodedata.normalize("NFKD", c)
                   if not unicodedata.combining(d))
    if base and all(ord(d) < 256 for d in base):
        return base
    return ""


def to_latin1(text: str, *, fallback: str = UNWRITABLE) -> str:
    """``text`` written with ISO-8859-1 letters only (module docstring): as it is when it
    fits, else transliterated; letters that cannot be are left out, and when no letter is
    left the ``fallback`` is written."""
    if fits_latin1(text):
        return text
    out = " ".join("".join(_letter(c) for c in text).split())
    if not any(c.isalnum() for c in out):
        return fallback
    return out
