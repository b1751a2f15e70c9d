"""Members derived from a story on every write (docs/api.md#stories): ``meta.hashtags`` from the
``hashtags`` member and ``#words`` of title, description and text elements; ``meta.quoted`` from
quote elements; ``stats.elements`` by type; the cover image; search words
(docs/api.md#lists-filters-sorting-and-search)."""

from __future__ import annotations

from typing import Any

from storycore.model.derived import (
    element_words,
    story_words,
    user_changes,
    with_derived_members,
    with_search_tokens,
)
from storycore.model.element_kinds import (
    Attribution,
    Element,
    ImageElement,
    LinkElement,
    OtherElement,
    QuoteElement,
    Source,
    TextElement,
    VideoElement,
)
from storycore.model.records import StoryRecord, UserRecord
from storycore.rules.searchtext import fold

NOW = "2026-11-22T10:15:30.123Z"


def _story(**members: Any) -> StoryRecord:
    base: dict[str, Any] = {
        "id": "s1",
        "author_id": "u1",
        "title": "A title",
        "slug": "a-title",
        "status": "working",
        "created": NOW,
        "updated": NOW,
    }
    return StoryRecord(**{**base, **members})


def _text(html: str, element_id: str = "t") -> Element:
    return TextElement(id=element_id, data={"text": html}, added_at=NOW)


def _image(src: str, element_id: str = "i") -> Element:
    return ImageElement(id=element_id, data={"image": {"src": src}}, added_at=NOW)


def _quote(network: str, username: str, text: str = "", element_id: str = "q") -> Element:
    return QuoteElement(
        id=element_id,
        permalink=f"https://{network}.example/{username}/status/1",
        source=Source(name=network, href=f"https://{network}.example", userid=f"id-{username}"),
        attribution=Attribution(
            name=username.title(), username=username, thumbnail="https://t/a.png"
        ),
        data={"quote": {"text": text}},
        added_at=NOW,
    )


def test_hashtags_come_from_the_member_title_description_and_text_elements() -> None:
    story = _story(title="On #Rust", description="about #Memory", hashtags=["#Systems"])
    derived = with_derived_members(story, [_text("<p>and #Safety</p>")])
    assert derived.tags == ["systems", "rust", "memory", "safety"]


def test_hash_words_in_quoted_posts_are_not_the_storys_hashtags() -> None:
    derived = with_derived_members(_story(), [_quote("sociala", "alice", text="#quoted")])
    assert derived.tags == []


def test_a_hash_in_a_link_address_is_not_a_hashtag() -> None:
    derived = with_derived_members(_story(), [_text('<a href="https://a.example/#frag">x</a>')])
    assert derived.tags == []


def test_quoted_authors_come_from_quote_elements() -> None:
    derived = with_derived_members(_story(), [_quote("sociala", "alice")])
    (quoted,) = derived.quoted
    assert quoted.model_dump() == {
        "username": "alice",
        "name": "Alice",
        "userid": "id-alice",
        "avatar": "https://t/a.png",
        "source": "sociala",
        "notified_at": None,
    }


def test_an_author_quoted_twice_on_one_network_is_listed_once() -> None:
    elements = [
        _quote("sociala", "alice", element_id="q1"),
        _quote("sociala", "alice", element_id="q2"),
    ]
    assert len(with_derived_members(_story(), elements).quoted) == 1


def test_the_same_username_on_two_networks_is_two_quoted_authors() -> None:
    elements = [
        _quote("sociala", "alice", element_id="q1"),
        _quote("socialb", "alice", element_id="q2"),
    ]
    assert [q.source for q in with_derived_members(_story(), elements).quoted] == [
        "sociala",
        "socialb",
    ]


def test_element_counts_name_every_type_including_absent_ones() -> None:
    elements = [_text("a", "t1"), _text("b", "t2"), _image("https://a.example/i.png")]
    assert with_derived_members(_story(), elements).element_counts == {
        "text": 2,
        "quote": 0,
        "image": 1,
        "video": 0,
        "link": 0,
        "other": 0,
    }


