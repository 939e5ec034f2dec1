"""The shell reader: what a hook's command runs, read without running it (resolve.py is its entry)."""
