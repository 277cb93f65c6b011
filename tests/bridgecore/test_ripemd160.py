"""RIPEMD-160 (formats.md §5.1): the pure-Python fallback against the published test vectors."""

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

import bridgecore.ripemd160 as rmd
from bridgecore.ripemd160 import ripemd160, ripemd160_pure

# Dobbertin, Bosselaers, Preneel: "RIPEMD-160: A Strengthened Version of RIPEMD", test vectors.
VECTORS = [
    (b"", "9c1185a5c5e9fc54612808977ee8f548b2258d31"),
    (b"a", "0bdc9d2d256b3ee9daae347be6f4dc835a467ffe"),
    (b"abc", "8eb208f7e05d987a9b044a8e98c6b087f15a0bfc"),
    (b"message digest", "5d0689ef49d2fae572b881b123a85ffa21595f36"),
    (b"abcdefghijklmnopqrstuvwxyz", "f71c27109c692c1b56bbdceb5b9d2865b3708dbc"),
    (b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
     "12a053384a9c0c88e405a06c27dcf49ada62eb2b"),
    (b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
     "b0e20b6e3116640286ed3a87a5713079b21f5189"),
    (b"1234567890" * 8, "9b752e45573d4b39f4dbd3323cab82bf63326bfb"),
]


def _hashlib_has_ripemd160() -> bool:
    try:
        hashlib.new("ripemd160")
    except ValueError:
        return False
    return True


@pytest.mark.parametrize("message,digest", VECTORS)
def test_pure_implementation_matches_the_standard_vectors(message, digest):
    assert ripemd160_pure(message).hex() == digest


@pytest.mark.parametrize("message,digest", VECTORS)
def test_ripemd160_matches_the_standard_vectors(message, digest):
    assert ripemd160(message).hex() == digest


def test_pure_implementation_million_a():
    """The long vector (about 2 s in pure Python): one million times 'a'."""
    assert ripemd160_pure(b"a" * 1_000_000).hex() == "52783243c1697bdbe16d37f97f68f08325dc1528"


@given(st.binary(max_size=300))
def test_pure_agrees_with_hashlib_on_any_input(data):
    if not _hashlib_has_ripemd160():  # the fallback is all there is; the vectors test it
        assert ripemd160(data) == ripemd160_pure(data)
        return
    assert ripemd160_pure(data) == hashlib.new("ripemd160", data).digest()


@pytest.mark.parametrize("length", [54, 55, 56, 57, 63, 64, 65, 119, 120, 128])
def test_padding_boundaries(length):
    data = bytes(range(256))[:length] if length <= 256 else b""
    assert ripemd160_pure(data) == ripemd160(data)
    assert len(ripemd160_pure(data)) == 20


def test_falls_back_to_pure_python_when_openssl_lacks_ripemd160(monkeypatch):
    def refuse(name, data=b""):
        raise ValueError(f"unsupported hash type {name}")

    monkeypatch.setattr(rmd.hashlib, "new", refuse)
    assert rmd._pick() is ripemd160_pure
