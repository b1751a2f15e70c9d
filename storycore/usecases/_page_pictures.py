"""The pictures each page of a story's elements shows (``model.shown_pictures``), read from its
stored documents once for each version of the story: only a write changes a story's elements,
and every write changes its version. An answer that shows a page again (a story read, a story
page, the embed) finds them here without parsing its documents."""

from __future__ import annotations

from collections.abc import Sequence

import orjson

from ..model.records import StoryRecord
from ..model.shown_pictures import Shown, element_shown

__all__ = ["PagePictures"]

#: The pages whose pictures a ``PagePictures`` keeps; past it, it starts over.
KEPT_PAGES = 4096


class PagePictures:
    """The pictures of each element of a page of a story, by the story's version and the page."""

    def __init__(self) -> None:
        self._of: dict[tuple[str, int, str, int, int], tuple[tuple[Shown, ...], ...]] = {}

    def of(
        self, story: StoryRecord, offset: int, documents: Sequence[str]
    ) -> tuple[tuple[Shown, ...], ...]:
        """The pictures each of ``documents`` shows, the elements of ``story`` from
        ``offset``, in their order."""
        key = (story.id, story.version, story.updated, offset, len(documents))
        found = self._of.get(key)
        if found is None:
            found = tuple(tuple(element_shown(orjson.loads(d))) for d in documents)
            if len(self._of) >= KEPT_PAGES:
                self._of.clear()
            self._of[key] = found
        return found
