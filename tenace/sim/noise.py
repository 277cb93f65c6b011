"""Card readers that err: the simulator's reader error model (issue 15).

Real NFC readers miss a card placed at the edge of the zone, read a card at the
neighbouring seat's zone (or at dummy's, declarer playing from it), read a tag late, report
a tag again after the debounce, miss a card of a hand swept too fast, and some tags cannot
be read at all. :class:`ReaderNoise` holds a rate for each; :func:`add_noise` applies it to
the acts of one board (:class:`tenace.sim.board.Act`) with its own random stream, so that a
noiseless run gives the same script as before, and the same seed the same errors.

Each error is only what the card reader reports: the players at the table did what the
script says. When the hub has cause to ask the table (docs/protocol.md, "Asking the
table"), the simulated players answer as real ones would, truthfully, from the table
tablet (``answer`` events):

* a card played but not read (``missed``; a card with an ``unreadable`` tag): after the
  next card, "South played the H7 to trick 5, third" (``{"seat", "trick", "card",
  "place"}``);
* a card read late (``late``: after the next card): the same answer, after both reads;
* a hand swept out of the pocket with a card missed (``sweep``): the hand swept again, and
  read whole (a second ``hand`` event); a card whose tag cannot be read is named from the
  tablet instead (``{"seat", "cards"}``);
* a cross-read (``cross``: the neighbouring zone, or between declarer's and dummy's zones)
  and a repeated read (``repeat``) need no answer: the hub works them out.

Rates are per card read by the card reader (``missed``, ``cross``, ``late``, ``repeat``), per
hand swept (``sweep``) and per board (``unreadable``: one card of the pack whose tag never
reads). ``tenace sim --reader-noise missed=0.02,cross=0.01,late=0.01,sweep=0.05``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from bridgecore.cards import Seat
from tenace.sim.script import SimError

__all__ = ["ISSUE_NOISE", "NOISE_KINDS", "ReaderNoise", "add_noise", "parse_noise"]

NOISE_KINDS = ("missed", "cross", "late", "repeat", "sweep", "unreadable")


@dataclass(frozen=True, slots=True)
class ReaderNoise:
    """How often the table's card readers err (module docstring); all zero: a perfect reader."""

    missed: float = 0.0
    cross: float = 0.0
    late: float = 0.0
    repeat: float = 0.0
    sweep: float = 0.0
    unreadable: float = 0.0

    def __post_init__(self) -> None:
        for f in fields(self):
            rate = getattr(self, f.name)
            if not 0.0 <= rate <= 1.0:
                raise SimError(f"reader noise {f.name}={rate}: a rate is between 0 and 1")
        if self.missed + self.cross + self.late + self.repeat > 1.0:
            raise SimError("reader noise: missed, cross, late and repeat add up to more than 1")

    @property
    def quiet(self) -> bool:
        return not any(getattr(self, f.name) for f in fields(self))

    def scaled(self, factor: float) -> ReaderNoise:
        return ReaderNoise(**{f.name: min(1.0, getattr(self, f.name) * factor)
                              for f in fields(self)})

    def to_json(self) -> dict[str, float]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


# The issue's example: 2% missed reads, 1% cross-reads, 1% late reads, sweeps missing a card.
ISSUE_NOISE = ReaderNoise(missed=0.02, cross=0.01, late=0.01, repeat=0.01, sweep=0.05,
                          unreadable=0.02)


def parse_noise(text: str) -> ReaderNoise:
    """``"missed=0.02,cross=0.01"`` (or ``"issue"``, the issue's example) -> the model."""
    if text.strip() == "issue":
        return ISSUE_NOISE
    rates: dict[str, float] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, sep, value = part.partition("=")
        name = name.strip()
        if not sep or name not in NOISE_KINDS:
            raise SimError(f"--reader-noise: {part!r} is not kind=rate with a kind of "
                           f"{', '.join(NOISE_KINDS)}")
        try:
            rates[name] = float(value)
        except ValueError:
            raise SimError(f"--reader-noise: rate {value!r} of {name!r} is not a number") \
                from None
    return ReaderNoise(**rates)


@dataclass(slots=True)
class _Item:
    act: Any            # tenace.sim.board.Act
    trick: int = 0      # the trick of a card played, else 0
    place: int = 0      # its place in the trick (1: led)


def _answer(act_cls: Any, seat: str, trick: int, card: str, place: int) -> Any:
    return act_cls("tab", "answer", {"seat": seat, "trick": trick, "card": card,
                                     "place": place}, "again")


