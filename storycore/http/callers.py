"""Who is calling: the credentials a request carries (docs/api.md#credentials).

v1 clients send ``api_key``, ``username`` and ``_token`` as parameters. Browsers and new
clients send ``Authorization: Bearer <token>``, which proves the token's user through the
token's application alone, and ``X-Api-Key`` in place of the ``api_key`` parameter. Headers keep
tokens out of the addresses that access logs record.
"""

from __future__ import annotations

from ..errors import Unauthorized
from ..model.visibility import Viewer
from ..service import Service
from .messages import HttpRequest
from .params import Params
from .routing import CREDENTIALS

__all__ = ["caller", "sent_token", "with_header_key"]

_API_KEY, _USERNAME, _TOKEN = (p.name for p in CREDENTIALS)


def with_header_key(request: HttpRequest, params: Params) -> Params:
    """``params`` with ``X-Api-Key`` as their ``api_key``; both sent must be the same key."""
    header = request.header("x-api-key")
    if header is None:
        return params
    sent = params.credential(_API_KEY)
    if sent is not None and sent != header:
        raise Unauthorized("X-Api-Key and the api_key parameter differ", field=_API_KEY)
    return Params({**params.values, _API_KEY: header})


def _bearer(request: HttpRequest) -> str | None:
    """The token of ``Authorization: Bearer <token>``; None without the header. Any other
    form of the header is refused rather than ignored (RFC 6750, section 2.1)."""
    authorization = request.header("authorization")
    if authorization is None:
        return None
    scheme, _, token = authorization.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or " " in token:
        raise Unauthorized("the Authorization header must be Bearer and a token from /v1/auth")
    return token


def sent_token(request: HttpRequest, params: Params) -> str | None:
    """The user token the request proves itself with: the bearer token, else ``_token``."""
    return _bearer(request) or params.credential(_TOKEN)


def caller(service: Service, request: HttpRequest, params: Params) -> Viewer:
    """The viewer the request's credentials prove (anonymous without any). A bearer token
    needs nothing else; an ``api_key``, ``username`` or ``_token`` sent with it must agree
    with it. Anything refused is ``Unauthorized``."""
    api_key, username = params.credential(_API_KEY), params.credential(_USERNAME)
    bearer = _bearer(request)
    if bearer is None:
        return service.accounts.viewer(api_key, username, params.credential(_TOKEN))
    token = params.credential(_TOKEN)
    if token is not None and token != bearer:
        raise Unauthorized("the bearer token and the _token parameter differ", field=_TOKEN)
    return service.accounts.bearer(bearer, api_key=api_key, username=username)
