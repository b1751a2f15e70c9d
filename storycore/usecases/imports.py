"""Importing an export (docs/decisions.md#export-and-import).

An export is JSON Lines, one record a line, as ``storycore.contrib.transfer.export_lines``
writes it: users, then applications, then stories with their elements::

    {"kind": "user", "record": {...}}
    {"kind": "app", "record": {...}}
    {"kind": "story", "record": {...}, "elements": [{...}, ...], "revisions": [{...}, ...]}
    {"kind": "kept_file", "record": {...}, "data": "<base64>"}
    {"kind": "kept_source", "record": {...}}

``Imports.load`` reads it in two passes. The first checks every line: the record as a write
through the Python API would check it, derived as such a write derives it
(``storycore.usecases._import_records``), and against the file and the store: no id the store holds
(unless replacing), no id, username, application name, api key or slug that another record
holds, every story's author earlier in the file or in the store. A fault names its line, and
nothing is written. With ``replace``, a record replaces the stored one with its id; a username,
name or slug is still refused when another stored record holds it, even one the file replaces
too (the checks do not reorder renames). The checked records are spooled to temporary files (in
memory up to a few megabytes, on disk beyond), so memory holds only the keys the checks compare,
however large the file. The second pass writes the spooled records: users, applications, then
stories, then their revisions (``revisions``, when a story has some: docs/api.md#revisions),
then the kept pictures' files and source records (docs/media-storage.md#export-and-import).

A kept file is checked against its name, type and size (``_import_kept``); one the store holds
already is no conflict (the same name is the same bytes). A source record's address is its key:
one the store holds refuses the import unless replacing. A kept record whose copies are held
neither by a ``kept_file`` line before it nor by the store is imported pending, due at once, as
if its picture had just been wanted: a store that lost a file can still be moved, and its
picture is fetched again where pictures are kept.

``Imports.load_storify`` reads Storify v1 story JSON instead (``storycore.usecases.storify``,
docs/decisions.md#export-and-import): its reader checks each story and its new author as a write
would, and
``load_checked`` admits and writes what it made as the lines of an export are admitted and
written; a fault names the document and item instead of the line.

The write is all or nothing as far as the ports allow. The stories go through
``StoryRepository.add_many`` at once, one transaction on SQLite. When a write fails (a
concurrent writer took a slug, the disk is full), what the import wrote is undone before the
error is raised: the stories it added are removed, the records it replaced are put back (a
replaced story comes back without its aliases and embed counts, which a removal drops). Users
and applications it added stay: the ports have no way to remove them; so do the kept files
and source records it added (a source record it replaced is put back).
"""

from __future__ import annotations

import binascii
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from types import TracebackType
from typing import Any

import orjson

from ..errors import Conflict, DuplicateKey, InvalidParameter, SlugTaken
from ..model.derived import story_words
from ..model.kept import (
    KeptCopy,
    KeptFile,
    KeptSource,
    kept_file_document,
    kept_source_document,
)
from ..model.records import (
    AppRecord,
    Element,
    StoryRecord,
    UserRecord,
    element_of,
    trusted_element,
    trusted_story,
    trusted_user,
)
from ..model.revisions import Revision, revision_document, revision_from
from ..model.shown_pictures import story_pictures, user_pictures
from ..model.trusted import construct_trusted
from ..ports import NewStory, Store, whole_record
from ..rules.usernames import username_key
from ._import_kept import CheckedFile, checked_kept_file, checked_kept_source
from ._import_records import (
    ProfileCheck,
    checked_app,
    checked_revisions,
    checked_story,
    checked_user,
)
from .accounts import Accounts
from .context import Context
from .storify import CheckedRecord, StorifyReader
from .wording import worded, wording

__all__ = ["ImportProgress", "Imports"]

#: Told ``("checked", records, None)`` as lines are checked, then ``("imported", records,
#: total)`` as records are written.
ImportProgress = Callable[[str, int, int | None], None]

