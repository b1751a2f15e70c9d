"""What a provider or a page says about a permalink, before it becomes element members."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

__all__ = ["Found"]


@dataclass(frozen=True, slots=True)
class Found:
    """Metadata as the provider gave it (text not yet reduced to plain text, addresses
    absolute but not yet checked); ``""`` and 0 are unknown.

    ``kind`` is the oEmbed ``type`` (``photo``, ``video``, ``link``, ``rich``), ``""`` for a
    page's metadata; ``text`` a post's words; ``media`` a photo's own address; ``width`` and
    ``height`` its size.
    """

    kind: str = ""
    title: str = ""
    description: str = ""
    text: str = ""
    author_name: str = ""
    author_username: str = ""
    author_url: str = ""
    posted_at: str = ""
    thumbnail: str = ""
    media: str = ""
    width: int = 0
    height: int = 0

    def __bool__(self) -> bool:
        return any(getattr(self, f.name) for f in fields(self))

    def or_else(self, other: Found) -> Found:
        """This, each unknown member taken from ``other``."""
        unknown = [f.name for f in fields(self) if not getattr(self, f.name)]
        return replace(self, **{name: getattr(other, name) for name in unknown})
