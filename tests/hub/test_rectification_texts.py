"""The Laws' rectification options in the reader's language (docs/translating.md, "What the
hub writes"; docs/protocol.md section 13, an alert's ``options``).

Every option bridgecore or the hub gives (``Rectification.of``: a ``rect.*`` key, its English
template, its values) has its key in the English console catalog with the same words and the
same fields, and every option each function can produce (editions x kinds x seats x what
happened before) carries its text, which renders in each of the seven languages with every
field filled and, in French and Italian, no English word left. Named laws (27A1, 27B1(a),
28B, 29B, 31B, 39C, 53A, 62B) are checked against the sentence a French and an Italian
director read, and the tablet (which shows the table the option the director chose, docs/
protocol.md 11.1) has every key with the same fields and says it as the console does. An
option of an older log (English words only) still finds its catalog key
when it names no seat (hub.console_i18n.option_text)."""

from __future__ import annotations

import ast
import itertools
import re
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from bridgecore import claims, play, revoke
from bridgecore.auction_rules import (
    above_seven_options,
    after_final_pass_options,
    breach_options,
    change_of_call_options,
    inadmissible_options,
    insufficient_bid_options,
    out_of_rotation_options,
    retention_options,
)
from bridgecore.calls import Call, CallKind
from bridgecore.cards import Seat
from bridgecore.editions import EDITIONS
from bridgecore.irregularity import Rectification
from hub import alerts, dealing
from hub.console_i18n import CATALOGS, option_text
from hub.texts import render
from tablet.i18n import CATALOGS as TABLET
from tablet.i18n import Translator
from tests.bridgecore.test_play import run, three_nt
from wire.catalogs import fields

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("en", "fr", "it", "de", "nl", "es", "pl")
# Words of an English sentence that no French or Italian option may keep.
ENGLISH = {"may", "must", "the", "call", "calls", "his", "otherwise", "throughout", "turn",
           "cancelled", "auction", "bid", "lead", "declarer", "director", "partner", "without",
           "which", "when", "if", "and", "of", "no", "any", "legal", "pass", "passes", "card"}
KINDS = (CallKind.PASS, CallKind.BID, CallKind.DOUBLE, CallKind.REDOUBLE)


def _made() -> Iterator[tuple[str, str, str, set[str] | None]]:
    """(where, key, English template, value names) of every ``Rectification.of`` (or
    auction_rules' ``_R``) in bridgecore and the hub, read from the source."""
    sources = [*sorted((ROOT / "bridgecore").glob("*.py")), *sorted((ROOT / "hub").rglob("*.py"))]
    for path in sources:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or ast.unparse(node.func) not in (
                    "Rectification.of", "_R"):
                continue
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            key, english = node.args[1], node.args[2]
            assert isinstance(key, ast.Constant) and isinstance(english, ast.Constant), (
                f"{where}: the key and its English words are written literally at the call")
            names = {k.arg for k in node.keywords if k.arg is not None}
            spread = any(k.arg is None for k in node.keywords)
            yield where, str(key.value), str(english.value), None if spread else names


def _constants(module: ModuleType) -> Iterator[Rectification]:
    """The options a module keeps as values (a Rectification, a tuple of them, a dict of
    tuples)."""
    for value in vars(module).values():
        items = value.values() if isinstance(value, dict) else [value]
        for item in items:
            group = item if isinstance(item, tuple) else (item,)
            yield from (o for o in group if isinstance(o, Rectification))


