"""The rules the service applies to the values it receives, as JSON Schemas (ECMA-262 patterns),
for the OpenAPI document: what a schema allows, the service accepts; what it forbids, the
service refuses (docs/decisions.md#the-api-reference).

Each rule is read from the module that applies it where that module states it as a pattern or
a limit (control characters from ``storycore.rules.text``, slugs and usernames from their modules,
timestamps from ``storycore.rules.timestamps``, addresses from ``storycore.rules.addresses``,
lengths from ``Limits``). An address may be protocol-relative (``//host/path``), taken as https
(docs/api.md#calls-and-answers): its limit counts the ``https:`` it is given.

A form field or a query parameter is text: where a JSON body may carry a JSON value or its
text (``publish`` as ``true`` or ``"yes"``), the schema is a ``oneOf`` whose string branches
are what a form carries (``text_branches``).
"""

from __future__ import annotations

import re

from ..rules.addresses import HTTP_SCHEME, http_address_pattern
from ..rules.numbers import STORE_INT_MAX
from ..rules.slugs import ROUTE_WORDS, SLUG_PATTERN
from ..rules.text import CONTROL_CHARACTERS
from ..rules.timestamps import TIMESTAMP_SHAPE
from ..rules.usernames import USERNAME_PATTERN
from .routing import Schema

__all__ = [
    "CONTROL",
    "address",
    "any_case",
    "boolean_text",
    "empty_or",
    "identifier",
    "json_text",
    "may_be_empty",
    "one_of_words",
    "optional_address",
    "path_segment",
    "positive_integer_text",
    "slug",
    "tag",
    "text",
    "text_branches",
    "timestamp",
    "username",
    "webhook_address",
    "word_list",
    "words",
]

#: The class of control characters (without its brackets) that no text the service takes holds.
CONTROL = CONTROL_CHARACTERS.pattern[1:-1]


# white space that is not a control character (``str.strip`` takes both)
_SPACE = "[^\\S\\x0b\\x0c\\x1c-\\x1f\\x85]"


def _ecma(pattern: re.Pattern[str]) -> str:
    """A Python pattern anchored with ``\\A`` and ``\\Z`` as an ECMA-262 one (``^`` and ``$``)."""
    return "^" + pattern.pattern.removeprefix("\\A").removesuffix("\\Z") + "$"


def any_case(*names: str) -> str:
    """A pattern group matching any of ``names`` in any case (as ``str.lower`` compares)."""
    spelled = (
        "".join(f"[{c.upper()}{c.lower()}]" if c.isalpha() else re.escape(c) for c in name)
        for name in names
    )
    return f"(?:{'|'.join(spelled)})"


def one_of_words(*names: str) -> Schema:
    """One of ``names``, in any case."""
    return {"type": "string", "pattern": f"^{any_case(*names)}$"}


def _spelled(name: str, *, either_case: bool = False) -> str:
    """``name`` as a pattern matching it as it is written (or in any case): letters and
    digits as they are, every other character as its code, which ECMA-262 and Python patterns
    read alike."""
    return "".join(
        (f"[{c.upper()}{c.lower()}]" if either_case and c.isalpha() else c)
        if c.isascii() and c.isalnum()
        else f"\\u{ord(c):04x}"
        for c in name
    )


def word_list(*names: str, exact: bool = False, empty: bool = False) -> Schema:
    """A comma-separated list of ``names``, in any case (or only as written, if ``exact``),
    with white space around each; or ``""`` too, if ``empty``."""
    word = f"(?:{'|'.join(map(_spelled, names))})" if exact else any_case(*names)
    item = f"{_SPACE}*{word}{_SPACE}*"
    listed = f"{item}(?:,{item})*"
    return {"type": "string", "pattern": f"^(?:{listed})?$" if empty else f"^{listed}$"}


def text(*, max_length: int | None = None, nullable: bool = False) -> Schema:
    """Any text without control characters, up to ``max_length`` characters."""
    schema: Schema = {"type": ["string", "null"] if nullable else "string"}
    schema["pattern"] = f"^[^{CONTROL}]*$"
    if max_length is not None:
        schema["maxLength"] = max_length
    return schema


def words(*, max_length: int | None = None) -> Schema:
    """Text that is not blank (holds something besides white space), without control
    characters: search's ``q``, a topic or hashtag of a story."""
    schema: Schema = {"type": "string", "minLength": 1}
    schema["pattern"] = f"^[^{CONTROL}]*[^\\s{CONTROL}][^{CONTROL}]*$"
    if max_length is not None:
        schema["maxLength"] = max_length
    return schema


def tag() -> Schema:
    """A ``tag`` filter: text that holds something once the white space around it and its
    leading ``#`` are taken off (``storycore.rules.hashtags.normalize_tag``)."""
    # what is left is empty only when the trimmed text is ``#`` signs alone: it needs a
    # character that is neither space nor ``#``, or space between two ``#``
    inner = f"(?:[^\\s#{CONTROL}]|#{_SPACE}+#)"
    return {"type": "string", "pattern": f"^[^{CONTROL}]*{inner}[^{CONTROL}]*$"}


_ADDRESS = http_address_pattern()
_AFTER_SCHEME = http_address_pattern(scheme=False)
_TAKEN_AS = len(HTTP_SCHEME)  # what a protocol-relative address gains


def _addresses(max_length: int, absolute: str) -> list[Schema]:
    """The branches of an address rule: ``absolute`` (a pattern), and a protocol-relative
    address, whose limit counts the ``https:`` it is given."""
    return [
        {"pattern": f"^{absolute}$"},
        {"maxLength": max_length - _TAKEN_AS, "pattern": f"^{_AFTER_SCHEME}$"},
    ]


