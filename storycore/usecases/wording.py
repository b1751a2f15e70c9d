"""What a caller is told when the storage refuses a change: every such error, worded once.

Adapters raise ``StorageError``s that say only what was refused (a duplicate key and which,
a stale version, a missing record); the service turns them into the errors of docs/api.md#errors
here, with the field and message a caller reads.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from ..errors import (
    Conflict,
    DuplicateKey,
    InvalidParameter,
    Missing,
    NotFound,
    SlugTaken,
    StaleVersion,
    StorageError,
    StorycoreError,
    VersionConflict,
)

__all__ = ["worded", "wording"]


def worded(error: StorageError, *, name: str = "", field: str | None = None) -> StorycoreError:
    """The caller's error for ``error``; ``name`` is the slug, username or application name of
    the record the change was about, for the message, and ``field`` the parameter a taken key
    was sent in, where it is not the key's own name (``story.slug``).
    """
    if isinstance(error, DuplicateKey):
        duplicate = _duplicate(error.key, name)
        if field is not None and duplicate.field is not None:
            duplicate.field = field
        return duplicate
    if isinstance(error, StaleVersion):
        return VersionConflict("the story changed meanwhile; read it again", field="version")
    if isinstance(error, Missing):
        return NotFound(f"there is no such {error.kind}" + (f" {name!r}" if name else ""))
    return error


def _duplicate(key: str, name: str) -> StorycoreError:
    if key == "story.slug":
        return SlugTaken(f"the author already has a story at {name!r}", field="slug")
    if key == "user.username":
        return InvalidParameter(f"the username {name!r} is taken", field="username")
    if key == "app.name":
        return InvalidParameter(f"the application {name!r} exists", field="name")
    if key == "identity":
        return Conflict("this identity is linked to a user already")
    return Conflict(f"a record with this {key} exists")


@contextmanager
def wording(*, name: str = "", field: str | None = None) -> Iterator[None]:
    """Storage errors raised in the block, worded for the caller (``worded``)."""
    try:
        yield
    except StorageError as exc:
        caller_error = worded(exc, name=name, field=field)
        if caller_error is exc:
            raise
        raise caller_error from exc
