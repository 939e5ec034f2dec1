"""Matchers as regular expressions: what one matcher can match (matching.py), and where two
meet (overlap.py)."""
