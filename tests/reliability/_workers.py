"""Work done in child processes by the reliability tests (importable by ``spawn``)."""

from __future__ import annotations

import sys
import time

from storycore import Service, Settings, VersionConflict
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
