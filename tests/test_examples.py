"""The mount examples run as written: storycore under a prefix of a host application."""

from __future__ import annotations

import asyncio
import importlib
import os
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import httpx
import pytest


@pytest.fixture
def in_tmp(tmp_path: Path) -> Iterator[Path]:
    """Run the example in a temporary directory (its SQLite file lands there)."""
    before = Path.cwd()
    os.chdir(tmp_path)
    yield tmp_path
    os.chdir(before)


def _load(name: str) -> ModuleType:
    module = importlib.import_module(f"examples.{name}")
    return importlib.reload(module)


def _seed(module: ModuleType) -> None:
    service = module.service
    service.accounts.create_user("alice", "a-password")
    alice = service.accounts.as_user("alice")
    for title in ("One", "Two"):
        service.stories.create("alice", {"title": title}, viewer=alice, publish=True)
        time.sleep(0.002)  # distinct publication times (millisecond resolution)


def test_the_starlette_example_serves_the_api_under_its_prefix(in_tmp: Path) -> None:
    module = _load("starlette_mount")
    _seed(module)

    async def ask() -> tuple[httpx.Response, httpx.Response]:
        transport = httpx.ASGITransport(app=module.app)
        async with httpx.AsyncClient(transport=transport, base_url="http://host") as client:
            home = await client.get("/")
            return home, await client.get("/stories-api/v1/stories", params={"per_page": 1})

    home, answer = asyncio.run(ask())
    assert home.text == "the host application"
    assert answer.status_code == 200
    assert answer.json()["content"]["stories"][0]["title"] == "Two"
    assert answer.headers["link"].startswith("</stories-api/v1/stories?")
    module.service.close()


def test_the_flask_example_serves_the_api_under_its_prefix(in_tmp: Path) -> None:
    module = _load("flask_mount")
    _seed(module)
    client = module.app.test_client()
    assert client.get("/").text == "the host application"
    answer = client.get("/stories-api/v1/stories?per_page=1")
    assert answer.status_code == 200
    assert answer.json["content"]["stories"][0]["title"] == "Two"
    assert answer.headers["Link"].startswith("</stories-api/v1/stories?")
    module.service.close()
