"""The pictures storycore keeps, as the web host serves them
(docs/media.md#how-a-kept-picture-is-served): a file is found by its name alone,
``<sha256>.<extension>``, the extension the one of its type, so that one file has one address
and no name that is not a kept file's finds anything."""

from __future__ import annotations

import re

from ..media.pictures import EXTENSIONS
from ..model.kept import KeptFile
from .context import Context

__all__ = ["KeptMedia"]

_NAME = re.compile(r"(?P<sha256>[0-9a-f]{64})\.(?P<extension>[a-z]{3,4})")


class KeptMedia:
    """The kept files, read by their names."""

    def __init__(self, context: Context) -> None:
        self._ctx = context

    def file(self, name: str) -> tuple[KeptFile, bytes] | None:
        """The kept file named ``name`` and its bytes, or None: for a name of another form, a
        file storycore does not keep, or the right SHA-256 with another type's extension."""
        found = _NAME.fullmatch(name)
        if found is None:
            return None
        kept = self._ctx.store.kept_files.get(found["sha256"])
        if kept is None or EXTENSIONS.get(kept[0].media_type) != found["extension"]:
            return None
        return kept
