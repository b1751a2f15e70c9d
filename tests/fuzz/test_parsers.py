"""Fuzzing the story parser and the element normalizer: any input gives a result or a
documented 400, never another exception."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storycore import InvalidParameter, Settings
from storycore.drafts import parse_story
from storycore.elements import normalize_elements
from storycore.records import Element
from storycore.resolvers import OfflineResolver

SETTINGS = Settings()
RESOLVER = OfflineResolver(SETTINGS)
KEYS = st.sampled_from(
    ["title", "slug", "description", "thumbnail", "elements", "private", "topics", "hashtags",
     "type", "id", "permalink", "data", "text", "src", "source", "attribution", "href",
     "quote", "link", "image", "video", "posted_at", "added_at", "width", "caption", "x"]
)  # fmt: skip
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True)
    | st.text(max_size=40)
    | st.sampled_from(["https://a.example/x.png", "javascript:alert(1)", "", "quote", "text"])
)
JSON = st.recursive(
    SCALARS,
    lambda children: st.lists(children, max_size=5) | st.dictionaries(KEYS, children, max_size=6),
    max_leaves=30,
)
FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _refusal(call: Callable[[], object]) -> InvalidParameter | None:
    """The 400 ``call`` raised, or None when it succeeded; any other exception propagates."""
    try:
        call()
    except InvalidParameter as exc:
        return exc
    return None


def _normalize(items: list[Any]) -> list[Element]:
    return normalize_elements(
        items,
        path="story.elements",
        limits=SETTINGS.limits,
        resolver=RESOLVER,
        previous=[],
        now="2026-11-23T00:00:00.000Z",
    )


@FUZZ
@given(JSON)
def test_any_story_json_value_parses_or_is_invalid_parameter(value: Any) -> None:
    refusal = _refusal(lambda: parse_story(value, SETTINGS.limits))
    assert refusal is None or refusal.field is None or refusal.field.startswith("story")


@FUZZ
@given(st.text(max_size=200) | st.binary(max_size=200))
def test_any_serialized_story_parses_or_is_invalid_parameter(raw: str | bytes) -> None:
    _refusal(lambda: parse_story(raw, SETTINGS.limits))


@FUZZ
@given(st.lists(JSON, max_size=6))
def test_any_elements_normalize_or_are_invalid_parameter(items: list[Any]) -> None:
    refusal = _refusal(lambda: _normalize(items))
    if refusal is not None:
        assert (refusal.field or "").startswith("story.elements.")
        return
    elements = _normalize(items)
    assert len(elements) == len(items)
    assert len({element.id for element in elements}) == len(elements)
    for element in elements:
        for address in (element.permalink, element.source.href if element.source else None):
            assert not address or address.lower().startswith(("http://", "https://"))
