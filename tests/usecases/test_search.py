"""Search semantics (docs/api.md#lists-filters-sorting-and-search,
docs/api.md#lists-filters-sorting-and-search)."""

from __future__ import annotations

import pytest

from storycore import InvalidParameter, Service, Viewer
from storycore.testing import ManualClock
from tests._clocks import later

# behaviour, tested once on the fastest store; storage is the contract suite's
pytestmark = pytest.mark.storycore_store_urls("memory://")


@pytest.fixture
def storycore_clock() -> ManualClock:
    """The service's time, moved by hand: each story is published a second after the last."""
    return ManualClock()


def _publish(service: Service, viewer: Viewer, **story: object) -> str:
    slug = service.stories.create("alice", story, viewer=viewer, publish=True).slug
    later(service)  # the next publication is a second later
    return slug


def _found(service: Service, q: str) -> list[str]:
    return [item.slug for item in service.catalog.search(q).items]


def test_every_word_must_occur(service: Service, alice: Viewer) -> None:
    both = _publish(service, alice, title="Red fox", description="jumps high")
    _publish(service, alice, title="Red panda")
    assert _found(service, "red jumps") == [both]


def test_words_match_whole_words_only(service: Service, alice: Viewer) -> None:
    _publish(service, alice, title="Catalogue")
    assert _found(service, "cat") == []


def test_search_ignores_case_and_accents(service: Service, alice: Viewer) -> None:
    slug = _publish(service, alice, title="Crème BRÛLÉE")
    assert _found(service, "creme brulee") == [slug]


def test_words_may_match_in_different_fields(service: Service, alice: Viewer) -> None:
    slug = _publish(
        service,
        alice,
        title="Harbour",
        topics=["maritime"],
        elements=[{"type": "text", "data": {"text": "<p>lighthouse</p>"}}],
        hashtags=["boats"],
    )
    assert _found(service, "harbour maritime lighthouse boats") == [slug]


def test_the_authors_username_and_name_match(service: Service, alice: Viewer) -> None:
    slug = _publish(service, alice, title="Anything")
    assert _found(service, "liddell alice") == [slug]


def test_a_renamed_author_is_found_by_the_new_name(service: Service, alice: Viewer) -> None:
    slug = _publish(service, alice, title="Anything")
    service.accounts.update("alice", {"name": "Alice Pleasance"}, viewer=alice)
    assert _found(service, "pleasance") == [slug]
    assert _found(service, "liddell") == []


def test_results_are_public_stories_newest_publication_first(
    service: Service, alice: Viewer
) -> None:
    older = _publish(service, alice, title="Comet one")
    newer = _publish(service, alice, title="Comet two")
    service.stories.create("alice", {"title": "Comet draft"}, viewer=alice)
    _publish(service, alice, title="Comet secret", private=True)
    assert _found(service, "comet") == [newer, older]


def test_search_items_carry_the_full_author_and_can_edit(
    service: Service, alice: Viewer, bob: Viewer
) -> None:
    _publish(service, alice, title="Shape")
    item = service.catalog.search("shape", viewer=bob).items[0].to_json_dict()
    assert item["canEdit"] is False
    assert item["author"]["_access"] == 0
    assert item["author"]["stats"]["stories"] == 1
    assert service.catalog.search("shape", viewer=alice).items[0].canEdit is True


@pytest.mark.parametrize("q", [None, "", "   ", "x" * 201])
def test_q_is_required_non_blank_and_at_most_200_characters(
    service: Service, q: str | None
) -> None:
    with pytest.raises(InvalidParameter) as caught:
        service.catalog.search(q)
    assert caught.value.field == "q"


def test_a_query_without_letters_or_digits_matches_nothing(service: Service, alice: Viewer) -> None:
    _publish(service, alice, title="Punctuation!")
    assert _found(service, "!!!") == []


def test_a_word_with_a_rare_letter_is_one_word(service: Service, alice: Viewer) -> None:
    _publish(service, alice, title="a a")  # U+19B0 is a letter to Python: "a\u19b0a" is one word
    assert _found(service, "a\u19b0a") == []


def test_a_story_stays_findable_through_status_and_slug_changes(
    service: Service, alice: Viewer
) -> None:
    slug = service.stories.create("alice", {"title": "Lighthouse keeper"}, viewer=alice).slug
    service.stories.publish("alice", slug, viewer=alice)
    assert _found(service, "lighthouse") == [slug]
    service.stories.unpublish("alice", slug, viewer=alice)
    service.stories.publish("alice", slug, viewer=alice)
    service.stories.change_slug("alice", slug, "keeper", viewer=alice)
    assert _found(service, "lighthouse keeper") == ["keeper"]
