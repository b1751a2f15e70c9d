"""Kept pictures on MongoDB (docs/media-storage.md).

A file is a GridFS file of the bucket ``media`` (``media.files``, ``media.chunks``): its
``filename`` is its name (a unique index: stored once), its members in ``metadata``, its bytes
in chunks. GridFS writes the chunks first and the file's document last, so a reader finds a
whole file or none; of two processes putting one name at once, the second's document is
refused by the unique index and it deletes its own chunks (they are under an id of its own). A
process that stops while it writes leaves chunks no document names: storage only, never read.
Deleting a file deletes its document, then its chunks. gridfs's own classes (``GridIn``,
``GridOut``) are used, not ``GridFSBucket``, which mongomock cannot serve; each use holds the
bucket's guard (mongomock's lock, and ``Unavailable`` for an unreachable server).

A source record is a document of ``kept_sources`` keyed by its address (``_id``), its copies an
array of ``[name, media type, width, height]`` and ``names`` their names, whose index lets the
prune ask which of a batch of files a record names. Records are claimed as deliveries are
(``_webhooks``): one ``find_one_and_update`` per record, each leasing the earliest free one.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

from gridfs import GridIn, GridOut
from gridfs.errors import CorruptGridFile, FileExists, NoFile
from pymongo import ASCENDING, ReturnDocument
from pymongo.errors import BulkWriteError

from storycore.model.kept import KeptCopy, KeptFile, KeptSource
from storycore.ports import KeptFiles, KeptSources

from ._documents import Document
from ._schema import Collections

__all__ = ["MongoKeptFiles", "MongoKeptSources"]

_BY_NAME = [("filename", ASCENDING)]
_OLDEST = [("metadata.at", ASCENDING), ("filename", ASCENDING)]
_DUE = [("next_attempt", ASCENDING), ("_id", ASCENDING)]
_DUPLICATE_KEY = 11000
#: How many files the prune reads at a time, looking for unshown ones.
_BATCH = 100


def _file(found: Document) -> KeptFile:
    members = found["metadata"]
    return KeptFile(
        found["filename"],
        members["media_type"],
        members["width"],
        members["height"],
        found["length"],
        members["at"],
    )


def _document(source: KeptSource) -> Document:
    """The document of ``source``: its copies as arrays, and their names in ``names``."""
    document: Document = {"_id": source.address, **source._asdict()}
    del document["address"]
    document["copies"] = [list(copy) for copy in source.copies]
    document["names"] = list(dict.fromkeys(copy.name for copy in source.copies))
    return document


def _source(found: Document) -> KeptSource:
    return KeptSource(
        found["_id"],
        found["seen"],
        found["state"],
        tuple(KeptCopy(*copy) for copy in found["copies"]),
        found["fetched"],
        found["attempts"],
        found["reason"],
        found["next_attempt"],
        found["leased_until"],
        found["leased_by"],
        found.get("wanted_by"),  # none in a record wanted before stores kept it
    )


class MongoKeptFiles(KeptFiles):
    """Files in the GridFS bucket ``media``, by name."""

    def __init__(self, collections: Collections) -> None:
        self._files, self._chunks = collections.media_files, collections.media_chunks
        self._bucket = collections.media
        self._sources = collections.kept_sources

    def put(self, file: KeptFile, data: bytes) -> None:
        """A stored name's time moves on (``$max``); else the file is written."""
        if self._later(file):
            return
        metadata: Document = {
            "media_type": file.media_type,
            "width": file.width,
            "height": file.height,
        }
        with self._bucket.guard():
            grid = GridIn(
                self._bucket.root, filename=file.name, metadata={**metadata, "at": file.at}
            )
            grid.write(bytes(data))
            try:
                grid.close()
            except FileExists:  # another process stored it first: its chunks stay, ours go
                grid.abort()
            else:
                return
        self._later(file)

    def _later(self, file: KeptFile) -> bool:
        """Move the stored file's time on to ``file.at`` if it is later; whether one is stored."""
        moved = self._files.update_one({"filename": file.name}, {"$max": {"metadata.at": file.at}})
        return moved.matched_count > 0

    def head(self, name: str) -> KeptFile | None:
        found = self._files.find_one({"filename": name})
        return None if found is None else _file(found)

    def get(self, name: str) -> tuple[KeptFile, bytes] | None:
        """None also for a file deleted while it was read (its chunks went first)."""
        with self._bucket.guard():
            found = self._bucket.root.files.find_one({"filename": name})
            if found is None:
                return None
            try:
                data = GridOut(self._bucket.root, file_document=found).read()
            except (CorruptGridFile, NoFile):
                return None
        return _file(found), data

    def scan(self, after: str | None, limit: int) -> list[KeptFile]:
        if limit < 1:  # to MongoDB, a limit of 0 means none
            return []
        found = self._files.find({"filename": {"$gt": after or ""}}, sort=_BY_NAME, limit=limit)
        return [_file(document) for document in found]

    def delete(self, names: Collection[str]) -> int:
        found = self._files.find({"filename": {"$in": list(names)}}, {"_id": True})
        return self._delete([document["_id"] for document in found])

    def _delete(self, file_ids: list[Any]) -> int:
        """The files' documents, then their chunks; how many documents went."""
        if not file_ids:
            return 0
        gone = self._files.delete_many({"_id": {"$in": file_ids}}).deleted_count
        self._chunks.delete_many({"files_id": {"$in": file_ids}})
        return int(gone)

    def delete_unshown(self, before: str, limit: int) -> list[str]:
        """The oldest files in batches (the ``at`` index), each batch's names looked up in
        ``kept_sources``'s ``names`` at once; each unshown one deleted only if it is still
        older than ``before`` (a file put again meanwhile stays)."""
        gone: list[str] = []
        old: Document = {"metadata.at": {"$lt": before}}
        after: Document = {}
        while len(gone) < limit:
            batch = self._files.find(
                {**old, **after},
                {"filename": True, "metadata.at": True},
                sort=_OLDEST,
                limit=_BATCH,
            )
            if not batch:
                break
            names = [document["filename"] for document in batch]
            shown = {
                name
                for document in self._sources.find({"names": {"$in": names}}, {"names": True})
                for name in document["names"]
            }
            for name in names:
                if name in shown or len(gone) == limit:
                    continue
                found = self._files.find_one_and_delete({"filename": name, **old}, {"_id": True})
                if found is not None:
                    self._chunks.delete_many({"files_id": found["_id"]})
                    gone.append(name)
            last = batch[-1]
            at, name = last["metadata"]["at"], last["filename"]
            after = {
                "$or": [
                    {"metadata.at": {"$gt": at}},
                    {"metadata.at": at, "filename": {"$gt": name}},
                ]
            }
        return gone


