"""Cursor, all in one folder: where its hooks.json files are and how hooks sit in them
(adapter.py), and what each event makes of a hook's answer (protocol.py)."""
