"""The embed script (docs/api.md#the-web-host): the markup the pages' renderer made, carried
as a string literal that nothing a story holds can leave, and the ``css`` rule."""

from __future__ import annotations

import re

import orjson

from storycore.presentation.embed import EmbedStory, embed_script

# the one string literal of the script that holds the story's markup
_MARKUP = re.compile(r"^\s*var markup = (\".*\");$", re.MULTILINE)
CSS = "https://css.example/story.css"


def embedded_markup(script: str) -> str:
    """The markup an embed script inserts, read from its literal as JavaScript would."""
    found = _MARKUP.search(script)
    assert found is not None, "the script holds no markup literal"
    markup: str = orjson.loads(found.group(1))
    return markup


def _script(markup: str, plan: str = "enterprise", css: str | None = CSS) -> str:
    return embed_script(EmbedStory(id="s1", markup=markup, author_plan=plan), css)


def test_the_markup_reaches_the_script_as_it_was_rendered() -> None:
    markup = '<div class="s-elements">\n<p>a &amp; b</p>\u2028</div>'
    assert embedded_markup(_script(markup)) == markup


def test_markers_of_the_template_in_a_story_stay_text() -> None:
    # the script's template is filled in one pass: a story's text is never read for markers
    markup = '<p>/*CSS*/null /*IGNORED_CSS*/null /*PLAYER*/ /*DEFAULT_CSS*/""</p>'
    script = _script(markup)
    assert embedded_markup(script) == markup
    assert script.count(orjson.dumps(CSS).decode()) == 1


def test_an_enterprise_authors_css_is_linked() -> None:
    assert f"var customCss = {orjson.dumps(CSS).decode()};" in _script("")


def test_css_is_ignored_with_a_reason_for_other_plans_and_addresses() -> None:
    free = _script("", plan="free")
    relative = _script("", css="/story.css")
    assert "var customCss = null;" in free
    assert "enterprise plan only" in free
    assert "var customCss = null;" in relative
    assert "absolute http or https address" in relative
    assert "var ignoredCss = null;" in _script("", css=None)


def test_the_video_player_listens_on_the_embedded_story() -> None:
    script = _script("")
    assert 'container.addEventListener("click"' in script
    assert "document.addEventListener" not in script
