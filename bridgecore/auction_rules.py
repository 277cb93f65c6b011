"""The rectifications the Laws give for auction irregularities (Laws 25-39), as data.

Every function returns the :class:`~bridgecore.irregularity.Rectification` values the
director chooses from (Law 10C1: he explains all of them); nothing here is ever applied.
Each option is a text (a ``rect.*`` key and its values: the seats concerned, a call,
law numbers) with its English words. Edition differences are read from
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
_R = Rectification.of
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
# Each option is said as a text (Rectification.of: a ``rect.*`` key, its English template and
# its values), so that the director and the player read it in their own language: a seat is a
# field ``..._seat``, a call ``..._call``; the law of the awareness of damage (Law 16 in 1997,
# 72C later) is the plain value ``damage_law``.


def _condoned(edition: Edition, law: str) -> str:
    """The law of "LHO called over the inadmissible call": 35 in 1997, else ``law``."""
    return "35" if edition.inadmissible_call_condoned_law_35 else law


def _accept(lho: Seat) -> Rectification:
    return _R("29A", "rect.accept_call", "{lho_seat} may accept the call by calling; the "
              "auction continues from it without rectification", "lho", lho_seat=lho)


def _pass_options(edition: Edition, x: Seat, in_turn: Seat, any_bid: bool) -> Options:
    """Law 30: a pass out of rotation."""
    p, aw = x.partner, edition.awareness_of_damage_law
    if not any_bid:
        return (_R("30A", "rect.pass_next_turn", "{offender_seat} must pass at his next turn",
                   "director", offender_seat=x),)
    if in_turn is x.rho:
        return (_R("30B1", "rect.pass_next_turn_only", "{offender_seat} must pass at his next "
                   "turn; no further rectification", "director", offender_seat=x),)
    if in_turn is x.lho and not edition.comparable_call:
        return (_R("30B3", "rect.pass_change_of_call", "treated as a change of call: Law 25 "
                   "applies", "director"),)
    if edition.comparable_call:
        return (_R("30B2", "rect.partner_any_call", "{partner_seat} may make any legal call at "
                   "his turn (Law 16C2)", "director", partner_seat=p),
                _R("23", "rect.comparable_next_turn", "{offender_seat}'s call at his next turn: "
                   "if comparable, no rectification; otherwise {partner_seat} must pass at his "
                   "next turn (Laws 16C, 26B, {damage_law})", "director", offender_seat=x,
                   partner_seat=p, damage_law=aw))
    return (_R("30B2(a)", "rect.offender_pass_throughout", "{offender_seat} must pass "
               "throughout (Law {damage_law} may apply)", "director", offender_seat=x,
               damage_law=aw),
            _R("30B2(b)", "rect.partner_no_double", "{partner_seat} may make any sufficient "
               "bid or pass at that turn, but may not double or redouble", "director",
               partner_seat=p))


def _bid_options(edition: Edition, x: Seat, in_turn: Seat, called_before: bool) -> Options:
    """Law 31: a bid out of rotation."""
    p, lho, aw = x.partner, x.lho, edition.awareness_of_damage_law
    out: list[Rectification] = []
    if in_turn is lho and called_before:
        out.append(_change_at(lho))
    elif in_turn is x.rho:
        out.append(_R("31A1", "rect.rho_passes_repeat", "if {in_turn_seat} passes, "
                      "{offender_seat} must repeat the call; if it is then legal, no "
                      "rectification", "director", in_turn_seat=in_turn, offender_seat=x))
        if edition.comparable_call:
            out.append(_R("31A2", "rect.rho_calls_comparable", "if {in_turn_seat} bids, doubles "
                          "or redoubles, {offender_seat} may make any legal call: a comparable "
                          "call (Law 23) carries no rectification; otherwise {partner_seat} must "
                          "pass at his next turn (Law 26 may apply)", "director",
                          in_turn_seat=in_turn, offender_seat=x, partner_seat=p))
        else:
            out.append(_R("31A2", "rect.rho_calls_denomination", "if {in_turn_seat} bids, "
                          "doubles or redoubles, {offender_seat} may make any legal call: if it "
                          "repeats the denomination of the call out of rotation, {partner_seat} "
                          "must pass at his next turn (31A2(a)); otherwise {partner_seat} must "
                          "pass throughout (31A2(b); Laws 26 and {damage_law} may apply)",
                          "director", in_turn_seat=in_turn, damage_law=aw,
                          offender_seat=x, partner_seat=p))
    elif edition.comparable_call:
        out.append(_R("31B", "rect.partner_turn_comparable", "{partner_seat} may make any legal "
                      "call at his turn (Law 16C2); {offender_seat}'s call at his turn: if "
                      "comparable (Law 23), no rectification; otherwise {partner_seat} must pass "
                      "at his next turn (Law 26 may apply)", "director",
                      offender_seat=x, partner_seat=p))
    else:
        out.append(_R("31B", "rect.partner_pass_throughout", "{partner_seat} must pass "
                      "throughout; {offender_seat} may make any legal call at his turn (Laws 26 "
                      "and {damage_law} may apply)", "director", damage_law=aw,
                      offender_seat=x, partner_seat=p))
    out.append(_R("29C", "rect.artificial_call", "if the call was artificial, the rectification "
                  "applies to the denomination(s) it specified, not the one named", "director"))
    return tuple(out)


def _double_options(edition: Edition, kind: CallKind, x: Seat, in_turn: Seat) -> Options:
    """Law 32: a double or redouble out of rotation."""
    p, lho, aw = x.partner, x.lho, edition.awareness_of_damage_law
    if in_turn is lho:
        return (_change_at(lho),)
    if in_turn is p:
        if edition.comparable_call:
            return (_R("32A", "rect.double_comparable", "{offender_seat}'s call at his turn: if "
                       "comparable (Law 23), no rectification; otherwise {partner_seat} must "
                       "pass at his next turn (Law 26 may apply)", "director",
                       offender_seat=x, partner_seat=p),)
        return (_R("32A", "rect.double_partner_pass", "{partner_seat} must pass throughout "
                   "(Laws 26B and {damage_law} may apply)", "director", partner_seat=p,
                   damage_law=aw),)
    if kind is CallKind.DOUBLE:
        repeat = _R("32B1", "rect.repeat_double", "if {in_turn_seat} passes, {offender_seat} "
                    "must repeat the double, without rectification (unless it is then "
                    "inadmissible: Law 36)", "director", in_turn_seat=in_turn, offender_seat=x)
    else:
        repeat = _R("32B1", "rect.repeat_redouble", "if {in_turn_seat} passes, {offender_seat} "
                    "must repeat the redouble, without rectification (unless it is then "
                    "inadmissible: Law 36)", "director", in_turn_seat=in_turn, offender_seat=x)
    if edition.comparable_call:
        rest = _R("32B2", "rect.double_rho_calls_comparable", "if {in_turn_seat} bids, doubles "
                  "or redoubles, {offender_seat} may make any legal call; a comparable call "
                  "(Law 23) carries no rectification; otherwise {partner_seat} must pass at his "
                  "next turn", "director", in_turn_seat=in_turn, offender_seat=x, partner_seat=p)
    else:
        rest = _R("32B2", "rect.double_rho_calls", "if {in_turn_seat} bids, doubles or "
                  "redoubles, {offender_seat} may make any legal call; {partner_seat} must pass "
                  "throughout (Laws 26B and {damage_law} may apply)", "director",
                  in_turn_seat=in_turn, damage_law=aw, offender_seat=x, partner_seat=p)
    return repeat, rest


def _change_at(lho: Seat) -> Rectification:
    return _R("25", "rect.change_at_turn", "a call at {lho_seat}'s turn by a player who has "
              "already called is a change of call: Law 25 applies", "director", lho_seat=lho)


@lru_cache(maxsize=4096)
def out_of_rotation_options(edition: Edition, kind: CallKind, offender: Seat, in_turn: Seat,
                            any_bid: bool, called_before: bool) -> Options:
    """Laws 28-32: a call by ``offender`` at ``in_turn``'s turn, by call kind and relation."""
    out: list[Rectification] = [_accept(offender.lho)]
    if in_turn is offender.rho:
        out.append(_R("28B", "rect.rho_calls_first", "if {in_turn_seat}, whose turn it was, "
                      "calls first, his call stands and the call out of rotation is cancelled "
                      "(Law 16D2)", None, in_turn_seat=in_turn))
    out.append(_R("29B", "rect.call_cancelled", "otherwise the call is cancelled and the "
                  "auction reverts to {in_turn_seat}", "director", in_turn_seat=in_turn))
    if kind is CallKind.PASS:
        out.extend(_pass_options(edition, offender, in_turn, any_bid))
    elif kind is CallKind.BID:
        out.extend(_bid_options(edition, offender, in_turn, called_before))
    else:
        out.extend(_double_options(edition, kind, offender, in_turn))
    return tuple(out)


