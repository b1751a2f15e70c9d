"""One request in the hands of an endpoint: the service, its route, parameters, caller and
answers."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode

import orjson
from pydantic import BaseModel, TypeAdapter

from ..model.documents import record_json
from ..model.shapes import Page
from ..model.visibility import Viewer
from ..service import Service
from ..usecases.lifecycle import StoryReading
from .messages import PATH_SAFE, HttpRequest, HttpResponse, json_response
from .params import Params
from .routing import Route

__all__ = ["Call", "dump", "reading_content"]


@functools.cache
def _list_of(model: type[BaseModel]) -> TypeAdapter[list[Any]]:
    return TypeAdapter(list[model])  # type: ignore[valid-type]


def dump(value: Any) -> Any:
    """Shapes ready for ``orjson.dumps``, with the interface's names: models as fragments of the
    JSON pydantic writes for them (a list of one model in one call), which costs less than
    Python data that orjson writes again; a list of documents (``model.documents``) as the
    fragment orjson writes for it.
    """
    if isinstance(value, BaseModel):
        return orjson.Fragment(value.model_dump_json(by_alias=True))
    if isinstance(value, list):
        kind = type(value[0]) if value else None
        if kind is dict:  # documents (``Service.listings``): written as they are
            return orjson.Fragment(orjson.dumps(value, default=record_json))
        if (
            kind is not None
            and issubclass(kind, BaseModel)
            and all(type(item) is kind for item in value)
        ):
            return orjson.Fragment(_list_of(kind).dump_json(value, by_alias=True))
        return [dump(item) for item in value]
    return value


def reading_content(reading: StoryReading) -> Any:
    """A story read ``as_documents``, ready for ``orjson.dumps``: its stored element documents
    go into the answer as they are, without being parsed and dumped again.
    """
    content = reading.detail.model_dump(mode="json", by_alias=True)
    content["elements"] = [orjson.Fragment(document) for document in reading.element_documents]
    return content


@dataclass(frozen=True)
class Call:
    """What an endpoint works with. ``args`` are the path's arguments; ``caller`` is the viewer
    ``HttpApp`` resolved from the credentials before the endpoint ran, or None when its route
    ignores them.
    """

    service: Service
    request: HttpRequest
    route: Route
    params: Params
    args: dict[str, str]
    caller: Viewer | None = field(default=None, repr=False)

    @property
    def viewer(self) -> Viewer:
        """The caller (anonymous without credentials). Reading it in an endpoint whose route
        ignores credentials (``Credentials.NONE``) is a bug, not a quiet anonymous caller.
        """
        if self.caller is None:
            raise RuntimeError("this route ignores credentials, so its call has no viewer")
        return self.caller

    @staticmethod
    def ok(content: Any, headers: Sequence[tuple[str, str]] = ()) -> HttpResponse:
        """The success envelope: exactly ``content`` and ``code``."""
        return json_response({"content": dump(content), "code": 200}, 200, headers)

    def link_headers(self, page: int, has_next: bool) -> list[tuple[str, str]]:
        """``Link`` to the next and previous pages, keeping the other query parameters."""
        links = []
        if has_next:
            links.append(f'<{self._page_address(page + 1)}>; rel="next"')
        if page > 1:
            links.append(f'<{self._page_address(page - 1)}>; rel="prev"')
        return [("Link", ", ".join(links))] if links else []

    def element_links(self, reading: StoryReading) -> list[tuple[str, str]]:
        """``Link`` to the pages of a story's elements around the page ``reading`` holds: a
        story's, or a revision's (docs/api.md#pagination)."""
        return self.link_headers(reading.detail.page, reading.has_next)

    def _page_address(self, number: int) -> str:
        query = self.request.query_string.decode("utf-8", "replace")
        pairs = [(k, v) for k, v in parse_qsl(query, keep_blank_values=True) if k != "page"]
        pairs.append(("page", str(number)))
        # a header holds only ASCII, so the path goes percent-encoded, as it was sent
        root = quote(self.request.root_path, safe=PATH_SAFE)
        path = root + quote(self.request.encoded_path, safe=PATH_SAFE + "%")
        return f"{path}?{urlencode(pairs)}"

    def arguments(self) -> dict[str, Any]:
        """The operation's arguments as the route declares them: the path's, then each
        parameter it passes on, read as declared (the first fault found is the answer), under
        its keyword."""
        params = self.params
        arguments: dict[str, Any] = dict(self.args)
        for keyword, read in self.route.passed:
            arguments[keyword] = read(params)
        return arguments

    def read(self, name: str) -> Any:
        """The declared parameter ``name``, read as declared: for one the handler uses itself."""
        return self.route.readers[name](self.params)

    def listing(self, page: Page[Any]) -> HttpResponse:
        """A list answer: ``page``, ``per_page``, ``total`` when counted, and the items under
        the route's ``list_key``, with ``Link``."""
        key = self.route.list_key
        if key is None:
            raise RuntimeError("this route answers no list: it declares no list_key")
        content: dict[str, Any] = {"page": page.page, "per_page": page.per_page}
        if page.total is not None:
            content["total"] = page.total
        content[key] = dump(page.items)
        return self.ok(content, self.link_headers(page.page, page.has_next))
