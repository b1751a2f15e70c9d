"""Hashtags: lowercase, without ``#``; the ``hashtags`` member plus ``#words`` found in text
(docs/api.md#stories); the ``tag`` filter is case-insensitive, with or without ``#``
(docs/api.md#lists-filters-sorting-and-search)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from storycore.rules.hashtags import extract_hashtags, normalize_tag

BOUNDED = settings(max_examples=100, deadline=None, database=None)


@pytest.mark.parametrize(
    "tag", ["python", "Python", "#python", "#PYTHON", "  #Python  ", "##python"]
)
def test_a_tag_is_compared_lowercase_without_hash_or_spaces(tag: str) -> None:
    assert normalize_tag(tag) == "python"


def test_a_tag_with_a_space_after_its_hash_is_normalized_without_it() -> None:
    assert normalize_tag("# foo") == "foo"


def test_the_hashtags_member_is_normalized() -> None:
    assert extract_hashtags(["#News", "Tech"]) == ["news", "tech"]


@pytest.mark.parametrize("blank", ["", "   ", "#", "##"])
def test_a_blank_hashtag_is_left_out(blank: str) -> None:
    assert extract_hashtags([blank]) == []


def test_hash_words_are_found_in_text() -> None:
    assert extract_hashtags([], "Read about #Python and #rust today") == ["python", "rust"]


def test_a_hash_word_keeps_its_letters_lowercased() -> None:
    assert extract_hashtags([], "#Café #Ölfeld") == ["café", "ölfeld"]


def test_a_hash_word_is_one_word_of_the_search_rule_marks_included() -> None:
    assert extract_hashtags([], "#हिन्दी और #தமிழ்") == ["हिन्दी", "தமிழ்"]


def test_an_underscore_ends_a_hash_word_as_it_ends_a_search_word() -> None:
    assert extract_hashtags([], "#foo_bar") == ["foo"]


def test_a_hash_word_over_100_characters_is_not_a_hashtag() -> None:
    assert extract_hashtags([], "#" + "a" * 101) == []


def test_a_hash_word_ends_at_punctuation() -> None:
    assert extract_hashtags([], "#one, #two. (#three)") == ["one", "two", "three"]


def test_a_hash_inside_a_word_is_not_a_hashtag() -> None:
    assert extract_hashtags([], "issue#12 C#sharp") == []


def test_a_numeric_character_reference_is_not_a_hashtag() -> None:
    assert extract_hashtags([], "it&#39;s") == []


def test_a_lone_hash_is_not_a_hashtag() -> None:
    assert extract_hashtags([], "# heading and #") == []


def test_the_member_comes_first_then_words_from_each_text_in_order() -> None:
    tags = extract_hashtags(["given"], "title #first", "description #second")
    assert tags == ["given", "first", "second"]


def test_each_hashtag_is_listed_once() -> None:
    assert extract_hashtags(["News"], "#news #NEWS", "#News") == ["news"]


def test_a_hashtag_of_100_characters_is_kept_whole() -> None:
    assert extract_hashtags([], "#" + "a" * 100) == ["a" * 100]


@BOUNDED
@given(st.lists(st.text(max_size=20), max_size=5), st.text())
def test_every_hashtag_is_lowercase_without_hash_and_not_blank(
    explicit: list[str], text: str
) -> None:
    for tag in extract_hashtags(explicit, text):
        assert tag
        assert tag == tag.lower()
        assert not tag.startswith("#")


@BOUNDED
@given(st.text(alphabet="abcXYZ_19 #,.&é", max_size=40))
def test_hashtags_found_in_text_are_found_again_from_their_own_list(text: str) -> None:
    tags = extract_hashtags([], text)
    assert extract_hashtags(tags) == tags
    assert extract_hashtags([], " ".join("#" + tag for tag in tags)) == tags