@lru_cache(maxsize=1024)
def insufficient_bid_options(edition: Edition, offender: Seat,
                             lowest: Call | None) -> Options:
    """Law 27: an insufficient bid in rotation; ``lowest`` is the 27B1(a) replacement."""
    x, p, lho = offender, offender.partner, offender.lho
    aw = edition.awareness_of_damage_law
    mode = edition.insufficient_bid_replacement
    out = [_R("27A1", "rect.accept_insufficient", "{lho_seat} may accept the insufficient bid "
              "by calling; it is then treated as legal", "lho", lho_seat=lho)]
    if lowest is not None:
        if mode == "mechanical":
            out.append(_R("27B1(a)", "rect.lowest_natural_adjusted", "replaced by "
                          "{lowest_call}, the lowest sufficient bid in the same denomination, "
                          "both bids natural: no rectification, but an adjusted score if the "
                          "information from the insufficient bid damaged the non-offenders",
                          "director", lowest_call=lowest))
        elif mode == "comparable":
            out.append(_R("27B1(a)", "rect.lowest_same_denominations", "replaced by "
                          "{lowest_call}, the lowest sufficient bid specifying the same "
                          "denomination(s) (it may be artificial): no rectification (see 27D)",
                          "director", lowest_call=lowest))
        else:
            out.append(_R("27B1(a)", "rect.lowest_not_artificial", "replaced by {lowest_call}, "
                          "the lowest sufficient bid in the same denomination, both bids "
                          "incontrovertibly not artificial: no rectification, Law 16D does not "
                          "apply (see 27D)", "director", lowest_call=lowest))
    if mode == "comparable":
        out.append(_R("27B1(b)", "rect.comparable_replacement", "replaced by a comparable call "
                      "(Law 23): no rectification (see 27D)", "director"))
    elif mode == "same_meaning":
        out.append(_R("27B1(b)", "rect.same_meaning_replacement", "replaced by a legal call "
                      "with the same or a more precise meaning: no rectification (see 27D)",
                      "director"))
    out.append(_R("27B2", "rect.other_sufficient", "replaced by any other sufficient bid or a "
                  "pass: {partner_seat} must pass throughout (Laws 26 and {damage_law} may "
                  "apply)", "director", partner_seat=p, damage_law=aw))
    out.append(_R("27B3", "rect.double_replacement", "an attempted replacement by a double or "
                  "redouble is cancelled; {offender_seat} must replace the insufficient bid and "
                  "{partner_seat} must pass throughout", "director", offender_seat=x,
                  partner_seat=p))
    if mode != "mechanical":
        out.append(_R("27B4", "rect.insufficient_again", "replaced by another insufficient "
                      "bid: {lho_seat} may accept it; otherwise as 27B3", "director",
                      lho_seat=lho))
        out.append(_R("27D", "rect.adjusted_27d", "after a 27B1 replacement, an adjusted score "
                      "if without the help of the insufficient bid the result could well have "
                      "been different", "director"))
    return tuple(out)


