"""The story editor (docs/editor.md#the-editor): one form, complete without JavaScript. Each
test posts the form as a browser does: every field the page holds, as the page holds it (with
what the writer typed), and the one button pressed."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser

import httpx
import pytest

from storycore import Service
from storycore.adapters import open_store
from storycore.contrib.asgi import StorycoreASGI
from storycore.model.visibility import Viewer
from storycore.testing.client import asgi_client
from tests.conftest import TEST_SETTINGS

PICTURE = "https://pictures.example/harbour.jpg"
POST = "https://socialA.example/marrakesh_news/status/1"
PAGE = "https://news.example/fog"


class _FormFields(HTMLParser):
    """The fields a browser sends of a page's editor form, in order: inputs (a checkbox when
    checked), textareas and selects (their selected option); never buttons."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.pairs: list[tuple[str, str]] = []
        self._in_form = False
        self._textarea: str | None = None
        self._select: str | None = None
        self._first_option: str | None = None
        self._chosen = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {name: value or "" for name, value in attrs}
        if tag == "form" and "editor" in found.get("class", ""):
            self._in_form = True
        if not self._in_form:
            return
        name = found.get("name")
        if tag == "input" and name:
            if found.get("type") != "checkbox" or "checked" in found:
                self.pairs.append((name, found.get("value", "")))
        elif tag == "textarea" and name:
            self._textarea = name
            self.pairs.append((name, ""))
        elif tag == "select" and name:
            self._select, self._first_option, self._chosen = name, None, False
        elif tag == "option" and self._select:
            if self._first_option is None:
                self._first_option = found.get("value", "")
            if "selected" in found:
                self.pairs.append((self._select, found.get("value", "")))
                self._chosen = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._in_form = False
        elif tag == "textarea":
            self._textarea = None
        elif tag == "select" and self._select:
            if not self._chosen:
                self.pairs.append((self._select, self._first_option or ""))
            self._select = None

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            name, value = self.pairs[-1]
            self.pairs[-1] = (name, value + data.removeprefix("\n") if not value else value + data)


def form_of(page: str, **typed: str) -> list[tuple[str, str]]:
    """The editor form of ``page`` as a browser sends it, with ``typed`` in place of what the
    page holds (a name not on the page is added)."""
    parser = _FormFields()
    parser.feed(page)
    pairs = [(name, typed.get(name, value)) for name, value in parser.pairs]
    return pairs + [(name, value) for name, value in typed.items() if name not in dict(pairs)]


class Writer:
    """A browser signed in to the editor."""

    def __init__(self, client: httpx.Client, service: Service, username: str) -> None:
        self.client, self.service, self.username = client, service, username

    @property
    def viewer(self) -> Viewer:
        return self.service.accounts.as_user(self.username)

    def editor(self, slug: str) -> str:
        return f"/{self.username}/{slug}/edit"

    def press(self, slug: str, page: str, action: str, **typed: str) -> httpx.Response:
        """Presses the button ``action`` of the editor ``page`` with ``typed`` typed."""
        return self.client.post(
            self.editor(slug),
            content=_encoded([*form_of(page, **typed), ("action", action)]),
            headers={"Content-Type": "application/x-www-form-urlencoded"},
        )


def _encoded(pairs: list[tuple[str, str]]) -> str:
    from urllib.parse import urlencode

    return urlencode(pairs)


def sign_in(client: httpx.Client, username: str) -> None:
    page = client.get("/signin")
    token = re.search(r'name="form_token" value="([^"]+)"', page.text)
    assert token is not None
    client.post(
        "/signin",
        data={"form_token": token[1], "username": username, "password": f"{username}-password"},
    )


@pytest.fixture
def service() -> Iterator[Service]:
    with Service(open_store("memory://"), settings=TEST_SETTINGS) as made:
        made.accounts.create_user("alice", "alice-password")
        made.accounts.create_user("bob", "bob-password")
        yield made


@pytest.fixture
def alice(service: Service) -> Iterator[Writer]:
    with asgi_client(StorycoreASGI(service)) as client:
        sign_in(client, "alice")
        yield Writer(client, service, "alice")


def story(writer: Writer, **members: object) -> str:
    """A story of ``writer``'s: its slug."""
    made = writer.service.stories.create(
        writer.username, {"title": "Fog", **members}, viewer=writer.viewer
    )
    return made.slug


