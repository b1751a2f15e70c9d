"""One record of an export, checked and derived as a write through the Python API would make it.

What a client could send is checked by the functions ``create``, ``save``, ``create_user`` and
``create_app`` use (``parse_story``, ``normalize_elements``, the username, address and profile
rules), so addresses are http(s), usernames and slugs follow their rules and limits hold. Text
HTML is sanitized as a write sanitizes it, not refused when sanitizing changes it: the sanitizer
is not idempotent on malformed HTML (``<li><h1>a<li>b`` is stored as nested items, which a
second pass splits), so text a store legitimately holds may change on a second pass, and
refusing would refuse its own export. What a write derives (search tokens, tags, topic keys,
cover, quoted authors, title key, the popularity of the counters, a user's search tokens) is
derived again: the file's copies are ignored. What only an export carries is kept once its type
and shape are right: ids, author, status, version, dates, counters, ``featured_at``, element
ids and ``added_at``, password hashes and api-key digests. A story is built as a create builds
it (``story_records``): a working story marked ``modified``, a state no write makes, is
imported unmodified.

Every fault is an ``InvalidParameter`` whose field is the dotted path a write would name:
``story.elements.3.permalink``, ``user.username``, ``app.href``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, get_args

from pydantic import BaseModel, ValidationError

from ..errors import InvalidParameter
from ..input.fields import Members, decode_object
from ..model.derived import with_search_tokens
from ..model.drafts import STORY_WRITE_MEMBERS, parse_story
from ..model.elements import normalize_elements
from ..model.members import refuse_unknown
from ..model.records import (
    AppRecord,
    CoverPhoto,
    CreatedWith,
    Element,
    Plan,
    Status,
    StoryRecord,
    UserRecord,
    UserSettings,
    element_document,
)
from ..model.resolvers import ElementResolver
from ..model.revisions import Revision, revision_record
from ..model.story_records import story_record
from ..rules.appnames import validate_app_name
from ..rules.credentials import is_password_hash
from ..rules.numbers import STORE_INT_MAX
from ..rules.usernames import validate_username
from ..settings import Limits

__all__ = [
    "IMPORTED_ID",
    "ProfileCheck",
    "checked_app",
    "checked_revisions",
    "checked_story",
    "checked_user",
]

#: ``Accounts``' check of the profile members (name, bio, location, website, avatar) of a
#: mapping, given the path of their field names; answers the members present.
ProfileCheck = Callable[[Mapping[str, Any], str], dict[str, str]]

#: The rule of every imported id: ids are made by the service (12 hex digits); an import
#: accepts any URL-safe id of that kind.
IMPORTED_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
_KEY_DIGEST = re.compile(r"[0-9a-f]{64}")  # SHA-256, hex
# ``scrypt$n$r$p$salt$key`` (``credentials.hash_password``), at a cost a login can afford
_SHORT_TEXT = 100
#: The counters an export restores; the popularity follows from them (``counters.popularity``).
_COUNTERS = ("views", "likes", "comments", "element_comments")


def checked_user(raw: object, limits: Limits, profile: ProfileCheck) -> UserRecord:
    """The user of an export's ``record``, checked, with its search tokens derived."""
    members = _record(raw, "user", UserRecord)
    username = validate_username(_text(members, "username", required=True), "user.username")
    user = UserRecord(
        id=_id(members, "id"),
        username=username,
        email=members.string("email", max_length=limits.profile_field) or "",
        password_hash=_password_hash(members),
        plan=_choice(members, "plan", get_args(Plan), default="free"),
        editor=bool(members.boolean("editor")),
        can_feature=bool(members.boolean("can_feature")),
        lang=members.string("lang", max_length=_SHORT_TEXT) or "en",
        settings=_user_settings(members),
        cover_photo=_cover_photo(members, limits),
        created=members.timestamp("created", required=True),
        updated=members.timestamp("updated", required=True),
        last_seen=members.timestamp("last_seen"),
        **profile(members.data, "user"),
    )
    return with_search_tokens(user)


