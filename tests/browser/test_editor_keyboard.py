"""A story written with the keyboard alone, and with forms alone, in Debian's Chromium
(docs/editor.md#quality).

With the keyboard (Tab, Shift+Tab, Enter, Space and typing; the page is only read, to know
where the focus is): sign in, start a story from the desk, give it a title, add a text, show an
address then add it, move an element with its named Move buttons (the focus, or where Tab
goes next, is then on the element moved), save; publish and schedule once the editor has those
forms. With JavaScript off, the same with the forms (filled and pressed through locators). Each
ends with the story, read through the service, as the steps made it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from storycore import Service
from tests.browser._editor_states import routed
from tests.browser.conftest import StoryServer

pytestmark = [
    pytest.mark.browser,
    pytest.mark.xdist_group("browser-editor-keyboard"),
    pytest.mark.long,
]

#: How many presses of Tab may separate two controls of the editor before a test gives up.
MOST_TABS = 120
WAIT_MS = 20_000
TEXT = "Fog over the harbour this morning."
TEXT_NAME = f"text “{TEXT}”"
POST = "https://socialA.example/porto_news/status/9"
POST_NAME = "quote by porto_news"
#: The day a story is scheduled for (a schedule is at most a year ahead), at 10:30 in the
#: evening, UTC; typed into Chromium's date and time fields as the en-US locale reads them.
DAY = (datetime.now(UTC) + timedelta(days=30)).date()
DATE_TYPED, TIME_TYPED = DAY.strftime("%m%d%Y"), "1030PM"
SCHEDULED = f"{DAY.isoformat()}T22:30"

#: The accessible name of the focused control, near enough for these pages: its label, else
#: its text (with the words only screen readers get), else its value.
FOCUSED_NAME = """() => {
  const focused = document.activeElement;
  if (!focused || focused === document.body) return '';
  const label = focused.labels && focused.labels.length ? focused.labels[0].innerText : '';
  return (label || focused.getAttribute('aria-label') || focused.textContent || focused.value || '')
    .replace(/\\s+/g, ' ').trim();
}"""


@pytest.fixture(scope="module")
def service(story_server: StoryServer) -> Service:
    for username in ("typist", "former"):
        story_server.service.accounts.create_user(username, f"{username}-password")
    return story_server.service


@pytest.fixture
def keyboard_tab(browser: Any) -> Iterator[Any]:
    context = browser.new_context(locale="en-US", timezone_id="UTC")
    yield context.new_page()
    context.close()


@pytest.fixture
def form_tab(browser: Any) -> Iterator[Any]:
    context = browser.new_context(java_script_enabled=False, locale="en-US")
    yield context.new_page()
    context.close()


def _focused(tab: Any) -> str:
    name: str = tab.evaluate(FOCUSED_NAME)
    return name


def _tab_to(tab: Any, name: str, key: str = "Tab") -> None:
    """Presses Tab (or ``key``: Shift+Tab) until the control named ``name`` has the focus."""
    for _ in range(MOST_TABS):
        if _focused(tab) == name:
            return
        tab.keyboard.press(key)
    raise AssertionError(f"{MOST_TABS} presses of {key} never reached {name!r}")


def _press(tab: Any, name: str, key: str = "Enter") -> None:
    """Tabs to the control named ``name`` and presses ``key`` on it."""
    _tab_to(tab, name)
    tab.keyboard.press(key)


def _heard(tab: Any, words: str, action: Callable[[], None]) -> None:
    """Does ``action``, then waits until the page's notice says ``words``: the notice shown
    before is emptied first, so that only what the action led to is heard (a new page, or a
    live region a script fills)."""
    tab.evaluate(
        "() => document.querySelectorAll('[role=status]').forEach((region) => "
        "region.replaceChildren())"
    )
    action()
    tab.wait_for_function(
        "(words) => [...document.querySelectorAll('[role=status]')]"
        ".some((region) => region.textContent.includes(words))",
        arg=words,
        timeout=WAIT_MS,
    )


def _order(tab: Any) -> list[str]:
    order: list[str] = tab.eval_on_selector_all(
        "[data-element-id]", "(items) => items.map((item) => item.dataset.elementType)"
    )
    return order


def _editor_path(tab: Any) -> str:
    found = re.search(r"(/[^/]+/[^/]+/edit)", tab.url)
    assert found is not None, tab.url
    return found[1]


def _story(service: Service, username: str, tab: Any) -> Any:
    slug = _editor_path(tab).split("/")[2]
    return service.stories.edited(username, slug, viewer=service.accounts.as_user(username))


def _sign_in_with_keys(tab: Any, base: str, username: str) -> None:
    tab.goto(base + "/signin")
    _tab_to(tab, "Username")
    tab.keyboard.type(username)
    tab.keyboard.press("Tab")
    tab.keyboard.type(f"{username}-password")
    tab.keyboard.press("Enter")
    tab.wait_for_url(f"{base}/me", timeout=WAIT_MS)


def _start_with_keys(tab: Any, title: str) -> None:
    _tab_to(tab, "Title")
    tab.keyboard.type(title)
    _heard(tab, "Your new story is ready to write.", lambda: tab.keyboard.press("Enter"))


def _focus_is_on_moved(tab: Any, element_id: str) -> bool:
    """Whether the focus is on the element moved, or where Tab goes next from the page's
    start (its address's fragment) is in it."""
    inside = "(id) => document.getElementById(id).contains(document.activeElement)"
    if tab.evaluate(inside, element_id):
        return True
    if tab.evaluate("() => location.hash") != f"#{element_id}":
        return False
    tab.keyboard.press("Tab")
    return bool(tab.evaluate(inside, element_id))


def test_a_story_is_started_written_reordered_and_saved_with_the_keyboard_alone(
    keyboard_tab: Any, story_server: StoryServer, service: Service
) -> None:
    tab = keyboard_tab
    _sign_in_with_keys(tab, story_server.base, "typist")
    _start_with_keys(tab, "Harbour notes")

    _tab_to(tab, "New text")
    tab.keyboard.type(TEXT)
    _heard(tab, "Added and saved.", lambda: _press(tab, "Add the text"))
    assert _order(tab) == ["text"]

    _tab_to(tab, "Address")
    tab.keyboard.type(POST)
    _press(tab, "Show it")
    tab.wait_for_selector("#add-preview", timeout=WAIT_MS)
    _heard(tab, "Added and saved.", lambda: _press(tab, "Add at the bottom"))
    assert _order(tab) == ["text", "quote"]

    quote_id = tab.get_attribute("[data-element-type=quote]", "id")
    tab.keyboard.press("Shift+Tab")  # from wherever the page put the focus, back into it
    # without a script the move is a save and a new page ("Saved."); with it, the move is made
    # in the page and saved by itself ("Saved at 17:40")
    _heard(tab, "Saved", lambda: _press(tab, f"Move {POST_NAME} up", key=" "))
    assert _order(tab) == ["quote", "text"]
    assert _focus_is_on_moved(tab, quote_id)

    _tab_to(tab, "Title", key="Shift+Tab")
    tab.keyboard.press("Control+A")
    tab.keyboard.type("Harbour notes, final")
    _heard(tab, "Saved.", lambda: _press(tab, "Save"))

    story = _story(service, "typist", tab)
    assert (story.story.title, [element.type for element in story.elements]) == (
        "Harbour notes, final",
        ["quote", "text"],
    )
    assert TEXT in story.elements[1].data["text"]


@pytest.mark.skipif(not routed("PUBLISH", "POST"), reason="no publish form in the editor yet")
def test_a_story_is_published_with_the_keyboard_alone(
    keyboard_tab: Any, story_server: StoryServer, service: Service
) -> None:
    tab = keyboard_tab
    _sign_in_with_keys(tab, story_server.base, "typist")
    _start_with_keys(tab, "Published by keys")
    _heard(tab, "Published.", lambda: _press(tab, "Publish now"))
    assert _story(service, "typist", tab).story.status == "published"


@pytest.mark.skipif(not routed("SCHEDULE", "POST"), reason="no schedule form in the editor yet")
def test_a_story_is_scheduled_with_the_keyboard_alone(
    keyboard_tab: Any, story_server: StoryServer, service: Service
) -> None:
    tab = keyboard_tab
    _sign_in_with_keys(tab, story_server.base, "typist")
    _start_with_keys(tab, "Scheduled by keys")
    _tab_to(tab, "Date")
    tab.keyboard.type(DATE_TYPED)
    _tab_to(tab, "Time")
    tab.keyboard.type(TIME_TYPED)
    _tab_to(tab, "Time zone")
    tab.keyboard.type("UTC")
    _heard(tab, "Scheduled.", lambda: _press(tab, "Schedule"))
    detail = service.stories.read(
        "typist", _editor_path(tab).split("/")[2], viewer=service.accounts.as_user("typist")
    )
    assert (detail.status, (detail.publish_at or "")[:16]) == ("working", SCHEDULED)


def _field(tab: Any, name: str) -> Any:
    """The field labelled ``name`` (not a section of the same name)."""
    return tab.locator("input, textarea, select").and_(tab.get_by_label(name, exact=True))


def _press_form(tab: Any, name: str) -> None:
    with tab.expect_navigation(timeout=WAIT_MS):
        tab.get_by_role("button", name=name, exact=True).click()


def test_a_story_is_started_written_reordered_and_saved_with_forms_alone(
    form_tab: Any, story_server: StoryServer, service: Service
) -> None:
    tab = form_tab
    tab.goto(story_server.base + "/signin")
    _field(tab, "Username").fill("former")
    _field(tab, "Password").fill("former-password")
    _press_form(tab, "Sign in")
    _field(tab, "Title").fill("Harbour forms")
    _press_form(tab, "Start writing")
    _field(tab, "New text").fill(TEXT)
    _press_form(tab, "Add the text")
    _field(tab, "Address").fill(POST)
    _press_form(tab, "Show it")
    _press_form(tab, "Add at the bottom")
    quote_id = tab.get_attribute("[data-element-type=quote]", "id")
    _press_form(tab, f"Move {POST_NAME} up")
    assert tab.url.endswith(f"#{quote_id}")  # where the page opens, and Tab goes on from
    _field(tab, "Title").fill("Harbour forms, final")
    _press_form(tab, "Save")
    assert tab.locator("[role=status]").inner_text().strip() == "Saved."

    story = _story(service, "former", tab)
    assert (story.story.title, [element.type for element in story.elements]) == (
        "Harbour forms, final",
        ["quote", "text"],
    )
    if routed("SCHEDULE", "POST"):
        _field(tab, "Date").fill(DAY.isoformat())
        _field(tab, "Time").fill("22:30")
        _press_form(tab, "Schedule")
        detail = service.stories.read(
            "former", _editor_path(tab).split("/")[2], viewer=service.accounts.as_user("former")
        )
        assert (detail.publish_at or "")[:16] == SCHEDULED
    if routed("PUBLISH", "POST"):
        _press_form(tab, "Publish now")
        assert _story(service, "former", tab).story.status == "published"
