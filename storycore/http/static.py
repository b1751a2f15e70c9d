"""The files storycore serves itself on the web host: the demo's pictures, shipped in the
package (``storycore/static/demo``), at ``{web_url}/static/demo/{name}`` (docs/decisions.md),
and the pages' scripts (the video posters' player, the editor's) at
``{web_url}/static/{stem}.{hash}.js``, each named for its content, so that it may be kept for
good (``IMMUTABLE``): pages run no inline script (docs/api.md#the-web-host).

Only the names the package holds are answered: a path is looked up among them, never joined
to a folder, so no ``..`` or encoded separator reaches the file system; any other path under
``/static/`` is the web host's HTML 404. The files change only with storycore's version, so
their answers may be kept a week (``CACHE_CONTROL``), then revalidated by the ``ETag`` that
``conditional`` gives every answer.
"""

from __future__ import annotations

from ..presentation import own_pictures
from ..presentation.scripts import script_content
from ..rules.paths import UNDER_STATIC
from ..service import Service
from .messages import HttpRequest, HttpResponse
from .pages import not_found_page

__all__ = [
    "CACHE_CONTROL",
    "DEMO_FOLDER",
    "IMMUTABLE",
    "STATIC",
    "demo_file",
    "demo_file_answer",
    "demo_url",
    "no_file",
    "page_script_answer",
]

#: The first segment of every path answered here (``paths.UNDER_STATIC``; a reserved username),
#: and the package's folder of files.
STATIC = UNDER_STATIC.strip("/").split("/")[0]
#: The demo's folder, under the package and under the web host alike (``own_pictures``).
DEMO_FOLDER = own_pictures.FOLDER
#: Static files are the same for a whole release: caches may keep them a week.
CACHE_CONTROL = "public, max-age=604800"
#: A file whose address names its content never changes there: caches may keep it a year.
IMMUTABLE = "public, max-age=31536000, immutable"


def demo_file(name: str) -> bytes:
    """The content of the demo file ``name``; ``KeyError`` when the package holds none."""
    return own_pictures.content(name)


def demo_url(web_url: str, name: str) -> str:
    """The address of the demo file ``name`` on the web host at ``web_url``."""
    return f"{web_url.rstrip('/')}/{DEMO_FOLDER}/{name}"


def demo_file_answer(
    service: Service, request: HttpRequest, arguments: dict[str, str]
) -> HttpResponse:
    """The demo file ``arguments["name"]``, or the HTML 404 when the package holds none."""
    name = arguments["name"]
    if name not in own_pictures.names():
        return no_file(service, request, arguments)
    headers = [
        ("Content-Type", own_pictures.TYPES[name[name.rfind(".") :]]),
        ("X-Content-Type-Options", "nosniff"),
        ("Cross-Origin-Resource-Policy", "cross-origin"),
        ("Cache-Control", CACHE_CONTROL),
    ]
    return HttpResponse(200, headers, demo_file(name))  # its ETag: ``conditional.cached``


def page_script_answer(
    service: Service, request: HttpRequest, arguments: dict[str, str]
) -> HttpResponse:
    """A page's script under the name of its content (``presentation.scripts``); the HTML 404
    under any other, an older version's among them."""
    script = script_content(arguments["name"])
    if script is None:
        return no_file(service, request, arguments)
    headers = [
        ("Content-Type", "application/javascript; charset=utf-8"),
        ("X-Content-Type-Options", "nosniff"),
        ("Cache-Control", IMMUTABLE),
    ]
    return HttpResponse(200, headers, script.encode())  # its ETag: ``conditional``


def no_file(service: Service, request: HttpRequest, arguments: dict[str, str]) -> HttpResponse:
    """The HTML 404 of a path under ``/static`` that names no file."""
    return not_found_page(service, "file")
