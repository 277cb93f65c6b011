"""The rectifications the Laws give for auction irregularities (Laws 25-39), as data.

Every function returns the :class:`~bridgecore.irregularity.Rectification` values the
director chooses from (Law 10C1: he explains all of them); nothing here is ever applied.
Texts name the seats concerned. Edition differences are read from
:class:`~bridgecore.editions.Edition` fields. Results are cached: the arguments are
small enums and strings.
"""

from __future__ import annotations

from functools import lru_cache

from bridgecore.calls import Call, CallKind
from bridgecore.cards import Seat
from bridgecore.editions import Edition
from bridgecore.irregularity import Rectification

__all__ = [
    "above_seven_options",
    "after_final_pass_options",
    "at_turn_of",
    "breach_detail",
    "breach_options",
    "change_of_call_options",
    "inadmissible_options",
    "inadmissible_reason",
    "insufficient_bid_options",
    "insufficient_detail",
    "lowest_sufficient",
    "out_of_rotation_detail",
    "out_of_rotation_options",
    "relation",
    "retention_options",
    "verb",
]

Options = tuple[Rectification, ...]
_R = Rectification
_DOUBLE_NAMES = {CallKind.DOUBLE: "double", CallKind.REDOUBLE: "redouble"}
_RELATIONS = ("lho", "partner", "rho")  # by clockwise distance from offender to player in turn
_STRAIN_NAMES = ("clubs", "diamonds", "hearts", "spades", "notrump")


# -- what happened, in words -------------------------------------------------------------------

def verb(call: Call) -> str:
    """"passed", "bid 1H", "doubled", "redoubled"."""
    kind = call.kind
    if kind is CallKind.PASS:
        return "passed"
    if kind is CallKind.BID:
        return f"bid {call}"
    return "doubled" if kind is CallKind.DOUBLE else "redoubled"


def relation(offender: Seat, in_turn: Seat) -> str:
    """Where the player in turn sits from the offender: "rho", "partner" or "lho"."""
    return _RELATIONS[offender.distance_to(in_turn) - 1]


def at_turn_of(offender: Seat, in_turn: Seat) -> str:
    """"E's turn (his RHO)"."""
    where = {"rho": "his RHO", "partner": "his partner", "lho": "his LHO"}
    return f"{in_turn}'s turn ({where[relation(offender, in_turn)]})"


def lowest_sufficient(last_bid: Call, bid: Call) -> Call | None:
    """27B1(a): the lowest bid in ``bid``'s denomination that supersedes ``last_bid``."""
    assert bid.strain is not None and last_bid.strain is not None
    level = last_bid.level if bid.strain > last_bid.strain else last_bid.level + 1
    return Call.bid(level, bid.strain) if level <= 7 else None


def insufficient_detail(bid: Call, last_bid: Call, bidder: Seat, lowest: Call | None) -> str:
    assert bid.strain is not None
    named = _STRAIN_NAMES[bid.strain]
    return f"insufficient bid {bid} after {last_bid} by {bidder}; " + (
        f"the lowest sufficient bid in {named} is {lowest}" if lowest is not None
        else f"no sufficient bid in {named} exists")


def out_of_rotation_detail(offender: Seat, call: Call, in_turn: Seat, any_bid: bool,
                           insufficient_after: Call | None) -> str:
    text = (f"{offender} {verb(call)} out of rotation at {at_turn_of(offender, in_turn)}"
            f"{'' if any_bid else ', before any bid'}")
    if insufficient_after is not None:
        text += f"; {call} is also insufficient after {insufficient_after}: Law 31 applies (27A2)"
    return text


def inadmissible_reason(kind: CallKind, seat: Seat, last_bid: Call | None, bidder: Seat | None,
                        risk: int, doubler: Seat | None) -> str:
    """Why a double (19A1) or redouble (19B1) by ``seat`` is not permitted."""
    if kind is CallKind.DOUBLE:
        if last_bid is None:
            reason = "there is no bid to double"
        elif bidder is not None and bidder.side is seat.side:
            reason = f"{last_bid} was bid by {bidder}, his own side"
        elif risk:
            reason = f"{last_bid} is already {'doubled' if risk == 1 else 'redoubled'}"
        else:
            reason = f"a call other than pass followed {last_bid}"
        return f"double not permitted by Law 19A1: {reason}"
    if last_bid is None or not risk:
        reason = "there is no double to redouble"
    elif risk == 2:
        reason = f"{last_bid} is already redoubled"
    elif doubler is not None and doubler.side is seat.side:
        reason = f"the double of {last_bid} was made by {doubler}, his own side"
    else:
        reason = f"a call other than pass followed the double of {last_bid}"
    return f"redouble not permitted by Law 19B1: {reason}"


