"""The shapes of docs/api.md#shapes, exactly: key sets with the interface's names (``_access``,
``canEdit``, ``_token``), ``null`` versus ``""``; the element of docs/api.md#elements; the
``meta.quoted`` and ``stats.embeds`` items of docs/api.md."""

from __future__ import annotations

from typing import Any

import pydantic
import pytest

from storycore.model.element_kinds import TextElement
from storycore.model.records import CoverPhoto, CreatedWith, EmbedCount, Quoted, UserSettings
from storycore.model.shapes import (
    AuthorDates,
    AuthorFull,
    AuthorStatsShape,
    Page,
    SearchItem,
    SlugChanged,
    StoryCreated,
    StoryDates,
    StoryDetail,
    StoryFull,
    StoryMeta,
    StoryStats,
    StorySummary,
    TokenGrant,
    UserProfile,
)

NOW = "2026-11-22T10:15:30.123Z"
PROFILE: dict[str, Any] = {
    "username": "alice",
    "name": "Alice",
    "bio": "",
    "location": "",
    "website": "",
    "avatar": "",
}
CREATED: dict[str, Any] = {
    "id": "s1",
    "title": "T",
    "slug": "t",
    "description": "",
    "thumbnail": "",
    "created": NOW,
    "updated": NOW,
    "status": "working",
    "private": False,
}
FULL: dict[str, Any] = {
    "sid": "s1",
    "title": "T",
    "slug": "t",
    "status": "published",
    "version": 1,
    "permalink": "https://w.example/alice/t",
    "shortlink": "https://w.example/s/s1",
    "publish_at": None,
    "description": None,
    "thumbnail": "",
    "date": StoryDates(created=NOW, modified=NOW, published=NOW),
    "private": False,
    "topics": [],
    "siteposts": [],
    "meta": StoryMeta(quoted=[], hashtags=[], created_with=CreatedWith()),
    "stats": StoryStats(
        popularity=0,
        views=0,
        likes=0,
        comments=0,
        elementComments=0,
        embeds=[],
        elements={},
    ),
    "modified": False,
    "deleted": False,
}
AUTHOR = AuthorFull.model_validate(
    {
        "username": "alice",
        "_access": 0,
        "name": "",
        "bio": "",
        "location": "",
        "website": "",
        "avatar": "",
        "permalink": "https://w.example/alice",
        "lang": "en",
        "settings": UserSettings(),
        "stats": AuthorStatsShape(views=0, subscriptions=0, subscribers=0, stories=0, embeds=0),
        "date": AuthorDates(
            updated=NOW,
            last_story=None,
            last_seen=None,
            last_email=None,
            featured=None,
            created=NOW,
        ),
        "coverPhoto": CoverPhoto(),
        "canFeatureStories": False,
        "featuredStories": [],
    }
)
SUMMARY_KEYS = {"id", "title", "slug", "description", "thumbnail", "created", "updated"} | {
    "status",
    "private",
}
FULL_KEYS = {
    "sid",
    "title",
    "slug",
    "status",
    "version",
    "permalink",
    "shortlink",
    "publish_at",
    "description",
    "thumbnail",
    "date",
    "private",
    "topics",
    "siteposts",
    "meta",
    "stats",
    "modified",
    "deleted",
}


def test_a_user_profile_has_the_six_public_members() -> None:
    assert set(UserProfile(**PROFILE).to_json_dict()) == set(PROFILE)


def test_the_auth_answer_is_the_profile_plus_token() -> None:
    grant = TokenGrant.model_validate({**PROFILE, "_token": "t" * 43})
    assert grant.to_json_dict() == {**PROFILE, "_token": "t" * 43}


def test_the_create_result_is_the_summary_without_author() -> None:
    assert set(StoryCreated(**CREATED).to_json_dict()) == SUMMARY_KEYS


def test_a_story_summary_adds_the_author() -> None:
    summary = StorySummary(**CREATED, author=UserProfile(**PROFILE))
    assert set(summary.to_json_dict()) == SUMMARY_KEYS | {"author"}


def test_a_story_detail_adds_what_a_save_needs_and_the_page_of_elements() -> None:
    detail = StoryDetail(
        **CREATED,
        author=UserProfile(**PROFILE),
        version=1,
        permalink="https://stories.example/alice/s",
        shortlink="https://stories.example/s/s1",
        publish_at=None,
        page=1,
        per_page=20,
        elements=[],
    )
    assert set(detail.to_json_dict()) == SUMMARY_KEYS | {
        "author", "version", "permalink", "shortlink", "publish_at", "page", "per_page",
        "elements",
    }  # fmt: skip


