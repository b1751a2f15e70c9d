"""The editor with its script, in Debian's Chromium (docs/editor.md#with-javascript): it saves
by itself within 2 seconds of the last change, keeps unsaved changes in the browser and offers
them back in a reopened tab, moves the focused element with Alt and the arrow keys (focus kept,
the move said in the live region, the order saved), adds by address without a page load, and
never writes over a newer version; all under the page's security policy, with nothing logged.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from storycore.model.visibility import Viewer
from tests.browser._axe import axe
from tests.browser.conftest import StoryServer, _loopback_only

# Chromium and the server start once, on one worker
pytestmark = [
    pytest.mark.browser,
    pytest.mark.xdist_group("browser-editor-script"),
    pytest.mark.long,
]

USERNAME = "ada"
PASSWORD = "ada-password-1"
#: Generous ceilings for what the page does over the network (a loaded machine is slow).
WAIT_MS = 20_000
#: Records every violation of the page's security policy, before any script of the page runs.
WATCH_POLICY = """
window.__violations = [];
addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective));
"""
VERSION = "document.querySelector('form.editor input[name=version]').value"


@pytest.fixture(scope="module")
def writer(story_server: StoryServer) -> Viewer:
    story_server.service.accounts.create_user(USERNAME, PASSWORD)
    return story_server.service.accounts.as_user(USERNAME)


@pytest.fixture
def tab(browser: Any, story_server: StoryServer, writer: Viewer) -> Iterator[Any]:
    """A tab of a fresh browser context, signed in through the sign-in page, recording what
    is logged and any violation of the security policy."""
    context = browser.new_context()
    yield _signed_in(context, story_server)
    context.close()


def _signed_in(context: Any, server: StoryServer) -> Any:
    context.route("**/*", _loopback_only)
    context.add_init_script(WATCH_POLICY)
    opened = _recording(context.new_page())
    opened.goto(f"{server.base}/signin?next=/me")
    opened.get_by_label("Username").fill(USERNAME)
    opened.get_by_label("Password").fill(PASSWORD)
    opened.get_by_role("button", name="Sign in").click()
    opened.wait_for_url(f"{server.base}/me")
    return opened


def _recording(tab: Any) -> Any:
    tab.logged = []
    tab.on("console", lambda message: tab.logged.append(f"{message.type}: {message.text}"))
    tab.on("pageerror", lambda error: tab.logged.append(f"uncaught: {error}"))
    return tab


def _story(server: StoryServer, writer: Viewer, slug: str, texts: Sequence[str] = ()) -> str:
    """A new story of the writer's with a text element for each of ``texts``: its editor."""
    elements = [{"type": "text", "data": {"text": f"<p>{text}</p>"}} for text in texts]
    story = {"title": f"Story {slug}", "slug": slug, "elements": elements}
    server.service.stories.create(USERNAME, story, viewer=writer)
    return f"{server.base}/{USERNAME}/{slug}/edit"


def _open(tab: Any, address: str) -> None:
    """The editor at ``address``, its script run (it adds the line saying what is saved)."""
    tab.goto(address)
    tab.wait_for_selector("#editor-saved", state="attached")


def _saved_since(tab: Any, version: str) -> str:
    """Waits for a save the page made after ``version``: the version it holds then."""
    tab.wait_for_function(f"v => {VERSION} !== v", arg=version, timeout=WAIT_MS)
    return str(tab.evaluate(VERSION))


def _quiet(tab: Any, *allowed: str) -> None:
    """Nothing logged but the ``allowed`` lines, no violation of the security policy."""
    assert [line for line in tab.logged if not any(a in line for a in allowed)] == []
    assert tab.evaluate("window.__violations") == []


def test_typing_saves_within_two_seconds_of_the_last_change(
    tab: Any, story_server: StoryServer, writer: Viewer
) -> None:
    address = _story(story_server, writer, "autosave")
    tab.clock.install()
    _open(tab, address)
    posted: list[str] = []
    tab.on("request", lambda sent: posted.append(sent.url) if sent.method == "POST" else None)
    version = tab.evaluate(VERSION)

    tab.get_by_label("Title").fill("Fog over the harbour")
    tab.clock.run_for(1_000)
    tab.get_by_label("Title").press("End")
    tab.get_by_label("Title").type("!")
    tab.clock.run_for(1_400)
    assert posted == []  # it waits for a pause in the typing
    tab.clock.run_for(600)  # two seconds after the last change
    _saved_since(tab, version)

    assert len(posted) == 1
    story = story_server.service.stories.edited(USERNAME, "autosave", viewer=writer).story
    assert story.title == "Fog over the harbour!"
    assert tab.locator("#editor-saved").inner_text().startswith("Saved at ")
    _quiet(tab)


