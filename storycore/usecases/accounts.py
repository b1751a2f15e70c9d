"""Users, applications and authentication (docs/api.md#credentials).

Users and applications are made here (by the host application or the command line), never over
HTTP. Authentication trades an api key, a username and a password for a token; every later call
proves itself with the api key, the username and the token.
"""

from __future__ import annotations

import builtins
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from ..errors import DuplicateKey, Forbidden, InvalidParameter, NotFound, Unauthorized
from ..input.declared import read_declared
from ..input.fields import Members, decode_object
from ..model.derived import user_changes, with_search_tokens
from ..model.members import PROFILE_WRITE, USER_MEMBERS, USER_WRITE_MEMBERS, refuse_unknown
from ..model.pagination import page_of
from ..model.records import AppRecord, Plan, TokenRecord, UserRecord
from ..model.shapes import Page, Revoked, TokenGrant, UserProfile
from ..model.shown_pictures import pictures, user_pictures, user_shown
from ..model.visibility import ANONYMOUS, Viewer
from ..rules.addresses import validate_url
from ..rules.appnames import WEB_HOST_APP, WEB_HOST_APP_ID, validate_app_name
from ..rules.credentials import (
    check_password,
    digest,
    hash_password,
    is_valid_password,
    new_secret,
    same_digest,
    verify_password,
)
from ..rules.ids import new_id
from ..rules.timestamps import format_timestamp
from ..rules.usernames import username_key, validate_username
from ._events import profile_events, user_event
from .context import Context
from .sign_in_limit import SignInLimit
from .wording import wording

__all__ = ["Accounts", "AppCredentials"]

_PLANS = ("free", "enterprise")


@dataclass(frozen=True, slots=True)
class AppCredentials:
    """A new application and its api key, which is shown this once and stored only as a digest."""

    app: AppRecord
    api_key: str


