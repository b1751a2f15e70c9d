"""The rules: pure functions and constants of the interface and its decisions (slugs,
usernames, addresses, text, hashtags, search words, timestamps, passwords, the web address, the
web host's paths).

The lowest layer but ``errors``: a rule imports nothing of storycore beyond ``errors`` and
other rules (``docs/architecture.md``).
"""
