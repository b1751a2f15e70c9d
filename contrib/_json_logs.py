"""One JSON object a line, drawn by python-json-logger: the formatters of ``storycore serve
--log-format json`` (``_logs`` says what a line holds). python-json-logger comes with the
``serve`` extra; only the JSON format imports this module.
"""

from __future__ import annotations

import logging
from typing import Any

from storycore.extras import imported_from

with imported_from("serve"):
    from pythonjsonlogger.core import RESERVED_ATTRS
    from pythonjsonlogger.json import JsonFormatter

__all__ = ["AccessJsonFormatter", "JsonLines"]

#: the fields of every line, renamed by ``_RENAMED``
_FIELDS = "%(levelname)s %(name)s %(message)s"
_RENAMED = {"levelname": "level", "name": "logger"}
#: never written: uvicorn's coloured copy of a message, and the asyncio task (Python 3.12)
_UNWRITTEN = (*RESERVED_ATTRS, "color_message", "taskName")
#: the arguments of uvicorn's access record, in their order
_ACCESS_ARGS = ("client", "method", "path", "http_version", "status")


class JsonLines(JsonFormatter):
    """A record as one JSON object: time, level, logger, message, and any extra fields."""

    def __init__(self) -> None:
        super().__init__(
            _FIELDS, rename_fields=_RENAMED, timestamp=True, reserved_attrs=list(_UNWRITTEN)
        )


class AccessJsonFormatter(JsonLines):
    """uvicorn's access record as one JSON object, the parts of the request as fields."""

    def add_fields(
        self, log_data: dict[str, Any], record: logging.LogRecord, message_dict: dict[str, Any]
    ) -> None:
        super().add_fields(log_data, record, message_dict)
        if isinstance(record.args, tuple) and len(record.args) == len(_ACCESS_ARGS):
            log_data.update(zip(_ACCESS_ARGS, record.args, strict=True))
