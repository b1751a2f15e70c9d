"""Hypothesis strategies for everything a user sends to storycore, and for whole data sets.

Each strategy's docstring says what it generates. "Valid" means the service accepts it; the
``invalid_*`` strategies generate what the service refuses with a 400. Strategies that build an
object take one keyword per member, and each may be narrowed:

- ``None`` (the default): the kit's own strategy, which may leave the member out;
- a value: always that value (``private=False``);
- a strategy: values from it (``title=st.sampled_from(["A", "B"])``);
- ``ABSENT``: the member is never sent.

So ``stories(published=True, private=False)`` gives stories that end up on the public lists,
and ``story_members(slug=ABSENT)`` gives members whose slug the service derives from the title.

Everything here follows the service's default ``Settings`` (limits, networks, video hosts,
image extensions); pass a narrower strategy where a host application configures others.

=====================  ==========================================================================
text                   ``plain_text``, ``titles``, ``hostile_text``, ``long_text``, ``text_html``,
                       ``tag_soup``
names                  ``valid_slugs``, ``invalid_slugs``, ``usernames``, ``invalid_usernames``
addresses, elements    ``permalinks``, ``invalid_addresses``, ``element_ids``,
                       ``element_objects``, ``elements``
times                  ``moments`` (in ``ZONES``), ``timestamps``
stories                ``story_members``, ``stories`` (``NewStory``), ``story_records``,
                       ``viewers``
parameters             ``pagination``, ``invalid_pagination``, ``search_queries``,
                       ``profile_members``
data sets              ``data_sets`` (``DataSet`` of ``UserSpec`` and ``NewStory``)
fuzzing                ``member_names``, ``json_scalars``, ``json_values``
=====================  ==========================================================================
"""

from __future__ import annotations

from storycore.errors import MissingDependencyError

try:
    import hypothesis  # noqa: F401 - the check that the testing extra is installed
except ImportError as exc:  # pragma: no cover - the testing extra is missing
    raise MissingDependencyError("hypothesis", "testing") from exc

from ._datasets import DataSet, UserSpec, data_sets
from ._elements import (
    ELEMENT_KINDS,
    PERMALINK_KINDS,
    ElementKind,
    PermalinkKind,
    element_ids,
    element_objects,
    elements,
    invalid_addresses,
    permalinks,
)
from ._fuzz import json_scalars, json_values, member_names
from ._names import invalid_slugs, invalid_usernames, usernames, valid_slugs
from ._narrowing import ABSENT, Absent, Member
from ._parameters import invalid_pagination, pagination, profile_members, search_queries
from ._stories import NewStory, StoryNarrowing, stories, story_members, story_records, viewers
from ._text import (
    HOSTILE_FRAGMENTS,
    hostile_text,
    long_text,
    plain_text,
    tag_soup,
    text_html,
    titles,
)
from ._times import ZONES, moments, timestamps

__all__ = [
    "ABSENT",
    "ELEMENT_KINDS",
    "HOSTILE_FRAGMENTS",
    "PERMALINK_KINDS",
    "ZONES",
    "Absent",
    "DataSet",
    "ElementKind",
    "Member",
    "NewStory",
    "PermalinkKind",
    "StoryNarrowing",
    "UserSpec",
    "data_sets",
    "element_ids",
    "element_objects",
    "elements",
    "hostile_text",
    "invalid_addresses",
    "invalid_pagination",
    "invalid_slugs",
    "invalid_usernames",
    "json_scalars",
    "json_values",
    "long_text",
    "member_names",
    "moments",
    "pagination",
    "permalinks",
    "plain_text",
    "profile_members",
    "search_queries",
    "stories",
    "story_members",
    "story_records",
    "tag_soup",
    "text_html",
    "timestamps",
    "titles",
    "usernames",
    "valid_slugs",
    "viewers",
]
