"""Shapes as documents: an answer's JSON-ready data, keyed by the interface's names.

The presenter writes each shape of a list or a search once, as a document
(``storycore.presentation.presenters``). The HTTP layer writes documents as they are, with
orjson and ``record_json``, rather than building a model for every nested object and having
pydantic write them again; the Python API's models are made from the same documents by
``shape_of``, so what a model holds and what the wire carries cannot differ.

A document's keys are in its shape's field order (the order pydantic writes them), and it leaves
out what its shape leaves out of JSON (``kept`` while nothing is kept). A member a document
takes from a record as it is (a story's ``meta.quoted``, a user's ``settings``) is the record
model itself: ``record_json`` writes it as pydantic does.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from functools import cache
from typing import Annotated, Any, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel

from .trusted import construct_trusted

__all__ = ["Document", "as_document", "record_json", "shape_of"]

#: A shape as JSON-ready data: ``orjson.dumps(document, default=record_json)`` is its JSON.
Document = dict[str, Any]

M = TypeVar("M", bound=BaseModel)

_Convert = Callable[[Any], Any]


def _model(annotation: Any) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    return None


def _converter(annotation: Any) -> _Convert | None:
    """What makes a field's value from a document's member: None where the member is the value
    (plain data, or a union of models, which a document holds as models already)."""
    origin = get_origin(annotation)
    if origin is Annotated:
        return _converter(get_args(annotation)[0])
    if origin is Union or origin is types.UnionType:
        parts = [
            part
            for part in get_args(annotation)
            if (get_args(part)[0] if get_origin(part) is Annotated else part) is not type(None)
        ]
        if len(parts) != 1:
            return None
        inner = _converter(parts[0])
        if inner is None:
            return None
        return lambda value: None if value is None else inner(value)
    model = _model(annotation)
    if model is not None:
        return lambda value: value if isinstance(value, BaseModel) else shape_of(model, value)
    arguments = get_args(annotation)
    if origin is list and arguments and _model(arguments[0]) is not None:
        item = _converter(arguments[0])
        assert item is not None
        return lambda value: [item(member) for member in value]
    if origin is dict and len(arguments) == 2 and _model(arguments[1]) is not None:
        entry = _converter(arguments[1])
        assert entry is not None
        return lambda value: {key: entry(member) for key, member in value.items()}
    return None


@cache
def _plan(model: type[BaseModel]) -> tuple[tuple[str, str, _Convert | None], ...]:
    """Each field of ``model``: its key in a document, its name, and what converts it."""
    return tuple(
        (field.alias or name, name, _converter(field.annotation))
        for name, field in model.model_fields.items()
    )


def shape_of(model: type[M], document: Document) -> M:
    """The ``model`` a document describes, without validating it again: documents are made by
    the presenter from stored records, which were validated when they were written. Nested
    shapes are made likewise; members left out take their defaults."""
    data: dict[str, Any] = {}
    for key, name, convert in _plan(model):
        if key in document:
            value = document[key]
            data[name] = value if convert is None else convert(value)
    return construct_trusted(model, data)


def as_document(document: Document) -> Document:
    """A document kept as it is: the shaping of a catalog whose items are documents."""
    return document


@cache
def _aliases(model: type[BaseModel]) -> dict[str, str] | None:
    """The JSON name of each field of ``model`` that has one; None when none has."""
    aliases = {name: field.alias for name, field in model.model_fields.items() if field.alias}
    return aliases or None


def record_json(value: Any) -> Any:
    """orjson's ``default`` for a document: a model it holds (a record's member taken as it
    is) as pydantic writes it, its members in the order it holds them, under their JSON
    names."""
    if not isinstance(value, BaseModel):
        raise TypeError(f"{type(value).__name__} is not JSON serializable")
    members = value.__dict__
    aliases = _aliases(type(value))
    if aliases is None:
        return members
    return {aliases.get(name, name): member for name, member in members.items()}
