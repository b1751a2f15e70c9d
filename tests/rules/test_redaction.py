"""Secrets never reach a log (docs/decisions.md): ``redact`` writes the value of
``api_key``, ``_token``, ``password``, a webhook's ``secret``, the credential headers and the
webhook signature header as ``***``, whatever their case or percent-encoding and however they
are written; ``RedactSecrets`` does it to every part of a log record a handler writes."""

from __future__ import annotations

import io
import json
import logging
import time
from collections.abc import Iterator

import pytest
from pythonjsonlogger.json import JsonFormatter

from storycore.rules.redaction import SECRET_NAMES, RedactSecrets, redact

SECRET = "s3cret-Value"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("/v1/x?api_key=K&_token=T&a=1", "/v1/x?api_key=***&_token=***&a=1"),
        ("/v1/x?a=1&password=p%20w", "/v1/x?a=1&password=***"),
        ("api_key=K&username=bob&password=P", "api_key=***&username=bob&password=***"),
    ],
    ids=["query", "encoded-value", "form-body"],
)
def test_a_secret_parameter_s_value_is_written_as_stars(text: str, expected: str) -> None:
    assert redact(text) == expected


@pytest.mark.parametrize(
    "name", ["API_KEY", "Api_Key", "_Token", "PASSWORD", "api%5Fkey", "api%5fkey", "%61pi_key"]
)
def test_a_secret_name_is_found_in_any_case_and_percent_encoding(name: str) -> None:
    assert redact(f"/v1/x?{name}={SECRET}") == f"/v1/x?{name}=***"


def test_a_secret_name_inside_another_parameter_s_value_is_found() -> None:
    assert redact(f"/login?next=/v1/x%3F&next=/v1?api_key={SECRET}") == (
        "/login?next=/v1/x%3F&next=/v1?api_key=***"
    )


def test_a_secret_in_a_path_segment_is_found() -> None:
    assert SECRET not in redact(f"/v1/stories;_token={SECRET}/x")


@pytest.mark.parametrize(
    "text",
    [
        json.dumps({"username": "bob", "password": SECRET}),
        repr({"api_key": SECRET}),
        repr([("authorization", f"Bearer {SECRET}"), ("x-api-key", SECRET)]),
        f"Authorization: Bearer {SECRET}\r\nHost: example.org",
        f"X-Verify-Credentials-Authorization: OAuth {SECRET}",
    ],
    ids=["json", "dict", "header-pairs", "header-line", "verify-header"],
)
def test_a_secret_in_json_a_mapping_or_a_header_is_written_as_stars(text: str) -> None:
    redacted = redact(text)
    assert SECRET not in redacted
    assert "***" in redacted


#: A webhook's signing secret and a signature made with it (docs/webhooks.md).
WEBHOOK_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
SIGNATURE = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="


@pytest.mark.parametrize(
    "text",
    [
        json.dumps({"id": "wh_1", "url": "https://example.org/hook", "secret": WEBHOOK_SECRET}),
        repr({"secret": WEBHOOK_SECRET}),
        f"webhook-id: evt_1\r\nwebhook-signature: {SIGNATURE}\r\nwebhook-timestamp: 1",
        f"Webhook-Signature: {SIGNATURE}",
        repr([("webhook-id", "evt_1"), ("webhook-signature", SIGNATURE)]),
        json.dumps({"webhook-signature": SIGNATURE}),
    ],
    ids=["json", "dict", "header-line", "header-case", "header-pairs", "header-json"],
)
def test_a_webhook_secret_and_a_signature_are_written_as_stars(text: str) -> None:
    redacted = redact(text)
    assert WEBHOOK_SECRET not in redacted
    assert SIGNATURE not in redacted
    assert SIGNATURE.removeprefix("v1,") not in redacted
    assert "***" in redacted


def test_text_without_secrets_is_unchanged() -> None:
    text = '127.0.0.1:5000 - "GET /v1/stories/browse/latest?page=2&username=bob HTTP/1.1" 200'
    assert redact(text) == text


def test_names_alone_are_not_values() -> None:
    assert redact("send api_key, _token and password") == "send api_key, _token and password"


def test_a_name_that_only_ends_like_a_secret_is_not_one() -> None:
    assert redact("x_api_key=1&api_keys=2") == "x_api_key=1&api_keys=2"


def test_every_secret_name_is_lowercase() -> None:
    assert all(name == name.lower() for name in SECRET_NAMES)


@pytest.fixture
def logged() -> Iterator[tuple[logging.Logger, io.StringIO]]:
    """A logger whose one handler has the filter, and what that handler writes."""
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.addFilter(RedactSecrets())
    logger = logging.getLogger("storycore.test-redaction")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    yield logger, out
    logger.removeHandler(handler)


def test_the_filter_redacts_uvicorn_s_access_arguments_and_keeps_them_a_tuple(
    logged: tuple[logging.Logger, io.StringIO],
) -> None:
    logger, out = logged
    record = logger.makeRecord(
        logger.name, logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:1", "GET", f"/v1/x?_token={SECRET}", "1.1", 200), None,
    )  # fmt: skip
    logger.handle(record)
    assert out.getvalue() == '127.0.0.1:1 - "GET /v1/x?_token=*** HTTP/1.1" 200\n'
    assert record.args == ("127.0.0.1:1", "GET", "/v1/x?_token=***", "1.1", 200)


def test_the_filter_redacts_a_secret_whose_name_is_in_the_format(
    logged: tuple[logging.Logger, io.StringIO],
) -> None:
    logger, out = logged
    logger.warning("api_key=%s refused", SECRET)
    assert out.getvalue() == "api_key=*** refused\n"


def test_the_filter_redacts_a_traceback(logged: tuple[logging.Logger, io.StringIO]) -> None:
    logger, out = logged
    try:
        raise ValueError(f"bad password={SECRET}")
    except ValueError:
        logger.exception("failed")
    assert "ValueError: bad password=***" in out.getvalue()
    assert SECRET not in out.getvalue()


def test_the_filter_redacts_extra_fields_a_json_line_writes(
    logged: tuple[logging.Logger, io.StringIO],
) -> None:
    logger, out = logged
    # pytest (9.1 on) may add its own capturing handlers to a logger: this is the fixture's
    [handler] = [handler for handler in logger.handlers if getattr(handler, "stream", None) is out]
    handler.setFormatter(JsonFormatter())
    try:
        raise ValueError(f"_token={SECRET}")
    except ValueError:
        logger.exception("failed", extra={"url": f"https://x.example/?api_key={SECRET}"})
    line = json.loads(out.getvalue())
    assert line["url"] == "https://x.example/?api_key=***"
    assert "_token=***" in line["exc_info"]
    assert SECRET not in out.getvalue()


def test_a_long_text_is_read_once() -> None:
    """Every access line is redacted, and a client chooses its path: a name-like run of
    characters is read once, so four times the text costs about four times as much, where
    reading it again from each character cost sixteen times as much (seconds for a 16 KB path).
    What is compared is this thread's processor time, which other work on the machine does not
    inflate, taken turn about for the two lengths, the least of several turns each."""
    short, long = (f"/{'a' * length}?api_key={SECRET}" for length in (4_000, 16_000))
    assert redact(long).endswith("?api_key=***")
    costs: dict[str, list[float]] = {short: [], long: []}
    for _ in range(9):
        for text, spent in costs.items():
            began = time.thread_time()
            for _ in range(5):
                redact(text)
            spent.append(time.thread_time() - began)
    assert min(costs[long]) / min(costs[short]) < 8
