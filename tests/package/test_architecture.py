"""The core depends on nothing outward: no adapter, no binding, no driver, no web framework, and
not the testing kit (hypothesis is imported only inside ``storycore.testing``)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "storycore"
# storycore/adapters, storycore/contrib and storycore/testing are links to the top-level folders
# (the installed layout, for type checkers); rglob does not follow links, so the core's modules
# are only the files storycore/ itself holds
CORE_MODULES = sorted(CORE.rglob("*.py"))
LINKED_FOLDERS = ("adapters", "contrib", "testing")

FORBIDDEN = {
    "adapters",
    "contrib",
    "storycore.adapters",
    "storycore.contrib",
    "sqlite3",
    "psycopg",
    "psycopg_pool",
    "pymongo",
    "mongomock",
    "starlette",
    "fastapi",
    "flask",
    "django",
    "werkzeug",
    "uvicorn",
    "httpx",
    "hypothesis",
    "pytest",
    "testing",
    "storycore.testing",
}


def _imports(path: Path) -> set[str]:
    """Absolute names of everything ``path`` imports (relative imports resolved)."""
    package = ["storycore", *path.relative_to(CORE).parent.parts]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                names.add(node.module or "")
            elif node.level > len(package):
                names.add("..")  # reaching above storycore
            else:
                base = package[: len(package) - node.level + 1]
                names.add(".".join([*base, *([node.module] if node.module else [])]))
    return names


@pytest.mark.parametrize("module", CORE_MODULES, ids=lambda p: p.name)
def test_the_core_imports_nothing_outward(module: Path) -> None:
    outward = {
        name
        for name in _imports(module)
        if name == ".." or any(name == f or name.startswith(f + ".") for f in FORBIDDEN)
    }
    assert outward == set()


def test_importing_the_core_loads_no_adapter_or_driver() -> None:
    code = (
        "import sys, storycore\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in "
        "{'psycopg', 'psycopg_pool', 'pymongo', 'mongomock', 'sqlite3', 'hypothesis', 'httpx',"
        " 'pytest'} "
        "or m.startswith(('storycore.adapters', 'storycore.contrib', 'storycore.testing'))]\n"
        "print(bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_linked_folders_are_imported_only_under_storycore() -> None:
    # the checkout root is on sys.path after ``pip install -e .``, so ``import adapters`` would
    # load a second copy of storycore.adapters beside the real one
    offenders = [
        f"{path.relative_to(ROOT)}: {name}"
        for folder in ("storycore", *LINKED_FOLDERS, "tests", "benchmarks", "examples", "scripts")
        for path in sorted((ROOT / folder).rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(), str(path)))
        for name in _absolute_names(node)
        if name.split(".")[0] in LINKED_FOLDERS
    ]
    assert offenders == []


def _absolute_names(node: ast.AST) -> list[str]:
    """The modules an ``import`` or ``from ... import`` statement names without a leading dot."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
        return [node.module]
    return []
