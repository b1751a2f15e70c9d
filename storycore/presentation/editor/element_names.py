"""How the editor names an element in its buttons and messages (docs/editor.md#the-editor):
by its kind and what identifies it, so that "Move quote by Marrakesh News up" says which of
many buttons acts on which element. A quote is named by its author, an image by its caption, a
link and a video by their title (else their host), a text by its first words; each within 60
characters, so that a long word names no button at length."""

from __future__ import annotations

from ...rules.sanitize import plain_text
from ..pages.elements import ElementView

__all__ = ["element_name"]

#: The words of a text element its name quotes.
NAMED_WORDS = 6


def element_name(view: ElementView) -> str:
    """The name of the element ``view`` shows: ``quote by Marrakesh News``."""
    where = view.host or "an unknown address"
    if view.type == "quote":
        who = view.author_name or (f"@{view.author_username}" if view.author_username else "")
        return f"quote by {who}" if who else f"quote from {view.network or where}"
    if view.type == "image":
        return f"image “{_short(view.caption)}”" if view.caption else f"image from {where}"
    if view.type == "link":
        return f"link “{_short(view.title)}”" if view.title else f"link to {where}"
    if view.type == "video":
        return f"video “{_short(view.title)}”" if view.title else f"video on {where}"
    if view.type == "text":
        words = plain_text(str(view.html)).split()
        if not words:
            return "empty text"
        named = " ".join(words[:NAMED_WORDS])
        short = _short(named)
        more = "…" if len(words) > NAMED_WORDS and short == named else ""
        return f"text “{short}{more}”"
    return f"element from {where}"


def _short(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
