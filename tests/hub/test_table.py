"""The table state machine (hub/table.py): every detection with a minimal scenario, the law
it cites, strict vs bidding-box mode, Law 25A undo, and views that never show a hidden hand
or an alert."""

from __future__ import annotations

import json
import random
import re
from typing import Any

from bridgecore.bigdeal import random_deal
from bridgecore.cards import Seat, Side
from bridgecore.deal import Deal
from bridgecore.markings import Markings
from bridgecore.movements import mitchell
from bridgecore.vulnerability import Vulnerability
from hub.alerts import Alert
from hub.room import Room, Section
from hub.table import Outcome
from wire.protocol import Envelope

# Board 1 (dealer N, none vulnerable): every seat holds one rank band, so tricks are easy.
BOARD_1 = Deal.parse("N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432")
DEALS = {1: BOARD_1, **{n: random_deal(random.Random(n)) for n in range(2, 7)}}
# Mitchell, 3 tables, 2 boards a round. Round 1: A1 = NS 1 v EW 4, boards 1-2;
# A2 = 2 v 5, boards 3-4; A3 = 3 v 6, boards 5-6. Round 2: A1 = 1 v 6, boards 3-4.
MOVEMENT = mitchell(3, boards_per_round=2)
START = 1_000_000.0


class Driver:
    """Sends events for one table as its devices would, one second apart."""

    def __init__(self, room: Room | None = None, table: str = "A1", *, strict: bool = False):
        self.room = room or make_room(strict=strict)
        self.table = table
        self.seq: dict[str, int] = {}
        self.clock = START

    @property
    def state(self) -> Any:
        return self.room.tables[self.table]

    def send(self, type: str, device: str = "tab", **body: Any) -> Outcome:
        device = f"{self.table}-{device}"
        self.seq[device] = n = self.seq.get(device, 0) + 1
        self.clock += 1.0
        env = Envelope(f"{device}-{n:06d}", device, n, self.clock, type, body)
        return self.room.apply(self.table, env, self.clock + 0.01)

    def ok(self, type: str, device: str = "tab", **body: Any) -> list[Alert]:
        out = self.send(type, device, **body)
        assert out.reply.status == "ack", out.reply
        return out.alerts

    def seat_pairs(self, ns: int = 1, ew: int = 4, board: int = 1) -> None:
        self.ok("checkin", direction="NS", pair=ns)
        self.ok("checkin", direction="EW", pair=ew)
        self.ok("board", board=board)

    def calls(self, *calls: str) -> list[Alert]:
        """Calls in rotation from the player in turn."""
        found: list[Alert] = []
        for call in calls:
            turn = self.state.sitting.board.auction.turn
            found += self.ok("call", seat=turn.letter, call=call)
        return found

    def card(self, seat: str, card: str, device: str = "tab") -> list[Alert]:
        return self.ok("card", device, seat=seat, card=card)


def make_room(*, strict: bool | list[str] = False, **kw: Any) -> Room:
    room = Room(Section("A", MOVEMENT), DEALS, strict=strict, **kw)
    room.start_round(1, START)
    return room


def kinds(alerts: list[Alert]) -> list[str]:
    return [a.kind for a in alerts]


def only(alerts: list[Alert], kind: str) -> Alert:
    found = [a for a in alerts if a.kind == kind]
    assert len(found) == 1, kinds(alerts)
    return found[0]


# Seating and boards -----------------------------------------------------------------------

def test_correct_seating_and_board_raise_nothing() -> None:
    d = Driver()
    d.seat_pairs()
    assert len(d.room.alerts) == 0
    assert d.state.public_state()["pairs"] == {"NS": 1, "EW": 4}


def test_law_15_wrong_board_alerted_and_still_recorded() -> None:
    d = Driver()
    d.ok("checkin", direction="NS", pair=1)
    alert = only(d.ok("board", board=3), "wrong_board")
    assert alert.law == "15"
    assert alert.facts["scheduled"] == [1, 2] and alert.facts["at_tables"] == ["A2"]
    assert alert.board == 3 and alert.table == "A1" and alert.round == 1
    assert d.state.public_state()["board"] == 3  # recorded as played (15A may let it stand)
    assert d.ok("board", board=3) == []          # the same board again: no second alert


