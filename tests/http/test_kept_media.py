"""The pictures storycore keeps, served by the web host
(docs/media.md#how-a-kept-picture-is-served): ``GET /media/<sha256>.<ext>`` answers a kept file
with its type, a year's immutable caching, its name as its ``ETag``, ``nosniff`` and a policy
under which nothing runs; any other path under ``/media/`` is the web host's HTML 404."""

from __future__ import annotations

import hashlib

import pytest

from storycore.errors import InvalidParameter
from storycore.media.pictures import keep_picture
from storycore.model.kept import KeptFile
from storycore.service import Service
from tests.http._clients import Client
from tests.http.conftest import World
from tests.media._pictures import drawn, encoded

pytestmark = pytest.mark.usefixtures("world")


@pytest.fixture
def kept(world: World) -> str:
    """The name under ``/media/`` of a picture kept in the world's store."""
    picture = keep_picture(encoded(drawn(64, 48), "PNG")).original
    file = KeptFile(
        picture.sha256, picture.media_type, 64, 48, picture.size, "2026-01-01T00:00:00.000Z"
    )
    world.service.store.kept_files.put(file, picture.content)
    return picture.name


def test_a_kept_picture_is_served_as_its_type_with_its_bytes(client: Client, kept: str) -> None:
    answer = client.get(f"/media/{kept}")
    assert (answer.status, answer.headers["content-type"]) == (200, "image/webp")
    assert hashlib.sha256(answer.body).hexdigest() == kept.removesuffix(".webp")


def test_a_kept_picture_may_be_kept_a_year_and_its_etag_is_its_name(
    client: Client, kept: str
) -> None:
    answer = client.get(f"/media/{kept}")
    assert answer.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert answer.headers["etag"] == f'"{kept.removesuffix(".webp")}"'
    again = client.get(f"/media/{kept}", headers={"If-None-Match": answer.headers["etag"]})
    assert (again.status, again.body) == (304, b"")


def test_a_kept_picture_is_served_as_a_picture_and_nothing_else(client: Client, kept: str) -> None:
    answer = client.get(f"/media/{kept}")
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert answer.headers["content-security-policy"] == "default-src 'none'; sandbox"


def test_head_of_a_kept_picture_has_its_headers_and_no_body(client: Client, kept: str) -> None:
    answer = client.request("HEAD", f"/media/{kept}")
    assert (answer.status, answer.headers["content-type"], answer.body) == (200, "image/webp", b"")


@pytest.mark.parametrize(
    "path",
    [
        "/media/{sha}.png",  # its own name, another type's extension
        "/media/{SHA}.webp",  # upper-case hex
        "/media/{sha}",
        "/media/{sha}.webp.js",
        "/media/" + "0" * 64 + ".webp",  # no such file
        "/media/",
        "/media/a/b.webp",
        "/media/..%2F..%2Fpyproject.toml",
        "/media",
    ],
)
def test_any_other_path_under_media_is_the_html_404(client: Client, kept: str, path: str) -> None:
    sha = kept.removesuffix(".webp")
    answer = client.get(path.format(sha=sha, SHA=sha.upper()))
    assert (answer.status, answer.headers["content-type"]) == (404, "text/html; charset=utf-8")


def test_media_is_no_username(world: World) -> None:
    with pytest.raises(InvalidParameter, match="reserved"):
        world.service.accounts.create_user("media", "a-long-password")


def test_the_service_reads_a_kept_file_by_its_name_alone(world: World, kept: str) -> None:
    service: Service = world.service
    found = service.media.file(kept)
    assert found is not None
    assert found[0].width == 64
    assert service.media.file(kept.upper()) is None
