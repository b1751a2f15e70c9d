"""The pictures storycore serves itself: the demo's files, shipped in the package
(``storycore/static/demo``) and served at ``{web_url}/static/demo/{name}``
(``storycore.http.static``), and the widths each one comes in (docs/api.md#pictures-in-widths).

A picture ``{stem}.webp`` may come in smaller widths too, each the file
``{stem}-{width}w.webp`` beside it (``scripts/draw_demo_pictures.py`` writes them). A page offers
them in an ``<img>``'s ``srcset``, so a browser loads no more pixels than it draws. The widths are
read from the files themselves (their WebP headers, by Pillow), never written down twice.
"""

from __future__ import annotations

import io
import re
from functools import cache
from importlib import resources

from PIL import Image, UnidentifiedImageError

from ..rules.own_files import OWN_FILES

__all__ = ["FOLDER", "TYPES", "content", "names", "picture_size", "widths"]

#: The package's folder of the demo's files (the same path under the web host: ``OWN_FILES``).
FOLDER = OWN_FILES.strip("/")
#: The content type of each kind of file the folder may hold, by the name's ending.
TYPES = {".webp": "image/webp", ".jpg": "image/jpeg", ".png": "image/png"}

_SMALLER = re.compile(r"(?P<stem>.+)-(?P<width>[1-9][0-9]*)w\.webp")


@cache
def names() -> frozenset[str]:
    """The names of the files the package holds."""
    folder = resources.files("storycore").joinpath(*FOLDER.split("/"))
    return frozenset(
        entry.name
        for entry in folder.iterdir()
        if entry.is_file() and entry.name[entry.name.rfind(".") :] in TYPES
    )


@cache
def content(name: str) -> bytes:
    """The content of the file ``name``; ``KeyError`` when the package holds none."""
    if name not in names():
        raise KeyError(name)
    return resources.files("storycore").joinpath(*FOLDER.split("/"), name).read_bytes()


@cache
def picture_size(name: str) -> tuple[int, int]:
    """The width and height in pixels of the WebP picture ``name``, from its header (Pillow
    reads no more of it); ``KeyError`` when the package holds no such file, ``ValueError``
    when it is no WebP picture."""
    try:
        with Image.open(io.BytesIO(content(name)), formats=["WEBP"]) as picture:
            return picture.size
    except UnidentifiedImageError as error:
        raise ValueError(f"{name} is not a WebP file") from error


@cache
def widths(name: str) -> tuple[tuple[str, int], ...]:
    """The files of the picture ``name`` in each width the package holds, with their widths,
    narrowest first, ``name`` itself among them; none when the package holds no smaller width
    of it (an avatar, drawn as large as it is) or no file ``name``."""
    if name not in names() or not name.endswith(".webp") or _SMALLER.fullmatch(name):
        return ()
    stem = name.removesuffix(".webp")
    smaller = [
        found.string
        for found in map(_SMALLER.fullmatch, names())
        if found is not None and found["stem"] == stem
    ]
    if not smaller:
        return ()
    return tuple(sorted(((file, picture_size(file)[0]) for file in [*smaller, name]), key=_width))


def _width(file: tuple[str, int]) -> int:
    return file[1]