@pytest.mark.parametrize("status", ["draft", "deleted", ""])
def test_a_story_status_is_working_or_published(status: str) -> None:
    with pytest.raises(pydantic.ValidationError):
        StoryCreated(**{**CREATED, "status": status})


def test_the_full_shape_has_the_members_of_the_interface() -> None:
    assert set(StoryFull(**FULL).to_json_dict()) == FULL_KEYS


def test_a_missing_description_is_null_in_the_full_shape() -> None:
    assert StoryFull(**FULL).to_json_dict()["description"] is None


def test_the_full_shapes_date_meta_and_stats_have_their_members() -> None:
    shown = StoryFull(**FULL).to_json_dict()
    assert set(shown["date"]) == {"created", "modified", "published"}
    assert set(shown["meta"]) == {"quoted", "hashtags", "created_with"}
    assert set(shown["meta"]["created_with"]) == {"href", "appname", "name"}
    assert set(shown["stats"]) == {
        "popularity",
        "views",
        "likes",
        "comments",
        "elementComments",
        "embeds",
        "elements",
    }


def test_a_search_item_is_the_full_shape_with_author_and_can_edit() -> None:
    item = SearchItem(**FULL, author=AUTHOR, canEdit=False)
    assert set(item.to_json_dict()) == FULL_KEYS | {"author", "canEdit"}


def test_the_slug_change_result_is_the_full_shape_with_not_indexed() -> None:
    assert set(SlugChanged(**FULL, not_indexed=False).to_json_dict()) == FULL_KEYS | {"not_indexed"}


def test_the_full_author_has_the_members_of_the_interface() -> None:
    shown = AUTHOR.to_json_dict()
    assert set(shown) == {
        "username",
        "_access",
        "name",
        "bio",
        "location",
        "website",
        "avatar",
        "permalink",
        "lang",
        "settings",
        "stats",
        "date",
        "coverPhoto",
        "canFeatureStories",
        "featuredStories",
    }
    assert set(shown["stats"]) == {"views", "subscriptions", "subscribers", "stories", "embeds"}
    assert set(shown["date"]) == {
        "updated",
        "last_story",
        "last_seen",
        "last_email",
        "featured",
        "created",
    }
    assert set(shown["coverPhoto"]) == {"url", "width", "height"}


def test_the_authors_settings_have_the_members_of_the_interface() -> None:
    shown = AUTHOR.to_json_dict()["settings"]
    assert set(shown) == {
        "comments",
        "socialA_autoshare",
        "socialA_quoteimg",
        "socialA_post",
        "socialB_post",
        "notifications",
    }
    assert set(shown["notifications"]) == {
        "newsletter",
        "digest",
        "likes",
        "comments",
        "follower",
        "quoted",
        "friend_quoted",
        "autoshare",
        "element_comment",
        "element_like",
        "story_comment",
        "story_like",
    }


def test_an_element_has_the_members_of_decisions_section_7() -> None:
    element = TextElement(id="e1", data={"text": "<p>x</p>"}, added_at=NOW)
    assert element.model_dump() == {
        "id": "e1",
        "type": "text",
        "permalink": None,
        "source": None,
        "attribution": None,
        "data": {"text": "<p>x</p>"},
        "posted_at": None,
        "added_at": NOW,
    }


def test_a_quoted_author_has_the_members_of_the_interface() -> None:
    quoted = Quoted(username="a", name="A", userid="1", avatar="", source="socialA")
    assert quoted.model_dump() == {
        "username": "a",
        "name": "A",
        "userid": "1",
        "avatar": "",
        "source": "socialA",
        "notified_at": None,
    }


def test_an_embed_count_is_href_and_views() -> None:
    assert EmbedCount(href="https://b.example/", views=2).model_dump() == {
        "href": "https://b.example/",
        "views": 2,
    }


def test_a_page_has_its_number_size_items_whether_more_follow_and_a_total_if_counted() -> None:
    page = Page[int](page=2, per_page=10, items=[1], has_next=False)
    assert page.to_json_dict() == {
        "page": 2, "per_page": 10, "items": [1], "has_next": False, "total": None,
    }  # fmt: skip


def test_shapes_are_frozen() -> None:
    profile = UserProfile(**PROFILE)
    with pytest.raises(pydantic.ValidationError):
        profile.name = "Mallory"  # type: ignore[misc]
