"""The member rules of ``fields.Members`` as pydantic types, so that a model is validated the
way the service reads a client's JSON (docs/api.md).

Validated with the client's context (``client_context``), each type reads its value as
``Members`` reads a member: ``null`` counts as not sent and takes the member's default, a value
of the wrong type is refused, text holds no control character and keeps to its length limit
(``Limits``), addresses are http(s) (docs/api.md#elements). A fault becomes a pydantic error
that names no field, worded by ``Members`` itself; pydantic knows where it was found, and
``fault`` turns the first one into the ``InvalidParameter`` a caller reads, its field the
dotted path to it.

A model built in code, with no context, takes its values as given (pydantic still checks their
types) and the defaults of what it leaves out: the client's rules are for what a client sends,
and what code builds from checked values (a resolver's element) is the code's to get right.

A type that ``TypedDict`` members use carries the member's default (a ``TypedDict`` member has
no other place for one); a model field says its default by assignment too, which is what type
checkers read.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Annotated, Any, Final, TypeVar

from pydantic import AfterValidator, BeforeValidator, Field, ValidationInfo
from pydantic_core import ErrorDetails, PydanticCustomError

from ..errors import InvalidParameter
from ..rules.sanitize import sanitize_html
from ..settings import Limits
from .fields import Members

__all__ = [
    "Address",
    "ElementId",
    "Html",
    "LongText",
    "Object",
    "OptionalAddress",
    "OptionalObject",
    "OptionalTimestamp",
    "RequiredAddress",
    "ShortText",
    "Size",
    "Timestamp",
    "client_context",
    "fault",
]

T = TypeVar("T")

SHORT_TEXT: Final = 2000  # names, titles, captions, descriptions
MAX_SIZE: Final = 100_000  # an image's width or height
_ELEMENT_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")  # with fullmatch: ``$`` takes a final newline
_SELF = "\x00"  # the name a value is read under; no message holds it otherwise
_RULE = "invalid_parameter"

_Reader = Callable[[Members, str, Limits], Any]


def client_context(limits: Limits) -> dict[str, Any]:
    """The validation context of a client's members, bounded by ``limits``."""
    return {"limits": limits}


def fault(error: ErrorDetails, path: str) -> InvalidParameter:
    """``error`` as the caller's 400, naming the dotted path from ``path`` to where it was found."""
    field = ".".join([path, *(str(part) for part in error["loc"])])
    if error["type"] == _RULE:
        return InvalidParameter(f"{field} {error['ctx']['rule']}", field=field)
    if error["type"] == "missing":  # a member without a default, not sent
        return InvalidParameter(f"{field} is required", field=field)  # as ``Members`` says it
    return InvalidParameter(f"{field}: {error['msg']}", field=field)  # a rule no type here holds


def _refused(rule: str) -> PydanticCustomError:
    """The pydantic error of a broken member rule: ``rule`` says what the member must be."""
    return PydanticCustomError(_RULE, "{rule}", {"rule": rule})


def _member(read: _Reader, default: Any = None) -> BeforeValidator:
    """A validator reading a client's value with ``read`` (given ``Members`` holding the value,
    the value's name in it and the limits); ``default`` when it reads as not sent."""

    def validate(value: Any, info: ValidationInfo) -> Any:
        if value is None and default is not None:  # not sent, with a default
            return default
        context = info.context
        if not context:  # built in code
            return value
        try:
            found = read(Members({_SELF: value}, ""), _SELF, context["limits"])
        except InvalidParameter as exc:
            raise _refused(exc.message.removeprefix(f"{_SELF} ")) from None
        return default if found is None else found

    return BeforeValidator(validate)


def _element_id(members: Members, key: str, limits: Limits) -> str | None:
    element_id = members.string(key)
    if element_id and not _ELEMENT_ID.fullmatch(element_id):
        raise _refused("must be 1 to 32 letters, digits, - or _")
    return element_id


def _object(members: Members, key: str, limits: Limits) -> Mapping[str, Any] | None:
    found = members.object(key)
    return None if found is None else found.data


#: Plain text of up to 2,000 characters (names, titles, captions); ``""`` when not sent.
ShortText = Annotated[
    str, _member(lambda m, k, _: m.string(k, max_length=SHORT_TEXT), ""), Field(default="")
]
#: Plain text of up to ``Limits.text_element`` characters (a quote); ``""`` when not sent.
LongText = Annotated[
    str,
    _member(lambda m, k, limits: m.string(k, max_length=limits.text_element), ""),
    Field(default=""),
]
#: Text-element HTML: a ``LongText`` (its limit counts what was received), then sanitized.
Html = Annotated[LongText, AfterValidator(sanitize_html)]
#: An http(s) address, or ``""`` (also when not sent).
Address = Annotated[
    str, _member(lambda m, k, limits: m.url(k, max_length=limits.address), ""), Field(default="")
]
#: An http(s) address, or None when not sent (``""`` counts as not sent).
OptionalAddress = Annotated[
    str | None, _member(lambda m, k, limits: m.url(k, max_length=limits.address) or None)
]
#: An http(s) address that must be sent.
RequiredAddress = Annotated[
    str, _member(lambda m, k, limits: m.url(k, max_length=limits.address, required=True))
]
#: A whole number from 0 to 100,000 (an image's width or height); 0 when not sent.
Size = Annotated[int, _member(lambda m, k, _: m.integer(k, maximum=MAX_SIZE), 0), Field(default=0)]
#: An ISO 8601 timestamp with a time zone, normalized to the interface's form; ``""`` when not
#: sent (the service then stamps it).
Timestamp = Annotated[str, _member(lambda m, k, _: m.timestamp(k), "")]
#: An ISO 8601 timestamp with a time zone, normalized; None when not sent.
OptionalTimestamp = Annotated[str | None, _member(lambda m, k, _: m.timestamp(k))]
#: A client-chosen element id (``[A-Za-z0-9_-]{1,32}``), or ``""``: one is to be given.
ElementId = Annotated[str, _member(_element_id, "")]
#: A JSON object member; not sent, it is an empty one (its own members take their defaults).
Object = Annotated[T, _member(_object, {}), Field(default_factory=dict, validate_default=True)]
#: A JSON object member, or None when not sent.
OptionalObject = Annotated[T | None, _member(_object)]
