"""Replaying what a real v1 client sent to the real Storify v1 service
(docs/api.md#calls-and-answers).

``tests/data/storify-v1-traffic/`` holds 164 exchanges recorded in December 2013 by the test
suite of a Ruby client library against the live service (its README says what is kept).

Each recorded request is sent to ``HttpApp`` as it was recorded (its path, raw query, headers and
raw body), with the recorder's stand-ins mapped to a real world: ``mock_username`` (and the real
account ``rtejpar`` the bodies name) is the user ``rtejpar``, ``mock_apikey`` an application's
key, ``mock__token`` a token of ``rtejpar`` through it, ``mock_password`` their password. The
story a request acts on or reads exists first, made from the recorded story JSON where a
recorded read holds it (a story sent back as it was read), else from its slug; a story that did
not exist when the request was recorded does not exist here either.

Every recorded write (create, save, publish, editslug, delete) and every recorded read answers
200 as it did. Storycore implements every path the client called, so no path is left out. A
request the service refused is refused here too, with the status of the decisions where they
differ from Storify's (``DIFFERENCES``, each with its reason).
"""

from __future__ import annotations

import functools
import gzip
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urlsplit

import orjson
import pytest

from storycore import Service
from storycore.adapters import open_store
from tests._traffic import INTERACTIONS
from tests.conftest import TEST_SETTINGS
from tests.http._clients import AppClient

EXCHANGES = sorted(
    p.name.removesuffix(".request.json") for p in INTERACTIONS.glob("*.request.json")
)

USER, PASSWORD = "rtejpar", "rtejpar-password"
#: the other accounts the recorded requests name
OTHERS = ("joshuabaer", "storify")
#: ``/v1/stories/{username}/{slug}`` and its writes
STORY_PATH = re.compile(r"^/v1/stories/(?P<username>\w+)/(?P<slug>[\w-]+)(?:/(?P<action>\w+))?$")
NOT_STORIES = {"browse", "search"}

_PAST_THE_END = "a page past the end is a 200 with an empty list (docs/api.md)"
#: Exchanges storycore answers with another status than Storify did, and why.
DIFFERENCES: dict[str, tuple[int, str]] = {
    "auth-01-POST-400": (
        401,
        "an empty password is a wrong one: the same 401 as an unknown user"
        " (docs/api.md#credentials)",
    ),
    "profile_update-01-POST-401": (
        403,
        "a user may not update another's profile: 403 to a caller it knows (docs/api.md)",
    ),
    "profile_update-02-POST-401": (
        200,
        "Storify kept profile updates for business accounts; every user updates their own here",
    ),
    "profile_update-03-POST-401": (
        200,
        "Storify kept profile updates for business accounts; every user updates their own here",
    ),
    "publish-01-POST-401": (
        403,
        "a story its caller sees but may not change is a 403 (docs/api.md)",
    ),
    "topic-23-GET-404": (200, "a topic no story has is an empty list, as every list filter is"),
    **{
        name: (200, _PAST_THE_END)
        for name in (
            "featured-21-GET-400",
            "latest-21-GET-400",
            "popular-21-GET-400",
            "stories-21-GET-400",
            "topic-21-GET-400",
            "users-10-GET-400",
        )
    },
}


def _read(name: str, part: str) -> Any:
    return orjson.loads((INTERACTIONS / f"{name}.{part}.json").read_bytes())


def _names_story(match: re.Match[str] | None) -> bool:
    """Whether a path ``STORY_PATH`` matched names a story (not a list, not a create)."""
    return match is not None and match["username"] not in NOT_STORIES and match["slug"] != "create"


@functools.cache
def _recorded_stories() -> dict[tuple[str, str], dict[str, Any]]:
    """The story JSON of the first page of each story a recorded read answered, by author and
    slug."""
    found: dict[tuple[str, str], dict[str, Any]] = {}
    for name in EXCHANGES:
        request = _read(name, "request")["request"]
        match = STORY_PATH.match(request["path"])
        if request["method"] != "GET" or not name.endswith("200") or not _names_story(match):
            continue
        content = _read(name, "response")["content"]
        if content.get("page") == 1:
            found.setdefault((content["author"]["username"], content["slug"]), content)
    return found


@dataclass
class _Replay:
    """A world for one exchange, and the mapping of the recorder's stand-ins into it."""

    service: Service
    mapping: dict[str, str]

    def mapped(self, text: str) -> str:
        for stand_in, real in self.mapping.items():
            text = text.replace(stand_in, real)
        return text


def _world(request: dict[str, Any], recorded: int) -> _Replay:
    service = Service(open_store("memory://"), TEST_SETTINGS)
    accounts = service.accounts
    accounts.create_user(USER, PASSWORD, name="RT")
    for other in OTHERS:
        accounts.create_user(other, f"{other}-password")
    api_key = accounts.create_app("ruby").api_key
    token = accounts.authenticate(api_key, USER, PASSWORD).token
    mapping = {
        "mock_username": USER,
        "mock_apikey": api_key,
        "mock__token": token,
        "mock_password": PASSWORD,
    }
    replay = _Replay(service, mapping)
    match = STORY_PATH.match(replay.mapped(request["path"]))
    if match and _names_story(match) and recorded != 404:  # it existed when it was recorded
        _make_story(service, match["username"], match["slug"])
    return replay


def _make_story(service: Service, username: str, slug: str) -> None:
    story = _recorded_stories().get((username, slug), {"title": slug, "slug": slug})
    author = service.accounts.as_user(username)
    publish = story.get("status") == "published" or username != USER
    service.stories.create(username, story, viewer=author, publish=publish)


def _body(answer_body: bytes, headers: dict[str, str]) -> Any:
    if headers.get("content-encoding") == "gzip":
        answer_body = gzip.decompress(answer_body)
    return orjson.loads(answer_body)


@pytest.mark.parametrize("name", EXCHANGES)
def test_a_recorded_exchange_answers_as_recorded(name: str) -> None:
    recorded = int(name.rsplit("-", 1)[1])
    expected = DIFFERENCES.get(name, (recorded, ""))[0]
    request = _read(name, "request")["request"]
    replay = _world(request, recorded)
    headers = {
        header: replay.mapped(values[-1])
        for header, values in request["headers"].items()
        if header.lower() != "content-length"
    }
    body = replay.mapped(request.get("body_raw") or "").encode()
    client = AppClient(replay.service)
    try:
        answer = client.request(
            request["method"],
            unquote(replay.mapped(request["path"])),
            params=replay.mapped(urlsplit(request["uri"]).query),
            headers=headers,
            body=body,
        )
    finally:
        replay.service.close()
    content = _body(answer.body, dict(answer.headers))
    assert (answer.status, content["code"]) == (expected, expected), content


def test_every_difference_names_a_recorded_exchange() -> None:
    assert set(DIFFERENCES) <= set(EXCHANGES)