def breach_detail(seat: Seat, call: Call, law: str, throughout: bool, no_double: bool) -> str:
    if no_double:
        return f"{seat} {verb(call)} while not allowed to double or redouble (Law {law})"
    when = "throughout" if throughout else "at this turn"
    return f"{seat} {verb(call)} while obliged to pass {when} (Law {law})"


# -- the director's options ---------------------------------------------------------------------


def _condoned(edition: Edition, law: str) -> str:
    """The law of "LHO called over the inadmissible call": 35 in 1997, else ``law``."""
    return "35" if edition.inadmissible_call_condoned_law_35 else law


def _accept(lho: Seat) -> Rectification:
    return _R("29A", f"{lho} may accept the call by calling; the auction continues from it "
                     "without rectification", "lho")


@lru_cache(maxsize=4096)
def out_of_rotation_options(edition: Edition, kind: CallKind, offender: Seat, in_turn: Seat,
                            any_bid: bool, called_before: bool) -> Options:
    """Laws 28-32: a call by ``offender`` at ``in_turn``'s turn, by call kind and relation."""
    x, p, lho = offender, offender.partner, offender.lho
    aw = edition.awareness_of_damage_law
    comparable = edition.comparable_call
    at_rho, at_partner, at_lho = in_turn is x.rho, in_turn is p, in_turn is lho
    out: list[Rectification] = [_accept(lho)]
    if at_rho:
        out.append(_R("28B", f"if {in_turn}, whose turn it was, calls first, his call stands "
                             "and the call out of rotation is cancelled (Law 16D2)"))
    out.append(_R("29B", f"otherwise the call is cancelled and the auction reverts to "
                         f"{in_turn}", "director"))
    change = _R("25", f"a call at {lho}'s turn by a player who has already called is a "
                      "change of call: Law 25 applies", "director")
    if kind is CallKind.PASS:
        if not any_bid:
            out.append(_R("30A", f"{x} must pass at his next turn", "director"))
        elif at_rho:
            out.append(_R("30B1", f"{x} must pass at his next turn; no further rectification",
                          "director"))
        elif at_lho and not comparable:
            out.append(_R("30B3", "treated as a change of call: Law 25 applies", "director"))
        elif comparable:
            out.append(_R("30B2", f"{p} may make any legal call at his turn (Law 16C2)",
                          "director"))
            out.append(_R("23", f"{x}'s call at his next turn: if comparable, no "
                                f"rectification; otherwise {p} must pass at his next turn "
                                f"(Laws 16C, 26B, {aw})", "director"))
        else:
            out.append(_R("30B2(a)", f"{x} must pass throughout (Law {aw} may apply)",
                          "director"))
            out.append(_R("30B2(b)", f"{p} may make any sufficient bid or pass at that turn, "
                                     "but may not double or redouble", "director"))
    elif kind is CallKind.BID:
        if at_lho and called_before:
            out.append(change)
        elif at_rho:
            out.append(_R("31A1", f"if {in_turn} passes, {x} must repeat the call; if it is "
                                  "then legal, no rectification", "director"))
            if comparable:
                out.append(_R("31A2", f"if {in_turn} bids, doubles or redoubles, {x} may make "
                                      "any legal call: a comparable call (Law 23) carries no "
                                      f"rectification; otherwise {p} must pass at his next "
                                      "turn (Law 26 may apply)", "director"))
            else:
                out.append(_R("31A2", f"if {in_turn} bids, doubles or redoubles, {x} may make "
                                      "any legal call: if it repeats the denomination of the "
                                      f"call out of rotation, {p} must pass at his next turn "
                                      f"(31A2(a)); otherwise {p} must pass throughout "
                                      f"(31A2(b); Laws 26 and {aw} may apply)", "director"))
        elif comparable:
            out.append(_R("31B", f"{p} may make any legal call at his turn (Law 16C2); {x}'s "
                                 "call at his turn: if comparable (Law 23), no rectification; "
                                 f"otherwise {p} must pass at his next turn (Law 26 may apply)",
                          "director"))
        else:
            out.append(_R("31B", f"{p} must pass throughout; {x} may make any legal call at "
                                 f"his turn (Laws 26 and {aw} may apply)", "director"))
        out.append(_R("29C", "if the call was artificial, the rectification applies to the "
                             "denomination(s) it specified, not the one named", "director"))
    else:
        name = _DOUBLE_NAMES[kind]
        if at_lho:
            out.append(change)
        elif at_partner:
            if comparable:
                out.append(_R("32A", f"{x}'s call at his turn: if comparable (Law 23), no "
                                     f"rectification; otherwise {p} must pass at his next "
                                     "turn (Law 26 may apply)", "director"))
            else:
                out.append(_R("32A", f"{p} must pass throughout (Laws 26B and {aw} may apply)",
                              "director"))
        else:
            out.append(_R("32B1", f"if {in_turn} passes, {x} must repeat the {name}, without "
                                  "rectification (unless it is then inadmissible: Law 36)",
                          "director"))
            rest = (f"a comparable call (Law 23) carries no rectification; otherwise {p} must "
                    "pass at his next turn" if comparable else
                    f"{p} must pass throughout (Laws 26B and {aw} may apply)")
            out.append(_R("32B2", f"if {in_turn} bids, doubles or redoubles, {x} may make any "
                                  f"legal call; {rest}", "director"))
    return tuple(out)


