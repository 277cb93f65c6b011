"""What tag reads at the four seats mean (firmware_bridge/seats.py), without threads or a
broker: hands out of the pocket, cards played, hands back, foreign cards (Laws 1, 7)."""

from __future__ import annotations

from bridgecore.cards import ALL_CARDS, Seat
from firmware_bridge.decks import DeckStore
from firmware_bridge.readers import TagRead
from firmware_bridge.seats import Report, TableReads
from tests.firmware_bridge.conftest import make_deck, uid
from tests.firmware_bridge.kit import played_out
from tests.hub.test_table import BOARD_1, DEALS

N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST
DEALS_2 = DEALS[2]
T0 = 1_000.0


class Table:
    """Reads at a table, one tenth of a second apart."""

    def __init__(self, decks: DeckStore, gap: float = 1.0):
        self.reads = TableReads("A1", decks, hand_gap=gap)
        self.clock = T0

    def state(self, board: int | None, phase: str) -> list[Report]:
        return self.reads.view({"table": "A1", "board": board, "phase": phase})

    def read(self, seat: Seat, *cards: str, deck: int = 1) -> list[Report]:
        out: list[Report] = []
        for card in cards:
            self.clock += 0.1
            out += self.reads.read(seat, TagRead(uid(deck, card), "sim:x", self.clock))
        return out

    def tag(self, seat: Seat, tag_uid: str) -> list[Report]:
        self.clock += 0.1
        return self.reads.read(seat, TagRead(tag_uid, "sim:x", self.clock))

    def wait(self, seconds: float) -> list[Report]:
        self.clock += seconds
        return self.reads.tick(self.clock)


def hand(seat: Seat) -> list[str]:
    return [str(c) for c in BOARD_1[seat]]


def test_law_7_a_hand_read_out_of_the_pocket_is_one_event_once_no_tag_comes(
        decks: DeckStore) -> None:
    table = Table(decks)
    table.state(1, "auction")
    assert table.read(N, *hand(N)) == []
    last = table.clock
    assert table.read(N, hand(N)[0]) == []            # shown twice: one card
    assert table.reads.deadline == last + 1.0
    assert table.wait(0.5) == []
    [report] = table.wait(0.5)
    assert report == Report("hand", {"seat": "N", "cards": hand(N), "when": "out", "board": 1},
                            last, {"board": 1})
    assert table.wait(5) == [] and table.reads.deadline is None
    # A card found in the pocket later, before play: the hand goes again, complete.
    assert table.read(E, *hand(E)[:12]) == []
    [short] = table.wait(1.0)
    assert len(short.body["cards"]) == 12
    table.read(E, hand(E)[12])
    [full] = table.wait(1.0)
    assert full.body["cards"] == hand(E) and full.time == table.clock - 1.0


def test_play_starting_completes_the_hands_being_read(decks: DeckStore) -> None:
    table = Table(decks, gap=10)
    table.state(1, "auction")
    table.read(S, *hand(S))
    [report] = table.state(1, "play")
    assert report.body["seat"] == "S" and report.body["cards"] == hand(S)


def test_cards_played_go_at_once_a_trick_shown_again_is_ignored_then_the_hand_goes_back(
        decks: DeckStore) -> None:
    """Law 7C: the hand read back into the pocket at the end."""
    table = Table(decks)
    table.state(1, "play")
    [lead] = table.read(W, "S2")
    assert lead == Report("card", {"seat": "W", "card": "S2", "source": "reader"}, table.clock,
                          {"board": 1})
    assert table.read(W, "S2") == []                  # the quitted trick shown again
    played = table.read(W, *hand(W)[1:])
    assert [r.body["card"] for r in played] == hand(W)[1:]
    assert table.read(W, *hand(W)) == []              # 13 played: now read back
    [back] = table.wait(1.0)
    assert back.body == {"seat": "W", "cards": hand(W), "when": "back", "board": 1}
    table.state(1, "over")                            # the others after a claim
    table.read(N, *hand(N)[:5])
    [north] = table.wait(1.0)
    assert north.body["when"] == "back" and len(north.body["cards"]) == 5


def test_law_1_a_tag_of_no_deck_or_of_another_pack_is_a_foreign_card(
        decks: DeckStore) -> None:
    table = Table(decks)
    table.state(1, "auction")
    table.read(N, *hand(N)[:12])
    table.read(N, "SA", deck=2)                       # blue's ace: blue is board 2's pack
    table.tag(N, "04FFFFFFFFFF01")
    [report] = table.wait(1.0)
    assert report.body["cards"] == [*hand(N)[:12], "blue:SA", "?04FFFFFFFFFF01"]
    table.state(1, "play")
    [card] = table.read(N, "HA", deck=2)
    assert card.body["card"] == "blue:HA"


def test_without_a_deck_for_the_board_the_first_deck_read_is_the_pack() -> None:
    table = Table(DeckStore(decks=[make_deck("red", 1), make_deck("blue", 2)]))
    table.state(5, "play")
    assert [r.body["card"] for r in table.read(E, "SA", deck=2)] == ["SA"]
    assert [r.body["card"] for r in table.read(E, "SK", deck=1)] == ["red:SK"]


def test_hands_read_before_the_board_is_announced_wait_for_its_number(
        decks: DeckStore) -> None:
    unassigned = DeckStore(decks=[make_deck("red", 1)])
    table = Table(unassigned)
    table.state(None, "waiting")
    table.read(N, *hand(N))
    assert table.wait(2.0) == [] and table.reads.deadline is None
    [report] = table.state(3, "auction")
    assert report.body["board"] == 3 and report.body["cards"] == hand(N)
    # A pack enrolled for one board names it: the hand is sent with that board.
    assigned = Table(decks)
    assigned.state(None, "waiting")
    assigned.read(S, *hand(S))
    [report] = assigned.wait(1.0)
    assert report.body["board"] == 1


