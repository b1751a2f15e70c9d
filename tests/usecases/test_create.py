"""Creating a story (docs/api.md#lists-filters-sorting-and-search, docs/api.md#slugs,
docs/api.md#credentials, docs/api.md#stories, docs/api.md)."""

from __future__ import annotations

import pytest

from storycore import (
    ANONYMOUS,
    Forbidden,
    InvalidParameter,
    InvalidSlug,
    NotFound,
    Service,
    SlugTaken,
    Unauthorized,
    Viewer,
)

# behaviour, tested once on the fastest store; storage is the contract suite's
pytestmark = pytest.mark.storycore_store_urls("memory://")


def test_a_story_is_created_working_unless_published(service: Service, alice: Viewer) -> None:
    created = service.stories.create("alice", {"title": "Draft"}, viewer=alice)
    assert created.status == "working"


def test_a_story_created_with_publish_is_published_at_version_1_and_not_modified(
    service: Service, alice: Viewer
) -> None:
    created = service.stories.create("alice", {"title": "Now"}, viewer=alice, publish=True)
    full = service.stories.change_slug("alice", created.slug, "now-2", viewer=alice)
    assert created.status == "published"
    assert full.version == 2  # 1 at creation, +1 for the slug change
    assert full.modified is False


def test_the_create_result_is_the_summary_without_author(service: Service, alice: Viewer) -> None:
    created = service.stories.create("alice", {"title": "T"}, viewer=alice)
    assert set(created.to_json_dict()) == {
        "id", "title", "slug", "description", "thumbnail", "created", "updated", "status",
        "private",
    }  # fmt: skip


def test_a_slug_is_derived_from_the_title_when_absent(service: Service, alice: Viewer) -> None:
    created = service.stories.create("alice", {"title": "Ça va, Zoë?"}, viewer=alice)
    assert created.slug == "ca-va-zoe"


def test_an_empty_slug_counts_as_absent_at_create(service: Service, alice: Viewer) -> None:
    created = service.stories.create("alice", {"title": "Hello", "slug": ""}, viewer=alice)
    assert created.slug == "hello"


def test_a_derived_slug_is_made_unique_with_a_number(service: Service, alice: Viewer) -> None:
    slugs = [
        service.stories.create("alice", {"title": "Same"}, viewer=alice).slug for _ in range(3)
    ]
    assert slugs == ["same", "same-2", "same-3"]


def test_a_title_without_letters_gives_the_slug_story(service: Service, alice: Viewer) -> None:
    assert service.stories.create("alice", {"title": "!!!"}, viewer=alice).slug == "story"


def test_an_explicit_slug_in_use_is_slug_taken(service: Service, alice: Viewer) -> None:
    service.stories.create("alice", {"title": "A", "slug": "mine"}, viewer=alice)
    with pytest.raises(SlugTaken) as caught:
        service.stories.create("alice", {"title": "B", "slug": "mine"}, viewer=alice)
    assert caught.value.field == "story.slug"
    assert caught.value.status == 409


def test_two_authors_may_use_the_same_slug(service: Service, alice: Viewer, bob: Viewer) -> None:
    service.stories.create("alice", {"title": "A", "slug": "mine"}, viewer=alice)
    assert service.stories.create("bob", {"title": "B", "slug": "mine"}, viewer=bob).slug == "mine"


def test_a_slug_with_special_characters_is_invalid_slug(service: Service, alice: Viewer) -> None:
    with pytest.raises(InvalidSlug) as caught:
        service.stories.create("alice", {"title": "A", "slug": "Not OK!"}, viewer=alice)
    assert caught.value.field == "story.slug"


def test_creating_needs_an_authenticated_caller(service: Service, alice: Viewer) -> None:
    with pytest.raises(Unauthorized):
        service.stories.create("alice", {"title": "A"}, viewer=ANONYMOUS)


def test_another_user_may_not_create_under_a_username(
    service: Service, alice: Viewer, bob: Viewer
) -> None:
    with pytest.raises(Forbidden):
        service.stories.create("alice", {"title": "A"}, viewer=bob)


def test_an_editor_may_create_under_any_username(
    service: Service, alice: Viewer, editor: Viewer
) -> None:
    service.stories.create("alice", {"title": "By ed"}, viewer=editor)
    assert [s.author.username for s in service.catalog.user("alice", viewer=alice).items] == [
        "alice"
    ]


def test_creating_under_an_unknown_user_is_not_found(service: Service, editor: Viewer) -> None:
    with pytest.raises(NotFound):
        service.stories.create("nobody", {"title": "A"}, viewer=editor)


def test_the_story_parameter_may_be_serialized_json(service: Service, alice: Viewer) -> None:
    created = service.stories.create("alice", '{"title": "From JSON"}', viewer=alice)
    assert created.title == "From JSON"


def test_malformed_story_json_is_invalid_parameter(service: Service, alice: Viewer) -> None:
    with pytest.raises(InvalidParameter) as caught:
        service.stories.create("alice", '{"title": ', viewer=alice)
    assert caught.value.field == "story"


def test_a_known_member_of_the_wrong_type_is_refused(service: Service, alice: Viewer) -> None:
    with pytest.raises(InvalidParameter) as caught:
        service.stories.create("alice", {"title": "A", "private": "maybe"}, viewer=alice)
    assert caught.value.field == "story.private"


def test_a_typo_in_a_member_is_refused_and_stores_nothing(service: Service, alice: Viewer) -> None:
    with pytest.raises(InvalidParameter) as caught:
        service.stories.create("alice", {"titel": "typo"}, viewer=alice)
    assert caught.value.field == "story.titel"
    assert service.catalog.user("alice", viewer=alice).items == []


def test_a_failed_create_leaves_nothing_behind(service: Service, alice: Viewer) -> None:
    bad = {
        "title": "Half",
        "elements": [
            "https://a.example/1",
            "https://a.example/2",
            "https://a.example/3",
            "ftp://x",
        ],
    }
    with pytest.raises(InvalidParameter) as caught:
        service.stories.create("alice", bad, viewer=alice)
    assert caught.value.field == "story.elements.3"
    assert service.catalog.user("alice", viewer=alice).items == []


def test_an_over_long_title_is_refused_with_its_field(service: Service, alice: Viewer) -> None:
    with pytest.raises(InvalidParameter) as caught:
        service.stories.create("alice", {"title": "x" * 201}, viewer=alice)
    assert caught.value.field == "story.title"


def test_a_story_remembers_the_application_that_created_it(service: Service, alice: Viewer) -> None:
    app = service.accounts.create_app("Storyteller", href="https://teller.example")
    grant = service.accounts.authenticate(app.api_key, "alice", "alice-password")
    viewer = service.accounts.viewer(app.api_key, "alice", grant.token)
    service.stories.create("alice", {"title": "Via app"}, viewer=viewer, publish=True)
    item = service.catalog.search("via app").items[0]
    assert item.meta.created_with.model_dump() == {
        "href": "https://teller.example",
        "appname": "Storyteller",
        "name": "Storyteller",
    }


def test_long_titles_still_get_free_derived_slugs(service: Service, alice: Viewer) -> None:
    title = "word " * 40  # derives a slug of the full 120 characters
    slugs = [service.stories.create("alice", {"title": title}, viewer=alice).slug for _ in range(4)]
    assert len(set(slugs)) == 4
    assert all(len(slug) <= 120 for slug in slugs)
    assert slugs[1].endswith("-2")
