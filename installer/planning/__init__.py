"""The plans of the writing commands: what each would change, computed from the files as they
are and writing nothing. A command module names the steps; apply.py carries a plan out."""
