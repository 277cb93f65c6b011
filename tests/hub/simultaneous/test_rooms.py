"""Two club hubs playing a room each (the hub's service on the club's Mosquitto, its tables'
tablets simulated by tenace.sim), each club's ``sim-link`` relaying its hub's results through
its Mosquitto bridged to the organiser's (issue 28: "a simulated room in each club"). North's
director gives an artificial score (Law 12C2(a)) on a board a table did not play, then, while
north's line to the organiser is cut, withdraws it (``ruling_undo``): once the line is back
the organiser's field is the offline scoring of the lines the two hubs score, the ruling's
line gone from the field, from the board's field results at north and from ``field.xml``;
nothing of the rooms but the event's topics reached the organiser's broker.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bridgecore.adjusted import BoardResult
from bridgecore.cards import Seat
from bridgecore.ranking import ScoringOptions, score_event
from bridgecore.results_io import parse_adjustment
from bridgecore.usebio import read_usebio
from bridgecore.vulnerability import Vulnerability
from hub.accounts import SIM_BRIDGE, SIM_LINK, mosquitto_hash
from hub.mosquitto import Mosquitto
from hub.service import Hub, HubRunner, data_log
from hub.simultaneous import Club, SimEvent
from hub.simultaneous.bridging import bridge_stanza, organiser_listener, write_organiser_files
from hub.simultaneous.club import ClubLink
from hub.simultaneous.ecats import field_file
from hub.simultaneous.event import generate_key, load_public_key, public_pem
from hub.simultaneous.field import field_pair
from hub.simultaneous.organiser import Organiser
from hub.simultaneous.relay import ClubRelay
from tenace.sim.driver import run_tables
from tests.hub.simultaneous.helpers import Relay, scored
from tests.hub.test_live_scoring import ROUND_ROBIN, board_script
from tests.hub.test_service import MitchellSetup, loader
from tests.hub.test_table import DEALS
from wire.mqtt import MqttClient

T0 = datetime(2026, 4, 12, 18, 0, tzinfo=UTC)
AUDIT = "audit-secret-0123456789"
BOARDS = (1, 2)     # ROUND_ROBIN: each played at the three tables of the Mitchell
SKIPPED = (3, "A2", 1)   # north's A2 does not play board 1 in round 3


def _event() -> SimEvent:
    """The hubs' own deals (tests.hub.test_table), as the organiser's."""
    pbn = "\n".join(f'[Board "{n}"]\n[Dealer "{Seat.dealer_of(n).letter}"]\n'
                    f'[Vulnerable "{Vulnerability.of_board(n).value}"]\n'
                    f'[Deal "{DEALS[n].pbn()}"]\n' for n in BOARDS)
    return SimEvent("sim-rooms", pbn, (Club("north", T0, 3), Club("south", T0, 3)))



class _Stopping:
    """A running hub, stopped (its thread joined) with the test's other things."""

    def __init__(self, runner: HubRunner):
        self.runner = runner

    def close(self) -> None:
        self.runner.__exit__(None, None, None)


def _play(hub: Hub, url: str, club: str) -> None:
    """The club's room plays ROUND_ROBIN (north without SKIPPED), a fresh tablet a round."""
    for round_ in (1, 2, 3):
        assert hub.call(lambda r=round_: hub.director({"op": "round_start",
                                                       "round": r}))["ok"]
        plays = [p for p in ROUND_ROBIN if p[0] == round_
                 and not (club == "north" and p[:3] == SKIPPED)]
        script = [e for _, table, board, contract, tricks in plays
                  for e in board_script(hub.room, table, round_, board, contract, tricks,
                                        time.time(), device=f"{table}-tab.r{round_}")]
        run_tables(url, {plays[0][1]: script})


def _lines(hubs: dict[str, Hub]) -> list[BoardResult]:
    """Every line the hubs score now (their travellers), as the field names the pairs."""
    out = []
    for club, hub in hubs.items():
        for board in BOARDS:
            traveller = hub.call(
                lambda h=hub, b=board: h.room.scoring.section("A").traveller_json(b))
            for r in traveller["results"]:
                if r["not_scored"]:
                    continue
                adjustment = parse_adjustment(r["adjustment"]) if r["adjustment"] else None
                score = r["score_ns"] if adjustment is None else getattr(
                    adjustment, "score_ns", None)
                out.append(BoardResult(board, field_pair(club, r["NS"]),
                                       field_pair(club, r["EW"]), score, adjustment))
    return out


