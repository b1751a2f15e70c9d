"""The kept pictures' lines of an export, checked (docs/media-storage.md#export-and-import).

A ``kept_file`` line is a file's members (``record``) and its bytes in base64 (``data``). The
file is admitted only when it is what its members say: the SHA-256 of its bytes is its name,
its type is one storycore keeps (``EXTENSIONS``), its bytes are that many, and their header is
a picture of that type and size. A ``kept_source`` line is a source record without its lease,
admitted when it holds together: copies only when kept, a kept record not due again, a pending
one due at a time. Whether its copies are held is the import's to say (``Imports``), since
that depends on the lines before it and on the store.

Every fault is an ``InvalidParameter`` naming the member: ``kept_file.data``,
``kept_source.copies.1``.
"""

from __future__ import annotations

import binascii
import hashlib
import re
from collections.abc import Callable
from typing import Any, Final, NamedTuple, get_args

from ..errors import InvalidParameter
from ..input.fields import Members, decode_object
from ..media.pictures import EXTENSIONS, WIDTHS, stored_size
from ..model.kept import LEASE_MEMBERS, KeptCopy, KeptFile, KeptSource, KeptState
from ..rules.numbers import STORE_INT_MAX
from ..settings import Limits
from ._import_records import IMPORTED_ID

__all__ = ["SOURCE_MEMBERS", "CheckedFile", "checked_kept_file", "checked_kept_source"]

_SHA256 = re.compile(r"[0-9a-f]{64}")
#: The most characters of a failure's reason: a message written for a person.
_REASON = 1000
#: A kept picture's copies: the original and its narrower widths.
_MOST_COPIES = len(WIDTHS) + 1


class CheckedFile(NamedTuple):
    """A kept file of an export, checked: its members and its bytes as the line held them (in
    base64, spooled so until they are stored)."""

    file: KeptFile
    data: str


def checked_kept_file(raw: object, data: object) -> CheckedFile:
    """The file of a ``kept_file`` line's ``record`` and ``data``, checked against its bytes."""
    members = _members(raw, "kept_file", frozenset(KeptFile._fields))
    name = _required(members.string("name"), members, "name")
    if not _SHA256.fullmatch(name):
        raise _fault(members, "name", "must be a SHA-256 (64 lowercase hex digits)")
    media_type = _required(members.string("media_type"), members, "media_type")
    if media_type not in EXTENSIONS:
        raise _fault(members, "media_type", f"must be one of {', '.join(EXTENSIONS)}")
    file = KeptFile(
        name=name,
        media_type=media_type,
        width=_whole(members, "width", minimum=1),
        height=_whole(members, "height", minimum=1),
        size=_whole(members, "size", minimum=1),
        at=members.timestamp("at", required=True),
    )
    if not isinstance(data, str):
        raise InvalidParameter(
            "kept_file.data must be the file's bytes in base64", field="kept_file.data"
        )
    try:
        content = binascii.a2b_base64(data, strict_mode=True)
    except ValueError:  # binascii.Error is one; a character beyond ASCII raises another
        raise InvalidParameter("kept_file.data is not base64", field="kept_file.data") from None
    _check_bytes(file, content)
    return CheckedFile(file, data)


def _check_bytes(file: KeptFile, content: bytes) -> None:
    if len(content) != file.size:
        raise InvalidParameter(
            f"kept_file.size: the file holds {len(content)} bytes", field="kept_file.size"
        )
    if hashlib.sha256(content).hexdigest() != file.name:
        raise InvalidParameter(
            "kept_file.data: the SHA-256 of the bytes is not the file's name",
            field="kept_file.data",
        )
    size = stored_size(content, file.media_type)
    if size is None:
        raise InvalidParameter(
            f"kept_file.data: the bytes are no picture of the type {file.media_type}",
            field="kept_file.data",
        )
    for key, value, told in zip(("width", "height"), size, (file.width, file.height), strict=True):
        if value != told:
            raise InvalidParameter(
                f"kept_file.{key}: the picture is {size[0]} x {size[1]}", field=f"kept_file.{key}"
            )


