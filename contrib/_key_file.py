"""The webhook key a SQLite file keeps in a file beside it (docs/webhooks.md#safety).

Made once: a new key is written whole to a file of its own in the same folder (readable by its
owner only, whatever the umask), then linked to the key file's name, which fails if the name is
taken. So the first process to link wins, every other one reads the key it linked, and no
process ever reads a key file half written: processes starting together on a new file
(``uvicorn --factory ... --workers N``, commands run at once) all end with the same key.

Read only as a regular file that its owner alone may open, never through a symbolic link: a key
file others could read holds a key they may have, and one planted beside the store would seal
the webhook secrets under a key someone else chose. Either is refused, in one line naming the
file, rather than used.
"""

from __future__ import annotations

import os
import stat
import tempfile
from contextlib import suppress
from pathlib import Path

from storycore.errors import ConfigurationError
from storycore.rules.webhook_secrets import WebhookKeyError, new_key, parse_key

__all__ = ["kept_key"]

#: The mode of a key file: its owner's to read and write, no one else's.
_OWNER_ONLY = 0o600
#: More than a key file holds (a key and its line end): no reason to read further.
_MOST = 1024


def kept_key(path: Path) -> str:
    """The key kept in ``path``, made first if there is none (by whichever process links one
    first); ``ConfigurationError`` naming ``path`` for a key file that is a symbolic link, not a
    regular file, open to others than its owner, or no key."""
    try:
        return _read(path)
    except FileNotFoundError:
        _make(path)
    return _read(path)


def _make(path: Path) -> None:
    """A new key at ``path``, unless another process's is there first."""
    try:
        made, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    except OSError as exc:
        raise ConfigurationError(f"cannot keep the webhook key in {path}: {exc.strerror}") from None
    try:
        with os.fdopen(made, "w", encoding="ascii") as out:
            os.fchmod(out.fileno(), _OWNER_ONLY)  # mkstemp's mode less the umask otherwise
            out.write(new_key() + "\n")
            out.flush()
            os.fsync(out.fileno())
        with suppress(FileExistsError):  # another process linked its key first: it is the key
            os.link(temporary, path)
        _synced(path.parent)
    except OSError as exc:
        raise ConfigurationError(f"cannot keep the webhook key in {path}: {exc.strerror}") from None
    finally:
        with suppress(OSError):
            os.unlink(temporary)


def _synced(folder: Path) -> None:
    """The key file's name written to disk, so that a crash does not lose the key that sealed
    the secrets written after it (where the file system can: some cannot sync a folder)."""
    with suppress(OSError):
        opened = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(opened)
        finally:
            os.close(opened)


def _read(path: Path) -> str:
    """The key in ``path``; FileNotFoundError when there is none."""
    try:
        # no symbolic link followed; no wait on a named pipe planted there
        opened = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        raise
    except OSError as exc:
        if os.path.islink(path):
            raise ConfigurationError(
                f"the webhook key file {path} is a symbolic link: refused (remove it)"
            ) from None
        raise ConfigurationError(f"cannot read the webhook key in {path}: {exc.strerror}") from None
    with os.fdopen(opened, "rb") as found:
        status = os.fstat(found.fileno())
        if not stat.S_ISREG(status.st_mode):
            raise ConfigurationError(f"the webhook key file {path} is not a regular file: refused")
        mode = stat.S_IMODE(status.st_mode)
        if mode & 0o077:
            raise ConfigurationError(
                f"the webhook key file {path} is open to others than its owner (mode {mode:04o}):"
                " refused; its key may be known, so remove it and register the webhooks again,"
                " or chmod 600 it"
            )
        text = found.read(_MOST).decode("ascii", errors="replace")
    try:
        parse_key(text)
    except WebhookKeyError as exc:
        raise ConfigurationError(f"the webhook key file {path} holds no key: {exc}") from None
    return text.strip()
