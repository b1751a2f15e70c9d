"""The editor's pages (docs/editor.md), rendered on the server from the templates of
``storycore.presentation.pages`` (``templates/editor/``) inside the same document as every
page: records and shapes in, HTML text out. The HTTP layer (``storycore.http.editor``) reads the
service and answers with them."""

from .desk import DeskItem, desk_page
from .editing import editor_page
from .frame import Desk
from .history import compare_page, history_page, restore_page
from .profile import PROFILE_LABELS, profile_page
from .publishing import Publishing, delete_page, publishing_of, publishing_refused_page
from .signin import refused_page, signin_page

__all__ = [
    "PROFILE_LABELS",
    "Desk",
    "DeskItem",
    "Publishing",
    "compare_page",
    "delete_page",
    "desk_page",
    "editor_page",
    "history_page",
    "profile_page",
    "publishing_of",
    "publishing_refused_page",
    "refused_page",
    "restore_page",
    "signin_page",
]
