"""Webhook secrets (docs/webhooks.md, ``storycore.rules.webhook_secrets``): a secret in the
form Standard Webhooks gives it, sealed under the service's webhook key for storage (AES-GCM,
bound to its webhook's id), and signatures that the ``standardwebhooks`` package, the
receiver's side as a user writes it, verifies. The key is a setting that never shows.
"""

from __future__ import annotations

import base64
import re
import time
from datetime import UTC, datetime

import pytest
import standardwebhooks
from standardwebhooks.webhooks import WebhookVerificationError

from storycore import InvalidParameter, Settings
from storycore.rules.webhook_secrets import (
    PREFIX,
    WebhookKeyError,
    new_key,
    new_secret,
    parse_key,
    seal,
    signature,
    unseal,
)

BODY = b'{"type":"story.created","timestamp":"2026-01-01T00:00:00.000Z","data":{"sid":"a1"}}'


def _headers(message_id: str, stamp: int, signed: str) -> dict[str, str]:
    return {"webhook-id": message_id, "webhook-timestamp": str(stamp), "webhook-signature": signed}


# -- secrets ---------------------------------------------------------------------------------


def test_a_secret_is_whsec_and_the_base64_of_24_random_bytes() -> None:
    secret = new_secret()
    assert re.fullmatch(r"whsec_[A-Za-z0-9+/]{32}", secret)
    assert secret.startswith(PREFIX)
    assert len(base64.b64decode(secret.removeprefix(PREFIX), validate=True)) == 24


def test_each_secret_is_new() -> None:
    assert len({new_secret() for _ in range(100)}) == 100


# -- keys ------------------------------------------------------------------------------------


def test_a_new_key_is_32_bytes_of_url_safe_base64() -> None:
    key = new_key()
    assert re.fullmatch(r"[A-Za-z0-9_-]{43}=", key)
    assert parse_key(key) == base64.urlsafe_b64decode(key)
    assert new_key() != key


def test_a_key_is_read_without_the_whitespace_around_it() -> None:
    """As a key file holds it, with its newline."""
    key = new_key()
    assert parse_key(f"  {key}\n") == parse_key(key)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "not base64 at all!",
        "*" * 44,
        "é" * 44,
        base64.urlsafe_b64encode(bytes(32)).decode()[:-1],  # padding lost
    ],
    ids=["empty", "words", "stars", "not ascii", "without padding"],
)
def test_a_key_that_is_not_base64_is_refused(text: str) -> None:
    with pytest.raises(WebhookKeyError):
        parse_key(text)


@pytest.mark.parametrize("where", [0, 10, 43])
def test_a_key_with_a_character_base64_does_not_have_is_refused(where: int) -> None:
    """A stray character is no part of a key: it is not skipped over."""
    key = new_key()
    with pytest.raises(WebhookKeyError):
        parse_key(key[:where] + "!" + key[where:])


@pytest.mark.parametrize("size", [0, 16, 24, 31, 33, 64])
def test_a_key_of_other_than_32_bytes_is_refused(size: int) -> None:
    with pytest.raises(WebhookKeyError):
        parse_key(base64.urlsafe_b64encode(bytes(range(size))).decode())


# -- sealing ---------------------------------------------------------------------------------


def test_a_sealed_secret_opens_with_its_key_for_its_webhook() -> None:
    key, secret = parse_key(new_key()), new_secret()
    sealed = seal(key, secret, "wh_1")
    assert unseal(key, sealed, "wh_1") == secret


def test_a_sealed_secret_does_not_show_the_secret() -> None:
    key, secret = parse_key(new_key()), new_secret()
    sealed = seal(key, secret, "wh_1")
    assert secret not in sealed
    assert secret.removeprefix(PREFIX) not in sealed
    assert base64.b64decode(secret.removeprefix(PREFIX)) not in base64.urlsafe_b64decode(
        sealed.removeprefix("v1.")
    )


def test_sealing_twice_gives_two_sealed_texts() -> None:
    """A new nonce each time: two webhooks with one secret do not look alike."""
    key, secret = parse_key(new_key()), new_secret()
    assert seal(key, secret, "wh_1") != seal(key, secret, "wh_1")


def test_another_key_does_not_open_a_sealed_secret() -> None:
    sealed = seal(parse_key(new_key()), new_secret(), "wh_1")
    with pytest.raises(WebhookKeyError):
        unseal(parse_key(new_key()), sealed, "wh_1")


