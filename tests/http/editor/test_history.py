"""A story's history (docs/editor.md#preview-and-history): its revisions newest first, two
versions compared, and a restore that asks first."""

from __future__ import annotations

import re
from typing import Any

from storycore import Service
from tests._clocks import later
from tests.http.editor._editor import browser, form_token, signed_in, writers

HISTORY = "/alice/fog/history"


def _text(html: str) -> dict[str, Any]:
    return {"type": "text", "data": {"text": html}}


def _written(service: Service) -> list[str]:
    """alice's story ``fog``: created (version 1), saved by alice (2), then published by ed
    (3, the story as it is). The element ids, in their first order."""
    alice = service.accounts.as_user("alice")
    first = [_text("<p>The boats wait</p>"), _text("<p>Gulls</p>"), _text("<p>Old pier</p>")]
    created = service.stories.create(
        "alice", {"title": "Fog", "slug": "fog", "elements": first}, viewer=alice
    )
    ids = [element.id for element in service.stories.read("alice", "fog", viewer=alice).elements]
    later(service)
    service.stories.save(
        "alice", created.slug, {"title": "Fog in the harbour"}, viewer=alice, version=1
    )
    later(service)
    service.stories.publish("alice", "fog", viewer=service.accounts.as_user("ed"), version=2)
    return ids


def _save_elements(service: Service, elements: list[dict[str, Any]], **story: Any) -> None:
    alice = service.accounts.as_user("alice")
    version = service.stories.read("alice", "fog", viewer=alice).version
    later(service)
    service.stories.save(
        "alice", "fog", {"elements": elements, **story}, viewer=alice, version=version
    )


def _items(page: str) -> list[str]:
    return re.findall(r'<h3 class="history-title">([^<]*)</h3>', page)


def test_the_history_lists_the_revisions_newest_first() -> None:
    service = writers()
    _written(service)
    with signed_in(service, "alice") as client:
        page = client.get(HISTORY)
    assert page.status_code == 200
    assert _items(page.text) == ["Version 2: Fog in the harbour", "Version 1: Fog"]


def test_each_revision_says_by_whom_when_its_status_and_element_count() -> None:
    service = writers()
    _written(service)
    with signed_in(service, "alice") as client:
        page = client.get(HISTORY).text
    newest = page[page.index("Version 2:") : page.index("Version 1:")]
    assert '<span class="history-by">ed</span>' in newest
    assert re.search(r'<time datetime="[0-9T:.-]+Z">[^<]+ UTC</time>', newest)
    assert "Not published" in newest
    assert "3 elements" in newest


def test_the_history_is_paginated() -> None:
    service = writers()
    _written(service)
    for n in range(20):
        _save_elements(service, [_text(f"<p>Take {n}</p>")])
    with signed_in(service, "alice") as client:
        first, second = client.get(HISTORY), client.get(f"{HISTORY}?page=2")
    assert len(_items(first.text)) == 20
    assert _items(second.text) == ["Version 2: Fog in the harbour", "Version 1: Fog"]


def test_a_page_past_the_last_or_no_page_is_the_404() -> None:
    service = writers()
    _written(service)
    with signed_in(service, "alice") as client:
        statuses = [client.get(f"{HISTORY}?page={page}").status_code for page in ("3", "x")]
    assert statuses == [404, 404]


def test_the_compare_form_offers_every_revision_and_the_current_story() -> None:
    service = writers()
    _written(service)
    with signed_in(service, "alice") as client:
        page = client.get(HISTORY).text
    form = page[page.index('<form class="form compare-form"') :]
    from_options = re.findall(r'<option value="([^"]+)"', form[: form.index('name="to"')])
    to_options = re.findall(r'<option value="([^"]+)"', form[form.index('name="to"') :])
    assert (from_options, to_options) == (["2", "1"], ["current", "2", "1"])


def test_comparing_marks_the_changed_words_of_the_title() -> None:
    service = writers()
    _written(service)
    with signed_in(service, "alice") as client:
        page = client.get(f"{HISTORY}?from=1&to=2")
    assert page.status_code == 200
    assert 'Fog <ins><span class="visually-hidden">added: </span>in the harbour</ins>' in page.text


def test_comparing_with_current_reads_the_story_as_it_is() -> None:
    service = writers()
    _written(service)
    _save_elements(service, [_text("<p>Boats</p>")], description="A calm morning")
    with signed_in(service, "alice") as client:
        page = client.get(f"{HISTORY}?from=3&to=current")
    assert '<ins><span class="visually-hidden">added: </span>A calm morning</ins>' in page.text


def test_comparing_shows_elements_added_removed_moved_and_changed() -> None:
    service = writers()
    wait, _gulls, pier = _written(service)
    _save_elements(
        service,
        [
            {"id": pier, **_text("<p>Old stone pier</p>")},
            {"id": wait, **_text("<p>The boats wait</p>")},
            _text("<p>A bell</p>"),
        ],
    )
    with signed_in(service, "alice") as client:
        page = client.get(f"{HISTORY}?from=3&to=current").text
    assert "1 added, 1 removed, 1 moved, 1 changed" in page
    assert "Added: text at position 3" in page
    assert "Removed: text from position 2" in page
    assert "Text at position 1: moved from position 3 to 1 and changed" in page
    assert 'Old <ins><span class="visually-hidden">added: </span>stone</ins> pier' in page


def test_an_unchanged_comparison_says_nothing_differs() -> None:
    service = writers()
    _written(service)
    with signed_in(service, "alice") as client:
        page = client.get(f"{HISTORY}?from=2&to=2").text
    assert "Nothing differs." in page


