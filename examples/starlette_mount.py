"""storycore's ASGI app mounted under /stories in a Starlette application.

Run: uvicorn examples.starlette_mount:app  (then GET /stories/v1/stories)
"""

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Mount, Route

from storycore import Service
from storycore.adapters import open_store
from storycore.contrib.asgi import StorycoreASGI

# Permalinks, shortlinks, embed scripts and oEmbed take their address from each request
# (scheme, Host, the /stories prefix). When the public address is fixed (a proxy that rewrites
# Host, say), name it: Service(store, Settings(web_url="https://news.example/stories")).
service = Service(open_store("sqlite:///stories.db"))


async def home(request: Request) -> PlainTextResponse:
    return PlainTextResponse("host page")


app = Starlette(
    routes=[
        Route("/", home),
        Mount("/stories", app=StorycoreASGI(service)),
    ]
)
