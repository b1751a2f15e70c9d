"""storycore's WSGI app mounted under /stories in a Flask application.

Run: flask --app examples.flask_mount run  (then GET /stories/v1/stories)
"""

from flask import Flask
from werkzeug.middleware.dispatcher import DispatcherMiddleware

from storycore import Service
from storycore.adapters import open_store
from storycore.contrib.wsgi import StorycoreWSGI

# Permalinks, shortlinks, embed scripts and oEmbed take their address from each request
# (scheme, Host, the /stories prefix). When the public address is fixed (a proxy that rewrites
# Host, say), name it: Service(store, Settings(web_url="https://news.example/stories")).
service = Service(open_store("sqlite:///stories.db"))

app = Flask(__name__)


@app.get("/")
def home() -> str:
    return "host page"


app.wsgi_app = DispatcherMiddleware(  # type: ignore[method-assign]
    app.wsgi_app, {"/stories": StorycoreWSGI(service)}
)
