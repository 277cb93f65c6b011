"""Who may send what (hub/roles.py, docs/protocol.md section 10): a device's role from its
id, a seat tablet acting only for its seat, the readers sending only hands and cards, the
Laws' own answers (25A, 68-69, 79A), and the director alerted of every refusal (9B1), once
per device and board; in the room, in a rebuild from the log, and through the live hub on
both brokers, as a player with another seat's tablet would try it."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from bridgecore.cards import Seat
from hub.alerts import Alert
from hub.roles import NOT_YOUR_ROLE, NOT_YOUR_SEAT, DeviceRole, Role, check, role_of
from hub.service import HubRunner, data_log
from hub.table import OVERREACH_VERSIONS
from tenace.sim.devices import DeviceEvent
from tenace.sim.driver import run_tables
from tenace.sim.observer import Observer
from tests.hub.test_room import Recorder
from tests.hub.test_service import MitchellSetup, hub_on
from tests.hub.test_table import START, Driver, make_room
from wire.protocol import Envelope

N, E, S, W = Seat


def overreach(alerts: list[Alert]) -> list[Alert]:
    return [a for a in alerts if a.kind == "device_overreach"]


def refused(d: Driver, code: str, type: str, device: str, **body: Any) -> Alert:
    """Send an event that must be refused ``code`` and alert the director; the alert."""
    before = json.dumps(d.room.tables[d.table].snapshot())
    out = d.send(type, device, **body)
    assert (out.reply.status, out.reply.code) == ("reject", code), out.reply
    assert out.reply.reason
    assert json.dumps(d.room.tables[d.table].snapshot()) == before   # nothing changed
    assert out.fact is not None and out.fact[0] == "device_overreach"
    found = overreach(out.alerts)
    assert len(found) == 1, out.alerts
    return found[0]


# The role table ----------------------------------------------------------------------------

def test_role_of_every_device_id_the_project_uses() -> None:
    assert role_of("A1-tab", "A1") == DeviceRole("A1-tab", "A1", Role.TABLE_TABLET)
    assert role_of("A1-rdr", "A1") == DeviceRole("A1-rdr", "A1", Role.READER)
    assert role_of("A1-N", "A1") == DeviceRole("A1-N", "A1", Role.SEAT_TABLET, N)
    assert role_of("A1-W", "A1") == DeviceRole("A1-W", "A1", Role.SEAT_TABLET, W)
    # the names tenace replay gave its devices before they had accounts: no role now
    assert role_of("T7-tablet", "T7") is None and role_of("T7-reader", "T7") is None
    # a spare keeps its role
    assert role_of("A1-N.3f9c0a", "A1") == DeviceRole("A1-N.3f9c0a", "A1", Role.SEAT_TABLET, N)
    assert role_of("A1-tab.spare", "A1") == DeviceRole("A1-tab.spare", "A1",
                                                        Role.TABLE_TABLET)
    # table ids with a dash are told apart by the whole prefix
    assert role_of("A-1-S", "A-1") == DeviceRole("A-1-S", "A-1", Role.SEAT_TABLET, S)
    assert role_of("A-1-S", "A") is None


@pytest.mark.parametrize("device", [
    "A2-tab", "A1-north", "A1-NS", "A1-n", "A1", "A1-", "dealer-1", "tenace-hub", "director",
    "A1-rdr-N", "A1-tab-x", "XA1-tab", "A1.tab", "A1-rdr-N.1"])
def test_an_id_naming_no_role_at_the_table_has_none(device: str) -> None:
    assert role_of(device, "A1") is None


def test_roles_name_themselves_for_the_director() -> None:
    assert role_of("A1-E", "A1").name == "seat_tablet:E"   # type: ignore[union-attr]
    assert str(role_of("A1-E", "A1")) == "East's tablet"
    assert str(role_of("A1-tab", "A1")) == "the table tablet"
    assert str(role_of("A1-rdr", "A1")) == "the card readers"


TAB, NORTH, READER = (role_of(d, "A1") for d in ("A1-tab", "A1-N", "A1-rdr"))


def code(role: DeviceRole | None, type: str, declarer: Seat | None = None,
         **body: Any) -> str | None:
    assert role is not None
    found = check(role, type, body, declarer)
    return None if found is None else found.code


@pytest.mark.parametrize("seat", "NESW")
def test_the_table_tablet_acts_for_every_seat(seat: str) -> None:
    for type, body in (("call", {"call": "1C"}), ("card", {"card": "SA"}), ("undo", {}),
                       ("claim", {"tricks": 3}), ("claim_answer", {"accept": True}),
                       ("result_confirm", {"accept": True}), ("director_call", {}),
                       ("hand", {"cards": []})):
        assert code(TAB, type, **body, seat=seat) is None
    assert code(TAB, "checkin", direction="EW", pair=4, seat=seat) is None


def test_a_seat_tablet_acts_only_for_its_own_seat() -> None:
    for type, body in (("call", {"call": "1C"}), ("card", {"card": "SA"}), ("undo", {}),
                       ("claim", {"tricks": 3}), ("claim_answer", {"accept": True}),
                       ("result_confirm", {"accept": True}), ("director_call", {})):
        assert code(NORTH, type, **body, seat="N") is None
        for other in "ESW":
            assert code(NORTH, type, **body, seat=other) == NOT_YOUR_SEAT, (type, other)
    assert code(NORTH, "director_call") is None
    assert code(NORTH, "board", board=1) is None


def test_a_seat_tablet_checks_in_only_its_own_pair() -> None:
    assert code(NORTH, "checkin", direction="NS", pair=1) is None
    assert code(NORTH, "checkin", direction="NS", pair=1, seat="N") is None
    assert code(NORTH, "checkin", direction="EW", pair=4) == NOT_YOUR_SEAT
    assert code(NORTH, "checkin", direction="NS", pair=1, seat="S") == NOT_YOUR_SEAT


def test_law_45_declarers_tablet_plays_dummys_cards_and_dummys_tablet_none() -> None:
    assert code(NORTH, "card", N, seat="S", card="S3") is None        # N declares
    assert code(NORTH, "card", S, seat="N", card="SA") == NOT_YOUR_SEAT   # N is dummy
    assert code(NORTH, "card", E, seat="W", card="S2") == NOT_YOUR_SEAT   # a defender
    assert code(NORTH, "card", E, seat="N", card="SA") is None
    assert check(NORTH, "card", {"seat": "N", "card": "SA"}, S).law == "45"  # type: ignore


def test_the_readers_send_hands_and_cards_only_and_no_tablet_poses_as_one() -> None:
    assert code(READER, "hand", seat="E", cards=["SA"]) is None
    assert code(READER, "card", seat="W", card="SA", source="reader") is None
    for type in ("call", "undo", "claim", "claim_answer", "result_confirm", "checkin",
                 "board", "director_call"):
        assert code(READER, type, seat="N") == NOT_YOUR_ROLE, type
    assert code(NORTH, "hand", seat="N", cards=[]) == NOT_YOUR_ROLE
    assert code(TAB, "card", seat="N", card="SA", source="reader") == NOT_YOUR_ROLE
    assert code(NORTH, "card", seat="N", card="SA", source="reader") == NOT_YOUR_ROLE


# In the room -------------------------------------------------------------------------------

def seated(strict: bool = False) -> Driver:
    d = Driver(strict=strict)
    d.seat_pairs()
    return d


def test_a_seat_tablet_calling_for_another_seat_is_refused_and_alerted_once() -> None:
    d = seated()
    d.ok("call", "N", seat="N", call="1C")
    first = refused(d, NOT_YOUR_SEAT, "call", "N", seat="E", call="Pass")
    assert (first.table, first.board, first.law, first.seats) == ("A1", 1, "", ("E",))
    assert first.facts["device"] == "A1-N" and first.facts["role"] == "seat_tablet:N"
    assert (first.facts["event"], first.facts["seat"], first.facts["attempts"]) == (
        "call", "E", 1)
    again = refused(d, NOT_YOUR_SEAT, "call", "N", seat="S", call="Pass")
    assert again.id == first.id and again.version == 2      # one alert, a new version
    assert again.facts["attempts"] == 2 and again.seats == ("E", "S")
    assert again.facts["tried"] == [["A1-N", "call", "E", NOT_YOUR_SEAT],
                                    ["A1-N", "call", "S", NOT_YOUR_SEAT]]
    assert len(overreach(list(d.room.alerts))) == 1
    # another device has its own alert
    refused(d, NOT_YOUR_SEAT, "call", "E", seat="S", call="Pass")
    assert len(overreach(list(d.room.alerts))) == 2
    assert [e["call"] for e in d.state.public_state()["auction"]] == ["1C"]


def test_a_spare_shares_its_roles_alert_and_made_up_ids_share_one() -> None:
    d = seated()
    a = refused(d, NOT_YOUR_SEAT, "call", "N", seat="E", call="Pass")
    b = refused(d, NOT_YOUR_SEAT, "call", "N.3f9c0a", seat="E", call="Pass")
    assert a.id == b.id and b.facts["device"] == "A1-N.3f9c0a"
    x = refused(d, NOT_YOUR_ROLE, "call", "x1", seat="E", call="Pass")
    y = refused(d, NOT_YOUR_ROLE, "call", "x2", seat="E", call="Pass")
    assert x.id == y.id and y.facts["attempts"] == 2 and y.facts["role"] == "none"


def test_a_device_repeating_its_attempts_cannot_grow_the_log_without_end() -> None:
    d = seated()
    for n in range(1, OVERREACH_VERSIONS + 1):
        assert refused(d, NOT_YOUR_SEAT, "call", "N", seat="E", call="Pass"
                       ).facts["attempts"] == n
    out = d.send("call", "N", seat="E", call="Pass")
    assert out.reply.code == NOT_YOUR_SEAT and out.fact is None and out.alerts == []


def test_the_table_tablet_acts_for_all_four_seats() -> None:
    d = seated()
    d.calls("1NT", "Pass", "Pass", "Pass")
    d.card("E", "ST")
    d.ok("claim", seat="N", tricks=13)
    d.ok("claim_answer", seat="E", accept=True)
    d.ok("claim_answer", seat="W", accept=True)
    d.ok("result_confirm", seat="E", accept=True)
    assert d.state.public_state()["confirmed"] is True
    assert overreach(list(d.room.alerts)) == []


def test_law_25a_only_the_player_who_called_takes_his_call_back() -> None:
    d = seated()
    d.ok("call", "N", seat="N", call="1C")
    alert = refused(d, NOT_YOUR_SEAT, "undo", "E", seat="N")
    assert alert.law == "25A"
    d.ok("undo", "N", seat="N")
    assert d.state.public_state()["auction"] == []


def law_68_claim(d: Driver) -> None:
    """N declares 1NT, East leads: N claims all 13 tricks."""
    d.calls("1NT", "Pass", "Pass", "Pass")
    d.card("E", "ST")


def test_law_68_69_a_seat_tablet_claims_and_answers_only_for_its_seat() -> None:
    d = seated()
    law_68_claim(d)
    assert refused(d, NOT_YOUR_SEAT, "claim", "E", seat="N", tricks=13).law == "68"
    d.ok("claim", "N", seat="N", tricks=13)
    alert = refused(d, NOT_YOUR_SEAT, "claim_answer", "N", seat="E", accept=True)
    assert alert.law == "69A"
    refused(d, NOT_YOUR_SEAT, "claim_answer", "N", seat="W", accept=True)
    d.ok("claim_answer", "E", seat="E", accept=True)
    d.ok("claim_answer", "W", seat="W", accept=True)
    assert d.state.public_state()["claim"]["status"] == "accepted"


def test_law_69a_dummys_agreement_to_a_defenders_claim_is_refused() -> None:
    d = seated()
    law_68_claim(d)
    d.ok("claim", seat="E", tricks=0)        # East concedes the rest
    alert = refused(d, NOT_YOUR_SEAT, "claim_answer", "tab", seat="S", accept=True)
    assert alert.law == "69A" and alert.facts["role"] == "table_tablet"
    # the claimer's own side stays wrong_state (section 9), and is not an overreach
    out = d.send("claim_answer", seat="W", accept=True)
    assert out.reply.code == "wrong_state" and out.fact is None and not out.alerts
    d.ok("claim_answer", seat="N", accept=True)
    assert d.state.public_state()["claim"]["status"] == "accepted"


def test_law_79a_3ntx_plus_3_is_confirmed_only_by_the_other_side() -> None:
    """The case found from outside: N's tablet confirmed 3NTX+3 for East-West."""
    d = seated()
    d.ok("call", "N", seat="N", call="3NT")
    d.ok("call", seat="E", call="X")
    d.calls("Pass", "Pass", "Pass")
    d.card("E", "ST")
    d.ok("claim", "N", seat="N", tricks=12)
    d.ok("claim_answer", seat="E", accept=True)
    d.ok("claim_answer", seat="W", accept=True)
    result = d.state.public_state()["result"]
    assert (result["contract"], result["tricks"]) == ("3NTX", 12)
    forged = refused(d, NOT_YOUR_SEAT, "result_confirm", "N", seat="E", accept=True)
    assert forged.law == "79A" and forged.seats == ("E",)
    own = refused(d, NOT_YOUR_SEAT, "result_confirm", "N", seat="N", accept=True)
    assert own.id == forged.id and own.facts["attempts"] == 2
    # the table tablet may not confirm for the side keeping the record either
    refused(d, NOT_YOUR_SEAT, "result_confirm", "tab", seat="S", accept=True)
    assert d.state.public_state()["confirmed"] is False
    # any seat may disagree (79B): the director rules
    assert [a.kind for a in d.ok("result_confirm", "N", seat="N", accept=False)] == [
        "result_disagrees"]
    d.ok("result_confirm", "E", seat="E", accept=True)
    assert d.state.public_state()["confirmed"] is True