def test_two_club_rooms_a_ruling_withdrawn_while_cut_off_law_12c(
        tmp_path: Path, closing: list[object], keyring: Any) -> None:
    keyring.issue_all({SIM_LINK: "sim-link", SIM_BRIDGE: "sim-link",
                       **{f"{t}-tab.r{r}": None for t in ("A1", "A2", "A3") for r in (1, 2, 3)}})
    event = _event()
    files = write_organiser_files(event, tmp_path / "organiser")
    audit_acl, audit_passwd = tmp_path / "organiser" / "sim.acl", \
        tmp_path / "organiser" / "sim.passwd"     # an account that reads everything
    audit_acl.write_text(audit_acl.read_text() + "user audit\ntopic read #\n")
    audit_passwd.write_text(audit_passwd.read_text() + f"audit:{mosquitto_hash(AUDIT)}\n")
    org = Mosquitto(tmp_path / "organiser" / "broker", open_access=True,
                    listener_extra=organiser_listener(files))
    closing.append(org)
    audited: list[str] = []
    audit = MqttClient(org.url.replace("mqtt://", f"mqtt://audit:{AUDIT}@"), "audit",
                       clean_session=True, on_message=lambda m: audited.append(m.topic))
    closing.append(audit)
    audit.wait_connected()
    audit.subscribe("#")
    key = generate_key()
    written: list[bytes] = []
    organiser = Organiser(event, org.url.replace(
        "mqtt://", f"mqtt://organiser:{files.passwords['organiser']}@"), key, now=lambda: T0,
        on_scored=lambda f: written.append(field_file(f)))
    closing.append(organiser)
    organiser.start()
    relays: dict[str, Relay] = {}
    links: dict[str, ClubLink] = {}
    hubs: dict[str, Hub] = {}
    for club in ("north", "south"):
        relays[club] = Relay(org.port)
        closing.append(relays[club])
        stanza = bridge_stanza(event, club, files.passwords[club], host="127.0.0.1",
                               port=relays[club].port, ca_file=None,
                               local_password=keyring.passwords[SIM_BRIDGE])
        broker = Mosquitto(tmp_path / club / "broker", tuple(stanza.strip().splitlines()),
                           accounts=keyring.accounts)
        closing.append(broker)
        links[club] = ClubLink(event.id, club, broker.url, load_public_key(public_pem(key)),
                               client_id=SIM_LINK).start()
        closing.append(links[club])
        closing.append(ClubRelay(links[club], 3).start())
        hub = Hub(data_log(tmp_path / club / "data"), url=broker.url, setup=MitchellSetup(),
                  setup_loader=loader, tick_seconds=0.2)
        runner = HubRunner(hub)
        runner.__enter__()
        closing.append(_Stopping(runner))
        hubs[club] = hub
        assert links[club].wait_for(lambda link: link.deals is not None, 60), \
            f"{club}: no deals through the bridge"
        _play(hub, broker.url, club)
    north = hubs["north"]
    ruling = north.call(lambda: north.director({
        "op": "ruling", "kind": "artificial", "table": "A2", "board": 1, "ns": "A+",
        "ew": "A-"}))
    assert ruling["ok"], ruling
    assert organiser.wait_for(lambda f: scored(f) == 12
                              and f.finished_boards("north") == BOARDS
                              and f.finished_boards("south") == BOARDS, 90), \
        f"{len(organiser.field.results)} results at the organiser"
    offline = score_event(_lines(hubs), options=ScoringOptions(expected=6))
    assert organiser.field.score is not None
    assert organiser.field.score.ranking == offline.ranking
    assert links["north"].wait_for(lambda link: any(
        r.get("adjustment") == "A+ A-" for r in link.field.get(1, {}).get("results", ())), 60)

    # North's line cut; its director withdraws the ruling; the line back.
    relays["north"].cut()
    undone = north.call(lambda: north.director({"op": "ruling_undo", "id": ruling["ruling"]}))
    assert undone["ok"], undone
    assert len(_lines(hubs)) == 11
    time.sleep(0.5)     # the relay has sent the withdrawal into north's broker by now, or soon
    assert ("north", "A2-3-1") in organiser.field.results
    relays["north"].restore()
    assert organiser.wait_for(lambda f: scored(f) == 11
                              and f.finished_boards("north") == BOARDS, 90), \
        "the withdrawal never reached the organiser"
    offline = score_event(_lines(hubs), options=ScoringOptions(expected=6))
    assert organiser.field.score is not None
    assert organiser.field.score.ranking == offline.ranking
    assert organiser.field.withdrawn == {("north", "A2-3-1")}
    assert links["north"].wait_for(
        lambda link: len(link.field.get(1, {}).get("results", ())) == 5, 60)
    assert not any(r.get("adjustment") for r in links["north"].field[1]["results"])
    organiser.close()
    rows = read_usebio(written[-1]).rows
    assert len(rows) == 11 and all(r.result.adjustment is None for r in rows)
    # Of the two rooms (hands, auctions, play on the clubs' brokers) only the event's topics
    # reached the organiser's broker.
    assert any(name.endswith("/north/result") for name in audited)
    assert all(name.startswith(f"tenace/sim/v1/{event.id}/") for name in audited), \
        sorted(set(audited))
