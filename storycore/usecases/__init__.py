"""The use cases: the parts of the service (accounts, lifecycle, catalog, embeds,
delegation, imports, Storify imports, reindexing, view counts), each reaching storage only
through the ports.

Above the model, the ports, presentation and resolving; ``service`` composes them
(``docs/architecture.md``).
"""
