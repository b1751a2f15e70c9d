"""The one exception tree of storycore.

Every error a caller can meet carries the ``type``, HTTP ``status`` and, when one parameter
is at fault, the ``field`` of docs/api.md#errors), and renders itself as the
error body, so no binding holds a rule::

    StorycoreError
    ├── InvalidParameter        400 invalid_parameter
    │   ├── InvalidSlug         400 invalid_slug
    │   └── PictureRefused      400 invalid_parameter (a picture storycore does not keep)
    ├── Unauthorized            401 unauthorized
    ├── Forbidden               403 forbidden
    ├── NotFound                404 not_found
    ├── MethodNotAllowed        405 method_not_allowed
    ├── Conflict                409
    │   ├── SlugTaken           409 slug_taken
    │   └── VersionConflict     409 version_conflict
    ├── PayloadTooLarge         413 payload_too_large
    ├── RateLimited             429 rate_limited
    ├── ProviderUnavailable     502 provider_unavailable
    ├── Unavailable             503 unavailable (the store is busy or down; retry)
    ├── InternalError           500 internal_error
    ├── StoryMoved              301 (not a failure: the story lives at another slug)
    └── StorageError            what an adapter raises; the service words it (``wording``)
        ├── DuplicateKey        a unique key is taken (``key`` names which)
        ├── StaleVersion        a replacement expected another stored version
        └── Missing             the record to change is not stored

Adapters raise ``StorageError``s and ``Unavailable`` only: they state what the storage
refused, and ``storycore.usecases.wording`` turns that into the error a caller sees, with its
field and message. A ``StorageError`` that escapes unworded renders as a 500, as a bug does.

    ConfigurationError          a bad storage URL or setting, raised at start-up
    MissingDependencyError      an optional extra is not installed (an ``ImportError``)
"""

from __future__ import annotations

from typing import Any, ClassVar

__all__ = [
    "ConfigurationError",
    "Conflict",
    "DuplicateKey",
    "Forbidden",
    "InternalError",
    "InvalidParameter",
    "InvalidSlug",
    "MethodNotAllowed",
    "Missing",
    "MissingDependencyError",
    "NotFound",
    "PayloadTooLarge",
    "PictureRefused",
    "ProviderUnavailable",
    "RateLimited",
    "SlugTaken",
    "StaleVersion",
    "StorageError",
    "StoryMoved",
    "StorycoreError",
    "Unauthorized",
    "Unavailable",
    "VersionConflict",
]


class StorycoreError(Exception):
    """Root of every error that storycore reports to a caller."""

    status: ClassVar[int] = 500
    type: ClassVar[str] = "internal_error"

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field

    def body(self) -> dict[str, Any]:
        """The error body of docs/api.md#errors: ``{"error": {...}, "code": status}``."""
        error: dict[str, Any] = {"type": self.type, "message": self.message}
        if self.field is not None:
            error["field"] = self.field
        return {"error": error, "code": self.status}

    def headers(self) -> list[tuple[str, str]]:
        """Extra response headers this error needs (none, unless a subclass says so)."""
        return []


class InvalidParameter(StorycoreError):
    """A parameter is missing, malformed or out of range."""

    status = 400
    type = "invalid_parameter"


class InvalidSlug(InvalidParameter):
    """A slug breaks the slug rule."""

    type = "invalid_slug"


class PictureRefused(InvalidParameter):
    """Fetched bytes that storycore does not keep as a picture (docs/media.md): too large, not
    a JPEG, PNG, GIF or WebP as they decode, over 40 megapixels, damaged. The message is the
    reason, for a writer to read; it is kept beside the address whose picture was refused.
    """


class Unauthorized(StorycoreError):
    """Missing or wrong credentials, or an expired token."""

    status = 401
    type = "unauthorized"

    def headers(self) -> list[tuple[str, str]]:
        # how to authenticate (RFC 9110, section 11.6.1): a bearer token
        # (docs/api.md#credentials)
        return [("WWW-Authenticate", 'Bearer realm="storycore"')]


