"""What the hub writes for a person is a catalog key with its values, end to end (docs/
protocol.md section 1 "Texts", docs/translating.md): an alert's finding, a refusal sent to a
device, the reason of a device acting beyond its role. Every key the hub makes exists in the
English console catalog with the fields the call gives; every refusal's key is in the
tablet's catalog too (the tablet renders it); no English sentence is built at a call site;
and what a table's irregularities raise renders in French, Italian and the pseudo-locale
with nothing left untranslated."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bridgecore.adjusted import SCORE_PROBLEMS, ArtificialScore, ScoreProblem, Weighted
from bridgecore.errors import RuleError
from bridgecore.irregularity import Kind
from bridgecore.movement_files import read_asc, read_individual_asc
from bridgecore.movements import MOVEMENT_PROBLEMS, howell, mitchell, teams
from bridgecore.text import PLAIN, Text
from hub.alerts import Alert
from hub.console_i18n import CATALOGS
from hub.texts import render
from tablet.i18n import CATALOGS as TABLET
from tablet.i18n import Translator
from tests.hub.test_table import Driver, make_room
from wire.catalogs import fields

ROOT = Path(__file__).resolve().parents[2]
HUB = ROOT / "hub"
# Refusal codes a player reads (the tablet shows the reason): their reasons must be keys.
HUMAN_CODES = {"wrong_state", "not_your_turn", "not_your_seat", "not_your_role",
               "illegal_call", "illegal_play", "NOT_YOUR_SEAT", "NOT_YOUR_ROLE"}


def _sources() -> Iterator[tuple[Path, ast.Module]]:
    """The hub's modules and bridgecore's (a refused call or card says why as a message)."""
    for path in [*sorted(HUB.rglob("*.py")), *sorted((ROOT / "bridgecore").glob("*.py"))]:
        yield path, ast.parse(path.read_text(encoding="utf-8"), str(path))


def _text_calls() -> Iterator[tuple[str, str, set[str] | None]]:
    """(where, key, keyword names or None when ``**values`` is passed) of every
    ``Text.of("key", ...)`` in the hub."""
    for path, tree in _sources():
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "of" and isinstance(node.func.value, ast.Name)
                    and node.func.value.id in ("Text", "ScoreProblem")):
                # ScoreProblem.of(board, "score.key", ...): bridgecore's scoring problems
                problem = node.func.value.id == "ScoreProblem"
                first = node.args[1 if problem else 0] if len(node.args) > problem else None
                if (isinstance(first, ast.JoinedStr) and path.name == "alerts.py"
                        and ast.unparse(first) == "f'irr.{irr.kind.value}'"):
                    continue   # hub.alerts.finding: every kind's key, checked below
                if (isinstance(first, ast.Name) and path.name == "adjusted.py"
                        and first.id == "key"):
                    continue   # ScoreProblem.of itself: its callers' keys are checked
                if (isinstance(first, ast.Name) and path.name == "irregularity.py"
                        and first.id == "key"):
                    continue   # Rectification.of: each option's key is written literally at
                    # its own call, checked there (tests/hub/test_rectification_texts.py)
                assert isinstance(first, ast.Constant) and isinstance(first.value, str), (
                    f"{path.relative_to(ROOT)}:{node.lineno}: a text's key must be written "
                    "literally at the call (a key built at run time cannot be checked)")
                names = {k.arg for k in node.keywords if k.arg is not None}
                spread = any(k.arg is None for k in node.keywords)
                yield (f"{path.relative_to(ROOT)}:{node.lineno}", first.value,
                       None if spread else names)


def test_every_key_the_hub_makes_is_in_the_english_catalog_with_its_fields() -> None:
    english = CATALOGS.source
    calls = list(_text_calls())
    assert len(calls) > 100          # the alerts, the refusals, the results: not a few
    problems = []
    for where, key, given in calls:
        if key not in english:
            problems.append(f"{where}: {key} is not in hub/locale/en/.../console.po")
        elif given is not None and not fields(english[key]) <= given:
            problems.append(f"{where}: {key} needs {sorted(fields(english[key]))}, the call "
                            f"gives {sorted(given)}")
    assert problems == []


def test_bridgecores_scoring_problems_are_the_english_catalogs_words() -> None:
    """bridgecore writes a scoring problem's English (``ScoreProblem.message``: ``tenace
    score``, the logs) and a movement's (``Movement.validate``) from its own tables of the
    keys' texts: the English catalog's, word for word, so that the console says in English
    what the command line says."""
    assert len(SCORE_PROBLEMS) > 20 and len(MOVEMENT_PROBLEMS) >= 4
    for key, english in {**SCORE_PROBLEMS, **MOVEMENT_PROBLEMS}.items():
        assert CATALOGS.source.get(key) == english, key
    problem = ScoreProblem.of(4, "score.no_score", ns=1, ew=6)
    assert str(problem) == "board 4: 1 v 6: no score and no adjusted score"
    assert render(problem.as_text(), "en") == str(problem)
    assert render(problem.as_text(), "fr") == "donne 4 : 1 contre 6 : ni marque ni marque ajustée"


def test_every_irregularity_kind_has_its_finding_in_the_catalog() -> None:
    given = {"seat", "index", "trick", "card", "more"}     # hub.alerts.finding
    for kind in Kind:
        text = CATALOGS.source.get(f"irr.{kind.value}")
        assert text is not None, f"irr.{kind.value} missing"
        assert fields(text) <= given and "more" in fields(text), kind


def test_every_refusal_key_is_in_the_tablet_catalog_with_the_same_fields() -> None:
    refusals = {key for _, key, _ in _text_calls() if key.startswith("deny.")}
    assert len(refusals) > 30
    for key in refusals:
        assert key in TABLET.source, f"{key} is not in tablet/locale/en/.../tablet.po"
        assert fields(TABLET.source[key]) == fields(CATALOGS.source[key]), key


def _english_at(node: ast.expr | None) -> bool:
    """A sentence built at the call: an f-string, a non-empty literal, or a concatenation."""
    if isinstance(node, ast.JoinedStr | ast.BinOp):
        return True
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and bool(node.value)


def test_no_alert_detail_or_refusal_reason_is_an_english_sentence() -> None:
    found = []
    for path, tree in _sources():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            for keyword in node.keywords:   # bridgecore's own detail stays in the facts
                if (keyword.arg == "detail" and _english_at(keyword.value)
                        and path.is_relative_to(HUB)):
                    found.append(f"{where}: detail=<English>")
            name = (node.func.attr if isinstance(node.func, ast.Attribute)
                    else node.func.id if isinstance(node.func, ast.Name) else "")
            if name in ("_reject", "_refuse", "reply", "Refusal") and len(node.args) >= 2:
                named = [a.value if isinstance(a, ast.Constant) else
                         a.id if isinstance(a, ast.Name) else None for a in node.args]
                at = next((i for i, x in enumerate(named) if x in HUMAN_CODES), None)
                if at is not None and at + 1 < len(node.args) \
                        and _english_at(node.args[at + 1]):
                    found.append(f"{where}: {name}({named[at]}, <English>)")
    assert found == []


def _keys(text: Text) -> Iterator[Text]:
    yield text
    for _, value in text.values:
        for part in value if isinstance(value, tuple) else (value,):
            if isinstance(part, Text):
                yield from _keys(part)


def _evening() -> tuple[Driver, list[Alert], list[Any]]:
    """A table's evening with irregularities and refusals: an insufficient bid accepted by
    LHO (27A1), a refusal of the wrong seat's choice, a call out of rotation, a lead out of
    turn, a revoke, a director call."""
    d = Driver(make_room())
    d.seat_pairs()
    alerts: list[Alert] = []
    refused: list[Any] = []
    alerts += d.ok("call", "N", seat="N", call="1NT")
    alerts += d.ok("call", "E", seat="E", call="1S")            # insufficient (27)
    (irr,) = d.state.public_state()["irregularities"]
    body = {"irregularity": irr["id"], "choice": "accept"}
    refused.append(d.send("rectify", "E", seat="E", **body).reply)   # not his choice
    alerts += d.ok("rectify", "S", seat="S", **body)
    refused.append(d.send("undo", "W", seat="W").reply)     # no call to take back
    alerts += d.ok("director_call", "tab", seat="W", note="hesitation")
    alerts += d.calls("2S", "Pass", "Pass", "Pass")
    refused.append(d.send("claim", "N", seat="N", tricks=8).reply)    # dummy: 43A1c
    return d, alerts, refused


def test_an_evening_s_alerts_and_refusals_are_keys_rendered_in_each_language() -> None:
    d, raised, refused = _evening()
    every = list(d.room.alerts)
    assert {a.id for a in raised} <= {a.id for a in every}
    assert {a.kind for a in every} >= {"insufficient_bid", "director_call"}
    assert any(a.facts.get("accepted") for a in every)
    for alert in every:
        for part in _keys(alert.text):
            assert part.key != PLAIN and part.key in CATALOGS.source, (alert.id, part)
        for language in ("fr", "it", "en_XA"):
            words = render(alert.text, language)
            assert "{" not in words and "alert." not in words and "irr." not in words
        assert render(alert.text, "fr") != render(alert.text, "en")
    # An alert comes back from its JSON (an older client's form too: detail alone).
    again = Alert.from_json(every[0].to_json())
    assert again.text == every[0].text
    old = {k: v for k, v in every[0].to_json().items() if k != "text"}
    assert Alert.from_json(old).text == Text.plain(every[0].detail)
    assert [(r.status, r.code) for r in refused] == [
        ("reject", "not_your_seat"), ("reject", "wrong_state"), ("reject", "wrong_state")]
    french = Translator("fr")
    for reply in refused:
        assert reply.text is not None and reply.text.key.startswith("deny.")
        assert reply.reason == render(reply.text, "en")
        shown = french.text(reply.text.to_json())
        assert shown and "{" not in shown and shown != reply.reason
    assert french.text(refused[0].text.to_json()) == (
        "le Code donne ce choix à Sud, pas à Est (27A1)")


def test_values_are_written_in_the_reader_s_notation() -> None:
    text = Text.of("deny.call_not_allowed", call="3NT", seat="W")
    assert render(text, "en") == "3NT by West is not allowed now"
    assert render(text, "fr") == "3SA par Ouest n'est pas permis maintenant"
    assert render(text, "it") == "3SA di Ovest non è consentito ora"
    card = Text.of("deny.card_recorded", card="SK", seat="N")
    assert render(card, "fr") == "\u2660R déjà enregistré pour Nord"
    assert Translator("it").text(card.to_json()) == "\u2660R già registrato per Nord"
    late = Text.of("alert.result_unconfirmed", board=3, result=Text.of(
        "result.made", contract_call="4HX", seat="S", tricks=10, score="+590"))
    assert render(late, "it").startswith("board 3: il risultato 4\u2665X da Sud, 10 prese")
    # A tempo mark (bridgecore.tempo.Mark.text) as the console's tempo page says it.
    mark = Text.of("tempo.break_call", seat="W", call="3NT", seconds="12.0", limit="8.5",
                   more=[Text.of("tempo.partner_next_card", n=7)])
    assert render(mark, "fr") == ("Ouest a mis 12.0 s pour 3SA (limite 8.5 s) ; prochaine "
                                  "carte du partenaire : action 7")
    # A result the scorer could not score (Law 15B), as the results page says it.
    problem = Text.of("problem.not_scored", board=4, table="A2", round=3, reason=Text.of(
        "problem.played_before", pair=5, table="A1", round=1))
    assert render(problem, "it") == (       # issue 25: no brackets within brackets
        "board 4, tavolo A2, turno 3 non segnato: la coppia 5 ha già giocato il board, al "
        "tavolo A1 nel turno 1; il secondo punteggio è annullato (Legge 15B)")
    # A text written before texts were keys (an old log's English) is shown as it is.
    assert render(Text.plain("the hub said this"), "fr") == "the hub said this"


# Issue 26: what a director's (or scorer's) command, the set-up page or the console's API
# refuses is a text, worded in the director's language (hub.errors): no English sentence is
# raised in the modules a command reaches.
REFUSING = ["director.py", "late_changes.py", "substitutes.py", "corrections.py", "scoring.py",
            "ruling_values.py", "swiss.py", "alerts.py", "room.py", "console.py"]
HUB_ERRORS = {"HubError", "ConfigError", "AlertError", "RulingError", "CorrectionError"}


def _raised_sentences(path: Path) -> Iterator[str]:
    """Where ``path`` raises a hub error (or a protocol error, an HTTP refusal) with an
    English sentence written at the raise."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Raise) or not isinstance(node.exc, ast.Call):
            continue
        call = node.exc
        name = call.func.id if isinstance(call.func, ast.Name) else ""
        said = (call.args[0] if name in HUB_ERRORS and call.args else
                call.args[1] if name in ("ProtocolError", "HttpError") and len(call.args) > 1
                else None)
        if said is not None and _english_at(said):
            yield f"{path.name}:{node.lineno}: {name}(<English>)"


