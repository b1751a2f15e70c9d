"""Pictures made in the tests, hostile ones among them, and a reader of what storycore kept.

Nothing here is a binary fixture: every picture is drawn and encoded by Pillow, or written
byte by byte where Pillow would not write it (a header that lies about its size)."""

from __future__ import annotations

import io
import struct
import zlib
from typing import Any

from PIL import Image, ImageDraw

#: What a script smuggled into a picture runs; no kept file may hold it.
PAYLOAD = b"alert(document.domain)"
#: A page that runs it.
PAGE = b"<!doctype html><html><body><script>" + PAYLOAD + b"</script></body></html>"


def drawn(width: int, height: int, mode: str = "RGB") -> Image.Image:
    """A picture of ``width`` x ``height`` with shapes on it (so orientation and colours can be
    told apart): a red top-left quarter on a blue ground."""
    picture = Image.new("RGB", (width, height), (20, 40, 200))
    ImageDraw.Draw(picture).rectangle((0, 0, width // 2, height // 2), fill=(220, 30, 30))
    return picture.convert(mode)


def encoded(picture: Image.Image, format: str, **params: Any) -> bytes:
    """``picture`` saved as ``format`` with Pillow's ``params``."""
    out = io.BytesIO()
    picture.save(out, format=format, **params)
    return out.getvalue()


def _chunk(kind: bytes, data: bytes) -> bytes:
    return (
        struct.pack(">I", len(data))
        + kind
        + data
        + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    )


def png_claiming(width: int, height: int, compressed: int = 20_000) -> bytes:
    """A PNG whose header says ``width`` x ``height`` (8-bit greyscale), with about
    ``compressed`` bytes of zeros deflated after it: a decompression bomb when the header says
    more than its bytes could honestly hold."""
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    # about 1,000 zero bytes deflate to one byte: enough raw rows to fill ``compressed``
    data = zlib.compress(b"\0" * compressed * 1000, 9)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", data)
        + _chunk(b"IEND", b"")
    )


def gif_that_is_javascript() -> bytes:
    """A GIF that a browser also runs as a script: its width's two bytes are ``/*``, opening a
    comment that its trailer's tail closes before the script (the GIFAR/"GIF89a polyglot")."""
    width = int.from_bytes(b"/*", "little")  # 10799 pixels
    gif = encoded(drawn(width, 2, "P"), "GIF")
    assert gif[6:8] == b"/*"
    return gif + b"*/=" + PAYLOAD + b";"


def webp_chunks(content: bytes) -> list[bytes]:
    """The kinds of the top-level chunks of a WebP file (``VP8 ``, ``VP8L``, ``VP8X``,
    ``ALPH``, ``ANIM``, ``ANMF``, ``ICCP``, ``EXIF``, ``XMP ``)."""
    assert content[:4] == b"RIFF"
    assert content[8:12] == b"WEBP"
    kinds, at = [], 12
    while at + 8 <= len(content):
        kind, size = content[at : at + 4], int.from_bytes(content[at + 4 : at + 8], "little")
        kinds.append(kind)
        at += 8 + size + (size & 1)
    return kinds


def gif_growing_to(width: int, height: int) -> bytes:
    """A GIF of two frames whose header says 10 x 10 and whose second frame says ``width`` x
    ``height``: Pillow grows the picture to the frame when it reaches it."""
    frames = [Image.new("RGB", (10, 10), colour) for colour in ("red", "blue")]
    gif = bytearray(encoded(frames[0], "GIF", save_all=True, append_images=frames[1:]))
    at = 13 + ((3 << ((gif[10] & 7) + 1)) if gif[10] & 0x80 else 0)  # past the colour table
    descriptors = []
    while gif[at] != 0x3B:
        if gif[at] == 0x21:  # an extension: its label, then sub-blocks
            at += 2
        else:  # an image: its descriptor, its colour table, its code size, then sub-blocks
            descriptors.append(at)
            flags = gif[at + 9]
            at += 10 + ((3 << ((flags & 7) + 1)) if flags & 0x80 else 0) + 1
        while gif[at]:
            at += gif[at] + 1
        at += 1
    second = descriptors[1]
    gif[second + 1 : second + 9] = struct.pack("<HHHH", 0, 0, width, height)
    return bytes(gif)
