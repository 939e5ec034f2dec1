"""hookwright path-normalizer: a Claude Code PreToolUse hook for MCP tools.

Many MCP servers resolve a relative path against their own working directory, which is not
the session's. For the configured top-level arguments (option `args`, default
path,file_path,target_path,directory,dir) whose value is a relative path, it answers with
`updatedInput`: the WHOLE original tool input (Claude Code replaces the input, it does not
merge), with those values made absolute against the payload's `cwd`
(os.path.normpath(os.path.join(cwd, value))) and every other field echoed as it came,
nested values included.

Left alone: values that are not strings, empty or blank strings, absolute paths (also
`C:\\...`), URLs (`scheme://...`, `file:...`), and paths starting with `~`: the home
directory is the MCP server's to expand (it may be another user or machine), and joining
`~/x` to the cwd would name a directory called `~`. Only top-level arguments are looked at.

When nothing changes, or the payload has no absolute `cwd`, it prints nothing, so it does
not race other rewriting hooks for nothing. It never decides: the rewrite carries no
`permissionDecision`, so the user's permission rules and prompts apply to the rewritten call
as they would have to the original (an `allow` would approve every MCP call it touches).
The script the host runs is the shared hook script (templates/runtime/hook_script.py);
this module is what it loads. Stdlib only, Python >= 3.8.
"""
import os

import hookwright_runtime as hw

NAME = "path-normalizer"
OPTIONS = {"tools": "^mcp__(?!.*__AskUserQuestion$)", "args": "path,file_path,target_path,directory,dir"}


def is_relative_path(value: object) -> bool:
    """A string naming a path relative to the working directory (see the module docstring)."""
    if not isinstance(value, str) or not value.strip():
        return False
    if value.startswith("~") or os.path.isabs(value):
        return False
    if value[1:3] in (":\\", ":/") and value[0].isalpha():
        return False  # a Windows drive path
    scheme, sep, _ = value.partition(":")
    if sep and scheme[:1].isalpha() and all(c.isalnum() or c in "+.-" for c in scheme):
        if value.startswith("//", len(scheme) + 1) or scheme.lower() == "file":
            return False  # a URL
    return True


def handle(call: hw.Call) -> "hw.Outcome | None":
    if call.event != "PreToolUse":
        return None
    tool_input = call.payload.get("tool_input")
    if not isinstance(tool_input, dict):
        return None
    names = dict.fromkeys(name.strip() for name in str(call.option("args", "")).split(","))
    relative = [name for name in names if name and is_relative_path(tool_input.get(name))]
    if not relative:
        return None
    cwd = call.payload.get("cwd")
    if not isinstance(cwd, str) or not os.path.isabs(cwd):
        raise hw.PassThrough("no absolute cwd in the payload (%r); %s left relative"
                             % (cwd, ", ".join(relative)))
    updated = dict(tool_input)
    for name in relative:
        updated[name] = os.path.normpath(os.path.join(cwd, tool_input[name]))
    return hw.rewrite(updated)
