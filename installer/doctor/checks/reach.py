"""Reach: hooks that depend on files of another scope. A hook of the user's settings, the
administrator's or a plugin runs in every project, and one that reaches its script through the
project's folder (`"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh`) finds it only in the projects that
have it; a plugin's own script belongs under `${CLAUDE_PLUGIN_ROOT}`. Where the script is missing
in this project, command/script-missing says so (worded for a shared hook); these rules say what
holds where it is not missing."""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

from ... import hosts
from ...hosts.base import Host
from .. import disk
from ..handler_facts import commands_checked, kind, resolution, through_project
from ..model import ConfigFile, Context, Finding, Handler, RuleTable

RULES = RuleTable()


def check(ctx: Context) -> Iterator[Finding]:
    shared: dict[int, bool] = {}  # each file's: does every project run its hooks (the rules' premise, once a file)
    for handler in ctx.handlers:
        file = handler.file
        if id(file) not in shared:
            host = hosts.of(file.host)
            shared[id(file)] = host is not None and file.project is not None and host.shared_by_projects(file)
        if shared[id(file)] and commands_checked(handler) and kind(handler) == "command":
            yield from RULES.run(ctx, handler)


def _shared_scripts(handler: Handler) -> Iterator[tuple[str, Path, str]]:
    """(the script as written, its path in this project, the variable) for each file the shared
    hook reaches through the project's folder."""
    for inv in resolution(handler).invocations:
        variable = through_project(handler, inv)
        if variable is not None and inv.path is not None:
            yield inv.script or str(inv.path), inv.path, variable


def plugins_own(file: ConfigFile, path: Path) -> Path | None:
    """The plugin's own copy of a script its hook reaches through the project's folder (`path`, in
    the project), or None: command/plugin-script-through-project's case, which script-missing leaves to it."""
    root, project = file.plugin_root, file.project
    if root is None or project is None or not file.from_plugin or not path.is_relative_to(project):
        return None
    own = root / path.relative_to(project)
    return own if disk.is_file(own) else None


@RULES.rule("command/plugin-script-through-project")
def _plugin_script_through_project(ctx: Context, handler: Handler) -> Iterator[Finding]:
    """A plugin's hook that names its own script through the project: the script is in the
    plugin's folder, and no project has it there."""
    for script, path, variable in _shared_scripts(handler):
        own = plugins_own(handler.file, path)
        if own is not None and handler.file.project is not None:
            yield ctx.finding("command/plugin-script-through-project", handler.file, handler.keys + ("command",),
                              script=script, variable=variable, own=str(own),
                              relative=path.relative_to(handler.file.project).as_posix())


@RULES.rule("command/shared-hook-project-script")
def _shared_hook_project_script(ctx: Context, handler: Handler) -> Iterator[Finding]:
    """A user, managed or plugin hook whose script is in this project: it runs in every project,
    and doctor cannot tell whether the others have the script."""
    file = handler.file
    for script, path, variable in _shared_scripts(handler):
        project = file.project
        if project is None or not disk.is_file(path):
            continue  # (missing here: command/script-missing)
        if file.plugin_root is not None and disk.is_file(file.plugin_root / path.relative_to(project)):
            continue  # (the plugin's own script: plugin-script-through-project)
        host = hosts.get(file.host)
        yield ctx.finding("command/shared-hook-project-script", file, handler.keys + ("command",), script=script,
                          variable=variable, scope="a plugin" if file.from_plugin else f"the {file.scope} settings",
                          user_hooks=host.user_hooks_folder(), project_file=host.project_file())


def shared_script_places(host: Host) -> str:
    """Where a hook shared by every project keeps its script, for a hint: beside the user's
    settings, or (a host with plugins) in a plugin's own folder."""
    plugin = ", a plugin's own folder through ${CLAUDE_PLUGIN_ROOT}" if host.has_plugins else ""
    return host.user_hooks_folder() + plugin
