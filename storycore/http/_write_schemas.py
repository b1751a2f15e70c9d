"""The JSON Schemas of what a client writes: the ``story`` of create, save and publish, its
element objects, and the ``user`` of a profile update (docs/api.md#stories, docs/api.md#elements,
docs/api.md#limits, docs/api.md).

The element schemas are read from the classes that validate an element (``element_kinds``):
each member's type (``member_types``) has its schema here, and which members must be sent
follows from the classes, so a new kind or member shows in the document (or fails to build
it, when its type has no schema yet). An element object without ``type``
(docs/api.md#calls-and-answers)
is one of ``UNTYPED``'s branches, made from the same components: told by its data (the first
of ``DATA_TYPES`` its ``data`` holds), or by its permalink. Story and user members are declared
by kind (``drafts.STORY_WRITE``, ``members.PROFILE_WRITE``), which their readers read by: each
kind has its schema here, under the ``Limits`` (``member_schema``, which also states the members
of a webhook registration, ``webhooks.webhook_write``, as the routes' parameters).
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Mapping
from typing import Any

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from ..input import member_types as members
from ..input.declared import (
    MAX_LABEL_LENGTH,
    MAX_LABELS,
    Address,
    Elements,
    EventTypes,
    Flag,
    Kind,
    Labels,
    Slug,
    Text,
    WebhookAddress,
)
from ..model.drafts import STORY_MEMBERS, STORY_WRITE, STORY_WRITE_MEMBERS
from ..model.element_kinds import DATA_TYPES, ELEMENT_CLASSES
from ..model.members import ELEMENT_MEMBERS, PROFILE_WRITE, USER_MEMBERS, USER_WRITE_MEMBERS
from ..settings import Limits
from . import _schema_rules as rules
from .routing import Schema

__all__ = ["ELEMENT", "STORY", "UNTYPED", "USER", "member_schema", "write_schemas"]

#: The component names of the written shapes.
STORY, ELEMENT, UNTYPED, USER = "StoryWrite", "ElementWrite", "UntypedElementWrite", "UserWrite"

_Builder = Callable[[Limits], Schema]

# the schema of each member type; ``null`` counts as not sent wherever a member has a default
_MEMBER_SCHEMAS: tuple[tuple[object, _Builder], ...] = (
    (members.ShortText, lambda _: rules.text(max_length=members.SHORT_TEXT, nullable=True)),
    (members.LongText, lambda limits: rules.text(max_length=limits.text_element, nullable=True)),
    (members.Html, lambda limits: rules.text(max_length=limits.text_element, nullable=True)),
    (members.Address, lambda limits: rules.optional_address(limits.address)),
    (members.OptionalAddress, lambda limits: rules.optional_address(limits.address)),
    (members.RequiredAddress, lambda limits: rules.address(limits.address)),
    (
        members.Size,
        lambda _: {"type": ["integer", "null"], "minimum": 0, "maximum": members.MAX_SIZE},
    ),
    (members.Timestamp, lambda _: rules.timestamp(nullable=True)),
    (members.OptionalTimestamp, lambda _: rules.timestamp(nullable=True)),
    (
        members.ElementId,
        lambda _: {"type": ["string", "null"], "pattern": "^[A-Za-z0-9_-]{0,32}$"},
    ),
)


# the metadata of the object member types, which take the type of what they hold
_OBJECT = typing.get_args(members.Object)[1:]
_OPTIONAL_OBJECT = typing.get_args(members.OptionalObject)[1:]


def _component(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


class _Walker:
    """Builds the schemas of element classes and what they hold, as named components."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.components: dict[str, Schema] = {}

    def member(self, hint: Any) -> tuple[Schema, bool]:
        """The schema of a member typed ``hint``, and whether it must be sent because the
        value it takes when left out (an empty object) would be refused."""
        metadata = getattr(hint, "__metadata__", None)
        if (
            metadata == typing.get_args(members.Object)[1:]
            or metadata == members.Object.__metadata__
        ):
            inner = self.shape(typing.get_args(hint)[0])
            needed = bool(self.components[inner]["required"])
            schema = _component(inner)
            return (schema, True) if needed else ({"oneOf": [schema, {"type": "null"}]}, False)
        if metadata == _OPTIONAL_OBJECT:
            (optional,) = (
                a for a in typing.get_args(typing.get_args(hint)[0]) if a is not type(None)
            )
            return {"oneOf": [_component(self.shape(optional)), {"type": "null"}]}, False
        if typing.get_origin(hint) is typing.Literal:
            (value,) = typing.get_args(hint)
            return {"type": "string", "const": value}, True
        for alias, build in _MEMBER_SCHEMAS:
            if hint == alias:
                return build(self.limits), False
        raise TypeError(f"no schema for the member type {hint!r}")

    def shape(self, kind: type) -> str:
        """The component name of an element class or a ``TypedDict`` it holds, built once."""
        name = f"{kind.__name__}Write"
        if name in self.components:
            return name
        self.components[name] = {}  # taken before the members, which may name it again
        hints = typing.get_type_hints(kind, include_extras=True)
        properties: dict[str, Schema] = {}
        required: list[str] = []
        for key, hint in hints.items():
            schema, needed = self.member(hint)
            properties[key] = schema
            if needed or _without_default(kind, key, hint):
                required.append(key)
        component: Schema = {
            "type": "object",
            "description": (kind.__doc__ or "").strip().splitlines()[0].replace("``", "`"),
            "properties": properties,
            "required": required,
        }
        # an element's own members are closed (docs/decisions.md)
        if kind in ELEMENT_CLASSES.values():
            component["properties"] = {**properties, **_read_back(ELEMENT_MEMBERS - {*hints})}
            component["additionalProperties"] = False
        self.components[name] = component
        return name


