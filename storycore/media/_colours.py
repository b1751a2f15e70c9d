"""Colours as every browser shows them: pixels converted from their ICC profile to sRGB, so
the profile (bytes of the input) need not be kept (docs/media.md#what-a-kept-picture-is)."""

from __future__ import annotations

import io

from PIL import Image, ImageCms

_SRGB = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB"))
_WITH_ALPHA = ("RGBA", "LA")


def in_srgb(picture: Image.Image, icc_profile: bytes | None) -> Image.Image:
    """``picture`` as ``RGB`` (or ``RGBA`` when it has transparency) in sRGB: converted from
    ``icc_profile`` when it has one that littleCMS reads, its values taken as they are
    otherwise (as a browser shows a picture without a profile)."""
    mode = "RGBA" if picture.mode in _WITH_ALPHA else "RGB"
    if icc_profile is not None:
        try:
            profile = ImageCms.ImageCmsProfile(io.BytesIO(icc_profile))
            converted = ImageCms.profileToProfile(picture, profile, _SRGB, outputMode=mode)
        except ImageCms.PyCMSError:
            pass  # a profile littleCMS cannot read, or not for this mode: the values as they are
        else:
            if converted is not None:
                return converted
    return picture if picture.mode == mode else picture.convert(mode)
