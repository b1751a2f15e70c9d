"""The OpenAPI document allows what real v1 clients send, as the server takes it
(docs/decisions.md#the-api-reference, docs/api.md#calls-and-answers): elements without ``type``,
protocol-relative addresses, members that are
not story or element members, ``#`` in hashtags; and it still forbids what the server refuses.
Each case is sent to the server too, which must agree with the document's verdict.
"""

from __future__ import annotations

from typing import Any

import jsonschema_rs
import orjson
import pytest

from storycore import Service, StorycoreError
from storycore.adapters import open_store
from tests._traffic import INTERACTIONS
from tests.conftest import TEST_SETTINGS
from tests.http._clients import AppClient

POST = "https://sociala.example/alice/status/1"
PAGE = "https://news.example/article"
LONG = "//h.example/" + "a" * (2048 - len("https://h.example/"))  # at the limit once taken

ACCEPTED: dict[str, Any] = {
    "text told by its data": {"data": {"text": "<h2>Start</h2>"}, "comments": []},
    "quote told by its data": {"permalink": POST, "data": {"quote": {"text": "Hi"}}},
    "image told by its data": {"data": {"image": {"src": "//img.example/a.jpg"}}},
    "video told by its data": {"data": {"video": {"src": "//www.youtube.com/embed/x"}}},
    "link told by its data": {"permalink": PAGE, "data": {"link": {"title": "T"}}},
    "a null type": {"type": None, "data": {"text": "hi"}},
    "an earlier kind sent as null": {"permalink": PAGE, "data": {"text": None, "link": {}}},
    "told by its permalink": {"permalink": POST, "comments": [], "eid": "x"},
    "a protocol-relative permalink": {"permalink": "//news.example/a"},
    "a permalink and unknown data": {"permalink": PAGE, "data": {"oembed": {"html": "x"}}},
    "a permalink, attribution and time": {
        "permalink": POST,
        "attribution": {"name": "Alice", "thumbnail": "//img.example/a.png"},
        "posted_at": "2013-12-09T02:41:19.000Z",
    },
    "a typed element with extra members": {
        "type": "link",
        "permalink": PAGE,
        "eid": "442f0c7e1bcfcd76c45ed229",
        "stats": {"likes": 0},
        "meta": {},
        "comments": [],
        "data": {"link": {"title": "T", "oembed_url": "https://x.example"}, "oembed": {}},
    },
    "a protocol-relative address at the limit": {"type": "link", "permalink": LONG},
}
REFUSED: dict[str, Any] = {
    "no type, data or permalink": {"comments": [], "data": {"oembed": {}}},
    "told image without a source": {"data": {"image": {"caption": "c"}}},
    "told quote without a permalink": {"data": {"quote": {"text": "Hi"}}},
    "told link with a bad permalink": {"permalink": "javascript:x", "data": {"link": {}}},
    "a bad permalink": {"permalink": "javascript:alert(1)"},
    "a permalink and data that is no object": {"permalink": PAGE, "data": "x"},
    "a protocol-relative address without a host": {"permalink": "///x"},
    "a protocol-relative address over the limit": {"type": "link", "permalink": LONG + "a"},
    "an unknown type": {"type": "poll", "data": {"text": "x"}},
}


@pytest.fixture(scope="module")
def story_schema() -> Any:
    service = Service(open_store("memory://"), TEST_SETTINGS)
    document = AppClient(service).get("/v1/openapi.json").json()
    service.close()
    components = document["components"]
    schema = {"$ref": "#/components/schemas/StoryWrite", "components": components}
    return jsonschema_rs.validator_for(schema, validate_formats=True)


def _server_takes(story: dict[str, Any]) -> bool:
    with Service(open_store("memory://"), TEST_SETTINGS) as service:
        service.accounts.create_user("alice", "a-password")
        try:
            service.stories.create("alice", story, viewer=service.accounts.as_user("alice"))
        except StorycoreError:
            return False
        return True


@pytest.mark.parametrize("element", ACCEPTED.values(), ids=ACCEPTED.keys())
def test_the_document_and_the_server_take_the_element(story_schema: Any, element: Any) -> None:
    story = {"elements": [element]}
    assert (story_schema.is_valid(story), _server_takes(story)) == (True, True)


@pytest.mark.parametrize("element", REFUSED.values(), ids=REFUSED.keys())
def test_the_document_and_the_server_refuse_the_element(story_schema: Any, element: Any) -> None:
    story = {"elements": [element]}
    assert (story_schema.is_valid(story), _server_takes(story)) == (False, False)


def test_a_story_sent_back_with_its_read_members_and_hash_hashtags_is_taken(
    story_schema: Any,
) -> None:
    story = {
        "sid": "52a5534ab169adf57700b312",
        "title": "Test Story",
        "thumbnail": "//i.ytimg.com/vi/x/hqdefault.jpg",
        "hashtags": ["#Sea"],
        "author": {"username": "rtejpar"},
        "stats": {"views": 1},
        "date": {"created": "2013-12-09T05:21:14.521Z"},
        "meta": {"quoted": []},
        "comments": [],
        "siteposts": [],
        "version": 20,
        "elements": [],
    }
    assert (story_schema.is_valid(story), _server_takes(story)) == (True, True)


def _recorded_stories() -> list[Any]:
    found = []
    for path in sorted(INTERACTIONS.glob("*.request.json")):
        story = orjson.loads(path.read_bytes())["request"].get("form_story_parsed")
        if story is not None:
            found.append(pytest.param(story, id=path.name.removesuffix(".request.json")))
    return found


@pytest.mark.parametrize("story", _recorded_stories())
def test_the_document_takes_every_story_a_recorded_client_sent(
    story_schema: Any, story: Any
) -> None:
    assert story_schema.is_valid(story)
