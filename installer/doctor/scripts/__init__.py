"""The script reader: what a hook script prints and how it exits, read from its code (keys.py,
flow.py), opencode plugins read with a JavaScript parser (plugins.py), and, with --probe, the
scripts run once (probe.py)."""