@lru_cache(maxsize=1024)
def insufficient_bid_options(edition: Edition, offender: Seat,
                             lowest: Call | None) -> Options:
    """Law 27: an insufficient bid in rotation; ``lowest`` is the 27B1(a) replacement."""
    x, p, lho = offender, offender.partner, offender.lho
    aw = edition.awareness_of_damage_law
    mode = edition.insufficient_bid_replacement
    out = [_R("27A1", f"{lho} may accept the insufficient bid by calling; it is then treated "
                      "as legal", "lho")]
    if lowest is not None:
        if mode == "mechanical":
            text = (f"replaced by {lowest}, the lowest sufficient bid in the same denomination, "
                    "both bids natural: no rectification, but an adjusted score if the "
                    "information from the insufficient bid damaged the non-offenders")
        elif mode == "comparable":
            text = (f"replaced by {lowest}, the lowest sufficient bid specifying the same "
                    "denomination(s) (it may be artificial): no rectification (see 27D)")
        else:
            text = (f"replaced by {lowest}, the lowest sufficient bid in the same denomination, "
                    "both bids incontrovertibly not artificial: no rectification, Law 16D does "
                    "not apply (see 27D)")
        out.append(_R("27B1(a)", text, "director"))
    if mode == "comparable":
        out.append(_R("27B1(b)", "replaced by a comparable call (Law 23): no rectification "
                                 "(see 27D)", "director"))
    elif mode == "same_meaning":
        out.append(_R("27B1(b)", "replaced by a legal call with the same or a more precise "
                                 "meaning: no rectification (see 27D)", "director"))
    out.append(_R("27B2", f"replaced by any other sufficient bid or a pass: {p} must pass "
                          f"throughout (Laws 26 and {aw} may apply)", "director"))
    out.append(_R("27B3", f"an attempted replacement by a double or redouble is cancelled; {x} "
                          f"must replace the insufficient bid and {p} must pass throughout",
                  "director"))
    if mode != "mechanical":
        out.append(_R("27B4", f"replaced by another insufficient bid: {lho} may accept it; "
                              "otherwise as 27B3", "director"))
        out.append(_R("27D", "after a 27B1 replacement, an adjusted score if without the help "
                             "of the insufficient bid the result could well have been "
                             "different", "director"))
    return tuple(out)


@lru_cache(maxsize=1024)
def inadmissible_options(edition: Edition, kind: CallKind, offender: Seat,
                         in_turn: Seat | None) -> Options:
    """Law 36: a double or redouble not permitted by Law 19 (``in_turn`` when out of rotation)."""
    x, p, lho = offender, offender.partner, offender.lho
    aw = edition.awareness_of_damage_law
    name = _DOUBLE_NAMES[kind]
    out = [
        _R(_condoned(edition, "36A"),
           f"if {lho} calls before rectification, the {name} and all later calls are "
           "cancelled; the auction reverts to the player whose turn it was and continues as "
           "if there had been no irregularity (no Law 26 lead restriction)"),
        _R("36B", f"otherwise the {name} is cancelled; {x} must substitute a legal call and "
                  f"{p} must pass throughout (Laws {aw} and 26 may apply)", "director"),
    ]
    if in_turn is not None:
        out.append(_R("36B4", f"as it was also out of rotation, the auction reverts to "
                              f"{in_turn}; {x} may make any legal call at his turn and {p} "
                              "must pass throughout", "director"))
    return tuple(out)