def test_law_5b_pair_sitting_the_wrong_way_round() -> None:
    d = Driver()
    first = only(d.ok("checkin", direction="NS", pair=4), "wrong_direction")
    second = only(d.ok("checkin", direction="EW", pair=1), "wrong_direction")
    assert first.law == second.law == "5B"
    assert first.facts["scheduled"] == {"table": "A1", "direction": "EW"}
    assert d.state.public_state()["pairs"] == {"NS": 4, "EW": 1}  # still recorded


def test_law_5b_pair_at_the_wrong_table_and_pair_not_scheduled() -> None:
    d = Driver()
    alert = only(d.ok("checkin", direction="EW", pair=5), "wrong_table")
    assert alert.facts["scheduled"] == {"table": "A2", "direction": "EW"}
    assert kinds(d.ok("checkin", direction="NS", pair=9)) == ["wrong_pair"]


def test_law_15b_board_already_played_by_one_of_the_pairs() -> None:
    """Law 15B: pair 1 had board 1 in round 1; in round 2 it takes it again against pair 6,
    which had not: the alert names pair 6 as the one a cancellation would deprive of a valid
    score, owed an artificial adjusted score."""
    room = make_room()
    d = Driver(room)
    d.seat_pairs()
    d.calls("Pass")                           # board 1 is started by pairs 1 and 4
    assert d.ok("board", board=1) == []       # announced again in the same sitting: fine
    room.start_round(2, START + 900)
    d.ok("checkin", direction="NS", pair=1)
    d.ok("checkin", direction="EW", pair=6)
    found = d.ok("board", board=1)
    assert sorted(kinds(found)) == ["board_already_played", "wrong_board"]
    again = only(found, "board_already_played")
    assert again.law == "15B" and again.facts == {"pair": 1, "board": 1, "table": "A1",
                                                  "round": 1, "deprived": 6,
                                                  "deprived_side": "EW"}
    assert again.detail == (
        "pair 1 already played board 1 at table A1 in round 1 (Law 15B); pair 6, which had "
        "not, is owed an artificial adjusted score if this play is cancelled")


# Hands read by the card readers -----------------------------------------------------------

def read(d: Driver, seat: Seat, cards: list[str], **kw: Any) -> list[Alert]:
    return d.ok("hand", "rdr", seat=seat.letter, cards=cards, **kw)


def test_hands_as_dealt_raise_nothing() -> None:
    d = Driver()
    d.seat_pairs()
    for seat in Seat:
        assert read(d, seat, [str(c) for c in BOARD_1[seat]]) == []


def test_law_7_rotated_board_flagged_before_the_first_call() -> None:
    d = Driver()
    d.seat_pairs()
    versions = []
    for seat in Seat:  # the board was turned round: each pocket holds the opposite hand
        versions += read(d, seat, [str(c) for c in BOARD_1[seat.partner]])
    alert = versions[-1]
    assert {a.id for a in versions} == {alert.id} and alert.version == 4
    assert alert.kind == "rotated_board" and alert.law == "7"
    assert alert.facts["rotation"] == 180 and alert.facts["complete"] is True
    assert alert.facts["calls_made"] == 0 and "before the first call" in alert.detail
    assert d.state.sitting.board.auction.entries == ()


def test_law_87_two_hands_exchanged_is_not_a_rotation() -> None:
    d = Driver()
    d.seat_pairs()
    read(d, Seat.NORTH, [str(c) for c in BOARD_1[Seat.NORTH]])
    found = read(d, Seat.EAST, [str(c) for c in BOARD_1[Seat.SOUTH]])
    assert only(found, "hands_exchanged").law == "87"


