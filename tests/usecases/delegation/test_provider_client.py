"""The real provider client on its own, against a fake provider on loopback."""

from __future__ import annotations

import asyncio
import socket

from storycore.contrib.identity import HttpProviderClient
from storycore.usecases.identity import ANSWER_CAP, NoAnswer, ProviderAnswer
from tests.usecases.delegation.conftest import SECRET, FakeProvider


def test_the_client_answers_when_called_from_a_coroutine(provider: FakeProvider) -> None:
    provider.answer_user()

    async def caller() -> ProviderAnswer | NoAnswer:
        return HttpProviderClient().get(
            provider.verify_url, SECRET, timeout=2.0, max_bytes=ANSWER_CAP
        )

    answer = asyncio.run(caller())
    assert isinstance(answer, ProviderAnswer)
    assert answer.status == 200
    assert b'"screen_name":"alice_a"' in answer.body


def test_the_client_returns_at_most_one_byte_past_the_cap(provider: FakeProvider) -> None:
    provider.answer_user(bio="x" * (4 * ANSWER_CAP))
    answer = HttpProviderClient().get(provider.verify_url, SECRET, timeout=2.0, max_bytes=100)
    assert isinstance(answer, ProviderAnswer)
    assert len(answer.body) == 101


def test_a_provider_that_refuses_the_connection_is_no_answer_saying_so() -> None:
    client = HttpProviderClient()
    answer = client.get(
        f"http://127.0.0.1:{_closed_port()}/verify", SECRET, timeout=2.0, max_bytes=100
    )
    assert answer == NoAnswer("refused")


def test_a_provider_whose_name_does_not_resolve_is_no_answer_saying_so() -> None:
    client = HttpProviderClient()
    answer = client.get("http://no-such-host.invalid/verify", SECRET, timeout=2.0, max_bytes=100)
    assert answer == NoAnswer("unresolved")


def _closed_port() -> int:
    """A loopback port that nothing listens on (bound, then closed)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
