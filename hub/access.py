"""Who may read and write which topic: ONE table of rules for both brokers.

Every MQTT client connects with an account (hub/accounts.py); an account has a role, and the
role says which topic filters it may read and write (docs/protocol.md, sections 2 and 3). The
same table is rendered to a Mosquitto ACL file (:func:`mosquitto_acl`) and enforced on the
embedded amqtt broker by hub/broker.py (:func:`may_read`, :func:`may_write`,
:func:`may_subscribe`), so the two brokers refuse the same things.

The design (security.md): only the hub writes what devices read (state, seats, results,
rankings, travellers, hub status, alerts, replies, commands); a device writes only its own
event and presence topics; a seat's topic (its hand) is readable only by that seat's tablet
and the hub; alerts (with their evidence) only by the hub and the director; commands to the
hub (``hub/cmd``) only by the director and the scoring program, each on its own topic.

Roles and the placeholders of their rules: ``{account}`` the username (= client id),
``{table}`` and ``{seat}`` read from a device id (``A1-N``: table A1, seat N; a spare
``A1-N.3f9c0a`` has the role of ``A1-N`` and its own topics).

A hub shard (hub/shards.py: one of several hub processes sharing an event's sections) has
the role ``shard`` and a scope (its number, its tables, its sections) kept with its account:
:func:`shard_grant` lists its topics table by table and section by section, so that it may
publish only its own tables' and sections' topics (an alert's id begins with its table but
MQTT filters cannot say so: ``director/alert/#`` is every shard's).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from wire.protocol import ROOT

__all__ = [
    "ROLES", "SHARD_ROLE", "SIM_ROOT", "Grant", "device_role", "filters_overlap", "grants",
    "matches", "may_read", "may_subscribe", "may_write", "mosquitto_acl", "shard_grant",
]

_R = f"{ROOT}"
SIM_ROOT = "tenace/sim/v1"   # hub.simultaneous.event.ROOT: the organiser's protocol

# role -> (read filters, write filters). A filter may name {account}, {table}, {seat}.
ROLES: Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # The hub: everything of the protocol, and its tools' echo topics.
    "hub": ((f"{_R}/#",), (f"{_R}/#",)),
    # Director tools on MQTT: everything but the hands; their own command topic.
    "director": ((f"{_R}/hub/#", f"{_R}/director/#", f"{_R}/t/+/state", f"{_R}/t/+/tablet",
                  f"{_R}/t/+/ev/+",
                  f"{_R}/t/+/dev/+/status", f"{_R}/t/+/reply/+", f"{_R}/result/#",
                  f"{_R}/results/#", f"{_R}/dealer/#", f"{_R}/echo/{{account}}"),
                 (f"{_R}/hub/cmd/{{account}}", f"{_R}/echo/{{account}}")),
    # A scoring program: results and the hub's status; score rulings on its command topic.
    "scorer": ((f"{_R}/hub/status", f"{_R}/hub/shard/+/status", f"{_R}/result/#",
                f"{_R}/results/#", f"{_R}/echo/{{account}}"),
               (f"{_R}/hub/cmd/{{account}}", f"{_R}/echo/{{account}}")),
    # A results reader (a display, a web page): read only.
    "results": ((f"{_R}/hub/status", f"{_R}/hub/shard/+/status", f"{_R}/result/#",
                 f"{_R}/results/#"), ()),
    # A table's tablet (all four players see its screen): no seat topic.
    # Its own view (t/{table}/tablet): the explanations it shows each side (protocol 11.3).
    # Every table device: the hub's presence, or in a sharded event its shard's (the one
    # its table's state names: protocol 14).
    "table": ((f"{_R}/hub/status", f"{_R}/t/{{table}}/state", f"{_R}/t/{{table}}/tablet",
               f"{_R}/t/{{table}}/cmd",
               f"{_R}/t/{{table}}/cmd/{{account}}", f"{_R}/t/{{table}}/reply/{{account}}",
               f"{_R}/t/{{table}}/dev/{{account}}/status", f"{_R}/hub/shard/+/status"),
              (f"{_R}/t/{{table}}/ev/{{account}}", f"{_R}/t/{{table}}/dev/{{account}}/status")),
    # A seat's tablet: the table's state and its own seat's hand.
    "seat": ((f"{_R}/hub/status", f"{_R}/t/{{table}}/state", f"{_R}/t/{{table}}/seat/{{seat}}",
              f"{_R}/t/{{table}}/cmd", f"{_R}/t/{{table}}/cmd/{{account}}",
              f"{_R}/t/{{table}}/reply/{{account}}", f"{_R}/t/{{table}}/dev/{{account}}/status",
              f"{_R}/hub/shard/+/status"),
             (f"{_R}/t/{{table}}/ev/{{account}}", f"{_R}/t/{{table}}/dev/{{account}}/status")),
    # A table's card readers' daemon: the public state, never a seat; its readers' presence.
    "reader": ((f"{_R}/hub/status", f"{_R}/t/{{table}}/state", f"{_R}/t/{{table}}/cmd",
                f"{_R}/t/{{table}}/cmd/{{account}}", f"{_R}/t/{{table}}/reply/{{account}}",
                f"{_R}/t/{{table}}/dev/{{account}}/status",
                f"{_R}/t/{{table}}/dev/{{account}}-N/status",
                f"{_R}/t/{{table}}/dev/{{account}}-E/status",
                f"{_R}/t/{{table}}/dev/{{account}}-S/status",
                f"{_R}/t/{{table}}/dev/{{account}}-W/status", f"{_R}/hub/shard/+/status"),
               (f"{_R}/t/{{table}}/ev/{{account}}", f"{_R}/t/{{table}}/dev/{{account}}/status",
                f"{_R}/t/{{table}}/dev/{{account}}-N/status",
                f"{_R}/t/{{table}}/dev/{{account}}-E/status",
                f"{_R}/t/{{table}}/dev/{{account}}-S/status",
                f"{_R}/t/{{table}}/dev/{{account}}-W/status")),
    # A dealing machine's bridge: its own dealer topics.
    "dealer": ((f"{_R}/hub/status", f"{_R}/dealer/{{account}}/reply",
                f"{_R}/dealer/{{account}}/status"),
               (f"{_R}/dealer/{{account}}/ev", f"{_R}/dealer/{{account}}/status")),
    # A simultaneous event's link to the organiser (hub.simultaneous): the club's side
    # (``sim-link``, tenace sim-event club) and its Mosquitto bridge (``sim-link.bridge``,
    # local_username of bridge.conf). The organiser's protocol only, and the hub's table
    # results it relays: never a table's state, a seat's hand, a device's event.
    # Its travellers give the forms of a fouled board (Law 87), the adjusted scores (Law 12C).
    "sim-link": ((f"{_R}/result/#", f"{_R}/results/traveller/#", f"{SIM_ROOT}/#"),
                 (f"{SIM_ROOT}/#",)),
}

SHARD_ROLE = "shard"
"""The role of a hub shard's account: its rules come from its scope (:func:`shard_grant`)."""

