"""PBN reader fuzzing and write-then-read properties on generated records (hypothesis)."""

import random
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bridgecore.calls import ALL_BIDS, DOUBLE, PASS, REDOUBLE, Contract, Risk
from bridgecore.cards import ALL_CARDS, Seat, Strain
from bridgecore.deal import Deal, Hand
from bridgecore.errors import FormatError
from bridgecore.pbn import PbnFile, read_pbn, write_pbn
from bridgecore.pbn_tokens import trick_winner
from bridgecore.pbn_writer import MANDATORY_TAGS
from bridgecore.record import CallRecord, CardRecord, GameRecord, Table
from bridgecore.vulnerability import Vulnerability
from tests.conftest import REALDATA

FUZZ = settings(max_examples=150, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
PBN_CHARS = st.sampled_from(list('[]{};"%\\#=$!?^*+-: \t\n\r.NESWAKQJT98765432SHDCXPas'
                                 '0123456789²٣\xa0'))
SAMPLES = [
    (REALDATA / "pbn-conformance" / "pbn_verifier_correct_10.pbn").read_bytes(),
    (REALDATA / "pbn-conformance" / "pbn_verifier_errors_10.pbn").read_bytes()[:6000],
    (REALDATA / "pbn-play" / "bbohelper_ben_friends_daylong_2024-06-03.pbn").read_bytes()[:4000],
    (REALDATA / "pbn-results" / "magiccontest_ffb_dn1_2022_seance1.pbn").read_bytes()[:9000],
]


def read_anything(data: str | bytes) -> PbnFile | None:
    """read_pbn either returns or raises FormatError; and what it returns can be written."""
    try:
        pbn = read_pbn(data)
    except FormatError:
        return None
    assert all("internal error" not in p.message for p in pbn.problems)
    assert all(p.line is not None and p.line >= 1 for p in pbn.problems)
    for export in (False, True):
        again = read_pbn(write_pbn(pbn.records, export=export))
        assert len(again.records) == len(pbn.records)
    return pbn


@FUZZ
@given(st.text(PBN_CHARS, max_size=400))
def test_random_pbn_like_text_never_crashes(text: str):
    read_anything(text)


@FUZZ
@given(st.binary(max_size=300))
def test_random_bytes_never_crash(data: bytes):
    read_anything(data)


def test_huge_numbers_are_problems_not_crashes():
    big = "9" * 5000
    text = (f'[Board "{big}"]\n[Dealer "N"]\n[Result "{big}"]\n[Score "NS {big}"]\n'
            f'[Auction "N"]\n1C ${big} ={big}= 1D 1{big}S\n[Note "{big}:x"]\n'
            f'[T "a\\{big}R"]\nx y\n')
    pbn = read_anything(text)
    assert pbn is not None and len(pbn.problems) == 7
    assert [str(c.call) for c in pbn.records[0].calls] == ["1C", "1D"]


@FUZZ
@given(st.sampled_from(range(len(SAMPLES))), st.randoms(use_true_random=False),
       st.integers(1, 8))
def test_mutated_real_files_never_crash(which: int, rnd: random.Random, count: int):
    data = bytearray(SAMPLES[which])
    for _ in range(count):
        i = rnd.randrange(len(data) + 1)
        kind = rnd.randrange(5)
        if kind == 0:
            del data[i:i + rnd.randrange(1, 40)]
        elif kind == 1:
            data[i:i] = bytes(rnd.choice(b'[]{};"%\\#=$!?^*+- \t\n\r\xe9') for _ in range(3))
        elif kind == 2 and i < len(data):
            data[i] = rnd.randrange(1, 256)
        elif kind == 3:
            j = rnd.randrange(len(data) + 1)
            data[i:i] = data[j:j + rnd.randrange(1, 200)]
        else:
            data[i:i] = b"\n"
    read_anything(bytes(data))


# Generated records -------------------------------------------------------------------------
TEXT = st.text(st.characters(min_codepoint=32, max_codepoint=255, exclude_characters="\x7f"),
               max_size=20)
NOTE_TEXT = TEXT.map(str.strip).filter(bool)
TAG_NAME = st.from_regex(r"[A-Z][A-Za-z0-9_]{0,10}", fullmatch=True).filter(
    lambda n: n not in MANDATORY_TAGS and n not in ("Auction", "Play", "Note")
    and not n.lower().endswith("table"))
TAG_VALUE = TEXT.filter(lambda v: not v.startswith("#"))
TOKEN = st.text(st.characters(min_codepoint=33, max_codepoint=126), min_size=1, max_size=6)
CALLS = [PASS, PASS, PASS, DOUBLE, REDOUBLE, *ALL_BIDS]


@st.composite
def records(draw: st.DrawFn) -> GameRecord:
    rnd = draw(st.randoms(use_true_random=False))
    board = draw(st.integers(1, 64))
    dealer = Seat.dealer_of(board)
    cards = list(ALL_CARDS)
    rnd.shuffle(cards)
    deal = Deal({seat: Hand.of(cards[13 * i:13 * i + 13]) for i, seat in enumerate(Seat)})
    calls = []
    seat = dealer.offset(draw(st.integers(0, 1)))
    for _ in range(draw(st.integers(0, 12))):
        explanation = draw(st.none() | NOTE_TEXT) if rnd.random() < 0.3 else None
        nags = tuple(sorted({f"${rnd.randrange(256)}" for _ in range(rnd.randrange(3))},
                            key=lambda n: int(n[1:])))
        marks = ("^I",) if rnd.random() < 0.1 else ()
        alert = explanation is not None or rnd.random() < 0.1
        calls.append(CallRecord(seat, rnd.choice(CALLS), None, alert, explanation, marks + nags))
        seat = seat.offset(1 if rnd.random() < 0.9 else 2)
    declarer = draw(st.sampled_from(list(Seat)))
    strain = draw(st.sampled_from(list(Strain)))
    contract = Contract(draw(st.integers(1, 7)), strain, draw(st.sampled_from(list(Risk))),
                        declarer)
    hands = {s: list(deal[s]) for s in Seat}
    plays = []
    leader = declarer.lho
    for _ in range(draw(st.integers(0, 13))):
        trick = []
        for j in range(4):
            s = leader.offset(j)
            card = hands[s].pop(rnd.randrange(len(hands[s])))
            marks = (rnd.choice(["^R", "^L"]),) if rnd.random() < 0.05 else ()
            trick.append(CardRecord(s, card, None, marks))
        plays.extend(trick)
        leader = trick_winner([(p.seat, p.card) for p in trick], strain) or leader
    if plays and rnd.random() < 0.5:
        plays = plays[:rnd.randrange(len(plays))]
    tags = draw(st.dictionaries(TAG_NAME, TAG_VALUE, max_size=4))
    tables = {}
    if rnd.random() < 0.5:
        columns = draw(st.lists(TOKEN.filter(lambda t: ";" not in t and "\\" not in t
                                             and not t.startswith("#")),
                                min_size=1, max_size=4))
        rows = draw(st.lists(st.lists(TOKEN | TEXT, min_size=1, max_size=5), max_size=4))
        tables["ScoreTable"] = Table(columns, rows)
    return GameRecord(
        board=board, dealer=dealer, vulnerability=Vulnerability.of_board(board), deal=deal,
        calls=calls, plays=plays, play_complete=len(plays) == 52, declarer=declarer,
        contract=contract, result=draw(st.none() | st.integers(0, 13)), tags=tags,
        tables=tables, commentary=draw(st.lists(TEXT.filter(lambda t: "}" not in t),
                                                max_size=2)))


def fields(r: GameRecord) -> tuple[object, ...]:
    return (r.board, r.dealer, r.vulnerability, r.deal, r.declarer, r.contract, r.result,
            [(c.seat, c.call, c.alert, c.explanation) for c in r.calls],
            [(p.seat, p.card) for p in r.plays], r.play_complete, r.commentary,
            {k: (t.columns, t.rows) for k, t in r.tables.items()},
            {k: v for k, v in r.tags.items() if k not in MANDATORY_TAGS and k not in r.tables
             and k not in ("Auction", "Play")})


@settings(max_examples=200, deadline=None)
@given(st.lists(records(), min_size=1, max_size=3), st.booleans())
def test_generated_records_survive_write_then_read(generated: list[GameRecord], export: bool):
    first = read_pbn(write_pbn(generated, export=export))
    assert first.problems == []
    assert [fields(r) for r in first.records] == [fields(r) for r in generated]
    # What was read once is read back exactly: every field, tag, note and annotation.
    second = read_pbn(write_pbn(first.records, export=export))
    for a, b in zip(first.records, second.records, strict=True):
        a.file = b.file = a.line = b.line = None  # type: ignore[assignment]
        a.problems = b.problems = []
        assert a == b


def test_fuzz_samples_are_real_files():
    assert all(len(sample) > 1000 for sample in SAMPLES)
    assert Path(REALDATA).is_dir()
