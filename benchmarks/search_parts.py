"""Where a one-word search spends its time: the full-text match alone, sorting the matches, the
page's records, its authors' stats, and storycore's whole search, each a p50 over 100 words.

    python -m benchmarks.search_parts 100000
"""

from __future__ import annotations

import sqlite3
import statistics
import sys
import time
from collections.abc import Callable

from benchmarks.__main__ import prepare

__all__ = ["main"]

_STEPS = {
    "FTS5 match, rowids only": "SELECT rowid FROM story_search WHERE story_search MATCH ?",
    "newest first, a page of keys (FTS5 walks its rowids down and stops)": (
        "SELECT rowid FROM story_search WHERE story_search MATCH ? AND rowid > 0"
        " ORDER BY rowid DESC LIMIT 21"
    ),
}


def _matching(db: sqlite3.Connection, sql: str) -> Callable[[str], object]:
    """A run of ``sql`` matching one word, the word quoted as an FTS5 string."""
    return lambda word: db.execute(sql, (f'"{word}"',)).fetchall()


def _p50(call: Callable[[str], object], words: list[str]) -> float:
    samples = []
    for word in words:
        start = time.perf_counter()
        call(word)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1000


def main() -> None:
    stories = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    service, _, data, _, path = prepare(stories)
    db = sqlite3.connect(str(path))
    words = data.vocabulary()[:100]
    count = "SELECT count(*) FROM story_search WHERE story_search MATCH ?"
    hits = [db.execute(count, (f'"{word}"',)).fetchone()[0] for word in words]
    print(f"{stories:,} stories; a word matches {statistics.median(hits):,.0f} (median)\n")
    print("| step | p50 ms |\n|---|---:|")
    for name, sql in _STEPS.items():
        p50 = _p50(_matching(db, sql), words)
        print(f"| {name} | {p50:.2f} |")
    store = service.store
    found = {word: store.search.search([word], 0, 21) for word in words}
    records = _p50(lambda w: store.search.search([w], 0, 21), words)
    print(f"| + the page's records (the store's search) | {records:.2f} |")
    stats = _p50(lambda w: store.stories.author_stats({s.author_id for s in found[w]}), words)
    print(f"| the page's authors' stats alone (stories, views, embeds) | {stats:.2f} |")
    print(f"| storycore's search, whole | {_p50(service.catalog.search, words):.2f} |")


if __name__ == "__main__":
    main()
