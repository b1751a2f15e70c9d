"""The project documents itself (docs/decisions.md): nothing in the README, ``docs/``, the
benchmarks' README or the changelog points outside the repository. A clone holds every page a
link opens and every file a page names; links to public sites are absolute http(s) addresses.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted(
    [
        ROOT / "README.md",
        *(ROOT / "docs").glob("*.md"),
        ROOT / "benchmarks" / "README.md",
        ROOT / "CHANGELOG.md",
    ]
)
# what a clone of the repository does not hold: the specification beside the checkout
OUTSIDE = ("../shared", "interface-decisions.md", "story-service-interface.md")

_FENCE = re.compile(r"^```.*?^```", flags=re.DOTALL | re.MULTILINE)
_SPAN = re.compile(r"`([^`\n]+)`")
_LINK = re.compile(r"!?\[[^\]\n]*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
_REFERENCE = re.compile(r"^\s{0,3}\[[^\]\n]+\]:\s*<?(\S+?)>?(?:\s|$)", flags=re.MULTILINE)
_HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", flags=re.MULTILINE)
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
# a path as a page writes one in a code span: segments of names, the first a top-level entry
# of the repository (or ``..``), ``*`` and ``{a,b}`` allowed
_PATH = re.compile(r"^(?:\.\./|\./)*[\w.*{},-]+(?:/[\w.*{},-]*)+$")


def _name(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


def _prose(text: str) -> str:
    """The page without its fenced code blocks, where a link or a heading is only code."""
    return _FENCE.sub("", text)


def _links(text: str) -> list[str]:
    """Every link target of the page: inline links, images and reference definitions."""
    prose = _SPAN.sub("", _prose(text))
    return _LINK.findall(prose) + _REFERENCE.findall(prose)


def _anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: lowercase, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link keeps its text
    text = re.sub(r"[^\w\- ]", "", text.lower())
    return text.replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    """The anchors of a page's headings; a repeated heading gets ``-1``, ``-2``, ..."""
    seen: dict[str, int] = {}
    anchors = set()
    for heading in _HEADING.findall(_prose(page.read_text())):
        anchor = _anchor(heading)
        count = seen.get(anchor, 0)
        seen[anchor] = count + 1
        anchors.add(anchor if count == 0 else f"{anchor}-{count}")
    return anchors


def _inside(path: Path) -> bool:
    return path.resolve().is_relative_to(ROOT)


def _expanded(path: str) -> list[str]:
    """``examples/{flask,django}_mount.py`` as the paths it names (one level of braces)."""
    found = re.search(r"\{([^{}]*)\}", path)
    if found is None:
        return [path]
    head, tail = path[: found.start()], path[found.end() :]
    return [f"{head}{choice}{tail}" for choice in found.group(1).split(",")]


def _named_paths(text: str) -> list[str]:
    """The repository paths a page names in its code spans: ``docs/feeds.md``,
    ``storycore/http/``, ``python scripts/screenshot_embed.py`` (each word of a span)."""
    top = {entry.name for entry in ROOT.iterdir()}
    named = []
    for span in _SPAN.findall(_prose(text)):
        for written in span.split():
            word = written.rstrip(".,;:)")
            if not _PATH.match(word) or ":" in word:
                continue
            first = word.split("/", 1)[0]
            if first in ("..", ".") or first in top:
                named.append(word)
    return named


def _exists(page: Path, path: str) -> bool:
    """Whether ``path``, named on ``page``, is a file or folder inside the repository: a path
    that starts with ``../`` or ``./`` counts from the page's folder, any other from the root."""
    base = page.parent if path.startswith(("../", "./")) else ROOT
    for each in _expanded(path):
        target = base / each
        if not _inside(target):
            return False
        if "*" in each:
            if not any(base.glob(each)):
                return False
        elif not target.exists():
            return False
    return True


def test_the_pages_checked_are_there() -> None:
    assert {_name(page) for page in PAGES} >= {
        "README.md",
        "CHANGELOG.md",
        "benchmarks/README.md",
        "docs/api.md",
        "docs/sqlite.md",
    }


@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_no_page_names_the_specification_outside_the_repository(page: Path) -> None:
    text = page.read_text()
    assert [mention for mention in OUTSIDE if mention in text] == []


@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_every_relative_link_opens_a_file_of_the_repository(page: Path) -> None:
    broken = []
    for target in _links(page.read_text()):
        if _SCHEME.match(target) or target.startswith(("#", "//")):
            continue
        path = target.split("#", 1)[0].split("?", 1)[0]
        resolved = page.parent / path
        if not _inside(resolved) or not resolved.exists():
            broken.append(target)
    assert broken == []


@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_every_absolute_link_is_an_http_address(page: Path) -> None:
    absolute = [t for t in _links(page.read_text()) if _SCHEME.match(t) or t.startswith("//")]
    assert [t for t in absolute if not re.match(r"https?://[^/\s]+", t)] == []


@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_every_anchor_a_link_names_is_a_heading_of_its_page(page: Path) -> None:
    missing = []
    for target in _links(page.read_text()):
        if _SCHEME.match(target) or "#" not in target:
            continue
        path, anchor = target.split("#", 1)
        linked = (page.parent / path) if path else page
        if linked.suffix == ".md" and linked.is_file() and anchor not in _anchors(linked):
            missing.append(target)
    assert missing == []


@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_every_path_a_page_names_is_in_the_repository(page: Path) -> None:
    named = _named_paths(page.read_text())
    assert [path for path in named if not _exists(page, path)] == []


def test_the_readers_find_links_paths_and_anchors() -> None:
    # the checks above would pass vacuously if they found no link or path to check
    readme = ROOT / "README.md"
    assert _named_paths("see `../shared/spec/` and `docs/api.md`") == [
        "../shared/spec/",
        "docs/api.md",
    ]
    assert not _exists(readme, "../shared/spec/")
    assert _exists(readme, "examples/{flask,django}_mount.py")
    assert _links("[a](../x.md) ![b](docs/embed.png) `[c](d.md)`") == ["../x.md", "docs/embed.png"]
    assert "http-api" in _anchors(readme)
    assert list(itertools.chain.from_iterable(_links(p.read_text()) for p in PAGES))
