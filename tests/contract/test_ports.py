"""Every adapter implements every port: each method a port declares without a default body is
defined by the adapter itself, not inherited as the Protocol's ``...``.

``isinstance`` cannot tell: an adapter that subclasses a Protocol passes it with no method at
all. This check looks at where each method is defined.
"""

from __future__ import annotations

from typing import Any

import pytest

from storycore.ports import (
    ApplicationRepository,
    IdentityRepository,
    KeptFiles,
    KeptSources,
    RevisionRepository,
    SearchIndex,
    SignInFailures,
    Store,
    StoryRepository,
    TokenRepository,
    UserRepository,
)

PORTS = {
    "stories": StoryRepository,
    "revisions": RevisionRepository,
    "search": SearchIndex,
    "users": UserRepository,
    "apps": ApplicationRepository,
    "tokens": TokenRepository,
    "identities": IdentityRepository,
    "sign_in_failures": SignInFailures,
    "kept_files": KeptFiles,
    "kept_sources": KeptSources,
}


def _stub(self: object) -> None:
    """A port method without a default: its body is only ``...``."""
    ...


def _is_stub(member: Any) -> bool:
    return callable(member) and member.__code__.co_code == _stub.__code__.co_code


def unimplemented(implementation: object, port: type) -> list[str]:
    """The methods ``port`` declares without a default that ``implementation`` leaves to it."""
    missing = []
    for name, member in vars(port).items():
        if name.startswith("_") or not _is_stub(member):
            continue
        owner = next(klass for klass in type(implementation).__mro__ if name in vars(klass))
        if owner is port or _is_stub(vars(owner)[name]):
            missing.append(name)
    return missing


def test_a_class_that_only_subclasses_a_port_implements_nothing() -> None:
    class Empty(UserRepository):
        pass

    empty = Empty()  # type: ignore[abstract]  # on purpose: it implements none of the port
    assert "get" in unimplemented(empty, UserRepository)
    assert "profiles" not in unimplemented(empty, UserRepository)  # it has a default


def test_the_store_implements_every_port_method(store: Store) -> None:
    assert unimplemented(store, Store) == []


@pytest.mark.parametrize("name", sorted(PORTS))
def test_each_repository_implements_every_method_of_its_port(store: Store, name: str) -> None:
    assert unimplemented(getattr(store, name), PORTS[name]) == []
