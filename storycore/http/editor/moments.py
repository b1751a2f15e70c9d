"""Times as the editor's pages say them: a stored UTC timestamp in words a writer reads."""

from __future__ import annotations

from datetime import datetime

__all__ = ["moment_text"]


def moment_text(timestamp: str) -> str:
    """``2026-12-01T09:30:00.000Z`` as ``1 December 2026 at 09:30 UTC``."""
    moment = datetime.fromisoformat(timestamp.replace("Z", "+00:00"))
    return f"{moment.day} {moment:%B %Y} at {moment:%H:%M} UTC"
