"""Director alerts (hub/alerts.py): raised once, updated as new versions of the same id, and
taken through open -> acknowledged -> ruled -> resolved with the director's times (Laws 9,
10, 81: the system detects, the director rules)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bridgecore.irregularity import Rectification
from hub.alerts import Alert, AlertBook, AlertStatus
from hub.errors import AlertError, HubError
from wire.protocol import topic_alert


def revoke(book: AlertBook, t: float = 100.0, **facts: Any) -> Alert | None:
    return book.raise_alert(
        "t1:r1:b7:revoke:E:2", kind="revoke", law=facts.pop("law", "61"), table="t1", round=1,
        board=7, detected=t, seats=["E"], trick=2, occurred=t - 0.5,
        detail="E played H9 on a spade lead", facts={"established": False, **facts},
        evidence={"play": [["W", "S2"]]},
        options=[Rectification("62A", "correct the revoke", "director")])


def test_ids_are_stable_and_valid_topic_ids() -> None:
    book = AlertBook()
    first = revoke(book)
    assert first is not None and first.id == "t1-7-revoke-1" and first.version == 1
    other = book.raise_alert("t1:r1:b7:revoke:S:5", kind="revoke", law="61", table="t1",
                             round=1, board=7, detected=101.0)
    assert other is not None and other.id == "t1-7-revoke-2"
    assert topic_alert(first.id).endswith("/director/alert/t1-7-revoke-1")


def test_the_same_irregularity_is_raised_once() -> None:
    book = AlertBook()
    assert revoke(book) is not None
    assert revoke(book, t=150.0) is None          # same finding: nothing new to publish
    assert len(book) == 1


def test_law_63_revoke_established_is_a_new_version_of_the_same_alert() -> None:
    book = AlertBook()
    first = revoke(book)
    assert first is not None
    book.acknowledge(first.id, 120.0)
    update = revoke(book, t=130.0, law="64A1", established=True, transfer=1)
    assert update is not None and update.id == first.id and update.version == 3
    assert update.facts == {"established": True, "transfer": 1} and update.law == "64A1"
    assert update.detected == 100.0 and update.updated == 130.0
    assert update.status is AlertStatus.ACKNOWLEDGED and update.acknowledged_at == 120.0
    assert book[first.id] == update


def test_director_steps_record_their_times() -> None:
    book = AlertBook()
    alert = revoke(book)
    assert alert is not None
    seen = book.acknowledge(alert.id, 110.0)
    assert (seen.status, seen.acknowledged_at, seen.version) == (AlertStatus.ACKNOWLEDGED,
                                                                  110.0, 2)
    ruled = book.rule(alert.id, 200.0, "one trick transferred (64A1)",
                      {"ns": 420, "type": "assigned"})
    assert ruled.ruling == {"text": "one trick transferred (64A1)",
                            "score": {"ns": 420, "type": "assigned"}}
    assert ruled.ruled_at == 200.0 and ruled.acknowledged_at == 110.0
    done = book.resolve(alert.id, 300.0)
    assert done.status is AlertStatus.RESOLVED and done.resolved_at == 300.0
    assert not done.is_open and book.open() == []


def test_ruling_without_acknowledgement_acknowledges() -> None:
    book = AlertBook()
    alert = revoke(book)
    assert alert is not None
    ruled = book.rule(alert.id, 50.0, "no transfer: 64B4")
    assert ruled.acknowledged_at == 50.0
    dismissed = AlertBook()
    a2 = revoke(dismissed)
    assert a2 is not None
    closed = dismissed.resolve(a2.id, 60.0, "false alarm: the reader misread a card")
    assert closed.ruling == {"text": "false alarm: the reader misread a card"}


def test_steps_out_of_order_and_unknown_alerts_are_errors() -> None:
    book = AlertBook()
    alert = revoke(book)
    assert alert is not None
    book.resolve(alert.id, 10.0)
    with pytest.raises(AlertError, match="resolved"):
        book.acknowledge(alert.id, 11.0)
    with pytest.raises(AlertError, match="no alert"):
        book.rule("nope", 1.0, "text")
    with pytest.raises(AlertError, match="needs a text"):
        book.rule(alert.id, 1.0, " ")
    with pytest.raises(AlertError, match="unknown alert kind"):
        book.raise_alert("k", kind="sneeze", law="", table="t1", round=1, board=1,
                         detected=0.0)
    assert issubclass(AlertError, HubError) and issubclass(AlertError, ValueError)


def test_open_alerts_by_table_in_order() -> None:
    book = AlertBook()
    for table, key in (("t1", "a"), ("t2", "b"), ("t1", "c")):
        book.raise_alert(key, kind="director_call", law="9B1", table=table, round=1,
                         board=None, detected=1.0)
    assert [a.id for a in book.open()] == ["t1-0-director_call-1", "t2-0-director_call-1",
                                           "t1-0-director_call-2"]
    assert [a.id for a in book.of_table("t1")] == ["t1-0-director_call-1",
                                                   "t1-0-director_call-2"]
    assert book.key_of("b") is not None and book.key_of("zz") is None
    # A table's alerts are its own, each at its latest version (kept by table: issue 27).
    first = book.key_of("a")
    assert first is not None
    book.rule(first.id, 2.0, "no damage")
    book.raise_alert("c", kind="director_call", law="9B1", table="t1", round=1, board=None,
                     detected=3.0, detail="called again")
    t1 = book.of_table("t1")
    assert [a.version for a in t1] == [book[a.id].version for a in t1] == [2, 2]
    assert t1[0].ruling == {"text": "no damage"}
    assert [a.id for a in book.of_table("t2")] == ["t2-0-director_call-1"]
    assert book.of_table("t3") == []


def test_json_round_trip_and_lazy_evidence() -> None:
    book = AlertBook()
    calls = []

    def evidence() -> dict[str, Any]:
        calls.append(1)
        return {"auction": [["N", "1S"], ["E", "1H"]]}

    kw: dict[str, Any] = dict(kind="insufficient_bid", law="27", table="t3", round=2, board=4,
                              detected=5.0, call=2, facts={"lowest_sufficient": "2H"},
                              evidence=evidence)
    alert = book.raise_alert("k", **kw)
    assert alert is not None and book.raise_alert("k", **kw) is None
    assert calls == [1]                       # evidence built only for a new version
    data = json.loads(json.dumps(alert.to_json()))
    assert Alert.from_json(data) == alert
    assert data["facts"]["lowest_sufficient"] == "2H" and data["status"] == "open"
    with pytest.raises(AlertError):
        Alert.from_json({"id": "x"})


def test_one_fact_from_another_check_is_a_new_version_with_more_evidence() -> None:
    """One fact, one alert: the same finding reported by a second check adds a version and
    its name to ``evidence["found_by"]``; the same check again changes nothing."""
    book = AlertBook()
    kw: dict[str, Any] = dict(kind="wrong_card_count", law="13", table="t1", round=1, board=3,
                              detected=1.0, seats=["N"], facts={"count": 14})
    first = book.raise_alert("t1:r1:b3:wrong_card_count:N", source="pocket N", **kw)
    assert first is not None and first.evidence == {"found_by": ["pocket N"]}
    assert book.raise_alert("t1:r1:b3:wrong_card_count:N", source="pocket N", **kw) is None
    again = book.raise_alert("t1:r1:b3:wrong_card_count:N", source="four pockets",
                             **dict(kw, detected=4.0, evidence={"hands_read": 4}))
    assert again is not None and again.id == first.id and again.version == 2
    assert again.evidence == {"hands_read": 4, "found_by": ["pocket N", "four pockets"]}
    assert again.detected == 1.0 and again.updated == 4.0 and len(book) == 1


@pytest.mark.parametrize("decided", ["rule", "resolve"])
def test_a_new_finding_after_the_directors_decision_reopens_the_alert(decided: str) -> None:
    """Laws 63-64 after a ruling: the revoke, ruled on (or dismissed) before it was
    established, becomes established: the alert is open again (acknowledged), his earlier
    ruling kept for the record, for him to confirm or change it."""
    book = AlertBook()
    first = revoke(book)
    assert first is not None
    book.acknowledge(first.id, 110.0)
    if decided == "rule":
        book.rule(first.id, 120.0, "correct the revoke (62A)")
    else:
        book.resolve(first.id, 120.0, "corrected at the table")
    update = revoke(book, t=130.0, law="64A1", established=True, transfer=1)
    assert update is not None and update.status is AlertStatus.ACKNOWLEDGED and update.is_open
    assert update.acknowledged_at == 110.0 and update.resolved_at is None
    assert update.ruling is not None and update.ruling["text"]
    assert book.open() == [update]
    assert book.rule(first.id, 140.0, "one trick transferred (64A1)").status \
        is AlertStatus.RULED


def test_more_evidence_under_the_same_law_leaves_a_closed_alert_closed() -> None:
    """A late table (Law 8) resolved by the director, then one board fewer to play: a new
    version, still resolved."""
    book = AlertBook()
    kw: dict[str, Any] = dict(kind="late_table", law="8", table="t1", round=1, board=None,
                              detected=1.0, facts={"unfinished": [3, 4]})
    first = book.raise_alert("t1:r1:late", **kw)
    assert first is not None
    book.resolve(first.id, 2.0, "the table plays on")
    update = book.raise_alert("t1:r1:late", **dict(kw, detected=3.0,
                                                  facts={"unfinished": [4]}))
    assert update is not None and update.version == 3
    assert update.status is AlertStatus.RESOLVED and update.resolved_at == 2.0


def test_an_open_alert_stays_open_when_updated() -> None:
    book = AlertBook()
    assert revoke(book) is not None
    update = revoke(book, t=130.0, law="64A1", established=True, transfer=1)
    assert update is not None and update.status is AlertStatus.OPEN
    assert update.acknowledged_at is None
