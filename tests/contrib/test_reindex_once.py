"""Bringing a store up to date (``storycore.usecases.reindex.bring_up_to_date``) is a step of
composing a service, run once where the store is opened first: every command does it, and
``storycore serve`` does it in its own process before its workers start, so the workers, which
compose their services from the environment it hands them, do not do it again, each at once
(docs/decisions.md#serving).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from storycore.adapters import open_store
from storycore.contrib import serving
from storycore.contrib.compose import compose
from storycore.model.derived import DERIVATION_VERSION
from storycore.ports import Store
from tests.contract._factories import make_user

STALE = DERIVATION_VERSION - 1


def _stale(db: str) -> None:
    """A user written straight through the ports, under an older derivation."""
    store: Store = open_store(db)
    try:
        store.users.add(make_user("alice"))
        store.set_derivation(STALE)
    finally:
        store.close()


def _derivation(db: str) -> int | None:
    store = open_store(db)
    try:
        return store.derivation()
    finally:
        store.close()


@pytest.fixture
def db(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'stories.db'}"
    _stale(url)
    return url


def test_composing_a_service_brings_a_stale_store_up_to_date(db: str) -> None:
    with compose(db):
        assert _derivation(db) == DERIVATION_VERSION


def test_a_worker_of_serve_composes_its_service_without_bringing_the_store_up_to_date(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STORYCORE_DB", db)
    app = serving.worker_app()
    try:
        assert _derivation(db) == STALE  # serve brought it up to date before it started them
    finally:
        app.app.service.close()
