"""The event log of an evening with rectifications holds no sentence the hub wrote: what the
hub itself puts in the log (a device's refused overreach, a damaged log's finding) is a
catalog key with its values (docs/protocol.md section 1 "Texts"), so that the log is the
same whatever the language of the director who reads it later. Only what people typed
(the director's ruling, a player's note) is words. A running hub over a real broker, its
SQLite log read back, and the room rebuilt from it renders its alerts in French."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from hub.console_i18n import CATALOGS
from hub.service import HubRunner, data_log
from hub.texts import render
from tenace.sim.devices import DeviceEvent
from tenace.sim.driver import run_tables
from tests.hub.test_service import MitchellSetup, ev, hub_on

# Typed by people, kept as they wrote them: the director's words, a player's note.
PEOPLE = {"text", "note", "statement", "explanation", "names"}
# Three words of letters in a row: a sentence, not a key, a code or an id.
SENTENCE = re.compile(r"[A-Za-z]{2,} [A-Za-z]{2,} [A-Za-z]{2,}")


def _strings(value: Any, path: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(value, dict):
        if isinstance(value.get("key"), str) and "values" in value:   # a message
            assert value["key"] in CATALOGS.source, f"{path}: {value['key']} not a key"
            yield from _strings(value["values"], path + ".values")
            return
        for key, item in value.items():
            if not (key in PEOPLE and isinstance(item, str)):
                yield from _strings(item, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _strings(item, f"{path}[{i}]")
    elif isinstance(value, str):
        yield path, value


def evening() -> list[DeviceEvent]:
    """Board 1 at A1: West's insufficient bid accepted by North (27A1), South's tablet
    trying to call for East (refused: not_your_seat, the director alerted), a director
    call with a note."""
    out = [ev("checkin", direction="NS", pair=1), ev("checkin", direction="EW", pair=4),
           ev("board", board=1)]
    for seat, call in (("N", "1NT"), ("E", "Pass"), ("S", "2C"), ("W", "1S")):
        out.append(ev("call", f"A1-{seat}", seat=seat, call=call))
    out.append(ev("rectify", "A1-N", seat="N", irregularity="A1-1-insufficient_bid-1",
                  choice="accept"))
    out.append(ev("call", "A1-S", seat="E", call="3NT"))          # refused: not his seat
    out.append(ev("director_call", "A1-W", seat="W", note="we need you here"))
    return out


def test_the_log_of_an_evening_with_rectifications_holds_keys_not_sentences(
        broker_url: str, tmp_path: Path) -> None:
    hub = hub_on(broker_url, tmp_path)
    script = evening()
    with HubRunner(hub) as running:
        runs = run_tables(broker_url, {"A1": script})
        assert runs["A1"].codes == {"ok": len(script) - 1, "not_your_seat": 1}
        alerts = running.call(lambda: list(hub.room.alerts))
        (bid,) = [a for a in alerts if a.kind == "insufficient_bid"]
        assert bid.facts["accepted"]["seat"] == "N"
        ruled = running.call(lambda: hub.director(
            {"op": "rule", "id": bid.id, "text": "North accepted the bid: it stands (27A1)"}))
        assert ruled["ok"]
    with data_log(tmp_path) as stored:
        records = list(stored.replay())
    types = [r.type for r in records]
    assert {"rectify", "device_overreach", "director_call", "alert_rule"} <= set(types)
    overreach = next(r.data() for r in records if r.type == "device_overreach")
    assert overreach["text"]["key"] == "deny.other_seat" and "reason" not in overreach
    sentences = [(r.type, where, text) for r in records for where, text in
                 _strings(r.data()) if SENTENCE.search(text)]
    assert sentences == []
    # The director's own words and the player's note are in the log as they typed them.
    assert any(str(r.data().get("text")).startswith("North accepted") for r in records)
    # A room rebuilt from the log says its alerts in the reader's language.
    rebuilt = MitchellSetup().build_room().rebuild(records[1:])
    accepted = rebuilt.alerts[bid.id]
    assert render(accepted.text, "fr") == (
        "Ouest a fait une enchère insuffisante (déclaration 4) [accepté par Nord, 27A1]")
    assert render(accepted.text, "it") == (
        "Ovest ha fatto una dichiarazione insufficiente (dichiarazione 4) "
        "[accettato da Nord, 27A1]")
    (reach,) = [a for a in rebuilt.alerts if a.kind == "device_overreach"]
    assert "agit que pour Sud, pas pour Est" in render(reach.text, "fr")
    assert json.dumps(reach.text.to_json()).count("deny.other_seat") == 1
