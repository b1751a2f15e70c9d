"""Properties of every kept picture (docs/media.md): whatever small picture comes in, what is
kept decodes, is at most 2048 pixels on its long side, holds no metadata and is named by its
bytes; whatever bytes come in, the answer is a kept picture or a ``PictureRefused``, never
Pillow's own error."""

from __future__ import annotations

import contextlib
import hashlib
import io

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from storycore.errors import PictureRefused
from storycore.media.pictures import LONG_SIDE, keep_picture

from ._pictures import encoded, webp_chunks

BOUNDED = settings(max_examples=60, deadline=None, database=None)
#: The modes each format writes.
MODES = {
    "JPEG": ["RGB", "L", "CMYK"],
    "PNG": ["RGB", "RGBA", "L", "LA", "P", "1", "I;16"],
    "GIF": ["P", "L"],
    "WEBP": ["RGB", "RGBA"],
}


@st.composite
def pictures(draw: st.DrawFn) -> bytes:
    """A small picture of random pixels in one of the four formats and one of its modes."""
    format = draw(st.sampled_from(sorted(MODES)))
    mode = draw(st.sampled_from(MODES[format]))
    width, height = draw(st.integers(1, 48)), draw(st.integers(1, 48))
    rgba = draw(st.binary(min_size=width * height * 4, max_size=width * height * 4))
    picture = Image.frombytes("RGBA", (width, height), rgba)
    return encoded(picture if mode == "RGBA" else picture.convert("RGB").convert(mode), format)


@BOUNDED
@given(pictures())
def test_any_small_picture_is_kept_decodable_bounded_bare_and_named_by_its_bytes(
    content: bytes,
) -> None:
    for file in keep_picture(content).files:
        opened = Image.open(io.BytesIO(file.content), formats=["WEBP"])
        opened.load()
        assert opened.size == (file.width, file.height)
        assert max(opened.size) <= LONG_SIDE
        assert dict(opened.getexif()) == {}
        assert not {b"EXIF", b"ICCP", b"XMP "} & set(webp_chunks(file.content))
        assert file.sha256 == hashlib.sha256(file.content).hexdigest()


@st.composite
def damaged(draw: st.DrawFn) -> bytes:
    """A picture with some of its bytes changed, cut or added."""
    content = bytearray(draw(pictures()))
    for _ in range(draw(st.integers(1, 8))):
        at = draw(st.integers(0, len(content) - 1))
        content[at] = draw(st.integers(0, 255))
    cut = draw(st.integers(0, len(content)))
    return bytes(content[:cut]) + draw(st.binary(max_size=16))


@BOUNDED
@given(damaged() | st.binary(max_size=256))
def test_any_bytes_are_kept_or_refused_never_an_error_of_pillow(content: bytes) -> None:
    with contextlib.suppress(PictureRefused):  # any other error fails the test
        keep_picture(content)
