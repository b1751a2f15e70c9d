"""storycore's ASGI app mounted under /stories in a Django project's ASGI entry.

A project's ``asgi.py`` may wrap Django's application; this one hands ``/stories`` and below to
storycore and every other path to Django. The settings are configured here to keep the example
in one file; a project keeps them in its settings module.

Run: uvicorn examples.django_mount:application  (then GET /stories/v1/stories)
"""

from typing import Any

from django.conf import settings
from django.core.asgi import get_asgi_application
from django.http import HttpRequest, HttpResponse
from django.urls import path

from storycore import Service
from storycore.adapters import open_store
from storycore.contrib.asgi import StorycoreASGI

settings.configure(
    ROOT_URLCONF=__name__,
    ALLOWED_HOSTS=["localhost", "127.0.0.1", "news.example"],
)


def home(request: HttpRequest) -> HttpResponse:
    return HttpResponse("host page", content_type="text/plain")


urlpatterns = [path("", home)]

# Permalinks, shortlinks, embed scripts and oEmbed take their address from each request
# (scheme, Host, the /stories prefix). When the public address is fixed (a proxy that rewrites
# Host, say), name it: Service(store, Settings(web_url="https://news.example/stories")).
service = Service(open_store("sqlite:///stories.db"))
stories = StorycoreASGI(service)
django_application = get_asgi_application()


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """``/stories`` and below to storycore, mounted there as ASGI mounts do (``root_path``);
    the lifespan too (Django's handler takes HTTP only; storycore's writes the views counted
    at shutdown); everything else to Django."""
    target = scope.get("path", "")
    if scope["type"] == "lifespan":
        await stories(scope, receive, send)
    elif target == "/stories" or target.startswith("/stories/"):
        mounted = {**scope, "root_path": scope.get("root_path", "") + "/stories"}
        await stories(mounted, receive, send)
    else:
        await django_application(scope, receive, send)