_SEAT_DEVICE = re.compile(r"^(?P<table>[A-Za-z0-9_-]+)(?<!-rdr)(?<!-tab)-(?P<seat>[NESW])$")
_TABLE_DEVICE = re.compile(r"^(?P<table>[A-Za-z0-9_-]+)-tab$")
_READER_DEVICE = re.compile(r"^(?P<table>[A-Za-z0-9_-]+)-rdr$")
_NAMED = {"tenace-hub": "hub", "director": "director", "scorer": "scorer", "results": "results",
          "sim-link": "sim-link"}


def device_role(account: str) -> str | None:
    """The role an account's name implies (a ``.suffix`` marks a spare of the same role), or
    None: a dealing machine's id says nothing, its role is given when it is issued."""
    base = account.split(".", 1)[0]
    if base in _NAMED:
        return _NAMED[base]
    if base.startswith("dealer-"):
        return "dealer"
    for role, pattern in (("seat", _SEAT_DEVICE), ("table", _TABLE_DEVICE),
                          ("reader", _READER_DEVICE)):
        if pattern.match(base):
            return role
    return None


@dataclass(frozen=True, slots=True)
class Grant:
    """One account's filters, placeholders filled in."""

    account: str
    role: str
    read: tuple[str, ...]
    write: tuple[str, ...]


