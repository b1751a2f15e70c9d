"""Every package folder is listed for the wheel, under the name it installs as; the checkout is
laid out as the installed package, so type checkers see all of it."""

from __future__ import annotations

import fnmatch
import os
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
INSTALLED_AS = {
    "storycore": "storycore",
    "adapters": "storycore.adapters",
    "contrib": "storycore.contrib",
    "testing": "storycore.testing",
}
# A caller outside the checkout passing an int where ``open_store`` takes a URL string.
WRONG_CALL = "from storycore.adapters import open_store\n\nopen_store(42)\n"


def _setuptools() -> dict[str, Any]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    setuptools: dict[str, Any] = project["tool"]["setuptools"]
    return setuptools


def _packages_on_disk() -> set[str]:
    found = set()
    for folder, name in INSTALLED_AS.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            relative = init.parent.relative_to(ROOT / folder).parts
            found.add(".".join([name, *relative]))
    return found


def test_every_package_folder_is_in_the_wheel() -> None:
    assert set(_setuptools()["packages"]) == _packages_on_disk()


def test_every_data_file_of_the_package_is_in_the_wheel() -> None:
    """The embed's script and styles, the demo's pictures (served under /static/demo/): each
    file of storycore/ that is not Python matches a package-data pattern (storycore/ alone:
    rglob does not follow the links to adapters/, contrib/ and testing/)."""
    patterns = _setuptools()["package-data"]["storycore"]
    data = [
        path.relative_to(ROOT / "storycore").as_posix()
        for path in (ROOT / "storycore").rglob("*")
        if path.is_file() and path.suffix not in (".py", ".pyc")
    ]
    assert any(name.startswith("static/demo/") for name in data)
    assert [n for n in data if not any(fnmatch.fnmatch(n, p) for p in patterns)] == []


def test_adapters_contrib_and_testing_are_linked_into_storycore() -> None:
    for folder, name in INSTALLED_AS.items():
        if folder != "storycore":
            link = ROOT.joinpath(*name.split("."))
            assert link.is_symlink()
            assert os.readlink(link) == f"../{folder}"


def test_packages_are_found_from_the_checkout_root_alone() -> None:
    # only a lone "" entry lets setuptools' editable install be a plain path in a .pth file,
    # which mypy and pyright read, instead of an import hook that they cannot follow
    assert _setuptools()["package-dir"] == {"": "."}


def test_mypy_ignores_no_missing_storycore_module() -> None:
    mypy = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    hidden = [
        module
        for override in mypy.get("overrides", [])
        if override.get("ignore_missing_imports")
        for module in override["module"]
        if module.split(".")[0] == "storycore"
    ]
    # storycore/ reaches adapters/, contrib/ and testing/ through its links (listing them would
    # check each file twice)
    assert mypy["files"] == ["storycore", "tests", "benchmarks"]
    assert hidden == []


def test_mypy_holds_the_tests_and_benchmarks_to_the_packages_strict_rules() -> None:
    mypy = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    relaxed = [
        module
        for override in mypy.get("overrides", [])
        for module in override["module"]
        if module.split(".")[0] in {"tests", "benchmarks"}
    ]
    assert mypy["strict"] is True
    assert {"tests", "benchmarks"} <= set(mypy["files"])
    assert relaxed == []


@pytest.mark.long  # mypy --strict over the installed package, from a cold cache
def test_mypy_outside_the_checkout_sees_storycore_adapters(tmp_path: Path) -> None:
    # run against this environment's storycore, as installed by the README (``pip install -e .``)
    (tmp_path / "app.py").write_text(WRONG_CALL)
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--cache-dir",
            str(tmp_path / "cache"),
            "app.py",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert 'Argument 1 to "open_store" has incompatible type "int"' in out.stdout, out.stdout


def _pyproject() -> dict[str, Any]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_the_license_file_is_the_mit_license_the_package_declares() -> None:
    text = (ROOT / "LICENSE").read_text()
    assert _pyproject()["project"]["license"] == "MIT"
    assert text.startswith("MIT License\n\nCopyright (c) 2026 storycore contributors\n")
    assert "Permission is hereby granted, free of charge" in text


def test_the_license_file_ships_in_the_sdist_and_the_wheel() -> None:
    # PEP 639's license-files, which setuptools reads from 77 on (with the SPDX license string)
    pyproject = _pyproject()
    assert pyproject["project"]["license-files"] == ["LICENSE"]
    assert "setuptools>=77" in pyproject["build-system"]["requires"]
