"""Writing what is kept: frames scaled to a width and encoded as WebP, with nothing but their
pixels and timing (docs/media.md#the-files)."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

#: WebP's lossy quality (libwebp's and Pillow's default; cwebp's advice for photographs).
QUALITY = 80
#: libwebp's effort for a still picture, 0 (fast) to 6 (small): its default, 4, is about 13%
#: larger than 6 in a third of the time (docs/media.md#the-files).
STILL_METHOD = 4
#: The effort for an animation, whose frames multiply the encoder's work: 2 is about four
#: times as fast as 4, and no larger on the animations measured (docs/media.md#the-files).
ANIMATION_METHOD = 2
#: Nothing is written but the pixels: no EXIF, ICC profile or XMP (Pillow writes them only when
#: asked for; these say so, whatever the picture's ``info`` still holds).
_BARE = {"exif": b"", "icc_profile": None, "xmp": b""}


def scaled(frames: tuple[Image.Image, ...], size: tuple[int, int]) -> tuple[Image.Image, ...]:
    """``frames`` at ``size``, with Lanczos (reduced in whole steps first when much larger);
    a frame of that size already is kept as it is (a GIF's frames may differ in size when one
    grew the picture)."""
    return tuple(
        frame
        if frame.size == size
        else frame.resize(size, Image.Resampling.LANCZOS, reducing_gap=3.0)
        for frame in frames
    )


def still(picture: Image.Image, *, few_colours: bool) -> bytes:
    """``picture`` as a WebP file, lossy; for a picture drawn with few colours (a palette),
    lossless instead when that is smaller (a drawing, a logo, a chart)."""
    lossy = _webp(picture, lossless=False, quality=QUALITY, method=STILL_METHOD)
    if not few_colours:
        return lossy
    lossless = _webp(picture, lossless=True, quality=QUALITY, method=STILL_METHOD)
    return min(lossy, lossless, key=len)


def animation(frames: tuple[Image.Image, ...], durations: tuple[int, ...], loop: int) -> bytes:
    """``frames`` as an animated WebP file, lossy, each shown for its duration (milliseconds),
    played ``loop`` times (0: for ever)."""
    first, *rest = frames
    return _webp(
        first,
        lossless=False,
        quality=QUALITY,
        method=ANIMATION_METHOD,
        save_all=True,
        append_images=rest,
        duration=list(durations),
        loop=loop,
    )


def _webp(picture: Image.Image, **options: Any) -> bytes:
    out = io.BytesIO()
    picture.save(out, format="WEBP", **_BARE, **options)
    return out.getvalue()
