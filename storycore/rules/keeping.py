"""When the keeper tries a picture again (docs/media.md#how-pictures-are-kept): a fetch that
failed is tried after a minute, an hour and a day; after that its reason is kept and it is
failed for good, until ``storycore keep-media`` makes it due again. And how much a story keeps
(docs/media.md#limits): a picture that would take the bytes fetched for the kept pictures a
story shows past ``Settings.limits.media_bytes`` is not kept."""

from __future__ import annotations

from datetime import datetime, timedelta

__all__ = ["RETRY_DELAYS", "SEEN_LATELY", "next_attempt", "over_limit"]

#: The waits before each retry of a picture whose fetch failed.
RETRY_DELAYS = (timedelta(minutes=1), timedelta(hours=1), timedelta(days=1))
#: How long a write leaves a picture's ``seen`` as it is: only what nothing showed for 7 days
#: goes (``usecases.pruning.UNSHOWN``), so a write need not note it again within a day, and a
#: story saved again and again writes nothing for the pictures it showed already.
SEEN_LATELY = timedelta(days=1)


def next_attempt(failures: int, at: datetime) -> datetime | None:
    """When a picture that has failed ``failures`` times (the last at ``at``) is tried again,
    or None once the retries are spent."""
    if failures > len(RETRY_DELAYS):
        return None
    return at + RETRY_DELAYS[failures - 1]


def over_limit(kept: int, size: int, limit: int) -> str | None:
    """Why a picture of ``size`` fetched bytes is not kept for a story whose kept pictures
    took ``kept`` bytes, under a limit of ``limit`` bytes; None when it fits."""
    if kept + size <= limit:
        return None
    return f"over this story's {_amount(limit)} of pictures"


def _amount(size: int) -> str:
    """``size`` bytes as a person reads it: in MiB or KiB when it is a whole number of them."""
    for unit, scale in (("MiB", 2**20), ("KiB", 2**10)):
        if size % scale == 0:
            return f"{size // scale} {unit}"
    return f"{size} bytes"
