"""The public names of storycore and of its testing kit are pinned: a change to them is a
deliberate one."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import storycore
import storycore.testing
from storycore.testing import client, clocks, plugin, rules, stores, strategies

EXPECTED = {
    "ANONYMOUS",
    "ConfigurationError",
    "Conflict",
    "Forbidden",
    "InternalError",
    "InvalidParameter",
    "InvalidSlug",
    "Limits",
    "MethodNotAllowed",
    "MissingDependencyError",
    "Network",
    "NotFound",
    "PayloadTooLarge",
    "ProviderUnavailable",
    "Unavailable",
    "RateLimited",
    "Service",
    "Settings",
    "SlugTaken",
    "StoryMoved",
    "StorycoreError",
    "Unauthorized",
    "VersionConflict",
    "Viewer",
}


def test_storycore_exports_exactly_the_public_names() -> None:
    assert set(storycore.__all__) == EXPECTED


def test_every_exported_name_exists_and_belongs_to_storycore() -> None:
    for name in storycore.__all__:
        member = getattr(storycore, name)
        module = getattr(member, "__module__", None) or type(member).__module__
        assert module.startswith("storycore"), name


def _names(words: str) -> set[str]:
    """The names in ``words``, separated by white space."""
    return set(words.split())


TESTING = {"ManualClock", "client", "clocks", "plugin", "rules", "stores", "strategies"}
STRATEGIES = _names(
    """
    ABSENT ELEMENT_KINDS HOSTILE_FRAGMENTS PERMALINK_KINDS ZONES Absent DataSet ElementKind
    Member NewStory PermalinkKind StoryNarrowing UserSpec data_sets element_ids
    element_objects elements hostile_text invalid_addresses invalid_pagination invalid_slugs
    invalid_usernames json_scalars json_values long_text member_names moments pagination
    permalinks plain_text profile_members search_queries stories story_members story_records
    tag_soup text_html timestamps titles usernames valid_slugs viewers
    """
)
RULES = _names(
    """
    ANONYMOUS MAX_SLUG_LENGTH RESERVED_USERNAMES SLUG_PATTERN USERNAME_PATTERN StoryRecord
    Viewer counts_as_view derive_slug is_http_url is_public is_valid_slug is_valid_username
    may_create_for may_edit may_feature may_list_hidden_stories_of may_view next_free_slug
    normalize_tag same_username story_for viewer_for
    """
)
FIXTURES = _names(
    """
    fresh_service service store store_factory storycore_app storycore_asgi_app
    storycore_client storycore_clock storycore_settings storycore_store_url storycore_users
    """
)
PLUGIN = FIXTURES | _names("DEFAULT_STORE_URLS AppKeys FreshService Users store_id store_urls")
STORES = {"fresh_service", "fresh_store"}
CLIENT = {"ASGIApp", "SyncASGITransport", "asgi_client"}
CLOCKS = {"DEFAULT_START", "ManualClock"}


@pytest.mark.parametrize(
    ("module", "expected"),
    [
        pytest.param(storycore.testing, TESTING, id="testing"),
        pytest.param(strategies, STRATEGIES, id="strategies"),
        pytest.param(rules, RULES, id="rules"),
        pytest.param(plugin, PLUGIN, id="plugin"),
        pytest.param(client, CLIENT, id="client"),
        pytest.param(stores, STORES, id="stores"),
        pytest.param(clocks, CLOCKS, id="clocks"),
    ],
)
def test_the_testing_kit_exports_exactly_its_public_names(
    module: ModuleType, expected: set[str]
) -> None:
    assert set(module.__all__) == expected
    for name in module.__all__:
        assert hasattr(module, name), name


def test_the_plugin_offers_exactly_its_fixtures(tmp_path: Path) -> None:
    (tmp_path / "test_nothing.py").write_text("def test_nothing():\n    pass\n")
    shown = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--fixtures",
            "-q",
            "-p",
            "storycore",
            "-p",
            "no:cacheprovider",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    section = shown.split("fixtures defined from storycore.testing.plugin", 1)[1]
    section = section.split("\n-", 1)[0].split("\n\n\n", 1)[0]
    offered = [line.split(" -- ")[0].split() for line in section.splitlines() if " -- " in line]
    assert {name for name, *_ in offered} == FIXTURES
    # a hypothesis @given test may use only what is not function-scoped
    assert {name for name, *scope in offered if scope} == {"fresh_service"}
    assert ["fresh_service", "[session", "scope]"] in offered
