"""The embed script (docs/api.md#the-web-host): the story page's markup of a story, as a
string literal inside a fixed JavaScript template.

The markup is rendered on the server by the pages' one renderer (``pages.embedded_story``:
Jinja2, autoescaped, the story page's partials), so the embed and the story page never differ
and every string of a story reaches it escaped; the text element's sanitized HTML is the only
markup a story brings. The literal escapes ``<``, ``>``, ``&``, U+2028 and U+2029
(``script_literal``), so ``</script>`` and ``<!--`` cannot end or confuse the script, whatever a
story holds. In the browser the script parses the markup in an inert ``<template>``, puts each
quote's content in a shadow root with its own stylesheet, gives the story and its quotes the
theme its tag's ``data-theme`` asks for (light unless ``dark`` or ``auto``: the stylesheets key
their colours off it), and inserts the story right after its own ``<script>`` element.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib.resources import files

from ...rules.addresses import is_http_url
from ..literal import script_literal
from ..pages import player_script

__all__ = ["EmbedStory", "embed_script", "not_found_script", "script_literal"]

_MARKERS = re.compile(r'/\*[A-Z_]+\*/(?:null|"")?')
# the player script listens on the story the embed inserts, not on the host page's document
_PLAYER_SCOPE = "/*SCOPE*/document"


@cache
def _asset(name: str) -> str:
    return files(__package__).joinpath(name).read_text(encoding="utf-8")


@dataclass(frozen=True, slots=True)
class EmbedStory:
    """What the embed shows of a story: its id, the markup ``pages.embedded_story`` rendered,
    and the author's plan (for the ``css`` rule)."""

    id: str
    markup: str
    author_plan: str


def _ignored_css(css: str | None, plan: str) -> str | None:
    """Why ``css`` is not used, or None when it is (or there is none)."""
    if not css:
        return None
    if not is_http_url(css):
        return "css must be an absolute http or https address"
    if plan != "enterprise":
        return "custom css is available on the enterprise plan only"
    return None


@cache
def _player() -> str:
    source = player_script()
    if _PLAYER_SCOPE not in source:
        raise RuntimeError(f"the player script does not start with {_PLAYER_SCOPE}")
    return source.replace(_PLAYER_SCOPE, "container", 1)


@lru_cache(maxsize=256)
def embed_script(story: EmbedStory, css: str | None) -> str:
    """The script for ``story``. A ``css`` address is used only when it is an absolute
    http(s) address and the author is on the enterprise plan; otherwise the script says, with
    ``console.warn``, that ``css`` was ignored and why. A pure function of its arguments,
    kept for the last 256 (a story's markup is kept rendered by its content: ``pages``).
    """
    ignored = _ignored_css(css, story.author_plan)
    custom = css if css and ignored is None else None
    replacements = {
        "/*ID*/null": script_literal(story.id),
        "/*MARKUP*/null": script_literal(story.markup),
        "/*CSS*/null": script_literal(custom),
        "/*IGNORED_CSS*/null": script_literal(ignored),
        '/*DEFAULT_CSS*/""': script_literal(_asset("default.css")),
        '/*QUOTE_CSS*/""': script_literal(_asset("quote.css")),
        "/*PLAYER*/": _player(),
    }
    # one pass over the template: what is put in is never read again for markers, so a story
    # holding a marker's text cannot have something put inside its string literal
    return _MARKERS.sub(lambda found: replacements[found.group(0)], _asset("embed.js"))


def not_found_script(message: str) -> str:
    """A script that only logs an error: the answer for an unknown or hidden story."""
    return f"console.error({script_literal('storycore embed: ' + message)});\n"