def test_law_1_foreign_card_in_a_pocket() -> None:
    d = Driver()
    d.seat_pairs()
    cards = [*(str(c) for c in BOARD_1[Seat.WEST].cards[:12]), "joker"]
    alert = only(read(d, Seat.WEST, cards), "foreign_card")
    assert alert.law == "1" and alert.facts["foreign"] == ["joker"]


def test_laws_13_14_wrong_number_of_cards() -> None:
    """Laws 13, 14. A pocket read short of one of its own cards may be a sweep that missed
    it (issue 15): the table is asked to sweep it again; short again, it is a short hand."""
    d = Driver()
    d.seat_pairs()
    north = [str(c) for c in BOARD_1[Seat.NORTH]]
    assert read(d, Seat.NORTH, north[:12]) == []
    assert d.state.public_state()["prompts"][0]["kind"] == "sweep"
    assert only(read(d, Seat.NORTH, north[:12]), "wrong_card_count").law == "14"
    assert "prompts" not in d.state.public_state()
    fourteen = [str(c) for c in BOARD_1[Seat.EAST]] + ["S2"]
    found = read(d, Seat.EAST, fourteen)
    assert only(found, "wrong_card_count").law == "13"
    assert only(found, "hand_differs").facts["extra"] == {"S2": "W"}
    assert "duplicate_card" not in kinds(found)  # West's pocket is not read yet
    assert only(read(d, Seat.WEST, [str(c) for c in BOARD_1[Seat.WEST]]),
                "duplicate_card").facts["also_in"] == {"S2": "E"}


def test_laws_13_13f_one_fact_one_alert_updated_as_the_pockets_are_read() -> None:
    """Laws 1, 13, 13F, 14: East's pocket holds 14 cards (one of West's), West's 12. Each
    fact of the pack is one alert, whichever check finds it: the pocket read, then the four
    pockets together; each new finding is a new version with more evidence."""
    d = Driver()
    d.seat_pairs()
    stray = BOARD_1[Seat.WEST].cards[0]
    seen: list[Alert] = []
    seen += read(d, Seat.NORTH, [str(c) for c in BOARD_1[Seat.NORTH]])
    seen += read(d, Seat.EAST, [str(c) for c in BOARD_1[Seat.EAST]] + [str(stray)])
    seen += read(d, Seat.SOUTH, [str(c) for c in BOARD_1[Seat.SOUTH]])
    seen += read(d, Seat.WEST, [str(c) for c in BOARD_1[Seat.WEST]])  # the stray card too
    counts = [a for a in seen if a.kind == "wrong_card_count"]
    assert len({a.id for a in counts}) == 1               # East's 14 cards: one alert
    first, last = counts[0], counts[-1]
    assert (first.version, first.law, first.facts["count"]) == (1, "13", 14)
    assert last.version == 2 and last.facts["kind"] == "wrong_card_count"
    assert last.detected == first.detected and last.updated > first.updated
    assert last.evidence["found_by"] == ["pocket E", "four pockets"]
    assert len(last.evidence["hands_read"]) == 4 > len(first.evidence["hands_read"])
    twice = [a for a in d.room.alerts if a.kind == "duplicate_card"]
    assert len(twice) == 1 and twice[0].facts["card"] == str(stray)
    assert twice[0].evidence["found_by"] == ["four pockets"]
    # Read again, the same pockets find nothing new: no new version.
    assert read(d, Seat.NORTH, [str(c) for c in BOARD_1[Seat.NORTH]]) == []
    assert [a.kind for a in d.room.alerts].count("wrong_card_count") == 1


def test_law_13f_a_card_read_in_two_pockets_is_one_alert() -> None:
    """13F: the SA read in North's pocket and again in East's, then the four pockets: one
    alert for the card, found by East's read, confirmed by the whole pack."""
    d = Driver()
    d.seat_pairs()
    north = [str(c) for c in BOARD_1[Seat.NORTH]]
    east = [str(c) for c in BOARD_1[Seat.EAST]]
    read(d, Seat.NORTH, north)
    east_read = read(d, Seat.EAST, [*east[:-1], north[0]])
    dup = only(east_read, "duplicate_card")
    assert dup.facts["also_in"] == {north[0]: "N"} and dup.version == 1
    read(d, Seat.SOUTH, [str(c) for c in BOARD_1[Seat.SOUTH]])
    last = only(read(d, Seat.WEST, [str(c) for c in BOARD_1[Seat.WEST]]), "duplicate_card")
    assert last.id == dup.id and last.version == 2 and last.facts["card"] == north[0]
    assert last.evidence["found_by"] == ["pocket E", "four pockets"]
    assert [a.kind for a in d.room.alerts].count("duplicate_card") == 1


