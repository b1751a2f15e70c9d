"""Opening a store in a fresh process where some modules cannot be imported, as on a machine
without an extra: what the storage modules of the missing-driver tests share."""

from __future__ import annotations

import subprocess
import sys

__all__ = ["opening_without"]

_WITHOUT = """
import sys

class Missing:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {blocked!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None

sys.meta_path.insert(0, Missing())
from storycore.adapters import open_store
try:
    open_store({url!r})
except ImportError as exc:
    print(type(exc).__name__, exc)
"""


def opening_without(blocked: set[str], url: str) -> str:
    """What ``open_store(url)`` printed of the ImportError it raised, with ``blocked`` (top-level
    module names) unimportable."""
    code = _WITHOUT.format(blocked=blocked, url=url)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return done.stdout
