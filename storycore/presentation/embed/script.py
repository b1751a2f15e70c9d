"""The embed script: a story as a JSON literal inside a fixed JavaScript template.

Story text reaches the page only through ``textContent`` and attributes; the one exception is
text-element HTML, sanitized again here before it is written into the script. The JSON literal
escapes ``<``, ``>``, ``&``, U+2028 and U+2029, so ``</script>`` and ``<!--`` cannot end or
confuse the script, whatever a story holds.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Any

import orjson

from ...model.records import Element
from ...rules.addresses import is_http_url
from ...rules.sanitize import sanitize_html

__all__ = ["EmbedStory", "embed_script", "not_found_script", "script_literal"]

_ESCAPES = {
    "<": "\\u003c",
    ">": "\\u003e",
    "&": "\\u0026",
    "\u2028": "\\u2028",
    "\u2029": "\\u2029",
}


def script_literal(value: Any) -> str:
    """``value`` as a JavaScript literal that is safe anywhere inside a ``<script>`` element."""
    text = orjson.dumps(value).decode()
    for raw, escaped in _ESCAPES.items():
        text = text.replace(raw, escaped)
    return text


@cache
def _asset(name: str) -> str:
    return files(__package__).joinpath(name).read_text(encoding="utf-8")


@dataclass(frozen=True, slots=True)
class EmbedStory:
    """What the embed shows of a story."""

    id: str
    title: str
    description: str
    date: str
    permalink: str
    site: str
    author_username: str
    author_name: str
    author_avatar: str
    author_permalink: str
    author_plan: str
    elements: list[Element]


def _element_data(element: Element) -> dict[str, Any]:
    data = element.model_dump(mode="json")
    if element.type == "text":
        data["data"] = {"text": sanitize_html(element.data["text"])}
    return data


def embed_script(story: EmbedStory, css: str | None) -> str:
    """The script for ``story``. A ``css`` address is used only when it is an absolute
    http(s) address and the author is on the enterprise plan; otherwise the script says, with
    ``console.warn``, that ``css`` was ignored and why.
    """
    custom = None
    ignored = None
    if css:
        if not is_http_url(css):
            ignored = "css must be an absolute http or https address"
        elif story.author_plan != "enterprise":
            ignored = "custom css is available on the enterprise plan only"
        else:
            custom = css
    data = {
        "id": story.id,
        "title": story.title,
        "description": story.description,
        "date": story.date,
        "permalink": story.permalink,
        "site": story.site,
        "author": {
            "username": story.author_username,
            "name": story.author_name,
            "avatar": story.author_avatar,
            "permalink": story.author_permalink,
        },
        "elements": [_element_data(e) for e in story.elements],
    }
    replacements = {
        "/*STORY*/null": script_literal(data),
        "/*CSS*/null": script_literal(custom),
        "/*IGNORED_CSS*/null": script_literal(ignored),
        '/*DEFAULT_CSS*/""': script_literal(_asset("default.css")),
        '/*QUOTE_CSS*/""': script_literal(_asset("quote.css")),
    }
    script = _asset("embed.js")
    for marker, value in replacements.items():
        script = script.replace(marker, value, 1)
    return script


def not_found_script(message: str) -> str:
    """A script that only logs an error: the answer for an unknown or hidden story."""
    return f"console.error({script_literal('storycore embed: ' + message)});\n"