def stored(writer: Writer, slug: str) -> dict[str, object]:
    edited = writer.service.stories.edited(writer.username, slug, viewer=writer.viewer)
    return {
        "title": edited.story.title,
        "version": edited.story.version,
        "elements": [element.type for element in edited.elements],
        "ids": [element.id for element in edited.elements],
        "data": [element.data for element in edited.elements],
    }


def ids(writer: Writer, slug: str) -> list[str]:
    return stored(writer, slug)["ids"]  # type: ignore[return-value]


def element_ids_on(page: str) -> list[str]:
    return re.findall(r'name="element" value="([^"]+)"', page)


def test_the_editor_shows_every_member_and_element(alice: Writer) -> None:
    slug = story(
        alice,
        description="Morning",
        thumbnail=PICTURE,
        topics=["weather", "sea"],
        hashtags=["fog"],
        private=True,
        elements=[POST, PICTURE, PAGE, {"type": "text", "data": {"text": "<p>Grey.</p>"}}],
    )
    page = alice.client.get(alice.editor(slug))
    fields = dict(form_of(page.text))
    assert page.status_code == 200
    assert (fields["title"], fields["description"], fields["thumbnail"]) == (
        "Fog",
        "Morning",
        PICTURE,
    )
    assert (fields["topics"], fields["hashtags"]) == ("weather, sea", "fog")
    assert fields["private"] == "on"
    assert fields["version"] == "1"
    assert element_ids_on(page.text) == ids(alice, slug)
    assert "Move quote by marrakesh_news down" in _button_names(page.text)


def _button_names(page: str) -> list[str]:
    buttons = re.findall(r"<button[^>]*>(.*?)</button>", page, re.S)
    return [" ".join(re.sub(r"<[^>]+>", "", button).split()) for button in buttons]


@pytest.mark.parametrize(
    ("move", "which", "expected"),
    [("up", 1, [1, 0, 2]), ("down", 1, [0, 2, 1]), ("top", 2, [2, 0, 1]), ("bottom", 0, [1, 2, 0])],
)
def test_a_move_keeps_what_was_typed_and_reorders_as_asked(
    alice: Writer, move: str, which: int, expected: list[int]
) -> None:
    slug = story(alice, elements=[POST, PICTURE, PAGE])
    before = ids(alice, slug)
    page = alice.client.get(alice.editor(slug)).text
    answer = alice.press(slug, page, f"{move}:{before[which]}", title="Fog, typed")
    assert answer.status_code == 303
    assert ids(alice, slug) == [before[i] for i in expected]
    assert stored(alice, slug)["title"] == "Fog, typed"


def test_a_move_returns_to_the_element_moved(alice: Writer) -> None:
    slug = story(alice, elements=[POST, PICTURE])
    moved = ids(alice, slug)[1]
    page = alice.client.get(alice.editor(slug)).text
    answer = alice.press(slug, page, f"up:{moved}")
    assert answer.headers["location"].endswith(f"/alice/{slug}/edit?done=saved#element-{moved}")


def test_remove_keeps_what_was_typed_and_removes_the_element(alice: Writer) -> None:
    slug = story(alice, elements=[POST, PICTURE, PAGE])
    before = ids(alice, slug)
    page = alice.client.get(alice.editor(slug)).text
    alice.press(slug, page, f"remove:{before[1]}", description="typed before removing")
    assert ids(alice, slug) == [before[0], before[2]]
    assert alice.service.stories.read("alice", slug, viewer=alice.viewer).description == (
        "typed before removing"
    )


def test_an_address_is_shown_before_it_is_added(alice: Writer) -> None:
    slug = story(alice)
    page = alice.client.get(alice.editor(slug)).text
    shown = alice.press(slug, page, "preview-add", address=POST, title="Typed")
    assert shown.status_code == 200
    assert "It adds the quote by marrakesh_news" in shown.text
    assert dict(form_of(shown.text))["title"] == "Typed"
    assert stored(alice, slug)["version"] == 1


@pytest.mark.parametrize(("button", "at"), [("add-address:top", 0), ("add-address:bottom", 2)])
def test_an_address_shown_is_added_where_asked(alice: Writer, button: str, at: int) -> None:
    slug = story(alice, elements=[PICTURE, PAGE])
    page = alice.client.get(alice.editor(slug)).text
    shown = alice.press(slug, page, "preview-add", address=POST).text
    answer = alice.press(slug, shown, button, title="Kept")
    assert answer.status_code == 303
    assert stored(alice, slug)["elements"][at] == "quote"  # type: ignore[index]
    assert stored(alice, slug)["title"] == "Kept"


