"""storycore's WSGI app mounted under /stories-api in a Flask application.

Run: flask --app examples.flask_mount run  (then GET /stories-api/v1/stories)
"""

from flask import Flask
from werkzeug.middleware.dispatcher import DispatcherMiddleware

from storycore import Service
from storycore.adapters import open_store
from storycore.contrib.wsgi import StorycoreWSGI

service = Service(open_store("sqlite:///stories.db"))

app = Flask(__name__)


@app.get("/")
def home() -> str:
    return "the host application"


app.wsgi_app = DispatcherMiddleware(  # type: ignore[method-assign]
    app.wsgi_app, {"/stories-api": StorycoreWSGI(service)}
)
