"""Questions and explanations on the tablets (tablet/presenters/explain.py, protocol 7.13,
7.14): an opponent asks from his tablet, the alerting side answers on theirs, and the
explanation shows in the opponents' auction records, never partner's (Law 16, Law 20F)."""

from __future__ import annotations

from tests.tablet.tables import Table


def shown(t: Table, seat: str | None) -> dict[str, str | None]:
    return {c.call: c.explanation for c in t[seat].auction.cells}


def test_east_asks_south_answers_and_north_never_sees_it_law_16_20f() -> None:
    t = Table(["N", "E", "S", "W", None]).seated()
    t.ok(t["N"], t["N"].auction.call("1C"))
    east = t["E"].explain
    assert [a.call for a in east.askable] == [1]
    assert t["N"].explain.askable == [] and t["S"].explain.askable == []   # own side
    t.ok(t["E"], east.ask(1))
    assert east.askable == []                      # asked already
    south = t["S"].explain
    assert [q.text for q in south.questions] == ["East asks what 1♣ by North means"]
    assert t["N"].explain.questions == []          # partner explains (EBU, no screens)
    t.ok(t["S"], south.explain(1, "precision, 16+"))
    assert south.questions == []
    assert shown(t, "E")["1C"] == shown(t, "W")["1C"] == "precision, 16+"
    assert shown(t, "N")["1C"] is None             # Law 16: never the caller's partner's...
    assert shown(t, "S")["1C"] == "precision, 16+"  # ...explanation, but his own text
    assert shown(t, None)["1C"] == "for East-West: precision, 16+"   # the table tablet


def test_the_table_tablet_asks_for_lho_and_answers_for_the_explainer() -> None:
    t = Table([None], language="fr").seated()
    tab = t[None]
    t.ok(tab, tab.auction.call("1NT"))
    ask = tab.explain.askable[0]
    assert (ask.call, ask.by) == (1, "E")
    t.ok(tab, tab.explain.ask(1))
    question = tab.explain.questions[0]
    assert question.seat == "S" and "Est" in question.text
    t.ok(tab, tab.explain.explain(1, "15-17"))
    assert shown(t, None)["1NT"] == "pour Est-Ouest : 15-17"


def test_with_screens_the_callers_own_explanation_goes_to_the_opponents_only() -> None:
    t = Table(["N", "E", "S", "W"], alerting="screens").seated()
    t["N"].auction.set_alert(True, "16+ any shape")
    t.ok(t["N"], t["N"].auction.call("1C"))
    assert shown(t, "E")["1C"] == shown(t, "W")["1C"] == shown(t, "N")["1C"] == "16+ any shape"
    assert shown(t, "S")["1C"] is None
