"""Webhook signing secrets: made, sealed for storage, and used to sign (docs/webhooks.md).

A secret is ``whsec_`` and the base64 of 24 random bytes, the form Standard Webhooks 1.0 gives
it: the ``standardwebhooks`` package and every receiver written for it take it as it is.

Signing needs the secret itself (an HMAC key cannot be stored as a hash and still sign), so a
store never holds it in clear: it is sealed with AES-256-GCM under the service's webhook key,
which lives outside the store (``Settings.webhook_key``), and bound to its webhook's id (the
associated data), so a sealed secret copied to another webhook's row does not open. A stolen
database alone signs nothing.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import secrets

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

__all__ = [
    "PREFIX",
    "WebhookKeyError",
    "new_key",
    "new_secret",
    "parse_key",
    "seal",
    "signature",
    "unseal",
]

PREFIX = "whsec_"
_SEALED = "v1."
_NONCE = 12


class WebhookKeyError(ValueError):
    """A webhook key that is not 32 bytes in base64, or a sealed secret it does not open."""


def new_secret() -> str:
    """A new signing secret, as a receiver is given it (once)."""
    return PREFIX + base64.b64encode(secrets.token_bytes(24)).decode("ascii")


def new_key() -> str:
    """A new webhook key (32 random bytes, URL-safe base64), for ``Settings.webhook_key``."""
    return base64.urlsafe_b64encode(secrets.token_bytes(32)).decode("ascii")


def parse_key(text: str) -> bytes:
    """The 32 bytes of a webhook key written as ``new_key`` writes it (whitespace around it
    aside). A character base64 does not have is refused, not skipped over as the lenient
    decoder does: a key is taken as written or not at all."""
    try:
        key = base64.b64decode(text.strip().encode("ascii"), altchars=b"-_", validate=True)
    except (binascii.Error, UnicodeEncodeError, ValueError) as exc:
        raise WebhookKeyError("the webhook key is not base64") from exc
    if len(key) != 32:
        raise WebhookKeyError("the webhook key must be 32 bytes (44 characters of base64)")
    return key


def seal(key: bytes, secret: str, webhook_id: str) -> str:
    """``secret`` encrypted and authenticated under ``key``, for the webhook ``webhook_id``."""
    nonce = secrets.token_bytes(_NONCE)
    sealed = AESGCM(key).encrypt(nonce, secret.encode("ascii"), webhook_id.encode())
    return _SEALED + base64.urlsafe_b64encode(nonce + sealed).decode("ascii")


def unseal(key: bytes, sealed: str, webhook_id: str) -> str:
    """The secret ``seal`` sealed; ``WebhookKeyError`` under another key or webhook."""
    if not sealed.startswith(_SEALED):
        raise WebhookKeyError("not a sealed secret")
    try:
        raw = base64.urlsafe_b64decode(sealed[len(_SEALED) :].encode("ascii"))
        opened = AESGCM(key).decrypt(raw[:_NONCE], raw[_NONCE:], webhook_id.encode())
    except (binascii.Error, InvalidTag, ValueError) as exc:
        raise WebhookKeyError("the sealed secret does not open with this key") from exc
    return opened.decode("ascii")


def signature(secret: str, message_id: str, timestamp: int, body: bytes) -> str:
    """The ``webhook-signature`` of Standard Webhooks 1.0: ``v1,`` and the base64 of the
    HMAC-SHA256, keyed by the secret's bytes, of ``"<id>.<timestamp>.<body>"``."""
    key = base64.b64decode(secret.removeprefix(PREFIX))
    signed = b"%s.%d.%s" % (message_id.encode(), timestamp, body)
    digest = hmac.new(key, signed, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode("ascii")