def test_law_79a_a_passed_out_board_is_confirmed_by_any_seat() -> None:
    d = seated()
    d.calls("Pass", "Pass", "Pass", "Pass")
    d.ok("result_confirm", "S", seat="S", accept=True)
    assert d.state.public_state()["confirmed"] is True


def test_law_45_dummys_tablet_plays_no_card_declarers_plays_dummys() -> None:
    d = seated()
    d.calls("1NT", "Pass", "Pass", "Pass")        # N declares, S is dummy
    d.card("E", "ST")
    alert = refused(d, NOT_YOUR_SEAT, "card", "S", seat="S", card="S3")
    assert alert.law == "45"
    d.ok("card", "N", seat="S", card="S3")         # declarer plays dummy's card
    d.ok("card", "W", seat="W", card="S2")
    d.ok("card", "N", seat="N", card="SA")
    assert d.state.public_state()["tricks"] == {"NS": 1, "EW": 0}


def test_a_reader_sending_a_call_is_refused_and_alerted() -> None:
    d = seated()
    alert = refused(d, NOT_YOUR_ROLE, "call", "rdr", seat="N", call="1C")
    assert alert.facts["role"] == "reader" and alert.facts["code"] == NOT_YOUR_ROLE
    d.ok("hand", "rdr", seat="N", cards=["SA"])


