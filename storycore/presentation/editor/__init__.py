"""The editor's pages (docs/editor.md), rendered on the server from the templates of
``storycore.presentation.pages`` (``templates/editor/``) inside the same document as every
page: records and shapes in, HTML text out. The HTTP layer (``storycore.http.editor``) reads the
service and answers with them."""

from .desk import DeskItem, desk_page
from .editing import editor_page
from .frame import Desk
from .signin import refused_page, signin_page

__all__ = ["Desk", "DeskItem", "desk_page", "editor_page", "refused_page", "signin_page"]
