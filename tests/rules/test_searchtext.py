"""Search words: every word of ``q`` must occur as a whole word, ignoring case and accents
(docs/api.md#lists-filters-sorting-and-search). Stories and queries are reduced to tokens by the
same function."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from storycore.rules.searchtext import fold, found_words, query_tokens, token_text, tokens

BOUNDED = settings(max_examples=100, deadline=None, database=None)


def test_words_are_compared_ignoring_case() -> None:
    assert tokens("Hello WORLD") == tokens("hello world") == ["hello", "world"]


def test_words_are_compared_ignoring_accents() -> None:
    assert tokens("Crème Brûlée") == tokens("creme brulee") == ["creme", "brulee"]


def test_case_folding_goes_beyond_lowercasing() -> None:
    assert tokens("Straße") == tokens("STRASSE") == ["strasse"]


def test_compatibility_forms_match_their_plain_letters() -> None:
    assert tokens("\uff21\uff22\uff23 \ufb01ne") == ["abc", "fine"]  # full-width ABC, "fi" ligature


def test_punctuation_separates_words() -> None:
    assert tokens("well-known, e.g. (this)") == ["well", "known", "e", "g", "this"]


def test_an_underscore_separates_words() -> None:
    assert tokens("snake_case") == ["snake", "case"]


def test_digits_are_word_characters() -> None:
    assert tokens("v1 2026 x86") == ["v1", "2026", "x86"]


def test_a_word_is_not_found_inside_a_longer_word() -> None:
    assert "cat" not in tokens("concatenate category")


def test_tokens_are_distinct_in_order_of_first_appearance() -> None:
    assert tokens("b a B c A") == ["b", "a", "c"]


def test_tokens_come_from_every_text_given() -> None:
    assert tokens("title words", "", "description words") == ["title", "words", "description"]


@pytest.mark.parametrize("query", ["", "   ", "!!!", "— … —", "🎉"])
def test_a_query_without_letters_or_digits_asks_for_no_word(query: str) -> None:
    assert query_tokens(query) == []


def test_a_query_asks_for_each_of_its_words_once() -> None:
    assert query_tokens("Rust rust RÜST") == ["rust"]


def test_fold_removes_accents_and_case() -> None:
    assert fold("École Ñandú") == "ecole nandu"


def test_token_text_joins_tokens_with_spaces() -> None:
    assert token_text(["a", "b"]) == "a b"


@pytest.mark.parametrize("word", ["हिन्दी", "தமிழ்", "မြန်မာ"])
def test_a_word_with_spacing_vowel_signs_is_one_word(word: str) -> None:
    assert len(tokens(word)) == 1


@BOUNDED
@given(st.text())
def test_tokenizing_is_idempotent(text: str) -> None:
    words = tokens(text)
    assert tokens(token_text(words)) == words


@BOUNDED
@given(st.text())
def test_folding_is_idempotent(text: str) -> None:
    assert fold(fold(text)) == fold(text)


@BOUNDED
@given(st.text())
def test_every_word_of_a_text_finds_that_text(text: str) -> None:
    words = set(tokens(text))
    for word in words:
        assert set(query_tokens(word)) <= words


@BOUNDED
@given(st.text())
def test_a_text_and_its_folded_form_have_the_same_tokens(text: str) -> None:
    assert tokens(fold(text)) == tokens(text)


@BOUNDED
@given(st.text(alphabet=st.characters(codec="ascii")))
def test_ascii_words_match_in_any_case(text: str) -> None:
    assert tokens(text.upper()) == tokens(text.lower()) == tokens(text)


def test_the_words_a_search_marks_are_the_words_it_matched() -> None:
    text = "Crème brûlée, STRAßE & creme_brulee: crème-brûlée"
    marked = [text[start:end] for start, end in found_words(text, query_tokens("creme strasse"))]
    assert marked == ["Crème", "STRAßE", "creme", "crème"]


def test_no_word_is_found_for_a_query_without_words() -> None:
    assert found_words("quay <script>", query_tokens("<>*")) == []


@BOUNDED
@given(st.text(alphabet=st.sampled_from("aéEÉß ss-_.<>&\u0301\u0915\u093f\uff21 ")), st.text())
def test_found_words_fold_to_exactly_the_query_words_the_text_holds(text: str, q: str) -> None:
    words = query_tokens(q) + tokens(text)[:2]
    found = {token for start, end in found_words(text, words) for token in tokens(text[start:end])}
    assert found == set(tokens(text)) & set(words)
