"""Request parameters (decisions section 1): from the query string and the body.

Bodies may be ``application/x-www-form-urlencoded`` or ``application/json``; parameters are also
read from the query string, and the body wins on a conflict. Booleans are
``true/false/1/0/yes/no`` in any case; anything else is a 400.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qsl

import orjson

from ..errors import InvalidParameter
from ..rules.numbers import whole_number
from ..rules.text import check_text
from .messages import HttpRequest

__all__ = ["Params"]

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

    def raw(self, name: str) -> Any:
        """The value as received (a string, or any JSON value from a JSON body), or None."""
        return self.values.get(name)

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

    def integer(self, name: str, *, minimum: int = 1) -> int | None:
        """A whole-number parameter (``storycore.rules.numbers``), or None when absent."""
        value = self.values.get(name)
        if value is None or value == "":
            return None
        return whole_number(value, name, minimum=minimum)
