"""The real provider client on its own, against a fake provider on loopback."""

from __future__ import annotations

import asyncio

from storycore.contrib.identity import HttpProviderClient
from storycore.identity import ANSWER_CAP, ProviderAnswer

from .conftest import SECRET, FakeProvider


def test_the_client_answers_when_called_from_a_coroutine(provider: FakeProvider) -> None:
    provider.answer_user()

    async def caller() -> ProviderAnswer | None:
        return HttpProviderClient().get(
            provider.verify_url, SECRET, timeout=2.0, max_bytes=ANSWER_CAP
        )

    answer = asyncio.run(caller())
    assert answer is not None
    assert answer.status == 200
    assert b'"screen_name":"alice_a"' in answer.body


def test_the_client_returns_at_most_one_byte_past_the_cap(provider: FakeProvider) -> None:
    provider.answer_user(bio="x" * (4 * ANSWER_CAP))
    answer = HttpProviderClient().get(provider.verify_url, SECRET, timeout=2.0, max_bytes=100)
    assert answer is not None
    assert len(answer.body) == 101


def test_an_unreachable_provider_is_no_answer() -> None:
    client = HttpProviderClient()
    assert client.get("http://127.0.0.1:9/verify", SECRET, timeout=2.0, max_bytes=100) is None
