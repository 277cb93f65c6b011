"""A table's pairs and boards: who is seated, which board is on the table, in which round.

The check-in of a pair (or, in an individual, its players) against the movement (Law 5B: a
pair at the wrong table, in the wrong direction, or not playing here), the table moving on
to its next round, the board taken out (a board the movement does not give here is
withheld until the director allows it, hub.withheld; Law 15: a board the pairs have already
played; Law 2: a board marked otherwise than its number says) and the round a board
belongs to when the table is late.

:class:`TableSeating` is a part of :class:`hub.table.TableState` (as :mod:`hub.table_results`
and :mod:`hub.table_views` are): it is apart because it answers "who plays which board
here", which the calls and cards (hub.table), the pockets (hub.pockets) and the results
(hub.table_results) only read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bridgecore.board import Board
from bridgecore.cards import Seat, Side
from bridgecore.deal import Deal
from bridgecore.markings import Markings
from bridgecore.movements import Assignment
from bridgecore.text import Text
from hub.alerts import OPTIONS, Alert, HubKind
from hub.sitting import Outcome, Sitting, TableContext
from hub.withheld import message as withheld_message
from wire.protocol import Envelope

if TYPE_CHECKING:
    from hub.reads import ReadState

__all__ = ["TableSeating"]

_NO_DEAL = Deal({}, unknown=tuple(Seat))


class TableSeating:
    """Check-in, rounds and boards (a part of :class:`hub.table.TableState`)."""

    if TYPE_CHECKING:
        id: str
        round: int
        context: TableContext
        sitting: Sitting | None
        sittings: dict[tuple[int, int], Sitting]
        seated: dict[Side, tuple[int, list[Any], float, int]]
        allowed: set[tuple[int, int]]
        _unsettled: list[tuple[int, int]]
        _read_states: dict[tuple[int, int], ReadState]

        def _base(self) -> str: ...
        def _ack(self, env: Envelope, t: float, changed: bool,
                 alerts: Any = (), reason: Text | str = "") -> Outcome: ...
        def _reject(self, env: Envelope, t: float, code: str, reason: Text | str) -> Outcome: ...
        def _alert(self, key: str, t: float, kind: str, law: str, *, seats: Any = (),
                   call: int | None = None, trick: int | None = None,
                   occurred: float | None = None, detail: Text | str = "", facts: Any = None,
                   options: Any = (), source: str = "") -> Alert | None: ...
        def evidence(self) -> dict[str, Any]: ...

    # Seating and boards -------------------------------------------------------------------
    def _pairs_json(self) -> dict[str, int | None]:
        ns, ew = self.pairs()
        return {"NS": ns, "EW": ew}

    def pairs(self, round: int | None = None) -> tuple[int | None, int | None]:
        """The pairs at the table in ``round``: as checked in, else as the movement says."""
        r = self.round if round is None else round
        a = self.context.assignment(self.id, r)
        out: list[int | None] = []
        for side in (Side.NS, Side.EW):
            seated = self.seated.get(side)
            if seated is not None and seated[3] == r:
                out.append(seated[0])
            else:
                out.append(None if a is None else a.pair(side))
        return out[0], out[1]

    def finished(self, board: int) -> bool:
        return any(s.over for (_, n), s in self.sittings.items() if n == board)

    def round_done(self, round: int) -> bool:
        """Every board of ``round`` finished here (or the table does not play it)."""
        a = self.context.assignment(self.id, round)
        return a is None or not a.plays or all(self.finished(b) for b in a.boards)

    def _checkin(self, env: Envelope, t: float) -> Outcome:
        body = env.body
        direction = body["direction"]
        pair = body["pair"]
        if direction not in ("NS", "EW"):
            return self._reject(env, t, "malformed", f"direction {direction!r} is not NS or EW")
        if pair < 1:
            return self._reject(env, t, "malformed", f"pair numbers start at 1, got {pair}")
        side = Side(direction)
        ctx = self.context
        a = ctx.assignment(self.id, self.round)
        stays = a is not None and pair in (a.ns, a.ew)
        if (not stays or a is None or a.pair(side) != pair) and self.round_done(self.round):
            # Moved on at the end of play: a pair of the next round this table plays (sit-out
            # rounds skipped), on either side (the wrong way round is checked below, 5B); a
            # pair of the round just played here only on the side the next round gives it
            # (a Swiss round may seat it here again, the other way round: hub.swiss).
            number = self.round + 1
            ahead = ctx.assignment(self.id, number)
            while ahead is not None and not ahead.plays and pair not in (ahead.ns, ahead.ew):
                number += 1
                ahead = ctx.assignment(self.id, number)
            if ahead is not None and (ahead.pair(side) == pair if stays
                                      else pair in (ahead.ns, ahead.ew)):
                self.round = number
                a = ahead
        players = list(body.get("players") or [])
        before = self.seated.get(side)
        if before is not None and before[0] == pair and before[3] == self.round:
            # Each partner checks in from his own tablet: keep both players.
            players = before[1] + [p for p in players if p not in before[1]]
        self.seated[side] = (pair, players, env.time, self.round)
        alerts = [self._check_seating(a, side, pair, t, env.time),
                  self._check_players(side, body.get("players") or [], t, env.time)]
        if self.sitting is not None:
            alerts += self._check_board(t, env.time)
        return self._ack(env, t, True, alerts)

    def _check_seating(self, a: Assignment | None, side: Side, pair: int, t: float,
                       occurred: float) -> Alert | None:
        ctx = self.context
        facts: dict[str, Any]
        if a is None:
            if ctx.assignment(self.id, 1) is None:  # no movement for this table
                return None
            kind, detail, facts = (HubKind.WRONG_TABLE, Text.of(
                "alert.table_not_playing", table=self.id, round=self.round), {"scheduled": None})
        elif a.pair(side) == pair:
            return None
        elif a.pair(side.opponents) == pair:
            kind, detail = HubKind.WRONG_DIRECTION, Text.of(
                "alert.wrong_direction", pair=pair, side=str(side), table=self.id,
                round=self.round, scheduled=str(side.opponents))
            facts = {"scheduled": {"table": self.id, "direction": str(side.opponents)}}
        else:
            home = ctx.where(self.id, pair, self.round)
            if home is not None:
                kind, detail = HubKind.WRONG_TABLE, Text.of(
                    "alert.wrong_table", pair=pair, side=str(side), table=self.id,
                    round=self.round, scheduled=str(home[1]), home=home[0])
                facts = {"scheduled": {"table": home[0], "direction": str(home[1])}}
            else:
                kind, detail = HubKind.WRONG_PAIR, Text.of(
                    "alert.wrong_pair", pair=pair, side=str(side), table=self.id,
                    round=self.round)
                facts = {"scheduled": None}
        facts = {"pair": pair, "direction": str(side), "expected": None if a is None else
                 a.pair(side), **facts}
        # Filed under the round being seated, not under the board left from the last one.
        return self.context.alerts.raise_alert(
            f"{self.id}:r{self.round}:seat:{side}:{pair}", kind=kind.value, law="5B",
            table=self.id, round=self.round, board=None, detected=t, occurred=occurred,
            detail=detail, facts=facts, evidence=self.evidence, options=OPTIONS["seating"])

    def _check_players(self, side: Side, players: list[dict[str, Any]], t: float,
                       occurred: float) -> Alert | None:
        """An individual: a player checking in at a side the movement does not seat him at
        this round (Law 5B; protocol 7.1: each player gives his number)."""
        seats = self.context.round_info(self.id, self.round).get("players")
        mine = [seats[s]["number"] for s in ("NS" if side is Side.NS else "EW")
                if seats and s in seats]
        wrong = [p["number"] for p in players if seats and p.get("number") not in (None, *mine)]
        if not wrong:
            return None
        return self.context.alerts.raise_alert(
            f"{self.id}:r{self.round}:seat:{side}:player:{wrong[0]}",
            kind=HubKind.WRONG_PAIR.value, law="5B", table=self.id, round=self.round,
            board=None, detected=t, occurred=occurred, detail=Text.of(
                "alert.wrong_player", player=wrong[0], side=str(side), table=self.id,
                round=self.round, players=", ".join(map(str, mine))),
            facts={"pair": wrong[0], "direction": str(side), "expected": None,
                   "scheduled": None}, evidence=self.evidence, options=OPTIONS["seating"])

    def _board(self, env: Envelope, t: float) -> Outcome:
        number = env.body["board"]
        if number < 1:
            return self._reject(env, t, "malformed", f"board numbers start at 1, got {number}")
        current = self.sitting
        if current is not None and current is self.sittings.get((self._round_of(number),
                                                                   number)):
            return self._ack(env, t, False, reason=Text.of("deny.board_on_table"))
        alerts = self._start_board(number, t, env.time)
        withheld = self.sitting is not None and self.sitting.withheld
        return self._ack(env, t, True, alerts, withheld_message(number) if withheld else "")

    def allow_board(self, round_: int, number: int) -> None:
        """The director lets the table see board ``number`` of round ``round_`` although the
        movement does not give it here (hub.withheld)."""
        self.allowed.add((round_, number))
        sitting = self.sittings.get((round_, number))
        if sitting is not None and sitting.withheld:
            sitting.withheld = False
            sitting.generation += 1

    def _round_of(self, number: int) -> int:
        """The round a board belongs to here: the table's round, or the round before when
        the table is late (the board is the previous round's, unfinished, and the pairs of
        that round have not been replaced by a check-in for the new one)."""
        r = self.round - 1
        a = self.context.assignment(self.id, self.round)
        if a is None or number in a.boards or r < 1:
            return self.round
        prev = self.context.assignment(self.id, r)
        if (prev is not None and number in prev.boards and not self.finished(number)
                and all(x[3] <= r for x in self.seated.values())
                and self.pairs(r) == (prev.ns, prev.ew)):
            return r
        return self.round

    def _start_board(self, number: int, t: float, occurred: float) -> list[Alert | None]:
        r = self._round_of(number)
        sitting = self.sittings.get((r, number))
        if sitting is None:
            deal = self.context.deal(number)
            marks = self.context.markings(number)  # Law 2: the board's markings govern
            board = Board(number, deal if deal is not None else _NO_DEAL, dealer=marks.dealer,
                          vulnerability=marks.vulnerability, edition=self.context.edition)
            sitting = Sitting(board, r, deal is not None)
            a = self.context.assignment(self.id, r)
            sitting.withheld = (a is not None and number not in a.boards
                                and (r, number) not in self.allowed)
            self.sittings[(r, number)] = sitting
            self._unsettled.append((r, number))
        self.sitting = sitting
        self.settle_finished()
        return self._check_board(t, occurred)

    def settle_finished(self) -> None:
        """Compact the sittings the table can no longer come back to: over, not the board
        on the table, and of a round before the table's (``_round_of`` gives a finished
        board of the round before to no event). What a finished board keeps is its record
        (:meth:`Sitting.settle`); its reads' state (hub.reads) goes, so a table's memory
        does not grow with every board played beyond its record and result."""
        keep = []
        for key in self._unsettled:
            s = self.sittings[key]
            if s is not self.sitting and s.round < self.round and s.over:
                s.settle()
                self._read_states.pop(key, None)
            else:
                keep.append(key)
        self._unsettled = keep

    def _check_board(self, t: float, occurred: float) -> list[Alert | None]:
        s = self.sitting
        assert s is not None
        ctx = self.context
        number = s.board.number
        base = self._base()
        out: list[Alert | None] = []
        a = ctx.assignment(self.id, s.round)
        facts: dict[str, Any] = {"board": number}
        if a is not None and number not in a.boards:
            elsewhere = ctx.tables_with(self.id, number, s.round)
            facts.update(scheduled=list(a.boards), at_tables=elsewhere, withheld=s.withheld)
            out.append(self._alert(
                f"{base}:wrong_board", t, HubKind.WRONG_BOARD.value, "15", occurred=occurred,
                detail=Text.of(
                    "alert.wrong_board", board=number, table=self.id, round=s.round,
                    boards=", ".join(map(str, a.boards)) or "–",
                    more=[*([Text.of("alert.wrong_board_elsewhere", board=number,
                                     tables=", ".join(elsewhere))] if elsewhere else []),
                          *([Text.of("alert.wrong_board_withheld")] if s.withheld else [])]),
                facts=facts, options=OPTIONS["wrong_board"]))
        elif ctx.has_deals() and not s.has_record:
            out.append(self._alert(
                f"{base}:wrong_board", t, HubKind.WRONG_BOARD.value, "15", occurred=occurred,
                detail=Text.of("alert.board_unknown", board=number), facts=facts,
                options=OPTIONS["wrong_board"]))
        marks = Markings(s.board.dealer, s.board.vulnerability)
        differences = marks.law_2_differences(number) if s.has_record else ()
        if differences:  # one alert a board for the session: a fact of the hand record
            out.append(self._alert(
                f"markings:{number}", t, HubKind.BOARD_MARKINGS.value, "2", occurred=occurred,
                detail=Text.of("alert.board_markings", board=number,
                               markings=", ".join(differences)),
                facts={"board": number, **marks.to_json(),
                       "law_2": Markings.of_board(number).to_json()},
                options=OPTIONS["markings"]))
        pairs = self.pairs(s.round)
        earlier = {p: b for p in pairs if p is not None and (
            b := ctx.played_by(self.id, p).get(number)) is not None and b != (self.id, s.round)}
        for pair, before in earlier.items():
            # Law 15B: the other pair, if it had not played the board, is the one deprived
            others = [p for p in pairs if p is not None and p != pair and p not in earlier]
            more = {"deprived": others[0],
                    "deprived_side": "NS" if pairs[0] == others[0] else "EW"} if others else {}
            where = {"pair": pair, "board": number, "table": before[0], "round": before[1]}
            out.append(self._alert(
                f"{base}:played:{pair}", t, HubKind.BOARD_ALREADY_PLAYED.value, "15B",
                occurred=occurred,
                detail=Text.of("alert.board_already_played_deprived", **where, **more)
                if others else Text.of("alert.board_already_played", **where),
                facts={"pair": pair, "board": number, "table": before[0],
                       "round": before[1], **more}, options=OPTIONS["board_already_played"]))
        return out
