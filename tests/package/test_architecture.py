"""The core depends on nothing outward: no adapter, no binding, no driver, no web framework, and
not the testing kit (hypothesis is imported only inside ``storycore.testing``)."""

from __future__ import annotations

import ast
import re
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


# -- the floors of docs/architecture.md ------------------------------------------------------

ARCHITECTURE = ROOT / "docs" / "architecture.md"
_FLOOR_ROW = re.compile(r"^\| (\d+) \| `([^`]+)` \|")
_ADAPTERS_MAY_IMPORT = (
    "storycore.errors",
    "storycore.extras",
    "storycore.rules",
    "storycore.model",
    "storycore.ports",
)


def _floors() -> dict[str, int]:
    """Each place of the core (a folder ending in / or a module) and its floor, as the
    architecture page's table gives them."""
    text = ARCHITECTURE.read_text()
    return {
        match.group(2): int(match.group(1))
        for line in text.splitlines()
        if (match := _FLOOR_ROW.match(line))
    }


FLOORS = _floors()


def _file_of(name: str) -> Path | None:
    """The file of the storycore module ``name``, or None when it is no module of the core."""
    parts = name.split(".")
    if parts[0] != "storycore" or (len(parts) > 1 and parts[1] in LINKED_FOLDERS):
        return None
    base = ROOT.joinpath(*parts)
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def _place(path: Path) -> str | None:
    """The place of the floors' table that holds ``path`` (the longest that matches)."""
    relative = path.relative_to(ROOT).as_posix()
    found = [place for place in FLOORS if relative == place or relative.startswith(place)]
    return max(found, key=len, default=None)


def _imported_files(path: Path, package: list[str]) -> set[Path]:
    """The files of the core that ``path`` imports, a submodule named in ``from x import y``
    counted as itself."""
    found: set[Path] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                base = node.module or ""
            else:
                base = ".".join(
                    [*package[: len(package) - node.level + 1], *filter(None, [node.module])]
                )
            names = [
                f"{base}.{alias.name}" if _file_of(f"{base}.{alias.name}") else base
                for alias in node.names
            ]
        else:
            continue
        found.update(file for name in names if (file := _file_of(name)) is not None)
    return found


def test_the_architecture_page_gives_every_floor() -> None:
    assert set(FLOORS.values()) == set(range(11))
    assert all((ROOT / place).exists() for place in FLOORS)


@pytest.mark.parametrize("module", CORE_MODULES, ids=lambda p: str(p.relative_to(CORE)))
def test_a_module_of_the_core_imports_only_its_own_place_and_the_floors_below(
    module: Path,
) -> None:
    own = _place(module)
    if module.name == "__main__.py":
        return  # the command line's entry, outside the floors
    assert own is not None, f"{module.relative_to(ROOT)} stands on no floor of the page"
    package = ["storycore", *module.relative_to(CORE).parent.parts]
    upward = sorted(
        f"{target.relative_to(ROOT)} ({place}, floor {FLOORS[place]})"
        for target in _imported_files(module, package)
        if (place := _place(target)) is not None and place != own and FLOORS[place] >= FLOORS[own]
    )
    assert upward == [], f"{module.relative_to(ROOT)} is on floor {FLOORS[own]}"


@pytest.mark.parametrize(
    "module", sorted((ROOT / "adapters").rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT))
)
def test_an_adapter_imports_only_errors_extras_rules_model_and_ports(module: Path) -> None:
    package = ["storycore", *module.relative_to(ROOT).parent.parts]
    beyond = sorted(
        str(target.relative_to(ROOT))
        for target in _imported_files(module, package)
        if not any(
            target == _file_of(allowed) or target.is_relative_to(ROOT.joinpath(*allowed.split(".")))
            for allowed in _ADAPTERS_MAY_IMPORT
        )
    )
    assert beyond == []