def test_a_device_of_another_table_or_of_no_role_is_refused() -> None:
    room = make_room()
    env = Envelope("A1-tab-1", "A1-tab", 1, START + 1, "checkin",
                   {"direction": "NS", "pair": 2})
    out = room.apply("A2", env, START + 1)       # A1's tablet on A2's topic
    assert out.reply.code == "wrong_table" and "A1" in out.reply.reason
    assert overreach(out.alerts)[0].table == "A2"
    assert "A1-tab" not in room.devices          # not bound to A2 either
    dealer = Envelope("dealer-1-1", "dealer-1", 1, START + 1, "board", {"board": 3})
    out = room.apply("A2", dealer, START + 2)
    assert out.reply.code == NOT_YOUR_ROLE and overreach(out.alerts)[0].facts["role"] == "none"
    assert room.tables["A2"].sitting is None


def test_strict_mode_refuses_by_role_before_turn() -> None:
    d = seated(strict=True)
    refused(d, NOT_YOUR_SEAT, "call", "E", seat="N", call="1C")
    d.ok("call", "N", seat="N", call="1C")


def test_refusals_replay_their_alerts_and_nothing_else() -> None:
    rec = Recorder(make_room())
    rec.event("A1", "tab", "checkin", direction="NS", pair=1)
    rec.event("A1", "tab", "checkin", direction="EW", pair=4)
    rec.event("A1", "tab", "board", board=1)
    rec.event("A1", "N", "call", seat="N", call="1C")
    for seat in "ESW":
        assert rec.event("A1", "N", "call", seat=seat, call="Pass").reply.code == NOT_YOUR_SEAT
    rec.event("A1", "rdr", "call", seat="E", call="Pass")
    assert [r.type for r in rec.records if r.source != "device"] == ["device_overreach"] * 4
    rebuilt = make_room().rebuild(rec.records)
    assert json.dumps(rebuilt.snapshot()) == json.dumps(rec.room.snapshot())
    assert [a.facts["attempts"] for a in overreach(list(rebuilt.alerts))] == [3, 1]


