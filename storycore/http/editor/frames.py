"""The frame of an editor page for a call: who is signed in, their forms' token, and what the
last action did (``?done=``)."""

from __future__ import annotations

from ...presentation.editor import Desk
from .call import EditorCall

__all__ = ["desk_of"]


def desk_of(call: EditorCall, here: str = "", scripts: tuple[str, ...] = ()) -> Desk:
    """The frame of the page ``call`` answers (``here`` names it in the writer's links)."""
    user = call.viewer.user
    desk = Desk(
        call.site,
        call.form_token,
        username=user.username if user is not None else "",
        hosted=call.hosted,
        here=here,
        scripts=scripts,
    )
    return desk.noticed(call.request.query().get("done"))