def test_law_17d_hand_of_another_board_then_called_with() -> None:
    d = Driver()
    d.seat_pairs()
    first = only(read(d, Seat.NORTH, [str(c) for c in DEALS[5][Seat.NORTH]]), "hand_not_dealt")
    assert first.law == "17D" and first.facts["holds_board"] == 5
    assert first.facts["holds_seat"] == "N" and first.call is None
    update = only(d.calls("1NT"), "hand_not_dealt")
    assert update.id == first.id and update.version == 2
    assert update.facts["calls_with_it"] == [1]


def test_law_87_cards_displaced_between_hands() -> None:
    d = Driver()
    d.seat_pairs()
    north = [str(c) for c in BOARD_1[Seat.NORTH] if str(c) != "CA"] + ["C2"]
    alert = only(read(d, Seat.NORTH, north), "hand_differs")
    assert alert.facts["extra"] == {"C2": "W"} and alert.facts["missing"] == ["CA"]


# The auction ------------------------------------------------------------------------------

def test_law_27_insufficient_bid_alert_gives_the_lowest_sufficient_bid() -> None:
    d = Driver()
    d.seat_pairs()
    alert = only(d.calls("1S", "1H"), "insufficient_bid")
    assert alert.law == "27" and alert.facts["lowest_sufficient"] == "2H"
    assert alert.seats == ("E",) and alert.call == 2
    assert alert.options and all("law" in o for o in alert.options)
    assert alert.evidence["auction"][1][:2] == ["E", "1H"]


def test_strict_mode_refuses_illegal_calls_and_cards_without_alerts() -> None:
    d = Driver(strict=True)
    d.seat_pairs()
    d.calls("1S")
    refused = d.send("call", seat="E", call="1H")
    assert (refused.reply.status, refused.reply.code) == ("reject", "illegal_call")
    assert "insufficient" in refused.reply.reason and refused.alerts == []
    assert d.send("call", seat="W", call="Pass").reply.code == "not_your_turn"
    assert len(d.state.sitting.board.auction) == 1 and len(d.room.alerts) == 0
    d.calls("Pass", "Pass", "Pass")           # 1S by North; East leads
    d.card("E", "HJ")
    refused = d.send("card", seat="S", card="D8")  # South (dummy) holds hearts
    assert refused.reply.code == "illegal_play" and "follow suit" in refused.reply.reason
    assert d.send("card", seat="N", card="HA").reply.code == "not_your_turn"


def test_bidding_box_mode_records_a_call_out_of_rotation() -> None:
    d = Driver()
    d.seat_pairs()
    alert = only(d.ok("call", seat="S", call="1NT"), "call_out_of_rotation")
    assert alert.law.startswith("3") and alert.seats == ("S",)


def test_law_25a_undo_before_partner_calls() -> None:
    d = Driver()
    d.seat_pairs()
    d.calls("1C")
    assert d.ok("undo", seat="N") == []                 # his own last call: taken back
    assert d.state.sitting.board.auction.entries == ()
    d.calls("1D", "Pass")
    found = d.ok("undo", seat="N")                      # LHO has called: 25A4, both go
    assert only(found, "change_of_call").facts["withdrawn"] == [["E", "Pass"]]
    assert d.state.sitting.board.auction.entries == ()
    d.calls("1D", "Pass", "1H")
    refused = d.send("undo", seat="N")                  # partner has called since: 25A2
    assert refused.reply.code == "wrong_state" and "25A2" in refused.reply.reason
    assert len(d.state.sitting.board.auction) == 3


