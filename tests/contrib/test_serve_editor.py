"""``serve`` serves the editor by default; ``--no-editor`` (and ``STORYCORE_EDITOR=off``, which
it hands its workers) serves none (docs/editor.md)."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from storycore.contrib.asgi import editor_wanted
from tests._serve import serving


def test_serve_serves_the_sign_in_page(tmp_path: Path) -> None:
    with serving(f"sqlite:///{tmp_path / 'stories.db'}", tmp_path, "--workers=1") as base:
        assert httpx.get(f"{base}/signin").status_code == 200


def test_serve_no_editor_serves_no_editor_page_in_any_worker(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'stories.db'}"
    with serving(db, tmp_path, "--no-editor", "--workers=2") as base:
        for _ in range(4):  # the workers share the socket: ask more than once
            assert httpx.get(f"{base}/signin").status_code == 404
            assert httpx.get(f"{base}/me", follow_redirects=False).status_code == 404


@pytest.mark.parametrize("text", ["off", "OFF", "0", "false", "no"])
def test_storycore_editor_off_serves_no_editor(text: str) -> None:
    assert not editor_wanted({"STORYCORE_EDITOR": text})


@pytest.mark.parametrize("environ", [{}, {"STORYCORE_EDITOR": "on"}, {"STORYCORE_EDITOR": ""}])
def test_the_editor_is_served_unless_turned_off(environ: dict[str, str]) -> None:
    assert editor_wanted(environ)
