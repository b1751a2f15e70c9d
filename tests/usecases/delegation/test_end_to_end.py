"""Delegated creation through the real server, against a fake provider on loopback."""

from __future__ import annotations

from pathlib import Path

import httpx

from tests._serve import serving, storycore
from tests.usecases.delegation.conftest import SECRET, FakeProvider


def test_the_delegated_flow_works_through_the_real_server(
    tmp_path: Path, provider: FakeProvider, elsewhere: FakeProvider
) -> None:
    db = f"sqlite:///{tmp_path / 'stories.db'}"
    key = storycore("apps", "create", "partner", "--delegation", db=db).stdout.splitlines()[-1]
    provider.answer_user(screen_name="remote_rita")
    with serving(db, tmp_path, "--delegation-provider", provider.verify_url) as base:
        answer = httpx.post(
            f"{base}/v1/delegated/create",
            data={"api_key": key, "story": '{"title": "Sent from afar"}'},
            headers={
                "X-Auth-Service-Provider": provider.verify_url,
                "X-Verify-Credentials-Authorization": SECRET,
            },
            timeout=10,
        )
        refused = httpx.post(
            f"{base}/v1/delegated/create",
            data={"api_key": key, "story": '{"title": "Elsewhere"}'},
            headers={
                "X-Auth-Service-Provider": elsewhere.verify_url,
                "X-Verify-Credentials-Authorization": SECRET,
            },
            timeout=10,
        )
        shortlink = httpx.get(answer.json()["content"]["shortlink"], timeout=10)
    assert answer.status_code == 200
    assert answer.json()["content"]["permalink"] == f"{base}/remote_rita/sent-from-afar"
    assert (shortlink.status_code, shortlink.headers["location"]) == (
        301,
        f"{base}/remote_rita/sent-from-afar",
    )
    assert refused.status_code == 400
    assert len(provider.requests) == 1
    assert elsewhere.requests == []
