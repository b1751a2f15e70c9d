"""Schemathesis over the whole API (docs/decisions.md#the-api-reference): the OpenAPI document and
the server
agree both ways, for a stranger (no credentials, or any drawn for the document's security
schemes, as ``schemathesis run --checks all`` sends them) and for an editor, on every operation
(``_sent_as_its_callers``).

Every check schemathesis has runs on every answer, on valid and invalid data (its examples,
coverage and fuzzing phases): no answer outside the document, no request the document allows
that the server refuses (``positive_data_acceptance``), none it forbids that the server accepts
(``negative_data_rejection``), a 405 with ``Allow`` for an undocumented method, credentials
enforced where the document asks for them (``ignored_auth``). The stateful phase follows the
document's links (create, then read, save, publish, change the slug, delete; register a
webhook, then read it, list its deliveries, remove it).

Four things schemathesis does not read, and that the document states, are held here by a hook
on the cases it calls valid (``_holds_to_the_document``): JSON Schema's content vocabulary
(``contentMediaType``/``contentSchema``: a form's ``story`` is the serialized JSON of a story;
schemathesis draws any JSON text for it), the rule that element ids are unique in a story, the
window of ``publish_at`` (one second to one year after now, docs/api.md#scheduled-publishing) and
the rule
that a webhook's address, when it is an IP address, is a public one (docs/resolver.md and
28), which JSON Schema cannot state. Neither makes a valid case out of an invalid one: they only
keep schemathesis from calling valid what the document says is not.

The calls go through the WSGI binding, the cheaper one to call (that both bindings stand for
``HttpApp`` is ``tests/http/test_bindings.py``), on a seeded run, so a finding reproduces.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

import jsonschema_rs
import orjson
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from pydantic import SecretStr
from schemathesis.checks import CHECKS, load_all_checks
from schemathesis.generation import GenerationMode

from storycore import Service
from storycore.adapters import open_store
from storycore.contrib.wsgi import StorycoreWSGI
from storycore.rules.hosts import canonical_host, is_plainly_private
from storycore.rules.webhook_secrets import new_key
from tests.conftest import TEST_SETTINGS

# thousands of calls each: long, started first
pytestmark = pytest.mark.long

# fuzzing cases per operation and kind of caller, beside the coverage cases; a deeper run:
# STORYCORE_FUZZ_EXAMPLES=500 STORYCORE_FUZZ_SEED=<any integer> pytest tests/fuzz -n 0
EXAMPLES = int(os.environ.get("STORYCORE_FUZZ_EXAMPLES", "10"))
SEED = int(os.environ.get("STORYCORE_FUZZ_SEED", "20261123"))


def all_checks() -> list[Any]:
    """Every check schemathesis registers (functions; class checks run per run, not per call),
    as a stranger's ``schemathesis run --checks all`` runs them."""
    load_all_checks()
    return [check for check in CHECKS.get_all() if not isinstance(check, type)]


@pytest.fixture(scope="module")
def world() -> Iterator[dict[str, Any]]:
    """A service with users, stories (one of them moved to a new slug) and a token; it has a
    webhook key, so that the editor may register webhooks."""
    keyed = TEST_SETTINGS.model_copy(update={"webhook_key": SecretStr(new_key())})
    service = Service(open_store("memory://"), keyed)
    service.accounts.create_user("alice", "a-password", plan="enterprise")
    service.accounts.create_user("ed", "a-password", editor=True, can_feature=True)
    alice = service.accounts.as_user("alice")
    for title in ("First story", "Second story", "Draft"):
        service.stories.create(
            "alice",
            {"title": title, "elements": ["https://socialA.example/bob/status/1"]},
            viewer=alice,
            publish=title != "Draft",
        )
    service.stories.change_slug("alice", "second-story", "city-walks", viewer=alice)
    key = service.accounts.create_app("fuzz").api_key

    def token() -> str:
        return service.accounts.authenticate(key, "ed", "a-password").token

    yield {"app": StorycoreWSGI(service), "token": token(), "new_token": token}
    service.close()


def _content_schemas(case: Any) -> Iterator[tuple[str, Mapping[str, Any], Any]]:
    """The body members of ``case`` that the document types as JSON text, with the schema of
    the JSON they hold."""
    body = case.body if isinstance(case.body, dict) else {}
    media = case.operation.definition.raw.get("requestBody", {}).get("content", {})
    schema = media.get(case.media_type or "", {}).get("schema", {})
    for name, member in schema.get("properties", {}).items():
        for branch in member.get("oneOf", [member]):
            if "contentSchema" in branch and isinstance(body.get(name), str):
                yield name, branch["contentSchema"], body[name]


