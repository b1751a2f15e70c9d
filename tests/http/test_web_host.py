"""The public web host's routes through ``HttpApp`` (docs/api.md#slugs, docs/api.md#stories,
docs/api.md#the-web-host):
shortlinks, the embed script and the permalink page, and their redirects.
"""

from __future__ import annotations

from tests.http._clients import Client
from tests.http._shapes import content_of
from tests.http.conftest import PREFIX, World


def test_a_shortlink_answers_301_to_the_permalink(client: Client, world: World) -> None:
    sid = content_of(client.get("/v1/stories/alice/open"))["id"]
    answer = client.get(f"/s/{sid}")
    assert (answer.status, answer.headers["location"]) == (
        301,
        f"{client.web_url}/alice/open",
    )


def test_an_unknown_shortlink_is_the_web_hosts_html_404(client: Client) -> None:
    answer = client.get("/s/nosuchcode")
    assert (answer.status, answer.headers["content-type"]) == (404, "text/html; charset=utf-8")


def test_the_shortlink_of_a_hidden_story_is_the_web_hosts_html_404(
    client: Client, world: World
) -> None:
    sid = content_of(client.get("/v1/stories/alice/draft", world.credentials("alice")))["id"]
    answer = client.get(f"/s/{sid}")
    assert (answer.status, answer.headers["content-type"]) == (404, "text/html; charset=utf-8")


def test_the_embed_script_is_javascript(client: Client) -> None:
    answer = client.get("/alice/open.js")
    assert (answer.status, answer.headers["content-type"]) == (
        200,
        "application/javascript; charset=utf-8",
    )


def test_the_embed_script_of_a_hidden_story_is_a_404_script(client: Client) -> None:
    answer = client.get("/alice/draft.js")
    assert answer.status == 404
    assert answer.headers["content-type"].startswith("application/javascript")
    assert b"console.error" in answer.body


def test_the_permalink_page_is_html(client: Client) -> None:
    answer = client.get("/alice/open")
    assert (answer.status, answer.headers["content-type"]) == (200, "text/html; charset=utf-8")


def test_the_embed_script_and_page_of_an_old_slug_redirect_keeping_the_query(
    client: Client, world: World
) -> None:
    client.post_form(
        "/v1/stories/alice/open/editslug", {**world.credentials("alice"), "slug": "quay"}
    )
    script = client.get("/alice/open.js", {"css": "https://a.example/s.css"})
    page = client.get("/alice/open")
    assert (script.status, script.headers["location"]) == (
        301,
        "/alice/quay.js?css=https%3A%2F%2Fa.example%2Fs.css",
    )
    assert (page.status, page.headers["location"]) == (301, "/alice/quay")


def test_the_embed_script_sends_an_etag_and_honours_if_none_match(client: Client) -> None:
    etag = client.get("/alice/open.js").headers["etag"]
    answer = client.get("/alice/open.js", headers={"If-None-Match": etag})
    assert (answer.status, answer.body) == (304, b"")


def test_the_embed_script_honours_a_weak_if_none_match(client: Client) -> None:
    etag = client.get("/alice/open.js").headers["etag"]
    answer = client.get("/alice/open.js", headers={"If-None-Match": f'"other", W/{etag}'})
    assert answer.status == 304


def test_web_redirects_of_a_mounted_app_carry_its_prefix(mounted: Client, world: World) -> None:
    mounted.post_form(
        "/v1/stories/alice/open/editslug", {**world.credentials("alice"), "slug": "quay"}
    )
    answer = mounted.get("/alice/open.js")
    assert (answer.status, answer.headers["location"]) == (301, f"{PREFIX}/alice/quay.js")
