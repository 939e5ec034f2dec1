"""doctor's results for people (text), programs (a versioned JSON document) and code scanning (SARIF 2.1.0).

The JSON document is the one result; the text and SARIF renderings are made from it. Which
findings it reports is the Selection's (below): --select, --ignore and --min-severity, over what
the project's config says.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any
from urllib.parse import quote  # (pathlib has loaded it already)

from .. import __version__, safe_read
from ..errors import ExitCode, HookwrightError, did_you_mean
from ..hooks.model import real_path
from ..patterns import lazy
from ..resources import read_toml
from .model import SEVERITIES, Finding, Rule, catalog, resolved
from .run import Outcome

SCHEMA = "hookwright-doctor/1"
INFORMATION_URI = "https://pypi.org/project/hookwright/"
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_LEVEL = {"error": "error", "warning": "warning", "info": "note"}
STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}
# a finding's line of text starts with its place (7 wide, to the right) and its severity (7 wide):
# the segments made once, not formatted again for each of the thousands of findings a tree has
SEVERITY_SEGMENTS = {severity: (f"{severity:<7}", style) for severity, style in STYLE.items()}
UNDER_A_FINDING = f"  {'':>7}  {'':<7} "  # (its hint and the other places it involves)


def document(outcome: Outcome, strict: bool = False, selection: Selection | None = None, hidden: int = 0,
             notes: list[str] | None = None) -> dict[str, Any]:
    """`selection`: the rules the run reports (--select, --ignore, --min-severity, the config);
    `hidden`: how many findings it left out; `notes`: what else the run has to say."""
    errors, warnings, infos = (outcome.count(s) for s in ("error", "warning", "info"))
    unreadable = sum(1 for f in outcome.files if f.error is not None)  # not read or not parsed: not checked
    # the conflicts with this machine's files count like the others (the hooks do race here); a
    # file of this machine that cannot be read is not checked, so it does not make the exit 2
    failed = errors > 0 or (strict and warnings > 0)
    exit_code = ExitCode.BAD_INPUT if unreadable else ExitCode.FINDINGS if failed else ExitCode.OK
    per_file: dict[str, int] = {}
    for handler in outcome.handlers:
        per_file[str(handler.file.path)] = per_file.get(str(handler.file.path), 0) + 1
    listed = [*outcome.files, *(f for f, _why in outcome.context.unread)]  # (scope "unread": not read, not checked)
    return {
        "schema": SCHEMA,
        "hookwright_version": __version__,
        "project": str(outcome.project),
        "files": [{"path": str(f.path), "kind": f.kind, "host": f.host, "scope": f.scope, "plugin": f.plugin,
                   "handlers": per_file.get(str(f.path), 0)} for f in listed],
        "context": [{"path": str(f.path), "kind": f.kind, "host": f.host, "scope": f.scope, "plugin": f.plugin,
                     "error": f.error.message if f.error else None} for f in outcome.machine],
        "findings": [f.to_json() for f in outcome.findings],
        "summary": {"errors": errors, "warnings": warnings, "infos": infos, "files": len(listed),
                    "handlers": len(outcome.handlers), "unreadable": unreadable, "strict": strict,
                    "machine_dependent": sum(1 for f in outcome.findings if f.machine),
                    "hidden": hidden, "exit_code": int(exit_code)},
        "selection": (selection or Selection()).to_json(),
        "notes": list(notes or []),
    }


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def summary_line(doc: dict[str, Any]) -> str:
    s = doc["summary"]
    line = f"{_plural(s['errors'], 'error')}, {_plural(s['warnings'], 'warning')} in {_plural(s['files'], 'file')}"
    line += f" (and {_plural(s['infos'], 'note')})" if s["infos"] else ""
    machine = s["machine_dependent"]
    line += f"; {machine} {'depends' if machine == 1 else 'depend'} on this machine" if machine else ""
    line += f"; {_plural(s['unreadable'], 'file')} could not be read" if s["unreadable"] else ""
    return line + (f"; {s['hidden']} hidden by the rule selection" if s["hidden"] else "")


def shown_path(path: str, real_base: Path, folders: dict[str, str] | None = None) -> str:
    """`path` with its links followed, relative to `real_base` (a folder with its own links
    followed: `text` follows the base's once for all the paths it shows, not once for each:
    4,378.5 M -> 4,350.9 M instructions of doctor on the corpus tree); as given where it is not
    inside. `folders`: the folders followed for the paths shown before (real_path)."""
    real, base = real_path(path, {} if folders is None else folders), str(real_base)
    if real == base:
        return "."
    inside = base.rstrip("/") + "/"
    return real[len(inside):] if real.startswith(inside) else path



Line = list[tuple[str, str | None]]  # (text, rich style or None): printed styled on a terminal, plain elsewhere


def text(doc: dict[str, Any], base: Path, verbosity: int = 0) -> list[Line]:
    """Findings grouped by file, then the summary line, as styled segments (no markup: a message
    may hold any bracket). `verbosity` -1 (--quiet): the findings alone, without hints, files
    without findings or the summary; 1 (--verbose): also the other places each one involves."""
    base = resolved(base)
    folders: dict[str, str] = {}  # (real_path's, for every path shown)
    by_file: dict[str, list[dict[str, Any]]] = {}
    for finding in doc["findings"]:
        by_file.setdefault(finding["path"], []).append(finding)
    lines: list[Line] = []
    for file in doc["files"]:
        findings = by_file.pop(file["path"], [])
        if not findings and verbosity < 0:
            continue
        scope = f", {file['scope']}" if file["scope"] not in ("given",) else ""
        plugin = f", plugin {file['plugin']}" if file["plugin"] else ""
        lines.append([(shown_path(file["path"], base, folders), "bold"), (" ", None),
                      (f"({file['kind']}{scope}{plugin})", "dim")])
        if not findings:
            lines.append([("  no findings", "dim")])
        lines.extend(_finding_lines(findings, base, folders, verbosity))
    for path, findings in by_file.items():  # a script the hooks run, a skill, or a file of this machine a conflict sits in
        where = " (this machine)" if any(f.get("depends_on_machine") for f in findings) else \
            " (a skill of the session)" if path.endswith("SKILL.md") else " (run by the hooks above)"
        lines.append([(shown_path(path, base, folders), "bold"), (where, "dim")])
        lines.extend(_finding_lines(findings, base, folders, verbosity))
    if verbosity < 0:
        return lines
    for file in doc["context"]:
        if file["error"]:
            lines.append([(f"this machine: {typed_path(file['path'], base, folders)} could not be read ({file['error']}), "
                           "so the named files' conflicts with it are not checked", "dim")])
    if not doc["files"]:
        lines.append([(f"no hook config found for {doc['project']}", "dim")])
    chosen = doc["selection"]
    if chosen["config"]:
        lines.append([(f"rules chosen by {typed_path(chosen['config'], base, folders)}", "dim")])
    for skipped in chosen["skipped_configs"]:
        lines.append([(f"not read: {typed_path(skipped['path'], base, folders)}: {skipped['why']}", "yellow")])
    lines.extend([("note: ", "yellow"), (note, None)] for note in doc.get("notes", []))
    s = doc["summary"]
    colour = "red" if s["errors"] else "yellow" if s["warnings"] else "green"
    lines.append([(summary_line(doc), colour)])
    return lines


def _finding_lines(findings: list[dict[str, Any]], base: Path, folders: dict[str, str], verbosity: int) -> list[Line]:
    lines: list[Line] = []
    for f in findings:
        line: Line = [("  " + f"{f['line']}:{f['column']}".rjust(7) + "  ", None), SEVERITY_SEGMENTS[f["severity"]],
                      (" ", None), (f["rule"], "dim")]
        if f["confirmed_by_probe"]:
            line.append(("  [confirmed by --probe]", "bold"))
        line.append(("  " + f["message"], None))
        if f["machine_files"]:
            machine = ", ".join([typed_path(path, base, folders) for path in f["machine_files"]])
            line.append((f" (this machine: {machine})", "magenta"))
        lines.append(line)
        if f["hint"] and verbosity >= 0:
            lines.append([(UNDER_A_FINDING, None), ("hint: " + f["hint"], "dim")])
        for other in f["related"] if verbosity > 0 else []:
            lines.append([(UNDER_A_FINDING, None),
                          (f"also at {shown_path(other['path'], base, folders)}:{other['line']}:{other['column']}: "
                           f"{other['message']}", "dim")])
    return lines


def typed_path(path: str, real_base: Path | None, folders: dict[str, str] | None = None) -> str:
    """A path as people type it: relative to `real_base` (links followed) when it is inside (none:
    never), else from ~ (~/.claude/settings.json) when it is in the home folder. `folders`: shown_path's."""
    shown = shown_path(path, real_base, folders) if real_base is not None else path
    home = str(Path.home())
    return "~" + shown[len(home):] if shown.startswith(home + "/") else shown


