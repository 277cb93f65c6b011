"""Fold the old hand-written word tables into the gettext catalogs.

Before the catalogs (wire/catalogs.py, docs/translating.md) the words lived in Python tables:
``_WORDS`` in hub/console_i18n.py and ``EVENING_WORDS`` in hub/console_words.py (key ->
(English, French, Italian)), ``STRINGS`` in tablet/i18n.py and ``RESULT_STRINGS`` in
tablet/results.py (key -> {language: text}). A branch started before the catalogs may still
add words there; after merging it, run

    python scripts/tables_to_po.py --ref <branch>

which reads those tables from the files as they are at ``<branch>`` (``git show``; without
``--ref``, from the work tree) without importing them, and adds each key the catalogs lack to
hub/locale/*/LC_MESSAGES/console.po or tablet/locale/*/LC_MESSAGES/tablet.po, English and
each translation. A key already in a catalog keeps its catalog text unless ``--overwrite``
(the branch changed the text too). It prints what it added; rerunning it adds nothing.
"""

from __future__ import annotations

import argparse
import ast
import subprocess
import sys
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
TUPLE_ORDER = ("en", "fr", "it")

# app -> (locale folder, domain, [(file, table name)])
SOURCES: dict[str, tuple[str, str, list[tuple[str, str]]]] = {
    "hub": ("hub/locale", "console", [("hub/console_i18n.py", "_WORDS"),
                                      ("hub/console_words.py", "EVENING_WORDS")]),
    "tablet": ("tablet/locale", "tablet", [("tablet/i18n.py", "STRINGS"),
                                           ("tablet/results.py", "RESULT_STRINGS")]),
}


def source_text(path: str, ref: str | None, root: Path = ROOT) -> str | None:
    """The file at ``ref`` (or in the work tree); None when it is not there."""
    if ref is None:
        file = root / path
        return file.read_text(encoding="utf-8") if file.exists() else None
    done = subprocess.run(["git", "-C", str(root), "show", f"{ref}:{path}"],
                          capture_output=True, text=True, check=False)
    return done.stdout if done.returncode == 0 else None


def table(text: str, name: str) -> dict[str, dict[str, str]]:
    """The literal dict assigned to ``name`` at the top of a module, as key -> {lang: text}."""
    for node in ast.parse(text).body:
        targets = (node.targets if isinstance(node, ast.Assign)
                   else [node.target] if isinstance(node, ast.AnnAssign) else [])
        value = getattr(node, "value", None)
        if any(isinstance(t, ast.Name) and t.id == name for t in targets) and value is not None:
            if not isinstance(value, ast.Dict):
                continue
            raw: dict[str, Any] = ast.literal_eval(value)
            return {key: (dict(zip(TUPLE_ORDER, texts, strict=True))
                          if isinstance(texts, tuple) else dict(texts))
                    for key, texts in raw.items()}
    return {}


def load(path: Path, language: str, domain: str) -> Catalog:
    if path.exists():
        with path.open("rb") as handle:
            return read_po(handle, locale=language, domain=domain)
    return Catalog(locale=language, domain=domain, project="Tenace", fuzzy=False)


def fold(app: str, ref: str | None, overwrite: bool, root: Path = ROOT) -> list[str]:
    """Fold ``app``'s old tables into its catalogs; the lines saying what changed."""
    folder, domain, files = SOURCES[app]
    words: dict[str, dict[str, str]] = {}
    for path, name in files:
        text = source_text(path, ref, root)
        if text is not None:
            words.update(table(text, name))
    said: list[str] = []
    languages = sorted({lang for texts in words.values() for lang in texts})
    for language in languages:
        path = root / folder / language / "LC_MESSAGES" / f"{domain}.po"
        catalog = load(path, language, domain)
        changed = 0
        for key, texts in words.items():
            if language not in texts:
                continue
            old = catalog.get(key)
            if old is not None and (not overwrite or old.string == texts[language]):
                continue
            comments = [] if language == "en" else [f"English: {texts.get('en', '')}"]
            catalog.add(key, texts[language], auto_comments=comments)
            changed += 1
        if changed:
            path.parent.mkdir(parents=True, exist_ok=True)
            catalog.fuzzy = False
            with path.open("wb") as handle:
                write_po(handle, catalog, width=100, omit_header=False)
            said.append(f"{path.relative_to(root)}: {changed} text(s) added or changed")
    return said


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ref", help="read the old tables at this git ref (a branch)")
    parser.add_argument("--overwrite", action="store_true",
                        help="the tables' texts replace those already in the catalogs")
    args = parser.parse_args(argv)
    said = [line for app in SOURCES for line in fold(app, args.ref, args.overwrite)]
    print("\n".join(said) if said else "nothing to fold: the catalogs have every key")
    return 0


if __name__ == "__main__":
    sys.exit(main())
