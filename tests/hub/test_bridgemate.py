"""Bridgemate compatibility (hub/bridgemate/): a scoring program written for Bridgemate,
here the real client package ``bridgemate-dataconnector-client``, runs a Tenace room
through the hub's Data Connector API.

The hub is real (its MQTT loop on the embedded broker, its event log in a temporary
folder); the tables play through the broker as tablets do (tenace.driver). The scoring
program sets the session up, sends the hand records, polls and accepts the results, the
check-ins and the director calls; bad requests are refused with a message naming the
problem, and nothing accepted before is lost, across a restart of the hub too."""

from __future__ import annotations

import contextlib
import json
import queue
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from bridgemate_dataconnector import (
    DataConnectorClient,
    validate_participation_dto,
    validate_player_data_dto,
    validate_result_dto,
    validate_td_call_dto,
)
from bridgemate_dataconnector.dto import (
    ContinueDTO,
    DataConnectorResponseData,
    ErrorType,
    HandrecordDTO,
    InitDTO,
    ParticipationDTO,
    PlayerDataDTO,
    RoundDTO,
    ScoringGroupDTO,
    ScoringProgramDataConnectorCommands,
    ScoringProgramRequest,
    ScoringProgramResponse,
    SectionDTO,
    SectionUpdateDTO,
    SessionDTO,
    TableDirection,
    TableDTO,
)

from bridgecore.bigdeal import random_deal
from bridgecore.board import Board
from bridgecore.calls import Call
from bridgecore.deal import Deal
from hub.bridgemate import BridgemateSetup
from hub.bridgemate.server import MAX_BODY
from hub.broker import EmbeddedBroker
from hub.event import EventSetup
from hub.service import Hub, HubRunner, data_log
from tenace.sim.devices import DeviceEvent
from tenace.sim.driver import run_tables
from wire.mqtt import MqttClient

GUID = "0123456789ABCDEF0123456789ABCDEF"
OTHER = "FEDCBA9876543210FEDCBA9876543210"
DEALS = {n: random_deal(random.Random(600 + n)) for n in range(1, 7)}
Commands = ScoringProgramDataConnectorCommands
OK = DataConnectorResponseData.OK


# The scoring program's side -----------------------------------------------------------------

def mitchell_rounds(table: int, rounds: int = 3, letters: str = "A") -> list[RoundDTO]:
    """Three tables, NS stationary (pairs 1-3), EW up one (4-6), board sets of two down one."""
    out = []
    for r in range(1, rounds + 1):
        board_set = (table - r) % 3 + 1
        out.append(RoundDTO(session_guid=GUID, section_letters=letters, table_number=table,
                            round_number=r, low_board_number=2 * board_set - 1,
                            high_board_number=2 * board_set, pair_ns=table,
                            pair_ew=4 + (table + r - 2) % 3))
    return out


def section_a(rounds: int = 3, letters: str = "A") -> SectionDTO:
    return SectionDTO(session_guid=GUID, scoring_group_number=1, letters=letters, winners=2,
                      game_type=SectionDTO.GameType_Pairs,
                      tables=[TableDTO(session_guid=GUID, section_letters=letters,
                                       table_number=t, rounds=mitchell_rounds(t, rounds, letters))
                              for t in (1, 2, 3)])


def init_dto(name: str = "Tuesday pairs", letters: str = "A") -> InitDTO:
    session = SessionDTO(session_guid=GUID, name=name, year=2025, month=3, day=4, hour=19,
                         minute=30, scoring_groups=[ScoringGroupDTO(
                             session_guid=GUID, scoring_group_number=1,
                             scoring_method=ScoringGroupDTO.ScoringType_Pairs,
                             sections=[section_a(letters=letters)])])
    return InitDTO(commands=InitDTO.StartBCS | InitDTO.Command_Reset, club_id="CLUB",
                   sessions=[session],
                   player_data=[PlayerDataDTO(session_guid=GUID, player_number="501",
                                              first_name="Ann", last_name="Example")],
                   participations=[ParticipationDTO(
                       session_guid=GUID, section_letters=letters, table_number=1,
                       direction=TableDirection.North, round_number=1, player_number="501")])