@lru_cache(maxsize=256)
def breach_options(edition: Edition, offender: Seat) -> Options:
    """Law 37: a bid, double or redouble by a player obliged to pass."""
    lho = offender.lho
    aw = edition.awareness_of_damage_law
    return (
        _R(_condoned(edition, "37A"),
           f"if {lho} calls before the director rules, the call and all later calls stand; "
           f"{offender} must still pass at later turns if obliged to pass throughout (no Law "
           "26 lead restriction)"),
        _R("37B", f"otherwise the call is cancelled and replaced by a pass; {offender} and "
                  f"{offender.partner} must pass throughout (Laws {aw} and 26 may apply)",
           "director"),
    )


@lru_cache(maxsize=256)
def above_seven_options(edition: Edition, offender: Seat) -> Options:
    """Law 38: a bid of more than seven."""
    aw = edition.awareness_of_damage_law
    return (
        _R("38A", "a contract above seven may never be played"),
        _R(_condoned(edition, "38B"), "the bid and all later calls are cancelled"),
        _R("38C", f"the bid is replaced by a pass; unless the auction has ended, it continues "
                  f"and {offender} and {offender.partner} must pass throughout", "director"),
        _R("38D", f"Laws {aw} and 26 may apply, but not if {offender.lho} called after the bid "
                  "and before rectification", "director"),
    )


@lru_cache(maxsize=1024)
def after_final_pass_options(edition: Edition, kind: CallKind, offender: Seat,
                             declarer: Seat | None) -> Options:
    """Law 39: a call after the final pass (``declarer`` None after a pass-out)."""
    out = [_R("39A", "the call is cancelled")]
    defender = declarer is not None and offender.side is not declarer.side
    if defender and kind is not CallKind.PASS:
        out.append(_R(_condoned(edition, "39B"),
                      f"if {offender.lho} calls before rectification, no further rectification"))
        out.append(_R("39C", f"otherwise Law 26 lead restrictions may apply to "
                             f"{offender.partner}'s lead", "declarer"))
    else:
        out.append(_R("39B", "no further rectification"))
    return tuple(out)


@lru_cache(maxsize=1024)
def change_of_call_options(edition: Edition, offender: Seat, original: Call,
                           after_final_pass: bool) -> Options:
    """Law 25: a second call by the same player for the same turn."""
    p, lho = offender.partner, offender.lho
    if edition.unintended_call_pause_test:
        unintended = (f"if the first call was unintended and is replaced without pause for "
                      f"thought before {p} calls, the intended call stands (subject to the law "
                      f"that applies to it); {lho} may withdraw a call made over the first call")
    else:
        unintended = (f"if the first call was unintended, it may be replaced until {p} calls, "
                      "however the player noticed (if the auction ended before, until the "
                      f"opening lead is faced); {lho} may withdraw a call made over the first "
                      "call")
    if edition.delayed_change_of_call_allowed:
        intended = (f"otherwise {lho} may accept the new call by calling; if not, either "
                    f"{original} stands and {p} must pass at his next turn, or {offender} "
                    "makes any legal call and his side's score is at most average-minus")
    else:
        intended = (f"otherwise {lho} may accept the new call by calling; if not, the new "
                    f"call is cancelled and {original} stands (Law 16D; Law 26 may apply)")
    out = [_R("25A", unintended, "director"), _R("25B", intended, "lho")]
    if after_final_pass:
        out.append(_R("39", "if the change is not allowed, the new call is a call after the "
                            "final pass: cancelled (39A)", "director"))
    return tuple(out)


@lru_cache(maxsize=256)
def retention_options(edition: Edition, skipped: Seat, first: int, last: int) -> Options:
    """Law 34 / 17E2 / 17D3: three passes, one out of rotation, do not end the auction."""
    calls = f"call {first}" if first == last else f"calls {first}-{last}"
    return (_R(edition.three_passes_one_out_of_rotation_law,
               f"the auction reverts to {skipped}, who missed his turn; the passes from "
               f"{calls} are cancelled (Law 16 applies to them) and the auction continues "
               "normally"),)
