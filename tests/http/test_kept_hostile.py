"""Hostile pictures, end to end (docs/media.md): a story shows each from a fake source on
127.0.0.1, the keeper fetches it, and the web host serves what was kept under ``/media/``.

A file that is also a script or a page is served only as a WebP encoded again, holding none of
the extra bytes; a picture's EXIF location is not served; what is not a picture (an SVG, HTML
sent as ``image/png``), a decompression bomb and a file over 16 MiB are refused for good, and
nothing of theirs is stored or served; a source that never answers fails within the keeper's
timeout and is tried again; one that answers slowly within it is kept."""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image

from storycore import Service
from storycore.adapters import open_store
from storycore.contrib.fetch import HttpFetcher
from storycore.media.pictures import MAX_BYTES
from storycore.model.kept import KeptSource
from storycore.testing import ManualClock
from tests.conftest import TEST_SETTINGS
from tests.http._clients import AppClient
from tests.media._pictures import (
    PAGE,
    PAYLOAD,
    drawn,
    encoded,
    gif_that_is_javascript,
    png_claiming,
    webp_chunks,
)
from tests.resolving.conftest import FakeSite, Reply

KEEPING = TEST_SETTINGS.model_copy(
    update={"keep_media": True, "resolver_allowed_hosts": ("127.0.0.1",)}
)  # the keeper's own timeout (30 s), but where a source never answers


def _jpeg_with_a_location_and_a_script() -> bytes:
    exif = Image.Exif()
    exif[0x8825] = {1: "N", 2: (48.0, 51.0, 24.0), 3: "E", 4: (2.0, 21.0, 3.0)}  # GPS
    jpeg = encoded(drawn(64, 48), "JPEG", exif=exif.tobytes(), comment=PAGE)
    assert Image.open(io.BytesIO(jpeg)).getexif().get_ifd(0x8825)  # the location is there
    return jpeg


#: what each hostile source sends: its bytes and the type it claims
POLYGLOTS = {
    "/gif-and-javascript.gif": Reply(gif_that_is_javascript(), content_type="text/javascript"),
    "/png-then-a-page.png": Reply(encoded(drawn(64, 48), "PNG") + PAGE, content_type="text/html"),
    "/jpeg-with-gps.jpg": Reply(_jpeg_with_a_location_and_a_script(), content_type="image/jpeg"),
}
REFUSED = {
    "/drawing.svg": (
        Reply(b"<svg xmlns='http://www.w3.org/2000/svg'><script>" + PAYLOAD + b"</script></svg>",
              content_type="image/svg+xml"),
        "not a picture: an SVG",
    ),
    "/page.png": (Reply(PAGE, content_type="image/png"), "not a picture: an HTML page"),
    "/bomb.png": (
        Reply(png_claiming(100_000, 100_000), content_type="image/png"),
        "a picture of 40 megapixels at most: this one is over 89 megapixels",
    ),
    "/huge.jpg": (
        Reply(encoded(drawn(64, 48), "JPEG") + bytes(MAX_BYTES), content_type="image/jpeg"),
        "a picture of 16 MiB at most",
    ),
}  # fmt: skip


@pytest.fixture
def source() -> Iterator[FakeSite]:
    site = FakeSite()
    site.replies.update(POLYGLOTS)
    site.replies.update({path: reply for path, (reply, _) in REFUSED.items()})
    site.replies["/never.png"] = Reply(hang=True)
    site.replies["/slow.png"] = Reply(
        encoded(drawn(64, 48), "PNG"), content_type="image/png", delay=0.3
    )
    yield site
    site.stop()


def _service(timeout: float | None = None) -> Service:
    update = {} if timeout is None else {"keep_media_timeout": timeout}
    settings = KEEPING.model_copy(update=update)
    fetcher = HttpFetcher(allowed_hosts=settings.resolver_allowed_hosts)
    service = Service(
        open_store("memory://"), settings, clock=ManualClock(), picture_fetcher=fetcher
    )
    service.accounts.create_user("alice", "correct horse")
    return service


@pytest.fixture
def service() -> Iterator[Service]:
    with _service() as service:
        yield service


def _kept(service: Service, address: str) -> KeptSource:
    alice = service.accounts.as_user("alice")
    elements: list[dict[str, Any]] = [{"type": "image", "data": {"image": {"src": address}}}]
    service.stories.create("alice", {"title": "Hostile", "elements": elements}, viewer=alice)
    service.keep_media()
    return service.store.kept_sources.get_many([address])[address]


@pytest.mark.parametrize("path", sorted(POLYGLOTS))
def test_a_polyglot_is_served_only_as_a_picture_encoded_again(
    service: Service, source: FakeSite, path: str
) -> None:
    assert PAYLOAD in source.replies[path].body  # what the source sends holds the script
    record = _kept(service, source.url(path))
    assert record.state == "kept"
    client = AppClient(service)
    for copy in record.copies:
        answer = client.get(f"/media/{copy.name}.webp")
        assert (answer.status, answer.headers["content-type"]) == (200, "image/webp")
        assert answer.headers["content-security-policy"] == "default-src 'none'; sandbox"
        assert PAYLOAD not in answer.body
        assert b"<html" not in answer.body
        assert not {b"EXIF", b"XMP ", b"ICCP"} & set(webp_chunks(answer.body))
        assert Image.open(io.BytesIO(answer.body)).getexif() == {}


@pytest.mark.parametrize("path", sorted(REFUSED))
def test_what_is_no_picture_storycore_keeps_is_refused_for_good_and_nothing_is_stored(
    service: Service, source: FakeSite, path: str
) -> None:
    record = _kept(service, source.url(path))
    assert (record.state, record.next_attempt, record.copies) == ("failed", None, ())
    assert record.reason is not None
    assert record.reason.startswith(REFUSED[path][1])
    assert service.store.kept_files.scan(None, 10) == []


def test_a_source_that_never_answers_fails_in_time_and_is_tried_again(source: FakeSite) -> None:
    with _service(timeout=2) as service:
        record = _kept(service, source.url("/never.png"))
    assert (record.state, record.reason) == ("failed", "no answer within 2 s")
    assert record.next_attempt is not None


def test_a_source_that_answers_slowly_within_the_timeout_is_kept(
    service: Service, source: FakeSite
) -> None:
    assert _kept(service, source.url("/slow.png")).state == "kept"
