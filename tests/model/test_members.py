"""The members a client's ``user`` object may carry, and the one list of the profile members a
user write sets (docs/api.md, docs/decisions.md)."""

from __future__ import annotations

from storycore.model.members import (
    PROFILE_ADDRESSES,
    PROFILE_TEXTS,
    USER_MEMBERS,
    USER_WRITE_MEMBERS,
)


def test_a_profile_update_applies_name_bio_location_website_and_avatar() -> None:
    assert (*PROFILE_TEXTS, *PROFILE_ADDRESSES) == ("name", "bio", "location", "website", "avatar")


def test_website_and_avatar_are_the_profile_members_that_are_addresses() -> None:
    assert PROFILE_ADDRESSES == ("website", "avatar")


def test_a_profile_member_is_a_member_a_user_object_may_carry() -> None:
    assert USER_WRITE_MEMBERS <= USER_MEMBERS
