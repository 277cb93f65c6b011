"""An option mistyped is named, with the option meant: ``tenace hub --tabels 4`` once said
only "argument job: invalid choice: '4' (choose from 'run', 'status')"."""

from __future__ import annotations

import pytest

from tenace.cli import main


@pytest.mark.parametrize(("words", "named", "meant"), [
    (["hub", "--tabels", "4"], "--tabels", "--tables"),
    (["log", "backup", "--dta", "d", "copy.sqlite3"], "--dta", "--data"),
    (["deploy", "init", "DIR", "--hots", "hub.local"], "--hots", "--host"),
])
def test_a_mistyped_option_is_named_with_the_one_meant(
        words: list[str], named: str, meant: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(words)
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert f"{named}: no such option" in err and f"did you mean {meant}?" in err
    assert "Traceback" not in err


def test_abbreviations_and_values_are_not_typos(capsys: pytest.CaptureFixture[str]) -> None:
    # argparse takes an unambiguous prefix (--tab for --tables); a value after an option, or
    # anything after "--", is not an option of ours
    with pytest.raises(SystemExit) as stopped:
        main(["hub", "--tab", "3", "--edition", "1066"])   # a bad value, said by argparse
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "no such option" not in err and "--edition" in err
