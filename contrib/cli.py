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
    storycore [--db URL] keep-media [--resolve-allow-host HOST]...  # every picture not kept
    storycore [--db URL] prune-media                     # pictures unshown for 7 days go

``--db`` may also come from ``STORYCORE_DB``; the default is ``sqlite:///storycore.db``. It may
be given after the command too (``storycore serve --db URL``), where it wins (docs/decisions.md).
Every command that builds a service builds it one way (``storycore.contrib.compose``), from
the same settings: the ``STORYCORE_*`` variables (``STORYCORE_WEB_URL``,
``STORYCORE_SITE_NAME``, ``STORYCORE_RESOLVER_ALLOWED_HOSTS``, ``STORYCORE_WEBHOOK_KEY``, ...;
a SQLite file keeps its webhook key beside it, ``docs/webhooks.md``), each replaced by its
option where the command takes one. The commands are one table (``_commands.COMMANDS``).
A password comes from ``--password``, ``--password-file``, ``STORYCORE_PASSWORD``, or is asked
for on a terminal.
Wrong arguments (a wrong ``--web-url`` too) print one line and exit 2; refused operations, an
address that cannot be listened on and even a bug print one line on standard error and exit
1, never a traceback (docs/decisions.md#command-line). An output pipe closed by its reader
(``storycore export | head -1``) ends the command quietly, with the status 141 a shell gives a
command stopped by ``SIGPIPE``.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from contextlib import suppress

from storycore.errors import ConfigurationError, MissingDependencyError, StorycoreError

from ._commands import parser as _parser
from ._options import UsageError

__all__ = ["main"]

#: The exit status of a command whose output pipe its reader closed: a shell's for ``SIGPIPE``.
_CLOSED_PIPE_STATUS = 128 + 13


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit status."""
    try:
        try:
            parser = _parser()
            args = parser.parse_args(argv)  # ``--help`` and usage errors exit from here
            if args.command is None:  # a bare ``storycore``
                parser.print_help()
            else:
                _run(parser, args)
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


def _run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Run the command ``args`` names (``_commands.COMMANDS``); a wrong setting found on the
    way (a variable of the environment) is a usage error, as a wrong option is."""
    try:
        args.run(args)
    except UsageError as exc:
        parser.error(str(exc))


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
