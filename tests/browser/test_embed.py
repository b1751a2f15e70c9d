"""The embed in a real browser (docs/api.md#the-web-host)."""

from __future__ import annotations

from typing import Any

import pytest

from storycore.contrib.demo import load_demo
from tests.browser._axe import axe
from tests.browser.conftest import HostPages, StoryServer

# Chromium and the servers start once, on one worker
pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser-embed")]

ELEMENTS = [
    {"type": "text", "data": {"text": "<p>Plain <b>bold</b> text</p>"}},
    "https://socialA.example/bob/status/1",
    "https://img.example/photo.jpg",
    "https://www.youtube.com/watch?v=abc",
    "https://news.example/article",
    {"type": "other", "permalink": "https://maps.example/here"},
]
HOSTILE = (
    "</script><script>window.__pwned = 1</script><!-- \u2028 <img src=x onerror=window.__pwned=2>"
)
GREEN = "rgb(0, 128, 0)"
RED = "rgb(255, 0, 0)"
QUOTE_TEXT_COLOUR = "rgb(20, 23, 26)"  # quote.css: .quote-text, .quote-unresolved{color:#14171a}


@pytest.fixture(scope="module")
def stories(story_server: StoryServer) -> dict[str, str]:
    """Script addresses of published stories: an enterprise author's, a free author's, and a
    hostile one whose every text field tries to run code.
    """
    service = story_server.service
    service.accounts.create_user("ent", plan="enterprise", name="Enterprise Ed")
    service.accounts.create_user("free", name="Free Fran")
    made = {}
    for author, slug, title in (
        ("ent", "ent-story", "Enterprise story"),
        ("free", "free-story", "Free story"),
    ):
        story = {"title": title, "slug": slug, "description": "About things", "elements": ELEMENTS}
        service.stories.create(author, story, viewer=service.accounts.as_user(author), publish=True)
        made[author] = f"{story_server.base}/{author}/{slug}.js"
    hostile = {
        "title": HOSTILE,
        "slug": "hostile",
        "description": HOSTILE,
        "elements": [
            {"type": "text", "data": {"text": f"<p>{HOSTILE}</p><script>x=3</script>"}},
            {
                "type": "quote",
                "permalink": "https://socialA.example/x/status/2",
                "attribution": {"name": HOSTILE, "username": "x"},
                "data": {"quote": {"text": HOSTILE}},
            },
            {
                "type": "image",
                "data": {"image": {"src": "https://img.example/a.png", "caption": HOSTILE}},
            },
            {
                "type": "link",
                "permalink": "https://news.example/x",
                "data": {"link": {"title": HOSTILE, "description": HOSTILE}},
            },
        ],
    }
    service.stories.create("free", hostile, viewer=service.accounts.as_user("free"), publish=True)
    made["hostile"] = f"{story_server.base}/free/hostile.js"
    return made


def _host(
    pages: HostPages, name: str, scripts: list[str], css: str = "", attributes: str = ""
) -> str:
    """A host page carrying ``scripts``, each tag with ``attributes`` (``data-theme="dark"``)."""
    tags = "\n".join(
        f'<p class="before">{i}</p><script src="{s}"{attributes}></script>'
        for i, s in enumerate(scripts)
    )
    html = f"<!doctype html><html><head><style>{css}</style></head><body>{tags}</body></html>"
    return pages.put(f"/{name}.html", "text/html; charset=utf-8", html)


def _open(page: Any, url: str) -> None:
    page.goto(url, wait_until="load")


def test_the_script_inserts_one_story_right_after_itself(
    page: Any, host_pages: HostPages, stories: dict[str, str]
) -> None:
    _open(page, _host(host_pages, "structure", [stories["free"]]))
    shape = page.evaluate(
        """() => {
        const script = document.querySelector('script[src*="free-story"]');
        const story = script.nextElementSibling;
        return {
          isStory: story.matches('div.s-story'),
          stories: document.querySelectorAll('.s-story').length,
          header: [...story.querySelector('.s-header').children].map(c => c.className),
          info: story.querySelector('.s-info').textContent,
          title: story.querySelector('.s-header .s-title').textContent,
          types: [...story.querySelectorAll('.s-elements > .s-element')].map(e => e.className),
        };
    }"""
    )
    assert shape["isStory"] is True
    assert shape["stories"] == 1
    assert shape["header"] == ["s-title", "s-description", "byline s-info"]
    assert "Free Fran" in shape["info"]
    assert shape["title"] == "Free story"
    assert shape["types"] == [
        f"s-element s-element-{kind}"
        for kind in ("text", "quote", "image", "video", "link", "other")
    ]


