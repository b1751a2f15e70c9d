"""Keeping pictures is one setting for every command (docs/media.md#how-pictures-are-kept):
``--keep-media on|off`` or ``STORYCORE_KEEP_MEDIA``, else on where the resolver is online."""

from __future__ import annotations

from pathlib import Path

import pytest

from storycore import ConfigurationError
from storycore.contrib._commands import parser
from storycore.contrib._options import composition
from storycore.contrib.compose import Composition


def _keeps(tmp_path: Path, *words: str) -> bool:
    args = parser().parse_args(["--db", f"sqlite:///{tmp_path / 's.db'}", *words])
    with composition(args).service() as service:
        return service.settings.keeps_media


def test_keeping_follows_the_resolver_unless_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("STORYCORE_KEEP_MEDIA", raising=False)
    monkeypatch.delenv("STORYCORE_RESOLVER", raising=False)
    assert _keeps(tmp_path, "serve") is False
    assert _keeps(tmp_path, "serve", "--resolve", "online") is True
    assert _keeps(tmp_path, "serve", "--resolve", "online", "--keep-media", "off") is False
    assert _keeps(tmp_path, "serve", "--keep-media", "on") is True


def test_the_environment_sets_keeping_for_every_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STORYCORE_KEEP_MEDIA", "on")
    assert _keeps(tmp_path, "publish-due") is True
    assert _keeps(tmp_path, "serve", "--keep-media", "off") is False


def test_a_keeping_service_has_a_fetcher(tmp_path: Path) -> None:
    with Composition(db=f"sqlite:///{tmp_path / 's.db'}", keep_media="on").service() as service:
        assert service.keeper.fetching


def test_keep_media_is_on_or_off(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="STORYCORE_KEEP_MEDIA"):
        Composition(db=f"sqlite:///{tmp_path / 's.db'}", keep_media="yes").service()
