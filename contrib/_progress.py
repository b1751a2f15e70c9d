"""Progress of a long command on a terminal: how far, of how much, and the time left.

Drawn on one line of standard error, at most five times a second, and only when standard error
is a terminal: piped or logged output gets the command's final line alone.
"""

from __future__ import annotations

import time
from typing import IO

from storycore.imports import ImportProgress

__all__ = ["Meter", "import_progress"]

_INTERVAL = 0.2  # seconds between two redraws
_MEGABYTE = 1_000_000


class Meter:
    """One progress line, redrawn in place; ``end`` leaves it for the next line."""

    def __init__(self, stream: IO[str]) -> None:
        self._stream = stream if stream.isatty() else None
        self._label = ""
        self._started = 0.0
        self._drawn = 0.0

    def show(
        self,
        label: str,
        done: float,
        total: float | None = None,
        unit: str = "",
        decimals: int = 0,
    ) -> None:
        """Show ``done`` of ``total`` (when known) ``unit``, and the time left at this pace."""
        if self._stream is None:
            return
        now = time.monotonic()
        if label != self._label:
            self._label, self._started = label, now
        if now - self._drawn < _INTERVAL and (total is None or done < total):
            return
        self._drawn = now
        text = f"{label}: {done:,.{decimals}f}"
        if total:
            text += f" of {total:,.{decimals}f}"
        text += unit
        elapsed = now - self._started
        if total and done and elapsed > 0:
            text += f", {elapsed * (total - done) / done:.0f} s left"
        self._stream.write(f"\r{text}\x1b[K")
        self._stream.flush()

    def end(self) -> None:
        """End the progress line, if one was drawn."""
        if self._stream is not None and self._drawn:
            self._stream.write("\n")
            self._stream.flush()
            self._drawn = 0.0


def import_progress(meter: Meter, source: IO[bytes] | None, size: int | None) -> ImportProgress:
    """The progress of an import read from ``source`` (``size`` bytes): the megabytes checked,
    then the records written of the total the check counted. A source of unknown size (a pipe:
    None) shows the records checked instead.
    """

    def show(phase: str, done: int, total: int | None) -> None:
        if phase != "checked":
            meter.show("importing", done, total, " records")
        elif source is None or size is None:
            meter.show("checking", done, None, " records")
        else:
            meter.show("checking", source.tell() / _MEGABYTE, size / _MEGABYTE, " MB", 1)

    return show
