"""Private means private to a package (docs/architecture.md): a ``_module`` is imported only
from within the package that holds it, and a ``_name`` only within its own module. What another
package reads (the member types of ``storycore.input``, the control characters of
``storycore.rules.text``) is public, under a public name.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# the installed layout: storycore/, and the folders installed under it
PLACES = {"storycore": ROOT / "storycore", **{
    f"storycore.{folder}": ROOT / folder for folder in ("adapters", "contrib", "testing")
}}  # fmt: skip


def _modules() -> Iterator[tuple[str, Path]]:
    for package, folder in PLACES.items():
        for path in sorted(folder.rglob("*.py")):
            parts = path.relative_to(folder).with_suffix("").parts
            yield ".".join([package, *parts]), path


MODULES = dict(_modules())


def _is_private(part: str) -> bool:
    return part.startswith("_") and not part.startswith("__")


def _imported(name: str, path: Path) -> Iterator[tuple[str, str]]:
    """(module, name) for every ``from module import name`` of ``path`` (``name`` may be a
    submodule), relative imports resolved."""
    package = name.split(".")[:-1]  # an ``__init__`` is named for its folder already
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom):
            base = (node.module or "").split(".") if node.level == 0 else [
                *package[: len(package) - node.level + 1], *filter(None, [node.module])
            ]  # fmt: skip
            for alias in node.names:
                yield ".".join(base), alias.name
        elif isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, ""


def _owner(module: str) -> str | None:
    """The package a private module belongs to: the one above its first private part."""
    parts = module.split(".")
    private = next((i for i, part in enumerate(parts) if _is_private(part)), None)
    return None if private is None else ".".join(parts[:private])


def _faults(importer: str, path: Path) -> Iterator[str]:
    for module, name in _imported(importer, path):
        if not module.startswith("storycore"):
            continue
        target = f"{module}.{name}" if f"{module}.{name}" in MODULES else module
        owner = _owner(target)
        if owner is not None and not importer.startswith(owner + "."):
            yield f"{target} (private to {owner})"
        elif target == module and _is_private(name):
            yield f"{module}.{name} (private to its module)"


@pytest.mark.parametrize("importer", sorted(MODULES))
def test_nothing_private_is_imported_from_outside_its_place(importer: str) -> None:
    assert sorted(set(_faults(importer, MODULES[importer]))) == []
