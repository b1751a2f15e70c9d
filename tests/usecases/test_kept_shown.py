"""Answers show the copies storycore keeps of their pictures (docs/api.md#kept-pictures): an
element, a story's detail and full shapes and a user's every shape that show a kept picture
gain ``kept``, from the path of each source address to its kept copy; the source addresses
stay as they were, and ``kept`` is absent while nothing is kept. An answer looks its pictures
up with one store read."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import orjson
import pytest

from storycore import Service, Viewer
from storycore.model.kept import KeptCopy, KeptSource
from tests._kept_pictures import IMAGE, LINK, QUOTED, SHOWING_EVERY_KIND, THUMBNAIL, VIDEO, keep

pytestmark = pytest.mark.storycore_store_urls("memory://")

AVATAR = "https://pics.example/alice.png"
ELEMENTS = SHOWING_EVERY_KIND


@pytest.fixture
def slug(service: Service, alice: Viewer) -> str:
    service.accounts.update("alice", {"avatar": AVATAR}, viewer=alice)
    story = {"title": "Pictures", "thumbnail": THUMBNAIL, "elements": ELEMENTS}
    return service.stories.create("alice", story, viewer=alice, publish=True).slug


def _keep_all(service: Service) -> dict[str, tuple[KeptCopy, ...]]:
    return {a: keep(service.store, a) for a in (THUMBNAIL, AVATAR, IMAGE, QUOTED, VIDEO, LINK)}


def _copy(service: Service, copies: tuple[KeptCopy, ...]) -> dict[str, Any]:
    original = copies[0]
    url = f"{service.web_url}/media/{original.name}.webp"
    return {"url": url, "width": original.width, "height": original.height}


def _read(service: Service, slug: str) -> dict[str, Any]:
    """The story read as the API answers it: its stored element documents as they go out."""
    reading = service.stories.open("alice", slug, as_documents=True)
    content = reading.detail.to_json_dict()
    content["elements"] = [orjson.loads(d) for d in reading.element_documents]
    return content


def test_nothing_kept_is_no_kept_member(service: Service, slug: str) -> None:
    read = service.stories.read("alice", slug).to_json_dict()
    assert "kept" not in read
    assert "kept" not in read["author"]
    assert all("kept" not in element for element in read["elements"])
    assert "kept" not in _read(service, slug)
    assert "kept" not in service.accounts.get("alice").to_json_dict()


def test_a_story_read_shows_each_kept_copy_by_the_path_of_its_source(
    service: Service, slug: str
) -> None:
    kept = _keep_all(service)
    for read in (service.stories.read("alice", slug).to_json_dict(), _read(service, slug)):
        assert read["kept"] == {"thumbnail": _copy(service, kept[THUMBNAIL])}
        assert read["author"]["kept"] == {"avatar": _copy(service, kept[AVATAR])}
        image, quote, video, link = read["elements"]
        assert image["kept"] == {"data.image.src": _copy(service, kept[IMAGE])}
        assert quote["kept"] == {"attribution.thumbnail": _copy(service, kept[QUOTED])}
        assert video["kept"] == {"data.video.thumbnail": _copy(service, kept[VIDEO])}
        assert link["kept"] == {"data.link.thumbnail": _copy(service, kept[LINK])}


def test_the_source_addresses_stay_as_they_were(service: Service, slug: str) -> None:
    before = _read(service, slug)
    _keep_all(service)
    after = _read(service, slug)
    for shape in (after, after["author"], *after["elements"]):
        del shape["kept"]
    assert after == before


def test_a_kept_copy_is_the_widest_kept_file_with_its_size(service: Service, slug: str) -> None:
    copies = keep(service.store, IMAGE, 1200, 900)
    (image, *_) = service.stories.read("alice", slug).to_json_dict()["elements"]
    assert image["kept"]["data.image.src"]["width"] == 1200 == copies[0].width
    assert image["kept"]["data.image.src"]["height"] == 900
    assert [copy.width for copy in copies] == [1200, 320, 640, 1024]


def test_a_picture_not_yet_kept_has_no_kept_copy(service: Service, slug: str) -> None:
    service.store.kept_sources.restore(
        [KeptSource(IMAGE, "2026-01-01T00:00:00.000Z", "failed", reason="no answer")]
    )
    keep(service.store, LINK)
    image, _, _, link = _read(service, slug)["elements"]
    assert "kept" not in image
    assert set(link["kept"]) == {"data.link.thumbnail"}


def test_a_story_read_changes_its_etag_when_a_picture_it_shows_is_kept(
    service: Service, slug: str
) -> None:
    before = service.stories.open("alice", slug, as_documents=True).etag
    assert service.stories.open("alice", slug, as_documents=True).etag == before
    keep(service.store, IMAGE)
    assert service.stories.open("alice", slug, as_documents=True).etag != before


def test_a_users_every_shape_shows_the_kept_avatar(service: Service, slug: str) -> None:
    kept = _keep_all(service)
    avatar = {"avatar": _copy(service, kept[AVATAR])}
    assert service.accounts.get("alice").to_json_dict()["kept"] == avatar
    (listed,) = [u for u in service.accounts.list().items if u.username == "alice"]
    assert listed.to_json_dict()["kept"] == avatar
    (summary,) = service.catalog.latest().items
    assert summary.to_json_dict()["author"]["kept"] == avatar
    (found,) = service.catalog.search("pictures").items
    assert found.to_json_dict()["author"]["kept"] == avatar


def test_a_search_result_shows_its_kept_thumbnail(service: Service, slug: str) -> None:
    kept = _keep_all(service)
    (found,) = service.catalog.search("pictures").items
    assert found.to_json_dict()["kept"] == {"thumbnail": _copy(service, kept[THUMBNAIL])}


def test_a_summary_has_no_kept_member_of_its_own(service: Service, slug: str) -> None:
    _keep_all(service)
    (summary,) = service.catalog.latest().items
    assert "kept" not in summary.to_json_dict()


def _counted(service: Service, monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    calls: list[list[str]] = []
    sources = service.store.kept_sources
    get_many = sources.get_many

    def counted(addresses: Iterable[str]) -> dict[str, KeptSource]:
        calls.append(list(addresses))
        return get_many(calls[-1])

    monkeypatch.setattr(sources, "get_many", counted)
    return calls


def test_an_answer_looks_up_its_pictures_with_one_read(
    service: Service, alice: Viewer, slug: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    story = {"title": "Pictures again", "thumbnail": LINK, "elements": ELEMENTS[:1]}
    service.stories.create("alice", story, viewer=alice, publish=True)
    calls = _counted(service, monkeypatch)
    service.stories.open("alice", slug, as_documents=True)
    service.catalog.search("pictures")
    service.catalog.latest()
    assert len(calls) == 3
    assert set(calls[0]) == {THUMBNAIL, AVATAR, IMAGE, QUOTED, VIDEO, LINK}
    assert set(calls[1]) == {THUMBNAIL, AVATAR, LINK}


def test_an_answer_without_pictures_reads_nothing_of_them(
    service: Service, alice: Viewer, monkeypatch: pytest.MonkeyPatch
) -> None:
    story = {"title": "Words", "elements": [{"type": "text", "data": {"text": "<p>Hi</p>"}}]}
    slug = service.stories.create("alice", story, viewer=alice, publish=True).slug
    calls = _counted(service, monkeypatch)
    service.stories.open("alice", slug, as_documents=True)
    service.catalog.search("words")
    assert calls == []


def test_a_slug_change_shows_the_kept_thumbnail(service: Service, alice: Viewer, slug: str) -> None:
    kept = _keep_all(service)
    changed = service.stories.change_slug("alice", slug, "renamed", viewer=alice)
    assert changed.to_json_dict()["kept"] == {"thumbnail": _copy(service, kept[THUMBNAIL])}


def test_a_feature_answer_shows_its_authors_kept_avatar(
    service: Service, curator: Viewer, slug: str
) -> None:
    kept = _keep_all(service)
    featured = service.stories.feature("alice", slug, viewer=curator).to_json_dict()
    assert featured["author"]["kept"] == {"avatar": _copy(service, kept[AVATAR])}
