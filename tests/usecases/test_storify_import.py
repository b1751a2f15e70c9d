"""Importing Storify stories (docs/decisions.md#export-and-import, second bullet): Storify v1 story
JSON (a
story object as the v1 API returned it, the ``{"content": story, "code": 200}`` envelope, or an
array of either) becomes stories under their authors, made on first use without a password,
with their status, dates, elements (docs/api.md#calls-and-answers applies) and the elements' times,
through the
checks of a write. A bad document imports nothing and names the item; a story's ``sid`` is its
id, so importing it again is refused unless replacing. The recorded answers of the real
service (``tests/data/storify-v1-traffic/``) import too.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import orjson
import pytest

from storycore import (
    Conflict,
    InvalidParameter,
    Service,
    Settings,
    SlugTaken,
    Unauthorized,
    Viewer,
)
from storycore.ports import Store
from storycore.testing import ManualClock
from tests._traffic import INTERACTIONS

SID = "52a5534ab169adf57700b312"
CREATED, PUBLISHED, MODIFIED = (
    "2013-12-09T05:21:14.521Z",
    "2013-12-10T08:00:00.000Z",
    "2013-12-23T18:07:48.473Z",
)


def _story(**members: Any) -> dict[str, Any]:
    """A Storify story as the v1 API answered it, with what a read carries besides."""
    story: dict[str, Any] = {
        "sid": SID,
        "title": "Test Story",
        "slug": "test-story",
        "status": "published",
        "version": 20,
        "permalink": "http://storify.com/rtejpar/test-story",
        "shortlink": "http://sfy.co/gXq0",
        "description": "Harbour notes #tides",
        "thumbnail": "//img.example/thumb.jpg",
        "date": {"created": CREATED, "modified": MODIFIED, "published": PUBLISHED},
        "private": False,
        "not_indexed": False,
        "is_spam": False,
        "topics": ["Travel"],
        "siteposts": [],
        "meta": {
            "quoted": [],
            "hashtags": ["ignored"],
            "created_with": {"href": "http://storify.com", "appname": "storify", "name": "storify"},
        },
        "stats": {"views": 24, "likes": 3, "comments": 1},
        "modified": False,
        "deleted": False,
        "author": {
            "_id": "52a55317b169adf57700b0b8",
            "username": "rtejpar",
            "name": "RT",
            "bio": "Software Engineer",
            "location": "Toronto, Canada",
            "website": "http://t.co/4051z4MdbB",
            "avatar": "http://pbs.example/rt.jpeg",
            "settings": {"comments": "facebook"},
        },
        "canEdit": True,
        "page": 1,
        "per_page": 20,
        "elements": [
            {
                "id": "52a5566a234ef8340202dc5c",
                "eid": "812ffa6df73e9fdb9f93775a",
                "type": "video",
                "permalink": "http://youtube.com/watch?v=OPVWy1tFXuc",
                "posted_at": "2013-10-01T12:59:53.000Z",
                "added_at": "2013-12-09T05:30:00.000Z",
                "data": {
                    "video": {"src": "//www.youtube.com/embed/OPVWy1tFXuc", "title": "Trailer"}
                },
                "source": {"href": "http://youtube.com", "name": "youtube"},
                "comments": [],
                "stats": {"likes": 0},
            },
            {
                "id": "52a5566a234ef8340202dc5d",
                "data": {"text": "<h2>Day one</h2><p>Forty boats #harbour</p>"},
                "added_at": "2013-12-09T05:31:00.000Z",
            },
        ],
    }
    return {**story, **members}


def _import(service: Service, *documents: tuple[str, Any], replace: bool = False) -> int:
    encoded = [(name, orjson.dumps(document)) for name, document in documents]
    return service.imports.load_storify(encoded, replace=replace)


def _refused(service: Service, *documents: tuple[str, Any]) -> InvalidParameter:
    with pytest.raises(InvalidParameter) as caught:
        _import(service, *documents)
    return caught.value


def _nothing_written(service: Service) -> bool:
    return not service.store.users.find(0, 10) and service.store.stories.get(SID) is None


# -- what is read ------------------------------------------------------------------------------


def test_a_story_becomes_a_story_of_its_author_with_its_sid_status_and_dates(
    service: Service,
) -> None:
    assert _import(service, ("story.json", _story())) == 2  # the author and the story
    stored = service.store.stories.get(SID)
    assert stored is not None
    assert (stored.slug, stored.status, stored.created, stored.published, stored.updated) == (
        "test-story",
        "published",
        CREATED,
        PUBLISHED,
        MODIFIED,
    )
    assert (stored.title, stored.description, stored.version) == (
        "Test Story",
        "Harbour notes #tides",
        20,
    )
    assert stored.thumbnail == "https://img.example/thumb.jpg"
    assert stored.topics == ["Travel"]
    assert (stored.created_with.appname, stored.created_with.href) == (
        "storify",
        "http://storify.com",
    )
    assert (stored.views, stored.likes, stored.comments) == (0, 0, 0)


def test_the_elements_keep_their_ids_and_times_with_section_17_applied(service: Service) -> None:
    _import(service, ("story.json", _story()))
    detail = service.stories.read("rtejpar", "test-story")
    video, text = detail.elements
    assert (video.id, video.type, video.posted_at, video.added_at) == (
        "52a5566a234ef8340202dc5c",
        "video",
        "2013-10-01T12:59:53.000Z",
        "2013-12-09T05:30:00.000Z",
    )
    assert video.type == "video"
    assert video.data["video"]["src"] == "https://www.youtube.com/embed/OPVWy1tFXuc"
    assert text.type == "text"
    assert text.data == {"text": "<h2>Day one</h2><p>Forty boats #harbour</p>"}


def test_an_element_that_says_no_time_is_added_when_the_story_was_created(
    service: Service,
) -> None:
    _import(service, ("story.json", _story(elements=[{"id": "e1", "data": {"text": "hi"}}])))
    (element,) = service.stories.read("rtejpar", "test-story").elements
    assert element.added_at == CREATED


def test_what_a_write_derives_is_derived_again(service: Service) -> None:
    _import(service, ("story.json", _story()))
    stored = service.store.stories.get(SID)
    assert stored is not None
    assert stored.tags == ["tides", "harbour"]  # not the answer's meta.hashtags
    assert stored.element_counts["video"] == 1
    assert stored.cover == ""  # no image element
    assert [found.sid for found in service.catalog.search("boats").items] == [SID]


def test_a_working_story_stays_working(service: Service) -> None:
    date = {"created": CREATED, "modified": None, "published": None}
    _import(service, ("story.json", _story(status="working", date=date)))
    stored = service.store.stories.get(SID)
    assert stored is not None
    assert (stored.status, stored.published, stored.updated) == ("working", None, CREATED)


def test_a_working_story_marked_modified_is_not_modified_as_no_write_makes_one(
    service: Service,
) -> None:
    date = {"created": CREATED, "modified": None, "published": None}
    _import(service, ("story.json", _story(status="working", date=date, modified=True)))
    stored = service.store.stories.get(SID)
    assert stored is not None
    assert (stored.status, stored.modified) == ("working", False)


def test_a_published_story_keeps_its_modified_mark(service: Service) -> None:
    _import(service, ("story.json", _story(modified=True)))
    stored = service.store.stories.get(SID)
    assert stored is not None
    assert stored.modified is True


def test_the_envelope_and_an_array_are_read_like_a_story(service: Service) -> None:
    second = _story(sid="s2", slug="second")
    count = _import(service, ("all.json", [{"content": _story(), "code": 200}, second]))
    assert count == 3
    assert {
        s.slug
        for s in service.catalog.user("rtejpar", viewer=service.accounts.as_user("rtejpar")).items
    } == {
        "test-story",
        "second",
    }


# -- authors -----------------------------------------------------------------------------------


def test_an_author_is_made_on_first_use_with_a_profile_and_no_password(service: Service) -> None:
    _import(service, ("story.json", _story()))
    profile = service.accounts.get("rtejpar")
    assert (profile.name, profile.bio, profile.website, profile.avatar) == (
        "RT",
        "Software Engineer",
        "http://t.co/4051z4MdbB",
        "http://pbs.example/rt.jpeg",
    )
    app = service.accounts.create_app("reader")
    with pytest.raises(Unauthorized):
        service.accounts.authenticate(app.api_key, "rtejpar", "")


def test_an_author_made_on_first_use_is_made_at_the_services_clocks_time(
    store: Store, storycore_settings: Settings
) -> None:
    clock = ManualClock(start=datetime(2026, 3, 1, 9, tzinfo=UTC))
    with Service(store, storycore_settings, clock=clock) as service:
        _import(service, ("story.json", _story()))
        author = service.store.users.get_by_username("rtejpar")
    assert author is not None
    assert (author.created, author.updated) == ("2026-03-01T09:00:00.000Z",) * 2


def test_an_author_is_made_once_for_all_their_stories(service: Service) -> None:
    count = _import(service, ("a.json", _story()), ("b.json", _story(sid="s2", slug="second")))
    assert count == 3
    assert [user.username for user in service.store.users.find(0, 10)] == ["rtejpar"]


def test_an_author_who_exists_keeps_their_profile(service: Service, alice: Viewer) -> None:
    author = {"username": "Alice", "name": "Someone else"}
    assert _import(service, ("story.json", _story(author=author))) == 1
    assert service.accounts.get("alice").name == "Alice Liddell"
    assert service.stories.read("alice", "test-story").id == SID


def test_an_author_whose_username_breaks_the_rule_is_refused(service: Service) -> None:
    error = _refused(service, ("story.json", _story(author={"username": "rt.jpar"})))
    assert error.field == "story.author.username"
    assert error.message.startswith("story.json: story.author.username: ")
    assert _nothing_written(service)


def test_an_authors_profile_goes_through_the_profile_rule(service: Service) -> None:
    author = {"username": "rtejpar", "website": "javascript:alert(1)"}
    assert _refused(service, ("story.json", _story(author=author))).field == "story.author.website"


# -- pages -------------------------------------------------------------------------------------


def _page(page: int, *ids: str) -> dict[str, Any]:
    elements = [{"id": i, "type": "text", "data": {"text": i}} for i in ids]
    return _story(page=page, elements=elements)


def test_the_pages_of_one_story_are_joined_in_page_order(service: Service) -> None:
    documents = [
        ("p2.json", _page(2, "c", "d")),
        ("p1.json", _page(1, "a", "b")),
        ("p3.json", _page(3)),
    ]
    assert _import(service, *documents) == 2
    detail = service.stories.read("rtejpar", "test-story")
    assert [element.id for element in detail.elements] == ["a", "b", "c", "d"]


def test_the_same_page_twice_is_refused_naming_both(service: Service) -> None:
    error = _refused(service, ("a.json", _page(1, "a")), ("b.json", [_page(1, "b")]))
    assert error.message.startswith("b.json item 1: story.sid: ")
    assert "a.json" in error.message
    assert _nothing_written(service)


def test_pages_of_two_versions_are_refused(service: Service) -> None:
    error = _refused(
        service, ("a.json", _page(1, "a")), ("b.json", {**_page(2, "b"), "version": 21})
    )
    assert error.field == "story.version"


def test_an_element_id_repeated_on_another_page_is_refused_naming_that_page(
    service: Service,
) -> None:
    error = _refused(service, ("a.json", _page(1, "a")), ("b.json", _page(2, "b", "a")))
    assert error.message.startswith("b.json: story.elements.1.id: ")


# -- faults ------------------------------------------------------------------------------------


def test_a_bad_item_imports_nothing_and_names_the_item_and_field(service: Service) -> None:
    bad = _story(sid="s3", slug="third", elements=[{"data": {"image": {"src": "javascript:x"}}}])
    error = _refused(service, ("all.json", [_story(), _story(sid="s2", slug="second"), bad]))
    assert error.message.startswith("all.json item 3: story.elements.0.data.image.src: ")
    assert error.field == "story.elements.0.data.image.src"
    assert _nothing_written(service)


def test_a_document_that_is_not_json_is_refused_naming_it(service: Service) -> None:
    with pytest.raises(InvalidParameter) as caught:
        service.imports.load_storify([("story.json", b'{"sid": ')])
    assert caught.value.message.startswith("story.json: not valid JSON")


@pytest.mark.parametrize("item", [[], "story", {"title": "no sid"}, {"content": [], "code": 200}])
def test_an_item_that_is_not_a_story_is_refused_naming_it(service: Service, item: Any) -> None:
    error = _refused(service, ("list.json", [_story(), item]))
    assert error.message.startswith("list.json item 2: not a Storify story")
    assert _nothing_written(service)


@pytest.mark.parametrize(
    ("members", "field"),
    [
        ({"status": "draft"}, "story.status"),
        ({"date": {"created": "yesterday"}}, "story.date.created"),
        ({"date": {"created": CREATED}}, "story.date.published"),
        ({"title": "t" * 201}, "story.title"),
        ({"slug": "Not a slug!"}, "story.slug"),
        ({"sid": "not/an/id"}, "story.sid"),
        ({"author": None}, "story.author"),
        ({"elements": "none"}, "story.elements"),
    ],
)
def test_a_story_is_checked_as_a_write_checks_it(
    service: Service, members: dict[str, Any], field: str
) -> None:
    error = _refused(service, ("story.json", _story(**members)))
    assert (error.field, error.message.split(": ")[:2]) == (field, ["story.json", field])


def test_a_slug_another_story_of_the_author_holds_is_refused(
    service: Service, alice: Viewer
) -> None:
    service.stories.create("alice", {"title": "Mine", "slug": "test-story"}, viewer=alice)
    with pytest.raises(SlugTaken) as caught:
        _import(service, ("story.json", _story(author={"username": "alice"})))
    assert caught.value.message.startswith("story.json: story.slug: ")


# -- importing again ---------------------------------------------------------------------------


def test_importing_a_story_again_is_refused_unless_replacing(service: Service) -> None:
    _import(service, ("story.json", _story()))
    with pytest.raises(Conflict) as caught:
        _import(service, ("story.json", _story(title="Changed")))
    assert caught.value.message.startswith(f"story.json: story.id: a story with the id '{SID}'")
    assert _import(service, ("story.json", _story(title="Changed")), replace=True) == 1
    assert service.stories.read("rtejpar", "test-story").title == "Changed"


# -- the recorded answers of the real service ----------------------------------------------------


def _recorded(*names: str) -> list[tuple[str, bytes]]:
    return [(name, (INTERACTIONS / name).read_bytes()) for name in names]


#: The recorded reads of three stories: two of them a page at a time.
RECORDED = (
    "story-00-GET-200.response.json",
    "story-01-GET-200.response.json",
    "story-02-GET-200.response.json",
    "story-03-GET-200.response.json",
    "story-04-GET-200.response.json",
    "story-05-GET-200.response.json",
    "story-06-GET-200.response.json",
)


def test_the_recorded_story_answers_import(service: Service) -> None:
    assert service.imports.load_storify(_recorded(*RECORDED)) == 5  # two authors, three stories
    digest = service.stories.read(
        "joshuabaer", "austin-startup-digest-for-december-9-2014", per_page=100
    )
    assert (digest.status, len(digest.elements)) == ("published", 53)
    mine = service.catalog.user("rtejpar", viewer=service.accounts.as_user("rtejpar"))
    assert {story.slug for story in mine.items} == {"test-story", "no-embeds"}
    test_story = service.stories.read(
        "rtejpar", "test-story", viewer=service.accounts.as_user("rtejpar")
    )
    video = next(element for element in test_story.elements if element.type == "video")
    assert video.data["video"]["src"].startswith("https://www.youtube.com/embed/")


def test_a_recorded_answer_imported_twice_is_refused(service: Service) -> None:
    with pytest.raises(InvalidParameter) as caught:
        service.imports.load_storify(_recorded(RECORDED[0], "story-00-GET-200.response.json"))
    assert "page 1" in caught.value.message


def test_progress_is_told_as_stories_are_checked_then_written(service: Service) -> None:
    told: list[tuple[str, int, int | None]] = []
    documents = [("all.json", orjson.dumps([_story(), _story(sid="s2", slug="second")]))]
    service.imports.load_storify(documents, progress=lambda *step: told.append(step))
    assert told == [
        ("checked", 2, None),
        ("checked", 3, None),
        ("imported", 1, 3),
        ("imported", 2, 3),
        ("imported", 3, 3),
    ]
