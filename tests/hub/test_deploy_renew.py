"""`tenace deploy init --renew` (and `--force`) written again over a club's configuration
(issue 28; audit `audit28b`): the `include_dir` line the club added for a simultaneous
event's bridge (docs/simultaneous.md) was silently dropped, cutting the club from the event.
It is now kept, and the command's output says so; a bridge pasted in is named, not kept."""

from __future__ import annotations

from pathlib import Path

import pytest

from tenace.cli import main


def _conf_lines(folder: Path) -> list[str]:
    return (folder / "mosquitto.conf").read_text().splitlines()


@pytest.mark.parametrize("again", ["--renew", "--force"])
def test_written_again_the_mosquitto_configuration_keeps_its_include_dir(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], again: str) -> None:
    folder, sim = tmp_path / "club", tmp_path / "sim" / "spring"
    sim.mkdir(parents=True)
    (sim / "bridge.conf").write_text("# the event's bridge stanza would be here\n")
    assert main(["deploy", "init", str(folder), "--host", "hub.local"]) == 0
    with (folder / "mosquitto.conf").open("a") as conf:
        conf.write(f"\n  include_dir   {sim}\n")
    capsys.readouterr()
    assert main(["deploy", "init", str(folder), "--host", "hub.local", again]) == 0
    out = capsys.readouterr().out
    assert f"mosquitto.conf: include_dir {sim} (kept)" in out
    assert _conf_lines(folder).count(f"include_dir {sim}") == 1
    # Written again once more: kept once, not doubled.
    assert main(["deploy", "init", str(folder), "--host", "hub.local", "--renew"]) == 0
    assert _conf_lines(folder).count(f"include_dir {sim}") == 1


def test_a_bridge_pasted_into_the_configuration_is_named_not_silently_lost(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "club"
    assert main(["deploy", "init", str(folder), "--host", "hub.local"]) == 0
    with (folder / "mosquitto.conf").open("a") as conf:
        conf.write("connection spring-organiser\naddress sims.example.org:8883\n")
    capsys.readouterr()
    assert main(["deploy", "init", str(folder), "--host", "hub.local", "--renew"]) == 0
    out = capsys.readouterr().out
    assert "held a bridge pasted in (a connection line), not kept" in out
    assert not any(line.split()[:1] == ["connection"] for line in _conf_lines(folder))
