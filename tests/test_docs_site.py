"""The documentation site and the README, kept true (docs/choosing-mkdocs.md).

* ``mkdocs build --strict`` builds ``docs/`` with ``mkdocs.yml``: a broken link between
  pages, a link MkDocs does not recognise or a missing anchor is a warning, and any warning
  fails the build and this test.
* README.md lies outside ``docs/``, where MkDocs does not look: its relative links and
  images must name files that exist, and its anchors headings of the page they point to
  (for a page of the site, an ``id`` of the page as built).
* README.md is the front door: 250 lines at most; the rest belongs on the site.
* The built commands page names every ``tenace`` command and each of its options, read from
  the command line's own parsers (the tablet's from ``tablet/app.py``, read without Kivy):
  described by hand in docs/commands.md, or added from ``--help`` by the build's hook
  (scripts/mkdocs_hooks.py) until someone describes them.
"""

from __future__ import annotations

import argparse
import ast
import html.parser
import importlib.util
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
DOCS = REPO / "docs"
README_MAX_LINES = 250

# [text](target) and ![alt](target), a title after the target allowed; code spans and
# fenced blocks are taken out first.
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
CODE_SPAN = re.compile(r"`[^`\n]*`")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site built strict into a temporary folder; the build's log checked."""
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}  # Material's end-of-life notice
    run = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file",
         str(REPO / "mkdocs.yml"), "--site-dir", str(out)],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
    log = run.stdout + run.stderr
    warnings = [line for line in log.splitlines() if line.startswith(("WARNING", "ERROR"))]
    assert run.returncode == 0 and not warnings, (
        f"mkdocs build --strict failed (exit {run.returncode}):\n{log}")
    assert (out / "index.html").is_file(), f"no index.html in the built site:\n{log}"
    return out


def test_the_site_builds_strict_with_every_page(site: Path) -> None:
    """Each page of docs/ is built, at the name use_directory_urls: false gives it."""
    pages = sorted(p.relative_to(DOCS) for p in DOCS.rglob("*.md"))
    assert pages, "docs/ holds no page"
    missing = [str(p) for p in pages if not (site / p.with_suffix(".html")).is_file()]
    assert not missing, f"pages of docs/ not in the built site: {missing}"


def test_the_site_loads_nothing_from_the_internet(site: Path) -> None:
    """A club's hub may have no internet: no script, style, font or image from elsewhere."""
    remote = re.compile(r"<(?:script|link|img|iframe)\b[^>]*\b(?:src|href)=[\"']?(?:https?:)?//")
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 10
    loading = [str(p.relative_to(site)) for p in pages if remote.search(p.read_text("utf-8"))]
    assert not loading, f"pages that load something from the internet: {loading}"


def test_the_readme_is_a_front_door() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, (
        f"README.md has {len(lines)} lines, more than {README_MAX_LINES}: move the detail to "
        "a page of docs/ and link to it")


def _links(markdown: str) -> Iterator[str]:
    text = CODE_SPAN.sub("", FENCE.sub("", markdown))
    for match in LINK.finditer(text):
        yield match.group(1)


class _Ids(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.ids.update(value for name, value in attrs if name == "id" and value)


def _html_ids(page: Path) -> set[str]:
    parser = _Ids()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser.ids


def _github_slugs(markdown: str) -> set[str]:
    """The anchors a Git host gives a Markdown file's headings (for files outside docs/)."""
    slugs: set[str] = set()
    for line in FENCE.sub("", markdown).splitlines():
        heading = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if heading:
            words = re.sub(r"[^\w\- ]", "", heading.group(1).lower())
            slugs.add(words.replace(" ", "-"))
    return slugs


def test_the_readme_links_and_anchors_resolve(site: Path) -> None:
    text = README.read_text(encoding="utf-8")
    links = list(_links(text))
    assert any(link.startswith("docs/") for link in links), "README.md links to no page"
    problems = []
    for link in links:
        if re.match(r"[a-z][a-z0-9+.-]*:", link):  # https:, mailto:: not checked offline
            continue
        path, _, anchor = link.partition("#")
        target = (README.parent / path).resolve() if path else README
        if not target.exists():
            problems.append(f"{link}: {path} does not exist")
            continue
        if not anchor:
            continue
        if target.is_relative_to(DOCS) and target.suffix == ".md":
            built = site / target.relative_to(DOCS).with_suffix(".html")
            ids = _html_ids(built)
        elif target.suffix == ".md":
            ids = _github_slugs(target.read_text(encoding="utf-8"))
        else:
            problems.append(f"{link}: an anchor into a file that is not a page")
            continue
        if anchor not in ids:
            problems.append(f"{link}: {target.name} has no anchor #{anchor}")
    assert not problems, "README.md's links:\n" + "\n".join(problems)


def _commands(parser: argparse.ArgumentParser, path: tuple[str, ...]
              ) -> Iterator[tuple[tuple[str, ...], list[str]]]:
    """Each command's words and its option strings (help aside), its subcommands after it."""
    options = [o for a in parser._actions if not isinstance(a, argparse._HelpAction)
               for o in a.option_strings]
    yield path, options
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            seen: set[int] = set()
            for name, sub in action.choices.items():
                if id(sub) not in seen:  # an alias (analyze, enroll) is the same parser
                    seen.add(id(sub))
                    yield from _commands(sub, (*path, name))


def _tablet_options() -> list[str]:
    """The tablet's options from tablet/app.py's ``_parser``, without importing Kivy."""
    tree = ast.parse((REPO / "tablet" / "app.py").read_text(encoding="utf-8"))
    function = next(n for n in ast.walk(tree)
                    if isinstance(n, ast.FunctionDef) and n.name == "_parser")
    return [arg.value for call in ast.walk(function)
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
            and call.func.attr == "add_argument"
            for arg in call.args
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str)
            and arg.value.startswith("-")]


