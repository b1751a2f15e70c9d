"""Where a page shows a picture from (``storycore.rules.own_files``): storycore's own files
on a loopback or unspecified host from the web host serving the page, everything else as
stored."""

from __future__ import annotations

import pytest

from storycore.rules.own_files import shown_at

SITE = "https://stories.example.org/prefix"


@pytest.mark.parametrize(
    "stored",
    [
        "http://127.0.0.1:8000/static/demo/porto.webp",
        "http://127.0.0.1:9123/static/demo/porto.webp",
        "https://127.8.9.10/static/demo/porto.webp",
        "http://[::1]:8000/static/demo/porto.webp",
        "http://localhost:8000/static/demo/porto.webp",
        "http://LOCALHOST/static/demo/porto.webp",
        "http://0.0.0.0:8000/static/demo/porto.webp",  # serve --host 0.0.0.0 --demo
    ],
)
def test_an_own_file_on_the_readers_own_machine_shows_from_the_site(stored: str) -> None:
    assert shown_at(stored, SITE) == f"{SITE}/static/demo/porto.webp"


@pytest.mark.parametrize(
    "stored",
    [
        "https://other.example/static/demo/porto.webp",  # another site's file
        "http://10.0.0.5/static/demo/porto.webp",  # a private address is somebody's host
        "http://127.0.0.1:8000/media/porto.webp",  # not one of storycore's own files
        "http://127.0.0.1:8000/x/static/demo/porto.webp",
        "http://127.0.0.1:8000/static/demo/porto.webp?v=2",
        "ftp://127.0.0.1/static/demo/porto.webp",
        "http://[::1/static/demo/porto.webp",  # no address at all
        "",
    ],
)
def test_any_other_address_shows_as_it_is_stored(stored: str) -> None:
    assert shown_at(stored, SITE) == stored
