"""storycore's ASGI app mounted under /stories in a FastAPI application.

Run: uvicorn examples.fastapi_mount:app  (then GET /stories/v1/stories)
"""

from fastapi import FastAPI
from fastapi.responses import PlainTextResponse

from storycore import Service
from storycore.adapters import open_store
from storycore.contrib.asgi import StorycoreASGI

# Permalinks, shortlinks, embed scripts and oEmbed take their address from each request
# (scheme, Host, the /stories prefix). When the public address is fixed (a proxy that rewrites
# Host, say), name it: Service(store, Settings(web_url="https://news.example/stories")).
service = Service(open_store("sqlite:///stories.db"))

app = FastAPI()


@app.get("/", response_class=PlainTextResponse)
def home() -> str:
    return "host page"


app.mount("/stories", StorycoreASGI(service))