#: The pictures one ``want`` of an import queues for the keeper
#: (docs/media.md#how-pictures-are-kept).
_WANTED_AT_ONCE = 1000
_IN_MEMORY = 4 * 1024 * 1024  # bytes of spooled records kept in memory before using a file
_LINE_MEMBERS = {
    "user": {"kind", "record"},
    "app": {"kind", "record"},
    "story": {"kind", "record", "elements", "revisions"},
    "kept_file": {"kind", "record", "data"},
    "kept_source": {"kind", "record"},
}
#: The source records one ``restore`` of an import writes.
_RESTORED_AT_ONCE = 500
#: What an import reads of a line: a record (a story with its elements), a revision of the
#: story before it, a kept file or a source record.
_Read = CheckedRecord | AppRecord | Revision | CheckedFile | KeptSource


class Imports:
    """Reading an export back into the store, as writes through the service would make it."""

    def __init__(self, context: Context, accounts: Accounts) -> None:
        self._ctx = context
        self._store = context.store
        # the profile rule of create_user and update: the same function, not a copy
        self._profile: ProfileCheck = lambda data, path: accounts._profile_members(data, path=path)

    def load_storify(
        self,
        documents: Iterable[tuple[str, bytes]],
        *,
        replace: bool = False,
        progress: ImportProgress | None = None,
    ) -> int:
        """Check every story of Storify v1 story JSON documents (name and content;
        ``storycore.usecases.storify``), then write them with their new authors; returns how many
        records. Faults and ``replace`` as ``load``'s, a fault naming the document and item.
        """
        reader = StorifyReader(
            self._store.users,
            self._ctx.settings.limits,
            self._ctx.resolver,
            self._profile,
            self._ctx.now,
        )
        return self.load_checked(reader.records(documents), replace=replace, progress=progress)

    def load_checked(
        self,
        items: Iterable[tuple[str, Iterable[_Read]]],
        *,
        replace: bool = False,
        progress: ImportProgress | None = None,
    ) -> int:
        """Admit the checked and derived records of ``items`` (each: where it was read and its
        records, users before the stories they write; a fault while they are read is located
        there), then write them; returns how many. ``load`` and ``load_storify`` read into it.
        """
        tell = progress or _quiet
        with _Plan(replace) as plan:
            for number, (where, records) in enumerate(items, start=1):
                plan.places[number] = where
                try:
                    for record in records:
                        self._admit_checked(plan, number, record)
                except (InvalidParameter, Conflict) as exc:
                    raise _at(where, exc) from exc
                tell("checked", plan.count, None)
            with wording():
                self._write(plan, tell)
            return plan.count

    def load(
        self,
        lines: Iterable[bytes],
        *,
        replace: bool = False,
        progress: ImportProgress | None = None,
    ) -> int:
        """Check every line of an export, then write its records; returns how many.

        A bad line raises ``InvalidParameter`` (``SlugTaken`` for a slug another story holds)
        whose message starts with ``line N: field:``; an id the store holds raises ``Conflict``
        unless ``replace``, with which the file's records replace the stored ones. Either way
        nothing was written. Blank lines are skipped (and counted in line numbers).
        """
        items = (
            (f"line {number}", self._line_records(line))
            for number, line in enumerate(lines, start=1)
            if line.strip()
        )
        return self.load_checked(items, replace=replace, progress=progress)

    # -- the first pass: checking ------------------------------------------------------------

    def _line_records(self, line: bytes) -> Iterator[_Read]:
        """The record of one line of an export, checked and derived as it is read."""
        item = _decode(line)
        limits = self._ctx.settings.limits
        kind = item["kind"]
        if kind == "user":
            yield checked_user(item.get("record"), limits, self._profile)
        elif kind == "app":
            yield checked_app(item.get("record"), limits)
        elif kind == "kept_file":
            yield checked_kept_file(item.get("record"), item.get("data"))
        elif kind == "kept_source":
            yield checked_kept_source(item.get("record"), limits)
        else:
            resolver = self._ctx.resolver
            story, elements = checked_story(
                item.get("record"), item.get("elements"), limits, resolver
            )
            yield story, elements
            yield from checked_revisions(item.get("revisions"), story, limits, resolver)

    def _admit_checked(self, plan: _Plan, number: int, record: _Read) -> None:
        if isinstance(record, Revision):  # of the story just admitted; not a record of its own
            plan.spools["revision"].add(revision_document(record))
            return
        if isinstance(record, CheckedFile):
            self._admit_file(plan, number, record.file)
            plan.files_spool.add(record)
        elif isinstance(record, KeptSource):
            admitted = self._admit_source(plan, number, record)
            plan.spools["kept_source"].add(kept_source_document(admitted))
        elif isinstance(record, UserRecord):
            self._admit_user(plan, number, record)
            plan.spools["user"].add(record.model_dump(mode="json"))
        elif isinstance(record, AppRecord):
            self._admit_app(plan, number, record)
            plan.spools["app"].add(record.model_dump(mode="json"))
        else:
            story, elements = record
            self._admit_story(plan, number, story)
            plan.spools["story"].add(_story_document(story, elements))
        plan.count += 1

    def _admit_user(self, plan: _Plan, number: int, user: UserRecord) -> None:
        plan.admit_id(number, "user", user.id, self._store.users.get(user.id) is not None)
        plan.first("user.username", number, username_key(user.username), "username")
        holder = self._store.users.get_by_username(user.username)
        if holder is not None and holder.id != user.id:
            raise worded(DuplicateKey("user.username"), name=user.username, field="user.username")
        plan.authors.add(user.id)

    def _admit_app(self, plan: _Plan, number: int, app: AppRecord) -> None:
        apps = self._store.apps
        plan.admit_id(number, "app", app.id, apps.get(app.id) is not None)
        plan.first("app.name", number, app.name, "name")
        plan.first("app.key_digest", number, app.key_digest, "api key")
        for key, holder in (
            ("name", apps.get_by_name(app.name)),
            ("key_digest", apps.get_by_key_digest(app.key_digest)),
        ):
            if holder is not None and holder.id != app.id:
                raise InvalidParameter(f"app.{key} is another application's", field=f"app.{key}")

    def _admit_story(self, plan: _Plan, number: int, story: StoryRecord) -> None:
        stories = self._store.stories
        plan.admit_id(number, "story", story.id, stories.get(story.id) is not None)
        if story.author_id not in plan.authors:
            if self._store.users.get(story.author_id) is None:
                raise InvalidParameter(
                    f"story.author_id: no user has the id {story.author_id!r}, in the lines"
                    " before or in the store",
                    field="story.author_id",
                )
            plan.authors.add(story.author_id)
        earlier = plan.keys.setdefault(("story.slug", story.author_id, story.slug), number)
        # a story that left the slug (an alias) holds it no more: the new story frees it
        holder = stories.get_by_slug(story.author_id, story.slug)
        held = holder is not None and holder.slug == story.slug and holder.id != story.id
        if earlier != number or held:
            where = plan.place(earlier) if earlier != number else "the store"
            raise SlugTaken(
                f"the author has another story at {story.slug!r} in {where}", field="story.slug"
            )

    def _admit_file(self, plan: _Plan, number: int, file: KeptFile) -> None:
        """Note a file's name and members, which the records after it may name (a file the
        store holds is the same bytes: no conflict)."""
        plan.first("kept_file.name", number, file.name, "name")
        plan.files[file.name] = KeptCopy(file.name, file.media_type, file.width, file.height)

    def _admit_source(self, plan: _Plan, number: int, source: KeptSource) -> KeptSource:
        """``source`` as the import stores it: as the file says when its copies are held (by a
        line before it or by the store), else pending and due at once."""
        stored = self._store.kept_sources.get_many([source.address])
        plan.admit_id(number, "kept_source", source.address, bool(stored), key="address")
        held = True
        for index, copy in enumerate(source.copies):
            found = plan.files.get(copy.name) or self._stored_copy(copy.name)
            if found is None:
                held = False
            elif found != copy:
                field = f"kept_source.copies.{index}"
                raise InvalidParameter(
                    f"{field}: the file {copy.name} is a {found.width} x {found.height}"
                    f" {found.media_type}",
                    field=field,
                )
        if source.state == "kept" and not (held and source.copies):
            return source._replace(
                state="pending", copies=(), fetched=0, attempts=0, reason=None,
                next_attempt=self._ctx.now(),
            )  # fmt: skip
        return source

    def _stored_copy(self, name: str) -> KeptCopy | None:
        file = self._store.kept_files.head(name)
        return None if file is None else KeptCopy(name, file.media_type, file.width, file.height)

    # -- the second pass: writing ------------------------------------------------------------

    def _write(self, plan: _Plan, tell: ImportProgress) -> None:
        store = self._store
        undo = _Undo(store)
        done = 0
        # the pictures the import brings, each with the story that first shows it (None: a
        # user's avatar), wanted once it is written: a story's limit counts what it wanted
        shown: dict[str, str | None] = {}

        def written() -> None:
            nonlocal done
            done += 1
            tell("imported", done, plan.count)

        try:
            for user in (trusted_user(data) for data in plan.spools["user"]):
                if user.id in plan.stored["user"]:
                    undo.keep("user", store.users.get(user.id))
                    store.users.update(user.id, whole_record(user))
                else:
                    store.users.add(user)
                for address in user_pictures(user):
                    shown.setdefault(address, None)
                written()
            for app in (construct_trusted(AppRecord, data) for data in plan.spools["app"]):
                if app.id in plan.stored["app"]:
                    undo.keep("app", store.apps.get(app.id))
                    store.apps.update(app.id, whole_record(app))
                else:
                    store.apps.add(app)
                written()
            for story_id in plan.stored["story"]:
                undo.keep_story(story_id)
                store.stories.remove(story_id)

            def stories() -> Iterator[NewStory]:
                for data in plan.spools["story"]:
                    new = _story_from(data)
                    for address in story_pictures(new[0], new[1]):
                        shown.setdefault(address, new[0].id)
                    # noted before it is written: a write that fails half-way is undone too
                    undo.added.append(new[0].id)
                    yield new
                    written()

            store.stories.add_many(stories())
            store.revisions.add_many(revision_from(data) for data in plan.spools["revision"])
            for file, content in plan.files_spool:
                store.kept_files.put(file, content)
                written()
            batch: list[KeptSource] = []
            for document in plan.spools["kept_source"]:
                batch.append(_source_from(document))
                if len(batch) == _RESTORED_AT_ONCE:
                    self._restore(batch, plan, undo)
                    batch = []
                written()
            self._restore(batch, plan, undo)
        except BaseException as exc:
            try:
                undo.run()
            except Exception as failed:  # noqa: BLE001 - the first error is the one to report
                exc.add_note(f"undoing the import failed too: {failed!r}")
            raise
        finally:
            undo.close()
        by_story: dict[str | None, list[str]] = {}
        for address, story in shown.items():
            by_story.setdefault(story, []).append(address)
        for story, addresses in by_story.items():
            for start in range(0, len(addresses), _WANTED_AT_ONCE):
                chunk = addresses[start : start + _WANTED_AT_ONCE]
                self._ctx.want_pictures(partial(list, chunk), story)

    def _restore(self, batch: list[KeptSource], plan: _Plan, undo: _Undo) -> None:
        """Restore a batch of source records, keeping the stored ones they replace."""
        replaced = [
            source.address for source in batch if source.address in plan.stored["kept_source"]
        ]
        if replaced:
            undo.keep_sources(self._store.kept_sources.get_many(replaced).values())
        self._store.kept_sources.restore(batch)