def every_option() -> Iterator[tuple[str, Rectification]]:
    """Every option each function can give: each edition, call kind, offender, player in
    turn and what happened before; and the options kept as values."""
    seats = list(Seat)
    lowest = (None, Call.parse("2H"), Call.parse("7NT"))
    for (name, ed), x in itertools.product(EDITIONS.items(), seats):
        where = f"{name} {x}"
        for kind, turn, any_bid, before in itertools.product(
                KINDS, seats, (False, True), (False, True)):
            if turn is not x:
                for o in out_of_rotation_options(ed, kind, x, turn, any_bid, before):
                    yield f"{where} {kind} at {turn}'s turn", o
        for low in lowest:
            yield from ((f"{where} insufficient {low}", o)
                        for o in insufficient_bid_options(ed, x, low))
        for kind, turn in itertools.product((CallKind.DOUBLE, CallKind.REDOUBLE),
                                            (None, *seats)):
            yield from ((f"{where} inadmissible {kind}", o)
                        for o in inadmissible_options(ed, kind, x, turn))
        yield from ((f"{where} 37", o) for o in breach_options(ed, x))
        yield from ((f"{where} 38", o) for o in above_seven_options(ed, x))
        for kind, declarer in itertools.product(KINDS, (None, *seats)):
            yield from ((f"{where} 39", o)
                        for o in after_final_pass_options(ed, kind, x, declarer))
        for original, after in itertools.product((Call.parse("1NT"), Call.parse("Pass")),
                                                 (False, True)):
            yield from ((f"{where} 25", o)
                        for o in change_of_call_options(ed, x, original, after))
        for first, last in ((3, 3), (2, 4)):
            yield from ((f"{where} retention", o) for o in retention_options(ed, x, first, last))
    for year in EDITIONS:            # a card played twice (67B3): its law is the edition's
        played = three_nt(year=year)
        run(played, "W:H5 N:HQ E:HJ S:H2")
        for found in run(played, "N:S5 E:H5"):
            yield from ((f"{year} 67", o) for o in found.options)
    for module in (play, revoke, claims, alerts, dealing):
        yield from ((module.__name__, o) for o in _constants(module))


OPTIONS = list(every_option())


def test_every_option_made_has_its_key_in_the_english_catalog_with_its_words() -> None:
    made = list(_made())
    assert len(made) > 100
    english = CATALOGS.source
    problems = []
    for where, key, words, names in made:
        if english.get(key) != words:
            problems.append(f"{where}: {key}: the English catalog says {english.get(key)!r}")
        elif names is None or fields(words) != names:
            problems.append(f"{where}: {key} needs {sorted(fields(words))}, the call gives "
                            f"{names}")
    assert problems == []
    # No option is made without its text (a Rectification written as a sentence alone).
    bare = [f"{path.relative_to(ROOT)}:{node.lineno}"
            for path in [*(ROOT / "bridgecore").glob("*.py"), *(ROOT / "hub").rglob("*.py")]
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.Call) and ast.unparse(node.func) == "Rectification"
            and path.name != "irregularity.py"]
    assert bare == []


def test_every_option_each_function_gives_is_said_with_the_fields_of_its_key() -> None:
    assert len(OPTIONS) > 3000
    keys = set()
    for where, option in OPTIONS:
        assert option.say is not None, where
        keys.add(option.say.key)
        template = CATALOGS.source[option.say.key]
        assert set(option.say.fields) == fields(template), (where, option.say)
        # the English words are the English catalog's, the values in their protocol form
        assert option.text == template.format(**option.say.fields), where
        assert option.to_json()["say"] == option.say.to_json()
    # every key the auction's functions are written with is reached by the enumeration
    written = {key for where, key, _, _ in _made() if "auction_rules" in where}
    assert written - keys == set()


@pytest.mark.parametrize("language", LANGUAGES[1:])
def test_every_option_renders_in_the_language_with_no_english_left(language: str) -> None:
    seen: dict[str, str] = {}
    for where, option in OPTIONS:
        assert option.say is not None
        said = render(option.say, language)
        seen[option.say.key] = said
        assert "{" not in said and "rect." not in said, (where, said)
        assert said != option.text, (where, said)
        if language in ("fr", "it"):
            words = set(re.findall(r"[a-z]+", said.lower()))
            assert words & ENGLISH == set(), (where, said)
    assert len(seen) == len({k for k in CATALOGS.source if k.startswith("rect.")})


def _said(options: tuple[Rectification, ...], law: str, language: str) -> list[str]:
    return [render(o.say, language) for o in options if o.law == law and o.say is not None]


def test_law_27_the_insufficient_bid_in_french_and_italian() -> None:
    options = insufficient_bid_options(EDITIONS["2017"], Seat.WEST, Call.parse("2H"))
    assert _said(options, "27A1", "fr") == [
        "Nord peut accepter l'enchère insuffisante en déclarant ; elle est alors considérée "
        "comme légale"]
    assert _said(options, "27A1", "it") == [
        "Nord può accettare la dichiarazione insufficiente chiamando; è allora trattata come "
        "legale"]
    assert _said(options, "27B1(a)", "fr") == [
        "remplacée par 2\u2665, l'enchère suffisante la moins forte spécifiant la ou les mêmes "
        "dénominations (elle peut être artificielle) : pas de rectification (voir 27D)"]
    assert _said(options, "27B2", "it") == [
        "sostituita da qualsiasi altra dichiarazione sufficiente o da un passo: Est deve "
        "passare per il resto della licitazione (possono applicarsi le Leggi 26 e 72C)"]