def test_two_embeds_on_one_page_each_render_after_their_script(
    page: Any, host_pages: HostPages, stories: dict[str, str]
) -> None:
    _open(page, _host(host_pages, "two", [stories["ent"], stories["free"]]))
    titles = page.evaluate(
        "() => [...document.querySelectorAll('script[src]')]"
        ".map(s => s.nextElementSibling.querySelector('.s-title').textContent)"
    )
    assert titles == ["Enterprise story", "Free story"]


def test_an_enterprise_authors_stylesheet_overrides_the_defaults(
    page: Any, host_pages: HostPages, stories: dict[str, str]
) -> None:
    sheet = host_pages.put("/custom.css", "text/css", f".s-story .s-title {{ color: {GREEN}; }}")
    _open(page, _host(host_pages, "enterprise", [f"{stories['ent']}?css={sheet}"]))
    page.wait_for_function(
        f"getComputedStyle(document.querySelector('.s-title')).color === '{GREEN}'", timeout=5000
    )
    order = page.evaluate(
        "() => [...document.querySelector('.s-story').children].slice(0, 2).map(c => c.tagName)"
    )
    assert order == ["STYLE", "LINK"]


def test_a_free_authors_stylesheet_is_ignored_with_a_warning(
    page: Any, host_pages: HostPages, stories: dict[str, str]
) -> None:
    sheet = host_pages.put(
        "/custom-free.css", "text/css", f".s-story .s-title {{ color: {GREEN}; }}"
    )
    _open(page, _host(host_pages, "free", [f"{stories['free']}?css={sheet}"]))
    colour = page.evaluate("getComputedStyle(document.querySelector('.s-title')).color")
    assert colour != GREEN
    assert page.evaluate("document.querySelectorAll('.s-story link').length") == 0
    warnings = [m.text for m in page.console_messages_seen if m.type == "warning"]
    assert any("css" in text for text in warnings)


def test_quotes_ignore_page_and_custom_stylesheets(
    page: Any, host_pages: HostPages, stories: dict[str, str]
) -> None:
    hostile_css = (
        f"* {{ color: {RED} !important; }} .quote *, p, blockquote {{ color: {RED} !important; }}"
    )
    sheet = host_pages.put("/quote-attack.css", "text/css", hostile_css)
    _open(page, _host(host_pages, "quotes", [f"{stories['ent']}?css={sheet}"], css=hostile_css))
    page.wait_for_function(
        f"getComputedStyle(document.querySelector('.s-title')).color === '{RED}'", timeout=5000
    )
    colour = page.evaluate(
        "getComputedStyle(document.querySelector('.s-element-quote').shadowRoot"
        ".querySelector('.quote > *')).color"
    )
    assert colour == QUOTE_TEXT_COLOUR


def test_hostile_story_text_never_runs(
    page: Any, host_pages: HostPages, stories: dict[str, str]
) -> None:
    _open(page, _host(host_pages, "hostile", [stories["hostile"]]))
    page.wait_for_selector(".s-story")
    assert page.evaluate("typeof window.__pwned") == "undefined"
    shown = page.evaluate(
        "() => ({title: document.querySelector('.s-title').textContent,"
        " description: document.querySelector('.s-description').textContent,"
        " scripts: document.querySelectorAll('.s-story script').length,"
        " handlers: document.querySelectorAll('.s-story [onerror]').length})"
    )
    assert shown == {"title": HOSTILE, "description": HOSTILE, "scripts": 0, "handlers": 0}


