"""Pictures made kept by hand, as the keeper would have kept them
(docs/media.md#how-pictures-are-kept): for tests of where kept copies show, which need no
fetch."""

from __future__ import annotations

import hashlib

from PIL import ImageDraw

from storycore.media.pictures import keep_picture
from storycore.model.kept import KeptCopy, KeptFile, KeptSource
from storycore.ports import Store
from tests.media._pictures import drawn, encoded

AT = "2026-01-01T00:00:00.000Z"


def keep(store: Store, address: str, width: int = 700, height: int = 400) -> tuple[KeptCopy, ...]:
    """Keep a picture of ``width`` by ``height`` as the copy of ``address`` (a picture of its
    own, marked in a colour of the address): its files put, its record kept; its copies, the
    original first, then the narrower widths narrowest first."""
    drawing = drawn(width, height)
    colour = tuple(hashlib.sha256(address.encode()).digest()[:3])
    ImageDraw.Draw(drawing).rectangle((width // 2, height // 2, width, height), fill=colour)
    picture = keep_picture(encoded(drawing, "PNG"))
    for file in picture.files:
        members = KeptFile(file.sha256, file.media_type, file.width, file.height, file.size, AT)
        store.kept_files.put(members, file.content)
    copies = tuple(
        KeptCopy(file.sha256, file.media_type, file.width, file.height)
        for file in (picture.original, *picture.widths)
    )
    store.kept_sources.restore([KeptSource(address, AT, "kept", copies)])
    return copies
