"""The extras (docs/decisions.md#dependencies): the core depends only on what it imports
outside a guard; each guard names an extra that declares the module's package; a part that
needs an extra which is not installed says which, as ``MissingDependencyError``.
"""

from __future__ import annotations

import ast
import importlib.metadata
import re
import subprocess
import sys
import tomllib
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path

import pytest

from storycore import ConfigurationError, MissingDependencyError, Service, Settings, extras
from storycore.adapters import open_store

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
#: The core and its default stores: what ``pip install storycore`` must run on its own.
CORE = [
    *sorted((ROOT / "storycore").rglob("*.py")),  # rglob does not follow the linked folders
    ROOT / "adapters" / "__init__.py",
    *sorted((ROOT / "adapters" / "sqlite").rglob("*.py")),
    *sorted((ROOT / "adapters" / "memory").rglob("*.py")),
    *sorted((ROOT / "adapters" / "_sql").rglob("*.py")),
]
#: The extras that bring packages storycore uses, as against those that gather others.
GATHERING = {"all", "test"}


def _name(requirement: str) -> str:
    """The normalized distribution name of a requirement (``psycopg[binary]>=3.2``: psycopg)."""
    name = re.match(r"[A-Za-z0-9._-]+", requirement)
    assert name is not None, requirement
    return re.sub(r"[-_.]+", "-", name.group()).lower()


def _packages(extra: str) -> set[str]:
    """The distributions ``extra`` brings, through the extras it names."""
    found: set[str] = set()
    for requirement in PROJECT["optional-dependencies"][extra]:
        if _name(requirement) == "storycore":
            inner = re.search(r"\[([^\]]+)\]", requirement)
            assert inner is not None, requirement
            found.update(*(_packages(name.strip()) for name in inner.group(1).split(",")))
        else:
            found.add(_name(requirement))
    return found


@cache
def _installed() -> Mapping[str, list[str]]:
    """Each top-level module installed here, and the distributions that install it."""
    return importlib.metadata.packages_distributions()


def _distribution_of(module: str) -> set[str]:
    """The distributions that install the top-level ``module`` here."""
    names = _installed().get(module, [])
    return {_name(name) for name in names}


def _third_party_imports(path: Path) -> Iterator[tuple[str, str | None]]:
    """Each top-level module ``path`` imports that is neither the standard library's nor
    storycore's, with the extra of the ``imported_from`` block it sits in (or None); imports
    read only by type checkers (``if TYPE_CHECKING:``) are left out."""

    def walk(node: ast.AST, extra: str | None) -> Iterator[tuple[str, str | None]]:
        if isinstance(node, ast.If) and ast.unparse(node.test).endswith("TYPE_CHECKING"):
            for statement in node.orelse:
                yield from walk(statement, extra)
            return
        if isinstance(node, ast.With):
            for item in node.items:
                call = item.context_expr
                if isinstance(call, ast.Call) and ast.unparse(call.func).endswith("imported_from"):
                    argument = call.args[0]
                    assert isinstance(argument, ast.Constant), ast.unparse(call)
                    extra = str(argument.value)
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        for name in names:
            top = name.partition(".")[0]
            if top not in sys.stdlib_module_names and top != "storycore":
                yield top, extra
        for child in ast.iter_child_nodes(node):
            yield from walk(child, extra)

    yield from walk(ast.parse(path.read_text(), str(path)), None)


def test_every_extra_that_brings_packages_has_the_modules_its_guards_name() -> None:
    declared = set(PROJECT["optional-dependencies"]) - GATHERING
    assert set(extras.MODULES) == declared


@pytest.mark.parametrize("extra", sorted(extras.MODULES))
def test_each_module_a_guard_names_comes_with_its_extra(extra: str) -> None:
    unbrought = [
        module
        for module in extras.MODULES[extra]
        if not _distribution_of(module) & _packages(extra)
    ]
    assert unbrought == []


def _required_by(distribution: str) -> set[str]:
    """What ``distribution`` itself requires, whatever the extras and the platform."""
    return {_name(r) for r in importlib.metadata.requires(distribution) or []}


def test_the_core_depends_only_on_what_it_imports_outside_the_guards() -> None:
    dependencies = {_name(requirement) for requirement in PROJECT["dependencies"]}
    imported = {
        module for path in CORE for module, extra in _third_party_imports(path) if extra is None
    }
    brought = set().union(*(_distribution_of(module) for module in imported))
    # markupsafe comes with jinja2 and pydantic-core with pydantic (which pins its version)
    beside = set().union(*(_required_by(name) for name in dependencies))
    assert dependencies <= brought
    assert brought - dependencies <= beside


def test_the_core_imports_an_extras_module_only_under_the_guard_of_that_extra() -> None:
    misplaced = [
        f"{path.relative_to(ROOT)}: {module} under {extra}"
        for path in CORE
        for module, extra in _third_party_imports(path)
        if extra is not None and module not in extras.MODULES[extra]
    ]
    assert misplaced == []


def test_the_test_extra_installs_every_other_extra() -> None:
    every = set().union(*(_packages(extra) for extra in extras.MODULES))
    assert every <= _packages("test")


def test_importing_the_core_and_its_bindings_loads_no_package_of_an_extra() -> None:
    code = (
        "import sys, storycore, storycore.contrib.asgi, storycore.contrib.wsgi,"
        " storycore.contrib.cli\n"
        "print(sorted({m.split('.')[0] for m in sys.modules}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    every = {module for modules in extras.MODULES.values() for module in modules}
    loaded = set(ast.literal_eval(out.stdout))
    assert loaded & (every | {"uvloop", "httptools", "tqdm"}) == set()


# -- the guards ------------------------------------------------------------------------------


@pytest.fixture
def uninstalled(monkeypatch: pytest.MonkeyPatch) -> str:
    """An extra whose one module is not installed."""
    monkeypatch.setitem(extras.MODULES, "elsewhere", ("storycore_no_such_module",))
    return "elsewhere"


def test_a_missing_module_of_an_extra_names_the_extra_to_install(uninstalled: str) -> None:
    with pytest.raises(MissingDependencyError) as raised, extras.imported_from(uninstalled):
        import storycore_no_such_module  # type: ignore[import-not-found]  # noqa: F401
    assert str(raised.value) == (
        "storycore_no_such_module is not installed: pip install 'storycore[elsewhere]'"
        " (from a checkout: pip install -e '.[elsewhere]')"
    )


def test_a_missing_module_of_no_extra_is_left_a_plain_import_error(uninstalled: str) -> None:
    with pytest.raises(ModuleNotFoundError) as raised, extras.imported_from(uninstalled):
        import storycore_another_missing_module  # type: ignore[import-not-found]  # noqa: F401
    assert not isinstance(raised.value, MissingDependencyError)


def test_requiring_an_extra_names_it_before_anything_is_imported(uninstalled: str) -> None:
    assert not extras.installed(uninstalled)
    with pytest.raises(MissingDependencyError, match=r"pip install 'storycore\[elsewhere\]'"):
        extras.require(uninstalled)


def test_requiring_an_installed_extra_does_nothing() -> None:
    assert extras.installed("serve")
    extras.require("serve")


def test_an_online_service_without_a_resolver_names_the_online_extra() -> None:
    store = open_store("memory://")
    try:
        with pytest.raises(ConfigurationError, match=r"pip install 'storycore\[online\]'"):
            Service(store, Settings(resolver="online"))
    finally:
        store.close()
