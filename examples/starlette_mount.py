"""storycore's ASGI app mounted under /stories-api in a Starlette application.

Run: uvicorn examples.starlette_mount:app  (then GET /stories-api/v1/stories)
"""

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Mount, Route

from storycore import Service
from storycore.adapters import open_store
from storycore.contrib.asgi import StorycoreASGI

service = Service(open_store("sqlite:///stories.db"))


async def home(request: Request) -> PlainTextResponse:
    return PlainTextResponse("the host application")


app = Starlette(
    routes=[
        Route("/", home),
        Mount("/stories-api", app=StorycoreASGI(service)),
    ]
)