def test_an_unknown_story_renders_nothing_and_the_console_shows_an_error(
    page: Any, host_pages: HostPages, story_server: StoryServer
) -> None:
    # A browser does not run a script answered with 404 (its body, which only logs, is for
    # other clients); the console still reports the failed load, and nothing is rendered.
    _open(page, _host(host_pages, "missing", [f"{story_server.base}/free/no-such-story.js"]))
    assert page.evaluate("document.querySelectorAll('.s-story').length") == 0
    errors = [m.text for m in page.console_messages_seen if m.type == "error"]
    assert any("404" in text for text in errors)


def test_the_story_page_shows_the_story_without_a_script(
    page: Any, story_server: StoryServer, stories: dict[str, str]
) -> None:
    _open(page, f"{story_server.base}/free/free-story")
    assert page.title().startswith("Free story")
    assert page.evaluate("document.querySelector('h1.s-title').textContent") == "Free story"
    assert page.evaluate("document.scripts.length") <= 1  # JSON-LD data, no script that runs
    assert page.page_errors_seen == []


def test_every_demo_story_renders_all_its_elements(
    page: Any, host_pages: HostPages, story_server: StoryServer
) -> None:
    service = story_server.service
    load_demo(service)
    expected: dict[str, int] = {}
    scripts = []
    for number in range(1, 4):
        for story in service.catalog.latest(page=number, per_page=20).items:
            if story.author.username in {"alice", "bruno", "chloe"}:
                detail = service.stories.read(story.author.username, story.slug, per_page=100)
                expected[story.id] = len(detail.elements)
                scripts.append(f"{story_server.base}/{story.author.username}/{story.slug}.js")
    _open(page, _host(host_pages, "demo", scripts))
    shown = page.evaluate(
        "() => Object.fromEntries([...document.querySelectorAll('.s-story')]"
        ".map(s => [s.dataset.story, s.querySelectorAll('.s-elements > .s-element').length]))"
    )
    assert shown == expected
    assert len(expected) > 30
    assert page.page_errors_seen == []


def test_every_demo_picture_loads_at_the_size_its_element_states(
    page: Any, host_pages: HostPages, story_server: StoryServer
) -> None:
    """Decoded by Chromium from the addresses the demo stores (the web host's /static/demo/)."""
    service = story_server.service
    load_demo(service)
    stated: dict[str, list[int]] = {}
    for story in service.catalog.latest(per_page=100).items:
        if story.author.username not in {"alice", "bruno", "chloe"}:
            continue  # the other tests' stories
        detail = service.stories.read(story.author.username, story.slug, per_page=100)
        for element in detail.elements:
            if element.type == "image":
                image: Any = element.data["image"]
                stated[image["src"]] = [image["width"], image["height"]]
    _open(page, _host(host_pages, "pictures", []))
    decoded = page.evaluate(
        """sources => Promise.all(sources.map(src => new Promise(done => {
            const img = new Image();
            img.onload = () => done([img.naturalWidth, img.naturalHeight]);
            img.onerror = () => done(null);
            img.src = src;
        })))""",
        list(stated),
    )
    assert len(stated) >= 8
    assert dict(zip(stated, decoded, strict=True)) == stated


# -- the story page's markup (docs/api.md#the-web-host) ------------------------------------------

# each element as the reader gets it: its classes and its text, a quote's from its shadow root
_ELEMENTS_SHOWN = """root => [...root.querySelectorAll('.s-elements > .s-element')].map(e => {
  const parts = e.shadowRoot
    ? [...e.shadowRoot.children].filter(c => c.tagName !== 'STYLE') : [e];
  const text = parts.map(p => p.textContent).join(' ').replace(/\\s+/g, ' ').trim();
  return [e.className, text];
})"""


def _demo_story(story_server: StoryServer) -> str:
    """The path of a demo story holding every kind of element (a video and an "other" too)."""
    service = story_server.service
    load_demo(service)
    for story in service.catalog.latest(per_page=100).items:
        if story.author.username in {"alice", "bruno", "chloe"}:
            detail = service.stories.read(story.author.username, story.slug, per_page=100)
            kinds = {element.type for element in detail.elements}
            if kinds >= {"text", "quote", "image", "video", "link", "other"}:
                return f"/{story.author.username}/{story.slug}"
    raise AssertionError("no demo story holds every kind of element")