# -- the plan of the first pass ---------------------------------------------------------------


class _Spool:
    """Documents on a temporary file, in memory up to ``_IN_MEMORY`` bytes."""

    def __init__(self) -> None:
        self._file = tempfile.SpooledTemporaryFile(max_size=_IN_MEMORY)  # noqa: SIM115

    def add(self, document: dict[str, Any]) -> None:
        self._file.write(orjson.dumps(document) + b"\n")

    def __iter__(self) -> Iterator[dict[str, Any]]:
        self._file.seek(0)
        for line in self._file:
            yield orjson.loads(line)

    def close(self) -> None:
        self._file.close()


class _FileSpool:
    """Kept files on a temporary file, in memory up to ``_IN_MEMORY`` bytes: two lines each,
    the members' JSON, then the bytes in base64 as the line held them. A file's bytes are
    copied, never passed through the JSON encoder, which holds many times a long string while
    it writes it (over 60 MB for a file of 5 MB)."""

    def __init__(self) -> None:
        self._file = tempfile.SpooledTemporaryFile(max_size=_IN_MEMORY)  # noqa: SIM115

    def add(self, checked: CheckedFile) -> None:
        self._file.write(orjson.dumps(kept_file_document(checked.file)) + b"\n")
        self._file.write(checked.data.encode("ascii") + b"\n")

    def __iter__(self) -> Iterator[tuple[KeptFile, bytes]]:
        self._file.seek(0)
        while members := self._file.readline():
            data = binascii.a2b_base64(self._file.readline())
            yield KeptFile(**orjson.loads(members)), data

    def close(self) -> None:
        self._file.close()


