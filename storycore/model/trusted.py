"""Models built from data that was validated before: rows read back from storage, and shapes
computed from them. Validating such data again on every read would only cost time.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any, TypeVar

from pydantic import BaseModel

__all__ = ["construct_trusted", "filled"]

M = TypeVar("M", bound=BaseModel)

# what ``model_construct`` does underneath; BaseModel overrides ``__setattr__``
_new = object.__new__
_set = object.__setattr__


@cache
def _defaults(model: type[BaseModel]) -> tuple[int, tuple[tuple[str, Callable[[], Any]], ...]]:
    """How many fields ``model`` has, and each field that has a default with a function
    making it."""
    made: list[tuple[str, Callable[[], Any]]] = []
    for name, field in model.model_fields.items():
        if field.default_factory is not None:
            made.append((name, field.default_factory))  # type: ignore[arg-type]
        elif not field.is_required():
            default = field.default
            made.append((name, lambda value=default: value))  # type: ignore[misc]
    return len(model.model_fields), tuple(made)


def filled(model: type[BaseModel], data: dict[str, Any]) -> dict[str, Any]:
    """``data`` (keyed by field names) with each member it lacks set to ``model``'s default, in
    field order after its own: the members a ``model`` made of it holds, in the order it holds
    them. ``data`` is changed and returned."""
    fields, defaults = _defaults(model)
    if len(data) != fields:  # some member left to its default
        for name, make in defaults:
            if name not in data:
                data[name] = make()
    return data


def construct_trusted(model: type[M], data: dict[str, Any]) -> M:
    """``model.model_construct(**data)`` for data keyed by field names, without its per-call
    overhead (it walks every alias and inspects each default factory's signature on each call).
    ``data`` becomes the instance's own: the caller hands it over.
    """
    given = set(data)
    instance = _new(model)
    _set(instance, "__dict__", filled(model, data))
    _set(instance, "__pydantic_fields_set__", given)
    _set(instance, "__pydantic_extra__", None)
    _set(instance, "__pydantic_private__", None)
    return instance
