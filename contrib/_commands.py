"""The command table: every ``storycore`` command in one row (its words, its help, its options
and what runs it), from which the parser is built and the command dispatched
(docs/decisions.md#command-line).

A command that works on a service (most) is given one composed from the settings every command
reads the same way (``_options.composition``: ``STORYCORE_*``, replaced by the options the
command takes), so that an event reports the same addresses whichever command wrote it.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from dataclasses import dataclass

from storycore import __version__
from storycore.service import Service

from . import _account_commands as accounts
from . import _media_commands as media
from . import _store_commands as stores
from . import _webhook_commands as hooks
from ._options import (
    CommandParser,
    Parser,
    allow_host_option,
    composition,
    global_options,
    origin,
    password_options,
    port,
    site_name,
    web_url,
    workers,
)
from .compose import DEFAULT_DB

__all__ = ["COMMANDS", "Command", "parser"]

Run = Callable[[argparse.Namespace], None]

#: ``serve --log-level``: uvicorn's levels.
_LOG_LEVELS = ("critical", "error", "warning", "info", "debug")
#: ``serve --log-format``: uvicorn's text lines, or one JSON object a line (``_logs``).
_LOG_FORMATS = ("text", "json")
#: ``serve --resolve``: ``Settings.resolver`` (docs/resolver.md).
_RESOLVERS = ("offline", "online")
#: ``import --format``: an export of storycore, or Storify v1 story JSON
#: (``storycore.usecases.storify``).
_IMPORT_FORMATS = ("export", "storify")


def _no_options(command: argparse.ArgumentParser) -> None:
    """A command that takes nothing but the global options."""


@dataclass(frozen=True, slots=True)
class Command:
    """One row: ``words`` (``"publish-due"``, ``"users create"``: a group, then its action),
    the ``help`` line, the ``options`` it declares on its parser, and ``run``."""

    words: str
    help: str
    run: Run
    options: Callable[[argparse.ArgumentParser], None] = _no_options


def on_service(act: Callable[[Service, argparse.Namespace], None]) -> Run:
    """``act`` run on the service composed for the command (``composition``), closed after."""

    def run(args: argparse.Namespace) -> None:
        with composition(args).service() as service:
            act(service, args)

    return run


def _serve(args: argparse.Namespace) -> None:
    from .serving import serve  # the server's modules load for serve alone

    serve(args)


def _serve_options(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)"
    )
    command.add_argument("--port", type=port, default=8000, help="0 picks a free port")
    command.add_argument(
        "--web-url",
        type=web_url,
        help="public address, an absolute http(s) URL, e.g. https://stories.example.org"
        " (default: $STORYCORE_WEB_URL, else each request's own scheme, host and prefix)",
    )
    command.add_argument(
        "--site-name",
        type=site_name,
        help="the site's name in pages and feeds (default: $STORYCORE_SITE_NAME, else the"
        " demo's with --demo, else the public address's host)",
    )
    command.add_argument(
        "--demo", action="store_true", help="load the demo data into an empty store"
    )
    command.add_argument(
        "--no-editor",
        dest="editor",
        action="store_false",
        help="serve no editor: no sign-in, desk or editing pages (default: served, unless"
        " $STORYCORE_EDITOR is off)",
    )
    command.add_argument(
        "--workers",
        type=workers,
        help="server processes sharing the socket (default: the CPU cores; 1 for a store in"
        " memory)",
    )
    command.add_argument(
        "--log-level",
        choices=_LOG_LEVELS,
        default="warning",
        help="what is logged (standard error); info adds an access line a request, on standard"
        " output as uvicorn writes it",
    )
    command.add_argument(
        "--log-format",
        choices=_LOG_FORMATS,
        default="text",
        help="text (default), or json: every log line one JSON object (time, level, logger,"
        " message; an access line's client, method, path and status)",
    )
    command.add_argument(
        "--cors-origin",
        action="append",
        type=origin,
        default=None,
        help="an origin whose pages may call the API, e.g. https://example.org (repeatable;"
        " default: $STORYCORE_CORS_ORIGINS or any origin, *)",
    )
    command.add_argument(
        "--delegation-provider",
        action="append",
        default=None,
        help="allowlisted identity provider address (repeatable; default:"
        " $STORYCORE_DELEGATION_PROVIDERS)",
    )
    command.add_argument(
        "--resolve",
        choices=_RESOLVERS,
        default=None,
        help="offline (default: $STORYCORE_RESOLVER or offline) types a permalink from its"
        " address; online also fetches and keeps what it points to (docs/resolver.md)",
    )
    allow_host_option(
        command,
        "a host the online resolver fetches from and webhooks may reach even on a private"
        " address, e.g. an intranet's",
    )
    command.add_argument(
        "--keep-media",
        choices=("on", "off"),
        default=None,
        help="whether storycore keeps its own copy of the pictures stories show (default:"
        " $STORYCORE_KEEP_MEDIA, else on with --resolve online; docs/media.md)",
    )


def _named(what: str) -> Callable[[argparse.ArgumentParser], None]:
    def options(command: argparse.ArgumentParser) -> None:
        command.add_argument("name", help=what)

    return options


def _create_user_options(command: argparse.ArgumentParser) -> None:
    command.add_argument("username", help="the new user's username")
    password_options(command)
    command.add_argument("--name", default="", help="display name (default: none)")
    command.add_argument("--email", default="", help="email address (default: none)")
    command.add_argument(
        "--plan",
        choices=("free", "enterprise"),
        default="free",
        help="free (default), or enterprise: may style embeds with its own stylesheet",
    )
    command.add_argument(
        "--editor", action="store_true", help="may act on every user's stories, private ones too"
    )
    command.add_argument(
        "--can-feature", action="store_true", help="may feature stories and take them off"
    )


def _create_app_options(command: argparse.ArgumentParser) -> None:
    command.add_argument("name", help="the new application's name")
    command.add_argument(
        "--delegation",
        action="store_true",
        help="may create stories for users of allowlisted identity providers",
    )


def _set_password_options(command: argparse.ArgumentParser) -> None:
    command.add_argument("username", help="whose password")
    password_options(command)


def _add_webhook_options(command: argparse.ArgumentParser) -> None:
    command.add_argument("url", help="where events are POSTed (http or https)")
    command.add_argument(
        "--event",
        action="append",
        dest="events",
        metavar="TYPE",
        help="an event type to send (repeat it); default: every type (*)",
    )
    command.add_argument(
        "--private",
        action="store_true",
        help="tell it of private and working stories in full (default: their summary only)",
    )
    allow_host_option(command, "a host the webhook's address may name on a private address")


def _webhook_options(command: argparse.ArgumentParser) -> None:
    command.add_argument("id", help="the webhook's id (wh_...), as list prints it")


def _deliveries_options(command: argparse.ArgumentParser) -> None:
    _webhook_options(command)
    command.add_argument("--page", default="1", help="the page of 100 (default 1)")


def _redeliver_options(command: argparse.ArgumentParser) -> None:
    _webhook_options(command)
    command.add_argument("event", help="the event's id (evt_...), as deliveries prints it")


def _export_options(command: argparse.ArgumentParser) -> None:
    command.add_argument("file", nargs="?", help="output file (default: standard output)")


def _import_options(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "file", nargs="+", help="the export to read (one), or Storify files; - reads standard input"
    )
    command.add_argument(
        "--format",
        choices=_IMPORT_FORMATS,
        default="export",
        help="export (default): JSON Lines as export writes them; storify: Storify v1 story JSON"
        " (a story, its {content, code} envelope, or an array of either; docs/storify.md)",
    )
    command.add_argument(
        "--replace", action="store_true", help="records whose id is stored replace the stored ones"
    )


def _deliver_options(command: argparse.ArgumentParser) -> None:
    allow_host_option(command, "a host webhooks may reach on a private address")


def _keep_media_options(command: argparse.ArgumentParser) -> None:
    allow_host_option(command, "a host pictures are fetched from even on a private address")


#: The groups of commands (``storycore users ACTION``): each one's help, and its actions'.
GROUPS = {
    "users": ("manage users", "what to do"),
    "apps": ("manage applications", "what to do"),
    "webhooks": (
        "keep webhooks (docs/webhooks.md)",
        "add, list, remove, deliveries, redeliver or key",
    ),
}

#: Every command, in the order ``storycore --help`` lists them.
COMMANDS = (
    Command("serve", "run the HTTP service", _serve, _serve_options),
    Command(
        "users create", "make a user", on_service(accounts.create_user),
        _create_user_options,
    ),
    Command("users list", "print every user: username and name", on_service(accounts.list_users)),
    Command(
        "users set-password", "give a user a new password", on_service(accounts.set_password),
        _set_password_options,
    ),
    Command(
        "apps create", "make an application; prints its api key last",
        on_service(accounts.create_app), _create_app_options,
    ),
    Command(
        "apps grant", "grant an application's delegation grant",
        on_service(accounts.set_delegation), _named("the application's name"),
    ),
    Command(
        "apps revoke", "revoke an application's delegation grant",
        on_service(accounts.set_delegation), _named("the application's name"),
    ),
    Command(
        "apps list", "print every application: name, delegation grant, creation",
        on_service(accounts.list_apps),
    ),
    Command(
        "apps rotate-key", "a new api key, printed last; the old one stops",
        on_service(accounts.rotate_key), _named("the application's name"),
    ),
    Command("demo", "load the demo data set", on_service(stores.demo)),
    Command(
        "export", "write users, apps, stories and kept pictures as JSON Lines",
        on_service(stores.export), _export_options,
    ),
    Command(
        "import", "read an export, or Storify stories, into the store", on_service(stores.load),
        _import_options,
    ),
    Command(
        "reindex", "recompute the search words, tags and other derived data of every record",
        stores.recompute,
    ),
    Command(
        "publish-due",
        "publish the scheduled stories whose time has come, once, and exit (serve does it"
        " every second; this is for cron where another server serves)",
        on_service(stores.publish_due),
    ),
    Command(
        "webhooks add", "register an endpoint; prints its signing secret last",
        on_service(hooks.add), _add_webhook_options,
    ),
    Command(
        "webhooks list", "print every webhook: id, state, events, address",
        on_service(hooks.list_webhooks),
    ),
    Command(
        "webhooks remove", "remove a webhook and its deliveries", on_service(hooks.remove),
        _webhook_options,
    ),
    Command(
        "webhooks deliveries", "print a webhook's deliveries, newest first",
        on_service(hooks.deliveries), _deliveries_options,
    ),
    Command(
        "webhooks redeliver", "send an event to a webhook again, now",
        on_service(hooks.redeliver), _redeliver_options,
    ),
    Command("webhooks key", "print a new webhook key for STORYCORE_WEBHOOK_KEY", hooks.key),
    Command(
        "deliver",
        "send the webhook deliveries that are due, once, and exit (serve does it every"
        " second; this is for cron where no server serves)",
        on_service(hooks.deliver), _deliver_options,
    ),
    Command(
        "keep-media",
        "keep every picture stories and users show that is not kept yet, failed ones too,"
        " and exit (keeps whatever $STORYCORE_KEEP_MEDIA says; docs/media.md)",
        media.keep_media, _keep_media_options,
    ),
    Command(
        "prune-media",
        "delete the kept pictures no story, revision or user has shown for 7 days, and exit"
        " (a serve that keeps pictures does it daily)",
        media.prune_media,
    ),
)  # fmt: skip


def parser() -> argparse.ArgumentParser:
    """The parser of ``storycore``, built from ``COMMANDS``: each command's parser sets
    ``run``, what runs it."""
    top = Parser(prog="storycore", description="An embeddable story-publishing service.")
    top.add_argument("--version", action="version", version=f"storycore {__version__}")
    global_options(top, default=os.environ.get("STORYCORE_DB", DEFAULT_DB))
    commands = top.add_subparsers(
        dest="command", parser_class=CommandParser, metavar="COMMAND", help="what to do"
    )  # none: the help
    groups: dict[str, argparse._SubParsersAction[argparse.ArgumentParser]] = {}
    for row in COMMANDS:
        name, _, action = row.words.partition(" ")
        command: argparse.ArgumentParser
        if not action:
            command = commands.add_parser(name, help=row.help)
        else:
            if name not in groups:
                said, actions = GROUPS[name]
                groups[name] = commands.add_parser(name, help=said).add_subparsers(
                    dest="action", required=True, parser_class=CommandParser,
                    metavar="ACTION", help=actions,
                )  # fmt: skip
            command = groups[name].add_parser(action, help=row.help)
        row.options(command)
        command.set_defaults(run=row.run)
    return top
