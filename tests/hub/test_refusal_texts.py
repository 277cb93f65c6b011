"""A refused director's command is told in the director's language (issue 26): the hub's
errors carry a text (hub.errors: a catalog key and its values), POST /api/director answers
``error`` worded in the user's language and ``error_text`` (the key and values) beside it,
and ``str(err)`` stays English for the log. docs/console-api.md, docs/protocol.md section 17.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from bridgecore.text import Text
from hub.errors import ConfigError, HubError, error_text
from hub.texts import render
from tests.hub.test_console_session import served  # noqa: F401 - the fixture
from tests.hub.test_results_pages import post
from wire.protocol import ProtocolError

# Words that would betray an English sentence left in a French or Italian refusal (whole
# words: a command's own name, round_start, is a value shown as it is).
# The words both languages share with English are left out: a French table, an Italian in.
ENGLISH = {"no", "not", "the", "is", "in", "this", "session", "table", "pair", "board",
           "round", "already", "unknown", "command", "lead", "card", "ruling", "of", "a"}
SHARED = {"fr": {"table", "a"}, "it": {"in", "a", "board"}}

# (command, French, Italian): each refused against the served evening (a Mitchell of six
# tables, boards 1 to 12, section A).
REFUSED = [
    ({"op": "table_mode", "table": "Z9", "strict": True},
     "Changement du mode de la table : pas de table « Z9 » dans cette séance",
     "Cambio della modalità del tavolo: nessun tavolo «Z9» in questa sessione"),
    ({"op": "pair_add", "section": "A", "pair": 99, "names": ["Zoé Roux"]},
     "Ajout d'une paire en retard : pas de paire 99 dans la section A",
     "Aggiunta di una coppia in ritardo: nessuna coppia 99 nella sezione A"),
    ({"op": "round_start", "round": 0},
     "Début du tour : les tours commencent à 1, pas 0",
     "Avvio del turno: i turni iniziano da 1, non 0"),
    ({"op": "ruling", "kind": "assigned", "table": "A1", "board": 42, "score_ns": 420},
     "décision (attribuée) : pas de donne 42 dans cette séance",
     "decisione (assegnato): nessun board 42 in questa sessione"),
    ({"op": "acknowledge", "id": "A1-9-revoke-1"},
     "Prise en compte de l'alerte : pas d'alerte « A1-9-revoke-1 »",
     "Presa visione dell'avviso: nessun avviso «A1-9-revoke-1»"),
    ({"op": "result_correct", "table": "A1", "board": 1, "contract": "4S", "declarer": "N",
      "tricks": 10, "lead": "Z1"},
     "Correction d'un résultat : entame « Z1 » : ce n'est pas une carte en français",
     "Correzione di un risultato: attacco «Z1»: non è una carta in italiano"),
    ({"op": "result_correct", "table": "A1", "board": 1, "contract": "4S", "tricks": 10},
     "Correction du résultat à la table A1, donne 1 : un contrat demande son déclarant "
     "(N, E, S, O) et les levées du déclarant",
     "Correzione del risultato al tavolo A1, board 1: un contratto richiede il dichiarante "
     "(N, E, S, O) e le prese del dichiarante"),
    ({"op": "ruling", "kind": "weighted", "table": "A1", "board": 1,
      "outcomes": [[0.5, 420], [0.4, -50]]},
     "décision (pondérée) sur la donne 1 à la table A1 : les poids d'une marque pondérée "
     "font 1 au total, pas 0.9",
     "decisione (ponderato) sul board 1 al tavolo A1: i pesi di un punteggio ponderato "
     "sommano a 1, non 0.9"),
    ({"op": "explode"}, None, None),
    ({"op": "acknowledge"}, None, None),
]


def _values(text: dict[str, Any]) -> list[str]:
    """Every value of a text and of its parts, as a string (what is shown as it is)."""
    out: list[str] = []
    for value in text["values"].values():
        if isinstance(value, dict) and "key" in value:
            out += _values(value)
        else:
            out.append(str(value))
    return out


@pytest.mark.parametrize("language", ["fr", "it"])
def test_a_refused_command_is_told_in_the_director_s_language(served: Any,  # noqa: F811
                                                             language: str) -> None:
    loop, hub, console = served
    url = console.url + "api/director"
    before = loop.call(hub.room.snapshot)
    assert post(console.url + "api/i18n", {"language": language})[0] == 200
    try:
        for command, french, italian in REFUSED:
            status, answer = post(url, command)
            assert status == 400 and answer["ok"] is False, (command, answer)
            text = answer["error_text"]
            assert answer["error"] == render(Text.from_json(text), language)
            assert answer["error"] != render(Text.from_json(text), "en"), command
            expected = french if language == "fr" else italian
            if expected is not None:
                assert answer["error"] == expected
            words = answer["error"]
            for value in _values(text):
                words = words.replace(value, " ")
            left = set(re.findall(r"[a-z]+", words)) & (ENGLISH - SHARED[language])
            assert left == set(), (command, words)
    finally:
        assert post(console.url + "api/i18n", {"language": "en"})[0] == 200
    assert loop.call(hub.room.snapshot) == before


def test_in_english_the_refusal_is_the_words_it_always_was(served: Any) -> None:  # noqa: F811
    _, _, console = served
    status, answer = post(console.url + "api/director",
                          {"op": "pair_add", "section": "A", "pair": 1, "names": ["X"]})
    assert status == 400 and answer["error"] == (
        "Adding a late pair: pair 1 of section A already has players or results (correct "
        "its names instead)")
    assert answer["error_text"] == Text.of(
        "refusal.command", doing=Text.of("doing.pair_add"),
        reason=Text.of("refusal.pair_taken", pair=1, section="A")).to_json()


def test_an_error_with_a_text_keeps_its_english_words_for_the_log() -> None:
    text = Text.of("refusal.no_table", table="Z9")
    err = ConfigError(text)
    assert err.text == text and str(err) == "no table 'Z9' in this session"
    assert error_text(err) == text
    old = HubError("an error raised with words")        # not converted: a plain text
    assert old.text is None and error_text(old) == Text.plain("an error raised with words")
    refused = ProtocolError("malformed", "english words", text)
    assert error_text(refused) == text
    assert error_text(ProtocolError("malformed", "only words")) == Text.plain("only words")
