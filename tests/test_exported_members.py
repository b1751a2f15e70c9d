"""The public names of storycore are pinned: a change to them is a deliberate one."""

from __future__ import annotations

import storycore

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
    "NotImplementedFormat",
    "PayloadTooLarge",
    "ProviderUnavailable",
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