def test_a_new_board_sends_what_was_read_for_the_old_one_first(decks: DeckStore) -> None:
    table = Table(decks, gap=10)
    table.state(1, "over")
    table.read(E, *hand(E))
    [back] = table.state(2, "auction")
    assert back.body == {"seat": "E", "cards": hand(E), "when": "back", "board": 1}
    table.read(E, *[str(c) for c in ALL_CARDS[:13]], deck=2)
    [out] = table.wait(10)
    assert out.body["board"] == 2 and out.body["when"] == "out"
    assert out.body["cards"] == [str(c) for c in ALL_CARDS[:13]]


def test_hands_being_read_when_the_readers_stop_are_sent_as_they_are(
        decks: DeckStore) -> None:
    """Nothing read is dropped: a hand half read goes out when the daemon stops."""
    table = Table(decks, gap=10)
    table.state(1, "auction")
    table.read(W, *hand(W)[:7])
    [report] = table.reads.flush()
    assert report.body["cards"] == hand(W)[:7] and report.time == table.clock
    assert table.reads.flush() == []


# Cut off from the hub (issue 16): the tags alone say where the table is --------------------
def _legal_play() -> list[tuple[Seat, str]]:
    return played_out(BOARD_1, "1H", S)


def _offline_with_hands_out(decks: DeckStore) -> Table:
    table = Table(decks, gap=1.0)
    table.state(1, "auction")
    table.reads.connection(False)
    for seat in Seat:
        table.read(seat, *hand(seat))
    assert len(table.wait(1.0)) == 4          # the four hands out, as online
    return table


def test_cut_off_a_card_read_again_alone_is_played_the_auction_being_over(
        decks: DeckStore) -> None:
    """Law 41: the opening lead comes after the auction; cut off, no state says the auction
    ended, and a card of West's hand read again on its own is that lead: it goes, the gap
    later, with its tag's time and the board it was read on."""
    table = _offline_with_hands_out(decks)
    assert table.read(W, "S2") == []          # kept for the gap: alone, or a hand going back?
    read_at = table.clock
    assert table.reads.deadline == read_at + 1.0
    [lead] = table.wait(1.0)
    assert lead == Report("card", {"seat": "W", "card": "S2", "source": "reader"}, read_at,
                          {"board": 1})
    assert table.reads.phase == "play"
    # The next cards of the trick, each alone at its seat: played, in the order read even
    # when they settle in the same moment.
    table.read(N, "SA")
    table.read(E, "ST")
    table.read(S, "S3")
    assert [(r.body["seat"], r.body["card"]) for r in table.wait(1.0)] == [
        ("N", "SA"), ("E", "ST"), ("S", "S3")]


def test_cut_off_a_hand_read_again_together_goes_back_into_the_pocket(
        decks: DeckStore) -> None:
    """Law 7C: a board passed out, the hands go back: several tags at once are no card."""
    table = _offline_with_hands_out(decks)
    table.read(N, *hand(N))
    [back] = table.wait(1.0)
    assert back.type == "hand" and back.body == {"seat": "N", "cards": hand(N),
                                                 "when": "back", "board": 1}
    assert back.at == {"board": 1} and table.reads.phase == "auction"


def test_cut_off_the_next_boards_pack_is_the_next_board_once_this_one_is_played(
        decks: DeckStore) -> None:
    """Board 2's pack (deck "blue", enrolled for board 2 alone) read once every seat has
    played its 13 cards: the table is at board 2, whose hands go out with its number."""
    table = _offline_with_hands_out(decks)
    played: list[Report] = []
    for i, (seat, card) in enumerate(_legal_play()):
        played += table.read(seat, card)
        if i % 4 == 3:
            played += table.wait(1.0)        # each trick quitted before the next lead
    played += table.wait(1.0)
    assert [r.body["card"] for r in played if r.type == "card"] == \
        [card for _, card in _legal_play()]
    board2 = [str(c) for c in DEALS_2[N]]
    assert table.read(N, *board2, deck=2) == []
    assert table.reads.board == 2 and table.reads.phase is None
    [out] = table.wait(1.0)
    assert out.body["board"] == 2 and out.body["when"] == "out" and out.at == {"board": 2}


def test_board_two_pack_read_in_the_middle_of_the_play_is_a_foreign_card_not_a_new_board(
        decks: DeckStore) -> None:
    """Law 1: a card of another pack mid-play is foreign; the board does not change."""
    table = _offline_with_hands_out(decks)
    table.read(W, "S2")
    table.wait(1.0)
    [foreign] = table.read(N, str(next(iter(DEALS_2[N]))), deck=2)
    assert table.reads.board == 1 and foreign.body["card"].startswith("blue:")


def test_back_online_a_state_behind_what_was_read_is_passed_over(decks: DeckStore) -> None:
    """The hub has not applied yet what the table did while cut off (the tablet's calls
    still in its outbox): its state of board 1 in the auction does not undo the play the
    tags showed; once it shows the play, it leads again."""
    table = _offline_with_hands_out(decks)
    table.read(W, "S2")
    table.wait(1.0)
    table.reads.connection(True)
    assert table.state(1, "auction") == []
    assert table.reads.phase == "play"
    [card] = table.read(N, "SA")                # online: at once, as the state says play
    assert card.body["card"] == "SA"
    table.state(1, "play")
    table.state(1, "over")
    assert table.reads.phase == "over"
