"""Progress of a long command on a terminal: how far, of how much, and the time left.

Drawn by tqdm on one line of standard error, at most five times a second, and only when
standard error is a terminal and tqdm is installed (the ``serve`` extra brings it): piped or
logged output, or a core-only install, gets the command's final line alone.
"""

from __future__ import annotations

import importlib.util
from typing import IO, TYPE_CHECKING, Never

from storycore.usecases.imports import ImportProgress
from storycore.usecases.pruning import Progress

if TYPE_CHECKING:
    from tqdm import tqdm

__all__ = ["Meter", "import_progress", "media_progress"]

_INTERVAL = 0.2  # seconds between two redraws
_MEGABYTE = 1_000_000


class Meter:
    """The progress of one command, a phase (``label``) at a time; ``end`` leaves its last
    line for the next one."""

    def __init__(self, stream: IO[str]) -> None:
        self._stream = stream
        self._shown = stream.isatty() and importlib.util.find_spec("tqdm") is not None
        self._bar: tqdm[Never] | None = None

    def show(
        self,
        label: str,
        done: float,
        total: float | None = None,
        unit: str = "",
        decimals: int = 0,
    ) -> None:
        """Show ``done`` of ``total`` (when known) ``unit``, and the time left at this pace."""
        if not self._shown:
            return
        from tqdm import tqdm

        bar = self._bar
        if bar is None or bar.desc != label:
            self.end()
            layout = _COUNTED if total is None else _OF_TOTAL
            bar = self._bar = tqdm(
                desc=label,
                total=total,
                unit=unit.strip(),
                file=self._stream,
                mininterval=_INTERVAL,
                bar_format=layout.replace("NUMBER", f".{decimals}f"),
                dynamic_ncols=True,
            )
        bar.update(done - bar.n)

    def end(self) -> None:
        """End the progress line, if one was drawn."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None


#: tqdm's layouts, with the unit after the counts (``NUMBER``: their format) and the time left.
_OF_TOTAL = (
    "{desc}: {percentage:3.0f}%|{bar}| {n:NUMBER} of {total:NUMBER} {unit}"
    " [{elapsed}<{remaining} left]"
)
_COUNTED = "{desc}: {n:NUMBER} {unit} [{elapsed}]"


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


def media_progress(meter: Meter) -> Progress:
    """The progress of ``keep-media`` and ``prune-media``: the stories and users walked of how
    many there are, then the pictures tried."""

    def show(phase: str, done: int, total: int | None) -> None:
        if phase == "walked":
            meter.show("walking", done, total, " stories and users")
        else:
            meter.show("keeping", done, total, " pictures")

    return show
