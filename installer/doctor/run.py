"""One doctor run: find the files, read them, build the context, run every check."""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from installer.doctor import discovery, load
from installer.doctor.facts import BUILTIN_TOOLS
from installer.doctor.model import ConfigFile, Context, Finding, Handler

# installer/doctor/checks/<name>.py, each with `check(ctx) -> Iterable[Finding]`, run in this order
CHECK_MODULES = ("structure", "matchers", "hosts", "commands", "scripts", "conflicts", "installs")
HOSTS = ("claude", "cursor")
SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}


@dataclass
class Outcome:
    context: Context
    findings: list[Finding]

    @property
    def project(self) -> Path:
        return self.context.project

    @property
    def files(self) -> list[ConfigFile]:
        return self.context.files

    @property
    def handlers(self) -> list[Handler]:
        return self.context.handlers

    def count(self, severity: str) -> int:
        return sum(1 for f in self.findings if f.severity == severity)


def run(paths: list[Path] | None = None, *, project: Path | None = None, hosts: Iterable[str] = HOSTS,
        probe: bool = False) -> Outcome:
    """Check the given files, or (without paths) every scope of `hosts` for `project` plus the
    hooks of the plugins they enable. A given path that is missing is reported as unreadable."""
    ctx = context(paths, project=project, hosts=hosts, probe=probe)
    findings = []
    for check in check_functions():
        findings.extend(check(ctx))
    order = {str(f.path): i for i, f in enumerate(ctx.files)}
    findings.sort(key=lambda f: (order.get(f.path, len(order)), f.line or 0, f.column or 0,
                                 SEVERITY_ORDER[f.severity], f.rule))
    return Outcome(ctx, findings)


def context(paths: list[Path] | None = None, *, project: Path | None = None, hosts: Iterable[str] = HOSTS,
            probe: bool = False) -> Context:
    """The files read, their handlers, and what the checks (and `list`) need to know of the
    project: its MCP servers and the plugins its settings enable."""
    project = (project or Path.cwd()).resolve()
    if paths:
        files = [load.read(c) for c in discovery.given_candidates(list(paths), project)]
        plugins = []
    else:
        files = [load.read(c) for c in discovery.scope_candidates(project, set(hosts))]
        plugins = discovery.enabled_plugins(files, project) if "claude" in hosts else []
        files += [load.read(c) for c in discovery.plugin_candidates(plugins, project)]
    handlers = [h for f in files for h in load.handlers(f)]
    servers = discovery.mcp_servers(project, files, plugins)
    return Context(files, handlers, probe=probe, tools=[*BUILTIN_TOOLS, *(f"mcp__{s}__.*" for s in servers)],
                   mcp_servers=servers, plugins=plugins, project=project)


def check_functions() -> list[Callable[[Context], Iterable[Finding]]]:
    return [importlib.import_module(f"installer.doctor.checks.{name}").check for name in CHECK_MODULES]
