"""Reading the project's Markdown pages in tests: the code blocks that tests run as written."""

from __future__ import annotations

import re

__all__ = ["code_blocks"]


def code_blocks(text: str, language: str) -> list[str]:
    """The bodies of the fenced code blocks of ``language`` (```` ```sh ````), in page order."""
    return re.findall(rf"```{re.escape(language)}\n(.*?)```", text, flags=re.DOTALL)
