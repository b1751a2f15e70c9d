"""A count said in words (``storycore.rules.counts``), as the command line prints it."""

from __future__ import annotations

import pytest

from storycore.rules.counts import counted


@pytest.mark.parametrize(
    ("number", "noun", "said"),
    [
        (0, "due story", "0 due stories"),
        (1, "due story", "1 due story"),
        (2, "story", "2 stories"),
        (1, "user", "1 user"),
        (3, "user", "3 users"),
        (2, "key", "2 keys"),
    ],
)
def test_the_noun_agrees_with_the_number(number: int, noun: str, said: str) -> None:
    assert counted(number, noun) == said