def test_law_25a_no_undo_once_the_opening_lead_is_faced() -> None:
    d = Driver()
    d.seat_pairs()
    d.calls("1NT", "Pass", "Pass", "Pass")
    assert d.ok("undo", seat="W") == []                  # the last pass, before the lead
    d.calls("Pass")
    d.card("E", "HJ")
    assert d.send("undo", seat="W").reply.code == "wrong_state"


# The play ---------------------------------------------------------------------------------

def play_to_revoke(d: Driver) -> Alert:
    """1H by South; West leads S2; on North's SK East ruffs with H9 holding spades."""
    d.seat_pairs()
    d.calls("Pass", "Pass", "1H", "Pass", "Pass", "Pass")
    for seat, card in (("W", "S2"), ("N", "SA"), ("E", "ST"), ("S", "S3"),
                       ("N", "SK")):
        assert d.card(seat, card) == []
    return only(d.card("E", "H9"), "revoke")


def test_law_61_revoke_alert_updated_when_established_with_the_64_transfer() -> None:
    d = Driver()
    detected = play_to_revoke(d)
    assert detected.law == "61" and detected.trick == 2 and detected.facts["established"] is False
    assert d.card("S", "S4") == [] and d.card("W", "H2") == []  # East wins trick 2
    established = only(d.card("E", "D9"), "revoke")    # East plays to trick 3: 63A1
    assert established.id == detected.id and established.version == 2
    assert established.facts["established"] is True and established.law == "64A1"
    assert established.facts["transfer"] == 1 and established.facts["final"] is False
    assert established.detected == detected.detected and established.updated > detected.detected
    play = d.state.sitting.board.play
    while not play.is_complete:
        d.card(play.turn.letter, str(play.legal_cards[0]))
    final = d.room.alerts[detected.id]
    assert final.facts["final"] is True and final.facts["transfer"] >= 1
    assert d.state.public_state()["result"]["tricks"] == play.declarer_tricks  # as played


def test_law_87_card_not_in_hand_says_whose_it_is() -> None:
    d = Driver()
    d.seat_pairs()
    d.calls("1NT", "Pass", "Pass", "Pass")
    alert = only(d.card("E", "S6"), "card_not_in_hand")   # South's spade
    assert alert.facts["held_by"] == "S" and "belongs to S" in alert.detail
    assert [1, "S"] in alert.facts["fits"]


def test_card_reported_by_reader_and_tablet_is_played_once() -> None:
    d = Driver()
    d.seat_pairs()
    d.calls("1NT", "Pass", "Pass", "Pass")
    d.card("E", "HJ", device="tab")
    out = d.send("card", "rdr", seat="E", card="HJ")
    assert out.reply.status == "ack" and not out.state_changed
    assert len(d.state.sitting.board.play.history) == 1


def test_law_24_card_faced_during_the_auction() -> None:
    d = Driver()
    d.seat_pairs()
    d.calls("1NT")
    assert d.send("card", seat="W", card="C2").reply.code == "wrong_state"  # a tablet tap
    alert = only(d.ok("card", "rdr", seat="W", card="C2", source="reader"), "card_exposed")
    assert alert.law == "24" and alert.facts["calls_made"] == 1
    assert d.state.sitting.board.play is None


def test_law_70_disputed_claim() -> None:
    d = Driver()
    d.seat_pairs()
    d.calls("1NT", "Pass", "Pass", "Pass")
    d.card("E", "HJ")
    assert d.ok("claim", seat="N", tricks=13, statement="all top") == []
    alert = only(d.ok("claim_answer", seat="E", accept=False), "disputed_claim")
    assert alert.law == "70" and alert.facts["disputed_by"] == "E"
    assert alert.facts["statement"] == "all top"
    assert d.send("claim", seat="S", tricks=1).reply.code == "wrong_state"  # dummy


