"""Identity providers for delegated creation (docs/delegation.md).

The core decides everything about a provider's answer; the port only carries one GET. A 200
JSON answer names the user; 401, 403 or a redirect means the credentials were not verified; any
other status, an answer that is not JSON, over the size cap, or no answer (``NoAnswer`` says
why: none in time, a host name that does not resolve, a refused connection) means the provider
is unavailable, and the message says which.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Protocol, runtime_checkable

import orjson

from ..errors import ProviderUnavailable, Unauthorized
from ..rules.addresses import is_http_url

__all__ = [
    "ANSWER_CAP",
    "NoAnswer",
    "ProviderAnswer",
    "ProviderClient",
    "ProviderIdentity",
    "interpret",
]

ANSWER_CAP = 64 * 1024


@dataclass(frozen=True, slots=True)
class ProviderAnswer:
    """What a provider answered: its status and the first bytes of its body."""

    status: int
    body: bytes


@dataclass(frozen=True, slots=True)
class NoAnswer:
    """Why no whole answer came: none within the deadline (``timeout``), the provider's host
    name does not resolve (``unresolved``), it refused the connection (``refused``), or the
    connection failed otherwise (``failed``: TLS, a reset, a malformed answer)."""

    reason: Literal["timeout", "unresolved", "refused", "failed"]


_NO_ANSWER = {
    "timeout": "the identity provider did not answer in time",
    "unresolved": "the identity provider's host name does not resolve",
    "refused": "the identity provider refused the connection",
    "failed": "the connection to the identity provider failed",
}


@runtime_checkable
class ProviderClient(Protocol):
    """Sends the one request delegated creation makes."""

    def get(
        self, url: str, authorization: str, *, timeout: float, max_bytes: int
    ) -> ProviderAnswer | NoAnswer:
        """``GET url`` with the ``Authorization`` header, following no redirect.

        Reads at most ``max_bytes + 1`` bytes of the body. Returns ``NoAnswer`` when no complete
        answer came within ``timeout`` seconds in all, or the connection failed, saying why.
        Never logs, stores or echoes ``authorization``.
        """
        ...


@dataclass(frozen=True, slots=True)
class ProviderIdentity:
    """The user a provider vouched for."""

    id: str
    screen_name: str
    name: str
    avatar: str


def _text(data: dict[str, Any], *keys: str) -> str:
    for key in keys:
        value = data.get(key)
        if isinstance(value, str) and value:
            return value
        if isinstance(value, int) and not isinstance(value, bool):
            return str(value)
    return ""


def interpret(answer: ProviderAnswer | NoAnswer) -> ProviderIdentity:
    """The identity in a provider's answer, or the error that answer means."""
    if isinstance(answer, NoAnswer):
        raise ProviderUnavailable(_NO_ANSWER[answer.reason])
    if answer.status in (401, 403) or 300 <= answer.status < 400:
        raise Unauthorized("the identity provider did not verify these credentials")
    if answer.status != 200:
        raise ProviderUnavailable(f"the identity provider answered with status {answer.status}")
    if len(answer.body) > ANSWER_CAP:
        raise ProviderUnavailable("the identity provider's answer is over the size limit")
    try:
        data = orjson.loads(answer.body)
    except orjson.JSONDecodeError:
        raise ProviderUnavailable("the identity provider's answer is not JSON") from None
    if not isinstance(data, dict):
        raise ProviderUnavailable("the identity provider's answer is not a JSON object")
    user_id = _text(data, "id_str", "id")
    screen_name = _text(data, "screen_name", "username")
    if not user_id or not screen_name:
        raise ProviderUnavailable("the identity provider's answer names no user")
    avatar = _text(data, "profile_image_url")
    return ProviderIdentity(
        id=user_id[:200],
        screen_name=screen_name[:200],
        name=_text(data, "name")[:200],
        avatar=avatar if is_http_url(avatar) and len(avatar) <= 2048 else "",
    )
