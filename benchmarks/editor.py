"""The editor's speed (docs/editor.md): its page against the story page, its save against the
API's, and the size of the scripts it loads.

    python -m benchmarks.editor --repeat 300

One SQLite file holds ``--stories`` stories of the data set (``load.py``) and one published
story of ``--elements`` elements of the data set's mixed kinds (texts, quotes of posts,
pictures, videos, links) by a writer, who signs in through the sign-in form as a browser does.
Every request is answered in process by ``HttpApp.handle``: the whole HTTP answer, as the
bindings get it (no server, no network).

- **The editor page against the story page.** ``GET`` of the story's editor (never kept: it is
  ``no-store`` and renders every time), of its story page as a reader gets it (warm: the page
  is kept once rendered, docs/api.md#the-web-host), and of its story page rendered anew (cold:
  the kept pages forgotten before each request, untimed, as after a save that changed the
  story). The editor renders every time, so the story page it is held to is the cold one, the
  one that renders; the warm ratio is shown beside it.
- **A save from the editor against an API save.** ``POST`` of the editor's form as a browser
  sends it (every field the page holds, read from the page: the version, the members, each
  element's hidden input, texts and captions; the Save button, ``action=save``), answered 303;
  and ``POST /v1/stories/:username/:slug/save`` with a bearer token, the same story as JSON (what
  the editor's form makes of it) and the version, answered 200. Both save the same story, each
  with a title of its own, so that both see the same revisions pile up.
- **Scripts.** Every ``<script src>`` of the editor page, fetched through the app, compressed
  with gzip at level 9 and with brotli at quality 11 (when ``pip install brotli`` is there).

The requests of each comparison are timed in turn, in blocks (``--block`` requests of one,
then of the next, the order turned round every round), after a few of each untimed:
``--repeat`` GETs of each page, a third as many saves of each kind in blocks a third as long.
Each request's CPU time (its thread's) is kept beside its wall-clock time, for a machine that
other processes share; a target is met when both ratios meet it. Prints Markdown tables.
Never part of the test suite.
"""

from __future__ import annotations

import argparse
import gzip
import importlib
import itertools
import json
import re
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from html.parser import HTMLParser
from urllib.parse import urlencode, urlsplit

from benchmarks.__main__ import _fresh_store
from benchmarks.data import DataSet
from benchmarks.load import load
from storycore import Service, Settings
from storycore.adapters import open_store
from storycore.http import HttpApp, HttpRequest, HttpResponse
from storycore.http.editor._story_form import held_story, story_input
from storycore.presentation.pages import render

__all__ = ["main"]

HOST = "127.0.0.1:8000"
WEB_URL = f"http://{HOST}"
WRITER, PASSWORD = "writer", "writer-password"
#: The editor of a story renders in at most this many times its story page (docs/editor.md).
PAGE_TARGET = 1.5
#: A save from the editor answers within this many times an API save.
SAVE_TARGET = 1.3
#: The scripts of an editor page, compressed, in all (bytes: 40 KB).
SCRIPTS_TARGET = 40_000

#: What the ``i``-th request of a kind is, prepared untimed: the request, to time.
Call = Callable[[int], Callable[[], object]]


@dataclass(frozen=True, slots=True)
class Timing:
    """Seconds each timed call took, and the seconds of CPU its thread spent on it (what other
    processes on the machine take from it left out)."""

    samples: list[float]
    cpu: list[float]

    @property
    def per_second(self) -> float:
        return 1 / statistics.fmean(self.samples)

    @property
    def p50(self) -> float:
        return statistics.median(self.samples) * 1000

    @property
    def p95(self) -> float:
        return statistics.quantiles(self.samples, n=20)[18] * 1000

    @property
    def cpu_p50(self) -> float:
        return statistics.median(self.cpu) * 1000


