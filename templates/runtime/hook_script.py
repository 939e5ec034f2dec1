#!/usr/bin/env python3
"""hookwright: the script every bundled hook runs, installed once under each hook's name.

The host runs `python3 -I -S <folder>/<hook> --host <host>`. The hook itself is the module of
the same name beside it, `-` read as `_` (git-guard runs git_guard.py): its `handle(call)`,
`NAME` and `OPTIONS` (the pack's options and their defaults). A module loads from cached
byte-code, while the script CPython starts is compiled on every call, so this stays short.

With -I the script's folder is not on sys.path. Our modules' byte-code goes to the user's
cache (a `__pycache__` beside the scripts would land in the project's repository and outlive
an uninstall), and only theirs: the stdlib is imported first and the prefix is restored
after, so the stdlib keeps loading from its own byte-code. A module that cannot be loaded (a
broken pack) must still not break the agent, nor pass unseen: it is a line in the error log
and the decision log (runtime.cannot_load), and a hook installed to fail closed blocks.
Stdlib only, Python >= 3.8.
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
try:
    hook = __import__(SCRIPT.replace("-", "_"))
    NAME, HANDLE, OPTIONS = hook.NAME, hook.handle, hook.OPTIONS
except Exception as error:  # a broken pack must not break the agent, nor let calls through unseen
    sys.pycache_prefix, sys.dont_write_bytecode = _saved
    sys.exit(runtime.cannot_load(__file__, error))
sys.pycache_prefix, sys.dont_write_bytecode = _saved

if __name__ == "__main__":
    sys.exit(runtime.run(NAME, HANDLE, __file__, defaults=OPTIONS))
