"""The members of a story that follow from the others (docs/api.md#stories).

They are computed on every write, so reads and lists never recompute them: the cover image,
``meta.hashtags``, ``meta.quoted``, ``stats.elements``, the search tokens and sort keys; and a
user's search tokens, which every write of a user takes from here (``with_search_tokens`` for
a new user, ``user_changes`` for an update).

Stored derived data is versioned: a store remembers the ``DERIVATION_VERSION`` that wrote it
(``Store.derivation``), and opening it with a newer one recomputes it
(``storycore.usecases.reindex``).
Bump ``DERIVATION_VERSION`` with every change here, or in what this module calls (hashtags,
search text, sanitizing), after which a stored record would derive other values (a new derived
member included): every store is then recomputed once, at its next open. No migration does it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ..rules.hashtags import extract_hashtags, normalize_tag
from ..rules.sanitize import plain_text
from ..rules.searchtext import fold, tokens
from .records import ELEMENT_TYPES, Element, Quoted, StoryRecord, UserRecord

__all__ = [
    "DERIVATION_VERSION",
    "element_words",
    "story_words",
    "user_changes",
    "user_search_tokens",
    "with_derived_members",
    "with_search_tokens",
]

#: The version of the rules below; stores written by an older one are recomputed when opened.
DERIVATION_VERSION = 1


def element_words(element: Element) -> list[str]:
    """The searchable text of one element (decisions: search): text-element HTML as text, quote
    text, link titles and descriptions, image captions, video titles."""
    if element.type == "text":
        return [plain_text(element.data["text"])]
    if element.type == "quote":
        return [element.data["quote"]["text"]]
    if element.type == "link":
        link = element.data["link"]
        return [link["title"], link["description"]]
    if element.type == "image":
        return [element.data["image"]["caption"]]
    if element.type == "video":
        return [element.data["video"]["title"]]
    return []


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
            return element.data["image"]["src"]
    return ""


def with_derived_members(story: StoryRecord, elements: Sequence[Element]) -> StoryRecord:
    """``story`` with every derived member recomputed from its members and ``elements``."""
    counts = Counter(element.type for element in elements)
    return story.model_copy(
        update={
            "cover": _cover(elements),
            "tags": _tags(story, elements),
            "topic_keys": list(dict.fromkeys(normalize_tag(t) for t in story.topics)),
            "quoted": _quoted(elements),
            "element_counts": {kind: counts.get(kind, 0) for kind in ELEMENT_TYPES},
            "element_permalinks": list(dict.fromkeys(e.permalink for e in elements if e.permalink)),
            "title_key": fold(story.title),
        }
    )


def story_words(story: StoryRecord, elements: Sequence[Element]) -> list[str]:
    """The search words of a story (its tokens): title, description, elements' text, tags and
    topics. ``story`` has its derived members already (``with_derived_members``).
    """
    words = [w for element in elements for w in element_words(element)]
    return tokens(
        story.title,
        story.description or "",
        *words,
        " ".join(story.tags),
        " ".join(story.topics),
    )


def _tags(story: StoryRecord, elements: Sequence[Element]) -> list[str]:
    texts = [plain_text(e.data.get("text", "")) for e in elements if e.type == "text"]
    return extract_hashtags(story.hashtags, story.title, story.description or "", *texts)


#: The members of a user its search tokens follow.
_TOKEN_SOURCES = frozenset({"username", "name"})


def user_search_tokens(user: UserRecord) -> list[str]:
    """The tokens a search matches against a user and every story of theirs: username and name."""
    return tokens(user.username, user.name)


def with_search_tokens(user: UserRecord) -> UserRecord:
    """A new user's record with the search tokens of its username and name: how every way of
    making a user (``create_user``, delegated creation, both imports) stores one."""
    return user.model_copy(update={"search_tokens": user_search_tokens(user)})


def user_changes(user: UserRecord, changes: Mapping[str, Any]) -> dict[str, Any]:
    """What an update of the stored ``user`` by ``changes`` writes (``UserRepository.update``):
    ``changes``, with the search tokens of the changed user when they change what the tokens
    follow (username, name), so that search finds the user's stories by the new name at once.
    Other changes leave the tokens, and the search entries of the user's stories, unwritten.
    """
    if _TOKEN_SOURCES.isdisjoint(changes):
        return dict(changes)
    return {**changes, "search_tokens": user_search_tokens(user.model_copy(update=changes))}
