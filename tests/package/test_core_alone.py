"""The core alone (docs/decisions.md#dependencies): ``pip install storycore`` without an extra,
into a fresh virtual environment, brings none of the extras' packages and runs the Python API
on SQLite; a part that needs an extra says which one, in one line.

The wheel is built once, from a copy of this checkout (so that the build leaves nothing in
it), and installed by its path: the environment cannot pick another storycore up. Its
dependencies come from the package registry; where the registry cannot be reached, the tests
are skipped.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: What the wheel is built from: the package's folders (storycore/ links the others) and the
#: files its metadata reads.
SOURCES = ("pyproject.toml", "README.md", "LICENSE", "storycore", "adapters", "contrib", "testing")
#: The top-level modules of the extras' packages, which the core alone must not bring.
EXTRAS_ONLY = (
    "uvicorn",
    "uvloop",
    "httptools",
    "httpx",
    "tqdm",
    "pythonjsonlogger",
    "selectolax",
    "cachetools",
    "swagger_ui",
)
REGISTRY = ("pypi.org", 443)
#: How long a command in the environment may run before it is stopped: a ceiling for one that
#: would otherwise never end (a ``serve`` that starts), not a measure of time.
CEILING = 600

# one environment, on one worker, started first (building and installing it is a long run)
pytestmark = [pytest.mark.xdist_group("core_alone"), pytest.mark.long]


@dataclass(frozen=True)
class Environment:
    """A virtual environment holding storycore alone, and a folder to work in."""

    bin: Path
    work: Path

    def run(self, args: Sequence[str]) -> subprocess.CompletedProcess[str]:
        """``args`` (the first a program of the environment) in the work folder, with no trace
        of this checkout in the environment variables."""
        return _run([str(self.bin / args[0]), *args[1:]], cwd=self.work)

    def python(self, code: str) -> subprocess.CompletedProcess[str]:
        """``code`` run by the environment's Python."""
        return self.run(["python", "-c", code])


