"""Codex CLI, all in one folder: where its hooks.json files are and how hooks sit in them
(adapter.py), and the trust Codex needs before it runs a hook (trust.py)."""
from .adapter import HOST as HOST  # (the registry imports installer.hosts.<name>)
