"""Each measured operation twice: through storycore, and by the floor (``floors.py``).

storycore's side ends where its HTTP layer would: the answer as JSON bytes. Reads must give the
floor's exact bytes; ``check`` verifies that before anything is timed.

``page_operations`` are the pages people read, each against what the API already
answers for the same thing: both sides are whole requests through ``HttpApp.handle`` (routing,
the read, the rendering, ``ETag`` and ``Cache-Control``), the work a server does per request.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson

from benchmarks.data import DataSet
from benchmarks.floors import Floor
from storycore import Service
from storycore.http import HttpApp, HttpRequest
from storycore.http.call import dump, reading_content
from storycore.rules.searchtext import query_tokens

__all__ = ["Operation", "operations", "page_operations", "search_words"]


@dataclass
class Operation:
    """One operation: storycore's call and the floor's, each taking the iteration number."""

    name: str
    storycore: Callable[[int], Any]
    floor: Callable[[int], Any]
    same_answer: bool = True
    repeat: int = 0  # 0: the harness's default


def _answer(content: Any) -> bytes:
    return orjson.dumps({"content": dump(content), "code": 200})


def _read(service: Service, username: str, slug: str) -> bytes:
    """A story read the way the HTTP API reads it: element documents as stored."""
    reading = service.stories.open(username, slug, as_documents=True)
    return orjson.dumps({"content": reading_content(reading), "code": 200})


def _page(page: Any, key: str = "stories") -> bytes:
    return orjson.dumps(
        {
            "content": {"page": page.page, "per_page": page.per_page, key: dump(page.items)},
            "code": 200,
        }
    )


def search_words(data: DataSet) -> tuple[list[str], str]:
    """The words searches are made of: one-word searches take the vocabulary's first 3,000 in
    turn, and a two-word search adds the vocabulary's middle word to one of them (at 10,000
    stories each word is in about 450, the pair in about 20: a full first page)."""
    words = data.vocabulary()
    return words[:3000], words[len(words) // 2]


def operations(service: Service, floor: Floor, data: DataSet) -> list[Operation]:
    """The operations of the benchmark issue, over a loaded data set. Lists and search are
    ``Service.listings``', as the API answers them (docs/architecture.md#answers)."""
    public = [
        (s.author.username, s.slug) for p in (1, 2, 3) for s in service.catalog.latest(page=p).items
    ]
    words = data.vocabulary()
    tags = [t for t in words[:200] if service.catalog.stories(tag=t).items][:50]
    _, common = search_words(data)
    authors = data.author_names()
    editor = service.accounts.as_user("bench_editor")
    counter = itertools.count()
    stories = list(itertools.islice(data.story_inputs(), 64))

    def create(i: int) -> Any:
        author, story, _ = stories[i % len(stories)]
        return service.stories.create(
            author, {**story, "slug": f"bench-{next(counter)}"}, viewer=editor, publish=True
        )

    prepared = [_prepare(service, floor, story) for _, story, _ in stories]

    def floor_create(i: int) -> None:
        rows = prepared[i % len(prepared)]
        floor.insert_story(rows, f"f{next(counter):011d}", f"floor-{next(counter)}")

    targets = [(a, slug) for a, slug in public[:20]]
    versions = {
        target: service.stories.open(*target, count_view=False).version for target in targets
    }

    def save(i: int) -> Any:
        target = targets[i % len(targets)]
        done = service.stories.save(*target, {"description": f"edit {i}"}, viewer=editor)
        versions[target] += 1
        return done

    def floor_save(i: int) -> None:
        story = service.store.stories.get_by_slug(
            service.store.users.get_by_username(targets[i % len(targets)][0]).id,  # type: ignore[union-attr]
            targets[i % len(targets)][1],
        )
        assert story is not None
        changed = story.model_copy(update={"version": story.version + 1, "description": f"f{i}"})
        floor.update_story(story, changed)
        versions[targets[i % len(targets)]] += 1

    def publish(i: int) -> Any:
        return service.stories.publish(*targets[i % len(targets)], viewer=editor)

    return [
        Operation("read a story (page 1 of its elements)",
                  lambda i: _read(service, *public[i % len(public)]),
                  lambda i: floor.read_story(*public[i % len(public)])),
        Operation("latest, page 1", lambda i: _page(service.listings.latest()),
                  lambda i: floor.latest(1)),
        Operation("latest, page 200", lambda i: _page(service.listings.latest(page=200)),
                  lambda i: floor.latest(200)),
        Operation("list by tag", lambda i: _page(service.listings.stories(tag=tags[i % len(tags)])),
                  lambda i: floor.by_tag(tags[i % len(tags)])),
        Operation("a user's list",
                  lambda i: _page(service.listings.user(authors[i % len(authors)])),
                  lambda i: floor.user_list(authors[i % len(authors)])),
        Operation("search, one word", lambda i: _page(service.listings.search(words[i % 3000])),
                  lambda i: floor.search(query_tokens(words[i % 3000]))),
        Operation("search, one word, page 50",
                  lambda i: _page(service.listings.search(words[i % 3000], page=50)),
                  lambda i: floor.search(query_tokens(words[i % 3000]), 50)),
        Operation("search, two words",
                  lambda i: _page(service.listings.search(f"{words[i % 3000]} {common}")),
                  lambda i: floor.search(query_tokens(f"{words[i % 3000]} {common}"))),
        Operation(
            f"create a {data.elements}-element story", create, floor_create, same_answer=False
        ),
        Operation("save", save, floor_save, same_answer=False),
        Operation("publish", publish, floor_save, same_answer=False),
    ]  # fmt: skip


