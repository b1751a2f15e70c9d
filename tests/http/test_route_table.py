"""One route table for everything the app answers (docs/architecture.md#routes): the web host's
rows are the paths of ``storycore.rules.paths``, the reserved usernames are their first
segments (with the words the interface reserves besides), and no row is hidden behind another.
"""

from __future__ import annotations

import pytest

from storycore import Service
from storycore.adapters import open_store
from storycore.errors import InvalidParameter
from storycore.http.api import ROUTES
from storycore.http.routing import Kind, Route, Router, in_api
from storycore.http.table import TABLE
from storycore.rules.paths import WEB_PATHS
from storycore.rules.usernames import INTERFACE_WORDS, RESERVED_USERNAMES, USERNAME_PATTERN
from tests.conftest import TEST_SETTINGS

ROUTER = Router(TABLE)


def _first(route: Route) -> str | None:
    return route.pattern.first()


def _usernames(words: set[str | None]) -> set[str]:
    return {w for w in words if w is not None and USERNAME_PATTERN.fullmatch(w)}


def test_the_web_hosts_rows_are_the_paths_of_the_rules() -> None:
    web = {route.template for route in TABLE if route.kind is not Kind.API}
    assert web == set(WEB_PATHS)
    assert len(WEB_PATHS) == len(set(WEB_PATHS))


def test_the_api_rows_are_the_api_tables_and_under_v1() -> None:
    assert tuple(route for route in TABLE if route.kind is Kind.API) == ROUTES
    assert all(in_api(route.template) for route in ROUTES)


def test_every_first_segment_of_the_web_host_is_a_reserved_username_and_vice_versa() -> None:
    firsts = _usernames({_first(route) for route in TABLE})
    assert firsts == RESERVED_USERNAMES - INTERFACE_WORDS
    assert not INTERFACE_WORDS & firsts  # a word the table reserves is not written twice


def test_every_word_a_row_fixes_where_another_takes_a_username_is_reserved() -> None:
    """``/search`` beside ``/{username}``, ``/v1/stories/browse/...`` beside
    ``/v1/stories/{username}``: either path would otherwise be a user's too. A row of the API
    and one of the web host never share a path (every path under ``/v1`` is the API's), so
    ``/{username}/{slug}/edit`` fixes no word beside ``/v1/stories/{username}``."""
    fixed_there = set()
    for taking in TABLE:
        for index, segment in enumerate(taking.segments):
            if segment != "{username}":
                continue
            before = taking.segments[:index]
            side = in_api(taking.template)
            fixed_there |= {
                other.segments[index]
                for other in TABLE
                if len(other.segments) > index
                and in_api(other.template) == side
                and not other.segments[index].startswith("{")
                and all(
                    a == b or a.startswith("{") or b.startswith("{")
                    for a, b in zip(before, other.segments, strict=False)
                )
            }
    assert _usernames(set(fixed_there)) <= RESERVED_USERNAMES


@pytest.mark.parametrize("word", sorted(RESERVED_USERNAMES))
def test_a_user_named_like_a_reserved_word_is_refused(word: str) -> None:
    service = Service(open_store("memory://"), TEST_SETTINGS)
    with pytest.raises(InvalidParameter) as caught:
        service.accounts.create_user(word.upper(), "a-long-password")
    service.close()
    assert caught.value.field == "username"


def _example(route: Route) -> str:
    """A path that fits ``route``'s template: every parameter an ``x``, a path's two segments
    (``x/x``: what a path parameter takes that a segment's does not)."""
    parts = []
    for segment in route.segments:
        if not segment.startswith("{"):
            parts.append(segment)
        elif segment.endswith(":path}"):
            parts.append("x/x")
        else:
            parts.append("x" + segment[segment.index("}") + 1 :])
    return "/" + "/".join(parts)


@pytest.mark.parametrize("route", TABLE, ids=lambda r: f"{r.method} {r.template}")
def test_no_row_is_hidden_behind_an_earlier_one(route: Route) -> None:
    found = ROUTER.find(_example(route))
    assert found is not None
    assert route in found[0]


def test_in_the_api_a_fixed_segment_wins_over_a_parameter() -> None:
    """Of two API templates that fit one path, the one fixed where the other takes a parameter
    (at the first segment where they differ) comes first in the table (docs/api.md)."""
    order = list(dict.fromkeys(route.template for route in ROUTES))
    patterns = {route.template: route.segments for route in ROUTES}
    for later_index, later in enumerate(order):
        for earlier in order[:later_index]:
            one, other = patterns[earlier], patterns[later]
            if len(one) != len(other):
                continue
            pairs = [(a, b) for a, b in zip(one, other, strict=True) if a != b]
            if all(a.startswith("{") or b.startswith("{") for a, b in pairs) and pairs:
                assert not pairs[0][0].startswith("{"), (earlier, later)
