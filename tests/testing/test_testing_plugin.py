"""The testing kit's pytest plugin, as a host application meets it: run by pytest in a fresh
process, on a host's test files, with the storage URLs it lists; harmless where the ``testing``
extra (hypothesis, httpx) is missing; and, under hypothesis, a fresh store for every example
through ``fresh_service`` where the function-scoped fixtures give one store to all of them."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests import _postgresql

HOST_TESTS = """
import pytest

from storycore.errors import MissingDependencyError


def test_without_fixtures():
    assert True


def test_a_fresh_store_per_url(store, storycore_store_url, request):
    assert store.users.get_by_username("alice") is None
    print("RAN", request.node.callspec.id, storycore_store_url)


def test_users_an_app_and_a_service(service, storycore_users, storycore_app):
    credentials = storycore_app.credentials("ed")
    viewer = service.accounts.viewer(
        credentials["api_key"], credentials["username"], credentials["_token"]
    )
    assert viewer.user.editor
    assert storycore_users.curator.user.can_feature


def test_the_strategies_need_the_extra():
    try:
        import storycore.testing.strategies  # noqa: F401
    except MissingDependencyError as exc:
        assert "storycore[testing]" in str(exc)
        print("NO HYPOTHESIS")
"""

# imports of hypothesis and httpx fail, as where the testing extra is not installed
WITHOUT_THE_EXTRA = "import sys; sys.modules.update(hypothesis=None, httpx=None)\n"


def _run_pytest(
    folder: Path, *args: str, prelude: str = "", autoload: bool = False
) -> subprocess.CompletedProcess[str]:
    """pytest on ``folder`` in a fresh process, with only the storycore plugin loaded, as the
    docs say to load it where autoloading is off; with ``autoload``, with every installed plugin
    loaded by pytest (hypothesis's too, which holds its health checks), as a host's suite runs."""
    code = prelude + "import sys, pytest\nsys.exit(pytest.main(sys.argv[1:]))\n"
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTEST_")}
    plugins = ["-p", "no:cacheprovider"]
    if not autoload:
        env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
        plugins += ["-p", "storycore"]  # by the entry point's name
    return subprocess.run(
        [sys.executable, "-c", code, *plugins, "-q", "-s", *args],
        check=False,
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def host(tmp_path: Path) -> Path:
    (tmp_path / "test_host.py").write_text(HOST_TESTS)
    return tmp_path


def test_the_plugin_runs_store_tests_on_sqlite_memory_by_default(host: Path) -> None:
    ran = _run_pytest(host)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "RAN sqlite-memory sqlite://" in ran.stdout
    assert "4 passed" in ran.stdout


def test_the_ini_value_lists_the_urls_and_the_option_replaces_it(host: Path) -> None:
    (host / "pytest.ini").write_text(
        textwrap.dedent(
            """
            [pytest]
            storycore_store_urls =
                sqlite://
                sqlite:///{dir}/stories.db
                mongomock://{name}
            """
        )
    )
    listed = _run_pytest(host)
    assert listed.returncode == 0, listed.stdout + listed.stderr
    for store_id in ("sqlite-memory", "sqlite-file", "mongomock"):
        assert f"RAN {store_id} " in listed.stdout
    assert "8 passed" in listed.stdout

    replaced = _run_pytest(host, "--storycore-store-url", "mongomock://{name}")
    assert replaced.returncode == 0, replaced.stdout + replaced.stderr
    assert "RAN mongomock mongomock://{name}" in replaced.stdout
    assert "RAN sqlite" not in replaced.stdout


def test_the_marker_names_a_tests_own_urls_over_the_ini_value_and_the_option(
    tmp_path: Path,
) -> None:
    (tmp_path / "test_marked.py").write_text(
        textwrap.dedent(
            """
            import pytest

            pytestmark = pytest.mark.storycore_store_urls("memory://")

            def test_on_memory(store, storycore_store_url):
                print("RAN", storycore_store_url)
            """
        )
    )
    (tmp_path / "pytest.ini").write_text("[pytest]\nstorycore_store_urls =\n    sqlite://\n")
    ran = _run_pytest(tmp_path, "--storycore-store-url", "mongomock://{name}")
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "RAN memory://" in ran.stdout
    assert "1 passed" in ran.stdout


def test_the_plugin_loads_and_runs_without_hypothesis_or_httpx(host: Path) -> None:
    ran = _run_pytest(host, prelude=WITHOUT_THE_EXTRA)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "NO HYPOTHESIS" in ran.stdout
    assert "4 passed" in ran.stdout


# A host's property test on the function-scoped fixtures, hypothesis's health check suppressed:
# every example writes the story "fog" of alice, on the one store of the test.
ON_THE_SERVICE_FIXTURE = """
from hypothesis import HealthCheck, given, settings
from storycore.testing.strategies import titles


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(titles())
def test_alice_writes_fog(service, storycore_users, title):
    alice = storycore_users.alice
    service.stories.create("alice", {"title": title, "slug": "fog"}, viewer=alice)
"""

# The same kind of test, as a host first writes it: hypothesis's health checks on.
UNDER_GIVEN = """
from hypothesis import given
from storycore.testing.strategies import titles


@given(titles())
def test_on_the_store_factory(store_factory, title):
    store_factory()


@given(titles())
def test_on_the_service(service, title):
    pass
"""

# The documented way: fresh_service, hypothesis's health checks on and its deadline off, as
# wherever a store is involved (docs/testing.md).
WITH_FRESH_SERVICE = """
from hypothesis import given, settings
from storycore.testing.plugin import FreshService
from storycore.testing.strategies import titles

EXAMPLES = 50
ran = []


@settings(max_examples=EXAMPLES, deadline=None)
@given(titles())
def test_every_example_starts_on_an_empty_store(fresh_service: FreshService, title):
    with fresh_service() as service:
        assert service.store.users.get_by_username("alice") is None
        service.accounts.create_user("alice", "alice-password")
        alice = service.accounts.as_user("alice")
        service.stories.create("alice", {"title": title, "slug": "fog"}, viewer=alice)
    ran.append(fresh_service.url)


def test_each_example_ran():
    print("EXAMPLES", len(ran), *sorted(set(ran)))
    assert len(ran) >= EXAMPLES
"""


def _host(folder: Path, tests: str) -> Path:
    (folder / "test_host.py").write_text(tests)
    return folder


def test_the_service_fixture_is_one_store_for_every_example_of_a_given_test(
    tmp_path: Path,
) -> None:
    ran = _run_pytest(_host(tmp_path, ON_THE_SERVICE_FIXTURE), autoload=True)
    assert ran.returncode == 1, ran.stdout + ran.stderr
    assert "SlugTaken" in ran.stdout
    assert "1 failed" in ran.stdout


def test_function_scoped_fixtures_under_given_trip_hypothesis_health_check(
    tmp_path: Path,
) -> None:
    ran = _run_pytest(_host(tmp_path, UNDER_GIVEN), autoload=True)
    assert ran.returncode == 1, ran.stdout + ran.stderr
    for fixture in ("store_factory", "service"):
        assert f"uses a function-scoped fixture {fixture!r}" in ran.stdout
    assert "2 failed" in ran.stdout


@pytest.mark.parametrize(
    "url",
    ["sqlite://", "sqlite:///{dir}/stories.db", "mongomock://{name}", "memory://"],
)
def test_fresh_service_gives_every_example_an_empty_store_and_trips_no_health_check(
    tmp_path: Path, url: str
) -> None:
    _fresh_service_passes(tmp_path, url)


@pytest.mark.postgresql
def test_fresh_service_gives_every_example_an_empty_schema_on_postgresql(tmp_path: Path) -> None:
    _fresh_service_passes(tmp_path, _postgresql.store_url())


def _fresh_service_passes(tmp_path: Path, url: str) -> None:
    """The host's ``@given`` tests on ``fresh_service`` pass on ``url``, every example fresh."""
    ran = _run_pytest(
        _host(tmp_path, WITH_FRESH_SERVICE),
        *("-W", "error", "--storycore-store-url", url),
        autoload=True,
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert f"EXAMPLES 50 {url}" in ran.stdout
    assert "2 passed" in ran.stdout


FRESH_SERVICE_URLS = """
import pytest


def test_beside_the_url_fixture(fresh_service, storycore_store_url, request):
    assert fresh_service.url == storycore_store_url
    print("RAN", request.node.callspec.id, fresh_service.url)


@pytest.mark.storycore_store_urls("memory://")
def test_marked(fresh_service):
    print("MARKED", fresh_service.url)


@pytest.mark.storycore_store_urls("sqlite:///stories.db")
def test_on_one_lasting_store(fresh_service):
    pass
"""


def test_fresh_service_runs_once_per_storage_url_and_refuses_one_lasting_store(
    tmp_path: Path,
) -> None:
    (tmp_path / "pytest.ini").write_text(
        "[pytest]\nstorycore_store_urls =\n    sqlite://\n    mongomock://{name}\n"
    )
    ran = _run_pytest(_host(tmp_path, FRESH_SERVICE_URLS))
    assert "RAN sqlite-memory sqlite://" in ran.stdout
    assert "RAN mongomock mongomock://{name}" in ran.stdout
    assert "MARKED memory://" in ran.stdout
    assert "ConfigurationError: 'sqlite:///stories.db' names one lasting store" in ran.stdout
    assert "3 passed, 1 error" in ran.stdout