TEMPLATE_FIELD = lazy(r"(?<!\{)\{(\w+)\}(?!\})")


def template(text: str) -> str:
    """A message or hint template for people: `{matcher}` shown as `<matcher>`."""
    shown: str = TEMPLATE_FIELD.sub(r"<\1>", text)
    return shown.replace("{{", "{").replace("}}", "}")


def explanation(rule_id: str) -> dict[str, str]:
    rule = catalog()[rule_id]
    return {"id": rule.id, "kind": rule.kind, "severity": rule.severity, "message": rule.message,
            "hint": rule.hint, "explanation": rule.explanation}


# ---- SARIF 2.1.0 ----------------------------------------------------------------------------------

def sarif(doc: dict[str, Any], base: Path) -> dict[str, Any]:
    """A SARIF 2.1.0 log: one run, every rule of the catalog, one result per finding, paths
    relative to `base` (the working directory) where possible."""
    rules = list(catalog().values())
    index = {rule.id: i for i, rule in enumerate(rules)}
    base_uri = resolved(base).as_uri().rstrip("/") + "/"
    artifacts = _Artifacts(base)
    results = []
    for f in doc["findings"]:
        result: dict[str, Any] = {
            "ruleId": f["rule"],
            "ruleIndex": index[f["rule"]],
            "level": SARIF_LEVEL[f["severity"]],
            "message": {"text": f["message"] + (f". Hint: {f['hint']}" if f["hint"] else "")},
            "locations": [_location(artifacts, f["path"], f["line"], f["column"])],
        }
        if f["depends_on_machine"]:
            result["properties"] = {"dependsOnMachine": True, "machineFiles": f["machine_files"]}
        related = [{"id": i, **_location(artifacts, r["path"], r.get("line"), r.get("column")),
                    "message": {"text": r.get("message") or "related"}} for i, r in enumerate(f["related"])]
        if related:
            result["relatedLocations"] = related
        if f["confirmed_by_probe"]:
            result.setdefault("properties", {})["confirmedByProbe"] = True
        results.append(result)
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "hookwright",
                "version": __version__,
                "informationUri": INFORMATION_URI,
                "rules": [_rule(rule) for rule in rules],
            }},
            "originalUriBaseIds": {"SRCROOT": {"uri": base_uri}},
            "columnKind": "unicodeCodePoints",
            "results": results,
            "properties": {"ruleConfig": doc.get("selection", {}).get("config"),
                           "skippedConfigs": doc.get("selection", {}).get("skipped_configs", [])},
        }],
    }