def handrecord(board: int, deal: Deal) -> HandrecordDTO:
    hands = deal.pbn()[2:].split()
    fields: dict[str, str] = {}
    for seat, hand in zip(("north", "east", "south", "west"), hands, strict=True):
        for suit, holding in zip(("spades", "hearts", "diamonds", "clubs"), hand.split("."),
                                 strict=True):
            fields[f"{seat}_{suit}"] = holding
    return HandrecordDTO(session_guid=GUID, scoring_group_number=1, section_letters="A",
                         board_number=board, **fields)


def raw(client: DataConnectorClient, command: Commands, data: Any,
        session: str = GUID) -> ScoringProgramResponse:
    """A request the client has no method for, or with data it would not build."""
    return client.send_request(ScoringProgramRequest(
        command=command, session_guid=session,
        serialized_data=data if isinstance(data, str) else json.dumps(data)))


def refusal(response: ScoringProgramResponse) -> str:
    assert response.data_type == DataConnectorResponseData.Error, response
    message = json.loads(response.serialized_data or '""')
    assert isinstance(message, str) and message
    return message


def post(url: str, body: bytes, method: str = "POST") -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(url, data=body if method == "POST" else None,
                                     method=method,
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as err:
        with err:
            return err.code, json.loads(err.read())


def raw_http(port: int, request: bytes) -> tuple[bytes, dict[str, Any]]:
    """Bytes as they are, to a server that answers and closes: (status and headers, JSON)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    head, _, body = b"".join(chunks).partition(b"\r\n\r\n")
    return head, json.loads(body)


# The tables' side ---------------------------------------------------------------------------

def ev(table: str, type: str, device: str = "tab", **body: Any) -> DeviceEvent:
    return DeviceEvent(table, f"{table}-{device}", type, body, time.time())


def checkins(table: str, ns: int, ew: int) -> list[DeviceEvent]:
    return [ev(table, "checkin", direction="NS", pair=ns,
               players=[{"number": 900 + ns, "name": "Nora North"},
                        {"number": 910 + ns, "name": "Sam van South"}]),
            ev(table, "checkin", direction="EW", pair=ew)]


def play(table: str, number: int, calls: list[str], device: str = "tab"
         ) -> tuple[list[DeviceEvent], Board]:
    """Board ``number`` at ``table``: these calls, then the first legal card at each turn.
    Returns the events and the board as played (the truth the results are checked on)."""
    board = Board(number, DEALS[number])
    events = [ev(table, "board", device, board=number)]
    for text in calls:
        seat = board.turn
        assert seat is not None
        board.make_call(seat, Call.parse(text))
        events.append(ev(table, "call", device, seat=seat.letter, call=text))
    while board.play is not None and not board.play.is_complete:
        seat = board.play.turn
        assert seat is not None
        card = board.play.legal_cards[0]
        board.play_card(seat, card)
        events.append(ev(table, "card", device, seat=seat.letter, card=str(card)))
    return events, board


def start_hub(url: str, folder: Path, setup: BridgemateSetup | None = None) -> Hub:
    return Hub(data_log(folder), url=url, setup=setup, setup_loader=BridgemateSetup.from_json,
               double_dummy=False, bridgemate=("127.0.0.1", 0))


# The tests ----------------------------------------------------------------------------------

def test_a_scoring_program_runs_a_session_and_gets_each_result_once(
        embedded_broker: EmbeddedBroker, tmp_path: Path, keyring: Any) -> None:
    """Set-up, hand records, play at the tables, results polled and accepted (never twice,
    never lost, across a restart), check-ins and a director call (Law 9B1)."""
    keyring.issue("A2-tab.pad")  # a spare of A2's tablet plays board 3
    hub = start_hub(embedded_broker.url, tmp_path, BridgemateSetup.waiting())
    with HubRunner(hub):
        client = DataConnectorClient("CLUB", "KEY", hub.bridgemate.url)
        assert client.connect().data_type == OK
        assert client.ping().data_type == OK
        assert client.initialize(init_dto()).data_type == OK
        assert client.initialize(init_dto()).data_type == OK        # a retry changes nothing
        room = hub.room
        assert sorted(room.tables) == ["A1", "A2", "A3"]
        assert room.assignment("A2", 3) is not None
        assert (room.assignment("A2", 3).ns, room.assignment("A2", 3).ew) == (2, 4)
        assert room.assignment("A2", 3).boards == (5, 6)
        assert room.sections[0].pairs == {1: ("Ann Example",)}
        sent = client.send_handrecords(GUID, [handrecord(b, d) for b, d in DEALS.items()])
        assert sent.data_type == OK, sent
        assert all(hub.room.deal(b) == d for b, d in DEALS.items())

        # Round 1: A1 plays 1NT by North on board 1 and passes board 2 out; at A2 a player
        # calls the director.
        one, board_one = play("A1", 1, ["1NT", "Pass", "Pass", "Pass"])
        two, _ = play("A1", 2, ["Pass"] * 4)
        runs = run_tables(embedded_broker.url, {
            "A1": checkins("A1", 1, 4) + one + two,
            "A2": [*checkins("A2", 2, 5), ev("A2", "director_call", seat="E", note="hesitation")]})
        assert all(set(r.codes) == {"ok"} for r in runs.values()), runs

        results = client.poll_for_results(GUID)
        assert all(validate_result_dto(r) for r in results), [r.validation_messages
                                                              for r in results]
        by_board = {r.board_number: r for r in results}
        assert sorted(by_board) == [1, 2]
        assert board_one.play is not None
        lead = board_one.play.tricks[0].cards[0][1]
        first = by_board[1]
        assert (first.section_letters, first.table_number, first.round_number) == ("A", 1, 1)
        assert (first.pair_north_south, first.pair_east_west) == (1, 4)
        assert (first.level, first.denomination, first.stake) == (1, 5, 0)
        assert (first.declarer_direction, first.declaring_pair) == (1, 1)
        assert first.total_tricks == board_one.play.declarer_tricks
        assert (first.lead_card_rank, first.lead_card_suit) == (int(lead.rank),
                                                                int(lead.suit) + 1)
        assert by_board[2].level == 0 and by_board[2].total_tricks == 0
        assert client.accept_queue_data(GUID, DataConnectorResponseData.Results).data_type == OK
        assert client.poll_for_results(GUID) == []

        # One more board finishes: the next poll has it, and only it, until it is accepted.
        three, _ = play("A2", 3, ["Pass", "Pass", "Pass", "Pass"], device="tab.pad")
        run_tables(embedded_broker.url, {"A2": three})
        assert [r.board_number for r in client.poll_for_results(GUID)] == [3]
        last = client.get_last_queue_item_id(DataConnectorResponseData.Results)
        assert [r.board_number for r in client.poll_for_results(GUID)] == [3]
        assert len(client.poll_for_results(GUID, all=True)) == 3
        assert client.get_last_queue_item_id(DataConnectorResponseData.Results) == last

        calls = client.poll_for_td_calls(GUID)
        assert [(c.section_letters, c.table_number, c.round_number, c.status)
                for c in calls] == [("A", 2, 1, 1)]
        assert validate_td_call_dto(calls[0])
        assert client.accept_queue_data(GUID, DataConnectorResponseData.TdCalls).data_type == OK
        (alert,) = [a for a in hub.room.alerts if a.kind == "director_call"]
        assert hub.call(lambda: hub.director({"op": "acknowledge", "id": alert.id}))["ok"]
        assert [c.status for c in client.poll_for_td_calls(GUID)] == [2]   # TD at the table

        seats = client.poll_for_participations(GUID)
        assert all(validate_participation_dto(s, allow_player_number_and_name=True)
                   for s in seats)
        north = {(s.table_number, s.direction): s for s in seats}[1, TableDirection.North]
        assert (north.player_number, north.first_name, north.last_name) == (
            "901", "Nora", "North")
        south = {(s.table_number, s.direction): s for s in seats}[2, TableDirection.South]
        assert (south.player_number, south.first_name, south.last_name) == (
            "912", "Sam", "van South")
        players = client.poll_for_player_data(GUID)
        assert {p.player_number for p in players} == {"901", "911", "902", "912"}
        assert all(validate_player_data_dto(p) for p in players)

        # Later rounds change, round 1 stays: the results are kept, none is queued again.
        update = SectionUpdateDTO(session_guid=GUID, scoring_group_number=1,
                                  scoring_group_scoring_method=10, letters="A", winners=2,
                                  game_type=10, tables=section_a(rounds=2).tables)
        assert client.update_movement(update).data_type == OK
        assert hub.room.assignment("A1", 3) is None
        assert hub.room.tables["A1"].sittings[1, 1].over
        assert [r.board_number for r in client.poll_for_results(GUID)] == [3]
        assert client.get_last_queue_item_id(DataConnectorResponseData.Results) == last
        before = hub.call(hub.room.snapshot)
    # The hub restarts on its log: same room, same queues.
    again = start_hub(embedded_broker.url, tmp_path)
    with HubRunner(again):
        client = DataConnectorClient("CLUB", "KEY", again.bridgemate.url)
        assert client.continue_event(ContinueDTO(event_guid=GUID, club_id="CLUB",
                                                 commands=5)).data_type == OK
        assert again.call(again.room.snapshot) == before
        assert again.room.deal(4) == DEALS[4] and again.room.assignment("A1", 3) is None
        assert [r.board_number for r in client.poll_for_results(GUID)] == [3]
        assert client.get_last_queue_item_id(DataConnectorResponseData.Results) == last
        assert sorted(r.board_number for r in client.poll_for_results(GUID, all=True)) == [
            1, 2, 3]


def test_bad_requests_are_refused_with_the_problem_and_change_nothing(
        embedded_broker: EmbeddedBroker, tmp_path: Path) -> None:
    hub = start_hub(embedded_broker.url, tmp_path, BridgemateSetup.waiting())
    with HubRunner(hub):
        url = hub.bridgemate.url
        client = DataConnectorClient("CLUB", "KEY", url)
        # Not a ScoringProgramRequest: HTTP 400 with the reason, as a response object.
        endpoint = f"{url}/dc-scoringprogram"
        for body, words in ((b"{not json", "not JSON"), (b"[1, 2]", "not a Scoring"),
                            (b'{"Command": 5, "LicenceKey": "K"}', "ClubId: required"),
                            (b'{"Command": "five", "ClubId": "C", "LicenceKey": "K"}',
                             "Command: a whole number")):
            status, answer = post(endpoint, body)
            assert status == 400 and answer["DataType"] == 4, answer
            assert words in json.loads(answer["SerializedData"])
        assert post(f"{url}/elsewhere", b"{}")[0] == 404
        assert post(endpoint, b"", method="GET")[0] == 405
        # HTTP refusals through a real client: each a ScoringProgramResponse naming why.
        for request_bytes, status, words in (
                (b"POST /dc-scoringprogram HTTP/1.1\r\nHost: ::1\r\nContent-Length: %d\r\n\r\n"
                 % (MAX_BODY + 1), 413, f"limit {MAX_BODY}"),
                (b"POST /dc-scoringprogram HTTP/1.1\r\nHost: ::1\r\n\r\n", 411, "Content-Length"),
                (b"POST /dc-scoringprogram HTTP/1.1\r\nHost: ::1\r\nTransfer-Encoding: chunked"
                 b"\r\n\r\n", 411, "not chunked"),
                (b"PUT /dc-scoringprogram HTTP/1.1\r\nHost: ::1\r\n\r\n", 405, "POSTed"),
                (b"POST / HTTP/1.1\r\nHost: ::1\r\nContent-Length: 2\r\n\r\n{}", 404,
                 "commands go to POST /dc-scoringprogram")):
            head, answer = raw_http(hub.bridgemate.port, request_bytes)
            assert head.startswith(b"HTTP/1.1 %d " % status), head
            assert answer["DataType"] == 4 and answer["ErrorType"] == 5, answer
            assert words in json.loads(answer["SerializedData"]), answer
        with urllib.request.urlopen(url + "/", timeout=10) as banner:
            assert banner.read().decode().startswith("Bridgemate dataconnector service version")
        # The console's Host/Origin guard (hub.webserver.host_guard): a page of another site
        # (DNS rebinding: a name of the attacker's resolved here, or another origin) is
        # refused before any route runs, as an Error response.
        body = b'{"Command": 5, "ClubId": "C", "LicenceKey": "K"}'
        for headers in (b"Host: rebind.attacker.example\r\n",
                        b"Host: 127.0.0.1\r\nOrigin: http://attacker.example\r\n"):
            head, answer = raw_http(hub.bridgemate.port,
                                    b"POST /dc-scoringprogram HTTP/1.1\r\n" + headers
                                    + b"Content-Type: application/json\r\nContent-Length: "
                                    + str(len(body)).encode() + b"\r\n\r\n" + body)
            assert head.startswith(b"HTTP/1.1 403 "), head
            assert answer["DataType"] == 4, answer
            assert "another" in json.loads(answer["SerializedData"]), answer

        # No event yet: a session command names the unknown session.
        message = refusal(raw(client, Commands.PollQueueForNewResults, ""))
        assert GUID in message and "unknown session" in message
        assert client.poll_for_results(GUID) == []

        # An InitDTO with problems: every one named with its path; the room unchanged.
        bad = init_dto()
        assert bad.sessions is not None and bad.sessions[0].scoring_groups is not None
        section = bad.sessions[0].scoring_groups[0].sections[0]
        assert section.tables is not None and section.tables[1].rounds is not None
        section.tables[1].rounds[0].pair_ew = 2          # pair 2 on both sides
        section.letters = "A1"
        bad.sessions[0].month = 13
        response = client.initialize(bad)
        assert response.error_type == ErrorType.Validation
        message = refusal(response)
        assert "Sessions[0].Month: 13: at most 12" in message
        assert "Sections[0].Letters: 'A1' are not section letters" in message
        assert "Tables[1].Rounds[0].PairEW: pair 2 on both sides" in message
        assert hub.room.tables == {}

        assert client.initialize(init_dto()).data_type == OK
        run_tables(embedded_broker.url, {"A1": play("A1", 1, ["Pass"] * 4)[0]})

        # A hand record that is not a deal: the board and the problem named.
        wrong = handrecord(1, DEALS[1])
        wrong.north_spades = (wrong.north_spades or "") + "Z"
        message = refusal(client.send_handrecords(GUID, [wrong]))
        assert "Handrecords[0].NorthSpades" in message and "'Z'" in message
        short = handrecord(2, DEALS[2])
        short.west_clubs, short.east_clubs = short.east_clubs, short.east_clubs
        assert "board 2:" in refusal(client.send_handrecords(GUID, [short]))
        assert hub.room.deal(1) is None

        # Accepting what was never delivered; unknown and unanswered commands.
        message = refusal(raw(client, Commands.AcceptResultQueueItems, 7))
        assert "never delivered" in message
        assert refusal(raw(client, Commands.PutResults, [])).startswith("PutResults (10)")
        assert raw(client, Commands.PutTableGraph, "").error_type == ErrorType.NotImplemented
        assert "not JSON" in refusal(raw(client, Commands.PutHandrecords, "[{"))

        # Play is recorded: a new event is refused, a movement that drops it too.
        message = refusal(client.initialize(init_dto("Another event")))
        assert "play recorded" in message and "A1 (round 1, board 1)" in message
        empty = SectionUpdateDTO(session_guid=GUID, letters="A", is_deleted=True)
        assert "table A1, round 1, board 1 has been started" in refusal(
            client.update_movement(empty))
        assert hub.setup.summary()[1].startswith("Session 'Tuesday pairs'")
        assert hub.room.tables["A1"].result() is not None
        (result,) = client.poll_for_results(GUID)
        assert (result.table_number, result.board_number, result.level) == (1, 1, 0)
        # A second event's session is not this one's.
        assert "unknown session" in refusal(raw(client, Commands.PollQueueForNewTdCalls, "",
                                                session=OTHER))


def test_a_scoring_program_takes_over_a_quick_set_up_and_names_the_players(
        embedded_broker: EmbeddedBroker, tmp_path: Path) -> None:
    """The hub started with ``--tables``: the scoring program's event replaces it (its Laws
    edition kept), the old tables' retained views are cleared; player data, seating,
    scoring groups and device settings come later."""
    quick = EventSetup.quick(tables=2, boards_per_round=1, edition="1997", seed="00" * 20)
    hub = Hub(data_log(tmp_path), url=embedded_broker.url, setup=quick,
              setup_loader=EventSetup.from_json, double_dummy=False,
              bridgemate=("127.0.0.1", 0))
    with HubRunner(hub):
        client = DataConnectorClient("CLUB", "KEY", hub.bridgemate.url)
        assert client.initialize(init_dto(letters="B")).data_type == OK
        assert sorted(hub.room.tables) == ["B1", "B2", "B3"]
        assert hub.room.edition.name == "1997" and "Laws of 1997" in hub.setup.summary()[0]
        viewer = MqttClient(embedded_broker.url, "director", clean_session=True, start=False)
        viewer.subscribe("tenace/v1/t/+/state", 1, wait=False)
        viewer.start().wait_connected()
        shown: dict[str, bytes] = {}      # the last payload of each table (empty: cleared)

        def seen() -> set[str]:
            return {table for table, payload in shown.items() if payload}

        # The retained states, waited for themselves (a guard, not a pace); then what else
        # comes within a short quiet spell (a table that should not be there).
        deadline = time.monotonic() + 60
        while seen() != {"B1", "B2", "B3"} and time.monotonic() < deadline:
            with contextlib.suppress(queue.Empty):
                message = viewer.messages.get(timeout=0.5)
                shown[message.topic.split("/")[3]] = message.payload
        while True:
            try:
                message = viewer.messages.get(timeout=0.5)
            except queue.Empty:
                break
            shown[message.topic.split("/")[3]] = message.payload
        viewer.close()
        assert seen() == {"B1", "B2", "B3"}

        players = [PlayerDataDTO(session_guid=GUID, player_number=n, first_name="Pat",
                                 last_name=last) for n, last in (("7", "Seven"), ("8", "Eight"))]
        assert client.send_player_data(GUID, players).data_type == OK
        seats = [ParticipationDTO(session_guid=GUID, section_letters="B", table_number=2,
                                  direction=d, round_number=0, player_number=n)
                 for d, n in ((TableDirection.East, "7"), (TableDirection.West, "8"))]
        assert client.send_participations(GUID, seats).data_type == OK
        assert hub.room.sections[0].pairs[5] == ("Pat Seven", "Pat Eight")
        unknown = [ParticipationDTO(session_guid=GUID, section_letters="B", table_number=9,
                                    direction=TableDirection.North, player_number="99")]
        message = refusal(client.send_participations(GUID, unknown))
        assert "TableNumber: no table 9 in section B" in message
        assert "player 99 has no player data" in message

        group = ScoringGroupDTO(session_guid=GUID, scoring_group_number=1,
                                scoring_method=ScoringGroupDTO.ScoringType_Imp2_Weighted)
        assert client.update_scoring_groups([group]).data_type == OK
        assert "Butler IMPs" in hub.setup.summary()[2]
        settings = raw(client, Commands.PutBridgemate3Settings, [{"SectionLetters": "B"}])
        assert settings.data_type == OK and "no effect" in json.loads(
            settings.serialized_data or '""')


def _tenace_hub(data: Path) -> tuple[subprocess.Popen[str], str, list[str]]:
    """``tenace hub --bridgemate`` on free ports: the process, the Data Connector's URL and
    what it printed until ready."""
    process = subprocess.Popen(
        [sys.executable, "-m", "tenace", "hub", "--bridgemate", "127.0.0.1:0", "--listen",
         "127.0.0.1:0", "--console", "off", "--no-double-dummy", "--data", str(data)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert process.stdout is not None
    lines: list[str] = []
    while not lines or lines[-1] != "hub ready":
        line = process.stdout.readline()
        assert line, f"tenace hub stopped: {lines}"
        lines.append(line.strip())
    url = next(x.split(": ", 1)[1] for x in lines if x.startswith("Bridgemate Data Connector"))
    return process, url, lines


def _stop(process: subprocess.Popen[str]) -> None:
    process.send_signal(signal.SIGTERM)
    process.communicate(timeout=30)


def test_tenace_hub_with_bridgemate_waits_for_the_scoring_program(tmp_path: Path) -> None:
    """``tenace hub --bridgemate`` on a new data directory needs no event: the scoring
    program sets it up, and the hub goes on with it when restarted."""
    process, url, lines = _tenace_hub(tmp_path / "data")
    try:
        assert any("waiting for the scoring program" in x for x in lines), lines
        client = DataConnectorClient("CLUB", "KEY", url)
        assert client.initialize(init_dto()).data_type == OK
    finally:
        _stop(process)
    process, url, lines = _tenace_hub(tmp_path / "data")
    try:
        assert f"Bridgemate event {GUID}: Laws of 2017, 15 minutes a round" in lines, lines
        client = DataConnectorClient("CLUB", "KEY", url)
        assert client.poll_for_results(GUID) == []
        assert raw(client, Commands.PollQueueForNewResults, "").data_type == \
            DataConnectorResponseData.Results
    finally:
        _stop(process)
