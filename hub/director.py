"""Director commands: the JSON the console posts (or a tool publishes on its account's
``tenace/v1/hub/cmd/{account}``) checked and turned into the room fact the hub logs and
applies. Every fact carries ``by``, the account that gave the command: ``director`` or
``scorer`` over MQTT (:data:`COMMAND_ACCOUNTS`, the only ones the hub takes commands from),
the console's logged-in user on the console.

A command is one JSON object with an ``op`` and its fields (``v``, when given, must be 1)::

    {"op": "acknowledge", "id": "A1-3-revoke-1"}          -> alert_acknowledge {"id"}
    {"op": "rule", "id": ..., "text": ..., "score"?: {}, "option"?: 2}
                                                -> alert_rule {"id", "text", "score"?, "option"?}
    {"op": "resolve", "id": ..., "text"?: ...}            -> alert_resolve {"id", "text"?}
    {"op": "round_start", "round": 2}                     -> round_start {"round"}
    {"op": "table_mode", "table": "A1", "strict": true}   -> table_mode {"table", "strict"}
    {"op": "table_mode", "table": "A1", "tapping_only": true}
                                                          -> table_mode {"table", "tapping_only"}
    {"op": "ruling", "kind": "artificial", "table": "A3", "board": 5, "ns": "A+", "ew": "A-"}
                                                          -> ruling {"id": "R1", ...}
    {"op": "ruling_undo", "id": "R1"}                     -> ruling_undo {"id"}
    {"op": "result_correct", "table": "A2", "board": 5, "contract": "4SX", "declarer": "N",
     "tricks": 9, "lead"?: "HK", "round"?: 3, "text"?: ...}
                                                          -> result_corrected {"id": "C1", ...}
    {"op": "substitute", "section": "A", "pair": 3, "player": 2, "name": "Zoé Roux",
     "rounds": [3, 4], "member"?: 1009}                   -> substitute {...}
    {"op": "checkin_accept", "table": "A1", "side": "NS", "names"?: [...], "player"?: 7}
                                                          -> pair_names {..., "checkin"}

``substitute`` and ``checkin_accept`` are hub.substitutes': a substitute is named for the
rounds he played (the pair keeps its number; the results files credit him too), and the
names typed at check-in become the pair's once the director accepts them. In an individual
``pair`` is a player's number in these and in the late changes (``player`` 1 for his
substitute; ``checkin_accept`` names the ``player`` whose typed name is taken).
    {"op": "public_results", "ranking": true, "names": true, "boards": true,
     "hide_last_rounds"?: 2, "live_ranking"?: "finished"} -> public_results {...}
    {"op": "pair_add", "section": "A", "pair": 8, "names": ["Ann", "Bob"]}
                                                          -> pair_add {...}
    {"op": "pair_names", "section": "A", "pair": 3, "names": [...]} -> pair_names {...}
    {"op": "pair_withdraw", "section": "A", "pair": 5, "text"?: ...} -> pair_withdraw {...}
    {"op": "round_pause", "paused": true}                 -> round_pause {"paused"}
    {"op": "round_time", "minutes": 16}                   -> round_time {"minutes"}
    {"op": "allow_board", "table": "A2", "board": 5, "round"?: 2}
                                                          -> board_allowed {...}

    {"op": "swiss_draw", "section": "A"}                  -> swiss_round {"section", "round",
                                                             "pairings", "order"}
``swiss_draw`` draws a Swiss section's next round now, from the standings as they are
(hub.swiss: the hub draws it itself once the round before is scored through).
``allow_board`` lets a table see a board the movement does not give it that round (its
round when not given): until then the board is withheld, nothing of it shown there
(hub.withheld, protocol section 8).

The late changes (``pair_*``, ``round_pause``, ``round_time``) are hub.late_changes': a late
pair takes a pair number nobody had, a withdrawn pair keeps its results, a board cancelled
at a table is a ``ruling`` of kind ``artificial`` (Laws 6, 12C2, 16, 87: the adjusted score
is the director's). ``hide_last_rounds`` hides the public ranking during the session's last
rounds (hub.results_pages).

``table_mode`` takes ``strict``, ``tapping_only`` or both: tapping only, the table's card
readers' cards are logged and counted but not played (a reader that errs too often,
hub.reads); its pockets are still read.

A ``ruling`` rescores at once (hub.scoring: its kinds and fields, Laws 12, 87, 90); the
fact logged is the ruling as checked, with its id, section and round. ``by`` is added by the
hub, never taken from the command (a command with a ``by`` is refused, an unknown field).

:func:`parse_command` only reads the room: the caller logs the fact, then applies it with
``room.fact(type, body, hub_time)`` (hub.service does both). The system only records what the
director does; the rectification itself is his (Laws 9, 10, 81): acknowledging records the
time his attention was drawn, a ruling its text and any adjusted score.

Refusals, each with a reason naming the command and the field, raised as a text
(hub.errors: ``refusal.command``, what the command did, ``doing.*``, then why,
``refusal.*``) that the console words in its user's language; ``str(err)`` (and a
ProtocolError's ``reason``) is its English, for the log:

* :class:`wire.protocol.ProtocolError` ``malformed`` (not an object, not valid text (a
  lone surrogate), nested too deep, a field missing, of the wrong type, too long, or
  unknown), ``too_large``, ``unknown_command`` (an unknown ``op``), ``unsupported_version``;
* :class:`hub.errors.AlertError`: no such alert, or a step out of order (an alert
  acknowledged twice, anything after it is resolved);
* :class:`hub.errors.ConfigError`: no such table, a round that is not after the one in
  progress or beyond the movement; a late change that does not fit (hub.late_changes: no
  such section or pair, a pair already named or withdrawn, names too long, a pause twice,
  a round of 0 or over 240 minutes), naming the field;
* :class:`hub.scoring.RulingError`: a ruling on a table, board, pair or alert that does not
  exist, or a score the Laws do not allow;
* :class:`hub.corrections.CorrectionError`: a correction of a result not played there, or
  of a result that is no result (no declarer, tricks over 13, a lead that is no card).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any

from bridgecore.text import Text
from hub.alerts import STATUS_TEXTS, AlertStatus
from hub.corrections import FIELDS as CORRECTION_FIELDS
from hub.errors import AlertError, ConfigError
from hub.late_changes import FACTS as LATE_FACTS
from hub.late_changes import check_change, refused
from hub.public_ranking import LIVE_RANKINGS
from hub.room import Room
from hub.rulings import RULING_FIELDS
from hub.substitutes import CHECKIN_FIELDS, SUBSTITUTE_FIELDS, check_checkin, check_substitute
from hub.texts import render
from wire.messages import check_payload
from wire.protocol import SCHEMA_VERSION, ProtocolError

__all__ = ["COMMANDS", "COMMAND_ACCOUNTS", "CONSOLE", "MAX_TEXT", "parse_command"]

COMMAND_ACCOUNTS = ("director", "scorer")   # the MQTT accounts whose commands the hub takes
CONSOLE = "console"                         # ``by`` of a console command with no user named

MAX_TEXT = 4000           # characters of a ruling or of a resolution note
_MAX_SCORE = 4096         # bytes of the adjusted-score object, as JSON
_ID = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")

# op -> (fact type, fields: name -> (type, required))
COMMANDS: dict[str, tuple[str, dict[str, tuple[type, bool]]]] = {
    "acknowledge": ("alert_acknowledge", {"id": (str, True)}),
    "rule": ("alert_rule", {"id": (str, True), "text": (str, True), "score": (dict, False),
                            "option": (int, False)}),
    "resolve": ("alert_resolve", {"id": (str, True), "text": (str, False)}),
    "round_start": ("round_start", {"round": (int, True)}),
    "table_mode": ("table_mode", {"table": (str, True), "strict": (bool, False),
                                  "tapping_only": (bool, False)}),
    "ruling": ("ruling", RULING_FIELDS),
    "ruling_undo": ("ruling_undo", {"id": (str, True)}),
    "result_correct": ("result_corrected", CORRECTION_FIELDS),
    "substitute": ("substitute", SUBSTITUTE_FIELDS),
    "checkin_accept": ("pair_names", CHECKIN_FIELDS),
    "public_results": ("public_results", {"ranking": (bool, True), "names": (bool, True),
                                          "boards": (bool, True),
                                          "hide_last_rounds": (int, False),
                                          "live_ranking": (str, False)}),
    "pair_add": ("pair_add", {"section": (str, True), "pair": (int, True),
                              "names": (list, True), "from_round": (int, False)}),
    "pair_names": ("pair_names", {"section": (str, True), "pair": (int, True),
                                  "names": (list, True)}),
    "pair_withdraw": ("pair_withdraw", {"section": (str, True), "pair": (int, True),
                                        "text": (str, False)}),
    "round_pause": ("round_pause", {"paused": (bool, True)}),
    "round_time": ("round_time", {"minutes": (float, True)}),
    "allow_board": ("board_allowed", {"table": (str, True), "board": (int, True),
                                      "round": (int, False)}),
    "swiss_draw": ("swiss_round", {"section": (str, True)}),
}

# The statuses each step may follow (the order hub.alerts.AlertBook enforces).
_FROM: dict[str, tuple[AlertStatus, ...]] = {
    "acknowledge": (AlertStatus.OPEN,),
    "rule": (AlertStatus.OPEN, AlertStatus.ACKNOWLEDGED, AlertStatus.RULED),
    "resolve": (AlertStatus.OPEN, AlertStatus.ACKNOWLEDGED, AlertStatus.RULED),
}


def parse_command(obj: Any, room: Room, account: str = CONSOLE) -> tuple[str, dict[str, Any]]:
    """``(fact type, body)`` for the command ``obj`` given by ``account`` (the body's
    ``by``), checked against ``room`` (not changed). Raises ProtocolError, AlertError or
    ConfigError with the reason (module docstring)."""
    if not isinstance(account, str) or not account:
        raise ValueError(f"a director command needs the account that gave it, not {account!r}")
    try:   # what the log could not store: text that is not text, too big, too deep
        check_payload(json.dumps(obj, ensure_ascii=False, allow_nan=False))
    except ProtocolError as err:
        shape = _SHAPES.get(err.code, _SHAPES["malformed"])
        raise _refusal(err.code, Text.of("refusal.command_shape", shape=shape)) from None
    except (TypeError, ValueError, RecursionError):
        raise _refusal("malformed", Text.of("refusal.not_json")) from None
    if not isinstance(obj, Mapping):
        raise _refusal("malformed", Text.of("refusal.not_object", kind=type(obj).__name__))
    version = obj.get("v", SCHEMA_VERSION)
    if version != SCHEMA_VERSION or isinstance(version, bool):
        raise _refusal("unsupported_version", Text.of(
            "refusal.command_version", version=f"{version!r:.20}", speaks=SCHEMA_VERSION))
    op = obj.get("op")
    if not isinstance(op, str):
        raise _refusal("malformed", Text.of("refusal.no_op", commands=", ".join(COMMANDS),
                                            op=f"{op!r:.40}"))
    found = COMMANDS.get(op)
    if found is None:
        raise _refusal("unknown_command", Text.of("refusal.unknown_command", op=op[:40],
                                                  commands=", ".join(COMMANDS)))
    fact, schema = found
    unknown = sorted(str(k)[:40] for k in obj if k not in schema and k not in ("op", "v"))
    if unknown:
        raise _refusal("malformed", refused(op, Text.of("refusal.unknown_fields",
                                                        fields=", ".join(unknown))))
    body: dict[str, Any] = {}
    for name, (kind, required) in schema.items():
        value = obj.get(name)
        if value is None:
            if required:
                raise _refusal("malformed", refused(op, Text.of("refusal.missing_field",
                                                                field=name)))
            continue
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, kind) or (kind in (int, float) and isinstance(value, bool)):
            raise _refusal("malformed", refused(op, Text.of(
                "refusal.field_type", field=name, kind=_TYPE_NAMES[kind],
                value=f"{value!r:.60}")))
        body[name] = value
    _CHECKS[op](op, body, room)
    body["by"] = account
    return fact, body


def _refusal(code: str, text: Text) -> ProtocolError:
    """A command refused for its shape: ``code``, the English reason and ``text``."""
    return ProtocolError(code, render(text, "en"), text)


_SHAPES = {"malformed": Text.of("refusal.malformed"), "too_large": Text.of("refusal.too_large"),
           "unsupported_version": Text.of("refusal.unsupported_version")}
_TYPE_NAMES = {str: Text.of("type.string"), int: Text.of("type.integer"),
               bool: Text.of("type.boolean"), dict: Text.of("type.object"),
               list: Text.of("type.list"), float: Text.of("type.number")}


def _check_alert(op: str, body: dict[str, Any], room: Room) -> None:
    alert_id = body["id"]
    if not _ID.match(alert_id):
        raise _refusal("malformed", refused(op, Text.of("refusal.alert_id",
                                                        id=f"{alert_id!r:.80}")))
    if alert_id not in room.alerts:
        raise AlertError(refused(op, Text.of("refusal.no_alert", id=alert_id)))
    status = room.alerts[alert_id].status
    if status not in _FROM[op]:
        raise AlertError(refused(op, Text.of("refusal.alert_status", id=alert_id,
                                             status=STATUS_TEXTS[status])))
    text = body.get("text")
    if text is not None:
        body["text"] = text = text.strip()
        if len(text) > MAX_TEXT:
            raise _refusal("malformed", refused(op, Text.of("refusal.text_length",
                                                            n=len(text), most=MAX_TEXT)))
        if not text:
            if op == "rule":
                raise AlertError(refused(op, Text.of("refusal.ruling_text", id=alert_id)))
            del body["text"]
    option = body.get("option")
    if option is not None and not 0 <= option < len(room.alerts[alert_id].options):
        raise AlertError(refused(op, Text.of("refusal.no_option", id=alert_id, option=option,
                                             n=len(room.alerts[alert_id].options))))
    score = body.get("score")
    if score is not None:
        try:
            size = len(json.dumps(score, allow_nan=False))
        except (TypeError, ValueError):
            raise _refusal("malformed", refused(op, Text.of("refusal.score_json"))) from None
        if size > _MAX_SCORE:
            raise _refusal("malformed", refused(op, Text.of("refusal.score_size", size=size,
                                                            most=_MAX_SCORE)))


def _check_round(op: str, body: dict[str, Any], room: Room) -> None:
    number = body["round"]
    current = room.clock.round
    if number < 1:
        raise ConfigError(refused(op, Text.of("refusal.round_from_one", round=number)))
    if number < current:
        raise ConfigError(refused(op, Text.of("refusal.round_before", round=number,
                                              current=current)))
    rounds = [s.movement.rounds for s in room.sections if s.movement is not None]
    if rounds and number > max(rounds):
        raise ConfigError(refused(op, Text.of("refusal.round_beyond", round=number,
                                              rounds=max(rounds))))


def _check_table(op: str, body: dict[str, Any], room: Room) -> None:
    table = body["table"]
    if table not in room.tables:
        raise ConfigError(refused(op, Text.of("refusal.no_table", table=table[:40])))
    if "strict" not in body and "tapping_only" not in body:
        raise _refusal("malformed", refused(op, Text.of("refusal.table_mode_fields")))


def _check_ruling(op: str, body: dict[str, Any], room: Room) -> None:
    """The ruling as hub.rulings checks it: the body becomes the fact to log."""
    checked = room.scoring.check(body) if op == "ruling" else room.scoring.check_undo(body)
    body.clear()
    body.update(checked)


def _check_correction(op: str, body: dict[str, Any], room: Room) -> None:
    """The correction as hub.corrections checks it: the body becomes the fact to log."""
    checked = room.scoring.check_correction(body)
    body.clear()
    body.update(checked)


def _check_public(op: str, body: dict[str, Any], room: Room) -> None:
    hide = body.get("hide_last_rounds")
    if hide is not None and not 0 <= hide <= 99:
        raise ConfigError(refused(op, Text.of("refusal.hide_rounds", hide=hide)))
    live = body.get("live_ranking")
    if live is not None and live not in LIVE_RANKINGS:
        raise ConfigError(refused(op, Text.of("refusal.live_ranking", live=live[:20],
                                              choices=", ".join(LIVE_RANKINGS))))


def _check_swiss(op: str, body: dict[str, Any], room: Room) -> None:
    """The next round of a Swiss section drawn now (hub.swiss): the body becomes the fact."""
    body.update(room.swiss.draw(body["section"], ""))


def _check_allow(op: str, body: dict[str, Any], room: Room) -> None:
    table = room.tables.get(body["table"])
    if table is None:
        raise ConfigError(refused(op, Text.of("refusal.no_table", table=body["table"][:40])))
    if not 1 <= body["board"] <= 999:
        raise ConfigError(refused(op, Text.of("refusal.board_range", board=body["board"])))
    body.setdefault("round", table.round)
    if not 1 <= body["round"] <= 999:
        raise ConfigError(refused(op, Text.of("refusal.round_range", round=body["round"])))


_CHECKS: dict[str, Callable[[str, dict[str, Any], Room], None]] = {
    "acknowledge": _check_alert, "rule": _check_alert, "resolve": _check_alert,
    "round_start": _check_round, "table_mode": _check_table,
    "ruling": _check_ruling, "ruling_undo": _check_ruling,
    "result_correct": _check_correction,
    "substitute": lambda op, body, room: check_substitute(op, body, room.sections),
    "checkin_accept": lambda op, body, room: check_checkin(
        op, body, room.tables, {t: s.name for s in room.sections for t in s.tables},
        {t for s in room.sections if s.individual is not None for t in s.tables}),
    "public_results": _check_public, "allow_board": _check_allow,
    "swiss_draw": _check_swiss,
    **{op: check_change for op in LATE_FACTS},
}