def sarif_failure(error: HookwrightError, base: Path) -> dict[str, Any]:
    """A SARIF log for a run that could not check anything (a usage error, a missing folder):
    no results, and an invocation that failed with the error as its notification."""
    text = error.message + (f". Hint: {error.hint}" if error.hint else "")
    notification: dict[str, Any] = {"level": "error", "message": {"text": text}}
    if error.path is not None:
        notification["locations"] = [_location(_Artifacts(base), str(error.path), error.line, error.column)]
    log = sarif({"findings": []}, base)
    log["runs"][0]["invocations"] = [{"executionSuccessful": False, "exitCode": int(error.code),
                                      "toolExecutionNotifications": [notification]}]
    return log


def _rule(rule: Rule) -> dict[str, Any]:
    kind, slug = rule.id.split("/", 1)
    short = f"{kind.capitalize()}: {slug.replace('-', ' ')}"  # "Command: script missing": the id, as words
    return {
        "id": rule.id,
        "name": "".join(part.capitalize() for part in rule.id.replace("/", "-").split("-")),
        "shortDescription": {"text": short},
        "fullDescription": {"text": " ".join(rule.explanation.split())},
        "help": {"text": " ".join(rule.explanation.split()) + f" (hookwright doctor --explain {rule.id})"},
        "defaultConfiguration": {"level": SARIF_LEVEL[rule.severity]},
        "properties": {"tags": [rule.kind]},
    }


