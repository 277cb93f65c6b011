"""PBN reading with and without tempo tables counted in instructions (issue 27): what a
shared machine's load does not move.

    python benchmarks/pbn_instructions.py /path/to/checkout-A /path/to/checkout-B [--boards 500]

Writes the files of ``benchmarks/pbn_read.py`` (``--boards`` played boards, plain and with
Tenace's ``[TempoTable]``) once, then for each checkout counts under Valgrind's callgrind
(``valgrind`` must be installed) the instructions of one read of each: the plain file, the
tempo file as ``read_pbn`` reads it by default, eagerly (``tempo="eager"``), and by default
then every record read (the file's ``problems``). A read is counted as a process that reads
twice less one that reads once, so Python's start, the imports and their compilation are
not in it. String hashing is fixed (``PYTHONHASHSEED=0``). Under callgrind Python runs some
fifty times slower: 500 boards take about three minutes for two checkouts. Prints each read's
count, its ratio to the same checkout's plain read, and B/A.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.instructions import callgrind
from benchmarks.pbn_read import played_records
from bridgecore.pbn_writer import write_pbn

READS = {
    "plain": "read_pbn(plain)",
    "tempo, default": "read_pbn(timed)",
    "tempo, eager": "read_pbn(timed, tempo='eager')",
    "tempo, all read": "read_pbn(timed).problems",
}
"""Each read, as code of a checkout whose ``read_pbn`` takes ``tempo="eager"``."""

_RUN = """
import sys
sys.path.insert(0, {root!r})
from bridgecore.pbn import read_pbn
plain = open({plain!r}, encoding="utf-8", newline="").read()
timed = open({timed!r}, encoding="utf-8", newline="").read()
for _ in range({times}):
    {read}
"""


def _count(root: Path, files: tuple[Path, Path], read: str, times: int) -> int:
    return callgrind(_RUN.format(root=str(root), plain=str(files[0]), timed=str(files[1]),
                                 times=times, read=read), root)


def read_instructions(root: Path, files: tuple[Path, Path], read: str) -> int:
    """The instructions of one ``read`` in ``root``'s checkout: twice less once."""
    return _count(root, files, read, 2) - _count(root, files, read, 1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a", type=Path)
    ap.add_argument("b", type=Path)
    ap.add_argument("--boards", type=int, default=500)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        files = (Path(tmp) / "plain.pbn", Path(tmp) / "timed.pbn")
        for path, tempo in zip(files, (False, True), strict=True):
            path.write_text(write_pbn(played_records(args.boards, tempo)), encoding="utf-8",
                            newline="")
        counts = {root: {name: read_instructions(root.resolve(), files, read)
                         for name, read in READS.items()} for root in (args.a, args.b)}
    print(f"{args.boards} played boards, instructions of one read (callgrind)")
    print(f"  {'':18} {'A':>14} {'/plain':>7} {'B':>14} {'/plain':>7} {'B/A':>6}")
    a, b = counts[args.a], counts[args.b]
    for name in READS:
        print(f"  {name:18} {a[name]:14,} {a[name] / a['plain']:6.2f}x {b[name]:14,} "
              f"{b[name] / b['plain']:6.2f}x {b[name] / a[name]:6.3f}")


if __name__ == "__main__":
    main()
