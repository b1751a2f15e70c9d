"""Fuzzing the story parser and the element normalizer: any input gives a result or a
documented 400, never another exception."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storycore import InvalidParameter, Settings
from storycore.drafts import parse_story
from storycore.elements import normalize_elements
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


@FUZZ
@given(JSON)
def test_any_story_json_value_parses_or_is_invalid_parameter(value: Any) -> None:
    try:
        parse_story(value, SETTINGS.limits)
    except InvalidParameter as exc:
        assert exc.field is None or exc.field.startswith("story")


@FUZZ
@given(st.text(max_size=200) | st.binary(max_size=200))
def test_any_serialized_story_parses_or_is_invalid_parameter(raw: str | bytes) -> None:
    try:
        parse_story(raw, SETTINGS.limits)
    except InvalidParameter:
        pass


@FUZZ
@given(st.lists(JSON, max_size=6))
def test_any_elements_normalize_or_are_invalid_parameter(items: list[Any]) -> None:
    try:
        elements = normalize_elements(
            items,
            path="story.elements",
            limits=SETTINGS.limits,
            resolver=RESOLVER,
            previous=[],
            now="2026-11-23T00:00:00.000Z",
        )
    except InvalidParameter as exc:
        assert exc.field is not None and exc.field.startswith("story.elements.")
        return
    assert len(elements) == len(items)
    assert len({element.id for element in elements}) == len(elements)
    for element in elements:
        for address in (element.permalink, *((element.source and [element.source.href]) or [])):
            assert not address or address.lower().startswith(("http://", "https://"))