def test_the_cover_is_the_first_image() -> None:
    elements = [
        _text("a"),
        _image("https://a.example/1.png", "i1"),
        _image("https://a.example/2.png", "i2"),
    ]
    assert with_derived_members(_story(), elements).cover == "https://a.example/1.png"


def test_a_story_without_images_has_no_cover() -> None:
    assert with_derived_members(_story(), [_text("a")]).cover == ""


def test_search_words_cover_title_description_elements_hashtags_and_topics() -> None:
    story = _story(title="Title", description="Described", hashtags=["tagged"], topics=["Topical"])
    elements = [_text("<p>Texted</p>"), _quote("sociala", "a", "Quoted")]
    words = story_words(with_derived_members(story, elements), elements)
    assert {"title", "described", "tagged", "topical", "texted", "quoted"} <= set(words)


def test_search_words_of_text_elements_are_the_words_not_the_markup() -> None:
    elements = [_text('<a href="https://x.example/">y</a>')]
    words = story_words(with_derived_members(_story(title="t"), elements), elements)
    assert "href" not in words
    assert "example" not in words
    assert "y" in words


def test_the_title_sort_key_ignores_case_and_accents() -> None:
    assert with_derived_members(_story(title="Éclair"), []).title_key == fold("eclair")


def test_topic_keys_are_normalized_and_distinct() -> None:
    derived = with_derived_members(_story(topics=["News", "news", "#Tech"]), [])
    assert derived.topic_keys == ["news", "tech"]


def test_element_permalinks_are_distinct_in_story_order() -> None:
    elements = [_quote("sociala", "a", element_id="1"), _quote("sociala", "a", element_id="2")]
    derived = with_derived_members(_story(), elements)
    assert derived.element_permalinks == ["https://sociala.example/a/status/1"]


def test_deriving_leaves_the_stored_members_unchanged() -> None:
    story = _story(title="T #x", hashtags=["Y"])
    derived = with_derived_members(story, [_text("z")])
    assert (derived.title, derived.hashtags, derived.version) == ("T #x", ["Y"], 1)
    assert story.tags == []


def test_the_words_of_an_element_include_captions_titles_and_descriptions() -> None:
    link = LinkElement(
        id="l",
        permalink="https://a.example/",
        data={"link": {"title": "Headline", "description": "Summary", "thumbnail": ""}},
        added_at=NOW,
    )
    assert [w for w in element_words(link) if w] == ["Headline", "Summary"]


def test_the_words_of_each_kind_are_the_text_it_shows() -> None:
    video = {"video": {"src": "https://v.example/1", "title": "Filmed", "thumbnail": ""}}
    image = {"image": {"src": "https://i.example/1.png", "caption": "Captioned"}}
    elements = [
        _text("<p>Written <b>here</b></p>"),
        _quote("sociala", "a", "Quoted"),
        ImageElement(data=image, added_at=NOW),
        VideoElement(data=video, added_at=NOW),
        OtherElement(added_at=NOW),
    ]
    assert [" ".join(element_words(e)).split() for e in elements] == [
        ["Written", "here"],
        ["Quoted"],
        ["Captioned"],
        ["Filmed"],
        [],
    ]


# -- a user's search tokens, as every write of a user takes them ---------------------------------


def _user(**members: Any) -> UserRecord:
    return UserRecord(id="u1", username="alice", created=NOW, updated=NOW, **members)


def test_a_new_users_search_tokens_are_those_of_its_username_and_name() -> None:
    assert with_search_tokens(_user(name="Alice Liddell")).search_tokens == [
        "alice",
        "liddell",
    ]


def test_a_change_of_name_brings_the_search_tokens_of_the_new_name() -> None:
    user = with_search_tokens(_user(name="Alice Liddell"))
    changes = user_changes(user, {"name": "Alice Wonderland", "updated": NOW})
    assert changes == {
        "name": "Alice Wonderland",
        "updated": NOW,
        "search_tokens": ["alice", "wonderland"],
    }


def test_a_change_of_other_members_leaves_the_search_tokens_unwritten() -> None:
    user = with_search_tokens(_user(name="Alice Liddell"))
    assert user_changes(user, {"bio": "Down the hole", "updated": NOW}) == {
        "bio": "Down the hole",
        "updated": NOW,
    }