def test_law_79_result_disagreement_after_an_accepted_claim() -> None:
    d = Driver()
    d.seat_pairs()
    d.calls("1NT", "Pass", "Pass", "Pass")
    d.card("E", "HJ")
    assert d.send("result_confirm", seat="E", accept=True).reply.code == "wrong_state"
    d.ok("claim", seat="N", tricks=13)
    d.ok("claim_answer", seat="E", accept=True)
    d.ok("claim_answer", seat="W", accept=True)
    assert d.state.public_state()["result"] == {"contract": "1NT", "declarer": "N",
                                                "tricks": 13, "score_ns": 270,
                                                "tricks_rectified": 13,
                                                "score_ns_rectified": 270}
    alert = only(d.ok("result_confirm", seat="W", accept=False), "result_disagrees")
    assert alert.law == "79A" and alert.facts["result"]["tricks"] == 13


def test_law_2_the_hand_records_markings_govern_the_table_and_the_score() -> None:
    """Law 2: board 1 marked dealer West, both vulnerable in the hand record. The table
    plays it so (West calls first, the views say so) and is scored so (3NT+4 vulnerable);
    the director is told once that the markings are not Law 2's."""
    room = make_room(markings={1: Markings(Seat.WEST, Vulnerability.BOTH)})
    d = Driver(room)
    d.ok("checkin", direction="NS", pair=1)
    d.ok("checkin", direction="EW", pair=4)
    alert = only(d.ok("board", board=1), "board_markings")
    assert alert.law == "2" and alert.board == 1 and alert.table == "A1"
    assert alert.facts == {"board": 1, "dealer": "W", "vulnerability": "All",
                           "law_2": {"dealer": "N", "vulnerability": "None"}}
    assert "dealer W (Law 2: N), vulnerability All (Law 2: None)" in alert.detail
    state = d.state.public_state()
    assert (state["dealer"], state["vulnerability"]) == ("W", "All")
    assert d.state.sitting.board.auction.turn is Seat.WEST
    d.calls("Pass", "3NT", "Pass", "Pass", "Pass")
    d.card("E", "HJ")
    d.ok("claim", seat="N", tricks=13)
    d.ok("claim_answer", seat="E", accept=True)
    d.ok("claim_answer", seat="W", accept=True)
    assert d.state.public_state()["result"]["score_ns"] == 720   # 3NT+4 vulnerable (77)
    other = Driver(room, "A2")
    other.ok("checkin", direction="NS", pair=2)
    other.ok("checkin", direction="EW", pair=5)
    assert "board_markings" not in kinds(other.ok("board", board=1))  # one fact, one alert
    assert [a.kind for a in room.alerts].count("board_markings") == 1


def test_law_2_markings_as_law_2_raise_nothing() -> None:
    room = make_room(markings={1: Markings.of_board(1)})
    d = Driver(room)
    d.seat_pairs()
    assert len(room.alerts) == 0 and d.state.public_state()["dealer"] == "N"


def test_law_9_director_call() -> None:
    d = Driver()
    d.seat_pairs()
    alert = only(d.ok("director_call", seat="E", note="hesitation"), "director_call")
    assert alert.law == "9B1" and alert.seats == ("E",) and "hesitation" in alert.detail
    assert only(d.ok("director_call"), "director_call").id != alert.id


# Views ------------------------------------------------------------------------------------

def cards_in(obj: Any) -> set[str]:
    """Every card name anywhere in a JSON value (lists, dicts, PBN hand strings)."""
    text = json.dumps(obj)
    found = {s for s in re.findall(r'"([SHDC][AKQJT2-9])"', text)}
    return found