def test_a_closed_tab_offers_its_unsaved_changes_back(
    tab: Any, story_server: StoryServer, writer: Viewer
) -> None:
    address = _story(story_server, writer, "backup")
    _open(tab, address)
    tab.context.set_offline(True)
    tab.get_by_label("Description").fill("Written on a train, offline")
    tab.wait_for_function(
        "() => document.querySelector('#editor-saved').textContent.includes('offline')",
        timeout=WAIT_MS,
    )
    context = tab.context
    tab.close()
    context.set_offline(False)
    kept = story_server.service.stories.edited(USERNAME, "backup", viewer=writer).story
    assert kept.description != "Written on a train, offline"

    again = _recording(context.new_page())
    _open(again, address)
    offer = again.get_by_role("region", name="Unsaved changes from")
    assert offer.is_visible()
    assert again.get_by_label("Description").input_value() == ""
    version = again.evaluate(VERSION)
    offer.get_by_role("button", name="Restore them").click()
    _saved_since(again, version)

    story = story_server.service.stories.edited(USERNAME, "backup", viewer=writer).story
    assert story.description == "Written on a train, offline"
    assert again.get_by_label("Description").input_value() == "Written on a train, offline"
    assert again.locator("#editor-backup").count() == 0
    assert again.evaluate("Object.keys(localStorage)") == []
    _quiet(again)


def test_alt_arrow_down_moves_the_focused_element_and_says_where(
    tab: Any, story_server: StoryServer, writer: Viewer
) -> None:
    address = _story(story_server, writer, "moves", ["One", "Two", "Three"])
    before = story_server.service.stories.edited(USERNAME, "moves", viewer=writer)
    one, two, three = (element.id for element in before.elements)
    _open(tab, address)
    version = tab.evaluate(VERSION)

    remove_one = tab.locator(f"button[value='remove:{one}']")
    remove_one.focus()
    tab.keyboard.press("Alt+ArrowDown")

    order = "[...document.querySelectorAll('[data-elements] > li')].map(li => li.dataset.elementId)"
    assert tab.evaluate(order) == [two, one, three]
    assert tab.evaluate("document.activeElement.value") == f"remove:{one}"
    tab.wait_for_function(
        "() => document.querySelector('#editor-live').textContent"
        ".includes('Moved text “One” to position 2 of 3')",
        timeout=WAIT_MS,
    )
    assert tab.locator(f"#element-{one} .editor-element-name").inner_text() == "2. Text “One”"
    _saved_since(tab, version)
    after = story_server.service.stories.edited(USERNAME, "moves", viewer=writer)
    assert [element.id for element in after.elements] == [two, one, three]
    _quiet(tab)


def test_the_last_element_moved_down_by_its_button_keeps_focus_on_a_move_back(
    tab: Any, story_server: StoryServer, writer: Viewer
) -> None:
    address = _story(story_server, writer, "bottom", ["One", "Two"])
    one, two = (
        e.id
        for e in story_server.service.stories.edited(USERNAME, "bottom", viewer=writer).elements
    )
    _open(tab, address)

    tab.locator(f"button[value='down:{one}']").click()

    assert tab.locator(f"button[value='down:{one}']").is_hidden()
    assert tab.evaluate("document.activeElement.value") == f"up:{one}"
    assert tab.locator(f"button[value='up:{two}']").is_hidden()
    assert tab.locator(f"button[value='down:{two}']").is_visible()
    _quiet(tab)


def test_adding_by_address_needs_no_page_load(
    tab: Any, story_server: StoryServer, writer: Viewer
) -> None:
    address = _story(story_server, writer, "adding", ["One"])
    _open(tab, address)
    tab.evaluate("window.__same_page = true")

    tab.get_by_label("Address", exact=True).fill("https://example.com/harbour.jpg")
    tab.get_by_role("button", name="Show it").click()
    tab.wait_for_selector("#preview-heading", timeout=WAIT_MS)
    assert tab.evaluate("document.activeElement.id") == "preview-heading"
    tab.get_by_role("button", name="Add at the bottom").click()
    tab.wait_for_function(
        "() => document.querySelectorAll('[data-elements] > li').length === 2", timeout=WAIT_MS
    )

    assert tab.evaluate("window.__same_page") is True
    elements = story_server.service.stories.edited(USERNAME, "adding", viewer=writer).elements
    assert [element.type for element in elements] == ["text", "image"]
    assert tab.evaluate("document.activeElement.closest('li').dataset.elementId") == elements[1].id
    assert tab.url.endswith("/adding/edit?done=added")
    _quiet(tab, "net::ERR_FAILED")  # the picture, on a host this machine does not ask


