"""A seeded, deterministic data set: authors and stories with mixed elements and real-ish text."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

_SYLLABLES = [
    "ka",
    "ri",
    "to",
    "na",
    "me",
    "lo",
    "sa",
    "vi",
    "de",
    "ru",
    "po",
    "len",
    "mar",
    "tis",
    "bel",
    "cor",
    "fin",
    "gal",
    "hor",
    "jun",
    "kes",
    "lum",
    "nor",
    "pra",
    "quen",
    "ros",
    "sul",
    "tam",
    "ulm",
    "ven",
    "wis",
    "yor",
    "zel",
]
_TOPICS = ("politics", "science", "sport", "music", "travel", "food", "tech", "art")


@dataclass(frozen=True)
class DataSet:
    """``stories`` stories over ``authors`` authors, from ``seed``."""

    stories: int
    authors: int = 500
    elements: int = 20
    seed: int = 7

    def vocabulary(self) -> list[str]:
        rng = random.Random(self.seed)
        words = {
            "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 3))) for _ in range(6000)
        }
        return sorted(words)

    def author_names(self) -> list[str]:
        return [f"author{i:04d}" for i in range(self.authors)]

    def story_inputs(self) -> Iterator[tuple[str, dict[str, Any], bool]]:
        """(author, story member object, publish) for each story, in a fixed order."""
        rng = random.Random(self.seed + 1)
        words = self.vocabulary()
        authors = self.author_names()
        for number in range(self.stories):
            title = " ".join(rng.choice(words) for _ in range(rng.randint(3, 7)))
            story = {
                "title": title.capitalize(),
                "description": " ".join(rng.choice(words) for _ in range(15)),
                "elements": [self._element(rng, words, number, i) for i in range(self.elements)],
                "topics": [rng.choice(_TOPICS)],
                "hashtags": [rng.choice(words[:200])],
                "private": rng.random() < 0.05,
            }
            yield authors[number % len(authors)], story, rng.random() < 0.9

    @staticmethod
    def _element(rng: random.Random, words: list[str], story: int, index: int) -> Any:
        kind = rng.random()
        if kind < 0.35:
            text = " ".join(rng.choice(words) for _ in range(rng.randint(10, 40)))
            return {"type": "text", "data": {"text": f"<p>{text}</p>"}}
        if kind < 0.6:
            return f"https://socialA.example/{rng.choice(words)}/status/{story * 100 + index}"
        if kind < 0.75:
            return f"https://img.example/{story}/{index}.jpg"
        if kind < 0.85:
            return f"https://www.youtube.com/watch?v={story}x{index}"
        return f"https://news.example/{rng.choice(words)}/{story}-{index}"
