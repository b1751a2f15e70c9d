"""How ``storycore serve`` writes its log (docs/decisions.md#command-line): as uvicorn writes it
(``text``), or one JSON object a line (``json``), drawn by python-json-logger (``_json_logs``),
for collectors.

uvicorn's loggers take their handlers from the ``log_config`` uvicorn is handed, which it applies
in the serving process and again in each worker. storycore's own loggers (``storycore.*``), and
any library's, reach the root logger, whose handler is ``root_handler``. Access lines stay on
standard output and all else on standard error, where uvicorn has them. A JSON line holds
``timestamp`` (ISO 8601, UTC), ``level``, ``logger`` and ``message``, a traceback as
``exc_info``, and an access line the request's ``client``, ``method``, ``path``,
``http_version`` and ``status`` besides.

No line holds a secret (docs/decisions.md): every handler, uvicorn's and the root logger's,
has the filter ``storycore.rules.redaction.RedactSecrets``, so uvicorn's access line writes
``api_key=***``; being part of ``log_config``, it is installed again in each worker.
"""

from __future__ import annotations

import copy
import logging
import sys
from typing import Any

from storycore.rules.redaction import RedactSecrets

__all__ = [
    "redact_uvicorn_logs",
    "root_handler",
    "uvicorn_log_config",
]

#: storycore's own lines in text, beside uvicorn's ``INFO:     ...``
_TEXT = "%(levelname)s:     %(name)s: %(message)s"


def uvicorn_log_config(log_format: str) -> dict[str, Any]:
    """uvicorn's ``log_config``: its own, with JSON formatters for ``json``, and the filter
    that writes secrets as ``***`` on every handler."""
    from uvicorn.config import LOGGING_CONFIG

    config: dict[str, Any] = copy.deepcopy(LOGGING_CONFIG)
    if log_format == "json":
        from ._json_logs import AccessJsonFormatter, JsonLines

        config["formatters"] = {
            "default": {"()": JsonLines},
            "access": {"()": AccessJsonFormatter},
        }
    config["filters"] = {"secrets": {"()": RedactSecrets}}
    for handler in config["handlers"].values():
        handler["filters"] = [*handler.get("filters", ()), "secrets"]
    return config


def root_handler(log_format: str) -> logging.Handler:
    """Standard error in ``log_format``: the root logger's handler, where storycore's loggers
    write, secrets written as ``***``."""
    handler = logging.StreamHandler(sys.stderr)
    if log_format == "json":
        from ._json_logs import JsonLines

        handler.setFormatter(JsonLines())
    else:
        handler.setFormatter(logging.Formatter(_TEXT))
    handler.addFilter(RedactSecrets())
    return handler


def redact_uvicorn_logs() -> None:
    """Give the handlers uvicorn has set up (whatever its ``log_config``), and the root
    logger's, the filter that writes secrets as ``***``, once: for an app that uvicorn builds
    itself (``uvicorn --factory storycore.contrib.asgi:from_environment``), in each worker,
    after uvicorn has configured its logging."""
    loggers = [logging.getLogger(name) for name in ("uvicorn", "uvicorn.error", "uvicorn.access")]
    for handler in {h for logger in [*loggers, logging.getLogger()] for h in logger.handlers}:
        if not any(isinstance(f, RedactSecrets) for f in handler.filters):
            handler.addFilter(RedactSecrets())
