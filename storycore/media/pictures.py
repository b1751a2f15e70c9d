"""What a kept picture is (docs/media.md#what-a-kept-picture-is).

``keep_picture`` turns fetched bytes into the files storycore keeps: at most 16 MiB in, a
JPEG, PNG, GIF or WebP as its bytes decode, at most 40 megapixels (refused from its header,
before anything is decoded), turned upright, converted to sRGB, at most 2048 pixels on its
long side, and encoded again as WebP with no metadata and no byte of the input; beside a
still picture, the narrower widths of ``WIDTHS`` for ``srcset`` (an animation is kept at one
width). Each file is named by the SHA-256 of its
bytes. Anything else is ``PictureRefused``, whose message a writer can read; no error of
Pillow's goes out of here.
"""

from __future__ import annotations

import hashlib
import io
import struct
import zlib
from dataclasses import dataclass, field

from PIL import Image

from ..errors import PictureRefused
from . import _reading, _writing
from ._colours import in_srgb

__all__ = [
    "EXTENSIONS",
    "LONG_SIDE",
    "MAX_ANIMATION_PIXELS",
    "MAX_BYTES",
    "MAX_FRAMES",
    "MAX_PIXELS",
    "WIDTHS",
    "KeptPicture",
    "PictureFile",
    "keep_picture",
    "stored_size",
]

#: The most bytes a picture may have, as fetched (the fetcher stops reading past them).
MAX_BYTES = 16 * 2**20
#: The most pixels a picture may claim in its header (width x height).
MAX_PIXELS = 40_000_000
#: The most pixels on the long side of a kept picture; a larger one is scaled down.
LONG_SIDE = 2048
#: The narrower widths made for ``srcset``, each only when narrower than the kept picture: a
#: phone's column at 1x and 2x (320, 640), the reading column at 1.5x (1024) and 2x (1536).
WIDTHS = (320, 640, 1024, 1536)
#: The extension of a kept file's name by its media type: the four types a kept file may have
#: (this module writes WebP alone).
EXTENSIONS = {"image/webp": "webp", "image/jpeg": "jpg", "image/png": "png", "image/gif": "gif"}
#: Pillow's decoder of each type of ``EXTENSIONS``.
_DECODERS = {"image/webp": "WEBP", "image/jpeg": "JPEG", "image/png": "PNG", "image/gif": "GIF"}
#: An animation of more frames than this is kept as its first frame.
MAX_FRAMES = 200
#: An animation whose frames hold more pixels than this in all (frames x width x height) is
#: kept as its first frame: it bounds the time and memory an animation takes to encode.
MAX_ANIMATION_PIXELS = 25_000_000

#: What Pillow raises for bytes that begin as a picture and do not decode whole: truncated,
#: damaged, inconsistent (its decoders are written in C and in Python, hence the variety).
_DAMAGED = (OSError, ValueError, SyntaxError, EOFError, IndexError, struct.error, zlib.error)


@dataclass(frozen=True)
class PictureFile:
    """One file storycore keeps: a WebP picture, named by the SHA-256 of its bytes."""

    content: bytes = field(repr=False)
    width: int
    height: int
    #: the hexadecimal SHA-256 of ``content``
    sha256: str
    media_type: str = "image/webp"

    @classmethod
    def of(cls, content: bytes, width: int, height: int) -> PictureFile:
        return cls(content, width, height, hashlib.sha256(content).hexdigest())

    @property
    def extension(self) -> str:
        """The extension of its name, its type's (``EXTENSIONS``)."""
        return EXTENSIONS[self.media_type]

    @property
    def name(self) -> str:
        """The file's name: ``<sha256>.<extension>``, as served under ``/media/``."""
        return f"{self.sha256}.{self.extension}"

    @property
    def size(self) -> int:
        """The file's length in bytes."""
        return len(self.content)


