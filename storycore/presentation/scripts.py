"""The scripts the web host's pages load, as files storycore serves itself (no inline script:
docs/api.md#the-web-host): the video posters' player of the reading pages, and the editor's
enhancements (docs/editor.md).

Each is served under ``{stem}.{hash}`` (``paths.PAGE_SCRIPT`` adds ``.js``): its name changes
with its content, so that it may be cached for good.
"""

from __future__ import annotations

import hashlib
from functools import cache
from importlib.resources import files

__all__ = ["SCRIPTS", "script_content", "script_name"]

#: The scripts, by stem: the package and the file that hold each.
SCRIPTS = {
    "player": ("storycore.presentation.pages", "player.js"),
    "editor": ("storycore.presentation.editor", "editor.js"),
}


@cache
def _text(stem: str) -> str:
    package, name = SCRIPTS[stem]
    return files(package).joinpath(name).read_text(encoding="utf-8")


@cache
def script_name(stem: str) -> str:
    """The name the script ``stem`` is served under: the stem and the start of its content's
    sha256."""
    return f"{stem}.{hashlib.sha256(_text(stem).encode()).hexdigest()[:16]}"


@cache
def _by_name() -> dict[str, str]:
    return {script_name(stem): stem for stem in SCRIPTS}


def script_content(name: str) -> str | None:
    """The script served under ``name`` (as ``script_name`` gives it), or None for a name that
    is no current script's (an older version's among them)."""
    stem = _by_name().get(name)
    return None if stem is None else _text(stem)
