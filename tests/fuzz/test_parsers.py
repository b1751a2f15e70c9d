"""Fuzzing the story parser and the element normalizer: any input gives a result or a
documented 400, never another exception. The strategies are the testing kit's
(``storycore.testing.strategies``), and the kit's promises are checked here too: what it calls
valid the parsers accept, what it calls invalid they refuse."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storycore import InvalidParameter, InvalidSlug, Settings
from storycore.model.drafts import parse_story
from storycore.model.elements import normalize_elements
from storycore.model.pagination import PageRequest
from storycore.model.records import Element
from storycore.model.resolvers import OfflineResolver
from storycore.rules.addresses import validate_url
from storycore.rules.slugs import validate_slug
from storycore.rules.usernames import validate_username
from storycore.testing.strategies import (
    ELEMENT_KINDS,
    PERMALINK_KINDS,
    element_objects,
    hostile_text,
    invalid_addresses,
    invalid_pagination,
    invalid_slugs,
    invalid_usernames,
    json_values,
    pagination,
    permalinks,
    story_members,
    titles,
    usernames,
    valid_slugs,
)

SETTINGS = Settings()
RESOLVER = OfflineResolver(SETTINGS)
JSON = json_values()
FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
KIT = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


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


@pytest.mark.long
@FUZZ
@given(JSON)
def test_any_story_json_value_parses_or_is_invalid_parameter(value: Any) -> None:
    refusal = _refusal(lambda: parse_story(value, SETTINGS.limits))
    assert refusal is None or refusal.field is None or refusal.field.startswith("story")


@pytest.mark.long
@FUZZ
@given(st.text(max_size=200) | hostile_text() | st.binary(max_size=200))
def test_any_serialized_story_parses_or_is_invalid_parameter(raw: str | bytes) -> None:
    _refusal(lambda: parse_story(raw, SETTINGS.limits))


@pytest.mark.long
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


# -- the kit's promises ------------------------------------------------------------------------


@pytest.mark.long
@KIT
@given(story_members())
def test_the_kits_story_members_parse_and_their_elements_normalize(members: dict[str, Any]) -> None:
    draft = parse_story(members, SETTINGS.limits)
    assert draft.title == members.get("title")
    if draft.elements is not None:
        assert len(_normalize(draft.elements)) == len(members["elements"])


ITEMS_OF_EACH_KIND = [
    *(pytest.param(kind, element_objects(kind), id=f"object-{kind}") for kind in ELEMENT_KINDS),
    *(pytest.param(kind, permalinks(kind), id=f"permalink-{kind}") for kind in PERMALINK_KINDS),
]


@KIT
@given(st.data())
@pytest.mark.parametrize(("kind", "items"), ITEMS_OF_EACH_KIND)
def test_the_kits_element_objects_and_permalinks_normalize_to_their_kind(
    kind: str, items: st.SearchStrategy[str | dict[str, Any]], data: st.DataObject
) -> None:
    item = data.draw(items)
    (element,) = _normalize([item])
    assert element.type == kind
    if isinstance(item, str):
        assert element.permalink == item
    else:
        assert element.id == item.get("id", element.id)


NAME_RULES = [
    pytest.param(valid_slugs(), invalid_slugs(), validate_slug, InvalidSlug, id="slugs"),
    pytest.param(usernames(), invalid_usernames(), validate_username, InvalidParameter, id="users"),
]


@KIT
@given(st.data())
@pytest.mark.parametrize(("valid", "invalid", "validate", "refusal"), NAME_RULES)
def test_the_kits_names_are_accepted_or_refused(
    valid: st.SearchStrategy[str],
    invalid: st.SearchStrategy[str],
    validate: Callable[[str], str],
    refusal: type[InvalidParameter],
    data: st.DataObject,
) -> None:
    name = data.draw(valid, label="valid")
    assert validate(name) == name
    with pytest.raises(refusal):
        validate(data.draw(invalid, label="invalid"))


@KIT
@given(pagination(), invalid_pagination())
def test_the_kits_pagination_is_accepted_or_refused(
    valid: dict[str, int | str], invalid: dict[str, int | str]
) -> None:
    request = PageRequest.parse(valid.get("page"), valid.get("per_page"))
    assert request.page >= 1
    assert 1 <= request.per_page <= SETTINGS.limits.per_page
    with pytest.raises(InvalidParameter) as refused:
        PageRequest.parse(invalid.get("page"), invalid.get("per_page"))
    assert refused.value.field in ("page", "per_page")


@KIT
@given(invalid_addresses())
def test_the_kits_invalid_addresses_are_refused(address: str) -> None:
    with pytest.raises(InvalidParameter):
        validate_url(address, "thumbnail", SETTINGS.limits.address)


@KIT
@given(
    titles() | hostile_text(control_characters=False, long=False).filter(lambda t: len(t) <= 200)
)
def test_the_kits_titles_and_hostile_text_without_controls_are_valid_titles(title: str) -> None:
    assert parse_story({"title": title}, SETTINGS.limits).title == title


@KIT
@given(hostile_text())
def test_the_kits_hostile_text_is_a_title_or_a_400_naming_it(text: str) -> None:
    refusal = _refusal(lambda: parse_story({"title": text}, SETTINGS.limits))
    assert refusal is None or refusal.field == "story.title"