#: Each page against its API counterpart, and the least ratio asked of it.
PAGE_TARGETS = {"the story page": 0.7, "the front page": 0.7, "the embed script": 0.8}


def page_paths(story: tuple[str, str]) -> list[tuple[str, str, str]]:
    """The pages people read and their API counterparts, as (name, page path, API path), for
    the public story ``story`` (username, slug)."""
    username, slug = story
    read = f"/v1/stories/{username}/{slug}"
    return [
        ("the story page", f"/{username}/{slug}", read),
        ("the front page", "/", "/v1/stories/browse/latest"),
        ("the embed script", f"/{username}/{slug}.js", read),
    ]


def page_operations(service: Service) -> list[Operation]:
    """Each page of ``page_paths`` (``storycore``) against its API counterpart (``floor``),
    on the newest public stories in turn, as requests through one ``HttpApp``."""
    app = HttpApp(service)
    public = [(s.author.username, s.slug) for s in service.catalog.latest().items]

    def get(which: int, column: int) -> Callable[[int], Any]:
        """Requests of column ``column`` (1: the page, 2: the API) of ``page_paths``' row
        ``which``, on each public story in turn."""

        def call(i: int) -> bytes:
            path = page_paths(public[i % len(public)])[which][column]
            response = app.handle(HttpRequest("GET", path))
            if response.status != 200:
                raise SystemExit(f"{response.status} for {path}: {response.body[:200]!r}")
            return response.body

        return call

    return [
        Operation(name, get(n, 1), get(n, 2), same_answer=False)
        for n, (name, _, _) in enumerate(page_paths(public[0]))
    ]


def _prepare(service: Service, floor: Floor, story: dict[str, Any]) -> Any:
    """The rows a hand-written create would write for ``story`` (computed before timing)."""
    from storycore.model.drafts import parse_story
    from storycore.model.elements import normalize_elements
    from storycore.usecases.lifecycle import new_story_record

    author = service.store.users.get_by_username("author0000")
    assert author is not None
    draft = parse_story(story, service.settings.limits)
    elements = normalize_elements(draft.elements or [], path="story.elements",
                                  limits=service.settings.limits, resolver=service.resolver,
                                  previous=[], now="2026-01-01T00:00:00.000Z")  # fmt: skip
    record = new_story_record(
        author.id, draft, elements, publish=True, at="2026-01-01T00:00:00.000Z"
    )
    return floor.prepare_story(record, elements, author)
