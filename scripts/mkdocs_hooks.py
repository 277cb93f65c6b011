"""MkDocs hook (mkdocs.yml ``hooks:``): the commands reference never misses an option.

docs/commands.md describes each ``tenace`` command by hand, with a table of its options. When
the site is built, this hook reads the command line's own parsers (``tenace.cli._parser``; the
tablet's options from ``tablet/app.py``'s source, so that Kivy is not imported) and, for each
command, adds after its hand-written text a table of the options that text does not name yet,
with their ``--help`` lines; a command with no section gets one at the end of the page. Each
addition is logged, so a developer sees what to describe by hand. An option added to the
command line is thus on the site at once, and a test never fails for want of its description
(tests/test_docs_site.py checks that the built page names every command and option).
"""

from __future__ import annotations

import argparse
import ast
import logging
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger("mkdocs.hooks.tenace")

REPO = Path(__file__).resolve().parents[1]
PAGE = "commands.md"
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*$")
FENCE = re.compile(r"^(```|~~~)")
CODE_SPAN = re.compile(r"`[^`\n]*`")


@dataclass(frozen=True)
class Option:
    """One option as ``--help`` shows it: its strings, its argument's name, its help."""

    strings: tuple[str, ...]
    metavar: str
    help: str


def _from_parser(parser: argparse.ArgumentParser) -> list[Option]:
    formatter = parser._get_formatter()
    options = []
    for action in parser._actions:
        if not action.option_strings or isinstance(action, argparse._HelpAction):
            continue
        if action.help == argparse.SUPPRESS:
            continue
        metavar = "" if action.nargs == 0 else formatter._format_args(
            action, action.dest.upper())
        text = formatter._expand_help(action) if action.help else ""
        options.append(Option(tuple(action.option_strings), metavar, text))
    return options


def cli_commands() -> dict[str, list[Option]]:
    """``tenace X Y`` -> its options, every command and job of the command line."""
    if sys.path[:1] != [str(REPO)]:  # this checkout's command line, whatever is installed
        sys.path.insert(0, str(REPO))
    from tenace.cli import _parser

    commands: dict[str, list[Option]] = {}

    def walk(parser: argparse.ArgumentParser, words: tuple[str, ...]) -> None:
        commands[" ".join(words)] = _from_parser(parser)
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                seen: set[int] = set()
                for name, sub in action.choices.items():
                    if id(sub) not in seen:  # an alias (analyze, enroll) is the same parser
                        seen.add(id(sub))
                        walk(sub, (*words, name))

    walk(_parser(), ("tenace",))
    del commands["tenace"]
    commands["tenace tablet"] = tablet_options()
    return commands


def _constant(node: ast.expr | None) -> Any:
    return node.value if isinstance(node, ast.Constant) else None


def tablet_options() -> list[Option]:
    """The tablet's options, read from ``tablet/app.py``'s ``_parser`` without running it."""
    tree = ast.parse((REPO / "tablet" / "app.py").read_text(encoding="utf-8"))
    function = next((n for n in ast.walk(tree)
                     if isinstance(n, ast.FunctionDef) and n.name == "_parser"), None)
    if function is None:
        raise RuntimeError("tablet/app.py has no _parser() any more: tell "
                           "scripts/mkdocs_hooks.py where the tablet's options are")
    options = []
    for call in ast.walk(function):
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                and call.func.attr == "add_argument"):
            continue
        strings = tuple(s for a in call.args if isinstance(s := _constant(a), str))
        if not strings or not strings[0].startswith("-"):
            continue
        keywords = {k.arg: k.value for k in call.keywords if k.arg}
        flag = _constant(keywords.get("action")) in ("store_true", "store_false")
        long = next((s for s in strings if s.startswith("--")), strings[0])
        metavar = "" if flag else str(_constant(keywords.get("metavar"))
                                      or long.lstrip("-").replace("-", "_").upper())
        options.append(Option(strings, metavar, str(_constant(keywords.get("help")) or "")))
    return options


def _named(option: str, text: str) -> bool:
    spans = " ".join(CODE_SPAN.findall(text))
    return re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", spans) is not None


def _table(options: list[Option]) -> list[str]:
    rows = ["| option | (from `--help`) |", "|---|---|"]
    for o in options:
        names = ", ".join(f"`{s}`" for s in o.strings)
        arg = f" `{o.metavar}`" if o.metavar else ""
        text = " ".join(o.help.split()).replace("|", "\\|")
        rows.append(f"| {names}{arg} | {text} |")
    return rows


def complete(markdown: str, commands: dict[str, list[Option]]) -> tuple[str, list[str]]:
    """The page with the options its text does not name added; and what was added."""
    lines = markdown.splitlines()
    headings: list[tuple[int, int, str]] = []
    fenced = False
    for i, line in enumerate(lines):
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced and (m := HEADING.match(line)):
            headings.append((i, len(m.group(1)), m.group(2).replace("`", "").strip()))
    inserts: dict[int, list[str]] = {}
    added: list[str] = []
    for k, (start, level, title) in enumerate(headings):
        if title not in commands:
            continue
        end = next((i for i, lv, _ in headings[k + 1:] if lv <= level), len(lines))
        section = "\n".join(lines[start:end])
        missing = [o for o in commands[title] if not any(_named(s, section) for s in o.strings)]
        if missing:
            body_end = headings[k + 1][0] if k + 1 < len(headings) else len(lines)
            inserts[body_end] = ["", "Options not described above yet:", "", *_table(missing), ""]
            added += [f"{title} {o.strings[-1]}" for o in missing]
    out: list[str] = []
    for i, line in enumerate(lines):
        out += inserts.get(i, [])
        out.append(line)
    out += inserts.get(len(lines), [])
    titles = {title for _, _, title in headings}
    for name, options in commands.items():
        if name not in titles:
            marks = "#" * min(6, name.count(" ") + 1)
            out += ["", f"{marks} `{name}`", "", f"Not described here yet: `{name} --help`.", ""]
            if options:
                out += _table(options)
            added.append(name)
    return "\n".join(out) + "\n", added


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    if page.file.src_uri != PAGE:
        return markdown
    markdown, added = complete(markdown, cli_commands())
    for item in added:
        log.info("%s: added from the command line, not described by hand yet: %s", PAGE, item)
    return markdown
