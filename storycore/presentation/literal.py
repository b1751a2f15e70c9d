"""A value as a JavaScript literal that is safe anywhere inside a ``<script>`` element
(docs/api.md#the-web-host): JSON whose ``<``, ``>``, ``&``, U+2028 and U+2029 are escaped, so
``</script>`` and ``<!--`` cannot end or confuse the script, whatever the value holds.

One helper for the embed script and the pages' JSON-LD alike.
"""

from __future__ import annotations

from typing import Any

import orjson

__all__ = ["script_literal"]

_ESCAPES = {
    "<": "\\u003c",
    ">": "\\u003e",
    "&": "\\u0026",
    "\u2028": "\\u2028",
    "\u2029": "\\u2029",
}


def script_literal(value: Any) -> str:
    """``value`` as a JavaScript literal that is safe anywhere inside a ``<script>`` element."""
    text = orjson.dumps(value).decode()
    for raw, escaped in _ESCAPES.items():
        text = text.replace(raw, escaped)
    return text
