"""Reading fetched bytes as a picture: only JPEG, PNG, GIF and WebP, as the bytes decode, held
to the bounds before anything is decoded (docs/media.md#what-a-kept-picture-is).

What comes out is a picture's frames, each upright and a copy of its pixels alone, so that
nothing of the input but its pixels (and an animation's timing) goes on."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from dataclasses import dataclass

from PIL import ExifTags, Image, UnidentifiedImageError

from ..errors import PictureRefused

#: The formats storycore opens, by Pillow's names: no other decoder is even tried.
FORMATS = ("JPEG", "PNG", "GIF", "WEBP")
#: The formats whose animations are kept (a JPEG's further pictures, MPO's, are no frames).
_ANIMATED_FORMATS = ("GIF", "PNG", "WEBP")
#: A frame of this many milliseconds or fewer lasts 100, as browsers show a GIF's.
_SHORTEST_FRAME_MS = 10
_BROWSERS_FRAME_MS = 100
#: The modes Pillow resizes with a filter, which a frame is read in.
_RESIZABLE = ("RGB", "RGBA", "L", "LA", "CMYK")
#: The modes of 16 bits a channel (greyscale PNGs), read as 8.
_SIXTEEN_BITS = ("I;16", "I;16B", "I;16L", "I;16N", "I")
#: How EXIF's Orientation turns the stored pixels upright.
_UPRIGHT = {
    2: Image.Transpose.FLIP_LEFT_RIGHT,
    3: Image.Transpose.ROTATE_180,
    4: Image.Transpose.FLIP_TOP_BOTTOM,
    5: Image.Transpose.TRANSPOSE,
    6: Image.Transpose.ROTATE_270,
    7: Image.Transpose.TRANSVERSE,
    8: Image.Transpose.ROTATE_90,
}
#: How many bytes at its start name what a refused file looks like.
_SNIFFED = 1024
#: What markup looks like from its first bytes: only to name it in its refusal.
_MARKUP = (
    (re.compile(rb"<svg[\s>]", re.IGNORECASE), "an SVG"),
    (re.compile(rb"<(!doctype\s+html|html|head|body|script)[\s>]", re.IGNORECASE), "an HTML page"),
)


@dataclass(frozen=True)
class Frames:
    """A picture's frames, upright, in one of the modes Pillow resizes; one for a still."""

    frames: tuple[Image.Image, ...]
    #: how long each frame shows, in milliseconds (one 0 for a still picture)
    durations: tuple[int, ...]
    #: how many times an animation plays: 0 for ever
    loop: int
    #: the ICC profile the pixels are in, to convert them from (None: sRGB)
    icc_profile: bytes | None
    #: drawn with at most 256 colours (a GIF, a paletted PNG), so worth encoding without loss
    few_colours: bool

    @property
    def animated(self) -> bool:
        return len(self.frames) > 1


def read(
    content: bytes,
    *,
    max_pixels: int,
    max_frames: int,
    max_animation_pixels: int,
    at_least: Callable[[tuple[int, int]], tuple[int, int]],
) -> Frames:
    """The frames of ``content``: all of an animation's, or its first alone when they are
    more than ``max_frames`` or hold more than ``max_animation_pixels`` in all.

    A JPEG is decoded at the smallest of its half, quarter or eighth (libjpeg scales as it
    decodes, for a fraction of the time and memory) that is ``at_least`` its size as kept.

    Raises ``PictureRefused`` for anything but the four formats and for a header over
    ``max_pixels``; Pillow's errors for damaged bytes go through, for the caller to word."""
    if not content:
        raise PictureRefused("not a picture: an empty file")
    try:
        opened = Image.open(io.BytesIO(content), formats=list(FORMATS))
    except UnidentifiedImageError as error:
        raise PictureRefused(f"not a picture: {_looks_like(content)}") from error
    _hold_to(opened.size, max_pixels)
    icc_profile = opened.info.get("icc_profile") or None
    few_colours = opened.format == "GIF" or opened.mode in ("P", "PA", "1")
    turn = _UPRIGHT.get(opened.getexif().get(ExifTags.Base.Orientation, 1))
    animated = opened.format in _ANIMATED_FORMATS and getattr(opened, "is_animated", False)
    if animated and (
        frames := _animation(
            opened, turn, max_pixels=max_pixels, max_frames=max_frames, max_all=max_animation_pixels
        )
    ):
        loop = int(opened.info.get("loop", 1))  # a GIF that says nothing plays once
        return Frames(frames[0], frames[1], loop, icc_profile, few_colours)
    opened.seek(0)
    if opened.format == "JPEG":
        opened.draft(None, at_least(opened.size))
    return Frames((_upright(_resizable(opened), turn),), (0,), 0, icc_profile, few_colours)


def over_pillows_bound(max_pixels: int) -> str:
    """The reason a picture is refused when Pillow refuses its header first: Pillow's bound
    (``MAX_IMAGE_PIXELS``, left as the host set it) is above storycore's, so what it refuses
    is over both, though it does not say the size."""
    bound = Image.MAX_IMAGE_PIXELS or 0
    return f"{_over(max_pixels)}: this one is over {bound // 10**6} megapixels"


def _hold_to(size: tuple[int, int], max_pixels: int) -> None:
    """Refuse a picture of ``size`` over ``max_pixels``, before a row of it is decoded."""
    width, height = size
    if width * height > max_pixels:
        raise PictureRefused(f"{_over(max_pixels)}: {width} x {height}")


def _over(max_pixels: int) -> str:
    return f"a picture of {max_pixels // 10**6} megapixels at most"


def _looks_like(content: bytes) -> str:
    """What refused bytes look like, for the reason of their refusal."""
    start = content[:_SNIFFED]
    for pattern, name in _MARKUP:
        if pattern.search(start):
            return name
    return "storycore keeps JPEG, PNG, GIF and WebP pictures"


def _animation(
    opened: Image.Image,
    turn: Image.Transpose | None,
    *,
    max_pixels: int,
    max_frames: int,
    max_all: int,
) -> tuple[tuple[Image.Image, ...], tuple[int, ...]] | None:
    """Every frame of ``opened`` and its duration, or None once they are more than
    ``max_frames`` or hold more than ``max_all`` pixels: only one frame beyond them is ever
    read. A GIF grows to a later frame larger than its header said, so each frame is held to
    ``max_pixels`` too."""
    frames: list[Image.Image] = []
    durations: list[int] = []
    pixels = 0
    while True:
        try:
            opened.seek(len(frames))
        except EOFError:
            return tuple(frames), tuple(durations)
        _hold_to(opened.size, max_pixels)
        pixels += opened.size[0] * opened.size[1]
        if len(frames) == max_frames or pixels > max_all:
            return None
        frames.append(_upright(opened.convert("RGBA"), turn))
        duration = int(opened.info.get("duration", 0))
        durations.append(_BROWSERS_FRAME_MS if duration <= _SHORTEST_FRAME_MS else duration)


def _resizable(picture: Image.Image) -> Image.Image:
    """``picture`` in a mode Pillow resizes with a filter, its transparency kept."""
    if picture.mode in _SIXTEEN_BITS:
        return picture.convert("I").point(lambda value: value * (1 / 256)).convert("L")
    if picture.mode in _RESIZABLE:
        return picture
    return picture.convert("RGBA" if picture.has_transparency_data else "RGB")


def _upright(picture: Image.Image, turn: Image.Transpose | None) -> Image.Image:
    return picture if turn is None else picture.transpose(turn)