#: How each member of an exported source record is read (None: absent, so its default):
#: every member of ``KeptSource`` but the lease's, which an export leaves behind. A member
#: added to ``KeptSource`` is carried by the export as it is, and read back once it has a row.
SOURCE_MEMBERS: Final[dict[str, Callable[[Members, Limits], Any]]] = {
    "address": lambda members, limits: members.url(
        "address", max_length=limits.address, required=True
    ),
    "seen": lambda members, limits: members.timestamp("seen", required=True),
    "state": lambda members, limits: _state(members),
    "copies": lambda members, limits: _copies(members),
    "fetched": lambda members, limits: members.integer("fetched", maximum=STORE_INT_MAX),
    "attempts": lambda members, limits: members.integer("attempts", maximum=STORE_INT_MAX),
    "reason": lambda members, limits: members.string("reason", max_length=_REASON),
    "next_attempt": lambda members, limits: members.timestamp("next_attempt"),
    "wanted_by": lambda members, limits: _story_id(members),
}


def checked_kept_source(raw: object, limits: Limits) -> KeptSource:
    """The source record of a ``kept_source`` line's ``record``, checked as a whole."""
    members = _members(raw, "kept_source", frozenset(SOURCE_MEMBERS))
    read = {name: reader(members, limits) for name, reader in SOURCE_MEMBERS.items()}
    source = KeptSource(**{name: value for name, value in read.items() if value is not None})
    if source.copies and source.state != "kept":
        raise _fault(members, "copies", "only a kept record has copies")
    if source.state == "kept" and source.next_attempt is not None:
        raise _fault(members, "next_attempt", "a kept record is not due again")
    if source.state == "pending" and source.next_attempt is None:
        raise _fault(members, "next_attempt", "a pending record is due at a time")
    return source


def _story_id(members: Members) -> str | None:
    """The story that first wanted the address (an id as imported stories' ids are), or None."""
    story = members.string("wanted_by")
    if story is not None and not IMPORTED_ID.fullmatch(story):
        raise _fault(members, "wanted_by", "must be 1 to 64 letters, digits, - or _")
    return story


def _state(members: Members) -> KeptState:
    state = _required(members.string("state"), members, "state")
    allowed = get_args(KeptState)
    if state not in allowed:
        raise _fault(members, "state", f"must be one of {', '.join(allowed)}")
    return state  # type: ignore[return-value]  # one of KeptState's, checked just above


def _copies(members: Members) -> tuple[KeptCopy, ...] | None:
    found = members.array("copies", max_items=_MOST_COPIES)
    if found is None:
        return None
    copies = []
    for index, raw in enumerate(found):
        copy = _members(raw, members.field(f"copies.{index}"), frozenset(KeptCopy._fields))
        name = _required(copy.string("name"), copy, "name")
        if not _SHA256.fullmatch(name):
            raise _fault(copy, "name", "must be a SHA-256 (64 lowercase hex digits)")
        media_type = _required(copy.string("media_type"), copy, "media_type")
        copies.append(
            KeptCopy(
                name,
                media_type,
                _whole(copy, "width", minimum=1),
                _whole(copy, "height", minimum=1),
            )
        )
    return tuple(copies)


def _members(raw: object, path: str, known: frozenset[str]) -> Members:
    """The members of an object; one not ``known`` is refused (a lease among them)."""
    data = decode_object(raw, path)
    unknown = next((key for key in data if key not in known), None)
    if unknown is not None:
        field = f"{path}.{unknown}"
        hint = " (an export leaves a lease behind)" if unknown in LEASE_MEMBERS else ""
        raise InvalidParameter(f"{field} is not a member of an exported {path}{hint}", field=field)
    return Members(data, path)


def _required(value: str | None, members: Members, key: str) -> str:
    if value is None:
        raise InvalidParameter(f"{members.field(key)} is required", field=members.field(key))
    return value


def _whole(members: Members, key: str, *, minimum: int) -> int:
    value = members.integer(key, minimum=minimum, maximum=STORE_INT_MAX)
    if value is None:
        raise InvalidParameter(f"{members.field(key)} is required", field=members.field(key))
    return value


def _fault(members: Members, key: str, what: str) -> InvalidParameter:
    return InvalidParameter(f"{members.field(key)} {what}", field=members.field(key))
