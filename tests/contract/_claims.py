"""Claimers racing for leased records (webhook deliveries, pictures to keep): the contract that
one record is leased to one owner at a time, however many claim at once."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")


def claim_at_once(
    claimers: Sequence[Callable[[str], Sequence[T]]], due: int
) -> list[tuple[str, T]]:
    """Call each of ``claimers`` (a claim of a few records for the owner it is given) in a
    thread of its own, all starting together, until it claims none (or ``due`` times: a store
    leasing a record twice would go on); each owner (``p0``, ``p1``, ...) with each record it
    was leased."""
    start = threading.Barrier(len(claimers))

    def claim_all(n: int) -> list[tuple[str, T]]:
        owner, got = f"p{n}", []
        start.wait()
        for _ in range(due):
            if not (found := claimers[n](owner)):
                break
            got += [(owner, record) for record in found]
        return got

    with ThreadPoolExecutor(len(claimers)) as pool:
        return [pair for got in pool.map(claim_all, range(len(claimers))) for pair in got]