def test_a_newer_version_stops_the_autosave_and_shows_the_conflict(
    tab: Any, story_server: StoryServer, writer: Viewer
) -> None:
    address = _story(story_server, writer, "conflict")
    _open(tab, address)
    story_server.service.stories.save(
        USERNAME, "conflict", {"title": "Their title"}, viewer=writer, version=1
    )

    tab.get_by_label("Description").fill("My description")
    tab.wait_for_selector("#conflict-heading", timeout=WAIT_MS)

    story = story_server.service.stories.edited(USERNAME, "conflict", viewer=writer).story
    assert (story.title, story.description or "", story.version) == ("Their title", "", 2)
    assert tab.get_by_label("Description").input_value() == "My description"
    assert tab.evaluate("document.activeElement.id") == "conflict-heading"
    backup = json.loads(tab.evaluate("Object.values(localStorage)[0]"))
    assert ["description", "My description"] in backup["values"]
    _quiet(tab, "status of 409")


def test_changes_kept_from_an_older_version_come_back_as_a_conflict_overwriting_nothing(
    tab: Any, story_server: StoryServer, writer: Viewer
) -> None:
    address = _story(story_server, writer, "older")
    _open(tab, address)
    tab.context.set_offline(True)
    tab.get_by_label("Description").fill("Mine, from the train")
    tab.wait_for_function(
        "() => document.querySelector('#editor-saved').textContent.includes('offline')",
        timeout=WAIT_MS,
    )
    context = tab.context
    tab.close()
    context.set_offline(False)
    story_server.service.stories.save(
        USERNAME, "older", {"title": "Their title"}, viewer=writer, version=1
    )

    again = _recording(context.new_page())
    _open(again, address)
    offer = again.get_by_role("region", name="Unsaved changes from")
    assert "made to version 1" in offer.inner_text()
    offer.get_by_role("button", name="Restore them").click()
    again.wait_for_selector("#conflict-heading", timeout=WAIT_MS)

    story = story_server.service.stories.edited(USERNAME, "older", viewer=writer).story
    assert (story.title, story.description or "", story.version) == ("Their title", "", 2)
    assert again.get_by_label("Description").input_value() == "Mine, from the train"
    assert again.evaluate(VERSION) == "2"
    _quiet(again, "status of 409")


def test_alt_home_and_alt_end_move_the_focused_element_to_the_top_and_the_bottom(
    tab: Any, story_server: StoryServer, writer: Viewer
) -> None:
    address = _story(story_server, writer, "ends", ["One", "Two", "Three"])
    one, two, three = (
        e.id for e in story_server.service.stories.edited(USERNAME, "ends", viewer=writer).elements
    )
    _open(tab, address)
    order = "[...document.querySelectorAll('[data-elements] > li')].map(li => li.dataset.elementId)"

    tab.locator(f"button[value='remove:{two}']").focus()
    tab.keyboard.press("Alt+End")
    assert tab.evaluate(order) == [one, three, two]
    tab.keyboard.press("Alt+Home")
    assert tab.evaluate(order) == [two, one, three]
    assert tab.evaluate("document.activeElement.value") == f"remove:{two}"
    assert tab.url == address
    _quiet(tab)


def test_an_element_dragged_by_its_handle_moves_and_is_saved(
    tab: Any, story_server: StoryServer, writer: Viewer
) -> None:
    address = _story(story_server, writer, "drag", ["One", "Two", "Three"])
    one, two, three = (
        e.id for e in story_server.service.stories.edited(USERNAME, "drag", viewer=writer).elements
    )
    _open(tab, address)
    version = tab.evaluate(VERSION)

    handle = tab.locator(f"#element-{one} .editor-drag")
    last = tab.locator(f"#element-{three}")
    tab.set_viewport_size({"width": 1024, "height": 2400})  # the list, whole on the screen
    last.scroll_into_view_if_needed()
    box = last.bounding_box()
    handle.drag_to(last, target_position={"x": box["width"] / 2, "y": box["height"] - 5})

    _saved_since(tab, version)
    after = story_server.service.stories.edited(USERNAME, "drag", viewer=writer)
    assert [element.id for element in after.elements] == [two, three, one]
    assert tab.locator(f"#element-{one} .editor-element-name").inner_text() == "3. Text “One”"
    _quiet(tab)


