"""The commands on a store's content as a whole: ``demo``, ``export``, ``import``,
``reindex`` and ``publish-due`` (docs/decisions.md#command-line)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import nullcontext
from typing import Any

from storycore.adapters import open_store
from storycore.rules.counts import counted
from storycore.service import Service
from storycore.usecases.reindex import reindex

from ._progress import Meter, import_progress
from .demo import load_demo
from .transfer import import_lines, write_export

__all__ = [
    "demo",
    "export",
    "load",
    "publish_due",
    "recompute",
]


def demo(service: Service, args: argparse.Namespace) -> None:
    print(f"loaded {load_demo(service)} demo stories")


def publish_due(service: Service, args: argparse.Namespace) -> None:
    print(f"published {counted(service.publish_due(), 'due story')}")


def recompute(args: argparse.Namespace) -> None:
    """``reindex``: on the store alone, always (a service's composition would bring the store
    up to date first, and then this would do it again)."""
    store = open_store(args.db)
    try:
        print(reindex(store))
    finally:
        store.close()


def export(service: Service, args: argparse.Namespace) -> None:
    meter = Meter(sys.stderr)
    path: str | None = args.file
    target: Any = open(path, "wb") if path else nullcontext(sys.stdout.buffer)  # noqa: SIM115
    try:
        with target as out:
            count = write_export(
                service.store, out, lambda done: meter.show("exporting", done, None, " records")
            )
            out.flush()  # a closed pipe shows before the count is reported
    finally:
        meter.end()
    print(f"exported {count} records", file=sys.stderr)


def load(service: Service, args: argparse.Namespace) -> None:
    """``import``."""
    paths: Sequence[str] = args.file
    replace: bool = args.replace
    storify = args.format == "storify"
    if not storify and len(paths) > 1:
        raise ValueError("an export is one FILE; --format storify reads several")
    path = paths[0]
    meter = Meter(sys.stderr)
    try:
        if storify:
            progress = import_progress(meter, None, None)
            documents = _documents(paths)
            count = service.imports.load_storify(documents, replace=replace, progress=progress)
        elif path == "-":  # a pipe: read once, as it comes (the import spools what it checks)
            progress = import_progress(meter, None, None)
            count = import_lines(service, sys.stdin.buffer, replace=replace, progress=progress)
        else:
            with open(path, "rb") as lines:
                progress = import_progress(meter, lines, os.fstat(lines.fileno()).st_size)
                count = import_lines(service, lines, replace=replace, progress=progress)
    finally:
        meter.end()
    print(f"imported {count} records", file=sys.stderr)


def _documents(paths: Sequence[str]) -> Iterator[tuple[str, bytes]]:
    """Each file's name and content, read when the import asks; ``-`` is standard input."""
    for path in paths:
        if path == "-":
            yield path, sys.stdin.buffer.read()
        else:
            with open(path, "rb") as file:
                yield path, file.read()
