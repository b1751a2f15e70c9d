"""The members of a story that follow from the others (decisions section 6).

They are computed on every write, so reads and lists never recompute them: the cover image,
``meta.hashtags``, ``meta.quoted``, ``stats.elements``, the search tokens and sort keys; and a
user's search tokens.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from .hashtags import extract_hashtags, normalize_tag
from .records import ELEMENT_TYPES, Element, Quoted, StoryRecord, UserRecord
from .sanitize import plain_text
from .searchtext import fold, tokens

__all__ = ["element_words", "user_search_tokens", "with_derived_members"]


def element_words(element: Element) -> list[str]:
    """The searchable text of one element: text, quote, captions, titles, descriptions."""
    data = element.data
    if element.type == "text":
        return [plain_text(data.get("text", ""))]
    inner = data.get(element.type, {})
    return [str(inner.get(key, "")) for key in ("text", "title", "description", "caption")]


def _quoted(elements: Sequence[Element]) -> list[Quoted]:
    seen: dict[tuple[str, str], Quoted] = {}
    for element in elements:
        if element.type != "quote" or element.attribution is None:
            continue
        source = element.source.name if element.source else ""
        who = element.attribution
        key = (source, who.username or who.name)
        if key not in seen:
            seen[key] = Quoted(
                username=who.username,
                name=who.name,
                userid=element.source.userid if element.source else "",
                avatar=who.thumbnail,
                source=source,
            )
    return list(seen.values())


def _cover(elements: Sequence[Element]) -> str:
    for element in elements:
        if element.type == "image":
            return str(element.data["image"]["src"])
    return ""


def with_derived_members(story: StoryRecord, elements: Sequence[Element]) -> StoryRecord:
    """``story`` with every derived member recomputed from its members and ``elements``."""
    texts = [plain_text(e.data.get("text", "")) for e in elements if e.type == "text"]
    tags = extract_hashtags(story.hashtags, story.title, story.description or "", *texts)
    counts = Counter(element.type for element in elements)
    words = [w for element in elements for w in element_words(element)]
    return story.model_copy(
        update={
            "cover": _cover(elements),
            "tags": tags,
            "topic_keys": list(dict.fromkeys(normalize_tag(t) for t in story.topics)),
            "quoted": _quoted(elements),
            "element_counts": {kind: counts.get(kind, 0) for kind in ELEMENT_TYPES},
            "element_permalinks": list(dict.fromkeys(e.permalink for e in elements if e.permalink)),
            "search_tokens": tokens(
                story.title, story.description or "", *words, " ".join(tags), " ".join(story.topics)
            ),
            "title_key": fold(story.title),
        }
    )


def user_search_tokens(user: UserRecord) -> list[str]:
    """The tokens a search matches against a user and every story of theirs: username and name."""
    return tokens(user.username, user.name)
