"""Kept pictures (docs/media.md): what keeping costs a write, how fast a kept picture is served,
and how much room it takes in the store.

    python -m benchmarks.keeping                                   # SQLite and memory
    python -m benchmarks.keeping --db sqlite,postgresql,memory --pictures 200

- **A save with ten pictures to keep against one with none** (docs/media.md#how-pictures-are-kept:
  nothing is fetched on a write's path). One store, loaded with the data set (``load.py``) and
  with the records of ``--queued`` pictures already wanted, is served by two services: one
  keeping pictures (``Settings(keep_media=True)``, without a fetcher: a write queues its
  pictures and nothing fetches them), one not (``keep_media=False``). Both save the same
  published stories, in alternating blocks (``editor._in_turn``: the wall-clock time and the
  CPU time of the thread, which other processes do not take), with 20 elements: 10 pictures
  and 10 texts, the texts other each save. The pictures are the story's own each time (queued
  already: the queue's records are seen again), or ten never seen before. The queue's write
  (``KeptSources.want``) is timed on its own as well. The run checks that the keeping service
  queued the last save's pictures and the other did not. A target is met when the ratio of
  wall-clock p50s and that of CPU p50s both meet it.
- **A kept picture served against the API's story read**
  (docs/media.md#how-a-kept-picture-is-served). A store of the data set, where a story shows a
  picture: a generated photograph of 4032 x 3024 (12 megapixels, with grain), kept by the
  keeper itself (``service.keep_media()``, through a fetcher that answers its bytes).
  ``storycore serve`` (one worker, as ``http_load.py`` runs it) answers ``GET /media/<name>``
  for each of its files and ``GET /v1/stories/:username/:slug`` for a story of the data set,
  to ``wrk``, in turn; then the bare app (``bare_server.py``) answers the same bytes, as the
  floor of what uvicorn and the loopback carry. The ratio is the picture's req/s over the
  story read's.
- **The store's size per kept picture**. ``--pictures`` generated photographs of the sizes
  cameras, phones and the web make (``_SIZES``), each kept by ``keep_picture``, are stored in
  a new store as the keeper stores them (``kept_files.put``) with their records
  (``kept_sources.restore``): how much the store grew, over the bytes of the files. On SQLite
  the file's size (its write-ahead log checkpointed into it), on PostgreSQL the tables' with
  their indexes and TOAST (``pg_total_relation_size``). The memory store holds the bytes it is
  given, so it has no row here.

``postgresql`` in ``--db`` starts a throwaway cluster (``pg_cluster.py``). Prints Markdown
tables. Never part of the test suite.
"""

from __future__ import annotations

import argparse
import io
import itertools
import json
import os
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Collection, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack
from typing import Any

from PIL import Image

from benchmarks.data import DataSet
from benchmarks.editor import Call, _in_turn
from benchmarks.load import load
from benchmarks.revisions import _public, _store_url
from storycore import Service, Settings
from storycore.adapters import open_store
from storycore.http import HttpApp, HttpRequest
from storycore.media.pictures import EXTENSIONS, KeptPicture, keep_picture
from storycore.model.kept import KeptCopy, KeptFile, KeptSource
from storycore.ports import KeptSources
from storycore.resolving.fetching import Fetched

__all__ = ["main"]

WEB_URL = "http://127.0.0.1:8000"
#: The ratio of a save with pictures to keep over one without allowed.
SAVE_TARGET = 1.1
#: The ratio of a kept picture's req/s over the API's story read's wanted.
SERVE_TARGET = 0.8
#: How many pictures a timed save shows.
PICTURES = 10
#: Photographs as cameras, phones and the web make them, (width, height) with their weights.
_SIZES = (
    ((4032, 3024), 4),  # a phone's 12 megapixels
    ((3000, 2000), 2),  # a camera's 6
    ((1920, 1080), 2),
    ((1600, 1200), 2),
    ((1024, 768), 1),
    ((800, 600), 1),
)
_KEPT_AT = "2026-01-01T00:00:00.000Z"


def _settings(keep: bool) -> Settings:
    return Settings(web_url=WEB_URL, password_cost=16, keep_media=keep)


