"""Which members a client's ``story``, element and ``user`` objects may carry (docs/decisions.md:
typos are refused).

A client may send what it reads back (docs/api.md#calls-and-answers), so an object may hold, besides
the members a write takes, every member of the shapes a read answers: the story shapes of
docs/api.md#shapes, the element of docs/api.md#elements, the user shapes of 2.2 and
2.6; and the few members that real v1 answers also carried (the recorded Storify traffic) and
that real clients therefore send back. Anything else is a typo or a misunderstanding, refused
with the member's dotted path, so that ``{"titel": ...}`` is not stored as an untitled story.
"""

from __future__ import annotations

import difflib
from collections.abc import Collection, Iterable, Mapping
from operator import attrgetter
from typing import Any, Final

from pydantic import BaseModel

from ..errors import InvalidParameter
from ..input.declared import Address, Declaration, Text
from .element_kinds import ELEMENT_CLASSES
from .shapes import AuthorFull, SearchItem, SlugChanged, StoryDetail, UserProfile

__all__ = [
    "ELEMENT_MEMBERS",
    "PROFILE_ADDRESSES",
    "PROFILE_TEXTS",
    "PROFILE_WRITE",
    "STORY_READ_BACK",
    "USER_MEMBERS",
    "USER_WRITE_MEMBERS",
    "refuse_unknown",
]


def _names(*models: type[BaseModel]) -> frozenset[str]:
    """Every member name of ``models`` as the wire spells it (``_access``, ``canEdit``)."""
    return frozenset(
        field.alias or name for model in models for name, field in model.model_fields.items()
    )


#: Members of v1's story answers beyond the interface's shapes, which v1 clients send back.
_V1_STORY_EXTRAS: Final = frozenset({"comments", "is_spam", "category", "section", "liked"})
#: The members of a story as a read answers it, which a client may send back: a write ignores
#: them but for those it takes (``drafts.STORY_WRITE_MEMBERS``, listed by the draft that holds
#: them; ``drafts.STORY_MEMBERS`` is both).
STORY_READ_BACK: Final = _names(StoryDetail, SearchItem, SlugChanged) | _V1_STORY_EXTRAS

#: An element's members (docs/api.md#elements), and those v1 answers added
#: (docs/api.md#calls-and-answers).
ELEMENT_MEMBERS: Final = _names(*ELEMENT_CLASSES.values()) | {"eid", "comments", "stats", "meta"}

#: The profile members a user write sets (docs/api.md), in order: the one declaration, which
#: ``Accounts`` (create_user, a profile update, every import's authors through it), Storify's
#: reader and the OpenAPI schema read. Each is a short text or an address (``""``: none); null
#: counts as not sent.
PROFILE_WRITE: Final[Declaration] = {
    "name": Text(attrgetter("profile_field"), nullable=True),
    "bio": Text(attrgetter("profile_field"), nullable=True),
    "location": Text(attrgetter("profile_field"), nullable=True),
    "website": Address(),
    "avatar": Address(),
}
PROFILE_TEXTS: Final = tuple(name for name, kind in PROFILE_WRITE.items() if isinstance(kind, Text))
PROFILE_ADDRESSES: Final = tuple(
    name for name, kind in PROFILE_WRITE.items() if isinstance(kind, Address)
)
USER_WRITE_MEMBERS: Final = frozenset(PROFILE_WRITE)
#: What a ``user`` object may carry besides: the interface's sample body holds ``username``,
#: ``email`` and ``password``; v1's profile answers held the rest.
_V1_USER_EXTRAS: Final = frozenset(
    {
        "email",
        "password",
        "_id",
        "paid_plan",
        "email_verified",
        "features_enabled",
        "agency",
        "is_spam",
        "category",
        "subscribers",
        "subscriptions",
        "identities",
    }
)
USER_MEMBERS: Final = USER_WRITE_MEMBERS | _names(UserProfile, AuthorFull) | _V1_USER_EXTRAS


def refuse_unknown(
    data: Mapping[str, Any],
    known: Collection[str],
    path: str,
    *,
    what: str,
    hints: Iterable[str] = (),
) -> None:
    """Raise ``InvalidParameter`` naming the first member of ``data`` (``what``: ``a story``)
    outside ``known``.

    ``hints`` are the names a near miss is compared with (``titel``: did you mean ``title``?).
    """
    for key in data:
        if key not in known:
            field = f"{path}.{key}"
            near = difflib.get_close_matches(str(key), list(hints), n=1)
            hint = f"; did you mean {near[0]}?" if near else ""
            raise InvalidParameter(f"{field} is not a member of {what}{hint}", field=field)
