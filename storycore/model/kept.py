"""Pictures kept by storycore, as the store holds them (docs/media-storage.md): the files, each
named by the SHA-256 of its bytes, and what each source address (a picture's address as a story
or a user holds it) became."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Final, Literal, NamedTuple

from ..media.pictures import EXTENSIONS

__all__ = [
    "LEASE_MEMBERS",
    "NOTHING_KEPT",
    "KeptCopy",
    "KeptFile",
    "KeptPictures",
    "KeptSource",
    "KeptState",
    "kept_file_document",
    "kept_source_document",
]

#: What became of a source address: still to fetch, kept, or failed (to be tried again at
#: ``next_attempt``, or for good when there is none).
KeptState = Literal["pending", "kept", "failed"]


class KeptFile(NamedTuple):
    """A kept file without its bytes: what a ``HEAD`` answers and a prune reads."""

    #: The SHA-256 of its bytes, in lower-case hex.
    name: str
    #: Its media type (``image/jpeg``, ``image/png``, ``image/gif``, ``image/webp``).
    media_type: str
    width: int
    height: int
    #: How many bytes it holds.
    size: int
    #: When it was last put (a timestamp): a file is pruned only some time after this.
    at: str


class KeptCopy(NamedTuple):
    """One kept file of a source address: the name of the file, and what a page's ``srcset``
    says of it."""

    name: str
    media_type: str
    width: int
    height: int

    @property
    def file_name(self) -> str:
        """The name the web host serves it under: ``<sha256>.<extension>``, the extension
        its type's (``media.pictures.EXTENSIONS``)."""
        return f"{self.name}.{EXTENSIONS[self.media_type]}"


class KeptSource(NamedTuple):
    """What a source address became, and how its fetching goes.

    ``copies`` are its kept files once ``state`` is ``kept``: the original first, then the
    smaller widths. ``fetched`` counts the bytes fetched for it (a story's limit adds them up).
    ``attempts`` counts the failed attempts since it was wanted or retried (the retry schedule's
    step), and ``reason`` says why the last one failed. ``next_attempt`` is when it is due (None
    once kept, or failed for good). ``seen`` is when a story, revision or user was last known
    to show it (``KeptSources.want`` and ``touch``). A process fetching it holds it until
    ``leased_until`` (``leased_by`` names the process). ``wanted_by`` is the id of the story
    that first wanted it (None for a user's avatar, or an import's): the story whose limit of
    kept pictures it counts against when it is fetched (docs/media.md#limits).
    """

    address: str
    seen: str
    state: KeptState = "pending"
    copies: tuple[KeptCopy, ...] = ()
    fetched: int = 0
    attempts: int = 0
    reason: str | None = None
    next_attempt: str | None = None
    leased_until: str | None = None
    leased_by: str | None = None
    wanted_by: str | None = None


#: The members of a source record that say which process fetches it now: how the fetching
#: goes, not what the address became, so an export leaves them behind.
LEASE_MEMBERS: Final = frozenset({"leased_until", "leased_by"})


def kept_file_document(file: KeptFile) -> dict[str, Any]:
    """A kept file's members as an export carries them (its bytes go beside them)."""
    return file._asdict()


def kept_source_document(source: KeptSource) -> dict[str, Any]:
    """A source record as an export carries it (docs/media-storage.md#export-and-import): every
    member but the lease's, in their order, its copies as objects. A member added to
    ``KeptSource`` is carried as it is (JSON must hold it)."""
    document = {
        name: value for name, value in source._asdict().items() if name not in LEASE_MEMBERS
    }
    document["copies"] = [copy._asdict() for copy in source.copies]
    return document


@dataclass(frozen=True, slots=True)
class KeptPictures:
    """The kept copies of the pictures one answer shows, by source address: what one
    ``KeptSources.get_many`` found kept (docs/media.md#where-kept-pictures-show). It is
    hashable and compared by what it holds, so that an answer kept by what it is made of (a
    rendered page) is kept by its pictures' copies too."""

    #: Each kept address with its copies (the original first), by address.
    found: tuple[tuple[str, tuple[KeptCopy, ...]], ...] = ()
    _by_address: dict[str, tuple[KeptCopy, ...]] = field(
        init=False, repr=False, compare=False, hash=False
    )

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_address", dict(self.found))

    @classmethod
    def of(cls, sources: Iterable[KeptSource]) -> KeptPictures:
        """The kept ones of ``sources``, records as the store holds them."""
        return cls(
            tuple(sorted((s.address, s.copies) for s in sources if s.state == "kept" and s.copies))
        )

    def __bool__(self) -> bool:
        return bool(self.found)

    def copies(self, address: str) -> tuple[KeptCopy, ...]:
        """The copies kept of the picture at ``address``, the original first; none while it
        is not kept."""
        return self._by_address.get(address, ())

    def original(self, address: str) -> KeptCopy | None:
        """The widest copy kept of the picture at ``address`` (what it was kept as), or
        None."""
        copies = self._by_address.get(address)
        return copies[0] if copies else None

    def __or__(self, other: KeptPictures) -> KeptPictures:
        """The copies of both."""
        if not other:
            return self
        if not self:
            return other
        return KeptPictures(tuple(sorted({**self._by_address, **other._by_address}.items())))


#: What an answer that shows no kept picture has.
NOTHING_KEPT = KeptPictures()
