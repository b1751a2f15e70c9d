"""Pictures storycore keeps (docs/media.md): fetched bytes turned into files it can store and
serve with no byte of the input left, bounded in bytes, pixels and frames.

Pure functions and constants, framework-free; Pillow decodes and encodes. A module here imports
nothing of storycore beyond ``errors`` (``docs/architecture.md``).
"""
