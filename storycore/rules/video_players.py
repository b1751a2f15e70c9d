"""The video players a page may put in place of a video's poster (docs/api.md#the-web-host).

A video whose address one of a player's ``patterns`` matches (its first group is the video's
id) plays, after the reader's click, in an ``<iframe>`` of ``player.format(id=...)``; any other
video's poster links to the video itself. Before the click no request leaves for the player's
host. ``DEFAULT_VIDEO_PLAYERS`` is ``Settings.video_players`` unless configured: YouTube
through ``www.youtube-nocookie.com/embed/`` and Vimeo through ``player.vimeo.com/video/``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cached_property
from urllib.parse import quote

from pydantic import BaseModel, ConfigDict

__all__ = ["DEFAULT_VIDEO_PLAYERS", "VideoPlayer", "player_for"]


class VideoPlayer(BaseModel):
    """A provider's player: the video addresses it plays and the address of its player."""

    model_config = ConfigDict(frozen=True)

    name: str
    #: regular expressions over a video's whole address; group 1 is the video's id
    patterns: tuple[str, ...]
    #: the player's address, ``{id}`` standing for the video's id
    player: str

    @cached_property
    def _compiled(self) -> tuple[re.Pattern[str], ...]:
        return tuple(re.compile(pattern, re.IGNORECASE) for pattern in self.patterns)

    def address(self, video: str) -> str | None:
        """The player's address for the video at ``video``, or None when it plays not that."""
        for pattern in self._compiled:
            found = pattern.fullmatch(video)
            if found is not None and found.group(1):
                return self.player.format(id=quote(found.group(1), safe=""))
        return None


_ID = r"([A-Za-z0-9_-]{6,20})"
_TAIL = r"(?:[?&#].*)?"
DEFAULT_VIDEO_PLAYERS: tuple[VideoPlayer, ...] = (
    VideoPlayer(
        name="YouTube",
        patterns=(
            rf"https?://(?:www\.|m\.)?youtube\.com/watch\?(?:.*&)?v={_ID}(?:&.*)?(?:#.*)?",
            rf"https?://(?:www\.|m\.)?youtube\.com/(?:shorts|embed|live)/{_ID}/?{_TAIL}",
            rf"https?://youtu\.be/{_ID}/?{_TAIL}",
            rf"https?://(?:www\.)?youtube-nocookie\.com/embed/{_ID}/?{_TAIL}",
        ),
        player="https://www.youtube-nocookie.com/embed/{id}?autoplay=1",
    ),
    VideoPlayer(
        name="Vimeo",
        patterns=(
            rf"https?://(?:www\.)?vimeo\.com/(?:channels/[^/]+/)?([0-9]{{1,12}})/?{_TAIL}",
            rf"https?://player\.vimeo\.com/video/([0-9]{{1,12}})/?{_TAIL}",
        ),
        player="https://player.vimeo.com/video/{id}?autoplay=1",
    ),
)


def player_for(players: Sequence[VideoPlayer], video: str) -> str | None:
    """The address of the first of ``players`` that plays ``video``, or None."""
    for player in players:
        address = player.address(video)
        if address is not None:
            return address
    return None
