"""The one exception tree: each error's ``type``, status and ``field`` (docs/api.md#errors),
rendered as the error body ``{"error": {...}, "code": status}`` whose code is the HTTP status
(docs/api.md#calls-and-answers) and whose keys are exactly ``error`` and ``code`` (docs/api.md)."""

from __future__ import annotations

import orjson
import pytest

from storycore import errors
from storycore.errors import (
    ConfigurationError,
    Conflict,
    Forbidden,
    InternalError,
    InvalidParameter,
    InvalidSlug,
    MethodNotAllowed,
    MissingDependencyError,
    NotFound,
    PayloadTooLarge,
    ProviderUnavailable,
    RateLimited,
    SlugTaken,
    StorycoreError,
    StoryMoved,
    Unauthorized,
    VersionConflict,
)

DECIDED = [
    (InvalidParameter, 400, "invalid_parameter"),
    (InvalidSlug, 400, "invalid_slug"),
    (Unauthorized, 401, "unauthorized"),
    (Forbidden, 403, "forbidden"),
    (NotFound, 404, "not_found"),
    (SlugTaken, 409, "slug_taken"),
    (VersionConflict, 409, "version_conflict"),
    (PayloadTooLarge, 413, "payload_too_large"),
    (ProviderUnavailable, 502, "provider_unavailable"),
    (InternalError, 500, "internal_error"),
]


@pytest.mark.parametrize(("error", "status", "kind"), DECIDED)
def test_each_error_has_the_status_and_type_of_the_decisions(
    error: type[StorycoreError], status: int, kind: str
) -> None:
    raised = error("message")
    assert (raised.status, raised.type) == (status, kind)


def test_method_not_allowed_is_405() -> None:
    raised = MethodNotAllowed("no")
    assert (raised.status, raised.type) == (405, "method_not_allowed")


def test_every_error_the_module_exports_is_a_storycore_error_or_a_start_up_error() -> None:
    for name in errors.__all__:
        error = getattr(errors, name)
        assert issubclass(error, StorycoreError | ConfigurationError | MissingDependencyError)


def test_an_invalid_slug_is_an_invalid_parameter() -> None:
    assert issubclass(InvalidSlug, InvalidParameter)


def test_slug_taken_and_version_conflict_are_conflicts() -> None:
    assert issubclass(SlugTaken, Conflict)
    assert issubclass(VersionConflict, Conflict)


def test_an_error_with_a_field_renders_type_message_and_field() -> None:
    raised = SlugTaken("alice already has a story at 'my-story'", field="slug")
    assert raised.body() == {
        "error": {
            "type": "slug_taken",
            "message": "alice already has a story at 'my-story'",
            "field": "slug",
        },
        "code": 409,
    }


def test_an_error_without_a_field_has_no_field_key() -> None:
    assert NotFound("no such story").body() == {
        "error": {"type": "not_found", "message": "no such story"},
        "code": 404,
    }


@pytest.mark.parametrize(("error", "status", "kind"), DECIDED)
def test_the_body_code_is_the_status(error: type[StorycoreError], status: int, kind: str) -> None:
    body = error("m", field="f").body()
    assert set(body) == {"error", "code"}
    assert body["code"] == status
    assert body["error"]["type"] == kind


def test_the_body_is_json() -> None:
    body = InvalidParameter("story.title is \u00e9\u2028 long", field="story.title").body()
    assert orjson.loads(orjson.dumps(body)) == body


def test_the_message_is_the_exceptions_text() -> None:
    assert str(Forbidden("only alice may")) == "only alice may"


def test_an_internal_error_body_carries_no_traceback() -> None:
    with pytest.raises(InternalError) as caught:
        raise InternalError("an internal error occurred") from ValueError("secret detail")
    assert set(caught.value.body()["error"]) == {"type", "message"}
    assert "secret detail" not in str(caught.value.body())


def test_errors_need_no_extra_headers_by_default() -> None:
    assert NotFound("x").headers() == []


def test_method_not_allowed_names_the_allowed_methods() -> None:
    assert MethodNotAllowed("no", allowed=("GET", "POST")).headers() == [("Allow", "GET, POST")]


def test_rate_limited_says_when_to_retry() -> None:
    raised = RateLimited("slow down", retry_after=12)
    assert (raised.status, raised.type) == (429, "rate_limited")
    assert raised.headers() == [("Retry-After", "12")]


def test_a_moved_story_names_its_new_address() -> None:
    moved = StoryMoved("alice", "new-slug")
    assert (moved.status, moved.username, moved.slug) == (301, "alice", "new-slug")


def test_a_missing_extra_names_the_pip_command() -> None:
    error = MissingDependencyError("pymongo", "mongodb")
    assert isinstance(error, ImportError)
    assert "pip install 'storycore[mongodb]'" in str(error)


def test_a_configuration_error_is_a_value_error_raised_at_start_up() -> None:
    assert issubclass(ConfigurationError, ValueError)
    assert not issubclass(ConfigurationError, StorycoreError)
