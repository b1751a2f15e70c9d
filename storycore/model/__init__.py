"""The model: what the service keeps and answers (records, elements, the interface's shapes,
list queries and story heads) and how a client's story becomes one (drafts, the members each
object takes, elements normalized by the offline resolver, derived members, visibility).

Above input, below the ports (``docs/architecture.md``).
"""
