"""``tenace devices readers | enrol | run`` (tenace/reader_cli.py), through the
parsers :func:`add_parsers` adds, as ``tenace devices`` will."""

from __future__ import annotations

import argparse
import json
import threading
import time
from pathlib import Path

import pytest

from bridgecore.cards import ALL_CARDS
from firmware_bridge.decks import DeckStore
from firmware_bridge.readers import sim as simulated
from firmware_bridge.vpcd_card import Pcscd
from tenace import reader_cli
from tenace.commands import CommandError
from tests.firmware_bridge.conftest import make_deck, uid, wait_until
from wire.mqtt import MqttClient


def parse(*words: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="tenace devices")
    reader_cli.add_parsers(parser.add_subparsers(dest="command", required=True))
    return parser.parse_args(list(words))


def test_readers_lists_each_backend_as_specs_to_give_the_other_commands(
        pcscd: Pcscd, capsys: pytest.CaptureFixture[str]) -> None:
    args = parse("readers", "--backend", "pcsc")
    assert args.run(args) == 0
    assert capsys.readouterr().out.splitlines() == [f"pcsc:{n}" for n in pcscd.READERS]
    simulated.channel("cli-list")
    args = parse("readers", "--backend", "sim")
    assert args.run(args) == 0
    assert "sim:cli-list" in capsys.readouterr().out.splitlines()


def test_enrol_guides_card_by_card_and_saves_the_deck(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "decks.json"
    args = parse("enrol", "--reader", "sim:cli-enrol", "--deck", "club-3", "--boards", "3,9-10",
                 "--decks", str(path), "--timeout", "5")
    surface = simulated.channel("cli-enrol")

    def deal() -> None:
        wait_until(lambda: surface.readers > 0)
        for card in ALL_CARDS:
            surface.present(uid(3, card))

    dealer = threading.Thread(target=deal)
    dealer.start()
    assert args.run(args) == 0
    dealer.join()
    out = capsys.readouterr().out.splitlines()
    assert "12/52: next the 2 of spades" in out and out[-1].startswith("deck club-3 saved")
    assert DeckStore.load(path).decks["club-3"].boards == (3, 9, 10)
    with pytest.raises(CommandError, match="enrolled already"):
        args.run(args)


def test_bad_options_are_one_line_errors() -> None:
    with pytest.raises(CommandError, match="'X' is not a seat"):
        reader_cli.parse_seats(["X=sim:a"])
    with pytest.raises(CommandError, match="expected SEAT=SPEC"):
        reader_cli.parse_seats(["N"])
    with pytest.raises(CommandError, match="N has a reader already"):
        reader_cli.parse_seats(["N=sim:a", "N=sim:b"])
    with pytest.raises(CommandError, match="'4-2' is not a range"):
        reader_cli.parse_boards("1,4-2")
    args = parse("run", "--table", "A 1", "--seat", "N=sim:a")
    with pytest.raises(CommandError, match="--table 'A 1'"):
        args.run(args)
    args = parse("enrol", "--reader", "nfc:x", "--deck", "d")
    with pytest.raises(CommandError, match="no backend 'nfc'"):
        args.run(args)


def test_run_publishes_each_reader_and_stops_cleanly(hub_url: str, tmp_path: Path) -> None:
    decks = DeckStore(tmp_path / "decks.json", [make_deck("red", 1, (1,))])
    decks.save()
    args = parse("run", "--table", "A1", "--broker", hub_url, "--decks", str(decks.path),
                 "--outbox", str(tmp_path / "out.sqlite3"), "--hand-gap", "0.2",
                 *[f"--seat={s}=sim:cli-run-{s}" for s in "NESW"])
    statuses: dict[str, dict[str, object]] = {}
    watcher = MqttClient(hub_url, "director.watch", clean_session=True, start=False,
                         on_message=lambda m: statuses.update(
                             {m.topic.split("/")[5]: json.loads(m.payload)}))
    watcher.subscribe("tenace/v1/t/A1/dev/+/status", 1, wait=False)
    watcher.start().wait_connected()
    stop = threading.Event()
    codes: list[int] = []
    runner = threading.Thread(target=lambda: codes.append(reader_cli.run_command(args, stop)))
    runner.start()
    try:
        wait_until(lambda: len(statuses) == 5)
        assert statuses["A1-rdr"]["online"] is True
        assert statuses["A1-rdr-N"] == {**statuses["A1-rdr-N"], "online": True, "seat": "N",
                                        "reader": "sim:cli-run-N"}
        simulated.channel("cli-run-S").unplug()
        wait_until(lambda: statuses["A1-rdr-S"]["online"] is False)
    finally:
        stop.set()
        runner.join(10)
        time.sleep(0.2)
        watcher.close()
    assert codes == [0]
    assert statuses["A1-rdr"]["online"] is False   # the last word of a clean stop
