"""``Service.listings`` answers the lists and search of ``Service.catalog`` as documents
(docs/architecture.md#answers): JSON-ready data whose JSON is, byte for byte, the JSON of the
model the catalog answers, kept pictures or not; and the catalog's model is the document made
into its shape."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson
import pytest

from storycore import Service, Viewer
from storycore.http.call import dump
from storycore.model.documents import record_json, shape_of
from storycore.model.records import CreatedWith
from storycore.model.shapes import Page, SearchItem, StorySummary
from storycore.model.trusted import construct_trusted
from tests._kept_pictures import SHOWING_EVERY_KIND, THUMBNAIL, keep

pytestmark = pytest.mark.storycore_store_urls("memory://")

AVATAR = "https://pics.example/alice.png"
QUOTE: dict[str, Any] = {
    "type": "quote",
    "permalink": "https://social.example/bob/status/1",
    "source": {"name": "social", "username": "bob", "userid": "7"},
    "attribution": {"name": "Bob", "username": "bob", "thumbnail": "https://pics.example/b.png"},
    "data": {"quote": {"text": "harbour fog at dawn"}},
}


@pytest.fixture
def stories(service: Service, alice: Viewer, bob: Viewer) -> None:
    """Stories by two authors: one showing a picture of every kind and quoting an author,
    one plain; alice has an avatar."""
    service.accounts.update("alice", {"avatar": AVATAR}, viewer=alice)
    pictures = {"title": "Harbour fog", "thumbnail": THUMBNAIL, "topics": ["sea"],
                "hashtags": ["fog"], "elements": [*SHOWING_EVERY_KIND, QUOTE]}  # fmt: skip
    service.stories.create("alice", pictures, viewer=alice, publish=True)
    plain = {"title": "Harbour fog again", "hashtags": ["fog"]}
    service.stories.create("bob", plain, viewer=bob, publish=True)


def _json(page: Page[Any]) -> bytes:
    return orjson.dumps(dump(page.items))


def _both(service: Service) -> list[tuple[Page[Any], Page[Any]]]:
    """Each list and the search, from the catalog and from the listings."""
    calls: list[Callable[[Any], Page[Any]]] = [
        lambda c: c.search("harbour fog"),
        lambda c: c.latest(),
        lambda c: c.popular(),
        lambda c: c.stories(tag="fog"),
        lambda c: c.topic("sea"),
        lambda c: c.user("alice"),
    ]
    return [(call(service.catalog), call(service.listings)) for call in calls]


@pytest.mark.usefixtures("stories")
def test_a_document_writes_the_json_of_the_model_the_catalog_answers(service: Service) -> None:
    for models, documents in _both(service):
        assert models.items
        assert all(isinstance(d, dict) for d in documents.items)
        assert _json(documents) == _json(models)
        assert "kept" not in _json(documents).decode()


@pytest.mark.usefixtures("stories")
def test_a_document_with_kept_pictures_writes_the_json_of_the_model(service: Service) -> None:
    for address in (THUMBNAIL, AVATAR, QUOTE["attribution"]["thumbnail"]):
        keep(service.store, address)
    for models, documents in _both(service):
        assert _json(documents) == _json(models)
        assert '"kept":' in _json(documents).decode()


@pytest.mark.usefixtures("stories")
def test_the_catalogs_model_is_the_document_made_into_its_shape(service: Service) -> None:
    keep(service.store, THUMBNAIL)
    results = service.catalog.search("harbour fog").items
    documents = service.listings.search("harbour fog").items
    assert [shape_of(SearchItem, d) for d in documents] == results
    summaries = service.catalog.latest().items
    assert [shape_of(StorySummary, d) for d in service.listings.latest().items] == summaries


def test_a_record_a_document_holds_is_written_as_pydantic_writes_it() -> None:
    made = construct_trusted(CreatedWith, {"name": "app", "href": "https://app.example"})
    assert orjson.dumps(made, default=record_json) == made.model_dump_json().encode()


def test_a_document_holds_only_json_data_and_records() -> None:
    with pytest.raises(TypeError, match="not JSON serializable"):
        orjson.dumps({"odd": {1}}, default=record_json)