@lru_cache(maxsize=1024)
def inadmissible_options(edition: Edition, kind: CallKind, offender: Seat,
                         in_turn: Seat | None) -> Options:
    """Law 36: a double or redouble not permitted by Law 19 (``in_turn`` when out of rotation)."""
    x, p = offender, offender.partner
    aw = edition.awareness_of_damage_law
    condoned = _condoned(edition, "36A")
    if kind is CallKind.DOUBLE:
        out = [
            _R(condoned, "rect.double_condoned", "if {lho_seat} calls before rectification, the "
               "double and all later calls are cancelled; the auction reverts to the player "
               "whose turn it was and continues as if there had been no irregularity (no Law 26 "
               "lead restriction)", None, lho_seat=offender.lho),
            _R("36B", "rect.double_cancelled", "otherwise the double is cancelled; "
               "{offender_seat} must substitute a legal call and {partner_seat} must pass "
               "throughout (Laws {damage_law} and 26 may apply)", "director", damage_law=aw,
               offender_seat=x, partner_seat=p)]
    else:
        out = [
            _R(condoned, "rect.redouble_condoned", "if {lho_seat} calls before rectification, "
               "the redouble and all later calls are cancelled; the auction reverts to the "
               "player whose turn it was and continues as if there had been no irregularity "
               "(no Law 26 lead restriction)", None, lho_seat=offender.lho),
            _R("36B", "rect.redouble_cancelled", "otherwise the redouble is cancelled; "
               "{offender_seat} must substitute a legal call and {partner_seat} must pass "
               "throughout (Laws {damage_law} and 26 may apply)", "director", damage_law=aw,
               offender_seat=x, partner_seat=p)]
    if in_turn is not None:
        out.append(_R("36B4", "rect.inadmissible_out_of_rotation", "as it was also out of "
                      "rotation, the auction reverts to {in_turn_seat}; {offender_seat} may make "
                      "any legal call at his turn and {partner_seat} must pass throughout",
                      "director", in_turn_seat=in_turn, offender_seat=x, partner_seat=p))
    return tuple(out)


