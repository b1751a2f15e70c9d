"""The command line's parsers, the types of its options, and the settings its options and the
environment give every command's service (``composition``: one for all of them,
docs/decisions.md#command-line)."""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from dataclasses import replace
from typing import Any, NoReturn

from storycore.errors import ConfigurationError, InvalidParameter
from storycore.rules.origins import origin_of
from storycore.rules.sites import checked_site_name, checked_web_url

from .compose import VARIABLES, Composition

__all__ = [
    "CommandParser",
    "Parser",
    "UsageError",
    "allow_host_option",
    "composition",
    "global_options",
    "host",
    "origin",
    "password",
    "password_options",
    "port",
    "site_name",
    "web_url",
    "workers",
]

_MAX_PORT = 65535
_MAX_WORKERS = 256


class UsageError(Exception):
    """A wrong value the command was given, found after parsing (a variable of the
    environment): the command's usage line and exit status 2, as a wrong option's."""


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def global_options(parser: argparse.ArgumentParser, *, default: Any) -> None:
    """The options every command takes, before or after its name: the one list of them."""
    parser.add_argument(
        "--db",
        default=default,
        metavar="URL",
        help="storage URL (default: $STORYCORE_DB or sqlite:///storycore.db)",
    )


class CommandParser(Parser):
    """A command's parser (``serve``, ``users``, ``users create``, ...): it takes the global
    options too, so that ``storycore serve --db URL`` works; they default to nothing here, so
    that one given after the command replaces one given before it and none keeps it
    (docs/decisions.md)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        global_options(self, default=argparse.SUPPRESS)


def allow_host_option(command: argparse.ArgumentParser, said: str) -> None:
    """``--resolve-allow-host``: a host the address rules let the fetcher and the webhook
    sender reach on a private address (docs/resolver.md); the option replaces
    ``STORYCORE_RESOLVER_ALLOWED_HOSTS``."""
    command.add_argument(
        "--resolve-allow-host", action="append", default=None, type=host, metavar="HOST",
        help=f"{said} (repeatable; default: $STORYCORE_RESOLVER_ALLOWED_HOSTS, comma-separated)",
    )  # fmt: skip


def password_options(command: argparse.ArgumentParser) -> None:
    given = command.add_mutually_exclusive_group()
    given.add_argument("--password", help="the password (it shows in the process list)")
    given.add_argument("--password-file", help="a file whose first line is the password")


def password(args: argparse.Namespace) -> str:
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
    typed = getpass.getpass("password: ")
    if getpass.getpass("again: ") != typed:
        raise ConfigurationError("the two passwords differ; nothing changed")
    return typed


def host(text: str) -> str:
    """A host name or IP address, as ``--resolve-allow-host`` takes it; anything else (a URL,
    white space, a ``,``, which separates hosts in the workers' environment) is a usage error."""
    found = text.strip()
    if not found or any(c.isspace() or c in ",/@?#" for c in found):
        raise argparse.ArgumentTypeError("must be a host name or an IP address, e.g. 10.0.0.5")
    return found


def web_url(text: str) -> str:
    """``--web-url``: an absolute http(s) address (``storycore.rules.sites``); else a usage
    error."""
    try:
        return checked_web_url(text)
    except InvalidParameter as exc:
        raise argparse.ArgumentTypeError(exc.message) from None


def site_name(text: str) -> str:
    """``--site-name``: a name that keeps the site-name rule; else a usage error."""
    try:
        return checked_site_name(text)
    except InvalidParameter as exc:
        raise argparse.ArgumentTypeError(exc.message) from None


def origin(text: str) -> str:
    """An origin as browsers send it, or ``*``; anything else is a usage error."""
    try:
        return text if text == "*" else origin_of(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def workers(text: str) -> int:
    """A number of worker processes; anything else is a usage error."""
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= _MAX_WORKERS:
        raise argparse.ArgumentTypeError(f"must be a whole number from 1 to {_MAX_WORKERS}")
    return int(text)


def port(text: str) -> int:
    """A TCP port (0 picks a free one); anything else is a usage error, not a traceback."""
    if not (text.isascii() and text.isdigit()) or int(text) > _MAX_PORT:
        raise argparse.ArgumentTypeError(f"must be a whole number from 0 to {_MAX_PORT}")
    return int(text)


#: The options that replace a setting of the environment, by ``Composition`` member: the
#: option's name in ``argparse.Namespace`` and its type (a repeatable option gives a list).
_OPTIONS = {
    "web_url": "web_url",
    "site_name": "site_name",
    "providers": "delegation_provider",
    "cors_origins": "cors_origin",
    "resolver": "resolve",
    "resolver_allowed_hosts": "resolve_allow_host",
    "keep_media": "keep_media",
}
#: The settings of the environment checked as their option's value is (a wrong one is a
#: usage error naming the variable).
_CHECKED = {"web_url": web_url, "site_name": site_name}


def composition(args: argparse.Namespace) -> Composition:
    """The settings of the command's service: the environment's (``Composition``), each
    replaced by its option when the command takes it and it is given. The same for every
    command, so an event reports the same addresses whichever command wrote it."""
    found = Composition.from_environment(os.environ)
    for member, check in _CHECKED.items():
        text = getattr(found, member)
        if text is not None:
            try:
                check(text)
            except argparse.ArgumentTypeError as exc:
                raise UsageError(f"{VARIABLES[member]}: {exc}") from None
    given: dict[str, Any] = {"db": args.db}
    for member, option in _OPTIONS.items():
        value = getattr(args, option, None)
        if value is not None:
            given[member] = tuple(v.strip() for v in value) if isinstance(value, list) else value
    if any("," in provider for provider in given.get("providers", ())):
        raise ConfigurationError(  # the workers read them comma-separated
            "--delegation-provider: a provider URL may not hold ',', which separates them in"
            " STORYCORE_DELEGATION_PROVIDERS"
        )
    return replace(found, **given)
