"""Acceptance check of the protocol document: an outsider's client, written from
`protocol.md` alone, plays real game records through a live `tenace hub` (section 18) and
must find, board by board, what the offline audit `tenace check --json FILE` finds.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REALDATA
from tests.outsider import client

# (file, how many of its records to play).  The counts keep each file to a few boards with
# play (every event is one round trip to the hub), well under a minute on a loaded machine.
CASES = [
    # irregularities: calls out of rotation, insufficient bids, a lead out of turn, revokes;
    # also records with no deal, a partial deal, no number, a passed-out board
    ("pbn-conformance/pbn_verifier_correct_10.pbn", None),
    # LIN, robot session with alerts and a claim
    ("lin/bbo_robot_session_alerts_claims.lin", 3),
    # PBN with notes (alerts) and full play
    ("pbn-play/bbohelper_ben_friends_daylong_2024-06-03.pbn", 3),
    # partial play ended by a claim
    ("pbn-play/eyc1998_vienna_partial_play.pbn", None),
]

# Fields the live line cannot give when the record contradicts itself (section 18, last
# paragraph: "a result that contradicts the play ... the audit reports the file's result
# beside a problem"); the audit then carries `problems`.
UNREACHABLE = ("tricks", "tricks_rectified", "score_ns", "problems")


def audit(path: Path) -> list[dict]:
    out = subprocess.run([sys.executable, "-m", "tenace", "check", "--json", str(path)],
                         check=True, capture_output=True, text=True, timeout=120).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


@pytest.mark.parametrize(("name", "limit"), CASES, ids=[Path(c[0]).name for c in CASES])
def test_live_hub_finds_what_the_audit_finds(name: str, limit: int | None) -> None:
    path = REALDATA / name
    assert path.is_file(), f"{path}: the real file this check plays is missing"
    expected = audit(path)
    if limit is not None:
        expected = expected[:limit]
    problems: list[str] = []
    live = client.play_records(path, limit, log=problems.append)
    assert len(live) == len(expected), "one line per record"
    for i, (got, want) in enumerate(zip(live, expected, strict=True), start=1):
        if want.get("problems"):
            got = {k: v for k, v in got.items() if k not in UNREACHABLE}
            want = {k: v for k, v in want.items() if k not in UNREACHABLE}
        assert got == want, f"record {i} of {name} (board {want.get('board')})"
