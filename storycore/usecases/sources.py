"""Sources (docs/editor.md#the-editor): what the store already keeps that a writer may add to
a story again, the quotes, links, pictures and videos of the stories they may read, found by
words that occur in the element (its text, its title, its caption, the quoted author's name or
username, the network or the host it is from).

It reads through what is there already, capped so that a search stays small: the public
stories the search finds for the words (``SearchIndex``), the latest public stories (a quoted
author's name is in no story's search words) and the writer's own latest-changed stories, each
at most ``SOURCE_STORIES``; it answers at most ``SOURCE_RESULTS`` elements, newest story
first, each once.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import urlsplit

from ..errors import InvalidParameter
from ..model.derived import element_words
from ..model.records import Element, StoryRecord, UserRecord, element_of
from ..model.shapes import SearchItem, StorySummary
from ..model.visibility import Viewer, can_see
from ..rules.searchtext import query_tokens, tokens
from .catalog import Catalog
from .context import Context

__all__ = ["SOURCE_KINDS", "SOURCE_RESULTS", "SOURCE_STORIES", "Source", "Sources"]

#: The most stories of each kind a search of sources reads.
SOURCE_STORIES = 20
#: The most elements a search of sources answers.
SOURCE_RESULTS = 20
#: The kinds of element that are sources.
SOURCE_KINDS = frozenset({"quote", "link", "image", "video"})


@dataclass(frozen=True, slots=True)
class Source:
    """An element found, with the story it is in (its author, slug, title, and whether it
    is public: else only its author and editors read it): ``key`` names it among the results
    (the story's id and the element's)."""

    element: Element
    story_id: str
    story_title: str
    username: str
    slug: str
    public: bool

    @property
    def key(self) -> str:
        """The story's id and the element's, joined by a dot."""
        return f"{self.story_id}.{self.element.id}"


class Sources:
    """Searching the elements of the stories a writer may read."""

    def __init__(self, context: Context, catalog: Catalog[StorySummary, SearchItem]) -> None:
        self._ctx = context
        self._catalog = catalog

    def find(self, q: str, *, viewer: Viewer, network: str = "") -> list[Source]:
        """The elements holding every word of ``q`` (1 to the query limit of characters),
        from ``network`` (a network's name or a host; empty: any), in the stories ``viewer``
        may read. Anonymous callers are ``Unauthorized``; a blank or long ``q`` is
        ``InvalidParameter`` (field ``q``)."""
        user = self._ctx.require_user(viewer)
        limit = self._ctx.settings.limits.query
        if not q.strip():
            raise InvalidParameter("q is required and must not be blank", field="q")
        if len(q) > limit:
            raise InvalidParameter(f"q is longer than the limit of {limit} characters", field="q")
        words = set(query_tokens(q))
        wanted_network = network.strip().lower()
        found: list[Source] = []
        for story in self._stories(user, words, viewer):
            for element in self._elements(story):
                if _matches(element, words, wanted_network):
                    found.append(self._source(story, element))
                    if len(found) >= SOURCE_RESULTS:
                        return found
        return found

    def _stories(self, user: UserRecord, words: set[str], viewer: Viewer) -> list[StoryRecord]:
        """The stories read, each once, newest first."""
        store = self._ctx.store
        records = store.search.search(sorted(words), 0, SOURCE_STORIES) if words else []
        latest = self._catalog.latest(per_page=SOURCE_STORIES).items
        own = self._catalog.user(
            user.username, viewer=viewer, sort="date.modified", per_page=SOURCE_STORIES
        ).items
        by_id = {record.id: record for record in records}
        for summary in [*latest, *own]:
            if summary.id not in by_id and (record := store.stories.get(summary.id)):
                by_id[record.id] = record
        readable = [story for story in by_id.values() if can_see(viewer, story)]
        return sorted(readable, key=lambda story: story.updated, reverse=True)

    def _elements(self, story: StoryRecord) -> Iterator[Element]:
        limit = self._ctx.settings.limits.elements
        for document in self._ctx.store.stories.element_documents(story.id, 0, limit):
            element = element_of(document)
            if element.type in SOURCE_KINDS:
                yield element

    def _source(self, story: StoryRecord, element: Element) -> Source:
        author = self._ctx.store.users.get(story.author_id)
        username = author.username if author is not None else ""
        return Source(element, story.id, story.title, username, story.slug, story.is_public)


def _matches(element: Element, words: set[str], network: str) -> bool:
    """Whether ``element`` holds every one of ``words`` and is from ``network`` (or any)."""
    places = _places(element)
    if network and network not in (place.lower() for place in places[:2]):
        return False
    return words <= set(tokens(*element_words(element), *places))


def _places(element: Element) -> list[str]:
    """Where an element is from and who it quotes: its network's name, its host, the
    quoted author's name and username."""
    source, who = element.source, element.attribution
    host = (urlsplit(element.permalink or "").hostname or "").removeprefix("www.")
    return [
        source.name if source is not None else "",
        host,
        who.name if who is not None else "",
        who.username if who is not None else "",
    ]