def test_no_refusal_a_director_reads_is_an_english_sentence() -> None:
    found = [where for name in REFUSING for where in _raised_sentences(HUB / name)]
    assert found == []
    # The set-up page's own problems are texts too (hub.console_setup: {"field", "error"})
    tree = ast.parse((HUB / "console_setup.py").read_text(encoding="utf-8"))
    english = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Dict)
               for key, value in zip(node.keys, node.values, strict=True)
               if isinstance(key, ast.Constant) and key.value == "error" and _english_at(value)]
    assert english == []


def test_the_scan_finds_an_english_refusal(tmp_path: Path) -> None:
    """The scan above is not blind: a raise written the old way is found."""
    old = tmp_path / "old.py"
    old.write_text('def f(op):\n    raise ConfigError(f"{op}: no table")\n'
                   'def g():\n    raise ProtocolError("malformed", "not JSON")\n'
                   'def h(t):\n    raise ConfigError(Text.of("refusal.no_table", table=t))\n',
                   encoding="utf-8")
    assert list(_raised_sentences(old)) == ["old.py:2: ConfigError(<English>)",
                                            "old.py:4: ProtocolError(<English>)"]


@pytest.mark.parametrize(("text", "individual"), [
    ("", False), ("1 2 3\n", False), ("4 2 2 2 1\n1 2 1 3 4 2\n", False),
    ("4 2 2 2 0\n1 2 1 3 4 2\n1 1 1 9 9 9 x\n", False), ("4 0 2 2 0\n", False),
    ("6 2 2 2 0\n1 2 1 3 4 9\n2 3 1 4 1 2\n", False), ("6 2 1 2\n1 2 1 3 4 2\n", False),
    ("8 2 2 2 1\n1 2 3 4 1 5 6 7 8 1\n1 1 2 3 1 5 6 7 8 1\n", True), ("8 2 1 2 0\n", True),
    ("8 2 1 2 1\n1 2 3 4 1 5 6 7 9 1 3\n", True), ("8 2 1 2\n", True)])
