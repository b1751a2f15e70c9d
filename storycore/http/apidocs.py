"""The API reference (docs/api.md#the-web-host): ``GET {web_url}/docs/api`` shows the OpenAPI
document (``GET /v1/openapi.json``) in Swagger UI, whose files storycore serves itself.

The viewer's files come from the ``swagger-ui-py`` distribution (its folder ``swagger_ui/static``,
Swagger UI 5 under the Apache License 2.0), read without importing that package (its code is for
other frameworks); the initializer and a stylesheet correcting the viewer's colours to a contrast
of 4.5:1 are storycore's (``storycore/static/apidocs``). The page and its
files are addressed under the prefix the app is mounted under (``root_path``), never under another
host, so the page works behind a prefix and without ``Settings.web_url``. Only the names listed
here are answered, looked up, never joined to a folder: any other path under ``/docs/`` is the web
host's HTML 404 (``pages.no_page``). The files change only with the installed versions, so they
carry the caching of ``static`` and an entity tag computed once. Where ``swagger-ui-py`` is not
installed (the ``apidocs`` extra), the page is a 404 that names the extra and links to the
document. The page is sent with every page's headers (``page_headers``) and runs under their
security policy as it is: its scripts and stylesheets are files of the web host, and Swagger UI
needs no inline script, no ``eval`` and no inline stylesheet.
"""

from __future__ import annotations

import importlib.util
from functools import cache
from html import escape
from importlib import resources
from pathlib import Path
from urllib.parse import quote

from ..errors import MissingDependencyError
from ..rules.paths import API_REFERENCE
from ..service import Service
from .conditional import content_tag
from .messages import HttpRequest, HttpResponse
from .page_headers import service_page_headers
from .pages import not_found_page
from .static import CACHE_CONTROL, STATIC

__all__ = ["PAGE", "reference_file", "reference_page"]

#: Where the page is, under the web host.
PAGE = API_REFERENCE

_CSS = "text/css; charset=utf-8"
_JS = "application/javascript; charset=utf-8"
#: The viewer's files served from the ``swagger_ui`` package's ``static`` folder, by type.
_VIEWER = {
    "swagger-ui.css": _CSS,
    "index.css": _CSS,
    "swagger-ui-bundle.js": _JS,
    "favicon-32x32.png": "image/png",
    "favicon-16x16.png": "image/png",
}
#: storycore's own files for the page (``storycore/static/apidocs``).
_OWN = {"initializer.js": _JS, "apidocs.css": _CSS}


def _viewer_folder() -> Path | None:
    """The folder of Swagger UI's files, found without running the package's code."""
    spec = importlib.util.find_spec("swagger_ui")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))) / "static"


@cache
def _file(name: str) -> tuple[bytes, str] | None:
    """The content of the file ``name`` and its entity tag; None when there is none."""
    if name in _OWN:
        content = resources.files("storycore").joinpath(STATIC, "apidocs", name).read_bytes()
    elif name in _VIEWER and (folder := _viewer_folder()) is not None:
        try:
            content = (folder / name).read_bytes()
        except OSError:
            return None
    else:
        return None
    return content, content_tag(content)


def _page(*, root_path: str, web_url: str, site_name: str) -> str:
    """The reference's HTML page for an app mounted under ``root_path`` whose web host is
    ``web_url`` (the canonical address) and whose site is ``site_name``. Its files and the
    document are paths under ``root_path``; every value is escaped for HTML."""
    root = escape(quote(root_path.rstrip("/"), safe="/"))
    files = f"{root}{PAGE}"
    title = escape(f"API reference · {site_name}")
    about = escape(
        f"The HTTP API of {site_name}: every operation, its parameters and its answers, "
        "from the OpenAPI document."
    )
    canonical = escape(f"{web_url.rstrip('/')}{PAGE}")
    return (
        "<!doctype html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{title}</title>\n"
        f'<meta name="description" content="{about}">\n'
        f'<link rel="canonical" href="{canonical}">\n'
        f'<meta property="og:title" content="{title}">\n'
        f'<meta property="og:description" content="{about}">\n'
        f'<meta property="og:url" content="{canonical}">\n'
        '<meta property="og:type" content="website">\n'
        f'<meta property="og:site_name" content="{escape(site_name)}">\n'
        '<meta name="twitter:card" content="summary">\n'
        f'<link rel="stylesheet" href="{files}/swagger-ui.css">\n'
        f'<link rel="stylesheet" href="{files}/index.css">\n'
        f'<link rel="stylesheet" href="{files}/apidocs.css">\n'
        f'<link rel="icon" type="image/png" href="{files}/favicon-32x32.png" sizes="32x32">\n'
        f'<link rel="icon" type="image/png" href="{files}/favicon-16x16.png" sizes="16x16">\n'
        f'<script src="{files}/swagger-ui-bundle.js" defer></script>\n'
        f'<script src="{files}/initializer.js" defer></script>\n'
        "</head>\n<body>\n"
        f"<noscript><p>The API reference needs JavaScript; the OpenAPI document itself is at "
        f'<a href="{root}/v1/openapi.json">/v1/openapi.json</a>.</p></noscript>\n'
        f'<div id="swagger-ui" data-url="{root}/v1/openapi.json"></div>\n'
        "</body>\n</html>\n"
    )


def _without_viewer(service: Service, root_path: str) -> HttpResponse:
    """The 404 where the viewer is not installed (the ``apidocs`` extra): a page that says
    which extra serves the reference, and links to the document itself."""
    root = escape(quote(root_path.rstrip("/"), safe="/"))
    missing = escape(str(MissingDependencyError("swagger-ui-py", "apidocs")))
    page = (
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(f'API reference · {service.site_name}')}</title>\n"
        '<meta name="robots" content="noindex">\n</head>\n<body>\n<main>\n'
        "<h1>The API reference is not installed here</h1>\n"
        f"<p>Its viewer comes with the apidocs extra ({missing}). The OpenAPI document "
        f'itself is at <a href="{root}/v1/openapi.json">/v1/openapi.json</a>.</p>\n'
        "</main>\n</body>\n</html>\n"
    )
    return HttpResponse(404, service_page_headers(service), page.encode())


def reference_page(
    service: Service, request: HttpRequest, arguments: dict[str, str]
) -> HttpResponse:
    """The reference's page, its files addressed under the request's ``root_path``."""
    if _viewer_folder() is None:
        return _without_viewer(service, request.root_path)
    page = _page(root_path=request.root_path, web_url=service.web_url, site_name=service.site_name)
    return HttpResponse(200, service_page_headers(service), page.encode())


def reference_file(
    service: Service, request: HttpRequest, arguments: dict[str, str]
) -> HttpResponse:
    """One of the page's files, or the HTML 404 when ``arguments["name"]`` names none."""
    name = arguments["name"]
    found = _file(name) if name in _VIEWER or name in _OWN else None
    if found is None:
        return not_found_page(service, "file")
    content, etag = found
    headers = [
        ("Content-Type", {**_VIEWER, **_OWN}[name]),
        ("X-Content-Type-Options", "nosniff"),
        ("Cache-Control", CACHE_CONTROL),
        ("ETag", etag),
    ]
    return HttpResponse(200, headers, content)