# Through the live hub, on both brokers ----------------------------------------------------

def ev(type: str, device: str, **body: Any) -> DeviceEvent:
    return DeviceEvent("A1", device, type, body, time.time())


def forged_3ntx_script() -> list[DeviceEvent]:
    """North's tablet, then the table tablet: 3NTX by N, 12 tricks claimed; North's tablet
    tries to act for the three other seats at every step."""
    return [
        ev("checkin", "A1-tab", direction="NS", pair=1),
        ev("checkin", "A1-tab", direction="EW", pair=4),
        ev("board", "A1-tab", board=1),
        ev("call", "A1-N", seat="N", call="3NT"),
        ev("call", "A1-N", seat="E", call="Pass"),             # refused
        ev("call", "A1-tab", seat="E", call="X"),
        ev("call", "A1-tab", seat="S", call="Pass"),
        ev("call", "A1-tab", seat="W", call="Pass"),
        ev("call", "A1-N", seat="N", call="Pass"),
        ev("card", "A1-N", seat="E", card="ST", source="tablet"),   # refused
        ev("call", "A1-rdr", seat="E", call="Pass"),           # refused: a reader
        ev("card", "A1-rdr", seat="E", card="ST", source="reader"),
        ev("claim", "A1-N", seat="N", tricks=12),
        ev("claim_answer", "A1-N", seat="E", accept=True),     # refused
        ev("claim_answer", "A1-N", seat="W", accept=True),     # refused
        ev("claim_answer", "A1-tab", seat="E", accept=True),
        ev("claim_answer", "A1-tab", seat="W", accept=True),
        ev("result_confirm", "A1-N", seat="E", accept=True),   # refused: the case found
        ev("result_confirm", "A1-tab", seat="N", accept=True),  # refused: 79A
    ]


