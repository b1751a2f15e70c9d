"""ApplicationRepository and TokenRepository."""

from __future__ import annotations

import pytest

from storycore.errors import DuplicateKey, Missing
from storycore.model.records import AppRecord, UserRecord
from storycore.ports import Store, whole_record
from tests.contract._factories import at, make_app, make_token

# -- applications --------------------------------------------------------------------------


def test_an_added_application_reads_back_equal(store: Store) -> None:
    app = make_app("reader").model_copy(update={"href": "https://r.example", "delegation": True})
    store.apps.add(app)
    assert store.apps.get(app.id) == app


def test_get_of_an_unknown_application_is_none(store: Store) -> None:
    store.apps.add(make_app("reader"))
    assert store.apps.get("nope") is None


def test_an_application_name_is_unique(store: Store) -> None:
    store.apps.add(make_app("reader"))
    with pytest.raises(DuplicateKey) as caught:
        store.apps.add(make_app("reader"))
    assert caught.value.key == "app.name"


def test_a_refused_application_is_not_stored(store: Store) -> None:
    first = make_app("reader")
    store.apps.add(first)
    second = make_app("reader")
    with pytest.raises(DuplicateKey):
        store.apps.add(second)
    assert store.apps.get(second.id) is None
    assert store.apps.get_by_key_digest(second.key_digest) is None
    assert store.apps.get_by_name("reader") == first


def test_get_by_key_digest_finds_the_application(store: Store) -> None:
    app = make_app("reader")
    store.apps.add(app)
    store.apps.add(make_app("writer"))
    assert store.apps.get_by_key_digest(app.key_digest) == app


def test_get_by_key_digest_of_an_unknown_digest_is_none(store: Store) -> None:
    store.apps.add(make_app("reader"))
    assert store.apps.get_by_key_digest("0" * 64) is None


def test_get_by_name_finds_the_application(store: Store) -> None:
    app = make_app("reader")
    store.apps.add(app)
    store.apps.add(make_app("writer"))
    assert store.apps.get_by_name("reader") == app


def test_get_by_name_of_an_unknown_name_is_none(store: Store) -> None:
    store.apps.add(make_app("reader"))
    assert store.apps.get_by_name("read") is None


def test_update_of_every_member_stores_the_new_application(store: Store) -> None:
    app = make_app("reader")
    store.apps.add(app)
    new = app.model_copy(
        update={"name": "reader 2", "href": "https://r.example", "delegation": True}
    )
    store.apps.update(app.id, whole_record(new))
    assert store.apps.get(app.id) == new
    assert store.apps.get_by_name("reader 2") == new
    assert store.apps.get_by_name("reader") is None


def test_an_updated_key_digest_finds_the_application(store: Store) -> None:
    app = make_app("reader")
    store.apps.add(app)
    store.apps.update(app.id, {"key_digest": "f" * 64})
    new = app.model_copy(update={"key_digest": "f" * 64})
    assert store.apps.get_by_key_digest("f" * 64) == new
    assert store.apps.get_by_key_digest(app.key_digest) is None


def test_an_update_of_an_unknown_application_with_every_member_raises_missing(
    store: Store,
) -> None:
    app = make_app("reader")
    with pytest.raises(Missing):
        store.apps.update(app.id, whole_record(app))
    assert store.apps.get(app.id) is None


@pytest.mark.parametrize("key", ["name", "key_digest"])
def test_an_update_to_another_applications_name_or_key_raises_duplicate_key(
    store: Store, key: str
) -> None:
    reader, writer = make_app("reader"), make_app("writer")
    store.apps.add(reader)
    store.apps.add(writer)
    with pytest.raises(DuplicateKey) as caught:
        store.apps.update(reader.id, {key: getattr(writer, key), "href": "https://lost.example"})
    assert caught.value.key == f"app.{key}"
    assert store.apps.get(reader.id) == reader
    assert store.apps.get(writer.id) == writer


def test_update_sets_the_named_members_and_keeps_the_others(store: Store) -> None:
    app = make_app("reader").model_copy(update={"href": "https://r.example"})
    store.apps.add(app)
    store.apps.update(app.id, {"delegation": True})
    assert store.apps.get(app.id) == app.model_copy(update={"delegation": True})


def test_update_of_an_unknown_application_raises_missing(store: Store) -> None:
    with pytest.raises(Missing):
        store.apps.update("nope", {"delegation": True})


