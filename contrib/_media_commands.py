"""The commands on kept pictures: ``keep-media`` and ``prune-media`` (docs/media.md#keep-media,
docs/media.md#prune-media). The work is the core's (``storycore.usecases.keeping``,
``storycore.usecases.pruning``); these compose the service, show the progress and say what was
done in one line."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace

from storycore.rules.counts import counted

from ._options import composition
from ._progress import Meter, media_progress

__all__ = ["keep_media", "prune_media"]


def keep_media(args: argparse.Namespace) -> None:
    """``keep-media``: with keeping on whatever ``STORYCORE_KEEP_MEDIA`` says, as the command
    exists to keep (so it fetches through ``HttpFetcher``, under the address rules)."""
    meter = Meter(sys.stderr)
    with replace(composition(args), keep_media="on").service() as service:
        try:
            done = service.keep_all_media(media_progress(meter))
        finally:
            meter.end()
    print(
        f"kept {counted(done.kept, 'picture')} of {done.tried} tried;"
        f" {done.tried - done.kept} failed (walked {done.walked} stories and users)"
    )


def prune_media(args: argparse.Namespace) -> None:
    """``prune-media``: whatever keeping is, the kept pictures nothing shows are deleted."""
    meter = Meter(sys.stderr)
    with composition(args).service() as service:
        try:
            pruned = service.prune_media(media_progress(meter))
        finally:
            meter.end()
    print(
        f"deleted {counted(pruned.files, 'file')} of {counted(pruned.records, 'picture')}"
        " no story, revision or user showed for 7 days"
    )
