"""The HTTP mapping of API v1, framework-free: ``HttpApp.handle(HttpRequest) -> HttpResponse``.

Bindings (``storycore.contrib.asgi``, ``storycore.contrib.wsgi``) convert their server's
messages to these values and back, and hold no rule of their own.
"""

from .app import HttpApp
from .messages import HttpRequest, HttpResponse, raw_path_of

__all__ = ["HttpApp", "HttpRequest", "HttpResponse", "raw_path_of"]