def test_text_is_added_after_the_element_chosen(alice: Writer) -> None:
    slug = story(alice, elements=[PICTURE, PAGE])
    first = ids(alice, slug)[0]
    page = alice.client.get(alice.editor(slug)).text
    alice.press(
        slug, page, "add-text:position", new_text="<p>Between</p>", position=f"after:{first}"
    )
    assert stored(alice, slug)["elements"] == ["image", "text", "link"]


def test_text_edited_in_place_is_sanitized(alice: Writer) -> None:
    slug = story(alice, elements=[{"type": "text", "data": {"text": "<p>Old</p>"}}])
    text_id = ids(alice, slug)[0]
    page = alice.client.get(alice.editor(slug)).text
    typed = {f"text-{text_id}": '<p onclick="x()">New <b>bold</b><script>alert(1)</script></p>'}
    alice.press(slug, page, "save", **typed)
    assert stored(alice, slug)["data"] == [{"text": "<p>New <b>bold</b></p>"}]


def test_a_caption_is_the_images_alt(alice: Writer) -> None:
    slug = story(alice, elements=[PICTURE])
    image_id = ids(alice, slug)[0]
    page = alice.client.get(alice.editor(slug)).text
    alice.press(slug, page, "save", **{f"caption-{image_id}": "Boats in the fog"})
    edited = alice.client.get(alice.editor(slug)).text
    assert 'alt="Boats in the fog"' in edited


def test_an_image_without_a_caption_is_flagged(alice: Writer) -> None:
    slug = story(alice, elements=[PICTURE])
    image_id = ids(alice, slug)[0]
    page = alice.client.get(alice.editor(slug)).text
    assert f'id="caption-{image_id}-prompt"' in page
    assert "This image has no caption." in page


def test_a_conflict_answers_409_keeps_the_writers_values_and_saves_nothing(
    alice: Writer,
) -> None:
    slug = story(alice, elements=[PICTURE])
    page = alice.client.get(alice.editor(slug)).text
    alice.service.stories.save(
        "alice", slug, {"title": "Theirs", "elements": [PICTURE, PAGE]}, viewer=alice.viewer
    )
    newer = stored(alice, slug)
    answer = alice.press(slug, page, "save", title="Mine")
    fields = dict(form_of(answer.text))
    assert answer.status_code == 409
    assert "This story changed since you opened it" in answer.text
    assert (fields["title"], fields["version"]) == ("Mine", "2")
    assert stored(alice, slug) == newer


def test_a_conflict_keeps_what_the_newer_version_added_to_apply_again(alice: Writer) -> None:
    slug = story(alice, elements=[PICTURE])
    page = alice.client.get(alice.editor(slug)).text
    alice.service.stories.save("alice", slug, {"elements": [PICTURE, PAGE]}, viewer=alice.viewer)
    conflict = alice.press(slug, page, "save", title="Mine").text
    alice.press(slug, conflict, "save")
    assert (stored(alice, slug)["title"], stored(alice, slug)["elements"]) == (
        "Mine",
        ["image", "link"],
    )


def test_a_refused_value_is_shown_beside_its_field_as_typed(alice: Writer) -> None:
    slug = story(alice)
    page = alice.client.get(alice.editor(slug)).text
    answer = alice.press(slug, page, "save", title="x" * 201, description="typed")
    assert answer.status_code == 400
    beside = r'id="title"[^>]*aria-describedby="title-problem"[^>]*aria-invalid="true"'
    assert re.search(beside, answer.text)
    assert dict(form_of(answer.text))["description"] == "typed"


def test_sources_find_elements_of_readable_stories_to_add(alice: Writer) -> None:
    bob = alice.service.accounts.as_user("bob")
    alice.service.stories.create(
        "bob", {"title": "Harbour", "elements": [POST]}, viewer=bob, publish=True
    )
    slug = story(alice)
    page = alice.client.get(alice.editor(slug)).text
    found = alice.press(slug, page, "find-sources", q="marrakesh_news").text
    key = re.search(r'value="add-source:([^"]+)"', found)
    assert key is not None
    alice.press(slug, found, f"add-source:{key[1]}")
    assert stored(alice, slug)["elements"] == ["quote"]


