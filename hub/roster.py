"""The club's roster: its members' names and member numbers, imported from a CSV file.

The director imports the roster on the console's set-up page (hub.console_setup); the set-up
page offers its names for the pairs, and the names players type when they check in at a
table are matched to it (:meth:`Roster.match`): case, accents (and the letters a keyboard
may lack: Ł, Ø, Æ typed L, O, AE), apostrophes, extra spaces and the order of first and last
name do not matter. A match is shown to the director, never applied by
itself: two members may share a name, and a guest is not a member.

The CSV file (what a club's membership program exports):

* UTF-8, with or without a byte order mark; the separator is found from the first line:
  comma, semicolon, tab or ``|``;
* a header line naming the columns: the name in ``name`` (or ``first name`` and ``last
  name``; ``nom``/``prénom``, ``nome``/``cognome`` are understood too), the member number in
  ``number`` (or ``member``, ``member number``, ``numéro``, ``numero``, ``licence``);
  other columns are ignored. Without a header line, the first column is the name and the
  second the member number;
* one member a line; blank lines are skipped; a member number is a whole number from 1 and
  belongs to one member only.

Every problem is reported with its line number, all at once (:class:`RosterError`
``problems``); a file with problems changes nothing. The roster is kept in the hub's data
directory as ``roster.csv`` (``name,number``, written whole then renamed).

Exceptions::

    hub.errors.HubError
    └── RosterError (ValueError)   a roster file that cannot be read, with every problem
"""

from __future__ import annotations

import csv
import io
import os
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from bridgecore.text import Text
from hub.errors import HubError, Worded

__all__ = ["MAX_MEMBERS", "ROSTER_NAME", "Member", "Roster", "RosterError", "name_key"]

ROSTER_NAME = "roster.csv"
MAX_MEMBERS = 20_000
MAX_NAME = 100
SEPARATORS = ",;\t|"
_NAME = ("name", "nom", "nome", "member name", "full name", "player")
_FIRST = ("first name", "firstname", "first", "prénom", "prenom", "given name")
_LAST = ("last name", "lastname", "last", "surname", "family name", "cognome")
_NUMBER = ("number", "member", "member number", "member no", "membership number", "id",
           "numéro", "numero", "n°", "licence", "license", "tessera")


class RosterError(HubError, ValueError):
    """A roster that cannot be read: ``problems`` holds each ``(line, problem)``, a problem
    its English words with its text (hub.errors.Worded: the console words it in its
    director's language)."""

    def __init__(self, problems: list[tuple[int, str]]):
        self.problems = problems
        super().__init__("; ".join(f"line {n}: {p}" if n else p for n, p in problems[:5]) +
                         (f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""))


# Letters (case folded) that Unicode does not decompose into a base letter and an accent,
# as a keyboard without them types them: "Łukasz" is typed "Lukasz", "Søren" "Soren".
_BASE_LETTERS = str.maketrans({
    "ł": "l", "đ": "d", "ħ": "h", "ı": "i", "ŀ": "l", "œ": "oe", "ŋ": "n", "ŧ": "t",
    "ø": "o", "æ": "ae", "þ": "th", "ð": "d", "ſ": "s", "ĸ": "k"})
# An apostrophe inside a name is left out or typed as it is: "O'Brien", "OBrien".
_APOSTROPHES = re.compile(r"['\u2019\u2018\u02bc`\u00b4]")


def name_key(name: str) -> str:
    """A name as matched: no accents, case folded, letters without their stroke or slash
    (Ł, Ø, Æ...: their base letters), no apostrophes, only letters and digits, words
    sorted (``"Dupré, Jean"`` and ``"jean  DUPRE"`` are the same, ``"Zoë O'Brien"`` and
    ``"zoe obrien"``, ``"Łukasz"`` and ``"lukasz"``)."""
    bare = "".join(c for c in unicodedata.normalize("NFKD", name)
                   if not unicodedata.combining(c))
    folded = _APOSTROPHES.sub("", bare.casefold().translate(_BASE_LETTERS))
    return " ".join(sorted(re.findall(r"\w+", folded)))


@dataclass(frozen=True, slots=True)
class Member:
    """A member of the club: the name as the club writes it, the member number."""

    name: str
    number: int

    def to_json(self) -> dict[str, str | int]:
        return {"name": self.name, "number": self.number}


