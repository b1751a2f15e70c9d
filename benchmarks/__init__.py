"""Measurements of storycore, never run as tests: ``python -m benchmarks``."""
