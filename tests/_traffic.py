"""The Storify v1 traffic the tests replay, recorded from a real client: what it holds and where
it comes from is ``tests/data/storify-v1-traffic/README.md``."""

from __future__ import annotations

from pathlib import Path

__all__ = ["INTERACTIONS", "TRAFFIC"]

TRAFFIC = Path(__file__).parent / "data" / "storify-v1-traffic"
#: One ``<exchange>.request.json`` per recorded request; the responses of the story reads.
INTERACTIONS = TRAFFIC / "interactions"
