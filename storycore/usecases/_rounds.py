"""Background rounds: a thread that does its work every ``interval`` on the service's clock
(``RoundThread``: the scheduler's and the deliverer's), and when each round comes
(``rounds``: also the view-count writer's)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator

from ..clocks import Clock, ClockEvent

__all__ = ["RoundThread", "rounds"]


def rounds(clock: Clock, stop: ClockEvent, interval: float, due: float) -> Iterator[None]:
    """Yield when each round is due, the first at ``due`` (the clock's monotonic time), until
    ``stop`` is raised. Each round is due when the last was due, plus ``interval``, or at once
    when that has passed: when a round comes does not depend on when its thread got to wait
    for it, nor on how long the last round took."""
    while not stop.wait(max(0.0, due - clock.monotonic())):
        due = max(due + interval, clock.monotonic())
        yield


class RoundThread:
    """A daemon thread named ``name`` that calls ``work`` at once and then every ``interval``
    (``rounds``), from ``start`` until ``close``. A round that raises one of ``waits`` (the
    store is busy, say) is a warning, ``waiting`` and the error; any other error is logged with
    its traceback, ``failed``: either way the next round tries again. A second ``start``, or a
    start after ``close``, does nothing."""

    def __init__(
        self,
        clock: Clock,
        interval: float,
        work: Callable[[], object],
        *,
        name: str,
        logger: logging.Logger,
        waits: tuple[type[Exception], ...],
        waiting: str,
        failed: str,
    ) -> None:
        self._clock, self._interval, self._work = clock, interval, work
        self._name, self._logger = name, logger
        self._waits, self._waiting, self._failed = waits, waiting, failed
        self._lock = threading.Lock()
        self._stop = clock.event()
        self._thread: threading.Thread | None = None

    @property
    def stopped(self) -> bool:
        """Whether ``close`` was called: a round under way ends its work early."""
        return self._stop.is_set()

    @property
    def running(self) -> bool:
        """Whether the thread runs."""
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        with self._lock:
            if self._thread is not None or self._stop.is_set():
                return
            self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
            self._thread.start()

    def close(self) -> None:
        """Stop the thread, after the round under way."""
        self._stop.set()
        with self._lock:
            thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join()

    def _run(self) -> None:
        for _ in rounds(self._clock, self._stop, self._interval, self._clock.monotonic()):
            try:
                self._work()
            except self._waits as exc:
                self._logger.warning("%s (%s)", self._waiting, exc)
            except Exception:  # a bug or a closed store: the next round tries again
                self._logger.exception(self._failed)
