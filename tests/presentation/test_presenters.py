"""How records become the interface's shapes: ``description`` is ``""`` in summary and detail and
``null`` in the full shape; ``thumbnail`` falls back to the first image, else ``""``;
``permalink`` is ``{web_url}/{username}/{slug}`` and ``shortlink`` ``{web_url}/s/{code}``
(docs/api.md#stories); the create result has no ``author`` (docs/api.md#shapes); editors
have ``_access`` 1."""

from __future__ import annotations

from typing import Any

from storycore.model.records import AuthorStats, EmbedCount, StoryRecord, UserRecord
from storycore.presentation.presenters import Presenter

NOW = "2026-11-22T10:15:30.123Z"
WEB = Presenter("https://stories.example/")


def _story(**members: Any) -> StoryRecord:
    base: dict[str, Any] = {
        "id": "abc123def456",
        "author_id": "u1",
        "title": "A title",
        "slug": "a-title",
        "status": "published",
        "created": NOW,
        "updated": NOW,
        "published": NOW,
    }
    return StoryRecord(**{**base, **members})


ALICE = UserRecord(id="u1", username="alice", name="Alice", created=NOW, updated=NOW)


def test_a_permalink_is_web_url_username_slug() -> None:
    assert WEB.permalink("alice", "my-story") == "https://stories.example/alice/my-story"


def test_a_shortlink_is_web_url_s_id() -> None:
    assert WEB.shortlink("abc123") == "https://stories.example/s/abc123"


def test_a_trailing_slash_on_web_url_is_not_doubled() -> None:
    assert Presenter("https://stories.example").permalink("a", "b") == WEB.permalink("a", "b")


def test_a_missing_description_is_an_empty_string_in_a_summary() -> None:
    assert WEB.summary(_story(description=None), ALICE).description == ""


def test_a_missing_description_is_null_in_the_full_shape() -> None:
    shown = WEB.slug_changed(_story(description=None), ALICE, []).to_json_dict()
    assert shown["description"] is None


def test_a_given_description_is_shown_as_it_is_in_both_shapes() -> None:
    story = _story(description="<b>plain</b> text")
    assert WEB.summary(story, ALICE).description == "<b>plain</b> text"
    assert WEB.slug_changed(story, ALICE, []).description == "<b>plain</b> text"


def test_a_given_thumbnail_wins_over_the_first_image() -> None:
    story = _story(thumbnail="https://a.example/t.png", cover="https://a.example/c.png")
    assert WEB.summary(story, ALICE).thumbnail == "https://a.example/t.png"


def test_without_a_thumbnail_the_first_image_is_shown() -> None:
    story = _story(thumbnail=None, cover="https://a.example/c.png")
    assert WEB.created(story).thumbnail == "https://a.example/c.png"
    assert WEB.slug_changed(story, ALICE, []).thumbnail == "https://a.example/c.png"


def test_without_a_thumbnail_or_image_the_thumbnail_is_empty() -> None:
    assert WEB.created(_story()).thumbnail == ""


def test_the_create_result_has_no_author() -> None:
    assert "author" not in WEB.created(_story()).to_json_dict()


def test_a_summary_carries_the_authors_public_profile() -> None:
    assert WEB.summary(_story(), ALICE).to_json_dict()["author"] == {
        "username": "alice",
        "name": "Alice",
        "bio": "",
        "location": "",
        "website": "",
        "avatar": "",
    }


def test_a_public_profile_holds_no_email_password_or_roles() -> None:
    user = ALICE.model_copy(update={"email": "a@example.com", "password_hash": "scrypt$x"})
    assert set(WEB.profile(user).to_json_dict()) == {
        "username",
        "name",
        "bio",
        "location",
        "website",
        "avatar",
    }


def test_the_full_shape_shows_addresses_dates_and_counters() -> None:
    story = _story(
        version=4,
        updated="2026-11-23T00:00:00.000Z",
        tags=["news"],
        element_counts={"text": 1},
        views=7,
        popularity=12,
    )
    embeds = [EmbedCount(href="https://blog.example/p", views=3)]
    shown = WEB.slug_changed(story, ALICE, embeds).to_json_dict()
    assert shown["sid"] == "abc123def456"
    assert shown["permalink"] == "https://stories.example/alice/a-title"
    assert shown["shortlink"] == "https://stories.example/s/abc123def456"
    assert shown["date"] == {
        "created": NOW,
        "modified": "2026-11-23T00:00:00.000Z",
        "published": NOW,
    }
    assert shown["meta"]["hashtags"] == ["news"]
    assert (shown["stats"]["views"], shown["stats"]["popularity"]) == (7, 12)
    assert shown["stats"]["embeds"] == [{"href": "https://blog.example/p", "views": 3}]
    assert (shown["version"], shown["deleted"], shown["siteposts"]) == (4, False, [])


def test_an_unpublished_story_has_a_null_publication_date() -> None:
    shown = WEB.slug_changed(_story(status="working", published=None), ALICE, [])
    assert shown.to_json_dict()["date"]["published"] is None


def test_the_slug_change_result_has_not_indexed_and_no_author_or_can_edit() -> None:
    shown = WEB.slug_changed(_story(not_indexed=True), ALICE, []).to_json_dict()
    assert shown["not_indexed"] is True
    assert "author" not in shown
    assert "canEdit" not in shown


def test_a_search_item_has_the_full_author_and_can_edit() -> None:
    shown = WEB.search_item(_story(), ALICE, AuthorStats(stories=2), [], can_edit=True)
    data = shown.to_json_dict()
    assert data["canEdit"] is True
    assert data["author"]["username"] == "alice"
    assert data["author"]["permalink"] == "https://stories.example/alice"
    assert data["author"]["stats"]["stories"] == 2
    assert "not_indexed" not in data


def test_an_editor_has_access_1_and_others_0() -> None:
    editor = ALICE.model_copy(update={"editor": True})
    assert WEB.author_full(editor, AuthorStats()).to_json_dict()["_access"] == 1
    assert WEB.author_full(ALICE, AuthorStats()).to_json_dict()["_access"] == 0


def test_the_full_author_shows_can_feature_stories() -> None:
    curator = ALICE.model_copy(update={"can_feature": True})
    assert WEB.author_full(curator, AuthorStats()).canFeatureStories is True


def test_a_detail_shows_one_page_of_elements() -> None:
    detail = WEB.detail(_story(), ALICE, page=2, per_page=5, elements=[])
    assert (detail.page, detail.per_page, detail.elements) == (2, 5, [])