class Accounts:
    """Users, applications, tokens and profiles."""

    def __init__(self, context: Context) -> None:
        self._ctx = context
        self._users = context.store.users
        self._sign_ins = SignInLimit(context)

    def create_user(
        self,
        username: str,
        password: str | None = None,
        *,
        name: str = "",
        email: str = "",
        plan: str = "free",
        editor: bool = False,
        can_feature: bool = False,
        bio: str = "",
        location: str = "",
        website: str = "",
        avatar: str = "",
    ) -> UserProfile:
        """Make a user. A user without a password cannot authenticate with one."""
        validate_username(username)
        if plan not in _PLANS:
            raise InvalidParameter("plan must be free or enterprise", field="plan")
        profile = self._profile_members(
            {"name": name, "bio": bio, "location": location, "website": website, "avatar": avatar},
            path="",
        )
        created = self._ctx.now()
        user = UserRecord(
            id=new_id(),
            username=username,
            email=email,
            password_hash=(
                hash_password(check_password(password), cost=self._ctx.settings.password_cost)
                if password is not None
                else None
            ),
            plan=cast(Plan, plan),
            editor=editor,
            can_feature=can_feature,
            created=created,
            updated=created,
            **profile,
        )
        user = with_search_tokens(user)
        event = user_event(self._ctx.presenter, "user.created", user, created)
        with wording(name=username):
            self._users.add(user, events=[event])
        self._ctx.want_pictures(lambda: user_pictures(user))
        return self._profile(user)

    def create_app(self, name: str, *, delegation: bool = False, href: str = "") -> AppCredentials:
        """Make an application; the answer holds its api key."""
        name = validate_app_name(name)
        href = validate_url(href, "href", self._ctx.settings.limits.address, allow_empty=True)
        api_key = new_secret()
        app = AppRecord(
            id=new_id(),
            name=name,
            href=href,
            key_digest=digest(api_key),
            delegation=delegation,
            created=self._ctx.now(),
        )
        with wording(name=name):
            self._ctx.store.apps.add(app)
        return AppCredentials(app=app, api_key=api_key)

    def rotate_key(self, name: str) -> AppCredentials:
        """A new api key for the application ``name``; the old key stops working at once. Its
        users' tokens stay valid: they are bound to the application, not to its key."""
        app = self._named_app(name)
        api_key = new_secret()
        changes = {"key_digest": digest(api_key)}
        self._ctx.store.apps.update(app.id, changes)
        return AppCredentials(app=app.model_copy(update=changes), api_key=api_key)

    def apps(self) -> list[AppRecord]:
        """Every application, by name."""
        found: list[AppRecord] = []
        while batch := self._ctx.store.apps.find(len(found), 100):
            found += batch
        return found

    def set_password(self, username: str, password: str) -> None:
        """Give ``username`` a new password (the rule of ``create_user``). Tokens already
        issued stay valid until they expire."""
        user = self._ctx.user_named(username)
        password_hash = hash_password(
            check_password(password), cost=self._ctx.settings.password_cost
        )
        self._users.update(user.id, {"password_hash": password_hash, "updated": self._ctx.now()})

    def application(self, api_key: str | None) -> AppRecord:
        """The application of ``api_key``, or ``Unauthorized``."""
        return self._app(api_key)

    def set_delegation(self, name: str, granted: bool) -> AppRecord:
        """Grant or revoke an application's delegation grant."""
        app = self._named_app(name)
        with wording(name=name):
            self._ctx.store.apps.update(app.id, {"delegation": granted})
        return app.model_copy(update={"delegation": granted})

    def _named_app(self, name: str) -> AppRecord:
        app = self._ctx.store.apps.get_by_name(name)
        if app is None:
            raise NotFound(f"there is no application {name!r}")
        return app

    def _app(self, api_key: str | None) -> AppRecord:
        if not api_key:
            raise Unauthorized("api_key is required", field="api_key")
        key_digest = digest(api_key)
        app = self._ctx.store.apps.get_by_key_digest(key_digest)
        if app is None or not same_digest(app.key_digest, key_digest):
            raise Unauthorized("unknown api_key", field="api_key")
        return app

    def authenticate(self, api_key: str | None, username: str, password: str) -> TokenGrant:
        """A new token for ``username`` through the application of ``api_key``.

        An unknown user and a wrong password give the same ``Unauthorized``.
        """
        app = self._app(api_key)
        user = self._proven(username, password)
        token = self._issue(user, app)
        return TokenGrant(**self._profile(user).model_dump(), _token=token)

    def sign_in(self, username: str, password: str, *, address: str | None = None) -> str:
        """A new token for ``username`` through the web host's own application
        (``WEB_HOST_APP``), made the first time anyone signs in: what a sign-in page keeps in
        its session cookie (docs/editor.md#signing-in). Refused as ``authenticate`` refuses;
        past the limit of failed sign-ins for ``username`` or the client's ``address``
        (``Settings.limits.sign_ins_per_minute``, across every process on the store),
        ``RateLimited`` before the password is tried."""
        self._sign_ins.check(username, address)
        try:
            user = self._proven(username, password)
        except Unauthorized:
            self._sign_ins.failed(username, address)
            raise
        return self._issue(user, self._web_host_app())

    def change_password(
        self, viewer: Viewer, current: str, new: str, *, session: str | None = None
    ) -> None:
        """The caller's new password, when ``current`` is their password: a wrong one is
        ``InvalidParameter`` naming ``current_password`` (the caller is signed in already), a
        new one breaking the rule names ``new_password``. Every other token of the caller ends,
        through any application (whoever learnt the old password is signed out); ``session``,
        the token the caller is using, stays (docs/editor.md#the-profile)."""
        caller = self._ctx.require_user(viewer)
        check_password(new, "new_password")
        try:
            self._proven(caller.username, current)
        except Unauthorized:
            raise InvalidParameter(
                "this is not your current password", field="current_password"
            ) from None
        self.set_password(caller.username, new)
        kept = digest(session) if session else None
        self._ctx.store.tokens.remove_others_of_user(caller.id, kept)

    def _proven(self, username: str, password: str) -> UserRecord:
        """The user whose password this is; ``Unauthorized``, the same for an unknown user and a
        wrong password, after the same work."""
        user = self._users.get_by_username(username) if username else None
        cost = self._ctx.settings.password_cost
        # a password that breaks the rule was never set: refused like a wrong one, same work
        stored = user.password_hash if user and is_valid_password(password) else None
        if not verify_password(password, stored, cost=cost):
            raise Unauthorized("wrong username or password")
        assert user is not None  # verify_password is False without a stored hash
        return user

    def _issue(self, user: UserRecord, app: AppRecord) -> str:
        """A new token of ``user`` through ``app``, stored as its digest."""
        token = new_secret()
        issued = self._ctx.clock.now()
        # tokens are refused once expired; issuing one clears those, so they never pile up
        self._ctx.store.tokens.remove_expired(format_timestamp(issued))
        self._ctx.store.tokens.add(
            TokenRecord(
                digest=digest(token),
                user_id=user.id,
                app_id=app.id,
                created=format_timestamp(issued),
                expires=format_timestamp(issued + self._ctx.settings.token_lifetime),
            )
        )
        with wording(name=user.username):
            self._users.update(user.id, {"last_seen": format_timestamp(issued)})
        return token

    def _web_host_app(self) -> AppRecord:
        """The application of the web host's sessions: stored under a fixed id, with a key no
        one holds, the first time it is needed (by whichever process wins)."""
        apps = self._ctx.store.apps
        found = apps.get(WEB_HOST_APP_ID)
        if found is not None:
            return found
        app = AppRecord(
            id=WEB_HOST_APP_ID,
            name=WEB_HOST_APP,
            key_digest=digest(new_secret()),
            created=self._ctx.now(),
        )
        try:
            apps.add(app)
        except DuplicateKey:  # another process made it first
            made = apps.get(WEB_HOST_APP_ID)
            if made is None:  # the name is taken by an application made before it was reserved
                raise
            return made
        return app

    def viewer(
        self, api_key: str | None = None, username: str | None = None, token: str | None = None
    ) -> Viewer:
        """The caller these credentials prove. With none, the caller is anonymous; an api key
        alone names the application only, and so does an api key with a username but no token
        (real v1 clients send their username on every call, docs/api.md#calls-and-answers: it proves
        no one, so an operation that needs a user refuses it); a token needs all three, and
        any fault is ``Unauthorized``.
        """
        if not (api_key or username or token):
            return ANONYMOUS
        app = self._app(api_key)
        if not token:
            return Viewer(app=app)
        if not username:
            raise Unauthorized("username is required with _token", field="username")
        record = self._ctx.store.tokens.get(digest(token))
        user = self._users.get_by_username(username)
        if (
            record is None
            or user is None
            or not same_digest(record.user_id, user.id)
            or not same_digest(record.app_id, app.id)
        ):
            raise Unauthorized("the token does not belong to this username and api_key")
        self._refuse_expired(record)
        return Viewer(user=user, app=app)

    def bearer(
        self, token: str, *, api_key: str | None = None, username: str | None = None
    ) -> Viewer:
        """The caller a token proves alone (``Authorization: Bearer``, docs/api.md#credentials):
        its user, through its application. An ``api_key`` or ``username`` sent with it must
        name the same; an unknown, revoked or expired token is ``Unauthorized``.
        """
        record = self._live_token(token)
        user = self._users.get(record.user_id)
        app = self._ctx.store.apps.get(record.app_id)
        if user is None or app is None:
            raise Unauthorized("the token is not valid")
        if api_key is not None and not same_digest(self._app(api_key).id, app.id):
            raise Unauthorized("the api_key is not the token's application", field="api_key")
        if username is not None and username_key(username) != username_key(user.username):
            raise Unauthorized("the username is not the token's user", field="username")
        return Viewer(user=user, app=app)

    def revoke(self, token: str) -> Revoked:
        """End a token: it is refused everywhere from now on. An unknown, revoked or expired
        token is ``Unauthorized``, as it would be on any other call."""
        record = self._live_token(token)
        self._ctx.store.tokens.remove(record.digest)
        return Revoked()

    def _live_token(self, token: str) -> TokenRecord:
        record = self._ctx.store.tokens.get(digest(token)) if token else None
        if record is None:
            raise Unauthorized("the token is not valid", field="_token")
        self._refuse_expired(record)
        return record

    def as_user(self, username: str) -> Viewer:
        """The viewer of a user the host application has authenticated by its own means."""
        return Viewer(user=self._ctx.user_named(username))

    def list(
        self,
        *,
        page: int | str | None = None,
        per_page: int | str | None = None,
        total: bool = False,
    ) -> Page[UserProfile]:
        """Users ordered by username, regardless of case; with ``total``, how many there are."""
        request = self._ctx.page(page, per_page)
        users = self._users.find(request.offset, request.probe_limit)
        return page_of(
            request,
            users,
            self._profiles,
            total=self._users.count() if total else None,
        )

    def get(self, username: str) -> UserProfile:
        """A user's public profile."""
        return self._profile(self._ctx.user_named(username))

    def _profile(self, user: UserRecord) -> UserProfile:
        """``user``'s profile, with the kept copy of its avatar."""
        return self._profiles([user])[0]

    def _profiles(self, users: Sequence[UserRecord]) -> builtins.list[UserProfile]:
        """The profiles of ``users``, their avatars' kept copies looked up with one read."""
        kept = self._ctx.kept_pictures(pair for user in users for pair in user_shown(user))
        return [self._ctx.presenter.profile(user, kept) for user in users]

    def update(
        self, username: str, user: Mapping[str, Any] | str, *, viewer: Viewer
    ) -> UserProfile:
        """Apply ``name``, ``bio``, ``location``, ``website`` and ``avatar`` of ``user``.

        ``username``, when sent, must be the path's; ``email`` and ``password`` are ignored,
        as are the other members of a profile as read (``members``); any other is refused.
        Only the user may update the profile.
        """
        caller = self._ctx.require_user(viewer)
        target = self._ctx.user_named(username)
        if caller.id != target.id:
            raise Forbidden("only the user may update this profile")
        data = decode_object(user, "user")
        refuse_unknown(data, USER_MEMBERS, "user", what="a user", hints=USER_WRITE_MEMBERS)
        sent = Members(data, "user").string("username")
        if sent is not None and username_key(sent) != username_key(target.username):
            raise InvalidParameter(
                "user.username must be the username of the path", field="user.username"
            )
        profile = self._profile_members(data, path="user")
        at = self._ctx.now()
        changes = user_changes(target, {**profile, "updated": at})
        events = profile_events(self._ctx.presenter, target, changes, at)
        with wording(name=username):
            self._users.update(target.id, changes, events=events)
        self._ctx.want_pictures(lambda: pictures([profile.get("avatar")]))
        return self._profile(self._ctx.user_named(username))

    def _profile_members(self, data: Mapping[str, Any], *, path: str) -> dict[str, str]:
        """The profile members sent in ``data``, checked; ``path`` prefixes their field names."""
        read = read_declared(PROFILE_WRITE, Members(data, path), self._ctx.settings.limits)
        return {key: value for key, value in read.items() if value is not None}

    def _refuse_expired(self, token: TokenRecord) -> None:
        """``Unauthorized`` for a token whose ``expires`` has come, on the service's clock."""
        if token.expires <= self._ctx.now():
            raise Unauthorized("the token has expired; authenticate again", field="_token")