class Roster:
    """The club's members (module docstring): ``Roster.in_directory(data)`` or in memory
    (``Roster()``); :meth:`replace_csv` imports a file, :meth:`match` finds a name."""

    def __init__(self, members: Iterable[Member] = (), path: Path | None = None):
        self.path = path
        self.members: list[Member] = list(members)

    @classmethod
    def in_directory(cls, folder: str | Path | None) -> Roster:
        """The roster kept in a data directory (empty when there is none yet); in memory
        without a directory."""
        if folder is None:
            return cls()
        path = Path(folder) / ROSTER_NAME
        if not path.is_file():
            return cls(path=path)
        return cls(parse_csv(path.read_bytes()), path)

    def replace_csv(self, data: bytes) -> int:
        """Import a CSV file (module docstring) in place of the members; RosterError with
        every problem (nothing changes then). Returns the number of members."""
        members = parse_csv(data)
        self.members = members
        self._save()
        return len(members)

    def _save(self) -> None:
        if self.path is None:
            return
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["name", "number"])
        for m in self.members:
            writer.writerow([m.name, m.number])
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_name(self.path.name + ".tmp")
        # 0600, as everything in the data directory (hub.private)
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(out.getvalue())
        os.replace(temporary, self.path)

    def match(self, name: str) -> list[Member]:
        """The members whose name is ``name`` (module docstring), or, when none is, those
        whose every word is in ``name`` or the reverse (a first name left out); best first."""
        key = name_key(name)
        if not key:
            return []
        exact = [m for m in self.members if name_key(m.name) == key]
        if exact:
            return exact
        words = set(key.split())
        return [m for m in self.members
                if (w := set(name_key(m.name).split())) and (w <= words or words <= w)][:5]

    def to_json(self) -> list[dict[str, str | int]]:
        return [m.to_json() for m in self.members]

    def __len__(self) -> int:
        return len(self.members)


def _header_index(cells: list[str]) -> tuple[int | None, int | None, int | None, int] | None:
    """(name, first name, last name, number) columns of a header line, or None when the
    line is no header."""
    folded = [c.strip().casefold() for c in cells]

    def find(names: tuple[str, ...], *taken: int | None) -> int | None:
        """The column named one of ``names``, else the first whose name starts with one
        (``Numéro de membre``), not one of the columns ``taken``."""
        free = [(i, c) for i, c in enumerate(folded) if i not in taken]
        return next((i for i, c in free if c in names),
                    next((i for i, c in free if any(c.startswith(n + " ") for n in names)),
                         None))

    first, last = find(_FIRST), find(_LAST)
    name = find(_NAME, first, last)
    number = find(_NUMBER, first, last, name)
    if number is None or (name is None and first is None and last is None):
        return None
    if name is not None and first is not None and last is None:   # nom, prénom
        name, last = None, name
    elif name is not None and last is not None and first is None:  # nome, cognome
        name, first = None, name
    return name, first, last, number


def parse_csv(data: bytes) -> list[Member]:
    """The members of a CSV file (module docstring); RosterError with every problem."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise RosterError([(data[:err.start].count(b"\n") + 1,
                            Worded(Text.of("roster.not_utf8", byte=err.start)))]) from None
    lines = text.splitlines()
    first = next((line for line in lines if line.strip()), "")
    if not first:
        raise RosterError([(0, Worded(Text.of("roster.empty")))])
    separator = max(SEPARATORS, key=first.count) if any(s in first for s in SEPARATORS) \
        else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=separator)
    try:
        rows = list(reader)
    except csv.Error as err:
        raise RosterError([(reader.line_num, Worded(Text.of("roster.not_csv",
                                                            error=str(err)[:120])))]) from None
    problems: list[tuple[int, str]] = []
    members: list[Member] = []
    seen: dict[int, int] = {}
    columns: tuple[int | None, int | None, int | None, int] = (0, None, None, 1)
    start = 0
    for start, row in enumerate(rows):
        if any(c.strip() for c in row):
            header = _header_index(row)
            if header is not None:
                columns = header
                start += 1
            break
    name_at, first_at, last_at, number_at = columns
    for index, row in enumerate(rows[start:], start + 1):
        if not any(c.strip() for c in row):
            continue

        def cell(at: int | None, row: list[str] = row) -> str:
            return row[at].strip() if at is not None and at < len(row) else ""

        name = cell(name_at) or " ".join(x for x in (cell(first_at), cell(last_at)) if x)
        raw = cell(number_at)
        if not name:
            problems.append((index, Worded(Text.of("roster.no_name"))))
        elif len(name) > MAX_NAME:
            problems.append((index, Worded(Text.of("roster.name_length", most=MAX_NAME))))
        if not raw.isdecimal() or int(raw) < 1:
            problems.append((index, Worded(Text.of("roster.number", number=f"{raw!r:.40}"))
                             if raw else Worded(Text.of("roster.no_number"))))
            continue
        number = int(raw)
        if number in seen:
            problems.append((index, Worded(Text.of("roster.number_twice", number=number,
                                                   line=seen[number]))))
            continue
        seen[number] = index
        if name and len(name) <= MAX_NAME:
            members.append(Member(name, number))
        if len(members) > MAX_MEMBERS:
            problems.append((index, Worded(Text.of("roster.too_many", most=MAX_MEMBERS))))
            break
    if problems:
        raise RosterError(problems)
    if not members:
        raise RosterError([(0, Worded(Text.of("roster.no_member")))])
    return members
