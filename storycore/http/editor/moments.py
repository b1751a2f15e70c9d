"""Times as the editor's pages say them: a stored UTC timestamp in words a writer reads."""

from __future__ import annotations

from ...presentation.editor.publishing import moment_text

__all__ = ["moment_text"]