def test_a_movement_file_s_problems_say_in_english_what_bridgecore_says(
        text: str, individual: bool) -> None:
    """bridgecore's .ASC reader gives each problem as its words and as a text
    (RecordProblem.text); the English rendering is those words exactly, and each language
    has its own."""
    read = read_individual_asc if individual else read_asc
    _, problems = read(text, file="m.asc")
    assert problems
    for problem in problems:
        assert problem.text is not None, problem
        assert render(problem.text, "en") == problem.message
        assert render(problem.text, "fr") != problem.message


@pytest.mark.parametrize("make", [
    lambda: ArtificialScore.of_percent(55), lambda: Weighted(()),
    lambda: Weighted(((0.5, 420), (0.4, -50))), lambda: Weighted(((0.0, 420), (1.0, -50))),
    lambda: mitchell(1), lambda: mitchell(5, relay=True), lambda: mitchell(5, rounds=9),
    lambda: mitchell(5, arrow_switch=[9]), lambda: howell(9), lambda: teams(1)])
def test_an_adjusted_score_or_a_movement_the_laws_refuse_says_why_as_a_text(
        make: Any) -> None:
    """bridgecore's RuleError (an adjusted score, a movement's size) carries its text: a
    refused ruling or set-up says it in the director's language, in English word for word
    what bridgecore says."""
    with pytest.raises(RuleError) as caught:
        make()
    assert caught.value.text is not None
    assert render(caught.value.text, "en") == str(caught.value)
    assert render(caught.value.text, "it") != str(caught.value)
