"""What every editor page shows around its work (``templates/editor/frame.html``): the writer's
links, the sign-out form, and the notice of what the last action did."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ...rules.paths import DESK, PROFILE, SIGN_OUT
from ..pages.document import render_document
from ..pages.site import Site

__all__ = ["DONE", "Desk", "render_editor_page"]

#: What a page says after an action redirected to it (``?done=...``): the words are the
#: editor's own, never a value from the address.
DONE = {
    "signed-out": "You are signed out.",
    "created": "Your new story is ready to write.",
    "saved": "Saved.",
    "added": "Added and saved.",
    "published": "Published. Everyone can read it now.",
    "scheduled": "Scheduled.",
    "unscheduled": "The schedule is cancelled. The story stays unpublished.",
    "unpublished": "Unpublished. Only you and editors can read it now.",
    "slug": "The address is changed. The old one leads to the new one.",
    "deleted": "The story is deleted.",
    "restored": "The revision is restored.",
    "profile": "Your profile is saved.",
    "password": "Your password is changed.",
}


@dataclass(frozen=True, slots=True)
class Desk:
    """The writer an editor page is for, and what its frame needs: ``form_token`` for every
    form, ``hosted`` when the host application signs writers in (no sign-out), ``done`` the
    notice of the last action, ``scripts`` the addresses of the page's scripts."""

    site: Site
    form_token: str
    username: str = ""
    hosted: bool = False
    done: str = ""
    here: str = ""
    scripts: tuple[str, ...] = field(default=())

    @property
    def signed_in(self) -> bool:
        """Whether a writer is signed in."""
        return bool(self.username)

    @property
    def desk_url(self) -> str:
        """The writer's desk."""
        return self.site.web_url + DESK

    @property
    def profile_url(self) -> str:
        """The writer's profile page."""
        return self.site.web_url + PROFILE

    @property
    def sign_out_url(self) -> str:
        """Where the sign-out form posts."""
        return self.site.web_url + SIGN_OUT

    def noticed(self, done: str | None) -> Desk:
        """This frame saying what ``done`` (a word of ``DONE``) did; another word says nothing."""
        return replace(self, done=DONE.get(done or "", ""))


def render_editor_page(template: str, desk: Desk, title: str, **context: Any) -> str:
    """An editor page: ``template`` in the frame, never indexed."""
    head = {
        "title": title,
        "description": f"{title} on {desk.site.name}",
        "canonical": "",
        "noindex": True,
    }
    return render_document(template, desk.site, head=head, desk=desk, **context)
