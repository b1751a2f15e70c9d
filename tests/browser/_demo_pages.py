"""The pages the quality suites load on the demo data (docs/api.md#the-web-host), and the plain host
page that carries the embed script, in one place for the axe and the Lighthouse suites.
"""

from __future__ import annotations

#: A story of the demo with text, quotes, images, a video and link cards.
STORY = "/alice/a-morning-in-the-harbour-fog-of-porto"

#: Each page of docs/api.md#the-web-host on the demo data, by name: its path on the web host.
#: Besides the
#: table's pages: the web host's HTML 404, and the search page refusing a query longer than
#: the limit (``Settings.limits.query``, 200 by default).
PAGES = {
    "front": "/",
    "story": STORY,
    "author": "/alice",
    "topic": "/topics/food",
    "tag": "/tags/tea",
    "search": "/search?q=porto",
    "docs": "/docs/api",
    "not_found": "/alice/no-such-story",
    "search_refused": "/search?q=" + "porto+" * 40,
}

#: The pages that answer an error status by design, with it. Chromium logs the status of the
#: page's own address as an error (``Failed to load resource``); nothing else may be logged.
ERROR_STATUS = {"not_found": (404, "Not Found"), "search_refused": (400, "Bad Request")}

#: What shows that a page is whole once loaded, where its script draws it after the load: the
#: API reference's operations, which Swagger UI draws from the OpenAPI document.
DRAWN = {"docs": ".opblock-summary"}


def status_line(name: str, address: str) -> list[str]:
    """What Chromium logs for the page ``name`` at ``address``: the line of its own error
    status, or nothing."""
    if name not in ERROR_STATUS:
        return []
    status, reason = ERROR_STATUS[name]
    text = f"Failed to load resource: the server responded with a status of {status} ({reason})"
    return [f"error: {text} at {address}"]


#: Where the host page is served on the host-page origin.
HOST_PAGE_PATH = "/host.html"


def host_page(story_base: str) -> str:
    """A plain host page, as a publisher would write one, carrying the embed script of ``STORY``.

    It has what any page needs (``lang``, a viewport, a title, a description, an icon that
    costs no request) so that what the measurements find is storycore's, not the host page's.
    """
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>A publisher's page with a story</title>
<meta name="description" content="A plain page of another site that embeds a story.">
<link rel="icon" href="data:,">
<style>body{{margin:0 auto;max-width:720px;padding:0 16px;font:18px/1.5 sans-serif}}</style>
</head>
<body>
<main>
<h1>A publisher's page</h1>
<p>The story below is embedded with one script tag.</p>
<script src="{story_base}{STORY}.js"></script>
</main>
</body>
</html>
"""