def _read_back(names: set[str] | frozenset[str]) -> dict[str, Schema]:
    """Members a client may send back as it read them, which a write ignores."""
    ignored = {"description": "as read: accepted and ignored"}
    return {name: dict(ignored) for name in sorted(names)}


def _without_default(kind: type, key: str, hint: Any) -> bool:
    """Whether the member ``key`` of ``kind`` has no value of its own when it is not sent."""
    if isinstance(kind, type) and issubclass(kind, BaseModel):
        return kind.model_fields[key].is_required()
    return not any(
        isinstance(item, FieldInfo) and not item.is_required()
        for item in getattr(hint, "__metadata__", ())
    )


def _elements(walker: _Walker) -> Schema:
    """The union of the element kinds, told apart by ``type``."""
    kinds = {kind: walker.shape(cls) for kind, cls in ELEMENT_CLASSES.items()}
    return {
        "description": "An element object (docs/api.md#elements), told apart by `type`.",
        "oneOf": [_component(name) for name in kinds.values()],
        "discriminator": {
            "propertyName": "type",
            "mapping": {kind: f"#/components/schemas/{name}" for kind, name in kinds.items()},
        },
    }


def _not_null(schema: Schema) -> Schema:
    """``schema`` without ``null``, which a member's schema takes as "not sent"."""
    kinds = schema.get("type")
    if isinstance(kinds, list) and "null" in kinds:
        rest = [kind for kind in kinds if kind != "null"]
        return {**schema, "type": rest[0] if len(rest) == 1 else rest}
    branches = schema.get("oneOf")
    if isinstance(branches, list):
        rest = [branch for branch in branches if branch != {"type": "null"}]
        return rest[0] if len(rest) == 1 else {**schema, "oneOf": rest}
    return schema


def _untyped(walker: _Walker) -> Schema:
    """Element objects without ``type`` (or with a null one), by what tells their type: the
    first of ``DATA_TYPES`` their ``data`` holds (not null), read as that kind's element; else
    a permalink, read as a permalink string with the element's own members laid over it
    (``storycore.model._typeless``). The branches exclude each other."""
    components = walker.components
    absent: Schema = {"type": "null"}  # a member left out, or sent as null
    branches: list[Schema] = []
    for index, kind in enumerate(DATA_TYPES):
        element = components[walker.shape(ELEMENT_CLASSES[kind])]
        data_name = _component_name(_not_null(element["properties"]["data"]))
        data = components[data_name]
        told = f"{kind.title()}DataTold"
        components[told] = {
            **data,
            "description": f"`data` telling the type `{kind}`: it holds `{kind}`, not null"
            + (f", and no {', '.join(DATA_TYPES[:index])}" if index else ""),
            "properties": {
                **data["properties"],
                kind: _not_null(data["properties"][kind]),
                **dict.fromkeys(DATA_TYPES[:index], absent),
            },
            "required": sorted({*data["required"], kind}),
        }
        name = f"{kind.title()}ElementTold"
        components[name] = {
            **element,
            "description": f"An element without `type`, a `{kind}` by its `data`.",
            "properties": {**element["properties"], "type": absent, "data": _component(told)},
            "required": sorted({*element["required"], "data"} - {"type"}),
        }
        branches.append(_component(name))
    other = components[walker.shape(ELEMENT_CLASSES["other"])]
    tells_nothing = {"type": "object", "properties": dict.fromkeys(DATA_TYPES, absent)}
    components["PermalinkElementTold"] = {
        **other,
        "description": "An element without `type` whose data tells none: typed by its "
        "permalink, as a permalink string is.",
        "properties": {
            **other["properties"],
            "type": absent,
            "permalink": rules.address(walker.limits.address),
            "data": {"oneOf": [absent, tells_nothing]},
        },
        "required": ["permalink"],
    }
    branches.append(_component("PermalinkElementTold"))
    return {
        "description": "An element object without `type` (docs/api.md#calls-and-answers): its "
        "`data` (`text`, `quote`, `image`, `video`, `link`, the first it holds) or else its "
        "`permalink` tells it.",
        "oneOf": branches,
    }