def _in_turn(calls: Sequence[Call], repeat: int, block: int) -> list[Timing]:
    """Each call's timing, ``repeat`` requests of each in blocks of ``block``: every call's
    block in turn, the order turned round each round, so that none has the machine's quieter
    moments to itself. Each counts its own requests from 0; a few of each come first, untimed.
    Only the request is timed, not its preparing."""
    samples: list[list[float]] = [[] for _ in calls]
    cpu: list[list[float]] = [[] for _ in calls]
    counters = [itertools.count() for _ in calls]
    for side, call in enumerate(calls):
        for _ in range(5):
            call(next(counters[side]))()
    order = list(range(len(calls)))
    rounds = max(1, -(-repeat // block))
    for number in range(rounds):
        for side in order[number % len(order) :] + order[: number % len(order)]:
            call, counter = calls[side], counters[side]
            for _ in range(block):
                request = call(next(counter))
                start, start_cpu = time.perf_counter(), time.thread_time()
                request()
                cpu[side].append(time.thread_time() - start_cpu)
                samples[side].append(time.perf_counter() - start)
    return [Timing(kept, spent) for kept, spent in zip(samples, cpu, strict=True)]


# -- a browser, in process -------------------------------------------------------------------


class _Browser:
    """Requests to the app as a browser makes them: the host, and the cookies it was given."""

    def __init__(self, app: HttpApp) -> None:
        self.app = app
        self.cookies: dict[str, str] = {}

    def request(
        self, method: str, path: str, body: bytes = b"", headers: Sequence[tuple[str, str]] = ()
    ) -> HttpRequest:
        sent = [("host", HOST), *headers]
        if self.cookies:
            sent.append(("cookie", "; ".join(f"{k}={v}" for k, v in self.cookies.items())))
        return HttpRequest(method, path, headers=sent, body=body)

    def keep_cookies(self, response: HttpResponse) -> None:
        for name, value in response.headers:
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key] = rest.partition(";")[0]

    def get(self, path: str) -> HttpResponse:
        return self.app.handle(self.request("GET", path))

    def form_request(self, path: str, fields: Sequence[tuple[str, str]]) -> HttpRequest:
        form = ("content-type", "application/x-www-form-urlencoded")
        return self.request("POST", path, urlencode(fields).encode(), [form])

    def post_form(self, path: str, fields: Sequence[tuple[str, str]]) -> HttpResponse:
        return self.app.handle(self.form_request(path, fields))


class _FormFields(HTMLParser):
    """The fields a browser sends of the form whose action ends with ``action``, in order:
    its inputs (checkboxes only when checked), textareas and selects (the chosen option);
    no button (the caller adds the one pressed)."""

    def __init__(self, action: str) -> None:
        super().__init__(convert_charrefs=True)
        self.action = action
        self.fields: list[tuple[str, str]] = []
        self._inside = False
        self._textarea: str | None = None
        self._text: list[str] = []
        self._select: str | None = None
        self._option: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {key: value or "" for key, value in attrs}
        if tag == "form":
            self._inside = found.get("action", "").endswith(self.action)
        elif not self._inside:
            return
        elif tag == "input" and found.get("name"):
            if found.get("type") != "checkbox" or "checked" in found:
                self.fields.append((found["name"], found.get("value", "")))
        elif tag == "textarea":
            self._textarea, self._text = found.get("name", ""), []
        elif tag == "select":
            self._select, self._option = found.get("name", ""), None
        elif (
            tag == "option"
            and self._select is not None
            and (self._option is None or "selected" in found)
        ):
            self._option = found.get("value", "")

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._inside = False
        elif tag == "textarea" and self._textarea is not None:
            text = "".join(self._text)
            self.fields.append((self._textarea, text[1:] if text.startswith("\n") else text))
            self._textarea = None
        elif tag == "select" and self._select is not None:
            self.fields.append((self._select, self._option or ""))
            self._select = None


def _form_fields(page: str, action: str) -> list[tuple[str, str]]:
    parser = _FormFields(action)
    parser.feed(page)
    return parser.fields


def _form_token(page: str) -> str:
    found = re.search(r'name="form_token" value="([^"]+)"', page)
    if found is None:
        raise SystemExit("the page holds no form token")
    return found.group(1)


def _signed_in(app: HttpApp) -> _Browser:
    """A browser signed in as the writer, through the sign-in form."""
    browser = _Browser(app)
    page = browser.get("/signin")
    browser.keep_cookies(page)
    fields = [("form_token", _form_token(page.body.decode())), ("username", WRITER)]
    answer = browser.post_form("/signin", [*fields, ("password", PASSWORD), ("next", "/me")])
    if answer.status != 303:
        raise SystemExit(f"signing in answered {answer.status}")
    browser.keep_cookies(answer)
    return browser


# -- the runs --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Story:
    """The writer's story and its addresses."""

    username: str
    slug: str

    @property
    def page(self) -> str:
        return f"/{self.username}/{self.slug}"

    @property
    def editor(self) -> str:
        return f"{self.page}/edit"

    @property
    def api_save(self) -> str:
        return f"/v1/stories/{self.username}/{self.slug}/save"


@contextmanager
def _prepared(args: argparse.Namespace) -> Iterator[tuple[Service, _Story]]:
    """A SQLite file with the data set, the writer and their story of ``args.elements``."""
    with _fresh_store("sqlite") as url:
        service = Service(open_store(url), Settings(web_url=WEB_URL, password_cost=16))
        try:
            if args.stories:
                load(service, DataSet(stories=args.stories, authors=max(1, args.stories // 20)))
            service.accounts.create_user(WRITER, PASSWORD, name="Writer")
            viewer = service.accounts.as_user(WRITER)
            # the data set's elements, of every kind, from stories of its own seed
            data = DataSet(stories=1, authors=1, elements=args.elements, seed=29)
            _, story, _ = next(data.story_inputs())
            story = {**story, "title": "The story in its editor", "private": False}
            created = service.stories.create(WRITER, story, viewer=viewer, publish=True)
            yield service, _Story(WRITER, created.slug)
        finally:
            service.close()


def _expect(response: HttpResponse, status: int, what: str) -> HttpResponse:
    if response.status != status:
        raise SystemExit(
            f"{what} answered {response.status}, not {status}: {response.body[:300]!r}"
        )
    return response


def _pages(browser: _Browser, story: _Story, args: argparse.Namespace) -> list[str]:
    """Rows: GET of the editor, of the story page warm and of the story page cold."""

    def editor(i: int) -> Callable[[], object]:
        return lambda: _expect(browser.get(story.editor), 200, "the editor")

    def warm(i: int) -> Callable[[], object]:
        return lambda: _expect(browser.get(story.page), 200, "the story page")

    def cold(i: int) -> Callable[[], object]:
        render._kept.clear()  # a story page rendered anew, as after a save that changed it
        return warm(i)

    editor_t, warm_t, cold_t = _in_turn([editor, warm, cold], args.repeat, args.block)
    return [
        _row(f"GET the editor of a story of {args.elements} elements", editor_t),
        _row("GET its story page, rendered anew (cold)", cold_t, editor_t, PAGE_TARGET),
        _row("GET its story page as a reader gets it (kept, warm)", warm_t, editor_t),
    ]


def _saves(
    service: Service, browser: _Browser, story: _Story, args: argparse.Namespace
) -> list[str]:
    """Rows: a save from the editor's form and an API save, in turn, of the same story."""
    page = _expect(browser.get(story.editor), 200, "the editor").body.decode()
    form = [(k, v) for k, v in _form_fields(page, story.editor) if k not in ("version", "title")]
    elements = sum(1 for key, _ in form if key == "element")
    if elements != args.elements:
        raise SystemExit(f"the editor's form holds {elements} elements, not {args.elements}")
    viewer = service.accounts.as_user(WRITER)
    edited = service.stories.edited(story.username, story.slug, viewer=viewer)
    sent = story_input(held_story(edited))  # the story as JSON, as the editor's form makes it
    app_key = service.accounts.create_app("bench").api_key
    token = service.accounts.authenticate(app_key, WRITER, PASSWORD).token
    bearer = [
        ("host", HOST),
        ("authorization", f"Bearer {token}"),
        ("content-type", "application/json"),
    ]
    version = [edited.story.version]

    def from_editor(i: int) -> Callable[[], object]:
        fields = [*form, ("version", str(version[0])), ("title", f"From the editor {i}")]
        request = browser.form_request(story.editor, [*fields, ("action", "save")])
        version[0] += 1
        return lambda: _expect(browser.app.handle(request), 303, "a save from the editor")

    def from_api(i: int) -> Callable[[], object]:
        body = {"story": {**sent, "title": f"From the API {i}"}, "version": version[0]}
        request = HttpRequest("POST", story.api_save, b"", bearer, json.dumps(body).encode())
        version[0] += 1
        return lambda: _expect(browser.app.handle(request), 200, "an API save")

    saves = max(2, args.repeat // 3)
    editor_t, api_t = _in_turn([from_editor, from_api], saves, max(1, args.block // 3))
    detail = service.stories.edited(story.username, story.slug, viewer=viewer)
    if detail.story.version != version[0] or len(detail.elements) != args.elements:
        raise SystemExit("the saves did not each make one version of the whole story")
    return [
        _row(f"POST the editor's form, Save ({args.elements} elements), 303", editor_t),
        _row(
            "POST /v1/stories/:username/:slug/save, the same story, 200",
            api_t,
            editor_t,
            SAVE_TARGET,
        ),
    ]


def _row(name: str, timing: Timing, editor: Timing | None = None, limit: float = 0) -> str:
    """A table row of ``timing``; with ``editor``, the editor's p50 over this one's, in time
    and in CPU, held to ``limit`` when there is one (met when both are)."""
    ratio = cpu_ratio = verdict = ""
    if editor is not None:
        value, cpu_value = editor.p50 / timing.p50, editor.cpu_p50 / timing.cpu_p50
        ratio, cpu_ratio = f"{value:.2f}", f"{cpu_value:.2f}"
        if limit:
            met = max(value, cpu_value) <= limit
            verdict = f"≤ {limit}: " + ("met" if met else "**not met**")
    return (
        f"| {name} | {timing.per_second:,.0f} | {timing.p50:.2f} | {timing.p95:.2f}"
        f" | {timing.cpu_p50:.2f} | {ratio} | {cpu_ratio} | {verdict} |"
    )


def _brotli() -> Callable[[bytes], bytes] | None:
    try:
        module = importlib.import_module("brotli")
    except ImportError:
        return None
    compress: Callable[..., bytes] = module.compress
    return lambda data: compress(data, quality=11)


def _scripts(browser: _Browser, story: _Story) -> list[str]:
    """Table lines: each script of the editor page, its size as served and compressed."""
    page = _expect(browser.get(story.editor), 200, "the editor").body.decode()
    sources = re.findall(r'<script[^>]*\ssrc="([^"]+)"', page)
    brotli = _brotli()
    lines = [
        "| script | bytes | gzip -9 | brotli -q 11 |",
        "|---|---:|---:|---:|",
    ]
    total = [0, 0, 0]
    for source in sources:
        path = urlsplit(source).path
        body = _expect(browser.get(path), 200, f"the script {path}").body
        sizes = [len(body), len(gzip.compress(body, 9, mtime=0))]
        sizes.append(len(brotli(body)) if brotli else 0)
        total = [a + b for a, b in zip(total, sizes, strict=True)]
        lines.append(
            f"| `{path}` | {sizes[0]:,} | {sizes[1]:,} | {_brotli_size(sizes[2], brotli)} |"
        )
    if not sources:
        lines.append("| (the editor page loads no script) | 0 | 0 | 0 |")
    worst = max(total[1], total[2])
    met = "met" if worst <= SCRIPTS_TARGET else "**not met**"
    lines.append(
        f"| **all of them** | {total[0]:,} | {total[1]:,} | {_brotli_size(total[2], brotli)} |"
    )
    lines += ["", f"Compressed in all: at most {SCRIPTS_TARGET:,} bytes (40 KB): {met}."]
    return lines


def _brotli_size(size: int, brotli: object) -> str:
    return f"{size:,}" if brotli is not None else "(`pip install brotli`)"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.editor")
    parser.add_argument("--repeat", type=int, default=300, help="GETs of each page")
    parser.add_argument("--block", type=int, default=30, help="requests of one in a row")
    parser.add_argument("--elements", type=int, default=50, help="elements of the story")
    parser.add_argument("--stories", type=int, default=1000, help="stories of the data set")
    args = parser.parse_args(argv)
    with _prepared(args) as (service, story):
        app = HttpApp(service)
        browser = _signed_in(app)
        pages = _pages(browser, story, args)
        saves = _saves(service, browser, story, args)
        scripts = _scripts(browser, story)
    header = [
        "| request | ops/s | p50 ms | p95 ms | CPU p50 ms | the editor's p50 over this"
        " | in CPU | target |",
        "|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    print(f"\n## The editor of a story of {args.elements} elements, in process\n")
    print("\n".join([*header, *pages, *saves]))
    print("\n## The scripts of an editor page\n")
    print("\n".join(scripts), flush=True)


if __name__ == "__main__":
    main()
