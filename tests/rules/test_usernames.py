"""The username rule: shape, reserved names, identity regardless of case
(docs/api.md#credentials)."""

from __future__ import annotations

import pytest

from storycore.errors import InvalidParameter
from storycore.rules.usernames import username_key, validate_username


@pytest.mark.parametrize("username", ["a", "alice", "Alice_99", "_", "x" * 30])
def test_one_to_30_letters_digits_or_underscores_are_a_valid_username(username: str) -> None:
    assert validate_username(username) == username


@pytest.mark.parametrize(
    "username",
    [
        "",
        "x" * 31,
        "al ice",
        "alice!",
        "alice-b",
        "élise",
        "alice.b",
        "\uff41\uff4c\uff49\uff43\uff45",
    ],
)
def test_a_username_breaking_the_rule_is_invalid_parameter(username: str) -> None:
    with pytest.raises(InvalidParameter) as caught:
        validate_username(username)
    assert (caught.value.type, caught.value.field) == ("invalid_parameter", "username")


def test_a_username_with_a_trailing_newline_is_invalid_parameter() -> None:
    with pytest.raises(InvalidParameter):
        validate_username("alice\n")


def test_a_reserved_username_is_refused_naming_the_given_field() -> None:
    with pytest.raises(InvalidParameter) as caught:
        validate_username("Oembed", field="user.username")
    assert caught.value.field == "user.username"
    assert "reserved" in caught.value.message


@pytest.mark.parametrize("username", ["searcher", "api_user", "s2", "my_stories"])
def test_a_username_merely_containing_a_reserved_name_is_allowed(username: str) -> None:
    assert validate_username(username) == username


def test_usernames_differing_only_in_case_have_one_key() -> None:
    assert username_key("Alice") == username_key("ALICE") == username_key("alice")


def test_different_usernames_have_different_keys() -> None:
    assert username_key("alice") != username_key("alice_")
