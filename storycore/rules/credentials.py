"""Secrets (docs/api.md#credentials): password hashes, api keys and tokens.

A password has at least ``MIN_PASSWORD_LENGTH`` characters and no control character, not even a
tab or a line break (docs/decisions.md#command-line), wherever a user gets one. Passwords are stored
as
salted scrypt hashes; api keys and tokens are random (32 bytes) and stored only as SHA-256
digests. Every comparison of secrets is constant-time.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
import unicodedata

from ..errors import InvalidParameter

__all__ = [
    "MIN_PASSWORD_LENGTH",
    "check_password",
    "digest",
    "hash_password",
    "is_password_hash",
    "is_valid_password",
    "new_secret",
    "same_digest",
    "verify_password",
]

MIN_PASSWORD_LENGTH = 8

_SCHEME = "scrypt"
_DUMMY_SALT = b"storycore-dummy!"


def is_valid_password(password: str) -> bool:
    """Whether ``password`` keeps the password rule."""
    return len(password) >= MIN_PASSWORD_LENGTH and not any(
        unicodedata.category(char) == "Cc" for char in password
    )


def check_password(password: str, field: str = "password") -> str:
    """``password``, or ``InvalidParameter`` naming ``field`` when it breaks the password rule."""
    if not is_valid_password(password):
        raise InvalidParameter(
            f"{field} must have at least {MIN_PASSWORD_LENGTH} characters and no control "
            "characters",
            field=field,
        )
    return password


def new_secret() -> str:
    """A fresh api key or token: 32 random bytes, URL-safe (43 characters)."""
    return secrets.token_urlsafe(32)


def digest(secret: str) -> str:
    """The SHA-256 hex digest under which a key or token is stored and looked up."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def same_digest(left: str, right: str) -> bool:
    """Whether two digests are equal, compared in constant time."""
    return hmac.compare_digest(left.encode(), right.encode())


def _scrypt(password: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(
        password.encode("utf-8", "surrogatepass"), salt=salt, n=n, r=r, p=p, maxmem=2**27, dklen=32
    )


def hash_password(password: str, *, cost: int = 2**14) -> str:
    """``scrypt$n$r$p$salt$hash`` for ``password``, with a fresh random salt."""
    salt = secrets.token_bytes(16)
    key = _scrypt(password, salt, cost, 8, 1)
    encode = base64.b64encode
    return f"{_SCHEME}${cost}$8$1${encode(salt).decode()}${encode(key).decode()}"


_MAX_N, _MAX_R, _MAX_P = 2**20, 32, 16  # the most a stored hash may ask a login to spend
_HASH = re.compile(
    r"scrypt\$(?P<n>[0-9]{1,8})\$(?P<r>[0-9]{1,2})\$(?P<p>[0-9]{1,2})"
    r"\$[A-Za-z0-9+/]{1,128}={0,2}\$[A-Za-z0-9+/]{1,128}={0,2}"
)


def is_password_hash(stored: str) -> bool:
    """Whether ``stored`` is a hash as ``hash_password`` writes it, at a cost a login can
    afford (n a power of two up to 2^20, r up to 32, p up to 16): what an import may keep.
    """
    shape = _HASH.fullmatch(stored)
    if shape is None:
        return False
    n, r, p = int(shape["n"]), int(shape["r"]), int(shape["p"])
    return 2 <= n <= _MAX_N and not n & (n - 1) and 1 <= r <= _MAX_R and 1 <= p <= _MAX_P


def verify_password(password: str, stored: str | None, *, cost: int = 2**14) -> bool:
    """Whether ``password`` matches ``stored``. With no stored hash (an unknown user, or one
    without a password) it does the same work and answers False, so timing tells nothing.
    """
    if stored is None:
        _scrypt(password, _DUMMY_SALT, cost, 8, 1)
        return False
    try:
        scheme, n, r, p, salt, key = stored.split("$")
        expected = base64.b64decode(key)
        actual = _scrypt(password, base64.b64decode(salt), int(n), int(r), int(p))
    except ValueError:
        return False
    return scheme == _SCHEME and hmac.compare_digest(actual, expected)
