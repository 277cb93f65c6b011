"""The laws audit on real records written by other programs (tests/data/realdata).

Clean records must give no irregularity and no reading problem, and the tricks the
audit finds from the play (with the claim the Result implies) must be the Result the
program wrote. The PBN verifier's error file must give the irregularities its
comments name.
"""

from pathlib import Path

import pytest

from bridgecore import edition
from bridgecore.audit import audit_record
from bridgecore.lin import read_lin
from bridgecore.pbn import read_pbn
from tests.conftest import REALDATA

CLEAN = sorted(
    [p for d in ("pbn-play", "pbn-results", "pbn-handrecords", "dealfiles")
     for p in (REALDATA / d).glob("*.pbn")]
    + list((REALDATA / "lin").glob("*.lin"))
    + [REALDATA / "pbn-conformance" / f"pbn_verifier_correct_{v}.pbn" for v in ("20", "21")]
)


def _records(path: Path):
    reader = read_lin if path.suffix == ".lin" else read_pbn
    return reader(path.read_bytes(), file=path.name).records


@pytest.mark.parametrize("path", CLEAN, ids=lambda p: p.name)
@pytest.mark.parametrize("edition_name", ["1997", "2007", "2017"])
def test_clean_real_records_have_no_irregularity(path, edition_name):
    records = _records(path)
    assert records, f"{path.name}: no board read"
    played = 0
    for record in records:
        result = audit_record(record, edition(edition_name))
        assert result.irregularities == [], (path.name, record.board, record.line,
                                             [str(i) for i in result.irregularities])
        assert result.problems == [], (path.name, record.board, [str(p) for p in result.problems])
        stated = record.claim if record.claim is not None else record.result
        if record.plays and stated is not None:
            played += 1
            assert result.tricks == stated, (path.name, record.board, record.line)
            assert result.tricks_rectified == result.tricks
    if any(r.plays for r in records):
        assert played > 0


def test_clean_records_scores_match_the_programs_score_tags():
    """Law 77 on the audited contract and tricks equals the Score the program wrote."""
    path = REALDATA / "pbn-play" / "bbo_vugraph_2015wbtc_bb_swe-pol_lintopbn.pbn"
    compared = 0
    for record in _records(path):
        result = audit_record(record)
        score = record.tags.get("Score", "")
        if not score or result.score_ns is None or result.declarer is None:
            continue
        side, _, value = score.partition(" ")
        ns = int(value) if side == "NS" else -int(value) if side == "EW" else None
        if ns is None:
            continue
        assert result.score_ns == ns, (record.board, record.tags.get("Room"), score)
        compared += 1
    assert compared >= 30


def test_pbn_verifier_error_file_reports_the_revoke_it_names():
    """The PBN standard's error file has a game whose comment says 'Revoke: CA' (Law 61)."""
    path = REALDATA / "pbn-conformance" / "pbn_verifier_errors_10.pbn"
    found = {i.kind.value for r in _records(path) for i in audit_record(r).irregularities}
    assert {"revoke", "insufficient_bid", "duplicate_card", "wrong_card_count"} <= found
