"""The core depends on nothing outward: no adapter, no binding, no driver, no web framework, and
not the testing kit (hypothesis is imported only inside ``storycore.testing``)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parent.parent / "storycore"

FORBIDDEN = {
    "adapters",
    "contrib",
    "storycore.adapters",
    "storycore.contrib",
    "sqlite3",
    "sqlite_utils",
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


@pytest.mark.parametrize("module", sorted(CORE.rglob("*.py")), ids=lambda p: p.name)
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
        "{'sqlite_utils', 'pymongo', 'mongomock', 'sqlite3', 'hypothesis', 'httpx', 'pytest'} "
        "or m.startswith(('storycore.adapters', 'storycore.contrib', 'storycore.testing'))]\n"
        "print(bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
