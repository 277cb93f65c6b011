"""``tenace tempo``: timed records read offline, per board and per player, the marks of
the rule (Annex I; Laws 16B, 73C, 73D) and the allowance (74B4)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from bridgecore.bigdeal import random_deal
from bridgecore.cards import Seat
from bridgecore.lin import write_lin
from bridgecore.pbn_writer import save_pbn
from bridgecore.record import GameRecord
from bridgecore.tempo import TEMPO_TABLE, record_calls_cards, tempo_table
from tenace.cli import main
from tests.bridgecore.tempo_boards import HESITATION, START, STOP_NOT_KEPT, golden_actions

DEAL = random_deal(random.Random(7))


def record(board: int, calls: list[tuple[str, float, bool]], table: str) -> GameRecord:
    actions = golden_actions(DEAL, board, calls)
    made_calls, cards = record_calls_cards(actions)
    r = GameRecord(board=board, dealer=Seat.dealer_of(board), deal=DEAL, calls=made_calls,
                   plays=cards)
    r.tags.update({"Table": table, "PairNS": "1", "PairEW": "4"})
    table_ = tempo_table(r, started_at=START, sources=[a.source for a in actions],
                         stops=[i for i, a in enumerate(actions) if a.stop])
    assert table_ is not None
    r.tables[TEMPO_TABLE] = table_
    return r


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    records = [record(1, HESITATION, "A1"), record(1, STOP_NOT_KEPT, "A2")]
    pbn, lin = tmp_path / "event.pbn", tmp_path / "event.lin"
    save_pbn(pbn, records)
    lin.write_text(write_lin(records))
    return pbn, lin


def test_json_per_board_and_player_with_the_marks(files: tuple[Path, Path],
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """16B: North's 45 s pass and South's 30 s 3H marked; Annex I: the STOP not kept."""
    assert main(["tempo", str(files[0]), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    a1, a2 = data["boards"]
    assert {(m["index"], m["kind"]) for m in a1["marks"]} == {(4, "tempo_break"),
                                                             (6, "tempo_break")}
    assert [m["kind"] for m in a2["marks"]] == ["stop_not_kept"]
    assert {p["player"] for p in data["players"]} == {"1N", "1S", "4E", "4W"}
    assert [s["over"] for s in data["slow"]] == [False, False]


def test_text_from_lin_gives_the_same_marks(files: tuple[Path, Path],
                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tempo", str(files[1]), "--actions", "--minutes", "2"]) == 0
    out = capsys.readouterr().out
    assert "Board 1, table A1:" in out and "over the 2:00 allowed (74B4)" in out
    assert out.count("mark tempo_break (16B, 73C, 73D)") == 2
    assert "mark stop_not_kept (Annex I, 73A2)" in out and "+1.0 STOP wait" in out
    assert "Players:" in out and "1N:" in out


def test_a_file_that_cannot_be_read_is_an_error(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tempo", str(tmp_path / "missing.pbn")]) == 2
    assert "tenace tempo" in capsys.readouterr().err


def test_convert_help_says_lin_is_written_too(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 23: the help said "LIN is read only" while `tenace convert` writes it (with
    the times)."""
    with pytest.raises(SystemExit) as done:
        main(["convert", "--help"])
    assert done.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "PBN and LIN are read and written" in text and "read only" not in text


def test_convert_writes_lin_with_the_times(files: tuple[Path, Path], tmp_path: Path) -> None:
    pbn, _ = files
    out = tmp_path / "out.lin"
    assert main(["convert", str(pbn), str(out)]) == 0
    assert "nt|tenace-tempo 1 " in out.read_text()