@dataclass
class _Plan:
    """What the first pass learned: the keys it compares, the ids the store holds (which the
    file's records replace) and the checked records, spooled.
    """

    replace: bool
    count: int = 0
    places: dict[int, str] = field(default_factory=dict)  # where each numbered item was read
    keys: dict[tuple[str, ...], int] = field(default_factory=dict)
    authors: set[str] = field(default_factory=set)
    stored: dict[str, set[str]] = field(
        default_factory=lambda: {"user": set(), "app": set(), "story": set(), "kept_source": set()}
    )
    #: the kept files of the lines read so far, by name, as a source record's copies name them
    files: dict[str, KeptCopy] = field(default_factory=dict)
    files_spool: _FileSpool = field(default_factory=_FileSpool)
    spools: dict[str, _Spool] = field(
        default_factory=lambda: {
            kind: _Spool() for kind in ("user", "app", "story", "revision", "kept_source")
        }
    )

    def first(self, field_name: str, number: int, key: str, what: str) -> None:
        """``InvalidParameter`` when an earlier line holds ``key`` in ``field_name``."""
        earlier = self.keys.setdefault((field_name, key), number)
        if earlier != number:
            raise InvalidParameter(
                f"{field_name} repeats the {what} of {self.place(earlier)}", field=field_name
            )

    def place(self, number: int) -> str:
        """Where the item ``number`` was read: its line, or the place its reader named."""
        return self.places[number]

    def admit_id(
        self, number: int, kind: str, record_id: str, stored: bool, *, key: str = "id"
    ) -> None:
        """Note a record's id (or the member ``key`` that is its key): refused when an earlier
        line has it, or when the store has it and the import does not replace.
        """
        self.first(f"{kind}.{key}", number, record_id, key)
        if stored and not self.replace:
            raise Conflict(
                f"{kind}.{key}: a {kind} with the {key} {record_id!r} exists; --replace"
                " (replace=True in Python) puts the file's records over the stored ones",
                field=f"{kind}.{key}",
            )
        if stored:
            self.stored[kind].add(record_id)

    def __enter__(self) -> _Plan:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        for spool in self.spools.values():
            spool.close()
        self.files_spool.close()


