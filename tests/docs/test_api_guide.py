"""docs/api.md, the project's API guide (docs/decisions.md), keeps up with the code: every
operation of the route table and every error type a caller can meet is on the page."""

from __future__ import annotations

import re
from pathlib import Path

from storycore.errors import StorageError, StorycoreError
from storycore.http.api import ROUTES

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "api.md"
# the guide writes a story's operations short, after the read's address
STORY = "/v1/stories/:username/:slug/"


def _error_classes(root: type[StorycoreError] = StorycoreError) -> list[type[StorycoreError]]:
    """Every error class a caller can meet: the tree below ``StorycoreError`` but the storage
    errors, which the service words into others before a caller sees them."""
    found = []
    for kind in root.__subclasses__():
        if not issubclass(kind, StorageError):
            found += [kind, *_error_classes(kind)]
    return found


def test_the_guide_lists_every_error_type_with_its_status() -> None:
    text = GUIDE.read_text()
    missing = [
        (kind.status, kind.type)
        for kind in _error_classes()
        if not re.search(rf"^\| {kind.status} \| `{kind.type}` \|", text, flags=re.MULTILINE)
    ]
    assert missing == []


def test_the_guide_names_every_operation() -> None:
    text = GUIDE.read_text()
    missing = []
    for route in ROUTES:
        path = re.sub(r"\{(\w+)\}", r":\1", route.template)
        short = ".../:slug/" + path.removeprefix(STORY) if path.startswith(STORY) else path
        # the path whole: ``GET /v1/stories`` is not found in ``GET /v1/stories/search``
        written = rf"`{route.method} {re.escape(path)}(?![\w/:])|{re.escape(short)}`"
        if re.search(written, text) is None:
            missing.append(f"{route.method} {path}")
    assert missing == []


def test_the_guide_names_the_openapi_document_as_the_reference() -> None:
    assert "`GET /v1/openapi.json`" in GUIDE.read_text()
