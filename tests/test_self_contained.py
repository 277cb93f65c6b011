"""A clone runs its tests with nothing beside it: no file of the project reads a folder outside
the repository. The real files the tests read are in tests/data/realdata (its SOURCES.md says
where each came from); the project's shared folder (``../shared``: the Laws and formats
specifications, the collection of real files) is not there in a clone.

Every file git knows (tracked, or new and not ignored) is read: code, tests, scripts and
configuration must not name ``../shared`` at all, and nothing may name ``shared/realdata``. The
documentation may cite the specifications (``../shared/spec/...``: a reference for a reader,
not a path anything opens).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

from tests.conftest import REALDATA

ROOT = Path(__file__).resolve().parent.parent
SKIP_DIRS = {".git", ".venv", "__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache",
             ".hypothesis", "build", "dist"}

# Written as a string or as a path joined in Python (``REPO.parent / "shared"``).
OUTSIDE = re.compile(r"\.\./shared|shared/realdata|/work/shared"
                     r"""|parents?(\[\d+\])?\s*/\s*["']shared["']""")
THIS = Path(__file__).resolve().relative_to(ROOT).as_posix()   # names them, to find them
SPEC_CITATION = re.compile(r"\.\./shared/spec/[\w.-]+\.md")


def _project_files() -> list[Path]:
    """Tracked files and new ones git does not ignore; every file but the usual caches when
    the tree is no git repository (an unpacked archive)."""
    git = shutil.which("git")
    if git is not None and (ROOT / ".git").exists():
        out = subprocess.run([git, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                             cwd=ROOT, check=True, capture_output=True, timeout=120).stdout
        return [ROOT / name for name in out.decode().split("\0") if name]
    return [p for p in ROOT.rglob("*") if p.is_file()
            and not SKIP_DIRS.intersection(p.relative_to(ROOT).parts)
            and not any(part.endswith(".egg-info") for part in p.relative_to(ROOT).parts)]


def _mentions() -> list[tuple[str, int, str]]:
    found = []
    for path in _project_files():
        if not path.is_file():        # deleted in the work tree, not yet in the index
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:    # the binary deal files (.bri, .dge)
            continue
        name = path.relative_to(ROOT).as_posix()
        if name == THIS:
            continue
        for number, line in enumerate(text.splitlines(), start=1):
            rest = SPEC_CITATION.sub("", line) if name.endswith(".md") else line
            if OUTSIDE.search(rest):
                found.append((name, number, line.strip()))
    return found


def test_no_file_of_the_project_reads_outside_the_repository() -> None:
    found = _mentions()
    assert found == [], "\n".join(f"{name}:{number}: {line}" for name, number, line in found)


def test_the_check_sees_a_mention_of_the_shared_folder() -> None:
    """The pattern is the one a path outside the repository is written with."""
    lines = ['REALDATA = REPO.parent / "shared" / "realdata"', "open('../shared/x.pbn')",
             "cp /work/shared/realdata/lin/a.lin ."]
    assert [bool(OUTSIDE.search(line)) for line in lines] == [True, True, True]
    assert not OUTSIDE.search(SPEC_CITATION.sub("", "see `../shared/spec/formats.md` §4.7"))


def test_the_real_files_are_inside_the_repository_with_their_sources() -> None:
    assert REALDATA.is_relative_to(ROOT)
    files = [p for p in REALDATA.rglob("*") if p.is_file() and p.name != "SOURCES.md"]
    sources = (REALDATA / "SOURCES.md").read_text(encoding="utf-8")
    missing = [p.name for p in files if p.name not in sources]
    assert files and missing == []
