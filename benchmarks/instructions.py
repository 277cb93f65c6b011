"""The hub alone counted in instructions (issue 27): what a shared machine's load does not move.

    python benchmarks/instructions.py /path/to/checkout-A /path/to/checkout-B [--tables 40]

For each checkout, ``benchmarks/hub.py``'s room of ``--tables`` tables is run twice under
Valgrind's callgrind (``valgrind`` must be installed), once with the ``Hub.handle`` loop of
``bench_direct`` and once without it; the difference is the hub's own work. String hashing
is fixed (``PYTHONHASHSEED=0``) so that two runs of the same code count the same. The
checkout's packages are byte-compiled first and neither counted run writes bytecode
(``PYTHONDONTWRITEBYTECODE=1``): otherwise a source without a current ``.pyc`` (a checkout
just made or just merged) was compiled by the first run, the one with the loop, and read
compiled by the second, and the difference counted the compiling (some 3.7 G instructions
after a merge of main, against 2.5 G of the hub's work at 200 tables). Under callgrind
Python runs some fifty times slower: a run of 40 tables takes about two minutes. Prints
each checkout's count and B/A.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

_RUN = """
import importlib.util, sys, tempfile
from pathlib import Path
sys.path.insert(0, {root!r})
spec = importlib.util.spec_from_file_location("hub_bench", {root!r} + "/benchmarks/hub.py")
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)
from hub.service import Hub
from hub.store import EventLog
setup = bench.BenchSetup({tables})
messages = bench.room_messages(setup, "direct")
with tempfile.TemporaryDirectory() as tmp:
    hub = Hub(EventLog.open(Path(tmp) / "log.sqlite3"), url="mqtt://unused:1", setup=setup,
              double_dummy=False)
    if {handle!r}:
        for i in range(0, len(messages), 512):
            hub.handle(messages[i:i + 512])
        if hub.log.count() < len(messages):     # a run that did not do the room's work
            sys.exit(f"only {{hub.log.count()}} of {{len(messages)}} events logged")
    hub.log.close()
"""


_PACKAGES = ("bridgecore", "wire", "hub", "benchmarks")


def _compile(root: Path) -> None:
    """Byte-compile the checkout's packages, so that both counted runs read the same bytecode."""
    found = [name for name in _PACKAGES if (root / name).is_dir()]
    subprocess.run([sys.executable, "-m", "compileall", "-q", *found], check=True, cwd=root)


def callgrind(code: str, root: Path, **env: str) -> int:
    """The instructions callgrind counts for ``python -c code`` run in ``root``, with a fixed
    hash seed and ``env`` added to the environment."""
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                          sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=root,
                         env=dict(os.environ, PYTHONHASHSEED="0", **env)).stderr
    found = re.search(r"I\s+refs:\s+([\d,]+)", out)
    if found is None:
        raise RuntimeError(f"no instruction count in {out[-500:]!r}")
    return int(found.group(1).replace(",", ""))


def _count(root: Path, tables: int, handle: bool) -> int:
    return callgrind(_RUN.format(root=str(root), tables=tables, handle=handle), root,
                     PYTHONDONTWRITEBYTECODE="1")


def hub_instructions(root: Path, tables: int) -> int:
    """The instructions of the hub's work on the room: with the loop, less without it."""
    _compile(root)
    return _count(root, tables, True) - _count(root, tables, False)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a", type=Path)
    ap.add_argument("b", type=Path)
    ap.add_argument("--tables", type=int, default=40)
    args = ap.parse_args()
    a = hub_instructions(args.a.resolve(), args.tables)
    print(f"A {a / 1e6:,.1f} M instructions", flush=True)
    b = hub_instructions(args.b.resolve(), args.tables)
    print(f"B {b / 1e6:,.1f} M instructions")
    print(f"B/A {b / a:.3f} ({args.tables} tables; fewer is faster)")


if __name__ == "__main__":
    main()