def _unique_element_ids(story: Any) -> bool:
    elements = story.get("elements") if isinstance(story, dict) else None
    ids = [
        item.get("id")
        for item in (elements if isinstance(elements, list) else [])
        if isinstance(item, dict) and item.get("id")
    ]
    return len(ids) == len(set(ids))


#: how far from the bounds of ``publish_at``'s window a drawn time must be for a case to count
#: as valid: the service's clock moves on between drawing a case and answering it
_MARGIN = timedelta(minutes=1)


def _a_time_to_publish_at(value: Any) -> bool:
    """Whether ``value``, drawn for ``publish_at``, is what the document's words take: a
    cancellation (null, empty, not sent) or a time from one second to one year after now."""
    if value is None or value == "":
        return True
    try:
        moment = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        return False
    now = datetime.now(UTC)
    return now + timedelta(seconds=1) + _MARGIN <= moment <= now + timedelta(days=365) - _MARGIN


def _a_time_out_of_the_window(value: Any) -> bool:
    """Whether ``value`` is a time (with a zone) that is not in ``publish_at``'s window."""
    if not isinstance(value, str) or value == "":
        return False
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return False
    return moment.tzinfo is not None and not _a_time_to_publish_at(value)


def _not_a_private_ip_address(url: Any) -> bool:
    """Whether ``url``, drawn for a webhook, names a host that is not an IP address, or a
    public one, read as a connection reads it (``127.1`` is an IP address): what the document's
    words take (JSON Schema does not tell public addresses)."""
    if not isinstance(url, str):
        return True
    try:
        host = canonical_host(urlsplit(url).hostname or "")
    except ValueError:
        return False  # no host a connection can be made to
    return not is_plainly_private(host)


def _holds_to_the_document(raw_schema: dict[str, Any]) -> Any:
    components = {"components": raw_schema["components"]}
    validators: dict[str, Any] = {}

    def validator(content: Mapping[str, Any]) -> Any:
        key = orjson.dumps(content, option=orjson.OPT_SORT_KEYS).decode()
        if key not in validators:
            validators[key] = jsonschema_rs.validator_for({**content, **components})
        return validators[key]

    def filter_case(context: Any, case: Any) -> bool:
        """A case schemathesis calls valid holds to the rules it does not read. A time out of
        ``publish_at``'s window is left out of every case: a negative case whose mutation left
        it valid by the document is judged as a positive one (ST202), and the window is no
        rule of the document."""
        if _a_time_out_of_the_window(
            case.body.get("publish_at") if isinstance(case.body, dict) else None
        ) or _a_time_out_of_the_window((case.query or {}).get("publish_at")):
            return False
        if case.meta is None or case.meta.generation.mode is not GenerationMode.POSITIVE:
            return True
        body = case.body if isinstance(case.body, dict) else {}
        for name, content, text in _content_schemas(case):
            try:
                value = orjson.loads(text)
            except orjson.JSONDecodeError:
                return False
            if not validator(content).is_valid(value):
                return False
            body = {**body, name: value}
        publish_at = body.get("publish_at", (case.query or {}).get("publish_at"))
        url = body.get("url") if case.operation.path == "/v1/webhooks" else None
        return (
            _unique_element_ids(body.get("story"))
            and _a_time_to_publish_at(publish_at)
            and _not_a_private_ip_address(url)
        )

    return filter_case


def _schema(world: dict[str, Any]) -> Any:
    schema = schemathesis.openapi.from_wsgi("/v1/openapi.json", world["app"])
    # as a stranger runs it: schemathesis's own settings, security parameters drawn too (any
    # text for api_key, username and _token, which the server takes as wrong credentials)
    schema.config.generation.update(
        modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE], max_examples=EXAMPLES
    )
    schema.config.seed = SEED
    schema.hooks.register_hook_with_name(_holds_to_the_document(schema.raw_schema), "filter_case")
    return schema


@pytest.fixture(scope="module")
def api_schema(world: dict[str, Any]) -> Any:
    return _schema(world)


#: what a case may carry of a caller's credentials, drawn by schemathesis
_CREDENTIAL_QUERY = ("api_key", "username", "_token")
_CREDENTIAL_HEADERS = ("authorization", "x-api-key")


