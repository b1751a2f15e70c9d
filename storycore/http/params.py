"""Request parameters (docs/api.md#calls-and-answers): from the query string and the body.

Bodies may be ``application/x-www-form-urlencoded`` or ``application/json``; parameters are also
read from the query string, and the body wins on a conflict. Booleans are
``true/false/1/0/yes/no`` in any case; anything else is a 400.

A route declares how each of its parameters is read (``Read``); ``reader`` turns that
declaration into the function that reads it, once per route, not on every request.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import parse_qsl

import orjson

from ..errors import InvalidParameter
from ..rules.numbers import whole_number
from ..rules.schedule import UNCHANGED, Unchanged
from ..rules.text import check_text
from .messages import HttpRequest

__all__ = ["Params", "Read", "Reader", "reader"]

_TRUE = frozenset({"true", "1", "yes"})
_FALSE = frozenset({"false", "0", "no"})
MAX_FIELDS = 200


def _form(data: bytes, where: str) -> dict[str, str]:
    try:
        pairs = parse_qsl(
            data.decode("utf-8"),
            keep_blank_values=True,
            errors="strict",
            max_num_fields=MAX_FIELDS,
        )
    except UnicodeDecodeError:
        raise InvalidParameter(f"the {where} is not valid UTF-8", field=None) from None
    except ValueError:
        raise InvalidParameter(f"the {where} has too many fields", field=None) from None
    return dict(pairs)


def _json(data: bytes) -> dict[str, Any]:
    try:
        parsed = orjson.loads(data)
    except orjson.JSONDecodeError:
        raise InvalidParameter("the body is not valid JSON") from None
    if not isinstance(parsed, dict):
        raise InvalidParameter("a JSON body must be an object")
    return parsed


class Params:
    """The parameters of one request, typed on access; every fault names its ``field``."""

    def __init__(self, values: Mapping[str, Any]) -> None:
        self.values = values

    @classmethod
    def of(cls, request: HttpRequest) -> Params:
        """Query parameters overlaid with body parameters."""
        values: dict[str, Any] = _form(request.query_string, "query string")
        if request.body:
            media = (request.header("content-type") or "").split(";")[0].strip().lower()
            if media == "application/json":
                values.update(_json(request.body))
            elif media in ("application/x-www-form-urlencoded", ""):
                values.update(_form(request.body, "body"))
            else:
                raise InvalidParameter(
                    "send the body as application/x-www-form-urlencoded or application/json"
                )
        return cls(values)

    def raw(self, name: str, *, required: bool = False) -> Any:
        """The value as received (a string, or any JSON value from a JSON body), or None."""
        value = self.values.get(name)
        if value is None and required:
            raise InvalidParameter(f"{name} is required", field=name)
        return value

    def text(self, name: str, *, required: bool = False) -> str | None:
        """A string parameter; numbers and booleans of a JSON body are refused."""
        value = self.values.get(name)
        if value is None:
            if required:
                raise InvalidParameter(f"{name} is required", field=name)
            return None
        if not isinstance(value, str):
            raise InvalidParameter(f"{name} must be a string", field=name)
        return check_text(value, name)

    def credential(self, name: str) -> str | None:
        """A credential (``api_key``, ``username``, ``_token``) as sent. Any text is taken as
        it is: one that holds what no credential holds (a control character) is a wrong
        credential, a 401 where it is checked, not a malformed parameter."""
        value = self.values.get(name)
        if value is not None and not isinstance(value, str):
            raise InvalidParameter(f"{name} must be a string", field=name)
        return value

    def page(self, name: str) -> int | str | None:
        """A page number or size as received (checked by the pagination rule)."""
        value = self.values.get(name)
        if value is None or (isinstance(value, int | str) and not isinstance(value, bool)):
            return value
        raise InvalidParameter(f"{name} must be an integer", field=name)

    def boolean(self, name: str, default: bool) -> bool:
        """A boolean parameter: ``true/false/1/0/yes/no`` in any case, or a JSON boolean."""
        value = self.values.get(name)
        if value is None:
            return default
        if isinstance(value, bool):
            return value
        if isinstance(value, str):
            lowered = value.strip().lower()
            if lowered in _TRUE:
                return True
            if lowered in _FALSE:
                return False
        raise InvalidParameter(f"{name} must be true, false, 1, 0, yes or no", field=name)

    def schedule(self, name: str) -> str | Unchanged | None:
        """A time to publish at (checked by the operation), None to cancel one (``null`` or
        empty), ``UNCHANGED`` when not sent (docs/api.md#scheduled-publishing)."""
        if name not in self.values:
            return UNCHANGED
        value = self.values[name]
        if value is None or value == "":
            return None
        if not isinstance(value, str):
            raise InvalidParameter(f"{name} must be a time or null", field=name)
        return check_text(value, name)

    def integer(self, name: str, *, minimum: int = 1) -> int | None:
        """A whole-number parameter (``storycore.rules.numbers``), or None when absent."""
        value = self.values.get(name)
        if value is None or value == "":
            return None
        return whole_number(value, name, minimum=minimum)


class Read(enum.Enum):
    """How a declared parameter is read, and so what its operation receives."""

    #: a string (``Params.text``), or None
    TEXT = "text"
    #: a page number or size as received, for the pagination rule (``Params.page``)
    PAGE = "page"
    #: ``true/false/1/0/yes/no`` or a JSON boolean (``Params.boolean``), else its default
    BOOLEAN = "boolean"
    #: a whole number (``Params.integer``), or None
    INTEGER = "integer"
    #: as received (``Params.raw``): a JSON object, or its serialized JSON, for the operation
    OBJECT = "object"
    #: a time, or None for null or empty (a cancellation), or ``UNCHANGED`` when not sent
    SCHEDULE = "schedule"


#: reads one declared parameter of a request
Reader = Callable[[Params], Any]


def reader(read: Read, name: str, *, required: bool, default: bool) -> Reader:
    """The function that reads the parameter ``name`` as ``read`` says, made once for its
    route. A ``required`` one sent absent is refused naming it; ``default`` is a boolean's
    value when it is absent."""
    if read is Read.TEXT:
        return lambda params: params.text(name, required=required)
    if read is Read.PAGE:
        return lambda params: params.page(name)
    if read is Read.BOOLEAN:
        return lambda params: params.boolean(name, default)
    if read is Read.INTEGER:
        return lambda params: params.integer(name)
    if read is Read.SCHEDULE:
        return lambda params: params.schedule(name)
    return lambda params: params.raw(name, required=required)