def add_noise(acts: list[Any], noise: ReaderNoise, rng: random.Random,
              counts: dict[str, int] | None = None,
              dummy: Seat | None = None) -> list[Any]:
    """The acts of one board as an erring card reader reports them, with the table's answers
    to what the hub asks (module docstring). ``counts`` (kind -> errors made) is added to;
    ``dummy`` is the board's dummy (a cross-read of declarer's or dummy's card lands in the
    other's zone)."""
    if noise.quiet or not acts:
        return list(acts)
    act_cls = type(acts[0])
    counts = {} if counts is None else counts

    def count(kind: str) -> None:
        counts[kind] = counts.get(kind, 0) + 1

    items: list[_Item] = []
    played = 0
    seen: set[str] = set()
    for act in acts:
        trick = place = 0
        if act.type == "card":
            card = act.body["card"]
            if card not in seen:
                seen.add(card)
                played += 1
            trick = (played - 1) // 4 + 1
            place = (played - 1) % 4 + 1
        items.append(_Item(act, trick, place))
    # A tag that never reads, this board (its card still exists: the players see it).
    dead: str | None = None
    if noise.unreadable and rng.random() < noise.unreadable:
        hands = [a for a in acts if a.type == "hand" and a.device == "rdr"]
        if hands:
            dead = rng.choice(rng.choice(hands).body["cards"])
            count("unreadable")
    out: list[Any] = []
    after_next: list[Any] = []     # acts to put after the next card act
    for i, item in enumerate(items):
        act = item.act
        if act.type == "hand" and act.device == "rdr":
            cards = list(act.body["cards"])
            seat = act.body["seat"]
            read = [c for c in cards if c != dead]
            if len(read) > 1 and noise.sweep and rng.random() < noise.sweep:
                lost = rng.choice(read)
                out.append(act_cls("rdr", "hand", {**act.body, "cards": [
                    c for c in read if c != lost]}, act.delay))
                count("sweep")
                # Asked to sweep again, the player does: the reader reads it whole.
                out.append(act_cls("rdr", "hand", {**act.body, "cards": read}, "again"))
            else:
                out.append(act_cls("rdr", "hand", {**act.body, "cards": read}, act.delay)
                           if len(read) != len(cards) else act)
            if len(read) != len(cards):
                out.append(act_cls("tab", "answer", {"seat": seat, "cards": [dead]}, "again"))
            continue
        if act.type != "card" or act.device != "rdr":
            out.append(act)
            if act.type == "card" and after_next:
                out.extend(after_next)
                after_next = []
            continue
        seat = act.body["seat"]
        card = act.body["card"]
        tapped = any(o.act.type == "card" and o.act.device == "tab"
                     and o.act.body["card"] == card for o in items)
        u = rng.random()
        missed = card == dead or u < noise.missed
        if missed:
            count("missed")
            if not tapped:
                answer = _answer(act_cls, seat, item.trick, card, item.place)
                if any(o.act.type == "card" for o in items[i + 1:]):
                    after_next.append(answer)
                else:
                    out.append(answer)
            continue
        u -= noise.missed
        if u < noise.cross:
            count("cross")
            here = Seat.parse(seat)
            if dummy is not None and here in (dummy, dummy.partner):
                zone = here.partner
            else:
                zone = rng.choice((here.lho, here.rho))
            out.append(act_cls("rdr", "card", {**act.body, "seat": zone.letter}, act.delay))
        elif u < noise.cross + noise.late:
            nxt = next((j for j in range(i + 1, len(items)) if items[j].act.type == "card"),
                       None)
            if nxt is None:
                out.append(act)
            else:
                count("late")
                # Read after the next card: held and put after it, then the answer.
                after_next.append(act)
                if not tapped:
                    after_next.append(_answer(act_cls, seat, item.trick, card, item.place))
                continue
        elif u < noise.cross + noise.late + noise.repeat:
            count("repeat")
            out.append(act)
            after_next.append(act_cls("rdr", "card", dict(act.body), "again"))
            continue
        else:
            out.append(act)
        if after_next:
            out.extend(after_next)
            after_next = []
    out.extend(after_next)
    return out


def noise_counts(*scripts: Mapping[str, int]) -> dict[str, int]:
    """The errors made, kind by kind, added up."""
    total: dict[str, int] = {}
    for counts in scripts:
        for k, v in counts.items():
            total[k] = total.get(k, 0) + v
    return total
