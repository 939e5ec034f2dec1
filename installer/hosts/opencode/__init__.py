"""opencode, all in one folder: where its plugins are and how a pack becomes one (adapter.py)."""
