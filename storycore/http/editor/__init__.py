"""The editor (docs/editor.md): the web host's pages for writing stories, a client of the same
``Service`` use cases as the API. Each page is a handler here, a template of
``storycore.presentation`` and a row of the route table (``storycore.http.table``); ``call``
resolves who is asking and checks every form's token before a handler runs.
"""

from .call import EditorCall, EditorUser, answer

__all__ = ["EditorCall", "EditorUser", "answer"]
