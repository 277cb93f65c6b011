"""The three editions of the Laws as named variants: 1997, 2007 and 2017.

Every difference the code acts on is one field here, with the law it comes from;
code reads the field, never ``edition.name``. 2017 is the default (the Laws in
force). Where a 2017 detail is not in the seeds (the 2017 guide quotes only part
of the 2017 text), the 2007 rule is kept and the field says so; docs/editions.md
lists those places.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DEFAULT_EDITION", "EDITIONS", "Edition", "edition"]


@dataclass(frozen=True, slots=True)
class Edition:
    name: str

    # Revokes (Laws 61-64, 67) ---------------------------------------------------------
    revoke_extra_trick: bool
    """64A2 (1997 only): one more trick when the offender later wins a trick with a card he
    could legally have played to the revoke trick."""
    no_transfer_both_sides_revoked: bool
    """64B7 (2007, 2017): no automatic transfer when both sides revoked on the board."""
    no_transfer_corrected_revoke: bool
    """64B8 (2017): no transfer for a revoke corrected under 62C3."""
    acquiescence_establishes_revoke: bool
    """63A4 (2017): acquiescing in an opponent's claim establishes a revoke."""
    revoke_exclusions_count_established_only: bool
    """64B2 and 64B7 (2017): the second revoke and "both sides revoked" exclusions count only
    established revokes; 1997 and 2007 count every revoke."""
    omitted_card_with_suit_is_revoke: bool
    """67B1(a): an omitted card from a player who held the suit led is a deemed revoke
    (2007, 2017); in 1997 he places a card of the suit without penalty."""

    # Auction --------------------------------------------------------------------------
    insufficient_bid_replacement: str
    """27B1: "mechanical" (1997: only the lowest sufficient bid in the denomination, both
    natural, escapes rectification), "same_meaning" (2007 27B1(b)), "comparable" (2017,
    Law 23 comparable call)."""
    comparable_call: bool
    """2017 Laws 23, 30-32: a comparable replacement call after a call out of rotation
    carries no rectification; otherwise partner passes once. 1997 and 2007: partner
    passes throughout."""
    unintended_call_pause_test: bool
    """25A (2007): the correction of an unintended call must be made without pause for
    thought; 2017 drops the pause test (until partner calls)."""
    delayed_change_of_call_allowed: bool
    """25B (1997): a delayed change of call before LHO calls, the offending side's score
    capped at average-minus if the change is not accepted."""
    auction_period_starts_on_look: bool
    """17A: the auction period starts when a member of the side looks at his cards (1997)
    or removes them from the board (2007, 2017)."""
    three_passes_one_out_of_rotation_law: str
    """Where the rule "three passes, one of them out of rotation, do not end the auction"
    is: Law 34 (1997), 17E2 (2007), 17D3 (2017)."""
    inadmissible_call_condoned_law_35: bool
    """1997 Law 35: a call by LHO over an inadmissible call (double or redouble not
    permitted by Law 19, call by a player obliged to pass, bid above seven, call after the
    final pass) is ruled by Law 35 itself; 2007 and 2017 put it in 36A, 37A, 38D and 39B."""
    awareness_of_damage_law: str
    """The director adjusts when the offender could have known that his irregularity could
    damage the non-offenders: Law 23 (1997, 2007), 72C (2017)."""

    # Play -----------------------------------------------------------------------------
    lead_out_of_turn_trick13_withdrawn: bool
    """53A (2017): a lead out of turn at trick 13 must be withdrawn."""
    correct_lead_after_lead_out_of_turn_law: str
    """53C (1997, 2007), 53B (2017): the opponent whose turn it was leads correctly and the
    card led out of turn is withdrawn (2017 swapped 53B and 53C)."""
    card_played_twice_law: str
    """67B3 (2017): a card played twice, put back among the played cards; 1997 and 2007 only
    have the general Law 67."""
    premature_play_options: int
    """57A: declarer's options against a premature play: 3 (1997, 2007) or 4 (2017)."""
    high_in_fourth_seat_is_lowest_winner: bool
    """46B1 (1997): "high" designated in fourth seat is the lowest winning card."""

    # Adjusted scores (Laws 12, 86, 88) -------------------------------------------------
    indemnity_minimum_60: bool
    """88 (1997): a non-offender given an artificial adjusted score has at least 60%."""
    session_percentage_rule: bool
    """12C2(c) (2007, 2017): a non-offender above 60% on the session, or an offender
    below 40%, keeps his own session percentage instead of 60/40."""
    weighted_scores: bool
    """12C1(c) (2007, 2017): assigned adjusted scores may be weighted."""
    imp_average_plus: float
    imp_average: float
    imp_average_minus: float
    """12C2(b) / 86A: artificial scores in an IMP match."""
    fouled_board_includes_markings: bool
    """87A: a board is also fouled when dealer or vulnerability differ between copies
    (2007, 2017); 1997 speaks only of displaced cards."""

    def __str__(self) -> str:
        return self.name