def test_laws_28_29_31_a_bid_out_of_rotation_in_french_and_italian() -> None:
    at_rho = out_of_rotation_options(EDITIONS["2017"], CallKind.BID, Seat.SOUTH, Seat.EAST,
                                     True, False)
    assert _said(at_rho, "29A", "fr") == [
        "Ouest peut accepter la déclaration en déclarant ; les annonces continuent à partir "
        "d'elle sans rectification"]
    assert _said(at_rho, "28B", "fr") == [
        "si Est, dont c'était le tour, déclare le premier, sa déclaration est maintenue et la "
        "déclaration hors tour est annulée (Loi 16D2)"]
    assert _said(at_rho, "29B", "fr") == [
        "sinon la déclaration est annulée et la parole revient à Est"]
    assert _said(at_rho, "29B", "it") == [
        "altrimenti la chiamata è annullata e il turno torna a Est"]
    at_partner = out_of_rotation_options(EDITIONS["2017"], CallKind.BID, Seat.EAST, Seat.WEST,
                                         True, False)
    assert _said(at_partner, "31B", "fr") == [
        "Ouest peut faire n'importe quelle déclaration légale à son tour (Loi 16C2) ; Est "
        "déclare à son tour : si sa déclaration est comparable (Loi 23), pas de rectification ; "
        "sinon Ouest doit passer à son prochain tour de parole (la Loi 26 peut être appliquée)"]
    old = out_of_rotation_options(EDITIONS["1997"], CallKind.BID, Seat.EAST, Seat.WEST,
                                  True, False)
    assert _said(old, "31B", "it") == [
        "Ovest deve passare per il resto della licitazione; Est può fare qualsiasi chiamata "
        "legale al suo turno (possono applicarsi le Leggi 26 e 23)"]


def test_law_39_and_the_play_and_revoke_options_in_french_and_italian() -> None:
    after = after_final_pass_options(EDITIONS["2017"], CallKind.BID, Seat.NORTH, Seat.EAST)
    assert _said(after, "39C", "fr") == [
        "sinon les restrictions d'attaque de la Loi 26 peuvent s'appliquer quand Sud entame"]
    assert _said(after, "39C", "it") == [
        "altrimenti le restrizioni d'attacco della Legge 26 possono applicarsi all'attacco di "
        "Sud"]
    assert _said(play._DEFENDER_LEAD, "53A", "fr") == ["accepter l'entame"]
    assert _said(play._DEFENDER_LEAD, "53A", "it") == ["accettare l'attacco"]
    assert _said((revoke._CORRECT,), "62B", "fr") == [
        "reprendre la carte de la renonce et la remplacer par une carte légale (la carte non "
        "exposée d'un flanc devient une carte pénalisée majeure)"]


def test_an_older_logs_option_finds_its_key_by_its_english_words() -> None:
    """Options stored before options carried their text: a fixed sentence is found in the
    catalog; one with a seat in it stays English (no key ever had it)."""
    assert option_text({"law": "53A", "text": "accept the lead", "chooser": "declarer"}) == {
        "key": "rect.defender_lead_accept", "values": {}}
    assert option_text({"law": "27A1", "text": "N may accept the insufficient bid by "
                        "calling; it is then treated as legal"}) is None
    stored = insufficient_bid_options(EDITIONS["2017"], Seat.WEST, None)[0].to_json()
    assert option_text(stored) == stored["say"] == {
        "key": "rect.accept_insufficient", "values": {"lho_seat": "N"}}


def test_the_tablet_has_every_option_and_says_it_as_the_console_does() -> None:
    console = {k: v for k, v in CATALOGS.source.items() if k.startswith("rect.")}
    assert {k: fields(v) for k, v in TABLET.source.items() if k.startswith("rect.")} == {
        k: fields(v) for k, v in console.items()}
    for language in ("fr", "it", "pl"):
        tr = Translator(language)
        for where, option in OPTIONS[::7]:
            assert option.say is not None
            assert tr.text(option.say) == render(option.say, language), where