class _Artifacts(dict[str, dict[str, str]]):
    """Each path's SARIF artifact location, its links followed once per log: a file with
    thousands of findings (one per line of a long script) was resolved on the disk for each:
    doctor --format sarif on a 10,000-line script took 6.1 s of CPU, now 4.6 s."""

    def __init__(self, base: Path) -> None:
        super().__init__()
        self.base = resolved(base)

    def __missing__(self, path: str) -> dict[str, str]:
        real = resolved(Path(path))
        try:
            artifact = {"uri": quote(real.relative_to(self.base).as_posix()), "uriBaseId": "SRCROOT"}
        except ValueError:
            artifact = {"uri": real.as_uri()}
        self[path] = artifact
        return artifact


def _location(artifacts: _Artifacts, path: str, line: int | None, column: int | None) -> dict[str, Any]:
    location: dict[str, Any] = {"artifactLocation": dict(artifacts[path])}
    if line:
        location["region"] = {"startLine": line, "startColumn": column or 1}
    return {"physicalLocation": location}


# ---- which findings a run reports -------------------------------------------------------------------
#
# Which findings a doctor run reports: --select, --ignore and --min-severity, over what the
# project's config says (`[tool.hookwright.doctor]` in pyproject.toml, or `[doctor]` in
# .hookwright.toml), in the manner of ruff.
#
# A selector is a rule id (`command/home-path`) or a prefix of ids (`command`, `conflict/input`):
# a selector that names no rule is a usage error with the closest ids, never a silent no-op.
# The config is the nearest one at or above the project folder; .hookwright.toml wins over
# pyproject.toml in the same folder. On the command line --select replaces the config's list,
# --ignore adds to it, --min-severity replaces it.
#
# A config can silence doctor's errors, so it is taken only from inside the project (its folders
# up to its git root) or from a file owned by the user running doctor: a `.hookwright.toml` that
# someone else left in a shared parent folder (/tmp, a world-writable checkout root) is skipped,
# and the report says which file chose the rules and which were skipped, and why.

CONFIG_FILES = ((".hookwright.toml", ("doctor",)), ("pyproject.toml", ("tool", "hookwright", "doctor")))
KEYS = ("select", "ignore", "min-severity", "strict")
RANK = {severity: rank for rank, severity in enumerate(reversed(SEVERITIES))}  # info 0, warning 1, error 2


class Selection:
    def __init__(self, select: tuple[str, ...] = (), ignore: tuple[str, ...] = (), min_severity: str = "info",
                 strict: bool = False, config: str | None = None, skipped: tuple[dict[str, str], ...] = ()) -> None:
        self.select = select  # () : every rule
        self.ignore = ignore
        self.min_severity = min_severity
        self.strict = strict
        self.config = config  # the file the settings came from
        self.skipped = skipped  # configs not read: {"path", "why"} (someone else's, outside the project)

    def _with_skipped(self, skipped: list[dict[str, str]]) -> Selection:
        self.skipped = tuple(skipped)
        return self

    def keeps(self, finding: Finding) -> bool:
        return (RANK[finding.severity] >= RANK[self.min_severity] and not finding.rule.startswith(self.ignore)
                and (not self.select or finding.rule.startswith(self.select)))

    def to_json(self) -> dict[str, Any]:
        return {"select": list(self.select), "ignore": list(self.ignore), "min_severity": self.min_severity,
                "config": self.config, "skipped_configs": list(self.skipped)}


def choose(project: Path, *, select: list[str] | None = None, ignore: list[str] | None = None,
           min_severity: str | None = None, strict: bool = False, use_config: bool = True) -> Selection:
    """The run's selection: the command line's over the config's (`use_config` False: no config)."""
    base = from_config(project) if use_config else Selection()
    return Selection(
        tuple(_checked(_split(select), "--select")) if select else base.select,
        base.ignore + tuple(_checked(_split(ignore or []), "--ignore")),
        _severity(min_severity, "--min-severity") if min_severity else base.min_severity,
        strict or base.strict, base.config, base.skipped)