@dataclass(frozen=True)
class KeptPicture:
    """What storycore keeps of one fetched picture: the picture, at most ``LONG_SIDE`` pixels
    on its long side, and its narrower widths."""

    original: PictureFile
    #: the widths of ``WIDTHS`` narrower than ``original``, narrowest first (none for an
    #: animation)
    widths: tuple[PictureFile, ...]
    #: whether ``original`` and its widths are animations
    animated: bool

    @property
    def files(self) -> tuple[PictureFile, ...]:
        """Every file, narrowest first, ``original`` last: what ``srcset`` lists."""
        return (*self.widths, self.original)


def keep_picture(content: bytes) -> KeptPicture:
    """The files storycore keeps of the fetched picture ``content``.

    Raises ``PictureRefused`` with the reason: over ``MAX_BYTES``, not one of the four formats
    as its bytes decode, over ``MAX_PIXELS``, or damaged.
    """
    if len(content) > MAX_BYTES:
        raise PictureRefused(
            f"a picture of {MAX_BYTES // 2**20} MiB at most: this is {len(content) / 2**20:.1f} MiB"
        )
    try:
        read = _reading.read(
            content,
            max_pixels=MAX_PIXELS,
            max_frames=MAX_FRAMES,
            max_animation_pixels=MAX_ANIMATION_PIXELS,
            at_least=_bounded,
        )
        return _kept(read)
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as error:
        # Pillow's own check, on a header or on a GIF's frame (a warning only under a filter
        # that makes it an error: docs/media.md#refusals)
        raise PictureRefused(_reading.over_pillows_bound(MAX_PIXELS)) from error
    except _DAMAGED as error:
        raise PictureRefused("a damaged or truncated picture") from error


def stored_size(content: bytes, media_type: str) -> tuple[int, int] | None:
    """The width and height that ``content``'s header gives as a picture of ``media_type``,
    read by that type's decoder alone, or None when it is no such picture (or its type is none
    of ``EXTENSIONS``). Only the header is read: it checks a file given as kept (an import's,
    docs/media-storage.md#export-and-import) at little cost, without decoding its pixels."""
    decoder = _DECODERS.get(media_type)
    if decoder is None:
        return None
    try:
        with Image.open(io.BytesIO(content), formats=[decoder]) as picture:
            width, height = picture.size
            return width, height
    except (Image.DecompressionBombError, Image.DecompressionBombWarning, *_DAMAGED):
        return None


def _kept(read: _reading.Frames) -> KeptPicture:
    size = _bounded(read.frames[0].size)
    frames = tuple(in_srgb(frame, read.icc_profile) for frame in _writing.scaled(read.frames, size))
    if read.animated:
        # an animation's frames multiply every width's cost: it is kept at one width
        content = _writing.animation(frames, read.durations, read.loop)
        return KeptPicture(PictureFile.of(content, *size), (), animated=True)
    return _with_widths(frames[0], few_colours=read.few_colours)


def _bounded(size: tuple[int, int]) -> tuple[int, int]:
    """``size`` scaled down to ``LONG_SIDE`` on its long side, when it is longer."""
    width, height = size
    scale = min(1.0, LONG_SIDE / max(width, height))
    return max(1, round(width * scale)), max(1, round(height * scale))


def _with_widths(picture: Image.Image, *, few_colours: bool) -> KeptPicture:
    """``picture`` and its narrower widths, made from the widest down; each is kept only when
    its file is smaller than the last one kept (a narrower file that is no smaller would save
    a reader nothing)."""
    kept = [_still(picture, few_colours=few_colours)]
    for width in sorted((each for each in WIDTHS if each < picture.width), reverse=True):
        height = max(1, round(picture.height * width / picture.width))
        file = _still(_writing.scaled((picture,), (width, height))[0], few_colours=few_colours)
        if file.size < kept[-1].size:
            kept.append(file)
    original, *narrower = kept
    return KeptPicture(original, tuple(reversed(narrower)), animated=False)


def _still(picture: Image.Image, *, few_colours: bool) -> PictureFile:
    content = _writing.still(picture, few_colours=few_colours)
    return PictureFile.of(content, *picture.size)