EDITION_1997 = Edition(
    name="1997",
    revoke_extra_trick=True,
    no_transfer_both_sides_revoked=False,
    no_transfer_corrected_revoke=False,
    acquiescence_establishes_revoke=False,
    revoke_exclusions_count_established_only=False,
    omitted_card_with_suit_is_revoke=False,
    insufficient_bid_replacement="mechanical",
    comparable_call=False,
    unintended_call_pause_test=True,
    delayed_change_of_call_allowed=True,
    auction_period_starts_on_look=True,
    three_passes_one_out_of_rotation_law="34",
    inadmissible_call_condoned_law_35=True,
    awareness_of_damage_law="23",
    lead_out_of_turn_trick13_withdrawn=False,
    correct_lead_after_lead_out_of_turn_law="53C",
    card_played_twice_law="67",
    premature_play_options=3,
    high_in_fourth_seat_is_lowest_winner=True,
    indemnity_minimum_60=True,
    session_percentage_rule=False,
    weighted_scores=False,
    imp_average_plus=3.0,
    imp_average=0.0,
    imp_average_minus=-3.0,
    fouled_board_includes_markings=False,
)

EDITION_2007 = Edition(
    name="2007",
    revoke_extra_trick=False,
    no_transfer_both_sides_revoked=True,
    no_transfer_corrected_revoke=False,
    acquiescence_establishes_revoke=False,
    revoke_exclusions_count_established_only=False,
    omitted_card_with_suit_is_revoke=True,
    insufficient_bid_replacement="same_meaning",
    comparable_call=False,
    unintended_call_pause_test=True,
    delayed_change_of_call_allowed=False,
    auction_period_starts_on_look=False,
    three_passes_one_out_of_rotation_law="17E2",
    inadmissible_call_condoned_law_35=False,
    awareness_of_damage_law="23",
    lead_out_of_turn_trick13_withdrawn=False,
    correct_lead_after_lead_out_of_turn_law="53C",
    card_played_twice_law="67",
    premature_play_options=3,
    high_in_fourth_seat_is_lowest_winner=False,
    indemnity_minimum_60=False,
    session_percentage_rule=True,
    weighted_scores=True,
    imp_average_plus=3.0,
    imp_average=0.0,
    imp_average_minus=-3.0,
    fouled_board_includes_markings=True,
)

EDITION_2017 = Edition(
    name="2017",
    revoke_extra_trick=False,
    no_transfer_both_sides_revoked=True,
    no_transfer_corrected_revoke=True,
    acquiescence_establishes_revoke=True,
    revoke_exclusions_count_established_only=True,
    omitted_card_with_suit_is_revoke=True,
    insufficient_bid_replacement="comparable",
    comparable_call=True,
    unintended_call_pause_test=False,
    delayed_change_of_call_allowed=False,
    auction_period_starts_on_look=False,
    three_passes_one_out_of_rotation_law="17D3",
    inadmissible_call_condoned_law_35=False,
    awareness_of_damage_law="72C",
    lead_out_of_turn_trick13_withdrawn=True,
    correct_lead_after_lead_out_of_turn_law="53B",
    card_played_twice_law="67B3",
    premature_play_options=4,
    high_in_fourth_seat_is_lowest_winner=False,
    indemnity_minimum_60=False,
    session_percentage_rule=True,  # 12C2(c) not quoted by the 2017 guide: 2007 rule kept
    weighted_scores=True,
    imp_average_plus=3.0,
    imp_average=0.0,
    imp_average_minus=-3.0,
    fouled_board_includes_markings=True,
)

EDITIONS: dict[str, Edition] = {e.name: e for e in (EDITION_1997, EDITION_2007, EDITION_2017)}
DEFAULT_EDITION = EDITION_2017


def edition(name: str | int | Edition | None = None) -> Edition:
    """The edition named ``"1997"``, ``"2007"`` or ``"2017"`` (default 2017)."""
    if name is None:
        return DEFAULT_EDITION
    if isinstance(name, Edition):
        return name
    try:
        return EDITIONS[str(name)]
    except KeyError:
        raise ValueError(f"unknown edition of the Laws: {name!r} (1997, 2007 or 2017)") from None
