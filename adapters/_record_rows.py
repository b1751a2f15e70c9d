"""How the SQL adapters (SQLite and PostgreSQL) lay users and applications out: each record as
JSON in ``record``, beside the columns its lookups and unique keys read. One layout, so both
adapters load, look up and show profiles the same way; each adds its own search column.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import orjson

from storycore.heads import ProfileFields
from storycore.records import AppRecord, UserRecord, trusted_user
from storycore.usernames import username_key

__all__ = ["app_row", "load_app", "load_user", "profiles_of", "user_row"]


def user_row(user: UserRecord) -> dict[str, Any]:
    """A user's row but for its search column: ``username_key`` makes usernames unique
    regardless of case."""
    return {
        "id": user.id,
        "username_key": username_key(user.username),
        "record": user.model_dump_json(),
    }


def app_row(record: AppRecord) -> dict[str, Any]:
    """An application's row: found by id, name or the digest of its api key."""
    return {
        "id": record.id,
        "name": record.name,
        "key_digest": record.key_digest,
        "record": record.model_dump_json(),
    }


def load_user(record: str) -> UserRecord:
    """The user a stored ``record`` holds, as written (it was validated then)."""
    return trusted_user(orjson.loads(record))


def load_app(record: str) -> AppRecord:
    """The application a stored ``record`` holds."""
    return AppRecord.model_validate_json(record)


def profiles_of(rows: Iterable[tuple[str, str]]) -> dict[str, ProfileFields]:
    """The profiles of ``(id, record)`` rows, read from the JSON without making a model: one
    orjson parse of a small record costs less than extracting each member in SQL."""
    fields = ProfileFields._fields
    return {
        user_id: ProfileFields._make(map(orjson.loads(record).__getitem__, fields))
        for user_id, record in rows
    }
