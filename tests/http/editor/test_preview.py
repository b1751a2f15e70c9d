"""A story's preview (docs/editor.md#preview-and-history): its page as readers will see it,
marked as a preview, for its author and editors only."""

from __future__ import annotations

from typing import Any

from storycore import Service
from tests._kept_pictures import keep
from tests.http.editor._editor import browser, signed_in, writers

BANNER = "Preview: this is how the story will look. It is not published."


def _story(service: Service, **story: Any) -> str:
    viewer = service.accounts.as_user("alice")
    story = {"title": "Fog in the harbour", **story}
    return service.stories.create("alice", story, viewer=viewer).slug


def _texts(count: int) -> list[dict[str, Any]]:
    return [{"type": "text", "data": {"text": f"<p>Paragraph {n}</p>"}} for n in range(count)]


def test_a_working_story_is_previewed_as_its_page_marked_as_a_preview() -> None:
    service = writers()
    slug = _story(service, description="Boats wait", elements=_texts(1))
    with signed_in(service, "alice") as client:
        page = client.get(f"/alice/{slug}/preview")
    assert page.status_code == 200
    assert BANNER in page.text
    assert '<h1 class="s-title">Fog in the harbour</h1>' in page.text
    assert "<p>Paragraph 0</p>" in page.text


def test_the_preview_is_not_indexed() -> None:
    service = writers()
    slug = _story(service)
    with signed_in(service, "alice") as client:
        page = client.get(f"/alice/{slug}/preview")
    assert '<meta name="robots" content="noindex">' in page.text
    assert page.headers["x-robots-tag"] == "noindex"


def test_the_preview_links_back_to_the_editor() -> None:
    service = writers()
    slug = _story(service)
    with signed_in(service, "alice") as client:
        page = client.get(f"/alice/{slug}/preview")
    assert f'/alice/{slug}/edit">Back to the editor</a>' in page.text


def test_a_published_story_is_previewed_as_published() -> None:
    service = writers()
    slug = _story(service)
    service.stories.publish("alice", slug, viewer=service.accounts.as_user("alice"))
    with signed_in(service, "alice") as client:
        page = client.get(f"/alice/{slug}/preview")
    assert "It is published." in page.text
    assert BANNER not in page.text


def test_an_editor_sees_the_preview() -> None:
    service = writers()
    slug = _story(service)
    with signed_in(service, "ed") as client:
        assert client.get(f"/alice/{slug}/preview").status_code == 200


def test_another_writer_gets_the_404_page() -> None:
    service = writers()
    slug = _story(service)
    with signed_in(service, "bob") as client:
        page = client.get(f"/alice/{slug}/preview")
    assert page.status_code == 404
    assert "Fog in the harbour" not in page.text


def test_another_writer_gets_the_404_page_of_a_published_story_too() -> None:
    service = writers()
    slug = _story(service)
    service.stories.publish("alice", slug, viewer=service.accounts.as_user("alice"))
    with signed_in(service, "bob") as client:
        assert client.get(f"/alice/{slug}/preview").status_code == 404


def test_signed_out_the_preview_goes_to_the_sign_in_page() -> None:
    service = writers()
    slug = _story(service)
    with browser(service) as client:
        page = client.get(f"/alice/{slug}/preview")
    assert page.status_code == 303
    assert page.headers["location"].endswith(f"/signin?next=%2Falice%2F{slug}%2Fpreview")


def test_the_preview_pages_the_elements_as_the_story_page_does() -> None:
    service = writers()
    slug = _story(service, elements=_texts(51))
    with signed_in(service, "alice") as client:
        first = client.get(f"/alice/{slug}/preview")
        second = client.get(f"/alice/{slug}/preview?page=2")
    assert "<p>Paragraph 49</p>" in first.text
    assert "<p>Paragraph 50</p>" not in first.text
    assert f'/alice/{slug}/preview?page=2" rel="next"' in first.text
    assert "<p>Paragraph 50</p>" in second.text


def test_a_page_past_the_last_or_no_page_is_the_404() -> None:
    service = writers()
    slug = _story(service, elements=_texts(1))
    with signed_in(service, "alice") as client:
        statuses = [
            client.get(f"/alice/{slug}/preview?page={p}").status_code for p in ("2", "x", "0")
        ]
    assert statuses == [404, 404, 404]


def test_a_preview_is_no_view_of_the_story() -> None:
    service = writers()
    slug = _story(service)
    alice = service.accounts.as_user("alice")
    service.stories.publish("alice", slug, viewer=alice)
    with signed_in(service, "ed") as client:
        client.get(f"/alice/{slug}/preview")
    service.flush_views()
    (found,) = service.catalog.search("harbour").items
    assert found.stats.views == 0


def test_hostile_content_stays_text_in_the_preview() -> None:
    service = writers()
    hostile = '<script>alert(1)</script><img src=x onerror="alert(2)">'
    slug = _story(
        service,
        title=hostile,
        description=hostile,
        elements=[{"type": "text", "data": {"text": f"<p>{hostile}</p>"}}],
    )
    with signed_in(service, "alice") as client:
        page = client.get(f"/alice/{slug}/preview")
    assert "<script>alert" not in page.text
    assert "onerror=" not in page.text.replace("onerror=&#34;", "")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page.text


def test_the_preview_shows_kept_pictures_as_the_story_page_will() -> None:
    service = writers()
    source = "https://pics.example/fog.png"
    slug = _story(service, elements=[{"type": "image", "data": {"image": {"src": source}}}])
    (original, *_) = keep(service.store, source)
    with signed_in(service, "alice") as client:
        page = client.get(f"/alice/{slug}/preview")
    assert f'/media/{original.name}.webp"' in page.text
    assert source not in page.text
