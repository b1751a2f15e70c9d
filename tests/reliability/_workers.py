"""Work done in child processes by the reliability tests (importable by ``spawn``)."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from storycore import Service, Settings, StorycoreError, VersionConflict
from storycore.adapters import open_store

SETTINGS = Settings(password_cost=2**4)
ELEMENTS = 20


def create_same_title(url: str, count: int) -> list[str]:
    """Create ``count`` stories titled alike; returns their slugs."""
    with Service(open_store(url), SETTINGS) as service:
        alice = service.accounts.as_user("alice")
        return [
            service.stories.create("alice", {"title": "Same title"}, viewer=alice).slug
            for _ in range(count)
        ]


def read_story(url: str, slug: str, count: int) -> int:
    """Read a story ``count`` times anonymously; returns how many reads returned."""
    with Service(open_store(url), SETTINGS) as service:
        for _ in range(count):
            service.stories.read("alice", slug)
        return count


def save_with_versions(url: str, slug: str, count: int) -> int:
    """Try ``count`` versioned saves; returns how many succeeded."""
    done = 0
    with Service(open_store(url), SETTINGS) as service:
        alice = service.accounts.as_user("alice")
        for n in range(count):
            version = service.stories.open("alice", slug, viewer=alice, count_view=False).version
            try:
                service.stories.save(
                    "alice", slug, {"description": str(n)}, viewer=alice, version=version
                )
                done += 1
            except VersionConflict:
                pass
    return done


def write_forever(url: str) -> None:
    """Create stories until killed, printing each id once its create call has returned."""
    with Service(open_store(url), SETTINGS) as service:
        alice = service.accounts.as_user("alice")
        number = 0
        while True:
            story = {
                "title": f"Crash test {number}",
                "elements": [f"https://e.example/{number}/{i}" for i in range(ELEMENTS)],
            }
            created = service.stories.create("alice", story, viewer=alice, publish=True)
            print(created.id, flush=True)
            number += 1


if __name__ == "__main__":
    # started ahead of its turn: imports done, it writes once told to (a line on stdin), and
    # leaves without writing if its stdin closes first
    if sys.stdin.readline():
        write_forever(sys.argv[1])


def authenticate_for(url: str, api_key: str, seconds: float) -> int:
    """Authenticate as carol again and again for ``seconds`` (at most 500 times), with a slow
    password hash; returns how many times.
    """
    settings = Settings(password_cost=2**12)
    done = 0
    with Service(open_store(url), settings) as service:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and done < 500:
            service.accounts.authenticate(api_key, "carol", "carol-password")
            done += 1
    return done


# -- many calls at once (the PostgreSQL reliability tests) ------------------------------------

#: What the processes of a pool share (``share_barrier``): a barrier, so their calls start
#: together.
_shared: dict[str, Any] = {}


def share_barrier(barrier: Any) -> None:
    """Initializer of a process pool: ``at_once`` waits at ``barrier`` before its calls."""
    _shared["barrier"] = barrier


def at_once(url: str, action: str, count: int, *args: Any) -> list[str]:
    """Open the store at ``url`` and run ``action`` from ``count`` threads released together
    (after the other processes of the pool opened theirs, when they share a barrier). Each
    call's outcome: what it returned (a slug), or the name of the storycore error it raised.

    ``action``: ``save`` (slug, version), ``create_at`` (slug) or ``create_titled`` (title).
    """
    with Service(open_store(url), SETTINGS) as service:
        alice = service.accounts.as_user("alice")
        calls: dict[str, Callable[[], str]] = {
            "save": lambda: (
                service.stories.save(
                    "alice", args[0], {"description": "mine"}, viewer=alice, version=args[1]
                ).slug
            ),
            "create_at": lambda: (
                service.stories.create(
                    "alice", {"title": "Same slug", "slug": args[0]}, viewer=alice
                ).slug
            ),
            "create_titled": lambda: (
                service.stories.create("alice", {"title": args[0]}, viewer=alice).slug
            ),
        }
        call = calls[action]
        threads = threading.Barrier(count)

        def one(_: int) -> str:
            threads.wait(timeout=60)
            try:
                return call()
            except StorycoreError as exc:
                return type(exc).__name__

        if "barrier" in _shared:
            _shared["barrier"].wait(timeout=60)
        with ThreadPoolExecutor(count) as pool:
            return list(pool.map(one, range(count), timeout=120))
