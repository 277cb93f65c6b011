"""``tenace replay`` without a broker: game records played through the hub as a table's
devices would play them must tell the director what ``tenace check`` finds.

Every real PBN and LIN file is replayed (tenace.replay.replay_local) and compared with the
laws audit (bridgecore.audit.audit_record) board by board, whole lines. Where a board cannot
agree, it is listed in KNOWN with the fields that differ and why; the other fields are still
compared, and a known board that starts to agree fails the test (remove it from the list).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bridgecore.auction import Auction
from bridgecore.audit import audit_record
from bridgecore.bigdeal import BigDeal
from bridgecore.board import Board
from bridgecore.calls import ALL_BIDS, DOUBLE, PASS, REDOUBLE, Call, Contract
from bridgecore.cards import Card, Seat
from bridgecore.deal import Deal, Hand
from bridgecore.editions import EDITIONS, edition
from bridgecore.randomgame import random_call
from bridgecore.record import CallRecord, CardRecord, GameRecord
from bridgecore.vulnerability import Vulnerability
from hub.room import Room
from tenace.commands import read_records
from tenace.replay import (
    ReplaySetup,
    board_line,
    plan_replay,
    record_events,
    replay_local,
    replay_records,
)
from tenace.sim.devices import envelopes
from tests.conftest import REALDATA

FILES = sorted([*REALDATA.rglob("*.pbn"), *REALDATA.rglob("*.lin")])
IRREGULAR = ["pbn_verifier_correct_10.pbn", "pbn_verifier_errors_10.pbn",
             "pbn_verifier_errors_20.pbn"]

_NOT_FITTING = ("the file's Result contradicts its play (declarer has already won more "
                "tricks): the audit reports that Result beside a problem; a table cannot claim "
                "fewer than no tricks, so live the board does not end")
# (file, first line of the board) -> (fields that differ, why)
KNOWN: dict[tuple[str, int], tuple[tuple[str, ...], str]] = {
    ("pbn_verifier_correct_10.pbn", 106): (("tricks", "tricks_rectified", "score_ns"),
                                           _NOT_FITTING),
    ("pbn_verifier_errors_10.pbn", 676): (("tricks", "tricks_rectified", "score_ns"),
                                          _NOT_FITTING),
    ("pbn_verifier_errors_10.pbn", 112): (
        ("contract",), "a Contract tag without a declarer: no auction reaches it, so the "
        "tablet cannot enter it (the audit shows the tag's contract)"),
    ("pbn_verifier_errors_10.pbn", 319): (
        ("irregularities",), "the record stops (no result) with a revoke not established: the "
        "audit judges it as of the last card (62A, no transfer); the hub's alert is the revoke "
        "as played (61, established when...), re-issued only once established"),
}


def wire(obj: Any) -> Any:
    """As JSON carries it (tuples become lists)."""
    return json.loads(json.dumps(obj))


def audit_lines(records: list[GameRecord], name: str) -> list[dict[str, Any]]:
    return [wire(audit_record(r, edition(name)).to_json()) for r in records]


def differing(want: dict[str, Any], got: dict[str, Any]) -> set[str]:
    return {k for k in set(want) | set(got) if want.get(k) != got.get(k)}


def explain(want: dict[str, Any], got: dict[str, Any], fields: set[str]) -> dict[str, Any]:
    """What differs, short: the first irregularity that differs, key by key."""
    out: dict[str, Any] = {}
    for key in sorted(fields):
        if key != "irregularities":
            out[key] = (want.get(key), got.get(key))
            continue
        w, g = want.get(key) or [], got.get(key) or []
        out["kinds"] = ([(i["kind"], i["law"]) for i in w], [(i["kind"], i["law"]) for i in g])
        for a, b in zip(w, g, strict=False):
            if a != b:
                out["first"] = {k: (a.get(k), b.get(k)) for k in set(a) | set(b)
                                if a.get(k) != b.get(k)}
                break
    return out


def compare(path: Path, name: str) -> None:
    records = read_records(str(path))
    want = audit_lines(records, name)
    got = replay_local(str(path), name)
    assert len(got) == len(records)
    unexpected, healed = [], []
    for record, w, g in zip(records, want, got, strict=True):
        fields, _why = KNOWN.get((path.name, record.line or 0), ((), ""))
        diff = differing(w, g)
        if diff - set(fields):
            unexpected.append((record.line, record.board, explain(w, g, diff)))
        elif set(fields) - diff:
            healed.append((record.line, sorted(set(fields) - diff)))
    assert not unexpected, f"{path.name} ({name}): live and audit disagree: {unexpected}"
    assert not healed, f"{path.name} ({name}): (line, fields) now agree, remove them from " \
                       f"KNOWN: {healed}"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_replay_tells_the_director_what_the_audit_finds(path):
    """Laws 9, 81: the hub detects and tells the director; every real record replayed live
    gives the lines of ``tenace check --json`` (2017 Laws)."""
    compare(path, "2017")


@pytest.mark.parametrize("name", ["1997", "2007"])
@pytest.mark.parametrize("path", [p for p in FILES if p.name in IRREGULAR], ids=lambda p: p.name)
def test_replay_agrees_with_the_audit_in_every_edition(path, name):
    compare(path, name)


def test_every_known_disagreement_is_a_real_board():
    lines = {(p.name, r.line) for p in FILES if p.name in {f for f, _ in KNOWN}
             for r in read_records(str(p))}
    assert set(KNOWN) <= lines


def test_the_corpus_is_all_there():
    assert len(FILES) == 27
    assert {p.name for p in FILES} >= set(IRREGULAR)


# Records with irregularities of every kind -------------------------------------------------

def messy_record(rng: random.Random, number: int, deal: Deal, name: str,
                 timed: bool) -> GameRecord | None:
    """A board played carelessly: calls out of rotation, insufficient and inadmissible calls,
    cards out of turn, revokes; the play may stop with a result (a claim) or without."""
    board = Board(number, deal, edition=edition(name))
    clock = [1_700_000_000.0]

    def when() -> float | None:
        clock[0] += rng.choice((0.5, 1.5, 4.0, 12.0))
        return clock[0] if timed else None

    calls: list[CallRecord] = []
    while not board.auction.is_over and len(calls) < 40:
        turn = board.auction.turn
        seat = rng.choice(list(Seat)) if turn is None or rng.random() < 0.08 else turn
        if rng.random() < 0.06:
            call = rng.choice([*ALL_BIDS[:10], DOUBLE, REDOUBLE])
        else:
            call = random_call(rng, list(board.auction.legal_calls) or [PASS])
        t = when()
        alert = rng.random() < 0.1
        explanation = "transfer" if alert and rng.random() < 0.5 else None
        board.push_call(seat, call, t, alert=alert, explanation=explanation)
        calls.append(CallRecord(seat, call, t, alert, explanation))
    if not board.auction.is_over:
        return None
    plays: list[CardRecord] = []
    play = board.play
    stop = rng.choice((52, 52, rng.randrange(0, 52)))
    while play is not None and not play.is_complete and len(plays) < stop:
        seat = play.turn
        if seat is None:
            break
        if rng.random() < 0.03:
            seat = rng.choice(list(Seat))
        hand = list(play.remaining(seat))
        if not hand:
            break
        legal = list(play.legal_cards) if seat is play.turn else []
        card = rng.choice(legal) if legal and rng.random() > 0.1 else rng.choice(hand)
        t = when()
        board.push_card(seat, card, t)
        plays.append(CardRecord(seat, card, t))
    result = None
    if play is not None and not play.is_complete and rng.random() < 0.8:
        result = (play.tricks_won(play.declarer.side)
                  + rng.randrange(0, 14 - len(play.completed_tricks)))
    elif play is not None:
        result = play.result().tricks_as_played
    contract = board.auction.contract
    return GameRecord(board=number, dealer=board.dealer, vulnerability=board.vulnerability,
                      deal=deal, calls=calls, auction_complete=True, plays=plays,
                      play_complete=len(plays) == 52, contract=contract,
                      declarer=None if contract is None else contract.declarer,
                      passed_out=contract is None, result=result)


@pytest.mark.parametrize("name", sorted(EDITIONS))
def test_replay_agrees_on_boards_full_of_irregularities(name):
    """Laws 25-39 (auction), 53-64 (play, revokes and their establishment and transfer),
    68-69 (a claim accepted ends the board): generated boards, half of them with the times
    of every call and card (then ``time`` and 25's ``elapsed`` must agree too)."""
    rng = random.Random(f"replay-{name}")
    deals = BigDeal(bytes(range(20)), "tenace-replay-test").deals(1, 48)
    records = [r for n in range(1, 49)
               if (r := messy_record(rng, n, deals[n], name, timed=n % 2 == 0)) is not None]
    want = audit_lines(records, name)
    got = replay_records(records, name)
    kinds = Counter(i["kind"] for line in want for i in line["irregularities"])
    assert {"revoke", "lead_out_of_turn", "play_out_of_turn", "call_out_of_rotation",
            "insufficient_bid"} <= set(kinds), kinds  # the boards do test something
    assert sum(1 for r in records if r.result is not None and len(r.plays) < 52) >= 5
    unexpected = [(record.board, explain(w, g, differing(w, g)))
                  for record, w, g in zip(records, want, got, strict=True) if w != g]
    assert not unexpected, unexpected
    assert any("resolution" in i for line in got for i in line["irregularities"])  # 53A
    timed = [i for r, line in zip(records, got, strict=True) if r.calls[0].time is not None
             for i in line["irregularities"] if i["kind"] != "revoke" or r.plays]
    assert timed and all("time" in i for i in timed)
    untimed = [i for r, line in zip(records, got, strict=True) if r.calls[0].time is None
               for i in line["irregularities"]]
    assert untimed and not any("time" in i or "elapsed" in i for i in untimed)


# What the devices send ---------------------------------------------------------------------

ROBOT = REALDATA / "lin" / "bbo_robot_session_alerts_claims.lin"


def test_events_are_what_the_table_devices_would_send():
    """Law 7 (the pockets read), 17-22 (calls, alerts and explanations kept), 41-44 (cards
    played, read by the card reader), 68-69 (a claim by declarer accepted by both
    defenders ends a board whose record stops with a result)."""
    record = read_records(str(ROBOT))[2]  # 44 cards, a claim, an alert, explanations
    events = record_events(record, "T7")
    assert all(e.table == "T7" for e in events)
    assert [e.time for e in events] == sorted(e.time for e in events)
    assert len({e.time for e in events}) == len(events)
    board, hands = events[0], events[1:5]
    assert (board.device, board.type, board.body) == ("T7-tab", "board", {"board": 3})
    assert [(e.device, e.type, e.body["seat"]) for e in hands] == [
        ("T7-rdr", "hand", s) for s in "NESW"]
    read = [Card.parse(c) for e in hands for c in e.body["cards"]]
    assert len(read) == len(set(read)) == 52
    assert all(Card.parse(c) in record.deal[Seat.parse(e.body["seat"])]  # type: ignore[index]
               for e in hands for c in e.body["cards"])
    calls = [e for e in events if e.type == "call"]
    assert [(e.device, e.body["seat"], e.body["call"]) for e in calls] == [
        ("T7-tab", c.seat.letter, str(c.call)) for c in record.calls]
    assert [e.body.get("alert", False) for e in calls] == [c.alert for c in record.calls]
    assert [e.body.get("explanation") for e in calls] == [c.explanation for c in record.calls]
    assert any(c.alert for c in record.calls) and any(c.explanation for c in record.calls)
    cards = [e for e in events if e.type == "card"]
    assert [(e.device, e.body["seat"], e.body["card"], e.body["source"]) for e in cards] == [
        ("T7-rdr", c.seat.letter, str(c.card), "record") for c in record.plays]
    claim, *answers = [e for e in events if e.type.startswith("claim")]
    assert events[-3:] == [claim, *answers]
    # South declares 2H; NS won 7 of the 11 tricks played; the record says 9 (LIN mc 9).
    assert claim.body == {"seat": "S", "tricks": 9 - 7}
    assert [a.body for a in answers] == [{"seat": "W", "accept": True},
                                         {"seat": "E", "accept": True}]
    line = replay_records([record])[0]
    assert (line["contract"], line["declarer"], line["tricks"]) == ("2H", "S", 9)


def test_events_use_the_record_times_when_it_times_every_act():
    deal = BigDeal(bytes(20), "times").deals(1, 1)[1]
    record = messy_record(random.Random(3), 1, deal, "2017", timed=True)
    assert record is not None
    events = record_events(record, "T1")
    assert [e.time for e in events if e.type == "call"] == [c.time for c in record.calls]
    assert [e.time for e in events if e.type == "card"] == [c.time for c in record.plays]


def test_a_board_needs_a_number_with_the_records_dealer():
    """Law 2: a hub board is its number; its dealer is the board's."""
    record = read_records(str(ROBOT))[0]
    with pytest.raises(ValueError, match="dealt by E, the record's by N"):
        record_events(record, "T1", board=2)
    record.board = None
    with pytest.raises(ValueError, match=r"board None .*needs a board number"):
        record_events(record, "T1")
    assert record_events(record, "T1", board=17)[0].body == {"board": 17}


def test_hub_board_numbers_keep_each_records_dealer_and_vulnerability():
    """Law 2: numbers repeated, missing, or with other markings get a number of their own
    with the record's dealer and vulnerability; the line keeps the record's number."""
    deals = BigDeal(bytes(20), "numbers").deals(1, 4)
    records = [
        GameRecord(board=1, deal=deals[1]),
        GameRecord(board=1, deal=deals[2]),                           # same number
        GameRecord(board=None, dealer=Seat.WEST, vulnerability=Vulnerability.EW,
                   deal=deals[3]),                                      # no number
        GameRecord(board=3, dealer=Seat.NORTH, deal=deals[4]),          # markings differ
        GameRecord(board=None, deal=deals[4]),                          # nothing known
    ]
    plan = plan_replay(records)
    numbers = [b.board for b in plan.boards]
    assert numbers[0] == 1 and len(set(numbers)) == len(numbers)
    assert Seat.dealer_of(numbers[1]) is Seat.NORTH
    assert Vulnerability.of_board(numbers[1]) is Vulnerability.NONE
    assert Seat.dealer_of(numbers[2]) is Seat.WEST
    assert Vulnerability.of_board(numbers[2]) is Vulnerability.EW
    assert Seat.dealer_of(numbers[3]) is Seat.NORTH
    assert Vulnerability.of_board(numbers[3]) is Vulnerability.EW  # Law 2 for board 3
    assert [b.table for b in plan.boards] == ["R1", "R2", "R3", "R4", "R5"]
    assert [line["board"] for line in replay_records(records)] == [1, 1, None, 3, None]
    assert plan.setup.deals == {n: r.deal for n, r in zip(numbers, records, strict=True)}


@pytest.mark.parametrize("contract", ["3NTW", "4SXN", "2HXXE", "7CS", "PASS"])
def test_a_contract_without_its_auction_is_entered_as_the_shortest_one(contract):
    """Laws 18-22: a record that gives only the contract and the result (a traveller) is
    entered as the shortest legal auction reaching it; the result as a claim (69A)."""
    deal = BigDeal(bytes(20), "contract").deals(1, 1)[1]
    passed = contract == "PASS"
    made = None if passed else Contract.parse(contract[:-1])
    if made is not None:
        made = Contract(made.level, made.strain, made.risk, Seat.parse(contract[-1]))
    record = GameRecord(board=6, deal=deal, contract=made, passed_out=passed,
                        declarer=None if made is None else made.declarer,
                        result=None if passed else 8)
    events = record_events(record, "T1")
    calls = [(Seat.parse(e.body["seat"]), Call.parse(e.body["call"]))
             for e in events if e.type == "call"]
    auction = Auction(Seat.EAST, edition("2017"))  # board 6: East deals (Law 2)
    for seat, call in calls:
        auction.push(seat, call)
    assert auction.is_over and not auction.irregularities
    assert auction.contract == made and auction.is_passed_out is passed
    assert len(calls) - sum(c.is_pass for _, c in calls) == (
        0 if made is None else 1 + made.risk)
    assert replay_records([record]) == audit_lines([record], "2017")


def test_setup_round_trips_through_json_with_a_flawed_deal():
    """Laws 1, 13, 14: the hand record of a flawed deal is kept as it is (the hub's log
    starts with the set-up)."""
    good = BigDeal(bytes(20), "setup").deals(1, 1)[1]
    north = good[Seat.NORTH].cards
    flawed = Deal({Seat.NORTH: Hand.of((*north, good[Seat.EAST].cards[0])),  # 14, one twice
                   Seat.EAST: good[Seat.EAST], Seat.SOUTH: good[Seat.SOUTH],
                   Seat.WEST: Hand.of(good[Seat.WEST].cards[1:])})       # 12, one missing
    setup = ReplaySetup(["R1", "R2"], {1: good, 5: flawed}, edition("1997"))
    again = ReplaySetup.from_json(wire(setup.to_json()))
    assert again.to_json() == setup.to_json()
    assert again.deals == {1: good, 5: flawed} and again.edition is edition("1997")
    room = again.build_room()
    assert isinstance(room, Room) and sorted(room.tables) == ["R1", "R2"]
    assert room.deal(5) == flawed and room.edition is edition("1997")
    with pytest.raises(ValueError, match="not a replay set-up"):
        ReplaySetup.from_json({"kind": "event"})
    broken = dict(setup.to_json(), deals={"1": {"N": ["ZZ"]}})
    with pytest.raises(ValueError, match="not a valid replay set-up"):
        ReplaySetup.from_json(broken)
    with pytest.raises(ValueError, match="not a valid replay set-up"):
        ReplaySetup.from_json({"kind": "replay"})


def test_tables_playing_several_boards_in_turn_tell_the_same():
    path = REALDATA / "pbn-conformance" / "pbn_verifier_errors_10.pbn"
    records = read_records(str(path))
    alone = replay_records(records)
    assert replay_records(records, tables=1) == alone
    assert replay_records(records, tables=5) == alone
    assert {b.table for b in plan_replay(records, tables=5).boards} == {
        f"R{i}" for i in range(1, 6)}


def test_board_line_takes_alerts_as_the_director_receives_them():
    """Laws 63-64: every version of a revoke's alert arrives (as played, then established
    with its transfer); the latest counts, whatever the order of arrival, and alerts of
    other tables and boards and the hub's own findings are left out."""
    path = REALDATA / "pbn-conformance" / "pbn_verifier_errors_10.pbn"
    records = [r for r in read_records(str(path)) if r.line == 414]
    plan = plan_replay(records)
    board = plan.boards[0]
    room = plan.setup.build_room()
    versions = []
    for table, env in envelopes(board.events):
        versions += [wire(a.to_json()) for a in room.apply(table, env, env.time).alerts]
    assert len({a["id"] for a in versions}) < len(versions)  # updated alerts
    stranger = dict(versions[0], table="R9", id="R9-1-revoke-1")
    elsewhere = dict(versions[0], board=board.board + 1, id="R1-99-revoke-1")
    pocket = dict(versions[0], kind="duplicate_card", facts={"seat": "N", "twice": ["SA"]},
                  id="R1-x-duplicate_card-1")
    arrived = [*reversed(versions), stranger, elsewhere, pocket]
    arrived.sort(key=lambda a: a["version"] == 1)  # later versions first
    line = board_line(board, None, arrived, wire(room.tables["R1"].public_state()))
    assert line == audit_lines(records, "2017")[0]
    assert [i["kind"] for i in line["irregularities"]] == ["revoke"] * 4
    assert board_line(board, None, [], None)["contract"] is None


# Known disagreements, reduced to their smallest case ---------------------------------------

def _deal() -> Deal:
    return BigDeal(bytes(20), "minimal").deals(1, 1)[1]


def test_law_30_and_17d3_two_findings_on_one_call_are_two_alerts():
    """Laws 30 and 17D3 (2017; 17E2 in 2007, 34 in 1997): W's pass out of rotation (30), then
    N's pass makes three passes with one out of rotation: both findings are on call 4 by W,
    and the director is told of both."""
    calls = [CallRecord(Seat.parse(s), Call.parse(c)) for s, c in
             [("N", "1C"), ("E", "Pass"), ("N", "Pass"), ("W", "Pass"), ("N", "Pass")]]
    record = GameRecord(board=1, deal=_deal(), calls=calls)
    want = audit_lines([record], "2017")[0]
    got = replay_records([record])[0]
    assert [(i["law"], i["call"], i["seat"]) for i in want["irregularities"]] == [
        ("30", 3, "N"), ("30", 4, "W"), ("17D3", 4, "W")]
    assert got == want


def test_known_difference_a_revoke_not_established_when_the_record_stops():
    """Laws 61, 62A, 63A: the record stops (no result) right after W's revoke. The audit
    reports it as of the last card (62A, no transfer); the hub's alert is the revoke as
    played (61: established when W or E plays to the next trick): both say it is not
    established; the board never ended, so the hub never re-issued it."""
    deal = _deal()
    lead = max(deal[Seat.EAST].cards, key=lambda c: c.index)
    follow = next(c for c in deal[Seat.SOUTH].cards if c.suit is lead.suit)
    revoke = next(c for c in deal[Seat.WEST].cards if c.suit is not lead.suit)
    assert any(c.suit is lead.suit for c in deal[Seat.WEST].cards)
    calls = [CallRecord(Seat.parse(s), Call.parse(c)) for s, c in
             [("N", "1NT"), ("E", "Pass"), ("S", "Pass"), ("W", "Pass")]]
    plays = [CardRecord(Seat.EAST, lead), CardRecord(Seat.SOUTH, follow),
             CardRecord(Seat.WEST, revoke)]
    record = GameRecord(board=1, deal=deal, calls=calls, plays=plays)
    want = audit_lines([record], "2017")[0]
    got = replay_records([record])[0]
    (w,), (g,) = want["irregularities"], got["irregularities"]
    assert (w["kind"], w["law"], w["established"], w["transfer"]) == ("revoke", "62A", False, 0)
    assert (g["kind"], g["law"], g["established"]) == ("revoke", "61", False)
    assert without(want, "irregularities") == without(got, "irregularities")
    assert (got["contract"], got["declarer"], got["tricks"]) == ("1NT", "N", None)
    record.result = 7  # with the record's result: declarer claims, the revoke is established
    assert replay_records([record]) == audit_lines([record], "2017")


def without(line: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in line.items() if k != key}


# The three defects of issue 11, replayed ---------------------------------------------------

def _trick_12_revoke() -> GameRecord:
    """E discards D2 on W's H2 at trick 12 while holding H3, then plays to trick 13."""
    deal = Deal.parse("N:AKQJT98765432... .AKQJT9876543.2. ..AKQJT9876543.2 .2..AKQJT9876543")
    calls = [CallRecord(Seat.parse(s), Call.parse(c)) for s, c in
             [("N", "Pass"), ("E", "Pass"), ("S", "3NT"), ("W", "Pass"), ("N", "Pass"),
              ("E", "Pass")]]
    tokens = ["W:CA", "N:SA", "E:HA", "S:C2"]
    for w, n, e, s in zip("KQJT987654", "KQJT987654", "KQJT987654", "AKQJT98765", strict=True):
        tokens += [f"W:C{w}", f"N:S{n}", f"E:H{e}", f"S:D{s}"]
    tokens += ["W:H2", "N:S3", "E:D2", "S:D4", "W:C3", "N:S2", "E:H3", "S:D3"]
    plays = [CardRecord(Seat.parse(t[0]), Card.parse(t[2:])) for t in tokens]
    return GameRecord(board=1, deal=deal, calls=calls, auction_complete=True, plays=plays,
                      play_complete=True, result=0)


@pytest.mark.parametrize("name", sorted(EDITIONS))
def test_law_62d1_the_hub_reports_a_trick_12_revoke_corrected_not_established(name):
    """Laws 62D1, 63A, 64B6: the hub's last word on a revoke on trick 12 (E played to trick
    13 after it) is what ``tenace check`` says: not established, corrected, no transfer."""
    record = _trick_12_revoke()
    plan = plan_replay([record], edition(name))
    room = plan.setup.build_room()
    versions = []
    for table, env in envelopes(plan.boards[0].events):
        versions += [a for a in room.apply(table, env, env.time).alerts
                     if a.kind == "revoke"]
    assert len({a.id for a in versions}) == 1
    last = versions[-1]
    assert (last.law, last.trick, last.version) == ("64B6", 12, 2)
    assert last.facts["established"] is False and last.facts["final"] is True
    assert last.options[0]["law"] == "62D1"
    assert replay_records([record], name) == audit_lines([record], name)


def test_laws_1_13_14_a_flawed_pack_is_one_alert_per_fact_and_agrees_with_the_audit():
    """Laws 1, 13, 13F, 14: North's pocket holds 14 cards (one of East's), West's 12: the
    counts, the card read twice and the card missing are one alert each, whichever of the
    pocket reads and the four pockets' check found them, and the latest versions are the
    lines of ``tenace check``."""
    good = _deal()
    north, east = good[Seat.NORTH].cards, good[Seat.EAST].cards
    flawed = Deal({Seat.NORTH: Hand.of((*north, east[0])), Seat.EAST: good[Seat.EAST],
                   Seat.SOUTH: good[Seat.SOUTH], Seat.WEST: Hand.of(good[Seat.WEST].cards[1:])})
    record = GameRecord(board=1, deal=flawed)
    plan = plan_replay([record])
    room = plan.setup.build_room()
    for table, env in envelopes(plan.boards[0].events):
        room.apply(table, env, env.time)
    facts = Counter((a.kind, a.seats, a.facts.get("card")) for a in room.alerts
                    if a.kind in ("wrong_card_count", "duplicate_card", "missing_card"))
    assert set(facts.values()) == {1} and len(facts) == 4, facts
    count_n = next(a for a in room.alerts if a.kind == "wrong_card_count" and a.seats == ("N",))
    assert count_n.version == 2
    assert count_n.evidence["found_by"] == ["pocket N", "four pockets"]
    assert replay_records([record]) == audit_lines([record], "2017")
