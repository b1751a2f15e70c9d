"""The reading time a story page shows (docs/api.md#the-web-host): the words of every element
read at ``WORDS_PER_MINUTE``, and a few seconds more for each picture, as Medium counts them,
rounded to whole minutes, at least one."""

from __future__ import annotations

from storycore.model.element_kinds import (
    Element,
    ImageElement,
    LinkElement,
    OtherElement,
    QuoteElement,
    TextElement,
    VideoElement,
)
from storycore.model.reading import (
    CHARACTERS_PER_MINUTE,
    WORDS_PER_MINUTE,
    image_seconds,
    reading_minutes,
    story_words_read,
)

NOW = "2026-11-22T10:15:30.123Z"


def _text(words: int, element_id: str = "t") -> Element:
    html = "<p>" + " ".join(["word"] * words) + "</p>"
    return TextElement(id=element_id, data={"text": html}, added_at=NOW)


def _image(caption: str = "", element_id: str = "i") -> Element:
    image = {"src": "https://img.example/a.jpg", "caption": caption}
    return ImageElement(id=element_id, data={"image": image}, added_at=NOW)


def test_the_words_of_text_are_its_words_without_tags() -> None:
    text = '<p>Fog <b>over</b> the <a href="https://a.example/">#harbour</a>, at dawn.</p>'
    element = TextElement(id="t", data={"text": text}, added_at=NOW)
    assert story_words_read([element]) == 6


def test_quotes_captions_links_and_video_titles_are_read_too() -> None:
    elements = [
        QuoteElement(id="q", permalink="https://a.example/1", data={"quote": {"text": "Two words"}},
                     added_at=NOW),
        _image("A caption of five words"),
        LinkElement(
            id="l", permalink="https://b.example/",
            data={"link": {"title": "One title", "description": "and three more"}}, added_at=NOW,
        ),
        VideoElement(id="v", data={"video": {"src": "https://v.example/1", "title": "Go"}},
                     added_at=NOW),
        OtherElement(id="o", permalink="https://maps.example/x", added_at=NOW),
    ]  # fmt: skip
    assert story_words_read(elements) == 2 + 5 + 2 + 3 + 1


def test_a_story_of_no_words_takes_one_minute() -> None:
    assert reading_minutes([]) == 1
    assert reading_minutes([_text(0)]) == 1


def test_words_are_read_at_the_documented_rate() -> None:
    assert WORDS_PER_MINUTE == 265
    assert reading_minutes([_text(265 * 4)]) == 4
    assert reading_minutes([_text(265 * 4, "a"), _text(265 * 3, "b")]) == 7


def test_minutes_are_rounded_to_the_nearest_halves_up() -> None:
    assert reading_minutes([_text(265 * 2 + 132)]) == 2  # 2.498 minutes
    assert reading_minutes([_text(265 * 2 + 133)]) == 3  # 2.502 minutes


def test_pictures_add_twelve_seconds_then_one_less_each_down_to_three() -> None:
    assert [image_seconds(n) for n in (0, 1, 2, 3)] == [0, 12, 23, 33]
    assert image_seconds(10) == sum(range(3, 13))  # 12 + 11 + ... + 3
    assert image_seconds(12) == image_seconds(10) + 3 + 3


def test_pictures_count_in_the_minutes() -> None:
    ten_pictures = [_image(element_id=f"i{n}") for n in range(10)]  # 75 seconds
    assert reading_minutes([_text(265), *ten_pictures]) == 2  # 60 + 75 seconds
    assert reading_minutes(ten_pictures) == 1


def _paragraph(text: str) -> Element:
    return TextElement(id="t", data={"text": f"<p>{text}</p>"}, added_at=NOW)


def test_chinese_japanese_and_korean_are_read_by_the_character() -> None:
    # written without spaces, a paragraph of these scripts is one "word" to search
    assert CHARACTERS_PER_MINUTE == 500
    assert reading_minutes([_paragraph("港" * 500 * 3)]) == 3
    assert reading_minutes([_paragraph("みなと" * 500)]) == 3
    assert reading_minutes([_paragraph("항구 " * 750)]) == 3  # 1,500 syllables


def test_a_story_mixing_scripts_reads_each_at_its_rate() -> None:
    text = " ".join(["harbour"] * 265) + " " + "港" * 500
    assert story_words_read([_paragraph(text)]) == 265
    assert reading_minutes([_paragraph(text)]) == 2