class _Sections(html.parser.HTMLParser):
    """A built page's headings, each with the text of its code elements up to the next."""

    def __init__(self) -> None:
        super().__init__()
        self.headings: list[tuple[int, str, list[str]]] = []  # level, title, code texts
        self._in: str | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if re.fullmatch(r"h[1-6]", tag) or (tag == "code" and self._in is None):
            self._in, self._text = tag, []

    def handle_data(self, data: str) -> None:
        if self._in:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag != self._in:
            return
        text = "".join(self._text)
        if tag == "code":
            if self.headings:
                self.headings[-1][2].append(text)
        else:
            self.headings.append((int(tag[1]), text.replace("\N{PILCROW SIGN}", "").strip(), []))
        self._in = None

    def section(self, title: str) -> str | None:
        """The code texts under a heading, its subsections included."""
        for k, (level, name, codes) in enumerate(self.headings):
            if name == title:
                texts = list(codes)
                for lv, _, more in self.headings[k + 1:]:
                    if lv <= level:
                        break
                    texts += more
                return " ".join(texts)
        return None


def test_the_commands_page_names_every_command_and_option(site: Path) -> None:
    """Every command of the command line has its section on the built page, and every option
    is named there: by hand in docs/commands.md, or by the build's hook from ``--help``."""
    from tenace.cli import _parser

    page = _Sections()
    page.feed((site / "commands.html").read_text(encoding="utf-8"))
    commands = list(_commands(_parser(), ("tenace",)))[1:]
    commands.append((("tenace", "tablet"), _tablet_options()))
    assert len(commands) > 30 and len(_tablet_options()) > 10
    problems = []
    for words, options in commands:
        name = " ".join(words)
        codes = page.section(name)
        if codes is None:
            problems.append(f"{name}: no section on the built page")
            continue
        problems += [f"{name}: option {o} is not in its section" for o in options
                     if not re.search(rf"(?<![\w-]){re.escape(o)}(?![\w-])", codes)]
    assert not problems, "commands.html:\n" + "\n".join(problems)


def _hooks() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mkdocs_hooks", REPO / "scripts" /
                                                  "mkdocs_hooks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_the_hook_adds_what_the_text_does_not_name_and_only_that() -> None:
    hooks = _hooks()
    page = ("# Commands\n\n## `tenace tablet`\n\n| `--hub` | the broker |\n\n"
            "## `tenace score`\n\nScores a file (`--json`).\n")
    kiosk = hooks.Option(("--kiosk",), "", "full screen | no way out")
    commands = {"tenace tablet": [hooks.Option(("--hub",), "HUB", "the broker"), kiosk],
                "tenace score": [hooks.Option(("--json",), "", "JSON")],
                "tenace new": [hooks.Option(("-n", "--number"), "N", "how many")]}
    text, added = hooks.complete(page, commands)
    assert added == ["tenace tablet --kiosk", "tenace new"]
    tablet = text[text.index("## `tenace tablet`"):text.index("## `tenace score`")]
    assert "| `--kiosk` | full screen \\| no way out |" in tablet
    assert text.count("`--hub`") == 1 and text.count("`--json`") == 1
    assert "## `tenace new`" in text and "| `-n`, `--number` `N` | how many |" in text
    assert hooks.complete(text, commands)[1] == []  # complete once added

