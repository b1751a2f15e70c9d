"""docs/webhooks.md runs as written: its Python examples are the example files, the event
reader prints what the page says, and the FastAPI receiver takes a real delivery and refuses a
forged one."""

from __future__ import annotations

import runpy
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from storycore import Service
from storycore.adapters import open_store
from storycore.contrib.webhooks import HttpWebhookSender
from storycore.model.visibility import OPERATOR
from storycore.rules.webhook_secrets import new_key
from storycore.settings import Settings
from tests._markdown import code_blocks
from tests._serve import in_thread

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "webhooks.md"


@pytest.mark.parametrize("example", ["event_reader.py", "webhook_receiver.py"])
def test_the_page_shows_the_example_file_as_it_is(example: str) -> None:
    blocks = code_blocks(PAGE.read_text(), "python")
    assert (ROOT / "examples" / example).read_text() in blocks


def test_the_event_reader_prints_what_the_page_says(capsys: pytest.CaptureFixture[str]) -> None:
    runpy.run_path(str(ROOT / "examples" / "event_reader.py"), run_name="__main__")
    assert capsys.readouterr().out.splitlines() == [
        "user.created ed",
        "story.created harbour-lights",
        "story.published harbour-lights",
        "['story.unpublished']",
    ]


@pytest.fixture
def service() -> Iterator[Service]:
    settings = Settings(webhook_key=new_key(), resolver_allowed_hosts=("127.0.0.1",))
    sender = HttpWebhookSender(allowed_hosts=["127.0.0.1"])
    with Service(open_store("memory://"), settings, webhook_sender=sender) as made:
        made.accounts.create_user("ed", password="a long passphrase", editor=True)
        yield made


@pytest.fixture
def receiver(
    service: Service, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[str, dict[str, Any]]]:
    """The example receiver under uvicorn on 127.0.0.1, registered as a webhook for every
    event; its address and the module's globals (``handled``)."""
    sock = socket.create_server(("127.0.0.1", 0))
    url = f"http://127.0.0.1:{sock.getsockname()[1]}/storycore-events"
    made = service.webhooks.add(url, viewer=OPERATOR)
    monkeypatch.setenv("STORYCORE_WEBHOOK_SECRET", made.secret)
    module = runpy.run_path(str(ROOT / "examples" / "webhook_receiver.py"))
    with in_thread(module["app"], sock):
        yield url, module


def test_the_fastapi_receiver_takes_what_storycore_delivers(
    service: Service, receiver: tuple[str, dict[str, Any]]
) -> None:
    _, module = receiver
    ed = service.accounts.as_user("ed")
    service.stories.create("ed", {"title": "Harbour lights"}, viewer=ed, publish=True)
    assert service.deliver() == 2  # ed was made before the webhook
    kinds = [event["type"] for event in module["handled"].values()]
    assert sorted(kinds) == ["story.created", "story.published"]


def test_the_fastapi_receiver_refuses_a_forged_delivery(
    receiver: tuple[str, dict[str, Any]],
) -> None:
    url, module = receiver
    headers = {
        "webhook-id": "evt_forged",
        "webhook-timestamp": "1800000000",
        "webhook-signature": "v1,bm90IGEgc2lnbmF0dXJl",
    }
    answer = httpx.post(url, content=b'{"type":"story.deleted"}', headers=headers)
    assert (answer.status_code, module["handled"]) == (400, {})