@lru_cache(maxsize=256)
def breach_options(edition: Edition, offender: Seat) -> Options:
    """Law 37: a bid, double or redouble by a player obliged to pass."""
    aw = edition.awareness_of_damage_law
    return (
        _R(_condoned(edition, "37A"), "rect.breach_condoned", "if {lho_seat} calls before the "
           "director rules, the call and all later calls stand; {offender_seat} must still pass "
           "at later turns if obliged to pass throughout (no Law 26 lead restriction)", None,
           lho_seat=offender.lho, offender_seat=offender),
        _R("37B", "rect.breach_cancelled", "otherwise the call is cancelled and replaced by a "
           "pass; {offender_seat} and {partner_seat} must pass throughout (Laws {damage_law} "
           "and 26 may apply)", "director", offender_seat=offender,
           partner_seat=offender.partner, damage_law=aw),
    )


@lru_cache(maxsize=256)
def above_seven_options(edition: Edition, offender: Seat) -> Options:
    """Law 38: a bid of more than seven."""
    aw = edition.awareness_of_damage_law
    return (
        _R("38A", "rect.above_seven_never", "a contract above seven may never be played"),
        _R(_condoned(edition, "38B"), "rect.above_seven_cancelled", "the bid and all later "
           "calls are cancelled"),
        _R("38C", "rect.above_seven_pass", "the bid is replaced by a pass; unless the auction "
           "has ended, it continues and {offender_seat} and {partner_seat} must pass "
           "throughout", "director", offender_seat=offender, partner_seat=offender.partner),
        _R("38D", "rect.above_seven_damage", "Laws {damage_law} and 26 may apply, but not if "
           "{lho_seat} called after the bid and before rectification", "director",
           damage_law=aw, lho_seat=offender.lho),
    )


