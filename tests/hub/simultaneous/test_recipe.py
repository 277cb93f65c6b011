"""docs/simultaneous.md's recipe, run as written (issue 28; audit `audit28b`): its event file
(the JSON block), the organiser's ``tenace sim-event init``, and the commands' options
(``run``, a club's ``club``, ``revoke`` and ``reissue``) as the page gives them, so the
page and the commands cannot drift apart. The clubs' kits it writes are checked as the page
says."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from hub.simultaneous import SimEvent
from tenace.cli import _parser, main
from tests.hub.simultaneous.helpers import deals_pbn

REPO = Path(__file__).resolve().parents[3]
PAGE = (REPO / "docs" / "simultaneous.md").read_text()


def _command(name: str) -> list[str]:
    """The page's ``tenace sim-event NAME ...`` command (inline code, over lines), its
    optional parts (``[...]``) left out."""
    found = re.search(r"`(tenace sim-event " + name + r" [^`]+)`", PAGE)
    assert found, f"docs/simultaneous.md has no `tenace sim-event {name} ...`"
    text = re.sub(r"\[[^\]]*\]", "", " ".join(found.group(1).split()))
    return shlex.split(text)[1:]


def test_the_pages_event_file_and_init_command_write_the_kits(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    block = re.search(r"```json\n(.*?)```", PAGE, re.S)
    assert block, "docs/simultaneous.md has no event file"
    data = json.loads(block.group(1))
    (tmp_path / data["deals"]).write_text(deals_pbn(3))
    (tmp_path / "event.json").write_text(block.group(1))
    monkeypatch.chdir(tmp_path)
    event = SimEvent.load(Path("event.json"))
    clubs = [c.id for c in event.clubs]
    args = _command("init")
    assert args[:3] == ["sim-event", "init", "event.json"]
    assert main(args) == 0
    out = capsys.readouterr().out
    kit = Path(args[3])
    assert "`bridge.key` is its certificate's key" in PAGE   # step 4: what to keep private
    step3 = re.search(r"`mosquitto -c ([^`]+)`", PAGE)      # "3. Start the broker"
    assert step3 and Path(step3.group(1)).is_file()
    assert Path(step3.group(1)).parent == kit / "organiser"
    for club in clubs:
        assert f"club {club}: " in out
        folder = kit / "clubs" / club                          # "one kit/clubs/<club>/"
        assert (folder / "bridge.conf").is_file()
        assert (folder / "bridge.crt").is_file()               # "its certificate ..."
        assert (folder / "bridge.key").stat().st_mode & 0o077 == 0   # "... privately"
        assert json.loads((folder / "club.json").read_text()) == {
            "event": event.id, "club": club}


@pytest.mark.parametrize("name", ["run", "club", "revoke", "reissue"])
def test_the_pages_run_and_club_commands_are_the_commands_options(name: str) -> None:
    args = _parser().parse_args(_command(name))
    assert args.command == "sim-event"
    if name == "club":
        assert args.plays == 9 and args.broker.startswith("mqtts://sim-link:")
    elif name == "run":
        assert args.broker == "sims.example.org:8883"
    else:     # a club's key lost or stolen: the page's event file, folder and club
        assert (args.event, args.dir, args.club) == ("event.json", "kit", "lyon")
