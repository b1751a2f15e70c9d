"""The ``storycore`` command (docs/decisions.md#command-line).

    storycore [--db URL] serve [--host H] [--port P] [--web-url URL] [--site-name NAME]
                                [--demo] [--workers N] [--log-level LEVEL] [--log-format text|json]
                                [--cors-origin ORIGIN]... [--delegation-provider URL]...
                                [--resolve offline|online] [--resolve-allow-host HOST]...
    storycore [--db URL] users create USERNAME [--password P | --password-file F] [--name N]
                                [--email E] [--plan free|enterprise] [--editor] [--can-feature]
    storycore [--db URL] users list | users set-password USERNAME [--password P | ...]
    storycore [--db URL] apps create NAME [--delegation]
    storycore [--db URL] apps grant NAME | apps revoke NAME      # the delegation grant
    storycore [--db URL] apps list | apps rotate-key NAME         # the new key printed last
    storycore [--db URL] demo
    storycore [--db URL] export [FILE]
    storycore [--db URL] import [--replace] FILE
    storycore [--db URL] import --format storify [--replace] FILE...   # Storify v1 story JSON
    storycore [--db URL] reindex                         # recompute every derived member
    storycore [--db URL] publish-due                     # publish the due stories once
    storycore [--db URL] webhooks add URL [--event TYPE]... [--private]
                                  [--resolve-allow-host HOST]...
    storycore [--db URL] webhooks list | webhooks key
    storycore [--db URL] webhooks remove ID | webhooks deliveries ID [--page N]
    storycore [--db URL] webhooks redeliver ID EVENT
    storycore [--db URL] deliver [--resolve-allow-host HOST]...   # what is due, once

``--db`` may also come from ``STORYCORE_DB``; the default is ``sqlite:///storycore.db``. It may
be given after the command too (``storycore serve --db URL``), where it wins (docs/decisions.md).
``--web-url`` and ``--site-name`` may also come from ``STORYCORE_WEB_URL`` and
``STORYCORE_SITE_NAME``; the webhook key from ``STORYCORE_WEBHOOK_KEY`` (a SQLite file keeps
its own beside it, ``docs/webhooks.md``). A password comes from ``--password``, ``--password-file``,
``STORYCORE_PASSWORD``, or is asked for on a terminal.
Wrong arguments (a wrong ``--web-url`` too) print one line and exit 2; refused operations, an
address that cannot be listened on and even a bug print one line on standard error and exit
1, never a traceback (docs/decisions.md#command-line). An output pipe closed by its reader
(``storycore export | head -1``) ends the command quietly, with the status 141 a shell gives a
command stopped by ``SIGPIPE``.
"""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import nullcontext, suppress
from typing import Any, NoReturn

from storycore import __version__
from storycore.adapters import open_store
from storycore.errors import (
    ConfigurationError,
    InvalidParameter,
    MissingDependencyError,
    StorycoreError,
)
from storycore.model.shapes import WebhookShape
from storycore.model.visibility import OPERATOR
from storycore.rules.origins import origin_of
from storycore.rules.sites import checked_site_name, checked_web_url
from storycore.rules.webhook_secrets import new_key
from storycore.service import Service
from storycore.usecases.reindex import reindex

from ._progress import Meter, import_progress
from .compose import DEFAULT_DB, compose
from .demo import load_demo
from .transfer import import_lines, write_export

__all__ = ["main"]

_MAX_PORT = 65535
_MAX_WORKERS = 256
#: The exit status of a command whose output pipe its reader closed: a shell's for ``SIGPIPE``.
_CLOSED_PIPE_STATUS = 128 + 13


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def _global_options(parser: argparse.ArgumentParser, *, default: Any) -> None:
    """The options every command takes, before or after its name: the one list of them."""
    parser.add_argument(
        "--db",
        default=default,
        metavar="URL",
        help="storage URL (default: $STORYCORE_DB or sqlite:///storycore.db)",
    )


