"""A store moved with its kept pictures shows the same pages with the same pictures
(docs/media-storage.md#export-and-import): a story and a profile whose pictures were kept from a
SQLite file are exported, then imported into every backend while every source of those pictures
is stopped. The story page, its embed, the feeds, oEmbed and the API's story read answer the same
bytes on both stores, every picture they show is served from the moved store, and no source is
asked for anything."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from storycore import Service
from storycore.adapters import open_store
from storycore.contrib.transfer import export_lines
from storycore.ports import Store
from tests._kept_pictures import KEEPING, PictureSite, keep_some, keeping
from tests.http._clients import AppClient, Client

STORY = "/alice/pictures"
#: the answers compared, each as a reader or a subscriber asks for it
ANSWERS = [
    STORY,
    f"{STORY}.js",
    "/alice",
    "/feed.atom",
    "/alice/feed.atom",
    f"/v1/stories{STORY}",
    "/v1/users/alice",
]
_MEDIA = re.compile(rb"/media/[0-9a-f]{64}\.webp")

pytestmark = pytest.mark.every_backend  # each backend the store may be moved to


@pytest.fixture
def moved(tmp_path: Path, store: Store) -> Iterator[tuple[Service, Service, PictureSite]]:
    """The service on the SQLite file the pictures were kept in, the service on ``store``
    they were moved to, and the moved store's fetcher: every source stopped (it answers
    nothing, and notes what it is asked)."""
    with keeping(open_store(f"sqlite:///{tmp_path / 'kept.db'}")) as source:
        keep_some(source)
        source.stories.publish("alice", "pictures", viewer=source.accounts.as_user("alice"))
        stopped = PictureSite({})
        with Service(store, KEEPING, clock=source.clock, picture_fetcher=stopped) as target:
            target.imports.load(export_lines(source.store))
            yield source, target, stopped


def test_a_moved_store_answers_every_page_with_the_same_bytes(
    moved: tuple[Service, Service, PictureSite],
) -> None:
    source, target, _ = moved
    before, after = AppClient(source), AppClient(target)
    assert (before.get(STORY).status, after.get(STORY).status) == (200, 200)
    for path in ANSWERS:
        assert after.get(path).body == before.get(path).body, path
    url = f"{before.web_url}{STORY}"
    oembed = after.get("/v1/oembed", params={"url": url})
    assert oembed.body == before.get("/v1/oembed", params={"url": url}).body


def test_a_moved_store_serves_every_kept_picture_its_pages_show(
    moved: tuple[Service, Service, PictureSite],
) -> None:
    source, target, stopped = moved
    before, after = AppClient(source), AppClient(target)
    shown = set(_MEDIA.findall(after.get(STORY).body) + _MEDIA.findall(after.get("/alice").body))
    assert len(shown) >= 4  # the photograph's widths, the small picture and the avatar
    for path in sorted(shown):
        assert _served(after, path.decode()) == _served(before, path.decode())
    target.keep_media()  # what the import brought kept is never fetched again
    assert not [asked for asked in stopped.asked if "/photo.png" in asked or "/a.png" in asked]


def _served(client: Client, path: str) -> bytes:
    answer = client.get(path)
    assert (answer.status, answer.headers["content-type"]) == (200, "image/webp")
    return answer.body
