"""The Jinja2 environment of the pages, built once: templates from the package, autoescaped
everywhere, and an undefined name an error (``StrictUndefined``), never an empty string.

Its filters: ``day`` (a timestamp as a date people read), ``json_script`` (a value as JSON
that cannot end or confuse the ``<script>`` element holding it: docs/api.md#the-web-host's rule).
"""

from __future__ import annotations

from datetime import datetime
from functools import cache
from typing import TYPE_CHECKING, Any

from markupsafe import Markup

if TYPE_CHECKING:
    from jinja2 import Environment

from ..literal import script_literal

__all__ = ["day", "environment"]


def day(timestamp: str | None) -> str:
    """``2026-04-19T08:46:00.000Z`` as ``19 April 2026``; what is not a timestamp, as it is."""
    if not timestamp:
        return ""
    try:
        moment = datetime.fromisoformat(timestamp.replace("Z", "+00:00"))
    except ValueError:
        return timestamp
    return f"{moment.day} {moment:%B %Y}"


def _json_script(value: Any) -> Markup:
    return Markup(script_literal(value))  # noqa: S704 - no <, >, & left


@cache
def environment() -> Environment:
    """The one environment of the pages. Jinja2 is imported here, at the first page: every
    ``storycore`` command composes a service, and only ``serve`` renders pages."""
    from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

    made = Environment(
        loader=PackageLoader("storycore.presentation.pages", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,
    )
    made.filters["day"] = day
    made.filters["json_script"] = _json_script
    return made
