"""Long words wrap (docs/api.md#the-web-host): whatever a story or its author holds, a
500-character word or address in any field, no page, editor page or embed scrolls sideways at
320 pixels, and at 1440 nothing of the reading column's content runs past the column's right
edge (text clipped out of sight counts: it is past the edge too).

One browser tab, opened once, visits every page at both widths.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from storycore.http.editor.sessions import SESSION_COOKIE
from storycore.rules import paths
from storycore.rules.paths import filled
from tests.browser.conftest import HostPages, StoryServer

# Chromium and the servers start once, on one worker
pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser-long-words")]

#: A word of 500 characters, and an address as long.
WORD = "supercalifragilistic" * 25
ADDRESS = "https://example.com/" + "a" * 480
#: The longest title a story may have, as one word (``Settings.limits.title``).
TITLE = WORD[:200]
AUTHOR = "longwinded"
PASSWORD = "longwinded-password"
#: The longest topic and hashtag a story may have (100 characters), as one word.
TOPIC = "topic" + WORD[:95]
TAG = "tag" + WORD[:97]
WIDTHS = [320, 1440]

ELEMENTS: list[Any] = [
    {
        "type": "text",
        "data": {
            "text": f"<p>{WORD}</p><p><a href='{ADDRESS}'>{ADDRESS}</a> {ADDRESS}</p>"
            f"<blockquote><p>{WORD}</p></blockquote><ul><li>{WORD}</li></ul>"
            f"<ol><li><b>{WORD}</b> <i>{ADDRESS}</i></li></ol>"
        },
    },
    {
        "type": "quote",
        "permalink": "https://socialA.example/" + "q" * 20 + "/status/1",
        "attribution": {"name": WORD, "username": "q" * 20},
        "data": {"quote": {"text": f"{WORD}\n{ADDRESS}"}},
    },
    {"type": "quote", "permalink": "https://socialA.example/" + "u" * 20 + "/status/" + "9" * 400},
    {"type": "image", "data": {"image": {"src": ADDRESS + ".png", "caption": WORD}}},
    {"type": "video", "data": {"video": {"src": ADDRESS, "title": WORD}}},
    {
        "type": "link",
        "permalink": ADDRESS,
        "data": {"link": {"title": WORD, "description": f"{WORD} {ADDRESS}"}},
    },
    {"type": "link", "permalink": ADDRESS + "/unresolved"},
    {"type": "other", "permalink": ADDRESS + "/other"},
    # enough elements for a second page, so the story page shows its pager
    *({"type": "text", "data": {"text": f"<p>{i}</p>"}} for i in range(45)),
]

#: Past the column: each element or run of text (in shadow roots too) of the column
#: ``selector`` whose box ends right of the column's content box, or left of it.
PAST_THE_COLUMN = """(selector) => {
  const column = document.querySelector(selector);
  const box = column.getBoundingClientRect();
  const style = getComputedStyle(column);
  const left = box.left + parseFloat(style.paddingLeft) - 0.5;
  const right = box.right - parseFloat(style.paddingRight) + 0.5;
  const unseen = '.visually-hidden, script, style, template, textarea, select, option';
  // a story's lead picture is drawn wider than the column on purpose (the page's scroll width
  // still bounds it); it holds no words
  const wide = '.story-lead';
  const past = [];
  const check = (rect, what) => {
    if (rect.width > 1 && (rect.right > right || rect.left < left)) {
      past.push(`${what} from ${Math.round(rect.left)} to ${Math.round(rect.right)}`);
    }
  };
  const name = (element) =>
    element.tagName.toLowerCase() + (element.className ? '.' + element.className : '');
  const walk = (root) => {
    for (const element of root.querySelectorAll('*')) {
      if (element.closest(unseen) || element.closest(wide)) continue;
      check(element.getBoundingClientRect(), name(element));
      if (element.shadowRoot) walk(element.shadowRoot);
    }
    const texts = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let text = texts.nextNode(); text; text = texts.nextNode()) {
      if (!text.textContent.trim() || text.parentElement.closest(unseen)) continue;
      const range = document.createRange();
      range.selectNodeContents(text);
      check(range.getBoundingClientRect(), `text in ${name(text.parentElement)}`);
    }
  };
  walk(column);
  return past;
}"""


@pytest.fixture(scope="module")
def addresses(story_server: StoryServer, host_pages: HostPages) -> dict[str, str]:
    """Every page a reader or the writer opens, on a story and an author holding long words
    in every field: name to address."""
    service = story_server.service
    service.accounts.create_user(
        AUTHOR,
        PASSWORD,
        name=WORD,
        bio=f"{WORD} {ADDRESS}",
        location=WORD,
        website=ADDRESS,
    )
    writer = service.accounts.as_user(AUTHOR)
    story = {
        "title": TITLE,
        "description": f"{WORD} {ADDRESS}",
        "topics": [TOPIC],
        "hashtags": [TAG],
        "elements": ELEMENTS,
    }
    slug = service.stories.create(AUTHOR, story, viewer=writer, publish=True).slug
    service.stories.save(AUTHOR, slug, {"title": TITLE[:-1]}, viewer=writer)
    service.stories.save(AUTHOR, slug, {"title": TITLE}, viewer=writer)
    base = story_server.base

    def at(template: str, query: str = "") -> str:
        return base + filled(template, username=AUTHOR, slug=slug) + query

    host = host_pages.put(
        "/long.html",
        "text/html; charset=utf-8",
        f"""<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Host</title>
