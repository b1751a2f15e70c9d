"""When the keeper tries a picture again (docs/media.md#how-pictures-are-kept): a fetch that
failed is tried after a minute, an hour and a day; after that its reason is kept and it is
failed for good, until ``storycore keep-media`` makes it due again."""

from __future__ import annotations

from datetime import datetime, timedelta

__all__ = ["RETRY_DELAYS", "next_attempt"]

#: The waits before each retry of a picture whose fetch failed.
RETRY_DELAYS = (timedelta(minutes=1), timedelta(hours=1), timedelta(days=1))


def next_attempt(failures: int, at: datetime) -> datetime | None:
    """When a picture that has failed ``failures`` times (the last at ``at``) is tried again,
    or None once the retries are spent."""
    if failures > len(RETRY_DELAYS):
        return None
    return at + RETRY_DELAYS[failures - 1]