def test_another_writer_finds_no_editor(service: Service) -> None:
    slug = service.stories.create(
        "alice", {"title": "Fog"}, viewer=service.accounts.as_user("alice"), publish=True
    ).slug
    with asgi_client(StorycoreASGI(service)) as client:
        sign_in(client, "bob")
        assert client.get(f"/alice/{slug}/edit").status_code == 404


def test_someone_signed_out_is_sent_to_sign_in(service: Service) -> None:
    slug = service.stories.create(
        "alice", {"title": "Fog"}, viewer=service.accounts.as_user("alice")
    ).slug
    with asgi_client(StorycoreASGI(service)) as client:
        answer = client.get(f"/alice/{slug}/edit")
    assert answer.status_code == 303
    assert answer.headers["location"].endswith(f"/signin?next=%2Falice%2F{slug}%2Fedit")


def test_hostile_content_stays_text_in_the_editor(alice: Writer) -> None:
    hostile = "<script>alert(1)</script>"
    slug = story(
        alice,
        title=f"Fog {hostile}",
        description=hostile,
        elements=[
            {"type": "quote", "permalink": POST, "data": {"quote": {"text": hostile}}},
            {"type": "text", "data": {"text": f"<p>Hi</p>{hostile}"}},
            {
                "type": "image",
                "permalink": PICTURE,
                "data": {"image": {"src": PICTURE, "caption": hostile}},
            },
        ],
    )
    page = alice.client.get(alice.editor(slug)).text
    assert "<script>alert" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_every_form_field_maps_to_a_label(alice: Writer) -> None:
    slug = story(alice, elements=[PICTURE, {"type": "text", "data": {"text": "<p>x</p>"}}])
    page = alice.client.get(alice.editor(slug)).text
    visible = re.findall(r'<(?:input|textarea|select) id="([^"]+)"', page)
    labelled = set(re.findall(r'<label for="([^"]+)"', page))
    assert set(visible) <= labelled


def test_a_form_without_its_version_saves_nothing(alice: Writer) -> None:
    slug = story(alice)
    page = alice.client.get(alice.editor(slug)).text
    answer = alice.press(slug, page, "save", version="", title="Overwritten")
    assert answer.status_code == 400
    assert stored(alice, slug)["title"] == "Fog"


def test_an_address_refused_is_shown_beside_it_and_adds_nothing(alice: Writer) -> None:
    slug = story(alice)
    page = alice.client.get(alice.editor(slug)).text
    answer = alice.press(slug, page, "add-address:bottom", address="javascript:alert(1)")
    assert answer.status_code == 400
    assert 'aria-describedby="address-problem address-hint" aria-invalid="true"' in answer.text
    assert stored(alice, slug)["elements"] == []


def test_a_conflict_says_what_the_newer_version_changed(alice: Writer) -> None:
    slug = story(alice, elements=[PICTURE])
    page = alice.client.get(alice.editor(slug)).text
    alice.service.stories.save(
        "alice", slug, {"title": "Theirs", "elements": [PAGE]}, viewer=alice.viewer
    )
    changes = alice.press(slug, page, "save").text
    listed = changes[changes.index('class="conflict-changes"') : changes.index("</ul>")]
    assert "Title: now “Theirs”" in listed
    assert "Added link to news.example" in listed
    assert "Removed image from pictures.example" in listed


def test_a_form_posted_after_a_slug_change_keeps_what_was_typed(alice: Writer) -> None:
    slug = story(alice)
    page = alice.client.get(alice.editor(slug)).text
    alice.service.stories.change_slug("alice", slug, "moved", viewer=alice.viewer)
    answer = alice.press(slug, page, "save", title="Typed")
    assert answer.status_code == 409
    assert dict(form_of(answer.text))["title"] == "Typed"


def test_the_editor_of_an_old_slug_leads_to_the_new_one(alice: Writer) -> None:
    slug = story(alice)
    alice.service.stories.change_slug("alice", slug, "moved", viewer=alice.viewer)
    answer = alice.client.get(alice.editor(slug))
    assert (answer.status_code, answer.headers["location"]) == (
        303,
        "http://testserver/alice/moved/edit",
    )