def checked_app(raw: object, limits: Limits) -> AppRecord:
    """The application of an export's ``record``, checked."""
    members = _record(raw, "app", AppRecord)
    key_digest = _text(members, "key_digest", required=True)
    if not _KEY_DIGEST.fullmatch(key_digest):
        raise InvalidParameter(
            "app.key_digest must be a SHA-256 digest (64 lowercase hex digits)",
            field="app.key_digest",
        )
    return AppRecord(
        id=_id(members, "id"),
        name=validate_app_name(_text(members, "name", required=True), "app.name"),
        href=members.url("href", max_length=limits.address) or "",
        key_digest=key_digest,
        delegation=bool(members.boolean("delegation")),
        created=members.timestamp("created", required=True),
    )


def checked_story(
    raw: object, raw_elements: object, limits: Limits, resolver: ElementResolver
) -> tuple[StoryRecord, list[Element]]:
    """The story of an export's ``record`` and ``elements``, checked, with every derived member
    derived from them.
    """
    members = _record(raw, "story", StoryRecord, former=_FORMER_STORY_MEMBERS)
    # a story record holds no ``elements`` member (``_record``): they come beside it
    draft = parse_story(
        {key: members.data[key] for key in STORY_WRITE_MEMBERS if key in members.data}
        | {"elements": raw_elements},
        limits,
    )
    if draft.slug is None:
        raise InvalidParameter("story.slug is required", field="story.slug")
    created = members.timestamp("created", required=True)
    status = _choice(members, "status", get_args(Status))
    published = members.timestamp("published")
    if status == "published" and published is None:
        raise InvalidParameter(
            "story.published is required for a published story", field="story.published"
        )
    elements = _elements(draft.elements or [], limits, resolver, created)
    story = story_record(
        draft,
        elements,
        story_id=_id(members, "id"),
        author_id=_id(members, "author_id"),
        status=status,
        version=members.integer("version", minimum=1, maximum=STORE_INT_MAX) or 1,
        modified=bool(members.boolean("modified")),
        not_indexed=bool(members.boolean("not_indexed")),
        created=created,
        updated=members.timestamp("updated", required=True),
        published=published,
        featured_at=members.timestamp("featured_at"),
        publish_at=members.timestamp("publish_at"),
        created_with=_created_with(members, limits),
        **{name: members.integer(name, maximum=STORE_INT_MAX) or 0 for name in _COUNTERS},
    )
    members.integer("popularity", maximum=STORE_INT_MAX)  # checked, then derived again
    return story, elements


_REVISION_MEMBERS = ("replaced", "by", "record", "elements")