def test_public_state_never_shows_a_hidden_hand_in_any_phase() -> None:
    """41C, 41D, protocol: dummy after the opening lead, played cards, hand record at the end."""
    d = Driver()
    phases = []

    def check() -> None:
        state = d.state.public_state()
        phases.append(state["phase"])
        shown = cards_in(state)
        sitting = d.state.sitting
        play = None if sitting is None else sitting.board.play
        visible = set()
        if play is not None and play.history:
            visible |= {str(c) for _, c, _ in play.history}
            visible |= {str(c) for c in BOARD_1[play.dummy]}
            assert "auction" not in state and state["contract"] == "1NT"
        if state["phase"] == "over":
            assert "deal" in state
        else:
            assert shown <= visible, shown - visible
            assert "deal" not in state

    check()
    d.seat_pairs()
    check()
    for seat in Seat:
        read(d, seat, [str(c) for c in BOARD_1[seat]])
        check()
    for call in ("1NT", "Pass", "Pass", "Pass"):
        d.calls(call)
        check()
    assert "auction" in d.state.public_state()   # clarification period: still visible
    for _ in range(52):
        play = d.state.sitting.board.play
        d.card(play.turn.letter, str(play.legal_cards[-1]))
        check()
    assert phases[0] == "waiting" and {"auction", "play", "over"} <= set(phases)


def test_seat_view_holds_only_the_seats_own_cards() -> None:
    d = Driver()
    d.seat_pairs()
    for seat in Seat:
        view = d.state.seat_view(seat)
        assert set(view["hand"]) == {str(c) for c in BOARD_1[seat]}
        assert cards_in(view) == set(view["hand"])
    d.calls("1NT", "Pass", "Pass", "Pass")
    south = d.state.seat_view(Seat.SOUTH)
    d.card("E", "HJ")
    east = d.state.seat_view(Seat.EAST)
    assert "HJ" not in east["hand"] and len(east["hand"]) == 12
    assert d.state.seat_view(Seat.SOUTH) == south   # another seat's card changes nothing


def test_alerts_never_appear_in_the_views() -> None:
    d = Driver()
    d.ok("checkin", direction="NS", pair=4)
    d.ok("board", board=3)
    d.ok("director_call", seat="N", note="secret note")
    read(d, Seat.NORTH, [str(c) for c in DEALS[5][Seat.NORTH]])
    assert len(d.room.alerts) >= 4
    views = [d.state.public_state()] + [d.state.seat_view(s) for s in Seat]
    text = json.dumps(views)
    for alert in d.room.alerts:
        assert alert.id not in text and alert.kind not in text
    assert "secret note" not in text and "alerts" not in text


# Found by the room simulator (tenace/simscript.py) ------------------------------------

def finish_round_1(d: Driver) -> None:
    d.seat_pairs()                                      # A1 round 1: pairs 1 v 4, boards 1-2
    d.calls("Pass", "Pass", "Pass", "Pass")
    d.ok("board", board=2)
    d.calls("Pass", "Pass", "Pass", "Pass")


def test_law_5b_wrong_way_round_in_round_2_moves_the_table_on() -> None:
    d = Driver()
    finish_round_1(d)
    found = d.ok("checkin", direction="NS", pair=6) + d.ok("checkin", direction="EW", pair=1)
    assert kinds(found) == ["wrong_direction", "wrong_direction"]   # now: wrong_table + one
    assert d.state.round == 2                                       # now: still 1
    assert d.ok("board", board=3) == []                             # now: wrong_board


def test_law_5b_seating_alert_of_round_2_is_not_filed_under_round_1() -> None:
    d = Driver()
    finish_round_1(d)
    d.room.start_round(2, d.clock + 1)
    alert = d.ok("checkin", direction="NS", pair=6)[0]
    assert (alert.kind, alert.round, alert.board) == ("wrong_direction", 2, None)  # now: 1, 2


def test_law_7_rotated_board_put_right_raises_nothing_more() -> None:
    d = Driver()
    d.seat_pairs()
    hand = lambda s: [str(c) for c in BOARD_1[s]]  # noqa: E731
    rotated = []
    for s in Seat:
        rotated += d.ok("hand", "rdr", seat=s.letter, cards=hand(s.partner))
    assert kinds(rotated)[-1] == "rotated_board"
    for s in Seat:                                   # hands back in the pockets they came from
        assert d.ok("hand", "rdr", seat=s.letter, cards=hand(s.partner), when="back") == []
    again = []
    for s in Seat:                                   # board turned round, read out again
        again += d.ok("hand", "rdr", seat=s.letter, cards=hand(s))
    assert again == []                               # now: hands_exchanged, duplicate/missing