def grants(account: str, role: str, scope: Mapping[str, Any] | None = None) -> Grant:
    """The filters of ``account`` in ``role``; ValueError for an unknown role or a device role
    whose id does not name its table (and seat). A shard's (``role`` ``shard``) come from
    its ``scope`` (:func:`shard_grant`)."""
    if role == SHARD_ROLE:
        return shard_grant(account, scope)
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r} for account {account!r}")
    base = account.split(".", 1)[0]
    fields = {"account": account, "table": "", "seat": ""}
    if role in ("seat", "table", "reader"):
        found = {"seat": _SEAT_DEVICE, "table": _TABLE_DEVICE, "reader": _READER_DEVICE}[
            role].match(base)
        if found is None:
            raise ValueError(f"account {account!r} does not name a table for role {role!r}")
        fields.update(found.groupdict())
    if any(c in account for c in "+#/ ") or not account:
        raise ValueError(f"bad account name {account!r}")
    read, write = ROLES[role]
    return Grant(account, role, tuple(f.format(**fields) for f in read),
                 tuple(f.format(**fields) for f in write))


def _level(value: Any, what: str) -> str:
    if not isinstance(value, str) or not re.fullmatch(r"[A-Za-z0-9_-]{1,16}", value):
        raise ValueError(f"a shard's {what} must be a topic level, not {value!r}")
    return value


def shard_grant(account: str, scope: Mapping[str, Any] | None) -> Grant:
    """The filters of hub shard ``account`` (hub/shards.py) from its ``scope``: ``shard``
    (its number), ``tables`` and ``sections`` (their names). It reads its tables' events and
    presence, every command to the hub, every result and ranking (shard 0 ranks the field)
    and its own status; it writes its tables' views, replies, commands and results, its
    sections' rankings and travellers, alerts, its own status and its tables' summaries.
    Shard 0 also keeps the event's ``hub/status``, the dealing machines, the field's ranking.
    Every shard reads every shard's tables' summaries, the tables' public states and
    tablet views and the alerts (its console shows the whole event) and writes its own
    ``hub/cmd/{account}`` (its console's commands for another shard's tables); it reads every
    shard's presence and answers and writes its own ``hub/shard/{K}/answer`` (protocol 17).
    ValueError for a scope that is not one."""
    if any(c in account for c in "+#/ ") or not account:
        raise ValueError(f"bad account name {account!r}")
    if not isinstance(scope, Mapping):
        raise ValueError(f"account {account!r}: a shard's account needs its scope")
    index = scope.get("shard")
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < 1000:
        raise ValueError(f"account {account!r}: shard {index!r} is not a shard's number")
    tables = [_level(t, "table") for t in scope.get("tables") or ()]
    sections = [_level(n, "section") for n in scope.get("sections") or ()]
    # Its console runs the whole event (hub.shard_views): every shard's tables' summaries,
    # a table's public state and tablet view while a director follows it (never a seat's),
    # the alerts; a command for another shard's table sent on its own hub/cmd topic, and the
    # owner's answer on its hub/shard/{K}/answer; every shard's presence (hub/status: 0's).
    read = [f"{_R}/hub/cmd/#", f"{_R}/results/#", f"{_R}/hub/status",
            f"{_R}/hub/shard/+/status", f"{_R}/hub/shard/+/answer",
            f"{_R}/echo/{account}", f"{_R}/hub/shard/+/tables", f"{_R}/t/+/state",
            f"{_R}/t/+/tablet", f"{_R}/director/alert/#"]
    write = [f"{_R}/hub/shard/{index}/status", f"{_R}/hub/shard/{index}/tables",
             f"{_R}/hub/shard/{index}/answer",
             f"{_R}/director/alert/#", f"{_R}/echo/{account}", f"{_R}/hub/cmd/{account}"]
    if index == 0:
        read += [f"{_R}/dealer/+/ev", f"{_R}/dealer/+/status"]
        write += [f"{_R}/hub/status", f"{_R}/dealer/+/reply", f"{_R}/results/field"]
    for table in tables:
        read += [f"{_R}/t/{table}/ev/+", f"{_R}/t/{table}/dev/+/status"]
        write += [f"{_R}/t/{table}/state", f"{_R}/t/{table}/tablet", f"{_R}/t/{table}/seat/+",
                  f"{_R}/t/{table}/reply/+", f"{_R}/t/{table}/cmd", f"{_R}/t/{table}/cmd/+",
                  f"{_R}/result/{table}/#"]
    for name in sections:
        write += [f"{_R}/results/ranking/{name}", f"{_R}/results/traveller/{name}/+"]
    return Grant(account, SHARD_ROLE, tuple(read), tuple(write))


