"""Presentation: shapes built from records for one web address (``presenters``), the pages
people read (``pages``), the embed script, which inserts the story page's markup, and the
oEmbed answer (``embed``), and the one safe script literal both use (``literal``).

Above the model and the ports, beside resolving, below the use cases
(``docs/architecture.md``).
"""
