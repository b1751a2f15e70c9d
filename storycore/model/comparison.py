"""What changed between two versions of a story (docs/editor.md#preview-and-history): the
words of its title and description, and its elements added, removed, moved and changed.

Elements are matched by their ``id``. An element is moved when it is out of the order the
two versions share (the longest run of kept elements in the same order stays; the others
moved), so that an element shifted by another's addition or removal is not. Words are
compared as words (``difflib``), in the title, the description, a text's text (its HTML's
words, not its markup), an image's caption and a quote's text; any other change of an element
(its address, its picture) makes it changed without words to show.

It is the core of every view of a difference: the history's comparison, and a save's conflict
shown beside the newer story. It reads records only and renders nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any, Literal

from ..rules.sanitize import plain_text
from .element_kinds import Element

__all__ = [
    "Difference",
    "ElementDifference",
    "MemberWords",
    "Piece",
    "StoryVersion",
    "Words",
    "compare",
    "compare_words",
    "element_words",
]

PieceState = Literal["same", "added", "removed"]
ElementState = Literal["kept", "added", "removed"]


@dataclass(frozen=True, slots=True)
class StoryVersion:
    """What a comparison reads of one version of a story: its title, its description and all
    its elements in order."""

    title: str
    description: str
    elements: Sequence[Element]


@dataclass(frozen=True, slots=True)
class Piece:
    """A run of words that is in both versions (``same``), or only the newer (``added``) or
    only the older (``removed``)."""

    state: PieceState
    text: str


@dataclass(frozen=True, slots=True)
class Words:
    """A text compared word by word: its pieces in reading order."""

    pieces: tuple[Piece, ...]

    @property
    def changed(self) -> bool:
        """Whether any word was added or removed."""
        return any(piece.state != "same" for piece in self.pieces)

    @property
    def runs(self) -> tuple[Piece, ...]:
        """The pieces with each run of words of one state joined by spaces (what a reader
        is told at once: "removed: in the", "added: over an old")."""
        runs: list[Piece] = []
        for piece in self.pieces:
            if runs and runs[-1].state == piece.state:
                runs[-1] = Piece(piece.state, f"{runs[-1].text} {piece.text}")
            else:
                runs.append(piece)
        return tuple(runs)


@dataclass(frozen=True, slots=True)
class MemberWords:
    """The words of one member of an element (``text``, ``caption``, ``quote``) compared."""

    name: str
    words: Words


@dataclass(frozen=True, slots=True)
class ElementDifference:
    """One element of either version: ``added`` (only in the newer), ``removed`` (only in the
    older) or ``kept``; a kept one may be ``moved`` (``position_before`` and
    ``position_after`` count from 1) and ``changed`` (``members``: the words that changed,
    none when what changed has no words)."""

    id: str
    state: ElementState
    before: Element | None
    after: Element | None
    position_before: int = 0
    position_after: int = 0
    moved: bool = False
    changed: bool = False
    members: tuple[MemberWords, ...] = ()

    @property
    def element(self) -> Element:
        """The element as it is in the newer version, or as it was when it was removed."""
        shown = self.after if self.after is not None else self.before
        assert shown is not None
        return shown


@dataclass(frozen=True, slots=True)
class Difference:
    """Two versions compared: the words of the title and description, and every element of
    either, in the newer order with each removed one where it was."""

    title: Words
    description: Words
    elements: tuple[ElementDifference, ...]

    @property
    def added(self) -> tuple[ElementDifference, ...]:
        """The elements only the newer version has."""
        return tuple(e for e in self.elements if e.state == "added")

    @property
    def removed(self) -> tuple[ElementDifference, ...]:
        """The elements only the older version has."""
        return tuple(e for e in self.elements if e.state == "removed")

    @property
    def moved(self) -> tuple[ElementDifference, ...]:
        """The kept elements out of the order both versions share."""
        return tuple(e for e in self.elements if e.moved)

    @property
    def changed(self) -> tuple[ElementDifference, ...]:
        """The kept elements whose content changed."""
        return tuple(e for e in self.elements if e.changed)

    @property
    def changes(self) -> bool:
        """Whether the two versions differ in anything compared."""
        return (
            self.title.changed
            or self.description.changed
            or any(e.state != "kept" or e.moved or e.changed for e in self.elements)
        )


def compare_words(before: str, after: str) -> Words:
    """``before`` and ``after`` compared word by word (words are what whitespace parts)."""
    old, new = before.split(), after.split()
    pieces: list[Piece] = []
    matcher = SequenceMatcher(None, old, new, autojunk=False)
    for operation, i1, i2, j1, j2 in matcher.get_opcodes():
        if operation == "equal":
            pieces += [Piece("same", word) for word in old[i1:i2]]
            continue
        pieces += [Piece("removed", word) for word in old[i1:i2]]
        pieces += [Piece("added", word) for word in new[j1:j2]]
    return Words(tuple(pieces))


def _data(element: Element, name: str) -> Mapping[str, Any]:
    data = element.data if isinstance(element.data, Mapping) else {}
    member = data.get(name)
    return member if isinstance(member, Mapping) else {}


def _string(mapping: Mapping[str, Any], name: str) -> str:
    value = mapping.get(name)
    return value if isinstance(value, str) else ""


def element_words(element: Element) -> tuple[tuple[str, str], ...]:
    """The members of ``element`` compared as words, each with its text: a text's words
    (its HTML's text), an image's caption, a quote's text. Other kinds have none."""
    data = element.data if isinstance(element.data, Mapping) else {}
    if element.type == "text":
        return (("text", plain_text(_string(data, "text"))),)
    if element.type == "image":
        return (("caption", _string(_data(element, "image"), "caption")),)
    if element.type == "quote":
        return (("quote", _string(_data(element, "quote"), "text")),)
    return ()


def _kept(before: Element, after: Element) -> tuple[bool, tuple[MemberWords, ...]]:
    """Whether ``before`` changed to ``after``, and the words of it that changed."""
    old, new = dict(element_words(before)), dict(element_words(after))
    members = tuple(
        MemberWords(name, words)
        for name, text in new.items()
        if (words := compare_words(old.get(name, ""), text)).changed
    )
    return before != after, members


def compare(before: StoryVersion, after: StoryVersion) -> Difference:
    """What changed from ``before`` to ``after``."""
    old = {element.id: index for index, element in enumerate(before.elements)}
    new = {element.id: index for index, element in enumerate(after.elements)}
    kept_old = [element.id for element in before.elements if element.id in new]
    kept_new = [element.id for element in after.elements if element.id in old]
    in_order: set[str] = set()
    for block in SequenceMatcher(None, kept_old, kept_new, autojunk=False).get_matching_blocks():
        in_order.update(kept_old[block.a : block.a + block.size])
    removed_after: dict[str | None, list[ElementDifference]] = {}
    anchor: str | None = None
    for index, element in enumerate(before.elements):
        if element.id in new:
            anchor = element.id
            continue
        gone = ElementDifference(element.id, "removed", element, None, position_before=index + 1)
        removed_after.setdefault(anchor, []).append(gone)
    elements = list(removed_after.get(None, []))
    for index, element in enumerate(after.elements):
        if element.id in old:
            was = before.elements[old[element.id]]
            changed, members = _kept(was, element)
            elements.append(
                ElementDifference(
                    element.id,
                    "kept",
                    was,
                    element,
                    position_before=old[element.id] + 1,
                    position_after=index + 1,
                    moved=element.id not in in_order,
                    changed=changed,
                    members=members,
                )
            )
            elements += removed_after.get(element.id, [])
        else:
            elements.append(
                ElementDifference(element.id, "added", None, element, position_after=index + 1)
            )
    return Difference(
        compare_words(before.title, after.title),
        compare_words(before.description, after.description),
        tuple(elements),
    )
