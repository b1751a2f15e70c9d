"""Delegated creation (experimental; docs/delegation.md).

An application holding a delegation grant creates a story for a user of an identity provider
by forwarding that user's OAuth ``Authorization`` value for the provider's verify-credentials
address (OAuth Echo). The address must equal an allowlisted one before anything is sent, and
only the allowlisted string itself is ever requested. The forwarded value is used for that one
request and is never logged, stored or echoed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import partial
from typing import Any

from ..errors import (
    Conflict,
    DuplicateKey,
    Forbidden,
    InvalidParameter,
    ProviderUnavailable,
    Unauthorized,
)
from ..model.derived import user_changes, with_search_tokens
from ..model.drafts import parse_story
from ..model.elements import normalize_elements
from ..model.records import UserRecord
from ..model.shapes import DelegatedCreated
from ..model.shown_pictures import user_pictures
from ..model.visibility import Viewer
from ..rules.ids import new_id
from ..rules.usernames import RESERVED_USERNAMES, username_key
from ._events import profile_events, user_event
from .accounts import Accounts
from .context import Context
from .identity import ANSWER_CAP, ProviderClient, ProviderIdentity, interpret
from .lifecycle import Stories
from .ratelimit import RateLimiter
from .wording import wording

__all__ = ["Delegation", "username_from_screen_name"]

_NOT_USERNAME = re.compile(r"[^A-Za-z0-9_]+")
_RETRIES = 20
PROVIDER_HEADER = "X-Auth-Service-Provider"


def username_from_screen_name(screen_name: str, number: int = 1) -> str:
    """A valid username from a screen name; ``number`` above 1 adds ``_2``, ``_3``, ..."""
    base = _NOT_USERNAME.sub("", screen_name) or "user"
    suffix = f"_{number}" if number > 1 else ""
    if number == 1 and username_key(base[:30]) in RESERVED_USERNAMES:
        suffix = "_1"
    return base[: 30 - len(suffix)] + suffix


class Delegation:
    """Delegated creation through allowlisted identity providers. ``limiter`` counts each
    application's creations; services at other addresses (``Service.at``) share one."""

    def __init__(
        self,
        context: Context,
        accounts: Accounts,
        stories: Stories,
        client: ProviderClient | None,
        limiter: RateLimiter | None = None,
    ) -> None:
        self._ctx = context
        self._accounts = accounts
        self._stories = stories
        self._client = client
        self._limiter = limiter or RateLimiter(
            context.settings.delegation_rate_limit, context.clock
        )

    def create(
        self,
        *,
        api_key: str | None,
        provider: str | None,
        authorization: str | None,
        story: Mapping[str, Any] | str | None,
        publish: bool = True,
    ) -> DelegatedCreated:
        """Verify the user with ``provider`` and create ``story`` as that user."""
        app = self._accounts.application(api_key)
        if not app.delegation:
            raise Forbidden("this application has no delegation grant")
        if not provider or provider not in self._ctx.settings.delegation_providers:
            raise InvalidParameter(
                f"{PROVIDER_HEADER} must be one of the allowlisted identity providers",
                field=PROVIDER_HEADER,
            )
        if not authorization or any(ch in authorization for ch in "\r\n\0"):
            raise Unauthorized(
                "X-Verify-Credentials-Authorization is required and must be one line",
                field="X-Verify-Credentials-Authorization",
            )
        if story is None:
            raise InvalidParameter("story is required", field="story")
        self._check_story(story)
        self._limiter.hit(app.id)
        if self._client is None:
            raise ProviderUnavailable("no identity provider client is configured")
        answer = self._client.get(
            provider,
            authorization,
            timeout=self._ctx.settings.provider_timeout,
            max_bytes=ANSWER_CAP,
        )
        user = self._user_for(provider, interpret(answer))
        created = self._stories.create(
            user.username, story, viewer=Viewer(user=user, app=app), publish=publish
        )
        presenter = self._ctx.presenter
        return DelegatedCreated(
            sid=created.id,
            permalink=presenter.permalink(user.username, created.slug),
            shortlink=presenter.shortlink(created.id),
        )

    def _check_story(self, story: Mapping[str, Any] | str) -> None:
        """Refuse a bad story before anything is sent to the provider."""
        limits = self._ctx.settings.limits
        draft = parse_story(story, limits)
        normalize_elements(
            draft.elements or [],
            path="story.elements",
            limits=limits,
            resolver=self._ctx.resolver,
            previous=[],
            now=self._ctx.now(),
        )

    def _user_for(self, provider: str, identity: ProviderIdentity) -> UserRecord:
        """The user linked to ``identity``, made on first use, with the provider's name and
        avatar kept up to date.
        """
        users = self._ctx.store.users
        for number in range(1, _RETRIES + 1):
            linked = self._ctx.store.identities.get(provider, identity.id)
            if linked is not None:
                user = users.get(linked)
                if user is None:  # pragma: no cover - links are deleted with their user
                    raise Conflict("the linked user no longer exists")
                return self._refreshed(user, identity)
            created = self._ctx.now()
            user = UserRecord(
                id=new_id(),
                username=username_from_screen_name(identity.screen_name, number),
                name=identity.name,
                avatar=identity.avatar,
                created=created,
                updated=created,
            )
            user = with_search_tokens(user)
            event = user_event(self._ctx.presenter, "user.created", user, created)
            try:
                self._ctx.store.identities.add_user(provider, identity.id, user, events=[event])
            except DuplicateKey:
                continue  # the username was taken, or a concurrent first use linked it
            self._ctx.want_pictures(partial(user_pictures, user))
            return user
        raise Conflict("no free username could be made from the provider's screen name")

    def _refreshed(self, user: UserRecord, identity: ProviderIdentity) -> UserRecord:
        if (user.name, user.avatar) == (identity.name, identity.avatar):
            return user
        at = self._ctx.now()
        changes = user_changes(
            user, {"name": identity.name, "avatar": identity.avatar, "updated": at}
        )
        events = profile_events(self._ctx.presenter, user, changes, at)
        with wording(name=user.username):
            self._ctx.store.users.update(user.id, changes, events=events)
        refreshed = user.model_copy(update=changes)
        self._ctx.want_pictures(partial(user_pictures, refreshed))
        return refreshed