def test_second_report_of_the_last_card_is_a_duplicate_not_a_refusal() -> None:
    d = Driver()
    d.seat_pairs()
    d.calls("1NT", "Pass", "Pass", "Pass")
    play = d.state.sitting.board.play
    while not play.is_complete:
        seat, card = play.turn.letter, str(play.legal_cards[0])
        d.card(seat, card)
    out = d.send("card", "rdr", seat=seat, card=card, source="reader")
    assert out.reply.status == "ack"                 # now: reject wrong_state


def test_sit_out_round_does_not_stop_the_table_moving_on() -> None:
    import random

    from bridgecore.bigdeal import random_deal
    from bridgecore.movements import mitchell
    from hub.room import Room, Section
    from wire.protocol import Envelope
    movement = mitchell(3, boards_per_round=1, missing_pair=4)   # A1 sits out round 1
    room = Room(Section("A", movement), {b: random_deal(random.Random(b)) for b in (1, 2, 3)})
    env = Envelope("A1-tab-1", "A1-tab", 1, 10.0, "checkin", {"direction": "EW", "pair": 6})
    out = room.apply("A1", env, 10.0)                            # round 2: 1 v 6 at A1
    assert out.alerts == [] and room.tables["A1"].round == 2     # now: wrong_table, round 1


def test_the_public_state_says_where_pairs_and_boards_go_next_and_the_round_clock() -> None:
    """Law 8A: the director's instructions for the movement; what the players ask at the end
    of the round, without an alert or a hand (Mitchell: NS stay, EW up, boards down)."""
    d = Driver()   # round 1 started by the director at START
    schedule = d.state.public_state()["schedule"]
    assert schedule["boards"] == [1, 2]
    assert (schedule["started"], schedule["deadline"]) == (START, START + 15 * 60)
    nxt = schedule["next"]
    assert nxt["NS"] == {"pair": 1, "table": "A1", "direction": "NS"}
    assert nxt["EW"] == {"pair": 4, "table": "A2", "direction": "EW"}
    assert nxt["boards"] == ["A3"]
    fresh = Room(Section("A", MOVEMENT), DEALS)   # no round started: no clock yet
    assert fresh.tables["A1"].public_state()["schedule"]["started"] is None


def test_laws_5b_and_15_the_table_is_told_of_wrong_seating_and_board_not_of_play() -> None:
    """The pairs and the board must be put right at the table before play (5B, 15): the
    acknowledgement carries a notice; a revoke's reply says nothing (9, 10, 81)."""
    d = Driver()
    out = d.send("checkin", direction="EW", pair=1)        # pair 1 is NS here
    assert out.reply.status == "ack" and out.reply.notice == "wrong_seating"
    assert "scheduled NS" in out.reply.reason
    d.ok("checkin", direction="NS", pair=1)
    d.ok("checkin", direction="EW", pair=4)
    out = d.send("board", board=5)                         # board 5 is A3's this round
    assert out.reply.notice == "wrong_board"
    d2 = Driver()
    play_to_revoke(d2)
    out = d2.send("card", seat="S", card="S4")
    assert out.reply.notice is None and out.reply.reason == ""


def test_law_5_partners_checking_in_from_their_own_tablets_are_both_kept() -> None:
    d = Driver()
    d.ok("checkin", direction="NS", pair=1, seat="N", players=[{"number": 101, "name": "Ann"}])
    d.ok("checkin", direction="NS", pair=1, seat="S", players=[{"number": 102, "name": "Bob"}])
    assert d.state.seated[Side.NS][1] == [{"number": 101, "name": "Ann"},
                                          {"number": 102, "name": "Bob"}]
    d.ok("checkin", direction="NS", pair=2, players=[{"name": "Cy"}])   # another pair
    assert d.state.seated[Side.NS][1] == [{"name": "Cy"}]
