"""The pages people read on the web host (docs/api.md#the-web-host), rendered on the server from
Jinja2 templates (``templates/``: one a page, ``partials/`` one an element kind), autoescaped.

Everything here is records in, HTML text out: the HTTP layer reads the service and serves it.
``render_elements`` is the one renderer of a story's elements, for the story page and the
embed alike; ``embedded_story`` is what the embed script inserts (the story page's header and
elements), ``player_script`` the one script of the video posters, for both (the story page
loads it as a file named ``player_script_name``), and ``page_style`` the stylesheet every page
inlines.
"""

from .elements import render_elements
from .render import (
    StoryCard,
    author_page,
    embedded_story,
    front_page,
    kept_embedded_story,
    kept_front_page,
    kept_story_page,
    not_found_page,
    page_style,
    player_script,
    player_script_name,
    search_page,
    story_page,
    tagged_page,
)
from .site import Site

__all__ = [
    "Site",
    "StoryCard",
    "author_page",
    "embedded_story",
    "front_page",
    "kept_embedded_story",
    "kept_front_page",
    "kept_story_page",
    "not_found_page",
    "page_style",
    "player_script",
    "player_script_name",
    "render_elements",
    "search_page",
    "story_page",
    "tagged_page",
]
