"""The slug rule, derivation from titles and uniqueness suffixes (docs/api.md#slugs; docs/api.md
for the suffix that still fits in 120 characters)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from storycore.errors import InvalidParameter, InvalidSlug
from storycore.rules.slugs import (
    ROUTE_WORDS,
    SLUG_PATTERN,
    derive_slug,
    is_valid_slug,
    next_free_slug,
    slug_candidates,
    validate_slug,
)

BOUNDED = settings(max_examples=100, deadline=None, database=None)


@pytest.mark.parametrize("slug", ["a", "7", "my-story", "2026-in-review", "a-1-b-2"])
def test_lowercase_words_joined_by_single_hyphens_are_a_valid_slug(slug: str) -> None:
    assert is_valid_slug(slug)


@pytest.mark.parametrize(
    "slug",
    [
        "",
        "My-Story",
        "my_story",
        "my story",
        "-story",
        "story-",
        "my--story",
        "crème",
        "a/b",
        "a.b",
    ],
)
def test_a_slug_breaking_the_rule_is_not_valid(slug: str) -> None:
    assert not is_valid_slug(slug)


def test_a_slug_of_120_characters_is_valid() -> None:
    assert is_valid_slug("a" * 120)


def test_a_slug_of_121_characters_is_not_valid() -> None:
    assert not is_valid_slug("a" * 121)


def test_a_slug_with_a_trailing_newline_is_not_valid() -> None:
    assert not is_valid_slug("my-story\n")


def test_validating_a_valid_slug_returns_it_unchanged() -> None:
    assert validate_slug("my-story") == "my-story"


def test_an_invalid_slug_is_invalid_slug_naming_its_field() -> None:
    with pytest.raises(InvalidSlug) as caught:
        validate_slug("My Story", field="story.slug")
    assert (caught.value.type, caught.value.status) == ("invalid_slug", 400)
    assert caught.value.field == "story.slug"


def test_an_invalid_slug_is_also_an_invalid_parameter() -> None:
    with pytest.raises(InvalidParameter):
        validate_slug("")


def test_the_slug_length_limit_is_configurable() -> None:
    assert validate_slug("a" * 10, max_length=10) == "a" * 10
    with pytest.raises(InvalidSlug):
        validate_slug("a" * 11, max_length=10)


def test_a_slug_derived_from_a_title_is_lowercase() -> None:
    assert derive_slug("Hello World") == "hello-world"


def test_a_slug_derived_from_a_title_folds_accents() -> None:
    assert derive_slug("Crème Brûlée à Noël") == "creme-brulee-a-noel"


@pytest.mark.parametrize(
    ("title", "slug"), [("Привет мир", "privet-mir"), ("Ελλάδα", "ellada"), ("Straße", "strasse")]
)
def test_a_slug_derived_from_a_title_in_another_script_is_transliterated(
    title: str, slug: str
) -> None:
    assert derive_slug(title) == slug


def test_runs_of_other_characters_in_a_title_become_one_hyphen() -> None:
    assert derive_slug("one  --  two!!three / four") == "one-two-three-four"


def test_a_slug_derived_from_a_title_is_trimmed_of_hyphens() -> None:
    assert derive_slug("  ¡Hola, mundo!  ") == "hola-mundo"


def test_digits_in_a_title_are_kept_in_its_slug() -> None:
    assert derive_slug("Top 10 of 2026") == "top-10-of-2026"


@pytest.mark.parametrize("title", ["", "   ", "!!!", "🎉🎉", "— … —"])
def test_a_title_without_letters_or_digits_derives_the_slug_story(title: str) -> None:
    assert derive_slug(title) == "story"


def test_a_slug_derived_from_a_long_title_is_cut_to_120_characters() -> None:
    assert derive_slug("x" * 300) == "x" * 120


def test_a_slug_cut_at_a_hyphen_has_no_trailing_hyphen() -> None:
    assert derive_slug("a" * 119 + " bcd") == "a" * 119


@BOUNDED
@given(st.text())
@example("editslug")  # a title that derives a route word: its first slug is editslug-2
def test_every_slug_derived_from_a_title_matches_the_slug_rule(title: str) -> None:
    slug = next(slug_candidates(derive_slug(title)))  # the first slug a story with it tries
    assert is_valid_slug(slug)
    assert SLUG_PATTERN.fullmatch(slug)


@BOUNDED
@given(st.text(), st.integers(min_value=1, max_value=130))
def test_a_derived_slug_fits_the_configured_length(title: str, max_length: int) -> None:
    assert len(derive_slug(title, max_length=max_length)) <= max(max_length, len("story"))


@BOUNDED
@given(st.text())
def test_deriving_a_slug_from_a_slug_gives_the_same_slug(title: str) -> None:
    slug = derive_slug(title)
    assert derive_slug(slug) == slug


def test_a_free_slug_is_used_as_it_is() -> None:
    assert next_free_slug("my-story", {"other"}) == "my-story"


def test_a_taken_slug_gets_the_suffix_2() -> None:
    assert next_free_slug("my-story", {"my-story"}) == "my-story-2"


def test_suffixes_count_up_from_2() -> None:
    taken = {"my-story", "my-story-2", "my-story-3"}
    assert next_free_slug("my-story", taken) == "my-story-4"


def test_the_first_free_suffix_is_used() -> None:
    assert next_free_slug("my-story", {"my-story", "my-story-3"}) == "my-story-2"


def test_a_suffixed_slug_still_fits_in_120_characters() -> None:
    base = "x" * 120
    assert next_free_slug(base, {base}) == "x" * 118 + "-2"


def test_a_base_shortened_for_its_suffix_drops_a_trailing_hyphen() -> None:
    base = "a" * 117 + "-bc"  # cut to 118 characters it would end in "-"
    assert next_free_slug(base, {base}) == "a" * 117 + "-2"


def test_a_longer_suffix_shortens_the_base_further() -> None:
    base = "x" * 120
    taken = {base} | {f"{'x' * 118}-{n}" for n in range(2, 10)}
    assert next_free_slug(base, taken) == "x" * 117 + "-10"


@BOUNDED
@given(st.text(), st.integers(min_value=1, max_value=15))
def test_successive_free_slugs_are_distinct_valid_and_within_120_characters(
    title: str, count: int
) -> None:
    base = derive_slug(title)
    taken = {base}
    for _ in range(count):
        slug = next_free_slug(base, taken)
        assert slug not in taken
        assert is_valid_slug(slug)
        taken.add(slug)


def test_the_candidates_start_at_the_base_then_count_from_two() -> None:
    assert list(itertools.islice(slug_candidates("my-story"), 4)) == [
        "my-story",
        "my-story-2",
        "my-story-3",
        "my-story-4",
    ]


@BOUNDED
@given(st.text(min_size=100), st.integers(min_value=1, max_value=15))
def test_every_candidate_is_a_valid_slug_within_the_limit(title: str, count: int) -> None:
    base = derive_slug(title, 40)
    for slug in itertools.islice(slug_candidates(base, 40), count):
        assert is_valid_slug(slug, 40)


@pytest.mark.parametrize("word", sorted(ROUTE_WORDS))
def test_a_route_word_is_never_a_slug(word: str) -> None:
    with pytest.raises(InvalidSlug) as caught:
        validate_slug(word, "story.slug")
    assert caught.value.field == "story.slug"
    assert not is_valid_slug(word)


def test_the_action_words_of_the_story_routes_are_route_words() -> None:
    actions = {"create", "save", "publish", "unpublish", "delete", "editslug", "feature"}
    assert actions | {"unfeature"} <= ROUTE_WORDS


def test_a_title_that_is_a_route_word_derives_the_word_with_a_suffix() -> None:
    assert next_free_slug(derive_slug("Create"), ()) == "create-2"