def matches(topic: str, topic_filter: str) -> bool:
    """Whether ``topic`` (no wildcard) matches the MQTT ``topic_filter`` (MQTT-4.7)."""
    if topic.startswith("$") and topic_filter[:1] in ("+", "#"):
        return False
    levels = topic.split("/")
    wanted = topic_filter.split("/")
    for i, level in enumerate(wanted):
        if level == "#":
            return True
        if i >= len(levels) or level not in ("+", levels[i]):
            return False
    return len(levels) == len(wanted)


def filters_overlap(first: str, second: str) -> bool:
    """Whether some topic matches both filters."""
    a, b = first.split("/"), second.split("/")
    for i in range(max(len(a), len(b))):
        x = a[i] if i < len(a) else None
        y = b[i] if i < len(b) else None
        if x == "#" or y == "#":
            return True
        if x is None or y is None:
            return False
        if x != y and "+" not in (x, y):
            return False
    return True


def may_read(grant: Grant, topic: str) -> bool:
    """Whether the account may receive a message on ``topic``."""
    return any(matches(topic, f) for f in grant.read)


def may_write(grant: Grant, topic: str) -> bool:
    """Whether the account may publish on ``topic``."""
    return any(matches(topic, f) for f in grant.write)


def may_subscribe(grant: Grant, topic_filter: str) -> bool:
    """Whether the account may subscribe to ``topic_filter``: it must overlap a readable
    filter; what it then receives is checked topic by topic (:func:`may_read`), so ``#``
    delivers only what the account may read."""
    return any(filters_overlap(topic_filter, f) for f in grant.read)


def mosquitto_acl(accounts: Iterable[tuple[str, str] | Grant]) -> str:
    """The Mosquitto ACL file of (account, role) pairs, or of grants made already (a
    shard's, :func:`shard_grant`): one block per account.

    Mosquitto checks a subscription's filter and then every delivered topic against the
    ``read`` entries, as :func:`may_subscribe` and :func:`may_read` do for amqtt.
    """
    lines = ["# Generated by Tenace (hub/access.py) from the event's accounts: do not edit.",
             "# Mosquitto reads it at start and on SIGHUP.", ""]
    made = [item if isinstance(item, Grant) else grants(*item) for item in accounts]
    for grant in sorted(made, key=lambda g: (g.account, g.role)):
        lines.append(f"user {grant.account}")
        for topic_filter in sorted(set(grant.read) & set(grant.write)):
            lines.append(f"topic readwrite {topic_filter}")
        for topic_filter in grant.read:
            if topic_filter not in grant.write:
                lines.append(f"topic read {topic_filter}")
        for topic_filter in grant.write:
            if topic_filter not in grant.read:
                lines.append(f"topic write {topic_filter}")
        lines.append("")
    return "\n".join(lines)
