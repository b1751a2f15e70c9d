"""The frame of an editor page for a call: who is signed in, their forms' token, and what the
last action did (``?done=``)."""

from __future__ import annotations

from ...presentation.editor import Desk
from ...presentation.scripts import script_name
from ...rules.paths import PAGE_SCRIPT, filled
from ...rules.zones import DEFAULT_ZONE, known_zone
from .call import EditorCall

__all__ = ["desk_of", "script_address"]


def desk_of(call: EditorCall, here: str = "", scripts: tuple[str, ...] = ()) -> Desk:
    """The frame of the page ``call`` answers (``here`` names it in the writer's links); the
    zone a schedule was just set in (``?zone=``) is the zone its time is shown in."""
    user = call.viewer.user
    query = call.request.query()
    desk = Desk(
        call.site,
        call.form_token,
        username=user.username if user is not None else "",
        hosted=call.hosted,
        here=here,
        scripts=scripts,
        zone=known_zone(query.get("zone")) or DEFAULT_ZONE,
    )
    return desk.noticed(query.get("done"))


def script_address(call: EditorCall, stem: str) -> str:
    """The address of the page script ``stem`` (``presentation.scripts``), named for its
    content, on the web host."""
    return call.url(filled(PAGE_SCRIPT, name=script_name(stem)))
