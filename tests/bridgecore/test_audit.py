"""The laws audit of a game record (what `tenace check` prints), edition by edition."""

import random

from bridgecore import Call, Card, Deal, Seat, edition
from bridgecore.audit import audit_record
from bridgecore.board import Board
from bridgecore.record import CallRecord, CardRecord, GameRecord

DEAL = Deal.parse("N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85")
AUCTION = ["1D", "1S", "Pass", "Pass", "Pass"]  # board 1: North deals, East declares 1S
# Trick 1: S leads H2, dummy (W) HA wins. Trick 2: dummy leads C8, North discards D7 while
# holding five clubs (a revoke, Law 61A); South wins with CK. Trick 3: South leads C4 (North's
# side plays to the next trick: established, 63A1), North wins with CA, a card he could have
# played to the revoke trick (the 1997 extra trick, 64A2).
PLAY = ["H2", "HA", "H3", "H5",  "C8", "D7", "CQ", "CK",  "C4", "C5", "CA", "C6"]


def revoke_record() -> GameRecord:
    board = Board(1, DEAL)
    for call in AUCTION:
        board.make_call(board.turn, Call.parse(call))
    seat = board.turn
    for i, text in enumerate(PLAY):
        seat = board.play.turn
        board.push_card(seat, Card.parse(text), float(100 + i))
    rng = random.Random(7)
    while not board.play.is_complete:
        board.play_card(board.play.turn, rng.choice(board.play.legal_cards))
    calls = [CallRecord(e.seat, e.call) for e in board.auction.entries]
    plays = [CardRecord(s, c, t) for s, c, t in board.play.history]
    return GameRecord(board=1, deal=DEAL, calls=calls, auction_complete=True, plays=plays,
                      play_complete=True)


def test_law_64A2_revoke_found_established_and_one_trick_transferred():
    record = revoke_record()
    result = audit_record(record, edition("2017"))
    revokes = [i for i in result.irregularities if i.kind.value == "revoke"]
    assert len(revokes) == 1
    revoke = revokes[0].to_json()
    assert revoke["seat"] == "N" and revoke["trick"] == 2 and revoke["established"] is True
    assert revoke["law"] == "64A2" and revoke["transfer"] == 1
    assert result.contract_text == "1S" and result.declarer is Seat.EAST
    assert result.tricks_rectified == result.tricks + 1
    # Score on the rectified tricks (Law 77, board 1 none vulnerable), North-South's view.
    assert (result.score_ns < 0) == (result.tricks_rectified >= 7)


def test_1997_edition_adds_the_trick_won_with_a_card_of_the_revoke_suit():
    """1997 Law 64A2: North later wins a trick with a club he could have played to the revoke."""
    record = revoke_record()
    r2007 = audit_record(record, edition("2007"))
    r1997 = audit_record(record, edition("1997"))
    assert r1997.tricks_rectified == r2007.tricks_rectified + 1
    transfer = [i.transfer for i in r1997.irregularities if i.kind.value == "revoke"]
    assert transfer == [2]


def test_deal_problems_become_irregularities_and_stop_the_play_audit():
    bad = Deal.parse("N:A.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.8")
    record = GameRecord(board=1, deal=bad, result=9,
                        contract=None, calls=[])
    kinds = sorted(i.kind.value for i in audit_record(record).irregularities)
    assert kinds == ["duplicate_card", "missing_card", "wrong_card_count", "wrong_card_count"]


def test_claim_from_result_when_the_play_stops_early():
    """Laws 68-69: an incomplete play with a Result is declarer's claim, accepted."""
    record = revoke_record()
    record.plays = record.plays[:12]
    record.play_complete = False
    record.result = 8
    result = audit_record(record)
    assert result.tricks == 8
    # The claim by the declaring side does not establish North's revoke; North's side
    # already established it by playing to trick 3 (63A1).
    assert [i.established for i in result.irregularities if i.kind.value == "revoke"] == [True]


def test_result_that_does_not_fit_the_play_is_reported_not_raised():
    record = revoke_record()
    record.plays = record.plays[:12]
    record.result = 13 + 1
    result = audit_record(record)
    assert any("does not fit" in p.message for p in result.problems)


def test_record_without_auction_uses_the_contract_tags():
    from bridgecore import Contract
    record = GameRecord(board=2, deal=DEAL, contract=Contract.parse("3NT"),
                        declarer=Seat.SOUTH, result=10)
    result = audit_record(record)
    assert result.contract_text == "3NT" and result.tricks == 10
    assert result.score_ns == 630  # board 2: NS vulnerable (Law 2), 3NT+1
