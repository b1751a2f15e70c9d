"""A page's whole HTML document: a template of ``templates/`` rendered inside ``base.html``,
whose head every page shares (``lang``, a viewport, ``<title>``, a description, a canonical
link, Open Graph and Twitter-card tags). The stylesheet is inlined (``style.css``, a few KB), so
that a page needs no other request to be read.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from typing import Any

from markupsafe import Markup

from .environment import environment
from .site import Site

__all__ = ["asset", "render_document"]


@cache
def asset(name: str) -> str:
    """The text of the package's file ``name`` (its stylesheet, its scripts)."""
    return files(__package__).joinpath(name).read_text(encoding="utf-8")


def render_document(template: str, site: Site, **context: Any) -> str:
    """``template`` rendered for ``site`` with ``context``; ``head`` holds what the page's head
    says beyond its defaults (``title``, ``description``, ``canonical``, ``noindex``, ...)."""
    head = {
        "description": "",
        "image": "",
        "noindex": False,
        "og_type": "website",
        "feed": "",
        "feed_title": "",
        "oembed": "",
        "json_ld": None,
        "next": "",
        "prev": "",
    }
    head.update(context.pop("head", {}))
    page = environment().get_template(template)
    style = Markup(asset("style.css"))  # noqa: S704 - the package's own file
    return page.render(site=site, head=head, style=style, **context)