class Forbidden(StorycoreError):
    """Authenticated, but not allowed to do this."""

    status = 403
    type = "forbidden"


class NotFound(StorycoreError):
    """Unknown path, user or story, or a story the caller may not see."""

    status = 404
    type = "not_found"


class MethodNotAllowed(StorycoreError):
    """A known path asked with the wrong method."""

    status = 405
    type = "method_not_allowed"

    def __init__(self, message: str, *, allowed: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.allowed = allowed

    def headers(self) -> list[tuple[str, str]]:
        return [("Allow", ", ".join(self.allowed))] if self.allowed else []


class Conflict(StorycoreError):
    """The request conflicts with the stored state."""

    status = 409
    type = "conflict"


class SlugTaken(Conflict):
    """The author already has a story with that slug."""

    type = "slug_taken"


class VersionConflict(Conflict):
    """Save or publish named a version that is not the current one."""

    type = "version_conflict"


class PayloadTooLarge(StorycoreError):
    """The request body is over the configured limit."""

    status = 413
    type = "payload_too_large"


class RateLimited(StorycoreError):
    """Too many requests; ``retry_after`` says when to try again, in seconds."""

    status = 429
    type = "rate_limited"

    def __init__(self, message: str, *, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after

    def headers(self) -> list[tuple[str, str]]:
        return [("Retry-After", str(self.retry_after))]


class ProviderUnavailable(StorycoreError):
    """The identity provider did not answer in time, or answered nonsense."""

    status = 502
    type = "provider_unavailable"


class Unavailable(StorycoreError):
    """The store could not be reached in time (another process holds a long write lock, a
    database server is down). Nothing was changed; the same request may be sent again.
    """

    status = 503
    type = "unavailable"

    def __init__(self, message: str, *, retry_after: int = 1) -> None:
        super().__init__(message)
        self.retry_after = retry_after

    def headers(self) -> list[tuple[str, str]]:
        return [("Retry-After", str(self.retry_after))]


class InternalError(StorycoreError):
    """A bug. The response never shows its traceback."""

    status = 500
    type = "internal_error"


class StoryMoved(StorycoreError):
    """The story was asked for by a retired slug (an alias); it lives at ``slug`` now."""

    status = 301
    type = "moved"

    def __init__(self, username: str, slug: str) -> None:
        super().__init__(f"the story moved to {username}/{slug}")
        self.username = username
        self.slug = slug


class StorageError(StorycoreError):
    """A change the storage refused. Raised by adapters, worded by the service; one that
    reaches a caller unworded is a bug (500).
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)


class DuplicateKey(StorageError):
    """A unique key is taken. ``key`` names it: ``story.id``, ``story.slug`` (an author's live
    slug), ``user.id``, ``user.username`` (regardless of case), ``app.id``, ``app.name``,
    ``app.key_digest``, ``token.digest`` or ``identity`` (a provider's user, linked already).
    """

    def __init__(self, key: str) -> None:
        super().__init__(f"the storage holds a record with this {key} already")
        self.key = key


class StaleVersion(StorageError):
    """A replacement expected a stored version that is no longer the stored one."""

    def __init__(self, stored: int | None = None) -> None:
        super().__init__("the stored record changed meanwhile")
        self.stored = stored


class Missing(StorageError):
    """The record to change (``kind``: ``story``, ``user``, ``app``) is not stored."""

    def __init__(self, kind: str) -> None:
        super().__init__(f"the {kind} is not stored")
        self.kind = kind


class ConfigurationError(ValueError):
    """A storage URL or setting that storycore cannot work with."""


class MissingDependencyError(ImportError):
    """An optional dependency is not installed; the message names the extra to install, from
    the package index and from a checkout."""

    def __init__(self, package: str, extra: str) -> None:
        super().__init__(f"{package} is not installed: {self.install(extra)}")

    @staticmethod
    def install(extra: str) -> str:
        """The commands that install ``extra``: from the package index, and from a checkout."""
        return f"pip install 'storycore[{extra}]' (from a checkout: pip install -e '.[{extra}]')"
