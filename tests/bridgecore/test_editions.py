"""The editions of the Laws are named variants, each difference one documented field."""

from dataclasses import fields
from pathlib import Path

import pytest

from bridgecore import DEFAULT_EDITION, EDITIONS, edition

DOC = Path(__file__).resolve().parents[2] / "docs" / "editions.md"


def test_default_is_2017_the_laws_in_force():
    assert DEFAULT_EDITION is edition(None) is edition("2017") is edition(2017)
    assert sorted(EDITIONS) == ["1997", "2007", "2017"]


def test_unknown_edition_is_refused_with_the_choices():
    with pytest.raises(ValueError, match="1997, 2007 or 2017"):
        edition("2022")


def test_every_field_is_documented_with_its_three_values():
    text = DOC.read_text(encoding="utf-8")
    for f in fields(DEFAULT_EDITION):
        if f.name == "name":
            continue
        row = next((line for line in text.splitlines() if f"| `{f.name}` |" in line), None)
        assert row is not None, f"docs/editions.md lacks {f.name}"
        cells = [c.strip() for c in row.split("|")[2:5]]
        for cell, name in zip(cells, ("1997", "2007", "2017"), strict=True):
            value = getattr(EDITIONS[name], f.name)
            shown = ("yes" if value else "no") if isinstance(value, bool) else str(value)
            assert cell == shown, (f.name, name, cell, shown)


def test_law_64_differences_between_editions():
    """64A2 extra trick only in 1997; 64B7 both sides revoked from 2007 (laws.md 8.2)."""
    assert [EDITIONS[e].revoke_extra_trick for e in ("1997", "2007", "2017")] == [
        True, False, False]
    assert [EDITIONS[e].no_transfer_both_sides_revoked for e in ("1997", "2007", "2017")] == [
        False, True, True]