def test_the_embed_shows_the_story_pages_elements(
    page: Any, host_pages: HostPages, story_server: StoryServer
) -> None:
    path = _demo_story(story_server)
    _open(page, story_server.base + path)
    on_page = page.evaluate(_ELEMENTS_SHOWN, page.query_selector("article.s-story"))
    _open(page, _host(host_pages, "same-markup", [f"{story_server.base}{path}.js"]))
    in_embed = page.evaluate(_ELEMENTS_SHOWN, page.query_selector("div.s-story"))
    assert {cls.split()[-1] for cls, _ in in_embed} >= {
        "s-element-text", "s-element-quote", "s-element-image", "s-element-video",
        "s-element-link", "s-element-other",
    }  # fmt: skip
    assert in_embed == on_page
    assert page.console_messages_seen == []


def test_every_quote_of_the_embed_is_in_a_shadow_root_with_its_stylesheet(
    page: Any, host_pages: HostPages, story_server: StoryServer
) -> None:
    path = _demo_story(story_server)
    _open(page, _host(host_pages, "shadow-quotes", [f"{story_server.base}{path}.js"]))
    quotes = page.evaluate(
        """() => [...document.querySelectorAll('.s-story .s-element-quote')].map(q => ({
          light: q.childNodes.length,
          shadow: q.shadowRoot ? [...q.shadowRoot.children].map(c => c.tagName) : null,
          text: q.shadowRoot ? q.shadowRoot.querySelector('.quote-text').textContent : '',
        }))"""
    )
    assert len(quotes) == 2
    for quote in quotes:
        assert quote["light"] == 0
        assert quote["shadow"] == ["STYLE", "FIGURE"]
        assert quote["text"]
    assert page.evaluate("document.querySelectorAll('.s-story .quote-text').length") == 0


def test_the_embed_asks_no_other_host_before_a_click_and_a_poster_click_plays(
    page: Any, host_pages: HostPages, story_server: StoryServer
) -> None:
    path = _demo_story(story_server)
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    _open(page, _host(host_pages, "poster", [f"{story_server.base}{path}.js"]))
    for image in page.locator(".s-story img").all():  # lazy images load once scrolled to
        image.scroll_into_view_if_needed()
    page.wait_for_load_state("networkidle")
    origins = {url.split("/", 3)[2] for url in asked}
    assert origins <= {host_pages.base.split("/")[2], story_server.base.split("/")[2]}
    poster = page.locator(".s-story a.video-poster")
    player = poster.get_attribute("data-player") or ""
    assert player.startswith("https://www.youtube-nocookie.com/embed/")
    poster.click()
    frame = page.locator(".s-story .s-element-video iframe.video-frame")
    assert frame.get_attribute("src") == player
    assert "allow-scripts" in (frame.get_attribute("sandbox") or "")
    assert page.locator(".s-story a.video-poster").count() == 0


def test_hostile_title_caption_quote_and_link_title_show_as_text_in_the_embed(
    page: Any, host_pages: HostPages, stories: dict[str, str]
) -> None:
    _open(page, _host(host_pages, "hostile-fields", [stories["hostile"]]))
    shown = page.evaluate(
        """() => {
          const story = document.querySelector('.s-story');
          const quote = story.querySelector('.s-element-quote').shadowRoot;
          const everywhere = [story, quote];
          return {
            title: story.querySelector('.s-title').textContent,
            caption: story.querySelector('.s-element-image figcaption').textContent,
            alt: story.querySelector('.s-element-image img').getAttribute('alt'),
            quote: quote.querySelector('.quote-text').textContent,
            quoteName: quote.querySelector('.quote-name').textContent,
            linkTitle: story.querySelector('.link-title').textContent,
            linkDescription: story.querySelector('.link-description').textContent,
            scripts: everywhere.map(r => r.querySelectorAll('script').length),
            handlers: everywhere.map(r => [...r.querySelectorAll('*')].filter(
              e => [...e.attributes].some(a => a.name.startsWith('on'))).length),
            pwned: typeof window.__pwned,
          };
        }"""
    )
    assert shown == {
        "title": HOSTILE, "caption": HOSTILE, "alt": HOSTILE, "quote": HOSTILE,
        "quoteName": HOSTILE, "linkTitle": HOSTILE, "linkDescription": HOSTILE,
        "scripts": [0, 0], "handlers": [0, 0], "pwned": "undefined",
    }  # fmt: skip
    assert page.page_errors_seen == []