class _Undo:
    """What the second pass changed, to take back when a write fails: the ids of the stories
    it added, and the records it replaced (spooled).
    """

    def __init__(self, store: Store) -> None:
        self._store = store
        self.added: list[str] = []
        self.replaced = _Spool()

    def keep(self, kind: str, record: UserRecord | AppRecord | None) -> None:
        """Keep a user or application about to be replaced."""
        if record is not None:
            self.replaced.add({"kind": kind, "record": record.model_dump(mode="json")})

    def keep_story(self, story_id: str) -> None:
        """Keep a story, with its elements, about to be removed for its replacement."""
        story = self._store.stories.get(story_id)
        if story is not None:
            documents = self._store.stories.element_documents(story_id, 0, 2**31)
            elements = [element_of(document) for document in documents]
            self.replaced.add({"kind": "story", **_story_document(story, elements)})
            for revision in self._store.revisions.of_story(story_id):
                self.replaced.add({"kind": "revision", **revision_document(revision)})

    def keep_sources(self, sources: Iterable[KeptSource]) -> None:
        """Keep source records about to be restored over."""
        for source in sources:
            self.replaced.add({"kind": "kept_source", "record": kept_source_document(source)})

    def run(self) -> None:
        """Remove the stories added, put the replaced records back."""
        store = self._store
        for story_id in self.added:
            store.stories.remove(story_id)
        for item in self.replaced:
            if item["kind"] == "kept_source":
                store.kept_sources.restore([_source_from(item["record"])])
            elif item["kind"] == "story":
                store.stories.add_many([_story_from(item)])
            elif item["kind"] == "revision":
                store.revisions.add_many([revision_from(item)])
            elif item["kind"] == "app":
                app = construct_trusted(AppRecord, item["record"])
                store.apps.update(app.id, whole_record(app))
            else:
                user = trusted_user(item["record"])
                store.users.update(user.id, whole_record(user))

    def close(self) -> None:
        self.replaced.close()


