"""Presentation: shapes built from records for one web address (``presenters``) and the
embed script, its page and the oEmbed answer (``embed``).

Above the model and the ports, beside resolving, below the use cases
(``docs/architecture.md``).
"""