def _clean_environment() -> dict[str, str]:
    """This process's environment variables, less those that would lead the new environment's
    Python to this checkout or to this process's packages."""
    dropped = {"PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "VIRTUAL_ENV", "PYTHONSAFEPATH"}
    return {name: value for name, value in os.environ.items() if name not in dropped}


def _run(args: Sequence[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        list(args),
        cwd=cwd,
        env=_clean_environment(),
        capture_output=True,
        text=True,
        check=False,
        timeout=CEILING,
    )


def _registry_reachable() -> bool:
    try:
        socket.create_connection(REGISTRY, timeout=10).close()
    except OSError:
        return False
    return True


def _installed(done: subprocess.CompletedProcess[str], what: str) -> None:
    """Stop the module's tests when ``what`` failed: skipped when the registry is out of reach,
    failed otherwise."""
    if done.returncode == 0:
        return
    if not _registry_reachable():
        pytest.skip(f"the package registry cannot be reached ({what})")
    pytest.fail(f"{what} failed:\n{done.stdout}\n{done.stderr}")


@pytest.fixture(scope="module")
def core_alone(tmp_path_factory: pytest.TempPathFactory) -> Environment:
    folder = tmp_path_factory.mktemp("core-alone")
    source = folder / "source"
    source.mkdir()
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            ignored = shutil.ignore_patterns("__pycache__", "*.egg-info")
            shutil.copytree(path, source / name, symlinks=True, ignore=ignored)
        else:
            shutil.copy2(path, source / name)
    quiet = ["--disable-pip-version-check", "-q"]
    wheels = folder / "wheels"
    built = _run(
        [sys.executable, "-m", "pip", "wheel", *quiet, "--no-deps", "-w", str(wheels), "."],
        cwd=source,
    )
    _installed(built, "building the wheel")
    venv = folder / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    (wheel,) = wheels.glob("storycore-*.whl")
    added = _run([str(venv / "bin" / "python"), "-m", "pip", "install", *quiet, str(wheel)], folder)
    _installed(added, "installing the wheel")
    work = folder / "work"
    work.mkdir()
    return Environment(venv / "bin", work)


def test_the_core_alone_brings_no_package_of_an_extra(core_alone: Environment) -> None:
    done = core_alone.python(
        "import importlib.util, storycore\n"
        "print(storycore.__file__)\n"
        f"print([m for m in {EXTRAS_ONLY!r} if importlib.util.find_spec(m)])"
    )
    location, found = done.stdout.splitlines()
    assert Path(location).is_relative_to(core_alone.bin.parent)
    assert found == "[]"


def test_the_core_alone_imports_the_package_and_its_bindings(core_alone: Environment) -> None:
    done = core_alone.python(
        "import storycore, storycore.adapters, storycore.contrib.asgi, storycore.contrib.wsgi,"
        " storycore.contrib.cli, storycore.contrib.compose"
    )
    assert (done.returncode, done.stderr) == (0, "")


def test_the_python_api_runs_on_sqlite_with_the_core_alone(core_alone: Environment) -> None:
    example = core_alone.work / "quickstart.py"
    shutil.copy2(ROOT / "examples" / "quickstart.py", example)
    done = core_alone.run(["python", str(example)])
    assert done.stderr == ""
    assert done.stdout.splitlines() == [
        "a-walk-by-the-harbour working",
        "['A walk by the harbour']",
        "['a-walk-by-the-harbour']",
        "published ['quote', 'image']",
    ]


def test_serve_without_its_extra_names_it_in_one_line(core_alone: Environment) -> None:
    serve = ["serve", "--demo", "--port", "0", "--workers", "1"]  # one process, were it to start
    done = core_alone.run(["storycore", "--db", "sqlite:///stories.db", *serve])
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        "storycore: uvicorn is not installed: pip install 'storycore[serve]'"
        " (from a checkout: pip install -e '.[serve]')\n"
    )
    assert not (core_alone.work / "stories.db").exists()  # said before anything was opened


def test_the_other_commands_run_with_the_core_alone(core_alone: Environment) -> None:
    db = "sqlite:///commands.db"
    password = ["--password", "a long password"]
    made = core_alone.run(["storycore", "--db", db, "users", "create", "alice", *password])
    listed = core_alone.run(["storycore", "--db", db, "users", "list"])
    assert (made.returncode, made.stdout, made.stderr) == (0, "created user alice\n", "")
    assert listed.stdout.split("\t")[0] == "alice"


def test_the_online_resolver_without_its_extra_names_it(core_alone: Environment) -> None:
    done = core_alone.python(
        "from storycore.errors import MissingDependencyError\n"
        "for module in ('storycore.resolving.online_resolver', 'storycore.contrib.fetch'):\n"
        "    try:\n"
        "        __import__(module)\n"
        "    except MissingDependencyError as exc:\n"
        "        print(exc)\n"
    )
    said = done.stdout.splitlines()
    assert len(said) == 2
    assert all("pip install 'storycore[online]'" in line for line in said)


def test_the_api_reference_without_its_extra_is_a_page_naming_it(core_alone: Environment) -> None:
    done = core_alone.python(
        "from wsgiref.util import setup_testing_defaults\n"
        "from storycore import Service\n"
        "from storycore.adapters import open_store\n"
        "from storycore.contrib.wsgi import StorycoreWSGI\n"
        "environ = {'PATH_INFO': '/docs/api'}\n"
        "setup_testing_defaults(environ)\n"
        "with Service(open_store('sqlite://')) as service:\n"
        "    body = b''.join(StorycoreWSGI(service)(environ, lambda s, h: print(s)))\n"
        "print(body.decode())\n"
    )
    status, *page = done.stdout.splitlines()
    assert status == "404 Not Found"
    assert "pip install &#x27;storycore[apidocs]&#x27;" in "\n".join(page)
    assert '<a href="/v1/openapi.json">' in "\n".join(page)