def test_find_orders_applications_by_name(store: Store) -> None:
    for name in ("mango", "apple", "kiwi"):
        store.apps.add(make_app(name))
    assert [app.name for app in store.apps.find(0, 10)] == ["apple", "kiwi", "mango"]


def test_find_applications_is_sliced_by_offset_and_limit(store: Store) -> None:
    for name in ("mango", "apple", "kiwi", "lime"):
        store.apps.add(make_app(name))
    assert [app.name for app in store.apps.find(1, 2)] == ["kiwi", "lime"]
    assert [app.name for app in store.apps.find(3, 2)] == ["mango"]
    assert store.apps.find(4, 2) == []


# -- tokens --------------------------------------------------------------------------------


@pytest.fixture
def app(store: Store) -> AppRecord:
    """A stored application that tokens are issued through."""
    app = make_app("reader")
    store.apps.add(app)
    return app


def test_an_added_token_reads_back_equal(store: Store, author: UserRecord, app: AppRecord) -> None:
    token = make_token(author.id, app.id, expires=at(60))
    store.tokens.add(token)
    assert store.tokens.get(token.digest) == token


def test_get_of_an_unknown_token_is_none(store: Store, author: UserRecord, app: AppRecord) -> None:
    store.tokens.add(make_token(author.id, app.id, expires=at(60)))
    assert store.tokens.get("0" * 64) is None


def test_get_answers_expired_tokens_too(store: Store, author: UserRecord, app: AppRecord) -> None:
    token = make_token(author.id, app.id, expires=at(1))
    store.tokens.add(token)
    assert store.tokens.get(token.digest) == token


def test_remove_expired_deletes_the_tokens_expired_before_now(
    store: Store, author: UserRecord, app: AppRecord
) -> None:
    expired = [make_token(author.id, app.id, expires=at(n)) for n in (1, 9)]
    for token in expired:
        store.tokens.add(token)
    assert store.tokens.remove_expired(at(10)) == 2
    assert [store.tokens.get(token.digest) for token in expired] == [None, None]


def test_remove_expired_keeps_the_tokens_that_expire_later(
    store: Store, author: UserRecord, app: AppRecord
) -> None:
    live = make_token(author.id, app.id, expires=at(11))
    store.tokens.add(live)
    store.tokens.add(make_token(author.id, app.id, expires=at(9)))
    store.tokens.remove_expired(at(10))
    assert store.tokens.get(live.digest) == live


def test_remove_expired_answers_zero_when_none_expired(
    store: Store, author: UserRecord, app: AppRecord
) -> None:
    store.tokens.add(make_token(author.id, app.id, expires=at(11)))
    assert store.tokens.remove_expired(at(10)) == 0


def test_remove_deletes_that_token_only(store: Store, author: UserRecord, app: AppRecord) -> None:
    revoked, kept = (make_token(author.id, app.id, expires=at(60)) for _ in range(2))
    store.tokens.add(revoked)
    store.tokens.add(kept)
    assert store.tokens.remove(revoked.digest) is True
    assert (store.tokens.get(revoked.digest), store.tokens.get(kept.digest)) == (None, kept)


def test_remove_of_an_unknown_token_answers_false(
    store: Store, author: UserRecord, app: AppRecord
) -> None:
    store.tokens.add(make_token(author.id, app.id, expires=at(60)))
    assert store.tokens.remove("0" * 64) is False


def test_remove_others_of_user_deletes_every_other_token_of_that_user(
    store: Store, author: UserRecord, app: AppRecord
) -> None:
    other_app = make_app("writer")
    store.apps.add(other_app)
    kept = make_token(author.id, app.id, expires=at(60))
    ended = [
        make_token(author.id, app.id, expires=at(60)),
        make_token(author.id, other_app.id, expires=at(60)),
    ]
    for token in (kept, *ended):
        store.tokens.add(token)
    assert store.tokens.remove_others_of_user(author.id, kept.digest) == 2
    assert [store.tokens.get(token.digest) for token in ended] == [None, None]
    assert store.tokens.get(kept.digest) == kept


def test_remove_others_of_user_keeps_the_tokens_of_other_users(
    store: Store, author: UserRecord, other_author: UserRecord, app: AppRecord
) -> None:
    theirs = make_token(other_author.id, app.id, expires=at(60))
    store.tokens.add(theirs)
    store.tokens.add(make_token(author.id, app.id, expires=at(60)))
    assert store.tokens.remove_others_of_user(author.id, None) == 1
    assert store.tokens.get(theirs.digest) == theirs
