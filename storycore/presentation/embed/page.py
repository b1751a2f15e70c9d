"""The permalink page: a small HTML page that shows a story through its embed."""

from __future__ import annotations

from html import escape

__all__ = ["permalink_page"]


def permalink_page(
    *, title: str, description: str, image: str, permalink: str, script_url: str, site: str
) -> str:
    """The HTML page, with Open Graph tags; ``site`` is the site's name (``og:site_name``).
    Every value is escaped for HTML."""
    shown = escape(title or "Untitled story")
    about = escape(description)
    tags = [
        f'<meta property="og:title" content="{shown}">',
        f'<meta property="og:description" content="{about}">',
        f'<meta property="og:url" content="{escape(permalink)}">',
        '<meta property="og:type" content="article">',
        f'<meta property="og:site_name" content="{escape(site)}">',
    ]
    if image:
        tags.append(f'<meta property="og:image" content="{escape(image)}">')
    return (
        "<!doctype html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{shown}</title>\n"
        f'<meta name="description" content="{about}">\n'
        f'<link rel="canonical" href="{escape(permalink)}">\n'
        + "\n".join(tags)
        + "\n</head>\n<body>\n"
        f'<script src="{escape(script_url)}"></script>\n'
        "</body>\n</html>\n"
    )
