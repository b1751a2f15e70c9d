"""Reading Storify stories: the story JSON of Storify's v1 API
(docs/decisions.md#export-and-import).

A document holds a story object as the v1 API returned it, the ``{"content": story, "code":
200}`` envelope it came in, or an array of either. Each story becomes a story of storycore under
its author, checked and derived as a write through the Python API would make it
(``parse_story``, ``normalize_elements``: docs/api.md#calls-and-answers applies, so an element
without ``type``, a
protocol-relative address or a heading is read as a v1 client's), and ``Imports.load_checked``
admits and writes them all or nothing.

What is kept (docs/storify.md): ``sid`` as the story's id, so that importing a story again is
refused unless replacing, as an export's ids are; ``title``, ``slug``, ``description``,
``thumbnail``, ``private``, ``topics``; ``status``; ``date.created``, ``date.published`` and
``date.modified`` (as ``updated``); ``version``, ``modified`` (of a published story: a
working story is never modified, ``story_records``) and ``not_indexed``; ``meta.created_with``;
the elements with their ids, ``posted_at`` and ``added_at``. What a write derives is derived
again. Counters, comments, likes, embeds, features and Storify's own addresses are dropped.

An answer of the v1 API holds one page of its story's elements (``page``, ``per_page``): the
answers of one story (one ``sid``) are joined in page order, so every page of a story imports
it whole. Two answers of the same page, or of different versions, are refused.

An author is the user with the author's username, made on first use without a password, like a
delegated user (``storycore.usecases.delegation``), with the profile members (name, bio, location,
website, avatar) the answer carries, through the profile rule of an update. A user who exists
already keeps their profile.

Every fault is an ``InvalidParameter`` that starts with where it was found (``FILE`` or ``FILE
item N``, then the dotted field: ``story.elements.3.data.image.src``); nothing is written.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal, cast, overload

import orjson

from ..errors import InvalidParameter
from ..input.fields import Members
from ..model.derived import with_search_tokens
from ..model.drafts import STORY_WRITE_MEMBERS, parse_story
from ..model.elements import normalize_elements
from ..model.members import USER_WRITE_MEMBERS
from ..model.records import CreatedWith, Element, Status, StoryRecord, UserRecord
from ..model.resolvers import ElementResolver
from ..model.story_records import story_record
from ..ports import UserRepository
from ..rules.ids import new_id
from ..rules.numbers import STORE_INT_MAX
from ..rules.usernames import username_key, validate_username
from ..settings import Limits
from ._import_records import IMPORTED_ID, ProfileCheck

__all__ = ["CheckedRecord", "StorifyReader"]

#: A record checked and derived as a write would make it: a user to add, or a story with its
#: elements.
CheckedRecord = UserRecord | tuple[StoryRecord, list[Element]]

_STORY: Final = "story"
_STATUSES: Final = ("published", "working")
#: Members a story write takes that an answer's story object is not read for: its elements
#: are read page by page (``_elements``), and its hashtags are ``meta.hashtags``, derived again.
_UNREAD: Final = frozenset({"elements", "hashtags"})
_SHORT_TEXT: Final = 100


@dataclass(frozen=True, slots=True)
class _Place:
    """Where an answer was read: a document's name and, in an array, the item's number."""

    name: str
    item: int | None = None

    def __str__(self) -> str:
        return self.name if self.item is None else f"{self.name} item {self.item}"


@dataclass
class _Answer:
    """One story answer: where it was read and its members."""

    place: _Place
    story: Mapping[str, Any]
    page: int


class _Located(Exception):
    """A fault already located in the answer it was found in (a page of a story)."""

    def __init__(self, error: InvalidParameter) -> None:
        super().__init__(error.message)
        self.error = error


@dataclass
class _Story:
    """The answers of one story, by page."""

    pages: list[_Answer] = field(default_factory=list)


class StorifyReader:
    """Turns Storify documents into checked records; ``users`` finds the authors who exist,
    ``now`` says when a new author is made (the service's clock)."""

    def __init__(
        self,
        users: UserRepository,
        limits: Limits,
        resolver: ElementResolver,
        profile: ProfileCheck,
        now: Callable[[], str],
    ) -> None:
        self._users = users
        self._limits = limits
        self._resolver = resolver
        self._profile = profile
        self._now = now
        self._authors: dict[str, str] = {}  # the id of each author, by username key

    def records(
        self, documents: Iterable[tuple[str, bytes]]
    ) -> Iterator[tuple[str, list[CheckedRecord]]]:
        """Each story of ``documents`` (name and content), where it was first read and the
        records it makes: its author when the author is new, then the story. Every document is
        read before the first story is made (a story's pages may be in several)."""
        stories: dict[str, _Story] = {}
        for name, content in documents:
            for answer in _answers(name, content):
                _join(stories, answer)
        for story in stories.values():
            pages = sorted(story.pages, key=lambda answer: answer.page)
            place = str(pages[0].place)
            try:
                records = self._records(pages)
            except _Located as located:
                raise located.error from None
            except InvalidParameter as exc:
                raise _at(place, exc) from exc
            yield place, records

    # -- one story ------------------------------------------------------------------------

    def _records(self, pages: Sequence[_Answer]) -> list[CheckedRecord]:
        first = pages[0].story
        members = Members(first, _STORY)
        created = _date(members, "created", required=True)
        status = members.string("status", required=True)
        if status not in _STATUSES:
            raise InvalidParameter(
                f"story.status must be one of {', '.join(_STATUSES)}", field="story.status"
            )
        published = _date(members, "published")
        if status == "published" and published is None:
            raise InvalidParameter(
                "story.date.published is required for a published story",
                field="story.date.published",
            )
        draft = parse_story(
            {key: first[key] for key in STORY_WRITE_MEMBERS if key in first and key not in _UNREAD},
            self._limits,
        )
        if draft.slug is None:
            raise InvalidParameter("story.slug is required", field="story.slug")
        elements = self._elements(pages, created)
        records: list[CheckedRecord] = []
        author_id = self._author(members, records)
        story = story_record(
            draft,
            elements,
            story_id=_sid(members),
            author_id=author_id,
            status=cast(Status, status),  # one of ``_STATUSES``
            version=members.integer("version", minimum=1, maximum=STORE_INT_MAX) or 1,
            modified=bool(members.boolean("modified")),
            not_indexed=bool(members.boolean("not_indexed")),
            created=created,
            updated=_date(members, "modified"),
            published=published,
            created_with=_created_with(members, self._limits),
        )
        records.append((story, elements))
        return records

    def _elements(self, pages: Sequence[_Answer], created: str) -> list[Element]:
        """The elements of every page in order, each page's checked where it was read."""
        joined: list[Element] = []
        seen: dict[str, _Place] = {}
        for answer in pages:
            raw = Members(answer.story, _STORY).array("elements", max_items=self._limits.elements)
            try:
                elements = normalize_elements(
                    raw or [],
                    path="story.elements",
                    limits=self._limits,
                    resolver=self._resolver,
                    previous=(),
                    now=created,
                )
            except InvalidParameter as exc:
                raise _Located(_at(str(answer.place), exc)) from exc
            for index, element in enumerate(elements):
                where = seen.setdefault(element.id, answer.place)
                if where != answer.place:
                    field_name = f"story.elements.{index}.id"
                    repeated = InvalidParameter(
                        f"{field_name} repeats the id of an element of {where}", field=field_name
                    )
                    raise _Located(_at(str(answer.place), repeated))
            joined += elements
        if len(joined) > self._limits.elements:
            raise InvalidParameter(
                f"story.elements: the pages hold more than the limit of {self._limits.elements}"
                " elements",
                field="story.elements",
            )
        return joined

    def _author(self, members: Members, records: list[CheckedRecord]) -> str:
        """The id of the story's author; a new author's record is added to ``records``."""
        author = members.object("author", required=True)
        assert author is not None  # required
        username = validate_username(
            author.string("username", required=True) or "", "story.author.username"
        )
        key = username_key(username)
        if key in self._authors:
            return self._authors[key]
        stored = self._users.get_by_username(username)
        if stored is not None:
            self._authors[key] = stored.id
            return stored.id
        profile = self._profile(
            {name: author.data[name] for name in USER_WRITE_MEMBERS if name in author.data},
            author.path,
        )
        made = self._now()
        user = with_search_tokens(
            UserRecord(id=new_id(), username=username, created=made, updated=made, **profile)
        )
        records.append(user)
        self._authors[key] = user.id
        return user.id


# -- documents and answers ----------------------------------------------------------------------


def _answers(name: str, content: bytes) -> Iterator[_Answer]:
    """The story answers of one document."""
    try:
        document = orjson.loads(content)
    except orjson.JSONDecodeError as exc:
        raise InvalidParameter(f"{name}: not valid JSON ({exc})") from None
    if isinstance(document, list):
        for number, item in enumerate(document, start=1):
            yield _answer(_Place(name, number), item)
    else:
        yield _answer(_Place(name), document)


def _answer(place: _Place, item: object) -> _Answer:
    """One story answer: a story object, or the envelope the v1 API sent it in."""
    if isinstance(item, Mapping) and "content" in item and "sid" not in item:
        item = item["content"]
    if not isinstance(item, Mapping) or "sid" not in item:
        raise InvalidParameter(
            f"{place}: not a Storify story: a story object (with its sid) or"
            ' {"content": story, "code": 200}'
        )
    try:
        page = Members(item, _STORY).integer("page", minimum=1, maximum=STORE_INT_MAX) or 1
    except InvalidParameter as exc:
        raise _at(str(place), exc) from exc
    return _Answer(place, item, page)


def _join(stories: dict[str, _Story], answer: _Answer) -> None:
    """Add ``answer`` to the answers of its story: another page of it, at the same version."""
    sid = answer.story["sid"]
    story = stories.setdefault(sid if isinstance(sid, str) else repr(sid), _Story())
    for earlier in story.pages:
        if earlier.page == answer.page:
            raise InvalidParameter(
                f"{answer.place}: story.sid: page {answer.page} of the story {sid!r} again"
                f" (first in {earlier.place})",
                field="story.sid",
            )
        if earlier.story.get("version") != answer.story.get("version"):
            raise InvalidParameter(
                f"{answer.place}: story.version: the story {sid!r} at another version than in"
                f" {earlier.place}: its pages must come from one version",
                field="story.version",
            )
    story.pages.append(answer)


# -- members -------------------------------------------------------------------------------------


def _sid(members: Members) -> str:
    sid = members.string("sid", required=True) or ""
    if not IMPORTED_ID.fullmatch(sid):
        raise InvalidParameter(
            "story.sid must be 1 to 64 letters, digits, - or _", field="story.sid"
        )
    return sid


@overload
def _date(members: Members, key: str, *, required: Literal[True]) -> str: ...


@overload
def _date(members: Members, key: str) -> str | None: ...


def _date(members: Members, key: str, *, required: bool = False) -> str | None:
    """``date.<key>``, a timestamp, normalized; None when absent and not required."""
    dates = members.object("date", required=required)
    return None if dates is None else dates.timestamp(key, required=required)


def _created_with(members: Members, limits: Limits) -> CreatedWith:
    """The application that created the story (``meta.created_with``), when the answer says."""
    meta = members.object("meta")
    made = None if meta is None else meta.object("created_with")
    if made is None:
        return CreatedWith()
    return CreatedWith(
        href=made.url("href", max_length=limits.address) or "",
        appname=made.string("appname", max_length=_SHORT_TEXT) or "",
        name=made.string("name", max_length=_SHORT_TEXT) or "",
    )


def _at(place: str, exc: InvalidParameter) -> InvalidParameter:
    """``exc`` with its message as ``PLACE: field: what is wrong``."""
    message = exc.message
    if exc.field is not None:
        message = f"{exc.field}: {message.removeprefix(exc.field).lstrip(' :')}"
    return type(exc)(f"{place}: {message}", field=exc.field)
