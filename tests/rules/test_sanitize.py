"""Sanitizing text-element HTML to the allowlist ``p br b strong i em a[href] ul ol li
blockquote``, http(s) links only (docs/api.md#elements)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from storycore.rules.sanitize import plain_text, sanitize_html
from storycore.rules.searchtext import tokens
from storycore.testing.strategies import tag_soup

BOUNDED = settings(max_examples=100, deadline=None, database=None)

MARKUP = tag_soup()  # tags, attributes and schemes that form and break at random


@pytest.mark.parametrize(
    "html",
    [
        "<p>a</p>",
        "a<br>b",
        "<b>a</b>",
        "<strong>a</strong>",
        "<i>a</i>",
        "<em>a</em>",
        "<ul><li>a</li></ul>",
        "<ol><li>a</li></ol>",
        "<blockquote>a</blockquote>",
    ],
)
def test_an_allowed_tag_is_kept(html: str) -> None:
    assert sanitize_html(html) == html


def test_a_link_with_an_https_address_keeps_its_href() -> None:
    assert 'href="https://example.com/a"' in sanitize_html('<a href="https://example.com/a">x</a>')


def test_a_link_with_an_http_address_keeps_its_href() -> None:
    assert 'href="http://example.com/"' in sanitize_html('<a href="http://example.com/">x</a>')


@pytest.mark.parametrize(
    "href",
    [
        "javascript:alert(1)",
        "JAVASCRIPT:alert(1)",
        "java&#x09;script:alert(1)",
        "data:text/html,x",
        "vbscript:x",
        "mailto:a@example.com",
    ],
)
def test_a_link_with_another_scheme_loses_its_href(href: str) -> None:
    cleaned = sanitize_html(f'<a href="{href}">x</a>')
    assert "href" not in cleaned
    assert ">x</a>" in cleaned


@pytest.mark.parametrize("href", ["//evil.example/x", "/x", "x.html"])
def test_a_link_with_a_relative_address_loses_its_href(href: str) -> None:
    assert "href" not in sanitize_html(f'<a href="{href}">x</a>')


def test_a_script_is_removed_with_its_content() -> None:
    assert sanitize_html("<script>alert(1)</script>ok") == "ok"


def test_a_style_element_is_removed_with_its_content() -> None:
    assert sanitize_html("<style>p { color: red }</style>ok") == "ok"


@pytest.mark.parametrize(
    "html", ["<img src=x onerror=alert(1)>", "<iframe src='https://a.example'></iframe>", "<svg/>"]
)
def test_a_tag_outside_the_allowlist_is_removed(html: str) -> None:
    assert sanitize_html(html) == ""


def test_an_unknown_tag_keeps_its_text() -> None:
    assert sanitize_html("<span>kept</span>") == "kept"


def test_event_handler_and_style_attributes_are_removed() -> None:
    assert sanitize_html('<p onclick="x()" style="color:red">a</p>') == "<p>a</p>"


def test_no_attribute_but_a_links_href_survives() -> None:
    assert sanitize_html('<p title="t" lang="en">x</p>') == "<p>x</p>"


def test_comments_are_removed() -> None:
    assert sanitize_html("<!-- hidden -->shown") == "shown"


def test_plain_text_characters_are_escaped() -> None:
    assert sanitize_html("1 < 2 & 3") == "1 &lt; 2 &amp; 3"


@BOUNDED
@given(MARKUP)
def test_sanitizing_is_idempotent(html: str) -> None:
    once = sanitize_html(html)
    assert sanitize_html(once) == once


@BOUNDED
@given(st.text())
def test_sanitizing_any_text_is_idempotent(text: str) -> None:
    once = sanitize_html(text)
    assert sanitize_html(once) == once


class _Tags(HTMLParser):
    """The tags and attributes of an HTML fragment, as a browser's tokenizer sees them."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, list[tuple[str, str | None]]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.append((tag, attrs))


def _tags(html: str) -> list[tuple[str, list[tuple[str, str | None]]]]:
    parser = _Tags()
    parser.feed(html)
    parser.close()
    return parser.found


@BOUNDED
@given(MARKUP)
def test_sanitized_html_holds_only_allowed_tags_without_handlers_or_script_links(
    html: str,
) -> None:
    for tag, attrs in _tags(sanitize_html(html)):
        assert tag in {"p", "br", "b", "strong", "i", "em", "a", "ul", "ol", "li", "blockquote"}
        for name, value in attrs:
            assert not name.startswith("on")
            assert name != "style"
            if name == "href":
                assert tag == "a"
                scheme = re.match(r"([a-z][a-z0-9+.-]*):", (value or "").strip().lower())
                assert scheme is None or scheme.group(1) in {"http", "https"}


def test_plain_text_turns_tags_into_spaces() -> None:
    assert tokens(plain_text("<p>one</p><p>two</p>")) == ["one", "two"]


def test_plain_text_unescapes_entities() -> None:
    assert plain_text("fish &amp; chips") == "fish & chips"
