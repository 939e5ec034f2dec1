"""simulate on the hosts that are not Claude Code: Cursor (its hooks run, their answers read as Cursor
documents it) and opencode (its plugins run in opencode's own runtime). Which Claude Code hooks
fire, how they run and what their answers mean is installer/hooks' (firing, running, answers).
"""
