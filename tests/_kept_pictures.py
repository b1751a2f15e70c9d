"""A store with kept pictures, made as the keeper makes them, without a network: a story and a
profile whose pictures a fake site answers, kept, failed for a while and refused for good; or
one picture made kept by hand (``keep``), for tests of where kept copies show."""

from __future__ import annotations

import hashlib
import io
from typing import Any

from PIL import Image, ImageDraw

from storycore import Service
from storycore.media.pictures import keep_picture
from storycore.model.kept import KeptCopy, KeptFile, KeptSource
from storycore.ports import Store
from storycore.resolving.fetching import Fetched
from storycore.testing import ManualClock
from tests.conftest import TEST_SETTINGS
from tests.media._pictures import drawn, encoded
from tests.resolving.conftest import FakeSite, Reply

#: Settings that keep pictures (the offline resolver, keeping on by itself).
KEEPING = TEST_SETTINGS.model_copy(update={"keep_media": True})
SITE = "https://pictures.example"

#: The addresses of a story that shows a picture of every kind (``SHOWING_EVERY_KIND``).
THUMBNAIL = "https://pics.example/thumbnail.png"
IMAGE = "https://pics.example/image.png"
QUOTED = "https://pics.example/quoted.png"
VIDEO = "https://pics.example/video.png"
LINK = "https://pics.example/link.png"
#: Elements showing a picture of every kind an element shows: an image, a quote's author, a
#: video's thumbnail and a link's.
SHOWING_EVERY_KIND: list[dict[str, Any]] = [
    {"type": "image", "data": {"image": {"src": IMAGE, "width": 700, "height": 400}}},
    {
        "type": "quote",
        "permalink": "https://social.example/q/1",
        "attribution": {"name": "Quoted", "thumbnail": QUOTED},
        "data": {"quote": {"text": "Said so"}},
    },
    {
        "type": "video",
        "permalink": "https://video.example/v/1",
        "data": {"video": {"src": "https://video.example/v/1", "thumbnail": VIDEO}},
    },
    {
        "type": "link",
        "permalink": "https://news.example/a",
        "data": {"link": {"title": "A page", "thumbnail": LINK}},
    },
]


def png(width: int = 40, height: int = 30, colour: str = "teal") -> bytes:
    """A plain PNG picture."""
    out = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(out, format="PNG")
    return out.getvalue()


def photograph(width: int = 700, height: int = 500) -> bytes:
    """A PNG of noise, large enough to be kept with narrower widths for ``srcset``."""
    out = io.BytesIO()
    Image.effect_noise((width, height), 60).convert("RGB").save(out, format="PNG")
    return out.getvalue()


def picture_server() -> FakeSite:
    """A fake source on 127.0.0.1 answering ``/a.png`` (``png()``); the caller stops it."""
    site = FakeSite()
    site.replies["/a.png"] = Reply(png(), content_type="image/png")
    return site


class PictureSite:
    """A ``PageFetcher`` answering the addresses of ``SITE`` it holds, 404 otherwise; it
    notes every address it is asked."""

    def __init__(self, pictures: dict[str, bytes]) -> None:
        self.pictures = {f"{SITE}{path}": body for path, body in pictures.items()}
        self.asked: list[str] = []

    def url(self, path: str) -> str:
        return f"{SITE}{path}"

    async def fetch(self, url: str, *, accept: str, max_bytes: int) -> Fetched | None:
        self.asked.append(url)
        body = self.pictures.get(url)
        if body is None:
            return Fetched(url, 404, "text/plain", b"", True)
        return Fetched(url, 200, "image/png", body[:max_bytes], True)


def site() -> PictureSite:
    """A photograph, two small pictures and an SVG (refused for good); ``/gone.png`` is 404."""
    return PictureSite(
        {
            "/photo.png": photograph(),
            "/a.png": png(),
            "/avatar.png": png(colour="navy"),
            "/drawing.svg": b"<svg xmlns='http://www.w3.org/2000/svg'/>",
        }
    )


def keep_some(service: Service) -> None:
    """Give ``service`` (keeping, fetching from ``site()``) a user with an avatar and a story
    with four pictures, then keep them: three kept, one failed to try again, one refused."""
    service.accounts.create_user("alice", "correct horse", avatar=f"{SITE}/avatar.png")
    alice = service.accounts.as_user("alice")
    sources = ("/photo.png", "/a.png", "/gone.png", "/drawing.svg")
    elements = [{"type": "image", "data": {"image": {"src": f"{SITE}{src}"}}} for src in sources]
    service.stories.create("alice", {"title": "Pictures", "elements": elements}, viewer=alice)
    service.keep_media()


def keeping(store: Store, fetcher: PictureSite | None = None) -> Service:
    """A service on ``store`` that keeps pictures, fetching them from ``fetcher`` (``site()``
    unless given), on a clock of its own."""
    return Service(store, KEEPING, clock=ManualClock(), picture_fetcher=fetcher or site())


def keep(store: Store, address: str, width: int = 700, height: int = 400) -> tuple[KeptCopy, ...]:
    """Keep a picture of ``width`` by ``height`` as the copy of ``address`` (a picture of its
    own, marked in a colour of the address), as the keeper would have: its files put, its
    record kept. Its copies, the original first, then the narrower widths narrowest first."""
    drawing = drawn(width, height)
    colour = tuple(hashlib.sha256(address.encode()).digest()[:3])
    ImageDraw.Draw(drawing).rectangle((width // 2, height // 2, width, height), fill=colour)
    picture = keep_picture(encoded(drawing, "PNG"))
    at = "2026-01-01T00:00:00.000Z"
    for file in picture.files:
        members = KeptFile(file.sha256, file.media_type, file.width, file.height, file.size, at)
        store.kept_files.put(members, file.content)
    copies = tuple(
        KeptCopy(file.sha256, file.media_type, file.width, file.height)
        for file in (picture.original, *picture.widths)
    )
    store.kept_sources.restore([KeptSource(address, at, "kept", copies)])
    return copies
