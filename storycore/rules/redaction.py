"""Secrets never reach a log (docs/decisions.md): the value of every name in ``SECRET_NAMES``
is written ``***`` wherever a log line would hold it.

A secret is found by its name, in any letter case and percent-encoding (``API_KEY``,
``api%5Fkey``), written in one of three ways:

- ``name=value``, as in a query string, a form body or a path: the value runs to the next ``&``
  or white space (``/v1/stories/browse/latest?api_key=***``);
- ``"name": value`` or ``'name', value``, as in JSON, a ``dict`` or a list of header pairs: the
  value is the quoted string that follows, or the word;
- ``name: value``, as in a header line: the value runs to the end of the line.

A name inside another parameter's value (``next=/login?api_key=...``) is found too: writing a
little more as ``***`` is the price of never writing a secret. ``RedactSecrets`` is the logging
filter that applies this to every record a handler writes; ``storycore serve`` installs it on
all of its handlers, and a host application can install it on its own.
"""

from __future__ import annotations

import logging
import re
from urllib.parse import unquote

__all__ = ["SECRET_NAMES", "RedactSecrets", "redact"]

#: The names whose values are secret, lowercase: parameters, then headers. One line per name.
#: ``secret`` is a webhook's signing secret, as its registration answers it (docs/webhooks.md);
#: 28); ``webhook-signature`` the header a delivery is signed in.
SECRET_NAMES = frozenset(
    {
        "api_key",
        "_token",
        "password",
        "secret",
        "authorization",
        "x-api-key",
        "x-verify-credentials-authorization",
        "webhook-signature",
    }
)

#: What a secret's value is written as.
STARS = "***"

#: A name (the characters a parameter or header name is written with, ``%`` escapes included),
#: optionally quoted, and what separates it from its value. A name starts where no name
#: character precedes it and is taken whole, so that a long run of them is read once, not once
#: from each of its characters (which took seconds for a 16 KB path).
_NAME_CHARACTERS = r"[\w%.~+-]"
_NAMED = re.compile(
    rf"""(?P<quote>["']?)(?<!{_NAME_CHARACTERS})(?P<name>{_NAME_CHARACTERS}++)(?P=quote)"""
    r"(?P<sep>=|\s*+[:,]\s*+)"
)
_UP_TO_AMPERSAND = re.compile(r"[^&\s]*")
_UP_TO_LINE_END = re.compile(r"[^\r\n]*")
_QUOTED = re.compile(r""""(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?""")
_WORD = re.compile(r"[^\s,;)}\]]*")
#: Percent-decoding a name again and again stops here (``%25`` decodes to ``%``).
_DECODINGS = 4


def _is_secret(name: str) -> bool:
    """Whether ``name`` names a secret, however it is cased or percent-encoded."""
    for _ in range(_DECODINGS):
        decoded = unquote(name)
        if decoded == name:
            break
        name = decoded
    return name.lower() in SECRET_NAMES


def _value_end(text: str, found: re.Match[str]) -> int | None:
    """Where the value after the secret name ``found`` ends; None when what follows the name
    is not a value (a list of names: ``api_key, _token``)."""
    start, separator = found.end(), found["sep"].strip()
    if separator == "=":
        value = _UP_TO_AMPERSAND.match(text, start)
    elif text[start : start + 1] in ("'", '"'):
        value = _QUOTED.match(text, start)
    elif found["quote"]:
        value = _WORD.match(text, start)
    elif separator == ":":
        value = _UP_TO_LINE_END.match(text, start)
    else:
        return None
    return value.end() if value else start


def redact(text: str) -> str:
    """``text`` with the value of every secret name written ``***``."""
    if not text:
        return text
    parts: list[str] = []
    done = 0
    for found in _NAMED.finditer(text):
        if found.start() < done or not _is_secret(found["name"]):
            continue
        end = _value_end(text, found)
        if end is None:
            continue
        parts += [text[done : found.end()], STARS]
        done = end
    return "".join(parts) + text[done:] if parts else text


def _redacted(value: object) -> object:
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, bytes):
        return redact(value.decode("utf-8", "backslashreplace"))
    return value


class RedactSecrets(logging.Filter):
    """A filter that writes the secrets in a record as ``***`` (see ``redact``): its message,
    its arguments (a tuple, as uvicorn's access record has, or a mapping), every other text it
    carries (the extra fields a JSON line writes), its traceback and its stack. It lets every
    record through.

    Install it on a handler, so that it sees the records of every logger that handler writes::

        handler.addFilter(RedactSecrets())
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(_redacted(arg) for arg in record.args)
        elif isinstance(record.args, dict):
            record.args = {key: _redacted(arg) for key, arg in record.args.items()}
        for key, value in list(vars(record).items()):
            if key != "msg" and isinstance(value, str):
                setattr(record, key, redact(value))
        if isinstance(record.msg, str):
            self._redact_message(record)
        if record.exc_info:
            # rendered here, so that every formatter writes this text and not its own
            record.exc_text = redact(logging.Formatter().formatException(record.exc_info))
            record.exc_info = None
        return True

    @staticmethod
    def _redact_message(record: logging.LogRecord) -> None:
        """A message that still holds a secret once its arguments are redacted (the name in
        the format, the value in an argument: ``"api_key=%s"``) is written as one text."""
        try:
            message = record.getMessage()
        except (TypeError, ValueError, KeyError):  # the formatter reports the faulty record
            record.msg = redact(record.msg)
            return
        redacted = redact(message)
        if redacted != message:
            record.msg, record.args = redacted, None