class _Command(_Parser):
    """A command's parser (``serve``, ``users``, ``users create``, ...): it takes the global
    options too, so that ``storycore serve --db URL`` works; they default to nothing here, so
    that one given after the command replaces one given before it and none keeps it
    (docs/decisions.md)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        _global_options(self, default=argparse.SUPPRESS)


#: ``serve --log-level``: uvicorn's levels.
_LOG_LEVELS = ("critical", "error", "warning", "info", "debug")
#: ``serve --log-format``: uvicorn's text lines, or one JSON object a line (``_logs``).
_LOG_FORMATS = ("text", "json")
#: ``import --format``: an export of storycore, or Storify v1 story JSON
#: (``storycore.usecases.storify``).
_IMPORT_FORMATS = ("export", "storify")
#: ``serve --resolve``: ``Settings.resolver`` (docs/resolver.md).
_RESOLVERS = ("offline", "online")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="storycore", description="An embeddable story-publishing service.")
    parser.add_argument("--version", action="version", version=f"storycore {__version__}")
    _global_options(parser, default=os.environ.get("STORYCORE_DB", DEFAULT_DB))
    commands = parser.add_subparsers(
        dest="command", parser_class=_Command, metavar="COMMAND", help="what to do"
    )  # none: the help

    serve = commands.add_parser("serve", help="run the HTTP service")
    serve.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)"
    )
    serve.add_argument("--port", type=_port, default=8000, help="0 picks a free port")
    serve.add_argument(
        "--web-url",
        type=_web_url,
        help="public address, an absolute http(s) URL, e.g. https://stories.example.org"
        " (default: $STORYCORE_WEB_URL, else each request's own scheme, host and prefix)",
    )
    serve.add_argument(
        "--site-name",
        type=_site_name,
        help="the site's name in pages and feeds (default: $STORYCORE_SITE_NAME, else the"
        " public address's host)",
    )
    serve.add_argument("--demo", action="store_true", help="load the demo data into an empty store")
    serve.add_argument(
        "--workers",
        type=_workers,
        help="server processes sharing the socket (default: the CPU cores; 1 for a store in"
        " memory)",
    )
    serve.add_argument(
        "--log-level",
        choices=_LOG_LEVELS,
        default="warning",
        help="what is logged (standard error); info adds an access line a request, on standard"
        " output as uvicorn writes it",
    )
    serve.add_argument(
        "--log-format",
        choices=_LOG_FORMATS,
        default="text",
        help="text (default), or json: every log line one JSON object (time, level, logger,"
        " message; an access line's client, method, path and status)",
    )
    serve.add_argument(
        "--cors-origin",
        action="append",
        type=_origin,
        default=None,
        help="an origin whose pages may call the API, e.g. https://example.org (repeatable;"
        " default: $STORYCORE_CORS_ORIGINS or any origin, *)",
    )
    serve.add_argument(
        "--delegation-provider",
        action="append",
        default=None,
        help="allowlisted identity provider address (repeatable)",
    )
    serve.add_argument(
        "--resolve",
        choices=_RESOLVERS,
        default=None,
        help="offline (default: $STORYCORE_RESOLVER or offline) types a permalink from its"
        " address; online also fetches and keeps what it points to (docs/resolver.md)",
    )
    serve.add_argument(
        "--resolve-allow-host",
        action="append",
        type=_host,
        default=None,
        help="a host the online resolver fetches from even on a private address, e.g. an"
        " intranet's (repeatable; default: $STORYCORE_RESOLVER_ALLOWED_HOSTS)",
    )

    users = commands.add_parser("users", help="manage users").add_subparsers(
        dest="action", required=True, parser_class=_Command, metavar="ACTION", help="what to do"
    )
    create_user = users.add_parser("create", help="make a user")
    create_user.add_argument("username", help="the new user's username")
    _password_options(create_user)
    create_user.add_argument("--name", default="", help="display name (default: none)")
    create_user.add_argument("--email", default="", help="email address (default: none)")
    create_user.add_argument(
        "--plan",
        choices=("free", "enterprise"),
        default="free",
        help="free (default), or enterprise: may style embeds with its own stylesheet",
    )
    create_user.add_argument(
        "--editor", action="store_true", help="may act on every user's stories, private ones too"
    )
    create_user.add_argument(
        "--can-feature", action="store_true", help="may feature stories and take them off"
    )
    users.add_parser("list", help="print every user: username and name")
    set_password = users.add_parser("set-password", help="give a user a new password")
    set_password.add_argument("username", help="whose password")
    _password_options(set_password)

    apps = commands.add_parser("apps", help="manage applications").add_subparsers(
        dest="action", required=True, parser_class=_Command, metavar="ACTION", help="what to do"
    )
    create_app = apps.add_parser("create", help="make an application; prints its api key last")
    create_app.add_argument("name", help="the new application's name")
    create_app.add_argument(
        "--delegation",
        action="store_true",
        help="may create stories for users of allowlisted identity providers",
    )
    for verb, text in (("grant", "grant"), ("revoke", "revoke")):
        change = apps.add_parser(verb, help=f"{text} an application's delegation grant")
        change.add_argument("name", help="the application's name")
    apps.add_parser("list", help="print every application: name, delegation grant, creation")
    rotate = apps.add_parser("rotate-key", help="a new api key, printed last; the old one stops")
    rotate.add_argument("name", help="the application's name")

    commands.add_parser("demo", help="load the demo data set")
    export = commands.add_parser("export", help="write users, apps and stories as JSON Lines")
    export.add_argument("file", nargs="?", help="output file (default: standard output)")
    load = commands.add_parser("import", help="read an export, or Storify stories, into the store")
    load.add_argument(
        "file", nargs="+", help="the export to read (one), or Storify files; - reads standard input"
    )
    load.add_argument(
        "--format",
        choices=_IMPORT_FORMATS,
        default="export",
        help="export (default): JSON Lines as export writes them; storify: Storify v1 story JSON"
        " (a story, its {content, code} envelope, or an array of either; docs/storify.md)",
    )
    load.add_argument(
        "--replace", action="store_true", help="records whose id is stored replace the stored ones"
    )
    commands.add_parser(
        "reindex", help="recompute the search words, tags and other derived data of every record"
    )
    commands.add_parser(
        "publish-due",
        help="publish the scheduled stories whose time has come, once, and exit (serve does it"
        " every second; this is for cron where another server serves)",
    )
    hooks = commands.add_parser("webhooks", help="keep webhooks (docs/webhooks.md)")
    hook = hooks.add_subparsers(
        dest="action",
        required=True,
        metavar="ACTION",
        parser_class=_Command,
        help="add, list, remove, deliveries, redeliver or key",
    )
    add = hook.add_parser("add", help="register an endpoint; prints its signing secret last")
    add.add_argument("url", help="where events are POSTed (http or https)")
    add.add_argument(
        "--event",
        action="append",
        dest="events",
        metavar="TYPE",
        help="an event type to send (repeat it); default: every type (*)",
    )
    add.add_argument(
        "--private",
        action="store_true",
        help="tell it of private and working stories in full (default: their summary only)",
    )
    _allow_host_option(add, "a host the webhook's address may name on a private address")
    hook.add_parser("list", help="print every webhook: id, state, events, address")
    remove = hook.add_parser("remove", help="remove a webhook and its deliveries")
    remove.add_argument("id", help="the webhook's id (wh_...), as list prints it")
    deliveries = hook.add_parser("deliveries", help="print a webhook's deliveries, newest first")
    deliveries.add_argument("id", help="the webhook's id (wh_...), as list prints it")
    deliveries.add_argument("--page", default="1", help="the page of 100 (default 1)")
    redeliver = hook.add_parser("redeliver", help="send an event to a webhook again, now")
    redeliver.add_argument("id", help="the webhook's id (wh_...), as list prints it")
    redeliver.add_argument("event", help="the event's id (evt_...), as deliveries prints it")
    hook.add_parser("key", help="print a new webhook key for STORYCORE_WEBHOOK_KEY")
    deliver = commands.add_parser(
        "deliver",
        help="send the webhook deliveries that are due, once, and exit (serve does it every"
        " second; this is for cron where no server serves)",
    )
    _allow_host_option(deliver, "a host webhooks may reach on a private address")
    return parser  # fmt: skip


def _allow_host_option(command: argparse.ArgumentParser, said: str) -> None:
    """``--resolve-allow-host`` of the webhook commands: what ``serve`` allows, for the
    addresses a webhook is registered for and those its deliveries reach (docs/resolver.md)."""
    command.add_argument(
        "--resolve-allow-host", action="append", default=[], type=_host, metavar="HOST",
        help=said,
    )  # fmt: skip


def _password_options(command: argparse.ArgumentParser) -> None:
    given = command.add_mutually_exclusive_group()
    given.add_argument("--password", help="the password (it shows in the process list)")
    given.add_argument("--password-file", help="a file whose first line is the password")


def _password(args: argparse.Namespace) -> str:
    """The password from ``--password``, ``--password-file``, ``STORYCORE_PASSWORD``, or asked
    for on a terminal (docs/decisions.md#command-line)."""
    if args.password is not None:
        return str(args.password)
    if args.password_file is not None:
        with open(args.password_file, encoding="utf-8") as file:
            return file.readline().rstrip("\r\n")
    if "STORYCORE_PASSWORD" in os.environ:
        return os.environ["STORYCORE_PASSWORD"]
    if not sys.stdin.isatty():
        raise ConfigurationError(
            "give the password with --password, --password-file or STORYCORE_PASSWORD"
        )
    password = getpass.getpass("password: ")
    if getpass.getpass("again: ") != password:
        raise ConfigurationError("the two passwords differ; nothing changed")
    return password


def _host(text: str) -> str:
    """A host name or IP address, as ``--resolve-allow-host`` takes it; anything else (a URL,
    white space, a ``,``, which separates hosts in the workers' environment) is a usage error."""
    host = text.strip()
    if not host or any(c.isspace() or c in ",/@?#" for c in host):
        raise argparse.ArgumentTypeError("must be a host name or an IP address, e.g. 10.0.0.5")
    return host


def _web_url(text: str) -> str:
    """``--web-url``: an absolute http(s) address (``storycore.rules.sites``); else a usage
    error."""
    try:
        return checked_web_url(text)
    except InvalidParameter as exc:
        raise argparse.ArgumentTypeError(exc.message) from None


def _site_name(text: str) -> str:
    """``--site-name``: a name that keeps the site-name rule; else a usage error."""
    try:
        return checked_site_name(text)
    except InvalidParameter as exc:
        raise argparse.ArgumentTypeError(exc.message) from None


#: What ``serve`` takes from the environment when its option is not given, and the check each
#: value passes as the option's would (a wrong one is a usage error too).
_SERVE_ENVIRONMENT = (
    ("web_url", "STORYCORE_WEB_URL", _web_url),
    ("site_name", "STORYCORE_SITE_NAME", _site_name),
)


def _from_environment(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Fill the options of ``serve`` that were not given from the environment, checked."""
    if args.command != "serve":
        return
    for member, variable, check in _SERVE_ENVIRONMENT:
        text = os.environ.get(variable, "")
        if getattr(args, member) is None and text:
            try:
                setattr(args, member, check(text))
            except argparse.ArgumentTypeError as exc:
                parser.error(f"{variable}: {exc}")


def _origin(text: str) -> str:
    """An origin as browsers send it, or ``*``; anything else is a usage error."""
    try:
        return text if text == "*" else origin_of(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _workers(text: str) -> int:
    """A number of worker processes; anything else is a usage error."""
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= _MAX_WORKERS:
        raise argparse.ArgumentTypeError(f"must be a whole number from 1 to {_MAX_WORKERS}")
    return int(text)


def _port(text: str) -> int:
    """A TCP port (0 picks a free one); anything else is a usage error, not a traceback."""
    if not (text.isascii() and text.isdigit()) or int(text) > _MAX_PORT:
        raise argparse.ArgumentTypeError(f"must be a whole number from 0 to {_MAX_PORT}")
    return int(text)


def _users(service: Service, args: argparse.Namespace) -> None:
    accounts = service.accounts
    if args.action == "create":
        profile = accounts.create_user(
            args.username, _password(args), name=args.name, email=args.email, plan=args.plan,
            editor=args.editor, can_feature=args.can_feature,
        )  # fmt: skip
        print(f"created user {profile.username}")
    elif args.action == "set-password":
        accounts.set_password(args.username, _password(args))
        print(f"set the password of {args.username}")
    else:
        page = 1
        while True:
            listed = accounts.list(page=page, per_page=100)
            for user in listed.items:
                print(f"{user.username}\t{user.name}")
            if not listed.has_next:
                return
            page += 1


def _run(args: argparse.Namespace) -> None:
    if args.command == "serve":
        from .serving import serve  # the server's modules load for serve alone

        serve(args)
        return
    if args.command == "reindex":  # on the store alone: a service would reindex it as it opens
        store = open_store(args.db)
        try:
            print(reindex(store))
        finally:
            store.close()
        return
    if args.command == "webhooks" and args.action == "key":
        print(new_key())
        return
    if args.command in ("webhooks", "deliver"):
        hosts = getattr(args, "resolve_allow_host", [])
        with compose(
            args.db,
            resolver_allowed_hosts=hosts,
            webhook_key=os.environ.get("STORYCORE_WEBHOOK_KEY") or None,
        ) as service:
            if args.command == "deliver":
                print(f"made {service.deliver()} delivery attempts")
            else:
                _webhooks(service, args)
        return
    with Service(open_store(args.db)) as service:
        if args.command == "users":
            _users(service, args)
        elif args.command == "apps" and args.action == "create":
            made = service.accounts.create_app(args.name, delegation=args.delegation)
            print(f"created application {made.app.name}; its api key (shown once):")
            print(made.api_key)
        elif args.command == "apps" and args.action == "list":
            for app in service.accounts.apps():
                grant = "delegation" if app.delegation else "-"
                print(f"{app.name}\t{grant}\t{app.created}")
        elif args.command == "apps" and args.action == "rotate-key":
            made = service.accounts.rotate_key(args.name)
            print(f"new api key of {made.app.name} (shown once; the old one no longer works):")
            print(made.api_key)
        elif args.command == "apps":
            app = service.accounts.set_delegation(args.name, args.action == "grant")
            print(f"{app.name}: delegation {'granted' if app.delegation else 'revoked'}")
        elif args.command == "demo":
            print(f"loaded {load_demo(service)} demo stories")
        elif args.command == "export":
            _export(service, args.file)
        elif args.command == "import":
            _import(service, args.file, replace=args.replace, storify=args.format == "storify")
        elif args.command == "publish-due":
            print(f"published {service.publish_due()} due stories")


def _webhooks(service: Service, args: argparse.Namespace) -> None:
    hooks = service.webhooks
    if args.action == "add":
        made = hooks.add(args.url, args.events, private=args.private, viewer=OPERATOR)
        print(f"created webhook {made.id} for {', '.join(made.events)}; its secret (shown once):")
        print(made.secret)
    elif args.action == "list":
        page = 1
        while True:
            listed = hooks.list(viewer=OPERATOR, page=page, per_page=100)
            for hook in listed.items:
                print(f"{hook.id}\t{_state(hook)}\t{','.join(hook.events)}\t{hook.url}")
            if not listed.has_next:
                return
            page += 1
    elif args.action == "remove":
        print(f"removed webhook {hooks.remove(args.id, viewer=OPERATOR).id}")
    elif args.action == "deliveries":
        shown = hooks.deliveries(args.id, viewer=OPERATOR, page=args.page, per_page=100)
        for d in shown.items:
            status = "-" if d.last_status is None else str(d.last_status)
            print(f"{d.event}\t{d.type}\t{d.state}\t{d.attempts}\t{status}"
                  f"\t{d.next_attempt or '-'}\t{d.last_error or ''}")  # fmt: skip
    else:
        again = hooks.redeliver(args.id, args.event, viewer=OPERATOR)
        print(f"{again.event} to {args.id}: due again at {again.next_attempt}")


def _state(hook: WebhookShape) -> str:
    if hook.disabled is not None:
        return f"disabled since {hook.disabled}"
    if hook.failing is not None:
        return f"failing since {hook.failing}"
    return "active"


def _export(service: Service, path: str | None) -> None:
    meter = Meter(sys.stderr)
    target: Any = open(path, "wb") if path else nullcontext(sys.stdout.buffer)  # noqa: SIM115
    try:
        with target as out:
            count = write_export(
                service.store, out, lambda done: meter.show("exporting", done, None, " records")
            )
            out.flush()  # a closed pipe shows before the count is reported
    finally:
        meter.end()
    print(f"exported {count} records", file=sys.stderr)


def _import(service: Service, paths: Sequence[str], *, replace: bool, storify: bool) -> None:
    if not storify and len(paths) > 1:
        raise ValueError("an export is one FILE; --format storify reads several")
    path = paths[0]
    meter = Meter(sys.stderr)
    try:
        if storify:
            progress = import_progress(meter, None, None)
            documents = _documents(paths)
            count = service.imports.load_storify(documents, replace=replace, progress=progress)
        elif path == "-":  # a pipe: read once, as it comes (the import spools what it checks)
            progress = import_progress(meter, None, None)
            count = import_lines(service, sys.stdin.buffer, replace=replace, progress=progress)
        else:
            with open(path, "rb") as lines:
                progress = import_progress(meter, lines, os.fstat(lines.fileno()).st_size)
                count = import_lines(service, lines, replace=replace, progress=progress)
    finally:
        meter.end()
    print(f"imported {count} records", file=sys.stderr)


def _documents(paths: Sequence[str]) -> Iterator[tuple[str, bytes]]:
    """Each file's name and content, read when the import asks; ``-`` is standard input."""
    for path in paths:
        if path == "-":
            yield path, sys.stdin.buffer.read()
        else:
            with open(path, "rb") as file:
                yield path, file.read()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit status."""
    try:
        try:
            parser = _parser()
            args = parser.parse_args(argv)  # ``--help`` and usage errors exit from here
            _from_environment(parser, args)
            if args.command is None:  # a bare ``storycore``
                parser.print_help()
            else:
                _run(args)
        finally:
            sys.stdout.flush()  # a closed pipe shows here, not in Python's own flush at exit
    except BrokenPipeError:  # the reader had what it wanted (``export | head -1``): no word
        _discard_output()
        return _CLOSED_PIPE_STATUS
    except (StorycoreError, ConfigurationError, MissingDependencyError, ValueError, OSError) as exc:
        _fail(getattr(exc, "message", None) or str(exc) or type(exc).__name__)
        return 1
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # noqa: BLE001 - a bug is one line too (docs/decisions.md#command-line)
        _fail(f"internal error ({type(exc).__name__}): {exc}")
        return 1
    return 0


def _fail(message: str) -> None:
    """Print the first line of ``message`` on standard error, as the command's one line."""
    lines = message.splitlines() or [""]
    with suppress(OSError, ValueError):  # standard error closed too: nothing left to tell
        print(f"storycore: {lines[0]}", file=sys.stderr, flush=True)


def _discard_output() -> None:
    """Point standard output at the null device, so that what Python still holds for the closed
    pipe is dropped at exit instead of raising ``BrokenPipeError`` once more ("Exception
    ignored ..."), the cure the Python documentation gives.
    """
    with suppress(OSError, ValueError):  # no file descriptor (output captured in-process)
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)


if __name__ == "__main__":
    sys.exit(main())
