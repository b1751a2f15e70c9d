"""The embed (docs/api.md#the-web-host): the script that renders a
published
story inside any page, and the oEmbed answer.

Everything here is text in, text out: the HTTP layer serves it.
"""

from .oembed import embed_code, oembed
from .script import EmbedStory, embed_script, not_found_script

__all__ = ["EmbedStory", "embed_code", "embed_script", "not_found_script", "oembed"]