def test_the_embed_fits_a_320_pixel_wide_page(
    page: Any, host_pages: HostPages, story_server: StoryServer
) -> None:
    path = _demo_story(story_server)
    page.set_viewport_size({"width": 320, "height": 640})
    _open(page, _host(host_pages, "narrow", [f"{story_server.base}{path}.js"]))
    widths = page.evaluate(
        "() => [document.documentElement.scrollWidth,"
        " document.querySelector('.s-story').getBoundingClientRect().right]"
    )
    assert max(widths) <= 320


# -- the theme (docs/api.md#the-web-host) ---------------------------------------------------------

#: The computed colours of the story card (its background), its title and a quote's card
#: (in its shadow root), in each theme: default.css and quote.css.
LIGHT = {"story": "rgb(255, 255, 255)", "title": "rgb(21, 23, 26)", "quote": "rgb(255, 255, 255)"}
DARK = {"story": "rgb(20, 22, 25)", "title": "rgb(233, 235, 238)", "quote": "rgb(30, 34, 38)"}
_COLOURS = """() => {
  const story = document.querySelector('.s-story');
  const quote = story.querySelector('.s-element-quote').shadowRoot.querySelector('.quote');
  return {
    story: getComputedStyle(story).backgroundColor,
    title: getComputedStyle(story.querySelector('.s-title')).color,
    quote: getComputedStyle(quote).backgroundColor,
  };
}"""


def _theme_attribute(theme: str | None) -> str:
    return "" if theme is None else f' data-theme="{theme}"'


@pytest.mark.parametrize(
    ("theme", "scheme", "shown"),
    [
        (None, "dark", LIGHT),
        ("light", "dark", LIGHT),
        ("dark", "light", DARK),
        ("auto", "dark", DARK),
        ("auto", "light", LIGHT),
        ("sepia", "dark", LIGHT),
    ],
    ids=["none-is-light", "light", "dark", "auto-in-dark", "auto-in-light", "unknown-is-light"],
)
def test_the_embed_takes_its_theme_from_its_tags_data_theme_light_by_default(
    page: Any,
    host_pages: HostPages,
    stories: dict[str, str],
    theme: str | None,
    scheme: str,
    shown: dict[str, str],
) -> None:
    """A light host page shows a light story to a reader in the dark scheme unless the tag
    asks for ``dark`` or ``auto``; an unknown value is light."""
    page.emulate_media(color_scheme=scheme)
    attribute = _theme_attribute(theme)
    _open(page, _host(host_pages, f"theme-{theme}-{scheme}", [stories["free"]], "", attribute))
    assert page.evaluate(_COLOURS) == shown


@pytest.mark.parametrize(("theme", "scheme"), [("light", "dark"), ("dark", "light")])
def test_the_embed_keeps_its_colour_contrast_in_either_theme(
    page: Any, host_pages: HostPages, story_server: StoryServer, theme: str, scheme: str
) -> None:
    """axe-core's color-contrast rule finds no violation in the story, its quotes included,
    whichever scheme the reader uses."""
    path = _demo_story(story_server)
    page.emulate_media(color_scheme=scheme)
    script = f"{story_server.base}{path}.js"
    _open(page, _host(host_pages, f"contrast-{theme}", [script], "", _theme_attribute(theme)))
    found = axe(page, {"runOnly": {"type": "rule", "values": ["color-contrast"]}})
    assert [node["target"] for rule in found["violations"] for node in rule["nodes"]] == []
    assert [rule["id"] for rule in found["passes"]] == ["color-contrast"]
