"""Reading client JSON members by type, so that every fault names its field.

A member sent as ``null`` counts as not sent, so a client may send back what it read.

A member of the wrong type is a 400 ``invalid_parameter``, never ignored (docs/api.md);
``field`` is the dotted path to it: ``story.title``, ``story.elements.3.permalink``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, overload

import orjson

from ..errors import InvalidParameter
from ..rules.addresses import validate_url
from ..rules.numbers import whole_number
from ..rules.text import check_text
from ..rules.timestamps import parse_timestamp

__all__ = ["Members", "decode_object"]

_MISSING = object()


def decode_object(raw: object, field: str) -> Mapping[str, Any]:
    """``raw`` as a JSON object: a mapping as it is, or a string holding serialized JSON."""
    if isinstance(raw, str | bytes):
        try:
            raw = orjson.loads(raw)
        except orjson.JSONDecodeError:
            raise InvalidParameter(f"{field} is not valid JSON", field=field) from None
    if not isinstance(raw, Mapping):
        raise InvalidParameter(f"{field} must be a JSON object", field=field)
    return raw


class Members:
    """Typed access to the members of one JSON object at ``path``."""

    def __init__(self, data: Mapping[str, Any], path: str) -> None:
        self.data = data
        self.path = path

    def field(self, key: str | int) -> str:
        """The dotted path of a member."""
        return f"{self.path}.{key}" if self.path else str(key)

    def has(self, key: str) -> bool:
        """Whether the member was sent (a null member counts as not sent)."""
        return self.data.get(key) is not None

    def _get(self, key: str, required: bool) -> Any:
        value = self.data.get(key)
        if value is None:
            value = _MISSING
        if value is _MISSING and required:
            raise InvalidParameter(f"{self.field(key)} is required", field=self.field(key))
        return value

    def string(
        self, key: str, *, max_length: int | None = None, required: bool = False
    ) -> str | None:
        """A string member, or None when absent; ``max_length`` counts characters received."""
        value = self._get(key, required)
        if value is _MISSING:
            return None
        if not isinstance(value, str):
            raise InvalidParameter(f"{self.field(key)} must be a string", field=self.field(key))
        if max_length is not None and len(value) > max_length:
            raise InvalidParameter(
                f"{self.field(key)} is longer than the limit of {max_length} characters",
                field=self.field(key),
            )
        return check_text(value, self.field(key))

    def url(self, key: str, *, max_length: int, required: bool = False) -> str | None:
        """An http(s) address member, ``""`` allowed when not required; None when absent."""
        value = self._get(key, required)
        if value is _MISSING:
            return None
        return validate_url(value, self.field(key), max_length, allow_empty=not required)

    @overload
    def timestamp(self, key: str, *, required: Literal[True]) -> str: ...

    @overload
    def timestamp(self, key: str, *, required: bool = False) -> str | None: ...

    def timestamp(self, key: str, *, required: bool = False) -> str | None:
        """An ISO 8601 timestamp member with a time zone, normalized to the interface's form
        (docs/api.md#stories); None when absent and not required.
        """
        text = self.string(key, required=required)
        if text is None:
            return None
        normalized = parse_timestamp(text)
        if normalized is None:
            raise InvalidParameter(
                f"{self.field(key)} must be an ISO 8601 timestamp with a time zone",
                field=self.field(key),
            )
        return normalized

    def boolean(self, key: str) -> bool | None:
        """A boolean member (JSON true or false only), or None when absent."""
        value = self._get(key, False)
        if value is _MISSING:
            return None
        if not isinstance(value, bool):
            raise InvalidParameter(
                f"{self.field(key)} must be true or false", field=self.field(key)
            )
        return value

    def integer(self, key: str, *, minimum: int = 0, maximum: int = 2**31) -> int | None:
        """A whole-number member within bounds, or None when absent."""
        value = self._get(key, False)
        if value is _MISSING:
            return None
        return whole_number(value, self.field(key), minimum=minimum, maximum=maximum, text=False)

    def strings(self, key: str, *, max_items: int, max_length: int) -> list[str] | None:
        """A list of non-blank strings, or None when absent."""
        value = self._get(key, False)
        if value is _MISSING:
            return None
        if not isinstance(value, list):
            raise InvalidParameter(f"{self.field(key)} must be an array", field=self.field(key))
        if len(value) > max_items:
            raise InvalidParameter(
                f"{self.field(key)} has more than the limit of {max_items} items",
                field=self.field(key),
            )
        result = []
        for index, item in enumerate(value):
            where = f"{self.field(key)}.{index}"
            if not isinstance(item, str) or not item.strip():
                raise InvalidParameter(f"{where} must be a non-blank string", field=where)
            if len(item) > max_length:
                raise InvalidParameter(
                    f"{where} is longer than the limit of {max_length} characters", field=where
                )
            result.append(check_text(item.strip(), where))
        return result

    def array(self, key: str, *, max_items: int) -> list[Any] | None:
        """A JSON array member, or None when absent."""
        value = self._get(key, False)
        if value is _MISSING:
            return None
        if not isinstance(value, list):
            raise InvalidParameter(f"{self.field(key)} must be an array", field=self.field(key))
        if len(value) > max_items:
            raise InvalidParameter(
                f"{self.field(key)} has more than the limit of {max_items} items",
                field=self.field(key),
            )
        return value

    def object(self, key: str, *, required: bool = False) -> Members | None:
        """A JSON object member, as ``Members``, or None when absent."""
        value = self._get(key, required)
        if value is _MISSING:
            return None
        if not isinstance(value, Mapping):
            raise InvalidParameter(f"{self.field(key)} must be an object", field=self.field(key))
        return Members(value, self.field(key))