def test_a_sealed_secret_copied_to_another_webhook_does_not_open() -> None:
    key = parse_key(new_key())
    sealed = seal(key, new_secret(), "wh_1")
    with pytest.raises(WebhookKeyError):
        unseal(key, sealed, "wh_2")


def _tampered(sealed: str, position: int) -> str:
    raw = bytearray(base64.urlsafe_b64decode(sealed.removeprefix("v1.")))
    raw[position] ^= 0x01
    return "v1." + base64.urlsafe_b64encode(bytes(raw)).decode()


@pytest.mark.parametrize(
    "position",
    [0, 11, 12, 20, -1],
    ids=["nonce", "nonce end", "text", "text middle", "tag"],
)
def test_a_tampered_sealed_secret_is_refused(position: int) -> None:
    key = parse_key(new_key())
    sealed = seal(key, new_secret(), "wh_1")
    with pytest.raises(WebhookKeyError):
        unseal(key, _tampered(sealed, position), "wh_1")


@pytest.mark.parametrize(
    "sealed",
    ["", "v1.", "v1.AAAA", "v1.!!!!", "v2." + "A" * 80, "v1.é", "whsec_" + "A" * 32],
    ids=repr,
)
def test_a_text_that_is_no_sealed_secret_is_refused(sealed: str) -> None:
    with pytest.raises(WebhookKeyError):
        unseal(parse_key(new_key()), sealed, "wh_1")


def test_a_sealed_secret_cut_short_is_refused() -> None:
    key = parse_key(new_key())
    sealed = seal(key, new_secret(), "wh_1")
    with pytest.raises(WebhookKeyError):
        unseal(key, sealed[:-8], "wh_1")


# -- signatures ------------------------------------------------------------------------------


def test_a_signature_is_what_standardwebhooks_verifies() -> None:
    secret, stamp = new_secret(), int(time.time())
    signed = signature(secret, "evt_1", stamp, BODY)
    payload = standardwebhooks.Webhook(secret).verify(BODY, _headers("evt_1", stamp, signed))
    assert payload["type"] == "story.created"


def test_a_signature_is_what_standardwebhooks_signs() -> None:
    secret, stamp = new_secret(), int(time.time())
    theirs = standardwebhooks.Webhook(secret).sign(
        "evt_1", datetime.fromtimestamp(stamp, UTC), BODY.decode()
    )
    assert signature(secret, "evt_1", stamp, BODY) == theirs


@pytest.mark.parametrize(
    ("message_id", "shift", "body"),
    [
        ("evt_2", 0, BODY),
        ("evt_1", 1, BODY),
        ("evt_1", -1, BODY),
        ("evt_1", 0, BODY.replace(b"a1", b"a2")),
        ("evt_1", 0, BODY + b" "),
    ],
    ids=["another id", "a later timestamp", "an earlier timestamp", "another body", "a space"],
)
def test_a_changed_id_timestamp_or_body_fails_verification(
    message_id: str, shift: int, body: bytes
) -> None:
    """Within the tolerance of its timestamp: only the signature tells."""
    secret, stamp = new_secret(), int(time.time())
    signed = signature(secret, "evt_1", stamp, BODY)
    with pytest.raises(WebhookVerificationError):
        standardwebhooks.Webhook(secret).verify(body, _headers(message_id, stamp + shift, signed))


def test_another_secret_fails_verification() -> None:
    stamp = int(time.time())
    signed = signature(new_secret(), "evt_1", stamp, BODY)
    with pytest.raises(WebhookVerificationError):
        standardwebhooks.Webhook(new_secret()).verify(BODY, _headers("evt_1", stamp, signed))


# -- the setting -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "key",
    ["bad", "", base64.urlsafe_b64encode(bytes(16)).decode(), new_key()[:-2]],
    ids=["a word", "empty", "16 bytes", "cut short"],
)
def test_a_webhook_key_setting_that_is_no_key_is_refused(key: str) -> None:
    with pytest.raises(InvalidParameter) as refused:
        Settings(webhook_key=key)
    assert refused.value.field == "webhook_key"
    assert key == "" or key not in str(refused.value)


def test_the_webhook_key_setting_gives_its_32_bytes() -> None:
    key = new_key()
    assert Settings(webhook_key=key).webhook_key_bytes == parse_key(key)
    assert Settings().webhook_key_bytes is None


def test_settings_never_show_the_webhook_key() -> None:
    key = new_key()
    settings = Settings(webhook_key=key)
    for shown in (
        repr(settings),
        str(settings),
        settings.model_dump_json(),
        repr(settings.webhook_key),
    ):
        assert key not in shown
        assert key[:12] not in shown
