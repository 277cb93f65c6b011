"""Dealing: BigDeal-compatible series, secure random deals, and seeded deals for tests.

:class:`BigDeal` reproduces Hans van Staveren's BigDeal 2.0 exactly (formats.md §5.1
steps 2-4): given the same 160-bit ``seed_random`` and owner string (``bigdealx -h``
and ``-W``), it makes the same deals, so a published seed lets anyone check a set
(SquareDeal). :func:`secure_deals` draws each deal uniformly from the D deals with the
operating system's CSPRNG (:mod:`secrets`). :func:`random_deal` is for simulations and
tests only: :class:`random.Random` is not fit for dealing tournament boards.
"""

from __future__ import annotations

import random
import secrets
import struct

from bridgecore.deal import Deal
from bridgecore.dealnumbers import D, goedel_deal, pavlicek_deal
from bridgecore.ripemd160 import ripemd160

__all__ = ["BigDeal", "random_deal", "secure_deals"]


def _check_range(first_board: int, last_board: int) -> None:
    if not 1 <= first_board <= last_board:
        raise ValueError(f"boards go from 1 and first <= last: {first_board}-{last_board}")


class BigDeal:
    """BigDeal's generator: RIPEMD-160 in counter mode over seed and owner.

    For each board, ``seqno`` goes up by one (the first hash uses 1) and
    ``RIPEMD160(seqno as 4 bytes little-endian || seed_random || RIPEMD160(owner))``
    gives a candidate: its first 12 bytes, big-endian. A candidate >= D is thrown
    away and the next seqno is tried; an accepted one is decoded with BigDeal's
    Gödel numbering. As in BigDeal, the counter starts afresh at every run, whatever
    the first board number: boards 5-8 of one run are boards 1-4 of another.
    """

    def __init__(self, seed_random: bytes, owner: str | bytes):
        if len(seed_random) != 20:
            raise ValueError(f"seed_random is 160 bits (20 bytes), got {len(seed_random)} bytes")
        self.seed_random = bytes(seed_random)
        self.owner = owner
        # BigDeal hashes the owner's C string (no NUL) as typed: pass bytes for a
        # non-ASCII owner written in another encoding than UTF-8.
        raw = owner if isinstance(owner, bytes) else owner.encode("utf-8")
        self._seed_owner = ripemd160(raw)

    def numbers(self, first_board: int, last_board: int) -> dict[int, tuple[int, int]]:
        """Board number -> (seqno used, Gödel number), as ``bigdealx -f goedel`` would log."""
        _check_range(first_board, last_board)
        out: dict[int, tuple[int, int]] = {}
        seqno = 0
        tail = self.seed_random + self._seed_owner
        for board in range(first_board, last_board + 1):
            while True:
                seqno += 1
                digest = ripemd160(struct.pack("<I", seqno & 0xFFFFFFFF) + tail)
                g = int.from_bytes(digest[:12], "big")
                if g < D:
                    break
            out[board] = (seqno, g)
        return out

    def deals(self, first_board: int, last_board: int) -> dict[int, Deal]:
        """The deals BigDeal makes for boards ``first_board`` to ``last_board``."""
        return {board: goedel_deal(g)
                for board, (_, g) in self.numbers(first_board, last_board).items()}

    def __repr__(self) -> str:
        return f"BigDeal(bytes.fromhex({self.seed_random.hex()!r}), {self.owner!r})"


def secure_deals(first_board: int, last_board: int) -> dict[int, Deal]:
    """Uniformly random deals from the OS CSPRNG: ``secrets.randbelow(D)``, Pavlicek-decoded."""
    _check_range(first_board, last_board)
    return {board: pavlicek_deal(secrets.randbelow(D))
            for board in range(first_board, last_board + 1)}


def random_deal(rng: random.Random) -> Deal:
    """A uniformly random deal from a seeded generator: tests and simulations only."""
    return pavlicek_deal(rng.randrange(D))
