"""Writing what is kept: frames scaled to a width and encoded as WebP, with nothing but their
pixels and timing (docs/media.md#the-files)."""

from __future__ import annotations

import io

from PIL import Image

#: WebP's lossy quality for photographs (libwebp's and Pillow's default, what cwebp suggests).
QUALITY = 80
#: libwebp's effort, 0 (fast) to 6 (small): 4 is its default, near 6's size in half its time.
METHOD = 4


def scaled(frames: tuple[Image.Image, ...], size: tuple[int, int]) -> tuple[Image.Image, ...]:
    """``frames`` at ``size``, with Lanczos (reduced in steps first when much larger)."""
    if frames[0].size == size:
        return frames
    return tuple(frame.resize(size, Image.Resampling.LANCZOS, reducing_gap=3.0) for frame in frames)


def webp(
    frames: tuple[Image.Image, ...], durations: tuple[int, ...], loop: int, *, lossless: bool
) -> bytes:
    """``frames`` as one WebP file (animated when more than one), with no EXIF, XMP or ICC
    profile: those are written only when asked for, and this asks for none."""
    out = io.BytesIO()
    first, *rest = frames
    options: dict[str, object] = {
        "lossless": lossless,
        "quality": QUALITY,
        "method": METHOD,
        "exif": b"",
        "icc_profile": None,
        "xmp": b"",
    }
    if rest:
        options |= {
            "save_all": True,
            "append_images": rest,
            "duration": list(durations),
            "loop": loop,
        }
    first.save(out, format="WEBP", **options)
    return out.getvalue()
