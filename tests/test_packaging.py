"""Every package folder is listed for the wheel, under the name it installs as."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INSTALLED_AS = {
    "storycore": "storycore",
    "adapters": "storycore.adapters",
    "contrib": "storycore.contrib",
    "testing": "storycore.testing",
}


def _packages_on_disk() -> set[str]:
    found = set()
    for folder, name in INSTALLED_AS.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            relative = init.parent.relative_to(ROOT / folder).parts
            found.add(".".join([name, *relative]))
    return found


def test_every_package_folder_is_in_the_wheel() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert set(config["packages"]) == _packages_on_disk()


def test_adapters_contrib_and_testing_install_under_storycore() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    for folder, name in INSTALLED_AS.items():
        if folder != "storycore":
            assert config["package-dir"][name] == folder
