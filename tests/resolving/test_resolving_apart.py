"""Resolving does not block other requests (docs/decisions.md#serving): with an online resolver, a
story write that waits on another host is answered apart from the threads of storage requests,
so a write of another story is answered as if it were not in flight."""

from __future__ import annotations

import asyncio

import httpx

from storycore import Service
from storycore.adapters import open_store
from storycore.contrib.asgi import StorycoreASGI
from tests.resolving.conftest import FakeSite, online_resolver, online_settings

#: The longest the test waits for the site to get the slow create's fetch.
WAIT_SECONDS = 30


def test_a_write_that_resolves_does_not_hold_up_another_write(site: FakeSite) -> None:
    """The other write is answered while the first still waits on a site that hangs (one
    storage thread: were the resolving write holding it, the other would wait its turn)."""
    settings = online_settings(resolver_timeout=60, resolver_budget=60)
    service = Service(open_store("memory://"), settings, resolver=online_resolver(settings))
    service.accounts.create_user("alice", "alice-password")
    key = service.accounts.create_app("app").api_key
    token = service.accounts.authenticate(key, "alice", "alice-password").token
    credentials = {"api_key": key, "username": "alice", "_token": token}
    app = StorycoreASGI(service, threads=1, owns_service=True)
    hanging = site.page("/hang", "", hang=True)

    async def both() -> None:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            other = await client.post(
                "/v1/stories/alice/create", json={**credentials, "story": {"title": "Other"}}
            )
            slug = other.json()["content"]["slug"]
            slow = asyncio.create_task(
                client.post(
                    "/v1/stories/alice/create",
                    json={**credentials, "story": {"title": "Slow", "elements": [hanging]}},
                )
            )
            async with asyncio.timeout(WAIT_SECONDS):
                while not site.in_flight:  # the slow create is resolving
                    await asyncio.sleep(0.01)
            saved = await client.post(
                f"/v1/stories/alice/{slug}/save",
                json={**credentials, "story": {"description": "meanwhile"}},
            )
            assert saved.status_code == 200
            assert not slow.done()
            site.release()
            assert (await slow).status_code == 200

    try:
        asyncio.run(both())
    finally:
        service.close()