def photo(seed: int, width: int, height: int) -> bytes:
    """A JPEG (quality 90) as a camera writes one: a scene of smooth colours and finer detail,
    with sensor grain, from ``seed``. Kept, one of 4032 x 3024 gives files of about the sizes
    docs/media.md measured on a real photograph."""
    rng = random.Random(seed)

    def noise(w: int, h: int, mode: str = "RGB") -> Image.Image:
        return Image.frombytes(mode, (w, h), rng.randbytes(w * h * len(mode)))

    bicubic = Image.Resampling.BICUBIC
    scene = noise(8, 6).resize((width, height), bicubic)
    detail = noise(max(1, width // 16), max(1, height // 16)).resize((width, height), bicubic)
    grain = noise(width, height, "L").convert("RGB")
    out = io.BytesIO()
    Image.blend(Image.blend(scene, detail, 0.3), grain, 0.08).save(out, "JPEG", quality=90)
    return out.getvalue()


class _Pictures:
    """A fetcher that answers the bytes it holds for an address, and 404 for any other."""

    def __init__(self, pictures: dict[str, bytes]) -> None:
        self.pictures = pictures

    async def fetch(self, url: str, *, accept: str, max_bytes: int) -> Fetched | None:
        body = self.pictures.get(url)
        if body is None:
            return Fetched(url, 404, "text/plain", b"", True)
        return Fetched(url, 200, "image/jpeg", body[:max_bytes], len(body) <= max_bytes)


# -- a save with ten pictures to keep, against one with none ---------------------------------


def _elements(pictures: Sequence[str], texts: str) -> list[dict[str, Any]]:
    """A picture and a text in turn, for each of ``pictures``."""
    elements: list[dict[str, Any]] = []
    for number, address in enumerate(pictures):
        elements.append({"type": "image", "data": {"image": {"src": address}}})
        elements.append({"type": "text", "data": {"text": f"<p>{texts} {number}</p>"}})
    return elements


def _addresses(name: str) -> list[str]:
    return [f"https://pictures.example/{name}/{number}.jpg" for number in range(PICTURES)]


def _saves(url: str, data: DataSet, args: argparse.Namespace) -> list[str]:
    """Table rows: each kind of save, by a service that keeps pictures and one that does not."""
    store = open_store(url)
    keeping, not_keeping = Service(store, _settings(True)), Service(store, _settings(False))
    try:
        load(keeping, data)
        keeping.accounts.create_user("bench_editor", editor=True)
        for start in range(0, args.queued, 500):
            batch = range(start, min(start + 500, args.queued))
            store.kept_sources.want([_addresses(f"queued/{n}")[0] for n in batch], _KEPT_AT)
        editors = [service.accounts.as_user("bench_editor") for service in (keeping, not_keeping)]
        targets = _public(keeping, args.targets)
        for t, target in enumerate(targets):  # each shows its own pictures, queued already
            shown = _elements(_addresses(f"story/{t}"), "Prepared")
            keeping.stories.save(*target, {"elements": shown}, viewer=editors[0])
        wants = _Timed(store.kept_sources)
        texts = itertools.count()
        last: dict[int, list[str]] = {}

        def save(side: int, pictures: Callable[[int], list[str]]) -> Call:
            service = (keeping, not_keeping)[side]

            def prepare(i: int) -> Callable[[], object]:
                last[side] = pictures(i)
                member = {"elements": _elements(last[side], f"Saved text {next(texts)}")}
                target = targets[i % len(targets)]
                return lambda: service.stories.save(*target, member, viewer=editors[side])

            return prepare

        def own(i: int) -> list[str]:
            return _addresses(f"story/{i % len(targets)}")

        def new(side: str) -> Callable[[int], list[str]]:
            return lambda i: _addresses(f"new/{side}/{i}")

        rows = []
        kinds: list[tuple[str, Callable[[int], list[str]], Callable[[int], list[str]]]] = [
            ("save, the story's 10 pictures (queued already)", own, own),
            ("save, 10 pictures never seen", new("keeping"), new("not-keeping")),
        ]
        for name, pictures, others in kinds:
            wants.samples.clear()
            with_keeping, without = _in_turn(
                [save(0, pictures), save(1, others)], args.block * args.rounds, args.block
            )
            if sorted(store.kept_sources.get_many(last[0])) != sorted(last[0]):
                raise SystemExit("the keeping service did not queue its last save's pictures")
            if others is not own and store.kept_sources.get_many(last[1]):
                raise SystemExit("the service that keeps no pictures queued some")
            ratio, cpu = with_keeping.p50 / without.p50, with_keeping.cpu_p50 / without.cpu_p50
            met = "met" if max(ratio, cpu) <= SAVE_TARGET else "**not met**"
            rows.append(
                f"| {name} | {with_keeping.p50:.3f} | {with_keeping.cpu_p50:.3f}"
                f" | {statistics.median(wants.samples) * 1000:.3f} | {without.p50:.3f}"
                f" | {without.cpu_p50:.3f} | {ratio:.2f} | {cpu:.2f} | ≤ {SAVE_TARGET}: {met} |"
            )
        return rows
    finally:
        not_keeping.scheduler.close()
        not_keeping.flush_views()
        keeping.close()


class _Timed:
    """Times every ``want`` of a store's ``kept_sources`` (the instance's method replaced)."""

    def __init__(self, sources: KeptSources) -> None:
        self.samples: list[float] = []
        want = sources.want

        def timed(
            addresses: Collection[str], at: str, story: str | None = None, stale: str | None = None
        ) -> int:
            start = time.perf_counter()
            try:
                return want(addresses, at, story, stale)
            finally:
                self.samples.append(time.perf_counter() - start)

        sources.want = timed  # type: ignore[method-assign]


def _saves_table(runs: Sequence[tuple[str, list[str]]], args: argparse.Namespace) -> str:
    lines = [
        f"`service.stories.save` of 20 elements (10 pictures, 10 texts), {args.rounds} blocks of"
        f" {args.block} saves each side in turn, over {args.targets} published stories; the"
        f" queue holds {args.queued:,} pictures' records before:",
        "",
        "| store | save | keeping pictures: p50 ms | CPU p50 ms | its `want` p50 ms"
        " | not keeping: p50 ms | CPU p50 ms | ratio of p50 | in CPU | target |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for store, rows in runs:
        lines += [f"| {store} {row}" for row in rows]
    return "\n".join(lines)


# -- a kept picture served, against the API's story read --------------------------------------


def _kept_story(url: str, data: DataSet) -> tuple[tuple[str, str], list[KeptFile]]:
    """Load ``data`` at ``url`` and keep a story's picture there, as the keeper does; a public
    story of the data set, and the picture's files, narrowest first."""
    address = "https://pictures.example/served.jpg"
    fetcher = _Pictures({address: photo(0, 4032, 3024)})
    service = Service(open_store(url), _settings(True), picture_fetcher=fetcher)
    try:
        load(service, data)
        read = _public(service, 1)[0]
        service.accounts.create_user("bench_editor", editor=True)
        editor = service.accounts.as_user("bench_editor")
        story = {"title": "A kept picture", "elements": _elements([address], "Kept")}
        service.stories.create("bench_editor", story, viewer=editor, publish=True)
        service.keep_media()
        kept = service.store.kept_sources.get_many([address]).get(address)
        if kept is None or kept.state != "kept":
            raise SystemExit(f"the picture was not kept: {kept}")
        files = [service.store.kept_files.head(copy.name) for copy in kept.copies]
        found = sorted((f for f in files if f is not None), key=lambda f: f.width)
        app = HttpApp(service)
        for file in found:
            answer = app.handle(HttpRequest("GET", _media_path(file)))
            if answer.status != 200 or len(answer.body) != file.size:
                raise SystemExit(f"GET {_media_path(file)} answered {answer.status}")
        return read, found
    finally:
        service.close()


def _media_path(file: KeptFile) -> str:
    return f"/media/{file.name}.{EXTENSIONS[file.media_type]}"


def _serving(name: str, url: str, data: DataSet, args: argparse.Namespace) -> list[str]:
    """Table rows: ``GET`` of a story and of each file of a kept picture, from ``storycore
    serve`` on ``url`` and from the bare app answering the same bytes (``bare_server.py``),
    with wrk, in turn, ``args.http_rounds`` times each."""
    from benchmarks.http_load import _record, _server, serve_command

    story, files = _kept_story(url, data)
    paths = {"GET a story (the API)": f"/v1/stories/{story[0]}/{story[1]}"}
    for file in files:
        size = f"{file.width} x {file.height}, {file.size / 1024:,.0f} KiB"
        paths[f"GET a kept picture, {size}"] = _media_path(file)
    with _server(serve_command(url)) as address:
        answers = _record(address, list(paths.values()))  # each answered once: a warm server
        ours = _runs(address, list(paths.values()), args)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as recorded:
        json.dump(answers, recorded)
    try:
        with _server([sys.executable, "-m", "benchmarks.bare_server", recorded.name]) as address:
            bare = _runs(address, list(paths.values()), args)
    finally:
        os.unlink(recorded.name)
    read = ours[paths["GET a story (the API)"]][0]
    rows = []
    for request, path in paths.items():
        (rate, p50), (brate, bp50) = ours[path], bare[path]
        if path == paths["GET a story (the API)"]:
            over, met = "", ""
        else:
            over = f"{rate / read:.2f}"
            met = f"≥ {SERVE_TARGET}: " + ("met" if rate / read >= SERVE_TARGET else "**not met**")
        rows.append(
            f"| {name} | {request} | {rate:,.0f} | {p50:.2f} | {brate:,.0f} | {bp50:.2f}"
            f" | {rate / brate:.2f} | {over} | {met} |"
        )
    return rows


def _runs(
    address: str, paths: list[str], args: argparse.Namespace
) -> dict[str, tuple[float, float]]:
    """Mean req/s and median p50 of ``args.http_rounds`` wrk runs of each path, in turn (the
    order turned round every round)."""
    from benchmarks.http_load import _wrk

    runs: dict[str, list[tuple[float, float, float]]] = {path: [] for path in paths}
    for number in range(args.http_rounds):
        for path in paths if number % 2 == 0 else paths[::-1]:
            runs[path].append(_wrk(address + path, args.http_seconds, 8))
    return {path: _rate(found) for path, found in runs.items()}


def _rate(runs: list[tuple[float, float, float]]) -> tuple[float, float]:
    """Mean req/s and median p50 of wrk's runs."""
    return statistics.fmean(r[0] for r in runs), statistics.median(r[1] for r in runs)


def _serving_table(rows: list[str], args: argparse.Namespace) -> str:
    return "\n".join(
        [
            f"`storycore serve` (one worker), wrk -t1 -c8 -d{args.http_seconds}s,"
            f" {args.http_rounds} runs of each in turn; a photograph of 4032 x 3024 kept:",
            "",
            "| store | request | req/s | p50 ms | bare req/s | p50 ms | over the bare app"
            " | over the story read | target |",
            "|---|---|---:|---:|---:|---:|---:|---:|---|",
            *rows,
        ]
    )


# -- the store's size per kept picture --------------------------------------------------------


def _kept(seed: int) -> tuple[int, KeptPicture]:
    """A photograph of a size drawn from ``_SIZES`` by ``seed``: its bytes' length, and what
    ``keep_picture`` keeps of it."""
    sizes, weights = zip(*_SIZES, strict=True)
    width, height = random.Random(seed).choices(sizes, weights)[0]
    original = photo(seed, width, height)
    return len(original), keep_picture(original)


def _pictures(count: int) -> list[tuple[int, KeptPicture]]:
    """``count`` photographs kept, on every core."""
    with ProcessPoolExecutor(max(1, min(count, os.cpu_count() or 1))) as pool:
        return list(pool.map(_kept, range(1, count + 1)))


def _store_size(url: str) -> int:
    """The bytes the store at ``url`` takes: a SQLite file with its log checkpointed into it;
    on PostgreSQL, the kept pictures' tables with their indexes and TOAST."""
    if url.startswith("sqlite:///"):
        path = url.removeprefix("sqlite:///")
        file = sqlite3.connect(path)
        try:
            file.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            file.close()
        return os.path.getsize(path)
    import psycopg

    from benchmarks.pg_floor import _conninfo

    with psycopg.connect(_conninfo(url), autocommit=True) as conn:
        tables = ("kept_files", "kept_sources", "kept_names")
        total = 0
        for table in tables:
            row = conn.execute("SELECT pg_total_relation_size(%s::regclass)", (table,)).fetchone()
            total += int(row[0]) if row else 0
        return total


def _store_pictures(url: str, pictures: list[tuple[int, KeptPicture]]) -> tuple[int, int]:
    """Store ``pictures`` at ``url`` as the keeper stores them; the store's bytes before and
    after."""
    store = open_store(url)
    try:
        before = _store_size(url)
        records = []
        for number, (fetched, kept) in enumerate(pictures):
            for file in kept.files:
                members = KeptFile(file.sha256, file.media_type, file.width, file.height,
                                   file.size, _KEPT_AT)  # fmt: skip
                store.kept_files.put(members, file.content)
            copies = tuple(
                KeptCopy(file.sha256, file.media_type, file.width, file.height)
                for file in (kept.original, *kept.widths)
            )
            address = f"https://pictures.example/sized/{number}.jpg"
            records.append(KeptSource(address, _KEPT_AT, "kept", copies, fetched))
        store.kept_sources.restore(records)
    finally:
        store.close()
    return before, _store_size(url)


def _sizes(runs: Sequence[tuple[str, int, int]], pictures: list[tuple[int, KeptPicture]]) -> str:
    files = sum(file.size for _, kept in pictures for file in kept.files)
    count = sum(len(kept.files) for _, kept in pictures)
    fetched = sum(size for size, _ in pictures)
    mb = 1024 * 1024
    lines = [
        f"{len(pictures)} photographs ({fetched / mb:,.1f} MiB as fetched) kept as {count} files"
        f" of {files / mb:,.1f} MiB in all, stored with their records:",
        "",
        "| store | before MiB | after MiB | grew MiB | growth over the files' bytes |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, before, after in runs:
        lines.append(
            f"| {name} | {before / mb:,.2f} | {after / mb:,.2f} | {(after - before) / mb:,.2f}"
            f" | {(after - before) / files:.3f} |"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.keeping")
    parser.add_argument("--stories", type=int, default=10_000)
    parser.add_argument(
        "--db",
        default="sqlite,memory",
        help="comma-separated: sqlite, postgresql (a throwaway cluster), memory",
    )
    parser.add_argument("--queued", type=int, default=10_000, help="pictures queued before")
    parser.add_argument("--targets", type=int, default=20, help="stories saved in turn")
    parser.add_argument("--block", type=int, default=25, help="saves a block")
    parser.add_argument("--rounds", type=int, default=8, help="blocks of each side")
    parser.add_argument("--pictures", type=int, default=200, help="pictures stored for sizes")
    parser.add_argument("--http-seconds", type=int, default=5, help="wrk duration per run")
    parser.add_argument("--http-rounds", type=int, default=2, help="wrk runs of each request")
    parser.add_argument("--only", choices=["saves", "serving", "sizes"], help="one part only")
    args = parser.parse_args(argv)
    dbs = args.db.split(",")
    if not set(dbs) <= {"sqlite", "postgresql", "memory"}:
        parser.error("--db: sqlite, postgresql, memory, comma-separated")
    data = DataSet(stories=args.stories, authors=min(500, max(1, args.stories // 20)))
    with ExitStack() as run:
        urls = {}
        for db in dbs:
            if db == "postgresql":
                from benchmarks.pg_cluster import throwaway_cluster

                urls[db] = run.enter_context(throwaway_cluster())
            else:
                urls[db] = db
        if args.only in (None, "saves"):
            saves = []
            for db in dbs:
                with _store_url(urls[db]) as url:
                    saves.append((db, _saves(url, data, args)))
            print(f"\n## A save with {PICTURES} pictures to keep, {args.stories:,} stories\n")
            print(_saves_table(saves, args), flush=True)
        served = [db for db in dbs if db != "memory"]
        if args.only in (None, "serving") and served:
            print(f"\n## A kept picture served, {args.stories:,} stories\n")
            if shutil.which("wrk") is None:
                print("HTTP: skipped, `wrk` is not installed (apt-get install wrk)")
            else:
                rows = []
                for db in served:
                    with _store_url(urls[db]) as url:
                        rows += _serving(db, url, data, args)
                print(_serving_table(rows, args), flush=True)
        if args.only in (None, "sizes") and served:
            pictures = _pictures(args.pictures)
            sizes = []
            for db in served:
                with _store_url(urls[db]) as url:
                    sizes.append((db, *_store_pictures(url, pictures)))
            print("\n## The store's size per kept picture\n")
            print(_sizes(sizes, pictures), flush=True)


if __name__ == "__main__":
    main()
