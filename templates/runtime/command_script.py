#!/usr/bin/env python3
"""hookwright: the script every hook of a command pack runs where the agent does not speak
Claude Code's protocol (Cursor, opencode), installed once under each such hook's name.

The agent runs `python3 -I -S <folder>/<hook> --host <host>`. The hook's command, the pack
author's, is its entry in commands.json beside it (hookwright_runtime.command_handler): the
runtime hands it the call in Claude Code's words and turns its answer into this agent's. As
hook_script.py does, it keeps our byte-code in the user's cache and never breaks the agent:
a commands.json that names no command for it is a line in the error log and the decision log
(runtime.cannot_load), and a hook installed to fail closed blocks. Stdlib only, Python >= 3.8.
"""
import json  # noqa: F401  (the stdlib loads before the byte-code prefix below is set)
import os
import sys

HERE, SCRIPT = os.path.split(os.path.abspath(__file__))
sys.path.insert(0, HERE)
_saved = sys.pycache_prefix, sys.dont_write_bytecode
_cache = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
sys.pycache_prefix = os.path.join(_cache, "hookwright", "pycache")
sys.dont_write_bytecode = not os.path.isabs(_cache)
try:
    import hookwright_runtime as runtime
except Exception as error:  # our own library is damaged: status and doctor say the install is not whole
    sys.stderr.write("hookwright %s/%s: cannot load its modules: the runtime library: %s\n" % (os.path.basename(HERE), SCRIPT, error))
    sys.exit(2 if "--fail-closed" in sys.argv else 0)
sys.pycache_prefix, sys.dont_write_bytecode = _saved
try:
    HANDLE = runtime.command_handler(HERE, SCRIPT)
except Exception as error:  # a damaged commands.json must not break the agent, nor let calls through unseen
    sys.exit(runtime.cannot_load(__file__, error))

if __name__ == "__main__":
    sys.exit(runtime.run(SCRIPT, HANDLE, __file__, defaults={}))
