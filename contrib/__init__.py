"""Composition around the core: ASGI and WSGI bindings, the ``storycore`` command, demo data."""
