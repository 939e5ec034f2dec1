"""simulate: which Claude Code hooks fire on one call, what they answer, and what the host makes of it."""
