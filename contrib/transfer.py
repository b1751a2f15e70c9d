"""Export and import as JSON Lines: users, then applications, then stories with elements
(and the revisions a story has, oldest first, in its line's ``revisions``), then the kept
pictures' files (their bytes in base64) and source records
(docs/media-storage.md#export-and-import).

One record a line, streamed: memory stays flat however large the store (a kept file is read
when its line is written, one at a time). Secrets are never exported: password hashes and
api-key digests are (they let a moved store keep working), the passwords, api keys and user
tokens themselves are not, and tokens are not exported at all.
Importing is the core's (``storycore.usecases.imports``); this module only moves the lines.
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any, TypeVar

import orjson

from storycore.model.kept import KeptFile, KeptSource, kept_file_document, kept_source_document
from storycore.model.revisions import revision_document
from storycore.ports import Store
from storycore.service import Service
from storycore.usecases.imports import ImportProgress

__all__ = ["export_lines", "import_lines", "write_export"]

_PAGE = 500
_Item = TypeVar("_Item", KeptFile, KeptSource)
#: The kept files' members read at once (their bytes are read one file at a time).
_FILES_PAGE = 100


def _paged(fetch: Callable[[int, int], list[Any]]) -> Iterator[Any]:
    offset = 0
    while True:
        batch = fetch(offset, _PAGE)
        yield from batch
        if len(batch) < _PAGE:
            return
        offset += _PAGE


def export_lines(store: Store) -> Iterator[bytes]:
    """Every record of ``store`` as one JSON line each."""
    for user in _paged(store.users.find):
        yield orjson.dumps({"kind": "user", "record": user.model_dump(mode="json")}) + b"\n"
    for app in _paged(store.apps.find):
        yield orjson.dumps({"kind": "app", "record": app.model_dump(mode="json")}) + b"\n"
    for story, elements in store.stories.iter_all():
        line = {
            "kind": "story",
            "record": story.model_dump(mode="json"),
            "elements": [e.model_dump(mode="json") for e in elements],
        }
        if revisions := store.revisions.of_story(story.id):
            line["revisions"] = [revision_document(revision) for revision in revisions]
        yield orjson.dumps(line) + b"\n"
    yield from _kept_lines(store)


def _kept_lines(store: Store) -> Iterator[bytes]:
    """The kept files, by name, each with its bytes; then the source records, without their
    leases, in the store's own order."""
    files = store.kept_files
    for file in _scanned(files.scan, _FILES_PAGE, lambda file: file.name):
        kept = files.get(file.name)
        if kept is None:  # deleted since the page was read (a prune): not in the store now
            continue
        members, data = kept
        head = orjson.dumps({"kind": "kept_file", "record": kept_file_document(members)})
        # the bytes in base64 written beside the members, not through the JSON encoder, which
        # holds many times a long string while it writes it; base64 needs no escaping
        yield b"".join((head[:-1], b',"data":"', base64.b64encode(data), b'"}\n'))
    for source in _scanned(store.kept_sources.scan, _PAGE, lambda source: source.address):
        yield orjson.dumps({"kind": "kept_source", "record": kept_source_document(source)}) + b"\n"


def _scanned(
    scan: Callable[[str | None, int], list[_Item]], page: int, key: Callable[[_Item], str]
) -> Iterator[_Item]:
    """Every item of a walk that resumes after the key of the last one read."""
    after: str | None = None
    while True:
        batch = scan(after, page)
        yield from batch
        if len(batch) < page:
            return
        after = key(batch[-1])


def import_lines(
    service: Service,
    lines: Iterable[bytes],
    *,
    replace: bool = False,
    progress: ImportProgress | None = None,
) -> int:
    """Read an export into ``service``'s store; returns how many records were imported.

    The checking, deriving and writing are the core's (``Service.imports``): a bad line imports
    nothing and raises an error naming it.
    """
    return service.imports.load(lines, replace=replace, progress=progress)


def write_export(store: Store, out: IO[bytes], progress: Callable[[int], None]) -> int:
    """Write the export to ``out``; returns how many lines were written."""
    count = 0
    for count, line in enumerate(export_lines(store), start=1):
        out.write(line)
        progress(count)
    return count