def _as_editor(world: dict[str, Any], case: Any) -> dict[str, str]:
    """The editor's bearer token; revoking one ends it, so each revocation has its own."""
    token = world["new_token"]() if case.operation.path == "/v1/auth/revoke" else world["token"]
    return {"Authorization": f"Bearer {token}"}


def _without_drawn_credentials(case: Any) -> Any:
    """``case`` without the credentials schemathesis drew for it, to send as the editor."""
    query = {k: v for k, v in (case.query or {}).items() if k not in _CREDENTIAL_QUERY}
    headers = {
        k: v for k, v in (case.headers or {}).items() if k.lower() not in _CREDENTIAL_HEADERS
    }
    case.query, case.headers = query, headers
    return case


FUZZ = settings(
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
schema = schemathesis.pytest.from_fixture("api_schema")
# the operations that take a whole story are most of the work: the coverage phase draws
# thousands of cases for a story's schema. Schemathesis keeps the values it draws for a schema
# in a cache of the process, and draws are seeded (the same schema, the same values), so the
# three tests of those operations run on one worker, in one process: the story's values are
# drawn once, not once per worker, for the same cases (measured, one process for both creates
# took 59 s of CPU, two took 94 s)
CREATING = ["create_story", "delegated_create"]
CHANGING = ["save_story", "publish_story"]
STORY_TAKING = pytest.mark.xdist_group("api-schema-story-operations")


def _sent_as_its_callers(case: Any, world: dict[str, Any]) -> None:
    """Each case, drawn once, is sent as a stranger sends it (no credentials, or those
    schemathesis drew from the document's security schemes), then as the editor."""
    checks = all_checks()
    case.call_and_validate(checks=checks)
    editor = _without_drawn_credentials(case)
    editor.call_and_validate(headers=_as_editor(world, editor), checks=checks)


@STORY_TAKING
@schema.include(operation_id="create_story").parametrize()
@FUZZ
def test_the_create_operation_agrees_with_the_document(case: Any, world: dict[str, Any]) -> None:
    _sent_as_its_callers(case, world)


@STORY_TAKING
@schema.include(operation_id="delegated_create").parametrize()
@FUZZ
def test_the_delegated_create_agrees_with_the_document(case: Any, world: dict[str, Any]) -> None:
    _sent_as_its_callers(case, world)


@STORY_TAKING
@schema.include(operation_id=CHANGING).parametrize()
@FUZZ
def test_save_and_publish_agree_with_the_document(case: Any, world: dict[str, Any]) -> None:
    _sent_as_its_callers(case, world)


@schema.exclude(operation_id=[*CREATING, *CHANGING]).parametrize()
@FUZZ
def test_every_other_operation_agrees_with_the_document(case: Any, world: dict[str, Any]) -> None:
    _sent_as_its_callers(case, world)


STEPS = settings(
    FUZZ,
    max_examples=int(os.environ.get("STORYCORE_FUZZ_SCENARIOS", "4")),
    stateful_step_count=6,
)


def test_calls_that_follow_the_documents_links_agree_with_it(
    api_schema: Any, world: dict[str, Any]
) -> None:
    """The stateful phase, as the editor: a write, then the calls its links name on the story
    it answers with (read, save, publish, unpublish, feature, change the slug, delete), or a
    webhook's registration, then the calls on the webhook (read, deliveries, remove).

    ``use_after_free`` and ``ensure_resource_availability`` run here, and cannot find anything
    in v1's paths: both look for REST semantics the v1 interface does not have. The first
    needs a ``DELETE`` method (a story is deleted by ``POST .../delete``), the second a create
    whose path is a prefix of the created resource's (``POST /v1/stories/{username}/create``
    is not a prefix of ``/v1/stories/{username}/{slug}``).
    """
    checks = all_checks()

    class Editor(api_schema.as_state_machine()):  # type: ignore[misc]
        def get_call_kwargs(self, case: Any) -> dict[str, Any]:
            return {"headers": _as_editor(world, case)}

        def validate_response(
            self, response: Any, case: Any, additional_checks: Any = None, **kwargs: Any
        ) -> None:
            case.validate_response(
                response,
                checks=checks,
                headers=kwargs.get("headers"),
                transport_kwargs=kwargs or None,
                recorder=self.recorder,
            )

    Editor.run(settings=STEPS)
