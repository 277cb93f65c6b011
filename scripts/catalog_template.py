"""Write the template (``.pot``) of a catalog, for ``pybabel init`` and ``pybabel update``.

The English catalog is the source (docs/translating.md): each message's ``msgid`` is its key.
The template has every key with an empty text and the English text as a comment for the
translator, so that

    python scripts/catalog_template.py hub -o /tmp/console.pot
    pybabel init   -i /tmp/console.pot -d hub/locale -D console -l de     # a new language
    pybabel update -i /tmp/console.pot -d hub/locale -D console           # new keys, all

start a German catalog, or bring every catalog up to the English one (new keys added empty,
the English comments refreshed), with Babel's own commands. ``tablet`` for the tablet
(``-d tablet/locale -D tablet``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from wire.catalogs import Catalogs  # noqa: E402 - after the path, for a run from anywhere

DOMAINS = {"hub": "console", "tablet": "tablet"}


def template(app: str) -> Catalog:
    catalogs = Catalogs(ROOT / app / "locale", DOMAINS[app])
    made = Catalog(domain=DOMAINS[app], project="Tenace", fuzzy=False)
    for key, english in catalogs.source.items():
        made.add(key, "", auto_comments=[f"English: {english}"])
    return made


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("app", choices=sorted(DOMAINS))
    parser.add_argument("-o", "--output", required=True, help="the .pot file to write")
    args = parser.parse_args(argv)
    with open(args.output, "wb") as handle:
        write_po(handle, template(args.app), width=100)
    print(f"{args.output}: {len(template(args.app))} keys")
    return 0


if __name__ == "__main__":
    sys.exit(main())
