"""The public addresses of stories and authors (docs/api.md#stories, docs/api.md#the-web-host,
docs/api.md#limits), made and read here only.

Under ``web_url`` (the public web host): a story's permalink is ``{web_url}/{username}/{slug}``,
its shortlink ``{web_url}/s/{id}``, its embed script ``{permalink}.js``, and an author's
permalink ``{web_url}/{username}``; a kept picture's file is ``{web_url}/media/{name}``
(docs/media.md#how-a-kept-picture-is-served). Reading an address back (the ``permalink``
filter, oEmbed) ignores its query and fragment, a trailing slash, and the case of its scheme
and host.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from .paths import MEDIA_FILE

__all__ = ["Permalinks"]


@dataclass(frozen=True, slots=True)
class Permalinks:
    """The addresses under one ``web_url`` (kept without a trailing slash)."""

    web_url: str

    @classmethod
    def of(cls, web_url: str) -> Permalinks:
        """The addresses under ``web_url``, however it ends."""
        return cls(web_url.rstrip("/"))

    def story(self, username: str, slug: str) -> str:
        """The public address of a story."""
        return f"{self.web_url}/{username}/{slug}"

    def script(self, username: str, slug: str) -> str:
        """The address of a story's embed script."""
        return f"{self.web_url}/{username}/{slug}.js"

    def shortlink(self, story_id: str) -> str:
        """The short address of a story, which redirects to its permalink."""
        return f"{self.web_url}/s/{story_id}"

    def author(self, username: str) -> str:
        """The public address of an author."""
        return f"{self.web_url}/{username}"

    def media(self, name: str) -> str:
        """The address of the kept file ``name`` (``<sha256>.<extension>``)."""
        return self.web_url + MEDIA_FILE.format(name=name)  # a name is safe in a path

    def parse_story(self, address: str) -> tuple[str, str] | None:
        """The ``(username, slug)`` a story permalink under ``web_url`` names, as written in
        it, or None when ``address`` is not one. Its query and fragment are ignored.
        """
        base = urlsplit(self.web_url)
        parts = urlsplit(address)
        same_site = (parts.scheme.lower(), parts.netloc.lower()) == (
            base.scheme.lower(),
            base.netloc.lower(),
        )
        prefix = base.path.rstrip("/") + "/"
        if not same_site or not parts.path.startswith(prefix):
            return None
        names = parts.path[len(prefix) :].strip("/").split("/")
        if len(names) != 2 or not all(names):
            return None
        return names[0], names[1]