def checked_revisions(
    raw: object, story: StoryRecord, limits: Limits, resolver: ElementResolver
) -> list[Revision]:
    """The revisions an export carries beside ``story`` (``revision_document``), checked: each
    replaced at a timestamp by a user id, its record checked as a story's is, the same story
    (id, author) at a version below the story's, no version twice. A store keeps at most
    ``limits.revisions`` a story: the newest of them are imported."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise InvalidParameter("revisions must be an array", field="revisions")
    found: dict[int, Revision] = {}
    for index, item in enumerate(raw):
        path = f"revisions.{index}"
        data = decode_object(item, path)
        refuse_unknown(data, _REVISION_MEMBERS, path, what="a revision", hints=_REVISION_MEMBERS)
        members = Members(data, path)
        replaced = members.timestamp("replaced", required=True)
        by = _id(members, "by")
        record, elements = checked_story(data.get("record"), data.get("elements"), limits, resolver)
        where = f"{path}.record"
        if (record.id, record.author_id) != (story.id, story.author_id):
            raise InvalidParameter(
                "a revision's id and author_id are its story's", field=f"{where}.id"
            )
        if record.version >= story.version or record.version in found:
            raise InvalidParameter(
                f"{where}.version must be below the story's ({story.version}) and not repeat",
                field=f"{where}.version",
            )
        as_was = revision_record(record)
        documents = tuple(element_document(element) for element in elements)
        found[record.version] = Revision(story.id, record.version, replaced, by, as_was, documents)
    newest = sorted(found, reverse=True)[: limits.revisions]
    return [found[version] for version in sorted(newest)]


# -- the members ------------------------------------------------------------------------------

#: Derived members that story records of older exports hold (search words are stored beside the
#: record now): accepted and ignored.
_FORMER_STORY_MEMBERS = frozenset({"search_tokens"})


def _record(
    raw: object, path: str, model: type[BaseModel], *, former: frozenset[str] = frozenset()
) -> Members:
    """The members of a record; one the record model does not know is refused, as the model
    would refuse it (a file of another format, or a misspelt member), but for the ``former``
    derived members older exports carry, which are derived again anyway.
    """
    data = decode_object(raw, path)
    unknown = next((k for k in data if k not in model.model_fields and k not in former), None)
    if unknown is not None:
        field = f"{path}.{unknown}"
        raise InvalidParameter(f"{field} is not a member of an exported {path}", field=field)
    return Members(data, path)


def _text(members: Members, key: str, *, required: bool = False) -> str:
    return members.string(key, required=required) or ""


def _id(members: Members, key: str) -> str:
    value = _text(members, key, required=True)
    if not IMPORTED_ID.fullmatch(value):
        raise InvalidParameter(
            f"{members.field(key)} must be 1 to 64 letters, digits, - or _",
            field=members.field(key),
        )
    return value


def _choice(members: Members, key: str, allowed: tuple[str, ...], default: str = "") -> Any:
    value = members.string(key, required=not default) or default
    if value not in allowed:
        raise InvalidParameter(
            f"{members.field(key)} must be one of {', '.join(allowed)}", field=members.field(key)
        )
    return value


def _password_hash(members: Members) -> str | None:
    """The stored hash, kept as exported when it has the shape and an affordable cost."""
    value = members.string("password_hash")
    if value is None:
        return None
    if not is_password_hash(value):
        raise InvalidParameter(
            "user.password_hash must be a scrypt hash as storycore writes it",
            field="user.password_hash",
        )
    return value


def _user_settings(members: Members) -> UserSettings:
    settings = members.object("settings")
    if settings is None:
        return UserSettings()
    checked: UserSettings = _model(UserSettings, settings)
    settings.string("comments", max_length=_SHORT_TEXT)  # the length and the characters
    return checked


def _cover_photo(members: Members, limits: Limits) -> CoverPhoto:
    cover = members.object("cover_photo")
    if cover is None:
        return CoverPhoto()
    _model(CoverPhoto, cover)
    return CoverPhoto(
        url=cover.url("url", max_length=limits.address) or "",
        width=cover.integer("width", maximum=100_000) or 0,
        height=cover.integer("height", maximum=100_000) or 0,
    )


def _created_with(members: Members, limits: Limits) -> CreatedWith:
    made = members.object("created_with")
    if made is None:
        return CreatedWith()
    _model(CreatedWith, made)
    return CreatedWith(
        href=made.url("href", max_length=limits.address) or "",
        appname=made.string("appname", max_length=_SHORT_TEXT) or "",
        name=made.string("name", max_length=_SHORT_TEXT) or "",
    )


def _model(model: type[BaseModel], members: Members) -> Any:
    """``members`` as ``model``, strictly typed; the first fault names its field."""
    try:
        return model.model_validate(dict(members.data), strict=True)
    except ValidationError as exc:
        error = exc.errors()[0]
        field = ".".join([members.path, *(str(part) for part in error["loc"])])
        raise InvalidParameter(f"{field}: {error['msg']}", field=field) from None


def _elements(
    items: list[Any], limits: Limits, resolver: ElementResolver, at: str
) -> list[Element]:
    """The elements as a write normalizes them. An exported element is an object with its id
    and ``added_at``, which it keeps (a permalink string would be a new element).
    """
    for index, item in enumerate(items):
        where = f"story.elements.{index}"
        if not isinstance(item, Mapping):
            raise InvalidParameter(f"{where} must be an element object", field=where)
        element = Members(item, where)
        element.string("id", required=True)
        element.string("added_at", required=True)
    return normalize_elements(
        items, path="story.elements", limits=limits, resolver=resolver, previous=(), now=at
    )