def test_versions_that_are_no_numbers_are_the_history_saying_so() -> None:
    service = writers()
    _written(service)
    with signed_in(service, "alice") as client:
        queries = ("from=x&to=1", "from=1&to=", "from=1&to=99999999999999999999")
        answers = [client.get(f"{HISTORY}?{query}") for query in queries]
    assert [answer.status_code for answer in answers] == [400, 400, 400]
    assert all("Choose two versions from the lists" in answer.text for answer in answers)


def test_a_revision_the_story_does_not_have_is_the_404() -> None:
    service = writers()
    _written(service)
    with signed_in(service, "alice") as client:
        statuses = [
            client.get(f"{HISTORY}?{query}").status_code
            for query in ("from=9&to=current", "from=1&to=7", "restore=7", "restore=x")
        ]
    assert statuses == [404, 404, 404, 404]


def test_another_writer_gets_the_404_page() -> None:
    service = writers()
    _written(service)
    service.stories.publish("alice", "fog", viewer=service.accounts.as_user("alice"), version=3)
    with signed_in(service, "bob") as client:
        answers = [client.get(HISTORY), client.get(f"{HISTORY}?from=1&to=current")]
    assert [answer.status_code for answer in answers] == [404, 404]
    assert all("Fog" not in answer.text for answer in answers)


def test_signed_out_the_history_goes_to_the_sign_in_page() -> None:
    service = writers()
    _written(service)
    with browser(service) as client:
        page = client.get(HISTORY)
    assert page.status_code == 303
    assert page.headers["location"].endswith("/signin?next=%2Falice%2Ffog%2Fhistory")


def test_restore_asks_first_and_changes_nothing_until_asked() -> None:
    service = writers()
    _written(service)
    with signed_in(service, "alice") as client:
        page = client.get(f"{HISTORY}?restore=1")
    assert page.status_code == 200
    assert "<h1>Restore version 1 of “Fog in the harbour”?</h1>" in page.text
    assert '<input type="hidden" name="version" value="3">' in page.text
    assert '<del><span class="visually-hidden">removed: </span>in the harbour</del>' in page.text
    alice = service.accounts.as_user("alice")
    assert service.stories.read("alice", "fog", viewer=alice).version == 3


def test_restore_restores_and_goes_to_the_editor() -> None:
    service = writers()
    _written(service)
    with signed_in(service, "alice") as client:
        token = form_token(client.get(f"{HISTORY}?restore=1"))
        form = {"form_token": token, "action": "restore", "revision": "1", "version": "3"}
        answer = client.post(HISTORY, data=form)
    assert answer.status_code == 303
    assert answer.headers["location"].endswith("/alice/fog/edit?done=restored")
    story = service.stories.read("alice", "fog", viewer=service.accounts.as_user("alice"))
    assert (story.title, story.version) == ("Fog", 4)


def test_restore_from_a_stale_version_is_409_and_changes_nothing() -> None:
    service = writers()
    _written(service)
    with signed_in(service, "alice") as client:
        token = form_token(client.get(f"{HISTORY}?restore=1"))
        form = {"form_token": token, "action": "restore", "revision": "1", "version": "2"}
        answer = client.post(HISTORY, data=form)
    assert answer.status_code == 409
    assert "The story changed since" in answer.text
    story = service.stories.read("alice", "fog", viewer=service.accounts.as_user("alice"))
    assert (story.title, story.version) == ("Fog in the harbour", 3)


def test_restore_without_a_version_is_400_and_changes_nothing() -> None:
    service = writers()
    _written(service)
    with signed_in(service, "alice") as client:
        token = form_token(client.get(HISTORY))
        answers = [
            client.post(HISTORY, data={"form_token": token, "action": "restore", "revision": "1"}),
            client.post(HISTORY, data={"form_token": token, "action": "x", "version": "3"}),
        ]
    assert [answer.status_code for answer in answers] == [400, 400]
    story = service.stories.read("alice", "fog", viewer=service.accounts.as_user("alice"))
    assert story.version == 3


def test_restoring_a_revision_the_story_does_not_have_is_the_404() -> None:
    service = writers()
    _written(service)
    with signed_in(service, "alice") as client:
        token = form_token(client.get(HISTORY))
        form = {"form_token": token, "action": "restore", "revision": "9", "version": "3"}
        answer = client.post(HISTORY, data=form)
    assert answer.status_code == 404
    assert "There is no such revision" in answer.text


def test_another_writer_cannot_restore() -> None:
    service = writers()
    _written(service)
    with signed_in(service, "bob") as client:
        token = form_token(client.get("/me"))
        form = {"form_token": token, "action": "restore", "revision": "1", "version": "3"}
        answer = client.post(HISTORY, data=form)
    assert answer.status_code == 404
    story = service.stories.read("alice", "fog", viewer=service.accounts.as_user("alice"))
    assert story.version == 3


def test_hostile_content_stays_text_in_the_comparison() -> None:
    service = writers()
    _written(service)
    hostile = '<script>alert(1)</script><img src=x onerror="alert(2)">'
    _save_elements(
        service,
        [_text(f"<p>{hostile}</p>"), {"type": "image", "data": {"image": {
            "src": "https://pics.example/a.jpg", "caption": hostile}}}],
        title=hostile,
        description=hostile,
    )  # fmt: skip
    with signed_in(service, "alice") as client:
        pages = [client.get(f"{HISTORY}?from=3&to=current"), client.get(f"{HISTORY}?restore=3")]
    for page in pages:
        assert page.status_code == 200
        assert "<script>alert" not in page.text
        assert "<img src=x" not in page.text
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page.text
