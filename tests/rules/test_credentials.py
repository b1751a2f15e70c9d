"""Secrets (docs/api.md#credentials): passwords stored with salted scrypt, api keys and tokens
random
(at least 32 bytes, 43 or more characters, docs/api.md) and stored only as SHA-256 digests, every
comparison constant-time."""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from storycore.rules.credentials import (
    digest,
    hash_password,
    new_secret,
    same_digest,
    verify_password,
)

BOUNDED = settings(max_examples=30, deadline=None, database=None)
COST = 2**4  # scrypt's n, kept low so the tests are fast; the format and checks are the same


def test_a_password_hash_verifies_its_password() -> None:
    assert verify_password("correct horse", hash_password("correct horse", cost=COST))


def test_a_password_hash_refuses_another_password() -> None:
    assert not verify_password("wrong horse", hash_password("correct horse", cost=COST))


def test_a_password_hash_is_scrypt_with_its_parameters_salt_and_key() -> None:
    stored = hash_password("pw", cost=COST)
    scheme, n, r, p, salt, key = stored.split("$")
    assert (scheme, n, r, p) == ("scrypt", "16", "8", "1")
    assert len(base64.b64decode(salt)) == 16
    assert len(base64.b64decode(key)) == 32


def test_the_default_cost_is_scrypt_n_16384() -> None:
    assert hash_password("pw").startswith("scrypt$16384$8$1$")


def test_hashing_a_password_twice_uses_two_salts() -> None:
    assert hash_password("pw", cost=COST) != hash_password("pw", cost=COST)


def test_a_password_hash_does_not_hold_the_password() -> None:
    password = "a-memorable-password"
    stored = hash_password(password, cost=COST)
    assert password not in stored
    assert base64.b64encode(password.encode()).decode() not in stored


def test_a_hash_verifies_with_the_cost_it_records_whatever_cost_is_asked() -> None:
    assert verify_password("pw", hash_password("pw", cost=COST), cost=2**14)


@BOUNDED
@given(st.text(max_size=40))
def test_any_password_verifies_against_its_own_hash(password: str) -> None:
    assert verify_password(password, hash_password(password, cost=COST), cost=COST)


def test_a_lone_surrogate_in_a_password_is_hashed_without_error() -> None:
    assert verify_password("\ud800", hash_password("\ud800", cost=COST), cost=COST)


def test_no_stored_hash_verifies_nothing() -> None:
    assert not verify_password("pw", None, cost=COST)


def test_checking_against_no_hash_does_the_work_of_one_check(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[int] = []
    original = hashlib.scrypt

    def counting(*args: Any, **kwargs: Any) -> bytes:
        calls.append(kwargs["n"])
        return original(*args, **kwargs)

    monkeypatch.setattr(hashlib, "scrypt", counting)
    verify_password("pw", None, cost=COST)
    assert calls == [COST]


def _valid_parts() -> list[str]:
    return hash_password("pw", cost=COST).split("$")


@pytest.mark.parametrize(
    "stored",
    [
        "",
        "plain-text-password",
        "pw",
        "scrypt$16$8$1$only-five",
        "scrypt$sixteen$8$1$AAAA$AAAA",
        "scrypt$15$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAA",  # n not a power of two
        "scrypt$16$8$1$not base64!$AAAA",
        "scrypt$16$8$1$é$AAAA",
        "scrypt$1099511627776$8$1$AAAA$AAAA",  # over the memory cap
    ],
)
def test_a_malformed_stored_hash_verifies_nothing(stored: str) -> None:
    assert not verify_password("pw", stored, cost=COST)


def test_a_hash_of_another_scheme_verifies_nothing() -> None:
    parts = _valid_parts()
    assert not verify_password("pw", "$".join(["argon2", *parts[1:]]), cost=COST)


def test_passwords_are_compared_in_constant_time(monkeypatch: pytest.MonkeyPatch) -> None:
    compared: list[tuple[Any, Any]] = []
    original = hmac.compare_digest

    def recording(left: Any, right: Any) -> bool:
        compared.append((left, right))
        return original(left, right)

    stored = hash_password("pw", cost=COST)
    monkeypatch.setattr(hmac, "compare_digest", recording)
    assert verify_password("pw", stored, cost=COST)
    assert len(compared) == 1


def test_a_new_secret_holds_32_random_bytes_url_safe() -> None:
    secret = new_secret()
    assert len(secret) >= 43
    assert re.fullmatch(r"[A-Za-z0-9_-]+", secret)
    assert len(base64.urlsafe_b64decode(secret + "=" * (-len(secret) % 4))) >= 32


def test_new_secrets_are_distinct() -> None:
    assert len({new_secret() for _ in range(200)}) == 200


def test_a_digest_is_the_sha256_hex_of_the_secret() -> None:
    assert digest("abc") == hashlib.sha256(b"abc").hexdigest()


def test_a_digest_is_64_lowercase_hex_characters() -> None:
    assert re.fullmatch(r"[0-9a-f]{64}", digest(new_secret()))


def test_a_digest_does_not_hold_its_secret() -> None:
    secret = new_secret()
    assert secret not in digest(secret)


def test_a_digest_of_text_with_a_lone_surrogate_is_computed() -> None:
    assert len(digest("\udfff")) == 64


@BOUNDED
@given(st.text(), st.text())
def test_two_secrets_have_one_digest_only_when_equal(left: str, right: str) -> None:
    assert (digest(left) == digest(right)) == (left == right)


def test_equal_digests_are_the_same_digest() -> None:
    assert same_digest(digest("a"), digest("a"))


def test_different_digests_are_not_the_same_digest() -> None:
    assert not same_digest(digest("a"), digest("b"))


def test_digests_are_compared_in_constant_time(monkeypatch: pytest.MonkeyPatch) -> None:
    compared: list[tuple[Any, Any]] = []
    original = hmac.compare_digest

    def recording(left: Any, right: Any) -> bool:
        compared.append((left, right))
        return original(left, right)

    monkeypatch.setattr(hmac, "compare_digest", recording)
    same_digest(digest("a"), digest("b"))
    assert len(compared) == 1
