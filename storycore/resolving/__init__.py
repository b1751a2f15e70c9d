"""Resolving what a permalink points to, online (docs/resolver.md): providers' oEmbed,
oEmbed discovery, OpenGraph and Twitter cards, through a fetcher port.

Above the model, beside presentation, below the use cases (``docs/architecture.md``).
"""