def _component_name(reference: Schema) -> str:
    return str(reference["$ref"]).rsplit("/", 1)[1]


def member_schema(kind: Kind, limits: Limits) -> Schema:
    """The schema of a member of kind ``kind`` (``storycore.input.declared``) under ``limits``."""
    if isinstance(kind, Text):
        return rules.text(max_length=kind.limit(limits), nullable=kind.nullable)
    if isinstance(kind, Address):
        return rules.optional_address(limits.address, nullable=kind.nullable)
    if isinstance(kind, Slug):
        return {"anyOf": [rules.slug(limits.slug), {"const": ""}]}
    if isinstance(kind, Flag):
        return {"type": "boolean"}
    if isinstance(kind, Labels):
        item = rules.words(max_length=MAX_LABEL_LENGTH)
        labels: Schema = {"type": "array", "maxItems": MAX_LABELS, "items": item}
        return {**labels, "description": kind.description} if kind.description else labels
    if isinstance(kind, Elements):
        element_or_permalink = {
            "oneOf": [rules.address(limits.address), _component(ELEMENT), _component(UNTYPED)]
        }
        items: Schema = {
            "type": "array",
            "maxItems": kind.limit(limits),
            "items": element_or_permalink,
        }
        return {**items, "description": kind.description} if kind.description else items
    if isinstance(kind, WebhookAddress):
        return rules.webhook_address(limits.address, kind.allowed_hosts)
    if isinstance(kind, EventTypes):
        names = [*kind.types, kind.every]
        return {
            "oneOf": [
                {"type": "array", "items": {"type": "string", "enum": names}, "minItems": 1},
                rules.word_list(*names, exact=True, empty=True),
            ]
        }
    raise TypeError(f"no schema for the member kind {kind!r}")


def _story(limits: Limits) -> Schema:
    return {
        "type": "object",
        "description": (
            "The members of a story a write sets (docs/api.md#stories, docs/api.md): a member left "
            "out keeps its value at save. The members of a story as read may be sent back and "
            "are ignored; any other member is a 400 naming it (docs/decisions.md). An empty "
            "`slug` counts as left out (at create, the slug is derived from the title); "
            "`description` or `thumbnail` sent as null go back to none. Element ids are unique "
            "in a story."
        ),
        "properties": {
            **{name: member_schema(kind, limits) for name, kind in STORY_WRITE.items()},
            **_read_back(STORY_MEMBERS - set(STORY_WRITE_MEMBERS)),
        },
        "additionalProperties": False,
    }


def _user(limits: Limits) -> Schema:
    return {
        "type": "object",
        "description": (
            "The profile members an update applies (docs/api.md); a member left out or "
            "null keeps its value. `username`, when sent, must be the path's (in any case); "
            "`email`, `password` and the other members of a profile as read are ignored; any "
            "other member is a 400 naming it (docs/decisions.md)."
        ),
        "properties": {
            **{name: member_schema(kind, limits) for name, kind in PROFILE_WRITE.items()},
            **_read_back(USER_MEMBERS - USER_WRITE_MEMBERS - {"username"}),
        },
        "additionalProperties": False,
    }


def write_schemas(limits: Limits) -> Mapping[str, Schema]:
    """The component schemas of the written shapes under ``limits``."""
    walker = _Walker(limits)
    elements = _elements(walker)
    untyped = _untyped(walker)
    return {
        STORY: _story(limits),
        ELEMENT: elements,
        UNTYPED: untyped,
        **walker.components,
        USER: _user(limits),
    }