<style>body{{margin:0 auto;max-width:720px;padding:0 16px}}</style></head>
<body><main><h1>A host page</h1><script src="{at(paths.SCRIPT)}"></script></main></body></html>
""",
    )
    return {
        "front": base + paths.FRONT,
        "story": at(paths.STORY),
        "story_page_2": at(paths.STORY, "?page=2"),
        "author": at(paths.AUTHOR),
        "topic": base + filled(paths.TOPIC, topic=TOPIC),
        "tag": base + filled(paths.TAG, tag=TAG),
        "search": base + paths.SEARCH + "?q=" + TITLE,
        "not_found": base + filled(paths.STORY, username=AUTHOR, slug=WORD[:100]),
        "desk": base + paths.DESK,
        "profile": base + paths.PROFILE,
        "editor": at(paths.EDITOR),
        "preview": at(paths.PREVIEW),
        "history": at(paths.HISTORY),
        "compare": at(paths.HISTORY, "?from=2&to=current"),
        "host": host,
    }


@pytest.fixture(scope="module")
def tab(browser: Any, story_server: StoryServer, addresses: dict[str, str]) -> Iterator[Any]:
    """One tab for every page, signed in as the long-winded writer."""
    context = browser.new_context()
    token = story_server.service.accounts.sign_in(AUTHOR, PASSWORD)
    context.add_cookies([{"name": SESSION_COOKIE, "value": token, "url": story_server.base}])
    yield context.new_page()
    context.close()


def _open(tab: Any, address: str, width: int) -> None:
    tab.set_viewport_size({"width": width, "height": 800})
    tab.goto(address, wait_until="load")


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize(
    "name",
    [
        "front",
        "story",
        "story_page_2",
        "author",
        "topic",
        "tag",
        "search",
        "not_found",
        "desk",
        "profile",
        "editor",
        "preview",
        "history",
        "compare",
        "host",
    ],
)
def test_long_words_wrap_inside_the_column(
    tab: Any, addresses: dict[str, str], name: str, width: int
) -> None:
    _open(tab, addresses[name], width)
    assert tab.evaluate("document.querySelectorAll('main *').length") > 3
    past = tab.evaluate(PAST_THE_COLUMN, "main")
    assert past == [], "past the column's edges:\n" + "\n".join(past)
    scroll_width, inner_width = tab.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert scroll_width <= inner_width


def test_the_long_pages_show_what_they_measure(tab: Any, addresses: dict[str, str]) -> None:
    """The pages measured hold the long words: the story's elements, the search's results, the
    story's pager, the embed's story."""
    _open(tab, addresses["story"], 320)
    assert tab.locator(".s-element").count() == 50
    assert tab.locator(".pager").count() == 1
    _open(tab, addresses["search"], 320)
    assert tab.locator(".card").count() == 1
    _open(tab, addresses["host"], 320)
    tab.wait_for_selector(".s-story .s-element-quote")
    assert tab.locator(".s-story .s-title").text_content() == TITLE


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", ["story", "host"])
def test_a_long_video_title_leaves_its_play_button_clear(
    tab: Any, addresses: dict[str, str], name: str, width: int
) -> None:
    """A title of 500 characters laid over the poster shows its first lines, below the play
    button, rather than covering the button and losing its start above the poster."""
    _open(tab, addresses[name], width)
    poster, button, title = tab.evaluate(
        """() => ['.video-poster', '.video-play', '.video-title']
        .map((part) => { const box = document.querySelector(part).getBoundingClientRect();
                         return {top: box.top, bottom: box.bottom}; })"""
    )
    assert poster["top"] <= button["top"]
    assert button["bottom"] <= title["top"]
    assert title["bottom"] <= poster["bottom"]