class MongoKeptSources(KeptSources):
    """Source records by address; the due ones walked through the ``due`` index."""

    def __init__(self, collections: Collections) -> None:
        self._sources = collections.kept_sources

    def want(
        self,
        addresses: Collection[str],
        at: str,
        story: str | None = None,
        stale: str | None = None,
    ) -> int:
        """The new records in one unordered insert (a stored address is refused, the others go
        in), as deliveries are added (``_webhooks``); then ``seen`` of every given one seen
        before ``stale``, and ``wanted_by`` of those that have none."""
        given = list(dict.fromkeys(addresses))
        if not given:
            return 0
        new = [
            _document(KeptSource(address, at, next_attempt=at, wanted_by=story))
            for address in given
        ]
        try:
            added = len(self._sources.insert_many(new, ordered=False).inserted_ids)
        except BulkWriteError as exc:
            refusals = exc.details.get("writeErrors", [])
            if any(refusal.get("code") != _DUPLICATE_KEY for refusal in refusals):
                raise
            added = int(exc.details.get("nInserted", 0))
        seen_before: Document = {"_id": {"$in": given}}
        if stale is not None:
            seen_before["seen"] = {"$lt": stale}
        self._sources.update_many(seen_before, {"$set": {"seen": at}})
        if story is not None:
            unclaimed = {"_id": {"$in": given}, "wanted_by": None}
            self._sources.update_many(unclaimed, {"$set": {"wanted_by": story}})
        return added

    def touch(self, addresses: Collection[str], at: str) -> int:
        selector = {"_id": {"$in": list(set(addresses))}}
        return int(self._sources.update_many(selector, {"$set": {"seen": at}}).matched_count)

    def get_many(self, addresses: Iterable[str]) -> dict[str, KeptSource]:
        wanted = list(set(addresses))
        if not wanted:
            return {}
        return {d["_id"]: _source(d) for d in self._sources.find({"_id": {"$in": wanted}})}

    def claim(self, now: str, until: str, owner: str, limit: int) -> list[KeptSource]:
        free: Document = {
            "next_attempt": {"$type": "string", "$lte": now},
            "$or": [{"leased_until": None}, {"leased_until": {"$lte": now}}],
        }
        lease = {"$set": {"leased_until": until, "leased_by": owner}}
        claimed: list[KeptSource] = []
        while len(claimed) < limit:
            found = self._sources.find_one_and_update(
                free, lease, sort=_DUE, return_document=ReturnDocument.AFTER
            )
            if found is None:
                break
            claimed.append(_source(found))
        return claimed

    def finish(self, source: KeptSource, owner: str) -> bool:
        outcome = _document(source._replace(leased_until=None, leased_by=None))
        del outcome["_id"], outcome["seen"], outcome["wanted_by"]
        selector = {"_id": source.address, "leased_by": owner}
        return self._sources.update_one(selector, {"$set": outcome}).matched_count > 0

    def retry_failed(self, now: str) -> int:
        again = {"$set": {"next_attempt": now, "attempts": 0}}
        done = self._sources.update_many({"state": "failed", "next_attempt": None}, again)
        return int(done.matched_count)

    def scan(self, after: str | None, limit: int) -> list[KeptSource]:
        """By address."""
        if limit < 1:  # to MongoDB, a limit of 0 means none
            return []
        found = self._sources.find({"_id": {"$gt": after or ""}}, sort=[("_id", 1)], limit=limit)
        return [_source(document) for document in found]

    def restore(self, sources: Iterable[KeptSource]) -> None:
        """Each document replaced whole, or inserted (one write each)."""
        for source in sources:
            document = _document(source._replace(leased_until=None, leased_by=None))
            self._sources.replace_one({"_id": source.address}, document, upsert=True)

    def forget(self, before: str) -> int:
        return int(self._sources.delete_many({"seen": {"$lt": before}}).deleted_count)
