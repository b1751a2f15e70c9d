"""A form a browser posts (``application/x-www-form-urlencoded``), read from a request's body:
what the editor's pages receive (docs/editor.md)."""

from __future__ import annotations

from urllib.parse import parse_qsl

from .messages import HttpRequest

__all__ = ["MAX_FIELDS", "Form"]

#: The most fields a form may hold: a story's editor posts a few for each of its elements.
MAX_FIELDS = 10_000


class Form:
    """The fields of a posted form, in order; a body that is no form is an empty one."""

    def __init__(self, pairs: list[tuple[str, str]]) -> None:
        self.pairs = pairs
        self._last = dict(pairs)

    @classmethod
    def of(cls, request: HttpRequest) -> Form:
        """The form ``request`` posts; empty for a body of another type, or past ``MAX_FIELDS``."""
        kind = (request.header("content-type") or "").partition(";")[0].strip().lower()
        if request.method != "POST" or kind not in ("", "application/x-www-form-urlencoded"):
            return cls([])
        text = request.body.decode("utf-8", "replace")
        try:
            pairs = parse_qsl(text, keep_blank_values=True, max_num_fields=MAX_FIELDS)
        except ValueError:
            return cls([])
        return cls(pairs)

    def get(self, name: str, default: str = "") -> str:
        """The last value of ``name``, or ``default``."""
        return self._last.get(name, default)

    def all(self, name: str) -> list[str]:
        """Every value of ``name``, in order."""
        return [value for key, value in self.pairs if key == name]

    def __contains__(self, name: object) -> bool:
        return name in self._last