def test_a_seat_tablet_acting_for_the_other_seats_through_the_live_hub(
        broker_url: str, tmp_path: Path) -> None:
    hub = hub_on(broker_url, tmp_path)
    script = forged_3ntx_script()
    with HubRunner(hub) as running, Observer(broker_url) as director:
        runs = run_tables(broker_url, {"A1": script})
        assert runs["A1"].codes == {"ok": 12, NOT_YOUR_SEAT: 6, NOT_YOUR_ROLE: 1}
        refused_events = [(e.device, e.type, e.body.get("seat")) for e, _ in
                          runs["A1"].rejected]
        assert refused_events == [
            ("A1-N", "call", "E"), ("A1-N", "card", "E"), ("A1-rdr", "call", "E"),
            ("A1-N", "claim_answer", "E"), ("A1-N", "claim_answer", "W"),
            ("A1-N", "result_confirm", "E"), ("A1-tab", "result_confirm", "N")]
        director.settle()
        alerts = [a for a in director.alert_list() if a["kind"] == "device_overreach"]
        by_device = {a["facts"]["device"]: a for a in alerts}
        assert sorted(by_device) == ["A1-N", "A1-rdr", "A1-tab"]
        north = by_device["A1-N"]
        assert north["facts"]["attempts"] == 5 and north["board"] == 1
        assert north["facts"]["role"] == "seat_tablet:N" and north["seats"] == ["E", "W"]
        assert north["law"] == "79A" and north["facts"]["event"] == "result_confirm"
        state = running.call(lambda: hub.room.tables["A1"].public_state())
        assert state["result"]["contract"] == "3NTX" and state["confirmed"] is False
        stats = running.call(lambda: dict(hub.stats.rejected_by_code))
        assert stats == {NOT_YOUR_SEAT: 6, NOT_YOUR_ROLE: 1}
        snapshot = running.call(hub.room.snapshot)
    with data_log(tmp_path) as stored:
        records = list(stored.replay())
        assert sum(r.source == "device" for r in records) == 12   # refusals are not stored
        assert sum(r.type == "device_overreach" for r in records) == 7
        rebuilt = MitchellSetup().build_room().rebuild(records[1:])
    assert rebuilt.snapshot() == snapshot