@lru_cache(maxsize=1024)
def after_final_pass_options(edition: Edition, kind: CallKind, offender: Seat,
                             declarer: Seat | None) -> Options:
    """Law 39: a call after the final pass (``declarer`` None after a pass-out)."""
    out = [_R("39A", "rect.after_final_cancelled", "the call is cancelled")]
    defender = declarer is not None and offender.side is not declarer.side
    if defender and kind is not CallKind.PASS:
        out.append(_R(_condoned(edition, "39B"), "rect.after_final_condoned", "if {lho_seat} "
                      "calls before rectification, no further rectification", None,
                      lho_seat=offender.lho))
        out.append(_R("39C", "rect.after_final_lead", "otherwise Law 26 lead restrictions may "
                      "apply to {partner_seat}'s lead", "declarer",
                      partner_seat=offender.partner))
    else:
        out.append(_R("39B", "rect.no_further", "no further rectification"))
    return tuple(out)


@lru_cache(maxsize=1024)
def change_of_call_options(edition: Edition, offender: Seat, original: Call,
                           after_final_pass: bool) -> Options:
    """Law 25: a second call by the same player for the same turn."""
    p, lho = offender.partner, offender.lho
    if edition.unintended_call_pause_test:
        unintended = _R("25A", "rect.unintended_no_pause", "if the first call was unintended "
                        "and is replaced without pause for thought before {partner_seat} calls, "
                        "the intended call stands (subject to the law that applies to it); "
                        "{lho_seat} may withdraw a call made over the first call", "director",
                        partner_seat=p, lho_seat=lho)
    else:
        unintended = _R("25A", "rect.unintended_until_partner", "if the first call was "
                        "unintended, it may be replaced until {partner_seat} calls, however the "
                        "player noticed (if the auction ended before, until the opening lead is "
                        "faced); {lho_seat} may withdraw a call made over the first call",
                        "director", partner_seat=p, lho_seat=lho)
    if edition.delayed_change_of_call_allowed:
        intended = _R("25B", "rect.change_average_minus", "otherwise {lho_seat} may accept the "
                      "new call by calling; if not, either {original_call} stands and "
                      "{partner_seat} must pass at his next turn, or {offender_seat} makes any "
                      "legal call and his side's score is at most average-minus", "lho",
                      lho_seat=lho, original_call=original, partner_seat=p,
                      offender_seat=offender)
    else:
        intended = _R("25B", "rect.change_cancelled", "otherwise {lho_seat} may accept the new "
                      "call by calling; if not, the new call is cancelled and {original_call} "
                      "stands (Law 16D; Law 26 may apply)", "lho", lho_seat=lho,
                      original_call=original)
    out = [unintended, intended]
    if after_final_pass:
        out.append(_R("39", "rect.change_after_final", "if the change is not allowed, the new "
                      "call is a call after the final pass: cancelled (39A)", "director"))
    return tuple(out)


@lru_cache(maxsize=256)
def retention_options(edition: Edition, skipped: Seat, first: int, last: int) -> Options:
    """Law 34 / 17E2 / 17D3: three passes, one out of rotation, do not end the auction."""
    law = edition.three_passes_one_out_of_rotation_law
    if first == last:
        return (_R(law, "rect.retention_one", "the auction reverts to {skipped_seat}, who "
                   "missed his turn; the passes from call {first} are cancelled (Law 16 applies "
                   "to them) and the auction continues normally", None, skipped_seat=skipped,
                   first=first),)
    return (_R(law, "rect.retention_range", "the auction reverts to {skipped_seat}, who missed "
               "his turn; the passes from calls {first}-{last} are cancelled (Law 16 applies to "
               "them) and the auction continues normally", None, skipped_seat=skipped,
               first=first, last=last),)