def from_config(project: Path) -> Selection:
    """The nearest config at or above `project` that has doctor settings (none: every rule), of
    those doctor may take (inside the project up to its git root, or the user's own)."""
    folders = [project.absolute(), *project.absolute().parents]
    inside = folders[:_git_root_index(folders) + 1]
    skipped: list[dict[str, str]] = []
    for folder in folders:
        for name, table_path in CONFIG_FILES:
            path = folder / name
            if not os.path.lexists(path):  # (a FIFO or a link to a device is there, and said unreadable)
                continue
            owner = _owner(path)
            if folder not in inside and owner != os.geteuid():
                skipped.append({"path": str(path), "why": f"it is outside the project and owned by "
                                f"{_user_name(owner)}, not by you: it could silence doctor's findings"})
                continue
            table = _table(path, table_path)
            if table is not None:
                return _settings(path, table)._with_skipped(skipped)
    return Selection(skipped=tuple(skipped))


def _git_root_index(folders: list[Path]) -> int:
    """How far up the project goes: to the folder that holds `.git` (the project alone outside git)."""
    return next((i for i, folder in enumerate(folders) if os.path.lexists(folder / ".git")), 0)


def _owner(path: Path) -> int | None:
    try:
        return os.stat(path).st_uid
    except OSError:
        return None


def _user_name(uid: int | None) -> str:
    try:
        import pwd

        return f"{pwd.getpwuid(uid).pw_name} (uid {uid})" if uid is not None else "nobody known"
    except (ImportError, KeyError):
        return f"uid {uid}"


def _table(path: Path, table_path: tuple[str, ...]) -> dict[str, Any] | None:
    data: Any = read_toml(path, hint="fix the TOML, or run doctor with --no-config", kind=safe_read.SETTINGS)
    for key in table_path:
        data = data.get(key) if isinstance(data, dict) else None
    if data is not None and not isinstance(data, dict):
        raise HookwrightError(f"[{'.'.join(table_path)}] must be a table", path=path, hint="see docs/commands/doctor.md")
    return data


def _settings(path: Path, table: dict[str, Any]) -> Selection:
    where = f"[{'tool.hookwright.doctor' if path.name == 'pyproject.toml' else 'doctor'}]"  # (the error names the file)
    for key in table:
        if key not in KEYS:
            raise HookwrightError(f"unknown doctor setting {key!r} in {where}", path=path,
                                  hint=did_you_mean(key, KEYS) or f"the settings are {', '.join(KEYS)}")
    lists = {}
    for key in ("select", "ignore"):
        value = table.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise HookwrightError(f"{key} in {where} must be a list of rule ids or prefixes", path=path,
                                  hint=f'for example {key} = ["conflict", "command/home-path"]')
        lists[key] = tuple(_checked(value, f"{key} in {where}"))
    strict = table.get("strict", False)
    if not isinstance(strict, bool):
        raise HookwrightError(f"strict in {where} must be true or false", path=path)
    severity = table.get("min-severity", "info")
    return Selection(lists["select"], lists["ignore"], _severity(severity, f"min-severity in {where}"), strict,
                     str(path))


def _split(values: list[str]) -> list[str]:
    """`--select a,b --select c` is a, b and c."""
    return [part.strip() for value in values for part in value.split(",") if part.strip()]


def _checked(selectors: list[str], what: str) -> list[str]:
    if not selectors:  # (no catalog to read: a run reads the rules it words findings with alone, model.rule_by_id)
        return selectors
    rules = catalog()
    for selector in selectors:
        if not any(rule.startswith(selector) for rule in rules):
            raise HookwrightError(f"{what}: {selector!r} is no rule id and no prefix of one",
                                  hint=did_you_mean(selector, sorted({r.split("/")[0] for r in rules}) + list(rules))
                                  or "`hookwright doctor --explain` lists every rule")
    return selectors


def _severity(value: Any, what: str) -> str:
    if not isinstance(value, str) or value not in SEVERITIES:
        raise HookwrightError(f"{what} must be one of {', '.join(SEVERITIES)}, not {value!r}")
    return value
