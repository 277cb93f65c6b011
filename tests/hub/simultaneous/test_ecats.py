"""ECATS's files (hub.simultaneous.ecats, USEBIO): a club's upload written and read back, the
organiser's field results written and read back, a real club's USEBIO file read into the field
(its own percentages found again), and the organiser's service taking a club's upload file
from its uploads folder as a club on the bridge would send its results."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bridgecore.usebio import read_usebio
from hub.mosquitto import Mosquitto
from hub.simultaneous import Club, SimError, SimEvent
from hub.simultaneous.ecats import club_upload, field_file, read_upload
from hub.simultaneous.event import generate_key
from hub.simultaneous.field import FieldScorer
from hub.simultaneous.organiser import Organiser
from tests.hub.simultaneous.helpers import club_results, deals_pbn, make_event

T0 = datetime(2026, 4, 12, 18, tzinfo=UTC)
REAL = Path(__file__).parents[2] / "data" / "realdata" / "usebio" / \
    "ebu_sample_mp_pairs_pairsscorer_v1.2.xml"


def _percentages(data: bytes) -> dict[str, float]:
    return {p.findtext("PAIR_NUMBER", "").strip(): float(p.findtext("PERCENTAGE", "nan"))
            for p in ET.fromstring(data).iter("PAIR")}


def _key(row: dict[str, object]) -> tuple[object, ...]:
    return (row["board"], row["ns"], row["ew"], row["score_ns"])


def test_a_clubs_upload_is_written_and_read_back() -> None:
    event = make_event({"lyon": (T0, 3), "york": (T0, 2)}, boards=3)
    rows = club_results("lyon", 3, 3, seed=11, sit_out=frozenset({(2, 1)}))
    data = club_upload(event, "lyon", rows)
    upload = read_upload(event, data)
    assert not upload.problems
    assert sorted(map(_key, upload.results)) == sorted(map(_key, rows))
    assert upload.finished == [{"v": 1, "board": 1, "results": 3, "closed": True},
                               {"v": 1, "board": 2, "results": 2, "closed": True},
                               {"v": 1, "board": 3, "results": 3, "closed": True}]
    # Scored at the club (Neuberg to its 3 plays): what the club's own field gives.
    alone = FieldScorer(SimEvent(event.id, event.deals, (event.club("lyon"),)))
    for row in rows:
        alone.add_result("lyon", row)
    ranking = alone.rescore().ranking
    assert _percentages(data) == pytest.approx(
        {str(p.pair).split(":")[1]: p.percent for p in ranking}, abs=0.01)


def test_the_field_results_are_written_and_read_back() -> None:
    event = make_event({"lyon": (T0, 3), "york": (T0, 2)}, boards=3)
    field = FieldScorer(event)
    for club, tables, seed in (("lyon", 3, 1), ("york", 2, 2)):
        for row in club_results(club, tables, 3, seed=seed):
            field.add_result(club, row)
    score = field.rescore()
    data = field_file(field)
    back = read_usebio(data)
    assert sorted((r.result.board, r.result.ns, r.result.ew, r.result.score_ns)
                  for r in back.rows) == sorted(
        (r.board, r.ns, r.ew, r.score_ns) for r in field.results.values())
    assert _percentages(data) == pytest.approx({p.pair: p.percent for p in score.ranking},
                                               abs=0.01)


def test_a_real_clubs_usebio_file_joins_the_field_with_its_own_percentages() -> None:
    data = REAL.read_bytes()
    event = SimEvent("ecats-real", deals_pbn(22), (Club("club", T0, 11),))
    upload = read_upload(event, data, file=REAL.name)
    assert not upload.problems and len(upload.results) == 242
    field = FieldScorer(event)
    for row in upload.results:
        field.add_result("club", row)
    for finished in upload.finished:
        field.finish("club", finished)
    assert field.finished_boards("club") == event.boards
    ranking = {str(p.pair).split(":")[1]: p.percent for p in field.rescore().ranking}
    assert len(ranking) == 22
    assert ranking == pytest.approx(_percentages(data), abs=0.005)   # PairsScorer's own


def test_a_bad_upload_is_refused_by_name() -> None:
    event = make_event({"lyon": (T0, 3)}, boards=2)
    with pytest.raises(SimError, match="not XML"):
        read_upload(event, b"r.txt p.txt", file="lyon.xml")
    data = club_upload(make_event({"lyon": (T0, 3)}, boards=3), "lyon",
                       club_results("lyon", 3, 3, seed=3))
    upload = read_upload(event, data, file="lyon.xml")
    assert len(upload.results) == 6
    assert sum("board 3" in p and "not a board of sim-test" in p for p in upload.problems) == 3


def test_the_organiser_takes_a_clubs_upload_file(tmp_path: Path) -> None:
    event = make_event({"lyon": (T0, 3), "york": (T0, 2)}, boards=3)
    uploads = tmp_path / "uploads"
    uploads.mkdir()
    york = club_results("york", 2, 3, seed=9)
    (uploads / "zz.xml").write_bytes(club_upload(event, "york", york))   # no such club
    with Mosquitto(tmp_path / "broker", open_access=True) as broker, \
            Organiser(event, broker.url, generate_key(), uploads=uploads) as organiser:
        (uploads / "york.xml").write_bytes(club_upload(event, "york", york))
        assert organiser.wait_for(lambda f: len(f.results) == 6
                                  and f.finished_boards("york") == (1, 2, 3), 60)
        # Uploaded again, one score corrected: it replaces, nothing is counted twice.
        york[0] = {**york[0], "score_ns": york[0]["score_ns"] + 1000}
        (uploads / "york.xml").write_bytes(club_upload(event, "york", york))
        assert organiser.wait_for(lambda f: any(
            r.score_ns == york[0]["score_ns"] for r in f.results.values()), 60)
        assert len(organiser.field.results) == 6
    assert "no club 'zz'" in organiser.upload_problems["zz"][0]


def test_a_line_left_out_of_a_clubs_upload_again_is_withdrawn(tmp_path: Path) -> None:
    """A club by file withdraws a line by uploading its file again without it: the organiser
    withdraws the ids its new file no longer has, a board left without lines is finished
    with none, and the field's results file written afterwards has none of them."""
    event = make_event({"york": (T0, 2)}, boards=3)
    uploads = tmp_path / "uploads"
    uploads.mkdir()
    york = club_results("york", 2, 3, seed=9)
    files: list[bytes] = []     # the field's results file after each scoring
    with Mosquitto(tmp_path / "broker", open_access=True) as broker, \
            Organiser(event, broker.url, generate_key(), uploads=uploads,
                      on_scored=lambda f: files.append(field_file(f))) as organiser:
        (uploads / "york.xml").write_bytes(club_upload(event, "york", york))
        assert organiser.wait_for(lambda f: len(f.results) == 6, 60)
        kept = [r for r in york if r["board"] != 3 and r is not york[1]]
        (uploads / "york.xml").write_bytes(club_upload(event, "york", kept))
        assert organiser.wait_for(lambda f: len(f.results) == 3, 60)
        assert organiser.field.finished_boards("york") == (1, 2, 3)
        assert organiser.field.withdrawn == {("york", f"file-{r['board']}-{r['ns']}-{r['ew']}")
                                             for r in york if r not in kept}
    field = read_usebio(files[-1])     # the organiser closed: its last scoring's
    assert sorted((r.result.board, r.result.ns, r.result.ew) for r in field.rows) == sorted(
        (r["board"], f"york:{r['ns']}", f"york:{r['ew']}") for r in kept)