def address(max_length: int) -> Schema:
    """An absolute http(s) address with a host (docs/api.md#elements), or a protocol-relative
    one, taken as https (docs/api.md#calls-and-answers)."""
    return {"type": "string", "maxLength": max_length, "anyOf": _addresses(max_length, _ADDRESS)}


def optional_address(max_length: int, *, nullable: bool = True) -> Schema:
    """An http(s) address (or a protocol-relative one) or ``""`` (no address); ``null`` counts
    as not sent."""
    return {
        "type": ["string", "null"] if nullable else "string",
        "maxLength": max_length,
        "anyOf": _addresses(max_length, f"(?:{_ADDRESS})?"),
    }


def webhook_address(max_length: int, allowed_hosts: tuple[str, ...] = ()) -> Schema:
    """An address a webhook may be registered for (docs/webhooks.md): an http(s) address
    as ``address`` takes it, without user information (credentials) and, unless the
    deployment allowed the host, not ``localhost`` or a name under it. That an IP address must
    be a public one, the operation's description says: JSON Schema does not tell them."""
    after_scheme = http_address_pattern(scheme=False, userinfo=False)
    end_of_host = "(?:[:/?#]|$)"
    allowed = "".join(
        f"(?!{_spelled(host, either_case=True)}{end_of_host})" for host in allowed_hosts
    )
    local = f"^(?:[Hh][Tt][Tt][Pp][Ss]?:)?//{allowed}(?:[^/?#:]*\\.)?{any_case('localhost')}"
    return {
        "type": "string",
        "maxLength": max_length,
        "anyOf": [
            {"pattern": f"^{http_address_pattern(userinfo=False)}$"},
            {"maxLength": max_length - _TAKEN_AS, "pattern": f"^{after_scheme}$"},
        ],
        "not": {"pattern": local + end_of_host},
    }


def identifier(pattern: re.Pattern[str]) -> Schema:
    """An id as ``pattern`` (``storycore.rules.ids``) says it is made."""
    return {"type": "string", "pattern": _ecma(pattern)}


def slug(max_length: int) -> Schema:
    """A slug (docs/api.md#slugs): never a word of the story routes."""
    return {
        "type": "string",
        "minLength": 1,
        "maxLength": max_length,
        "pattern": _ecma(SLUG_PATTERN),
        "not": {"enum": sorted(ROUTE_WORDS)},
    }


def username() -> Schema:
    """A username as a path names it (docs/api.md#credentials); any case."""
    return {"type": "string", "pattern": _ecma(USERNAME_PATTERN)}


def path_segment() -> Schema:
    """A path argument that names nothing with a rule of its own: one segment, never empty."""
    return {"type": "string", "minLength": 1, "pattern": "^[^/]+$"}


# a timestamp on the first or the last day the stores hold is one only while it stays there
# once moved to UTC (``format_timestamp``): no later zone on the first day, no earlier one on
# the last; there is no year 0 and no leap second (``datetime``)
_IN_RANGE = (
    "(?!0000)(?!0001-01-01T[^Z]*\\+(?!00:00))(?!9999-12-31T[^Z]*-(?!00:00))"
    "(?![0-9-]{10}T[0-9]{2}:[0-9]{2}:60)"
)


def timestamp(*, nullable: bool = False) -> Schema:
    """An ISO 8601 timestamp with a zone, as ``storycore.rules.timestamps.parse_timestamp``
    reads it: a real date and time, with ``T``, optional fractions of a second and ``Z`` or an
    offset."""
    return {
        "type": ["string", "null"] if nullable else "string",
        "format": "date-time",
        "pattern": f"^{_IN_RANGE}{TIMESTAMP_SHAPE.pattern}$",
    }


def boolean_text() -> Schema:
    """A boolean as text (docs/api.md#calls-and-answers): true, false, 1, 0, yes or no, in any
    case."""
    word = "(?:[Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee]|[Yy][Ee][Ss]|[Nn][Oo]|1|0)"
    return {"type": "string", "pattern": f"^\\s*{word}\\s*$"}


def positive_integer_text(*, empty: bool = True) -> Schema:
    """A whole number from 1 as text (``storycore.rules.numbers``), or ``""`` for none unless
    not ``empty`` (a required number): the digits of an integer the stores hold (up to 18 here,
    the largest count that always fits)."""
    digits = len(str(STORE_INT_MAX)) - 1
    number = f"\\s*[1-9][0-9]{{0,{digits - 1}}}\\s*"
    return {"type": "string", "pattern": f"^(?:{number})?$" if empty else f"^{number}$"}


def json_text(content: Schema) -> Schema:
    """Serialized JSON of a value that ``content`` describes (JSON Schema's content
    vocabulary): the form of ``story`` and ``user`` in a form body
    (docs/api.md#calls-and-answers)."""
    return {"type": "string", "contentMediaType": "application/json", "contentSchema": content}


def empty_or(schema: Schema) -> Schema:
    """``schema``, or ``""``, which the service reads as "not sent"."""
    return {"anyOf": [schema, {"const": ""}]}


def may_be_empty(schema: Schema) -> tuple[Schema, bool]:
    """The schema of a value that ``empty_or`` made, and whether ``""`` is also taken."""
    branches = schema.get("anyOf")
    if isinstance(branches, list) and len(branches) == 2 and branches[1] == {"const": ""}:
        return branches[0], True
    return schema, False


def text_branches(schema: Schema) -> Schema:
    """What ``schema`` takes as text: the string branches of a ``oneOf`` (a form field or a
    query parameter carries text only), or ``schema`` itself."""
    branches = schema.get("oneOf")
    if not isinstance(branches, list):
        return schema
    strings = [branch for branch in branches if branch.get("type") == "string"]
    return strings[0] if len(strings) == 1 else {"oneOf": strings}
