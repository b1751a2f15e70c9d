"""Strategies of data sets: users and the stories they write, ready to load into a service."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from ._names import usernames
from ._narrowing import ABSENT
from ._stories import NewStory, stories
from ._text import plain_text

if TYPE_CHECKING:
    from storycore.model.shapes import StoryCreated
    from storycore.service import Service

__all__ = ["DataSet", "UserSpec", "data_sets"]


@dataclass(frozen=True)
class UserSpec:
    """A user to create: the username and what the user may do."""

    username: str
    name: str = ""
    editor: bool = False
    can_feature: bool = False
    plan: Literal["free", "enterprise"] = "free"


@dataclass(frozen=True)
class DataSet:
    """Users and the stories they write (``(username, NewStory)`` pairs, in creation order).

    Explicit slugs are unique per author and the stories that have one come first (a slug
    derived from a title then steers clear of them), so the whole set loads without
    ``SlugTaken``.
    """

    users: list[UserSpec]
    stories: list[tuple[str, NewStory]] = field(default_factory=list)

    def load(self, service: Service) -> list[StoryCreated]:
        """Create the users (without passwords) and the stories; the created stories, in order."""
        for user in self.users:
            service.accounts.create_user(
                user.username,
                name=user.name,
                editor=user.editor,
                can_feature=user.can_feature,
                plan=user.plan,
            )
        return [story.create(service, username) for username, story in self.stories]

    def public(self) -> list[tuple[str, NewStory]]:
        """The stories that land on the public lists."""
        return [(username, story) for username, story in self.stories if story.public]


@st.composite
def data_sets(
    draw: st.DrawFn,
    *,
    min_users: int = 1,
    max_users: int = 3,
    max_stories: int = 8,
    new_stories: SearchStrategy[NewStory] | None = None,
) -> DataSet:
    """A ``DataSet``: 1 to ``max_users`` users (usernames unique regardless of case; some
    editors, some allowed to feature, some on the enterprise plan) and up to ``max_stories``
    stories by them, drawn from ``new_stories`` (``stories()`` by default).
    """
    specs = st.builds(
        UserSpec,
        username=usernames(),
        name=plain_text(max_size=30),
        editor=st.booleans(),
        can_feature=st.booleans(),
        plan=st.sampled_from(["free", "enterprise"]),
    )
    users = draw(
        st.lists(
            specs, min_size=min_users, max_size=max_users, unique_by=lambda u: u.username.lower()
        )
    )
    names = [user.username for user in users]
    pairs = draw(
        st.lists(
            st.tuples(st.sampled_from(names), new_stories or stories(elements=ABSENT)),
            max_size=max_stories,
        )
    )
    taken: set[tuple[str, str | None]] = set()
    chosen: list[tuple[str, NewStory]] = []
    for username, story in pairs:
        key = (username.lower(), story.story.get("slug"))
        if key[1] is not None and key in taken:
            members = {name: value for name, value in story.story.items() if name != "slug"}
            chosen.append((username, NewStory(members, story.publish)))
            continue
        taken.add(key)
        chosen.append((username, story))
    chosen.sort(key=lambda pair: "slug" not in pair[1].story)  # stable: explicit slugs first
    return DataSet(users, chosen)