def test_removing_needs_no_page_load_and_focus_goes_to_the_next_element(
    tab: Any, story_server: StoryServer, writer: Viewer
) -> None:
    address = _story(story_server, writer, "removing", ["One", "Two"])
    one, two = (
        e.id
        for e in story_server.service.stories.edited(USERNAME, "removing", viewer=writer).elements
    )
    _open(tab, address)
    tab.evaluate("window.__same_page = true")

    tab.locator(f"button[value='remove:{one}']").click()
    tab.wait_for_selector(f"#element-{one}", state="detached", timeout=WAIT_MS)

    assert tab.evaluate("window.__same_page") is True
    elements = story_server.service.stories.edited(USERNAME, "removing", viewer=writer).elements
    assert [element.id for element in elements] == [two]
    assert tab.evaluate("document.activeElement.closest('li').dataset.elementId") == two
    _quiet(tab)


def test_signing_out_waits_for_the_changes_to_be_saved(
    tab: Any, story_server: StoryServer, writer: Viewer
) -> None:
    address = _story(story_server, writer, "leaving")
    _open(tab, address)

    tab.get_by_label("Title").fill("Saved on the way out")
    tab.get_by_role("button", name="Sign out").click()
    tab.wait_for_url(lambda url: "/edit" not in url, timeout=WAIT_MS)

    story = story_server.service.stories.edited(USERNAME, "leaving", viewer=writer).story
    assert story.title == "Saved on the way out"
    _quiet(tab)


def test_a_select_marked_for_the_browsers_time_zone_starts_at_it(
    browser: Any, story_server: StoryServer, writer: Viewer
) -> None:
    address = _story(story_server, writer, "zone")
    context = browser.new_context(timezone_id="Asia/Tokyo")
    tab = _signed_in(context, story_server)
    zones = (
        '<label for="zone">Time zone</label><select id="zone" data-browser-zone>'
        "<option>UTC</option><option>Asia/Tokyo</option></select></main>"
    )

    def with_a_zone(route: Any) -> None:
        answer = route.fetch()
        route.fulfill(response=answer, body=answer.text().replace("</main>", zones, 1))

    tab.route(address, with_a_zone)
    _open(tab, address)

    assert tab.locator("#zone").input_value() == "Asia/Tokyo"
    _quiet(tab)
    context.close()


def test_what_the_script_adds_has_no_wcag_2_2_a_or_aa_violation_found_by_axe(
    tab: Any, story_server: StoryServer, writer: Viewer
) -> None:
    address = _story(story_server, writer, "axe", ["One", "Two"])
    _open(tab, address)
    tab.context.set_offline(True)
    tab.get_by_label("Title").fill("Kept")
    tab.wait_for_function(
        "() => document.querySelector('#editor-saved').textContent.includes('offline')",
        timeout=WAIT_MS,
    )
    context = tab.context
    tab.close()  # before going online, which saves what is kept
    context.set_offline(False)
    again = _recording(context.new_page())
    _open(again, address)
    again.wait_for_selector("#editor-backup")
    again.locator("[data-elements] > li").first.locator("button[value^='down:']").click()

    tags = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
    response = axe(again, {"runOnly": {"type": "tag", "values": tags}})
    assert [(v["id"], [n["target"] for n in v["nodes"]]) for v in response["violations"]] == []


def test_enter_in_a_field_saves_without_a_page_load_and_keeps_focus_there(
    tab: Any, story_server: StoryServer, writer: Viewer
) -> None:
    address = _story(story_server, writer, "enter")
    _open(tab, address)
    tab.evaluate("window.__same_page = true")
    version = tab.evaluate(VERSION)

    tab.get_by_label("Title").fill("Pressed Enter")
    tab.get_by_label("Title").press("Enter")
    _saved_since(tab, version)

    assert tab.evaluate("window.__same_page") is True
    assert tab.evaluate("document.activeElement.id") == "title"
    story = story_server.service.stories.edited(USERNAME, "enter", viewer=writer).story
    assert story.title == "Pressed Enter"
    _quiet(tab)


def test_an_autosave_refused_for_a_value_says_why_and_saves_nothing(
    tab: Any, story_server: StoryServer, writer: Viewer
) -> None:
    address = _story(story_server, writer, "refused")
    _open(tab, address)

    tab.get_by_label("Thumbnail address").fill("not an address")
    tab.wait_for_function(
        "() => document.querySelector('#editor-saved').textContent.startsWith('Not saved: ')",
        timeout=WAIT_MS,
    )

    assert tab.get_by_label("Thumbnail address").input_value() == "not an address"
    story = story_server.service.stories.edited(USERNAME, "refused", viewer=writer).story
    assert (story.thumbnail or "", story.version) == ("", 1)
    _quiet(tab, "status of 400")
