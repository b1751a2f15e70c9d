"""Fixtures of the contract suite: stored authors over the shared ``store`` fixture."""

from __future__ import annotations

import pytest

from storycore.model.records import UserRecord
from storycore.ports import Store
from tests.contract._factories import add_user


@pytest.fixture
def author(store: Store) -> UserRecord:
    """A stored user who writes the stories of a test."""
    return add_user(store, "alice", name="Alice Liddell")


@pytest.fixture
def other_author(store: Store) -> UserRecord:
    """A second stored user."""
    return add_user(store, "bob", name="Bob Builder")