# -- lines and documents ----------------------------------------------------------------------


def _quiet(phase: str, done: int, total: int | None) -> None:
    """No progress shown."""


def _decode(line: bytes) -> dict[str, Any]:
    """A line as the object it holds, with a known ``kind`` and only that kind's members."""
    try:
        item = orjson.loads(line)
    except orjson.JSONDecodeError:
        raise InvalidParameter("the line is not valid JSON") from None
    if not isinstance(item, dict):
        raise InvalidParameter("the line must be a JSON object")
    kind = item.get("kind")
    if not isinstance(kind, str) or kind not in _LINE_MEMBERS:
        raise InvalidParameter(f"kind must be one of {', '.join(_LINE_MEMBERS)}", field="kind")
    unknown = sorted(set(item) - _LINE_MEMBERS[kind])
    if unknown:
        raise InvalidParameter(f"{unknown[0]} is not a member of a {kind} line", field=unknown[0])
    return item


def _story_document(story: StoryRecord, elements: Sequence[Element]) -> dict[str, Any]:
    return {
        "record": story.model_dump(mode="json"),
        "elements": [element.model_dump(mode="json") for element in elements],
    }


def _story_from(document: dict[str, Any]) -> NewStory:
    """A spooled story as it is stored, its search words derived again."""
    story = trusted_story(document["record"])
    elements = [trusted_element(element) for element in document["elements"]]
    return story, elements, story_words(story, elements)


def _source_from(document: dict[str, Any]) -> KeptSource:
    """A spooled source record (``kept_source_document``) as stored: its copies as
    ``KeptCopy``, any other array as a tuple (as a record holds a sequence)."""
    members: dict[str, Any] = {
        key: tuple(value) if isinstance(value, list) else value for key, value in document.items()
    }
    members["copies"] = tuple(KeptCopy(**copy) for copy in document["copies"])
    return KeptSource(**members)


def _at(where: str, exc: InvalidParameter | Conflict) -> InvalidParameter | Conflict:
    """``exc`` with its message as ``WHERE: field: what is wrong``."""
    message = exc.message
    if exc.field is not None:
        message = f"{exc.field}: {message.removeprefix(exc.field).lstrip(' :')}"
    return type(exc)(f"{where}: {message}", field=exc.field)
